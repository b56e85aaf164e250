/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_ENGINE_H__
#define __VACCEL_ENGINE_H__

#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "vaccel_arbiter.h"
#include "vaccel_tlb.h"
#include "vaccel_topology.h"

struct task_struct;
struct vaccel_context;
struct vaccel_device;
struct vaccel_job;

/**
 * struct vaccel_engine - one virtual engine
 * @vdev: the device
 * @index: index in the device's engine list, as the query reports it
 * @desc: class, instance, HW queue depth, preemption granularity
 * @thread: the kernel thread that executes DMA buffers
 * @tlb: the engine's translation cache; only @thread uses it
 * @bounce: a page through which COPY moves data
 * @lock: protects @hwq, @hwq_count, @arbiter, @num_contexts, @busy_ns,
 *	@busy_since, and the rings and state of the contexts bound here
 * @wq: wakes @thread when a buffer enters the HW queue or its running
 *	buffer is cancelled
 * @hwq: the HW queue: [0] is the running buffer, [1] the next
 * @hwq_count: buffers in @hwq
 * @arbiter: chooses the context whose buffer fills a free slot
 * @num_contexts: contexts bound to the engine
 * @busy_ns: time spent executing buffers, not counting the current one
 * @busy_since: when the current buffer started, or 0 when idle
 */
struct vaccel_engine {
	struct vaccel_device *vdev;
	unsigned int index;
	struct vaccel_engine_desc desc;
	struct task_struct *thread;
	struct vaccel_tlb tlb;
	void *bounce;
	/* Protects the HW queue, the arbiter and the bound contexts' rings. */
	spinlock_t lock;
	wait_queue_head_t wq;
	struct vaccel_job *hwq[VACCEL_HW_QUEUE_DEPTH];
	unsigned int hwq_count;
	struct vaccel_arbiter arbiter;
	unsigned int num_contexts;
	u64 busy_ns;
	u64 busy_since;
};

int vaccel_engines_init(struct vaccel_device *vdev);
void vaccel_engine_queue_job(struct vaccel_engine *engine, struct vaccel_job *job);
void vaccel_engine_cancel_context(struct vaccel_engine *engine,
				  struct vaccel_context *ctx, int error);
u64 vaccel_engine_busy_ns(struct vaccel_engine *engine);

#endif /* __VACCEL_ENGINE_H__ */
