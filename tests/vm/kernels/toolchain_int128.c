// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * toolchain_int128.c - the 128-bit kernel of test_toolchain.c, built by
 * vaccel-cc --embed=tc_int128 into a host object: division, remainder,
 * overflow checks and conversions call the device runtime's helpers
 * (__divti3, __muloti4, __fixdfti, __floattidf, ...), multiplication and
 * shifts are inline.  The host compares every result with its own.
 */
#include <vaccel_kernel.h>

#include "toolchain.h"

VACCEL_KERNEL(tc_int128, const struct tc_args *args)
{
	unsigned int i = vaccel_global_id(0);
	const struct tc_i128_in *in = (const struct tc_i128_in *)args->in + i;
	struct tc_i128_out *out = (struct tc_i128_out *)args->out + i;
	unsigned __int128 ua, ub;
	__int128 a, b, p;

	if (i >= args->n)
		return;
	a = in->a;
	b = in->b;
	ua = (unsigned __int128)a;
	ub = (unsigned __int128)b;
	out->mul = (__int128)(ua * ub);
	out->sdiv = a / b;
	out->smod = a % b;
	out->udiv = ua / ub;
	out->umod = ua % ub;
	out->shl = (__int128)(ua << in->shift);
	out->ashr = a >> in->shift;
	out->lshr = ua >> in->shift;
	out->d_to_i = (__int128)in->d;
	out->d_to_u = (unsigned __int128)(in->d < 0 ? -in->d : in->d);
	out->i_to_d = (double)a;
	out->u_to_d = (double)ub;
	out->i_to_f = (float)a;
	out->u_to_f = (float)ub;
	out->mul_overflow = __builtin_mul_overflow(a, b, &p);
	out->pad = 0;
}
