// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_arc.cl - the inverse trigonometric and the hyperbolic functions
 * for float and double (6.12.2): atan, asin, acos and their forms divided
 * by pi (atanpi, asinpi, acospi); sinh, cosh, tanh, asinh, acosh and
 * atanh.  The cores are math/atan.h's, math/hyperbolic.h's and their
 * _double.h kin, which the host's accuracy tests compile too.
 */

#include "device/library.h"
#include "device/math/atan.h"
#include "device/math/hyperbolic.h"
#include "device/math/hyperbolic_double.h"
#include "device/math/atan_double.h"

#define ARC_FAMILY(f, core)						\
	float OVLD f(float x) { return core(x); }			\
	FOR_WIDTHS(V_1, float, f, float)
#define ARC_FAMILY_D(f, core)						\
	double OVLD f(double x) { return core(x); }			\
	FOR_WIDTHS(V_1, double, f, double)

ARC_FAMILY(atan, vcl_atanf)
ARC_FAMILY(asin, vcl_asinf)
ARC_FAMILY(acos, vcl_acosf)
ARC_FAMILY(atanpi, vcl_atanpif)
ARC_FAMILY(asinpi, vcl_asinpif)
ARC_FAMILY(acospi, vcl_acospif)
ARC_FAMILY(sinh, vcl_sinhf)
ARC_FAMILY(cosh, vcl_coshf)
ARC_FAMILY(tanh, vcl_tanhf)
ARC_FAMILY(asinh, vcl_asinhf)
ARC_FAMILY(acosh, vcl_acoshf)
ARC_FAMILY(atanh, vcl_atanhf)
ARC_FAMILY_D(atan, vcl_atan)
ARC_FAMILY_D(asin, vcl_asin)
ARC_FAMILY_D(acos, vcl_acos)
ARC_FAMILY_D(atanpi, vcl_atanpi)
ARC_FAMILY_D(asinpi, vcl_asinpi)
ARC_FAMILY_D(acospi, vcl_acospi)
ARC_FAMILY_D(sinh, vcl_sinh)
ARC_FAMILY_D(cosh, vcl_cosh)
ARC_FAMILY_D(tanh, vcl_tanh)
ARC_FAMILY_D(asinh, vcl_asinh)
ARC_FAMILY_D(acosh, vcl_acosh)
ARC_FAMILY_D(atanh, vcl_atanh)
