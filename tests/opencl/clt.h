/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: clt.h - what every program of tests/opencl shares: the platform chosen
 * by name (VT_CL_PLATFORM, e.g. "vaccel" or "Portable Computing
 * Language"), its first device, a context and a profiling queue, a program
 * built from a source string, a run that prints every work-item's slot of
 * a buffer, and CHECK(), which names the failed call and its error code and
 * exits 1.  Only the standard OpenCL API is used.
 */
#ifndef CLT_H
#define CLT_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call) do {						\
	cl_int err_ = (call);						\
	if (err_ != CL_SUCCESS) {					\
		fprintf(stderr, "%s:%d: %s: %d\n", __FILE__, __LINE__,	\
			#call, err_);					\
		exit(1);						\
	}								\
} while (0)

#define EXPECT(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: expected %s\n", __FILE__,	\
			__LINE__, #cond);				\
		exit(1);						\
	}								\
} while (0)

struct clt {
	cl_platform_id platform;
	cl_device_id device;
	cl_context context;
	cl_command_queue queue;
};

static inline cl_platform_id clt_platform(void)
{
	const char *want = getenv("VT_CL_PLATFORM");
	cl_platform_id ids[16];
	cl_uint n = 0, i;
	char name[256];

	CHECK(clGetPlatformIDs(16, ids, &n));
	for (i = 0; i < n && i < 16; i++) {
		CHECK(clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof(name), name, NULL));
		if (!want || !strcmp(name, want))
			return ids[i];
	}
	fprintf(stderr, "no OpenCL platform named \"%s\"\n", want ? want : "");
	exit(1);
}

static inline void clt_notify(const char *msg, const void *info, size_t size, void *data)
{
	(void)info, (void)size, (void)data;
	fprintf(stderr, "notify: %s\n", msg);
}

static inline void clt_init(struct clt *t)
{
	cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };
	cl_int err;

	t->platform = clt_platform();
	CHECK(clGetDeviceIDs(t->platform, CL_DEVICE_TYPE_ALL, 1, &t->device, NULL));
	t->context = clCreateContext(NULL, 1, &t->device, clt_notify, NULL, &err);
	CHECK(err);
	t->queue = clCreateCommandQueueWithProperties(t->context, t->device, props, &err);
	CHECK(err);
}

static inline void clt_fini(struct clt *t)
{
	CHECK(clFinish(t->queue));
	CHECK(clReleaseCommandQueue(t->queue));
	CHECK(clReleaseContext(t->context));
}

/* clt_build: the program of @src built with @opts; its log on failure. */
static inline cl_program clt_build(struct clt *t, const char *src, const char *opts)
{
	cl_program p;
	cl_int err;
	char log[8192];

	p = clCreateProgramWithSource(t->context, 1, &src, NULL, &err);
	CHECK(err);
	err = clBuildProgram(p, 1, &t->device, opts, NULL, NULL);
	if (err != CL_SUCCESS) {
		log[0] = 0;
		clGetProgramBuildInfo(p, t->device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
		fprintf(stderr, "clBuildProgram: %d\n%s\n", err, log);
		exit(1);
	}
	return p;
}

static inline cl_kernel clt_kernel(cl_program p, const char *name)
{
	cl_int err;
	cl_kernel k = clCreateKernel(p, name, &err);

	CHECK(err);
	return k;
}

static inline cl_mem clt_buffer(struct clt *t, cl_mem_flags flags, size_t size, void *host)
{
	cl_int err;
	cl_mem m = clCreateBuffer(t->context, flags, size, host, &err);

	CHECK(err);
	return m;
}

#define ARG(k, i, v) CHECK(clSetKernelArg((k), (i), sizeof(v), &(v)))

/*
 * clt_run_slots: runs @k, whose argument 0 is a buffer of @slot ints per
 * work-item (and argument 1, when @local_bytes, a __local buffer of that
 * size), over the range @dim, @off, @gsz, @lsz; prints every work-item's
 * slot, one line each, after a line naming the range.
 */
static inline void clt_run_slots(struct clt *t, cl_kernel k, cl_uint dim, const size_t *off,
				 const size_t *gsz, const size_t *lsz, unsigned int slot,
				 size_t local_bytes)
{
	size_t items = 1, i, bytes;
	cl_uint d;

	for (d = 0; d < dim; d++)
		items *= gsz[d];
	bytes = items * slot * sizeof(cl_int);
	cl_int *o = calloc(items * slot, sizeof(cl_int));
	cl_mem m = clt_buffer(t, CL_MEM_WRITE_ONLY, bytes, NULL);

	EXPECT(o != NULL);
	ARG(k, 0, m);
	if (local_bytes)
		CHECK(clSetKernelArg(k, 1, local_bytes, NULL));
	CHECK(clEnqueueNDRangeKernel(t->queue, k, dim, off, gsz, lsz, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t->queue, m, CL_TRUE, 0, bytes, o, 0, NULL, NULL));
	printf("dim %u items %zu\n", dim, items);
	for (i = 0; i < items; i++) {
		for (d = 0; d < slot; d++)
			printf("%d%c", o[i * slot + d], d == slot - 1 ? '\n' : ' ');
	}
	clReleaseMemObject(m);
	free(o);
}

#endif
