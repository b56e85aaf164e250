// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Buffer objects
 *
 * A buffer object is a GEM object on shmem (drm_gem_shmem): system memory,
 * zero-filled on creation, mappable by the CPU through the device file, and
 * shareable as a dma-buf with the core PRIME ioctls.  Its pages are
 * allocated lazily, on the first CPU fault or GPU mapping, without invoking
 * the OOM killer: running out of memory is an ``-ENOMEM`` for the caller,
 * not a killed bystander.
 *
 * A GPU mapping pins the pages it maps (vaccel_bo_pin()) and holds a
 * reference on the object, so the pages stay while the mapping exists, even
 * after the handle is closed.  The shmem helper makes a whole BO resident
 * at once, for a CPU mmap as for a pin, in one loop that no signal stops:
 * for a BO of gigabytes that held a killed process (and its mmap_lock) for
 * minutes.  vaccel first faults the pages in itself, one at a time, and
 * gives up with ``-EINTR`` at a fatal signal (vaccel_bo_populate()); the
 * helper then finds them in the page cache.
 *
 * **Imports.**  An imported BO keeps the exporter's scatterlist mapped for
 * the device for its whole life, and needs no pinning.  vaccel reads it as
 * any DMA device does: through the DMA addresses of the mapping, never the
 * &struct page pointers of the table, which belong to the exporter (and
 * which ``CONFIG_DMABUF_DEBUG`` scrambles to catch importers that look).
 * vaccel's devices are coherent platform devices that DMA directly, so a
 * DMA address translates back to the physical address of the memory
 * (dma_to_phys()), and the engines reach it through the kernel's mapping
 * of that page.  Each segment must be page-aligned and be system RAM, and
 * the segments must cover the dma-buf exactly; an import that does not is
 * refused with ``-EINVAL``.  Memory
 * that is no system RAM (device memory offered peer to peer), and systems
 * where the device's DMA goes through an IOMMU or a bounce buffer, are
 * refused with ``-EOPNOTSUPP``: the engines could not reach the memory the
 * way the exporter meant.  hugetlb and THP memfds of udmabuf and vgem's
 * buffers import this way alike; buffers of another vaccel device do not:
 * they become peer objects (see "Peer mappings").
 *
 * A file holds at most max_bos_per_file BO handles (a module parameter, at
 * most and by default %VACCEL_MAX_BOS_PER_FILE); the GEM open
 * and close hooks count them, so created and imported BOs count alike.  The
 * device counts its BOs and their bytes, which debugfs reports, so that
 * tests can check that closing a file gives everything back.
 */

#include <linux/dma-buf.h>
#include <linux/dma-direct.h>
#include <linux/dma-map-ops.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/sched/signal.h>
#include <linux/shmem_fs.h>
#include <linux/swiotlb.h>
#include <linux/slab.h>

#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>
#include <drm/drm_vma_manager.h>
#include <drm/vaccel_accel.h>

#include "vaccel_devmem.h"
#include "vaccel_drv.h"
#include "vaccel_file.h"
#include "vaccel_gem.h"
#include "vaccel_migrate.h"
#include "vaccel_mmu.h"
#include "vaccel_vm.h"

#define VACCEL_BO_PLACEMENT_FLAGS \
	(DRM_VACCEL_BO_DEVICE | DRM_VACCEL_BO_DEVICE_PREFERRED)
#define VACCEL_BO_CREATE_FLAGS	(DRM_VACCEL_BO_NO_MMAP | VACCEL_BO_PLACEMENT_FLAGS)

static void vaccel_gem_free(struct drm_gem_object *obj)
{
	struct vaccel_bo *bo = to_vaccel_bo(obj);
	struct drm_device *drm = obj->dev;

	vaccel_bo_unaccount(obj);
	/* Every move held a reference: they are all done. */
	vaccel_bo_release_memory(bo);
	kvfree(bo->import_pages);
	mutex_destroy(&bo->gpuva_lock);
	drm_gem_shmem_free(&bo->base);
	drm_dev_put(drm);
}

