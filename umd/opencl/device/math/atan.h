/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/atan.h - the cores of atan, asin and acos for float, and their
 * forms divided by pi (atanpi, asinpi, acospi).
 *
 * Each is computed in double and rounded once to float.
 *
 * - atan(a) for a >= 0: beyond 1 it is pi/2 - atan(1/a); from 1 down to
 *   tan(pi/8) it is pi/4 + atan((a - 1) / (a + 1)), whose operands are
 *   exact for a float a; then the halving atan(t) = 2 atan(t / (1 +
 *   sqrt(1 + t^2))) brings |t| under 0.2, where the odd series to t^25
 *   (the first term left out is under 2^-57 of the sum) finishes.
 * - asin(x) = atan(x / sqrt((1 - x)(1 + x))) and acos(x) =
 *   atan(sqrt((1 - x)(1 + x)) / x), from pi for a negative x, where
 *   1 - x and 1 + x are exact.
 * - The sign of a zero is kept (atan(-0), asin(-0) are -0).
 */
#ifndef VACCEL_CL_MATH_ATAN_H
#define VACCEL_CL_MATH_ATAN_H

#include "device/math/core.h"
#include "device/math/tables.h"

#define VCL_TAN_PI_8	0x1.a827999fcef32p-2	/* tan(pi/8), rounded down */
#define VCL_INV_PI	0x1.45f306dc9c883p-2	/* 1 / pi */

/* The Taylor coefficients of (t - atan t) / t^3 in t^2, highest first. */
VCL_TABLE double vcl_atan_c[12] = {
	-1.0 / 25.0, 1.0 / 23.0, -1.0 / 21.0, 1.0 / 19.0, -1.0 / 17.0,
	1.0 / 15.0, -1.0 / 13.0, 1.0 / 11.0, -1.0 / 9.0, 1.0 / 7.0,
	-1.0 / 5.0, 1.0 / 3.0,
};

/* atan(t) for |t| <= 0.2. */
VCL_FN double vcl_atan_t(double t)
{
	double z = t * t, p;

	p = vcl_poly(VCL_COEFFS(vcl_atan_c), 12, z);
	return fma(-p * z, t, t);
}

/* atan(a) for a >= 0 (+inf included), in double. */
VCL_FN double vcl_atan_pos(double a)
{
	double base = 0.0, sign = 1.0, off = 0.0, t = a;

	if (a > 1.0) {			/* pi/2 - atan(1/a) */
		t = 1.0 / a;
		base = VCL_PIO2_HI;
		sign = -1.0;
	}
	if (t > VCL_TAN_PI_8) {		/* pi/4 + atan((t - 1) / (t + 1)) */
		t = (t - 1.0) / (t + 1.0);
		off = 0.5 * VCL_PIO2_HI;
	}
	t = t / (1.0 + sqrt(fma(t, t, 1.0)));
	return base + sign * (off + 2.0 * vcl_atan_t(t));
}

/* atan of a double, odd, the sign of a zero kept. */
VCL_FN double vcl_atan_d(double x)
{
	if (x == 0.0)
		return x;
	return x < 0 ? -vcl_atan_pos(-x) : vcl_atan_pos(x);
}

VCL_FN float vcl_atanf(float x)
{
	if (x != x)
		return x;
	return (float)vcl_atan_d(x);
}

VCL_FN float vcl_atanpif(float x)
{
	if (x != x)
		return x;
	return (float)(vcl_atan_d(x) * VCL_INV_PI);
}

/* asin(x) in double for a float |x| <= 1. */
VCL_FN double vcl_asin_d(float x)
{
	double d = x, c = sqrt((1.0 - d) * (1.0 + d));

	return vcl_atan_d(d / c);	/* +-1 / 0 is +-inf: +-pi/2 */
}

/* acos(x) in double for a float |x| <= 1. */
VCL_FN double vcl_acos_d(float x)
{
	double d = x, c = sqrt((1.0 - d) * (1.0 + d));

	if (d == 0.0)
		return VCL_PIO2_HI;
	if (d < 0.0)
		return 2.0 * VCL_PIO2_HI - vcl_atan_pos(-c / d);	/* pi - acos(-x) */
	return vcl_atan_pos(c / d);
}

/* NaN, and |x| > 1, which has no arc. */
#define VCL_ARC_DOMAIN(x)						\
	do {								\
		if ((x) != (x))						\
			return (x);					\
		if ((x) > 1.0f || (x) < -1.0f)				\
			return NAN;					\
	} while (0)

VCL_FN float vcl_asinf(float x)
{
	VCL_ARC_DOMAIN(x);
	return (float)vcl_asin_d(x);
}

VCL_FN float vcl_acosf(float x)
{
	VCL_ARC_DOMAIN(x);
	return (float)vcl_acos_d(x);
}

VCL_FN float vcl_asinpif(float x)
{
	VCL_ARC_DOMAIN(x);
	return (float)(vcl_asin_d(x) * VCL_INV_PI);
}

VCL_FN float vcl_acospif(float x)
{
	VCL_ARC_DOMAIN(x);
	return (float)(vcl_acos_d(x) * VCL_INV_PI);
}

#endif /* VACCEL_CL_MATH_ATAN_H */
