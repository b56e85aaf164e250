/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/erf_double.h - the cores of erf and erfc for double.
 *
 * - |x| < 1/2: erf's Taylor series, x + rest with rest under a twelfth
 *   of x, times 2/sqrt(pi) as a double-double; erfc = 1 - erf with the
 *   exact error of 1 - hi.
 * - 1/2 <= |x| < 6: erfc(x) = e^-x^2 F(x) with F(x) = e^x^2 erfc(x),
 *   smooth and slowly varying.  F's Taylor series about the nearest c =
 *   k/8 (|h| = |x - c| <= 1/16), to h^20: F' = 2xF - 2/sqrt(pi) gives
 *   its coefficients, a_1 = 2c F(c) - 2/sqrt(pi) (an fma: the two nearly
 *   cancel) and a_(n+1) = (2c a_n + 2 a_(n-1)) / (n + 1); F(c) is a
 *   double-double of vcl_erfc_f, which MPFR gave (host.math_double and
 *   the device's accuracy test check erfc about every c).  x^2 is a
 *   double-double, and e^-x^2 math/exp_double.h's vcl_exp_dd().  erf = 1
 *   - erfc.
 * - x >= 6: erf is 1 (erfc(6) is below half an ULP of 1); erfc =
 *   e^-x^2 / sqrt(pi) / K(x), K math/erf.h's continued fraction with 10
 *   + 1500 / x^2 terms; 0 from x = 27.3 on, where e^-x^2 underflows.
 * - erf is odd, and erfc(-x) = 2 - erfc(x).
 *
 * erf is within 2 ULP, erfc within 3 (the bound is 16): e^-x^2 and the
 * factor are each rounded; tests/host/math_double.c
 * measures how far.
 */
#ifndef VACCEL_CL_MATH_ERF_DOUBLE_H
#define VACCEL_CL_MATH_ERF_DOUBLE_H

#include "device/math/erf.h"
#include "device/math/exp_double.h"

#define VCL_TWO_OVER_SQRT_PI_LO	0x1.1ae3a914fed8p-56	/* 2/sqrt(pi) - the head */
#define VCL_ERFC_TERMS		20

/* F(c) = e^(c^2) erfc(c) for c = k/8, k = 4 to 48, as head and tail. */
VCL_TABLE double vcl_erfc_f[90] = {
	0x1.3b3bc3c98b0f3p-1, -0x1.aa856b121880fp-56,	/* 0.5 */
	0x1.1d16b5809eaf6p-1, 0x1.043e5f49b4044p-55,	/* 0.625 */
	0x1.038d54ea3d834p-1, -0x1.ec2134d851665p-55,	/* 0.75 */
	0x1.db747ee409ac5p-2, -0x1.55a083acba9f3p-56,	/* 0.875 */
	0x1.b5d8780f956b2p-2, 0x1.825447f231a67p-58,	/* 1 */
	0x1.9531e09b149b5p-2, -0x1.aa513235e9c37p-58,	/* 1.125 */
	0x1.78a692138767ap-2, 0x1.4797400f19192p-63,	/* 1.25 */
	0x1.5f88f52f3c76bp-2, -0x1.b7eb97a02d0e7p-57,	/* 1.375 */
	0x1.494daffa2ad68p-2, 0x1.39bdf0f0d8e21p-56,	/* 1.5 */
	0x1.3583f6644327bp-2, -0x1.88eb8ebfdccaep-56,	/* 1.625 */
	0x1.23cfc2f1dc7ep-2, 0x1.3b1040eb318c2p-57,	/* 1.75 */
	0x1.13e5743b6048p-2, 0x1.ca1dfca5d5331p-56,	/* 1.875 */
	0x1.058671b52c776p-2, -0x1.3b83c701df899p-58,	/* 2 */
	0x1.f0fd28fdc20abp-3, 0x1.46db6c427dad1p-57,	/* 2.125 */
	0x1.d94446d627932p-3, -0x1.a8198a8216449p-58,	/* 2.25 */
	0x1.c3987d04d0b98p-3, -0x1.f0a1b80de2477p-57,	/* 2.375 */
	0x1.afbb3f3b7343bp-3, -0x1.9f40bca142466p-58,	/* 2.5 */
	0x1.9d7738e1f4db7p-3, 0x1.e59221b625876p-59,	/* 2.625 */
	0x1.8c9eb68ff27d7p-3, -0x1.bb4e763c64a35p-57,	/* 2.75 */
	0x1.7d0a5e9dd571p-3, 0x1.1e8a33dae458p-57,	/* 2.875 */
	0x1.6e9827d229d2dp-3, -0x1.90753de713593p-58,	/* 3 */
	0x1.612a8125451bdp-3, 0x1.67da41e67691cp-57,	/* 3.125 */
	0x1.54a7a08d4bb45p-3, -0x1.6a0d91336bdc9p-61,	/* 3.25 */
	0x1.48f8f10299b71p-3, 0x1.635e7b3452b79p-59,	/* 3.375 */
	0x1.3e0a99a0ee914p-3, -0x1.902cb7976c65ep-60,	/* 3.5 */
	0x1.33cb19179d7f6p-3, -0x1.43da3d6b81707p-63,	/* 3.625 */
	0x1.2a2af19c1493p-3, -0x1.fa04a06a33f29p-57,	/* 3.75 */
	0x1.211c625924e34p-3, -0x1.ce6e1f2e51f4p-57,	/* 3.875 */
	0x1.18932bf08e154p-3, 0x1.0981aa12747cep-57,	/* 4 */
	0x1.10845e1dcb19ap-3, 0x1.34c67e3a7ac11p-58,	/* 4.125 */
	0x1.08e62ce8c89adp-3, -0x1.dc926b221fa47p-57,	/* 4.25 */
	0x1.01afcc22e71b8p-3, 0x1.fef1f095792a8p-60,	/* 4.375 */
	0x1.f5b2a049cf4c6p-4, -0x1.fc4bbbfb1695ap-58,	/* 4.5 */
	0x1.e8b725e90fb8dp-4, 0x1.6a2cc3496a0adp-58,	/* 4.625 */
	0x1.dc603a3e77e9bp-4, -0x1.d4e9c037b2163p-59,	/* 4.75 */
	0x1.d0a2236d493eap-4, -0x1.a31a94d69e2p-59,	/* 4.875 */
	0x1.c57239e943d1ap-4, -0x1.0e682190858dbp-59,	/* 5 */
	0x1.bac6ca42e1bfbp-4, 0x1.409abadf6e0f9p-59,	/* 5.125 */
	0x1.b096face146fep-4, 0x1.97cf1d947d704p-59,	/* 5.25 */
	0x1.a6dab49575b6dp-4, 0x1.c84c90cc5b214p-62,	/* 5.375 */
	0x1.9d8a8f2284f2cp-4, -0x1.5b0277fa1ecb8p-58,	/* 5.5 */
	0x1.949fbeb63d761p-4, 0x1.e8e2b812ca74p-59,	/* 5.625 */
	0x1.8c14049cd551ep-4, -0x1.060a6f657761dp-59,	/* 5.75 */
	0x1.83e1a154593d6p-4, -0x1.938ac7959fd51p-58,	/* 5.875 */
	0x1.7c0348489d721p-4, 0x1.ca9cebb9a1c44p-58,	/* 6 */
};

/*
 * erf(a) for 0 <= a < 1/2 as hi + *lo: 2/sqrt(pi) (a + rest), rest the
 * series' terms after the first (under a twelfth of a), the product with
 * the head's fma error and the tail's share.
 */
VCL_FN double vcl_erf_small(double a, double *lo)
{
	double z = a * a, term = a, rest = 0.0, t, p;
	int n;

	for (n = 1; n < 30; n++) {
		term *= -z / n;			/* (-1)^n a^(2n+1) / n! */
		t = term / (2 * n + 1);
		rest += t;
		if (t < a * 0x1p-60 && -t < a * 0x1p-60)
			break;
	}
	p = VCL_TWO_OVER_SQRT_PI * a;
	*lo = fma(VCL_TWO_OVER_SQRT_PI, a, -p) +
		(VCL_TWO_OVER_SQRT_PI * rest + VCL_TWO_OVER_SQRT_PI_LO * a);
	return p;
}

/* erfc(a) for 1/2 <= a < 6: e^-a^2 F(a), F about the nearest k/8. */
VCL_FN double vcl_erfc_taylor(double a)
{
	VCL_CONST double *f = VCL_COEFFS(vcl_erfc_f);
	double k = vcl_rint_small(a * 8.0), c = k * 0.125, h = a - c, c2 = 2.0 * c;
	double a0, a0l, an, prev, next, s, hn, z, zl;
	int i = 2 * ((int)k - 4), n;

	a0 = f[i];
	a0l = f[i + 1];
	/* a_1 = 2c F(c) - 2/sqrt(pi): nearly cancelling, so in one fma. */
	an = fma(c2, a0, -VCL_TWO_OVER_SQRT_PI) + (c2 * a0l - VCL_TWO_OVER_SQRT_PI_LO);
	prev = a0;
	s = an * h;
	hn = h;
	for (n = 1; n < VCL_ERFC_TERMS; n++) {
		next = (c2 * an + 2.0 * prev) / (n + 1);
		prev = an;
		an = next;
		hn *= h;
		s += an * hn;
	}
	z = a * a;
	zl = fma(a, a, -z);
	return vcl_exp_dd(-z, -zl) * (a0 + (a0l + s));
}

/* erfc(a) for a >= 6 by the continued fraction. */
VCL_FN double vcl_erfc_cf_d(double a)
{
	double z, zl, t;
	int n, i;

	if (a > 27.3)
		return 0.0;
	z = a * a;
	zl = fma(a, a, -z);
	n = (int)(10.0 + 1500.0 / z);
	t = a;
	for (i = n; i >= 1; i--)
		t = a + (0.5 * i) / t;
	return vcl_exp_dd(-z, -zl) * (VCL_INV_SQRT_PI / t);
}

/* erfc(a) for a >= 1/2. */
VCL_FN double vcl_erfc_pos(double a)
{
	return a < 6.0 ? vcl_erfc_taylor(a) : vcl_erfc_cf_d(a);
}

VCL_FN double vcl_erf(double x)
{
	double a = fabs(x), r, lo;

	if (x != x || x == 0.0)
		return x;
	if (a < 0.5)
		r = vcl_erf_small(a, &lo) + lo;
	else if (a < 6.0)
		r = 1.0 - vcl_erfc_taylor(a);
	else
		r = 1.0;
	return x < 0.0 ? -r : r;
}

VCL_FN double vcl_erfc(double x)
{
	double a = fabs(x), r, lo, e;

	if (x != x)
		return x;
	if (a < 0.5) {
		/* 1 - (hi + lo): 1 - hi with its exact error, then lo. */
		r = vcl_erf_small(a, &lo);
		r = vcl_two_sum(1.0, -r, &e);
		r += e - lo;
	} else {
		r = vcl_erfc_pos(a);
	}
	return x < 0.0 ? 2.0 - r : r;
}

#endif /* VACCEL_CL_MATH_ERF_DOUBLE_H */
