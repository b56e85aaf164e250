// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * bare_host.c - bench_compute's bare interpreter (bare_rv.c), run on the
 * host rather than in the VM: the floor of interpreting the integer work
 * there, beside which scripts/bench-host.sh puts the engine's interpreter
 * core built for the host (rv_bench).
 *
 * Rounds of one run of each, the bare interpreter over the integer work
 * of 64 work-items and the same C built for the host (scalar, as in
 * bench_compute), the best of each kept.  Prints
 *
 *	bare_host: <bare ms> ms, native <native ms> ms: <ratio>x
 *
 * and exits 1 if the two results differ.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "bare_rv.h"
#include "compute_work.h"

#define ROUNDS		5
#define BARE_CODE_VA	0x10000ull

/* The RV64 code of kernels/compute_bare.c (bare_code.S). */
extern const uint32_t bare_code[], bare_code_end[];

/* Defeats the optimizer: the result goes somewhere it cannot see. */
static volatile uint64_t sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
	double t_bare = 0, t_native = 0, t0, t;
	uint64_t fold_bare, fold_native, insns, i;
	int r;

	bare_rv_prepare(bare_code, bare_code_end - bare_code, BARE_CODE_VA);
	for (r = 0; r < ROUNDS; r++) {
		t0 = now();
		fold_bare = 0;
		insns = 0;
		for (i = 0; i < WORK_ITEMS; i++)
			fold_bare ^= bare_rv_call(WORK_SEED + i, WORK_N_INT, &insns);
		t = now() - t0;
		if (!r || t < t_bare)
			t_bare = t;

		t0 = now();
		fold_native = 0;
		for (i = 0; i < WORK_ITEMS; i++)
			fold_native ^= work_int(WORK_SEED + i, WORK_N_INT);
		sink = fold_native;
		t = now() - t0;
		if (!r || t < t_native)
			t_native = t;
		if (fold_bare != fold_native) {
			printf("bare_host: the bare interpreter computed 0x%016llx, native code 0x%016llx\n",
			       (unsigned long long)fold_bare,
			       (unsigned long long)fold_native);
			return 1;
		}
	}
	printf("bare_host: %.2f ms, native %.2f ms: %.2fx\n", t_bare * 1e3,
	       t_native * 1e3, t_bare / t_native);
	return 0;
}
