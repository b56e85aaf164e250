/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_TLB_H__
#define __VACCEL_TLB_H__

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct vaccel_pt;

#define VACCEL_TLB_ENTRIES	64

/**
 * enum vaccel_access - what an engine does with memory
 * @VACCEL_ACCESS_READ: loads
 * @VACCEL_ACCESS_WRITE: stores
 * @VACCEL_ACCESS_EXEC: instruction fetches
 */
enum vaccel_access {
	VACCEL_ACCESS_READ = 0,
	VACCEL_ACCESS_WRITE = 1,
	VACCEL_ACCESS_EXEC = 2,
};

/**
 * enum vaccel_fault_reason - why a translation, a packet or a kernel failed
 * @VACCEL_FAULT_NONE: it did not
 * @VACCEL_FAULT_UNMAPPED: no valid entry maps the page
 * @VACCEL_FAULT_OUT_OF_RANGE: the address is outside the address space
 * @VACCEL_FAULT_PERMISSION: a write to a read-only page, or a fetch from a
 *	no-execute page
 * @VACCEL_FAULT_MALFORMED: a packet the engine cannot execute
 * @VACCEL_FAULT_ILLEGAL_INSTRUCTION: a kernel's instruction the engine
 *	does not implement
 * @VACCEL_FAULT_COMPRESSED: a compressed instruction
 * @VACCEL_FAULT_MISALIGNED: a misaligned jump target or atomic
 * @VACCEL_FAULT_CSR: an unknown CSR, or a write to a read-only one
 * @VACCEL_FAULT_TRAP: ECALL or EBREAK
 *
 * The values are those of &enum drm_vaccel_fault_reason, and those of
 * &enum vaccel_access those of &enum drm_vaccel_access.
 */
enum vaccel_fault_reason {
	VACCEL_FAULT_NONE = 0,
	VACCEL_FAULT_UNMAPPED = 1,
	VACCEL_FAULT_OUT_OF_RANGE = 2,
	VACCEL_FAULT_PERMISSION = 3,
	VACCEL_FAULT_MALFORMED = 4,
	VACCEL_FAULT_ILLEGAL_INSTRUCTION = 5,
	VACCEL_FAULT_COMPRESSED = 6,
	VACCEL_FAULT_MISALIGNED = 7,
	VACCEL_FAULT_CSR = 8,
	VACCEL_FAULT_TRAP = 9,
};

/**
 * struct vaccel_fault - a failed access, as an engine records it
 * @va: the first address of the access that could not be translated; for
 *	a kernel's fault other than an access, see "Faults" in compute.rst
 * @pc: for a kernel's fault, the address of the instruction; else 0
 * @access: &enum vaccel_access
 * @reason: &enum vaccel_fault_reason
 */
struct vaccel_fault {
	u64 va;
	u64 pc;
	u8 access;
	u8 reason;
};

/**
 * enum vaccel_mem_class - where an engine's access lands, for its counters
 * @VACCEL_MEM_LOCAL: the segment of the engine's own device
 * @VACCEL_MEM_SYSTEM: system memory
 * @VACCEL_MEM_PEER: the segment of another device, through the fabric
 * @VACCEL_MEM_ON_CHIP: a DISPATCH's local memory and stacks, which the
 *	engine keeps itself and no counter reports
 */
enum vaccel_mem_class {
	VACCEL_MEM_LOCAL,
	VACCEL_MEM_SYSTEM,
	VACCEL_MEM_PEER,
	VACCEL_MEM_ON_CHIP,
};

/* The classes the counters report. */
#define VACCEL_MEM_CLASSES	3

/**
 * struct vaccel_traffic - bytes an engine moved, by class of memory
 * @bytes: bytes read ([class][0]) and written ([class][1]) in each
 *	&enum vaccel_mem_class but %VACCEL_MEM_ON_CHIP
 */
struct vaccel_traffic {
	u64 bytes[VACCEL_MEM_CLASSES][2];
};

/**
 * struct vaccel_tlb_entry - one cached translation
 * @tag: virtual page number plus one; zero when the entry is empty
 * @pte: the level-0 entry
 */
struct vaccel_tlb_entry {
	u64 tag;
	u64 pte;
};

/**
 * struct vaccel_tlb - the translation cache of one engine
 * @lock: protects @pt and @entries, and is held across each access, or
 *	each slice of a dispatch, so that an invalidation waits for the
 *	accesses in flight; a mutex, so that a slice may yield the CPU
 * @pt: the address space the engine works in, or NULL
 * @pt_link: on &vaccel_pt.tlbs while attached
 * @hits: translations found in @entries
 * @misses: translations that walked the page table
 * @invalidations: invalidation requests received
 * @children: the TLBs behind this one (those of the compute units of an
 *	engine), which work in its address space and which an invalidation
 *	of this one invalidates too; under @lock
 * @child_link: on the parent's @children while attached to it
 * @local_base: the device physical address of the engine's own segment;
 *	U64_MAX if its device has none
 * @traffic: what the engine's accesses moved, by class of memory; written
 *	by the engine's thread only, read without a lock
 * @entries: direct-mapped by virtual page number
 */
struct vaccel_tlb {
	/* Protects @pt and @entries; held across each access, or slice. */
	struct mutex lock;
	struct vaccel_pt *pt;
	struct list_head pt_link;
	u64 hits;
	u64 misses;
	u64 invalidations;
	struct list_head children;
	struct list_head child_link;
	u64 local_base;
	struct vaccel_traffic traffic;
	struct vaccel_tlb_entry entries[VACCEL_TLB_ENTRIES];
};

void vaccel_tlb_init(struct vaccel_tlb *tlb);
void vaccel_tlb_attach(struct vaccel_tlb *tlb, struct vaccel_pt *pt);
void vaccel_tlb_detach(struct vaccel_tlb *tlb);
void vaccel_tlb_attach_child(struct vaccel_tlb *child, struct vaccel_tlb *parent);
void vaccel_tlb_detach_child(struct vaccel_tlb *child, struct vaccel_tlb *parent);
void vaccel_tlb_invalidate_in(struct vaccel_tlb *tlb, struct vaccel_pt *pt,
			      u64 va, u64 size);
void vaccel_tlb_lock(struct vaccel_tlb *tlb);
void vaccel_tlb_unlock(struct vaccel_tlb *tlb);
void *vaccel_tlb_page_locked(struct vaccel_tlb *tlb, u64 va,
			     enum vaccel_access access, struct vaccel_fault *fault,
			     enum vaccel_mem_class *mem_class);
enum vaccel_mem_class vaccel_tlb_mem_class(const struct vaccel_tlb *tlb,
					   bool device, u64 addr);
void vaccel_tlb_count(struct vaccel_tlb *tlb, enum vaccel_mem_class mem_class,
		      bool write, u64 bytes);
void vaccel_traffic_read(const struct vaccel_traffic *t,
			 struct vaccel_traffic *out);
int vaccel_tlb_read(struct vaccel_tlb *tlb, u64 va, void *dst, size_t len,
		    enum vaccel_access access, struct vaccel_fault *fault);
int vaccel_tlb_write(struct vaccel_tlb *tlb, u64 va, const void *src,
		     size_t len, struct vaccel_fault *fault);
int vaccel_tlb_peek(struct vaccel_tlb *tlb, const struct vaccel_pt *pt, u64 va,
		    void *dst, size_t len);
unsigned int vaccel_tlb_walk(struct vaccel_tlb *tlb, const struct vaccel_pt *pt,
			     u64 va, u64 *entries);

#endif /* __VACCEL_TLB_H__ */
