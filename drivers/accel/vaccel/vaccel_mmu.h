/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_MMU_H__
#define __VACCEL_MMU_H__

#include <linux/atomic.h>
#include <linux/gfp.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

struct page;
struct vaccel_tlb;

#define VACCEL_PT_LEVELS	4
#define VACCEL_PT_ENTRIES	512
#define VACCEL_PT_SHIFT		9
/* TLBs that may be attached to one page table: one per engine. */
#define VACCEL_PT_MAX_TLBS	32

/**
 * struct vaccel_pt - the page table of one GPU address space
 * @root: the level-3 table, whose page frame is the address space's root
 *	pointer
 * @lock: the owner's lock that serialises the writers of the tables
 * @va_start: lowest VA that may be mapped
 * @va_end: end (exclusive) of the VAs that may be mapped
 * @pages: page-table pages in the tree or waiting to be freed, root included
 * @reserved: page-table pages held in reserves for updates to come
 * @zombies: table pages taken out of the tree, freed by
 *	vaccel_pt_release_zombies() once no TLB can be walking them
 * @tlb_lock: protects @tlbs
 * @tlbs: the TLBs attached to this address space, which may hold its
 *	translations and walk its tables
 * @tlb_wq: woken, under @tlb_lock, when a TLB detaches
 *
 * The tables are written by one writer at a time, under the lock of the
 * owner (the VM's page-table lock), and walked without a lock by the TLBs
 * attached to @tlbs, each under its own lock.  A table page leaves the
 * tree before it is freed, and is freed only after every attached TLB has
 * been invalidated, which waits for the walks in flight.
 */
struct vaccel_pt {
	u64 *root;
	/* The owner's: serialises the writers of the tables. */
	struct mutex *lock;
	u64 va_start;
	u64 va_end;
	atomic_long_t pages;
	atomic_long_t reserved;
	struct list_head zombies;
	/* Protects @tlbs; nests inside a TLB's own lock (attach, detach). */
	spinlock_t tlb_lock;
	struct list_head tlbs;
	wait_queue_head_t tlb_wq;
};

/**
 * struct vaccel_pt_frames - what the entries of a range point at
 * @pages: pages of system memory, one per 4 KiB; or NULL
 * @addrs: when @pages is NULL, device physical addresses, one per 4 KiB
 */
struct vaccel_pt_frames {
	struct page **pages;
	const u64 *addrs;
};

/**
 * struct vaccel_pt_reserve - table pages set aside for updates to come
 * @pages: the pages, zeroed, on their &page.lru
 * @count: how many
 */
struct vaccel_pt_reserve {
	struct list_head pages;
	unsigned long count;
};

struct page *vaccel_page_alloc(gfp_t gfp, unsigned int order);
int vaccel_pt_init(struct vaccel_pt *pt, u64 va_start, u64 va_end, struct mutex *lock);
void vaccel_pt_fini(struct vaccel_pt *pt);
unsigned long vaccel_pt_tables_for(u64 va, u64 size);
void vaccel_pt_reserve_init(struct vaccel_pt_reserve *r);
int vaccel_pt_reserve_fill(struct vaccel_pt *pt, struct vaccel_pt_reserve *r,
			   unsigned long count);
void vaccel_pt_reserve_release(struct vaccel_pt *pt, struct vaccel_pt_reserve *r);
unsigned long vaccel_pt_footprint(const struct vaccel_pt *pt);
void vaccel_pt_map(struct vaccel_pt *pt, u64 va, u64 size,
		   const struct vaccel_pt_frames *f, u64 flags,
		   struct vaccel_pt_reserve *r);
unsigned long vaccel_pt_remap(struct vaccel_pt *pt, u64 va, u64 size,
			      const struct vaccel_pt_frames *from,
			      const struct vaccel_pt_frames *to);
void vaccel_pt_unmap(struct vaccel_pt *pt, u64 va, u64 size);
u64 vaccel_pt_skip_unmapped(const struct vaccel_pt *pt, u64 va, u64 end);
void vaccel_pt_prune(struct vaccel_pt *pt, u64 va, u64 size);
unsigned int vaccel_pt_invalidate(struct vaccel_pt *pt, u64 va, u64 size);
void vaccel_pt_release_zombies(struct vaccel_pt *pt);
u64 vaccel_pt_walk(const struct vaccel_pt *pt, u64 va);
unsigned int vaccel_pt_walk_levels(const struct vaccel_pt *pt, u64 va,
				   u64 entries[VACCEL_PT_LEVELS]);
u64 vaccel_pt_entry_identity(u64 entry);

void vaccel_pt_visit_leaves(const struct vaccel_pt *pt,
			    void (*fn)(u64 va, u64 pte, void *data),
			    void *data);

#endif /* __VACCEL_MMU_H__ */
