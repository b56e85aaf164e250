// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * launch_kernel.c - bench_launch's kernels: one that returns at once, an
 * integer loop, and the all-pairs shortest paths of a small graph as many
 * short launches (one per step) or as one long one (the steps separated by
 * barriers).
 */
#include <vaccel_kernel.h>

#include "../launch_work.h"

VACCEL_KERNEL(launch_empty, const struct spin_args *a)
{
	(void)a;
}

VACCEL_KERNEL(launch_spin, const struct spin_args *a)
{
	uint64_t i = vaccel_global_id(0);

	((uint64_t *)a->out)[i] = spin_work(i, a->n);
}

/* Row i of step k: one work-item per row. */
VACCEL_KERNEL(apsp_step, const struct apsp_args *a)
{
	apsp_row((int32_t *)a->dist, a->n, vaccel_global_id(0), a->k);
}

/* Every step: one workgroup, one work-item per row, a barrier between steps. */
VACCEL_KERNEL(apsp_all, const struct apsp_args *a)
{
	uint32_t k;

	for (k = 0; k < a->n; k++) {
		apsp_row((int32_t *)a->dist, a->n, vaccel_global_id(0), k);
		vaccel_barrier();
	}
}
