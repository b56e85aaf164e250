// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: printf - OpenCL C printf
 *
 * Work-items print integers of each length, %x, %o, %c, %s of a constant
 * string, %f, %e, %g and %a of exactly representable values, a vector
 * with %v4hld and %v2hlf, a %% and a literal line; printf's return value
 * is 0.  The lines reach the program's stdout by clFinish: the runner
 * sorts them, since the order of work-items is not specified.
 */
#include "clt.h"

static const char *src =
	"__kernel void pr(__global int *ret)\n"
	"{\n"
	"	int i = get_global_id(0);\n"
	"	int4 v = (int4)(i, -i, i * 100, 7);\n"
	"	float2 f = (float2)(i * 0.5f, -0.25f);\n"
	"	int r = printf(\"item %d: %5d|%-4d|%x|%o|%c|%s|%ld|%u\\n\", i, i * 11, -i, 255 + i, 8 + i,\n"
	"		       'A' + i, \"const\", (long)i << 40, (uint)-1);\n"
	"	r |= printf(\"item %d: %f %e %g %a %.3f %%\\n\", i, i * 1.5f, i * 1024.0f, 0.0625f * i, 3.0f + i, 1.0f / 8);\n"
	"	r |= printf(\"item %d: %v4hld %v2hlf\\n\", i, v, f);\n"
	"	ret[i] = r;\n"
	"	if (i == 0) printf(\"plain line\\n\");\n"
	"}\n";

int main(void)
{
	struct clt t;
	size_t n = 6;
	cl_int ret[6];
	int i;

	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	cl_kernel k = clt_kernel(p, "pr");
	cl_mem m = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(ret), NULL);

	ARG(k, 0, m);
	fflush(stdout);
	CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clFinish(t.queue));
	fflush(stdout);
	CHECK(clEnqueueReadBuffer(t.queue, m, CL_TRUE, 0, sizeof(ret), ret, 0, NULL, NULL));
	for (i = 0; i < 6; i++)
		printf("return %d: %d\n", i, ret[i]);
	clReleaseMemObject(m);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
