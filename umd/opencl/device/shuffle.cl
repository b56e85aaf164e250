// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * shuffle.cl - shuffle() and shuffle2() of OpenCL C 1.2 (6.12.12): a
 * vector of n components picked by a mask from one vector of m components,
 * or from two, for m and n of 2, 4, 8 and 16 and every type.
 *
 * The mask's components are of the unsigned integer type as wide as the
 * vector's (uint for float, ulong for double), and only their low bits
 * count: log2(m) of them for shuffle, one more for shuffle2, whose indexes
 * from m on pick from the second vector.  The device has no vector unit:
 * each component is picked in turn.
 */

#include "device/library.h"

#define SHUFFLE(m, n, T, U)						\
	T##n OVLD shuffle(T##m x, U##n mask)				\
	{								\
		T##n r;							\
									\
		for (int i = 0; i < n; i++)				\
			r[i] = x[mask[i] & (m - 1)];			\
		return r;						\
	}								\
	T##n OVLD shuffle2(T##m x, T##m y, U##n mask)			\
	{								\
		T##n r;							\
									\
		for (int i = 0; i < n; i++) {				\
			uint k = mask[i] & (2 * m - 1);			\
									\
			r[i] = k < m ? x[k] : y[k - m];			\
		}							\
		return r;						\
	}

/* Every result width n for a source width m. */
#define SHUFFLE_N(m, T, U)						\
	SHUFFLE(m, 2, T, U) SHUFFLE(m, 4, T, U)				\
	SHUFFLE(m, 8, T, U) SHUFFLE(m, 16, T, U)

#define SHUFFLES(T, U)							\
	SHUFFLE_N(2, T, U) SHUFFLE_N(4, T, U)				\
	SHUFFLE_N(8, T, U) SHUFFLE_N(16, T, U)

SHUFFLES(char, uchar)
SHUFFLES(uchar, uchar)
SHUFFLES(short, ushort)
SHUFFLES(ushort, ushort)
SHUFFLES(int, uint)
SHUFFLES(uint, uint)
SHUFFLES(long, ulong)
SHUFFLES(ulong, ulong)
SHUFFLES(float, uint)
SHUFFLES(double, ulong)
