/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/pow.h - the cores of pow, pown, powr and rootn, atan2 and atan2pi,
 * and hypot, for float.
 *
 * Each is computed in double and rounded once to float.
 *
 * - x^y = 2^(y log2 |x|): log2 |x| in double (math/log.h's split and
 *   series, a few 2^-53 relative), the product with y in double, then
 *   2^t as exp2 does it (math/exp.h).  A result that a float can hold
 *   has |t| < 150, so t carries an absolute error near 2^-45, and the
 *   result a relative one as small: far inside every bound, and
 *   correctly rounded but for inputs that close to a halfway point.
 * - An integer y from 1 to 64 is computed by squaring in double-double
 *   instead, and rounded once from it: such a power can be exactly
 *   halfway between two floats (x^2 of a float of 13 bits is), where the
 *   route through logarithms cannot tell which way to go.  Other exact
 *   halfway cases (x^1.5 of the square of a 9-bit integer) are not
 *   detected: there the result may be the other neighbour, 0.5 ULP away.
 * - The special cases are C99's (Annex F) for pow and pown, and the
 *   specification's own for powr (x < 0 is NaN, and 0^0, inf^0 and 1^inf
 *   are NaN) and rootn (n = 0 is NaN; a negative x has a root only for an
 *   odd n).
 * - atan2(y, x) = atan(|y| / |x|), from pi when x is negative, with y's
 *   sign; the quotient of two floats never overflows a double.  Zeros and
 *   infinities on both sides take their angles from the table of C99.
 * - hypot: the squares of two floats are exact in double, their sum is
 *   rounded once and so is its square root.
 */
#ifndef VACCEL_CL_MATH_POW_H
#define VACCEL_CL_MATH_POW_H

#include "device/math/atan.h"
#include "device/math/exp.h"
#include "device/math/log.h"

/* log2 of a positive, finite float, in double (normal there). */
VCL_FN double vcl_log2_d(double d)
{
	double m;
	int e;

	m = vcl_log_split(d, &e);
	return (double)e + vcl_log_m(m) * VCL_LOG_INV_LN2;
}

/* 2^t, rounded once to float (0 and infinity past the ends). */
VCL_FN float vcl_exp2_t(double t)
{
	double k;

	if (fabs(t) > 200.0)
		return t > 0.0 ? INFINITY : 0.0f;
	k = vcl_rint_small(t);
	return vcl_exp_scale((t - k) * VCL_LN2, k);
}

/* x^n for 1 <= n <= 64 as a double-double hi + *lo, by squaring: exact
 * where the result has at most 106 bits, else within 2^-100. */
VCL_FN double vcl_pow_int_dd(double x, int n, double *lo)
{
	double rh = 1.0, rl = 0.0, bh = x, bl = 0.0, p, e;

	for (;;) {
		if (n & 1) {
			p = rh * bh;
			e = fma(rh, bh, -p) + (rh * bl + rl * bh);
			rh = p + e;
			rl = e - (rh - p);
		}
		n >>= 1;
		if (!n)
			break;
		p = bh * bh;
		e = fma(bh, bh, -p) + 2.0 * bh * bl;
		bh = p + e;
		bl = e - (bh - p);
	}
	*lo = rl;
	return rh;
}

/*
 * h + l rounded once to float.  (float)h is that but where h is halfway
 * between two floats and l breaks the tie: then h - (float)h is half the
 * gap, and the float across it is exact in double.
 */
VCL_FN float vcl_round_dd(double h, double l)
{
	float f = (float)h;
	double d = f, g;

	if (l == 0.0 || d == h || f - f != 0.0f)
		return f;
	g = d + 2.0 * (h - d);
	if ((double)(float)g != g)
		return f;			/* not halfway */
	return (l > 0.0) == (g > d) ? (float)g : f;
}

/* Whether a double holds an odd integer. */
VCL_FN int vcl_is_odd(double y)
{
	double h = y * 0.5;

	return y == rint(y) && h != rint(h);
}

/*
 * x^y with y a double (an int of pown converts exactly): C99's pow.
 */
