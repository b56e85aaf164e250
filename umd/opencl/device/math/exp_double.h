/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/exp_double.h - the cores of exp, exp2, exp10 and expm1 for double.
 *
 * The float forms (math/exp.h) have double to spare; these have not, so
 * the reduction keeps its rounding error apart:
 *
 * - x = k ln2 + hi - lo, |hi - lo| <= ln2 / 2: hi = x - k ln2_head is
 *   exact (the head has 33 bits and k at most 11), lo = k ln2_tail.
 *   exp2 and exp10 get hi and lo from an fma, which gives the exact error
 *   of their product with ln2 or ln10.
 * - e^r - 1 = hi + rest, rest = r^2 Q(r) - lo, Q the Taylor series of
 *   (e^r - 1 - r) / r^2 to r^11 (math/exp.h's coefficients; the first term
 *   left out is below 2^-56 of the sum).
 * - e^r = 1 + hi + rest: 1 + hi is summed with its exact error (Dekker's
 *   fast two-sum), which joins the rest; the result rounds once, and the
 *   rest's own rounding is a small fraction of an ULP.
 * - e^x = 2^k e^r, an exact scaling, in two steps at the ends of the
 *   range, where 2^k is no double, so that a subnormal result rounds once.
 * - expm1 sums 2^k - 1 and 2^k hi, both exact, the same way.
 * - vcl_exp_dd(p, pl) is e^(p + pl) for an argument with its error (pow's
 *   y ln x, erfc's -x^2): the exact p - k ln2_head, the rest into the
 *   reduction's lo.
 *
 * Each result is within 1 ULP (the bound is 3), and most are correctly
 * rounded; tests/host/math_double.c measures how far.  NaN gives NaN, the overflow and underflow thresholds
 * are the exact ones, and a zero keeps its sign where the function is odd
 * at 0 (expm1).
 */
#ifndef VACCEL_CL_MATH_EXP_DOUBLE_H
#define VACCEL_CL_MATH_EXP_DOUBLE_H

#include "device/math/exp.h"

#define VCL_LN2_TAIL	0x1.abc9e3b39803fp-56	/* ln2 - VCL_LN2 */
#define VCL_LN10	0x1.26bb1bbb55516p+1
#define VCL_LN10_TAIL	-0x1.f48ad494ea3e9p-53	/* ln10 - VCL_LN10 */
#define VCL_EXP_OVER	0x1.62e42fefa39efp+9	/* the largest x with e^x finite */
#define VCL_EXP_UNDER	-0x1.74910d52d3051p+9	/* the smallest with e^x > 0 */
#define VCL_EXP10_OVER	0x1.34413509f79fep+8	/* the same for 10^x */
#define VCL_EXP10_UNDER	-0x1.439b746e36b52p+8

/*
 * e^r - 1 for r = hi - lo, |r| <= 0.35, less hi: the small rest that
 * hi + rest is.
 */
VCL_FN double vcl_expm1_rest(double hi, double lo)
{
	double r = hi - lo;

	return r * r * vcl_poly(VCL_COEFFS(vcl_expm1_c), 12, r) - lo;
}

/*
 * e^r for r = hi - lo: 1 + hi as a sum and its exact error (|hi| <= 1,
 * Dekker's fast two-sum), the rest added to the error, one rounding.
 */
VCL_FN double vcl_exp_hl(double hi, double lo)
{
	double rest = vcl_expm1_rest(hi, lo), sum = 1.0 + hi;

	return sum + ((hi - (sum - 1.0)) + rest);
}

/* p 2^k for k from -1100 to 1100, rounded once. */
VCL_FN double vcl_scale(double p, int k)
{
	if (k > 1000)
		return p * vcl_pow2(k - 600) * 0x1p600;
	if (k < -1000)
		return p * vcl_pow2(k + 600) * 0x1p-600;
	return p * vcl_pow2(k);
}

/* e^(p + pl), |pl| a few ULP of p, rounded once (but below 2^-1022). */
VCL_FN double vcl_exp_dd(double p, double pl)
{
	double k, hi;

	if (p != p)
		return p;
	if (p > 710.0)
		return INFINITY;
	if (p < -746.0)
		return 0.0;
	k = vcl_rint_small(p * VCL_INV_LN2);
	hi = p - k * VCL_LN2_HI;		/* exact */
	return vcl_scale(vcl_exp_hl(hi, k * VCL_LN2_LO - pl), (int)k);
}

VCL_FN double vcl_exp(double x)
{
	double k, hi;

	if (x != x)
		return x;
	if (x > VCL_EXP_OVER)
		return INFINITY;
	if (x < VCL_EXP_UNDER)
		return 0.0;
	k = vcl_rint_small(x * VCL_INV_LN2);
	hi = x - k * VCL_LN2_HI;
	return vcl_scale(vcl_exp_hl(hi, k * VCL_LN2_LO), (int)k);
}

VCL_FN double vcl_exp2(double x)
{
	double k, t, hi, lo;

	if (x != x)
		return x;
	if (x >= 1024.0)
		return INFINITY;
	if (x <= -1076.0)
		return 0.0;
	k = vcl_rint_small(x);
	t = x - k;			/* exact, |t| <= 1/2 */
	hi = t * VCL_LN2;
	lo = -(fma(t, VCL_LN2, -hi) + t * VCL_LN2_TAIL);
	return vcl_scale(vcl_exp_hl(hi, lo), (int)k);
}

VCL_FN double vcl_exp10(double x)
{
	double k, p, hi, lo;

	if (x != x)
		return x;
	if (x > VCL_EXP10_OVER)
		return INFINITY;
	if (x < VCL_EXP10_UNDER)
		return 0.0;
	k = vcl_rint_small(x * VCL_LOG2_10);
	/* x ln10 = p + its error, exactly but for the tail's product */
	p = x * VCL_LN10;
	hi = p - k * VCL_LN2_HI;
	lo = k * VCL_LN2_LO - (fma(x, VCL_LN10, -p) + x * VCL_LN10_TAIL);
	return vcl_scale(vcl_exp_hl(hi, lo), (int)k);
}

VCL_FN double vcl_expm1(double x)
{
	double k, hi, lo, rest, s, a, b, sum;

	if (x != x || x == 0.0)
		return x;
	if (x > VCL_EXP_OVER)
		return INFINITY;
	if (x < -38.0)			/* e^x < 2^-54: -1 is the nearest */
		return -1.0;
	k = vcl_rint_small(x * VCL_INV_LN2);
	if (k == 0.0)
		return x + vcl_expm1_rest(x, 0.0);
	hi = x - k * VCL_LN2_HI;
	lo = k * VCL_LN2_LO;
	if (k > 56.0)			/* the -1 is below half an ULP */
		return vcl_scale(vcl_exp_hl(hi, lo), (int)k);
	rest = vcl_expm1_rest(hi, lo);
	s = vcl_pow2((int)k);
	if (k > 52.0)			/* 2^k - 1 is no double */
		return (s * (hi + rest) - 1.0) + s;
	if (k < -1.0)			/* in (-1, -0.6]: nothing cancels */
		return s * vcl_exp_hl(hi, lo) - 1.0;
	/* (2^k - 1) + 2^k hi, both exact, the larger first: a fast two-sum */
	a = s - 1.0;
	b = s * hi;
	sum = a + b;
	return sum + ((b - (sum - a)) + s * rest);
}

#endif /* VACCEL_CL_MATH_EXP_DOUBLE_H */
