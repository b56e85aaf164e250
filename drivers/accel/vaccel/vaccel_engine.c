// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Engines
 *
 * Every engine of the topology is a kernel thread with a HW queue of two
 * slots: the buffer it runs and the next one.  The thread sleeps while the
 * queue is empty, so an idle engine costs nothing.  For each buffer it
 * attaches its TLB to the buffer's address space (the switch of the root
 * page-table pointer, which also empties the TLB), executes the packets
 * (see "Packets"), and retires the buffer: the slot frees, the arbiter
 * fills it, and the buffer's hardware fence signals.  Buffers thus complete
 * in the order they entered the HW queue.  When the engine has nothing
 * more of the same address space to run, it detaches its TLB, so that an
 * address space is never held by an idle engine.
 *
 * A buffer that faults marks its context faulted and records the fault; the
 * context's other buffers, on its ring or in the next slot, are cancelled
 * with ``-ECANCELED``.  Destroying a context cancels the same way, and its
 * running buffer stops at the next packet, or within 64 KiB of a long
 * one.
 *
 * The threads live as long as the DRM device: the last reference to it
 * stops them, after every file, and thus every context, is gone.
 */

#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "vaccel_context.h"
#include "vaccel_drv.h"
#include "vaccel_engine.h"
#include "vaccel_packet.h"
#include "vaccel_vm.h"

static_assert((int)VACCEL_FAULT_MALFORMED == (int)DRM_VACCEL_FAULT_MALFORMED);
static_assert((int)VACCEL_FAULT_PERMISSION == (int)DRM_VACCEL_FAULT_PERMISSION);
static_assert((int)VACCEL_ACCESS_EXEC == (int)DRM_VACCEL_ACCESS_EXEC);

/* Moves ready buffers into free HW queue slots, as the arbiter chooses. */
static void vaccel_engine_fill_locked(struct vaccel_engine *engine)
{
	bool was_idle = !engine->hwq_count;

	lockdep_assert_held(&engine->lock);
	while (engine->hwq_count < VACCEL_HW_QUEUE_DEPTH) {
		struct vaccel_arbiter_entry *e = vaccel_arbiter_next(&engine->arbiter);
		struct vaccel_context *ctx;
		struct vaccel_job *job;

		if (!e)
			break;
		ctx = container_of(e, struct vaccel_context, arb);
		job = list_first_entry(&ctx->ring, struct vaccel_job, link);
		list_del_init(&job->link);
		if (list_empty(&ctx->ring))
			vaccel_arbiter_idle(e);
		engine->hwq[engine->hwq_count++] = job;
	}
	if (was_idle && engine->hwq_count)
		wake_up(&engine->wq);
}

/*
 * Takes the context's buffers off its ring and out of the next slot onto
 * @cancelled, and sets the error its later buffers get.  The running
 * buffer sees the error and stops by itself.
 */
static void vaccel_engine_cancel_locked(struct vaccel_engine *engine,
					struct vaccel_context *ctx, int error,
					struct list_head *cancelled)
{
	lockdep_assert_held(&engine->lock);
	if (!ctx->cancelled)
		ctx->cancelled = error;
	list_splice_tail_init(&ctx->ring, cancelled);
	vaccel_arbiter_idle(&ctx->arb);
	if (engine->hwq_count == 2 && engine->hwq[1]->ctx == ctx) {
		list_add_tail(&engine->hwq[1]->link, cancelled);
		engine->hwq[1] = NULL;
		engine->hwq_count--;
	}
	vaccel_engine_fill_locked(engine);
}

static void vaccel_engine_complete_list(struct list_head *jobs, int error)
{
	struct vaccel_job *job, *tmp;

	list_for_each_entry_safe(job, tmp, jobs, link) {
		list_del_init(&job->link);
		vaccel_job_complete(job, error);
	}
}

/**
 * vaccel_engine_queue_job() - a job's dependencies are met: queue it
 * @engine: its context's engine
 * @job: the job, its hardware fence initialised
 *
 * Called by drm_sched's run_job.  A job of a cancelled context completes at
 * once with the context's error.
 *
 * Context: Process context.
 */
void vaccel_engine_queue_job(struct vaccel_engine *engine, struct vaccel_job *job)
{
	struct vaccel_context *ctx = job->ctx;
	int error;

	spin_lock(&engine->lock);
	error = ctx->cancelled;
	if (!error) {
		list_add_tail(&job->link, &ctx->ring);
		vaccel_arbiter_ready(&engine->arbiter, &ctx->arb);
		vaccel_engine_fill_locked(engine);
	}
	spin_unlock(&engine->lock);
	if (error)
		vaccel_job_complete(job, error);
}

/**
 * vaccel_engine_cancel_context() - cancel every buffer of a context
 * @engine: the context's engine
 * @ctx: the context
 * @error: the error its buffers get
 *
 * Queued buffers complete at once with @error; the running one stops at
 * its next packet.  Later buffers of the context complete with @error as
 * soon as drm_sched runs them.
 *
 * Context: Process context.
 */
void vaccel_engine_cancel_context(struct vaccel_engine *engine,
				  struct vaccel_context *ctx, int error)
{
	LIST_HEAD(cancelled);

	spin_lock(&engine->lock);
	vaccel_engine_cancel_locked(engine, ctx, error, &cancelled);
	spin_unlock(&engine->lock);
	/* Wake a running DELAY or WAIT_MEM of the context. */
	wake_up_all(&engine->wq);
	wake_up_all(&engine->vdev->mem_wq);
	vaccel_engine_complete_list(&cancelled, error);
}

