// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Device memory
 *
 * Every device has a segment of device memory, ``device_mem_mb`` MiB (the
 * GpuMmu model's memory segment, MGPUSim's per-device physical memory).  Its
 * addresses are device physical addresses: device i's segment begins at
 * DRM_VACCEL_DEVICE_MEM_BASE(i), 1 TiB apart, so that no two segments
 * overlap and a page-table entry names the segment and the page at once.
 * (A device bound again while its predecessor is still held gets a spare
 * base past the eighth, which the query reports.)
 * All segments together make the fabric that peers reach each other
 * through: an engine of one device translates an entry of another
 * device's segment as any other, with vaccel_devmem_page().
 *
 * The addresses are managed by the kernel's buddy allocator (gpu_buddy,
 * the allocator of xe's and amdgpu's VRAM managers), in 4 KiB pages: a BO
 * gets a list of power-of-two blocks, not one contiguous range, so that a
 * fragmented segment still serves large BOs.  The memory behind the
 * addresses is host memory, allocated, in runs of up to 2 MiB, when an
 * address is first used: a device of 64 GiB costs nothing until it is
 * used.  A range given back keeps its host pages in the segment's pool,
 * for the next range at those addresses, as VRAM stays when a BO leaves
 * it: a move into device memory then costs its copy, not the allocation
 * of as many host pages (which took three quarters of a 64 MiB move under
 * emulation).  A shrinker gives pooled pages back to the host when it
 * needs memory, and the device's release gives back the rest.  The pages
 * are the device's, bounded by ``device_mem_mb``, and charged to no
 * memory cgroup: a cgroup that placed a BO would otherwise stay charged
 * for pages that now hold another's.
 *
 * A range holds a reference on its segment's DRM device, so a segment
 * outlives every BO placed in it, even one a peer still maps after the
 * device was unbound.
 */

#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/shrinker.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/vaccel_accel.h>

#include "vaccel_devmem.h"
#include "vaccel_drv.h"
#include "vaccel_mmu.h"

/* The largest run of host pages allocated at once behind a range: 2 MiB. */
#define VACCEL_DEVMEM_MAX_ORDER	9

/*
 * The segments of every device alive, by slot: the fabric.  Device i takes
 * slot i; a device bound again while its predecessor of the same index is
 * still held (by open files, or a peer's mapping) takes a spare slot, so
 * the two never share addresses.
 */
#define VACCEL_FABRIC_SLOTS	(2 * VACCEL_MAX_DEVICES)
static struct vaccel_devmem *vaccel_fabric[VACCEL_FABRIC_SLOTS];
/* Protects the writers of vaccel_fabric, and lookups that take a reference. */
static DEFINE_MUTEX(vaccel_fabric_lock);

/* --- the pool of host pages ----------------------------------------------- */

/* Takes the pooled pages of the @n pages from @idx on; returns how many. */
static unsigned long vaccel_devmem_pool_take(struct vaccel_devmem *mem,
					     unsigned long idx, unsigned long n)
{
	unsigned long i, got = 0;

	spin_lock(&mem->pool_lock);
	for (i = idx; i < idx + n; i++) {
		if (__test_and_clear_bit(i, mem->pooled))
			got++;
	}
	mem->pooled_pages -= got;
	spin_unlock(&mem->pool_lock);
	return got;
}

/* Keeps the host page of @idx, which no range holds any more, for the next. */
static void vaccel_devmem_pool_put(struct vaccel_devmem *mem, unsigned long idx)
{
	spin_lock(&mem->pool_lock);
	__set_bit(idx, mem->pooled);
	mem->pooled_pages++;
	spin_unlock(&mem->pool_lock);
}

