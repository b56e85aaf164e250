/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/trig.h - the cores of sin, cos, tan and sincos for float.
 *
 * Each is computed in double and rounded once to float.
 *
 * - Reduction: x = k pi/2 + r with |r| <= pi/4, and the quadrant k mod 4.
 *   Up to |x| < 2^25, Cody and Waite's: pi/2 in three parts (tables.h),
 *   the first two of 28 bits, so that k times each is exact and the first
 *   subtraction is too.  Beyond, Payne and Hanek's: the float's mantissa
 *   times a window of 96 bits of 2/pi (tables.h) in integer arithmetic,
 *   which drops the bits that only add multiples of 4; the quadrant is
 *   read from the two bits above the binary point, and the fraction,
 *   signed in [-1/2, 1/2), times pi/2 is r.  Both give r to a double's
 *   precision, also for the floats closest to a multiple of pi/2.
 * - sin(r) and cos(r) are their Taylor polynomials (to r^17 and r^18; the
 *   first term left out is under 2^-62 of the result) by Horner's rule,
 *   tan(r) their quotient.
 * - |x| <= pi/4 is its own r, so that a zero keeps its sign.
 */
#ifndef VACCEL_CL_MATH_TRIG_H
#define VACCEL_CL_MATH_TRIG_H

#include "device/math/core.h"
#include "device/math/tables.h"

/*
 * Payne and Hanek's reduction for a float |x| >= 2^25: |x| = m 2^s with
 * m < 2^24 and s >= 2.  The bits of 2/pi that only add multiples of 4 end
 * at bit s - 2 after the point; the 96 from bit s - 1 on, W, make
 * 4m W 2^-96 the rest, two bits of quadrant over 96 of fraction, of which
 * the floats closest to a multiple of pi/2 leave more than 60.
 */
VCL_FN double vcl_reduce_largef(float x, int *q)
{
	vcl_u64 u = vcl_as_u64((double)x);
	/* 4m: the window's first bit weighs 2m, so that 4m W has its point at bit 96. */
	vcl_u64 m = ((u & 0x000fffffffffffffUL) | 0x0010000000000000UL) >> 27;
	int p = (int)((u >> 52) & 0x7ff) - 1023 - 23 - 2;	/* bit s - 1 from 0 */
	int wi = p >> 5, sh = p & 31, neg;
	vcl_u64 t0 = vcl_two_over_pi[wi], t1 = vcl_two_over_pi[wi + 1];
	vcl_u64 t2 = vcl_two_over_pi[wi + 2], t3 = vcl_two_over_pi[wi + 3];
	vcl_u64 top = (t0 << 32 | t1) << sh, low, a0, a1, a2, c, hi;
	double r;

	if (sh) {
		top |= t2 >> (32 - sh);
		low = ((t2 << 32 | t3) << sh) >> 32;
	} else {
		low = t2;
	}
	/* 4m W = a2 2^64 + a1 2^32 + a0, each a product under 2^58. */
	a0 = m * low;
	a1 = m * (top & 0xffffffffUL);
	a2 = m * (top >> 32);
	c = (a0 >> 32) + (a1 & 0xffffffffUL);
	low = (a0 & 0xffffffffUL);			/* fraction bits 64..95 */
	hi = c & 0xffffffffUL;				/* bits 32..63 */
	c = (c >> 32) + (a1 >> 32) + (a2 & 0xffffffffUL);
	hi |= (c & 0xffffffffUL) << 32;			/* bits 0..31 */
	c = (c >> 32) + (a2 >> 32);
	*q = (int)(c & 3);
	/* A fraction of 1/2 or more is the next quadrant less the rest. */
	neg = (hi >> 63) != 0;
	if (neg) {
		*q = (*q + 1) & 3;
		low = (0x100000000UL - low) & 0xffffffffUL;
		hi = ~hi + (low == 0);
	}
	r = ((double)hi * 0x1p-64 + (double)low * 0x1p-96) * VCL_PIO2_HI;
	if (neg)
		r = -r;
	if (x < 0) {
		r = -r;
		*q = (4 - *q) & 3;
	}
	return r;
}

