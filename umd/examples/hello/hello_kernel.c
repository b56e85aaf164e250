// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * hello_kernel.c - the device side of hello: RV64 code, built by vaccel-cc
 * and run by the device's engines.  Every work-item runs the kernel once;
 * work-item i writes i * i, and work-item 0 says hello.
 */
#include <vaccel_kernel.h>

#include "hello.h"

VACCEL_KERNEL(squares, const struct hello_args *a)
{
	uint32_t *out = (uint32_t *)a->squares;
	unsigned int i = vaccel_global_id(0);

	if (i == 0)
		vaccel_printf("hello from work-item 0 of %u\n", a->n);
	if (i < a->n)	/* the grid may be larger than n */
		out[i] = i * i;
}
