/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * launch_work.h - the work of bench_launch, the same C for its kernels
 * (RV64, through vaccel-cc) and for its check on the CPU.
 */
#ifndef LAUNCH_WORK_H
#define LAUNCH_WORK_H

#include <stdint.h>

struct spin_args {
	uint64_t out;
	uint64_t n;
};

struct apsp_args {
	uint64_t dist;
	uint32_t n;
	uint32_t k;
};

/* An integer loop of n steps: x = x * a + i. */
static inline uint64_t spin_work(uint64_t x, uint64_t n)
{
	for (; n; n--)
		x = x * 6364136223846793005ull + n;
	return x;
}

/* One relaxation step of Floyd-Warshall for row i through vertex k. */
static inline void apsp_row(int32_t *d, uint32_t n, uint32_t i, uint32_t k)
{
	int32_t dik = d[i * n + k];
	uint32_t j;

	for (j = 0; j < n; j++) {
		int32_t via = dik + d[k * n + j];

		if (via < d[i * n + j])
			d[i * n + j] = via;
	}
}

#endif /* LAUNCH_WORK_H */
