/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_FILE_H__
#define __VACCEL_FILE_H__

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include <drm/vaccel_accel.h>

#include "vaccel_tlb.h"
#include "vaccel_topology.h"

struct drm_file;
struct drm_printer;
struct vaccel_device;
struct vaccel_vm;

/* Buffers a file may have submitted and not yet retired, binds included. */
#define VACCEL_MAX_JOBS_PER_FILE	4096
/*
 * A submitter that found the file full waits until this many have retired,
 * as for room in a ring: then it submits a batch without sleeping, rather
 * than sleeping and waking once per retired buffer.
 */
#define VACCEL_JOBS_RESUME_ROOM		(VACCEL_MAX_JOBS_PER_FILE / 8)

/**
 * struct vaccel_file - what the driver keeps per open file
 * @refcount: one for the open file, one per context; the last reference
 *	drops the device and the module, see "Open files"
 * @vdev: the device, referenced
 * @vm: the file's GPU address space
 * @client_id: the DRM client id of the file
 * @bo_handles: BO handles the file holds, at most the device's
 *	max_bos_per_file; atomic, as GEM creates and closes handles without
 *	a driver lock
 * @contexts: the file's contexts by handle; lookups take the xarray's lock
 * @contexts_lock: serialises creating and destroying contexts, and protects
 *	@num_contexts
 * @num_contexts: contexts in @contexts
 * @jobs: jobs allocated for the file's submissions and binds and not yet
 *	freed, at most %VACCEL_MAX_JOBS_PER_FILE
 * @jobs_wq: submitters wait here for @jobs to drop
 * @busy_ns: time the file's buffers spent on each engine, by engine index,
 *	for fdinfo; added to by the engine as a buffer stops running
 *	(retires or is preempted), and protected by that engine's lock, under
 *	which vaccel_engine_file_busy_ns() adds the running buffer's time
 * @traffic: bytes the file's buffers moved on each engine, by engine index
 *	and class of memory, for fdinfo; added to by that engine's thread
 *	alone as a buffer stops running, read without a lock
 */
struct vaccel_file {
	struct kref refcount;
	struct vaccel_device *vdev;
	struct vaccel_vm *vm;
	u64 client_id;
	atomic_t bo_handles;
	struct xarray contexts;
	/* Serialises context creation and destruction; protects num_contexts. */
	struct mutex contexts_lock;
	unsigned int num_contexts;
	atomic_t jobs;
	wait_queue_head_t jobs_wq;
	u64 busy_ns[VACCEL_MAX_ENGINES];
	struct vaccel_traffic traffic[VACCEL_MAX_ENGINES];
};

struct vaccel_file *vaccel_file_create(struct vaccel_device *vdev,
				       struct drm_file *file);
void vaccel_file_close(struct vaccel_file *vfile);
void vaccel_file_get(struct vaccel_file *vfile);
void vaccel_file_put(struct vaccel_file *vfile);
int vaccel_file_job_reserve(struct vaccel_file *vfile);
void vaccel_file_job_release(struct vaccel_file *vfile);
void vaccel_file_show_fdinfo(struct vaccel_file *vfile,
			     const u64 busy_ns[DRM_VACCEL_ENGINE_CLASS_COUNT],
			     const struct vaccel_traffic traffic[DRM_VACCEL_ENGINE_CLASS_COUNT],
			     struct drm_printer *p);

#endif /* __VACCEL_FILE_H__ */
