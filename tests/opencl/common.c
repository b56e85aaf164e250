// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: common - common, relational and geometric built-ins
 *
 * clamp, min, max, step, sign and select, isnan, isinf, isequal, signbit,
 * any, all and nextafter are exact: printed in hex.  mix, dot, cross, length,
 * distance and normalize may differ by a few ULP (the specification
 * leaves mix implementation-defined and bounds the geometric functions):
 * the program checks them against double-precision references computed
 * on the host and prints a verdict, and the rounded value.
 */
#include <math.h>
#include "clt.h"

static const char *src =
	"__kernel void exact(__global const float4 *a, __global const float4 *b, __global int *o)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	float4 x = a[i], y = b[i];\n"
	"	__global int *s = o + i * 32;\n"
	"	vstore4(as_int4(clamp(x, -1.5f, 2.25f)), 0, s);\n"
	"	vstore4(as_int4(clamp(x, fmin(y, 0.0f), fmax(y, 0.0f))), 1, s);\n"
	"	vstore4(as_int4(step(y, x)), 2, s);\n"
	"	vstore4(as_int4(select(x, y, isgreater(x, y))), 3, s);\n"
	"	vstore4(isnan(x) | isinf(y) << 4 | isequal(x, y) << 8 | signbit(x) << 12, 4, s);\n"
	"	vstore4(as_int4(sign(x)), 5, s);\n"
	"	s[24] = any(isless(x, y)) | all(isless(x, y)) << 1;\n"
	"	s[25] = as_int(max(x.x, y.y));\n"
	"	s[26] = as_int(min(x.z, y.w));\n"
	"	s[27] = select(7, 9, (int)(x.x < y.x));\n"
	"	vstore4(as_int4(nextafter(x, y)), 7, s);\n"
	"}\n"
	"__kernel void approx(__global const float4 *a, __global const float4 *b, __global float *o)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	float4 x = a[i], y = b[i];\n"
	"	__global float *s = o + i * 16;\n"
	"	vstore4(mix(x, y, 0.25f), 0, s);\n"
	"	s[4] = dot(x, y);\n"
	"	vstore4(cross(x, y), 2, s);\n"
	"	s[12] = length(x);\n"
	"	s[13] = distance(x, y);\n"
	"	vstore2(normalize(x.xy), 7, s);\n"
	"}\n"
	"__kernel void extreme(__global const float4 *e, __global float *o)\n"
	"{\n"
	"	vstore2(normalize(e[0].xy), 0, o);\n"
	"	vstore2(normalize(e[0].zw), 1, o);\n"
	"}\n";

#define N 12

static float in_a[N][4] = {
	{ 1, 2, 3, 4 }, { -1, -2.5f, 0, 0.5f }, { 3.5f, -0.f, 7, -8 }, { 1e10f, 1e-10f, 3, 3 },
	{ 0.1f, 0.2f, 0.3f, 0.4f }, { -3, 4, -5, 6 }, { 2, 2, 2, 2 }, { 1e-20f, 1e20f, 1, 0 },
	{ 0, 0, 0, 0 }, { 9, -9, 9, -9 }, { 5, 12, 0, 1 }, { -0.5f, 0.75f, 1.25f, -2 },
};
static float in_b[N][4] = {
	{ 4, 3, 2, 1 }, { 1, 1, 1, 1 }, { -1, 2, 7, 0 }, { 1, 1, 1, 1 },
	{ 0.4f, 0.3f, 0.2f, 0.1f }, { 3, -4, 5, -6 }, { 2, 3, 1, 2 }, { 1, 1, 1, 1 },
	{ 1, 2, 3, 4 }, { -9, 9, -9, 9 }, { 3, 4, 0, 0 }, { 0.5f, -0.75f, 8, 2 },
};

static void approx(const char *what, int i, float got, double want, double ulps)
{
	double tol = ulps * fabs(want) * 0x1p-23 + 1e-30;

	if (fabs(got - want) <= tol)
		printf("%s %d ok %.4g\n", what, i, want);
	else
		printf("%s %d BAD %a want %a\n", what, i, got, want);
}

