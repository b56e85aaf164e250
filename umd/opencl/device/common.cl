// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * common.cl - the common functions of OpenCL C 1.2 (6.12.4) on float and
 * double, scalar and vector: clamp, degrees, max, min, mix, radians,
 * step, smoothstep and sign, with the vector forms whose limits or
 * weights are scalars.
 *
 * clamp is fmin(fmax(x, minval), maxval), as the specification defines
 * it; max and min are fmax and fmin (the specification leaves NaN to the
 * implementation, and this way a NaN operand yields the other one); mix
 * is x + (y - x) * a, rounded at each operation (no contraction into
 * an fma); sign keeps the sign of a zero and makes a NaN 0.0.
 */

#include "device/library.h"

/* mix, degrees, smoothstep: each operation rounded, as written. */
#pragma clang fp contract(off)

#define COMMON(T, PI)							\
	T OVERLOAD clamp(T x, T lo, T hi)				\
	{								\
		return fmin(fmax(x, lo), hi);				\
	}								\
	T OVERLOAD degrees(T r)						\
	{								\
		return ((T)180 / (T)PI) * r;				\
	}								\
	T OVERLOAD radians(T d)						\
	{								\
		return ((T)PI / (T)180) * d;				\
	}								\
	T OVERLOAD max(T x, T y)					\
	{								\
		return fmax(x, y);					\
	}								\
	T OVERLOAD min(T x, T y)					\
	{								\
		return fmin(x, y);					\
	}								\
	T OVERLOAD mix(T x, T y, T a)					\
	{								\
		return x + (y - x) * a;					\
	}								\
	T OVERLOAD step(T edge, T x)					\
	{								\
		return x < edge ? (T)0 : (T)1;				\
	}								\
	T OVERLOAD smoothstep(T e0, T e1, T x)				\
	{								\
		T t = clamp((x - e0) / (e1 - e0), (T)0, (T)1);		\
									\
		return t * t * ((T)3 - (T)2 * t);			\
	}								\
	T OVERLOAD sign(T x)						\
	{								\
		if (x > (T)0)						\
			return (T)1;					\
		if (x < (T)0)						\
			return (T)-1;					\
		return x == (T)0 ? x : (T)0;				\
	}								\
	FOR_WIDTHS(V_3, T, clamp, T, T, T)				\
	FOR_WIDTHS(V_3SS, T, clamp, T, T, T)				\
	FOR_WIDTHS(V_1, T, degrees, T)					\
	FOR_WIDTHS(V_1, T, radians, T)					\
	FOR_WIDTHS(V_2, T, max, T, T)					\
	FOR_WIDTHS(V_2S, T, max, T, T)					\
	FOR_WIDTHS(V_2, T, min, T, T)					\
	FOR_WIDTHS(V_2S, T, min, T, T)					\
	FOR_WIDTHS(V_3, T, mix, T, T, T)				\
	FOR_WIDTHS(V_3S, T, mix, T, T, T)				\
	FOR_WIDTHS(V_2, T, step, T, T)					\
	FOR_WIDTHS(V_S2, T, step, T, T)					\
	FOR_WIDTHS(V_3, T, smoothstep, T, T, T)				\
	FOR_WIDTHS(V_SS3, T, smoothstep, T, T, T)			\
	FOR_WIDTHS(V_1, T, sign, T)

COMMON(float, M_PI_F)
COMMON(double, M_PI)
