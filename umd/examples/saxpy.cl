// SPDX-License-Identifier: MIT
// Copyright 2026 The vaccel authors
//
// saxpy.cl - y = a * x + y with fma(), one correctly rounded operation, as
// the C library's fmaf(): a fixed grid of work-items loops over the
// elements.

kernel void saxpy(global const float *x, global float *y, float a, uint n)
{
	uint i, stride = get_global_size(0);

	for (i = get_global_id(0); i < n; i += stride)
		y[i] = fma(a, x[i], y[i]);
}
