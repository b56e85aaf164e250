// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: link - separate compilation: clCompileProgram and clLinkProgram
 *
 * A function compiled on its own, a kernel compiled with an embedded
 * header (input_headers) that declares it, a library made of the first
 * (-create-library), and an executable linked from the kernel and the
 * library; then the same link from the compiled object's binary
 * (CL_PROGRAM_BINARIES, clCreateProgramWithBinary).  The host prints
 * each program's binary type, the kernel's names and argument count, and
 * what the kernel computes, and the error of a source that does not
 * compile.  (Linking a program that failed to compile stops PoCL 3.1 on
 * an assertion: api.c checks vaccel's answer to it.)
 */
#include "clt.h"

static const char *twice_src = "int twice(int x) { return 2 * x + BIAS; }\n";
static const char *header_src = "int twice(int x);\n#define OFFSET 5\n";
static const char *kernel_src =
	"#include \"twice.h\"\n"
	"__kernel void k(__global int *o, int scale)\n"
	"{\n"
	"	int i = (int)get_global_id(0);\n"
	"	o[i] = twice(i) * scale + OFFSET;\n"
	"}\n";
static const char *broken_src = "__kernel void b(__global int *o)\n{\n\to[0] = nope;\n}\n";

static cl_program source(struct clt *t, const char *src)
{
	cl_int err;
	cl_program p = clCreateProgramWithSource(t->context, 1, &src, NULL, &err);

	CHECK(err);
	return p;
}

static void compile(struct clt *t, cl_program p, const char *opts, cl_uint nh,
		    const cl_program *headers, const char **names)
{
	char log[4096] = "";
	cl_int err = clCompileProgram(p, 1, &t->device, opts, nh, headers, names, NULL, NULL);

	if (err != CL_SUCCESS) {
		clGetProgramBuildInfo(p, t->device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
		fprintf(stderr, "clCompileProgram: %d\n%s\n", err, log);
		exit(1);
	}
}

static void print_type(const char *what, struct clt *t, cl_program p)
{
	cl_program_binary_type type = 0;

	CHECK(clGetProgramBuildInfo(p, t->device, CL_PROGRAM_BINARY_TYPE, sizeof(type), &type,
				    NULL));
	printf("%s: binary type %#x\n", what, (unsigned int)type);
}

static void run(struct clt *t, cl_program exe)
{
	cl_int o[16], scale = 3, i;
	size_t n = 16;
	cl_uint args = 0;
	char names[256] = "";
	cl_kernel k = clt_kernel(exe, "k");
	cl_mem m = clt_buffer(t, CL_MEM_WRITE_ONLY, sizeof(o), NULL);

	CHECK(clGetProgramInfo(exe, CL_PROGRAM_KERNEL_NAMES, sizeof(names), names, NULL));
	CHECK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(args), &args, NULL));
	printf("kernels %s, %u arguments\n", names, args);
	ARG(k, 0, m);
	ARG(k, 1, scale);
	CHECK(clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t->queue, m, CL_TRUE, 0, sizeof(o), o, 0, NULL, NULL));
	for (i = 0; i < 16; i++)
		printf("%d%c", o[i], i == 15 ? '\n' : ' ');
	clReleaseMemObject(m);
	clReleaseKernel(k);
}

int main(void)
{
	struct clt t;
	cl_program twice, header, kern, lib, exe, from_bin, broken, both[2];
	const char *names[] = { "twice.h" };
	const unsigned char *bin;
	unsigned char *bins[1];
	size_t size;
	cl_int err, status;

	clt_init(&t);
	twice = source(&t, twice_src);
	compile(&t, twice, "-DBIAS=1", 0, NULL, NULL);
	print_type("compiled function", &t, twice);
	header = source(&t, header_src);
	kern = source(&t, kernel_src);
	compile(&t, kern, "", 1, &header, names);
	print_type("compiled kernel", &t, kern);

	lib = clLinkProgram(t.context, 1, &t.device, "-create-library", 1, &twice, NULL, NULL,
			    &err);
	CHECK(err);
	print_type("library", &t, lib);
	both[0] = kern;
	both[1] = lib;
	exe = clLinkProgram(t.context, 1, &t.device, "", 2, both, NULL, NULL, &err);
	CHECK(err);
	print_type("executable", &t, exe);
	run(&t, exe);

	/* The compiled function again, from its binary. */
	CHECK(clGetProgramInfo(twice, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL));
	bins[0] = malloc(size);
	CHECK(clGetProgramInfo(twice, CL_PROGRAM_BINARIES, sizeof(bins), bins, NULL));
	bin = bins[0];
	from_bin = clCreateProgramWithBinary(t.context, 1, &t.device, &size, &bin, &status, &err);
	CHECK(err);
	CHECK(status);
	print_type("compiled function from its binary", &t, from_bin);
	both[1] = from_bin;
	clReleaseProgram(exe);
	exe = clLinkProgram(t.context, 1, &t.device, "", 2, both, NULL, NULL, &err);
	CHECK(err);
	run(&t, exe);

	/* The errors. */
	broken = source(&t, broken_src);
	err = clCompileProgram(broken, 1, &t.device, "", 0, NULL, NULL, NULL, NULL);
	printf("a source that does not compile: %d\n", err);

	free(bins[0]);
	clReleaseProgram(broken);
	clReleaseProgram(exe);
	clReleaseProgram(from_bin);
	clReleaseProgram(lib);
	clReleaseProgram(kern);
	clReleaseProgram(header);
	clReleaseProgram(twice);
	clt_fini(&t);
	return 0;
}
