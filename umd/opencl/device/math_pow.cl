// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_pow.cl - the math functions of two arguments for float and double
 * (6.12.2): pow, powr, pown and rootn, atan2 and atan2pi, hypot;
 * half_powr and native_powr, which are powr; and the divisions
 * half_divide, native_divide, half_recip and native_recip, which are the
 * engine's correctly rounded fdiv.  The cores are math/pow.h's and
 * math/pow_double.h's, which the host's accuracy tests compile too.
 */

#include "device/library.h"
#include "device/math/pow.h"
#include "device/math/pow_double.h"

#define POW_FAMILY(f, B, core)						\
	float OVLD f(float x, B y) { return core(x, y); }		\
	FOR_WIDTHS(V_2, float, f, float, B)

POW_FAMILY(pow, float, vcl_powf)
POW_FAMILY(powr, float, vcl_powrf)
POW_FAMILY(half_powr, float, vcl_powrf)
POW_FAMILY(native_powr, float, vcl_powrf)
POW_FAMILY(pown, int, vcl_pownf)
POW_FAMILY(rootn, int, vcl_rootnf)
POW_FAMILY(atan2, float, vcl_atan2f)
POW_FAMILY(atan2pi, float, vcl_atan2pif)
POW_FAMILY(hypot, float, vcl_hypotf)

#define POW_FAMILY_D(f, B, core)					\
	double OVLD f(double x, B y) { return core(x, y); }		\
	FOR_WIDTHS(V_2, double, f, double, B)

POW_FAMILY_D(pow, double, vcl_pow)
POW_FAMILY_D(powr, double, vcl_powr)
POW_FAMILY_D(pown, int, vcl_pown)
POW_FAMILY_D(rootn, int, vcl_rootn)
POW_FAMILY_D(atan2, double, vcl_atan2)
POW_FAMILY_D(atan2pi, double, vcl_atan2pi)
POW_FAMILY_D(hypot, double, vcl_hypot)

float OVERLOAD half_divide(float x, float y)
{
	return x / y;
}

float OVERLOAD native_divide(float x, float y)
{
	return x / y;
}

float OVERLOAD half_recip(float x)
{
	return 1.0f / x;
}

float OVERLOAD native_recip(float x)
{
	return 1.0f / x;
}

FOR_WIDTHS(V_2, float, half_divide, float, float)
FOR_WIDTHS(V_2, float, native_divide, float, float)
FOR_WIDTHS(V_1, float, half_recip, float)
FOR_WIDTHS(V_1, float, native_recip, float)
