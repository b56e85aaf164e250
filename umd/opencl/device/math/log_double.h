/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/log_double.h - the cores of log, log2, log10 and log1p for double.
 *
 * x = 2^e m with m in [sqrt(1/2), sqrt(2)), as for float (math/log.h),
 * but log m is summed so that its rounding errors stay small against
 * the result:
 *
 * - f = m - 1 is exact.  With s = f / (2 + f), log(1 + f) = 2 atanh s =
 *   2s + s R, R = 2 (s^2 / 3 + s^4 / 5 + ...) to s^24 (the first term
 *   left out is below 2^-58 of the sum).  As 2s = f - s f, and s f = h -
 *   s h with h = f^2 / 2, log(1 + f) = f - t, t = h - s (h + R), small.
 * - log x = e ln2_head + f + (e ln2_tail - t): e ln2_head is exact (33
 *   bits times 11), and it and f are summed with their exact error
 *   (Dekker's fast two-sum), which joins the small terms; one rounding.
 * - log2 and log10 take f times 1/ln2 or 1/ln10 with its error (an fma
 *   and the constant's tail), and sum it with e (exact) or e log10(2)'s
 *   head the same way.
 * - log1p(x) takes f = x itself where 1 + x is in [sqrt(1/2), sqrt(2)),
 *   so that nothing is rounded before the series; elsewhere u = 1 + x,
 *   and log1p(x) = log u + (x - (u - 1)) / u, the second term the first
 *   order of the rounding of u.
 *
 * Each result is within 1 ULP (the bound is 3), and most are correctly
 * rounded; tests/host/math_double.c measures how far.
 */
#ifndef VACCEL_CL_MATH_LOG_DOUBLE_H
#define VACCEL_CL_MATH_LOG_DOUBLE_H

#include "device/math/exp.h"
#include "device/math/log.h"

#define VCL_LOG10_2_HI	0x1.34413509f78p-2	/* 43 bits: times e, exact */
#define VCL_LOG10_2_LO	0x1.fef311f12b358p-46	/* log10(2) - the head */
#define VCL_INV_LN2_TAIL	0x1.777d0ffda0d24p-56	/* 1/ln2 - VCL_LOG_INV_LN2 */
#define VCL_INV_LN10_TAIL	0x1.95355baaafad3p-57	/* 1/ln10 - VCL_INV_LN10 */

/* The coefficients 2 / (2n + 1) of R in s^2, n = 12 down to 1. */
VCL_TABLE double vcl_log_r_c[12] = {
	2.0 / 25.0, 2.0 / 23.0, 2.0 / 21.0, 2.0 / 19.0, 2.0 / 17.0,
	2.0 / 15.0, 2.0 / 13.0, 2.0 / 11.0, 2.0 / 9.0, 2.0 / 7.0,
	2.0 / 5.0, 2.0 / 3.0,
};

/*
 * log(1 + f) = f - t for 1 + f in [sqrt(1/2), sqrt(2)], f exact: returns
 * t, |t| < f^2 / 2.
 */
VCL_FN double vcl_log1p_t(double f)
{
	double s = f / (2.0 + f), z = s * s, h = 0.5 * f * f;
	double r = z * vcl_poly(VCL_COEFFS(vcl_log_r_c), 12, z);

	return h - s * (h + r);
}

/*
 * a + f + rest for |a| >= |f| or a = 0: a + f with its exact error (a fast
 * two-sum), which joins the rest; one rounding.
 */
VCL_FN double vcl_log_sum(double a, double f, double rest)
{
	double sum = a + f;

	return sum + ((f - (sum - a)) + rest);
}

/*
 * A positive, finite x as 2^e m (m in [sqrt(1/2), sqrt(2))); returns m -
 * 1, exactly.
 */
VCL_FN double vcl_log_f(double x, int *e)
{
	int bias = 0;

	if (x < 0x1p-1022) {		/* subnormal: scale into the normals */
		x *= 0x1p64;
		bias = 64;
	}
	x = vcl_log_split(x, e);
	*e -= bias;
	return x - 1.0;
}

#define VCL_LOG_SPECIAL_D(x)						\
	do {								\
		if ((x) != (x))						\
			return (x);					\
		if ((x) < 0.0)						\
			return NAN;					\
		if ((x) == 0.0)						\
			return -INFINITY;				\
		if ((x) == INFINITY)					\
			return INFINITY;				\
	} while (0)

VCL_FN double vcl_log(double x)
{
	double f, k;
	int e;

	VCL_LOG_SPECIAL_D(x);
	f = vcl_log_f(x, &e);
	k = e;
	return vcl_log_sum(k * VCL_LN2_HI, f, k * VCL_LN2_LO - vcl_log1p_t(f));
}

/* log2 and log10: f times 1/ln2 or 1/ln10 as p and the error *pe. */
VCL_FN double vcl_log_scale(double f, double c, double c_tail, double *pe)
{
	double p = f * c;

	*pe = fma(f, c, -p) + f * c_tail;
	return p;
}

VCL_FN double vcl_log2(double x)
{
	double f, p, pe;
	int e;

	VCL_LOG_SPECIAL_D(x);
	f = vcl_log_f(x, &e);
	p = vcl_log_scale(f, VCL_LOG_INV_LN2, VCL_INV_LN2_TAIL, &pe);
	return vcl_log_sum((double)e, p, pe - vcl_log1p_t(f) * VCL_LOG_INV_LN2);
}

VCL_FN double vcl_log10(double x)
{
	double f, k, p, pe;
	int e;

	VCL_LOG_SPECIAL_D(x);
	f = vcl_log_f(x, &e);
	k = e;
	p = vcl_log_scale(f, VCL_INV_LN10, VCL_INV_LN10_TAIL, &pe);
	return vcl_log_sum(k * VCL_LOG10_2_HI, p,
			   (pe - vcl_log1p_t(f) * VCL_INV_LN10) + k * VCL_LOG10_2_LO);
}

VCL_FN double vcl_log1p(double x)
{
	double u, f, k;
	int e;

	if (x != x)
		return x;
	if (x < -1.0)
		return NAN;
	if (x == -1.0)
		return -INFINITY;
	if (x == INFINITY)
		return INFINITY;
	if (x > -0.29 && x < 0.41)		/* 1 + x in [sqrt(1/2), sqrt(2)) */
		return x == 0.0 ? x : x - vcl_log1p_t(x);
	u = 1.0 + x;
	f = vcl_log_f(u, &e);
	k = e;
	return vcl_log_sum(k * VCL_LN2_HI, f,
			   (k * VCL_LN2_LO + (x - (u - 1.0)) / u) - vcl_log1p_t(f));
}

#endif /* VACCEL_CL_MATH_LOG_DOUBLE_H */
