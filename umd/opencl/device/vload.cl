// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * vload.cl - the vector data load and store functions of OpenCL C 1.2
 * (6.12.7): vloadn and vstoren for every type and width, and the half
 * ones: vload_half{,n}, vloada_halfn, and vstore_half{,n} and
 * vstorea_halfn from float and double, in the default rounding (to
 * nearest even) and in _rte, _rtz, _rtp and _rtn; in every address space
 * the specification allows (loads also from __constant).
 *
 * The device has no half arithmetic (cl_khr_fp16 is off), so half values
 * are their 16 bits.  A half converts to a float exactly.  A float or a
 * double converts to a half in integer arithmetic, with one rounding in
 * the mode asked for, straight from a double (never through a float,
 * which would round twice).  The a forms of 3 components use a stride of
 * 4 halves.
 */

#include "device/library.h"

/* vloadn and vstoren of type @T in address space @AS (loads only: @ST). */
#define VLOAD(n, T, AS)							\
	T##n OVLD vload##n(size_t offset, const AS T *p)		\
	{								\
		T##n r = 0;						\
									\
		p += offset * n;					\
		for (int i = 0; i < n; i++)				\
			r[i] = p[i];					\
		return r;						\
	}

#define VSTORE(n, T, AS)						\
	void OVLD vstore##n(T##n data, size_t offset, AS T *p)		\
	{								\
		p += offset * n;					\
		for (int i = 0; i < n; i++)				\
			p[i] = data[i];					\
	}

#define VLOAD_SPACES(n, T)						\
	VLOAD(n, T, __global) VLOAD(n, T, __local)			\
	VLOAD(n, T, __constant) VLOAD(n, T, __private)			\
	VSTORE(n, T, __global) VSTORE(n, T, __local) VSTORE(n, T, __private)

#define VLOAD_TYPE(T)	FOR_WIDTHS(VLOAD_SPACES, T)

VLOAD_TYPE(char)
VLOAD_TYPE(uchar)
VLOAD_TYPE(short)
VLOAD_TYPE(ushort)
VLOAD_TYPE(int)
VLOAD_TYPE(uint)
VLOAD_TYPE(long)
VLOAD_TYPE(ulong)
VLOAD_TYPE(float)
VLOAD_TYPE(double)

/* The float of half bits @h: exact. */
static float OVERLOAD half_bits_to_float(ushort h)
{
	uint s = (uint)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff;

	if (e == 0x1f)
		return as_float(s | 0x7f800000u | (m << 13));
	if (e == 0) {
		float f = (float)m * 0x1p-24f;

		return s ? -f : f;
	}
	return as_float(s | ((e + 112) << 23) | (m << 13));
}

/* Rounding modes of the conversion to half. */
#define RTE	0
#define RTZ	1
#define RTP	2
#define RTN	3

/*
 * The half bits of (-1)^@neg * @m * 2^@e, @m below 2^53, rounded in @mode:
 * a quantum of 2^(p - 10) for a value in [2^p, 2^(p + 1)), 2^-24 below
 * the normal range; past 65504 an infinity, or the largest half when the
 * rounding goes towards zero.
 */
static ushort OVLD half_bits_round(uint neg, ulong m, int e, int mode)
{
	ushort sign = neg ? 0x8000 : 0;
	int p, q, shift;
	ulong r, rem, halfway;
	bool up;

	if (m == 0)
		return sign;
	p = 63 - __builtin_clzl(m) + e;
	if (p >= 16) {
		bool inf = mode == RTE || (mode == RTP && !neg) || (mode == RTN && neg);

		return sign | (inf ? 0x7c00 : 0x7bff);
	}
	q = (p < -14 ? -14 : p) - 10;
	shift = q - e;
	if (shift <= 0) {
		r = m << -shift;
		rem = 0;
		halfway = 1;
	} else if (shift > 62) {
		r = 0;
		rem = 1;
		halfway = 2;
	} else {
		r = m >> shift;
		rem = m & ((1ul << shift) - 1);
		halfway = 1ul << (shift - 1);
	}
	switch (mode) {
	case RTE:
		up = rem > halfway || (rem == halfway && (r & 1));
		break;
	case RTP:
		up = rem && !neg;
		break;
	case RTN:
		up = rem && neg;
		break;
	default:
		up = false;
		break;
	}
	r += up;
	/* r is in [2^10, 2^11] for a normal half: the carry makes the next binade. */
	if (p >= -14)
		r += (ulong)(p + 14) << 10;
	if (r >= 0x7c00)
		return sign | (mode == RTZ || (mode == RTP && neg) || (mode == RTN && !neg) ?
			       0x7bff : 0x7c00);
	return sign | (ushort)r;
}

