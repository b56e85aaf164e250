// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * rt_divti.c - 128-bit division and remainder (__divti3 and the others), a
 * member of the device runtime's archive (see rt_builtins.h).
 */
#include "rt_builtins.h"

/* --- division --- */

/*
 * The quotient of @a by @b, and the remainder in *@rem if @rem is not
 * NULL.  64-bit divisions when the operands allow, 32 bits of quotient
 * per 64-bit division for a divisor below 2^32, else one bit per step
 * from the highest bit the quotient can have.
 */
rt_tu RT_NAME(__udivmodti4)(rt_tu a, rt_tu b, rt_tu *rem)
{
	uint64_t bl = (uint64_t)b, r64, d;
	rt_tu q = 0;
	int shift, i;

	if (!b) {
		if (rem)
			*rem = a;
		return RT_TU_MAX;
	}
	if (a < b) {
		if (rem)
			*rem = a;
		return 0;
	}
	if (!hi64(a)) {
		/* b <= a < 2^64 */
		if (rem)
			*rem = (uint64_t)a % bl;
		return (uint64_t)a / bl;
	}
	if (!hi64(b) && bl <= 0xffffffffull) {
		/* Four 32-bit digits, each below bl after the remainder. */
		r64 = 0;
		for (i = 3; i >= 0; i--) {
			d = r64 << 32 | (uint32_t)(a >> (32 * i));
			q |= (rt_tu)(d / bl) << (32 * i);
			r64 = d % bl;
		}
		if (rem)
			*rem = r64;
		return q;
	}
	shift = (int)clz128(b) - (int)clz128(a);
	b <<= shift;
	for (; shift >= 0; shift--) {
		q <<= 1;
		if (a >= b) {
			a -= b;
			q |= 1;
		}
		b >>= 1;
	}
	if (rem)
		*rem = a;
	return q;
}

rt_tu RT_NAME(__udivti3)(rt_tu a, rt_tu b)
{
	return RT_NAME(__udivmodti4)(a, b, 0);
}

rt_tu RT_NAME(__umodti3)(rt_tu a, rt_tu b)
{
	rt_tu r;

	RT_NAME(__udivmodti4)(a, b, &r);
	return r;
}


rt_ti RT_NAME(__divti3)(rt_ti a, rt_ti b)
{
	rt_tu q;

	if (!b)
		return -1;
	q = RT_NAME(__udivmodti4)(uabs(a), uabs(b), 0);
	return (rt_ti)((a < 0) != (b < 0) ? -q : q);
}

rt_ti RT_NAME(__modti3)(rt_ti a, rt_ti b)
{
	rt_tu r;

	RT_NAME(__udivmodti4)(uabs(a), uabs(b), &r);
	if (!b)
		return a;
	return (rt_ti)(a < 0 ? -r : r);
}
