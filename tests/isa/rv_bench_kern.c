// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * The kernels of rv_bench, compiled both for RV64G (freestanding, run by
 * the interpreter) and for the host (the native reference).  Each returns
 * a checksum that the two builds must agree on.
 */

#include "../bench/compute_work.h"

#define BN 48

typedef unsigned long bench_u64;
typedef unsigned int bench_u32;

static bench_u32 bench_ia[BN][BN], bench_ib[BN][BN], bench_ic[BN][BN];
static float bench_fa[BN][BN], bench_fb[BN][BN], bench_fc[BN][BN];
static double bench_dx[1024], bench_dy[1024];
static bench_u32 bench_buf[4096];

static bench_u32 bench_lcg(bench_u32 *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* Integer: a matrix product, a hash over a buffer, a sort pass. */
bench_u64 bench_int(int reps)
{
	bench_u32 s = 1, h = 2166136261u;
	bench_u64 sum = 0;
	int r, i, j, k;

	for (i = 0; i < BN; i++) {
		for (j = 0; j < BN; j++) {
			bench_ia[i][j] = bench_lcg(&s) & 0xffff;
			bench_ib[i][j] = bench_lcg(&s) & 0xffff;
		}
	}
	for (i = 0; i < 4096; i++)
		bench_buf[i] = bench_lcg(&s);
	for (r = 0; r < reps; r++) {
		for (i = 0; i < BN; i++) {
			for (j = 0; j < BN; j++) {
				bench_u32 acc = 0;

				for (k = 0; k < BN; k++)
					acc += bench_ia[i][k] * bench_ib[k][j];
				bench_ic[i][j] = acc;
			}
		}
		for (i = 0; i < 4096; i++) {
			h = (h ^ bench_buf[i]) * 16777619u;
			bench_buf[i] ^= h >> 7;
		}
		for (i = 1; i < 4096; i++) {
			if (bench_buf[i - 1] > bench_buf[i]) {
				bench_u32 t = bench_buf[i];

				bench_buf[i] = bench_buf[i - 1];
				bench_buf[i - 1] = t;
			}
		}
		sum += bench_ic[r % BN][(r * 7) % BN] + h;
	}
	return sum;
}

/* Floating point: a single-precision matrix product, a double axpy/dot. */
bench_u64 bench_fp(int reps)
{
	bench_u32 s = 3;
	double dot = 0;
	bench_u64 sum = 0;
	int r, i, j, k;

	for (i = 0; i < BN; i++) {
		for (j = 0; j < BN; j++) {
			bench_fa[i][j] = (float)(bench_lcg(&s) & 0xfff) / 512.0f;
			bench_fb[i][j] = (float)(bench_lcg(&s) & 0xfff) / 1024.0f;
		}
	}
	for (i = 0; i < 1024; i++) {
		bench_dx[i] = (double)(bench_lcg(&s) & 0xffff) / 3.0;
		bench_dy[i] = (double)(bench_lcg(&s) & 0xffff) / 7.0;
	}
	for (r = 0; r < reps; r++) {
		for (i = 0; i < BN; i++) {
			for (j = 0; j < BN; j++) {
				float acc = 0;

				for (k = 0; k < BN; k++)
					acc += bench_fa[i][k] * bench_fb[k][j];
				bench_fc[i][j] = acc;
			}
		}
		for (i = 0; i < 1024; i++)
			bench_dy[i] = 0.5 * bench_dx[i] + bench_dy[i] * 0.25;
		for (i = 0; i < 1024; i++)
			dot += bench_dx[i] * bench_dy[i];
		sum += (bench_u64)bench_fc[r % BN][(r * 5) % BN];
	}
	return sum + (bench_u64)(dot / 1e6);
}

/*
 * bench_compute's integer work (tests/bench/compute_work.h), over 64
 * work-items as its engine kernel runs it: what the engine's interpreter
 * costs on the host, outside the VM.
 */
bench_u64 bench_work(int reps)
{
	bench_u64 fold = 0;
	int r, i;

	for (r = 0; r < reps; r++)
		for (i = 0; i < WORK_ITEMS; i++)
			fold ^= work_int(WORK_SEED + i + r, 2000);
	return fold;
}

/*
 * bench_compute's floating-point work (tests/bench/compute_work.h), over
 * WORK_ITEMS work-items: where the soft-float's time goes, on the host.
 */
bench_u64 bench_workfp(int reps)
{
	bench_u64 fold = 0;
	int r, i;

	for (r = 0; r < reps; r++) {
		for (i = 0; i < WORK_ITEMS; i++) {
			union { double d; bench_u64 u; } v;

			v.d = work_fp((double)(WORK_SEED + i + r), 400);
			fold ^= v.u;
		}
	}
	return fold;
}
