/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/erf.h - the cores of erf and erfc for float.
 *
 * Each is computed in double and rounded once to float.
 *
 * - |x| < 2: the Taylor series of erf, 2/sqrt(pi) times the sum of
 *   (-1)^n x^(2n+1) / (n! (2n+1)), to the term under 2^-56 of the sum;
 *   its largest term is under 2^5 of the result, so that a few bits of
 *   a double are lost and none of a float.  erfc = 1 - erf there, which
 *   loses at most 8 bits (erfc(2) is 2^-7.7).
 * - x >= 2: erfc(x) = e^-x^2 / sqrt(pi) / K(x), K the continued fraction
 *   x + (1/2) / (x + 1 / (x + (3/2) / (x + ...))), evaluated from its
 *   tail with 4 + 300 / x^2 terms (79 at 2, 10 at 7: fewer cost bits
 *   from 2.7 on, found against MPFR); e^-x^2 is math/exp.h's on x^2,
 *   exact in double.  erf = 1 - erfc.
 * - Odd erf, and erfc(-x) = 2 - erfc(x).
 */
#ifndef VACCEL_CL_MATH_ERF_H
#define VACCEL_CL_MATH_ERF_H

#include "device/math/exp.h"

#define VCL_TWO_OVER_SQRT_PI	0x1.20dd750429b6dp+0	/* 2 / sqrt(pi) */
#define VCL_INV_SQRT_PI		0x1.20dd750429b6dp-1	/* 1 / sqrt(pi) */

/* erf(a) for 0 <= a < 2, in double. */
VCL_FN double vcl_erf_series(double a)
{
	double z = a * a, term = a, sum = a;
	int n;

	for (n = 1; n < 40; n++) {
		double t;

		term *= -z / n;			/* (-1)^n a^(2n+1) / n! */
		t = term / (2 * n + 1);
		sum += t;
		if (t < sum * 0x1p-56 && -t < sum * 0x1p-56)
			break;
	}
	return sum * VCL_TWO_OVER_SQRT_PI;
}

/* erfc(a) for a >= 2, in double (0 past the float range). */
VCL_FN double vcl_erfc_cf(double a)
{
	double z = a * a, k, r, t;
	int n = (int)(4.0 + 300.0 / z), i;

	if (a > 11.0)
		return 0.0;
	r = vcl_exp_reduce(-z, &k);
	t = a;
	for (i = n; i >= 1; i--)
		t = a + (0.5 * i) / t;
	return vcl_exp_r(r) * vcl_pow2((int)k) * VCL_INV_SQRT_PI / t;
}

VCL_FN float vcl_erff(float x)
{
	double a = x < 0.0f ? -(double)x : (double)x, r;

	if (x != x || x == 0.0f)
		return x;
	r = a < 2.0 ? vcl_erf_series(a) : 1.0 - vcl_erfc_cf(a);
	return (float)(x < 0.0f ? -r : r);
}

VCL_FN float vcl_erfcf(float x)
{
	double a = x < 0.0f ? -(double)x : (double)x, r;

	if (x != x)
		return x;
	r = a < 2.0 ? 1.0 - vcl_erf_series(a) : vcl_erfc_cf(a);
	return (float)(x < 0.0f ? 2.0 - r : r);
}

#endif /* VACCEL_CL_MATH_ERF_H */
