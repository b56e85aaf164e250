// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * reduce_kernel.c - the sum, minimum and maximum of n 32-bit integers.
 *
 * Each work-item accumulates the elements a grid apart into its own sum,
 * minimum and maximum.  The workgroup then adds its sums in a tree in
 * local memory (log2(256) rounds separated by barriers) and folds the
 * minima and maxima with atomics on local memory; one work-item per
 * workgroup finally adds the workgroup's results to the global ones with
 * atomics.  The workgroup size must be REDUCE_WG, and the grid a whole
 * number of workgroups.
 */
#include <vaccel_kernel.h>

#include "reduce.h"

VACCEL_LOCAL uint64_t partial[REDUCE_WG];
VACCEL_LOCAL uint32_t group_min;
VACCEL_LOCAL uint32_t group_max;

VACCEL_KERNEL(reduce, const struct reduce_args *args)
{
	const uint32_t *in = (const uint32_t *)args->in;
	struct reduce_result *out = (struct reduce_result *)args->out;
	unsigned int lid = vaccel_local_id(0), i, s;
	unsigned int stride = vaccel_global_size(0);
	uint32_t mn = UINT32_MAX, mx = 0, v;
	uint64_t sum = 0;

	for (i = vaccel_global_id(0); i < args->n; i += stride) {
		v = in[i];
		sum += v;
		mn = v < mn ? v : mn;
		mx = v > mx ? v : mx;
	}
	partial[lid] = sum;
	if (!lid)
		group_min = UINT32_MAX;	/* local memory starts at zero */
	vaccel_barrier();

	vaccel_atomic_min(&group_min, mn);
	vaccel_atomic_max(&group_max, mx);
	for (s = vaccel_local_size(0) / 2; s; s /= 2) {
		if (lid < s)
			partial[lid] += partial[lid + s];
		vaccel_barrier();
	}
	if (!lid) {
		vaccel_atomic_add(&out->sum, partial[0]);
		vaccel_atomic_min(&out->min, group_min);
		vaccel_atomic_max(&out->max, group_max);
	}
}
