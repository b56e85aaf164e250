// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: vecadd - vector add and saxpy
 *
 * c = a + b and y = a*x + y on float buffers, with a kernel argument
 * offset into the buffers, a global work offset, and a size that is not a
 * multiple of any workgroup size.  Prints every result in %a: a single
 * add and a single fma-free multiply-add are correctly rounded.
 */
#include "clt.h"

static const char *src =
	"__kernel void add(__global const float *a, __global const float *b,\n"
	"		   __global float *c, int off)\n"
	"{ size_t i = get_global_id(0); c[i] = a[i + off] + b[i]; }\n"
	"__kernel void saxpy(float s, __global const float *x, __global float *y)\n"
	"{ size_t i = get_global_id(0); float p = s * x[i]; y[i] = p + y[i]; }\n";

#define N 77

int main(void)
{
	struct clt t;
	float a[N + 5], b[N], c[N], y[N];
	size_t n = N, off3 = 3, n2 = N - 3;
	cl_int off = 5;
	float s = 1.7f;
	int i;

	for (i = 0; i < N + 5; i++)
		a[i] = (float)i * 0.37f - 11.0f;
	for (i = 0; i < N; i++) {
		b[i] = 1.0f / (float)(i + 1);
		y[i] = (float)(i * i) * 0.01f;
		c[i] = -1.0f;
	}
	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	cl_kernel add = clt_kernel(p, "add"), saxpy = clt_kernel(p, "saxpy");
	cl_mem ma = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(a), a);
	cl_mem mb = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(b), b);
	cl_mem mc = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(c), c);
	cl_mem my = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(y), y);

	ARG(add, 0, ma); ARG(add, 1, mb); ARG(add, 2, mc); ARG(add, 3, off);
	CHECK(clEnqueueNDRangeKernel(t.queue, add, 1, NULL, &n, NULL, 0, NULL, NULL));
	ARG(saxpy, 0, s); ARG(saxpy, 1, ma); ARG(saxpy, 2, my);
	/* A global offset: the first three elements stay as they were. */
	CHECK(clEnqueueNDRangeKernel(t.queue, saxpy, 1, &off3, &n2, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mc, CL_TRUE, 0, sizeof(c), c, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, my, CL_TRUE, 0, sizeof(y), y, 0, NULL, NULL));
	for (i = 0; i < N; i++)
		printf("%d %a %a\n", i, c[i], y[i]);
	clReleaseMemObject(ma); clReleaseMemObject(mb);
	clReleaseMemObject(mc); clReleaseMemObject(my);
	clReleaseKernel(add); clReleaseKernel(saxpy); clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