/* Frees up to @nr pooled pages; returns how many it freed. */
static unsigned long vaccel_devmem_pool_drain(struct vaccel_devmem *mem,
					      unsigned long nr)
{
	unsigned long npages = mem->size >> PAGE_SHIFT, freed = 0;

	while (freed < nr) {
		struct page *p;
		unsigned long idx;

		spin_lock(&mem->pool_lock);
		idx = find_next_bit(mem->pooled, npages, mem->pool_cursor);
		if (idx >= npages)
			idx = find_first_bit(mem->pooled, npages);
		if (idx >= npages) {
			spin_unlock(&mem->pool_lock);
			break;
		}
		__clear_bit(idx, mem->pooled);
		mem->pooled_pages--;
		mem->pool_cursor = idx + 1;
		p = mem->pages[idx];
		WRITE_ONCE(mem->pages[idx], NULL);
		spin_unlock(&mem->pool_lock);
		__free_page(p);
		/* A segment of 64 GiB holds 16 million pages: yield. */
		if (!(++freed % 512))
			cond_resched();
	}
	return freed;
}

static unsigned long vaccel_devmem_pool_count(struct shrinker *shrinker,
					      struct shrink_control *sc)
{
	struct vaccel_devmem *mem = shrinker->private_data;

	return READ_ONCE(mem->pooled_pages) ?: SHRINK_EMPTY;
}

static unsigned long vaccel_devmem_pool_scan(struct shrinker *shrinker,
					     struct shrink_control *sc)
{
	struct vaccel_devmem *mem = shrinker->private_data;
	unsigned long freed = vaccel_devmem_pool_drain(mem, sc->nr_to_scan);

	return freed ?: SHRINK_STOP;
}

/**
 * vaccel_devmem_pooled_bytes() - bytes of host memory a segment keeps free
 * @mem: the segment
 *
 * Context: Any context.
 * Return: a snapshot of the pool's size.
 */
u64 vaccel_devmem_pooled_bytes(struct vaccel_devmem *mem)
{
	return (u64)READ_ONCE(mem->pooled_pages) << PAGE_SHIFT;
}

/**
 * vaccel_devmem_shrink() - give a segment's pooled pages back to the host
 * @mem: the segment
 *
 * What the shrinker does under memory pressure, all at once.
 *
 * Context: Process context.
 * Return: the pages freed.
 */
unsigned long vaccel_devmem_shrink(struct vaccel_devmem *mem)
{
	return vaccel_devmem_pool_drain(mem, ULONG_MAX);
}

static void vaccel_devmem_release(struct drm_device *drm, void *data)
{
	struct vaccel_devmem *mem = data;
	u64 slot = (mem->base >> VACCEL_DEVMEM_SPAN_SHIFT) - 1;

	mutex_lock(&vaccel_fabric_lock);
	WRITE_ONCE(vaccel_fabric[slot], NULL);
	mutex_unlock(&vaccel_fabric_lock);
	shrinker_free(mem->shrinker);
	/* Every range held a reference on the device: only the pool is left. */
	vaccel_devmem_pool_drain(mem, ULONG_MAX);
	gpu_buddy_fini(&mem->mm);
	bitmap_free(mem->pooled);
	kvfree(mem->pages);
	mutex_destroy(&mem->lock);
}

/**
 * vaccel_devmem_init() - the memory segment of a new device
 * @vdev: the device, its topology set
 *
 * A device of ``device_mem_mb=0`` has no segment: @vdev->devmem stays NULL.
 *
 * Context: Process context.
 * Return: 0, -EBUSY if no slot of the fabric is free, or -ENOMEM.
 */
