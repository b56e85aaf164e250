// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: atomics - 32-bit atomics on global and local memory, 64-bit atom_add
 *
 * Every work-item of 4 workgroups of 64 hits the same counters with
 * atomic_add, atomic_inc, atomic_sub, atomic_min, atomic_max, atomic_or,
 * an atomic_cmpxchg loop (a lock-free add) on global memory and on
 * a __local copy that one work-item then adds to global; and atom_add on a
 * 64-bit counter with values above 2^32.  The final values do not depend
 * on the order: they must be identical.
 */
#include "clt.h"

static const char *src =
	"#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
	"__kernel void hit(__global int *g, __global long *g64)\n"
	"{\n"
	"	__local int l[4];\n"
	"	int i = get_global_id(0), li = get_local_id(0);\n"
	"	if (li < 4) l[li] = li == 2 ? 1 << 30 : 0;\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	atomic_add(&g[0], i);\n"
	"	atomic_inc(&g[1]);\n"
	"	atomic_sub(&g[2], 3);\n"
	"	atomic_min(&g[3], 1000 - i * 7);\n"
	"	atomic_max(&g[4], i * 13 - 50);\n"
	"	atomic_or(&g[5], 1 << (i % 31));\n"
	"	int old, v;\n"
	"	do { old = g[6]; v = old + i + 1; } while (atomic_cmpxchg(&g[6], old, v) != old);\n"
	"	atomic_add(&l[0], li);\n"
	"	atomic_inc(&l[1]);\n"
	"	atomic_min(&l[2], li * 3 + 5);\n"
	"	atomic_max(&l[3], li ^ 21);\n"
	"	atom_add(g64, (long)i << 33 | 1);\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	if (li == 0) {\n"
	"		atomic_add(&g[7], l[0]);\n"
	"		atomic_add(&g[8], l[1]);\n"
	"		atomic_add(&g[9], l[2]);\n"
	"		atomic_max(&g[10], l[3]);\n"
	"	}\n"
	"}\n";

int main(void)
{
	struct clt t;
	cl_int g[11] = { 0, 0, 100, 1 << 20, -1000, 0, 0, 0, 0, 0, 0 };
	cl_long g64 = 5;
	size_t n = 256, l = 64;
	int i;

	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	cl_kernel k = clt_kernel(p, "hit");
	cl_mem mg = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(g), g);
	cl_mem m64 = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(g64), &g64);

	ARG(k, 0, mg); ARG(k, 1, m64);
	CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &n, &l, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mg, CL_TRUE, 0, sizeof(g), g, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, m64, CL_TRUE, 0, sizeof(g64), &g64, 0, NULL, NULL));
	for (i = 0; i < 11; i++)
		printf("g[%d] = %d\n", i, g[i]);
	printf("g64 = %lld\n", (long long)g64);
	clReleaseMemObject(mg); clReleaseMemObject(m64);
	clReleaseKernel(k); clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
