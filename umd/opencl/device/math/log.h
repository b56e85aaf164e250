/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/log.h - the cores of log, log2, log10 and log1p for float.
 *
 * Each is computed in double and rounded once to float.  A positive
 * double is 2^e m with m in [sqrt(1/2), sqrt(2)), read from its bits;
 * log m = 2 atanh s with s = (m - 1) / (m + 1), |s| < 0.172, by its odd
 * series to s^23 (the first term left out is below 2^-56 of the sum).
 * m - 1 is exact, so is m + 1 when m came from a float, and the one
 * division rounds s by 2^-53.  log x is then e ln2 + log m, where the two
 * terms have no cancellation that matters: |log m| <= ln2 / 2.  log2 and
 * log10 scale the two terms apart, so that log2(2^k) is k exactly.
 * log1p makes 1 + x exact where it can (|x| >= 2^-25) and takes the
 * series of log1p itself below.
 */
#ifndef VACCEL_CL_MATH_LOG_H
#define VACCEL_CL_MATH_LOG_H

#include "device/math/core.h"

#define VCL_LOG_LN2	0x1.62e42fefa39efp-1
#define VCL_LOG_INV_LN2	0x1.71547652b82fep+0
#define VCL_INV_LN10	0x1.bcb7b1526e50ep-2
#define VCL_LOG10_2	0x1.34413509f79ffp-2
#define VCL_SQRT2	0x1.6a09e667f3bcdp+0

/* The series' coefficients 1 / (2n + 1), n = 11 down to 1. */
VCL_TABLE double vcl_log_c[11] = {
	1.0 / 23.0, 1.0 / 21.0, 1.0 / 19.0, 1.0 / 17.0, 1.0 / 15.0,
	1.0 / 13.0, 1.0 / 11.0, 1.0 / 9.0, 1.0 / 7.0, 1.0 / 5.0, 1.0 / 3.0,
};

/* log m for m in [sqrt(1/2), sqrt(2)). */
VCL_FN double vcl_log_m(double m)
{
	double s = (m - 1.0) / (m + 1.0), t = s * s, p;

	p = vcl_poly(VCL_COEFFS(vcl_log_c), 11, t) * t;
	return fma(2.0 * s, p, 2.0 * s);
}

/* d = 2^e m, for a positive normal double d; returns m. */
VCL_FN double vcl_log_split(double d, int *e)
{
	vcl_u64 u = vcl_as_u64(d);
	double m;

	*e = (int)(u >> 52) - 1023;
	m = vcl_as_double((u & 0x000fffffffffffffUL) | 0x3ff0000000000000UL);
	if (m >= VCL_SQRT2) {
		m *= 0.5;
		*e += 1;
	}
	return m;
}

/* The special cases of the family: NaN, negative, zero, infinity. */
#define VCL_LOG_SPECIAL(x)						\
	do {								\
		if ((x) != (x))						\
			return (x);					\
		if ((x) < 0.0f)						\
			return NAN;					\
		if ((x) == 0.0f)					\
			return -INFINITY;				\
		if ((x) == INFINITY)					\
			return INFINITY;				\
	} while (0)

VCL_FN float vcl_logf(float x)
{
	double m;
	int e;

	VCL_LOG_SPECIAL(x);
	m = vcl_log_split((double)x, &e);
	return (float)(fma((double)e, VCL_LOG_LN2, vcl_log_m(m)));
}

VCL_FN float vcl_log2f(float x)
{
	double m;
	int e;

	VCL_LOG_SPECIAL(x);
	m = vcl_log_split((double)x, &e);
	return (float)((double)e + vcl_log_m(m) * VCL_LOG_INV_LN2);
}

VCL_FN float vcl_log10f(float x)
{
	double m;
	int e;

	VCL_LOG_SPECIAL(x);
	m = vcl_log_split((double)x, &e);
	return (float)fma((double)e, VCL_LOG10_2, vcl_log_m(m) * VCL_INV_LN10);
}

VCL_FN float vcl_log1pf(float x)
{
	double d = x, m;
	int e;

	if (x != x)
		return x;
	if (x < -1.0f)
		return NAN;
	if (x == -1.0f)
		return -INFINITY;
	if (x == INFINITY)
		return INFINITY;
	if (d > -0x1p-25 && d < 0x1p-25)	/* x - x^2/2 + x^3/3, the sign of 0 kept */
		return (float)(d * fma(d, fma(d, 1.0 / 3.0, -0.5), 1.0));
	m = vcl_log_split(1.0 + d, &e);
	return (float)(fma((double)e, VCL_LOG_LN2, vcl_log_m(m)));
}

#endif /* VACCEL_CL_MATH_LOG_H */
