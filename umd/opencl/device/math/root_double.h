/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/root_double.h - the cores of rsqrt and cbrt for double.
 *
 * - rsqrt: 1 / sqrt(x), two correctly rounded operations (1.5 ULP), then
 *   a Newton step whose residual 1 - x y^2 is exact but for a rounding
 *   far below y's last bit; |x| is scaled by 2^-200 or 2^200 where y^2
 *   would leave the normal range.  Within 1 ULP (the bound is 2).
 * - cbrt: the float form's guess on the bits and four Newton steps for
 *   y^3 = x (math/root.h), on |x| scaled by 2^-300 or 2^300 where y^3
 *   could overflow or the bits are a subnormal's; then a last step whose
 *   residual y^3 - x is exact but for a rounding far below y's last bit
 *   (y^2 as a double-double, then fma), so that the result is within
 *   one rounding of the root, and an exact cube comes out exact (the
 *   bound is 2).
 *
 * Both came out correctly rounded on every one of a million inputs
 * (tests/host/math_double.c), which is not a proof.
 */
#ifndef VACCEL_CL_MATH_ROOT_DOUBLE_H
#define VACCEL_CL_MATH_ROOT_DOUBLE_H

#include "device/math/core.h"

VCL_FN double vcl_rsqrt(double x)
{
	double scale = 1.0, y, y2, y2l, e;

	if (x != x || x < 0.0)
		return NAN;
	if (x == 0.0)
		return copysign((double)INFINITY, x);
	if (x == INFINITY)
		return 0.0;
	if (x < 0x1p-1000) {
		x *= 0x1p200;
		scale = 0x1p100;
	} else if (x > 0x1p1000) {
		x *= 0x1p-200;
		scale = 0x1p-100;
	}
	y = 1.0 / sqrt(x);
	/* e = 1 - x y^2, y^2 as a double-double: one Newton step. */
	y2 = y * y;
	y2l = fma(y, y, -y2);
	e = fma(-x, y2, 1.0) - x * y2l;
	return (y + 0.5 * y * e) * scale;
}

VCL_FN double vcl_cbrt(double x)
{
	double a = fabs(x), scale = 1.0, y, y2, y2l, r;
	int i;

	if (x != x || x == 0.0 || a == INFINITY)
		return x;
	if (a > 0x1p900) {
		a *= 0x1p-300;
		scale = 0x1p100;
	} else if (a < 0x1p-900) {
		a *= 0x1p300;
		scale = 0x1p-100;
	}
	y = vcl_as_double(vcl_as_u64(a) / 3 + 0x2aa0000000000000UL);
	for (i = 0; i < 4; i++)
		y = y - (y * y * y - a) / (3.0 * y * y);
	y2 = y * y;
	y2l = fma(y, y, -y2);
	r = fma(y2, y, -a) + y2l * y;
	y = (y - r / (3.0 * y2)) * scale;
	return x < 0.0 ? -y : y;
}

#endif /* VACCEL_CL_MATH_ROOT_DOUBLE_H */
