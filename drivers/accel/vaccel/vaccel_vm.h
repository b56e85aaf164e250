/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_VM_H__
#define __VACCEL_VM_H__

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
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

/* Most operations in one VM_BIND, reported by the device query. */
#define VACCEL_MAX_BIND_OPS	1024

/**
 * struct vaccel_vm - the GPU address space of one open file
 * @base: the drm_gpuvm that tracks the mappings
 * @vdev: the device
 * @lock: serialises VM_BIND and teardown; protects the mappings tracked by
 *	@base, the writes to @pt, and @mapped_bytes and @mappings
 * @pt: the page table the engines walk
 * @mapped_bytes: bytes of VA mapped
 * @mappings: number of mappings
 * @client_id: the DRM client id of the file, which names it in debugfs
 * @link: on &vaccel_device.vms, under &vaccel_device.vms_lock
 * @debugfs: the VM's debugfs directory, or NULL
 * @paging: the kernel context on the PAGING engine that applies the VM's
 *	asynchronous binds, created at the first one; under @bind_lock
 * @bind_lock: serialises creating @paging and queueing asynchronous binds,
 *	and protects @last_bind
 * @last_bind: the finished fence of the last asynchronous bind, which
 *	synchronous binds wait for; NULL if none
 */
struct vaccel_vm {
	struct drm_gpuvm base;
	struct vaccel_device *vdev;
	/* Serialises VM_BIND; protects the mappings, @pt writes, the stats. */
	struct mutex lock;
	struct vaccel_pt pt;
	u64 mapped_bytes;
	u64 mappings;
	u64 client_id;
	struct list_head link;
	struct dentry *debugfs;
	struct vaccel_context *paging;
	/* Orders asynchronous binds; protects @paging and @last_bind. */
	struct mutex bind_lock;
	struct dma_fence *last_bind;
};

struct vaccel_vm *vaccel_vm_create(struct vaccel_device *vdev,
				   struct drm_file *file);
void vaccel_vm_destroy(struct vaccel_vm *vm);
u32 vaccel_vm_bo_mappings(struct vaccel_vm *vm, struct vaccel_bo *bo);
void vaccel_vm_stats(struct vaccel_vm *vm, struct drm_vaccel_vm_stats *stats);
int vaccel_ioctl_vm_bind(struct drm_device *drm, void *data,
			 struct drm_file *file);
int vaccel_vm_bind_run(struct vaccel_bind_batch *batch);
void vaccel_vm_bind_batch_free(struct vaccel_bind_batch *batch);

#endif /* __VACCEL_VM_H__ */
