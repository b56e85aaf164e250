/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_DRV_H__
#define __VACCEL_DRV_H__

#include <linux/atomic.h>
#include <linux/gfp.h>
#include <linux/kcov.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/wait.h>

#include <drm/drm_device.h>
#include <drm/drm_print.h>

#include "vaccel_engine.h"
#include "vaccel_hold.h"
#include "vaccel_topology.h"

struct vaccel_coredump;
struct vaccel_devmem;
struct vaccel_engine;
struct workqueue_struct;

#define VACCEL_DRIVER_NAME	"vaccel"
#define VACCEL_DRIVER_DESC	"Virtual compute accelerator"

/*
 * Allocations whose size a user chooses (arrays of operations, of pages):
 * charged to the user's memory cgroup, and -ENOMEM for the user when it
 * is full, never the OOM killer, as for the pages of a BO.
 */
#define VACCEL_GFP_SIZED \
	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

/**
 * struct vaccel_device - one virtual accelerator
 * @drm: the DRM device, registered as /dev/accel/accelN
 * @index: index of this device among the module's devices
 * @topo: the device's shape, immutable after probe
 * @open_files: files open on a Single Use device (0 or 1); atomic, so the
 *	open and close paths need no lock
 * @bo_count: buffer objects alive, imported ones included
 * @bo_bytes: their size
 * @vms_lock: protects @vms
 * @vms: the VMs of the open files, &vaccel_vm.link
 * @engines: the engines, in the order of the topology
 * @num_engines: number of @engines
 * @sched_wq: the workqueue of every context's drm_sched (per-CPU, normal
 *	priority; see "Contexts and submission")
 * @mem_wq: WAIT_MEM packets sleep here; woken by engine writes to memory
 * @mem_writes: counts engine writes to memory, for WAIT_MEM
 * @contexts_lock: protects @contexts
 * @contexts: every context of the device, for debugfs
 * @reset_lock: protects @hang_times and @hang_next
 * @hang_times: when the last %VACCEL_RESET_BURST hangs happened, 0 for none
 * @hang_next: the entry of @hang_times the next hang overwrites
 * @device_resets: device-wide resets done
 * @next_context_id: the last &vaccel_context.id given out
 * @coredump: the device's dumps, see "Device coredumps"
 * @devmem: the device's memory segment, see "Device memory"; NULL if it
 *	has none
 * @hold_moves: the hold point of moves before the PAGING engine, see
 *	"Hold points"
 * @hold_switch: the hold point of moves before their switch
 * @hold_preempt: the hold point of engines that stop their buffer
 * @hold_alloc: the hold point of allocations of device memory
 * @hold_teardown: the hold point of the releases of moves and binds
 */
struct vaccel_device {
	struct drm_device drm;
	unsigned int index;
	struct vaccel_topology topo;
	atomic_t open_files;
	atomic64_t bo_count;
	atomic64_t bo_bytes;
	/* Protects @vms. */
	struct mutex vms_lock;
	struct list_head vms;
	struct vaccel_engine *engines;
	unsigned int num_engines;
	struct workqueue_struct *sched_wq;
	wait_queue_head_t mem_wq;
	atomic_t mem_writes;
	/* Protects @contexts. */
	struct mutex contexts_lock;
	struct list_head contexts;
	/* Protects the hang history. */
	spinlock_t reset_lock;
	u64 hang_times[VACCEL_RESET_BURST];
	unsigned int hang_next;
	atomic64_t device_resets;
	atomic_t next_context_id;
	struct vaccel_coredump *coredump;
	struct vaccel_devmem *devmem;
	struct vaccel_hold hold_moves;
	struct vaccel_hold hold_switch;
	struct vaccel_hold hold_preempt;
	struct vaccel_hold hold_alloc;
	struct vaccel_hold hold_teardown;
};

/**
 * vaccel_kcov_begin() - report coverage to a job's submitter from here on
 * @handle: the job's KCOV handle (kcov_common_handle() of its submitter),
 *	0 for none
 *
 * The work of a job that runs on another thread (an engine, a compute
 * unit, drm_sched's works, the teardown workers) is covered as the
 * submitter's, for vaccel-fuzz.  Never nested, and outside a
 * fence-signalling section: kcov_remote_start() may allocate.  Empty
 * without CONFIG_KCOV.
 *
 * Context: A kthread or a work item.
 */
static inline void vaccel_kcov_begin(u64 handle)
{
	if (handle)
		kcov_remote_start_common(handle);
}

/**
 * vaccel_kcov_end() - end what vaccel_kcov_begin() began
 * @handle: the handle given to it
 *
 * Context: As vaccel_kcov_begin().
 */
static inline void vaccel_kcov_end(u64 handle)
{
	if (handle)
		kcov_remote_stop();
}

static inline struct vaccel_device *to_vaccel_device(struct drm_device *drm)
{
	return container_of(drm, struct vaccel_device, drm);
}

/**
 * VACCEL_IOCTL_DBG() - a check of user input that says why it failed
 * @vdev: the device
 * @cond: the condition that rejects the input
 *
 * Evaluates @cond once.  When it holds, prints under drm.debug's DRIVER
 * category (``echo 0x2 > /sys/module/drm/parameters/debug``) the source
 * file, line and function of the check and the text of @cond, so that a
 * user can learn which check refused an ioctl ("Why did my ioctl fail?" in
 * Documentation/uapi.rst).  The pattern of xe's XE_IOCTL_DBG().  Silent
 * and nearly free while drm.debug is off, which is the default; not rate
 * limited, since whoever turns drm.debug on wants every refusal.  Only for
 * what user space controls: internal invariants take drm_WARN_ON().
 *
 * Usage: ``if (VACCEL_IOCTL_DBG(vdev, args->pad)) return -EINVAL;``, one
 * condition per check, so that the message names the one that failed.
 *
 * Return: the truth of @cond.
 */
#define VACCEL_IOCTL_DBG(vdev, cond)					\
	(unlikely(cond) &&						\
	 (drm_dbg_driver(&(vdev)->drm, "%s:%d %s(): ioctl check failed: %s\n", \
			 kbasename(__FILE__), __LINE__, __func__, #cond), true))

extern struct workqueue_struct *vaccel_teardown_wq;

void vaccel_module_put_deferred(void);

int vaccel_device_init(struct vaccel_device *vdev);

#endif /* __VACCEL_DRV_H__ */
