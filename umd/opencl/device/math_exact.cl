// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_exact.cl - the math functions of OpenCL C 1.2 (6.12.2) whose
 * result is exact, or one correct rounding, for float and double and
 * every vector width: fmod, remainder, remquo, ldexp, frexp, ilogb and
 * logb (cores in math/exact.h, which the host's tests compile too), and
 * fdim, fmax's kin maxmag and minmag, fract, modf and nan, which are a
 * few operations each.  The functions that return a second result through
 * a pointer (fract, modf, frexp, remquo) have a form for each address
 * space: __global, __local and __private.
 */

#include "device/library.h"
#include "device/math/exact.h"

/* One argument, from a core of each type. */
#define EXACT_1(f, R, T, core)						\
	R OVLD f(T x) { return core(x); }				\
	FOR_WIDTHS(V_1, R, f, T)

EXACT_1(ilogb, int, float, vcl_ilogbf)
EXACT_1(ilogb, int, double, vcl_ilogb)
EXACT_1(logb, float, float, vcl_logbf)
EXACT_1(logb, double, double, vcl_logb)

/* Two arguments of the same type. */
#define EXACT_2(f, T, ...)						\
	T OVLD f(T x, T y) { __VA_ARGS__; }				\
	FOR_WIDTHS(V_2, T, f, T, T)

EXACT_2(fmod, float, return vcl_fmodf(x, y))
EXACT_2(fmod, double, return vcl_fmod(x, y))
EXACT_2(remainder, float, return vcl_remainderf(x, y))
EXACT_2(remainder, double, return vcl_remainder(x, y))

/* fdim: x - y if x > y, else +0; a NaN operand gives a NaN. */
#define FDIM(T)								\
	EXACT_2(fdim, T,						\
		if (x != x || y != y) return x + y;			\
		return x > y ? x - y : (T)0)

FDIM(float)
FDIM(double)

/* maxmag and minmag: the one larger (smaller) in magnitude, else fmax (fmin). */
#define MAGNITUDE(f, T, cmp, tie)					\
	EXACT_2(f, T,							\
		T ax = __builtin_fabs(x), ay = __builtin_fabs(y);	\
		if (ax cmp ay) return x;				\
		if (ay cmp ax) return y;				\
		return tie(x, y))

MAGNITUDE(maxmag, float, >, fmax)
MAGNITUDE(maxmag, double, >, fmax)
MAGNITUDE(minmag, float, <, fmin)
MAGNITUDE(minmag, double, <, fmin)

/* ldexp(x, k), with k a vector or a scalar for every component. */
#define LDEXP(T, core)							\
	T OVLD ldexp(T x, int k) { return core(x, k); }			\
	FOR_WIDTHS(V_2, T, ldexp, T, int)				\
	FOR_WIDTHS(V_2S, T, ldexp, T, int)

LDEXP(float, vcl_ldexpf)
LDEXP(double, vcl_ldexp)

/* frexp: the mantissa in [0.5, 1) and the exponent. */
ALL_SPACES(frexp, float, float, int, r = vcl_frexpf(x, &v))
ALL_SPACES(frexp, double, double, int, r = vcl_frexp(x, &v))

/*
 * fract: x - floor(x), at most the largest value under 1, and floor(x):
 * so fract(-0) is +0, as the definition gives; fract(+-inf) is +-0, a NaN
 * gives NaN in both.
 */
#define FRACT_BODY(T, below_one)					\
	v = floor(x);							\
	if (x != x)							\
		r = x;							\
	else if (__builtin_isinf(x))					\
		r = __builtin_copysign((T)0, x);			\
	else								\
		r = __builtin_fmin(x - v, below_one)

ALL_SPACES(fract, float, float, float, FRACT_BODY(float, 0x1.fffffep-1f))
ALL_SPACES(fract, double, double, double, FRACT_BODY(double, 0x1.fffffffffffffp-1))

/* modf: the integral part trunc(x) and the rest, both with x's sign. */
#define MODF_BODY(T)							\
	v = trunc(x);							\
	r = __builtin_isinf(x) ? (T)0 : x - v;				\
	r = x != x ? x : __builtin_copysign(r, x)

ALL_SPACES(modf, float, float, float, MODF_BODY(float))
ALL_SPACES(modf, double, double, double, MODF_BODY(double))


#define REMQUO_SPACE(AS, T, core)					\
	T OVLD remquo(T x, T y, AS int *quo)				\
	{								\
		int q;							\
		T r = core(x, y, &q);					\
									\
		*quo = q;						\
		return r;						\
	}								\
	REMQUO_VECTOR(2, AS, T) REMQUO_VECTOR(3, AS, T)			\
	REMQUO_VECTOR(4, AS, T) REMQUO_VECTOR(8, AS, T)			\
	REMQUO_VECTOR(16, AS, T)

#define REMQUO_VECTOR(n, AS, T)						\
	T##n OVLD remquo(T##n x, T##n y, AS int##n *quo)		\
	{								\
		T##n r = 0;						\
		int##n q = 0;						\
									\
		for (int i = 0; i < n; i++) {				\
			int s;						\
									\
			r[i] = remquo(x[i], y[i], &s);			\
			q[i] = s;					\
		}							\
		*quo = q;						\
		return r;						\
	}

#define REMQUO(T, core)							\
	REMQUO_SPACE(__private, T, core)				\
	REMQUO_SPACE(__global, T, core)					\
	REMQUO_SPACE(__local, T, core)

REMQUO(float, vcl_remquof)
REMQUO(double, vcl_remquo)

/* nan: a quiet NaN whose payload holds @code's low bits. */
float OVLD nan(uint code)
{
	return as_float(0x7fc00000u | (code & 0x003fffffu));
}

double OVLD nan(ulong code)
{
	return as_double(0x7ff8000000000000ul | (code & 0x0007fffffffffffful));
}

FOR_WIDTHS(V_1, float, nan, uint)
FOR_WIDTHS(V_1, double, nan, ulong)
