// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_gamma.cl - tgamma, lgamma and lgamma_r for float (6.12.2).
 * lgamma_r has a form for each address space of the sign it returns.  The
 * cores are math/gamma.h's, which the host's accuracy test compiles too.
 */

#include "device/library.h"
#include "device/math/gamma.h"

#define GAMMA_FAMILY(f, core)						\
	float OVLD f(float x) { return core(x); }			\
	FOR_WIDTHS(V_1, float, f, float)

GAMMA_FAMILY(tgamma, vcl_tgammaf)
GAMMA_FAMILY(lgamma, vcl_lgammaf)

/* lgamma_r, its sign through a pointer in each address space. */
ALL_SPACES(lgamma_r, float, float, int, r = vcl_lgamma_rf(x, &v))
