/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/root.h - the cores of rsqrt and cbrt for float.
 *
 * Both in double, rounded once to float.  rsqrt is 1 / sqrt(x), two
 * correctly rounded double operations: 2^-52 of the result at most.
 * cbrt starts from a guess made on the bits (the exponent divided by
 * three), which Newton's iteration for y^3 = x, four times, brings to
 * double precision; the last step is written as a correction of y, so
 * that its rounding error is a fraction of y's last bit.  Exact cubes
 * come out exact.
 */
#ifndef VACCEL_CL_MATH_ROOT_H
#define VACCEL_CL_MATH_ROOT_H

#include "device/math/core.h"

VCL_FN float vcl_rsqrtf(float x)
{
	if (x != x || x < 0.0f)
		return NAN;
	if (x == 0.0f)
		return copysign(INFINITY, x);
	if (x == INFINITY)
		return 0.0f;
	return (float)(1.0 / sqrt((double)x));
}

VCL_FN float vcl_cbrtf(float x)
{
	double d = x, a, y;
	vcl_u64 u;
	int i;

	if (x != x || x == 0.0f || x == INFINITY || x == -INFINITY)
		return x;
	a = d < 0.0 ? -d : d;
	/*
	 * The guess: a's bits divided by three, plus what makes the guess
	 * for 1 exactly 1: the exponent divided by three, the fraction
	 * roughly.  Within 7 %, which four steps square below 2^-60.
	 */
	u = vcl_as_u64(a);
	y = vcl_as_double(u / 3 + 0x2aa0000000000000UL);
	for (i = 0; i < 4; i++)
		y = y - (y * y * y - a) / (3.0 * y * y);
	return (float)(d < 0.0 ? -y : y);
}

#endif /* VACCEL_CL_MATH_ROOT_H */
