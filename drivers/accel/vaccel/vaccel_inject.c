// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Fault injection points
 *
 * fail-nth fails the slab allocations and user copies of a test's own
 * task, one after the other.  It cannot reach what the engines' threads,
 * the compute units and the workers allocate, nor the probe past
 * drm_dev_init() (whose own failure oopses in Linux 6.12), and it fails
 * no page: failing the pages of the whole task would fail the kernel's
 * too, whose failures print reports by design.  So the driver has points
 * of its own where it fails on purpose, on the kernel's fault-injection
 * framework (``CONFIG_FAULT_INJECTION``, Documentation/fault-injection/),
 * each with its directory of the usual knobs (``probability``,
 * ``interval``, ``times``, ``space``, ``verbose``, ``task-filter``) in
 * ``/sys/kernel/debug/vaccel/``:
 *
 * ==================  ====================================================
 * ``fail_page``       every page the driver allocates itself
 *                     (vaccel_page_alloc()): page tables, device memory,
 *                     the state of dispatches
 * ``fail_dispatch``   the state of a DISPATCH, in the engine's thread
 * ``fail_unit_slot``  a compute unit's slot of a DISPATCH, likewise
 * ``fail_coredump``   the coredump worker's buffer
 * ``fail_probe``      the steps of the probe, in order: the device, its
 *                     memory, its coredump, its engines (``space`` picks
 *                     one)
 * ==================  ====================================================
 *
 * A point is also a site that fail-nth counts in the task that reaches it:
 * the sweeps of the ioctls fail vaccel's pages too.  Why not
 * ``fail_function`` on functions marked ALLOW_ERROR_INJECTION(): its
 * kprobe makes the check in an int3 handler, which lockdep takes for NMI
 * context, and the check's random number takes a lock there: Linux 6.12's
 * lockdep reports an inconsistent lock state at the first injection, and
 * turns itself off for the rest of the run.  Without
 * ``CONFIG_FAULT_INJECTION`` every point is a constant false.
 */

#include <linux/debugfs.h>
#include <linux/fault-inject.h>

#include "vaccel_inject.h"

#ifdef CONFIG_FAULT_INJECTION
#define VACCEL_FAIL_ATTR	FAULT_ATTR_INITIALIZER

static struct fault_attr vaccel_fail_attr[VACCEL_FAIL_POINTS] = {
	[VACCEL_FAIL_PAGE] = VACCEL_FAIL_ATTR,
	[VACCEL_FAIL_DISPATCH] = VACCEL_FAIL_ATTR,
	[VACCEL_FAIL_UNIT_SLOT] = VACCEL_FAIL_ATTR,
	[VACCEL_FAIL_COREDUMP] = VACCEL_FAIL_ATTR,
	[VACCEL_FAIL_PROBE] = VACCEL_FAIL_ATTR,
};

static const char *const vaccel_fail_names[VACCEL_FAIL_POINTS] = {
	[VACCEL_FAIL_PAGE] = "fail_page",
	[VACCEL_FAIL_DISPATCH] = "fail_dispatch",
	[VACCEL_FAIL_UNIT_SLOT] = "fail_unit_slot",
	[VACCEL_FAIL_COREDUMP] = "fail_coredump",
	[VACCEL_FAIL_PROBE] = "fail_probe",
};
#endif

static struct dentry *vaccel_inject_dir;

/**
 * vaccel_should_fail() - whether to fail at a fault-injection point
 * @point: the point
 *
 * Context: Any context.
 * Return: true to fail, as the point's knobs (or fail-nth) say.
 */
bool vaccel_should_fail(enum vaccel_fail_point point)
{
#ifdef CONFIG_FAULT_INJECTION
	return should_fail(&vaccel_fail_attr[point], 1);
#else
	return false;
#endif
}

/**
 * vaccel_inject_init() - the points, off, and their debugfs directories
 *
 * Context: Module init.
 */
void vaccel_inject_init(void)
{
#ifdef CONFIG_FAULT_INJECTION
	unsigned int i;

	/* A test asks for reports if it wants them. */
	for (i = 0; i < VACCEL_FAIL_POINTS; i++)
		vaccel_fail_attr[i].verbose = 0;
	if (!IS_ENABLED(CONFIG_FAULT_INJECTION_DEBUG_FS))
		return;
	vaccel_inject_dir = debugfs_create_dir("vaccel", NULL);
	for (i = 0; i < VACCEL_FAIL_POINTS; i++)
		fault_create_debugfs_attr(vaccel_fail_names[i], vaccel_inject_dir,
					  &vaccel_fail_attr[i]);
#endif
}

/**
 * vaccel_inject_fini() - remove the points' debugfs directories
 *
 * Context: Module exit.
 */
void vaccel_inject_fini(void)
{
	debugfs_remove_recursive(vaccel_inject_dir);
	vaccel_inject_dir = NULL;
}
