// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * cl_matmul.c - example-matmul in OpenCL: C = A x B on n x n floats,
 * tiled in local memory (matmul.cl), checked bit for bit against the CPU.
 *
 *	example-cl-matmul [-h] [-n N]
 */
#include "cl_example.h"
#include "matmul.cl.h"	/* matmul_cl, the text of matmul.cl */

#define TILE	16	/* as in matmul.cl */

int main(int argc, char **argv)
{
	struct cl_example ex = { .name = "matmul" };
	cl_mem a = NULL, b = NULL, c = NULL;
	cl_kernel k = NULL;
	size_t global[2], local[2] = { TILE, TILE };
	float *fa = NULL, *fb = NULL, *fc = NULL, *want = NULL;
	uint64_t seed = 3, engine_ns = 0;
	unsigned long i, j, l, bad = 0;
	double t0, cpu_ms;
	cl_uint n;
	cl_int err;
	char label[64];
	int status;

	status = cl_example_open(&ex, argc, argv,
				 "Multiply two n x n float matrices through OpenCL, tiled in local "
				 "memory; check on the CPU.", 96, 1024, matmul_cl);
	if (status)
		goto out;
	status = 1;
	n = ex.size;
	fa = malloc((size_t)n * n * 4);
	fb = malloc((size_t)n * n * 4);
	fc = malloc((size_t)n * n * 4);
	want = malloc((size_t)n * n * 4);
	if (!fa || !fb || !fc || !want)
		goto out;
	for (i = 0; i < (unsigned long)n * n; i++) {
		fa[i] = cl_example_randf(&seed);
		fb[i] = cl_example_randf(&seed) * 3.0f;
	}
	a = cl_example_buf(&ex, (size_t)n * n * 4, fa);
	b = a ? cl_example_buf(&ex, (size_t)n * n * 4, fb) : NULL;
	c = b ? cl_example_buf(&ex, (size_t)n * n * 4, NULL) : NULL;
	if (!c)
		goto out;
	k = clCreateKernel(ex.prog, "matmul", &err);
	if (err) {
		cl_example_fail(&ex, "clCreateKernel", err);
		goto out;
	}
	if ((err = clSetKernelArg(k, 0, sizeof(a), &a)) ||
	    (err = clSetKernelArg(k, 1, sizeof(b), &b)) ||
	    (err = clSetKernelArg(k, 2, sizeof(c), &c)) ||
	    (err = clSetKernelArg(k, 3, sizeof(n), &n))) {
		cl_example_fail(&ex, "clSetKernelArg", err);
		goto out;
	}
	global[0] = global[1] = (n + TILE - 1) / TILE * TILE;
	if (cl_example_run(&ex, k, 2, global, local, &engine_ns))
		goto out;
	err = clEnqueueReadBuffer(ex.q, c, CL_TRUE, 0, (size_t)n * n * 4, fc, 0, NULL, NULL);
	if (err) {
		cl_example_fail(&ex, "clEnqueueReadBuffer", err);
		goto out;
	}

	t0 = cl_example_now_ms();
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			float sum = 0.0f;

			for (l = 0; l < n; l++)
				sum += fa[i * n + l] * fb[l * n + j];
			want[i * n + j] = sum;
		}
	}
	cpu_ms = cl_example_now_ms() - t0;
	for (i = 0; i < (unsigned long)n * n; i++)
		bad += memcmp(&want[i], &fc[i], 4) != 0;

	printf("cl-matmul: C = A x B through OpenCL, %u x %u floats, %zu x %zu workgroups "
	       "of %u x %u, two %u x %u tiles of local memory\n", n, n, global[0] / TILE,
	       global[1] / TILE, TILE, TILE, TILE, TILE);
	printf("  C[0][0] = %.9g, C[%u][%u] = %.9g, %.2f MFLOP/s\n", fc[0], n - 1, n - 1,
	       fc[(size_t)n * n - 1], engine_ns ? 2.0 * n * n * n * 1e3 / engine_ns : 0.0);
	snprintf(label, sizeof(label), "matmul %u x %u:", n, n);
	cl_example_report(label, engine_ns, cpu_ms, (unsigned long)n * n, !bad,
			  "OK, bit for bit what the CPU computes");
	if (bad)
		printf("  %lu of %lu elements differ\n", bad, (unsigned long)n * n);
	status = bad ? 1 : 0;
out:
	if (k)
		clReleaseKernel(k);
	if (c)
		clReleaseMemObject(c);
	if (b)
		clReleaseMemObject(b);
	if (a)
		clReleaseMemObject(a);
	free(want);
	free(fc);
	free(fb);
	free(fa);
	cl_example_close(&ex);
	return status;
}