/**
 * vaccel_engine_busy_ns() - time the engine spent executing buffers
 * @engine: the engine
 *
 * Context: Any context.
 * Return: nanoseconds, the running buffer included.
 */
u64 vaccel_engine_busy_ns(struct vaccel_engine *engine)
{
	u64 ns;

	spin_lock(&engine->lock);
	ns = engine->busy_ns;
	if (engine->busy_since)
		ns += ktime_get_ns() - engine->busy_since;
	spin_unlock(&engine->lock);
	return ns;
}

/* The running buffer is done: free its slot, refill, then signal it. */
static void vaccel_engine_retire(struct vaccel_engine *engine,
				 struct vaccel_job *job, int ret,
				 const struct vaccel_fault *fault)
{
	struct vaccel_context *ctx = job->ctx;
	struct vaccel_job *next;
	LIST_HEAD(cancelled);
	u64 ran;

	spin_lock(&engine->lock);
	engine->hwq[0] = engine->hwq[1];
	engine->hwq[1] = NULL;
	engine->hwq_count--;
	ran = ktime_get_ns() - engine->busy_since;
	engine->busy_ns += ran;
	engine->busy_since = 0;
	atomic64_add(ran, &ctx->file->busy_ns[engine->desc.engine_class]);
	/* A failed page-table update is the bind's error, not a fault. */
	if (!job->bind && (ret == -EFAULT || ret == -EINVAL)) {
		if (!ctx->faulted) {
			ctx->faulted = true;
			ctx->fault = *fault;
			ctx->fault_offset = job->offset;
		}
		vaccel_engine_cancel_locked(engine, ctx, -ECANCELED, &cancelled);
	}
	vaccel_engine_fill_locked(engine);
	next = engine->hwq_count ? engine->hwq[0] : NULL;
	spin_unlock(&engine->lock);

	if (!next || next->ctx->vm != ctx->vm)
		vaccel_tlb_detach(&engine->tlb);
	vaccel_job_complete(job, ret);
	vaccel_engine_complete_list(&cancelled, -ECANCELED);
}

static int vaccel_engine_thread(void *data)
{
	struct vaccel_engine *engine = data;

	while (!kthread_should_stop()) {
		struct vaccel_fault fault = {};
		struct vaccel_job *job;
		int ret;

		wait_event_interruptible(engine->wq, READ_ONCE(engine->hwq_count) ||
					 kthread_should_stop());
		spin_lock(&engine->lock);
		job = engine->hwq_count ? engine->hwq[0] : NULL;
		if (job)
			engine->busy_since = ktime_get_ns();
		spin_unlock(&engine->lock);
		if (!job)
			continue;

		if (job->bind) {
			/* The paging engine applies page-table updates. */
			ret = vaccel_vm_bind_run(job->bind);
		} else {
			vaccel_tlb_attach(&engine->tlb, &job->ctx->vm->pt);
			ret = vaccel_packet_run(engine, job, &fault);
		}
		vaccel_engine_retire(engine, job, ret, &fault);
	}
	return 0;
}

static void vaccel_engines_fini(struct drm_device *drm, void *unused)
{
	struct vaccel_device *vdev = to_vaccel_device(drm);
	unsigned int i;

	for (i = 0; i < vdev->num_engines; i++) {
		struct vaccel_engine *engine = &vdev->engines[i];

		if (engine->thread)
			kthread_stop(engine->thread);
		drm_WARN_ON(drm, engine->hwq_count);
		kfree(engine->bounce);
	}
}

static const char *const vaccel_engine_class_names[] = {
	[DRM_VACCEL_ENGINE_CLASS_COMPUTE] = "compute",
	[DRM_VACCEL_ENGINE_CLASS_COPY] = "copy",
	[DRM_VACCEL_ENGINE_CLASS_PAGING] = "paging",
};

/**
 * vaccel_engines_init() - create the engines of a device and start them
 * @vdev: the device, its topology set
 *
 * Context: Process context.
 * Return: 0 or a negative errno; what was started is stopped at the
 * device's release.
 */
int vaccel_engines_init(struct vaccel_device *vdev)
{
	unsigned int i;
	int ret;

	vdev->num_engines = vdev->topo.num_engines;
	vdev->engines = drmm_kcalloc(&vdev->drm, vdev->num_engines,
				     sizeof(*vdev->engines), GFP_KERNEL);
	if (!vdev->engines)
		return -ENOMEM;
	ret = drmm_add_action(&vdev->drm, vaccel_engines_fini, NULL);
	if (ret)
		return ret;

	for (i = 0; i < vdev->num_engines; i++) {
		struct vaccel_engine *engine = &vdev->engines[i];
		struct task_struct *thread;

		engine->vdev = vdev;
		engine->index = i;
		engine->desc = vdev->topo.engines[i];
		vaccel_tlb_init(&engine->tlb);
		spin_lock_init(&engine->lock);
		init_waitqueue_head(&engine->wq);
		vaccel_arbiter_init(&engine->arbiter);
		engine->bounce = kzalloc(PAGE_SIZE, GFP_KERNEL);
		if (!engine->bounce)
			return -ENOMEM;

		thread = kthread_run(vaccel_engine_thread, engine, "vaccel%u-%s%u",
				     vdev->index,
				     vaccel_engine_class_names[engine->desc.engine_class],
				     engine->desc.instance);
		if (IS_ERR(thread))
			return PTR_ERR(thread);
		engine->thread = thread;
	}
	return 0;
}
