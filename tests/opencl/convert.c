// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: convert - convert_int, convert_float, convert_int_sat and kin
 *
 * The default conversions of OpenCL C (to integer: toward zero; to float:
 * to nearest even) and the saturating ones, on edge values: halfway
 * points, +-2^31, infinities, NaN (0 when saturating), negative values to
 * unsigned, and long and char vectors.  All exact: printed in hex.
 */
#include <math.h>
#include "clt.h"

static const char *src =
	"__kernel void conv(__global const float *f, __global const int *x, __global int *o)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	float v = f[i];\n"
	"	int w = x[i];\n"
	"	__global int *s = o + i * 12;\n"
	"	s[0] = convert_int_sat(v);\n"
	"	s[1] = convert_uint_sat(v);\n"
	"	s[2] = convert_char_sat(v);\n"
	"	s[3] = convert_uchar_sat(w);\n"
	"	s[4] = convert_short_sat(w);\n"
	"	s[5] = as_int(convert_float(w));\n"
	"	s[6] = as_int(convert_float((uint)w));\n"
	"	long l = convert_long_sat(v);\n"
	"	s[7] = (int)(l >> 32);\n"
	"	s[8] = (int)l;\n"
	"	int4 v4 = convert_int4_sat((float4)(v, -v, v * 0.5f, v * 1e9f));\n"
	"	s[9] = v4.x ^ v4.y ^ v4.z ^ v4.w;\n"
	"	s[10] = as_int(convert_float((long)w << 20));\n"
	"	s[11] = fabs(v) < 2e9f ? convert_int(v) : 0;\n"
	"}\n";

int main(void)
{
	static const float fv[] = {
		0.0f, 0.5f, -0.5f, 1.5f, 2.5f, -1.5f, -2.5f, 0.99999994f, 127.5f, 128.0f,
		-128.5f, -129.0f, 255.5f, 256.0f, 2147483520.0f, 2147483648.0f, -2147483648.0f,
		-2147483904.0f, 4294967040.0f, 4294967296.0f, 1e19f, -1e19f, INFINITY,
		-INFINITY, NAN, 1e-40f, -3.7f, 3.7f, 65535.5f, 1e10f, 9.2233720e18f, -9.3e18f,
	};
	static const cl_int xv[] = {
		0, 1, -1, 255, 256, -129, 32767, 32768, -32769, 0x7fffffff, (cl_int)0x80000000,
		16777217, 16777219, -16777217, 0x7fffffc0, 0x7fffffbf, 123456789, -987654321,
		(cl_int)0xfffffffe, 100, 200, 300, 65535, 65536, 999999, 3, 33554435, -33554435,
		0x40000001, 8388609, -8388609, 511,
	};
#define N (sizeof(fv) / sizeof(fv[0]))
	struct clt t;
	size_t n = N, i;
	cl_int o[N * 12];
	int k;

	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	cl_kernel kc = clt_kernel(p, "conv");
	cl_mem mf = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(fv), (void *)fv);
	cl_mem mx = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(xv), (void *)xv);
	cl_mem mo = clt_buffer(&t, CL_MEM_WRITE_ONLY, sizeof(o), NULL);

	ARG(kc, 0, mf); ARG(kc, 1, mx); ARG(kc, 2, mo);
	CHECK(clEnqueueNDRangeKernel(t.queue, kc, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, sizeof(o), o, 0, NULL, NULL));
	for (i = 0; i < N; i++) {
		printf("%a %x:", fv[i], xv[i]);
		for (k = 0; k < 12; k++)
			printf(" %x", o[i * 12 + k]);
		printf("\n");
	}
	clReleaseMemObject(mf); clReleaseMemObject(mx); clReleaseMemObject(mo);
	clReleaseKernel(kc); clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
