// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Hold points
 *
 * Races of placement with execution happen in windows of microseconds: a
 * bind between a move's queueing and its run, a CPU fault while the move
 * copies, a close while a move waits.  A test cannot hit them by timing;
 * it opens them with a hold point, through debugfs (see "Testing"):
 *
 * ===================  ===================================================
 * ``hold_moves``       moves queued while it is set wait, in drm_sched,
 *                      before they reach the PAGING engine
 * ``hold_switch``      a move on the PAGING engine, its data copied, waits
 *                      before it switches the page tables
 * ``hold_preempt``     an engine that stops its running buffer (a
 *                      preemption of any reason, a reset) waits before it
 *                      hands its HW queue back to the arbiter
 * ``hold_alloc``       an allocation of device memory waits once it has
 *                      its addresses, before the host pages behind them
 * ``hold_teardown``    the releases that vaccel_teardown_wq runs for moves
 *                      and binds wait before they start
 * ===================  ===================================================
 *
 * Writing 1 sets a hold, 0 lets go; reading gives two lines, ``held
 * <0|1>`` and ``waited <n>``, the times work waited there.  A hold is a
 * fence that the work waits for, as for any dependency, so nothing that
 * waits at one holds a lock.  An engine's thread, which signals fences,
 * may wait for none: it polls the hold instead (vaccel_hold_poll()),
 * holding no lock, and stays busy meanwhile.  The rules of dma-fences
 * hold too: every fence signals in finite time, so a hold lets go by
 * itself after %VACCEL_HOLD_MAX_MS, and when its device goes.
 */

#include <linux/delay.h>
#include <linux/dma-fence.h>
#include <linux/kthread.h>
#include <linux/slab.h>

#include "vaccel_hold.h"

struct vaccel_hold_fence {
	struct dma_fence base;
	/* The fence's lock. */
	spinlock_t lock;
	const char *name;
};

static const char *vaccel_hold_driver_name(struct dma_fence *f)
{
	return "vaccel";
}

static const char *vaccel_hold_timeline_name(struct dma_fence *f)
{
	return container_of(f, struct vaccel_hold_fence, base)->name;
}

static const struct dma_fence_ops vaccel_hold_fence_ops = {
	.get_driver_name = vaccel_hold_driver_name,
	.get_timeline_name = vaccel_hold_timeline_name,
};

/* Lets go: signals and forgets the fence. */
static void vaccel_hold_release(struct vaccel_hold *hold)
{
	struct dma_fence *fence;

	spin_lock_bh(&hold->lock);
	fence = hold->fence;
	hold->fence = NULL;
	spin_unlock_bh(&hold->lock);
	if (fence) {
		dma_fence_signal(fence);
		dma_fence_put(fence);
	}
}

static void vaccel_hold_expire(struct timer_list *t)
{
	struct vaccel_hold *hold = from_timer(hold, t, expire);

	vaccel_hold_release(hold);
}

/**
 * vaccel_hold_init() - a hold point, not set
 * @hold: the hold point
 * @name: what it holds, a string that outlives it
 *
 * Context: Any context.
 */
void vaccel_hold_init(struct vaccel_hold *hold, const char *name)
{
	spin_lock_init(&hold->lock);
	hold->fence = NULL;
	hold->name = name;
	atomic64_set(&hold->held, 0);
	timer_setup(&hold->expire, vaccel_hold_expire, 0);
}

/**
 * vaccel_hold_fini() - let go of a hold point for good
 * @hold: the hold point
 *
 * Context: Process context.
 */
void vaccel_hold_fini(struct vaccel_hold *hold)
{
	timer_shutdown_sync(&hold->expire);
	vaccel_hold_release(hold);
}

/**
 * vaccel_hold_set() - set a hold point, or let go of it
 * @hold: the hold point
 * @on: set it; let go if false
 *
 * Context: Process context.
 * Return: 0 or -ENOMEM.
 */
int vaccel_hold_set(struct vaccel_hold *hold, bool on)
{
	struct vaccel_hold_fence *hf;
	struct dma_fence *old;

	if (!on) {
		timer_delete_sync(&hold->expire);
		vaccel_hold_release(hold);
		return 0;
	}
	hf = kzalloc(sizeof(*hf), GFP_KERNEL);
	if (!hf)
		return -ENOMEM;
	spin_lock_init(&hf->lock);
	hf->name = hold->name;
	dma_fence_init(&hf->base, &vaccel_hold_fence_ops, &hf->lock,
		       dma_fence_context_alloc(1), 1);
	spin_lock_bh(&hold->lock);
	old = hold->fence;
	hold->fence = &hf->base;
	spin_unlock_bh(&hold->lock);
	/* Set already: the old fence goes, its waiters freed. */
	if (old) {
		dma_fence_signal(old);
		dma_fence_put(old);
	}
	mod_timer(&hold->expire, jiffies + msecs_to_jiffies(VACCEL_HOLD_MAX_MS));
	return 0;
}

/**
 * vaccel_hold_is_set() - whether a hold point holds
 * @hold: the hold point
 *
 * Context: Any context.
 * Return: true while set.
 */
bool vaccel_hold_is_set(struct vaccel_hold *hold)
{
	return READ_ONCE(hold->fence);
}

/**
 * vaccel_hold_fence() - the fence that work passing a hold point waits for
 * @hold: the hold point
 *
 * Counts the work as held.
 *
 * Context: Any context.
 * Return: a reference to the fence, or NULL if the hold is not set.
 */
struct dma_fence *vaccel_hold_fence(struct vaccel_hold *hold)
{
	struct dma_fence *fence = NULL;

	if (!READ_ONCE(hold->fence))
		return NULL;
	spin_lock_bh(&hold->lock);
	if (hold->fence)
		fence = dma_fence_get(hold->fence);
	spin_unlock_bh(&hold->lock);
	if (fence)
		atomic64_inc(&hold->held);
	return fence;
}

/**
 * vaccel_hold_wait() - wait at a hold point while it is set
 * @hold: the hold point
 *
 * For workers: bounded by %VACCEL_HOLD_MAX_MS.
 *
 * Context: Process context; sleeps.
 */
void vaccel_hold_wait(struct vaccel_hold *hold)
{
	struct dma_fence *fence = vaccel_hold_fence(hold);

	if (fence) {
		dma_fence_wait(fence, false);
		dma_fence_put(fence);
	}
}

/**
 * vaccel_hold_poll() - wait at a hold point, as an engine's thread
 * @hold: the hold point
 *
 * An engine's thread is inside a fence-signalling section, where waiting
 * for a fence, the hold's included, could deadlock: it polls instead,
 * every millisecond, holding no lock, until the hold lets go (by itself
 * after %VACCEL_HOLD_MAX_MS) or the thread is asked to stop.
 *
 * Context: A kthread; sleeps.
 */
void vaccel_hold_poll(struct vaccel_hold *hold)
{
	if (!vaccel_hold_is_set(hold))
		return;
	atomic64_inc(&hold->held);
	while (vaccel_hold_is_set(hold) && !kthread_should_stop())
		usleep_range(USEC_PER_MSEC, 2 * USEC_PER_MSEC);
}
