// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_exp.cl - exp, exp2, exp10 and expm1 for float and double
 * (6.12.2), and the half_ and native_ forms for float, which are the same
 * functions: inside every bound, and as short as these are.  The cores
 * are math/exp.h's and math/exp_double.h's, which the host's accuracy
 * tests compile too.
 */

#include "device/library.h"
#include "device/math/exp.h"
#include "device/math/exp_double.h"

#define EXP_FAMILY(f, core)						\
	float OVLD f(float x) { return core(x); }			\
	FOR_WIDTHS(V_1, float, f, float)
#define EXP_FAMILY_D(f, core)						\
	double OVLD f(double x) { return core(x); }			\
	FOR_WIDTHS(V_1, double, f, double)

EXP_FAMILY(exp, vcl_expf)
EXP_FAMILY(exp2, vcl_exp2f)
EXP_FAMILY(exp10, vcl_exp10f)
EXP_FAMILY(expm1, vcl_expm1f)
EXP_FAMILY(half_exp, vcl_expf)
EXP_FAMILY(half_exp2, vcl_exp2f)
EXP_FAMILY(half_exp10, vcl_exp10f)
EXP_FAMILY(native_exp, vcl_expf)
EXP_FAMILY(native_exp2, vcl_exp2f)
EXP_FAMILY(native_exp10, vcl_exp10f)
EXP_FAMILY_D(exp, vcl_exp)
EXP_FAMILY_D(exp2, vcl_exp2)
EXP_FAMILY_D(exp10, vcl_exp10)
EXP_FAMILY_D(expm1, vcl_expm1)
