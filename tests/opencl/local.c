// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: local - local memory and barriers: a reduction
 *
 * A tree reduction of integers per workgroup, once through a kernel-scope
 * __local array and once through a __local argument sized by
 * clSetKernelArg(size, NULL), each step behind barrier(); then a kernel
 * where each work-item reads its neighbour's value after the barrier.
 * Integer sums are exact: the printed sums must be identical.  Last, a
 * kernel with a kernel-scope __local array of 12 bytes and __local
 * arguments of odd sizes prints whether each argument is aligned to its
 * type's size, as a pointer to a type must be (up to 128 bytes for
 * long16); and a kernel with a local array gives one __local argument
 * all the local memory that CL_KERNEL_LOCAL_MEM_SIZE, asked before the
 * argument is set, leaves: the launch must fit.
 */
#include "clt.h"

static const char *src =
	"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
	"__kernel void red_scope(__global const int *in, __global int *out)\n"
	"{\n"
	"	__local int s[64];\n"
	"	size_t l = get_local_id(0);\n"
	"	s[l] = in[get_global_id(0)];\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	for (size_t h = get_local_size(0) / 2; h > 0; h /= 2) {\n"
	"		if (l < h) s[l] += s[l + h];\n"
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	}\n"
	"	if (l == 0) out[get_group_id(0)] = s[0];\n"
	"}\n"
	"__kernel void red_arg(__global const int *in, __local int *s, __global int *out)\n"
	"{\n"
	"	size_t l = get_local_id(0);\n"
	"	s[l] = in[get_global_id(0)] * 3;\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	for (size_t h = get_local_size(0) / 2; h > 0; h /= 2) {\n"
	"		if (l < h) s[l] += s[l + h];\n"
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	}\n"
	"	if (l == 0) out[get_group_id(0)] = s[0];\n"
	"}\n"
	"__kernel void neighbour(__global const int *in, __local int *a, __local int *b, __global int *out)\n"
	"{\n"
	"	size_t l = get_local_id(0), n = get_local_size(0);\n"
	"	a[l] = in[get_global_id(0)];\n"
	"	b[l] = -a[l];\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	out[get_global_id(0)] = a[(l + 1) % n] + 1000 * b[(l + n - 1) % n];\n"
	"}\n"
	"__kernel void aligned(__local char *c, __local long16 *l, __local short3 *s,\n"
	"		      __local double8 *d, __local float16 *f, __global int *out)\n"
	"{\n"
	"	__local int x[3];\n"
	"	x[get_local_id(0)] = 7;\n"
	"	c[0] = 1;\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	out[0] = (ulong)l % sizeof(long16) == 0;\n"
	"	out[1] = (ulong)s % sizeof(short3) == 0;\n"
	"	out[2] = (ulong)d % sizeof(double8) == 0;\n"
	"	out[3] = (ulong)f % sizeof(float16) == 0;\n"
	"	out[4] = x[0] + c[0];\n"
	"}\n"
	"__kernel void fill(__local int *big, uint n, __global int *out)\n"
	"{\n"
	"	__local int x[3];\n"
	"	x[0] = 5;\n"
	"	big[0] = 1;\n"
	"	big[n - 1] = 2;\n"
	"	out[0] = big[0] + big[n - 1] + x[0];\n"
	"}\n";

#define N 256

int main(void)
{
	struct clt t;
	cl_int in[N], out[N];
	size_t n = N, l64 = 64, l32 = 32, l16 = 16;
	int i;

	for (i = 0; i < N; i++)
		in[i] = (i * 7919) % 1000 - 500;
	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	cl_kernel k1 = clt_kernel(p, "red_scope"), k2 = clt_kernel(p, "red_arg");
	cl_kernel k3 = clt_kernel(p, "neighbour"), k4 = clt_kernel(p, "aligned");
	cl_kernel k5 = clt_kernel(p, "fill");
	cl_ulong max_local, used;
	cl_uint big;
	cl_mem mi = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in);
	cl_mem mo = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(out), NULL);

	ARG(k1, 0, mi); ARG(k1, 1, mo);
	CHECK(clEnqueueNDRangeKernel(t.queue, k1, 1, NULL, &n, &l64, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, 4 * sizeof(cl_int), out, 0, NULL, NULL));
	for (i = 0; i < 4; i++)
		printf("scope %d %d\n", i, out[i]);
	ARG(k2, 0, mi); ARG(k2, 2, mo);
	CHECK(clSetKernelArg(k2, 1, 32 * sizeof(cl_int), NULL));
	CHECK(clEnqueueNDRangeKernel(t.queue, k2, 1, NULL, &n, &l32, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, 8 * sizeof(cl_int), out, 0, NULL, NULL));
	for (i = 0; i < 8; i++)
		printf("arg %d %d\n", i, out[i]);
	ARG(k3, 0, mi); ARG(k3, 3, mo);
	CHECK(clSetKernelArg(k3, 1, 16 * sizeof(cl_int), NULL));
	CHECK(clSetKernelArg(k3, 2, 16 * sizeof(cl_int), NULL));
	CHECK(clEnqueueNDRangeKernel(t.queue, k3, 1, NULL, &n, &l16, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
	for (i = 0; i < N; i++)
		printf("rot %d %d\n", i, out[i]);
	CHECK(clSetKernelArg(k4, 0, 3, NULL));
	CHECK(clSetKernelArg(k4, 1, 128, NULL));
	CHECK(clSetKernelArg(k4, 2, 3 * 8, NULL));
	CHECK(clSetKernelArg(k4, 3, 64 + 8, NULL));
	CHECK(clSetKernelArg(k4, 4, 64, NULL));
	ARG(k4, 5, mo);
	n = 3;
	CHECK(clEnqueueNDRangeKernel(t.queue, k4, 1, NULL, &n, &n, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, 5 * sizeof(cl_int), out, 0, NULL, NULL));
	printf("aligned long16 %d short3 %d double8 %d float16 %d, local %d\n", out[0], out[1],
	       out[2], out[3], out[4]);
	/* What CL_KERNEL_LOCAL_MEM_SIZE leaves, before the argument is set, fits. */
	CHECK(clGetDeviceInfo(t.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(max_local), &max_local,
			      NULL));
	CHECK(clGetKernelWorkGroupInfo(k5, t.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(used), &used,
				       NULL));
	EXPECT(used < max_local);
	big = (cl_uint)((max_local - used) / sizeof(cl_int));
	CHECK(clSetKernelArg(k5, 0, big * sizeof(cl_int), NULL));
	ARG(k5, 1, big);
	ARG(k5, 2, mo);
	n = 1;
	CHECK(clEnqueueNDRangeKernel(t.queue, k5, 1, NULL, &n, &n, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, sizeof(cl_int), out, 0, NULL, NULL));
	printf("the rest of local memory in one argument: %d\n", out[0]);
	clReleaseMemObject(mi); clReleaseMemObject(mo);
	clReleaseKernel(k1); clReleaseKernel(k2); clReleaseKernel(k3); clReleaseKernel(k4);
	clReleaseKernel(k5);
	clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
