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

/* lgamma_r with its sign in address space @AS; the vectors per component. */
#define LGAMMA_R_VECTOR(n, AS)						\
	float##n OVLD lgamma_r(float##n x, AS int##n *signp)		\
	{								\
		float##n r = 0;						\
		int##n s = 0;						\
									\
		for (int i = 0; i < n; i++) {				\
			int si;						\
									\
			r[i] = vcl_lgamma_rf(x[i], &si);		\
			s[i] = si;					\
		}							\
		*signp = s;						\
		return r;						\
	}

#define LGAMMA_R(AS)							\
	float OVLD lgamma_r(float x, AS int *signp)			\
	{								\
		int s;							\
		float r = vcl_lgamma_rf(x, &s);				\
									\
		*signp = s;						\
		return r;						\
	}								\
	FOR_WIDTHS(LGAMMA_R_VECTOR, AS)

LGAMMA_R(__global)
LGAMMA_R(__local)
LGAMMA_R(__private)
