/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_MIGRATE_H__
#define __VACCEL_MIGRATE_H__

#include <linux/types.h>

/* How long the shmem pages of a BO that left system memory stay for its return. */
#define VACCEL_SHMEM_LINGER_MS	1000

struct dma_fence;
struct drm_device;
struct drm_file;
struct drm_gpuvm_bo;
struct drm_exec;
struct vaccel_bo;
struct vaccel_engine;
struct vaccel_job;
struct vaccel_move;
struct vaccel_vm;
struct work_struct;

int vaccel_bo_place_new(struct vaccel_bo *bo, struct drm_file *file);
int vaccel_vm_await_move(struct vaccel_vm *vm, struct vaccel_bo *bo);
void vaccel_bo_release_memory(struct vaccel_bo *bo);
void vaccel_bo_shmem_release(struct work_struct *work);
void vaccel_bo_touch(struct vaccel_bo *bo);
int vaccel_vm_make_resident(struct vaccel_vm *vm, struct drm_file *file);
int vaccel_move_run(struct vaccel_engine *engine, struct vaccel_job *job);
void vaccel_move_free(struct vaccel_move *move, u64 kcov_handle);
int vaccel_ioctl_bo_migrate(struct drm_device *drm, void *data,
			    struct drm_file *file);

#endif /* __VACCEL_MIGRATE_H__ */
