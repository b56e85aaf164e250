// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_arc.cl - the inverse trigonometric and the hyperbolic functions for
 * float (6.12.2): atan, asin, acos and their forms divided by pi (atanpi,
 * asinpi, acospi); sinh, cosh, tanh, asinh, acosh and atanh.  The cores
 * are math/atan.h's and math/hyperbolic.h's, which the host's accuracy
 * test compiles too.
 */

#include "device/library.h"
#include "device/math/atan.h"
#include "device/math/hyperbolic.h"

#define ARC_FAMILY(f, core)						\
	float OVLD f(float x) { return core(x); }			\
	FOR_WIDTHS(V_1, float, f, float)

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
