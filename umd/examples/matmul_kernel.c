// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * matmul_kernel.c - C = A x B for n x n floats, tiled in local memory.
 *
 * A workgroup of 16 x 16 work-items computes a 16 x 16 tile of C.  It
 * walks along k a tile at a time: every work-item loads one element of
 * A's tile and one of B's into local memory, the barrier makes the two
 * tiles complete, every work-item adds 16 products to its element, and a
 * second barrier keeps the tiles until everybody has used them.  Each
 * element of A and B is read from global memory n / 16 times instead of
 * n.  The grid is rounded up to whole tiles (every work-item must reach
 * the barriers); elements past n load as zeros and are not stored.
 */
#include <vaccel_kernel.h>

#include "matmul.h"

#define T	MATMUL_TILE

VACCEL_LOCAL float tile_a[T][T];
VACCEL_LOCAL float tile_b[T][T];

VACCEL_KERNEL(matmul, const struct matmul_args *args)
{
	const float *a = (const float *)args->a, *b = (const float *)args->b;
	float *c = (float *)args->c;
	unsigned int n = args->n, tx = vaccel_local_id(0), ty = vaccel_local_id(1);
	unsigned int col = vaccel_global_id(0), row = vaccel_global_id(1), t, k;
	float sum = 0.0f;

	for (t = 0; t < n; t += T) {
		tile_a[ty][tx] = row < n && t + tx < n ? a[row * n + t + tx] : 0.0f;
		tile_b[ty][tx] = t + ty < n && col < n ? b[(t + ty) * n + col] : 0.0f;
		vaccel_barrier();
		for (k = 0; k < T; k++)
			sum += tile_a[ty][k] * tile_b[k][tx];
		vaccel_barrier();
	}
	if (row < n && col < n)
		c[row * n + col] = sum;
}
