// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Scheduler
 *
 * vaccel schedules in two levels, as MCDM does.  drm_sched, one scheduler
 * per context with a single entity, is the SW queue: it resolves each
 * buffer's dependencies and hands buffers over in submission order.  The
 * arbiter, one per engine, is MCDM's GPU scheduler: it decides which
 * context's buffer enters the engine's two-slot HW queue, and when the
 * engine must give the running buffer back.
 *
 * **Bands.**  A context's priority (LOW, NORMAL, HIGH, REALTIME) is its
 * band.  Bands are served in strict order: a buffer of a higher band that
 * becomes ready preempts lower-band work at once (%VACCEL_PREEMPT_PRIORITY).
 *
 * **Time slices.**  Within a band, contexts with work take turns: the
 * context at the head of its band keeps the engine, buffer after buffer,
 * until it has used a time slice of engine time while another context of
 * its band waits; it is then preempted (%VACCEL_PREEMPT_SLICE) and goes to
 * the tail of its band.  Only engine time counts, so a context does not
 * lose its turn while preempted by a higher band: it resumes first, with
 * what is left of its slice.  A context that becomes ready after being
 * idle joins the tail of its band with a fresh slice.
 *
 * **Starvation guard.**  Strict bands would let a busy higher band starve
 * the lower ones forever.  A band that has waited
 * %VACCEL_ARBITER_STARVATION_SLICES slices without starting a buffer gets
 * one slice (%VACCEL_PREEMPT_STARVATION), during which higher bands do not
 * preempt it.  Every band thus gets at least one slice in 101 of the engine
 * whatever runs above it, about 1 %, while a higher band keeps the rest.
 *
 * **Preemption.**  The arbiter only decides; the engine stops at its
 * preemption granularity and hands the HW queue back.  Both slots are
 * reported as preempted in the order they entered the HW queue: the running
 * buffer, which keeps its progress and resumes where it stopped, then the
 * next one, which had not started.  vaccel_arbiter_requeue() puts each back
 * at the head of its context's ring, so every context still runs its
 * buffers in submission order.
 *
 * **Alternatives considered.**  drm_sched's own run queues and priorities
 * were the first candidate, as in a hardware-scheduled driver like amdgpu;
 * but drm_sched only orders job *submission*: once run_job returns the job
 * belongs to the hardware, and there is no way to take it back.  Preemption
 * needs the buffer to stay the scheduler's until it completes, which is
 * why, as in xe, panthor and pvr, drm_sched here only feeds one context's
 * ring and the arbiter owns the engine.  A single device-wide arbiter
 * (panthor's group scheduler, a tick every few milliseconds) was rejected
 * for latency: a per-engine decision at every event costs no timer and
 * preempts within one check of the engine.
 *
 * The arbiter is a pure policy over lists and times given by its caller,
 * with no lock, clock or sleep of its own, so that KUnit checks every
 * decision exactly.  The engine's lock protects it.
 */

#include <linux/minmax.h>
#include <linux/string.h>

#include "vaccel_arbiter.h"

/**
 * vaccel_arbiter_init() - an arbiter with an empty HW queue
 * @arb: the arbiter
 * @slice_ns: the time slice
 *
 * Context: Any context.
 */
void vaccel_arbiter_init(struct vaccel_arbiter *arb, u64 slice_ns)
{
	unsigned int i;

	memset(arb, 0, sizeof(*arb));
	for (i = 0; i < VACCEL_ARBITER_BANDS; i++)
		INIT_LIST_HEAD(&arb->bands[i]);
	arb->slice_ns = slice_ns;
	arb->starve_ns = slice_ns * VACCEL_ARBITER_STARVATION_SLICES;
}

/**
 * vaccel_arbiter_entry_init() - a context's entry, with nothing to run
 * @e: the entry
 * @band: the context's priority band
 *
 * Context: Any context.
 */
void vaccel_arbiter_entry_init(struct vaccel_arbiter_entry *e, unsigned int band)
{
	memset(e, 0, sizeof(*e));
	INIT_LIST_HEAD(&e->link);
	INIT_LIST_HEAD(&e->ring);
	e->band = band;
}

static struct vaccel_arbiter_entry *
vaccel_arbiter_running(struct vaccel_arbiter *arb)
{
	return arb->running_since ? arb->slot[0]->entry : NULL;
}

static bool vaccel_arbiter_holds(struct vaccel_arbiter *arb,
				 struct vaccel_arbiter_entry *e)
{
	unsigned int i;

	for (i = 0; i < arb->slots_used; i++)
		if (arb->slot[i]->entry == e)
			return true;
	return false;
}

/**
 * vaccel_arbiter_runs() - is a buffer of this context running
 * @arb: the arbiter
 * @e: the context's entry
 *
 * Context: Any context, the engine's lock held.
 * Return: true if the buffer in slot 0 is @e's and has started.
 */
bool vaccel_arbiter_runs(struct vaccel_arbiter *arb,
			 struct vaccel_arbiter_entry *e)
{
	return vaccel_arbiter_running(arb) == e;
}

/* Engine time @e used in its slice, the running buffer included. */
static u64 vaccel_arbiter_slice_used(struct vaccel_arbiter *arb,
				     struct vaccel_arbiter_entry *e, u64 now)
{
	u64 used = e->slice_used_ns;

	if (vaccel_arbiter_running(arb) == e)
		used += now - arb->running_since;
	return used;
}

/**
 * vaccel_arbiter_entry_run_ns() - engine time of a context
 * @arb: the arbiter of its engine
 * @e: the context's entry
 * @now: the time
 *
 * Context: Any context, the engine's lock held.
 * Return: nanoseconds, the running buffer included.
 */
u64 vaccel_arbiter_entry_run_ns(struct vaccel_arbiter *arb,
				struct vaccel_arbiter_entry *e, u64 now)
{
	u64 ns = e->run_ns;

	if (vaccel_arbiter_running(arb) == e)
		ns += now - arb->running_since;
	return ns;
}

/**
 * vaccel_arbiter_push() - a context has one more buffer ready
 * @arb: the arbiter of the context's engine
 * @buf: the buffer, its entry set
 * @now: the time
 *
 * A context that was idle joins the tail of its band with a fresh slice.
 *
 * Context: Any context, the engine's lock held.
 */
void vaccel_arbiter_push(struct vaccel_arbiter *arb,
			 struct vaccel_arbiter_buffer *buf, u64 now)
{
	struct vaccel_arbiter_entry *e = buf->entry;
	struct list_head *band = &arb->bands[e->band];

	buf->started = false;
	list_add_tail(&buf->link, &e->ring);
	if (!list_empty(&e->link))
		return;
	if (list_empty(band))
		arb->band_since[e->band] = now;
	if (!vaccel_arbiter_holds(arb, e))
		e->slice_used_ns = 0;
	list_add_tail(&e->link, band);
}

static int vaccel_arbiter_top_band(struct vaccel_arbiter *arb)
{
	int band;

	for (band = VACCEL_ARBITER_BANDS - 1; band >= 0; band--)
		if (!list_empty(&arb->bands[band]))
			return band;
	return -1;
}

/* The band below @above that waited longest past the guard, or -1. */
static int vaccel_arbiter_starved_band(struct vaccel_arbiter *arb, int above,
				       u64 now)
{
	int band, starved = -1;

	for (band = 0; band < above; band++) {
		if (list_empty(&arb->bands[band]) ||
		    now - arb->band_since[band] < arb->starve_ns)
			continue;
		if (starved < 0 || arb->band_since[band] < arb->band_since[starved])
			starved = band;
	}
	return starved;
}

/* Whether a context other than @e waits in a band at least @e's. */
static bool vaccel_arbiter_contended(struct vaccel_arbiter *arb,
				     struct vaccel_arbiter_entry *e)
{
	unsigned int band;

	for (band = e->band; band < VACCEL_ARBITER_BANDS; band++) {
		struct vaccel_arbiter_entry *other;

		list_for_each_entry(other, &arb->bands[band], link)
			if (other != e)
				return true;
	}
	return arb->slots_used > 1 && arb->slot[1]->entry != e &&
	       arb->slot[1]->entry->band >= e->band;
}

/* The context whose buffer fills the next free slot. */
static struct vaccel_arbiter_entry *vaccel_arbiter_pick(struct vaccel_arbiter *arb,
							u64 now)
{
	struct vaccel_arbiter_entry *e = arb->boosted;
	int top, starved = -1;

	/* A boost lasts one slice, while the context has work. */
	if (e && (vaccel_arbiter_slice_used(arb, e, now) >= arb->slice_ns ||
		  (list_empty(&e->ring) && !vaccel_arbiter_holds(arb, e)))) {
		arb->boosted = NULL;
		e = NULL;
	}
	if (e && !list_empty(&e->ring))
		return e;

	top = vaccel_arbiter_top_band(arb);
	if (top < 0)
		return NULL;
	if (!arb->boosted)
		starved = vaccel_arbiter_starved_band(arb, top, now);
	if (starved >= 0) {
		e = list_first_entry(&arb->bands[starved],
				     struct vaccel_arbiter_entry, link);
		e->slice_used_ns = 0;
		arb->boosted = e;
		return e;
	}

	e = list_first_entry(&arb->bands[top], struct vaccel_arbiter_entry, link);
	if (vaccel_arbiter_slice_used(arb, e, now) >= arb->slice_ns &&
	    !list_is_singular(&arb->bands[top])) {
		/* Its slice is over at a buffer boundary: the next one's turn. */
		e->slice_used_ns = 0;
		list_move_tail(&e->link, &arb->bands[top]);
		e = list_first_entry(&arb->bands[top],
				     struct vaccel_arbiter_entry, link);
	}
	return e;
}

/**
 * vaccel_arbiter_fill() - move ready buffers into the free slots
 * @arb: the arbiter
 * @now: the time
 *
 * Context: Any context, the engine's lock held.
 * Return: true if the HW queue was empty and now is not: the engine must
 * be woken.
 */
bool vaccel_arbiter_fill(struct vaccel_arbiter *arb, u64 now)
{
	bool was_empty = !arb->slots_used;

	while (arb->slots_used < VACCEL_ARBITER_SLOTS) {
		struct vaccel_arbiter_entry *e = vaccel_arbiter_pick(arb, now);
		struct vaccel_arbiter_buffer *buf;

		if (!e)
			break;
		buf = list_first_entry(&e->ring, struct vaccel_arbiter_buffer, link);
		list_del_init(&buf->link);
		if (list_empty(&e->ring))
			list_del_init(&e->link);
		arb->slot[arb->slots_used++] = buf;
	}
	return was_empty && arb->slots_used;
}

/**
 * vaccel_arbiter_start() - the engine starts or resumes the buffer in slot 0
 * @arb: the arbiter, its slot 0 filled
 * @now: the time, not 0
 *
 * Context: Any context, the engine's lock held.
 */
void vaccel_arbiter_start(struct vaccel_arbiter *arb, u64 now)
{
	struct vaccel_arbiter_buffer *buf = arb->slot[0];

	buf->started = true;
	arb->running_since = now;
	arb->band_since[buf->entry->band] = now;
}

/* Charges the running buffer's time to its context and band. */
static void vaccel_arbiter_account(struct vaccel_arbiter *arb, u64 now)
{
	struct vaccel_arbiter_entry *e = vaccel_arbiter_running(arb);
	u64 ran;

	if (!e)
		return;
	ran = now - arb->running_since;
	e->slice_used_ns += ran;
	e->run_ns += ran;
	arb->band_ns[e->band] += ran;
	arb->running_since = 0;
}

/**
 * vaccel_arbiter_retire() - the buffer in slot 0 completed
 * @arb: the arbiter
 * @now: the time
 *
 * Context: Any context, the engine's lock held.
 * Return: the buffer, out of the HW queue.
 */
struct vaccel_arbiter_buffer *vaccel_arbiter_retire(struct vaccel_arbiter *arb,
						    u64 now)
{
	struct vaccel_arbiter_buffer *buf = arb->slot[0];

	vaccel_arbiter_account(arb, now);
	arb->slot[0] = arb->slot[1];
	arb->slot[1] = NULL;
	arb->slots_used--;
	return buf;
}

/**
 * vaccel_arbiter_want_preempt() - should the engine give its buffer back
 * @arb: the arbiter
 * @now: the time
 *
 * Context: Any context, the engine's lock held.
 * Return: the reason to preempt the running buffer, or
 * %VACCEL_PREEMPT_NONE.
 */
enum vaccel_preempt_reason vaccel_arbiter_want_preempt(struct vaccel_arbiter *arb,
						       u64 now)
{
	struct vaccel_arbiter_entry *r = vaccel_arbiter_running(arb);
	u64 used;
	int top;

	if (!r)
		return VACCEL_PREEMPT_NONE;
	used = vaccel_arbiter_slice_used(arb, r, now);
	if (arb->boosted == r && used < arb->slice_ns)
		return VACCEL_PREEMPT_NONE;

	top = vaccel_arbiter_top_band(arb);
	if (arb->slots_used > 1 && arb->slot[1]->entry != r)
		top = max_t(int, top, arb->slot[1]->entry->band);
	if (top > (int)r->band)
		return VACCEL_PREEMPT_PRIORITY;
	if (vaccel_arbiter_starved_band(arb, r->band, now) >= 0)
		return VACCEL_PREEMPT_STARVATION;
	if (used >= arb->slice_ns && vaccel_arbiter_contended(arb, r))
		return VACCEL_PREEMPT_SLICE;
	return VACCEL_PREEMPT_NONE;
}

/**
 * vaccel_arbiter_deadline() - when to ask vaccel_arbiter_want_preempt() again
 * @arb: the arbiter
 *
 * Until something is pushed, filled or retired, the answer of
 * vaccel_arbiter_want_preempt() only changes with time: when the running
 * context's slice ends while others wait, or when a waiting lower band
 * reaches the starvation guard.
 *
 * Context: Any context, the engine's lock held.
 * Return: that time, or U64_MAX if there is none.
 */
u64 vaccel_arbiter_deadline(struct vaccel_arbiter *arb)
{
	struct vaccel_arbiter_entry *r = vaccel_arbiter_running(arb);
	u64 deadline = U64_MAX;
	unsigned int band;

	if (!r)
		return U64_MAX;
	if (vaccel_arbiter_contended(arb, r) || arb->boosted == r) {
		if (r->slice_used_ns >= arb->slice_ns)
			return arb->running_since;
		deadline = arb->running_since + arb->slice_ns - r->slice_used_ns;
	}
	if (arb->boosted == r)
		return deadline;
	for (band = 0; band < r->band; band++)
		if (!list_empty(&arb->bands[band]))
			deadline = min(deadline,
				       arb->band_since[band] + arb->starve_ns);
	return deadline;
}

/**
 * vaccel_arbiter_preempt() - the engine gives its HW queue back
 * @arb: the arbiter
 * @now: the time
 * @reason: why
 * @report: receives the buffers of the HW queue, in the order they entered
 *	it: the one that ran (and will resume), then the one that had not
 *	started
 *
 * Every context with a buffer in the report counts one preemption.  The
 * caller hands the report to vaccel_arbiter_requeue(), possibly after
 * taking out the buffers of a banned context.
 *
 * Context: Any context, the engine's lock held.
 */
void vaccel_arbiter_preempt(struct vaccel_arbiter *arb, u64 now,
			    enum vaccel_preempt_reason reason,
			    struct list_head *report)
{
	struct vaccel_arbiter_entry *first = NULL;
	unsigned int i;

	vaccel_arbiter_account(arb, now);
	if (arb->slots_used)
		arb->preempt_count[reason]++;
	for (i = 0; i < arb->slots_used; i++) {
		struct vaccel_arbiter_buffer *buf = arb->slot[i];

		if (buf->entry != first)
			buf->entry->preemptions++;
		first = first ?: buf->entry;
		list_add_tail(&buf->link, report);
		arb->slot[i] = NULL;
	}
	arb->slots_used = 0;
	arb->boosted = NULL;
}

/**
 * vaccel_arbiter_requeue() - put preempted buffers back at the head of their contexts
 * @arb: the arbiter
 * @reason: why they were preempted
 * @report: the report of vaccel_arbiter_preempt(), emptied
 * @now: the time
 *
 * Each buffer goes back before the buffers its context submitted after it,
 * and its context to the head of its band, so that it is served again
 * first; except when its time slice ran out, which sends the context that
 * ran to the tail of its band.
 *
 * Context: Any context, the engine's lock held.
 */
void vaccel_arbiter_requeue(struct vaccel_arbiter *arb,
			    enum vaccel_preempt_reason reason,
			    struct list_head *report, u64 now)
{
	struct vaccel_arbiter_buffer *buf, *tmp;
	struct vaccel_arbiter_entry *ran = NULL;

	if (list_empty(report))
		return;
	buf = list_first_entry(report, struct vaccel_arbiter_buffer, link);
	if (buf->started)
		ran = buf->entry;

	list_for_each_entry_safe_reverse(buf, tmp, report, link) {
		struct vaccel_arbiter_entry *e = buf->entry;

		list_move(&buf->link, &e->ring);
		if (list_empty(&arb->bands[e->band]))
			arb->band_since[e->band] = now;
		list_move(&e->link, &arb->bands[e->band]);
	}
	if (ran && reason == VACCEL_PREEMPT_SLICE) {
		ran->slice_used_ns = 0;
		list_move_tail(&ran->link, &arb->bands[ran->band]);
	}
}

/**
 * vaccel_arbiter_remove() - take a context's waiting buffers away
 * @arb: the arbiter
 * @e: the context's entry
 * @removed: receives its buffers of the HW queue, then those of its ring,
 *	in submission order
 *
 * Buffers must complete in submission order, so nothing is removed while
 * a buffer of @e runs: the caller stops it and calls again.
 *
 * Context: Any context, the engine's lock held.
 * Return: false if a buffer of @e runs, true once its buffers are removed.
 */
bool vaccel_arbiter_remove(struct vaccel_arbiter *arb,
			   struct vaccel_arbiter_entry *e,
			   struct list_head *removed)
{
	unsigned int i, kept = 0;

	if (vaccel_arbiter_running(arb) == e)
		return false;
	for (i = 0; i < arb->slots_used; i++) {
		struct vaccel_arbiter_buffer *buf = arb->slot[i];

		arb->slot[i] = NULL;
		if (buf->entry == e)
			list_add_tail(&buf->link, removed);
		else
			arb->slot[kept++] = buf;
	}
	arb->slots_used = kept;
	list_splice_tail_init(&e->ring, removed);
	list_del_init(&e->link);
	if (arb->boosted == e)
		arb->boosted = NULL;
	return true;
}