int vaccel_devmem_init(struct vaccel_device *vdev)
{
	u64 size = vdev->topo.device_mem_size;
	struct vaccel_devmem *mem;
	unsigned int slot;
	int ret;

	vdev->devmem = NULL;
	if (!size)
		return 0;
	if (vdev->index >= VACCEL_MAX_DEVICES)
		return -EINVAL;
	mem = drmm_kzalloc(&vdev->drm, sizeof(*mem), GFP_KERNEL);
	if (!mem)
		return -ENOMEM;
	mem->vdev = vdev;
	mem->region = DRM_VACCEL_REGION_DEVICE(vdev->index);
	mem->size = size;
	mutex_init(&mem->lock);
	INIT_LIST_HEAD(&mem->lru);
	init_waitqueue_head(&mem->free_wq);
	spin_lock_init(&mem->pool_lock);
	mem->pages = kvcalloc(size >> PAGE_SHIFT, sizeof(*mem->pages), GFP_KERNEL);
	mem->pooled = bitmap_zalloc(size >> PAGE_SHIFT, GFP_KERNEL);
	mem->shrinker = shrinker_alloc(0, "drm-vaccel%u-devmem", vdev->index);
	ret = mem->pages && mem->pooled && mem->shrinker ? 0 : -ENOMEM;
	if (!ret)
		ret = gpu_buddy_init(&mem->mm, size, PAGE_SIZE);
	if (ret) {
		shrinker_free(mem->shrinker);
		bitmap_free(mem->pooled);
		kvfree(mem->pages);
		mutex_destroy(&mem->lock);
		return ret;
	}
	mem->shrinker->count_objects = vaccel_devmem_pool_count;
	mem->shrinker->scan_objects = vaccel_devmem_pool_scan;
	mem->shrinker->private_data = mem;

	mutex_lock(&vaccel_fabric_lock);
	slot = vdev->index;
	if (vaccel_fabric[slot])
		for (slot = VACCEL_MAX_DEVICES; slot < VACCEL_FABRIC_SLOTS; slot++)
			if (!vaccel_fabric[slot])
				break;
	if (slot == VACCEL_FABRIC_SLOTS) {
		mutex_unlock(&vaccel_fabric_lock);
		gpu_buddy_fini(&mem->mm);
		shrinker_free(mem->shrinker);
		bitmap_free(mem->pooled);
		kvfree(mem->pages);
		mutex_destroy(&mem->lock);
		return -EBUSY;
	}
	mem->base = DRM_VACCEL_DEVICE_MEM_BASE(slot);
	WRITE_ONCE(vaccel_fabric[slot], mem);
	mutex_unlock(&vaccel_fabric_lock);
	shrinker_register(mem->shrinker);

	ret = drmm_add_action_or_reset(&vdev->drm, vaccel_devmem_release, mem);
	if (ret)
		return ret;
	vdev->devmem = mem;
	return 0;
}

/**
 * vaccel_devmem_get() - the segment of a region, for placing a BO there
 * @region: DRM_VACCEL_REGION_DEVICE() of some device
 *
 * Context: Process context.
 * Return: the segment with a reference on its device, or NULL if no
 * device of that index has one or the device is unplugged.
 */
struct vaccel_devmem *vaccel_devmem_get(u32 region)
{
	struct vaccel_devmem *mem = NULL;
	unsigned int slot;

	if (region < DRM_VACCEL_REGION_DEVICE(0) ||
	    region > DRM_VACCEL_REGION_DEVICE(VACCEL_MAX_DEVICES - 1))
		return NULL;
	mutex_lock(&vaccel_fabric_lock);
	for (slot = 0; slot < VACCEL_FABRIC_SLOTS && !mem; slot++) {
		struct vaccel_devmem *m = vaccel_fabric[slot];

		if (m && m->region == region && !drm_dev_is_unplugged(&m->vdev->drm))
			mem = m;
	}
	if (mem)
		drm_dev_get(&mem->vdev->drm);
	mutex_unlock(&vaccel_fabric_lock);
	return mem;
}

/**
 * vaccel_devmem_put() - drop the reference of vaccel_devmem_get()
 * @mem: the segment, or NULL
 *
 * Context: Process context.
 */
void vaccel_devmem_put(struct vaccel_devmem *mem)
{
	if (mem)
		drm_dev_put(&mem->vdev->drm);
}

/**
 * vaccel_devmem_free_bytes() - bytes of a segment not allocated
 * @mem: the segment
 *
 * A snapshot, without the lock, so that a wait may test it.
 *
 * Context: Any context.
 * Return: the free bytes at the time of the call.
 */
u64 vaccel_devmem_free_bytes(struct vaccel_devmem *mem)
{
	return READ_ONCE(mem->mm.avail);
}

/**
 * vaccel_devmem_range_init() - an empty range
 * @r: the range
 *
 * Context: Any context.
 */
void vaccel_devmem_range_init(struct vaccel_devmem_range *r)
{
	r->mem = NULL;
	INIT_LIST_HEAD(&r->blocks);
	r->addrs = NULL;
	r->npages = 0;
}

