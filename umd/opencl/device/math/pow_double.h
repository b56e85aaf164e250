/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/pow_double.h - the cores of pow, pown, powr and rootn, atan2 and
 * atan2pi, and hypot, for double.
 *
 * - x^y = e^(y ln|x|), with ln|x| as a double-double L = hi + lo.  A
 *   finite result has |y L| < 746, so L needs some 2^-62 relative for
 *   the result to be within an ULP:
 *   - x = 2^e (1 + f) as for log (math/log_double.h), s = f / (2 + f)
 *     with its error sl (2 + f, s times it and the quotient's remainder
 *     are exact with an fma), and ln(1 + f) = 2s + 2s^3 / 3 + s^5 S(s^2).
 *   - 2s^3 / 3 is a double-double too (s^2 and s^3 with their errors,
 *     2/3 as head and tail); the rest, below 2^-12 of the whole, is one
 *     double; sl enters as 2 sl (1 + s^2).
 *   - e ln2_head, 2s and 2s^3 / 3 are summed with their exact errors,
 *     which join the small terms.
 * - y L is hi y with its fma error, plus lo y; e^(p + pl) takes k =
 *   rint(p / ln2), the exact p - k ln2_head and the small rest into the
 *   reduction of exp (math/exp_double.h), one rounding, then 2^k.
 * - rootn takes L / n as a double-double (the quotient's remainder from
 *   an fma); pown is pow of an exact double.
 * - The special cases are C99's (Annex F) for pow and pown, and the
 *   specification's for powr and rootn, as for float (math/pow.h).
 * - atan2(y, x) = atan(q) + ql / (1 + q^2) for q + ql = |y| / |x| (the
 *   remainder from an fma), atan(q) as a double-double from atan's
 *   parts (math/atan_double.h), from pi as a double-double when x is
 *   negative, with y's sign; one rounding.  Zeros and infinities on
 *   both sides take their angles, in quarters of pi, from C99's table,
 *   so that atan2pi gives them exactly.
 * - hypot scales both by a power of two when the larger is beyond
 *   2^±500, so that its square neither overflows nor underflows, sums
 *   the exact squares as a double-double, and takes the root with a
 *   Newton step on the exact rest.
 *
 * pow, powr, pown and rootn are within 1 ULP (the bound is 16), atan2
 * and atan2pi within 1 (6), hypot within 1 (4); tests/host/math_double.c
 * measures how far.
 */
#ifndef VACCEL_CL_MATH_POW_DOUBLE_H
#define VACCEL_CL_MATH_POW_DOUBLE_H

#include "device/math/atan_double.h"
#include "device/math/exp_double.h"
#include "device/math/log_double.h"
#include "device/math/pow.h"

#define VCL_TWO_THIRDS_HI	0x1.5555555555555p-1
#define VCL_TWO_THIRDS_LO	0x1.5555555555555p-55	/* 2/3 - the head */

/* S: the coefficients 2 / (2n + 1) of ln(1 + f) in s^(2n+1), n = 12 down to 2. */
#define VCL_LOG_S_N	11

/* ln x as hi + *lo for a positive, finite x: some 2^-62 relative. */
VCL_FN double vcl_log_dd(double x, double *lo)
{
	double f, u, ul, s, sl, z, zl, s3, s3l, t3, t3l, r5, k, a, ae, b, be, rest;
	int e;

	f = vcl_log_f(x, &e);
	u = 2.0 + f;				/* |f| < 1/2: two-sum is fast */
	ul = f - (u - 2.0);
	s = f / u;
	sl = (fma(-s, u, f) - s * ul) / u;	/* s + sl = f / (2 + f) */
	z = s * s;
	zl = fma(s, s, -z);
	s3 = s * z;
	s3l = fma(s, z, -s3) + s * zl;
	t3 = VCL_TWO_THIRDS_HI * s3;
	t3l = fma(VCL_TWO_THIRDS_HI, s3, -t3) + (VCL_TWO_THIRDS_HI * s3l + VCL_TWO_THIRDS_LO * s3);
	r5 = s3 * z * vcl_poly(VCL_COEFFS(vcl_log_r_c), VCL_LOG_S_N, z);
	k = e;
	a = vcl_two_sum(k * VCL_LN2_HI, 2.0 * s, &ae);
	b = vcl_two_sum(a, t3, &be);
	rest = ae + be + (t3l + (k * VCL_LN2_LO + (2.0 * sl / (1.0 - z) + r5)));
	a = b + rest;
	*lo = rest - (a - b);
	return a;
}

/* |x|^y for a positive, finite |x| != 1, y finite and not 0. */
VCL_FN double vcl_pow_pos(double ax, double y)
{
	double l, lo = 0.0, p;

	l = vcl_log_dd(ax, &lo);
	p = y * l;
	return vcl_exp_dd(p, fma(y, l, -p) + y * lo);
}

/* C99's pow. */
VCL_FN double vcl_pow(double x, double y)
{
	double ax = fabs(x), ay = fabs(y), r;
	int odd;

	/* The common case first: x > 0 finite and not 1, y finite and not 0. */
	if (x > 0.0 && x < INFINITY && x != 1.0 && ay < INFINITY && y != 0.0)
		return vcl_pow_pos(ax, y);
	if (y == 0.0 || x == 1.0)
		return 1.0;
	if (x != x || y != y)
		return x + y;
	odd = vcl_is_odd(y);
	if (ay == INFINITY) {
		if (ax == 1.0)
			return 1.0;
		return (ax < 1.0) == (y < 0.0) ? INFINITY : 0.0;
	}
	if (x == 0.0) {
		r = y < 0.0 ? INFINITY : 0.0;
		return odd ? __builtin_copysign(r, x) : r;
	}
	if (ax == INFINITY) {
		r = y < 0.0 ? 0.0 : INFINITY;
		return odd && x < 0.0 ? -r : r;
	}
	if (x < 0.0 && y != rint(y))
		return NAN;
	r = ax == 1.0 ? 1.0 : vcl_pow_pos(ax, y);
	return x < 0.0 && odd ? -r : r;
}

