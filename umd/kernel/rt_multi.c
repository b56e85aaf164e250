// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * rt_multi.c - 128-bit multiplication and the overflow checks of
 * multiplications, a member of the device runtime's archive (see
 * rt_builtins.h).
 */
#include "rt_builtins.h"

/* --- multiplication --- */

rt_ti RT_NAME(__multi3)(rt_ti a, rt_ti b)
{
	uint64_t al = (uint64_t)a, bl = (uint64_t)b;
	rt_tu lo = (rt_tu)al * bl;
	uint64_t cross = al * hi64((rt_tu)b) + hi64((rt_tu)a) * bl;

	return (rt_ti)(lo + ((rt_tu)cross << 64));
}

/*
 * Whether the product of the magnitudes @x and @y exceeds @limit; the
 * product is never formed past 128 bits.
 */
static int umul_exceeds(rt_tu x, rt_tu y, rt_tu limit)
{
	uint64_t xh = hi64(x), yh = hi64(y);
	rt_tu cross, lo, p;

	if (xh && yh)
		return 1;
	if (yh) {
		rt_tu t = x;

		x = y;
		y = t;
		xh = hi64(x);
	}
	/* y < 2^64: x * y = xh * y * 2^64 + xl * y */
	cross = (rt_tu)xh * (uint64_t)y;
	if (hi64(cross))
		return 1;
	lo = (rt_tu)(uint64_t)x * (uint64_t)y;
	p = lo + (cross << 64);
	if (p < lo)
		return 1;
	return p > limit;
}

rt_ti RT_NAME(__muloti4)(rt_ti a, rt_ti b, int *overflow)
{
	rt_tu limit = (a < 0) != (b < 0) ? (rt_tu)RT_TI_MAX + 1 : (rt_tu)RT_TI_MAX;

	*overflow = umul_exceeds(uabs(a), uabs(b), limit);
	return (rt_ti)((rt_tu)a * (rt_tu)b);
}

int64_t RT_NAME(__mulodi4)(int64_t a, int64_t b, int *overflow)
{
	rt_ti p = (rt_ti)a * b;

	*overflow = p < INT64_MIN || p > INT64_MAX;
	return (int64_t)(uint64_t)p;
}
