// SPDX-License-Identifier: MIT
// Copyright 2026 The vaccel authors
//
// matmul.cl - C = A x B for n x n row-major floats, tiled: each
// workgroup of TILE x TILE work-items stages a tile of A and one of B in
// local memory per step.  OpenCL C contracts a * b + c into a fused
// multiply-add by default; the pragma turns that off, so that the sums
// are the CPU's bit for bit (the host program is built with
// -ffp-contract=off).

#pragma OPENCL FP_CONTRACT OFF

#define TILE	16

kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void matmul(global const float *a, global const float *b, global float *c, uint n)
{
	local float tile_a[TILE][TILE];
	local float tile_b[TILE][TILE];
	uint tx = get_local_id(0), ty = get_local_id(1);
	uint col = get_global_id(0), row = get_global_id(1), t, k;
	float sum = 0.0f;

	for (t = 0; t < n; t += TILE) {
		tile_a[ty][tx] = row < n && t + tx < n ? a[row * n + t + tx] : 0.0f;
		tile_b[ty][tx] = t + ty < n && col < n ? b[(t + ty) * n + col] : 0.0f;
		barrier(CLK_LOCAL_MEM_FENCE);
		for (k = 0; k < TILE; k++)
			sum += tile_a[ty][k] * tile_b[k][tx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (row < n && col < n)
		c[row * n + col] = sum;
}
