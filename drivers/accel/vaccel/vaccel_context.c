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
 * waking another one under the workqueue pool's lock; high priority, so
 * that it runs before the submitter goes on; and not ordered, since
 * drm_sched orders a scheduler's own work and contexts have nothing to
 * order between them.
 *
 * drm_sched's timeout is not used.  It starts when run_job hands a job
 * over and restarts only when a job completes, so it would count the time
 * a job waits on the ring behind other contexts, or preempted, and could
 * not see a long COPY progress; suspending and resuming it at every
 * arbitration would duplicate what the engine knows exactly.  The engine
 * detects hangs itself (see "Engines").
 *
 * A job's hardware fence is signalled by the engine; drm_sched derives the
 * finished fence from it, which is what out-syncobjs receive.
 *
 * Destroying a context cancels everything it has queued, kills its
 * entity, then waits until drm_sched has freed every job that went through
 * run_job, which is bounded: cancelled jobs complete at once and the
 * running one stops at its next packet.  Only then is the scheduler torn
 * down.  Jobs that never reached run_job are killed by drm_sched, which
 * finishes them with -ESRCH and frees them once their dependencies signal,
 * possibly much later: each holds a reference on the context, and the
 * context one on the module, so that their release code stays.  Nothing in
 * the teardown waits for a dependency, so a fence that never signals
 * cannot hang CONTEXT_DESTROY or close().
 *
 * drm_sched's fences read their scheduler's name for as long as they live,
 * in syncobjs and sync_files long after the context is gone (6.12 keeps no
 * copy).  So schedulers are never freed with their context: a torn-down
 * scheduler goes back to a per-device pool, where its memory stays a
 * scheduler with a valid name until a new context reuses it or the device
 * is released.
 */

#include <linux/capability.h>
#include <linux/dma-fence.h>
#include <linux/dma-fence-chain.h>
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
#include "vaccel_vm.h"

/* Jobs a context's scheduler hands to run_job before they complete. */
#define VACCEL_CONTEXT_CREDITS	64

static const char *vaccel_fence_driver_name(struct dma_fence *fence)
{
	return "vaccel";
}

static const char *vaccel_fence_timeline_name(struct dma_fence *fence)
{
	return "vaccel-context";
}

static const struct dma_fence_ops vaccel_fence_ops = {
	.get_driver_name = vaccel_fence_driver_name,
	.get_timeline_name = vaccel_fence_timeline_name,
};

/*
 * A hardware fence carries its own lock: drm_sched keeps the fence, as its
 * finished fence's parent, after the context is gone.
 */
struct vaccel_hw_fence {
	struct dma_fence base;
	/* The fence's lock, as dma_fence requires. */
	spinlock_t lock;
};

/* dma_fence_free() frees the fence by its address: the whole wrapper. */
static_assert(offsetof(struct vaccel_hw_fence, base) == 0);

/**
 * vaccel_sched_pool_get() - a scheduler's memory for a new context
 * @vdev: the device
 *
 * Context: Process context.
 * Return: a scheduler to initialise, or NULL.
 */
struct drm_gpu_scheduler *vaccel_sched_pool_get(struct vaccel_device *vdev)
{
	struct vaccel_sched_slot *slot;

	mutex_lock(&vdev->sched_pool_lock);
	slot = list_first_entry_or_null(&vdev->sched_pool,
					struct vaccel_sched_slot, link);
	if (slot)
		list_del(&slot->link);
	mutex_unlock(&vdev->sched_pool_lock);
	if (!slot)
		slot = kzalloc(sizeof(*slot), GFP_KERNEL);
	return slot ? &slot->sched : NULL;
}

/**
 * vaccel_sched_pool_put() - give a torn-down scheduler's memory back
 * @vdev: the device
 * @sched: the scheduler, finalised or never initialised
 *
 * Context: Process context.
 */
void vaccel_sched_pool_put(struct vaccel_device *vdev,
			   struct drm_gpu_scheduler *sched)
{
	struct vaccel_sched_slot *slot = container_of(sched, struct vaccel_sched_slot,
						      sched);

	mutex_lock(&vdev->sched_pool_lock);
	list_add(&slot->link, &vdev->sched_pool);
	mutex_unlock(&vdev->sched_pool_lock);
}

/**
 * vaccel_job_complete() - signal a job's hardware fence
 * @job: the job, off every ring and HW queue
 * @error: 0, or the error the fence carries
 *
 * Context: Any context.
 */
void vaccel_job_complete(struct vaccel_job *job, int error)
{
	if (error)
		dma_fence_set_error(job->hw_fence, error);
	atomic64_inc(&job->ctx->jobs_completed);
	dma_fence_signal(job->hw_fence);
}

