/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/hyperbolic_double.h - the cores of sinh, cosh, tanh, asinh, acosh
 * and atanh for double.
 *
 * Each is written on the double cores of math/exp_double.h and
 * math/log_double.h in the form that has no cancellation:
 *
 * - sinh |x| = (E + E / (E + 1)) / 2, cosh |x| = 1 + E^2 / (2 (E + 1))
 *   with E = expm1 |x|, up to 22; above, e^|x| / 2 (e^-|x| is below half
 *   an ULP), computed as exp is with the scaling by 2^(k - 1), so that it
 *   overflows only where the result does.
 * - tanh |x| = E / (E + 2) with E = expm1(2 |x|), 1 from 22 on.
 * - asinh |x| = log1p(|x| + x^2 / (1 + sqrt(1 + x^2))) up to 2, log(2 |x|
 *   + 1 / (|x| + sqrt(x^2 + 1))) above, log |x| + ln2 from 2^28.
 * - acosh x = log1p(t + sqrt(2t + t^2)), t = x - 1 (exact), up to 2;
 *   log(2x - 1 / (x + sqrt(x^2 - 1))) above, log x + ln2 from 2^28.
 * - atanh |x| = log1p(2 |x| / (1 - |x|)) / 2, and below 1/2 with the
 *   quotient written as 2|x| + 2x^2 / (1 - |x|).
 * - The odd functions work on |x| and give back its sign, -0 included;
 *   below 2^-28 they are x itself.
 *
 * Each result is within 2 ULP or so (the bounds are 4 and 5);
 * tests/host/math_double.c measures how far.
 */
#ifndef VACCEL_CL_MATH_HYPERBOLIC_DOUBLE_H
#define VACCEL_CL_MATH_HYPERBOLIC_DOUBLE_H

#include "device/math/exp_double.h"
#include "device/math/log_double.h"

/* e^x / 2 for x <= 711, rounded once: infinity past ln(2 DBL_MAX). */
VCL_FN double vcl_exp_half(double x)
{
	double k = vcl_rint_small(x * VCL_INV_LN2), hi = x - k * VCL_LN2_HI;

	return vcl_scale(vcl_exp_hl(hi, k * VCL_LN2_LO), (int)k - 1);
}

VCL_FN double vcl_sinh(double x)
{
	double a = fabs(x), e, r;

	if (x != x || a < 0x1p-28)	/* NaN, zeros and x itself */
		return x;
	if (a > 711.0)
		r = INFINITY;
	else if (a >= 22.0)
		r = vcl_exp_half(a);
	else {
		e = vcl_expm1(a);
		r = 0.5 * (e + e / (e + 1.0));
	}
	return x < 0.0 ? -r : r;
}

VCL_FN double vcl_cosh(double x)
{
	double a = fabs(x), e;

	if (x != x)
		return x;
	if (a < 0x1p-28)
		return 1.0;
	if (a > 711.0)
		return INFINITY;
	if (a >= 22.0)
		return vcl_exp_half(a);
	e = vcl_expm1(a);
	return 1.0 + e * e / (2.0 * (e + 1.0));
}

VCL_FN double vcl_tanh(double x)
{
	double a = fabs(x), e, r;

	if (x != x || a < 0x1p-28)
		return x;
	if (a >= 22.0)
		r = 1.0;
	else {
		e = vcl_expm1(2.0 * a);
		r = e / (e + 2.0);
	}
	return x < 0.0 ? -r : r;
}

VCL_FN double vcl_asinh(double x)
{
	double a = fabs(x), r;

	if (x - x != 0.0 || a < 0x1p-28)	/* NaN, infinities, zeros, tiny */
		return x;
	if (a >= 0x1p28)
		r = vcl_log(a) + VCL_LN2;
	else if (a > 2.0)
		r = vcl_log(2.0 * a + 1.0 / (a + sqrt(fma(a, a, 1.0))));
	else
		r = vcl_log1p(a + a * a / (1.0 + sqrt(fma(a, a, 1.0))));
	return x < 0.0 ? -r : r;
}

VCL_FN double vcl_acosh(double x)
{
	double t;

	if (x != x)
		return x;
	if (x < 1.0)
		return NAN;
	if (x == INFINITY)
		return x;
	if (x >= 0x1p28)
		return vcl_log(x) + VCL_LN2;
	if (x > 2.0)
		return vcl_log(2.0 * x - 1.0 / (x + sqrt(fma(x, x, -1.0))));
	t = x - 1.0;
	return vcl_log1p(t + sqrt(fma(t, t, 2.0 * t)));
}

VCL_FN double vcl_atanh(double x)
{
	double a = fabs(x), r;

	if (x != x || a < 0x1p-28)
		return x;
	if (a > 1.0)
		return NAN;
	if (a == 1.0)
		return x > 0.0 ? INFINITY : -INFINITY;
	if (a < 0.5)
		r = 0.5 * vcl_log1p(2.0 * a + 2.0 * a * a / (1.0 - a));
	else
		r = 0.5 * vcl_log1p(2.0 * a / (1.0 - a));
	return x < 0.0 ? -r : r;
}

#endif /* VACCEL_CL_MATH_HYPERBOLIC_DOUBLE_H */
