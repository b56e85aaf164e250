// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * rt_fixti.c - conversions of float and double to 128-bit integers, a
 * member of the device runtime's archive (see rt_builtins.h).
 */
#include "rt_builtins.h"

/* --- conversions to integers: truncated, saturated as FCVT does --- */

/*
 * A double that is an integer of magnitude 2^63 or more, or NaN or
 * infinity: its magnitude as a 128-bit integer, saturated to @max.
 */
static rt_tu big_magnitude(uint64_t bits, rt_tu max)
{
	int e = (int)(bits >> 52 & 0x7ff) - 1075;
	uint64_t m = (bits & ((1ull << 52) - 1)) | 1ull << 52;

	/* m * 2^e, with m of 53 bits: past max when e + 53 > 128 */
	if (e > 75)
		return max;
	if ((rt_tu)m << e > max)
		return max;
	return (rt_tu)m << e;
}

rt_ti RT_NAME(__fixdfti)(double d)
{
	uint64_t bits = double_bits(d);

	if (d != d)
		return RT_TI_MAX;
	if (d > -0x1p63 && d < 0x1p63)
		return (int64_t)d;
	if (d < 0)
		return (rt_ti)-big_magnitude(bits, (rt_tu)RT_TI_MAX + 1);
	return (rt_ti)big_magnitude(bits, (rt_tu)RT_TI_MAX);
}

rt_tu RT_NAME(__fixunsdfti)(double d)
{
	if (d != d)
		return RT_TU_MAX;
	if (d <= 0)
		return 0;
	if (d < 0x1p64)
		return (uint64_t)d;
	return big_magnitude(double_bits(d), RT_TU_MAX);
}

/* A float is a double exactly. */
rt_ti RT_NAME(__fixsfti)(float f)
{
	return RT_NAME(__fixdfti)(f);
}

rt_tu RT_NAME(__fixunssfti)(float f)
{
	return RT_NAME(__fixunsdfti)(f);
}
