/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/trig_double.h - the cores of sin, cos, tan, sincos, sinpi, cospi
 * and tanpi for double.
 *
 * - Reduction: x = k pi/2 + r with |r| <= pi/4 (a little more past 2^19),
 *   r as a double-double hi + lo, and the quadrant k mod 4.  Below 2^19,
 *   Cody and Waite's: pi/2 in four parts (tables.h), three heads of 33
 *   bits whose products with k are exact, subtracted with their exact
 *   errors (two-sums), and a tail; 152 bits of pi/2 in all.  From 2^19,
 *   Payne and Hanek's: the mantissa times a window of 256 bits of 2/pi
 *   in integer arithmetic.  Both keep r to more than a double's precision
 *   for the doubles closest to a multiple of pi/2.
 * - sin(hi + lo) = hi - hi^3 S(hi^2) + lo (1 - hi^2 / 2), S the Taylor
 *   series of math/trig.h; the large term, hi, is added last.
 * - cos(hi + lo) = 1 - z/2 - z^2 C(z) - hi lo, z = hi^2 exactly (hi^2
 *   and its error from an fma): 1 - z/2 with its exact error (a fast
 *   two-sum), which joins the small terms.
 * - tan is their quotient; sinpi, cospi and tanpi reduce x exactly, as
 *   the float forms do (math/trig.h), and take pi r as a double-double.
 * - A zero keeps its sign where the function is odd.
 *
 * sin, cos, sinpi and cospi are within 1 ULP (the bound is 4), tan and
 * tanpi within 3 (5 and 6); tests/host/math_double.c measures how far.
 */
#ifndef VACCEL_CL_MATH_TRIG_DOUBLE_H
#define VACCEL_CL_MATH_TRIG_DOUBLE_H

#include "device/math/trig.h"

/* The window of 2/pi, in 32-bit words, and the product's limbs. */
#define VCL_PH_WORDS	8
#define VCL_PH_LIMBS	(VCL_PH_WORDS + 4)	/* 2 for the product, 2 read past it */

/*
 * Payne and Hanek's reduction of a finite |x| >= 2^19: *q gets the
 * quadrant, *lo the tail of r = return value + *lo.  |x| = m 2^e; the bits
 * of 2/pi that only add multiples of 4 end at bit e - 2 after the point,
 * and the window of 256 bits from there leaves an error below 2^-170 in
 * the fraction, of which 128 bits are read: the doubles closest to a
 * multiple of pi/2 (2^-61 away) keep 67.
 */
VCL_FN double vcl_reduce_large(double x, int *q, double *lo)
{
	vcl_u64 u = vcl_as_u64(x), m = (u & 0x000fffffffffffffUL) | 0x0010000000000000UL;
	vcl_u64 limb[VCL_PH_LIMBS], m0 = m & 0xffffffffUL, m1 = m >> 32, carry = 0;
	vcl_u64 hi, mid, low, h;
	int e = (int)((u >> 52) & 0x7ff) - 1075;	/* |x| = m 2^e */
	int w0 = e - 2 >= 0 ? (e - 2) / 32 : 0, point, i, neg, lz;
	double a, b, rh, rl;

	/* limb[] = m * window, the window's last word in limb[0]; zero above. */
	for (i = 0; i < VCL_PH_LIMBS; i++)
		limb[i] = 0;
	for (i = 0; i < VCL_PH_WORDS; i++) {
		vcl_u64 w = vcl_two_over_pi[w0 + VCL_PH_WORDS - 1 - i];
		vcl_u64 p0 = w * m0, p1 = w * m1;

		/* Add p0 at limb i and p1 at limb i + 1, 32 bits at a time. */
		carry = limb[i] + (p0 & 0xffffffffUL);
		limb[i] = carry & 0xffffffffUL;
		carry = (carry >> 32) + limb[i + 1] + (p0 >> 32) + (p1 & 0xffffffffUL);
		limb[i + 1] = carry & 0xffffffffUL;
		carry = (carry >> 32) + limb[i + 2] + (p1 >> 32);
		limb[i + 2] = carry & 0xffffffffUL;
	}
	/* The value is limb[] * 2^(e - 32 (w0 + WORDS)): the point's bit. */
	point = 32 * (w0 + VCL_PH_WORDS) - e;
	/* The two bits above the point, and 128 below it. */
#define VCL_BITS64(b) \
	(((b) % 32) ? ((limb[(b) / 32] | limb[(b) / 32 + 1] << 32) >> ((b) % 32)) | \
		      (limb[(b) / 32 + 2] << (64 - (b) % 32)) : \
		      (limb[(b) / 32] | limb[(b) / 32 + 1] << 32))
	*q = (int)(VCL_BITS64(point) & 3);
	hi = VCL_BITS64(point - 64);
	low = VCL_BITS64(point - 128);
#undef VCL_BITS64
	/* A fraction of 1/2 or more is the next quadrant less the rest. */
	neg = (hi >> 63) != 0;
	if (neg) {
		*q = (*q + 1) & 3;
		low = ~low + 1;
		hi = ~hi + (low == 0);
	}
	/* |fraction| = (hi 2^64 + low) 2^-128: normalise, then two doubles. */
	lz = 0;
	if (!hi) {
		hi = low;
		low = 0;
		lz = 64;
	}
	i = vcl_clz64(hi) & 63;
	if (i) {
		hi = hi << i | low >> (64 - i);
		low <<= i;
		lz += i;
	}
	h = hi >> 11;
	mid = ((hi & 0x7ff) << 42) | (low >> 22);
	a = (double)h * vcl_pow2(-53 - lz);
	b = (double)mid * vcl_pow2(-106 - lz);
	/* r = (a + b) pi/2 as a double-double. */
	rh = a * VCL_PIO2_HI;
	rl = fma(a, VCL_PIO2_HI, -rh) + (a * VCL_PIO2_LO + b * VCL_PIO2_HI);
	if (neg) {
		rh = -rh;
		rl = -rl;
	}
	if (x < 0) {
		rh = -rh;
		rl = -rl;
		*q = (4 - *q) & 3;
	}
	*lo = rl;
	return rh;
}

