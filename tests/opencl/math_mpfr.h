/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math_mpfr.h - the references of the accuracy tests that MPFR does not
 * give as OpenCL defines them: pown and rootn with an int n, powr with
 * the specification's NaNs, lgamma without its sign and lgamma_r's value
 * with it.  Shared by math_functions.h (float) and
 * math_double.h (double).  Needs <mpfr.h>.
 */
#ifndef VACCEL_TESTS_MATH_MPFR_H
#define VACCEL_TESTS_MATH_MPFR_H

#include <mpfr.h>

static int mpfr_pown_(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr n, mpfr_rnd_t rnd)
{
	return mpfr_pow_si(r, x, mpfr_get_si(n, MPFR_RNDZ), rnd);
}

static int mpfr_rootn_(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr n, mpfr_rnd_t rnd)
{
	long k = mpfr_get_si(n, MPFR_RNDZ);

	if (k == 0) {		/* rootn(x, 0) is NaN */
		mpfr_set_nan(r);
		return 0;
	}
	return mpfr_rootn_si(r, x, k, rnd);
}

/* The specification's powr(x, NaN) and powr(NaN, y) are NaN, MPFR's powr(1, NaN) is 1. */
static int mpfr_powr_(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t rnd)
{
	if (mpfr_nan_p(x) || mpfr_nan_p(y)) {
		mpfr_set_nan(r);
		return 0;
	}
	return mpfr_powr(r, x, y, rnd);
}

/* log |Gamma(x)|, without its sign. */
static int mpfr_lgamma_(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rnd)
{
	int sign;

	return mpfr_lgamma(r, &sign, x, rnd);
}

/* log |Gamma(x)| times the sign of Gamma(x), but for an infinity. */
static __attribute__((unused)) int mpfr_lgamma_r_(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rnd)
{
	int sign, ternary = mpfr_lgamma(r, &sign, x, rnd);

	if (sign < 0 && !mpfr_inf_p(r)) {
		mpfr_neg(r, r, rnd);
		ternary = -ternary;
	}
	return ternary;
}

#endif /* VACCEL_TESTS_MATH_MPFR_H */