/**
 * vaccel_bo_populate() - fault in the shmem pages of a BO, stoppably
 * @bo: the BO, created by vaccel
 *
 * Faults in every page, one folio at a time, as drm_gem_get_pages() would
 * (same mapping, same GFP flags, charged to the caller's memory cgroup),
 * but stops at a fatal signal and lets others run.  The pages are not
 * pinned: the helper's get_pages that follows finds them (or reads them
 * back from swap), so call it before taking the locks of a pin.
 *
 * Context: Process context, no lock held; sleeps.
 * Return: 0, -EINTR at a fatal signal, -ENOMEM.
 */
int vaccel_bo_populate(struct vaccel_bo *bo)
{
	struct address_space *mapping = bo->base.base.filp->f_mapping;
	pgoff_t i, npages = bo->base.base.size >> PAGE_SHIFT;

	if (READ_ONCE(bo->base.pages))
		return 0;
	for (i = 0; i < npages; i++) {
		struct folio *folio;

		if (fatal_signal_pending(current))
			return -EINTR;
		folio = shmem_read_folio_gfp(mapping, i, mapping_gfp_mask(mapping));
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		i = folio_next_index(folio) - 1;
		folio_put(folio);
		cond_resched();
	}
	return 0;
}

/*
 * Whether a fault may drop the mmap lock and ask to be retried; @wait:
 * whether it may wait before it does.
 */
static bool vaccel_bo_fault_may_retry(const struct vm_fault *vmf, bool *wait)
{
	*wait = !(vmf->flags & FAULT_FLAG_RETRY_NOWAIT);
	return vmf->flags & FAULT_FLAG_ALLOW_RETRY;
}

/*
 * Waits for @fence, or the reservation lock if @fence is NULL, with the
 * mmap lock dropped where the fault allows it, as TTM does: a move or a
 * lock holder that takes long then stalls nobody else's use of the
 * address space.  Return: what the fault returns.
 */
static vm_fault_t vaccel_bo_fault_wait(struct vm_fault *vmf,
				       struct drm_gem_object *obj,
				       struct dma_fence *fence)
{
	bool wait;

	if (!vaccel_bo_fault_may_retry(vmf, &wait)) {
		if (fence)
			dma_fence_wait(fence, true);
		else if (!dma_resv_lock_interruptible(obj->resv, NULL))
			dma_resv_unlock(obj->resv);
		return VM_FAULT_NOPAGE;
	}
	if (wait) {
		/* The VMA, and its reference on @obj, may go once unlocked. */
		drm_gem_object_get(obj);
		release_fault_lock(vmf);
		if (fence)
			dma_fence_wait(fence, true);
		else if (!dma_resv_lock_interruptible(obj->resv, NULL))
			dma_resv_unlock(obj->resv);
		drm_gem_object_put(obj);
	}
	return VM_FAULT_RETRY;
}

/*
 * The CPU's view of a BO, wherever it is: its shmem pages in system memory,
 * the pages behind its segment range in device memory (a BAR, on real
 * hardware).  A move zaps the CPU's page-table entries as it is queued; a
 * fault meanwhile waits for the move, whose fence signals only once the
 * data is in place and the page tables switched, then maps the new place.
 * Every wait drops the mmap lock where the fault allows it.  In system
 * memory the CPU's mappings share one pin of the shmem pages, which goes
 * when the BO moves to device memory or is freed; the first fault faults
 * the pages in without the locks, stoppably, and pins them on its retry.
 * A pin that fails is a SIGBUS for the faulting process, never the OOM
 * killer's business.
 */