static struct dma_fence *vaccel_sched_run_job(struct drm_sched_job *sched_job)
{
	struct vaccel_job *job = to_vaccel_job(sched_job);
	struct vaccel_hw_fence *hw = container_of(job->hw_fence,
						  struct vaccel_hw_fence, base);
	struct vaccel_context *ctx = job->ctx;

	spin_lock_init(&hw->lock);
	dma_fence_init(job->hw_fence, &vaccel_fence_ops, &hw->lock,
		       ctx->fence_context, ++ctx->fence_seqno);
	job->ran = true;
	atomic_inc(&ctx->jobs_running);
	/* drm_sched holds this reference until the fence signals. */
	dma_fence_get(job->hw_fence);
	vaccel_engine_queue_job(ctx->engine, job);
	return job->hw_fence;
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
 * Context: Process context.
 * Return: the job, or NULL.
 */
struct vaccel_job *vaccel_job_alloc(void)
{
	struct vaccel_job *job = kzalloc(sizeof(*job), GFP_KERNEL);
	struct vaccel_hw_fence *hw;

	if (!job)
		return NULL;
	hw = kzalloc(sizeof(*hw), GFP_KERNEL);
	if (!hw) {
		kfree(job);
		return NULL;
	}
	job->hw_fence = &hw->base;
	INIT_LIST_HEAD(&job->arb.link);
	return job;
}

/**
 * vaccel_job_free() - free a job drm_sched is done with, or never got
 * @job: the job; its context reference, if it has one, is dropped
 *
 * Context: Process context.
 */
void vaccel_job_free(struct vaccel_job *job)
{
	struct vaccel_context *ctx = job->ctx;
	bool ran = job->ran;

	if (job->bind)
		vaccel_vm_bind_batch_free(job->bind);
	/* A DISPATCH that faulted, hung or was cancelled half-way. */
	vaccel_dispatch_free(job->dispatch);
	/* A fence that run_job never initialised was never referenced. */
	if (job->hw_fence->ops)
		dma_fence_put(job->hw_fence);
	else
		kfree(container_of(job->hw_fence, struct vaccel_hw_fence, base));
	kfree(job);
	if (!ctx)
		return;
	if (ran && atomic_dec_and_test(&ctx->jobs_running))
		wake_up_all(&ctx->idle_wq);
	vaccel_context_put(ctx);
}

static void vaccel_sched_free_job(struct drm_sched_job *sched_job)
{
	drm_sched_job_cleanup(sched_job);
	vaccel_job_free(to_vaccel_job(sched_job));
}

static const struct drm_sched_backend_ops vaccel_sched_ops = {
	.run_job = vaccel_sched_run_job,
	.timedout_job = vaccel_sched_timedout_job,
	.free_job = vaccel_sched_free_job,
};

static void vaccel_context_release(struct kref *kref)
{
	struct vaccel_context *ctx = container_of(kref, struct vaccel_context,
						  refcount);

	drm_gpuvm_put(&ctx->vm->base);
	mem_cgroup_put(ctx->memcg);
	mutex_destroy(&ctx->submit_lock);
	kfree(ctx);
	module_put(THIS_MODULE);
}

/**
 * vaccel_context_put() - drop a reference to a context
 * @ctx: the context
 *
 * Context: Process context.
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
 * @vfile: the file whose VM the context executes in, and which outlives it
 * @engine: the engine
 * @priority: &enum drm_vaccel_priority, already allowed
 *
 * The context is on the device's list, with handle 0 until its creator
 * gives it one.
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

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return ERR_PTR(-ENOMEM);
	/* Released by vaccel_context_release(), however late. */
	__module_get(THIS_MODULE);
	kref_init(&ctx->refcount);
	ctx->vdev = vdev;
	ctx->vm = vfile->vm;
	drm_gpuvm_get(&ctx->vm->base);
	ctx->engine = engine;
	ctx->priority = priority;
	mutex_init(&ctx->submit_lock);
	ctx->fence_context = dma_fence_context_alloc(1);
	vaccel_arbiter_entry_init(&ctx->arb, priority);
	init_waitqueue_head(&ctx->idle_wq);
	ctx->file = vfile;
	ctx->memcg = get_mem_cgroup_from_mm(current->mm);
	INIT_LIST_HEAD(&ctx->link);

	ctx->sched = vaccel_sched_pool_get(vdev);
	if (!ctx->sched) {
		ret = -ENOMEM;
		goto err_put;
	}
	ret = drm_sched_init(ctx->sched, &(struct drm_sched_init_args){
		.ops = &vaccel_sched_ops,
		.submit_wq = vdev->sched_wq,
		.num_rqs = 1,
		.credit_limit = VACCEL_CONTEXT_CREDITS,
		.timeout = MAX_SCHEDULE_TIMEOUT,
		.name = "vaccel-context",
		.dev = vdev->drm.dev,
	});
	if (ret)
		goto err_pool_put;
	sched = ctx->sched;
	/* The scheduler's single run queue, priority 0: bands are the arbiter's. */
	ret = drm_sched_entity_init(&ctx->entity, DRM_SCHED_PRIORITY_KERNEL,
				    &sched, 1, NULL);
	if (ret)
		goto err_sched_fini;