int main(void)
{
	struct clt t;
	size_t n = N;
	cl_int o[N * 32];
	cl_float f[N * 16];
	int i, k;

	/* A NaN and an infinity in the edge rows. */
	in_a[8][1] = NAN;
	in_b[8][2] = INFINITY;
	in_a[9][3] = -NAN;
	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	cl_kernel ke = clt_kernel(p, "exact"), ka = clt_kernel(p, "approx");
	cl_mem ma = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in_a), in_a);
	cl_mem mb = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in_b), in_b);
	cl_mem mo = clt_buffer(&t, CL_MEM_WRITE_ONLY, sizeof(o), NULL);
	cl_mem mf = clt_buffer(&t, CL_MEM_WRITE_ONLY, sizeof(f), NULL);

	ARG(ke, 0, ma); ARG(ke, 1, mb); ARG(ke, 2, mo);
	ARG(ka, 0, ma); ARG(ka, 1, mb); ARG(ka, 2, mf);
	CHECK(clEnqueueNDRangeKernel(t.queue, ke, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(t.queue, ka, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, sizeof(o), o, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mf, CL_TRUE, 0, sizeof(f), f, 0, NULL, NULL));
	for (i = 0; i < N; i++) {
		printf("exact %d:", i);
		for (k = 0; k < 32; k++)
			printf(" %x", o[i * 32 + k]);
		printf("\n");
	}
	for (i = 0; i < N; i++) {
		const float *x = in_a[i], *y = in_b[i], *s = f + i * 16;
		double d = 0, l = 0, dist = 0;

		if (i == 8 || i == 9)
			continue;	/* NaN rows: exact part only */
		for (k = 0; k < 4; k++) {
			approx("mix", i, s[k], x[k] + ((double)y[k] - x[k]) * 0.25, 2);
			d += (double)x[k] * y[k];
			l += (double)x[k] * x[k];
			dist += ((double)x[k] - y[k]) * ((double)x[k] - y[k]);
		}
		/* dot may be fused or not: a few ULP of the largest term. */
		approx("dot", i, s[4], d, 8);
		approx("cross.x", i, s[8], (double)x[1] * y[2] - (double)x[2] * y[1], 8);
		approx("cross.y", i, s[9], (double)x[2] * y[0] - (double)x[0] * y[2], 8);
		approx("cross.z", i, s[10], (double)x[0] * y[1] - (double)x[1] * y[0], 8);
		approx("length", i, s[12], sqrt(l), 4);
		approx("distance", i, s[13], sqrt(dist), 8);
		if (x[0] != 0 || x[1] != 0) {
			double h = sqrt((double)x[0] * x[0] + (double)x[1] * x[1]);

			approx("normalize.x", i, s[14], x[0] / h, 4);
			approx("normalize.y", i, s[15], x[1] / h, 4);
		}
	}
	/*
	 * normalize of vectors whose length a float cannot hold, or whose
	 * squares underflow: the direction all the same (the CTS's
	 * geometrics found the first one giving zeros).
	 */
	{
		static const float e[4] = { -0x1.ce02eap+127f, 0x1.51067cp+127f, 0x1p-140f,
					    -0x1p-141f };
		size_t one = 1;
		float r[4];
		cl_kernel kx = clt_kernel(p, "extreme");
		cl_mem me = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(e),
				       (void *)e);
		cl_mem mr = clt_buffer(&t, CL_MEM_WRITE_ONLY, sizeof(r), NULL);

		ARG(kx, 0, me); ARG(kx, 1, mr);
		CHECK(clEnqueueNDRangeKernel(t.queue, kx, 1, NULL, &one, NULL, 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(t.queue, mr, CL_TRUE, 0, sizeof(r), r, 0, NULL, NULL));
		for (k = 0; k < 4; k += 2) {
			double h = sqrt((double)e[k] * e[k] + (double)e[k + 1] * e[k + 1]);

			approx("normalize_extreme.x", k / 2, r[k], e[k] / h, 4);
			approx("normalize_extreme.y", k / 2, r[k + 1], e[k + 1] / h, 4);
		}
		clReleaseMemObject(me); clReleaseMemObject(mr); clReleaseKernel(kx);
	}
	clReleaseMemObject(ma); clReleaseMemObject(mb);
	clReleaseMemObject(mo); clReleaseMemObject(mf);
	clReleaseKernel(ke); clReleaseKernel(ka); clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
