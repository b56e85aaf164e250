/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_VM_H__
#define __VACCEL_VM_H__

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/xarray.h>

#include <drm/drm_gpuvm.h>
#include <drm/vaccel_accel.h>

#include "vaccel_mmu.h"

struct dentry;
struct dma_fence;
struct drm_file;
struct vaccel_bind_batch;
struct vaccel_context;
struct vaccel_bo;
struct vaccel_device;
struct vaccel_engine;
struct vaccel_job;

/* Limits reported by the device query, see DOC: GPU address spaces. */
#define VACCEL_MAX_BIND_OPS	1024
#define VACCEL_MAX_PT_BYTES	SZ_64M
#define VACCEL_MAX_PT_PAGES	(VACCEL_MAX_PT_BYTES / PAGE_SIZE)

/**
 * struct vaccel_vm - the GPU address space of one open file
 * @base: the drm_gpuvm that tracks the mappings
 * @vdev: the device, referenced
 * @lock: protects the mappings tracked by @base, @mapped_bytes,
 *	@mappings, @orphans and @dead; held by the ioctls, which allocate
 *	under it, never by an engine
 * @pt_lock: serialises the writers of @pt; held only around steps that
 *	allocate nothing and wait for no fence, as the PAGING engine takes it
 * @pt: the page table the engines walk
 * @mapped_bytes: bytes of VA mapped, counting binds not yet applied
 * @mappings: number of mappings, counting binds not yet applied
 * @orphans: VMAs of binds stopped before they cleared their pages from
 *	the page tables, released when the VM is gone
 * @dead: the page tables are gone: nothing can reach an orphan any more
 * @client_id: the DRM client id of the file, which names it in debugfs
 * @link: on &vaccel_device.vms, under &vaccel_device.vms_lock
 * @debugfs: the VM's debugfs directory, or NULL
 * @paging: the context on the PAGING engine that applies the VM's
 *	asynchronous binds, created at the first one; under @bind_lock
 * @bind_lock: orders binds: held across a synchronous bind and across the
 *	commit and queueing of an asynchronous one; held while waiting for
 *	fences, so never taken by an engine; protects @paging, @mover and
 *	@last_bind
 * @last_bind: the finished fence of the last asynchronous bind, which
 *	synchronous binds wait for; NULL if none
 * @mover: the kernel context on the PAGING engine that moves BOs for the
 *	file, created at the first move; under @bind_lock
 * @last_use: when a buffer of the VM was last submitted, on the clock of
 *	the LRU of device memory
 */
struct vaccel_vm {
	struct drm_gpuvm base;
	struct vaccel_device *vdev;
	/* Protects the tracked mappings, the stats, the orphans. */
	struct mutex lock;
	/* Serialises page-table writers; never held across an allocation. */
	struct mutex pt_lock;
	struct vaccel_pt pt;
	u64 mapped_bytes;
	u64 mappings;
	struct list_head orphans;
	bool dead;
	u64 client_id;
	struct list_head link;
	struct dentry *debugfs;
	struct vaccel_context *paging;
	/* Orders binds; protects @paging, @mover and @last_bind. */
	struct mutex bind_lock;
	struct dma_fence *last_bind;
	struct vaccel_context *mover;
	u64 last_use;
};

struct vaccel_vm *vaccel_vm_create(struct vaccel_device *vdev,
				   struct drm_file *file);
void vaccel_vm_destroy(struct vaccel_vm *vm);
u32 vaccel_vma_flags(struct drm_gpuva *va);
u32 vaccel_vm_bo_mappings(struct vaccel_vm *vm, struct vaccel_bo *bo);
void vaccel_vm_stats(struct vaccel_vm *vm, struct drm_vaccel_vm_stats *stats);
int vaccel_ioctl_vm_bind(struct drm_device *drm, void *data,
			 struct drm_file *file);
int vaccel_vm_bind_run(struct vaccel_engine *engine, struct vaccel_job *job);
void vaccel_vm_bind_batch_free(struct vaccel_bind_batch *batch, u64 kcov_handle);
struct vaccel_context *vaccel_vm_paging_context(struct vaccel_vm *vm,
						struct drm_file *file);
struct vaccel_context *vaccel_vm_mover(struct vaccel_vm *vm, struct drm_file *file);

#endif /* __VACCEL_VM_H__ */
