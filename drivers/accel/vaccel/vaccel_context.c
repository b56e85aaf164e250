// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Contexts and submission
 *
 * A context is MCDM's queue of work for one engine: created with an engine
 * class, an engine of it and a priority, it executes in the address space
 * of the file that created it.  Each context has its own drm_gpu_scheduler
 * with a single entity (its SW queue): drm_sched resolves each job's
 * dependencies and hands jobs over in order to run_job, which only puts
 * them on the context's ring for the engine's arbiter (see "Scheduler").
 *
 * Every context's scheduler runs on one workqueue of the device: per-CPU,
 * so that SUBMIT's run_job work runs on the CPU that queued it instead of
 * waking another one under the workqueue pool's lock; of normal priority,
 * so that it does not preempt a submitter that has more to submit, nor
 * give unprivileged work a high-priority kernel worker; and not ordered,
 * since drm_sched orders a scheduler's own work and contexts have nothing
 * to order between them.
 *
 * drm_sched's timeout is not used.  It starts when run_job hands a job
 * over and restarts only when a job completes, so it would count the time
 * a job waits on the ring behind other contexts, or preempted, and could
 * not see a long COPY progress; suspending and resuming it at every
 * arbitration would duplicate what the engine knows exactly.  The engine
 * detects hangs and enforces the time limit itself (see "Engines").
 *
 * **Fences.**  A job's hardware fence is initialised by run_job and
 * signalled once the engine is done with the job; drm_sched derives the
 * finished fence from it, which is what out-syncobjs receive.  The
 * hardware fences of a context share one lock and signal in seqno order,
 * whatever order the engine and the cancellation paths finish their jobs
 * in: vaccel_job_complete() signals a job only once every job run before
 * it has signalled.
 *
 * **Submission and destruction.**  SUBMIT copies its arguments, then takes
 * the context's submit lock to initialise, arm and push the job.
 * Destroying a context marks it destroyed under the same lock, so that a
 * SUBMIT either pushes its job before the destruction, which then cancels
 * it, or fails with ``-ENOENT``, as for a handle that no longer exists.
 *
 * Destroying a context cancels every buffer it has not completed with
 * ``-ECANCELED``, whatever point it reached: the engine completes those
 * of its ring and HW queue at once, stops the running one at its next
 * check, and completes those that reach run_job later without running
 * them.  A buffer still waiting for its dependencies is left in the
 * entity: it reaches run_job, and is cancelled, once they signal, so that
 * its fence never signals before the fences it depends on.  CONTEXT_DESTROY
 * and the close wait only for the running buffer to stop, never for a
 * dependency.
 *
 * **Teardown.**  The creator's reference and every job's keep the
 * context.  The destroy waits for what drm_sched ran to be freed, which is
 * prompt once it is all signalled, and then, unless a buffer still waits
 * for a dependency, tears the context down itself: a closed file has
 * given everything back when close() returns.  Otherwise the last job's
 * free queues the teardown on vaccel_teardown_wq.  The teardown finalises
 * the entity and the scheduler, idle by then, and drops the context's
 * references on the address space and the file.
 *
 * drm_sched's fences read their scheduler's name for as long as they
 * live, in syncobjs and sync_files long after the context is gone (6.12
 * keeps no copy), so the scheduler's memory, a &struct vaccel_sched_slot,
 * is referenced by the context and by every hardware fence, which
 * outlives the finished fence pointing at it.  The slot also holds a
 * reference on the module, whose code its fences call when they go (one
 * per context rather than one per fence, so that a buffer costs no
 * atomic on the module's count); it drops it through
 * vaccel_module_put_deferred(), so that no function returns into the
 * module's text after the module's last reference.
 */

#include <linux/capability.h>
#include <linux/dma-fence.h>
#include <linux/dma-fence-array.h>
#include <linux/dma-fence-chain.h>
#include <linux/dma-resv.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include <drm/drm_file.h>
#include <drm/drm_syncobj.h>

#include "vaccel_context.h"
#include "vaccel_dispatch.h"
#include "vaccel_drv.h"
#include "vaccel_engine.h"
#include "vaccel_file.h"
#include "vaccel_migrate.h"
#include "vaccel_trace.h"
#include "vaccel_vm.h"

/*
 * Jobs a context's scheduler hands to run_job before they complete: the
 * context's ring, where buffers whose dependencies are met wait for the
 * engine.  drm_sched gives credits back only through its free_job work,
 * so a small ring makes run_job stop behind that round trip while the
 * engine, which retires a NOP buffer in microseconds, runs dry: with 64,
 * pipelined submission cost 12 to 13.6 us a buffer in the VM, with 1024
 * 8.8 to 9.4.  The file's job limit bounds the memory either way.
 */
#define VACCEL_CONTEXT_CREDITS	1024

static const char *vaccel_fence_driver_name(struct dma_fence *fence)
{
	return "vaccel";
}

static const char *vaccel_fence_timeline_name(struct dma_fence *fence)
{
	struct vaccel_hw_fence *hw = container_of(fence, struct vaccel_hw_fence, base);

	/* The slot lives as long as the fence: see vaccel_hw_fence_release(). */
	return hw->slot->name;
}

static struct vaccel_sched_slot *vaccel_sched_slot_new(void)
{
	struct vaccel_sched_slot *slot;

	slot = kzalloc(sizeof(*slot), GFP_KERNEL_ACCOUNT);
	if (!slot)
		return NULL;
	kref_init(&slot->refcount);
	spin_lock_init(&slot->fence_lock);
	/* Dropped by vaccel_sched_slot_release(). */
	__module_get(THIS_MODULE);
	return slot;
}

/* From the context's teardown or a fence's release: any context. */
static void vaccel_sched_slot_release(struct kref *kref)
{
	kfree(container_of(kref, struct vaccel_sched_slot, refcount));
	vaccel_module_put_deferred();
}

static void vaccel_sched_slot_put(struct vaccel_sched_slot *slot)
{
	kref_put(&slot->refcount, vaccel_sched_slot_release);
}

/*
 * The last reference is gone, and with it the finished and scheduled
 * fences that pointed here: nothing reads the scheduler's name any more.
 * The fence is part of its job, whose memory goes with it; RCU readers may
 * still look at the fence, which is signalled, so after a grace period.
 */
static void vaccel_hw_fence_release(struct dma_fence *f)
{
	struct vaccel_job *job = container_of(f, struct vaccel_job, hw.base);
	struct vaccel_sched_slot *slot = job->hw.slot;

	kfree_rcu(job, hw.base.rcu);
	vaccel_sched_slot_put(slot);
}

static const struct dma_fence_ops vaccel_fence_ops = {
	.get_driver_name = vaccel_fence_driver_name,
	.get_timeline_name = vaccel_fence_timeline_name,
	.release = vaccel_hw_fence_release,
};

/**
 * vaccel_job_complete() - the engine is done with a job: signal its fence
 * @job: the job, off every ring and HW queue, whose fence run_job
 *	initialised
 * @error: 0, or the error the fence carries
 *
 * The fence signals at once if every job its context ran before it has
 * signalled; otherwise it signals right after the last of those, whoever
 * completes it.
 *
 * Context: Any context; takes the context's fence lock.
 */
void vaccel_job_complete(struct vaccel_job *job, int error)
{
	struct vaccel_context *ctx = job->ctx;
	struct vaccel_sched_slot *slot = ctx->slot;
	struct vaccel_job *first;
	unsigned long flags;

	trace_vaccel_job_done(job, error);
	/* Its jobs may be freed, and the context with them, as they signal. */
	kref_get(&ctx->refcount);
	spin_lock_irqsave(&slot->fence_lock, flags);
	job->done = true;
	job->error = error;
	while ((first = list_first_entry_or_null(&ctx->pending, struct vaccel_job,
						 pending_link)) && first->done) {
		list_del_init(&first->pending_link);
		if (first->error)
			dma_fence_set_error(&first->hw.base, first->error);
		atomic64_inc(&ctx->jobs_completed);
		dma_fence_signal_locked(&first->hw.base);
	}
	spin_unlock_irqrestore(&slot->fence_lock, flags);
	vaccel_context_put(ctx);
}

/**
 * vaccel_job_start() - initialise a job's hardware fence, next of its context
 * @job: the job, with its context
 *
 * The fence takes the next seqno of the context and joins its pending
 * jobs, which vaccel_job_complete() signals in that order.
 *
 * Context: Any context; run_job calls it, serialised per context.
 */
void vaccel_job_start(struct vaccel_job *job)
{
	struct vaccel_context *ctx = job->ctx;
	unsigned long flags;

	/*
	 * Before the fence is initialised: its timeline name is the slot's,
	 * which dma_fence's init event reads.  Dropped by
	 * vaccel_hw_fence_release(), whenever the fence goes.
	 */
	kref_get(&ctx->slot->refcount);
	job->hw.slot = ctx->slot;
	dma_fence_init(&job->hw.base, &vaccel_fence_ops, &ctx->slot->fence_lock,
		       ctx->fence_context, ++ctx->fence_seqno);
	job->ran = true;
	atomic_inc(&ctx->jobs_ran);

	spin_lock_irqsave(&ctx->slot->fence_lock, flags);
	list_add_tail(&job->pending_link, &ctx->pending);
	spin_unlock_irqrestore(&ctx->slot->fence_lock, flags);
}

static struct dma_fence *vaccel_sched_run_job(struct drm_sched_job *sched_job)
{
	struct vaccel_job *job = to_vaccel_job(sched_job);
	u64 kcov_handle = job->kcov_handle;
	bool cookie;

	/* drm_sched's work: the coverage goes to the submitter's KCOV. */
	vaccel_kcov_begin(kcov_handle);
	cookie = dma_fence_begin_signalling();

	vaccel_job_start(job);
	trace_vaccel_job_run(job);
	/* drm_sched holds this reference until the fence signals. */
	dma_fence_get(&job->hw.base);
	vaccel_engine_queue_job(job->ctx->engine, job);
	dma_fence_end_signalling(cookie);
	vaccel_kcov_end(kcov_handle);
	return &job->hw.base;
}

/*
 * The scheduler's timeout is MAX_SCHEDULE_TIMEOUT, so drm_sched never calls
 * this: the engines detect hangs and recover from them.
 */
static enum drm_gpu_sched_stat vaccel_sched_timedout_job(struct drm_sched_job *job)
{
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

/**
 * vaccel_job_alloc() - a job and its hardware fence, not yet initialised
 *
 * One allocation, charged to the caller's memory cgroup: the fence is part
 * of the job, whose memory lives as long as the fence (see
 * vaccel_job_free()).
 *
 * Context: Process context.
 * Return: the job, or NULL.
 */
struct vaccel_job *vaccel_job_alloc(void)
{
	struct vaccel_job *job = kzalloc(sizeof(*job), GFP_KERNEL_ACCOUNT);

	if (!job)
		return NULL;
	INIT_LIST_HEAD(&job->arb.link);
	INIT_LIST_HEAD(&job->pending_link);
	/* The engine's coverage goes to the submitter's KCOV, if it has one. */
	job->kcov_handle = kcov_common_handle();
	return job;
}

/**
 * vaccel_job_free() - free a job drm_sched is done with, or never got
 * @job: the job; its context reference, if it has one, is dropped
 *
 * Everything the job holds goes now.  Its memory goes with its hardware
 * fence, which drm_sched's fences and through them syncobjs may hold long
 * after: with the job's own reference on it here, or at once if run_job
 * never initialised it (then nobody else has it).
 *
 * Context: Process context.
 */
void vaccel_job_free(struct vaccel_job *job)
{
	struct vaccel_context *ctx = job->ctx;

	if (job->bind)
		vaccel_vm_bind_batch_free(job->bind, job->kcov_handle);
	if (job->move)
		vaccel_move_free(job->move, job->kcov_handle);
	/* A DISPATCH that faulted, hung or was cancelled half-way. */
	vaccel_dispatch_free(job->dispatch);
	if (ctx && job->reserved)
		vaccel_file_job_release(ctx->file);
	if (ctx && job->ran && atomic_dec_and_test(&ctx->jobs_ran))
		wake_up_all(&ctx->idle_wq);
	if (ctx)
		vaccel_context_put(ctx);
	if (job->hw.base.ops)
		dma_fence_put(&job->hw.base);
	else
		kfree(job);
}

static void vaccel_sched_free_job(struct drm_sched_job *sched_job)
{
	u64 kcov_handle = to_vaccel_job(sched_job)->kcov_handle;

	vaccel_kcov_begin(kcov_handle);
	drm_sched_job_cleanup(sched_job);
	vaccel_job_free(to_vaccel_job(sched_job));
	vaccel_kcov_end(kcov_handle);
}

static const struct drm_sched_backend_ops vaccel_sched_ops = {
	.run_job = vaccel_sched_run_job,
	.timedout_job = vaccel_sched_timedout_job,
	.free_job = vaccel_sched_free_job,
};

/*
 * The last reference is gone: every job was freed, so the entity is empty
 * and the scheduler idle.  Its work may still be finishing the free_job
 * that dropped the reference: stopping the workqueue waits for it.
 */
static void vaccel_context_fini(struct vaccel_context *ctx)
{
	struct vaccel_engine *engine = ctx->engine;
	struct vaccel_file *vfile = ctx->file;
	LIST_HEAD(left);

	/*
	 * A context that was detached rather than destroyed idled on its
	 * own: the arbiter may still name it (a boost outlives the ring).
	 */
	spin_lock(&engine->lock);
	vaccel_arbiter_remove(&engine->arbiter, &ctx->arb, &left);
	spin_unlock(&engine->lock);
	drm_WARN_ON(&ctx->vdev->drm, !list_empty(&left));

	drm_sched_wqueue_stop(ctx->sched);
	drm_sched_entity_fini(&ctx->entity);
	drm_sched_fini(ctx->sched);
	vaccel_sched_slot_put(ctx->slot);
	drm_gpuvm_put(&ctx->vm->base);
	/* Its pages are the context's: they reach no other. */
	vaccel_dispatch_free(ctx->dispatch_cache);
	mem_cgroup_put(ctx->memcg);
	mutex_destroy(&ctx->submit_lock);
	kfree(ctx);
	/* May drop the device and the module: see "Open files". */
	vaccel_file_put(vfile);
}

static void vaccel_context_fini_work(struct work_struct *work)
{
	struct vaccel_context *ctx = container_of(work, struct vaccel_context, fini_work);
	u64 kcov_handle = ctx->kcov_handle;

	/* The teardown's coverage goes to the creator's KCOV, if it had one. */
	vaccel_kcov_begin(kcov_handle);
	vaccel_context_fini(ctx);
	vaccel_kcov_end(kcov_handle);
}

static void vaccel_context_release(struct kref *kref)
{
	struct vaccel_context *ctx = container_of(kref, struct vaccel_context,
						  refcount);

	/* Not here: the caller may be the scheduler's own free_job work. */
	queue_work(vaccel_teardown_wq, &ctx->fini_work);
}

/* The last reference dropped by the destroy itself, in process context. */
static void vaccel_context_release_now(struct kref *kref)
{
	vaccel_context_fini(container_of(kref, struct vaccel_context, refcount));
}

/**
 * vaccel_context_put() - drop a reference to a context
 * @ctx: the context
 *
 * Context: Any context.
 */
void vaccel_context_put(struct vaccel_context *ctx)
{
	kref_put(&ctx->refcount, vaccel_context_release);
}

static struct vaccel_context *vaccel_context_get(struct vaccel_file *vfile,
						 u32 handle)
{
	struct vaccel_context *ctx;

	xa_lock(&vfile->contexts);
	ctx = xa_load(&vfile->contexts, handle);
	if (ctx)
		kref_get(&ctx->refcount);
	xa_unlock(&vfile->contexts);
	return ctx;
}

/* The engine of the class with the fewest contexts, or the one asked for. */
static struct vaccel_engine *
vaccel_context_pick_engine(struct vaccel_device *vdev, u32 engine_class,
			   u32 instance)
{
	struct vaccel_engine *best = NULL;
	unsigned int i;

	for (i = 0; i < vdev->num_engines; i++) {
		struct vaccel_engine *e = &vdev->engines[i];

		if (e->desc.engine_class != engine_class)
			continue;
		if (instance != DRM_VACCEL_ENGINE_ANY) {
			if (e->desc.instance == instance)
				return e;
			continue;
		}
		if (!best || READ_ONCE(e->num_contexts) < READ_ONCE(best->num_contexts))
			best = e;
	}
	return best;
}

/**
 * vaccel_context_create() - a context on an engine
 * @vdev: the device
 * @vfile: the file whose VM the context executes in
 * @engine: the engine
 * @priority: &enum drm_vaccel_priority, already allowed
 *
 * The context is on the device's list, with handle 0 until its creator
 * gives it one.  Charged to the caller's memory cgroup.
 *
 * Context: Process context.
 * Return: the context, with one reference for the caller, or an ERR_PTR.
 */
struct vaccel_context *vaccel_context_create(struct vaccel_device *vdev,
					     struct vaccel_file *vfile,
					     struct vaccel_engine *engine,
					     u32 priority)
{
	struct drm_gpu_scheduler *sched;
	struct vaccel_context *ctx;
	int ret;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return ERR_PTR(-ENOMEM);
	ctx->slot = vaccel_sched_slot_new();
	if (!ctx->slot) {
		ret = -ENOMEM;
		goto err_free_ctx;
	}
	ctx->id = atomic_inc_return(&vdev->next_context_id);
	snprintf(ctx->slot->name, sizeof(ctx->slot->name), "vaccel%u-%s%u-c%u",
		 vdev->index, vaccel_engine_class_name(engine->desc.engine_class),
		 engine->desc.instance, ctx->id);
	ctx->sched = &ctx->slot->sched;
	ret = drm_sched_init(ctx->sched, &(struct drm_sched_init_args){
		.ops = &vaccel_sched_ops,
		.submit_wq = vdev->sched_wq,
		.num_rqs = 1,
		.credit_limit = VACCEL_CONTEXT_CREDITS,
		.timeout = MAX_SCHEDULE_TIMEOUT,
		.name = ctx->slot->name,
		.dev = vdev->drm.dev,
	});
	if (ret)
		goto err_put_slot;
	sched = ctx->sched;
	/* The scheduler's single run queue, priority 0: bands are the arbiter's. */
	ret = drm_sched_entity_init(&ctx->entity, DRM_SCHED_PRIORITY_KERNEL,
				    &sched, 1, NULL);
	if (ret)
		goto err_sched_fini;

	kref_init(&ctx->refcount);
	ctx->vdev = vdev;
	ctx->file = vfile;
	vaccel_file_get(vfile);
	ctx->vm = vfile->vm;
	drm_gpuvm_get(&ctx->vm->base);
	ctx->engine = engine;
	ctx->priority = priority;
	mutex_init(&ctx->submit_lock);
	ctx->fence_context = dma_fence_context_alloc(1);
	INIT_LIST_HEAD(&ctx->pending);
	vaccel_arbiter_entry_init(&ctx->arb, priority);
	ctx->memcg = get_mem_cgroup_from_mm(current->mm);
	ctx->pid = task_tgid_nr(current);
	get_task_comm(ctx->comm, current);
	init_waitqueue_head(&ctx->idle_wq);
	INIT_WORK(&ctx->fini_work, vaccel_context_fini_work);
	ctx->kcov_handle = kcov_common_handle();

	spin_lock(&engine->lock);
	engine->num_contexts++;
	spin_unlock(&engine->lock);
	mutex_lock(&vdev->contexts_lock);
	list_add_tail(&ctx->link, &vdev->contexts);
	mutex_unlock(&vdev->contexts_lock);
	trace_vaccel_context_create(ctx);
	return ctx;

err_sched_fini:
	drm_sched_fini(ctx->sched);
err_put_slot:
	vaccel_sched_slot_put(ctx->slot);
err_free_ctx:
	kfree(ctx);
	return ERR_PTR(ret);
}

/**
 * vaccel_ioctl_context_create() - handler of %DRM_IOCTL_VACCEL_CONTEXT_CREATE
 * @drm: the device
 * @data: &struct drm_vaccel_context_create
 * @file: the caller, whose VM the context executes in
 *
 * Context: Process context.
 * Return: 0 or a negative errno as documented at &struct drm_vaccel_context_create.
 */
int vaccel_ioctl_context_create(struct drm_device *drm, void *data,
				struct drm_file *file)
{
	struct vaccel_device *vdev = to_vaccel_device(drm);
	struct drm_vaccel_context_create *args = data;
	struct vaccel_file *vfile = file->driver_priv;
	struct vaccel_context *ctx;
	struct vaccel_engine *engine;
	int ret;

	if (VACCEL_IOCTL_DBG(vdev, args->flags) ||
	    VACCEL_IOCTL_DBG(vdev, args->pad) ||
	    VACCEL_IOCTL_DBG(vdev, args->engine_class != DRM_VACCEL_ENGINE_CLASS_COMPUTE &&
			     args->engine_class != DRM_VACCEL_ENGINE_CLASS_COPY) ||
	    VACCEL_IOCTL_DBG(vdev, args->priority > DRM_VACCEL_PRIORITY_REALTIME))
		return -EINVAL;
	if (VACCEL_IOCTL_DBG(vdev, args->priority > DRM_VACCEL_PRIORITY_NORMAL &&
			     !capable(CAP_SYS_NICE)))
		return -EPERM;
	engine = vaccel_context_pick_engine(vdev, args->engine_class,
					    args->engine_instance);
	if (VACCEL_IOCTL_DBG(vdev, !engine))
		return -EINVAL;

	ctx = vaccel_context_create(vdev, vfile, engine, args->priority);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);

	mutex_lock(&vfile->contexts_lock);
	if (VACCEL_IOCTL_DBG(vdev, vfile->num_contexts >= DRM_VACCEL_MAX_CONTEXTS_PER_FILE)) {
		ret = -ENOSPC;
	} else {
		ret = xa_alloc(&vfile->contexts, &args->handle, ctx,
			       xa_limit_32b, GFP_KERNEL_ACCOUNT);
		if (!ret) {
			ctx->handle = args->handle;
			vfile->num_contexts++;
		}
	}
	mutex_unlock(&vfile->contexts_lock);
	if (ret)
		vaccel_context_destroy(ctx);
	return ret;
}

/*
 * The first steps of a context's end, destroyed or detached: no SUBMIT
 * pushes a job after this, and debugfs and dumps no longer list it.
 */
static void vaccel_context_close(struct vaccel_context *ctx)
{
	mutex_lock(&ctx->submit_lock);
	ctx->destroyed = true;
	mutex_unlock(&ctx->submit_lock);
	trace_vaccel_context_destroy(ctx);

	mutex_lock(&ctx->vdev->contexts_lock);
	list_del_init(&ctx->link);
	mutex_unlock(&ctx->vdev->contexts_lock);
}

/**
 * vaccel_context_destroy() - cancel a context's work and drop its creator's reference
 * @ctx: the context, out of its creator's table
 *
 * Every buffer of the context not yet completed gets ``-ECANCELED``: at
 * once if it waits on the engine, at its next check if it runs, and when
 * it reaches run_job if its dependencies have not signalled yet.  Returns
 * once no buffer of the context is on an engine or can reach one, and the
 * buffers that went through run_job are freed, without waiting for any
 * dependency.  Unless a buffer still waits for one, the context is torn
 * down before this returns, so that the close of a file gives everything
 * back at once.
 *
 * Context: Process context; sleeps until the running buffer stops and
 * drm_sched has freed what it ran.
 */
void vaccel_context_destroy(struct vaccel_context *ctx)
{
	struct vaccel_engine *engine = ctx->engine;
	struct dma_fence *running;

	vaccel_context_close(ctx);

	running = vaccel_engine_cancel_context(engine, ctx, -ECANCELED);
	if (running) {
		/* It stops at its next check; its fence then signals. */
		dma_fence_wait(running, false);
		dma_fence_put(running);
	}
	/* Signalled, they are freed by drm_sched's work right away. */
	wait_event(ctx->idle_wq, !atomic_read(&ctx->jobs_ran));

	spin_lock(&engine->lock);
	engine->num_contexts--;
	spin_unlock(&engine->lock);
	/* The last reference, here in process context: tear down at once. */
	kref_put(&ctx->refcount, vaccel_context_release_now);
}

/**
 * vaccel_context_detach() - let a kernel context finish its work alone
 * @ctx: a kernel context whose VM's file is closing
 *
 * Unlike vaccel_context_destroy(), cancels nothing and waits for nothing:
 * the buffers queued so far run to completion, however long what they
 * wait for takes, and the context is torn down once the last of them is
 * freed.  A close thus never waits for another process's work, and a
 * move it queued still completes (see "Moving a BO").
 *
 * Context: Process context.
 */
void vaccel_context_detach(struct vaccel_context *ctx)
{
	struct vaccel_engine *engine = ctx->engine;

	drm_WARN_ON(&ctx->vdev->drm, !ctx->kernel);
	vaccel_context_close(ctx);
	spin_lock(&engine->lock);
	engine->num_contexts--;
	spin_unlock(&engine->lock);
	/* Its jobs hold it; the last one's free tears it down. */
	vaccel_context_put(ctx);
}

/**
 * vaccel_ioctl_context_destroy() - handler of %DRM_IOCTL_VACCEL_CONTEXT_DESTROY
 * @drm: the device
 * @data: &struct drm_vaccel_context_destroy
 * @file: the caller
 *
 * Context: Process context.
 * Return: 0 or a negative errno as documented at &struct drm_vaccel_context_destroy.
 */
int vaccel_ioctl_context_destroy(struct drm_device *drm, void *data,
				 struct drm_file *file)
{
	struct vaccel_device *vdev = to_vaccel_device(drm);
	struct drm_vaccel_context_destroy *args = data;
	struct vaccel_file *vfile = file->driver_priv;
	struct vaccel_context *ctx;

	if (VACCEL_IOCTL_DBG(vdev, args->pad))
		return -EINVAL;
	mutex_lock(&vfile->contexts_lock);
	ctx = xa_erase(&vfile->contexts, args->handle);
	if (ctx)
		vfile->num_contexts--;
	mutex_unlock(&vfile->contexts_lock);
	if (VACCEL_IOCTL_DBG(vdev, !ctx))
		return -ENOENT;
	vaccel_context_destroy(ctx);
	return 0;
}

/**
 * vaccel_contexts_destroy_all() - destroy the contexts of a closing file
 * @vfile: the file
 *
 * Context: Process context.
 */
void vaccel_contexts_destroy_all(struct vaccel_file *vfile)
{
	struct vaccel_context *ctx;
	unsigned long handle;

	xa_for_each(&vfile->contexts, handle, ctx) {
		xa_erase(&vfile->contexts, handle);
		vaccel_context_destroy(ctx);
	}
	vfile->num_contexts = 0;
}

/**
 * vaccel_ioctl_context_state() - handler of %DRM_IOCTL_VACCEL_CONTEXT_STATE
 * @drm: the device
 * @data: &struct drm_vaccel_context_state
 * @file: the caller
 *
 * Context: Process context.
 * Return: 0 or a negative errno as documented at &struct drm_vaccel_context_state.
 */
int vaccel_ioctl_context_state(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct vaccel_device *vdev = to_vaccel_device(drm);
	struct drm_vaccel_context_state *args = data;
	struct vaccel_context *ctx;
	u32 handle = args->handle;

	if (VACCEL_IOCTL_DBG(vdev, args->pad))
		return -EINVAL;
	ctx = vaccel_context_get(file->driver_priv, handle);
	if (VACCEL_IOCTL_DBG(vdev, !ctx))
		return -ENOENT;

	memset(args, 0, sizeof(*args));
	args->handle = handle;
	args->engine_index = ctx->engine->index;
	args->jobs_submitted = atomic64_read(&ctx->jobs_submitted);
	args->jobs_completed = atomic64_read(&ctx->jobs_completed);
	spin_lock(&ctx->engine->lock);
	if (ctx->cancelled)
		args->flags |= DRM_VACCEL_CONTEXT_BANNED;
	if (ctx->faulted) {
		args->flags |= DRM_VACCEL_CONTEXT_FAULTED;
		args->fault_va = ctx->fault.va;
		args->fault_offset = ctx->fault_offset;
		args->fault_reason = ctx->fault.reason;
		args->fault_access = ctx->fault.access;
		args->fault_pc = ctx->fault.pc;
	}
	args->ban_reason = ctx->ban_reason;
	args->ban_job = ctx->ban_job;
	args->ban_buffer_va = ctx->ban_buffer_va;
	args->ban_offset = ctx->ban_offset;
	args->guilty_resets = ctx->guilty_resets;
	args->innocent_resets = ctx->innocent_resets;
	args->preemptions = ctx->arb.preemptions;
	args->engine_ns = vaccel_arbiter_entry_run_ns(&ctx->engine->arbiter,
						      &ctx->arb, ktime_get_ns());
	spin_unlock(&ctx->engine->lock);
	vaccel_context_put(ctx);
	return 0;
}

static int vaccel_submit_copy_syncs(struct vaccel_device *vdev,
				    const struct drm_vaccel_obj_array *arr,
				    struct drm_vaccel_sync **out)
{
	struct drm_vaccel_sync *syncs;
	u32 i;
	int ret;

	*out = NULL;
	if (!arr->count)
		return 0;
	if (VACCEL_IOCTL_DBG(vdev, arr->count > DRM_VACCEL_MAX_SYNCS))
		return -E2BIG;
	if (VACCEL_IOCTL_DBG(vdev, arr->stride < sizeof(*syncs)) ||
	    VACCEL_IOCTL_DBG(vdev, arr->stride > PAGE_SIZE))
		return -EINVAL;
	syncs = kcalloc(arr->count, sizeof(*syncs), GFP_KERNEL);
	if (!syncs)
		return -ENOMEM;
	for (i = 0; i < arr->count; i++) {
		ret = copy_struct_from_user(&syncs[i], sizeof(syncs[i]),
					    u64_to_user_ptr(arr->array + (u64)i * arr->stride),
					    arr->stride);
		/* -E2BIG: non-zero bytes past the fields this kernel knows. */
		if (VACCEL_IOCTL_DBG(vdev, ret == -E2BIG) ||
		    (!ret && VACCEL_IOCTL_DBG(vdev, syncs[i].flags)))
			ret = -EINVAL;
		if (ret) {
			kfree(syncs);
			return ret;
		}
	}
	*out = syncs;
	return 0;
}

static void vaccel_signals_put(struct vaccel_signal *signals, u32 count)
{
	u32 i;

	for (i = 0; signals && i < count; i++) {
		if (signals[i].syncobj)
			drm_syncobj_put(signals[i].syncobj);
		dma_fence_chain_free(signals[i].chain);
	}
	kfree(signals);
}

static int vaccel_submit_prepare_signals(struct vaccel_device *vdev,
					 struct drm_file *file,
					 const struct drm_vaccel_sync *syncs,
					 u32 count, struct vaccel_signal **out)
{
	struct vaccel_signal *signals;
	u32 i;

	*out = NULL;
	if (!count)
		return 0;
	signals = kcalloc(count, sizeof(*signals), GFP_KERNEL);
	if (!signals)
		return -ENOMEM;
	*out = signals;
	for (i = 0; i < count; i++) {
		signals[i].syncobj = drm_syncobj_find(file, syncs[i].handle);
		if (VACCEL_IOCTL_DBG(vdev, !signals[i].syncobj))
			return -ENOENT;
		signals[i].point = syncs[i].point;
		if (syncs[i].point) {
			signals[i].chain = dma_fence_chain_alloc();
			if (!signals[i].chain)
				return -ENOMEM;
		}
	}
	return 0;
}

/* Puts @fence into every out-syncobj of @signals; cannot fail. */
static void vaccel_signals_install(struct vaccel_signal *signals, u32 count,
				   struct dma_fence *fence)
{
	u32 i;

	for (i = 0; i < count; i++) {
		if (signals[i].chain) {
			drm_syncobj_add_point(signals[i].syncobj, signals[i].chain,
					      fence, signals[i].point);
			signals[i].chain = NULL;
		} else {
			drm_syncobj_replace_fence(signals[i].syncobj, fence);
		}
	}
}

/**
 * vaccel_submit_begin() - every step of a submission that can fail
 * @s: the submission, filled
 * @ctx: the context
 * @file: the caller, whose syncobjs the arrays name
 * @job: the job, from vaccel_job_alloc(), with its work set; consumed
 * @waits: syncobjs to wait for, &struct drm_vaccel_sync
 * @signals: syncobjs to signal, &struct drm_vaccel_sync
 *
 * Copies the arrays, finds the syncobjs and the fences to wait for, counts
 * the job against its file's limit (waiting, interruptibly, while the file
 * has %VACCEL_MAX_JOBS_PER_FILE jobs) and initialises it.  On success the
 * context's submit lock is held until vaccel_submit_commit() or
 * vaccel_submit_abort(), neither of which can fail.
 *
 * Context: Process context; sleeps.
 * Return: 0; -ENOENT if the context is being destroyed; or another
 * negative errno.  On error, @job is freed.
 */
int vaccel_submit_begin(struct vaccel_submit *s, struct vaccel_context *ctx,
			struct drm_file *file, struct vaccel_job *job,
			const struct drm_vaccel_obj_array *waits,
			const struct drm_vaccel_obj_array *signals)
{
	struct vaccel_device *vdev = ctx->vdev;
	struct drm_vaccel_sync *wait_args = NULL;
	u32 i;
	int ret;

	memset(s, 0, sizeof(*s));
	s->job = job;
	s->nsignals = signals->count;
	/* The job's reference; vaccel_job_free() drops it. */
	job->ctx = ctx;
	kref_get(&ctx->refcount);

	/* Everything that may fault, sleep or fail, before the lock. */
	ret = vaccel_submit_copy_syncs(vdev, waits, &wait_args);
	if (!ret)
		ret = vaccel_submit_copy_syncs(vdev, signals, &s->signal_args);
	if (!ret)
		ret = vaccel_submit_prepare_signals(vdev, file, s->signal_args,
						    signals->count, &s->sigs);
	if (!ret) {
		ret = vaccel_file_job_reserve(ctx->file);
		job->reserved = !ret;
	}
	if (ret)
		goto err_free_job;

	ret = mutex_lock_interruptible(&ctx->submit_lock);
	if (ret)
		goto err_free_job;
	/* Serialised with vaccel_context_destroy(): no push after it. */
	if (VACCEL_IOCTL_DBG(vdev, ctx->destroyed)) {
		ret = -ENOENT;
		goto err_unlock;
	}
	ret = drm_sched_job_init(&job->base, &ctx->entity, 1, NULL,
				 file->client_id);
	if (ret)
		goto err_unlock;
	/*
	 * A buffer runs after the moves of BOs its VM maps, queued before
	 * it, and the moves queued after it wait for it (see "Moving a BO").
	 * Page-table jobs of the VM need neither.
	 */
	if (ctx->engine->desc.engine_class != DRM_VACCEL_ENGINE_CLASS_PAGING) {
		s->resv = ctx->vm->base.r_obj->resv;
		ret = dma_resv_lock_interruptible(s->resv, NULL);
		if (ret) {
			s->resv = NULL;
			goto err_cleanup_job;
		}
		ret = dma_resv_reserve_fences(s->resv, 1);
		if (!ret)
			ret = drm_sched_job_add_resv_dependencies(&job->base, s->resv,
								  DMA_RESV_USAGE_KERNEL);
		if (ret)
			goto err_cleanup_job;
	}
	for (i = 0; i < waits->count; i++) {
		struct dma_fence *fence;

		/*
		 * Not drm_sched_job_add_syncobj_dependency(): 32-bit points.
		 * -ENOENT: no such syncobj; -EINVAL: no fence at that point.
		 */
		ret = drm_syncobj_find_fence(file, wait_args[i].handle,
					     wait_args[i].point, 0, &fence);
		if (VACCEL_IOCTL_DBG(vdev, ret))
			goto err_cleanup_job;
		ret = drm_sched_job_add_dependency(&job->base, fence);
		if (ret)
			goto err_cleanup_job;
	}
	kfree(wait_args);
	return 0;

err_cleanup_job:
	if (s->resv)
		dma_resv_unlock(s->resv);
	s->resv = NULL;
	drm_sched_job_cleanup(&job->base);
err_unlock:
	mutex_unlock(&ctx->submit_lock);
err_free_job:
	vaccel_job_free(job);
	kfree(wait_args);
	vaccel_signals_put(s->sigs, s->nsignals);
	kfree(s->signal_args);
	return ret;
}

/**
 * vaccel_submit_commit() - push a job vaccel_submit_begin() prepared
 * @s: the submission
 * @done: if not NULL, receives a reference to the job's finished fence
 *
 * Context: Process context, after a successful vaccel_submit_begin().
 */
void vaccel_submit_commit(struct vaccel_submit *s, struct dma_fence **done)
{
	struct vaccel_job *job = s->job;
	struct vaccel_context *ctx = job->ctx;
	struct dma_fence *finished;

	drm_sched_job_arm(&job->base);
	finished = dma_fence_get(&job->base.s_fence->finished);
	/* Under the submit lock: the numbers follow the order of the pushes. */
	job->seqno = atomic64_inc_return(&ctx->jobs_submitted);
	/* Once pushed, the job may run, complete and be freed at any time. */
	trace_vaccel_job_submit(job);
	drm_sched_entity_push_job(&job->base);
	if (s->resv) {
		dma_resv_add_fence(s->resv, finished, DMA_RESV_USAGE_BOOKKEEP);
		dma_resv_unlock(s->resv);
	}
	mutex_unlock(&ctx->submit_lock);

	vaccel_signals_install(s->sigs, s->nsignals, finished);
	if (done)
		*done = finished;
	else
		dma_fence_put(finished);
	vaccel_signals_put(s->sigs, s->nsignals);
	kfree(s->signal_args);
}

/**
 * vaccel_submit_abort() - give up a job vaccel_submit_begin() prepared
 * @s: the submission; its job is freed, never having run
 *
 * Context: Process context, after a successful vaccel_submit_begin().
 */
void vaccel_submit_abort(struct vaccel_submit *s)
{
	struct vaccel_context *ctx = s->job->ctx;

	if (s->resv)
		dma_resv_unlock(s->resv);
	drm_sched_job_cleanup(&s->job->base);
	mutex_unlock(&ctx->submit_lock);
	vaccel_job_free(s->job);
	vaccel_signals_put(s->sigs, s->nsignals);
	kfree(s->signal_args);
}

/**
 * vaccel_syncs_fini() - release what vaccel_syncs_prepare() took
 * @s: the syncobjs, signalled or not
 *
 * Context: Process context.
 */
void vaccel_syncs_fini(struct vaccel_syncs *s)
{
	u32 i;

	for (i = 0; i < s->nfences; i++)
		dma_fence_put(s->fences[i]);
	kfree(s->fences);
	kfree(s->array);
	vaccel_signals_put(s->sigs, s->nsignals);
	kfree(s->signal_args);
	memset(s, 0, sizeof(*s));
}

/**
 * vaccel_syncs_prepare() - the syncobjs of a request that is no job itself
 * @s: filled
 * @vdev: the device
 * @file: the caller, whose syncobjs the arrays name
 * @waits: syncobjs whose fences the signals wait for, &struct drm_vaccel_sync
 * @signals: syncobjs to signal, &struct drm_vaccel_sync
 *
 * For a request whose work the kernel queues where no user's fence may
 * hold it up (BO_MIGRATE: see "Moving a BO"): the waits gate only what
 * the request signals, not the work.  Finds the fences and the syncobjs
 * and allocates all that vaccel_syncs_signal() needs, so that it cannot
 * fail.
 *
 * Context: Process context.
 * Return: 0, or the syncobj errors of vaccel_submit_begin(); nothing is
 * held then.
 */
int vaccel_syncs_prepare(struct vaccel_syncs *s, struct vaccel_device *vdev,
			 struct drm_file *file,
			 const struct drm_vaccel_obj_array *waits,
			 const struct drm_vaccel_obj_array *signals)
{
	struct drm_vaccel_sync *wait_args = NULL;
	u32 i;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = vaccel_submit_copy_syncs(vdev, waits, &wait_args);
	if (!ret)
		ret = vaccel_submit_copy_syncs(vdev, signals, &s->signal_args);
	if (!ret) {
		s->nsignals = signals->count;
		ret = vaccel_submit_prepare_signals(vdev, file, s->signal_args,
						    signals->count, &s->sigs);
	}
	if (!ret && waits->count) {
		s->fences = kcalloc(waits->count + 1, sizeof(*s->fences), GFP_KERNEL);
		s->array = dma_fence_array_alloc(waits->count + 1);
		if (!s->fences || !s->array)
			ret = -ENOMEM;
	}
	for (i = 0; !ret && i < waits->count; i++) {
		/* -ENOENT: no such syncobj; -EINVAL: no fence at that point. */
		ret = drm_syncobj_find_fence(file, wait_args[i].handle,
					     wait_args[i].point, 0, &s->fences[i]);
		if (VACCEL_IOCTL_DBG(vdev, ret))
			break;
		s->nfences++;
	}
	kfree(wait_args);
	if (ret)
		vaccel_syncs_fini(s);
	return ret;
}

/**
 * vaccel_syncs_signal() - signal the syncobjs once @done and the waits have
 * @s: the syncobjs, prepared; vaccel_syncs_fini() still releases it
 * @done: the fence of the request's work
 *
 * Context: Process context; cannot fail.
 */
void vaccel_syncs_signal(struct vaccel_syncs *s, struct dma_fence *done)
{
	struct dma_fence *fence;

	if (!s->nsignals)
		return;
	if (!s->nfences) {
		vaccel_signals_install(s->sigs, s->nsignals, done);
		return;
	}
	/* The array owns the fences, and their references, from here. */
	s->fences[s->nfences] = dma_fence_get(done);
	dma_fence_array_init(s->array, s->nfences + 1, s->fences,
			     dma_fence_context_alloc(1), 1, false);
	fence = &s->array->base;
	s->array = NULL;
	s->fences = NULL;
	s->nfences = 0;
	vaccel_signals_install(s->sigs, s->nsignals, fence);
	dma_fence_put(fence);
}

/**
 * vaccel_context_submit() - queue a job on a context
 * @ctx: the context
 * @file: the caller, whose syncobjs the arrays name
 * @job: the job, from vaccel_job_alloc(), with its work set; consumed
 * @waits: syncobjs to wait for, &struct drm_vaccel_sync
 * @signals: syncobjs to signal, &struct drm_vaccel_sync
 * @done: if not NULL, receives a reference to the job's finished fence
 *
 * Context: Process context; sleeps.
 * Return: 0, or a negative errno of vaccel_submit_begin() with @job freed.
 */
int vaccel_context_submit(struct vaccel_context *ctx, struct drm_file *file,
			  struct vaccel_job *job,
			  const struct drm_vaccel_obj_array *waits,
			  const struct drm_vaccel_obj_array *signals,
			  struct dma_fence **done)
{
	struct vaccel_submit s;
	int ret;

	ret = vaccel_submit_begin(&s, ctx, file, job, waits, signals);
	if (!ret)
		vaccel_submit_commit(&s, done);
	return ret;
}

/**
 * vaccel_ioctl_submit() - handler of %DRM_IOCTL_VACCEL_SUBMIT
 * @drm: the device
 * @data: &struct drm_vaccel_submit
 * @file: the caller
 *
 * Context: Process context.
 * Return: 0 or a negative errno as documented at &struct drm_vaccel_submit.
 */
int vaccel_ioctl_submit(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct vaccel_device *vdev = to_vaccel_device(drm);
	struct drm_vaccel_submit *args = data;
	struct vaccel_context *ctx;
	struct vaccel_job *job;
	int ret;

	if (VACCEL_IOCTL_DBG(vdev, args->flags) ||
	    VACCEL_IOCTL_DBG(vdev, !args->buffer_size) ||
	    VACCEL_IOCTL_DBG(vdev, args->buffer_size % 8) ||
	    VACCEL_IOCTL_DBG(vdev, args->buffer_va % 8) ||
	    VACCEL_IOCTL_DBG(vdev, args->buffer_size > DRM_VACCEL_MAX_BUFFER_SIZE))
		return -EINVAL;

	ctx = vaccel_context_get(file->driver_priv, args->context);
	if (VACCEL_IOCTL_DBG(vdev, !ctx))
		return -ENOENT;
	if (VACCEL_IOCTL_DBG(vdev, READ_ONCE(ctx->cancelled))) {
		ret = -ECANCELED;
		goto out_put_ctx;
	}
	/* What the kernel evicted comes back before the buffer runs. */
	ret = vaccel_vm_make_resident(ctx->vm, file);
	if (ret)
		goto out_put_ctx;
	job = vaccel_job_alloc();
	if (!job) {
		ret = -ENOMEM;
		goto out_put_ctx;
	}
	job->va = args->buffer_va;
	job->size = args->buffer_size;
	ret = vaccel_context_submit(ctx, file, job, &args->waits,
				    &args->signals, NULL);
out_put_ctx:
	vaccel_context_put(ctx);
	return ret;
}
