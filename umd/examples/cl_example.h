/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * cl_example.h - what the OpenCL examples share: the command line, the
 * vaccel platform (chosen by name among those the ICD loader lists, so
 * that PoCL or another platform installed beside it is left alone), a
 * context and a profiling queue on its first device, building the
 * example's OpenCL C source, timing a kernel with its event, and the
 * report.  Each example is a plain OpenCL host program (cl_NAME.c) and its
 * kernels in OpenCL C (NAME.cl), built into the program as a string; they
 * compute what the libvaccel examples compute, and check it the same way.
 *
 *	example-cl-NAME [-h] [-n SIZE]
 *
 * Exit status: 0 when the device computed what the CPU computes, 1
 * otherwise, 2 on a usage error.
 */
#ifndef CL_EXAMPLE_H
#define CL_EXAMPLE_H

#define CL_TARGET_OPENCL_VERSION 120

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <CL/cl.h>
#include <CL/cl_ext.h>	/* CL_PLATFORM_NOT_FOUND_KHR, from the ICD loader */

struct cl_example {
	const char *name;		/* "vadd" */
	unsigned long size;		/* -n, or the example's default */
	cl_platform_id platform;
	cl_device_id device;
	cl_context ctx;
	cl_command_queue q;
	cl_program prog;
};

/* The platform whose CL_PLATFORM_NAME holds this. */
#define CL_EXAMPLE_PLATFORM	"vaccel"

static inline int cl_example_fail(const struct cl_example *ex, const char *what, cl_int err)
{
	fprintf(stderr, "example-cl-%s: %s: OpenCL error %d\n", ex->name, what, err);
	return 1;
}

/*
 * Finds the vaccel platform and its first device.  Return: 0, or 1 with a
 * message printed that says which platforms there are.
 */
static inline int cl_example_platform(struct cl_example *ex)
{
	cl_platform_id ids[16];
	char name[256];
	cl_uint i, n = 0;
	cl_int err;

	err = clGetPlatformIDs(16, ids, &n);
	if (err == CL_PLATFORM_NOT_FOUND_KHR || (!err && !n)) {
		fprintf(stderr, "example-cl-%s: no OpenCL platform at all: is ocl-icd-libopencl1 "
			"installed, and does OCL_ICD_VENDORS (or /etc/OpenCL/vendors) name "
			"vaccel.icd?\n", ex->name);
		return 1;
	}
	if (err)
		return cl_example_fail(ex, "clGetPlatformIDs", err);
	for (i = 0; i < n && i < 16; i++) {
		if (clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof(name), name, NULL))
			continue;
		if (strstr(name, CL_EXAMPLE_PLATFORM)) {
			ex->platform = ids[i];
			break;
		}
	}
	if (!ex->platform) {
		fprintf(stderr, "example-cl-%s: no vaccel OpenCL platform among the %u found:",
			ex->name, n);
		for (i = 0; i < n && i < 16; i++) {
			if (!clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof(name), name, NULL))
				fprintf(stderr, "%s \"%s\"", i ? "," : "", name);
		}
		fprintf(stderr, "\n  (install vaccel's ICD, or point OCL_ICD_VENDORS at "
			"<build>/share/OpenCL/vendors)\n");
		return 1;
	}
	err = clGetDeviceIDs(ex->platform, CL_DEVICE_TYPE_ALL, 1, &ex->device, NULL);
	if (err == CL_DEVICE_NOT_FOUND) {
		fprintf(stderr, "example-cl-%s: the vaccel platform has no device: is the "
			"module loaded? (insmod vaccel.ko)\n", ex->name);
		return 1;
	}
	if (err)
		return cl_example_fail(ex, "clGetDeviceIDs", err);
	return 0;
}

