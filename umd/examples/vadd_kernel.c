// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * vadd_kernel.c - the vector add kernel: one work-item per element,
 * c[i] = a[i] + b[i].  The grid may be larger than n: work-items past the
 * end do nothing.
 */
#include <vaccel_kernel.h>

#include "vadd.h"

VACCEL_KERNEL(vadd, const struct vadd_args *args)
{
	const float *a = (const float *)args->a, *b = (const float *)args->b;
	float *c = (float *)args->c;
	unsigned int i = vaccel_global_id(0);

	if (i < args->n)
		c[i] = a[i] + b[i];
}
