/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_INJECT_H__
#define __VACCEL_INJECT_H__

#include <linux/types.h>

/**
 * enum vaccel_fail_point - where the driver fails on purpose, for tests
 * @VACCEL_FAIL_PAGE: a page the driver allocates itself
 *	(vaccel_page_alloc()): page tables, device memory, dispatch state
 * @VACCEL_FAIL_DISPATCH: the state of a DISPATCH, in the engine's thread
 * @VACCEL_FAIL_UNIT_SLOT: a compute unit's slot of a DISPATCH, in the
 *	engine's thread
 * @VACCEL_FAIL_COREDUMP: the coredump worker's buffer
 * @VACCEL_FAIL_PROBE: a step of the probe (four, in order: the device,
 *	its memory, its coredump, its engines)
 * @VACCEL_FAIL_POINTS: how many
 */
enum vaccel_fail_point {
	VACCEL_FAIL_PAGE,
	VACCEL_FAIL_DISPATCH,
	VACCEL_FAIL_UNIT_SLOT,
	VACCEL_FAIL_COREDUMP,
	VACCEL_FAIL_PROBE,
	VACCEL_FAIL_POINTS
};

bool vaccel_should_fail(enum vaccel_fail_point point);
void vaccel_inject_init(void);
void vaccel_inject_fini(void);

#endif /* __VACCEL_INJECT_H__ */
