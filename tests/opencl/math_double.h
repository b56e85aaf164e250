/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math_double.h - the double functions of the device's math library that
 * the accuracy tests know, and their inputs: each one's core
 * (umd/opencl/device/math/), its correctly rounded reference in MPFR, the
 * specification's bound, the bound its design claims (the host test holds
 * the cores to it), and a range of interest.  Shared by
 * tests/host/math_double.c (many inputs through the cores) and
 * tests/opencl/math_double.c (the device against MPFR).  Needs <mpfr.h>,
 * and -I umd/opencl -ffp-contract=off as the device library is built.
 *
 * The inputs: edge values (zeros, subnormals, the thresholds of overflow
 * and underflow, the ends of the reductions' ranges, infinities, NaN),
 * then random ones, half over the range of interest and half of any bits.
 * They depend on the function's name only.
 */
#ifndef VACCEL_TESTS_MATH_DOUBLE_H
#define VACCEL_TESTS_MATH_DOUBLE_H

#include <float.h>
#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include <string.h>
#include "device/math/exp_double.h"
#include "device/math/log_double.h"
#include "device/math/trig_double.h"
#include "device/math/hyperbolic_double.h"
#include "device/math/root_double.h"
#include "device/math/atan_double.h"
#include "device/math/pow_double.h"
#include "device/math/erf_double.h"
#include "device/math/gamma_double.h"
#include "math_mpfr.h"

struct function_d {
	const char *name;
	int (*mpfr)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
	double (*core)(double);
	double ulp;		/* the specification's bound */
	double claim;		/* the design's (math/\*_double.h) */
	double lo, hi;		/* a range of interest */
};

static int mpfr_exp10_d(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rnd)
{
	return mpfr_exp10(r, x, rnd);
}

/* 1 / sqrt(x): MPFR's rec_sqrt(-0) is +Inf, IEEE 754's rSqrt(-0) -Inf. */
static int mpfr_rsqrt_d(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rnd)
{
	if (mpfr_zero_p(x) && mpfr_signbit(x)) {
		mpfr_set_inf(r, -1);
		return 0;
	}
	return mpfr_rec_sqrt(r, x, rnd);
}

static const struct function_d functions_d[] = {
	{ "exp", mpfr_exp, vcl_exp, 3, 1, -745.2, 709.0 },
	{ "exp2", mpfr_exp2, vcl_exp2, 3, 1, -1075.0, 1024.0 },
	{ "exp10", mpfr_exp10_d, vcl_exp10, 3, 1, -323.7, 308.3 },
	{ "expm1", mpfr_expm1, vcl_expm1, 3, 1, -40.0, 709.0 },
	{ "log", mpfr_log, vcl_log, 3, 1, 0.0, 4.0 },
	{ "log2", mpfr_log2, vcl_log2, 3, 1, 0.0, 4.0 },
	{ "log10", mpfr_log10, vcl_log10, 3, 1, 0.0, 4.0 },
	{ "log1p", mpfr_log1p, vcl_log1p, 3, 1, -1.0, 4.0 },
	{ "sin", mpfr_sin, vcl_sin, 4, 1, -20.0, 20.0 },
	{ "cos", mpfr_cos, vcl_cos, 4, 1, -20.0, 20.0 },
	{ "tan", mpfr_tan, vcl_tan, 5, 3, -20.0, 20.0 },
	{ "sinpi", mpfr_sinpi, vcl_sinpi, 4, 1, -8.0, 8.0 },
	{ "cospi", mpfr_cospi, vcl_cospi, 4, 1, -8.0, 8.0 },
	{ "tanpi", mpfr_tanpi, vcl_tanpi, 6, 3, -8.0, 8.0 },
	{ "sinh", mpfr_sinh, vcl_sinh, 4, 3, -709.0, 709.0 },
	{ "cosh", mpfr_cosh, vcl_cosh, 4, 3, -709.0, 709.0 },
	{ "tanh", mpfr_tanh, vcl_tanh, 5, 3, -20.0, 20.0 },
	{ "asinh", mpfr_asinh, vcl_asinh, 4, 3, -10.0, 10.0 },
	{ "acosh", mpfr_acosh, vcl_acosh, 4, 3, 1.0, 10.0 },
	{ "atanh", mpfr_atanh, vcl_atanh, 5, 3, -1.0, 1.0 },
	{ "rsqrt", mpfr_rsqrt_d, vcl_rsqrt, 2, 1, 0.0, 100.0 },
	{ "cbrt", mpfr_cbrt, vcl_cbrt, 2, 1, -100.0, 100.0 },
	{ "atan", mpfr_atan, vcl_atan, 5, 1, -10.0, 10.0 },
	{ "asin", mpfr_asin, vcl_asin, 4, 1, -1.0, 1.0 },
	{ "acos", mpfr_acos, vcl_acos, 4, 1, -1.0, 1.0 },
	{ "atanpi", mpfr_atanpi, vcl_atanpi, 5, 1, -10.0, 10.0 },
	{ "asinpi", mpfr_asinpi, vcl_asinpi, 5, 2, -1.0, 1.0 },
	{ "acospi", mpfr_acospi, vcl_acospi, 5, 2, -1.0, 1.0 },
	{ "erf", mpfr_erf, vcl_erf, 16, 2, -6.0, 6.0 },
	{ "erfc", mpfr_erfc, vcl_erfc, 16, 3, -2.0, 28.0 },
	{ "tgamma", mpfr_gamma, vcl_tgamma, 16, 2, -30.0, 172.0 },
	{ "lgamma", mpfr_lgamma_, vcl_lgamma, INFINITY, 2, -40.0, 1e6 },
};
#define NFUNCTIONS_D (sizeof(functions_d) / sizeof(functions_d[0]))

static const double edges_d[] = {
	0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 10.0, -10.0, 0x1p-1074, -0x1p-1074, 0x1p-1022,
	0x1.fffffffffffffp-1023, 0x1p-60, -0x1p-60, 0x1p-30, -0x1p-30, 0x1.62e42fefa39efp-2,
	-0x1.62e42fefa39efp-2, 0x1.62e42fefa39efp-1, 0x1.62e42fefa39f0p+9, -0x1.74910d52d3051p+9, -0x1.74910d52d3052p+9, -708.5, -745.0,
	0x1.34413509f79fep+8, 0x1.34413509f79ffp+8, -0x1.439b746e36b52p+8, -323.5, -308.0,
	1023.0, 1023.9999999999999, 1024.0, -1022.0, -1074.0, -1074.5, -1075.0, -1076.0,
	-37.5, -38.0, 36.0, 37.0, 38.5, 40.0, -0.29, -0.2899999999999999, 0.41,
	0.4099999999999999, 0x1.6a09e667f3bcdp+0, 0x1.6a09e667f3bccp+0,
	0x1.6a09e667f3bcdp-1, 0x1.fffffffffffffp-1, 0x1.0000000000001p+0, 1e-300, 1e300,
	DBL_MAX, -DBL_MAX, INFINITY, -INFINITY, NAN, 0.1, -0.1, 3.0, 100.0, -100.0,
	-0x1.fffffffffffffp-1, 1e-17, -1e-17,
	/* near multiples of pi/2, for the reductions */
	0x1.921fb54442d18p+0, 0x1.921fb54442d18p+1, 0x1.921fb54442d18p+2,
	0x1.2d97c7f3321d2p+2, -0x1.921fb54442d18p+3, 0x1.921fb54442d18p-1,
	0x1.921fb54442d19p-1, 0x1.6ac5b262ca1ffp+849, 0x1p19, 0x1.fffffffffffffp+18,
	0x1.0c152382d7366p+58, 1e22, 0x1p52, 0x1.0000000000001p+52, 0x1p53, 4503599627370497.5,
	0.25, -0.25, 0.75, 1.5, -2.5, 0x1.fffffffffffffp-2, 1e15 + 0.5,
	/* the hyperbolics' thresholds */
	22.0, -22.0, 0x1.633ce8fb9f87ep+9, 710.5, 0x1p-28, 0x1p28,
	0x1.0000000000001p+0, 0.5, 0x1.fffffffffffffp-2, 2.0000000000000004,
	/* exact cubes and the roots' scalings */
	27.0, -27.0, 0x1p-1071, 1e-310, 0x1p900, 0x1.0000000000001p+900, 0x1p-900, 0x1p-1021,
	/* the arcs' ranges */
	0.4375, 0x1.bffffffffffffp-2, 0.6875, 1.1875, -2.4375, 0x1.37fffffffffffp+1, 0x1p66,
	-0x1p-27, 0.9999999999999999, -0.5000000000000001,
};
#define NEDGES_D (sizeof(edges_d) / sizeof(edges_d[0]))

/*
 * The host test's alone: ln(DBL_MAX) rounded down, the largest x whose
 * e^x is finite, and its neighbour below; ln(2 DBL_MAX) rounded down, the
 * largest x whose sinh and cosh are finite.  PoCL 3.1's exp gives
 * infinity on the first two, its sinh and cosh NaN on the third, so the
 * device test, whose output must be the same on every correct platform,
 * leaves them out, and its random inputs for these functions stop at 709.
 */
static const double edges_host_d[] = {
	0x1.62e42fefa39efp+9, 0x1.62e42fefa39eep+9, 0x1.633ce8fb9f87dp+9, -0x1.633ce8fb9f87dp+9,
};
#define NEDGES_HOST_D (sizeof(edges_host_d) / sizeof(edges_host_d[0]))

static uint64_t seed_d;

static inline uint64_t next_random_d(void)
{
	uint64_t z = (seed_d += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* @n inputs of function @fn: the edges, then random ones. */
static inline void math_inputs_d(const struct function_d *fn, double *in, size_t n)
{
	const char *c;
	size_t i;

	seed_d = 0x2545f4914f6cdd1dULL;
	for (c = fn->name; *c; c++)
		seed_d = (seed_d ^ (unsigned char)*c) * 0x100000001b3ULL;
	for (i = 0; i < n; i++) {
		uint64_t r = next_random_d();

		if (i < NEDGES_D) {
			in[i] = edges_d[i];
		} else if (i % 2) {
			in[i] = fn->lo + (fn->hi - fn->lo) * ((double)(r >> 11) * 0x1p-53);
		} else {
			memcpy(&in[i], &r, 8);
		}
	}
}

/*
 * The functions of two arguments, f(x, y), as functions_d; int_y for an
 * int y (pown, rootn).  Their inputs (math_pairs_d()): every pair of
 * pair_edges_d (y of an int_y function from int_edges_d instead), then
 * random pairs: a quarter from [lo, hi] and [ylo, yhi], a quarter with y
 * such that y ln x is anywhere from -745 to 709 for x in [1/2, 2] (pow's
 * hard cases: results of any size from x near 1), half of any bits (y
 * from [ylo, yhi] for an int_y function).
 */
struct function2_d {
	const char *name;
	int (*mpfr)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
	double (*core)(double, double);
	double ulp, claim;
	double lo, hi, ylo, yhi;
	int int_y;
};

static double vcl_pown_d_(double x, double n)
{
	return vcl_pown(x, (int)n);
}

static double vcl_rootn_d_(double x, double n)
{
	return vcl_rootn(x, (int)n);
}

static const struct function2_d functions2_d[] = {
	{ "pow", mpfr_pow, vcl_pow, 16, 1, 0.0, 10.0, -30.0, 30.0, 0 },
	{ "powr", mpfr_powr_, vcl_powr, 16, 1, 0.0, 10.0, -30.0, 30.0, 0 },
	{ "pown", mpfr_pown_, vcl_pown_d_, 16, 1, -10.0, 10.0, -40.0, 40.0, 1 },
	{ "rootn", mpfr_rootn_, vcl_rootn_d_, 16, 1, -1e6, 1e6, -40.0, 40.0, 1 },
	{ "atan2", mpfr_atan2, vcl_atan2, 6, 1, -10.0, 10.0, -10.0, 10.0, 0 },
	{ "atan2pi", mpfr_atan2pi, vcl_atan2pi, 6, 2, -10.0, 10.0, -10.0, 10.0, 0 },
	{ "hypot", mpfr_hypot, vcl_hypot, 4, 1, -1e6, 1e6, -1e6, 1e6, 0 },
};
#define NFUNCTIONS2_D (sizeof(functions2_d) / sizeof(functions2_d[0]))

static const double pair_edges_d[] = {
	0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 1.5, -1.5, 10.0, 1e-300, 1e300,
	DBL_MAX, -DBL_MAX, 0x1p-1074, -0x1p-1074, 0x1p-1022, 0x1.0000000000001p+0,
	0x1.fffffffffffffp-1, 0x1p53, 0x1.0000000000001p+53, 0x1p52 + 1.0, -(0x1p52 + 1.0),
	1.0 / 3.0, 709.0, -745.0, INFINITY, -INFINITY, NAN,
};
#define NPAIR_EDGES_D (sizeof(pair_edges_d) / sizeof(pair_edges_d[0]))

static const int int_edges_d[] = {
	0, 1, -1, 2, -2, 3, -3, 4, 1 << 24, -(1 << 24), (1 << 24) + 1, 1 << 30, -(1 << 30),
	0x7fffffff, -0x7fffffff - 1,
};
#define NINT_EDGES_D (sizeof(int_edges_d) / sizeof(int_edges_d[0]))
#define NPAIRS_EDGES_D (NPAIR_EDGES_D * NPAIR_EDGES_D)

/* @n pairs of inputs of function @fn (n >= NPAIRS_EDGES_D). */
static inline void math_pairs_d(const struct function2_d *fn, double *x, double *y, size_t n)
{
	const char *c;
	size_t i;

	seed_d = 0x9e3779b97f4a7c15ULL;
	for (c = fn->name; *c; c++)
		seed_d = (seed_d ^ (unsigned char)*c) * 0x100000001b3ULL;
	for (i = 0; i < n; i++) {
		uint64_t r = next_random_d(), q = next_random_d();
		double u = (double)(r >> 11) * 0x1p-53, v = (double)(q >> 11) * 0x1p-53;

		if (i < NPAIRS_EDGES_D) {
			x[i] = pair_edges_d[i / NPAIR_EDGES_D];
			y[i] = fn->int_y ? int_edges_d[i % NINT_EDGES_D] :
				pair_edges_d[i % NPAIR_EDGES_D];
		} else if (i % 4 == 1) {
			x[i] = fn->lo + (fn->hi - fn->lo) * u;
			y[i] = fn->ylo + (fn->yhi - fn->ylo) * v;
		} else if (i % 4 == 3 && !fn->int_y) {
			x[i] = 0.5 + 1.5 * u;
			y[i] = x[i] == 1.0 ? 3.0 : (-745.0 + 1454.0 * v) / log(x[i]);
		} else {
			memcpy(&x[i], &r, 8);
			memcpy(&y[i], &q, 8);
			if (fn->int_y || i % 4 == 3)
				y[i] = fn->ylo + (fn->yhi - fn->ylo) * v;
		}
		if (fn->int_y)
			y[i] = (double)(int)y[i];
	}
}

/*
 * The error of @y in ULP of the exact value @z (OpenCL's ULP: the gap
 * between the two doubles around it, those of the subnormals below
 * 2^-1022); 0 for y == z.  @t is scratch.
 */
static inline double ulp_error_d(double y, mpfr_srcptr z, mpfr_ptr t)
{
	long e;

	if (mpfr_zero_p(z))
		return y == 0.0 ? 0.0 : INFINITY;
	e = mpfr_get_exp(z) - 1;	/* |z| in [2^e, 2^(e+1)) */
	if (e < -1022)
		e = -1022;
	mpfr_set_d(t, y, MPFR_RNDN);
	mpfr_sub(t, t, z, MPFR_RNDN);
	mpfr_abs(t, t, MPFR_RNDN);
	mpfr_mul_2si(t, t, 52 - e, MPFR_RNDN);
	return mpfr_get_d(t, MPFR_RNDU);
}

#endif /* VACCEL_TESTS_MATH_DOUBLE_H */