static vm_fault_t vaccel_bo_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct drm_gem_object *obj = vma->vm_private_data;
	struct vaccel_bo *bo = to_vaccel_bo(obj);
	/* From the file offset: a partial munmap moves vm_start, not this. */
	pgoff_t off = vmf->pgoff - drm_vma_node_start(&obj->vma_node);
	struct dma_fence *moving;
	struct page *page;
	vm_fault_t ret;
	bool wait;
	int err;

	if (off >= obj->size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	if (!dma_resv_trylock(obj->resv))
		return vaccel_bo_fault_wait(vmf, obj, NULL);
	if (bo->moving && !dma_fence_is_signaled(bo->moving)) {
		moving = dma_fence_get(bo->moving);
		dma_resv_unlock(obj->resv);
		/* Finite: a move always completes; a signal retries the fault. */
		ret = vaccel_bo_fault_wait(vmf, obj, moving);
		dma_fence_put(moving);
		return ret;
	}
	if (bo->gpu_vram) {
		page = vaccel_devmem_page(bo->gpu_vram->addrs[off]);
	} else {
		if (!bo->cpu_pinned && !(vmf->flags & FAULT_FLAG_TRIED) &&
		    vaccel_bo_fault_may_retry(vmf, &wait)) {
			dma_resv_unlock(obj->resv);
			if (wait) {
				drm_gem_object_get(obj);
				release_fault_lock(vmf);
				vaccel_bo_populate(bo);
				drm_gem_object_put(obj);
			}
			return VM_FAULT_RETRY;
		}
		if (!bo->cpu_pinned) {
			err = drm_gem_shmem_pin_locked(&bo->base);
			if (err) {
				dma_resv_unlock(obj->resv);
				return err == -EINTR || err == -ERESTARTSYS ?
				       VM_FAULT_NOPAGE : VM_FAULT_SIGBUS;
			}
			bo->cpu_pinned = true;
		}
		page = bo->base.pages[off];
	}
	ret = vmf_insert_pfn(vma, vmf->address, page_to_pfn(page));
	dma_resv_unlock(obj->resv);
	return ret;
}

static const struct vm_operations_struct vaccel_bo_vm_ops = {
	.fault = vaccel_bo_fault,
	.open = drm_gem_vm_open,
	.close = drm_gem_vm_close,
};

static int vaccel_gem_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	struct vaccel_device *vdev = to_vaccel_device(obj->dev);
	struct vaccel_bo *bo = to_vaccel_bo(obj);
	int ret;

	if (VACCEL_IOCTL_DBG(vdev, bo->flags & DRM_VACCEL_BO_NO_MMAP))
		return -EPERM;
	if (obj->import_attach)
		return drm_gem_shmem_object_mmap(obj, vma);
	if (VACCEL_IOCTL_DBG(vdev, is_cow_mapping(vma->vm_flags)))
		return -EINVAL;
	/* Fault the pages in where a signal can stop it, not in the fault. */
	if (READ_ONCE(bo->region) == DRM_VACCEL_REGION_SYSTEM) {
		ret = vaccel_bo_populate(bo);
		if (ret)
			return ret;
	}
	vm_flags_set(vma, VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_page_prot = vm_get_page_prot(vma->vm_flags);
	return 0;
}

/*
 * dma-buf attachments of other drivers read the shmem pages: a BO they pin
 * stays in system memory, and one in device memory is not theirs to pin.
 */
static int vaccel_gem_pin(struct drm_gem_object *obj)
{
	struct vaccel_bo *bo = to_vaccel_bo(obj);
	int ret;

	dma_resv_assert_held(obj->resv);
	if (VACCEL_IOCTL_DBG(to_vaccel_device(obj->dev),
			     bo->region != DRM_VACCEL_REGION_SYSTEM))
		return -EOPNOTSUPP;
	ret = drm_gem_shmem_pin_locked(&bo->base);
	if (!ret)
		bo->export_pins++;
	return ret;
}

static void vaccel_gem_unpin(struct drm_gem_object *obj)
{
	struct vaccel_bo *bo = to_vaccel_bo(obj);

	dma_resv_assert_held(obj->resv);
	bo->export_pins--;
	drm_gem_shmem_unpin_locked(&bo->base);
}

static int vaccel_gem_vmap(struct drm_gem_object *obj, struct iosys_map *map)
{
	struct vaccel_bo *bo = to_vaccel_bo(obj);

	if (VACCEL_IOCTL_DBG(to_vaccel_device(obj->dev),
			     bo->region != DRM_VACCEL_REGION_SYSTEM))
		return -EOPNOTSUPP;
	return drm_gem_shmem_object_vmap(obj, map);
}

