// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: opencl_c30 - what OpenCL C 3.0 adds to 1.2 without optional features
 *
 * Built with -cl-std=CL3.0, as the CTS builds for a device that lists
 * OpenCL C 3.0: the linear ids and get_enqueued_local_size() over a 3-D
 * range with an offset (each work-item's slot is at its global linear id,
 * so a wrong id shows as a hole or a clash); ctz() on scalars and vectors
 * of every integer type, 0 included; a reduction in local memory ordered
 * by work_group_barrier() in both forms; and the atomic functions with an
 * explicit order and scope, on global and local memory: fetch-add, -sub,
 * -min, -max, -or, -xor, -and, a compare-exchange loop, exchange on a
 * float, a 64-bit fetch-add with values above 2^32, and atomic_flag
 * (test-and-set counts the work-items that found it set).  The totals do
 * not depend on the order of the work-items: the outputs must match.
 */
#include "clt.h"

static const char *src =
	"__kernel void ids(__global int *o)\n"
	"{\n"
	"	size_t g = get_global_linear_id();\n"
	"	o[g * 4 + 0] = (int)g;\n"
	"	o[g * 4 + 1] = (int)get_local_linear_id();\n"
	"	o[g * 4 + 2] = (int)(get_enqueued_local_size(0) * 100 + get_enqueued_local_size(1) * 10\n"
	"			     + get_enqueued_local_size(2));\n"
	"	o[g * 4 + 3] = (int)(get_global_id(0) * 10000 + get_global_id(1) * 100 + get_global_id(2));\n"
	"}\n"
	"\n"
	"__kernel void ctzs(__global int *o, __global const ulong *v)\n"
	"{\n"
	"	int i = get_global_id(0);\n"
	"	ulong x = v[i];\n"
	"	o[i * 10 + 0] = ctz((char)x);\n"
	"	o[i * 10 + 1] = ctz((uchar)x);\n"
	"	o[i * 10 + 2] = ctz((short)x);\n"
	"	o[i * 10 + 3] = ctz((ushort)x);\n"
	"	o[i * 10 + 4] = ctz((int)x);\n"
	"	o[i * 10 + 5] = ctz((uint)x);\n"
	"	o[i * 10 + 6] = (int)ctz((long)x);\n"
	"	o[i * 10 + 7] = (int)ctz(x);\n"
	"	int4 a = ctz((int4)((int)x, (int)(x >> 8), (int)(x >> 16), (int)(x >> 24)));\n"
	"	o[i * 10 + 8] = a.x + a.y * 100 + a.z * 10000;\n"
	"	ulong2 b = ctz((ulong2)(x, x << 3));\n"
	"	o[i * 10 + 9] = (int)(b.x * 100 + b.y);\n"
	"}\n"
	"\n"
	"__kernel void reduce(__global int *o, __local int *s)\n"
	"{\n"
	"	int l = get_local_id(0), n = get_local_size(0);\n"
	"	s[l] = (int)get_global_id(0) * 3 + 1;\n"
	"	work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	for (int h = n / 2; h > 0; h /= 2) {\n"
	"		if (l < h)\n"
	"			s[l] += s[l + h];\n"
	"		work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);\n"
	"	}\n"
	"	if (l == 0)\n"
	"		o[get_group_id(0)] = s[0];\n"
	"}\n"
	"\n"
	"#define R memory_order_relaxed\n"
	"#define WG memory_scope_work_group\n"
	"#define DEV memory_scope_device\n"
	"__kernel void atomics(__global atomic_int *g, __global atomic_long *g64,\n"
	"		       __global atomic_float *f, __global atomic_flag *flag,\n"
	"		       __global int *out)\n"
	"{\n"
	"	__local atomic_int l[3];\n"
	"	int i = get_global_id(0), li = get_local_id(0);\n"
	"	if (li == 0) {\n"
	"		atomic_init(&l[0], 0);\n"
	"		atomic_init(&l[1], 1000);\n"
	"		atomic_init(&l[2], 0);\n"
	"	}\n"
	"	work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	atomic_fetch_add_explicit(&g[0], i, R, DEV);\n"
	"	atomic_fetch_sub_explicit(&g[1], 3, R, DEV);\n"
	"	atomic_fetch_min_explicit(&g[2], 1000 - i * 7, R, DEV);\n"
	"	atomic_fetch_max_explicit(&g[3], i * 13 - 50, R, DEV);\n"
	"	atomic_fetch_or_explicit(&g[4], 1 << (i % 31), R, DEV);\n"
	"	atomic_fetch_xor_explicit(&g[5], (i * 7 + 1) << (i % 3), R, DEV);\n"
	"	atomic_fetch_and_explicit(&g[6], ~(1 << (i % 29)), R, DEV);\n"
	"	int old = atomic_load_explicit(&g[7], R, DEV);\n"
	"	while (!atomic_compare_exchange_weak_explicit(&g[7], &old, old + i + 1, R, R, DEV))\n"
	"		;\n"
	"	atomic_fetch_add_explicit(g64, (long)i << 33 | 1, R, DEV);\n"
	"	float was = atomic_exchange_explicit(&f[i % 4], (float)i, R, DEV);\n"
	"	atomic_fetch_add_explicit(&g[8], was >= 0.0f, R, DEV);\n"
	"	if (!atomic_flag_test_and_set_explicit(&flag[0], R, DEV))\n"
	"		atomic_fetch_add_explicit(&g[9], 1, R, DEV);\n"
	"	atomic_fetch_add_explicit(&l[0], li, R, WG);\n"
	"	atomic_fetch_min_explicit(&l[1], li * 3 + 5, R, WG);\n"
	"	int e = 0;\n"
	"	atomic_compare_exchange_strong_explicit(&l[2], &e, li + 1, R, R, WG);\n"
	"	atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, WG);\n"
	"	work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	if (li == 0) {\n"
	"		atomic_fetch_add_explicit(&g[10], atomic_load_explicit(&l[0], R, WG), R, DEV);\n"
	"		atomic_fetch_add_explicit(&g[11], atomic_load_explicit(&l[1], R, WG), R, DEV);\n"
	"		atomic_fetch_add_explicit(&g[12], atomic_load_explicit(&l[2], R, WG) > 0, R, DEV);\n"
	"	}\n"
	"	out[i] = 1;\n"
	"}\n";

