// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * cl_vadd.c - example-vadd in OpenCL: c = a + b on n floats, one
 * work-item per element in workgroups of 256 (vadd.cl), checked bit for
 * bit against the CPU.
 *
 *	example-cl-vadd [-h] [-n FLOATS]
 */
#include "cl_example.h"
#include "vadd.cl.h"	/* vadd_cl, the text of vadd.cl */

#define WG	256

int main(int argc, char **argv)
{
	struct cl_example ex = { .name = "vadd" };
	cl_mem a = NULL, b = NULL, c = NULL;
	cl_kernel k = NULL;
	size_t global, local = WG;
	float *ha = NULL, *hb = NULL, *hc = NULL, *want = NULL;
	uint64_t seed = 1, engine_ns = 0;
	unsigned long i, bad = 0;
	double t0, cpu_ms;
	cl_uint n;
	cl_int err;
	char label[64];
	int status;

	status = cl_example_open(&ex, argc, argv,
				 "Add two vectors of floats through OpenCL; check on the CPU.",
				 1 << 18, 1 << 24, vadd_cl);
	if (status)
		goto out;
	status = 1;
	n = ex.size;
	ha = malloc(n * 4);
	hb = malloc(n * 4);
	hc = malloc(n * 4);
	want = malloc(n * 4);
	if (!ha || !hb || !hc || !want)
		goto out;
	for (i = 0; i < n; i++) {
		ha[i] = cl_example_randf(&seed) * 1000.0f;
		hb[i] = cl_example_randf(&seed) / 3.0f;
		hc[i] = -1.0f;
	}
	a = cl_example_buf(&ex, n * 4, ha);
	b = a ? cl_example_buf(&ex, n * 4, hb) : NULL;
	c = b ? cl_example_buf(&ex, n * 4, hc) : NULL;
	if (!c)
		goto out;
	k = clCreateKernel(ex.prog, "vadd", &err);
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
	global = (n + WG - 1) / WG * WG;
	if (cl_example_run(&ex, k, 1, &global, &local, &engine_ns))
		goto out;
	err = clEnqueueReadBuffer(ex.q, c, CL_TRUE, 0, n * 4, hc, 0, NULL, NULL);
	if (err) {
		cl_example_fail(&ex, "clEnqueueReadBuffer", err);
		goto out;
	}

	t0 = cl_example_now_ms();
	for (i = 0; i < n; i++)
		want[i] = ha[i] + hb[i];
	cpu_ms = cl_example_now_ms() - t0;
	for (i = 0; i < n; i++)
		bad += memcmp(&want[i], &hc[i], 4) != 0;

	printf("cl-vadd: c = a + b through OpenCL, %u floats, %lu workgroups of %u\n", n,
	       (unsigned long)global / WG, WG);
	printf("  c[0] = %g + %g = %g, c[%u] = %g\n", ha[0], hb[0], hc[0], n - 1, hc[n - 1]);
	snprintf(label, sizeof(label), "vadd of %u floats:", n);
	cl_example_report(label, engine_ns, cpu_ms, n, !bad,
			  "OK, bit for bit what the CPU computes");
	if (bad)
		printf("  %lu of %u elements differ\n", bad, n);
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
	free(hc);
	free(hb);
	free(ha);
	cl_example_close(&ex);
	return status;
}
