// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * integer.cl - the integer functions of OpenCL C 1.2 (6.12.3): abs,
 * abs_diff, add_sat, sub_sat, hadd, rhadd, clamp, clz, mad_hi, mad_sat,
 * max, min, mul_hi, rotate, upsample, popcount, mad24 and mul24, on
 * every integer type, scalar and vector.
 *
 * The scalar forms are written once for every type: saturation comes
 * from clang's overflow builtins, the high halves and mad_sat from a
 * product twice as wide (__int128 for long, which the backend turns into
 * mulh and mulhu), hadd and rhadd from halves that cannot overflow.  The
 * vector forms apply them to each component (library.h).
 */

#include "device/library.h"

#define IS_SIGNED(T)	((T)-1 < (T)0)
#define T_MAX(T, UT)	(IS_SIGNED(T) ? (T)((UT)~(UT)0 >> 1) : (T)~(UT)0)
#define T_MIN(T, UT)	(IS_SIGNED(T) ? (T)(-(T_MAX(T, UT)) - 1) : (T)0)
#define T_BITS(T)	((int)sizeof(T) * 8)

/*
 * The scalar functions of integer type @T, @UT its unsigned type and @W a
 * type at least twice as wide (__int128 for the 64-bit types).
 */
#define INTEGER_SCALAR(T, UT, W)					\
	UT OVERLOAD abs(T x)						\
	{								\
		return x < (T)0 ? (UT)((UT)0 - (UT)x) : (UT)x;		\
	}								\
	UT OVERLOAD abs_diff(T x, T y)					\
	{								\
		return x > y ? (UT)((UT)x - (UT)y) : (UT)((UT)y - (UT)x); \
	}								\
	T OVERLOAD add_sat(T x, T y)					\
	{								\
		T r;							\
									\
		if (__builtin_add_overflow(x, y, &r))			\
			r = IS_SIGNED(T) && y < (T)0 ? T_MIN(T, UT) : T_MAX(T, UT); \
		return r;						\
	}								\
	T OVERLOAD sub_sat(T x, T y)					\
	{								\
		T r;							\
									\
		if (__builtin_sub_overflow(x, y, &r))			\
			r = IS_SIGNED(T) && y < (T)0 ? T_MAX(T, UT) : T_MIN(T, UT); \
		return r;						\
	}								\
	T OVERLOAD hadd(T x, T y)					\
	{								\
		return (T)((x >> 1) + (y >> 1) + (x & y & 1));		\
	}								\
	T OVERLOAD rhadd(T x, T y)					\
	{								\
		return (T)((x >> 1) + (y >> 1) + ((x | y) & 1));	\
	}								\
	T OVERLOAD max(T x, T y)					\
	{								\
		return x > y ? x : y;					\
	}								\
	T OVERLOAD min(T x, T y)					\
	{								\
		return x < y ? x : y;					\
	}								\
	T OVERLOAD clamp(T x, T lo, T hi)				\
	{								\
		return min(max(x, lo), hi);				\
	}								\
	T OVERLOAD clz(T x)						\
	{								\
		ulong u = (UT)x;					\
									\
		return u ? (T)(__builtin_clzl(u) - (64 - T_BITS(T))) : (T)T_BITS(T); \
	}								\
	T OVERLOAD popcount(T x)					\
	{								\
		return (T)__builtin_popcountl((ulong)(UT)x);		\
	}								\
	T OVERLOAD mul_hi(T x, T y)					\
	{								\
		return (T)(((W)x * (W)y) >> T_BITS(T));			\
	}								\
	T OVERLOAD mad_hi(T a, T b, T c)				\
	{								\
		return (T)(mul_hi(a, b) + c);				\
	}								\
	T OVERLOAD mad_sat(T a, T b, T c)				\
	{								\
		W r = (W)a * (W)b + (W)c;				\
									\
		if (r > (W)T_MAX(T, UT))				\
			return T_MAX(T, UT);				\
		if (r < (W)T_MIN(T, UT))				\
			return T_MIN(T, UT);				\
		return (T)r;						\
	}								\
	T OVERLOAD rotate(T v, T i)					\
	{								\
		UT u = (UT)v;						\
		int s = (int)((UT)i & (T_BITS(T) - 1));			\
									\
		return (T)((UT)(u << s) | (UT)(u >> ((T_BITS(T) - s) & (T_BITS(T) - 1)))); \
	}

