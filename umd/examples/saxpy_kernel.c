// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * saxpy_kernel.c - y = a * x + y in single precision, with a fused
 * multiply-add (one rounding, the fmadd.s instruction).  A grid-stride
 * loop: the grid may be smaller than n, each work-item then takes every
 * element global-size apart.
 */
#include <vaccel_kernel.h>

#include "saxpy.h"

VACCEL_KERNEL(saxpy, const struct saxpy_args *args)
{
	const float *x = (const float *)args->x;
	float *y = (float *)args->y;
	unsigned int i, n = args->n, stride = vaccel_global_size(0);

	for (i = vaccel_global_id(0); i < n; i += stride)
		y[i] = vaccel_fmaf(args->a, x[i], y[i]);
}
