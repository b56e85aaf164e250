// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_trig.cl - sin, cos, tan, sincos, sinpi, cospi and tanpi for float
 * (6.12.2), and the half_ and native_ forms of the first three, which are
 * the same functions: correctly rounded, and as short as these are.  sincos has a
 * form for each address space of its second result.  The cores are
 * math/trig.h's, which the host's accuracy test compiles too.
 */

#include "device/library.h"
#include "device/math/trig.h"

#define TRIG_FAMILY(f, core)						\
	float OVLD f(float x) { return core(x); }			\
	FOR_WIDTHS(V_1, float, f, float)

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

/* sincos with its cosine in address space @AS; the vectors per component. */
#define SINCOS_VECTOR(n, AS)						\
	float##n OVLD sincos(float##n x, AS float##n *cosval)		\
	{								\
		float##n s = 0, c = 0;					\
									\
		for (int i = 0; i < n; i++) {				\
			float ci;					\
									\
			s[i] = vcl_sincosf(x[i], &ci);			\
			c[i] = ci;					\
		}							\
		*cosval = c;						\
		return s;						\
	}

#define SINCOS(AS)							\
	float OVLD sincos(float x, AS float *cosval)			\
	{								\
		float c;						\
		float s = vcl_sincosf(x, &c);				\
									\
		*cosval = c;						\
		return s;						\
	}								\
	FOR_WIDTHS(SINCOS_VECTOR, AS)

SINCOS(__global)
SINCOS(__local)
SINCOS(__private)
