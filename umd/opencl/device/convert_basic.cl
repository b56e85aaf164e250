// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * convert_basic.cl - the explicit conversions of OpenCL C 1.2 (6.2.3)
 * in their default rounding: convert_<type>{,n} between every integer
 * type and float and double, and convert_<integer type>{,n}_sat from
 * every type.
 *
 * The default rounding is C's: towards zero to an integer (fcvt with
 * rtz), to nearest even to float and double.  An integer conversion
 * keeps the low bits, and its _sat form clamps to the destination's
 * range.  The vector forms are clang's __builtin_convertvector.  The
 * _sat form from float or double rounds towards zero too, clamps to the
 * range, and makes a NaN 0.  The explicit rounding modes (_rte, _rtz,
 * _rtp, _rtn) are not here yet.
 */

#include "device/library.h"

#define IS_SIGNED(T)	((T)-1 < (T)0)

/* @D of @S, and of every vector width. */
#define CONVERT_N(n, D, S)						\
	D##n OVERLOAD convert_##D##n(S##n x)				\
	{								\
		return __builtin_convertvector(x, D##n);		\
	}

#define CONVERT(D, S)							\
	D OVERLOAD convert_##D(S x)					\
	{								\
		return (D)x;						\
	}								\
	FOR_WIDTHS(CONVERT_N, D, S)

#define CONVERT_FROM_ALL(D)						\
	CONVERT(D, char) CONVERT(D, uchar) CONVERT(D, short)		\
	CONVERT(D, ushort) CONVERT(D, int) CONVERT(D, uint)		\
	CONVERT(D, long) CONVERT(D, ulong) CONVERT(D, float)		\
	CONVERT(D, double)

CONVERT_FROM_ALL(char)
CONVERT_FROM_ALL(uchar)
CONVERT_FROM_ALL(short)
CONVERT_FROM_ALL(ushort)
CONVERT_FROM_ALL(int)
CONVERT_FROM_ALL(uint)
CONVERT_FROM_ALL(long)
CONVERT_FROM_ALL(ulong)
CONVERT_FROM_ALL(float)
CONVERT_FROM_ALL(double)

/*
 * The saturated conversion to integer type @D, of range [@DMIN, @DMAX],
 * from integer type @S: a negative value is compared as a long, any other
 * as a ulong.
 */
#define CONVERT_SAT_N(n, D, S)						\
	D##n OVLD convert_##D##n##_sat(S##n x)				\
	{								\
		D##n r = 0;						\
									\
		for (int i = 0; i < n; i++)				\
			r[i] = convert_##D##_sat(x[i]);			\
		return r;						\
	}

#define CONVERT_SAT(D, DMIN, DMAX, S)					\
	D OVERLOAD convert_##D##_sat(S x)				\
	{								\
		if (IS_SIGNED(S) && x < (S)0)				\
			return (long)x < (long)(DMIN) ? (D)(DMIN) : (D)x; \
		return (ulong)x > (ulong)(DMAX) ? (D)(DMAX) : (D)x;	\
	}								\
	FOR_WIDTHS(CONVERT_SAT_N, D, S)

/*
 * From float or double: a limit converted to @S is exact, or rounds to a
 * power of two out of the range; either way a value at or past it
 * converts to the limit, and a value inside converts towards zero.
 */
#define CONVERT_SAT_FLOAT(D, DMIN, DMAX, S)				\
	D OVERLOAD convert_##D##_sat(S x)				\
	{								\
		if (x != x)						\
			return (D)0;					\
		if (x <= (S)(DMIN))					\
			return (D)(DMIN);				\
		if (x >= (S)(DMAX))					\
			return (D)(DMAX);				\
		return (D)x;						\
	}								\
	FOR_WIDTHS(CONVERT_SAT_N, D, S)

#define CONVERT_SAT_FROM_ALL(D, DMIN, DMAX)				\
	CONVERT_SAT_FLOAT(D, DMIN, DMAX, float)				\
	CONVERT_SAT_FLOAT(D, DMIN, DMAX, double)			\
	CONVERT_SAT(D, DMIN, DMAX, char)				\
	CONVERT_SAT(D, DMIN, DMAX, uchar)				\
	CONVERT_SAT(D, DMIN, DMAX, short)				\
	CONVERT_SAT(D, DMIN, DMAX, ushort)				\
	CONVERT_SAT(D, DMIN, DMAX, int)					\
	CONVERT_SAT(D, DMIN, DMAX, uint)				\
	CONVERT_SAT(D, DMIN, DMAX, long)				\
	CONVERT_SAT(D, DMIN, DMAX, ulong)

CONVERT_SAT_FROM_ALL(char, CHAR_MIN, CHAR_MAX)
CONVERT_SAT_FROM_ALL(uchar, 0, UCHAR_MAX)
CONVERT_SAT_FROM_ALL(short, SHRT_MIN, SHRT_MAX)
CONVERT_SAT_FROM_ALL(ushort, 0, USHRT_MAX)
CONVERT_SAT_FROM_ALL(int, INT_MIN, INT_MAX)
CONVERT_SAT_FROM_ALL(uint, 0, UINT_MAX)
CONVERT_SAT_FROM_ALL(long, LONG_MIN, LONG_MAX)
CONVERT_SAT_FROM_ALL(ulong, 0, ULONG_MAX)
