/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_GEM_H__
#define __VACCEL_GEM_H__

#include <linux/mutex.h>
#include <linux/sizes.h>

#include <drm/drm_gem_shmem_helper.h>

struct dma_buf_attachment;
struct drm_device;
struct drm_file;
struct sg_table;

/* Limits reported by the device query. */
#define VACCEL_MAX_BO_SIZE		SZ_4G
#define VACCEL_MAX_BOS_PER_FILE		65536

/**
 * struct vaccel_bo - a buffer object
 * @base: the shmem GEM object
 * @flags: DRM_VACCEL_BO_* creation flags
 * @gpuva_lock: protects the GEM object's list of VM bindings
 *	(&drm_gem_object.gpuva), as drm_gpuvm requires
 * @import_pages: for an imported BO, its pages, from the dma-buf's
 *	scatterlist; NULL otherwise
 */
struct vaccel_bo {
	struct drm_gem_shmem_object base;
	u32 flags;
	/* Protects the GEM object's list of VM bindings. */
	struct mutex gpuva_lock;
	struct page **import_pages;
};

static inline struct vaccel_bo *to_vaccel_bo(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct vaccel_bo, base);
}

static inline bool vaccel_bo_is_imported(const struct vaccel_bo *bo)
{
	return bo->import_pages;
}

struct drm_gem_object *vaccel_gem_create_object(struct drm_device *drm,
						size_t size);
struct drm_gem_object *
vaccel_gem_prime_import_sg_table(struct drm_device *drm,
				 struct dma_buf_attachment *attach,
				 struct sg_table *sgt);
int vaccel_bo_pin(struct vaccel_bo *bo);
void vaccel_bo_pin_again(struct vaccel_bo *bo);
void vaccel_bo_unpin(struct vaccel_bo *bo);
struct page **vaccel_bo_pages(struct vaccel_bo *bo);

int vaccel_ioctl_bo_create(struct drm_device *drm, void *data,
			   struct drm_file *file);
int vaccel_ioctl_bo_mmap_offset(struct drm_device *drm, void *data,
				struct drm_file *file);
int vaccel_ioctl_bo_info(struct drm_device *drm, void *data,
			 struct drm_file *file);

#endif /* __VACCEL_GEM_H__ */
