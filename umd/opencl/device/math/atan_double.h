/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/atan_double.h - the cores of atan, asin and acos for double, and
 * their forms divided by pi (atanpi, asinpi, acospi).
 *
 * - atan(a), a = |x|: below 7/16 the odd series itself; up to 39/16,
 *   atan(c) + atan(t) with t = (a - c) / (1 + a c) for c = 1/2, 1 or 3/2,
 *   where a - c is exact and atan(c) a double-double (tables.h); beyond,
 *   pi/2 + atan(-1/a).  |t| <= 0.41, where the odd series to t^45 (the
 *   first term left out is below 2^-58 of the sum) finishes, and t, the
 *   large term, is added last.
 * - asin(a) below 1/2 is its own series, a + a^3 A(a^2) with A's
 *   coefficients C(2n, n) / (4^n (2n + 1)) to a^57; above, pi/2 - 2
 *   asin(s) with s = sqrt((1 - a) / 2) (1 - a exact), s as a head of 21
 *   bits, whose double is exact, and the rest (w - head^2) / (s + head).
 * - acos(x) = pi/2 - asin(x) below 1/2 in magnitude, 2 asin(s) above,
 *   pi - 2 asin(s) (s from 1 + x) below -1/2.
 * - The pi forms multiply by 1/pi: atanpi atan's unrounded parts by
 *   1/pi as a double-double (one rounding), asinpi and acospi the
 *   rounded result; atan keeps the sign of a zero, and so does asin.
 *
 * atan, asin, acos and atanpi are within 1 ULP (the bounds are 5, 4 and
 * 5), asinpi and acospi within 2 (5); tests/host/math_double.c measures
 * how far.
 */
#ifndef VACCEL_CL_MATH_ATAN_DOUBLE_H
#define VACCEL_CL_MATH_ATAN_DOUBLE_H

#include "device/math/atan.h"

#define VCL_INV_PI_LO		-0x1.6b01ec5417056p-56	/* 1/pi - VCL_INV_PI */

/* The odd series of atan: (t - atan t) / t^3 in t^2, highest first. */
VCL_TABLE double vcl_atan_dc[22] = {
	-1.0 / 45.0, 1.0 / 43.0, -1.0 / 41.0, 1.0 / 39.0, -1.0 / 37.0,
	1.0 / 35.0, -1.0 / 33.0, 1.0 / 31.0, -1.0 / 29.0, 1.0 / 27.0,
	-1.0 / 25.0, 1.0 / 23.0, -1.0 / 21.0, 1.0 / 19.0, -1.0 / 17.0,
	1.0 / 15.0, -1.0 / 13.0, 1.0 / 11.0, -1.0 / 9.0, 1.0 / 7.0,
	-1.0 / 5.0, 1.0 / 3.0,
};

/*
 * atan(a) for a finite a >= 0 as its parts: *c (atan(c), the head of a
 * double-double, or 0), *rest (its tail less the series' higher terms)
 * and the returned t, so that atan(a) = *c + (*rest + t).
 */
VCL_FN double vcl_atan_parts(double a, double *c, double *rest)
{
	double t, z, hi = 0.0, lo = 0.0, p;

	if (a >= 0x1p66) {		/* atan(1/a) is below pi/2's last bit */
		*c = VCL_PIO2_HI;
		*rest = VCL_PIO2_LO - 1.0 / a;
		return 0.0;
	}
	if (a < 0.4375) {
		t = a;
	} else if (a < 0.6875) {	/* c = 1/2 */
		t = (2.0 * a - 1.0) / (2.0 + a);
		hi = VCL_ATAN_HALF_HI;
		lo = VCL_ATAN_HALF_LO;
	} else if (a < 1.1875) {	/* c = 1 */
		t = (a - 1.0) / (a + 1.0);
		hi = 0.5 * VCL_PIO2_HI;
		lo = 0.5 * VCL_PIO2_LO;
	} else if (a < 2.4375) {	/* c = 3/2 */
		t = (a - 1.5) / fma(1.5, a, 1.0);
		hi = VCL_ATAN_3HALF_HI;
		lo = VCL_ATAN_3HALF_LO;
	} else {			/* pi/2 + atan(-1/a) */
		t = -1.0 / a;
		hi = VCL_PIO2_HI;
		lo = VCL_PIO2_LO;
	}
	z = t * t;
	p = t * z * vcl_poly(VCL_COEFFS(vcl_atan_dc), 22, z);
	*c = hi;
	*rest = lo - p;
	return t;
}

/* atan(a) for a finite a >= 0. */
VCL_FN double vcl_atan_pos_dd(double a)
{
	double c, rest, t = vcl_atan_parts(a, &c, &rest);

	return c + (rest + t);
}

VCL_FN double vcl_atan(double x)
{
	double a = fabs(x), r;

	if (x != x || a < 0x1p-27)	/* NaN, zeros and x itself */
		return x;
	r = vcl_atan_pos_dd(a);
	return x < 0.0 ? -r : r;
}

/* x / pi, x as one double. */
VCL_FN double vcl_div_pi(double x)
{
	return x * VCL_INV_PI;
}

