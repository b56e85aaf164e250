// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: integer - integer built-ins on edge values
 *
 * add_sat, sub_sat, mul_hi, rotate, clz, popcount, mad24, mul24, abs,
 * abs_diff, hadd, rhadd, upsample, mad_hi and mad_sat for int, uint, char
 * and long, on every pair of a table of edge values (0, 1, -1, the
 * minimum, the maximum, their neighbours, bit patterns).  Integer results
 * are exact: every value is printed in hex.
 */
#include "clt.h"

static const char *src =
	"__kernel void ints(__global const int *a, __global const int *b, __global int *o)\n"
	"{\n"
	"	size_t i = get_global_id(0), j = get_global_id(1), n = get_global_size(0);\n"
	"	int x = a[i], y = b[j];\n"
	"	uint ux = x, uy = y;\n"
	"	char cx = x, cy = y;\n"
	"	long lx = (long)x << 32 | (uint)y, ly = (long)y * 3 - x;\n"
	"	__global int *s = o + (j * n + i) * 24;\n"
	"	s[0] = add_sat(x, y);\n"
	"	s[1] = sub_sat(x, y);\n"
	"	s[2] = add_sat(ux, uy);\n"
	"	s[3] = sub_sat(ux, uy);\n"
	"	s[4] = mul_hi(x, y);\n"
	"	s[5] = mul_hi(ux, uy);\n"
	"	s[6] = rotate(x, y);\n"
	"	s[7] = clz(x);\n"
	"	s[8] = popcount(x);\n"
	"	s[9] = mad24(x << 8 >> 8, y << 8 >> 8, x);\n"
	"	s[10] = mul24(ux & 0xffffff, uy & 0xffffff);\n"
	"	s[11] = abs_diff(x, y);\n"
	"	s[12] = hadd(x, y);\n"
	"	s[13] = rhadd(x, y);\n"
	"	s[14] = hadd(ux, uy);\n"
	"	s[15] = rhadd(ux, uy);\n"
	"	s[16] = upsample((short)x, (ushort)y);\n"
	"	s[17] = (uchar)add_sat(cx, cy) | (uchar)sub_sat(cx, cy) << 8 | (uchar)abs_diff(cx, cy) << 16 | (uchar)rotate(cx, cy) << 24;\n"
	"	long u = upsample(x, (uint)y);\n"
	"	s[18] = (int)(u >> 32) ^ (int)u;\n"
	"	s[19] = (int)(mul_hi(lx, ly) >> 17);\n"
	"	s[20] = (int)(add_sat(lx, ly) >> 31);\n"
	"	s[21] = clz(lx) | popcount(ly) << 8 | clz(cx) << 16 | popcount(cx) << 24;\n"
	"	s[22] = mad_hi(x, y, 12345);\n"
	"	s[23] = mad_sat(x, y, x);\n"
	"}\n";

static const cl_int edge[] = {
	0, 1, -1, 2, -2, 0x7fffffff, (cl_int)0x80000000, 0x7ffffffe, (cl_int)0x80000001,
	0x7f, 0x80, -128, 0xff, 0xffff, 0x8000, 0x00ffffff, (cl_int)0xff800000, 31, 32, 33,
	0x55555555, (cl_int)0xaaaaaaaa, 0x12345678, -0x1234567,
};
#define N (sizeof(edge) / sizeof(edge[0]))

int main(void)
{
	struct clt t;
	size_t g[2] = { N, N }, i, j;
	static cl_int o[N * N * 24];
	int k;

	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	cl_kernel kr = clt_kernel(p, "ints");
	cl_mem ma = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(edge), (void *)edge);
	cl_mem mo = clt_buffer(&t, CL_MEM_WRITE_ONLY, sizeof(o), NULL);

	ARG(kr, 0, ma); ARG(kr, 1, ma); ARG(kr, 2, mo);
	CHECK(clEnqueueNDRangeKernel(t.queue, kr, 2, NULL, g, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, sizeof(o), o, 0, NULL, NULL));
	for (j = 0; j < N; j++)
		for (i = 0; i < N; i++) {
			printf("%x %x:", edge[i], edge[j]);
			for (k = 0; k < 24; k++)
				printf(" %x", o[(j * N + i) * 24 + k]);
			printf("\n");
		}
	clReleaseMemObject(ma); clReleaseMemObject(mo);
	clReleaseKernel(kr); clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
