// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Open files
 *
 * Every open file of a device has a &struct vaccel_file: its GPU address
 * space, its contexts, the counts its limits are kept by, and its usage for
 * fdinfo.  The file holds one reference; every context holds another, so
 * that a context whose jobs still wait for their dependencies when the
 * file is closed keeps what it charges its engine time to.  The last
 * reference goes when the last such job is freed, possibly long after the
 * close.
 *
 * A &struct vaccel_file holds a reference on the DRM device and one on the
 * module.  Thus a device unbound through sysfs while files are open, or
 * while the contexts of closed files drain, is released only once nothing
 * of it runs; and ``rmmod`` is refused (``EBUSY``) until then, rather than
 * removing code that drm_sched would still call.  The last reference is
 * dropped either by the close itself, or by the teardown of the last
 * context, which runs on vaccel_teardown_wq: module exit destroys that
 * workqueue, which waits for the work that dropped the module's last
 * reference to return.
 *
 * Per-file limits, each reported by the device query and each with its
 * errno: max_bos_per_file BO handles (``ENOSPC``),
 * %DRM_VACCEL_MAX_CONTEXTS_PER_FILE contexts (``ENOSPC``), and
 * %VACCEL_MAX_JOBS_PER_FILE buffers submitted and binds queued but not yet
 * retired: past it, SUBMIT and asynchronous VM_BIND wait, interruptibly,
 * for the engines to retire some, as a full ring would make them.  The
 * limits of the address space are those of the VM (see "GPU address
 * spaces and VM_BIND").  Everything a file allocates is charged to the
 * memory cgroup of the process that caused it.
 */

#include <linux/module.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "vaccel_context.h"
#include "vaccel_debugfs.h"
#include "vaccel_drv.h"
#include "vaccel_file.h"
#include "vaccel_topology.h"
#include "vaccel_vm.h"

/**
 * vaccel_file_create() - the driver's state of a file being opened
 * @vdev: the device
 * @file: the file
 *
 * Context: Process context.
 * Return: the state, with the file's reference, or an ERR_PTR.
 */
struct vaccel_file *vaccel_file_create(struct vaccel_device *vdev,
				       struct drm_file *file)
{
	struct vaccel_file *vfile;

	vfile = kzalloc(sizeof(*vfile), GFP_KERNEL_ACCOUNT);
	if (!vfile)
		return ERR_PTR(-ENOMEM);
	kref_init(&vfile->refcount);
	vfile->vdev = vdev;
	vfile->client_id = file->client_id;
	xa_init_flags(&vfile->contexts, XA_FLAGS_ALLOC1);
	mutex_init(&vfile->contexts_lock);
	init_waitqueue_head(&vfile->jobs_wq);

	vfile->vm = vaccel_vm_create(vdev, file);
	if (IS_ERR(vfile->vm)) {
		struct vaccel_vm *err = vfile->vm;

		mutex_destroy(&vfile->contexts_lock);
		kfree(vfile);
		return ERR_CAST(err);
	}
	/* Dropped by vaccel_file_release(), however late. */
	drm_dev_get(&vdev->drm);
	__module_get(THIS_MODULE);
	vaccel_debugfs_vm_add(vfile->vm);
	return vfile;
}

static void vaccel_file_release(struct kref *kref)
{
	struct vaccel_file *vfile = container_of(kref, struct vaccel_file,
						 refcount);
	struct vaccel_device *vdev = vfile->vdev;

	xa_destroy(&vfile->contexts);
	mutex_destroy(&vfile->contexts_lock);
	kfree(vfile);
	drm_dev_put(&vdev->drm);
	/*
	 * Last: the caller is either the close, whose file still pins the
	 * module, or a context's teardown on vaccel_teardown_wq, which
	 * module exit waits for.
	 */
	module_put(THIS_MODULE);
}

/**
 * vaccel_file_get() - take a reference on a file's state
 * @vfile: the state
 *
 * Context: Any context.
 */
void vaccel_file_get(struct vaccel_file *vfile)
{
	kref_get(&vfile->refcount);
}

/**
 * vaccel_file_put() - drop a reference on a file's state
 * @vfile: the state
 *
 * Context: Process context: the close, or vaccel_teardown_wq.
 */
void vaccel_file_put(struct vaccel_file *vfile)
{
	kref_put(&vfile->refcount, vaccel_file_release);
}

/**
 * vaccel_file_close() - the file is closed
 * @vfile: its state
 *
 * Destroys the file's contexts, which cancels their work, and its address
 * space, then drops the file's reference.
 *
 * Context: Process context.
 */
void vaccel_file_close(struct vaccel_file *vfile)
{
	/* Contexts first: their buffers execute in the VM. */
	vaccel_contexts_destroy_all(vfile);
	vaccel_debugfs_vm_remove(vfile->vm);
	vaccel_vm_destroy(vfile->vm);
	vfile->vm = NULL;
	vaccel_file_put(vfile);
}

static bool vaccel_file_job_take(struct vaccel_file *vfile)
{
	return atomic_add_unless(&vfile->jobs, 1, VACCEL_MAX_JOBS_PER_FILE);
}

/* At most this many jobs: room enough for a waiting submitter to go on. */
#define VACCEL_JOBS_RESUME_AT	(VACCEL_MAX_JOBS_PER_FILE - VACCEL_JOBS_RESUME_ROOM)

static bool vaccel_file_job_room(struct vaccel_file *vfile)
{
	return atomic_read(&vfile->jobs) <= VACCEL_JOBS_RESUME_AT;
}

/**
 * vaccel_file_job_reserve() - count a job against the file's limit
 * @vfile: the file
 *
 * When the file has %VACCEL_MAX_JOBS_PER_FILE jobs, waits until
 * %VACCEL_JOBS_RESUME_ROOM of them have retired; they retire in finite
 * time, as every fence they wait for signals in finite time.
 *
 * Context: Process context; sleeps, interruptibly.
 * Return: 0, or -ERESTARTSYS if a signal arrived.
 */
int vaccel_file_job_reserve(struct vaccel_file *vfile)
{
	int ret;

	while (!vaccel_file_job_take(vfile)) {
		ret = wait_event_interruptible(vfile->jobs_wq,
					       vaccel_file_job_room(vfile));
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * vaccel_file_job_release() - a job counted by vaccel_file_job_reserve() is freed
 * @vfile: the file
 *
 * Wakes the waiting submitters once there is room for a batch.
 *
 * Context: Any context.
 */
void vaccel_file_job_release(struct vaccel_file *vfile)
{
	int left = atomic_dec_return(&vfile->jobs);

	if (left <= VACCEL_JOBS_RESUME_AT && wq_has_sleeper(&vfile->jobs_wq))
		wake_up(&vfile->jobs_wq);
}

/**
 * vaccel_file_show_fdinfo() - the file's engine keys of fdinfo
 * @vfile: the file
 * @busy_ns: the file's time on the engines of each class, running
 *	buffers included
 * @traffic: the bytes its buffers moved on the engines of each class
 * @p: where
 *
 * Busy time per engine class, and the number of engines of a class when
 * more than one (Documentation/gpu/drm-usage-stats.rst); then vaccel's
 * own keys, ``vaccel-read-<memory>-<class>`` and
 * ``vaccel-written-<memory>-<class>``, in bytes, for each class of memory
 * (``local``, ``system``, ``peer``; see "Memory traffic").
 *
 * Context: Process context.
 */
void vaccel_file_show_fdinfo(struct vaccel_file *vfile,
			     const u64 busy_ns[DRM_VACCEL_ENGINE_CLASS_COUNT],
			     const struct vaccel_traffic traffic[DRM_VACCEL_ENGINE_CLASS_COUNT],
			     struct drm_printer *p)
{
	static const char *const memory[VACCEL_MEM_CLASSES] = {
		[VACCEL_MEM_LOCAL] = "local",
		[VACCEL_MEM_SYSTEM] = "system",
		[VACCEL_MEM_PEER] = "peer",
	};
	const struct vaccel_topology *topo = &vfile->vdev->topo;
	unsigned int c, m;

	for (c = 0; c < DRM_VACCEL_ENGINE_CLASS_COUNT; c++) {
		u32 count = topo->engine_count[c];

		if (!count)
			continue;
		drm_printf(p, "drm-engine-%s:\t%llu ns\n",
			   vaccel_engine_class_name(c), busy_ns[c]);
		if (count > 1)
			drm_printf(p, "drm-engine-capacity-%s:\t%u\n",
				   vaccel_engine_class_name(c), count);
	}
	for (c = 0; c < DRM_VACCEL_ENGINE_CLASS_COUNT; c++) {
		if (!topo->engine_count[c])
			continue;
		for (m = 0; m < VACCEL_MEM_CLASSES; m++) {
			drm_printf(p, "vaccel-read-%s-%s:\t%llu\n", memory[m],
				   vaccel_engine_class_name(c),
				   traffic[c].bytes[m][0]);
			drm_printf(p, "vaccel-written-%s-%s:\t%llu\n", memory[m],
				   vaccel_engine_class_name(c),
				   traffic[c].bytes[m][1]);
		}
	}
}