/* (hi + lo) / pi: hi times 1/pi with its fma error, lo's share; one rounding. */
VCL_FN double vcl_div_pi_dd(double hi, double lo)
{
	double p = hi * VCL_INV_PI;

	return p + (fma(hi, VCL_INV_PI, -p) + (lo * VCL_INV_PI + hi * VCL_INV_PI_LO));
}

VCL_FN double vcl_atanpi(double x)
{
	double c, rest, t, e;

	if (x != x || x == 0.0)
		return x;
	if (fabs(x) < 0x1p-27)
		return vcl_div_pi_dd(x, 0.0);
	t = vcl_atan_parts(fabs(x), &c, &rest);
	t = vcl_two_sum(c, t, &e);
	t = vcl_div_pi_dd(t, e + rest);
	return x < 0.0 ? -t : t;
}

/* The series of asin: (asin s - s) / s^3 in s^2, highest first. */
VCL_TABLE double vcl_asin_c[28] = {
	7648690600760440.0 / 57.0 * 0x1p-56, 1946939425648112.0 / 55.0 * 0x1p-54,
	495918532948104.0 / 53.0 * 0x1p-52, 126410606437752.0 / 51.0 * 0x1p-50,
	32247603683100.0 / 49.0 * 0x1p-48, 8233430727600.0 / 47.0 * 0x1p-46,
	2104098963720.0 / 45.0 * 0x1p-44, 538257874440.0 / 43.0 * 0x1p-42,
	137846528820.0 / 41.0 * 0x1p-40, 35345263800.0 / 39.0 * 0x1p-38,
	9075135300.0 / 37.0 * 0x1p-36, 2333606220.0 / 35.0 * 0x1p-34,
	601080390.0 / 33.0 * 0x1p-32, 155117520.0 / 31.0 * 0x1p-30,
	40116600.0 / 29.0 * 0x1p-28, 10400600.0 / 27.0 * 0x1p-26,
	2704156.0 / 25.0 * 0x1p-24, 705432.0 / 23.0 * 0x1p-22,
	184756.0 / 21.0 * 0x1p-20, 48620.0 / 19.0 * 0x1p-18,
	12870.0 / 17.0 * 0x1p-16, 3432.0 / 15.0 * 0x1p-14,
	924.0 / 13.0 * 0x1p-12, 252.0 / 11.0 * 0x1p-10,
	70.0 / 9.0 * 0x1p-8, 20.0 / 7.0 * 0x1p-6,
	6.0 / 5.0 * 0x1p-4, 2.0 / 3.0 * 0x1p-2,
};

/* asin(s) - s for |s| <= 1/2. */
VCL_FN double vcl_asin_tail(double s)
{
	double z = s * s;

	return s * z * vcl_poly(VCL_COEFFS(vcl_asin_c), 28, z);
}

/*
 * For a in (1/2, 1]: s = sqrt((1 - a) / 2) as a head of 21 bits and the
 * rest *c, and asin(s) - s in *tail.
 */
VCL_FN double vcl_asin_half(double a, double *c, double *tail)
{
	double w = (1.0 - a) * 0.5, s = sqrt(w);
	double head = vcl_as_double(vcl_as_u64(s) & 0xffffffff00000000UL);

	*c = s == 0.0 ? 0.0 : (w - head * head) / (s + head);
	*tail = vcl_asin_tail(s);
	return head;
}

/* NaN, and |x| > 1, which has no arc. */
#define VCL_ARC_DOMAIN_D(x)						\
	do {								\
		if ((x) != (x))						\
			return (x);					\
		if ((x) > 1.0 || (x) < -1.0)				\
			return NAN;					\
	} while (0)

VCL_FN double vcl_asin(double x)
{
	double a = fabs(x), head, c, tail, r;

	VCL_ARC_DOMAIN_D(x);
	if (a < 0x1p-27)
		return x;
	if (a <= 0.5) {
		r = a + vcl_asin_tail(a);
	} else {
		/* pi/2 - 2 head - 2 (c + tail), as pi/4 - (p - (pi/4 - 2 head)) */
		head = vcl_asin_half(a, &c, &tail);
		r = 0.5 * VCL_PIO2_HI - ((2.0 * (c + tail) - VCL_PIO2_LO) -
					 (0.5 * VCL_PIO2_HI - 2.0 * head));
	}
	return x < 0.0 ? -r : r;
}

VCL_FN double vcl_acos(double x)
{
	double head, c, tail;

	VCL_ARC_DOMAIN_D(x);
	if (fabs(x) <= 0.5)		/* pi/2 - asin(x) */
		return VCL_PIO2_HI - (x - (VCL_PIO2_LO - vcl_asin_tail(x)));
	if (x > 0.0) {			/* 2 asin(s) */
		head = vcl_asin_half(x, &c, &tail);
		return 2.0 * head + 2.0 * (c + tail);
	}
	head = vcl_asin_half(-x, &c, &tail);	/* pi - 2 asin(s) */
	return 2.0 * VCL_PIO2_HI - (2.0 * head - (2.0 * VCL_PIO2_LO - 2.0 * (c + tail)));
}

VCL_FN double vcl_asinpi(double x)
{
	if (x == 0.0)
		return x;
	return vcl_div_pi(vcl_asin(x));
}

VCL_FN double vcl_acospi(double x)
{
	return vcl_div_pi(vcl_acos(x));
}

#endif /* VACCEL_CL_MATH_ATAN_DOUBLE_H */