/**
 * vaccel_devmem_range_move() - hand a range over to another holder
 * @to: an empty range, receives @from's memory
 * @from: the range, left empty
 *
 * Context: Any context.
 */
void vaccel_devmem_range_move(struct vaccel_devmem_range *to,
			      struct vaccel_devmem_range *from)
{
	to->mem = from->mem;
	list_replace_init(&from->blocks, &to->blocks);
	to->addrs = from->addrs;
	to->npages = from->npages;
	vaccel_devmem_range_init(from);
}

/* Pools the host pages of the first @n pages of @r; frees its blocks. */
static void vaccel_devmem_unwind(struct vaccel_devmem *mem,
				 struct vaccel_devmem_range *r, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		vaccel_devmem_pool_put(mem, (r->addrs[i] - mem->base) >> PAGE_SHIFT);
		if (!(i % 512))
			cond_resched();
	}
	mutex_lock(&mem->lock);
	gpu_buddy_free_list(&mem->mm, &r->blocks, 0);
	mutex_unlock(&mem->lock);
	kvfree(r->addrs);
	vaccel_devmem_range_init(r);
	wake_up_all(&mem->free_wq);
}

/*
 * Host pages behind the @n pages from @idx that have none, taken from the
 * pool or not: those the pool gave are zeroed if @zero.  On failure, what
 * the run has goes to the pool.  Return: 0, -ENOMEM or -EINTR.
 */
static int vaccel_devmem_fill(struct vaccel_devmem *mem, unsigned long idx,
			      unsigned long n, bool zero, gfp_t gfp)
{
	unsigned long i;

	for (i = idx; i < idx + n; i++) {
		struct page *p = mem->pages[i];

		if (p) {
			if (zero)
				clear_highpage(p);
			continue;
		}
		p = fatal_signal_pending(current) ? NULL : vaccel_page_alloc(gfp, 0);
		if (!p)
			goto err_pool;
		WRITE_ONCE(mem->pages[i], p);
	}
	return 0;

err_pool:
	for (i = idx; i < idx + n; i++)
		if (mem->pages[i])
			vaccel_devmem_pool_put(mem, i);
	return fatal_signal_pending(current) ? -EINTR : -ENOMEM;
}

/*
 * Host pages behind the 2^@order pages from @idx, none of which has any:
 * a run at once where the host has one free, else page by page.
 */
static int vaccel_devmem_fill_run(struct vaccel_devmem *mem, unsigned long idx,
				  unsigned int order, gfp_t gfp)
{
	struct page *p = NULL;
	unsigned long k;

	/* Compacting memory for a run would cost more than the run saves. */
	if (order)
		p = vaccel_page_alloc((gfp | __GFP_NORETRY) & ~__GFP_DIRECT_RECLAIM,
				      order);
	if (!p)
		return vaccel_devmem_fill(mem, idx, 1ul << order, false, gfp);
	/* Each page is pooled and freed on its own. */
	split_page(p, order);
	for (k = 0; k < (1ul << order); k++)
		WRITE_ONCE(mem->pages[idx + k], p + k);
	return 0;
}

/**
 * vaccel_devmem_alloc() - allocate memory of a segment
 * @mem: the segment
 * @npages: 4 KiB pages wanted
 * @zero: clear the memory; a move that overwrites it all need not
 * @r: an empty range, filled
 *
 * Takes the addresses from the buddy allocator, then a host page behind
 * each: the segment's, charged to no memory cgroup (see "Device memory").
 *
 * Context: Process context; sleeps.
 * Return: 0; -ENOSPC if the segment has no room; -ENOMEM; -EINTR at a
 * fatal signal.
 */
