/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/gamma.h - the cores of tgamma, lgamma and lgamma_r for float.
 *
 * Each is computed in double and rounded once to float.
 *
 * - x >= 10: Stirling's series, log Gamma(x) = (x - 1/2) log x - x +
 *   log(2 pi) / 2 + sum of B_2k / (2k (2k - 1) x^(2k - 1)), eight terms
 *   (the ninth is under 2^-57 of the result at 10).  Gamma(x) is its
 *   exponential (math/exp.h's, on a double), with a relative error of
 *   the log's absolute one: under 2^-46 up to 35.04, where a float's
 *   range ends.
 * - 0 < x < 10: up by the recurrence, Gamma(x) = Gamma(x + n) / (x (x +
 *   1) ... (x + n - 1)) with x + n in [10, 11), the product exact or
 *   rounded once per factor.  log Gamma loses relative precision where it
 *   crosses zero (near 1 and 2, where it is 0 exactly, and at its negative
 *   roots); the specification sets it no bound.
 * - x < 0: the reflection Gamma(x) Gamma(1 - x) = pi / sin(pi x), with
 *   sin(pi x) from math/trig.h after an exact reduction.  Gamma has no
 *   value at 0 and the negative integers (lgamma: +inf); tgamma's sign
 *   there is that of sin(pi x).
 */
#ifndef VACCEL_CL_MATH_GAMMA_H
#define VACCEL_CL_MATH_GAMMA_H

#include "device/math/exp.h"
#include "device/math/log.h"
#include "device/math/trig.h"

#define VCL_HALF_LOG_2PI	0x1.d67f1c864beb5p-1	/* log(2 pi) / 2 */
#define VCL_PI			0x1.921fb54442d18p+1

/* log x for a positive, normal double. */
VCL_FN double vcl_log_d(double x)
{
	double m;
	int e;

	m = vcl_log_split(x, &e);
	return fma((double)e, VCL_LOG_LN2, vcl_log_m(m));
}

/* The Stirling series B_2n / (2n (2n - 1)) in 1 / x^2, highest first. */
VCL_TABLE double vcl_stirling_c[8] = {
	-3617.0 / 122400.0, 1.0 / 156.0, -691.0 / 360360.0, 1.0 / 1188.0,
	-1.0 / 1680.0, 1.0 / 1260.0, -1.0 / 360.0, 1.0 / 12.0,
};

/* log Gamma(x) for x >= 10, in double. */
VCL_FN double vcl_lgamma_stirling(double x)
{
	double z = 1.0 / (x * x), s;

	s = vcl_poly(VCL_COEFFS(vcl_stirling_c), 8, z);
	return ((x - 0.5) * vcl_log_d(x) - x) + (VCL_HALF_LOG_2PI + s / x);
}

/* e^y for |y| <= 700, in double. */
VCL_FN double vcl_exp_d(double y)
{
	double k, r = vcl_exp_reduce(y, &k);

	return vcl_exp_r(r) * vcl_pow2((int)k);
}

/*
 * For 0 < x < 10: x + n in [10, 11), and *p the product x (x + 1) ... (x +
 * n - 1).
 */
VCL_FN double vcl_gamma_shift(double x, double *p)
{
	double prod = 1.0;

	while (x < 10.0) {
		prod *= x;
		x += 1.0;		/* exact: x is a float, or one plus it */
	}
	*p = prod;
	return x;
}

/* sin(pi x) for a float x, in double, and whether x is an integer. */
VCL_FN double vcl_sinpi_d(float x, int *integer)
{
	double r = vcl_reduce_2(x);

	if (r > 0.5)
		r = 1.0 - r;
	else if (r < -0.5)
		r = -1.0 - r;
	*integer = r == 0.0;
	return vcl_sinpi_t(r);
}

/* log Gamma(x) of a positive double, in double. */
VCL_FN double vcl_lgamma_pos(double x)
{
	double p, y;

	if (x >= 10.0)
		return vcl_lgamma_stirling(x);
	y = vcl_gamma_shift(x, &p);
	return vcl_lgamma_stirling(y) - vcl_log_d(p);
}

VCL_FN float vcl_lgamma_rf(float x, int *signp)
{
	double d = x, s;
	int integer;

	*signp = 1;
	if (x != x)
		return x;
	if (x == INFINITY || x == -INFINITY)
		return INFINITY;
	if (x == 0.0f) {
		*signp = __builtin_signbit(x) ? -1 : 1;
		return INFINITY;
	}
	if (x == 1.0f || x == 2.0f)
		return 0.0f;
	if (x > 0.0f)
		return (float)vcl_lgamma_pos(d);
	/* x < 0: log |Gamma(x)| = log(pi / |sin(pi x)|) - log Gamma(1 - x). */
	s = vcl_sinpi_d(x, &integer);
	if (integer)
		return INFINITY;
	*signp = s < 0.0 ? -1 : 1;
	if (s < 0.0)
		s = -s;
	return (float)(vcl_log_d(VCL_PI / s) - vcl_lgamma_pos(1.0 - d));
}

VCL_FN float vcl_lgammaf(float x)
{
	int sign;

	return vcl_lgamma_rf(x, &sign);
}

VCL_FN float vcl_tgammaf(float x)
{
	double d = x, p, y, s, g;
	int integer;

	if (x != x)
		return x;
	if (x == 0.0f)
		return 1.0f / x;			/* +-inf */
	if (x == INFINITY)
		return x;
	if (x > 36.0f)
		return INFINITY;
	if (x > 0.0f) {
		if (x >= 10.0f)
			return (float)vcl_exp_d(vcl_lgamma_stirling(d));
		y = vcl_gamma_shift(d, &p);
		return (float)(vcl_exp_d(vcl_lgamma_stirling(y)) / p);
	}
	/* x < 0, -inf included: Gamma(x) = pi / (sin(pi x) Gamma(1 - x)). */
	if (x == -INFINITY)
		return NAN;
	s = vcl_sinpi_d(x, &integer);
	if (integer)
		return NAN;
	if (x < -60.0f)				/* under the smallest float */
		return s < 0.0 ? -0.0f : 0.0f;
	g = vcl_exp_d(vcl_lgamma_pos(1.0 - d));
	return (float)(VCL_PI / (s * g));
}

#endif /* VACCEL_CL_MATH_GAMMA_H */