/*
 * r and the quadrant of a finite float x.  Up to 2^25, k pi/2 with pi/2
 * in 28-bit parts: k times the first two is exact and so is the first
 * difference; the second is split exactly (Knuth's two-sum) so that the
 * third part lands on its error.
 */
VCL_FN double vcl_reduce_pio2f(float x, int *q)
{
	double k, t, p2, s, b, e;

	if (x <= 0x1.921fb6p-1f && x >= -0x1.921fb6p-1f) {
		*q = 0;
		return x;
	}
	if (!(x < 0x1p25f && x > -0x1p25f))
		return vcl_reduce_largef(x, q);
	k = vcl_rint_small((double)x * VCL_TWO_OVER_PI);
	*q = (int)k & 3;
	t = (double)x - k * VCL_PIO2F_1;
	p2 = k * VCL_PIO2F_2;
	s = t - p2;
	b = s - t;
	e = (t - (s - b)) - (p2 + b);
	return s + (e - k * VCL_PIO2F_3);
}

/* The Taylor coefficients of (r - sin r) / r^3 in r^2, highest first. */
VCL_TABLE double vcl_sin_c[8] = {
	-1.0 / 355687428096000.0, 1.0 / 1307674368000.0, -1.0 / 6227020800.0,
	1.0 / 39916800.0, -1.0 / 362880.0, 1.0 / 5040.0, -1.0 / 120.0,
	1.0 / 6.0,
};

/* sin(r) for |r| <= pi/4. */
VCL_FN double vcl_sin_r(double r)
{
	double z = r * r, p;

	p = vcl_poly(VCL_COEFFS(vcl_sin_c), 8, z);
	return r == 0.0 ? r : fma(-p * z, r, r);	/* sin(-0) is -0 */
}

/* The Taylor coefficients of (1 - cos r) / r^2 in r^2, highest first. */
VCL_TABLE double vcl_cos_c[9] = {
	1.0 / 6402373705728000.0, -1.0 / 20922789888000.0,
	1.0 / 87178291200.0, -1.0 / 479001600.0, 1.0 / 3628800.0,
	-1.0 / 40320.0, 1.0 / 720.0, -1.0 / 24.0, 0.5,
};

/* cos(r) for |r| <= pi/4. */
VCL_FN double vcl_cos_r(double r)
{
	double z = r * r, p;

	p = vcl_poly(VCL_COEFFS(vcl_cos_c), 9, z);
	return fma(-p, z, 1.0);
}

/* sin(r + q pi/2), in double: one polynomial of the two. */
VCL_FN double vcl_sin_q(double r, int q)
{
	double v = q & 1 ? vcl_cos_r(r) : vcl_sin_r(r);

	return q & 2 ? -v : v;
}

