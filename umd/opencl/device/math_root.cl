// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_root.cl - rsqrt and cbrt for float and double (6.12.2), and
 * half_rsqrt and native_rsqrt for float, which are rsqrt.  The cores are
 * math/root.h's and math/root_double.h's, which the host's accuracy tests
 * compile too.
 */

#include "device/library.h"
#include "device/math/root.h"
#include "device/math/root_double.h"

#define ROOT_FAMILY(f, core)						\
	float OVLD f(float x) { return core(x); }			\
	FOR_WIDTHS(V_1, float, f, float)
#define ROOT_FAMILY_D(f, core)						\
	double OVLD f(double x) { return core(x); }			\
	FOR_WIDTHS(V_1, double, f, double)

ROOT_FAMILY(rsqrt, vcl_rsqrtf)
ROOT_FAMILY(cbrt, vcl_cbrtf)
ROOT_FAMILY(half_rsqrt, vcl_rsqrtf)
ROOT_FAMILY(native_rsqrt, vcl_rsqrtf)
ROOT_FAMILY_D(rsqrt, vcl_rsqrt)
ROOT_FAMILY_D(cbrt, vcl_cbrt)
