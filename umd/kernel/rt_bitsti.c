// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * rt_bitsti.c - counting bits and swapping bytes, a member of the device
 * runtime's archive (see rt_builtins.h).
 */
#include "rt_builtins.h"

/* --- bits --- */

/* Leading zeros; 128 for 0, where the builtin is undefined. */
int RT_NAME(__clzti2)(rt_ti a)
{
	return (int)clz128((rt_tu)a);
}

/* Trailing zeros; 128 for 0. */
int RT_NAME(__ctzti2)(rt_ti a)
{
	uint64_t lo = (uint64_t)a;

	return (int)(lo ? ctz64(lo) : 64 + ctz64(hi64((rt_tu)a)));
}

/* One plus the index of the lowest set bit; 0 for 0. */
int RT_NAME(__ffsti2)(rt_ti a)
{
	return a ? RT_NAME(__ctzti2)(a) + 1 : 0;
}

int RT_NAME(__popcountdi2)(int64_t a)
{
	return (int)pop64((uint64_t)a);
}

int RT_NAME(__popcountti2)(rt_ti a)
{
	return (int)(pop64((uint64_t)a) + pop64(hi64((rt_tu)a)));
}

int RT_NAME(__paritydi2)(int64_t a)
{
	return (int)(pop64((uint64_t)a) & 1);
}

int RT_NAME(__parityti2)(rt_ti a)
{
	return (int)(pop64((uint64_t)a ^ hi64((rt_tu)a)) & 1);
}

uint32_t RT_NAME(__bswapsi2)(uint32_t a)
{
	return a >> 24 | (a >> 8 & 0xff00) | (a << 8 & 0xff0000) | a << 24;
}

uint64_t RT_NAME(__bswapdi2)(uint64_t a)
{
	return (uint64_t)RT_NAME(__bswapsi2)((uint32_t)a) << 32 |
	       RT_NAME(__bswapsi2)((uint32_t)(a >> 32));
}
