// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_trig.cl - sin, cos, tan, sincos, sinpi, cospi and tanpi for float
 * and double (6.12.2), and the half_ and native_ forms of the first three
 * for float, which are the same functions: correctly rounded in float, and
 * as short as these are.  sincos has a form for each address space of its
 * second result.  The cores are math/trig.h's and math/trig_double.h's,
 * which the host's accuracy tests compile too.
 */

#include "device/library.h"
#include "device/math/trig.h"
#include "device/math/trig_double.h"

#define TRIG_FAMILY(f, core)						\
	float OVLD f(float x) { return core(x); }			\
	FOR_WIDTHS(V_1, float, f, float)
#define TRIG_FAMILY_D(f, core)						\
	double OVLD f(double x) { return core(x); }			\
	FOR_WIDTHS(V_1, double, f, double)

TRIG_FAMILY(sin, vcl_sinf)
TRIG_FAMILY(cos, vcl_cosf)
TRIG_FAMILY(tan, vcl_tanf)
TRIG_FAMILY(half_sin, vcl_sinf)
TRIG_FAMILY(half_cos, vcl_cosf)
TRIG_FAMILY(half_tan, vcl_tanf)
TRIG_FAMILY(native_sin, vcl_sinf)
TRIG_FAMILY(native_cos, vcl_cosf)
TRIG_FAMILY(native_tan, vcl_tanf)
TRIG_FAMILY(sinpi, vcl_sinpif)
TRIG_FAMILY(cospi, vcl_cospif)
TRIG_FAMILY(tanpi, vcl_tanpif)

/* sincos, its cosine through a pointer in each address space. */
ALL_SPACES(sincos, float, float, float, r = vcl_sincosf(x, &v))
TRIG_FAMILY_D(sin, vcl_sin)
TRIG_FAMILY_D(cos, vcl_cos)
TRIG_FAMILY_D(tan, vcl_tan)
TRIG_FAMILY_D(sinpi, vcl_sinpi)
TRIG_FAMILY_D(cospi, vcl_cospi)
TRIG_FAMILY_D(tanpi, vcl_tanpi)
ALL_SPACES(sincos, double, double, double, r = vcl_sincos(x, &v))
