// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * rt_powi.c - __builtin_powi() and __builtin_powif(), a member of the
 * device runtime's archive (see rt_builtins.h).
 */
#include "rt_builtins.h"

/* --- powers: by squaring, the product of the same factors as libgcc's --- */

double RT_NAME(__powidf2)(double a, int b)
{
	unsigned int n = b < 0 ? -(unsigned int)b : (unsigned int)b;
	double r = n & 1 ? a : 1;

	while (n >>= 1) {
		a *= a;
		if (n & 1)
			r *= a;
	}
	return b < 0 ? 1 / r : r;
}

float RT_NAME(__powisf2)(float a, int b)
{
	unsigned int n = b < 0 ? -(unsigned int)b : (unsigned int)b;
	float r = n & 1 ? a : 1;

	while (n >>= 1) {
		a *= a;
		if (n & 1)
			r *= a;
	}
	return b < 0 ? 1 / r : r;
}
