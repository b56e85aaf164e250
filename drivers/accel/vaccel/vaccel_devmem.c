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
 * addresses is host memory, allocated, in runs of up to 2 MiB, when a range is
 * allocated and freed with it: a device of 64 GiB costs nothing until it is
 * used, and a range is charged to the memory cgroup of whoever placed it.
 *
 * A range holds a reference on its segment's DRM device, so a segment
 * outlives every BO placed in it, even one a peer still maps after the
 * device was unbound.
 */

#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/vaccel_accel.h>

#include "vaccel_devmem.h"
#include "vaccel_drv.h"

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

static void vaccel_devmem_release(struct drm_device *drm, void *data)
{
	struct vaccel_devmem *mem = data;
	u64 slot = (mem->base >> VACCEL_DEVMEM_SPAN_SHIFT) - 1;

	mutex_lock(&vaccel_fabric_lock);
	WRITE_ONCE(vaccel_fabric[slot], NULL);
	mutex_unlock(&vaccel_fabric_lock);
	/* Every range held a reference on the device: none is left. */
	gpu_buddy_fini(&mem->mm);
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
	mem->pages = kvcalloc(size >> PAGE_SHIFT, sizeof(*mem->pages), GFP_KERNEL);
	if (!mem->pages) {
		mutex_destroy(&mem->lock);
		return -ENOMEM;
	}
	ret = gpu_buddy_init(&mem->mm, size, PAGE_SIZE);
	if (ret) {
		kvfree(mem->pages);
		mutex_destroy(&mem->lock);
		return ret;
	}

	mutex_lock(&vaccel_fabric_lock);
	slot = vdev->index;
	if (vaccel_fabric[slot])
		for (slot = VACCEL_MAX_DEVICES; slot < VACCEL_FABRIC_SLOTS; slot++)
			if (!vaccel_fabric[slot])
				break;
	if (slot == VACCEL_FABRIC_SLOTS) {
		mutex_unlock(&vaccel_fabric_lock);
		gpu_buddy_fini(&mem->mm);
		kvfree(mem->pages);
		mutex_destroy(&mem->lock);
		return -EBUSY;
	}
	mem->base = DRM_VACCEL_DEVICE_MEM_BASE(slot);
	WRITE_ONCE(vaccel_fabric[slot], mem);
	mutex_unlock(&vaccel_fabric_lock);

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

/* Frees the backing of the first @n pages of @r and its blocks. */
static void vaccel_devmem_unwind(struct vaccel_devmem *mem,
				 struct vaccel_devmem_range *r, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		u64 idx = (r->addrs[i] - mem->base) >> PAGE_SHIFT;
		struct page *p = mem->pages[idx];

		WRITE_ONCE(mem->pages[idx], NULL);
		__free_page(p);
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

/**
 * vaccel_devmem_alloc() - allocate memory of a segment
 * @mem: the segment
 * @npages: 4 KiB pages wanted
 * @zero: clear the memory; a move that overwrites it all need not
 * @r: an empty range, filled
 *
 * Takes the addresses from the buddy allocator, then a host page behind
 * each, charged to the caller's memory cgroup.
 *
 * Context: Process context; sleeps.
 * Return: 0; -ENOSPC if the segment has no room; -ENOMEM; -EINTR at a
 * fatal signal.
 */
int vaccel_devmem_alloc(struct vaccel_devmem *mem, unsigned long npages,
			bool zero, struct vaccel_devmem_range *r)
{
	gfp_t gfp = GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN |
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

	list_for_each_entry(block, &r->blocks, link) {
		u64 off = gpu_buddy_block_offset(block);
		u64 end = off + gpu_buddy_block_size(&mem->mm, block);

		while (off < end && n < npages) {
			unsigned int order = min_t(unsigned int, VACCEL_DEVMEM_MAX_ORDER,
						   ilog2((end - off) >> PAGE_SHIFT));
			struct page *p = NULL;
			unsigned long k;

			/* Large runs at once where the host has them, else smaller. */
			while (!fatal_signal_pending(current)) {
				p = alloc_pages(gfp | (order ? __GFP_NORETRY : 0), order);
				if (p || !order)
					break;
				order--;
			}
			if (!p) {
				ret = fatal_signal_pending(current) ? -EINTR : -ENOMEM;
				goto err_unwind;
			}
			/* Each page is freed on its own. */
			if (order)
				split_page(p, order);
			for (k = 0; k < (1ul << order); k++, off += PAGE_SIZE) {
				WRITE_ONCE(mem->pages[off >> PAGE_SHIFT], p + k);
				r->addrs[n++] = mem->base + off;
			}
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
	if (off >= mem->size)
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