	spin_lock(&engine->lock);
	engine->num_contexts++;
	spin_unlock(&engine->lock);
	mutex_lock(&vdev->contexts_lock);
	list_add_tail(&ctx->link, &vdev->contexts);
	mutex_unlock(&vdev->contexts_lock);
	return ctx;

err_sched_fini:
	drm_sched_fini(ctx->sched);
err_pool_put:
	vaccel_sched_pool_put(vdev, ctx->sched);
err_put:
	vaccel_context_put(ctx);
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

	if (args->flags || args->pad ||
	    (args->engine_class != DRM_VACCEL_ENGINE_CLASS_COMPUTE &&
	     args->engine_class != DRM_VACCEL_ENGINE_CLASS_COPY) ||
	    args->priority > DRM_VACCEL_PRIORITY_REALTIME)
		return -EINVAL;
	if (args->priority > DRM_VACCEL_PRIORITY_NORMAL && !capable(CAP_SYS_NICE))
		return -EPERM;
	engine = vaccel_context_pick_engine(vdev, args->engine_class,
					    args->engine_instance);
	if (!engine)
		return -EINVAL;

	ctx = vaccel_context_create(vdev, vfile, engine, args->priority);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);

	mutex_lock(&vfile->contexts_lock);
	if (vfile->num_contexts >= DRM_VACCEL_MAX_CONTEXTS_PER_FILE) {
		ret = -ENOSPC;
	} else {
		ret = xa_alloc(&vfile->contexts, &args->handle, ctx,
			       xa_limit_32b, GFP_KERNEL);
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

/**
 * vaccel_context_destroy() - cancel a context's work and drop its creator's reference
 * @ctx: the context, out of its creator's table
 *
 * Returns once no buffer of the context is on an engine or can reach one;
 * jobs still waiting for dependencies are left to drm_sched, which frees
 * them when those signal.
 *
 * Context: Process context; may sleep a second for drm_sched's entity.
 */
void vaccel_context_destroy(struct vaccel_context *ctx)
{
	struct vaccel_engine *engine = ctx->engine;

	mutex_lock(&ctx->vdev->contexts_lock);
	list_del_init(&ctx->link);
	mutex_unlock(&ctx->vdev->contexts_lock);

	vaccel_engine_cancel_context(engine, ctx, -ECANCELED);
	/*
	 * Not drm_sched_entity_destroy(): its flush waits for the entity's
	 * jobs to reach run_job, that is for their dependencies.  Killing
	 * the entity finishes its queued jobs with -ESRCH instead, once their
	 * dependencies signal, without anyone waiting for that.
	 */
	drm_sched_entity_fini(&ctx->entity);
	wait_event(ctx->idle_wq, !atomic_read(&ctx->jobs_running));
	drm_sched_fini(ctx->sched);
	vaccel_sched_pool_put(ctx->vdev, ctx->sched);

	spin_lock(&engine->lock);
	engine->num_contexts--;
	spin_unlock(&engine->lock);
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
	struct drm_vaccel_context_destroy *args = data;
	struct vaccel_file *vfile = file->driver_priv;
	struct vaccel_context *ctx;

	if (args->pad)
		return -EINVAL;
	mutex_lock(&vfile->contexts_lock);
	ctx = xa_erase(&vfile->contexts, args->handle);
	if (ctx)
		vfile->num_contexts--;
	mutex_unlock(&vfile->contexts_lock);
	if (!ctx)
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
	struct drm_vaccel_context_state *args = data;
	struct vaccel_context *ctx;
	u32 handle = args->handle;

	if (args->pad)
		return -EINVAL;
	ctx = vaccel_context_get(file->driver_priv, handle);
	if (!ctx)
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
	args->guilty_resets = ctx->guilty_resets;
	args->innocent_resets = ctx->innocent_resets;
	args->preemptions = ctx->arb.preemptions;
	args->engine_ns = vaccel_arbiter_entry_run_ns(&ctx->engine->arbiter,
						      &ctx->arb, ktime_get_ns());
	spin_unlock(&ctx->engine->lock);
	vaccel_context_put(ctx);
	return 0;
}

/**
 * struct vaccel_signal - an out-syncobj of a submit
 * @syncobj: the syncobj, referenced
 * @chain: for a timeline point, the preallocated chain node
 * @point: the point, or 0
 */
struct vaccel_signal {
	struct drm_syncobj *syncobj;
	struct dma_fence_chain *chain;
	u64 point;
};

static int vaccel_submit_copy_syncs(const struct drm_vaccel_obj_array *arr,
				    struct drm_vaccel_sync **out)
{
	struct drm_vaccel_sync *syncs;
	u32 i;
	int ret;

	*out = NULL;
	if (!arr->count)
		return 0;
	if (arr->count > DRM_VACCEL_MAX_SYNCS)
		return -E2BIG;
	if (arr->stride < sizeof(*syncs) || arr->stride > PAGE_SIZE)
		return -EINVAL;
	syncs = kcalloc(arr->count, sizeof(*syncs), GFP_KERNEL);
	if (!syncs)
		return -ENOMEM;
	for (i = 0; i < arr->count; i++) {
		ret = copy_struct_from_user(&syncs[i], sizeof(syncs[i]),
					    u64_to_user_ptr(arr->array + (u64)i * arr->stride),
					    arr->stride);
		if (!ret && syncs[i].flags)
			ret = -EINVAL;
		if (ret) {
			kfree(syncs);
			return ret == -E2BIG ? -EINVAL : ret;
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

static int vaccel_submit_prepare_signals(struct drm_file *file,
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
		if (!signals[i].syncobj)
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

/**
 * vaccel_context_submit() - queue a job on a context
 * @ctx: the context
 * @file: the caller, whose syncobjs the arrays name
 * @job: the job, from vaccel_job_alloc(), with its work set; consumed
 * @waits: syncobjs to wait for, &struct drm_vaccel_sync
 * @signals: syncobjs to signal, &struct drm_vaccel_sync
 * @done: if not NULL, receives a reference to the job's finished fence
 *
 * Context: Process context.
 * Return: 0, or a negative errno with @job freed.
 */
int vaccel_context_submit(struct vaccel_context *ctx, struct drm_file *file,
			  struct vaccel_job *job,
			  const struct drm_vaccel_obj_array *waits,
			  const struct drm_vaccel_obj_array *signals,
			  struct dma_fence **done)
{
	struct drm_vaccel_sync *wait_args = NULL, *signal_args = NULL;
	struct vaccel_signal *sigs = NULL;
	struct dma_fence *finished;
	u32 i;
	int ret;

	/* The job's reference; vaccel_job_free() drops it. */
	job->ctx = ctx;
	kref_get(&ctx->refcount);

	ret = vaccel_submit_copy_syncs(waits, &wait_args);
	if (!ret)
		ret = vaccel_submit_copy_syncs(signals, &signal_args);
	if (!ret)
		ret = vaccel_submit_prepare_signals(file, signal_args,
						    signals->count, &sigs);
	if (ret) {
		vaccel_job_free(job);
		goto out_free_syncs;
	}

	ret = drm_sched_job_init(&job->base, &ctx->entity, 1, NULL,
				 file->client_id);
	if (ret) {
		vaccel_job_free(job);
		goto out_free_syncs;
	}
	for (i = 0; i < waits->count; i++) {
		struct dma_fence *fence;

		/* Not drm_sched_job_add_syncobj_dependency(): 32-bit points. */
		ret = drm_syncobj_find_fence(file, wait_args[i].handle,
					     wait_args[i].point, 0, &fence);
		if (!ret)
			ret = drm_sched_job_add_dependency(&job->base, fence);
		if (ret) {
			drm_sched_job_cleanup(&job->base);
			vaccel_job_free(job);
			goto out_free_syncs;
		}
	}

	mutex_lock(&ctx->submit_lock);
	drm_sched_job_arm(&job->base);
	finished = dma_fence_get(&job->base.s_fence->finished);
	atomic64_inc(&ctx->jobs_submitted);
	drm_sched_entity_push_job(&job->base);
	mutex_unlock(&ctx->submit_lock);

	for (i = 0; i < signals->count; i++) {
		if (sigs[i].chain) {
			drm_syncobj_add_point(sigs[i].syncobj, sigs[i].chain,
					      finished, sigs[i].point);
			sigs[i].chain = NULL;
		} else {
			drm_syncobj_replace_fence(sigs[i].syncobj, finished);
		}
	}
	if (done)
		*done = finished;
	else
		dma_fence_put(finished);

out_free_syncs:
	vaccel_signals_put(sigs, signals->count);
	kfree(signal_args);
	kfree(wait_args);
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
	struct drm_vaccel_submit *args = data;
	struct vaccel_context *ctx;
	struct vaccel_job *job;
	int ret;

	if (args->flags || !args->buffer_size || args->buffer_size % 8 ||
	    args->buffer_va % 8 || args->buffer_size > DRM_VACCEL_MAX_BUFFER_SIZE)
		return -EINVAL;

	ctx = vaccel_context_get(file->driver_priv, args->context);
	if (!ctx)
		return -ENOENT;
	if (READ_ONCE(ctx->cancelled)) {
		ret = -ECANCELED;
		goto out_put_ctx;
	}
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