static void run_ids(struct clt *t, cl_program p)
{
	size_t off[3] = { 1, 2, 3 }, gsz[3] = { 6, 4, 2 }, lsz[3] = { 3, 2, 1 };
	size_t items = 6 * 4 * 2, i;
	cl_int o[6 * 4 * 2 * 4];
	cl_kernel k = clt_kernel(p, "ids");
	cl_mem m;

	memset(o, 0xff, sizeof(o));
	m = clt_buffer(t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(o), o);
	ARG(k, 0, m);
	CHECK(clEnqueueNDRangeKernel(t->queue, k, 3, off, gsz, lsz, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t->queue, m, CL_TRUE, 0, sizeof(o), o, 0, NULL, NULL));
	for (i = 0; i < items; i++)
		printf("ids %zu: linear %d local %d enqueued %d global %06d\n", i, o[i * 4],
		       o[i * 4 + 1], o[i * 4 + 2], o[i * 4 + 3]);
	clReleaseMemObject(m);
	clReleaseKernel(k);
}

static void run_ctz(struct clt *t, cl_program p)
{
	cl_ulong v[8] = { 0, 1, 0x80, 0x100, 0x8000, 0x10000, 0x100000000ull,
			  0x8000000000000000ull };
	cl_int o[8 * 10];
	size_t n = 8, i;
	cl_kernel k = clt_kernel(p, "ctzs");
	cl_mem mo = clt_buffer(t, CL_MEM_WRITE_ONLY, sizeof(o), NULL);
	cl_mem mv = clt_buffer(t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(v), v);

	ARG(k, 0, mo); ARG(k, 1, mv);
	CHECK(clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t->queue, mo, CL_TRUE, 0, sizeof(o), o, 0, NULL, NULL));
	for (i = 0; i < n * 10; i++)
		printf("ctz %#llx [%zu] = %d\n", (unsigned long long)v[i / 10], i % 10, o[i]);
	clReleaseMemObject(mo); clReleaseMemObject(mv);
	clReleaseKernel(k);
}

static void run_reduce(struct clt *t, cl_program p)
{
	size_t n = 256, l = 64, i;
	cl_int o[4];
	cl_kernel k = clt_kernel(p, "reduce");
	cl_mem m = clt_buffer(t, CL_MEM_WRITE_ONLY, sizeof(o), NULL);

	ARG(k, 0, m);
	CHECK(clSetKernelArg(k, 1, l * sizeof(cl_int), NULL));
	CHECK(clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &n, &l, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t->queue, m, CL_TRUE, 0, sizeof(o), o, 0, NULL, NULL));
	for (i = 0; i < 4; i++)
		printf("reduce group %zu = %d\n", i, o[i]);
	clReleaseMemObject(m);
	clReleaseKernel(k);
}

static void run_atomics(struct clt *t, cl_program p)
{
	cl_int g[13] = { 0, 100, 1 << 20, -1000, 0, 0x7fffffff, -1, 0, 0, 0, 0, 0, 0 };
	cl_long g64 = 5;
	cl_float f[4] = { 0, 0, 0, 0 };
	cl_int flag = 0, out[256];
	size_t n = 256, l = 64;
	int i, ran = 0;
	cl_kernel k = clt_kernel(p, "atomics");
	cl_mem mg = clt_buffer(t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(g), g);
	cl_mem m64 = clt_buffer(t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(g64), &g64);
	cl_mem mf = clt_buffer(t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(f), f);
	cl_mem mfl = clt_buffer(t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(flag), &flag);
	cl_mem mo = clt_buffer(t, CL_MEM_WRITE_ONLY, sizeof(out), NULL);

	ARG(k, 0, mg); ARG(k, 1, m64); ARG(k, 2, mf); ARG(k, 3, mfl); ARG(k, 4, mo);
	CHECK(clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &n, &l, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t->queue, mg, CL_TRUE, 0, sizeof(g), g, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t->queue, m64, CL_TRUE, 0, sizeof(g64), &g64, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t->queue, mfl, CL_TRUE, 0, sizeof(flag), &flag, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t->queue, mo, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
	for (i = 0; i < 13; i++)
		printf("atomic g[%d] = %d\n", i, g[i]);
	printf("atomic g64 = %lld\n", (long long)g64);
	printf("atomic flag %s\n", flag ? "set" : "clear");
	for (i = 0; i < 256; i++)
		ran += out[i] == 1;
	printf("atomic ran %d of 256\n", ran);
	clReleaseMemObject(mg); clReleaseMemObject(m64); clReleaseMemObject(mf);
	clReleaseMemObject(mfl); clReleaseMemObject(mo);
	clReleaseKernel(k);
}

int main(void)
{
	struct clt t;
	cl_program p;

	clt_init(&t);
	p = clt_build(&t, src, "-cl-std=CL3.0");
	run_ids(&t, p);
	run_ctz(&t, p);
	run_reduce(&t, p);
	run_atomics(&t, p);
	clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
