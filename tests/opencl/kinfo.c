// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: kinfo - clGetKernelInfo, clGetKernelArgInfo, clGetKernelWorkGroupInfo
 *
 * A program built with -cl-kernel-arg-info: each argument's name, type
 * name, address qualifier, access qualifier and type qualifiers; the
 * kernel's name, argument count and attributes.  Work-group information
 * is the device's, so only its rules are printed: the work-group size
 * within the device's limit, the compile work-group size of
 * reqd_work_group_size, the local memory at least the kernel's __local
 * array, a preferred multiple that is at least 1.
 */
#include "clt.h"

static const char *src =
	"typedef struct { int x; float y; } pair;\n"
	"__kernel __attribute__((reqd_work_group_size(8, 2, 1)))\n"
	"void info(__global const float *restrict in, __global volatile int *out,\n"
	"	   __local float4 *scratch, __constant pair *tab, uint n, float4 v)\n"
	"{\n"
	"	__local int mine[100];\n"
	"	mine[get_local_id(0)] = n;\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	out[get_global_id(0)] = mine[0] + tab[0].x + (int)in[0] + (int)scratch[0].x + (int)v.y;\n"
	"}\n";

static const char *addr_name(cl_kernel_arg_address_qualifier q)
{
	switch (q) {
	case CL_KERNEL_ARG_ADDRESS_GLOBAL: return "global";
	case CL_KERNEL_ARG_ADDRESS_LOCAL: return "local";
	case CL_KERNEL_ARG_ADDRESS_CONSTANT: return "constant";
	case CL_KERNEL_ARG_ADDRESS_PRIVATE: return "private";
	}
	return "?";
}

int main(void)
{
	struct clt t;
	char s[256];
	cl_uint nargs, i;
	size_t wg, cwg[3], pm, devmax;
	cl_ulong lmem, pmem;

	clt_init(&t);
	cl_program p = clt_build(&t, src, "-cl-kernel-arg-info");
	cl_kernel k = clt_kernel(p, "info");

	CHECK(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(s), s, NULL));
	printf("name %s\n", s);
	CHECK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL));
	printf("args %u\n", nargs);
	CHECK(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof(s), s, NULL));
	{
		char *r = s, *w = s;

		for (; *r; r++)	/* spaces differ between compilers */
			if (*r != ' ')
				*w++ = *r;
		*w = 0;
	}
	printf("attributes %s\n", strstr(s, "reqd_work_group_size(8,2,1)") ? "reqd_work_group_size(8,2,1)" : s);
	for (i = 0; i < nargs; i++) {
		cl_kernel_arg_address_qualifier aq;
		cl_kernel_arg_access_qualifier acc;
		cl_kernel_arg_type_qualifier tq;
		char tn[64], an[64];

		CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(aq), &aq, NULL));
		CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof(acc), &acc, NULL));
		CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(tq), &tq, NULL));
		CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof(tn), tn, NULL));
		CHECK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof(an), an, NULL));
		printf("arg %u: %s %s, %s, access %s, const %d restrict %d volatile %d\n", i, tn, an,
		       addr_name(aq), acc == CL_KERNEL_ARG_ACCESS_NONE ? "none" : "?",
		       !!(tq & CL_KERNEL_ARG_TYPE_CONST), !!(tq & CL_KERNEL_ARG_TYPE_RESTRICT),
		       !!(tq & CL_KERNEL_ARG_TYPE_VOLATILE));
	}
	printf("arg 6: %d\n", clGetKernelArgInfo(k, 6, CL_KERNEL_ARG_NAME, sizeof(s), s, NULL));

	CHECK(clGetDeviceInfo(t.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(devmax), &devmax, NULL));
	CHECK(clGetKernelWorkGroupInfo(k, t.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL));
	printf("work group size %s\n", wg >= 1 && wg <= devmax ? "within the device's" : "WRONG");
	CHECK(clGetKernelWorkGroupInfo(k, t.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(cwg), cwg, NULL));
	printf("compile work group size %zu %zu %zu\n", cwg[0], cwg[1], cwg[2]);
	CHECK(clGetKernelWorkGroupInfo(k, t.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(lmem), &lmem, NULL));
	printf("local mem %s\n", lmem >= 400 ? "at least the array" : "WRONG");
	CHECK(clGetKernelWorkGroupInfo(k, t.device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
				       sizeof(pm), &pm, NULL));
	printf("preferred multiple %s\n", pm >= 1 ? "at least 1" : "WRONG");
	CHECK(clGetKernelWorkGroupInfo(k, t.device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(pmem), &pmem, NULL));
	printf("private mem queried\n");
	/* A local size other than the required one is refused. */
	{
		size_t g[2] = { 16, 4 }, l[2] = { 4, 4 };
		cl_float4 v4 = { { 0 } };
		cl_uint n = 1;
		cl_int err;
		cl_mem m = clt_buffer(&t, CL_MEM_READ_WRITE, 4096, NULL);

		ARG(k, 0, m); ARG(k, 1, m); ARG(k, 3, m); ARG(k, 4, n); ARG(k, 5, v4);
		CHECK(clSetKernelArg(k, 2, 64, NULL));
		err = clEnqueueNDRangeKernel(t.queue, k, 2, NULL, g, l, 0, NULL, NULL);
		printf("other local size: %d\n", err);
		clReleaseMemObject(m);
	}
	clReleaseKernel(k);
	clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
