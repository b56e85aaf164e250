/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_HOLD_H__
#define __VACCEL_HOLD_H__

#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/types.h>

struct dma_fence;

/* A hold lets go by itself after this long: every fence signals. */
#define VACCEL_HOLD_MAX_MS	10000

/**
 * struct vaccel_hold - a hold point for tests: work that passes it waits
 * @lock: protects @fence
 * @fence: signalled when the hold is let go; NULL while nothing is held
 * @expire: lets go after %VACCEL_HOLD_MAX_MS
 * @held: times work waited at the hold point, for the tests to see
 * @name: what it holds, for its fences' timeline
 */
struct vaccel_hold {
	/* Protects @fence. */
	spinlock_t lock;
	struct dma_fence *fence;
	struct timer_list expire;
	atomic64_t held;
	const char *name;
};

void vaccel_hold_init(struct vaccel_hold *hold, const char *name);
void vaccel_hold_fini(struct vaccel_hold *hold);
int vaccel_hold_set(struct vaccel_hold *hold, bool on);
bool vaccel_hold_is_set(struct vaccel_hold *hold);
struct dma_fence *vaccel_hold_fence(struct vaccel_hold *hold);
void vaccel_hold_wait(struct vaccel_hold *hold);
void vaccel_hold_poll(struct vaccel_hold *hold);

#endif /* __VACCEL_HOLD_H__ */
