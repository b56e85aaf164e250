// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * matmul.c - C = A x B for n x n floats with the tiled kernel of
 * matmul_kernel.c (local memory, barriers), checked bit for bit against
 * the CPU's naive triple loop: both add the products in the same order,
 * and both are built with -ffp-contract=off, so each product and each sum
 * is rounded once, identically.
 *
 *	example-matmul [-h] [-d INDEX] [-k MODULE] [-n N]
 */
#include "example.h"
#include "matmul.h"

int main(int argc, char **argv)
{
	struct example ex = { .name = "matmul" };
	struct example_buf a = { 0 }, b = { 0 }, c = { 0 };
	struct matmul_args args;
	uint32_t grid[3], wg[3] = { MATMUL_TILE, MATMUL_TILE, 1 };
	float *want = NULL, *fa, *fb;
	uint64_t seed = 3, engine_ns = 0;
	unsigned long i, j, k, n, bad = 0;
	double t0, cpu_ms;
	char label[64];
	int status, ret;

	status = example_open(&ex, argc, argv,
			      "Multiply two n x n float matrices, tiled in local memory; check on the CPU.",
			      96, 1024);
	if (status)
		goto out;
	status = 1;
	n = ex.size;
	if ((ret = example_buf(&ex, n * n * 4, &a)) ||
	    (ret = example_buf(&ex, n * n * 4, &b)) ||
	    (ret = example_buf(&ex, n * n * 4, &c))) {
		example_fail(&ex, "buffers", ret);
		goto out;
	}
	want = malloc(n * n * 4);
	if (!want)
		goto out;
	fa = a.cpu;
	fb = b.cpu;
	for (i = 0; i < n * n; i++) {
		fa[i] = example_randf(&seed);
		fb[i] = example_randf(&seed) * 3.0f;
	}

	args = (struct matmul_args){ .a = a.va, .b = b.va, .c = c.va, .n = n };
	grid[0] = grid[1] = (n + MATMUL_TILE - 1) / MATMUL_TILE * MATMUL_TILE;
	grid[2] = 1;
	if (example_run(&ex, "matmul", grid, wg, &args, sizeof(args), &engine_ns))
		goto out;

	t0 = example_now_ms();
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			float sum = 0.0f;

			for (k = 0; k < n; k++)
				sum += fa[i * n + k] * fb[k * n + j];
			want[i * n + j] = sum;
		}
	}
	cpu_ms = example_now_ms() - t0;
	for (i = 0; i < n * n; i++)
		bad += memcmp(&want[i], (float *)c.cpu + i, 4) != 0;

	printf("matmul: C = A x B, %lu x %lu floats, %u x %u workgroups of %u x %u, "
	       "two %u x %u tiles of local memory\n", n, n, grid[0] / MATMUL_TILE,
	       grid[1] / MATMUL_TILE, MATMUL_TILE, MATMUL_TILE, MATMUL_TILE, MATMUL_TILE);
	printf("  C[0][0] = %.9g, C[%lu][%lu] = %.9g, %.2f MFLOP/s\n",
	       ((float *)c.cpu)[0], n - 1, n - 1, ((float *)c.cpu)[n * n - 1],
	       engine_ns ? 2.0 * n * n * n * 1e3 / engine_ns : 0.0);
	snprintf(label, sizeof(label), "matmul %lu x %lu:", n, n);
	example_report(label, engine_ns, cpu_ms, n * n, !bad,
		       "OK, bit for bit what the CPU computes");
	if (bad)
		printf("  %lu of %lu elements differ\n", bad, n * n);
	status = bad ? 1 : 0;
out:
	free(want);
	vaccel_bo_free(c.bo);
	vaccel_bo_free(b.bo);
	vaccel_bo_free(a.bo);
	example_close(&ex);
	return status;
}
