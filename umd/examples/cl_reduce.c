// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * cl_reduce.c - example-reduce in OpenCL: the sum, minimum and maximum of
 * n 32-bit integers, a tree in local memory with barriers, then local and
 * global atomics (reduce.cl), on up to 64 workgroups of 256; checked
 * against the CPU.
 *
 *	example-cl-reduce [-h] [-n COUNT]
 */
#include "cl_example.h"
#include "reduce.cl.h"	/* reduce_cl, the text of reduce.cl */

#define WG	256	/* as in reduce.cl */
#define GROUPS	64

/* The kernel's out: the sum, then the minimum and the maximum. */
struct cl_reduce_result {
	uint64_t sum;
	uint32_t min, max;
};

int main(int argc, char **argv)
{
	struct cl_example ex = { .name = "reduce" };
	struct cl_reduce_result res, want = { 0, UINT32_MAX, 0 };
	cl_mem in = NULL, out = NULL;
	cl_kernel k = NULL;
	size_t global, local = WG;
	uint64_t seed = 4, engine_ns = 0;
	unsigned long i, groups;
	uint32_t *v = NULL;
	double t0, cpu_ms;
	cl_uint n;
	cl_int err;
	char label[64];
	bool ok;
	int status;

	status = cl_example_open(&ex, argc, argv,
				 "Sum, minimum and maximum of 32-bit integers through OpenCL, with "
				 "local memory and atomics.", 1 << 20, 1 << 26, reduce_cl);
	if (status)
		goto out;
	status = 1;
	n = ex.size;
	v = malloc((size_t)n * 4);
	if (!v)
		goto out;
	for (i = 0; i < n; i++)
		v[i] = cl_example_rand(&seed) % 1000000000u + 1000;
	res = want;
	in = cl_example_buf(&ex, (size_t)n * 4, v);
	out = in ? cl_example_buf(&ex, sizeof(res), &res) : NULL;
	if (!out)
		goto out;
	k = clCreateKernel(ex.prog, "reduce", &err);
	if (err) {
		cl_example_fail(&ex, "clCreateKernel", err);
		goto out;
	}
	if ((err = clSetKernelArg(k, 0, sizeof(in), &in)) ||
	    (err = clSetKernelArg(k, 1, sizeof(out), &out)) ||
	    (err = clSetKernelArg(k, 2, sizeof(n), &n))) {
		cl_example_fail(&ex, "clSetKernelArg", err);
		goto out;
	}
	groups = (n + WG - 1) / WG;
	if (groups > GROUPS)
		groups = GROUPS;
	global = groups * WG;
	if (cl_example_run(&ex, k, 1, &global, &local, &engine_ns))
		goto out;
	err = clEnqueueReadBuffer(ex.q, out, CL_TRUE, 0, sizeof(res), &res, 0, NULL, NULL);
	if (err) {
		cl_example_fail(&ex, "clEnqueueReadBuffer", err);
		goto out;
	}

	t0 = cl_example_now_ms();
	for (i = 0; i < n; i++) {
		want.sum += v[i];
		want.min = v[i] < want.min ? v[i] : want.min;
		want.max = v[i] > want.max ? v[i] : want.max;
	}
	cpu_ms = cl_example_now_ms() - t0;
	ok = res.sum == want.sum && res.min == want.min && res.max == want.max;

	printf("cl-reduce: %u integers through OpenCL, %lu workgroups of %u, a tree in "
	       "local memory, atomics\n", n, groups, WG);
	printf("  sum %" PRIu64 ", min %" PRIu32 ", max %" PRIu32 "\n", res.sum, res.min,
	       res.max);
	if (!ok)
		printf("  the CPU says sum %" PRIu64 ", min %" PRIu32 ", max %" PRIu32 "\n",
		       want.sum, want.min, want.max);
	snprintf(label, sizeof(label), "reduce of %u integers:", n);
	cl_example_report(label, engine_ns, cpu_ms, n, ok, "OK, what the CPU computes");
	status = ok ? 0 : 1;
out:
	if (k)
		clReleaseKernel(k);
	if (out)
		clReleaseMemObject(out);
	if (in)
		clReleaseMemObject(in);
	free(v);
	cl_example_close(&ex);
	return status;
}
