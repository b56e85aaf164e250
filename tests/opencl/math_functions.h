/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math_functions.h - the functions of the device's math library that the
 * accuracy tests know: each one's core (umd/opencl/device/math/), its
 * correctly rounded reference in MPFR, the specification's bound and the
 * range where its result is finite and not 0 or 1.  Shared by
 * tests/opencl/math.c (the device against MPFR) and
 * tests/host/math_cores.c (every STEP-th float through the cores), so that
 * a new function is added in one place.  An entry marked device_form is
 * another form of a core already listed (sincos's two results, lgamma_r):
 * the host test skips it, the device test calls the kernel of its name.  Needs
 * <mpfr.h>, and
 * -I umd/opencl -ffp-contract=off as the device library is built.
 */
#ifndef VACCEL_TESTS_MATH_FUNCTIONS_H
#define VACCEL_TESTS_MATH_FUNCTIONS_H

#include <mpfr.h>
#include "device/math/exp.h"
#include "device/math/log.h"
#include "device/math/root.h"
#include "device/math/trig.h"
#include "device/math/atan.h"
#include "device/math/hyperbolic.h"
#include "device/math/pow.h"
#include "math_mpfr.h"
#include "device/math/erf.h"
#include "device/math/gamma.h"

struct function {
	const char *name;
	int (*mpfr)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
	float (*core)(float);
	double ulp;		/* the specification's bound */
	float lo, hi;		/* where the result is finite and not 0 or 1 */
	int device_form;	/* another form of a function above: device only */
};

static int mpfr_exp10_(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rnd)
{
	return mpfr_exp10(r, x, rnd);
}

/* 1 / sqrt(x): MPFR's rec_sqrt(-0) is +Inf, IEEE 754's rSqrt(-0) -Inf. */
static int mpfr_rsqrt_(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rnd)
{
	if (mpfr_zero_p(x) && mpfr_signbit(x)) {
		mpfr_set_inf(r, -1);
		return 0;
	}
	return mpfr_rec_sqrt(r, x, rnd);
}

static float vcl_lgamma_signed(float x)
{
	int sign;
	float v = vcl_lgamma_rf(x, &sign);

	return isinf(v) ? v : v * sign;
}

static const struct function functions[] = {
	{ "exp", mpfr_exp, vcl_expf, 3, -104.0f, 89.0f, 0 },
	{ "exp2", mpfr_exp2, vcl_exp2f, 3, -150.0f, 128.0f, 0 },
	{ "exp10", mpfr_exp10_, vcl_exp10f, 3, -45.0f, 38.6f, 0 },
	{ "expm1", mpfr_expm1, vcl_expm1f, 3, -18.0f, 89.0f, 0 },
	{ "log", mpfr_log, vcl_logf, 3, 0.0f, 1e6f, 0 },
	{ "log2", mpfr_log2, vcl_log2f, 3, 0.0f, 1e6f, 0 },
	{ "log10", mpfr_log10, vcl_log10f, 3, 0.0f, 1e6f, 0 },
	{ "log1p", mpfr_log1p, vcl_log1pf, 2, -1.0f, 1e6f, 0 },
	{ "rsqrt", mpfr_rsqrt_, vcl_rsqrtf, 2, 0.0f, 1e6f, 0 },
	{ "cbrt", mpfr_cbrt, vcl_cbrtf, 2, -1e6f, 1e6f, 0 },
	{ "sin", mpfr_sin, vcl_sinf, 4, -20.0f, 20.0f, 0 },
	{ "cos", mpfr_cos, vcl_cosf, 4, -20.0f, 20.0f, 0 },
	{ "tan", mpfr_tan, vcl_tanf, 5, -20.0f, 20.0f, 0 },
	{ "sinpi", mpfr_sinpi, vcl_sinpif, 4, -8.0f, 8.0f, 0 },
	{ "cospi", mpfr_cospi, vcl_cospif, 4, -8.0f, 8.0f, 0 },
	{ "tanpi", mpfr_tanpi, vcl_tanpif, 6, -8.0f, 8.0f, 0 },
	{ "atan", mpfr_atan, vcl_atanf, 5, -100.0f, 100.0f, 0 },
	{ "asin", mpfr_asin, vcl_asinf, 4, -1.0f, 1.0f, 0 },
	{ "acos", mpfr_acos, vcl_acosf, 4, -1.0f, 1.0f, 0 },
	{ "atanpi", mpfr_atanpi, vcl_atanpif, 5, -100.0f, 100.0f, 0 },
	{ "asinpi", mpfr_asinpi, vcl_asinpif, 5, -1.0f, 1.0f, 0 },
	{ "acospi", mpfr_acospi, vcl_acospif, 5, -1.0f, 1.0f, 0 },
	{ "sinh", mpfr_sinh, vcl_sinhf, 4, -89.0f, 89.0f, 0 },
	{ "cosh", mpfr_cosh, vcl_coshf, 4, -89.0f, 89.0f, 0 },
	{ "tanh", mpfr_tanh, vcl_tanhf, 5, -10.0f, 10.0f, 0 },
	{ "asinh", mpfr_asinh, vcl_asinhf, 4, -1e6f, 1e6f, 0 },
	{ "acosh", mpfr_acosh, vcl_acoshf, 4, 1.0f, 1e6f, 0 },
	{ "atanh", mpfr_atanh, vcl_atanhf, 5, -1.0f, 1.0f, 0 },
	{ "erf", mpfr_erf, vcl_erff, 16, -4.0f, 4.0f, 0 },
	{ "erfc", mpfr_erfc, vcl_erfcf, 16, -2.0f, 10.0f, 0 },
	/* Not under -33, where the results are subnormal: PoCL is up to 65 ULP off there. */
	{ "tgamma", mpfr_gamma, vcl_tgammaf, 16, -33.0f, 36.0f, 0 },
	{ "lgamma", mpfr_lgamma_, vcl_lgammaf, INFINITY, -40.0f, 1e6f, 0 },
	/* lgamma_r's value times its sign (an infinity alone), sign in __local and __private. */
	{ "lgamma_r", mpfr_lgamma_r_, vcl_lgamma_signed, INFINITY, -40.0f, 40.0f, 1 },
	/* sincos's two results, in float4s, the cosine in __local and __private. */
	{ "sincos_sin", mpfr_sin, vcl_sinf, 4, -20.0f, 20.0f, 1 },
	{ "sincos_cos", mpfr_cos, vcl_cosf, 4, -20.0f, 20.0f, 1 },
};
#define NFUNCTIONS (sizeof(functions) / sizeof(functions[0]))

/*
 * The functions of two arguments, f(x, y); int_y for an int y (pown,
 * rootn), which the tests draw from small integers and the int's limits.
 * Random pairs take half of their values from [lo, hi] for x and [ylo,
 * yhi] for y, half from every float.  faithful marks a function that is
 * correctly rounded but for rare inputs (the pow family: math/pow.h):
 * the host test asks it for 1 ULP and counts the others.
 */
struct function2 {
	const char *name;
	int (*mpfr)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
	float (*core)(float, float);
	double ulp;
	float lo, hi, ylo, yhi;
	int int_y;
	int faithful;		/* not always correctly rounded: within 1 ULP */
};

static float vcl_pownf_(float x, float n)
{
	return vcl_pownf(x, (int)n);
}

static float vcl_rootnf_(float x, float n)
{
	return vcl_rootnf(x, (int)n);
}

static const struct function2 functions2[] = {
	{ "pow", mpfr_pow, vcl_powf, 16, 0.0f, 10.0f, -30.0f, 30.0f, 0, 1 },
	{ "powr", mpfr_powr_, vcl_powrf, 16, 0.0f, 10.0f, -30.0f, 30.0f, 0, 1 },
	{ "pown", mpfr_pown_, vcl_pownf_, 16, -10.0f, 10.0f, -40.0f, 40.0f, 1, 1 },
	{ "rootn", mpfr_rootn_, vcl_rootnf_, 16, -1e6f, 1e6f, -40.0f, 40.0f, 1, 1 },
	{ "atan2", mpfr_atan2, vcl_atan2f, 6, -10.0f, 10.0f, -10.0f, 10.0f, 0, 0 },
	{ "atan2pi", mpfr_atan2pi, vcl_atan2pif, 6, -10.0f, 10.0f, -10.0f, 10.0f, 0, 0 },
	{ "hypot", mpfr_hypot, vcl_hypotf, 4, -1e6f, 1e6f, -1e6f, 1e6f, 0, 0 },
};
#define NFUNCTIONS2 (sizeof(functions2) / sizeof(functions2[0]))

#endif /* VACCEL_TESTS_MATH_FUNCTIONS_H */
