/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/gamma_double.h - the cores of tgamma, lgamma and lgamma_r for
 * double.
 *
 * log Gamma is carried as a double-double L = hi + lo, and Gamma is e^L
 * through math/exp_double.h's vcl_exp_dd(): a finite Gamma has |L| < 746,
 * so L needs some 2^-62 relative for Gamma to be within a few ULP.
 *
 * - y >= 12: Stirling's series (math/gamma.h's eight terms, the ninth
 *   under 2^-60 of the result at 12), with log y a double-double
 *   (math/pow_double.h's vcl_log_dd()), (y - 1/2) log y with its fma
 *   error, and the sums with their exact errors.  An argument given as y
 *   + yl (1 - x, below) adds yl times the digamma function, about log y -
 *   1/(2y).
 * - 0 < x < 12: up by the recurrence, log Gamma(x) = log Gamma(x + n) -
 *   log(x (x + 1) ... (x + n - 1)), x + k and the product as
 *   double-doubles.
 * - x < 0: the reflection, log |Gamma(x)| = log pi - log |sin(pi x)| -
 *   log Gamma(1 - x), sin(pi x) math/trig_double.h's, 1 - x with its
 *   error; Gamma(x) has the sign of sin(pi x).  Gamma has no value at the
 *   negative integers (tgamma: NaN, lgamma: +inf); at +-0 it is +-inf.
 * - |x| < 2^-54: Gamma(x) = 1/x - gamma (Euler's), log |Gamma(x)| = -log
 *   |x|.
 * - lgamma about 1 and 2, where it crosses 0 (x in [3/4, 5/4] and [7/4,
 *   9/4]): its Taylor series there, whose first term dominates, so that
 *   the result keeps its relative precision.
 *
 * tgamma is within 2 ULP (the bound is 16), lgamma within 2 but near its
 * negative roots, where it loses relative precision (the specification
 * sets it no bound); tests/host/math_double.c measures how far.
 */
#ifndef VACCEL_CL_MATH_GAMMA_DOUBLE_H
#define VACCEL_CL_MATH_GAMMA_DOUBLE_H

#include "device/math/gamma.h"
#include "device/math/pow_double.h"
#include "device/math/trig_double.h"

#define VCL_LN_PI_HI		0x1.250d048e7a1bdp+0	/* log(pi) */
#define VCL_LN_PI_LO		0x1.7abf2ad8d5088p-57
#define VCL_HALF_LOG_2PI_LO	-0x1.65b5a1b7ff5dfp-55	/* log(2 pi) / 2 - the head */
#define VCL_EULER_GAMMA		0x1.2788cfc6fb619p-1
#define VCL_EULER_GAMMA_LO	-0x1.6cb90701fbfabp-58	/* Euler's gamma - the head */

/*
 * log Gamma(1 + z) = -gamma z + sum of (-1)^k zeta(k) / k z^k, k >= 2:
 * the coefficients from k = 29 down to 2 (MPFR's zeta values; the
 * accuracy tests check lgamma about 1 and 2).
 */
VCL_TABLE double vcl_lgamma1_c[28] = {
	-0x1.1a7b961a7b9aap-5,	/* -z(29)/29 */
	0x1.24924936db7bcp-5,	/* z(28)/28 */
	-0x1.2f684c00002bcp-5,	/* -z(27)/27 */
	0x1.3b13b189d925ep-5,	/* z(26)/26 */
	-0x1.47ae151eb9fb7p-5,	/* -z(25)/25 */
	0x1.555556aaafdcdp-5,	/* z(24)/24 */
	-0x1.642c88591b66dp-5,	/* -z(23)/23 */
	0x1.745d1d1778df9p-5,	/* z(22)/22 */
	-0x1.86186db77bfbfp-5,	/* -z(21)/21 */
	0x1.9999b3352d5bap-5,	/* z(20)/20 */
	-0x1.af28a1b5688ap-5,	/* -z(19)/19 */
	0x1.c71ce3a20b419p-5,	/* z(18)/18 */
	-0x1.e1e2d311e8abdp-5,	/* -z(17)/17 */
	0x1.00010064cdeb2p-4,	/* z(16)/16 */
	-0x1.11133476e7fep-4,	/* -z(15)/15 */
	0x1.2496df8320c5fp-4,	/* z(14)/14 */
	-0x1.3b1d971fc5985p-4,	/* -z(13)/13 */
	0x1.556ad63243bc4p-4,	/* z(12)/12 */
	-0x1.748c33114c6d6p-4,	/* -z(11)/11 */
	0x1.9a01e385d5f8fp-4,	/* z(10)/10 */
	-0x1.c806706d57db4p-4,	/* -z(9)/9 */
	0x1.010b36af86397p-3,	/* z(8)/8 */
	-0x1.2703a1dcea3aep-3,	/* -z(7)/7 */
	0x1.5b40cb100c306p-3,	/* z(6)/6 */
	-0x1.a8b9c17aa6149p-3,	/* -z(5)/5 */
	0x1.151322ac7d848p-2,	/* z(4)/4 */
	-0x1.9a4d55beab2d7p-2,	/* -z(3)/3 */
	0x1.a51a6625307d3p-1,	/* z(2)/2 */
};

/* log Gamma(2 + z) = (1 - gamma) z + sum of (-1)^k (zeta(k) - 1) / k z^k. */
VCL_TABLE double vcl_lgamma2_c[28] = {
	-0x1.1a7c26ec2523cp-34,	/* -(z(29)-1)/29 */
	0x1.24932a337434cp-33,	/* (z(28)-1)/28 */
	-0x1.2f69a9fabe3ep-32,	/* -(z(27)-1)/27 */
	0x1.3b15d2b2fc10cp-31,	/* (z(26)-1)/26 */
	-0x1.47b1679258d0ep-30,	/* -(z(25)-1)/25 */
	0x1.555a877ffd2c3p-29,	/* (z(24)-1)/24 */
	-0x1.6434a8447aeadp-28,	/* -(z(23)-1)/23 */
	0x1.7469daccfadcdp-27,	/* (z(22)-1)/22 */
	-0x1.862c734df3eacp-26,	/* -(z(21)-1)/21 */
	0x1.99b93c2070b0fp-25,	/* (z(20)-1)/20 */
	-0x1.af5a6cbbf8a97p-24,	/* -(z(19)-1)/19 */
	0x1.c76bbb3f07a4dp-23,	/* (z(18)-1)/18 */
	-0x1.e2600d93cfd2fp-22,	/* -(z(17)-1)/17 */
	0x1.0064cdeb22f0fp-20,	/* (z(16)-1)/16 */
	-0x1.11b2eb7679541p-19,	/* -(z(15)-1)/15 */
	0x1.2597a39f34aacp-18,	/* (z(14)-1)/14 */
	-0x1.3cbc963ce2243p-17,	/* -(z(13)-1)/13 */
	0x1.580dcee66eb02p-16,	/* (z(12)-1)/12 */
	-0x1.78de5bd7c81efp-15,	/* -(z(11)-1)/11 */
	0x1.a127b0f17d65ap-14,	/* (z(10)-1)/10 */
	-0x1.d3fd4c76d2fc8p-13,	/* -(z(9)-1)/9 */
	0x1.0b36af86396e9p-11,	/* (z(8)-1)/8 */
	-0x1.38ac5c2bf8e08p-10,	/* -(z(7)-1)/7 */
	0x1.7add6eadb6c3p-9,	/* (z(6)-1)/6 */
	-0x1.e404fc218f5f2p-8,	/* -(z(5)-1)/5 */
	0x1.51322ac7d8483p-6,	/* (z(4)-1)/4 */
	-0x1.13e001a557607p-4,	/* -(z(3)-1)/3 */
	0x1.4a34cc4a60fa6p-2,	/* (z(2)-1)/2 */
};

/*
 * log Gamma(x) for x in [3/4, 5/4] or [7/4, 9/4], where it crosses 0:
 * the series about 1 or 2 in z = x - 1 or x - 2 (exact), whose first
 * term dominates, so that the result keeps its relative precision.
 */
VCL_FN double vcl_lgamma_near_root(double x)
{
	double z;

	if (x < 1.5) {
		z = x - 1.0;
		return z * fma(z, vcl_poly(VCL_COEFFS(vcl_lgamma1_c), 28, z), -VCL_EULER_GAMMA);
	}
	z = x - 2.0;
	return z * fma(z, vcl_poly(VCL_COEFFS(vcl_lgamma2_c), 28, z),
		       (1.0 - VCL_EULER_GAMMA) - VCL_EULER_GAMMA_LO);
}

/* hi + lo made a double-double again, |hi| >= |lo|; returns hi, *lo the rest. */
VCL_FN double vcl_dd_norm(double hi, double *lo)
{
	double s = hi + *lo;

	*lo -= s - hi;
	return s;
}

/* log Gamma(y + yl) for y >= 12, |yl| a few ULP of y, as hi + *lo. */
VCL_FN double vcl_lgamma_stirling_dd(double y, double yl, double *lo)
{
	double l, ll, w = y - 0.5, p, pe, a, ae, b, be, s;

	l = vcl_log_dd(y, &ll);
	if (y > 0x1p1000) {		/* y (log y - 1): the rest is below its ULP */
		*lo = 0.0;
		return y * (l - 1.0);
	}
	s = vcl_poly(VCL_COEFFS(vcl_stirling_c), 8, 1.0 / (y * y)) / y;
	p = w * l;
	pe = fma(w, l, -p) + w * ll;
	a = vcl_two_sum(p, -y, &ae);
	b = vcl_two_sum(a, VCL_HALF_LOG_2PI, &be);
	*lo = ae + be + (pe + (VCL_HALF_LOG_2PI_LO + s + yl * (l - 0.5 / y)));
	return vcl_dd_norm(b, lo);
}

/* log Gamma(x + xl) for x >= 2^-54, |xl| a few ULP of x, as hi + *lo. */
VCL_FN double vcl_lgamma_pos_dd(double x, double xl, double *lo)
{
	double y = x, yl = xl, ph = 1.0, pl = 0.0, p, e, g, gl, lp, lpl;

	if (x >= 12.0)
		return vcl_lgamma_stirling_dd(x, xl, lo);
	while (y < 12.0) {
		/* The product times y + yl, as a double-double. */
		p = ph * y;
		pl = fma(ph, y, -p) + (ph * yl + pl * y);
		ph = vcl_dd_norm(p, &pl);
		y = vcl_two_sum(y, 1.0, &e);
		yl += e;
	}
	g = vcl_lgamma_stirling_dd(y, yl, &gl);
	lp = vcl_log_dd(ph, &lpl);
	lpl += pl / ph;
	g = vcl_two_sum(g, -lp, &e);
	*lo = e + (gl - lpl);
	return vcl_dd_norm(g, lo);
}

/*
 * log |Gamma(x)| for x < 0, not an integer, as hi + *lo; *s gets sin(pi
 * x), whose sign is Gamma's.
 */
VCL_FN double vcl_lgamma_neg_dd(double x, double *lo, double *s)
{
	double u, ul, g, gl, ls, lsl, h, e, e2;

	*s = vcl_sinpi(x);
	u = vcl_two_sum(1.0, -x, &ul);
	g = vcl_lgamma_pos_dd(u, ul, &gl);
	ls = vcl_log_dd(fabs(*s), &lsl);
	h = vcl_two_sum(VCL_LN_PI_HI, -ls, &e);
	h = vcl_two_sum(h, -g, &e2);
	*lo = e + e2 + (VCL_LN_PI_LO - lsl - gl);
	return vcl_dd_norm(h, lo);
}

VCL_FN double vcl_tgamma(double x)
{
	double hi, lo, s, r;

	if (x != x)
		return x;
	if (x == 0.0)
		return 1.0 / x;			/* +-inf */
	if (x == INFINITY)
		return x;
	if (x > 171.7)
		return INFINITY;
	if (fabs(x) < 0x1p-54)
		return 1.0 / x - VCL_EULER_GAMMA;
	if (x > 0.0) {
		hi = vcl_lgamma_pos_dd(x, 0.0, &lo);
		return vcl_exp_dd(hi, lo);
	}
	if (x == -INFINITY || x == rint(x))
		return NAN;
	if (x < -190.0) {			/* under the smallest double */
		s = vcl_sinpi(x);
		return s < 0.0 ? -0.0 : 0.0;
	}
	hi = vcl_lgamma_neg_dd(x, &lo, &s);
	r = vcl_exp_dd(hi, lo);
	return s < 0.0 ? -r : r;
}

VCL_FN double vcl_lgamma_r(double x, int *signp)
{
	double hi, lo, s;

	*signp = 1;
	if (x != x)
		return x;
	if (x == INFINITY || x == -INFINITY)
		return INFINITY;
	if (x == 0.0) {
		*signp = __builtin_signbit(x) ? -1 : 1;
		return INFINITY;
	}
	if (x == 1.0 || x == 2.0)
		return 0.0;
	if (fabs(x) < 0x1p-54) {
		*signp = x < 0.0 ? -1 : 1;
		return -vcl_log(fabs(x));
	}
	if ((x >= 0.75 && x <= 1.25) || (x >= 1.75 && x <= 2.25))
		return vcl_lgamma_near_root(x);
	if (x > 0.0) {
		hi = vcl_lgamma_pos_dd(x, 0.0, &lo);
		return hi + lo;
	}
	if (x == rint(x))
		return INFINITY;
	hi = vcl_lgamma_neg_dd(x, &lo, &s);
	*signp = s < 0.0 ? -1 : 1;
	return hi + lo;
}

VCL_FN double vcl_lgamma(double x)
{
	int sign;

	return vcl_lgamma_r(x, &sign);
}

#endif /* VACCEL_CL_MATH_GAMMA_DOUBLE_H */
