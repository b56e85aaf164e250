// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * relational.cl - the relational functions of OpenCL C 1.2 (6.12.6):
 * isequal, isnotequal, isgreater, isgreaterequal, isless, islessequal,
 * islessgreater, isfinite, isinf, isnan, isnormal, isordered,
 * isunordered and signbit on float and double; any and all on the signed
 * integer types; bitselect and select on every type.
 *
 * A scalar test returns int 1 or 0.  A vector test returns, in each
 * component, -1 (every bit set) or 0, of the signed integer type of the
 * component's size: intn for floatn, longn for doublen.  The comparisons
 * are IEEE's, false when an operand is a NaN but for isnotequal; the
 * classes are read from the bits.  select on vectors, and any and all,
 * look at the most significant bit of each component.
 */

#include "device/library.h"

/* A vector test: -1 where the scalar one is true. */
#define V_REL1(n, I, f, T)					\
	I##n OVLD f(T##n x)					\
	{							\
		I##n r = 0;					\
		for (int i = 0; i < n; i++)			\
			r[i] = f(x[i]) ? (I)-1 : (I)0;		\
		return r;					\
	}

#define V_REL2(n, I, f, T)					\
	I##n OVLD f(T##n x, T##n y)				\
	{							\
		I##n r = 0;					\
		for (int i = 0; i < n; i++)			\
			r[i] = f(x[i], y[i]) ? (I)-1 : (I)0;	\
		return r;					\
	}

#define COMPARE(f, expr, T, I)					\
	int OVERLOAD f(T x, T y) { return expr; }		\
	FOR_WIDTHS(V_REL2, I, f, T)

/*
 * The tests on floating-point type @T, @I the signed integer type of its
 * size, @U the unsigned one, @EXP the mask of its exponent.
 */
#define RELATIONAL(T, I, U, EXP)					\
	COMPARE(isequal, x == y, T, I)					\
	COMPARE(isnotequal, x != y, T, I)				\
	COMPARE(isgreater, x > y, T, I)					\
	COMPARE(isgreaterequal, x >= y, T, I)				\
	COMPARE(isless, x < y, T, I)					\
	COMPARE(islessequal, x <= y, T, I)				\
	COMPARE(islessgreater, x < y || x > y, T, I)			\
	COMPARE(isordered, x == x && y == y, T, I)			\
	COMPARE(isunordered, x != x || y != y, T, I)			\
	int OVERLOAD isnan(T x)						\
	{								\
		return x != x;						\
	}								\
	int OVERLOAD isinf(T x)						\
	{								\
		return (as_##U(x) & ~((U)1 << (sizeof(T) * 8 - 1))) == (U)EXP; \
	}								\
	int OVERLOAD isfinite(T x)					\
	{								\
		return (as_##U(x) & (U)EXP) != (U)EXP;			\
	}								\
	int OVERLOAD isnormal(T x)					\
	{								\
		U e = as_##U(x) & (U)EXP;				\
									\
		return e != 0 && e != (U)EXP;				\
	}								\
	int OVERLOAD signbit(T x)					\
	{								\
		return (int)(as_##U(x) >> (sizeof(T) * 8 - 1));		\
	}								\
	FOR_WIDTHS(V_REL1, I, isnan, T)					\
	FOR_WIDTHS(V_REL1, I, isinf, T)					\
	FOR_WIDTHS(V_REL1, I, isfinite, T)				\
	FOR_WIDTHS(V_REL1, I, isnormal, T)				\
	FOR_WIDTHS(V_REL1, I, signbit, T)

RELATIONAL(float, int, uint, 0x7f800000u)
RELATIONAL(double, long, ulong, 0x7ff0000000000000ul)

/* any and all: the most significant bit of one or of every component. */
#define ANY_ALL_VECTOR(n, T)					\
	int OVLD any(T##n x)					\
	{							\
		int r = 0;					\
								\
		for (int i = 0; i < n; i++)			\
			r |= x[i] < 0;				\
		return r;					\
	}							\
	int OVLD all(T##n x)					\
	{							\
		int r = 1;					\
								\
		for (int i = 0; i < n; i++)			\
			r &= x[i] < 0;				\
		return r;					\
	}

#define ANY_ALL(T)						\
	int OVERLOAD any(T x) { return x < 0; }			\
	int OVERLOAD all(T x) { return x < 0; }			\
	FOR_WIDTHS(ANY_ALL_VECTOR, T)

ANY_ALL(char)
ANY_ALL(short)
ANY_ALL(int)
ANY_ALL(long)

/*
 * bitselect(a, b, c): the bits of b where c has ones, of a elsewhere;
 * select(a, b, c): b where c (its most significant bit, for a vector) is
 * set, else a; for every type @T, @U the unsigned integer type of its
 * size, @S the signed one.
 */
#define V_SELECT(n, T, S, U)						\
	T##n OVLD bitselect(T##n a, T##n b, T##n c)			\
	{								\
		T##n r = 0;						\
		for (int i = 0; i < n; i++)				\
			r[i] = bitselect(a[i], b[i], c[i]);		\
		return r;						\
	}								\
	T##n OVLD select(T##n a, T##n b, S##n c)			\
	{								\
		T##n r = 0;						\
		for (int i = 0; i < n; i++)				\
			r[i] = c[i] < 0 ? b[i] : a[i];			\
		return r;						\
	}								\
	T##n OVLD select(T##n a, T##n b, U##n c)			\
	{								\
		return select(a, b, as_##S##n(c));			\
	}

#define SELECT(T, S, U)							\
	T OVERLOAD bitselect(T a, T b, T c)				\
	{								\
		return as_##T((U)((as_##U(a) & ~as_##U(c)) | (as_##U(b) & as_##U(c)))); \
	}								\
	T OVERLOAD select(T a, T b, S c)				\
	{								\
		return c ? b : a;					\
	}								\
	T OVERLOAD select(T a, T b, U c)				\
	{								\
		return c ? b : a;					\
	}								\
	FOR_WIDTHS(V_SELECT, T, S, U)

SELECT(char, char, uchar)
SELECT(uchar, char, uchar)
SELECT(short, short, ushort)
SELECT(ushort, short, ushort)
SELECT(int, int, uint)
SELECT(uint, int, uint)
SELECT(long, long, ulong)
SELECT(ulong, long, ulong)
SELECT(float, int, uint)
SELECT(double, long, ulong)