/**
 * vaccel_gem_open() - &drm_gem_object_funcs.open: a new handle of a BO
 * @obj: the BO
 * @file: the file the handle is in
 *
 * Context: Process context.
 * Return: 0, or -ENOSPC past the device's max_bos_per_file handles in
 * @file.
 */
int vaccel_gem_open(struct drm_gem_object *obj, struct drm_file *file)
{
	struct vaccel_file *vfile = file->driver_priv;

	if (VACCEL_IOCTL_DBG(vfile->vdev, atomic_inc_return(&vfile->bo_handles) >
				 vfile->vdev->topo.max_bos_per_file)) {
		atomic_dec(&vfile->bo_handles);
		return -ENOSPC;
	}
	return 0;
}

/**
 * vaccel_gem_close() - &drm_gem_object_funcs.close: a handle went
 * @obj: the BO
 * @file: the file the handle was in
 *
 * Context: Process context.
 */
void vaccel_gem_close(struct drm_gem_object *obj, struct drm_file *file)
{
	struct vaccel_file *vfile = file->driver_priv;

	atomic_dec(&vfile->bo_handles);
}

/*
 * Resident: pages allocated (CPU-faulted or pinned by a mapping) or
 * imported.  The shmem helpers change @pages under the reservation lock;
 * fdinfo asks under its file's table spinlock, where only a trylock is
 * allowed, so a contended lock gives the snapshot of one load.
 */
static enum drm_gem_object_status vaccel_gem_status(struct drm_gem_object *obj)
{
	struct vaccel_bo *bo = to_vaccel_bo(obj);
	bool resident;

	if (bo->import_pages || READ_ONCE(bo->gpu_vram))
		return DRM_GEM_OBJECT_RESIDENT;
	if (dma_resv_trylock(obj->resv)) {
		resident = bo->base.pages;
		dma_resv_unlock(obj->resv);
	} else {
		resident = READ_ONCE(bo->base.pages);
	}
	return resident ? DRM_GEM_OBJECT_RESIDENT : 0;
}

static const struct drm_gem_object_funcs vaccel_gem_funcs = {
	.free = vaccel_gem_free,
	.open = vaccel_gem_open,
	.close = vaccel_gem_close,
	.status = vaccel_gem_status,
	.print_info = drm_gem_shmem_object_print_info,
	.pin = vaccel_gem_pin,
	.unpin = vaccel_gem_unpin,
	.get_sg_table = drm_gem_shmem_object_get_sg_table,
	.vmap = vaccel_gem_vmap,
	.vunmap = drm_gem_shmem_object_vunmap,
	.mmap = vaccel_gem_mmap,
	.vm_ops = &vaccel_bo_vm_ops,
	.export = vaccel_gem_prime_export,
};

/**
 * vaccel_gem_create_object() - &drm_driver.gem_create_object
 * @drm: the device
 * @size: size of the object
 *
 * Context: Process context.
 * Return: the object embedded in a new &struct vaccel_bo, or an ERR_PTR.
 */
struct drm_gem_object *vaccel_gem_create_object(struct drm_device *drm,
						size_t size)
{
	struct vaccel_bo *bo;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	if (!bo)
		return ERR_PTR(-ENOMEM);
	bo->base.base.funcs = &vaccel_gem_funcs;
	/* The CPU sees the same cacheable pages the engines use. */
	bo->base.map_wc = false;
	mutex_init(&bo->gpuva_lock);
	drm_gem_gpuva_set_lock(&bo->base.base, &bo->gpuva_lock);
	bo->region = DRM_VACCEL_REGION_SYSTEM;
	bo->home = DRM_VACCEL_REGION_SYSTEM;
	INIT_LIST_HEAD(&bo->lru_link);
	INIT_DELAYED_WORK(&bo->shmem_release, vaccel_bo_shmem_release);
	return &bo->base.base;
}

/**
 * vaccel_bo_account() - count a BO that fully exists
 * @obj: the BO, created or imported
 *
 * The device counts its BOs and their bytes, and each BO holds a reference
 * on its device, so that one mapped by a peer outlives its device's
 * unbinding.  Done once the BO fully exists: the shmem helpers free an
 * object that failed half-way without calling its free function.
 *
 * Context: Any context.
 */
