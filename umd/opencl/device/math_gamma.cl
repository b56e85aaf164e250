// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_gamma.cl - tgamma, lgamma and lgamma_r for float and double
 * (6.12.2).  lgamma_r has a form for each address space of the sign it
 * returns.  The cores are math/gamma.h's and math/gamma_double.h's, which
 * the host's accuracy tests compile too.
 */

#include "device/library.h"
#include "device/math/gamma.h"
#include "device/math/gamma_double.h"

#define GAMMA_FAMILY(f, core)						\
	float OVLD f(float x) { return core(x); }			\
	FOR_WIDTHS(V_1, float, f, float)

GAMMA_FAMILY(tgamma, vcl_tgammaf)
GAMMA_FAMILY(lgamma, vcl_lgammaf)

/* lgamma_r, its sign through a pointer in each address space. */
ALL_SPACES(lgamma_r, float, float, int, r = vcl_lgamma_rf(x, &v))

#define GAMMA_FAMILY_D(f, core)						\
	double OVLD f(double x) { return core(x); }			\
	FOR_WIDTHS(V_1, double, f, double)

GAMMA_FAMILY_D(tgamma, vcl_tgamma)
GAMMA_FAMILY_D(lgamma, vcl_lgamma)

ALL_SPACES(lgamma_r, double, double, int, r = vcl_lgamma_r(x, &v))
