// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Arbiter
 *
 * MCDM's scheduler decides which context's DMA buffer an engine executes
 * next.  In vaccel each engine has an arbiter that makes this choice every
 * time a slot of the engine's HW queue frees: among the contexts bound to
 * the engine that have a buffer ready, it serves the highest priority band
 * first, and within a band it takes the contexts in turn, one buffer each
 * (round robin at buffer boundaries).
 *
 * The arbiter is a pure policy over lists, kept apart from the engine so
 * that KUnit can check it exhaustively.  Preemption and time slices, which
 * let a band's turn end in the middle of a buffer, belong to the
 * Scheduling milestone and will extend this policy.
 */

#include "vaccel_arbiter.h"

/**
 * vaccel_arbiter_init() - an arbiter with no context ready
 * @arb: the arbiter
 *
 * Context: Any context.
 */
void vaccel_arbiter_init(struct vaccel_arbiter *arb)
{
	unsigned int i;

	for (i = 0; i < VACCEL_ARBITER_BANDS; i++)
		INIT_LIST_HEAD(&arb->bands[i]);
}

/**
 * vaccel_arbiter_entry_init() - a context's entry, not ready
 * @e: the entry
 * @band: the context's priority band
 *
 * Context: Any context.
 */
void vaccel_arbiter_entry_init(struct vaccel_arbiter_entry *e, unsigned int band)
{
	INIT_LIST_HEAD(&e->link);
	e->band = band;
}

/**
 * vaccel_arbiter_ready() - a context has a buffer to run
 * @arb: the arbiter of the context's engine
 * @e: the context's entry; nothing happens if it is ready already
 *
 * A context that becomes ready joins the end of its band's turn.
 *
 * Context: Any context, the engine's lock held.
 */
void vaccel_arbiter_ready(struct vaccel_arbiter *arb,
			  struct vaccel_arbiter_entry *e)
{
	if (list_empty(&e->link))
		list_add_tail(&e->link, &arb->bands[e->band]);
}

/**
 * vaccel_arbiter_idle() - a context has nothing to run any more
 * @e: the context's entry
 *
 * Context: Any context, the engine's lock held.
 */
void vaccel_arbiter_idle(struct vaccel_arbiter_entry *e)
{
	list_del_init(&e->link);
}

/**
 * vaccel_arbiter_next() - the context to serve next
 * @arb: the arbiter
 *
 * The chosen context moves to the end of its band, so its band peers come
 * first next time; the caller takes one buffer from it, and calls
 * vaccel_arbiter_idle() if it has no other.
 *
 * Context: Any context, the engine's lock held.
 * Return: the entry of the context to serve, or NULL if none is ready.
 */
struct vaccel_arbiter_entry *vaccel_arbiter_next(struct vaccel_arbiter *arb)
{
	int band;

	for (band = VACCEL_ARBITER_BANDS - 1; band >= 0; band--) {
		struct list_head *l = &arb->bands[band];
		struct vaccel_arbiter_entry *e;

		if (list_empty(l))
			continue;
		e = list_first_entry(l, struct vaccel_arbiter_entry, link);
		list_move_tail(&e->link, l);
		return e;
	}
	return NULL;
}
