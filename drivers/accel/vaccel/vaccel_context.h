/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_CONTEXT_H__
#define __VACCEL_CONTEXT_H__

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <drm/gpu_scheduler.h>
#include <drm/vaccel_accel.h>

#include "vaccel_arbiter.h"
#include "vaccel_packet.h"
#include "vaccel_tlb.h"

struct dma_fence;
struct dma_fence_array;
struct dma_fence_chain;
struct drm_syncobj;
struct drm_device;
struct drm_file;
struct vaccel_device;
struct vaccel_engine;
struct vaccel_bind_batch;
struct vaccel_move;
struct vaccel_dispatch;
struct vaccel_file;
struct mem_cgroup;
struct vaccel_vm;

/**
 * struct vaccel_sched_slot - the memory of a context's drm_sched scheduler
 * @sched: the scheduler
 * @refcount: one for the context, one per hardware fence it initialised:
 *	drm_sched's fences read their scheduler's name as long as they
 *	live, and hardware fences outlive the finished fences that point
 *	at them, so the scheduler's memory stays until the last goes; it
 *	holds a reference on the module for them, whose code they call
 * @fence_lock: the lock of every hardware fence of the context; also
 *	protects &vaccel_context.pending
 * @name: the scheduler's name, also the timeline name of the context's
 *	fences, drm_sched's and its own: ``vaccel<dev>-<engine>-c<id>``
 */
struct vaccel_sched_slot {
	struct drm_gpu_scheduler sched;
	struct kref refcount;
	/* The context's fences' lock; protects the context's pending list. */
	spinlock_t fence_lock;
	char name[32];
};

/**
 * struct vaccel_context - a queue of DMA buffers for one engine
 * @refcount: held by its creator (the file's context table, or the VM for
 *	a paging context) and by every job; the last reference queues
 *	@fini_work
 * @vdev: the device
 * @id: its number on the device, which names it in trace events and in
 *	its scheduler's name; unlike @handle, unique across files
 * @file: the file it was created by, referenced: its usage is charged
 *	there, and its limits count the context's jobs
 * @vm: the address space its buffers execute in, referenced
 * @engine: the engine it is bound to
 * @priority: &enum drm_vaccel_priority
 * @slot: the memory of its scheduler, referenced
 * @sched: its own drm_sched scheduler, fed by @entity alone
 * @entity: its SW queue
 * @submit_lock: orders drm_sched_job_arm() and drm_sched_entity_push_job(),
 *	and protects @destroyed
 * @destroyed: CONTEXT_DESTROY or the close has begun: no job may be
 *	pushed any more
 * @fence_context: dma-fence context of its hardware fences
 * @fence_seqno: last hardware fence seqno; run_job is serialised per
 *	scheduler, so no lock
 * @pending: jobs that went through run_job and whose hardware fence has
 *	not signalled, in seqno order; under @slot's fence lock
 * @arb: the context as the engine's arbiter sees it, with its ring of jobs
 *	whose dependencies are met; under the engine's lock
 * @cancelled: the error its remaining jobs get (-ECANCELED once banned or
 *	destroyed), 0 while it runs; under the engine's lock
 * @ban_reason: &enum drm_vaccel_ban_reason; under the engine's lock
 * @ban_job: &vaccel_job.seqno of the buffer that got it banned, 0 while
 *	it is not banned; under the engine's lock
 * @ban_buffer_va: that buffer's GPU VA; under the engine's lock
 * @ban_offset: offset in it of the packet that faulted, hung or ran out
 *	of time; under the engine's lock
 * @guilty_resets: engine resets its hung buffers caused; under the
 *	engine's lock
 * @innocent_resets: resets that preempted its buffers; under the engine's
 *	lock
 * @fault: the first fault, valid once @cancelled is set by a fault; under
 *	the engine's lock
 * @fault_offset: offset in its buffer of the packet that faulted
 * @faulted: a buffer faulted
 * @jobs_submitted: buffers submitted
 * @jobs_completed: buffers whose hardware fence signalled
 * @jobs_ran: jobs that went through run_job and are not freed yet
 * @idle_wq: woken when @jobs_ran drops to zero
 * @memcg: the memory cgroup of its creator, charged for the state its
 *	DISPATCH packets keep on the engine; referenced
 * @dispatch_cache: the state of its last DISPATCH, which the next one
 *	takes back (see "Dispatch memory"); NULL if none; exchanged
 *	atomically
 * @handle: its handle in @file
 * @pid: thread-group id of the process that created it, for dumps
 * @comm: that process's command name, for dumps
 * @link: on &vaccel_device.contexts until it is destroyed, under
 *	&vaccel_device.contexts_lock
 * @fini_work: tears the scheduler down once the last job is freed
 * @kernel: owned by the driver, not by a user (a file's mover, see "Moving
 *	a BO"): its buffers have no time limit, and nothing a user does, a
 *	fault, a limit or a close, cancels them
 */
