// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_erf.cl - erf and erfc (6.12.2): for float correctly rounded, for
 * double within 2 and 3 ULP.  The cores are math/erf.h's and
 * math/erf_double.h's, which the host's accuracy tests compile too.
 */

#include "device/library.h"
#include "device/math/erf.h"
#include "device/math/erf_double.h"

#define ERF_FAMILY(f, core)						\
	float OVLD f(float x) { return core(x); }			\
	FOR_WIDTHS(V_1, float, f, float)

ERF_FAMILY(erf, vcl_erff)
ERF_FAMILY(erfc, vcl_erfcf)

#define ERF_FAMILY_D(f, core)						\
	double OVLD f(double x) { return core(x); }			\
	FOR_WIDTHS(V_1, double, f, double)

ERF_FAMILY_D(erf, vcl_erf)
ERF_FAMILY_D(erfc, vcl_erfc)
