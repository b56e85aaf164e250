/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_ARBITER_H__
#define __VACCEL_ARBITER_H__

#include <linux/list.h>
#include <linux/types.h>

#define VACCEL_ARBITER_BANDS	4

/**
 * struct vaccel_arbiter_entry - a context as the arbiter sees it
 * @link: on its band's list while the context has a buffer to run
 * @band: its priority band, 0 (lowest) to %VACCEL_ARBITER_BANDS - 1
 */
struct vaccel_arbiter_entry {
	struct list_head link;
	unsigned int band;
};

/**
 * struct vaccel_arbiter - which context an engine serves next
 * @bands: per priority band, the contexts with a buffer ready, in the order
 *	they will be served
 *
 * The arbiter holds no lock: its engine's lock protects it.
 */
struct vaccel_arbiter {
	struct list_head bands[VACCEL_ARBITER_BANDS];
};

void vaccel_arbiter_init(struct vaccel_arbiter *arb);
void vaccel_arbiter_entry_init(struct vaccel_arbiter_entry *e, unsigned int band);
void vaccel_arbiter_ready(struct vaccel_arbiter *arb,
			  struct vaccel_arbiter_entry *e);
void vaccel_arbiter_idle(struct vaccel_arbiter_entry *e);
struct vaccel_arbiter_entry *vaccel_arbiter_next(struct vaccel_arbiter *arb);

#endif /* __VACCEL_ARBITER_H__ */