struct vaccel_context {
	struct kref refcount;
	struct vaccel_device *vdev;
	u32 id;
	struct vaccel_file *file;
	struct vaccel_vm *vm;
	struct vaccel_engine *engine;
	u32 priority;
	struct vaccel_sched_slot *slot;
	struct drm_gpu_scheduler *sched;
	struct drm_sched_entity entity;
	/* Orders arming and pushing jobs; protects @destroyed. */
	struct mutex submit_lock;
	bool destroyed;
	u64 fence_context;
	u64 fence_seqno;
	struct list_head pending;
	struct vaccel_arbiter_entry arb;
	int cancelled;
	u32 ban_reason;
	u64 ban_job;
	u64 ban_buffer_va;
	u64 ban_offset;
	u32 guilty_resets;
	u32 innocent_resets;
	struct vaccel_fault fault;
	u64 fault_offset;
	bool faulted;
	atomic64_t jobs_submitted;
	atomic64_t jobs_completed;
	atomic_t jobs_ran;
	wait_queue_head_t idle_wq;
	struct mem_cgroup *memcg;
	struct vaccel_dispatch *dispatch_cache;
	u32 handle;
	pid_t pid;
	char comm[TASK_COMM_LEN];
	struct list_head link;
	struct work_struct fini_work;
	u64 kcov_handle;
	bool kernel;
};

/**
 * struct vaccel_hw_fence - a job's hardware fence
 * @base: the fence, whose lock is the context's fence lock
 * @slot: the scheduler memory of its context, referenced once initialised
 */
struct vaccel_hw_fence {
	struct dma_fence base;
	struct vaccel_sched_slot *slot;
};

/**
 * struct vaccel_job - one submitted DMA buffer
 * @base: the drm_sched job
 * @ctx: its context, referenced
 * @seqno: its number among its context's submissions, from 1, given as it
 *	is pushed
 * @va: GPU VA of the buffer
 * @size: its size in bytes
 * @offset: offset of the next packet to execute
 * @pkt_progress: how far the packet at @offset got before a preemption:
 *	bytes of a COPY or FILL, nanoseconds of a DELAY; 0 when it has not
 *	started
 * @pkt_words: the packet at @offset as it read when a preemption stopped
 *	it part-way, header and operands: it must read the same to resume
 * @pkt_saved: @pkt_words holds a packet stopped part-way
 * @stall_ns: engine time without progress before its last preemption,
 *	which counts towards the hang timeout when it resumes
 * @run_ns: engine time it used before its current run, which counts
 *	towards its time limit
 * @hw: its hardware fence, initialised by run_job and signalled once the
 *	engine is done with the buffer; part of the job, whose memory lives
 *	until the fence's last reference goes
 * @arb: the buffer as the arbiter sees it: on its context's ring while it
 *	waits for the engine
 * @pending_link: on &vaccel_context.pending from run_job until its
 *	hardware fence signals
 * @done: the engine is done with it; under the fence lock
 * @error: the error its fence signals with, once @done
 * @ran: went through run_job, so counts in &vaccel_context.jobs_ran
 * @reserved: counts against its file's limit of jobs
 * @bind: for a job of the PAGING engine, the page-table updates it
 *	applies instead of executing packets; NULL otherwise
 * @move: for a job of the PAGING engine, the move of a BO it does
 *	instead of executing packets; NULL otherwise
 * @dispatch: the state of the DISPATCH packet at @offset once it has
 *	started, kept across preemptions; NULL otherwise
 * @kcov_handle: the submitter's common KCOV handle, 0 without one: the
 *	engine's coverage while it runs the job goes there
 * @cost_debt: what the cost model charged the job and it has not spent
 *	yet, in 1/1024 ns, kept across preemptions: the debt is the
 *	buffer's that moved the bytes, never the next one's
 */