/* The vector forms of the functions of INTEGER_SCALAR. */
#define INTEGER_VECTOR(n, T, UT)					\
	V_1(n, UT, abs, T)						\
	V_2(n, UT, abs_diff, T, T)					\
	V_2(n, T, add_sat, T, T)					\
	V_2(n, T, sub_sat, T, T)					\
	V_2(n, T, hadd, T, T)						\
	V_2(n, T, rhadd, T, T)						\
	V_2(n, T, max, T, T)						\
	V_2S(n, T, max, T, T)						\
	V_2(n, T, min, T, T)						\
	V_2S(n, T, min, T, T)						\
	V_3(n, T, clamp, T, T, T)					\
	V_3SS(n, T, clamp, T, T, T)					\
	V_1(n, T, clz, T)						\
	V_1(n, T, popcount, T)						\
	V_2(n, T, mul_hi, T, T)						\
	V_3(n, T, mad_hi, T, T, T)					\
	V_3(n, T, mad_sat, T, T, T)					\
	V_2(n, T, rotate, T, T)

#define INTEGER_TYPE(T, UT, W)				\
	INTEGER_SCALAR(T, UT, W)			\
	FOR_WIDTHS(INTEGER_VECTOR, T, UT)

INTEGER_TYPE(char, uchar, int)
INTEGER_TYPE(uchar, uchar, int)
INTEGER_TYPE(short, ushort, int)
INTEGER_TYPE(ushort, ushort, uint)
INTEGER_TYPE(int, uint, long)
INTEGER_TYPE(uint, uint, ulong)
INTEGER_TYPE(long, ulong, __int128)
INTEGER_TYPE(ulong, ulong, unsigned __int128)

/* upsample(hi, lo): hi in the high half, lo in the low half of type @R. */
#define UPSAMPLE(R, T, UT)						\
	R OVERLOAD upsample(T hi, UT lo)				\
	{								\
		return (R)(((R)hi << (sizeof(T) * 8)) | (R)lo);	\
	}								\
	FOR_WIDTHS(V_2, R, upsample, T, UT)

UPSAMPLE(short, char, uchar)
UPSAMPLE(ushort, uchar, uchar)
UPSAMPLE(int, short, ushort)
UPSAMPLE(uint, ushort, ushort)
UPSAMPLE(long, int, uint)
UPSAMPLE(ulong, uint, uint)

/*
 * mul24 and mad24: the operands' low 24 bits, as a signed or an unsigned
 * number; the product is kept modulo 2^32 (the specification leaves a
 * product out of 32 bits to the implementation).
 */
int OVERLOAD mul24(int x, int y)
{
	return (int)((long)((x << 8) >> 8) * (long)((y << 8) >> 8));
}

uint OVERLOAD mul24(uint x, uint y)
{
	return (x & 0xffffffu) * (y & 0xffffffu);
}

int OVERLOAD mad24(int x, int y, int z)
{
	return (int)((uint)mul24(x, y) + (uint)z);
}

uint OVERLOAD mad24(uint x, uint y, uint z)
{
	return mul24(x, y) + z;
}

FOR_WIDTHS(V_2, int, mul24, int, int)
FOR_WIDTHS(V_2, uint, mul24, uint, uint)
FOR_WIDTHS(V_3, int, mad24, int, int, int)
FOR_WIDTHS(V_3, uint, mad24, uint, uint, uint)
