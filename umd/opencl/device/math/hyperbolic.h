/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/hyperbolic.h - the cores of sinh, cosh, tanh, asinh, acosh and
 * atanh for float.
 *
 * Each is computed in double and rounded once to float, on two double
 * cores that keep a double's precision without cancellation:
 *
 * - vcl_expm1_d(y): e^y - 1 for y of at most 25 significant bits and
 *   |y| <= 200 (a float or twice one), on math/exp.h's reduction and
 *   polynomial.  sinh a = (E + E / (E + 1)) / 2 and tanh a = E / (E + 2)
 *   with E = expm1(a) or expm1(2a); cosh a = (e^a + e^-a) / 2.
 * - vcl_log1p_d(d): log(1 + d) for any double d > -1, on math/log.h's:
 *   1 + d rounded, and the rounding's error added back as a first-order
 *   term.  asinh a = log1p(a + a^2 / (1 + sqrt(1 + a^2))), acosh x =
 *   log1p((x - 1) + sqrt((x - 1)(x + 1))), atanh a = log1p(2a / (1 - a))
 *   / 2, whose operands are exact or one rounding from a float.
 *
 * The odd functions work on |x| and give back its sign, -0 included.
 */
#ifndef VACCEL_CL_MATH_HYPERBOLIC_H
#define VACCEL_CL_MATH_HYPERBOLIC_H

#include "device/math/exp.h"
#include "device/math/log.h"

VCL_FN double vcl_expm1_d(double y)
{
	double k, r = vcl_exp_reduce(y, &k);

	if (k == 0.0)
		return vcl_expm1_q(y) * y;
	return vcl_exp_r(r) * vcl_pow2((int)k) - 1.0;
}

VCL_FN double vcl_log1p_d(double d)
{
	double u = 1.0 + d, m;
	int e;

	if (d > -0x1p-25 && d < 0x1p-25)
		return d * fma(d, fma(d, fma(d, -0.25, 1.0 / 3.0), -0.5), 1.0);
	m = vcl_log_split(u, &e);
	return fma((double)e, VCL_LOG_LN2, vcl_log_m(m)) + (d - (u - 1.0)) / u;
}

/* |x| as a double, and x's sign to give back. */
#define VCL_ODD(x, a, neg)						\
	double a = (x) < 0.0f ? -(double)(x) : (double)(x);		\
	int neg = (x) < 0.0f

VCL_FN float vcl_sinhf(float x)
{
	VCL_ODD(x, a, neg);
	double e, r;

	if (x != x || x == 0.0f)
		return x;
	if (a > 100.0)
		return neg ? -INFINITY : INFINITY;
	e = vcl_expm1_d(a);
	r = 0.5 * (e + e / (e + 1.0));
	return (float)(neg ? -r : r);
}

VCL_FN float vcl_coshf(float x)
{
	VCL_ODD(x, a, neg);
	double e;

	(void)neg;
	if (x != x)
		return x;
	if (a > 100.0)
		return INFINITY;
	e = vcl_expm1_d(a) + 1.0;
	return (float)(0.5 * (e + 1.0 / e));
}

VCL_FN float vcl_tanhf(float x)
{
	VCL_ODD(x, a, neg);
	double e, r;

	if (x != x || x == 0.0f)
		return x;
	if (a > 20.0)
		r = 1.0;
	else {
		e = vcl_expm1_d(2.0 * a);
		r = e / (e + 2.0);
	}
	return (float)(neg ? -r : r);
}

VCL_FN float vcl_asinhf(float x)
{
	VCL_ODD(x, a, neg);
	double r;

	if (x != x || x == 0.0f || a == INFINITY)
		return x;
	r = vcl_log1p_d(a + a * a / (1.0 + sqrt(fma(a, a, 1.0))));
	return (float)(neg ? -r : r);
}

VCL_FN float vcl_acoshf(float x)
{
	double d = x;

	if (x != x || x == INFINITY)
		return x;
	if (x < 1.0f)
		return NAN;
	return (float)vcl_log1p_d((d - 1.0) + sqrt((d - 1.0) * (d + 1.0)));
}

VCL_FN float vcl_atanhf(float x)
{
	VCL_ODD(x, a, neg);
	double r;

	if (x != x || x == 0.0f)
		return x;
	if (a > 1.0)
		return NAN;
	if (a == 1.0)
		return neg ? -INFINITY : INFINITY;
	r = 0.5 * vcl_log1p_d(2.0 * a / (1.0 - a));
	return (float)(neg ? -r : r);
}

#endif /* VACCEL_CL_MATH_HYPERBOLIC_H */