int vaccel_devmem_alloc(struct vaccel_devmem *mem, unsigned long npages,
			bool zero, struct vaccel_devmem_range *r)
{
	gfp_t gfp = GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN |
		    (zero ? __GFP_ZERO : 0);
	struct gpu_buddy_block *block;
	unsigned long n = 0;
	int ret;

	vaccel_devmem_range_init(r);
	if (!npages || npages > mem->size >> PAGE_SHIFT)
		return -ENOSPC;
	r->addrs = kvmalloc_array(npages, sizeof(*r->addrs), VACCEL_GFP_SIZED);
	if (!r->addrs)
		return -ENOMEM;
	mutex_lock(&mem->lock);
	ret = gpu_buddy_alloc_blocks(&mem->mm, 0, mem->size,
				     (u64)npages << PAGE_SHIFT, PAGE_SIZE,
				     &r->blocks, 0);
	mutex_unlock(&mem->lock);
	if (ret) {
		kvfree(r->addrs);
		r->addrs = NULL;
		return ret == -ENOMEM ? -ENOMEM : -ENOSPC;
	}
	r->mem = mem;
	r->npages = npages;
	/* A test's hold point (see "Hold points"). */
	vaccel_hold_wait(&mem->vdev->hold_alloc);

	list_for_each_entry(block, &r->blocks, link) {
		u64 off = gpu_buddy_block_offset(block);
		u64 end = off + gpu_buddy_block_size(&mem->mm, block);

		while (off < end && n < npages) {
			unsigned int order = min_t(unsigned int, VACCEL_DEVMEM_MAX_ORDER,
						   ilog2((end - off) >> PAGE_SHIFT));
			unsigned long idx = off >> PAGE_SHIFT, k;

			/* What the pool has of the run, else host pages. */
			if (vaccel_devmem_pool_take(mem, idx, 1ul << order))
				ret = vaccel_devmem_fill(mem, idx, 1ul << order, zero, gfp);
			else
				ret = vaccel_devmem_fill_run(mem, idx, order, gfp);
			if (ret)
				goto err_unwind;
			for (k = 0; k < (1ul << order); k++, off += PAGE_SIZE)
				r->addrs[n++] = mem->base + off;
			cond_resched();
		}
	}
	drm_dev_get(&mem->vdev->drm);
	return 0;

err_unwind:
	vaccel_devmem_unwind(mem, r, n);
	return ret;
}

/**
 * vaccel_devmem_free() - give a range back to its segment
 * @r: the range, which no engine and no CPU mapping can reach any more;
 *	left empty.  Nothing happens if it is empty.
 *
 * Context: Process context; sleeps.
 */
void vaccel_devmem_free(struct vaccel_devmem_range *r)
{
	struct vaccel_devmem *mem = r->mem;

	if (!mem)
		return;
	vaccel_devmem_unwind(mem, r, r->npages);
	/* Last: the device may go with it. */
	drm_dev_put(&mem->vdev->drm);
}

/**
 * vaccel_devmem_page() - the host page behind a device physical address
 * @addr: the address, from a page-table entry
 *
 * Context: Any context; an engine translating an entry of its page table.
 * Return: the page, or NULL if no segment has memory at @addr.
 */
struct page *vaccel_devmem_page(u64 addr)
{
	u64 index = (addr >> VACCEL_DEVMEM_SPAN_SHIFT) - 1;
	struct vaccel_devmem *mem;
	u64 off;

	if (index >= VACCEL_FABRIC_SLOTS)
		return NULL;
	mem = READ_ONCE(vaccel_fabric[index]);
	if (!mem)
		return NULL;
	off = addr - mem->base;
	if (off >= mem->size || test_bit(off >> PAGE_SHIFT, mem->pooled))
		return NULL;
	return READ_ONCE(mem->pages[off >> PAGE_SHIFT]);
}

/**
 * vaccel_devmem_region_of() - the region a device physical address is in
 * @addr: the address, of a range allocated
 *
 * Context: Any context.
 * Return: DRM_VACCEL_REGION_DEVICE() of the segment's device, or
 * %DRM_VACCEL_REGION_SYSTEM if no segment is there.
 */
u32 vaccel_devmem_region_of(u64 addr)
{
	u64 index = (addr >> VACCEL_DEVMEM_SPAN_SHIFT) - 1;
	struct vaccel_devmem *mem;

	if (index >= VACCEL_FABRIC_SLOTS)
		return DRM_VACCEL_REGION_SYSTEM;
	mem = READ_ONCE(vaccel_fabric[index]);
	return mem ? mem->region : DRM_VACCEL_REGION_SYSTEM;
}
