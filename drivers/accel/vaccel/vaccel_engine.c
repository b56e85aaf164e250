// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Engines
 *
 * Every engine of the topology is a kernel thread with a HW queue of two
 * slots: the buffer it runs and the next one.  The thread sleeps while the
 * queue is empty, so an idle engine costs nothing; whoever gives it work or
 * wants its attention wakes it directly, once its own locks are dropped
 * (see vaccel_engine_kick() for why not through a wait queue).  For each
 * buffer it attaches its TLB to the buffer's address space (the switch of
 * the root page-table pointer, which also empties the TLB), executes the
 * packets (see "Packets"), and retires the buffer: the slot frees, the
 * arbiter fills it, and the buffer's hardware fence signals.
 *
 * An engine whose queue runs empty first polls it for
 * %VACCEL_ENGINE_POLL_NS, as a command processor polls its ring, and only
 * then sleeps: a process that submits buffers back to back has the next
 * one in the queue within microseconds, and waking a sleeping thread on
 * another CPU costs more than that (an IPI; under TCG, the largest cost of
 * a pipelined buffer).  The poll gives the CPU up to anyone who wants it.
 * The TLB stays attached while the engine polls, so that the next buffer
 * of the same address space finds its translations; before it sleeps, the
 * engine detaches it, so that an address space is never held by a
 * sleeping engine.
 *
 * **Fence signalling.**  The engine signals the hardware fences, which
 * memory reclaim and other drivers may wait for; so from the start of a
 * buffer to its fence, the thread allocates nothing that may reclaim
 * (a DISPATCH's state comes without blocking, page tables from the
 * bind's reserve) and takes no lock that anyone holds while waiting for a
 * fence.  The thread marks that section with
 * dma_fence_begin_signalling(), as run_job does, so that lockdep reports
 * the next violation.
 *
 * **Checks.**  While it executes, the engine checks at every point its
 * preemption granularity allows (see vaccel_engine_check()): between
 * packets and between the pieces of a long packet, between the workgroups
 * of a DISPATCH and between its slices of instructions, or, at the DMA
 * buffer granularity, only between buffers.  A check costs a clock read and three
 * compares; it takes the engine's lock only when something asks for the
 * engine: a buffer of a higher band, a time slice that ends
 * (&vaccel_engine.arb_deadline), a debugfs request, a reset, or a hang.
 *
 * **Preemption.**  Asked to stop, the running buffer saves its progress in
 * its job (the offset of its next packet and how far the current packet
 * got) and the engine hands both slots back to the arbiter, which reports
 * them in HW-queue order and requeues them at the head of their contexts
 * (see "Scheduler").  A preempted buffer later resumes exactly there, on
 * whichever engine state the arbiter gives it; results are those of an
 * uninterrupted run because every packet's state is either committed to
 * memory or in the job.
 *
 * **Faults.**  A buffer that faults marks its context faulted and banned
 * and records the fault; the context's other buffers, on its ring or in the
 * next slot, are cancelled with ``-ECANCELED``.  Destroying a context
 * cancels the same way, and its running buffer stops at its next check.
 *
 * **Timeout detection and recovery.**  A buffer is hung when it has made
 * no progress for the timeout (module parameter ``timeout_ms``) while on
 * the engine.  Progress is a packet completed, a page of a COPY or FILL
 * moved, or a workgroup of a DISPATCH completed; a DELAY or WAIT_MEM
 * progresses only by completing.  Time off the
 * engine, preempted or waiting behind others, never counts: the buffer's
 * time without progress is saved with it when it is preempted, and counted
 * on from there when it resumes.  The engine notices the hang at the first
 * check past the timeout: sleeping packets wake for it, so detection is
 * within a millisecond of the timeout.
 *
 * Recovery is an engine reset: the HW queue is preempted; the hung buffer
 * completes with ``-ETIMEDOUT``; its context is banned (reason HANG, one
 * more guilty reset) and its other buffers complete with ``-ECANCELED``;
 * the other context's buffer in the HW queue, if any, is innocent: it
 * counts an innocent reset, goes back to its ring and later resumes where
 * it was.  The TLB is emptied.  Nothing innocent is lost or executed twice.
 *
 * **Time limit.**  Progress alone does not make a buffer finite: a
 * DISPATCH of billions of workgroups, or a buffer of countless short
 * packets, progresses for days.  So every buffer also has a limit on its
 * engine time in all (module parameter ``time_limit_ms``, like the job
 * timeout of i915 and xe): the engine counts the time a buffer has run,
 * keeps the count across preemptions, and stops it at the first check
 * past the limit.  The buffer fails with ``-ETIMEDOUT`` and its context is
 * banned (reason TIME_LIMIT) with its other buffers cancelled, as for a
 * fault; the engine needs no reset, since it stopped the buffer itself.
 *
 * **Escalation.**  Two cases call for a device reset.  An engine reset
 * that does not bring the engine back: the engine hangs again before it
 * has completed any buffer since its reset.  And repeated hangs:
 * %VACCEL_RESET_BURST hangs within %VACCEL_RESET_WINDOW_NS on one device
 * suggest a fault that is not one context's.  A device reset resets every
 * engine at its next check, each preempting its HW queue as innocent, and
 * starts the escalation rules afresh.  The same device reset is available
 * through debugfs.
 *
 * The threads live as long as the DRM device: the last reference to it
 * stops them, after every file, and thus every context, is gone.
 */

#include <linux/dma-fence.h>
#include <linux/kthread.h>
#include <linux/sched/clock.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/vaccel_coredump.h>

#include "vaccel_context.h"
#include "vaccel_coredump.h"
#include "vaccel_devmem.h"
#include "vaccel_cu.h"
#include "vaccel_dispatch.h"
#include "vaccel_drv.h"
#include "vaccel_engine.h"
#include "vaccel_file.h"
#include "vaccel_migrate.h"
#include "vaccel_packet.h"
#include "vaccel_trace.h"
#include "vaccel_vm.h"

static_assert((int)VACCEL_FAULT_MALFORMED == (int)DRM_VACCEL_FAULT_MALFORMED);
static_assert((int)VACCEL_FAULT_PERMISSION == (int)DRM_VACCEL_FAULT_PERMISSION);
static_assert((int)VACCEL_ACCESS_EXEC == (int)DRM_VACCEL_ACCESS_EXEC);
/* vaccel_pt_invalidate() takes the TLBs of every engine of a device. */
static_assert(VACCEL_MAX_ENGINES <= VACCEL_PT_MAX_TLBS);

static struct vaccel_job *vaccel_job_of(struct vaccel_arbiter_buffer *buf)
{
	return container_of(buf, struct vaccel_job, arb);
}

static struct vaccel_context *vaccel_context_of(struct vaccel_arbiter_entry *e)
{
	return container_of(e, struct vaccel_context, arb);
}

static struct vaccel_job *vaccel_engine_next_locked(struct vaccel_engine *engine)
{
	struct vaccel_arbiter *arb = &engine->arbiter;

	lockdep_assert_held(&engine->lock);
	return arb->slots_used ? vaccel_job_of(arb->slot[0]) : NULL;
}

/*
 * After any change to the HW queue or the rings: tells the running buffer
 * whether to stop at once, and when to look again.
 */
static void vaccel_engine_rearm_locked(struct vaccel_engine *engine, u64 now)
{
	lockdep_assert_held(&engine->lock);
	WRITE_ONCE(engine->arb_deadline, vaccel_arbiter_deadline(&engine->arbiter));
	if (vaccel_arbiter_want_preempt(&engine->arbiter, now) != VACCEL_PREEMPT_NONE)
		WRITE_ONCE(engine->attention, true);
}

/*
 * Wakes the thread, idle or asleep in a packet, to look at its state.
 *
 * The thread is woken directly, never through a wait queue, and only after
 * the caller has dropped every lock: a wait queue's wake-up holds the
 * queue's lock while it wakes the thread on another CPU, which then takes
 * that lock again to leave its wait.  Were the waker's CPU preempted in
 * between (a vCPU of a busy host), the woken CPU would spin on the lock
 * for the host's time slice: milliseconds of preemption latency.  Every
 * sleep of the thread rechecks its condition, so an early wake-up is only
 * a spurious one.
 */
static void vaccel_engine_kick(struct vaccel_engine *engine)
{
	/*
	 * Pairs with the barrier of vaccel_engine_idle(): either the thread
	 * sees what the caller changed before it sleeps, or the caller sees
	 * that it stopped polling, and wakes it.
	 */
	smp_mb();
	if (READ_ONCE(engine->polling))
		return;
	wake_up_process(engine->thread);
}

/*
 * Traces the HW queue if it changed since it was last traced: each buffer
 * that entered it, then the whole queue.  Buffers are told apart by their
 * context and seqno, never by address: a freed job's memory may come back
 * as the next one.
 */
static void vaccel_engine_trace_hw_queue_locked(struct vaccel_engine *engine)
{
	struct vaccel_arbiter *arb = &engine->arbiter;
	u32 ctx[VACCEL_ARBITER_SLOTS] = {};
	u64 seqno[VACCEL_ARBITER_SLOTS] = {};
	unsigned int i, j;

	lockdep_assert_held(&engine->lock);
	for (i = 0; i < arb->slots_used; i++) {
		struct vaccel_job *job = vaccel_job_of(arb->slot[i]);

		ctx[i] = job->ctx->id;
		seqno[i] = job->base.s_fence->finished.seqno;
	}
	if (!memcmp(ctx, engine->traced_ctx, sizeof(ctx)) &&
	    !memcmp(seqno, engine->traced_seqno, sizeof(seqno)))
		return;
	for (i = 0; i < arb->slots_used; i++) {
		for (j = 0; j < VACCEL_ARBITER_SLOTS; j++)
			if (engine->traced_ctx[j] == ctx[i] &&
			    engine->traced_seqno[j] == seqno[i])
				break;
		if (j == VACCEL_ARBITER_SLOTS)
			trace_vaccel_job_hw_queue(vaccel_job_of(arb->slot[i]), i);
	}
	trace_vaccel_hw_queue(engine, ctx, seqno, arb->slots_used);
	memcpy(engine->traced_ctx, ctx, sizeof(ctx));
	memcpy(engine->traced_seqno, seqno, sizeof(seqno));
}

/*
 * Moves ready buffers into the HW queue.  Returns true if the queue was
 * empty before: the idle thread then needs a kick, once the lock is
 * dropped.  Every change of the HW queue ends here.
 */
static bool vaccel_engine_fill_locked(struct vaccel_engine *engine, u64 now)
{
	bool wake;

	lockdep_assert_held(&engine->lock);
	wake = vaccel_arbiter_fill(&engine->arbiter, now);
	vaccel_engine_rearm_locked(engine, now);
	if (trace_vaccel_hw_queue_enabled() || trace_vaccel_job_hw_queue_enabled())
		vaccel_engine_trace_hw_queue_locked(engine);
	return wake;
}

/* Charges the running buffer's engine time to its file, for fdinfo. */
static void vaccel_engine_charge_locked(struct vaccel_engine *engine, u64 now)
{
	struct vaccel_arbiter *arb = &engine->arbiter;
	struct vaccel_context *ctx;

	lockdep_assert_held(&engine->lock);
	if (!arb->running_since)
		return;
	ctx = vaccel_context_of(arb->slot[0]->entry);
	ctx->file->busy_ns[engine->index] += now - arb->running_since;
}

/*
 * Sets the error the context's buffers get and takes those that wait off
 * its ring and out of the HW queue onto @cancelled.  A running buffer of
 * the context sees the error at its next check and stops; the others are
 * taken when it has, so that they complete in order after it.
 */
static void vaccel_engine_cancel_locked(struct vaccel_engine *engine,
					struct vaccel_context *ctx, int error,
					struct list_head *cancelled)
{
	lockdep_assert_held(&engine->lock);
	if (!ctx->cancelled)
		ctx->cancelled = error;
	vaccel_arbiter_remove(&engine->arbiter, &ctx->arb, cancelled);
}

/*
 * Completes each job of @jobs with its context's error: up to a context's
 * ring of them, so it yields between them.  Process context, no lock held.
 */
static void vaccel_engine_complete_list(struct list_head *jobs)
{
	struct vaccel_arbiter_buffer *buf, *tmp;

	list_for_each_entry_safe(buf, tmp, jobs, link) {
		struct vaccel_job *job = vaccel_job_of(buf);

		list_del_init(&buf->link);
		vaccel_job_complete(job, READ_ONCE(job->ctx->cancelled));
		cond_resched();
	}
}

/*
 * Hands a preemption report back to the arbiter, except the buffers of
 * contexts cancelled meanwhile, which go to @cancelled with the rest of
 * their work.  On a reset, every context with a buffer in the report
 * counts one innocent reset.
 */
static void vaccel_engine_requeue_locked(struct vaccel_engine *engine,
					 enum vaccel_preempt_reason reason,
					 struct list_head *report,
					 struct list_head *cancelled, u64 now)
{
	struct vaccel_context *gone[VACCEL_ARBITER_SLOTS], *last = NULL;
	struct vaccel_arbiter_buffer *buf, *tmp;
	unsigned int i, n = 0;

	lockdep_assert_held(&engine->lock);
	list_for_each_entry_safe(buf, tmp, report, link) {
		struct vaccel_context *ctx = vaccel_context_of(buf->entry);

		if (ctx->cancelled) {
			list_move_tail(&buf->link, cancelled);
			if (!n || gone[n - 1] != ctx)
				gone[n++] = ctx;
			continue;
		}
		if (reason == VACCEL_PREEMPT_RESET && ctx != last)
			ctx->innocent_resets++;
		last = ctx;
	}
	for (i = 0; i < n; i++)
		vaccel_arbiter_remove(&engine->arbiter, &gone[i]->arb, cancelled);
	vaccel_arbiter_requeue(&engine->arbiter, reason, report, now);
}

/**
 * vaccel_engine_queue_job() - a job's dependencies are met: queue it
 * @engine: its context's engine
 * @job: the job, its hardware fence initialised
 *
 * Called by drm_sched's run_job.  A job of a cancelled context completes at
 * once with the context's error.  A job of a higher band than the running
 * buffer's makes the engine stop at its next check.
 *
 * Context: Process context.
 */
void vaccel_engine_queue_job(struct vaccel_engine *engine, struct vaccel_job *job)
{
	struct vaccel_context *ctx = job->ctx;
	bool kick, start = false;
	u64 deadline;
	int error;

	spin_lock(&engine->lock);
	deadline = engine->arb_deadline;
	job->arb.entry = &ctx->arb;
	error = ctx->cancelled;
	if (!error) {
		u64 now = ktime_get_ns();

		vaccel_arbiter_push(&engine->arbiter, &job->arb, now);
		start = vaccel_engine_fill_locked(engine, now);
	} else if (vaccel_arbiter_runs(&engine->arbiter, &ctx->arb)) {
		/* Taken when the running buffer stops, to complete after it. */
		list_add_tail(&job->arb.link, &ctx->arb.ring);
		error = 0;
	}
	/*
	 * A sleeping packet sized its nap to the old deadline: a new time
	 * slice or starvation deadline that comes sooner must wake it.
	 */
	kick = engine->attention || engine->arb_deadline < deadline;
	spin_unlock(&engine->lock);
	if (kick || start)
		vaccel_engine_kick(engine);
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
 * its next check.  Later buffers of the context complete with @error as
 * soon as drm_sched runs them.
 *
 * Context: Process context.
 * Return: a reference to the hardware fence of the context's running
 * buffer, which signals once the engine is done with it and with every
 * buffer of the context; NULL if none runs.
 */
struct dma_fence *vaccel_engine_cancel_context(struct vaccel_engine *engine,
					       struct vaccel_context *ctx,
					       int error)
{
	struct dma_fence *running = NULL;
	LIST_HEAD(cancelled);

	spin_lock(&engine->lock);
	vaccel_engine_cancel_locked(engine, ctx, error, &cancelled);
	if (vaccel_arbiter_runs(&engine->arbiter, &ctx->arb))
		running = dma_fence_get(&vaccel_engine_next_locked(engine)->hw.base);
	vaccel_engine_fill_locked(engine, ktime_get_ns());
	spin_unlock(&engine->lock);
	/* Wake a running DELAY or WAIT_MEM of the context. */
	vaccel_engine_kick(engine);
	vaccel_engine_complete_list(&cancelled);
	return running;
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
	struct vaccel_arbiter *arb = &engine->arbiter;
	unsigned int band;
	u64 ns = 0;

	spin_lock(&engine->lock);
	for (band = 0; band < VACCEL_ARBITER_BANDS; band++)
		ns += arb->band_ns[band];
	if (arb->running_since)
		ns += ktime_get_ns() - arb->running_since;
	spin_unlock(&engine->lock);
	return ns;
}

/**
 * vaccel_engine_file_busy_ns() - time a file's buffers spent on the engine
 * @engine: the engine
 * @vfile: the file
 *
 * Includes the time so far of the file's buffer that runs, so that fdinfo
 * grows while a long buffer runs instead of jumping when it ends; read
 * under the engine's lock, with what the buffer's end adds, so the value
 * never goes back.
 *
 * Context: Any context but hard interrupts.
 * Return: nanoseconds.
 */
u64 vaccel_engine_file_busy_ns(struct vaccel_engine *engine,
			       struct vaccel_file *vfile)
{
	struct vaccel_arbiter *arb = &engine->arbiter;
	u64 ns;

	spin_lock(&engine->lock);
	ns = vfile->busy_ns[engine->index];
	if (arb->running_since &&
	    vaccel_context_of(arb->slot[0]->entry)->file == vfile)
		ns += ktime_get_ns() - arb->running_since;
	spin_unlock(&engine->lock);
	return ns;
}

/**
 * vaccel_engine_sleep_ns() - how long a packet may sleep before a check
 * @engine: the engine
 *
 * Context: The engine's thread.
 * Return: nanoseconds until the arbiter's deadline, the hang timeout or
 * the time limit, whichever comes first; 0 if it has passed.
 */
u64 vaccel_engine_sleep_ns(struct vaccel_engine *engine)
{
	u64 now = ktime_get_ns();
	u64 until = min3(READ_ONCE(engine->arb_deadline),
			 engine->stall_since + engine->timeout_ns,
			 engine->limit_at);

	return until > now ? until - now : 0;
}

/* --- memory traffic and the cost model ------------------------------------ */

/* Charges what the engine's accesses moved since the last charge to @vfile. */
static void vaccel_engine_charge_traffic(struct vaccel_engine *engine,
					 struct vaccel_file *vfile)
{
	struct vaccel_traffic *f = &vfile->traffic[engine->index];
	const struct vaccel_traffic *t = &engine->tlb.traffic;
	unsigned int c, d;

	for (c = 0; c < VACCEL_MEM_CLASSES; c++) {
		for (d = 0; d < 2; d++) {
			u64 now = t->bytes[c][d];

			WRITE_ONCE(f->bytes[c][d], f->bytes[c][d] + now -
				   engine->charged.bytes[c][d]);
			engine->charged.bytes[c][d] = now;
		}
	}
}

/*
 * Sleeps for up to @ns, or until the engine needs its attention (a kick
 * wakes the thread) or the buffer's context ends.  Return: the time slept,
 * 0 if it did not sleep for either of those.
 */
static u64 vaccel_engine_nap(struct vaccel_engine *engine,
			     struct vaccel_job *job, u64 ns)
{
	u64 start = ktime_get_ns(), slept = 0;
	ktime_t t = ns_to_ktime(ns);

	set_current_state(TASK_INTERRUPTIBLE);
	if (!READ_ONCE(engine->attention) && !READ_ONCE(job->ctx->cancelled) &&
	    !kthread_should_stop()) {
		schedule_hrtimeout(&t, HRTIMER_MODE_REL);
		slept = ktime_get_ns() - start ?: 1;
	}
	__set_current_state(TASK_RUNNING);
	return slept;
}

/* Adds to the debt what the accesses since the last call cost. */
static void vaccel_engine_cost_add(struct vaccel_engine *engine)
{
	const struct vaccel_topology *topo = &engine->vdev->topo;
	u64 (*b)[2] = engine->tlb.traffic.bytes;
	u64 sys, peer;

	sys = b[VACCEL_MEM_SYSTEM][0] + b[VACCEL_MEM_SYSTEM][1];
	peer = b[VACCEL_MEM_PEER][0] + b[VACCEL_MEM_PEER][1];
	/* Per KiB: the debt is kept in 1/1024 ns. */
	engine->cost_debt += (sys - engine->cost_seen[0]) * topo->cost_system_ns +
			     (peer - engine->cost_seen[1]) * topo->cost_peer_ns;
	engine->cost_seen[0] = sys;
	engine->cost_seen[1] = peer;
}

/*
 * The cost model: adds what the system and peer memory accessed since the
 * last call costs, and spends it, asleep, once it reaches
 * %VACCEL_COST_NAP_NS, or whatever it is if @all; until the engine is
 * wanted elsewhere, or its hang timeout, time limit or arbiter deadline
 * comes, which its check then sees.
 */
static void vaccel_engine_pay(struct vaccel_engine *engine,
			      struct vaccel_job *job, bool all)
{
	const struct vaccel_topology *topo = &engine->vdev->topo;
	u64 ns, slept;

	if (!topo->cost_system_ns && !topo->cost_peer_ns)
		return;
	vaccel_engine_cost_add(engine);
	while ((ns = engine->cost_debt >> 10) && (all || ns >= VACCEL_COST_NAP_NS)) {
		ns = min(ns, vaccel_engine_sleep_ns(engine));
		slept = ns ? vaccel_engine_nap(engine, job, ns) : 0;
		if (!slept)
			return;
		engine->cost_debt -= min(engine->cost_debt, slept << 10);
	}
}

/*
 * The debt is the running buffer's: it starts with what the buffer owed
 * when it was preempted, and only what it accesses from now on adds to it.
 */
static void vaccel_engine_cost_begin(struct vaccel_engine *engine,
				     struct vaccel_job *job)
{
	vaccel_engine_cost_add(engine);
	engine->cost_debt = job->cost_debt;
}

/*
 * The running buffer left the engine: preempted, it keeps what it owes
 * for when it resumes; done or failed, the debt goes with it.
 */
static void vaccel_engine_cost_end(struct vaccel_engine *engine,
				   struct vaccel_job *job, bool preempted)
{
	vaccel_engine_cost_add(engine);
	job->cost_debt = preempted ? engine->cost_debt : 0;
	engine->cost_debt = 0;
}

/* The slow half of vaccel_engine_check(), when something needs the engine. */
static int vaccel_engine_checkpoint(struct vaccel_engine *engine, u64 now,
				    unsigned int level)
{
	unsigned int granularity = engine->desc.preempt_granularity;
	enum vaccel_preempt_reason reason;
	int ret = 0;

	if (now >= engine->limit_at)
		return -ETIME;
	if (now - engine->stall_since >= engine->timeout_ns)
		return -ETIMEDOUT;

	spin_lock(&engine->lock);
	if (engine->reset_pending)
		reason = VACCEL_PREEMPT_RESET;
	else if (engine->force_preempt)
		reason = VACCEL_PREEMPT_FORCED;
	else
		reason = vaccel_arbiter_want_preempt(&engine->arbiter, now);
	WRITE_ONCE(engine->attention, false);
	if (reason == VACCEL_PREEMPT_NONE) {
		WRITE_ONCE(engine->arb_deadline,
			   vaccel_arbiter_deadline(&engine->arbiter));
	} else if (reason == VACCEL_PREEMPT_RESET || granularity >= level) {
		engine->stop_reason = reason;
		ret = -EAGAIN;
	} else if (granularity >= DRM_VACCEL_PREEMPT_PACKET) {
		/* A finer point than the engine stops at: ask again at the next. */
		WRITE_ONCE(engine->attention, true);
	} else {
		/* Not inside a buffer at this granularity: at its end. */
		engine->deferred = reason;
		WRITE_ONCE(engine->arb_deadline, U64_MAX);
	}
	spin_unlock(&engine->lock);
	return ret;
}

/**
 * vaccel_engine_check() - may the running buffer go on
 * @engine: the engine
 * @job: the running buffer
 * @progressed: it made progress since the last check, which restarts the
 *	hang timeout
 * @level: the point's &enum drm_vaccel_preempt_granularity: a preemption
 *	stops the buffer here only if the engine's granularity is at least
 *	this fine; a reset stops it at any point
 *
 * Called by the packets at every point where the buffer can stop: between
 * packets and between the pieces of a long packet (%DRM_VACCEL_PREEMPT_PACKET),
 * between two workgroups of a dispatch and inside one.  One clock read
 * serves the progress and the check.
 *
 * Context: The engine's thread.
 * Return: 0 to go on; -EAGAIN to stop here, with the buffer's progress
 * saved by the caller, for a preemption or a reset; -ETIMEDOUT if the
 * buffer is hung; -ETIME if it used up its time limit; the context's error
 * if it was cancelled; -ENODEV if the engine stops.
 */
int vaccel_engine_check(struct vaccel_engine *engine, struct vaccel_job *job,
			bool progressed, unsigned int level)
{
	int err = READ_ONCE(job->ctx->cancelled);
	u64 now;

	if (err)
		return err;
	if (kthread_should_stop())
		return -ENODEV;
	/* Spent before the progress: it is part of what made it. */
	vaccel_engine_pay(engine, job, false);
	now = ktime_get_ns();
	if (progressed)
		engine->stall_since = now;
	if (!READ_ONCE(engine->attention) &&
	    now < READ_ONCE(engine->arb_deadline) &&
	    now - engine->stall_since < engine->timeout_ns &&
	    now < engine->limit_at)
		return 0;
	return vaccel_engine_checkpoint(engine, now, level);
}

/* Preempts the whole HW queue; on a reset, counts it. */
static void vaccel_engine_preempt_locked(struct vaccel_engine *engine,
					 enum vaccel_preempt_reason reason,
					 struct list_head *cancelled, u64 now)
{
	LIST_HEAD(report);

	lockdep_assert_held(&engine->lock);
	vaccel_engine_charge_locked(engine, now);
	vaccel_arbiter_preempt(&engine->arbiter, now, reason, &report);
	vaccel_engine_requeue_locked(engine, reason, &report, cancelled, now);
	if (reason == VACCEL_PREEMPT_FORCED)
		engine->force_preempt = false;
	if (reason == VACCEL_PREEMPT_RESET) {
		engine->reset_pending = false;
		WRITE_ONCE(engine->reset_dump, false);
		engine->resets++;
	}
	engine->deferred = VACCEL_PREEMPT_NONE;
}

/*
 * After @job left slot 0: whether the TLB may stay attached, the next
 * buffer sharing @job's address space.  Decided under the lock: once it
 * drops, both buffers may be cancelled, completed and freed.
 */
static bool vaccel_engine_keeps_tlb_locked(struct vaccel_engine *engine,
					   const struct vaccel_job *job)
{
	struct vaccel_job *next = vaccel_engine_next_locked(engine);

	lockdep_assert_held(&engine->lock);
	return next && next->ctx->vm == job->ctx->vm;
}

/* The running buffer stopped at a check: hand the HW queue back. */
static void vaccel_engine_stop(struct vaccel_engine *engine, struct vaccel_job *job)
{
	struct vaccel_coredump *cd = NULL;
	enum vaccel_preempt_reason reason;
	LIST_HEAD(cancelled);
	bool keep;
	u64 now;

	/* An engine reset of its own is dumped, the buffer while it is ours. */
	if (READ_ONCE(engine->reset_dump)) {
		cd = vaccel_coredump_begin(engine->vdev,
					   DRM_VACCEL_COREDUMP_ENGINE_RESET, engine);
		if (cd)
			vaccel_coredump_add_job(cd, engine, job);
	}
	now = ktime_get_ns();
	/* Its time without progress, and its time in all, resume with it. */
	job->stall_ns = now - engine->stall_since;
	job->run_ns += now - engine->run_start;
	/* A test's hold point (see "Hold points"): the time held is no one's. */
	vaccel_hold_poll(&engine->vdev->hold_preempt);
	spin_lock(&engine->lock);
	if (cd)
		vaccel_coredump_add_engine_locked(cd, engine, now);
	/* A reset asked for since the check that stopped it wins. */
	reason = engine->reset_pending ? VACCEL_PREEMPT_RESET : engine->stop_reason;
	trace_vaccel_job_preempt(job, reason, engine->desc.preempt_granularity);
	if (reason == VACCEL_PREEMPT_RESET)
		trace_vaccel_engine_reset(engine, 0, false);
	vaccel_engine_preempt_locked(engine, reason, &cancelled, now);
	/* Until the lock drops, the job and its context are still there. */
	if (cd)
		vaccel_coredump_add_context_locked(cd, job->ctx, false, now);
	vaccel_engine_fill_locked(engine, now);
	keep = reason != VACCEL_PREEMPT_RESET &&
	       vaccel_engine_keeps_tlb_locked(engine, job);
	spin_unlock(&engine->lock);

	if (cd)
		vaccel_coredump_commit(cd);
	if (!keep)
		vaccel_tlb_detach(&engine->tlb);
	vaccel_engine_complete_list(&cancelled);
}

/*
 * The first buffer that faults, hangs or runs out of time bans its
 * context: it is the one CONTEXT_STATE names, with the packet it was at.
 */
static void vaccel_context_ban_locked(struct vaccel_context *ctx,
				      struct vaccel_job *job, u32 reason)
{
	lockdep_assert_held(&ctx->engine->lock);
	if (ctx->ban_reason)
		return;
	ctx->ban_reason = reason;
	ctx->ban_job = job->seqno;
	ctx->ban_buffer_va = job->va;
	ctx->ban_offset = job->offset;
}

/* Records a hang; true if it completes a burst that calls for a device reset. */
static bool vaccel_device_note_hang(struct vaccel_device *vdev, u64 now)
{
	bool escalate;
	u64 oldest;

	spin_lock(&vdev->reset_lock);
	vdev->hang_times[vdev->hang_next] = now;
	vdev->hang_next = (vdev->hang_next + 1) % VACCEL_RESET_BURST;
	/* The oldest of the last %VACCEL_RESET_BURST hangs, this one included. */
	oldest = vdev->hang_times[vdev->hang_next];
	escalate = oldest && now - oldest < VACCEL_RESET_WINDOW_NS;
	if (escalate)
		memset(vdev->hang_times, 0, sizeof(vdev->hang_times));
	spin_unlock(&vdev->reset_lock);
	return escalate;
}

/*
 * The running buffer is hung: reset the engine, ban its context, and put
 * the innocent buffer of the HW queue back.
 */
static void vaccel_engine_hang(struct vaccel_engine *engine, struct vaccel_job *job)
{
	struct vaccel_context *ctx = job->ctx;
	struct vaccel_coredump *cd;
	LIST_HEAD(cancelled);
	bool escalate;
	u64 now;

	cd = vaccel_coredump_begin(engine->vdev, DRM_VACCEL_COREDUMP_HANG, engine);
	if (cd)
		vaccel_coredump_add_job(cd, engine, job);
	now = ktime_get_ns();
	spin_lock(&engine->lock);
	if (cd)
		vaccel_coredump_add_engine_locked(cd, engine, now);
	engine->hangs++;
	/* The last reset did not bring the engine back. */
	escalate = engine->reset_unproven;
	engine->reset_unproven = true;
	ctx->guilty_resets++;
	vaccel_context_ban_locked(ctx, job, DRM_VACCEL_BAN_HANG);
	/* Banned first, so that the reset report sends its work to @cancelled. */
	if (!ctx->cancelled)
		ctx->cancelled = -ECANCELED;
	trace_vaccel_job_hang(job, now - engine->stall_since);
	trace_vaccel_context_ban(ctx);
	trace_vaccel_engine_reset(engine, ctx->id, true);
	vaccel_engine_preempt_locked(engine, VACCEL_PREEMPT_RESET, &cancelled, now);
	if (cd)
		vaccel_coredump_add_context_locked(cd, ctx, true, now);
	vaccel_engine_fill_locked(engine, now);
	spin_unlock(&engine->lock);

	if (cd)
		vaccel_coredump_commit(cd);
	vaccel_tlb_detach(&engine->tlb);
	drm_dbg_driver(&engine->vdev->drm, "engine %u: context %u hung, banned\n",
		       engine->index, ctx->handle);
	escalate |= vaccel_device_note_hang(engine->vdev, now);

	/* The report led with the hung buffer. */
	list_del_init(&job->arb.link);
	vaccel_job_complete(job, -ETIMEDOUT);
	vaccel_engine_complete_list(&cancelled);
	if (escalate)
		vaccel_device_reset(engine->vdev);
}

/* The running buffer is done: free its slot, refill, then signal it. */
static void vaccel_engine_retire(struct vaccel_engine *engine,
				 struct vaccel_job *job, int ret,
				 const struct vaccel_fault *fault)
{
	struct vaccel_context *ctx = job->ctx;
	bool faulted = !job->bind && !job->move && (ret == -EFAULT || ret == -EINVAL);
	struct vaccel_coredump *cd = NULL;
	LIST_HEAD(cancelled);
	bool keep;
	u64 now;

	/* What banned the context is dumped, its memory while the TLB is on it. */
	if (faulted || ret == -ETIME)
		cd = vaccel_coredump_begin(engine->vdev, faulted ?
					   DRM_VACCEL_COREDUMP_FAULT :
					   DRM_VACCEL_COREDUMP_TIME_LIMIT, engine);
	if (cd) {
		vaccel_coredump_add_job(cd, engine, job);
		if (faulted)
			vaccel_coredump_add_walk(cd, engine, job, fault);
	}
	now = ktime_get_ns();
	spin_lock(&engine->lock);
	if (cd)
		vaccel_coredump_add_engine_locked(cd, engine, now);
	vaccel_engine_charge_locked(engine, now);
	vaccel_arbiter_retire(&engine->arbiter, now);
	if (!ret)
		engine->reset_unproven = false;
	if (ret == -ETIME) {
		/* Out of time: banned, like a hang, but the engine is fine. */
		vaccel_context_ban_locked(ctx, job, DRM_VACCEL_BAN_TIME_LIMIT);
		if (!ctx->cancelled)
			trace_vaccel_context_ban(ctx);
		vaccel_engine_cancel_locked(engine, ctx, -ECANCELED, &cancelled);
		ret = -ETIMEDOUT;
	} else if (faulted) {
		/* A failed page-table update is the bind's error, not a fault. */
		trace_vaccel_job_fault(job, fault);
		if (!ctx->faulted) {
			ctx->faulted = true;
			ctx->fault = *fault;
			ctx->fault_offset = job->offset;
			vaccel_context_ban_locked(ctx, job, DRM_VACCEL_BAN_FAULT);
		}
		if (!ctx->cancelled)
			trace_vaccel_context_ban(ctx);
		vaccel_engine_cancel_locked(engine, ctx, -ECANCELED, &cancelled);
	} else if (ctx->cancelled) {
		/* What waited behind it completes after it. */
		vaccel_arbiter_remove(&engine->arbiter, &ctx->arb, &cancelled);
	}
	if (cd)
		vaccel_coredump_add_context_locked(cd, ctx, true, now);
	/* A preemption postponed to this boundary takes the next slot back. */
	if (engine->deferred || engine->force_preempt)
		vaccel_engine_preempt_locked(engine, engine->force_preempt ?
					     VACCEL_PREEMPT_FORCED : engine->deferred,
					     &cancelled, now);
	vaccel_engine_fill_locked(engine, now);
	keep = vaccel_engine_keeps_tlb_locked(engine, job);
	spin_unlock(&engine->lock);

	if (cd)
		vaccel_coredump_commit(cd);
	if (!keep)
		vaccel_tlb_detach(&engine->tlb);
	vaccel_job_complete(job, ret);
	vaccel_engine_complete_list(&cancelled);
}

/* A reset asked for while no buffer runs: only the HW queue and the TLB. */
static void vaccel_engine_reset_idle(struct vaccel_engine *engine)
{
	struct vaccel_coredump *cd = NULL;
	LIST_HEAD(cancelled);
	u64 now;

	spin_lock(&engine->lock);
	now = ktime_get_ns();
	trace_vaccel_engine_reset(engine, 0, false);
	if (engine->reset_dump)
		cd = vaccel_coredump_begin(engine->vdev,
					   DRM_VACCEL_COREDUMP_ENGINE_RESET, engine);
	if (cd)
		vaccel_coredump_add_engine_locked(cd, engine, now);
	vaccel_engine_preempt_locked(engine, VACCEL_PREEMPT_RESET, &cancelled, now);
	vaccel_engine_fill_locked(engine, now);
	spin_unlock(&engine->lock);
	if (cd)
		vaccel_coredump_commit(cd);
	vaccel_tlb_detach(&engine->tlb);
	vaccel_engine_complete_list(&cancelled);
}

/* Starts or resumes the buffer in slot 0, or returns NULL. */
static struct vaccel_job *vaccel_engine_start(struct vaccel_engine *engine)
{
	struct vaccel_job *job;
	u64 now;

	spin_lock(&engine->lock);
	job = vaccel_engine_next_locked(engine);
	if (job) {
		bool resumed = job->arb.started;

		now = ktime_get_ns();
		vaccel_arbiter_start(&engine->arbiter, now);
		engine->stall_since = now - job->stall_ns;
		engine->run_start = now;
		/* A kernel context's buffer (a move) must complete. */
		engine->limit_at = job->ctx->kernel ? U64_MAX :
				   now + engine->time_limit_ns -
				   min(job->run_ns, engine->time_limit_ns);
		vaccel_engine_rearm_locked(engine, now);
		trace_vaccel_job_start(job, resumed);
	}
	spin_unlock(&engine->lock);
	return job;
}

static bool vaccel_engine_has_work(struct vaccel_engine *engine)
{
	return READ_ONCE(engine->arbiter.slots_used) ||
	       READ_ONCE(engine->reset_pending) || kthread_should_stop();
}

/*
 * Polls the HW queue for %VACCEL_ENGINE_POLL_NS, or until another thread
 * wants the CPU; true if there is work.
 */
static bool vaccel_engine_poll(struct vaccel_engine *engine)
{
	u64 until = local_clock() + VACCEL_ENGINE_POLL_NS;
	bool found = true;

	WRITE_ONCE(engine->polling, true);
	/* Orders @polling before the reads of the queue: see the kick. */
	smp_mb();
	while (!vaccel_engine_has_work(engine)) {
		if (need_resched() || local_clock() > until) {
			found = false;
			break;
		}
		cpu_relax();
	}
	WRITE_ONCE(engine->polling, false);
	return found;
}

/*
 * Waits until the HW queue has a buffer, a reset is asked, or a stop:
 * polls first, then sleeps without an address space.
 */
static void vaccel_engine_idle(struct vaccel_engine *engine)
{
	if (vaccel_engine_has_work(engine) || vaccel_engine_poll(engine))
		return;
	/*
	 * Never sleep attached to an address space: the buffer that shared
	 * the TLB's may have been cancelled before it started.
	 */
	vaccel_tlb_detach(&engine->tlb);
	for (;;) {
		/* A full barrier after @polling went false: see the kick. */
		set_current_state(TASK_INTERRUPTIBLE);
		if (vaccel_engine_has_work(engine))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/* Runs the buffer at the head of the HW queue until it stops or retires. */
static void vaccel_engine_run_one(struct vaccel_engine *engine)
{
	struct vaccel_fault fault = {};
	struct vaccel_job *job;
	int ret;

	if (READ_ONCE(engine->reset_pending)) {
		vaccel_engine_reset_idle(engine);
		return;
	}
	job = vaccel_engine_start(engine);
	if (!job)
		return;
	vaccel_engine_cost_begin(engine, job);

	if (job->bind) {
		/* The paging engine applies page-table updates... */
		ret = vaccel_vm_bind_run(engine, job);
	} else if (job->move) {
		/* ...and moves BOs. */
		ret = vaccel_move_run(engine, job);
	} else {
		vaccel_tlb_attach(&engine->tlb, &job->ctx->vm->pt);
		ret = vaccel_packet_run(engine, job, &fault);
	}
	/* A buffer that completed has spent what its accesses cost. */
	if (!ret)
		vaccel_engine_pay(engine, job, true);
	vaccel_engine_cost_end(engine, job, ret == -EAGAIN);
	vaccel_engine_charge_traffic(engine, job->ctx->file);
	if (ret == -EAGAIN)
		vaccel_engine_stop(engine, job);
	else if (ret == -ETIMEDOUT)
		vaccel_engine_hang(engine, job);
	else
		vaccel_engine_retire(engine, job, ret, &fault);
}

/*
 * The KCOV handle of the buffer at the head of the HW queue: the coverage
 * of the engine goes to the process that submitted the buffer (remote KCOV,
 * for coverage-guided fuzzing).  Read before the buffer starts, because
 * kcov_remote_start() may allocate; if another buffer runs instead, some
 * coverage lands in the wrong process, which costs nothing but precision.
 */
static u64 vaccel_engine_next_kcov_handle(struct vaccel_engine *engine)
{
	struct vaccel_job *job;
	u64 handle = 0;

	if (!IS_ENABLED(CONFIG_KCOV))
		return 0;
	spin_lock(&engine->lock);
	job = vaccel_engine_next_locked(engine);
	if (job)
		handle = job->kcov_handle;
	spin_unlock(&engine->lock);
	return handle;
}

static int vaccel_engine_thread(void *data)
{
	struct vaccel_engine *engine = data;

	while (!kthread_should_stop()) {
		u64 kcov_handle;
		bool cookie;

		vaccel_engine_idle(engine);
		kcov_handle = vaccel_engine_next_kcov_handle(engine);
		vaccel_kcov_begin(kcov_handle);
		/*
		 * Everything a buffer does until its fence signals: no
		 * allocation that may reclaim, no lock held while anyone
		 * waits for a fence.  Lockdep checks it from here.
		 */
		cookie = dma_fence_begin_signalling();
		vaccel_engine_run_one(engine);
		dma_fence_end_signalling(cookie);
		vaccel_kcov_end(kcov_handle);
	}
	vaccel_tlb_detach(&engine->tlb);
	return 0;
}

/**
 * vaccel_engine_force_preempt() - preempt the engine at its next check
 * @engine: the engine
 *
 * For tests, through debugfs: the running buffer stops at its next check
 * (or, at the DMA buffer granularity, the next buffer is taken back when
 * the running one ends) and everything is requeued as for any preemption.
 *
 * Context: Process context.
 */
void vaccel_engine_force_preempt(struct vaccel_engine *engine)
{
	spin_lock(&engine->lock);
	/* An idle engine has nothing to give back. */
	if (engine->arbiter.slots_used) {
		engine->force_preempt = true;
		WRITE_ONCE(engine->attention, true);
	}
	spin_unlock(&engine->lock);
	vaccel_engine_kick(engine);
}

/* Asks for a reset at the engine's next check; @dump: an engine reset's dump. */
static void vaccel_engine_request_reset(struct vaccel_engine *engine, bool dump)
{
	spin_lock(&engine->lock);
	engine->reset_pending = true;
	if (dump)
		WRITE_ONCE(engine->reset_dump, true);
	WRITE_ONCE(engine->attention, true);
	spin_unlock(&engine->lock);
	vaccel_engine_kick(engine);
}

/**
 * vaccel_engine_reset() - reset an engine at its next check
 * @engine: the engine
 *
 * Everything in its HW queue is preempted as innocent, and its TLB
 * emptied; an idle engine resets at once.  The engine dumps its state as
 * it resets (see "Device coredumps").
 *
 * Context: Process context.
 */
void vaccel_engine_reset(struct vaccel_engine *engine)
{
	vaccel_engine_request_reset(engine, true);
}

/**
 * vaccel_device_reset() - reset every engine of a device
 * @vdev: the device
 *
 * The device dumps the state of every engine as it asks them to reset (see
 * "Device coredumps").
 *
 * Context: Process context: debugfs, or an engine's thread whose hangs
 * escalate.
 */
void vaccel_device_reset(struct vaccel_device *vdev)
{
	struct vaccel_coredump *cd;
	unsigned int i;

	cd = vaccel_coredump_begin(vdev, DRM_VACCEL_COREDUMP_DEVICE_RESET, NULL);
	atomic64_inc(&vdev->device_resets);
	trace_vaccel_device_reset(vdev);
	/* A user's hangs can ask for it: rate-limited. */
	dev_info_ratelimited(vdev->drm.dev, "device reset\n");
	spin_lock(&vdev->reset_lock);
	memset(vdev->hang_times, 0, sizeof(vdev->hang_times));
	spin_unlock(&vdev->reset_lock);
	for (i = 0; i < vdev->num_engines; i++) {
		struct vaccel_engine *engine = &vdev->engines[i];

		spin_lock(&engine->lock);
		if (cd)
			vaccel_coredump_add_engine_locked(cd, engine, ktime_get_ns());
		engine->reset_unproven = false;
		spin_unlock(&engine->lock);
		vaccel_engine_request_reset(engine, false);
	}
	if (cd)
		vaccel_coredump_commit(cd);
}

static const char *const vaccel_preempt_reason_names[] = {
	[VACCEL_PREEMPT_NONE] = "none",
	[VACCEL_PREEMPT_PRIORITY] = "priority",
	[VACCEL_PREEMPT_SLICE] = "slice",
	[VACCEL_PREEMPT_STARVATION] = "starvation",
	[VACCEL_PREEMPT_FORCED] = "forced",
	[VACCEL_PREEMPT_RESET] = "reset",
};

static void vaccel_engine_show_buffer(struct seq_file *m, const char *what,
				      struct vaccel_arbiter_buffer *buf)
{
	struct vaccel_job *job = vaccel_job_of(buf);

	seq_printf(m, "  %s: context %u buffer 0x%llx offset %llu progress %llu%s\n",
		   what, job->ctx->handle, job->va, job->offset,
		   job->pkt_progress, buf->started ? " started" : "");
}

/**
 * vaccel_engine_show() - print an engine's arbiter for debugfs
 * @engine: the engine
 * @m: where
 *
 * Context: Process context.
 */
void vaccel_engine_show(struct vaccel_engine *engine, struct seq_file *m)
{
	static const char *const bands[] = { "low", "normal", "high", "realtime" };
	struct vaccel_arbiter *arb = &engine->arbiter;
	u64 now = ktime_get_ns();
	unsigned int i;

	spin_lock(&engine->lock);
	seq_printf(m, "engine %u: granularity %u slice_ns %llu timeout_ns %llu resets %llu hangs %llu instructions %llu\n",
		   engine->index, engine->desc.preempt_granularity,
		   arb->slice_ns, engine->timeout_ns, engine->resets,
		   engine->hangs, vaccel_engine_instructions(engine));
	seq_puts(m, "  preemptions:");
	for (i = 1; i < VACCEL_PREEMPT_REASONS; i++)
		seq_printf(m, " %s %llu", vaccel_preempt_reason_names[i],
			   arb->preempt_count[i]);
	seq_putc(m, '\n');
	if (engine->num_cus) {
		seq_printf(m, "  units: %u instructions", engine->num_cus);
		for (i = 0; i < engine->num_cus; i++)
			seq_printf(m, " %llu", READ_ONCE(engine->cus[i].instructions));
		seq_putc(m, '\n');
	}
	for (i = 0; i < arb->slots_used; i++)
		vaccel_engine_show_buffer(m, i ? "next" : "running", arb->slot[i]);
	if (arb->running_since)
		seq_printf(m, "  running for %llu ns\n", now - arb->running_since);
	if (arb->boosted)
		seq_printf(m, "  boosted: context %u\n",
			   vaccel_context_of(arb->boosted)->handle);
	for (i = VACCEL_ARBITER_BANDS; i-- > 0;) {
		struct vaccel_arbiter_entry *e;

		seq_printf(m, "  band %s: busy_ns %llu ready:", bands[i],
			   arb->band_ns[i]);
		list_for_each_entry(e, &arb->bands[i], link)
			seq_printf(m, " %u(slice_used_ns %llu)",
				   vaccel_context_of(e)->handle,
				   e->slice_used_ns);
		seq_putc(m, '\n');
	}
	spin_unlock(&engine->lock);
}

static void vaccel_engines_fini(struct drm_device *drm, void *unused)
{
	struct vaccel_device *vdev = to_vaccel_device(drm);
	unsigned int i;

	for (i = 0; i < vdev->num_engines; i++) {
		struct vaccel_engine *engine = &vdev->engines[i];

		if (engine->thread) {
			kthread_stop(engine->thread);
			put_task_struct(engine->thread);
		}
		/* Idle: only the engine's thread hands them work. */
		vaccel_cus_fini(engine);
		drm_WARN_ON(drm, engine->arbiter.slots_used);
		kfree(engine->bounce);
	}
}

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
		engine->timeout_ns = vdev->topo.timeout_ns;
		engine->time_limit_ns = vdev->topo.time_limit_ns;
		engine->arb_deadline = U64_MAX;
		vaccel_tlb_init(&engine->tlb);
		if (vdev->devmem)
			engine->tlb.local_base = vdev->devmem->base;
		spin_lock_init(&engine->lock);
		vaccel_arbiter_init(&engine->arbiter, vdev->topo.timeslice_ns);
		engine->bounce = kzalloc(PAGE_SIZE, GFP_KERNEL);
		if (!engine->bounce)
			return -ENOMEM;
		if (engine->desc.compute_units) {
			ret = vaccel_cus_init(engine, engine->desc.compute_units);
			if (ret)
				return ret;
		}

		thread = kthread_create(vaccel_engine_thread, engine, "vaccel%u-%s%u",
					vdev->index,
					vaccel_engine_class_name(engine->desc.engine_class),
					engine->desc.instance);
		if (IS_ERR(thread))
			return PTR_ERR(thread);
		/*
		 * Set before it runs: vaccel_engine_kick() wakes it by it.
		 * Referenced, so that a wake-up never reaches a freed task,
		 * even should the thread have died.
		 */
		get_task_struct(thread);
		engine->thread = thread;
		wake_up_process(thread);
	}
	return 0;
}