void vaccel_bo_account(struct drm_gem_object *obj)
{
	struct vaccel_device *vdev = to_vaccel_device(obj->dev);

	drm_dev_get(obj->dev);
	atomic64_inc(&vdev->bo_count);
	atomic64_add(obj->size, &vdev->bo_bytes);
}

/**
 * vaccel_bo_unaccount() - undo vaccel_bo_account() for a BO being freed
 * @obj: the BO
 *
 * The caller drops the device reference once it is done with the BO.
 *
 * Context: Any context.
 */
void vaccel_bo_unaccount(struct drm_gem_object *obj)
{
	struct vaccel_device *vdev = to_vaccel_device(obj->dev);

	atomic64_dec(&vdev->bo_count);
	atomic64_sub(obj->size, &vdev->bo_bytes);
}

/*
 * The pages of a DMA mapping for vaccel device @dev, one per 4 KiB, from
 * its DMA addresses.  Return: 0, -EINVAL for a segment that is misaligned
 * or segments that do not cover @npages pages exactly, -EOPNOTSUPP for one
 * that is no system RAM.
 */
static int vaccel_gem_dma_pages(struct vaccel_device *vdev, struct device *dev,
				struct sg_table *sgt, struct page **pages,
				size_t npages)
{
	struct scatterlist *sg;
	size_t n = 0;
	unsigned int i;

	for_each_sgtable_dma_sg(sgt, sg, i) {
		/* Direct DMA: the address translates back to the memory's. */
		phys_addr_t addr = dma_to_phys(dev, sg_dma_address(sg));
		unsigned int len = sg_dma_len(sg);
		unsigned long pfn, k;

		if (VACCEL_IOCTL_DBG(vdev, !PAGE_ALIGNED(addr)) ||
		    VACCEL_IOCTL_DBG(vdev, !PAGE_ALIGNED(len)) ||
		    VACCEL_IOCTL_DBG(vdev, len >> PAGE_SHIFT > npages - n))
			return -EINVAL;
		pfn = PHYS_PFN(addr);
		for (k = 0; k < len >> PAGE_SHIFT; k++, pfn++) {
			if (VACCEL_IOCTL_DBG(vdev, !pfn_valid(pfn)) ||
			    VACCEL_IOCTL_DBG(vdev, !page_is_ram(pfn)) ||
			    VACCEL_IOCTL_DBG(vdev, is_zone_device_page(pfn_to_page(pfn))))
				return -EOPNOTSUPP;
			pages[n++] = pfn_to_page(pfn);
		}
	}
	if (VACCEL_IOCTL_DBG(vdev, n != npages))
		return -EINVAL;
	return 0;
}

/**
 * vaccel_gem_prime_import_sg_table() - &drm_driver.gem_prime_import_sg_table
 * @drm: the importing device
 * @attach: the dma-buf attachment
 * @sgt: the exporter's pages, mapped for @drm
 *
 * Context: Process context.
 * Return: a new BO over the pages of @sgt, or an ERR_PTR.
 */
struct drm_gem_object *
vaccel_gem_prime_import_sg_table(struct drm_device *drm,
				 struct dma_buf_attachment *attach,
				 struct sg_table *sgt)
{
	struct vaccel_device *vdev = to_vaccel_device(drm);
	size_t npages = attach->dmabuf->size >> PAGE_SHIFT;
	struct drm_gem_object *obj;
	struct page **pages;
	int ret;

	if (VACCEL_IOCTL_DBG(vdev, !PAGE_ALIGNED(attach->dmabuf->size)) ||
	    VACCEL_IOCTL_DBG(vdev, attach->dmabuf->size > VACCEL_MAX_BO_SIZE))
		return ERR_PTR(-EINVAL);
	/* The device reaches memory at its DMA address, or not at all. */
	if (VACCEL_IOCTL_DBG(vdev, device_iommu_mapped(attach->dev)) ||
	    VACCEL_IOCTL_DBG(vdev, is_swiotlb_force_bounce(attach->dev)) ||
	    VACCEL_IOCTL_DBG(vdev, !dev_is_dma_coherent(attach->dev)))
		return ERR_PTR(-EOPNOTSUPP);

