// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_basic.cl - the math functions of OpenCL C 1.2 (6.12.2) that are
 * one instruction or a few of the engine's F and D extensions, which are
 * exact IEEE binary32 and binary64: sqrt (fsqrt), fma and mad (fmadd),
 * fabs, copysign (fsgnj), fmin and fmax (fmin, fmax, whose NaN rules are
 * OpenCL's: a NaN operand yields the other one), and the roundings floor,
 * ceil, trunc, round and rint: fcvt to an integer with a static rounding
 * mode (rdn, rup, rtz, rmm, rne) and back, for a value small enough to
 * have a fraction; a larger one, an infinity or a NaN is its own result.
 * The sign of the argument is kept, so that -0.5 rounds to -0.0.
 * native_sqrt and half_sqrt are sqrt, which is correctly rounded.
 * nextafter steps the bits of its first argument.
 *
 * Every one is correctly rounded: mad is fma.
 */

#include "device/library.h"

#define ROUNDING(f, mode)						\
	float OVERLOAD f(float x)					\
	{								\
		long i;							\
									\
		if (!(__builtin_fabsf(x) < 0x1p23f))			\
			return x;					\
		__asm__("fcvt.l.s %0, %1, " mode : "=r"(i) : "f"(x));	\
		return __builtin_copysignf((float)i, x);		\
	}								\
	double OVERLOAD f(double x)					\
	{								\
		long i;							\
									\
		if (!(__builtin_fabs(x) < 0x1p52))			\
			return x;					\
		__asm__("fcvt.l.d %0, %1, " mode : "=r"(i) : "f"(x));	\
		return __builtin_copysign((double)i, x);		\
	}								\
	FOR_WIDTHS(V_1, float, f, float)				\
	FOR_WIDTHS(V_1, double, f, double)

ROUNDING(floor, "rdn")
ROUNDING(ceil, "rup")
ROUNDING(trunc, "rtz")
ROUNDING(round, "rmm")
ROUNDING(rint, "rne")

/* A function of one argument, from clang's builtin for float (bf) and double (bd). */
#define UNARY(f, bf, bd)						\
	float OVERLOAD f(float x) { return bf(x); }			\
	double OVERLOAD f(double x) { return bd(x); }			\
	FOR_WIDTHS(V_1, float, f, float)				\
	FOR_WIDTHS(V_1, double, f, double)

UNARY(sqrt, __builtin_sqrtf, __builtin_sqrt)
UNARY(fabs, __builtin_fabsf, __builtin_fabs)

/* native_ and half_ functions: float only. */
float OVERLOAD native_sqrt(float x)
{
	return __builtin_sqrtf(x);
}

float OVERLOAD half_sqrt(float x)
{
	return __builtin_sqrtf(x);
}

FOR_WIDTHS(V_1, float, native_sqrt, float)
FOR_WIDTHS(V_1, float, half_sqrt, float)

#define BINARY(f, bf, bd)						\
	float OVERLOAD f(float x, float y) { return bf(x, y); }		\
	double OVERLOAD f(double x, double y) { return bd(x, y); }	\
	FOR_WIDTHS(V_2, float, f, float, float)				\
	FOR_WIDTHS(V_2, double, f, double, double)

BINARY(copysign, __builtin_copysignf, __builtin_copysign)
BINARY(fmin, __builtin_fminf, __builtin_fmin)
BINARY(fmax, __builtin_fmaxf, __builtin_fmax)

/* fmin and fmax of a vector and a scalar. */
FOR_WIDTHS(V_2S, float, fmin, float, float)
FOR_WIDTHS(V_2S, double, fmin, double, double)
FOR_WIDTHS(V_2S, float, fmax, float, float)
FOR_WIDTHS(V_2S, double, fmax, double, double)

/*
 * nextafter: the value next to @x towards @y, one step of the bits of
 * @x's magnitude, up when @y is farther from zero on @x's side, else
 * down; from a zero, the smallest subnormal of @y's sign.  x == y gives
 * y (so that nextafter(-0.0, 0.0) is 0.0), a NaN a NaN, and the largest
 * finite value steps to the infinity.
 */
#define NEXTAFTER(T, UT, as_T, as_UT, SIGN)				\
	T OVERLOAD nextafter(T x, T y)					\
	{								\
		UT u = as_UT(x);					\
									\
		if (x != x || y != y)					\
			return x + y;					\
		if (x == y)						\
			return y;					\
		if (x == (T)0)						\
			return as_T((as_UT(y) & SIGN) | 1);		\
		u = (x < y) == (x > (T)0) ? u + 1 : u - 1;		\
		return as_T(u);						\
	}								\
	FOR_WIDTHS(V_2, T, nextafter, T, T)

NEXTAFTER(float, uint, as_float, as_uint, 0x80000000u)
NEXTAFTER(double, ulong, as_double, as_ulong, 0x8000000000000000ul)

#define TERNARY(f)							\
	float OVERLOAD f(float a, float b, float c)			\
	{								\
		return __builtin_fmaf(a, b, c);				\
	}								\
	double OVERLOAD f(double a, double b, double c)			\
	{								\
		return __builtin_fma(a, b, c);				\
	}								\
	FOR_WIDTHS(V_3, float, f, float, float, float)			\
	FOR_WIDTHS(V_3, double, f, double, double, double)

TERNARY(fma)
TERNARY(mad)