/*
 * Cody and Waite's reduction of |x| < 2^19: k < 2^19, so that k times
 * each 33-bit head is exact, and so is x - k head1.
 */
VCL_FN double vcl_reduce_medium(double x, int *q, double *lo)
{
	double k = vcl_rint_small(x * VCL_TWO_OVER_PI), t, e1, e2, tail;

	*q = (int)k & 3;
	t = x - k * VCL_PIO2_1;
	t = vcl_two_sum(t, -k * VCL_PIO2_2, &e1);
	t = vcl_two_sum(t, -k * VCL_PIO2_3, &e2);
	tail = (e1 + e2) - k * VCL_PIO2_4;
	return vcl_two_sum(t, tail, lo);
}

/* r = return value + *lo and the quadrant *q of a finite x. */
VCL_FN double vcl_reduce_pio2(double x, int *q, double *lo)
{
	if (fabs(x) <= 0x1.921fb54442d18p-1) {	/* pi/4: its own r */
		*q = 0;
		*lo = 0.0;
		return x;
	}
	if (fabs(x) < 0x1p19)
		return vcl_reduce_medium(x, q, lo);
	return vcl_reduce_large(x, q, lo);
}

/* sin(hi + lo) for |hi + lo| <= pi/4 (a little more), lo tiny. */
VCL_FN double vcl_sin_hl(double hi, double lo)
{
	double z = hi * hi;
	double s = hi * z * vcl_poly(VCL_COEFFS(vcl_sin_c), 8, z);

	return hi + ((lo - 0.5 * z * lo) - s);
}

/* cos(hi + lo) for |hi + lo| <= pi/4 (a little more), lo tiny. */
VCL_FN double vcl_cos_hl(double hi, double lo)
{
	double z = hi * hi, zl = fma(hi, hi, -z), hz = 0.5 * z, w = 1.0 - hz;
	double c = z * (z * vcl_poly(VCL_COEFFS(vcl_cos_c), 8, z));

	return w + (((1.0 - w) - hz) - ((0.5 * zl + c) + hi * lo));
}

/* sin(x) and cos(x) of a finite double. */
VCL_FN void vcl_sincos_dd(double x, double *s, double *c)
{
	double lo, hi, sr, cr;
	int q;

	hi = vcl_reduce_pio2(x, &q, &lo);
	sr = vcl_sin_hl(hi, lo);
	cr = vcl_cos_hl(hi, lo);
	switch (q) {
	case 0:
		*s = sr;
		*c = cr;
		break;
	case 1:
		*s = cr;
		*c = -sr;
		break;
	case 2:
		*s = -sr;
		*c = -cr;
		break;
	default:
		*s = -cr;
		*c = sr;
		break;
	}
}

VCL_FN double vcl_sin(double x)
{
	double lo, hi;
	int q;

	if (x - x != 0.0 || x == 0.0)	/* infinity or NaN: NaN; a zero as it is */
		return x - x != 0.0 ? x - x : x;
	hi = vcl_reduce_pio2(x, &q, &lo);
	hi = q & 1 ? vcl_cos_hl(hi, lo) : vcl_sin_hl(hi, lo);
	return q & 2 ? -hi : hi;
}