struct vaccel_job {
	struct drm_sched_job base;
	struct vaccel_context *ctx;
	u64 seqno;
	u64 va;
	u64 size;
	u64 offset;
	u64 pkt_progress;
	u64 pkt_words[VACCEL_PKT_MAX_WORDS];
	bool pkt_saved;
	u64 stall_ns;
	u64 run_ns;
	struct vaccel_hw_fence hw;
	struct vaccel_arbiter_buffer arb;
	struct list_head pending_link;
	bool done;
	int error;
	bool ran;
	bool reserved;
	struct vaccel_bind_batch *bind;
	struct vaccel_move *move;
	struct vaccel_dispatch *dispatch;
	u64 kcov_handle;
	u64 cost_debt;
};

static inline struct vaccel_job *to_vaccel_job(struct drm_sched_job *job)
{
	return container_of(job, struct vaccel_job, base);
}

/**
 * struct vaccel_signal - an out-syncobj of a submission
 * @syncobj: the syncobj, referenced
 * @chain: for a timeline point, the preallocated chain node
 * @point: the point, or 0
 */
struct vaccel_signal {
	struct drm_syncobj *syncobj;
	struct dma_fence_chain *chain;
	u64 point;
};

/**
 * struct vaccel_submit - a job between vaccel_submit_begin() and its push
 * @job: the job, initialised, its dependencies added
 * @signal_args: the signal array, copied from user space
 * @sigs: the syncobjs to signal, found
 * @nsignals: entries of @signal_args and @sigs
 */
struct vaccel_submit {
	struct vaccel_job *job;
	struct dma_resv *resv;
	struct drm_vaccel_sync *signal_args;
	struct vaccel_signal *sigs;
	u32 nsignals;
};

/**
 * struct vaccel_syncs - the syncobjs of a request that is no job itself
 * @fences: the fences of its waits, referenced, and room for one more
 * @nfences: how many fences @fences holds
 * @array: the fence the signals get when there are waits, allocated
 * @signal_args: the out-syncobjs as user space gave them
 * @sigs: the out-syncobjs, found, with their chains
 * @nsignals: entries of @signal_args and @sigs
 */
struct vaccel_syncs {
	struct dma_fence **fences;
	u32 nfences;
	struct dma_fence_array *array;
	struct drm_vaccel_sync *signal_args;
	struct vaccel_signal *sigs;
	u32 nsignals;
};

struct vaccel_context *vaccel_context_create(struct vaccel_device *vdev,
					     struct vaccel_file *vfile,
					     struct vaccel_engine *engine,
					     u32 priority);
void vaccel_context_destroy(struct vaccel_context *ctx);
void vaccel_context_detach(struct vaccel_context *ctx);
void vaccel_context_put(struct vaccel_context *ctx);
int vaccel_context_submit(struct vaccel_context *ctx, struct drm_file *file,
			  struct vaccel_job *job,
			  const struct drm_vaccel_obj_array *waits,
			  const struct drm_vaccel_obj_array *signals,
			  struct dma_fence **done);
int vaccel_submit_begin(struct vaccel_submit *s, struct vaccel_context *ctx,
			struct drm_file *file, struct vaccel_job *job,
			const struct drm_vaccel_obj_array *waits,
			const struct drm_vaccel_obj_array *signals);
void vaccel_submit_commit(struct vaccel_submit *s, struct dma_fence **done);
void vaccel_submit_abort(struct vaccel_submit *s);
int vaccel_syncs_prepare(struct vaccel_syncs *s, struct vaccel_device *vdev,
			 struct drm_file *file,
			 const struct drm_vaccel_obj_array *waits,
			 const struct drm_vaccel_obj_array *signals);
void vaccel_syncs_signal(struct vaccel_syncs *s, struct dma_fence *done);
void vaccel_syncs_fini(struct vaccel_syncs *s);
struct vaccel_job *vaccel_job_alloc(void);
void vaccel_job_free(struct vaccel_job *job);
void vaccel_job_start(struct vaccel_job *job);
void vaccel_job_complete(struct vaccel_job *job, int error);
void vaccel_contexts_destroy_all(struct vaccel_file *vfile);
int vaccel_ioctl_context_create(struct drm_device *drm, void *data,
				struct drm_file *file);
int vaccel_ioctl_context_destroy(struct drm_device *drm, void *data,
				 struct drm_file *file);
int vaccel_ioctl_context_state(struct drm_device *drm, void *data,
			       struct drm_file *file);
int vaccel_ioctl_submit(struct drm_device *drm, void *data,
			struct drm_file *file);

#endif /* __VACCEL_CONTEXT_H__ */
