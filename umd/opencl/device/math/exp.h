/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/exp.h - the cores of exp, exp2, exp10 and expm1 for float.
 *
 * Each is computed in double and rounded once to float.  The argument is
 * reduced to x = k ln2 + r with |r| <= ln2 / 2, exactly but for the last
 * rounding of r: ln2 and ln10 are split into a head of few bits, whose
 * products with k and with a float are exact, and a tail.  e^r is the
 * Taylor polynomial of degree 13 (the first term left out is below
 * 2^-57), by Horner's rule with fma; 2^k scales it exactly.  The error
 * before the final rounding is a few 2^-53 relative, so the float result
 * is the correctly rounded one but where the exact value lies that close
 * to a halfway point.  Past +-200 the result is the limit (an infinity,
 * 0 or -1), which the conversion to float gives anyway; below, the
 * conversion rounds overflow to infinity and underflow to a subnormal or
 * zero, once.
 */
#ifndef VACCEL_CL_MATH_EXP_H
#define VACCEL_CL_MATH_EXP_H

#include "device/math/core.h"

#define VCL_LN2		0x1.62e42fefa39efp-1
#define VCL_LN2_HI	0x1.62e42feep-1		/* 33 bits */
#define VCL_LN2_LO	0x1.a39ef35793c76p-33
#define VCL_INV_LN2	0x1.71547652b82fep+0
#define VCL_LN10_HI	0x1.26bb1bap+1		/* 29 bits */
#define VCL_LN10_LO	0x1.b5551582dd4aep-27
#define VCL_LOG2_10	0x1.a934f0979a371p+1

/* (e^r - 1) / r for |r| <= 0.35: sum of r^n / (n + 1)!, n = 0 to 12. */
VCL_TABLE double vcl_expm1_c[13] = {
	1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0,
	1.0 / 3628800.0, 1.0 / 362880.0, 1.0 / 40320.0, 1.0 / 5040.0,
	1.0 / 720.0, 1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0,
};

VCL_FN double vcl_expm1_q(double r)
{
	return vcl_poly(VCL_COEFFS(vcl_expm1_c), 13, r);
}

/* e^r for |r| <= 0.35. */
VCL_FN double vcl_exp_r(double r)
{
	return fma(vcl_expm1_q(r), r, 1.0);
}

/* x = k ln2 + r, for a float x of magnitude at most 200. */
VCL_FN double vcl_exp_reduce(double x, double *k)
{
	*k = vcl_rint_small(x * VCL_INV_LN2);
	return (x - *k * VCL_LN2_HI) - *k * VCL_LN2_LO;
}

/* NaN, and past +-@lim the limits of the family: infinity and @low. */
#define VCL_EXP_LIMITS(x, lim, low)					\
	do {								\
		if ((x) != (x))						\
			return (x);					\
		if ((x) > (lim))					\
			return INFINITY;				\
		if ((x) < -(lim))					\
			return (low);					\
	} while (0)

/* e^r 2^k, rounded once to float. */
VCL_FN float vcl_exp_scale(double r, double k)
{
	return (float)(vcl_exp_r(r) * vcl_pow2((int)k));
}

VCL_FN float vcl_expf(float x)
{
	double k, r;

	VCL_EXP_LIMITS(x, 200.0f, 0.0f);
	r = vcl_exp_reduce(x, &k);
	return vcl_exp_scale(r, k);
}

VCL_FN float vcl_exp2f(float x)
{
	double k;

	VCL_EXP_LIMITS(x, 200.0f, 0.0f);
	k = vcl_rint_small((double)x);
	return vcl_exp_scale(((double)x - k) * VCL_LN2, k);
}

VCL_FN float vcl_exp10f(float x)
{
	double k, r;

	VCL_EXP_LIMITS(x, 60.0f, 0.0f);
	k = vcl_rint_small((double)x * VCL_LOG2_10);
	r = ((double)x * VCL_LN10_HI - k * VCL_LN2_HI) +
	    ((double)x * VCL_LN10_LO - k * VCL_LN2_LO);
	return vcl_exp_scale(r, k);
}

VCL_FN float vcl_expm1f(float x)
{
	double k, r;

	VCL_EXP_LIMITS(x, 200.0f, -1.0f);
	r = vcl_exp_reduce(x, &k);
	if (k == 0.0)		/* r = x, but for the sign of a zero */
		return (float)(vcl_expm1_q(x) * x);
	return (float)(vcl_exp_r(r) * vcl_pow2((int)k) - 1.0);
}

#endif /* VACCEL_CL_MATH_EXP_H */
