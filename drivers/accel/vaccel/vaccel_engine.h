/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_ENGINE_H__
#define __VACCEL_ENGINE_H__

#include <linux/spinlock.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "vaccel_arbiter.h"
#include "vaccel_tlb.h"
#include "vaccel_topology.h"

struct dma_fence;
struct seq_file;
struct task_struct;
struct vaccel_context;
struct vaccel_device;
struct vaccel_file;
struct vaccel_job;
struct vaccel_cu;

/* Engine resets in %VACCEL_RESET_WINDOW_NS that escalate to a device reset. */
#define VACCEL_RESET_BURST		3
#define VACCEL_RESET_WINDOW_NS		(30ULL * NSEC_PER_SEC)
/* How long an engine whose HW queue ran empty polls it before sleeping. */
#define VACCEL_ENGINE_POLL_NS		(50ULL * NSEC_PER_USEC)
/* The least engine time the cost model spends in one sleep, see "Memory traffic". */
#define VACCEL_COST_NAP_NS		(20ULL * NSEC_PER_USEC)

/**
 * struct vaccel_engine - one virtual engine
 * @vdev: the device
 * @index: index in the device's engine list, as the query reports it
 * @desc: class, instance, HW queue depth, preemption granularity
 * @thread: the kernel thread that executes DMA buffers
 * @tlb: the engine's translation cache; only @thread uses it
 * @bounce: a page through which COPY moves data
 * @cus: the compute units that run DISPATCH packets, unit 0 by @thread;
 *	NULL for an engine of another class
 * @num_cus: entries of @cus
 * @lock: protects @arbiter (the HW queue and the bound contexts' rings),
 *	@num_contexts, the requests and counters below, and the state of
 *	the contexts bound here
 * @arbiter: the HW queue and the policy that fills and preempts it
 * @num_contexts: contexts bound to the engine
 * @timeout_ns: time a buffer may run without progress before it is a hang
 * @time_limit_ns: engine time a buffer may use in all
 * @attention: the running buffer must stop at its next check; written
 *	under @lock, read by @thread without
 * @polling: @thread polls its HW queue, and needs no kick to find a buffer
 *	in it; written by @thread
 * @arb_deadline: when the arbiter may want the engine back without any
 *	new event; written under @lock, read by @thread without
 * @stall_since: when the running buffer last made progress, shifted back
 *	by its earlier time on the engine without progress; @thread's own
 * @run_start: when the running buffer started its current run; @thread's
 *	own
 * @limit_at: when the running buffer reaches its time limit, never for a
 *	kernel context's; @thread's own
 * @force_preempt: debugfs asked for a preemption
 * @reset_pending: an engine or device reset was asked for
 * @reset_dump: the reset asked for is the engine's own (not the device's),
 *	which the engine dumps when it resets
 * @deferred: the preemption the arbiter wants, postponed to the end of the
 *	running buffer by the engine's granularity
 * @stop_reason: why the running buffer stopped at a check
 * @resets: engine resets done, hangs and device resets included
 * @hangs: buffers found hung
 * @reset_unproven: the engine was reset for a hang and has not completed
 *	a buffer since
 * @traced_ctx: the contexts of the buffers in the HW queue when it was
 *	last traced, 0 for an empty slot; under @lock
 * @traced_seqno: their finished fences' seqnos; under @lock
 * @charged: @tlb's traffic counters when they were last charged to a file;
 *	@thread's own
 * @cost_seen: bytes of system ([0]) and peer ([1]) memory the cost model
 *	has charged for; @thread's own
 * @cost_debt: engine time the running buffer was charged and has not
 *	spent yet, in 1/1024 ns; saved with the buffer when it is
 *	preempted, dropped with it when it fails; @thread's own
 */
struct vaccel_engine {
	struct vaccel_device *vdev;
	unsigned int index;
	struct vaccel_engine_desc desc;
	struct task_struct *thread;
	struct vaccel_tlb tlb;
	void *bounce;
	struct vaccel_cu *cus;
	unsigned int num_cus;
	/* Protects the HW queue, the arbiter and the bound contexts' state. */
	spinlock_t lock;
	struct vaccel_arbiter arbiter;
	unsigned int num_contexts;
	u64 timeout_ns;
	u64 time_limit_ns;
	bool attention;
	bool polling;
	u64 arb_deadline;
	u64 stall_since;
	u64 run_start;
	u64 limit_at;
	bool force_preempt;
	bool reset_pending;
	bool reset_dump;
	enum vaccel_preempt_reason deferred;
	enum vaccel_preempt_reason stop_reason;
	u64 resets;
	u64 hangs;
	bool reset_unproven;
	u32 traced_ctx[VACCEL_ARBITER_SLOTS];
	u64 traced_seqno[VACCEL_ARBITER_SLOTS];
	struct vaccel_traffic charged;
	u64 cost_seen[2];
	u64 cost_debt;
};

int vaccel_engines_init(struct vaccel_device *vdev);
void vaccel_engine_queue_job(struct vaccel_engine *engine, struct vaccel_job *job);
struct dma_fence *vaccel_engine_cancel_context(struct vaccel_engine *engine,
					       struct vaccel_context *ctx,
					       int error);
u64 vaccel_engine_busy_ns(struct vaccel_engine *engine);
u64 vaccel_engine_file_busy_ns(struct vaccel_engine *engine,
			       struct vaccel_file *vfile);
int vaccel_engine_check(struct vaccel_engine *engine, struct vaccel_job *job,
			bool progressed, unsigned int level);
u64 vaccel_engine_sleep_ns(struct vaccel_engine *engine);
void vaccel_engine_force_preempt(struct vaccel_engine *engine);
void vaccel_engine_reset(struct vaccel_engine *engine);
void vaccel_device_reset(struct vaccel_device *vdev);
void vaccel_engine_show(struct vaccel_engine *engine, struct seq_file *m);

#endif /* __VACCEL_ENGINE_H__ */
