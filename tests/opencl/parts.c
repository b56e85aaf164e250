// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: parts - a program large enough to be compiled in parts
 *
 * Seven kernels with loops, vector and integer builtins and helper
 * functions that several of them call, three of them with kernel-scope
 * __local arrays, and one that calls another kernel as a function: enough
 * work that vaccel-cc optimises and compiles it in parts on a machine of
 * two CPUs or more (split.c; tests/host/toolchain.sh checks that this
 * source does split).  Every kernel runs and prints its results, which
 * are integers or exact float sums: the outputs must be identical.  A
 * local variable defined in one part and used in another, a helper
 * compiled twice, or the metadata of a part lost shows here as a
 * different result or a kernel not found.
 */
#include "clt.h"

static const char *src =
	"#pragma OPENCL FP_CONTRACT OFF\n"
	"static uint mix(uint x)\n"
	"{\n"
	"	x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu;\n"
	"	return x ^ (x >> 16);\n"
	"}\n"
	"static int4 spread(int v)\n"
	"{\n"
	"	return (int4)(v, v * 3, v ^ 0x55, rotate(v, 7));\n"
	"}\n"
	"__kernel void tile_sum(__global const int *in, __global int *out)\n"
	"{\n"
	"	__local int tile[64];\n"
	"	size_t l = get_local_id(0);\n"
	"	int4 s = spread(in[get_global_id(0)]);\n"
	"	tile[l] = s.x + s.y - s.z + (int)(mix((uint)s.w) & 0xff);\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	for (size_t h = get_local_size(0) / 2; h > 0; h /= 2) {\n"
	"		if (l < h) tile[l] += tile[l + h];\n"
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	}\n"
	"	if (l == 0) out[get_group_id(0)] = tile[0];\n"
	"}\n"
	"__kernel void scan_local(__global const int *in, __global int *out)\n"
	"{\n"
	"	__local int s[64];\n"
	"	__local int t[64];\n"
	"	size_t l = get_local_id(0), n = get_local_size(0);\n"
	"	s[l] = in[get_global_id(0)] % 97;\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	for (size_t d = 1; d < n; d *= 2) {\n"
	"		t[l] = l >= d ? s[l] + s[l - d] : s[l];\n"
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"
	"		s[l] = t[l];\n"
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	}\n"
	"	out[get_global_id(0)] = s[l];\n"
	"}\n"
	"__kernel void hist(__global const int *in, __global uint *out)\n"
	"{\n"
	"	__local uint bins[16];\n"
	"	size_t l = get_local_id(0);\n"
	"	if (l < 16) bins[l] = 0;\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	atomic_inc(&bins[mix((uint)in[get_global_id(0)]) & 15]);\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	if (l < 16) atomic_add(&out[l], bins[l]);\n"
	"}\n"
	"__kernel void scale(__global int *data, int k)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	data[i] = mad24(data[i], k, (int)i);\n"
	"}\n"
	"__kernel void outer(__global int *data, int k)\n"
	"{\n"
	"	scale(data, k);\n"
	"	data[get_global_id(0)] += 1;\n"
	"}\n"
	"__kernel void poly(__global const float4 *in, __global float *out, int terms)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	float4 x = in[i], acc = (float4)(0.0f);\n"
	"	for (int k = 0; k < terms; k++) {\n"
	"		acc = acc * 0.5f + x;\n"
	"		x = clamp(x - 1.0f, -8.0f, 8.0f);\n"
	"	}\n"
	"	out[i] = ((acc.x + acc.y) + acc.z) + fabs(acc.w) + floor(x.s0) + fmax(x.s1, x.s2);\n"
	"}\n"
	"__kernel void bits(__global const uint *in, __global uint *out)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	uint v = in[i], r = 0;\n"
	"	for (int k = 0; k < 8; k++) {\n"
	"		v = mix(v + (uint)k);\n"
	"		r += popcount(v) + clz(v | 1u) * 3u + (rotate(v, 11u) & 0xffu) + mul_hi(v, 0x9e3779b9u) % 7u;\n"
	"	}\n"
	"	uint4 w = vload4(0, in + (i & ~3u));\n"
	"	out[i] = r ^ hadd(w.x, w.y) ^ (uint)abs_diff((int)w.z, (int)w.w) ^ (uint)convert_uchar_sat((int)(r & 0x1ff) - 64);\n"
	"}\n";

