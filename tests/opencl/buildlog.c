// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: buildlog - the build log of a program with an error
 *
 * A source whose line 4 calls an undeclared function fails to build with
 * CL_BUILD_PROGRAM_FAILURE; its build status is CL_BUILD_ERROR and its
 * log names line 4 (":4:"), whatever the rest of its text.  A kernel
 * cannot be created from it (CL_INVALID_PROGRAM_EXECUTABLE).  Then a
 * warning-free program built with -Werror and -D options succeeds, with
 * CL_BUILD_SUCCESS and its options kept.
 */
#include "clt.h"

static const char *bad =
	"__kernel void f(__global int *p)\n"
	"{\n"
	"	int x = 1;\n"
	"	p[0] = no_such_function(x);\n"
	"}\n";

static const char *good =
	"__kernel void g(__global int *p) { p[0] = VALUE * 2; }\n";

int main(void)
{
	struct clt t;
	cl_int err;
	cl_build_status bs;
	char log[16384], opts[128];
	size_t n;

	clt_init(&t);
	cl_program p = clCreateProgramWithSource(t.context, 1, &bad, NULL, &err);
	CHECK(err);
	err = clBuildProgram(p, 1, &t.device, NULL, NULL, NULL);
	printf("build: %s\n", err == CL_BUILD_PROGRAM_FAILURE ? "failed" : "WRONG");
	CHECK(clGetProgramBuildInfo(p, t.device, CL_PROGRAM_BUILD_STATUS, sizeof(bs), &bs, NULL));
	printf("status: %s\n", bs == CL_BUILD_ERROR ? "error" : "WRONG");
	CHECK(clGetProgramBuildInfo(p, t.device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, &n));
	printf("log: %s\n", strstr(log, ":4:") ? "names line 4" : "WRONG");
	printf("log length: %s\n", n == strlen(log) + 1 ? "with its nul" : "WRONG");
	if (!strstr(log, ":4:"))
		fprintf(stderr, "log:\n%s\n", log);
	clCreateKernel(p, "f", &err);
	printf("kernel: %d\n", err);
	clReleaseProgram(p);

	p = clCreateProgramWithSource(t.context, 1, &good, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(p, 1, &t.device, "-Werror -DVALUE=21", NULL, NULL));
	CHECK(clGetProgramBuildInfo(p, t.device, CL_PROGRAM_BUILD_STATUS, sizeof(bs), &bs, NULL));
	printf("good status: %s\n", bs == CL_BUILD_SUCCESS ? "success" : "WRONG");
	CHECK(clGetProgramBuildInfo(p, t.device, CL_PROGRAM_BUILD_OPTIONS, sizeof(opts), opts, NULL));
	printf("options: %s\n", opts);
	clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
