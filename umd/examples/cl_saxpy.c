// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * cl_saxpy.c - example-saxpy in OpenCL: y = a * x + y on n floats with
 * fma() (saxpy.cl), 64 workgroups of 256 looping over the elements,
 * checked bit for bit against the C library's fmaf().
 *
 *	example-cl-saxpy [-h] [-n FLOATS]
 */
#include <math.h>

#include "cl_example.h"
#include "saxpy.cl.h"	/* saxpy_cl, the text of saxpy.cl */

#define WG	256
#define GROUPS	64

int main(int argc, char **argv)
{
	struct cl_example ex = { .name = "saxpy" };
	cl_mem x = NULL, y = NULL;
	cl_kernel k = NULL;
	size_t global = WG * GROUPS, local = WG;
	const float a = 2.718281828f;
	float *hx = NULL, *hy = NULL, *want = NULL;
	uint64_t seed = 2, engine_ns = 0;
	unsigned long i, bad = 0;
	double t0, cpu_ms;
	cl_uint n;
	cl_int err;
	char label[64];
	int status;

	status = cl_example_open(&ex, argc, argv,
				 "y = a * x + y on floats with fma() through OpenCL; check on the CPU.",
				 1 << 18, 1 << 24, saxpy_cl);
	if (status)
		goto out;
	status = 1;
	n = ex.size;
	hx = malloc(n * 4);
	hy = malloc(n * 4);
	want = malloc(n * 4);
	if (!hx || !hy || !want)
		goto out;
	for (i = 0; i < n; i++) {
		hx[i] = cl_example_randf(&seed) * 7.0f / 3.0f;
		hy[i] = cl_example_randf(&seed) * 100.0f;
	}
	t0 = cl_example_now_ms();
	for (i = 0; i < n; i++)
		want[i] = fmaf(a, hx[i], hy[i]);
	cpu_ms = cl_example_now_ms() - t0;

	x = cl_example_buf(&ex, n * 4, hx);
	y = x ? cl_example_buf(&ex, n * 4, hy) : NULL;
	if (!y)
		goto out;
	k = clCreateKernel(ex.prog, "saxpy", &err);
	if (err) {
		cl_example_fail(&ex, "clCreateKernel", err);
		goto out;
	}
	if ((err = clSetKernelArg(k, 0, sizeof(x), &x)) ||
	    (err = clSetKernelArg(k, 1, sizeof(y), &y)) ||
	    (err = clSetKernelArg(k, 2, sizeof(a), &a)) ||
	    (err = clSetKernelArg(k, 3, sizeof(n), &n))) {
		cl_example_fail(&ex, "clSetKernelArg", err);
		goto out;
	}
	if (cl_example_run(&ex, k, 1, &global, &local, &engine_ns))
		goto out;
	err = clEnqueueReadBuffer(ex.q, y, CL_TRUE, 0, n * 4, hy, 0, NULL, NULL);
	if (err) {
		cl_example_fail(&ex, "clEnqueueReadBuffer", err);
		goto out;
	}
	for (i = 0; i < n; i++)
		bad += memcmp(&want[i], &hy[i], 4) != 0;

	printf("cl-saxpy: y = %g * x + y through OpenCL, %u floats, %u workgroups of %u "
	       "looping over them\n", a, n, GROUPS, WG);
	printf("  y[0] = %.9g, y[%u] = %.9g\n", hy[0], n - 1, hy[n - 1]);
	snprintf(label, sizeof(label), "saxpy of %u floats:", n);
	cl_example_report(label, engine_ns, cpu_ms, n, !bad,
			  "OK, bit for bit the C library's fmaf()");
	if (bad)
		printf("  %lu of %u elements differ\n", bad, n);
	status = bad ? 1 : 0;
out:
	if (k)
		clReleaseKernel(k);
	if (y)
		clReleaseMemObject(y);
	if (x)
		clReleaseMemObject(x);
	free(want);
	free(hy);
	free(hx);
	cl_example_close(&ex);
	return status;
}