/* Builds @src; on a failure, prints the build log.  Return: 0 or 1. */
static inline int cl_example_build(struct cl_example *ex, const char *src, const char *options)
{
	size_t len = 0;
	char *log;
	cl_int err;

	ex->prog = clCreateProgramWithSource(ex->ctx, 1, &src, NULL, &err);
	if (err)
		return cl_example_fail(ex, "clCreateProgramWithSource", err);
	err = clBuildProgram(ex->prog, 1, &ex->device, options, NULL, NULL);
	if (err == CL_SUCCESS)
		return 0;
	cl_example_fail(ex, "clBuildProgram", err);
	clGetProgramBuildInfo(ex->prog, ex->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
	log = len ? malloc(len + 1) : NULL;
	if (log && !clGetProgramBuildInfo(ex->prog, ex->device, CL_PROGRAM_BUILD_LOG,
					  len, log, NULL)) {
		log[len] = '\0';
		fprintf(stderr, "%s\n", log);
	}
	free(log);
	return 1;
}

static inline void cl_example_close(struct cl_example *ex)
{
	if (ex->prog)
		clReleaseProgram(ex->prog);
	if (ex->q)
		clReleaseCommandQueue(ex->q);
	if (ex->ctx)
		clReleaseContext(ex->ctx);
}

/*
 * Parses the command line, finds the platform, makes a context and a
 * profiling queue, and builds @src.  Return: 0, or the exit status to
 * leave with (1 or 2), with a message printed.
 */
static inline int cl_example_open(struct cl_example *ex, int argc, char **argv,
				  const char *what, unsigned long size, unsigned long max,
				  const char *src)
{
	char *end;
	cl_int err;
	int opt;

	ex->size = size;
	while ((opt = getopt(argc, argv, "hn:")) != -1) {
		switch (opt) {
		case 'h':
			printf("usage: example-cl-%s [-h] [-n SIZE]\n%s\n\n"
			       "  -n SIZE    the problem size (default %lu, at most %lu)\n"
			       "  -h         this help\n", ex->name, what, size, max);
			exit(0);
		case 'n':
			ex->size = strtoul(optarg, &end, 0);
			if (*end || !*optarg || optarg[0] == '-' || !ex->size || ex->size > max) {
				fprintf(stderr, "example-cl-%s: bad value '%s' for -n\n",
					ex->name, optarg);
				return 2;
			}
			break;
		default:
			fprintf(stderr, "usage: example-cl-%s [-h] [-n SIZE]\n", ex->name);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "usage: example-cl-%s [-h] [-n SIZE]\n", ex->name);
		return 2;
	}
	if (cl_example_platform(ex))
		return 1;
	ex->ctx = clCreateContext(NULL, 1, &ex->device, NULL, NULL, &err);
	if (err)
		return cl_example_fail(ex, "clCreateContext", err);
	ex->q = clCreateCommandQueue(ex->ctx, ex->device, CL_QUEUE_PROFILING_ENABLE, &err);
	if (err)
		return cl_example_fail(ex, "clCreateCommandQueue", err);
	return cl_example_build(ex, src, "");
}

/* A buffer of @size bytes, with @init copied in when not NULL. */
static inline cl_mem cl_example_buf(struct cl_example *ex, size_t size, void *init)
{
	cl_int err;
	cl_mem m;

	m = clCreateBuffer(ex->ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0),
			   size, init, &err);
	if (err)
		cl_example_fail(ex, "clCreateBuffer", err);
	return err ? NULL : m;
}

/*
 * Enqueues @k over @global in workgroups of @local, waits for it and gives
 * its time on the device (from its event's profiling).  Return: 0 or 1.
 */
static inline int cl_example_run(struct cl_example *ex, cl_kernel k, cl_uint dims,
				 const size_t *global, const size_t *local,
				 uint64_t *engine_ns)
{
	cl_ulong start = 0, end = 0;
	cl_event ev;
	cl_int err;

	err = clEnqueueNDRangeKernel(ex->q, k, dims, NULL, global, local, 0, NULL, &ev);
	if (err)
		return cl_example_fail(ex, "clEnqueueNDRangeKernel", err);
	err = clWaitForEvents(1, &ev);
	if (!err)
		err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(start),
					      &start, NULL);
	if (!err)
		err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(end),
					      &end, NULL);
	clReleaseEvent(ev);
	if (err)
		return cl_example_fail(ex, "the kernel", err);
	*engine_ns = end - start;
	return 0;
}

static inline double cl_example_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The libvaccel examples' sequence (example.h), so the data is the same. */
static inline uint32_t cl_example_rand(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*state >> 33);
}

static inline float cl_example_randf(uint64_t *state)
{
	return (float)((int)(cl_example_rand(state) % 8192) - 4096) / 4096.0f;
}

static inline void cl_example_report(const char *label, uint64_t engine_ns, double cpu_ms,
				     unsigned long elements, bool ok, const char *exact)
{
	printf("  %-34s %9.3f ms on the device, %7.2f M elements/s (CPU %.3f ms)\n",
	       label, engine_ns / 1e6, engine_ns ? elements * 1e3 / engine_ns : 0.0, cpu_ms);
	printf("result: %s\n", ok ? exact : "WRONG");
}

#endif /* CL_EXAMPLE_H */
