// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * rt_floatti.c - conversions of 128-bit integers to float and double, a
 * member of the device runtime's archive (see rt_builtins.h).
 */
#include "rt_builtins.h"

/* --- conversions to floating point --- */

/* 2^@e, for 0 <= e <= 1023: exact. */
static inline double pow2(int e)
{
	uint64_t u = (uint64_t)(1023 + e) << 52;
	double d;

	__builtin_memcpy(&d, &u, 8);
	return d;
}

/*
 * The conversions to floating point shift the integer right by @s until
 * it fits in 64 bits, with the bits shifted out ORed into bit 0 (a
 * "sticky" bit): the 64-bit value then lies strictly between the same
 * two neighbours of the 24- or 53-bit result as the 128-bit one, so the
 * conversion of the 64-bit value, an FCVT instruction, rounds as the
 * whole would have in every rounding mode; the scaling by 2^s is exact
 * (or overflows to infinity, as the whole would).
 */
static int64_t shrink_signed(rt_ti a, int *s)
{
	rt_tu x = (rt_tu)(a ^ (a >> 127));	/* bits of the magnitude */
	rt_tu lost;

	*s = 128 - (int)clz128(x) - 63;
	lost = (rt_tu)a & (((rt_tu)1 << *s) - 1);
	return (int64_t)(uint64_t)(a >> *s) | (lost != 0);
}

static uint64_t shrink_unsigned(rt_tu a, int *s)
{
	rt_tu lost;

	*s = 128 - (int)clz128(a) - 64;
	lost = a & (((rt_tu)1 << *s) - 1);
	return (uint64_t)(a >> *s) | (lost != 0);
}

double RT_NAME(__floattidf)(rt_ti a)
{
	int64_t v;
	int s;

	if (a == (int64_t)a)
		return (double)(int64_t)a;
	v = shrink_signed(a, &s);
	return (double)v * pow2(s);
}

double RT_NAME(__floatuntidf)(rt_tu a)
{
	uint64_t v;
	int s;

	if (!hi64(a))
		return (double)(uint64_t)a;
	v = shrink_unsigned(a, &s);
	return (double)v * pow2(s);
}

float RT_NAME(__floattisf)(rt_ti a)
{
	int64_t v;
	int s;

	if (a == (int64_t)a)
		return (float)(int64_t)a;
	v = shrink_signed(a, &s);
	return (float)v * (float)pow2(s);
}

float RT_NAME(__floatuntisf)(rt_tu a)
{
	uint64_t v;
	int s;

	if (!hi64(a))
		return (float)(uint64_t)a;
	v = shrink_unsigned(a, &s);
	return (float)v * (float)pow2(s);
}
