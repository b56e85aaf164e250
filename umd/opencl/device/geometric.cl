// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * geometric.cl - the geometric functions of OpenCL C 1.2 (6.12.5): cross,
 * dot, distance, length, normalize on float and double, scalar and
 * vectors of 2, 3 and 4, and fast_distance, fast_length and
 * fast_normalize on float.
 *
 * dot adds the products in order, without contraction (a product and a
 * sum are two roundings, as the host computes them with
 * -ffp-contract=off).  length is the square root of dot, except where
 * the sum of squares would overflow or lose its precision to underflow:
 * then the vector is scaled by a power of two first, and the result
 * scaled back, exactly.  normalize scales the vector itself when its
 * length is infinite (components near FLT_MAX) or small (where dividing
 * by a subnormal length loses precision), and follows the
 * specification's rules for a zero vector (returned as it is), a NaN
 * (NaNs) and infinities (the direction of the infinite components).  The
 * fast_ forms skip the scaling.
 */

#include "device/library.h"

#pragma clang fp contract(off)

/*
 * The functions on vectors of @n of @T: sums of squares above @BIG
 * (possibly overflowed) are computed again on the vector times @DOWN, and
 * sums below @SMALL on the vector times @UP.
 */
#define GEOMETRIC_N(n, T, BIG, SMALL, UP, DOWN)			\
	T OVLD dot(T##n x, T##n y)					\
	{								\
		T s = x[0] * y[0];					\
									\
		for (int i = 1; i < n; i++)				\
			s = s + x[i] * y[i];				\
		return s;						\
	}								\
	T OVLD length(T##n p)						\
	{								\
		T s = dot(p, p);					\
		T##n q;							\
									\
		if (s > (T)BIG) {					\
			q = p * (T)DOWN;				\
			return sqrt(dot(q, q)) * (T)UP;			\
		}							\
		if (s < (T)SMALL) {					\
			q = p * (T)UP;					\
			return sqrt(dot(q, q)) * (T)DOWN;		\
		}							\
		return sqrt(s);						\
	}								\
	T OVLD distance(T##n p0, T##n p1)				\
	{								\
		return length(p0 - p1);					\
	}								\
	T##n OVLD normalize(T##n p)					\
	{								\
		T l;							\
									\
		if (all(p == (T)0))					\
			return p;					\
		if (any(isnan(p)))					\
			return (T##n)(__builtin_nan(""));		\
		if (any(isinf(p)))					\
			p = isinf(p) ? copysign((T##n)1, p) : (T)0 * p; \
		/*							\
		 * A length past the range (its components' directions	\
		 * then survive DOWN) or a small one (UP is exact): the	\
		 * vector itself is scaled.				\
		 */							\
		l = length(p);						\
		if (isinf(l)) {						\
			p = p * (T)DOWN;				\
			l = length(p);					\
		} else if (l < (T)SMALL) {				\
			p = p * (T)UP;					\
			l = length(p);					\
		}							\
		return p / l;						\
	}

#define GEOMETRIC(T, BIG, SMALL, UP, DOWN)				\
	T OVERLOAD dot(T x, T y)					\
	{								\
		return x * y;						\
	}								\
	T OVERLOAD length(T p)						\
	{								\
		return fabs(p);						\
	}								\
	T OVERLOAD distance(T p0, T p1)					\
	{								\
		return fabs(p0 - p1);					\
	}								\
	T OVERLOAD normalize(T p)					\
	{								\
		if (p == (T)0 || isnan(p))				\
			return p;					\
		return copysign((T)1, p);				\
	}								\
	GEOMETRIC_N(2, T, BIG, SMALL, UP, DOWN)			\
	GEOMETRIC_N(3, T, BIG, SMALL, UP, DOWN)			\
	GEOMETRIC_N(4, T, BIG, SMALL, UP, DOWN)			\
	T##3 OVLD cross(T##3 a, T##3 b)					\
	{								\
		return (T##3)(a.y * b.z - a.z * b.y,			\
			      a.z * b.x - a.x * b.z,			\
			      a.x * b.y - a.y * b.x);			\
	}								\
	T##4 OVLD cross(T##4 a, T##4 b)					\
	{								\
		return (T##4)(cross(a.xyz, b.xyz), (T)0);		\
	}

/*
 * float: a sum above 2^126 is computed again on the vector times 2^-100
 * (components of 2^28 at most), one below 2^-100 on the vector times
 * 2^100 (components of 2^-49 at least, whose squares stay normal);
 * double the same with 2^1020, 2^-900 and 2^600.
 */
GEOMETRIC(float, 0x1p126f, 0x1p-100f, 0x1p100f, 0x1p-100f)
GEOMETRIC(double, 0x1p1020, 0x1p-900, 0x1p600, 0x1p-600)

float OVERLOAD fast_length(float p)
{
	return fabs(p);
}

float OVERLOAD fast_distance(float p0, float p1)
{
	return fabs(p0 - p1);
}

float OVERLOAD fast_normalize(float p)
{
	return normalize(p);
}

#define FAST_N(n)							\
	float OVLD fast_length(float##n p)				\
	{								\
		return half_sqrt(dot(p, p));				\
	}								\
	float OVLD fast_distance(float##n p0, float##n p1)		\
	{								\
		return fast_length(p0 - p1);				\
	}								\
	float##n OVLD fast_normalize(float##n p)			\
	{								\
		float s = dot(p, p);					\
									\
		return s == 0.0f ? p : p * (1.0f / half_sqrt(s));	\
	}

FAST_N(2)
FAST_N(3)
FAST_N(4)