static ushort OVERLOAD float_to_half_bits(float f, int mode)
{
	uint b = as_uint(f), e = (b >> 23) & 0xff, m = b & 0x7fffff;

	if (e == 0xff)
		return (ushort)((b >> 16) & 0x8000) | 0x7c00 | (m ? 0x200 | (m >> 13) : 0);
	if (e)
		m |= 0x800000;
	else
		e = 1;
	return half_bits_round(b >> 31, m, (int)e - 150, mode);
}

static ushort OVERLOAD float_to_half_bits(double d, int mode)
{
	ulong b = as_ulong(d), e = (b >> 52) & 0x7ff, m = b & 0xffffffffffffful;

	if (e == 0x7ff)
		return (ushort)((b >> 48) & 0x8000) | 0x7c00 | (m ? 0x200 | (ushort)(m >> 42) : 0);
	if (e)
		m |= 1ul << 52;
	else
		e = 1;
	return half_bits_round((uint)(b >> 63), m, (int)e - 1075, mode);
}

/* vload_half and vloada_half, from address space @AS. */
#define VLOAD_HALF_N(n, AS)						\
	float##n OVLD vload_half##n(size_t offset, const AS half *p)	\
	{								\
		const AS ushort *h = (const AS ushort *)p + offset * n;	\
		float##n r = 0;						\
									\
		for (int i = 0; i < n; i++)				\
			r[i] = half_bits_to_float(h[i]);		\
		return r;						\
	}								\
	float##n OVLD vloada_half##n(size_t offset, const AS half *p)	\
	{								\
		const AS ushort *h = (const AS ushort *)p +		\
				     offset * (n == 3 ? 4 : n);		\
		float##n r = 0;						\
									\
		for (int i = 0; i < n; i++)				\
			r[i] = half_bits_to_float(h[i]);		\
		return r;						\
	}

#define VLOAD_HALF(AS)							\
	float OVERLOAD vload_half(size_t offset, const AS half *p)	\
	{								\
		return half_bits_to_float(((const AS ushort *)p)[offset]); \
	}								\
	FOR_WIDTHS(VLOAD_HALF_N, AS)

VLOAD_HALF(__global)
VLOAD_HALF(__local)
VLOAD_HALF(__constant)
VLOAD_HALF(__private)

/* vstore_half and vstorea_half of @T in mode @mode, suffix @sfx, into @AS. */
#define VSTORE_HALF_N(n, T, sfx, mode, AS)				\
	void OVLD vstore_half##n##sfx(T##n data, size_t offset, AS half *p) \
	{								\
		AS ushort *h = (AS ushort *)p + offset * n;		\
									\
		for (int i = 0; i < n; i++)				\
			h[i] = float_to_half_bits(data[i], mode);	\
	}								\
	void OVLD vstorea_half##n##sfx(T##n data, size_t offset, AS half *p) \
	{								\
		AS ushort *h = (AS ushort *)p + offset * (n == 3 ? 4 : n); \
									\
		for (int i = 0; i < n; i++)				\
			h[i] = float_to_half_bits(data[i], mode);	\
	}

#define VSTORE_HALF(T, sfx, mode, AS)					\
	void OVLD vstore_half##sfx(T data, size_t offset, AS half *p)	\
	{								\
		((AS ushort *)p)[offset] = float_to_half_bits(data, mode); \
	}								\
	FOR_WIDTHS(VSTORE_HALF_N, T, sfx, mode, AS)

#define VSTORE_HALF_SPACES(T, sfx, mode)				\
	VSTORE_HALF(T, sfx, mode, __global)				\
	VSTORE_HALF(T, sfx, mode, __local)				\
	VSTORE_HALF(T, sfx, mode, __private)

#define VSTORE_HALF_MODES(T)						\
	VSTORE_HALF_SPACES(T, , RTE)					\
	VSTORE_HALF_SPACES(T, _rte, RTE)				\
	VSTORE_HALF_SPACES(T, _rtz, RTZ)				\
	VSTORE_HALF_SPACES(T, _rtp, RTP)				\
	VSTORE_HALF_SPACES(T, _rtn, RTN)

VSTORE_HALF_MODES(float)
VSTORE_HALF_MODES(double)
