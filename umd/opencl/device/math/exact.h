/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/exact.h - the cores of the math functions whose result is exact,
 * or one rounding of an exact product by a power of two: fmod, remainder
 * and remquo, ldexp, frexp, ilogb and logb, for float and double.
 *
 * - A finite value is an integer mantissa m and an exponent e, |x| =
 *   m * 2^e, with m normalised to the top of its width (2^23 <= m < 2^24
 *   for float, 2^52 <= m < 2^53 for double), subnormals included: their
 *   exponent goes below the normal range instead.
 * - fmod and remquo divide the mantissas in integer arithmetic, a step
 *   of up to 40 bits (float) or 11 bits (double) at a time, so that the
 *   shifted remainder stays under 2^64; the remainder is exact, and so
 *   is every bit of the quotient that remquo reports (its low seven, with
 *   the sign of x / y).  A float's remainder is a float's: the float
 *   forms use the double's core on exactly converted operands.
 * - ldexp rounds once: a float is scaled in double, where every result
 *   is exact, then converted; a double is scaled in at most three steps
 *   of which only the last can round (the others keep it normal).
 */
#ifndef VACCEL_CL_MATH_EXACT_H
#define VACCEL_CL_MATH_EXACT_H

#include "core.h"

#define VCL_INT_MIN	(-2147483647 - 1)
#define VCL_INT_MAX	2147483647

/* x * 2^k for any int k, rounded once. */
VCL_FN double vcl_ldexp(double x, int k)
{
	if (k > 1023) {
		x *= 0x1p1023;
		k -= 1023;
		if (k > 1023) {
			x *= 0x1p1023;
			k = k - 1023 > 1023 ? 1023 : k - 1023;
		}
	} else if (k < -1022) {
		/* 2^-969 keeps a normal result normal: no rounding yet. */
		x *= 0x1p-969;
		k += 969;
		if (k < -1022) {
			x *= 0x1p-969;
			k = k + 969 < -1022 ? -1022 : k + 969;
		}
	}
	return x * vcl_pow2(k);
}

VCL_FN float vcl_ldexpf(float x, int k)
{
	/* A float times 2^k for |k| <= 400 is exact in double. */
	k = k > 400 ? 400 : k < -400 ? -400 : k;
	return (float)((double)x * vcl_pow2(k));
}

/*
 * The mantissa and exponent of a finite, non-zero |x|: |x| = m * 2^e,
 * 2^52 <= m < 2^53.
 */
VCL_FN vcl_u64 vcl_split(double x, int *e)
{
	vcl_u64 u = vcl_as_u64(x) & 0x7fffffffffffffffUL;
	int be = (int)(u >> 52);

	if (be == 0) {		/* subnormal: normalise */
		int shift = 0;

		while (!(u & 0x0010000000000000UL)) {
			u <<= 1;
			shift++;
		}
		*e = -1074 - shift;
		return u;
	}
	*e = be - 1075;
	return (u & 0x000fffffffffffffUL) | 0x0010000000000000UL;
}

/*
 * remquo for double: the remainder of x / y rounded to the nearest
 * integer, ties to even (@round_nearest), or truncated (fmod's); *quo gets
 * the low seven bits of that integer with the sign of x / y.
 */
VCL_FN double vcl_remquo_core(double x, double y, int *quo, int round_nearest)
{
	vcl_u64 mx, my, r, q = 0;
	int ex, ey, d, neg = 0, qsign = (x < 0) != (y < 0);
	double ax = x < 0 ? -x : x, ay = y < 0 ? -y : y, res;

	*quo = 0;
	if (x != x || y != y || ax == 1.0 / 0.0 || y == 0.0)
		return (x * y) / (x * y);	/* NaN */
	if (ay == 1.0 / 0.0 || x == 0.0)
		return x;
	mx = vcl_split(ax, &ex);
	my = vcl_split(ay, &ey);
	if (ex < ey) {
		/* |x| < |y|: quotient 0, or 1 if |x| is over |y| / 2. */
		if (!round_nearest || ex < ey - 1 || ax + ax <= ay)
			return x;
		*quo = qsign ? -1 : 1;
		return x < 0 ? ay - ax : ax - ay;	/* exact (Sterbenz) */
	}
	r = mx;
	d = ex - ey;
	q = r / my;
	r -= q * my;
	while (d > 0) {
		int s = d < 11 ? d : 11;

		r <<= s;
		q = (q << s) + r / my;
		r %= my;
		d -= s;
	}
	if (round_nearest && (2 * r > my || (2 * r == my && (q & 1)))) {
		r = my - r;
		q++;
		neg = 1;
	}
	q &= 0x7f;
	*quo = qsign ? -(int)q : (int)q;
	res = vcl_ldexp((double)r, ey);			/* exact */
	return (x < 0) != neg ? -res : res;
}

VCL_FN double vcl_fmod(double x, double y)
{
	int q;

	return vcl_remquo_core(x, y, &q, 0);
}

VCL_FN double vcl_remquo(double x, double y, int *quo)
{
	return vcl_remquo_core(x, y, quo, 1);
}

VCL_FN double vcl_remainder(double x, double y)
{
	int q;

	return vcl_remquo_core(x, y, &q, 1);
}

VCL_FN float vcl_fmodf(float x, float y)
{
	return (float)vcl_fmod(x, y);
}

VCL_FN float vcl_remquof(float x, float y, int *quo)
{
	return (float)vcl_remquo(x, y, quo);
}

VCL_FN float vcl_remainderf(float x, float y)
{
	return (float)vcl_remainder(x, y);
}

/* ilogb: the exponent of x as an int; FP_ILOGB0 for 0, FP_ILOGBNAN for NaN. */
VCL_FN int vcl_ilogb(double x)
{
	int e;

	if (x != x)
		return VCL_INT_MAX;
	if (x == 0.0)
		return VCL_INT_MIN;
	if (x == 1.0 / 0.0 || x == -1.0 / 0.0)
		return VCL_INT_MAX;
	vcl_split(x, &e);
	return e + 52;
}

VCL_FN int vcl_ilogbf(float x)
{
	return vcl_ilogb(x);
}

/* logb: the exponent of x as a floating value; -inf for 0. */
VCL_FN double vcl_logb(double x)
{
	if (x != x)
		return x + x;
	if (x == 0.0)
		return -1.0 / 0.0;
	if (x == 1.0 / 0.0 || x == -1.0 / 0.0)
		return 1.0 / 0.0;
	return (double)vcl_ilogb(x);
}

VCL_FN float vcl_logbf(float x)
{
	return (float)vcl_logb(x);
}

/* frexp: x = m * 2^*e with 0.5 <= |m| < 1; 0, inf and NaN are their own m, *e 0. */
VCL_FN double vcl_frexp(double x, int *e)
{
	int k;

	*e = 0;
	if (x != x || x == 0.0 || x == 1.0 / 0.0 || x == -1.0 / 0.0)
		return x;
	vcl_split(x, &k);
	*e = k + 53;
	return vcl_ldexp(x, -*e);
}

VCL_FN float vcl_frexpf(float x, int *e)
{
	return (float)vcl_frexp(x, e);
}

#endif /* VACCEL_CL_MATH_EXACT_H */