VCL_FN float vcl_pow_d(float x, double y)
{
	double ax = fabs((double)x), ay = fabs(y);
	int odd, neg, small_int = y >= 1.0 && y <= 64.0 && y == rint(y);
	float r;

	/*
	 * The common case first: x > 0 finite and not 1; y finite, not 0
	 * and not an integer power.
	 */
	if (x > 0.0f && x < INFINITY && x != 1.0f && ay < INFINITY && y != 0.0 && !small_int)
		return vcl_exp2_t(y * vcl_log2_d(ax));
	if (y == 0.0 || x == 1.0f)
		return 1.0f;
	if (x != x || y != y)
		return x + (float)y;
	odd = vcl_is_odd(y);
	if (ay == INFINITY) {
		if (ax == 1.0)
			return 1.0f;
		return (ax < 1.0) == (y < 0) ? INFINITY : 0.0f;
	}
	if (x == 0.0f) {
		r = y < 0 ? INFINITY : 0.0f;
		return odd ? __builtin_copysignf(r, x) : r;
	}
	if (ax == INFINITY) {
		r = y < 0 ? 0.0f : INFINITY;
		return odd && x < 0.0f ? -r : r;
	}
	neg = 0;
	if (x < 0.0f) {
		if (y != rint(y))
			return NAN;
		neg = odd;
	}
	if (small_int) {
		/* Exact powers can be halfway between floats: compute them. */
		double lo, hi = vcl_pow_int_dd(ax, (int)y, &lo);

		/* Past a double's range the squares give inf or NaN: inf. */
		r = hi - hi == 0.0 ? vcl_round_dd(hi, lo) : INFINITY;
	} else {
		r = vcl_exp2_t(y * vcl_log2_d(ax));
	}
	return neg ? -r : r;
}

VCL_FN float vcl_powf(float x, float y)
{
	return vcl_pow_d(x, y);
}

VCL_FN float vcl_pownf(float x, int n)
{
	return vcl_pow_d(x, (double)n);
}

/* x^y for x >= 0 only: the specification's powr. */
VCL_FN float vcl_powrf(float x, float y)
{
	if (x != x || y != y || x < 0.0f)
		return NAN;
	if (y == 0.0f)		/* 0^0 and inf^0 have no value; x^0 = 1 */
		return x == 0.0f || x == INFINITY ? NAN : 1.0f;
	if (x == 1.0f)		/* 1^inf has none either */
		return y - y == 0.0f ? 1.0f : NAN;
	if (x == 0.0f)
		return y < 0.0f ? INFINITY : 0.0f;
	return vcl_pow_d(x, y);
}

/* The n-th root of x: x^(1/n), of a negative x for an odd n only. */
VCL_FN float vcl_rootnf(float x, int n)
{
	double ax = x < 0.0f ? -(double)x : (double)x;
	int odd = n & 1;
	float r;

	if (n == 0 || x != x)
		return NAN;
	if (x < 0.0f && !odd)
		return NAN;
	if (x == 0.0f) {
		r = n < 0 ? INFINITY : 0.0f;
		return odd ? __builtin_copysignf(r, x) : r;
	}
	if (ax == INFINITY)
		r = n < 0 ? 0.0f : INFINITY;
	else
		r = vcl_exp2_t(vcl_log2_d(ax) / (double)n);
	return x < 0.0f ? -r : r;
}

/* atan2(y, x) in double, for floats that are not NaN. */
VCL_FN double vcl_atan2_d(float y, float x)
{
	double ay = __builtin_fabs((double)y), ax = __builtin_fabs((double)x), t;
	int xneg = __builtin_signbit(x) != 0;

	if (ay == 0.0 && ax == 0.0)
		t = xneg ? 2.0 * VCL_PIO2_HI : 0.0;
	else if (ay == INFINITY && ax == INFINITY)
		t = xneg ? 1.5 * VCL_PIO2_HI : 0.5 * VCL_PIO2_HI;
	else {
		t = vcl_atan_pos(ay / ax);		/* 0 and inf included */
		if (xneg)
			t = 2.0 * VCL_PIO2_HI - t;
	}
	return __builtin_signbit(y) ? -t : t;
}

VCL_FN float vcl_atan2f(float y, float x)
{
	if (x != x || y != y)
		return x + y;
	return (float)vcl_atan2_d(y, x);
}

VCL_FN float vcl_atan2pif(float y, float x)
{
	if (x != x || y != y)
		return x + y;
	return (float)(vcl_atan2_d(y, x) * VCL_INV_PI);
}

VCL_FN float vcl_hypotf(float x, float y)
{
	double dx = x, dy = y;

	if (x == INFINITY || x == -INFINITY || y == INFINITY || y == -INFINITY)
		return INFINITY;
	if (x != x || y != y)
		return x + y;
	return (float)sqrt(dx * dx + dy * dy);
}

#endif /* VACCEL_CL_MATH_POW_H */
