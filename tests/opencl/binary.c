// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: binary - program binaries round trip
 *
 * A program built from source gives its CL_PROGRAM_BINARY_SIZES and
 * CL_PROGRAM_BINARIES; a second program made from those bytes with
 * clCreateProgramWithBinary (binary status CL_SUCCESS) builds, has the
 * same kernels, and computes the same results.  Garbage bytes are refused
 * with CL_INVALID_BINARY, from create or from build.
 */
#include "clt.h"

static const char *src =
	"__kernel void sq(__global int *p) { int i = get_global_id(0); p[i] = p[i] * p[i] - i; }\n"
	"__kernel void neg(__global int *p) { p[get_global_id(0)] ^= -1; }\n";

static void run(struct clt *t, cl_program p, const char *what)
{
	cl_int v[32];
	size_t n = 32;
	int i;
	char names[64];
	cl_kernel k = clt_kernel(p, "sq");

	for (i = 0; i < 32; i++)
		v[i] = i * 1001 - 3;
	cl_mem m = clt_buffer(t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(v), v);
	ARG(k, 0, m);
	CHECK(clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t->queue, m, CL_TRUE, 0, sizeof(v), v, 0, NULL, NULL));
	CHECK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(names), names, NULL));
	printf("%s: kernels %s%s:", what, strstr(names, "sq") ? "sq" : "", strstr(names, "neg") ? " neg" : "");
	for (i = 0; i < 32; i++)
		printf(" %x", v[i]);
	printf("\n");
	clReleaseMemObject(m);
	clReleaseKernel(k);
}

int main(void)
{
	struct clt t;
	size_t size;
	unsigned char *bin;
	cl_int err, st;

	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	run(&t, p, "source");
	CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL));
	EXPECT(size > 0);
	bin = malloc(size);
	CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL));

	const unsigned char *cb = bin;
	cl_program q = clCreateProgramWithBinary(t.context, 1, &t.device, &size, &cb, &st, &err);
	CHECK(err);
	CHECK(st);
	CHECK(clBuildProgram(q, 1, &t.device, NULL, NULL, NULL));
	run(&t, q, "binary");
	{
		cl_program_binary_type bt;

		CHECK(clGetProgramBuildInfo(q, t.device, CL_PROGRAM_BINARY_TYPE, sizeof(bt), &bt, NULL));
		printf("binary type %s\n", bt == CL_PROGRAM_BINARY_TYPE_EXECUTABLE ? "executable" : "WRONG");
	}

	unsigned char junk[256];
	const unsigned char *jb = junk;
	size_t js = sizeof(junk);
	memset(junk, 0x3c, sizeof(junk));
	cl_program r = clCreateProgramWithBinary(t.context, 1, &t.device, &js, &jb, &st, &err);
	if (err == CL_SUCCESS) {
		err = clBuildProgram(r, 1, &t.device, NULL, NULL, NULL);
		clReleaseProgram(r);
	}
	printf("junk: %s\n", err == CL_INVALID_BINARY || err == CL_BUILD_PROGRAM_FAILURE ?
	       "refused" : "WRONG");
	if (err != CL_INVALID_BINARY && err != CL_BUILD_PROGRAM_FAILURE)
		fprintf(stderr, "junk binary: %d\n", err);
	free(bin);
	clReleaseProgram(q);
	clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
