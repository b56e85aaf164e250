/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/core.h - what the math library's cores (math/\*.h) need, in the C
 * that OpenCL C and C share, so that the device library and the host's
 * accuracy tests compile the same source (opencl-library.rst, "The math
 * library: design").
 *
 * - No contraction: every a * b + c is two roundings on both sides, and
 *   fma() is written where one rounding is meant.  OpenCL C contracts by
 *   default; the host test is built with -ffp-contract=off.
 * - VCL_FN marks a core: static inline, so that each user has its copy;
 *   VCL_TABLE a table of constants (math/tables.h, the coefficients of
 *   the polynomials), in __constant memory on the device.
 * - vcl_poly(VCL_COEFFS(c), n, x): the polynomial c[0] x^(n-1) + ... +
 *   c[n-1] by Horner's rule, an fma per step.  VCL_COEFFS hides the
 *   table's address from the optimizer, which would otherwise fold each
 *   coefficient into a constant of its own: on the device (PIC, medium
 *   code model) every such constant costs three instructions to load,
 *   where an entry of a table whose address is known costs one.
 * - vcl_u64, vcl_as_double() and vcl_as_u64(): the bits of a double;
 *   vcl_clz64(u): the leading zeros of a 64-bit value (64 for 0).
 * - vcl_pow2(k): 2^k as a double, for k of a normal double's exponent
 *   (-1022 to 1023), exactly.
 * - vcl_rint_small(t): rint(t) for |t| < 2^62, the sign of a zero kept;
 *   on the device a conversion each way, without rint()'s test for
 *   values too large to convert.
 * - vcl_two_sum(a, b, &e): a + b and its exact error (Knuth's two-sum,
 *   any order of magnitudes).
 */
#ifndef VACCEL_CL_MATH_CORE_H
#define VACCEL_CL_MATH_CORE_H

#ifdef __OPENCL_C_VERSION__
#pragma OPENCL FP_CONTRACT OFF
typedef ulong vcl_u64;
#define vcl_as_double(u)	as_double(u)
#define vcl_as_u64(d)		as_ulong(d)
#define vcl_clz64(u)		((int)clz((ulong)(u)))
#else
#include <math.h>
#include <stdint.h>
typedef uint64_t vcl_u64;

static inline double vcl_as_double(vcl_u64 u)
{
	union { vcl_u64 u; double d; } v = { .u = u };

	return v.d;
}

static inline vcl_u64 vcl_as_u64(double d)
{
	union { double d; vcl_u64 u; } v = { .d = d };

	return v.u;
}

static inline int vcl_clz64(vcl_u64 u)
{
	return u ? __builtin_clzll(u) : 64;
}
#endif

#define VCL_FN	static inline
#ifdef __OPENCL_C_VERSION__
#define VCL_CONST	__constant
#else
#define VCL_CONST	const
#endif
#define VCL_TABLE	static VCL_CONST

#define VCL_COEFFS(c)							\
	({								\
		VCL_CONST double *c_ = (c);				\
		__asm__("" : "+r"(c_));					\
		c_;							\
	})

VCL_FN double vcl_poly(VCL_CONST double *c, int n, double x)
{
	double q = c[0];

	for (int i = 1; i < n; i++)
		q = fma(q, x, c[i]);
	return q;
}

VCL_FN double vcl_pow2(int k)
{
	return vcl_as_double((vcl_u64)(k + 1023) << 52);
}

/* a + b as s and its exact error *e. */
VCL_FN double vcl_two_sum(double a, double b, double *e)
{
	double s = a + b, bb = s - a;

	*e = (a - (s - bb)) + (b - bb);
	return s;
}

#ifdef __OPENCL_C_VERSION__
VCL_FN double vcl_rint_small(double t)
{
	long k;

	__asm__("fcvt.l.d %0, %1, rne" : "=r"(k) : "f"(t));
	return copysign((double)k, t);
}
#else
#define vcl_rint_small(t)	rint(t)
#endif

#endif /* VACCEL_CL_MATH_CORE_H */
