/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_DEVMEM_H__
#define __VACCEL_DEVMEM_H__

#include <linux/atomic.h>
#include <linux/gpu_buddy.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

struct page;
struct vaccel_device;

/* Each segment has 1 TiB of device physical addresses to itself. */
#define VACCEL_DEVMEM_SPAN_SHIFT	40

/**
 * struct vaccel_devmem - the memory segment of one device
 * @vdev: the device it belongs to
 * @region: its region id, DRM_VACCEL_REGION_DEVICE(index)
 * @base: device physical address of its first byte
 * @size: bytes
 * @lock: protects @mm and @lru; allocates under it, so never taken by an
 *	engine
 * @mm: the buddy allocator of the segment's addresses
 * @pages: the host page behind each 4 KiB of the segment, NULL where
 *	nothing is allocated or pooled.  An entry is written only by the
 *	holder of the range it belongs to, or with its bit of @pooled under
 *	@pool_lock, and read by the engines without a lock, as a translation
 *	to an address is only ever made while it is allocated
 * @lru: BOs placed in the segment, least recently used first
 *	(&vaccel_bo.lru_link)
 * @free_wq: woken when memory of the segment is given back
 * @evictions: BOs evicted from the segment to make room
 * @moved_in: bytes moved into the segment
 * @moved_out: bytes moved out of it
 * @releasing: moves out of the segment whose range is not given back yet
 * @pool_lock: protects @pooled and @pooled_pages; no allocation under it
 * @pooled: a bit per 4 KiB of the segment whose host page in @pages is
 *	kept, free, for the next range there (see "Device memory")
 * @pooled_pages: bits set in @pooled
 * @pool_cursor: where the shrinker looks next in @pooled
 * @shrinker: gives the pooled pages back when the host needs memory
 */
struct vaccel_devmem {
	struct vaccel_device *vdev;
	u32 region;
	u64 base;
	u64 size;
	/* Protects @mm and @lru. */
	struct mutex lock;
	struct gpu_buddy mm;
	struct page **pages;
	struct list_head lru;
	wait_queue_head_t free_wq;
	atomic64_t evictions;
	atomic64_t moved_in;
	atomic64_t moved_out;
	atomic_t releasing;
	/* Protects @pooled and @pooled_pages. */
	spinlock_t pool_lock;
	unsigned long *pooled;
	unsigned long pooled_pages;
	unsigned long pool_cursor;
	struct shrinker *shrinker;
};

/**
 * struct vaccel_devmem_range - the memory of one BO in a segment
 * @mem: the segment, whose device a reference keeps; NULL when empty
 * @blocks: the buddy blocks
 * @addrs: the device physical address of each page of the BO
 * @npages: number of @addrs
 */
struct vaccel_devmem_range {
	struct vaccel_devmem *mem;
	struct list_head blocks;
	u64 *addrs;
	unsigned long npages;
};

int vaccel_devmem_init(struct vaccel_device *vdev);
struct vaccel_devmem *vaccel_devmem_get(u32 region);
void vaccel_devmem_put(struct vaccel_devmem *mem);
u64 vaccel_devmem_free_bytes(struct vaccel_devmem *mem);
u64 vaccel_devmem_pooled_bytes(struct vaccel_devmem *mem);
unsigned long vaccel_devmem_shrink(struct vaccel_devmem *mem);
void vaccel_devmem_range_init(struct vaccel_devmem_range *r);
int vaccel_devmem_alloc(struct vaccel_devmem *mem, unsigned long npages,
			bool zero, struct vaccel_devmem_range *r);
void vaccel_devmem_free(struct vaccel_devmem_range *r);
void vaccel_devmem_range_move(struct vaccel_devmem_range *to,
			      struct vaccel_devmem_range *from);
struct page *vaccel_devmem_page(u64 addr);
u32 vaccel_devmem_region_of(u64 addr);

#endif /* __VACCEL_DEVMEM_H__ */
