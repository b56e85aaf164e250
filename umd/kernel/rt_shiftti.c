// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * rt_shiftti.c - 128-bit shifts, a member of the device runtime's archive
 * (see rt_builtins.h).
 */
#include "rt_builtins.h"

/* --- shifts: @n from 0 to 127 --- */

rt_ti RT_NAME(__ashlti3)(rt_ti a, int n)
{
	uint64_t lo = (uint64_t)a, hi = hi64((rt_tu)a);

	if (n & 64) {
		hi = lo << (n & 63);
		lo = 0;
	} else if (n) {
		hi = hi << n | lo >> (64 - n);
		lo <<= n;
	}
	return (rt_ti)((rt_tu)hi << 64 | lo);
}

rt_ti RT_NAME(__lshrti3)(rt_ti a, int n)
{
	uint64_t lo = (uint64_t)a, hi = hi64((rt_tu)a);

	if (n & 64) {
		lo = hi >> (n & 63);
		hi = 0;
	} else if (n) {
		lo = lo >> n | hi << (64 - n);
		hi >>= n;
	}
	return (rt_ti)((rt_tu)hi << 64 | lo);
}

rt_ti RT_NAME(__ashrti3)(rt_ti a, int n)
{
	uint64_t lo = (uint64_t)a;
	int64_t hi = (int64_t)hi64((rt_tu)a);

	if (n & 64) {
		lo = (uint64_t)(hi >> (n & 63));
		hi >>= 63;
	} else if (n) {
		lo = lo >> n | (uint64_t)hi << (64 - n);
		hi >>= n;
	}
	return (rt_ti)((rt_tu)(uint64_t)hi << 64 | lo);
}