	pages = kvmalloc_array(npages, sizeof(*pages), VACCEL_GFP_SIZED);
	if (!pages)
		return ERR_PTR(-ENOMEM);
	ret = vaccel_gem_dma_pages(vdev, attach->dev, sgt, pages, npages);
	if (ret)
		goto err_free_pages;

	obj = drm_gem_shmem_prime_import_sg_table(drm, attach, sgt);
	if (IS_ERR(obj)) {
		ret = PTR_ERR(obj);
		goto err_free_pages;
	}
	to_vaccel_bo(obj)->import_pages = pages;
	vaccel_bo_account(obj);
	return obj;

err_free_pages:
	kvfree(pages);
	return ERR_PTR(ret);
}

/**
 * vaccel_bo_pin() - make the pages of a BO resident for a GPU mapping
 * @bo: the BO
 *
 * Context: Process context, may sleep and allocate.
 * Return: 0, -ENOMEM, or -EINTR if a signal arrived.
 */
int vaccel_bo_pin(struct vaccel_bo *bo)
{
	struct dma_resv *resv = bo->base.base.resv;
	int ret;

	if (vaccel_bo_is_imported(bo))
		return 0;
	if (READ_ONCE(bo->region) == DRM_VACCEL_REGION_SYSTEM) {
		ret = vaccel_bo_populate(bo);
		if (ret)
			return ret;
	}
	ret = dma_resv_lock_interruptible(resv, NULL);
	if (ret)
		return ret;
	/* In device memory the pages are the segment's, and stay. */
	if (bo->region == DRM_VACCEL_REGION_SYSTEM)
		ret = drm_gem_shmem_pin_locked(&bo->base);
	if (!ret) {
		bo->gpu_pins++;
		vaccel_bo_touch(bo);
	}
	dma_resv_unlock(resv);
	return ret;
}

/**
 * vaccel_bo_pin_again() - one more pin of a BO that is pinned already
 * @bo: the BO, pinned by the caller
 *
 * Used when a mapping is split in two; cannot fail since the pages are
 * resident.
 *
 * Context: Process context.
 */
void vaccel_bo_pin_again(struct vaccel_bo *bo)
{
	if (vaccel_bo_is_imported(bo))
		return;
	dma_resv_lock(bo->base.base.resv, NULL);
	bo->gpu_pins++;
	/* Resident pages: this only counts one more user. */
	if (bo->region == DRM_VACCEL_REGION_SYSTEM)
		drm_WARN_ON(bo->base.base.dev, !bo->base.pages ||
			    drm_gem_shmem_pin_locked(&bo->base));
	dma_resv_unlock(bo->base.base.resv);
}

/**
 * vaccel_bo_unpin() - drop a pin taken by vaccel_bo_pin() or vaccel_bo_pin_again()
 * @bo: the BO
 *
 * Context: Process context.
 */
void vaccel_bo_unpin(struct vaccel_bo *bo)
{
	if (vaccel_bo_is_imported(bo))
		return;
	dma_resv_lock(bo->base.base.resv, NULL);
	bo->gpu_pins--;
	if (bo->region == DRM_VACCEL_REGION_SYSTEM)
		drm_gem_shmem_unpin_locked(&bo->base);
	dma_resv_unlock(bo->base.base.resv);
}

/**
 * vaccel_bo_pages() - the pages of a pinned or imported BO
 * @bo: the BO
 *
 * Context: Any context.
 * Return: one page per 4 KiB of the BO.
 */
struct page **vaccel_bo_pages(struct vaccel_bo *bo)
{
	return bo->import_pages ?: bo->base.pages;
}

/**
 * vaccel_bo_frames() - what a page-table entry of a BO's page points at
 * @bo: the BO, mapped (so pinned) by the caller's mapping
 * @offset: byte offset of the first page in @bo, page aligned
 * @f: filled: the pages of system memory, or the device physical
 *	addresses, of the BO from @offset on
 *
 * Context: Under the page-table lock of a VM that maps @bo, which orders
 * the read against the switch of a move (see "Moving a BO").
 */
