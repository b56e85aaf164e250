/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_ARBITER_H__
#define __VACCEL_ARBITER_H__

#include <linux/list.h>
#include <linux/types.h>

#include "vaccel_topology.h"

#define VACCEL_ARBITER_BANDS	4
/* The slots are the engine's HW queue. */
#define VACCEL_ARBITER_SLOTS	VACCEL_HW_QUEUE_DEPTH

/*
 * A band that waits this many time slices while higher bands hold the
 * engine gets one slice: the guard against starving lower bands.
 */
#define VACCEL_ARBITER_STARVATION_SLICES	100

struct vaccel_arbiter_entry;

/**
 * enum vaccel_preempt_reason - why the arbiter takes the engine back
 * @VACCEL_PREEMPT_NONE: it does not
 * @VACCEL_PREEMPT_PRIORITY: a higher band has work
 * @VACCEL_PREEMPT_SLICE: the running context used its time slice and
 *	another of its band has work
 * @VACCEL_PREEMPT_STARVATION: a lower band waited too long, it gets a slice
 * @VACCEL_PREEMPT_FORCED: asked for through debugfs
 * @VACCEL_PREEMPT_RESET: the engine or the device is being reset
 * @VACCEL_PREEMPT_REASONS: number of reasons
 */
enum vaccel_preempt_reason {
	VACCEL_PREEMPT_NONE,
	VACCEL_PREEMPT_PRIORITY,
	VACCEL_PREEMPT_SLICE,
	VACCEL_PREEMPT_STARVATION,
	VACCEL_PREEMPT_FORCED,
	VACCEL_PREEMPT_RESET,
	VACCEL_PREEMPT_REASONS,
};

/**
 * struct vaccel_arbiter_buffer - a DMA buffer as the arbiter sees it
 * @link: on its entry's ring while it waits, or on a preemption report
 * @entry: the context it belongs to
 * @started: it ran on the engine and stopped part-way, so it resumes
 */
struct vaccel_arbiter_buffer {
	struct list_head link;
	struct vaccel_arbiter_entry *entry;
	bool started;
};

/**
 * struct vaccel_arbiter_entry - a context as the arbiter sees it
 * @link: on its band's list while @ring is not empty
 * @ring: its buffers waiting for the engine, in submission order
 * @band: its priority band, 0 (lowest) to %VACCEL_ARBITER_BANDS - 1
 * @slice_used_ns: engine time used in its current time slice
 * @run_ns: engine time used since it was created
 * @preemptions: times the engine was taken from it part-way
 */
struct vaccel_arbiter_entry {
	struct list_head link;
	struct list_head ring;
	unsigned int band;
	u64 slice_used_ns;
	u64 run_ns;
	u64 preemptions;
};

/**
 * struct vaccel_arbiter - which context an engine serves, and when it stops
 * @bands: per band, the contexts with a buffer waiting, in serving order
 * @slot: the HW queue; @slot[0] runs (or is about to), @slot[1] is next
 * @slots_used: buffers in @slot
 * @running_since: when @slot[0] started running, 0 while it does not run
 * @boosted: the entry given a slice by the starvation guard, until its
 *	slice ends; NULL otherwise
 * @band_since: per band, when it last started a buffer or became ready
 * @band_ns: engine time per band
 * @slice_ns: the time slice
 * @starve_ns: how long a band may wait before the guard serves it
 * @preempt_count: preemptions per &enum vaccel_preempt_reason
 *
 * A pure policy: times come from the caller, nothing sleeps or locks; the
 * engine's lock protects it.
 */
struct vaccel_arbiter {
	struct list_head bands[VACCEL_ARBITER_BANDS];
	struct vaccel_arbiter_buffer *slot[VACCEL_ARBITER_SLOTS];
	unsigned int slots_used;
	u64 running_since;
	struct vaccel_arbiter_entry *boosted;
	u64 band_since[VACCEL_ARBITER_BANDS];
	u64 band_ns[VACCEL_ARBITER_BANDS];
	u64 slice_ns;
	u64 starve_ns;
	u64 preempt_count[VACCEL_PREEMPT_REASONS];
};

void vaccel_arbiter_init(struct vaccel_arbiter *arb, u64 slice_ns);
void vaccel_arbiter_entry_init(struct vaccel_arbiter_entry *e, unsigned int band);
void vaccel_arbiter_push(struct vaccel_arbiter *arb,
			 struct vaccel_arbiter_buffer *buf, u64 now);
bool vaccel_arbiter_fill(struct vaccel_arbiter *arb, u64 now);
void vaccel_arbiter_start(struct vaccel_arbiter *arb, u64 now);
struct vaccel_arbiter_buffer *vaccel_arbiter_retire(struct vaccel_arbiter *arb,
						    u64 now);
enum vaccel_preempt_reason vaccel_arbiter_want_preempt(struct vaccel_arbiter *arb,
						       u64 now);
u64 vaccel_arbiter_deadline(struct vaccel_arbiter *arb);
void vaccel_arbiter_preempt(struct vaccel_arbiter *arb, u64 now,
			    enum vaccel_preempt_reason reason,
			    struct list_head *report);
void vaccel_arbiter_requeue(struct vaccel_arbiter *arb,
			    enum vaccel_preempt_reason reason,
			    struct list_head *report, u64 now);
bool vaccel_arbiter_remove(struct vaccel_arbiter *arb,
			   struct vaccel_arbiter_entry *e,
			   struct list_head *removed);
bool vaccel_arbiter_runs(struct vaccel_arbiter *arb,
			 struct vaccel_arbiter_entry *e);
u64 vaccel_arbiter_entry_run_ns(struct vaccel_arbiter *arb,
				struct vaccel_arbiter_entry *e, u64 now);

#endif /* __VACCEL_ARBITER_H__ */