VCL_FN double vcl_cos(double x)
{
	double lo, hi;
	int q;

	if (x - x != 0.0)
		return x - x;
	hi = vcl_reduce_pio2(x, &q, &lo);
	hi = q & 1 ? vcl_sin_hl(hi, lo) : vcl_cos_hl(hi, lo);
	return (q + 1) & 2 ? -hi : hi;
}

VCL_FN double vcl_tan(double x)
{
	double s, c;

	if (x - x != 0.0 || x == 0.0)
		return x - x != 0.0 ? x - x : x;
	vcl_sincos_dd(x, &s, &c);
	return s / c;
}

VCL_FN double vcl_sincos(double x, double *cosval)
{
	double s, c;

	if (x - x != 0.0) {
		*cosval = x - x;
		return x - x;
	}
	if (x == 0.0) {
		*cosval = 1.0;
		return x;
	}
	vcl_sincos_dd(x, &s, &c);
	*cosval = c;
	return s;
}

/*
 * sinpi, cospi and tanpi: x = 2k + r, r in [-1, 1], exactly (a double of
 * 2^53 or more is an even integer), then folded to [-1/2, 1/2] as the
 * float forms are; pi t is a double-double.
 */
#define VCL_PI_HI	(2.0 * VCL_PIO2_HI)
#define VCL_PI_LO	(2.0 * VCL_PIO2_LO)

/* pi t as hi + *lo. */
VCL_FN double vcl_pi_times(double t, double *lo)
{
	double hi = t * VCL_PI_HI;

	*lo = fma(t, VCL_PI_HI, -hi) + t * VCL_PI_LO;
	return hi;
}

/* sin(pi t) for |t| <= 1/2. */
VCL_FN double vcl_sinpi_dd(double t)
{
	double a = fabs(t), hi, lo, r;

	if (a <= 0.25) {
		hi = vcl_pi_times(t, &lo);
		return vcl_sin_hl(hi, lo);
	}
	hi = vcl_pi_times(0.5 - a, &lo);
	r = vcl_cos_hl(hi, lo);
	return t < 0 ? -r : r;
}

/* cos(pi t) for |t| <= 1/2, >= 0. */
VCL_FN double vcl_cospi_dd(double t)
{
	double a = fabs(t), hi, lo;

	if (a <= 0.25) {
		hi = vcl_pi_times(a, &lo);
		return vcl_cos_hl(hi, lo);
	}
	hi = vcl_pi_times(0.5 - a, &lo);
	return vcl_sin_hl(hi, lo);
}

/* x = 2k + r with r in [-1, 1]: r, exactly. */
VCL_FN double vcl_reduce_2d(double x)
{
	if (fabs(x) >= 0x1p53)
		return 0.0;
	return x - 2.0 * rint(x * 0.5);
}

VCL_FN double vcl_sinpi(double x)
{
	double r;

	if (x - x != 0.0)
		return x - x;
	r = vcl_reduce_2d(x);
	if (r > 0.5)
		r = 1.0 - r;
	else if (r < -0.5)
		r = -1.0 - r;
	if (r == 0.0)
		return __builtin_signbit(x) ? -0.0 : 0.0;
	return vcl_sinpi_dd(r);
}

VCL_FN double vcl_cospi(double x)
{
	double r, c;
	int neg = 0;

	if (x - x != 0.0)
		return x - x;
	r = vcl_reduce_2d(x);
	if (r > 0.5) {
		r = 1.0 - r;
		neg = 1;
	} else if (r < -0.5) {
		r = -1.0 - r;
		neg = 1;
	}
	c = vcl_cospi_dd(r);
	if (c == 0.0)
		return 0.0;
	return neg ? -c : c;
}

VCL_FN double vcl_tanpi(double x)
{
	double r;
	int neg;

	if (x - x != 0.0)
		return x - x;
	r = vcl_reduce_2d(x);		/* tan has period 1: fold [-1, 1] */
	if (r > 0.5)
		r -= 1.0;
	else if (r < -0.5)
		r += 1.0;
	if (r == 0.0) {
		/* x = n: +-0, x's sign for an even n, the other for an odd one. */
		neg = __builtin_signbit(x) != 0;
		if (vcl_reduce_2d(x) != 0.0)
			neg = !neg;
		return neg ? -0.0 : 0.0;
	}
	if (r == 0.5 || r == -0.5)	/* n + 1/2: +inf for an even n */
		return vcl_reduce_2d(x + 0.5) != 0.0 ? INFINITY : -INFINITY;
	return vcl_sinpi_dd(r) / vcl_cospi_dd(r);
}

#endif /* VACCEL_CL_MATH_TRIG_DOUBLE_H */
