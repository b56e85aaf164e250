/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * compute_work.h - the work of bench_compute, compiled three times: into a
 * vaccel kernel (RV64, vaccel-cc), into the native reference (x86-64, in
 * bench_compute itself) and into a freestanding RV64 Linux program that
 * qemu-riscv64 runs.  The two RV64 builds are the same code from the same
 * compiler, so they execute the same instructions and must agree on every
 * result.
 *
 * Each function is one work-item's share: a loop of @n iterations from a
 * seed.  The integer one mixes shifts, multiplies, a table in the
 * work-item's stack and data-dependent branches; the floating-point one
 * mixes double multiply-adds, a division and a square root.
 */
#ifndef COMPUTE_WORK_H
#define COMPUTE_WORK_H

#include <stdint.h>

#define WORK_TABLE	256

/*
 * The size of the work, as bench_compute and bare_host run it: WORK_ITEMS
 * work-items, work-item i from WORK_SEED + i, over WORK_N_INT (integer) or
 * WORK_N_FP (floating-point) iterations.
 */
#define WORK_ITEMS	64
#define WORK_N_INT	40000
#define WORK_N_FP	8000
#define WORK_SEED	12345

/* The kernels' argument block, as bench_compute fills it. */
struct compute_args {
	uint64_t out;	/* GPU address of one 64-bit result per work-item */
	uint64_t seed;	/* work-item i starts from seed + i */
	uint32_t n;	/* iterations */
	uint32_t pad;
};

static inline uint64_t work_int(uint64_t x, uint32_t n)
{
	uint32_t table[WORK_TABLE];
	uint32_t i;

	for (i = 0; i < WORK_TABLE; i++)
		table[i] = (uint32_t)(x * (i + 1));
	for (i = 0; i < n; i++) {
		uint32_t k;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		k = (uint32_t)x & (WORK_TABLE - 1);
		table[k] += (uint32_t)(x >> 32) * 2654435761u;
		if (table[k] & 1)
			x += table[(k + 1) & (WORK_TABLE - 1)];
		else
			x -= i;
	}
	return x;
}

static inline double work_fp(double x, uint32_t n)
{
	double a = x, b = 1.0 / (x + 1.5), acc = 0.0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		a = a * 0.999 + b;
		b = b * 1.0001 + 0.5 / (a + 2.0);
		acc += __builtin_sqrt(a * a + b * b);
	}
	return acc;
}

#endif /* COMPUTE_WORK_H */
