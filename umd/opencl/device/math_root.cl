// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_root.cl - rsqrt and cbrt for float (6.12.2), and half_rsqrt and
 * native_rsqrt, which are rsqrt.  The cores are math/root.h's, which the
 * host's accuracy test compiles too.
 */

#include "device/library.h"
#include "device/math/root.h"

#define ROOT_FAMILY(f, core)						\
	float OVLD f(float x) { return core(x); }			\
	FOR_WIDTHS(V_1, float, f, float)

ROOT_FAMILY(rsqrt, vcl_rsqrtf)
ROOT_FAMILY(cbrt, vcl_cbrtf)
ROOT_FAMILY(half_rsqrt, vcl_rsqrtf)
ROOT_FAMILY(native_rsqrt, vcl_rsqrtf)
