/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math_inputs.h - the inputs of the math library's accuracy test on the
 * device (tests/opencl/math.c), which the instructions-per-call benchmark
 * (tests/bench/opencl/bench_opencl.c) measures on too: edge values (zeros,
 * subnormals, the thresholds of overflow and underflow, integers, powers
 * of two and their neighbours, infinities, NaN), then random values, half
 * over a function's range of interest and half of any bits.  The random
 * values of a function depend on its name only (math_seed()), not on the
 * order in which functions are tried.
 */
#ifndef VACCEL_TESTS_MATH_INPUTS_H
#define VACCEL_TESTS_MATH_INPUTS_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define NRANDOM	8192

static const float edges[] = {
	0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, 10.0f, -10.0f, 0x1p-149f, -0x1p-149f,
	0x1p-126f, 0x1p-30f, -0x1p-30f, 0x1p-12f, 0x1.62e430p-1f, -0x1.62e430p-1f, 0.34657359f,
	88.0f, 88.72283935546875f, 88.72284f, 89.0f, -87.33654f, -103.278931f, -103.972076f,
	-104.0f, 127.0f, 127.99999f, 128.0f, -126.0f, -149.0f, -149.5f, -150.0f, 38.0f,
	38.5318394f, 38.53184f, -37.9297f, -44.85f, -45.2f, -45.5f, 3.0f, 5.5f, 1e-7f, -1e-7f,
	20.0f, -20.0f, -17.5f, 50.0f, 100.0f, -100.0f, 200.0f, -200.0f, 1e10f, -1e10f, FLT_MAX,
	-FLT_MAX, INFINITY, -INFINITY, NAN, 0.1f, -0.1f, 1.5f, 16.0f, -16.0f, 0x1.6a09e6p+0f,
	0x1.6a09e8p+0f, 0x1.6a09e6p-1f, 0x1.fffffep-1f, 0x1.000002p+0f, 1000.0f, 1e-3f,
	-0.9999999f, -0x1p-26f, 0x1p-26f, 0x1.fffffep-126f, 0x1p+127f, 1e38f,
};
#define NEDGES (sizeof(edges) / sizeof(edges[0]))
/* Inputs of one argument: the edges and NRANDOM random ones or more, to a multiple of 64. */
#define NIN ((NEDGES + NRANDOM + 63) / 64 * 64)
/* Pairs: every pair of the edge values, then random ones, to a multiple of 64. */
#define NIN2 ((NEDGES * NEDGES + NRANDOM / 2 + 63) / 64 * 64)

/* The ints a y of pown and rootn takes besides small ones. */
static const int int_edges[] = {
	0, 1, -1, 2, -2, 3, -3, 1 << 24, -(1 << 24), (1 << 24) + 1, 1 << 30, -(1 << 30),
};
#define NINT_EDGES (sizeof(int_edges) / sizeof(int_edges[0]))

static uint64_t seed;

/* Starts the random values of function @name. */
static inline void math_seed(const char *name)
{
	seed = 0x2545f4914f6cdd1dULL;
	for (; *name; name++)
		seed = (seed ^ (unsigned char)*name) * 0x100000001b3ULL;
}

static inline uint64_t next_random(void)
{
	uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);	/* splitmix64 */

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline float from_bits(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* NIN inputs of function @name, with the range of interest [lo, hi]. */
static inline void math_inputs(const char *name, float lo, float hi, float *in)
{
	size_t i;

	math_seed(name);
	memcpy(in, edges, sizeof(edges));
	for (i = NEDGES; i < NIN; i++) {
		uint64_t r = next_random();

		if (i % 2)
			in[i] = lo + (hi - lo) * (float)((r >> 40) * 0x1p-24);
		else
			in[i] = from_bits((uint32_t)r);
	}
}

/*
 * NIN2 pairs of function @name, with the ranges [lo, hi] for x and [ylo,
 * yhi] for y; @int_y for an int y (as a float that holds it exactly).
 */
static inline void math_pairs(const char *name, float lo, float hi, float ylo, float yhi,
			      int int_y, float *xs, float *ys)
{
	size_t i;

	math_seed(name);
	for (i = 0; i < NIN2; i++) {
		uint64_t r = next_random(), s = next_random();
		float x, y;

		if (i < NEDGES * NEDGES) {
			x = edges[i / NEDGES];
			y = edges[i % NEDGES];
		} else if (i % 2) {
			x = lo + (hi - lo) * (float)((r >> 40) * 0x1p-24);
			y = ylo + (yhi - ylo) * (float)((s >> 40) * 0x1p-24);
		} else {
			x = from_bits((uint32_t)r);
			y = from_bits((uint32_t)s);
		}
		if (int_y) {
			int k = i % 4 == 0 ? int_edges[s % NINT_EDGES] : (int)(s % 81) - 40;

			if (i < NEDGES * NEDGES && y == y && y <= 0x1p30f && y >= -0x1p30f)
				k = (int)y;
			y = (float)k;
		}
		xs[i] = x;
		ys[i] = y;
	}
}

#endif /* VACCEL_TESTS_MATH_INPUTS_H */
