// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: args - arguments by value: structs, vectors, scalars of every size
 *
 * A kernel with a struct passed by value (members of mixed sizes, padded
 * as the host's C compiler pads them, as OpenCL requires), float4, int3,
 * char2, a long, a double, a short and a __constant buffer, writing each
 * back so that the host prints it.  A second launch after clSetKernelArg
 * of one argument only checks that the others are kept.
 */
#include "clt.h"

static const char *src =
	"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
	"typedef struct { int a; float b; char c; long d; short e[3]; } S;\n"
	"__kernel void args(S s, float4 f4, int3 i3, char2 c2, long l, double d,\n"
	"		   short sh, __constant int *k, __global long *o)\n"
	"{\n"
	"	o[0] = s.a; o[1] = as_int(s.b); o[2] = s.c; o[3] = s.d;\n"
	"	o[4] = s.e[0] + s.e[1] * 100 + s.e[2] * 10000;\n"
	"	o[5] = as_int(f4.x) ^ as_int(f4.y); o[6] = as_int(f4.z) ^ as_int(f4.w);\n"
	"	o[7] = i3.x + i3.y * 1000 + i3.z * 1000000;\n"
	"	o[8] = c2.x * 256 + c2.y; o[9] = l; o[10] = as_long(d); o[11] = sh;\n"
	"	o[12] = k[0] + k[3];\n"
	"}\n";

typedef struct {
	cl_int a;
	cl_float b;
	cl_char c;
	cl_long d;
	cl_short e[3];
} S;

int main(void)
{
	struct clt t;
	S s = { -7, 3.25f, -3, 0x123456789abcLL, { 1, 2, 3 } };
	cl_float4 f4 = { { 1.5f, -2.0f, 1e-3f, 7.0f } };
	cl_int3 i3 = { { 11, 22, 33 } };
	cl_char2 c2 = { { 5, -6 } };
	cl_long l = -0x7000000000000001LL;
	cl_double d = 1.0 / 3.0;
	cl_short sh = -1234;
	cl_int kv[4] = { 40, 0, 0, 2 };
	cl_long o[13];
	int i, run;

	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	cl_kernel k = clt_kernel(p, "args");
	cl_mem mk = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(kv), kv);
	cl_mem mo = clt_buffer(&t, CL_MEM_WRITE_ONLY, sizeof(o), NULL);
	size_t one = 1;

	ARG(k, 0, s); ARG(k, 1, f4); ARG(k, 2, i3); ARG(k, 3, c2); ARG(k, 4, l);
	ARG(k, 5, d); ARG(k, 6, sh); ARG(k, 7, mk); ARG(k, 8, mo);
	for (run = 0; run < 2; run++) {
		CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &one, NULL, 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, sizeof(o), o, 0, NULL, NULL));
		for (i = 0; i < 13; i++)
			printf("run %d o[%d] = %llx\n", run, i, (unsigned long long)o[i]);
		sh = 77;
		ARG(k, 6, sh);
	}
	clReleaseMemObject(mk); clReleaseMemObject(mo);
	clReleaseKernel(k); clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
