// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: vload - vector loads and stores, and half conversions
 *
 * vload2/3/4/8/16 and vstore2/3/4/8/16 at unaligned element offsets, then
 * vload_half and vstore_half (round to nearest even), vload_half4 and
 * vstore_half4 on values chosen at halfway points, subnormals
 * and overflow.  Loads, stores and the default half conversions are exact:
 * every word is printed in hex.
 */
#include "clt.h"

static const char *src =
	"__kernel void vec(__global const float *in, __global float *out)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	float2 a = vload2(i, in + 1);\n"
	"	float3 b = vload3(i, in + 3);\n"
	"	float4 c = vload4(i, in + 2);\n"
	"	float8 d = vload8(i, in + 5);\n"
	"	float16 e = vload16(0, in + i);\n"
	"	vstore2(a * 2.0f, i, out);\n"
	"	vstore3(b + 1.0f, i, out + 40);\n"
	"	vstore4(c.wzyx, i, out + 80);\n"
	"	vstore8(d.s01234567 - d.s76543210, i, out + 120);\n"
	"	vstore16(e, i, out + 200);\n"
	"}\n"
	"__kernel void tohalf(__global const float *f, __global half *h, __global float *back)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	vstore_half(f[i], i, h);\n"
	"	back[i] = vload_half(i, (__global const half *)h);\n"
	"}\n"
	"__kernel void half4x(__global const half *h, __global float *f, __global half *h2)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	float4 v = vload_half4(i, h);\n"
	"	vstore4(v, i, f);\n"
	"	vstore_half4(v * 3.0f, i, h2);\n"
	"}\n";

#define N 8
#define NH 32

int main(void)
{
	struct clt t;
	static float in[96], out[400], hf[NH], back[NH], f4[NH];
	static cl_half h[NH], h2[NH], hin[NH];
	size_t n = N, nh = NH, nq = NH / 4;
	int i;
	static const float special[] = {
		1.0f, 0.1f, 65504.0f, 65520.0f, 65519.99f, 1e6f, -2.0f, 0x1p-24f,
		0x1p-25f, 0x1.8p-24f, 0x1.002p0f, 0x1.003p0f, 0x1.001p0f, 0x1.0018p0f,
		-0.0f, 3.14159265f, 0x1p-14f, 0x1.ff8p-15f, 1e-8f, -65504.0f,
	};

	for (i = 0; i < 96; i++)
		in[i] = (float)i * 1.25f - 7.0f;
	for (i = 0; i < NH; i++) {
		hf[i] = i < 20 ? special[i] : (float)(i - 26) / 7.0f;
		hin[i] = (cl_half)(0x0100 + i * 0x3a1);
	}
	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	cl_kernel kv = clt_kernel(p, "vec"), kh = clt_kernel(p, "tohalf");
	cl_kernel k4 = clt_kernel(p, "half4x");
	cl_mem mi = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in);
	cl_mem mo = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(out), out);
	cl_mem mf = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(hf), hf);
	cl_mem mh = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(h), NULL);
	cl_mem mb = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(back), NULL);
	cl_mem mhi = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(hin), hin);
	cl_mem mh2 = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(h2), NULL);
	cl_mem mf4 = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(f4), NULL);

	ARG(kv, 0, mi); ARG(kv, 1, mo);
	ARG(kh, 0, mf); ARG(kh, 1, mh); ARG(kh, 2, mb);
	ARG(k4, 0, mhi); ARG(k4, 1, mf4); ARG(k4, 2, mh2);
	CHECK(clEnqueueNDRangeKernel(t.queue, kv, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(t.queue, kh, 1, NULL, &nh, NULL, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(t.queue, k4, 1, NULL, &nq, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mh, CL_TRUE, 0, sizeof(h), h, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mb, CL_TRUE, 0, sizeof(back), back, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mf4, CL_TRUE, 0, sizeof(f4), f4, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mh2, CL_TRUE, 0, sizeof(h2), h2, 0, NULL, NULL));
	for (i = 0; i < 400; i++)
		printf("out[%d] %a\n", i, out[i]);
	for (i = 0; i < NH; i++)
		printf("half %a -> %04x -> %a\n", hf[i], h[i], back[i]);
	for (i = 0; i < NH; i++)
		printf("half4 %04x -> %a -> %04x\n", hin[i], f4[i], h2[i]);
	clReleaseMemObject(mi); clReleaseMemObject(mo); clReleaseMemObject(mf);
	clReleaseMemObject(mh); clReleaseMemObject(mb); clReleaseMemObject(mhi);
	clReleaseMemObject(mh2); clReleaseMemObject(mf4);
	clReleaseKernel(kv); clReleaseKernel(kh); clReleaseKernel(k4); clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
