// SPDX-License-Identifier: MIT
// Copyright 2026 The vaccel authors
//
// vadd.cl - the vector add of example-cl-vadd: one work-item per element,
// c[i] = a[i] + b[i]; work-items past the end do nothing.

kernel void vadd(global const float *a, global const float *b, global float *c, uint n)
{
	uint i = get_global_id(0);

	if (i < n)
		c[i] = a[i] + b[i];
}
