// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_erf.cl - erf and erfc for float (6.12.2), correctly rounded.  The
 * cores are math/erf.h's, which the host's accuracy test compiles too.
 */

#include "device/library.h"
#include "device/math/erf.h"

#define ERF_FAMILY(f, core)						\
	float OVLD f(float x) { return core(x); }			\
	FOR_WIDTHS(V_1, float, f, float)

ERF_FAMILY(erf, vcl_erff)
ERF_FAMILY(erfc, vcl_erfcf)
