/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_GEM_H__
#define __VACCEL_GEM_H__

#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/workqueue.h>

#include <drm/drm_gem_shmem_helper.h>

struct dma_buf;
struct dma_buf_attachment;
struct dma_fence;
struct drm_device;
struct drm_file;
struct drm_printer;
struct sg_table;
struct vaccel_devmem_range;
struct vaccel_pt_frames;

/* Limits reported by the device query. */
#define VACCEL_MAX_BO_SIZE		SZ_4G

/**
 * struct vaccel_bo - a buffer object
 * @base: the shmem GEM object
 * @flags: DRM_VACCEL_BO_* creation flags
 * @gpuva_lock: protects the GEM object's list of VM bindings
 *	(&drm_gem_object.gpuva), as drm_gpuvm requires
 * @import_pages: for an imported BO, its pages, from the dma-buf's
 *	scatterlist; NULL otherwise
 * @peer: for a peer object, the BO of another vaccel device it stands
 *	for (see "Peer mappings"); NULL otherwise
 * @peer_buf: for a peer object, the dma-buf it was imported from,
 *	referenced; it holds @peer
 * @region: the region the BO is in once the moves queued so far are done,
 *	DRM_VACCEL_REGION_*; under the reservation lock
 * @vram: the segment memory of @region, NULL for system memory; under the
 *	reservation lock
 * @gpu_vram: the segment memory the page tables point at, NULL for the
 *	shmem pages: @vram once the queued moves are done.  Written by a move
 *	as it switches; read by the writers of page tables under their VM's
 *	page-table lock, and by the CPU fault handler once moves are done
 * @gpu_pins: pins of the BO's GPU mappings (vaccel_bo_pin()); each holds a
 *	pin of the shmem pages while @region is system memory.  Under the
 *	reservation lock
 * @export_pins: pins of dma-buf attachments, which keep the BO in system
 *	memory; under the reservation lock
 * @cpu_pinned: a pin of the shmem pages serves the CPU's mappings; under
 *	the reservation lock
 * @moving: the finished fence of the last move queued, or NULL; under the
 *	reservation lock
 * @home: where the BO belongs: @region but while evicted; under the
 *	reservation lock
 * @lru_link: on the segment's LRU while @vram, under its lock
 * @last_use: when the BO was last mapped or moved in, on the LRU's clock
 * @evictions: times the BO was evicted
 * @shmem_release: frees the shmem pages a while after the BO left system
 *	memory (vaccel_bo_shmem_release())
 */
struct vaccel_bo {
	struct drm_gem_shmem_object base;
	u32 flags;
	/* Protects the GEM object's list of VM bindings. */
	struct mutex gpuva_lock;
	struct page **import_pages;
	struct vaccel_bo *peer;
	struct dma_buf *peer_buf;
	u32 region;
	struct vaccel_devmem_range *vram;
	struct vaccel_devmem_range *gpu_vram;
	u32 gpu_pins;
	u32 export_pins;
	bool cpu_pinned;
	struct dma_fence *moving;
	u32 home;
	struct list_head lru_link;
	u64 last_use;
	atomic_t evictions;
	struct delayed_work shmem_release;
};

static inline struct vaccel_bo *to_vaccel_bo(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct vaccel_bo, base);
}

static inline bool vaccel_bo_is_imported(const struct vaccel_bo *bo)
{
	return bo->import_pages;
}

/**
 * vaccel_bo_resolve() - the BO a handle's object stands for
 * @bo: a BO, or a peer object
 *
 * Return: the exporter's BO for a peer object, @bo itself otherwise.
 */
static inline struct vaccel_bo *vaccel_bo_resolve(struct vaccel_bo *bo)
{
	return bo->peer ?: bo;
}

struct drm_gem_object *vaccel_gem_create_object(struct drm_device *drm,
						size_t size);
void vaccel_bo_account(struct drm_gem_object *obj);
void vaccel_bo_unaccount(struct drm_gem_object *obj);
int vaccel_gem_open(struct drm_gem_object *obj, struct drm_file *file);
void vaccel_gem_close(struct drm_gem_object *obj, struct drm_file *file);
struct dma_buf *vaccel_gem_prime_export(struct drm_gem_object *obj, int flags);
struct drm_gem_object *vaccel_gem_prime_import(struct drm_device *drm,
					       struct dma_buf *buf);
struct drm_gem_object *
vaccel_gem_prime_import_sg_table(struct drm_device *drm,
				 struct dma_buf_attachment *attach,
				 struct sg_table *sgt);
int vaccel_bo_populate(struct vaccel_bo *bo);
int vaccel_bo_pin(struct vaccel_bo *bo);
void vaccel_bo_pin_again(struct vaccel_bo *bo);
void vaccel_bo_unpin(struct vaccel_bo *bo);
struct page **vaccel_bo_pages(struct vaccel_bo *bo);
void vaccel_bo_frames(struct vaccel_bo *bo, u64 offset,
		      struct vaccel_pt_frames *f);
u32 vaccel_bo_placement(const struct vaccel_bo *bo);

void vaccel_gem_show_region_stats(struct drm_printer *p, struct drm_file *file);
int vaccel_ioctl_bo_create(struct drm_device *drm, void *data,
			   struct drm_file *file);
int vaccel_ioctl_bo_mmap_offset(struct drm_device *drm, void *data,
				struct drm_file *file);
int vaccel_ioctl_bo_info(struct drm_device *drm, void *data,
			 struct drm_file *file);

#endif /* __VACCEL_GEM_H__ */