void vaccel_bo_frames(struct vaccel_bo *bo, u64 offset,
		      struct vaccel_pt_frames *f)
{
	struct vaccel_devmem_range *vram = READ_ONCE(bo->gpu_vram);
	unsigned long first = offset >> PAGE_SHIFT;

	f->pages = NULL;
	f->addrs = NULL;
	if (vram)
		f->addrs = vram->addrs + first;
	else
		f->pages = vaccel_bo_pages(bo) + first;
}

/**
 * vaccel_bo_placement() - the placement flags a BO was created or moved with
 * @bo: the BO
 *
 * Context: Any context.
 * Return: %DRM_VACCEL_BO_DEVICE, %DRM_VACCEL_BO_DEVICE_PREFERRED or 0.
 */
u32 vaccel_bo_placement(const struct vaccel_bo *bo)
{
	return READ_ONCE(bo->flags) &
	       (DRM_VACCEL_BO_DEVICE | DRM_VACCEL_BO_DEVICE_PREFERRED);
}

/**
 * vaccel_gem_show_region_stats() - fdinfo's memory keys per region
 * @p: the printer
 * @file: the file whose BOs are counted
 *
 * ``drm-total-<region>``, ``drm-shared-<region>`` and
 * ``drm-resident-<region>`` for system memory (``system``) and each device
 * segment that holds a BO of the file (``vram<index>``), where each BO
 * counts once, in the region it is in or moving to: the regions are
 * disjoint, as drm-usage-stats asks, so tools that add them up count
 * each byte once.
 *
 * Context: Process context; takes the file's table spinlock.
 */
void vaccel_gem_show_region_stats(struct drm_printer *p, struct drm_file *file)
{
	struct drm_memory_stats stats[1 + VACCEL_MAX_DEVICES] = {};
	struct drm_gem_object *obj;
	char name[16];
	u32 used = BIT(DRM_VACCEL_REGION_SYSTEM);
	int id, r;

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, obj, id) {
		struct vaccel_bo *bo = vaccel_bo_resolve(to_vaccel_bo(obj));
		u32 region = READ_ONCE(bo->region);
		struct drm_memory_stats *st;

		if (region > VACCEL_MAX_DEVICES)
			region = DRM_VACCEL_REGION_SYSTEM;
		st = &stats[region];
		used |= BIT(region);
		if (drm_gem_object_is_shared_for_memory_stats(obj))
			st->shared += obj->size;
		else
			st->private += obj->size;
		if (obj->funcs->status(obj) & DRM_GEM_OBJECT_RESIDENT)
			st->resident += obj->size;
	}
	spin_unlock(&file->table_lock);

	for (r = 0; r <= VACCEL_MAX_DEVICES; r++) {
		if (!(used & BIT(r)))
			continue;
		if (r == DRM_VACCEL_REGION_SYSTEM)
			strscpy(name, "system");
		else
			snprintf(name, sizeof(name), "vram%u", r - DRM_VACCEL_REGION_DEVICE(0));
		drm_print_memory_stats(p, &stats[r], DRM_GEM_OBJECT_RESIDENT, name);
	}
}

/**
 * vaccel_ioctl_bo_create() - handler of %DRM_IOCTL_VACCEL_BO_CREATE
 * @drm: the device
 * @data: &struct drm_vaccel_bo_create
 * @file: the caller
 *
 * Context: Process context.
 * Return: 0 or a negative errno as documented at &struct drm_vaccel_bo_create.
 */