/* sin(x) and cos(x) of a float, in double. */
VCL_FN void vcl_sincos_d(float x, double *s, double *c)
{
	int q;
	double r = vcl_reduce_pio2f(x, &q), sr = vcl_sin_r(r), cr = vcl_cos_r(r);

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

VCL_FN float vcl_sinf(float x)
{
	double r;
	int q;

	if (x - x != 0.0f)		/* infinity or NaN */
		return x - x;
	r = vcl_reduce_pio2f(x, &q);
	return (float)vcl_sin_q(r, q);
}

VCL_FN float vcl_cosf(float x)
{
	double r;
	int q;

	if (x - x != 0.0f)
		return x - x;
	r = vcl_reduce_pio2f(x, &q);
	return (float)vcl_sin_q(r, q + 1);	/* cos x = sin(x + pi/2) */
}

VCL_FN float vcl_tanf(float x)
{
	double s, c;

	if (x - x != 0.0f)
		return x - x;
	vcl_sincos_d(x, &s, &c);
	return (float)(s / c);
}

VCL_FN float vcl_sincosf(float x, float *cosval)
{
	double s, c;

	if (x - x != 0.0f) {
		*cosval = x - x;
		return x - x;
	}
	vcl_sincos_d(x, &s, &c);
	*cosval = (float)c;
	return (float)s;
}

/*
 * sinpi, cospi and tanpi: x is reduced to r = x - 2k in [-1, 1] and then
 * to [-1/2, 1/2] by the symmetries, all exactly; pi r is rounded once in
 * double, and |pi r| <= pi/4 goes to the sine's polynomial, the rest to
 * the cosine's on pi (1/2 - |r|).  Zeros: sinpi's take x's sign, cospi's
 * are +0, tanpi(n) is +-0 with the sign of x for even n and the other for
 * odd n (a half-integer gives an infinity).
 */

/* sin(pi t) for |t| <= 1/2, in double. */
VCL_FN double vcl_sinpi_t(double t)
{
	double a = t < 0 ? -t : t, r;

	if (a <= 0.25)
		return vcl_sin_r(t * (2.0 * VCL_PIO2_HI));
	r = vcl_cos_r((0.5 - a) * (2.0 * VCL_PIO2_HI));
	return t < 0 ? -r : r;
}

/* cos(pi t) for |t| <= 1/2, in double, >= 0. */
VCL_FN double vcl_cospi_t(double t)
{
	double a = t < 0 ? -t : t;

	if (a <= 0.25)
		return vcl_cos_r(a * (2.0 * VCL_PIO2_HI));
	return vcl_sin_r((0.5 - a) * (2.0 * VCL_PIO2_HI));
}

/* x = 2k + r with r in [-1, 1]: r, exactly. */
VCL_FN double vcl_reduce_2(float x)
{
	double d = x;

	return d - 2.0 * rint(d * 0.5);
}

VCL_FN float vcl_sinpif(float x)
{
	double r;

	if (x - x != 0.0f)
		return x - x;
	r = vcl_reduce_2(x);
	if (r > 0.5)
		r = 1.0 - r;
	else if (r < -0.5)
		r = -1.0 - r;
	if (r == 0.0)
		return x < 0.0f || (x == 0.0f && __builtin_signbit(x)) ? -0.0f : 0.0f;
	return (float)vcl_sinpi_t(r);
}

VCL_FN float vcl_cospif(float x)
{
	double r, c;
	int neg = 0;

	if (x - x != 0.0f)
		return x - x;
	r = vcl_reduce_2(x);
	if (r > 0.5) {
		r = 1.0 - r;
		neg = 1;
	} else if (r < -0.5) {
		r = -1.0 - r;
		neg = 1;
	}
	c = vcl_cospi_t(r);
	if (c == 0.0)
		return 0.0f;
	return (float)(neg ? -c : c);
}

VCL_FN float vcl_tanpif(float x)
{
	double r, s, c;
	int neg = 0;

	if (x - x != 0.0f)
		return x - x;
	r = vcl_reduce_2(x);		/* tan has period 1: fold [-1, 1] */
	if (r > 0.5)
		r -= 1.0;
	else if (r < -0.5)
		r += 1.0;
	if (r == 0.0) {
		/* x = n: +-0, x's sign for an even n, the other for an odd one. */
		neg = __builtin_signbit(x) != 0;
		if (vcl_reduce_2(x) != 0.0)
			neg = !neg;
		return neg ? -0.0f : 0.0f;
	}
	if (r == 0.5 || r == -0.5)
		return vcl_reduce_2(x + 0.5f) != 0.0 ? INFINITY : -INFINITY;	/* n + 1/2: even n +inf */
	s = vcl_sinpi_t(r);
	c = vcl_cospi_t(r);
	return (float)(s / c);
}

#endif /* VACCEL_CL_MATH_TRIG_H */