#define N 256

int main(void)
{
	struct clt t;
	cl_int in[N], out[N];
	cl_float fin[4 * N], fout[N];
	cl_uint hist_out[16] = { 0 };
	size_t n = N, l64 = 64, l32 = 32;
	int i;

	for (i = 0; i < N; i++)
		in[i] = (i * 7919) % 1000 - 500;
	for (i = 0; i < 4 * N; i++)
		fin[i] = (float)((i * 37) % 64) * 0.25f - 4.0f;
	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	cl_kernel tile = clt_kernel(p, "tile_sum"), scan = clt_kernel(p, "scan_local");
	cl_kernel hist = clt_kernel(p, "hist"), scale = clt_kernel(p, "scale");
	cl_kernel outer = clt_kernel(p, "outer"), poly = clt_kernel(p, "poly");
	cl_kernel bits = clt_kernel(p, "bits");
	cl_mem mi = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in);
	cl_mem mo = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(out), NULL);
	cl_mem mh = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(hist_out),
			       hist_out);
	cl_mem mf = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(fin), fin);
	cl_mem mfo = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(fout), NULL);
	cl_int k = 5, terms = 12;

	ARG(tile, 0, mi); ARG(tile, 1, mo);
	CHECK(clEnqueueNDRangeKernel(t.queue, tile, 1, NULL, &n, &l64, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, 4 * sizeof(cl_int), out, 0, NULL, NULL));
	for (i = 0; i < 4; i++)
		printf("tile %d %d\n", i, out[i]);

	ARG(scan, 0, mi); ARG(scan, 1, mo);
	CHECK(clEnqueueNDRangeKernel(t.queue, scan, 1, NULL, &n, &l64, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
	for (i = 0; i < N; i += 5)
		printf("scan %d %d\n", i, out[i]);

	ARG(hist, 0, mi); ARG(hist, 1, mh);
	CHECK(clEnqueueNDRangeKernel(t.queue, hist, 1, NULL, &n, &l32, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mh, CL_TRUE, 0, sizeof(hist_out), hist_out, 0, NULL,
				  NULL));
	for (i = 0; i < 16; i++)
		printf("hist %d %u\n", i, hist_out[i]);

	CHECK(clEnqueueWriteBuffer(t.queue, mo, CL_TRUE, 0, sizeof(in), in, 0, NULL, NULL));
	ARG(scale, 0, mo); ARG(scale, 1, k);
	CHECK(clEnqueueNDRangeKernel(t.queue, scale, 1, NULL, &n, NULL, 0, NULL, NULL));
	ARG(outer, 0, mo); ARG(outer, 1, k);
	CHECK(clEnqueueNDRangeKernel(t.queue, outer, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
	for (i = 0; i < N; i += 7)
		printf("outer %d %d\n", i, out[i]);

	ARG(poly, 0, mf); ARG(poly, 1, mfo); ARG(poly, 2, terms);
	CHECK(clEnqueueNDRangeKernel(t.queue, poly, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mfo, CL_TRUE, 0, sizeof(fout), fout, 0, NULL, NULL));
	for (i = 0; i < N; i += 9)
		printf("poly %d %a\n", i, fout[i]);

	ARG(bits, 0, mi); ARG(bits, 1, mo);
	CHECK(clEnqueueNDRangeKernel(t.queue, bits, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
	for (i = 0; i < N; i += 11)
		printf("bits %d %u\n", i, (unsigned int)out[i]);

	clReleaseMemObject(mi); clReleaseMemObject(mo); clReleaseMemObject(mh);
	clReleaseMemObject(mf); clReleaseMemObject(mfo);
	clReleaseKernel(tile); clReleaseKernel(scan); clReleaseKernel(hist);
	clReleaseKernel(scale); clReleaseKernel(outer); clReleaseKernel(poly);
	clReleaseKernel(bits);
	clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