int vaccel_ioctl_bo_create(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct vaccel_device *vdev = to_vaccel_device(drm);
	struct drm_vaccel_bo_create *args = data;
	struct drm_gem_shmem_object *shmem;
	int ret;

	if (VACCEL_IOCTL_DBG(vdev, !args->size) ||
	    VACCEL_IOCTL_DBG(vdev, args->flags & ~VACCEL_BO_CREATE_FLAGS) ||
	    VACCEL_IOCTL_DBG(vdev, !(~args->flags & VACCEL_BO_PLACEMENT_FLAGS)))
		return -EINVAL;
	if (VACCEL_IOCTL_DBG(vdev, args->size > VACCEL_MAX_BO_SIZE))
		return -E2BIG;

	shmem = drm_gem_shmem_create(drm, PAGE_ALIGN(args->size));
	/*
	 * shmem reports a failed inode allocation as -ENOSPC, which our uapi
	 * keeps for the per-file handle limit: it is memory that ran out.
	 */
	if (PTR_ERR_OR_ZERO(shmem) == -ENOSPC)
		return -ENOMEM;
	if (IS_ERR(shmem))
		return PTR_ERR(shmem);
	vaccel_bo_account(&shmem->base);
	to_vaccel_bo(&shmem->base)->flags = args->flags;
	if (args->flags & VACCEL_BO_PLACEMENT_FLAGS) {
		ret = vaccel_bo_place_new(to_vaccel_bo(&shmem->base), file);
		if (ret) {
			drm_gem_object_put(&shmem->base);
			return ret;
		}
	}

	ret = drm_gem_handle_create(file, &shmem->base, &args->handle);
	/* The handle holds the reference now, or creating it failed. */
	drm_gem_object_put(&shmem->base);
	if (ret)
		return ret;
	args->size = shmem->base.size;
	return 0;
}

/**
 * vaccel_ioctl_bo_mmap_offset() - handler of %DRM_IOCTL_VACCEL_BO_MMAP_OFFSET
 * @drm: the device
 * @data: &struct drm_vaccel_bo_mmap_offset
 * @file: the caller
 *
 * Context: Process context.
 * Return: 0 or a negative errno as documented at &struct drm_vaccel_bo_mmap_offset.
 */
int vaccel_ioctl_bo_mmap_offset(struct drm_device *drm, void *data,
				struct drm_file *file)
{
	struct vaccel_device *vdev = to_vaccel_device(drm);
	struct drm_vaccel_bo_mmap_offset *args = data;
	struct drm_gem_object *obj;
	int ret = 0;

	if (VACCEL_IOCTL_DBG(vdev, args->pad))
		return -EINVAL;
	obj = drm_gem_object_lookup(file, args->handle);
	if (VACCEL_IOCTL_DBG(vdev, !obj))
		return -ENOENT;
	if (VACCEL_IOCTL_DBG(vdev, to_vaccel_bo(obj)->flags & DRM_VACCEL_BO_NO_MMAP))
		ret = -EPERM;
	else
		args->offset = drm_vma_node_offset_addr(&obj->vma_node);
	drm_gem_object_put(obj);
	return ret;
}

/**
 * vaccel_ioctl_bo_info() - handler of %DRM_IOCTL_VACCEL_BO_INFO
 * @drm: the device
 * @data: &struct drm_vaccel_bo_info
 * @file: the caller
 *
 * Context: Process context.
 * Return: 0 or a negative errno as documented at &struct drm_vaccel_bo_info.
 */
int vaccel_ioctl_bo_info(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct vaccel_device *vdev = to_vaccel_device(drm);
	struct vaccel_file *vfile = file->driver_priv;
	struct drm_vaccel_bo_info *args = data;
	struct drm_gem_object *obj;
	struct vaccel_bo *bo;

	if (VACCEL_IOCTL_DBG(vdev, args->pad))
		return -EINVAL;
	obj = drm_gem_object_lookup(file, args->handle);
	if (VACCEL_IOCTL_DBG(vdev, !obj))
		return -ENOENT;
	/* A peer object answers for the exporter's BO. */
	bo = vaccel_bo_resolve(to_vaccel_bo(obj));
	args->flags = READ_ONCE(bo->flags);
	if (vaccel_bo_is_imported(bo) || to_vaccel_bo(obj)->peer)
		args->flags |= DRM_VACCEL_BO_IMPORTED;
	args->size = obj->size;
	args->mappings = vaccel_vm_bo_mappings(vfile->vm, bo);
	args->region = READ_ONCE(bo->region);
	args->evictions = atomic_read(&bo->evictions);
	drm_gem_object_put(obj);
	return 0;
}