VCL_FN double vcl_pown(double x, int n)
{
	return vcl_pow(x, (double)n);
}

/* x^y for x >= 0 only: the specification's powr. */
VCL_FN double vcl_powr(double x, double y)
{
	if (x != x || y != y || x < 0.0)
		return NAN;
	if (y == 0.0)		/* 0^0 and inf^0 have no value; x^0 = 1 */
		return x == 0.0 || x == INFINITY ? NAN : 1.0;
	if (x == 1.0)		/* 1^inf has none either */
		return y - y == 0.0 ? 1.0 : NAN;
	if (x == 0.0)
		return y < 0.0 ? INFINITY : 0.0;
	return vcl_pow(x, y);
}

/* The n-th root of x: x^(1/n), of a negative x for an odd n only. */
VCL_FN double vcl_rootn(double x, int n)
{
	double ax = fabs(x), dn = n, l, lo = 0.0, p, r;
	int odd = n & 1;

	if (n == 0 || x != x)
		return NAN;
	if (x < 0.0 && !odd)
		return NAN;
	if (x == 0.0) {
		r = n < 0 ? INFINITY : 0.0;
		return odd ? __builtin_copysign(r, x) : r;
	}
	if (ax == INFINITY) {
		r = n < 0 ? 0.0 : INFINITY;
	} else if (ax == 1.0) {
		r = 1.0;
	} else {
		l = vcl_log_dd(ax, &lo);
		p = l / dn;
		r = vcl_exp_dd(p, (fma(-p, dn, l) + lo) / dn);
	}
	return x < 0.0 ? -r : r;
}

/*
 * atan2's angle for zeros and infinities, in quarters of pi from 0 to
 * 4 (y's sign apart); -1 for the others.
 */
VCL_FN int vcl_atan2_quarters(double ay, double ax, int xneg)
{
	if (ay == 0.0 && ax == 0.0)
		return xneg ? 4 : 0;
	if (ay == INFINITY && ax == INFINITY)
		return xneg ? 3 : 1;
	if (ay == INFINITY || ax == 0.0)
		return 2;
	if (ax == INFINITY || ay == 0.0)
		return xneg ? 4 : 0;
	return -1;
}

/* |atan2(y, x)| for finite, non-zero y and x, as hi + *lo. */
VCL_FN double vcl_atan2_dd(double ay, double ax, int xneg, double *lo)
{
	double q = ay / ax, ql, c, rest, t, tl;

	t = vcl_atan_parts(q, &c, &rest);
	t = vcl_two_sum(c, t, &tl);
	tl += rest;
	if (q < 0x1p66 && q - q == 0.0) {
		ql = fma(-q, ax, ay) / ax;	/* q + ql = ay / ax */
		tl += ql / fma(q, q, 1.0);
	}
	if (!xneg) {
		*lo = tl;
		return t;
	}
	t = vcl_two_sum(2.0 * VCL_PIO2_HI, -t, lo);
	*lo += 2.0 * VCL_PIO2_LO - tl;
	return t;
}

/* atan2(y, x), or atan2pi(y, x) for @in_pi. */
VCL_FN double vcl_atan2_units(double y, double x, int in_pi)
{
	double ay = fabs(y), ax = fabs(x), t, lo;
	int xneg = __builtin_signbit(x) != 0, quarters;

	if (x != x || y != y)
		return x + y;
	quarters = vcl_atan2_quarters(ay, ax, xneg);
	if (quarters >= 0) {
		/* In pi: exact; in radians: the nearest doubles. */
		t = quarters * (in_pi ? 0.25 : 0.5 * VCL_PIO2_HI);
	} else {
		t = vcl_atan2_dd(ay, ax, xneg, &lo);
		t = in_pi ? vcl_div_pi_dd(t, lo) : t + lo;
	}
	return __builtin_copysign(t, y);
}

VCL_FN double vcl_atan2(double y, double x)
{
	return vcl_atan2_units(y, x, 0);
}

VCL_FN double vcl_atan2pi(double y, double x)
{
	return vcl_atan2_units(y, x, 1);
}

VCL_FN double vcl_hypot(double x, double y)
{
	double a = fabs(x), b = fabs(y), t, scale = 1.0, h, hl, g, gl, s, sl, r;

	if (a == INFINITY || b == INFINITY)
		return INFINITY;
	if (x != x || y != y)
		return x + y;
	if (a < b) {
		t = a;
		a = b;
		b = t;
	}
	if (b == 0.0)
		return a;
	if (a > 0x1p500) {
		a *= 0x1p-600;
		b *= 0x1p-600;
		scale = 0x1p600;
	} else if (a < 0x1p-500) {
		a *= 0x1p600;
		b *= 0x1p600;
		scale = 0x1p-600;
	}
	/* a^2 + b^2 as s + sl, then its root with a Newton step on the rest. */
	h = a * a;
	hl = fma(a, a, -h);
	g = b * b;
	gl = fma(b, b, -g);
	s = vcl_two_sum(h, g, &sl);
	sl += hl + gl;
	r = sqrt(s);
	r += (fma(-r, r, s) + sl) / (2.0 * r);
	return r * scale;
}

#endif /* VACCEL_CL_MATH_POW_DOUBLE_H */
