// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: api - the ICD's argument checks and event logic, on the fake device
 *
 * Runs on the host against tests/host/fake_vaccel.c (LD_PRELOAD, with
 * VACCEL_DEVICE_DIR holding accel0 -> /dev/zero), which executes copies
 * and fills but not kernels: a kernel's launch completes without running.
 * Building a program needs no device but vaccel-cc, and loading it works
 * on the fake device.
 *
 * Each case prints `ok <case>` or `not ok <case>: <what>`, the first
 * failed expectation named by its line.  The cases:
 *
 *   platform	clGetPlatformIDs, clGetDeviceIDs, clGetDeviceInfo: bad
 *		counts, types, names and sizes
 *   context	clCreateContext: no device, a bad device, user data
 *		without a callback, a bad property; reference counts
 *   queue	clCreateCommandQueueWithProperties: unknown properties, a
 *		device of no context, on-device queues; reference counts
 *   buffer	clCreateBuffer's sizes, host pointers and flags; sub-buffers
 *		(misaligned, out of range, of a sub-buffer, bad flags)
 *   commands	read, write, copy, fill, rect and map: out-of-range
 *		offsets, NULL pointers, overlapping copies, pattern sizes,
 *		HOST_NO_ACCESS, objects of another context, wait lists
 *		(NULL with a count, an event of another context); then the
 *		data of the good ones, which the fake device executes
 *   program	clCreateProgramWithSource and clBuildProgram's bad
 *		arguments; clCreateKernel before a build and of a bad name;
 *		the IL calls on a platform without IL
 *   compile_link	clCompileProgram and clLinkProgram's bad arguments
 *		and options; a source that does not compile (its log
 *		names the line); links of what is not a compiled object,
 *		of another context's program, and with a function that
 *		nothing defines (CL_LINK_PROGRAM_FAILURE, the log names
 *		it, no kernel), then with its definition
 *   kernel_args	clSetKernelArg: index, sizes of each kind of argument,
 *		a local argument with a value, a bad buffer; launches
 *		with unset arguments, bad dimensions, work-group sizes
 *		that do not divide the range or exceed the device's;
 *		reference counts of programs and kernels; a buffer
 *		released while a kernel names it is freed at once, and
 *		the launch refuses the argument
 *   events	clWaitForEvents, clSetUserEventStatus (twice, a positive
 *		status, a non-user event), clSetEventCallback and
 *		clGetEventProfilingInfo's errors
 *   user_event	commands held behind a user event until it is set, in
 *		order, with their data; a marker behind it
 *   user_fail	a user event set to an error: the command waiting on it
 *		and every later command of the in-order queue end with
 *		CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents
 *		says so, and the queue runs new work afterwards
 *   callbacks	CL_SUBMITTED, CL_RUNNING and CL_COMPLETE callbacks each
 *		called once, with the event at or past its status (their
 *		order is undefined); a callback on a completed
 *		event called at once; a failed event's callback gets the
 *		negative status
 *   release_in_flight	a queue released with held work: the work runs
 *		once the user event is set, its data arrives
 *   threads	two threads enqueueing writes and copies into one queue,
 *		and two more each on its own queue of the same context
 *   objects	overlapping copies between two sub-buffers of one
 *		buffer; host access flags of sub-buffers; the
 *		mapping of a USE_HOST_PTR buffer and its map count; a
 *		user event's queue and context; a marker on another
 *		queue waiting for a user event
 */
#include <pthread.h>
#include <unistd.h>
#include "clt.h"

static int case_failed;
static char case_why[256];

#define EQ(expr, want) do {						\
	long long got_ = (long long)(expr), want_ = (long long)(want);	\
	if (got_ != want_ && !case_failed) {				\
		case_failed = 1;					\
		snprintf(case_why, sizeof(case_why),			\
			 "line %d: %s is %lld, expected %lld",		\
			 __LINE__, #expr, got_, want_);			\
	}								\
} while (0)

static struct clt t;
static cl_context other_ctx;
static const char *src =
	"__kernel void k(__global int *p, int v, __local float *l, float4 f)\n"
	"{ p[get_global_id(0)] = v + (int)f.x; }\n"
	"__kernel __attribute__((reqd_work_group_size(4, 1, 1))) void r(__global int *p) { p[0] = 1; }\n";

static cl_int status_of(cl_event e)
{
	cl_int s = 99;

	clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(s), &s, NULL);
	return s;
}

static cl_uint refs(cl_int (*info)(void *, cl_uint, size_t, void *, size_t *), void *o, cl_uint name)
{
	cl_uint r = 0;

	info(o, name, sizeof(r), &r, NULL);
	return r;
}
#define REFS(fn, o, name) refs((cl_int (*)(void *, cl_uint, size_t, void *, size_t *))(fn), (o), (name))

static void case_platform(void)
{
	cl_platform_id pl;
	cl_device_id d;
	cl_uint n;
	char name[4];

	EQ(clGetPlatformIDs(0, &pl, NULL), CL_INVALID_VALUE);
	EQ(clGetPlatformIDs(0, NULL, NULL), CL_INVALID_VALUE);
	EQ(clGetDeviceIDs(t.platform, 1u << 20, 1, &d, NULL), CL_INVALID_DEVICE_TYPE);
	EQ(clGetDeviceIDs(t.platform, CL_DEVICE_TYPE_ALL, 0, &d, NULL), CL_INVALID_VALUE);
	EQ(clGetDeviceIDs(t.platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n), CL_SUCCESS);
	EQ(n >= 1, 1);
	EQ(clGetDeviceInfo(t.device, 0x7fff, sizeof(n), &n, NULL), CL_INVALID_VALUE);
	EQ(clGetDeviceInfo(t.device, CL_DEVICE_NAME, sizeof(name), name, NULL), CL_INVALID_VALUE);
	EQ(clGetDeviceInfo(NULL, CL_DEVICE_NAME, sizeof(name), name, NULL), CL_INVALID_DEVICE);
	EQ(clGetPlatformInfo(t.platform, 0x7fff, 0, NULL, NULL), CL_INVALID_VALUE);
}

static void case_context(void)
{
	cl_int err;
	cl_context c;
	cl_context_properties bad[] = { 0x7fff, 0, 0 };
	cl_context_properties other[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)1, 0 };
	int x;

	c = clCreateContext(NULL, 0, &t.device, NULL, NULL, &err);
	EQ(c == NULL, 1);
	EQ(err, CL_INVALID_VALUE);
	c = clCreateContext(NULL, 1, NULL, NULL, NULL, &err);
	EQ(err, CL_INVALID_VALUE);
	c = clCreateContext(NULL, 1, &t.device, NULL, &x, &err);
	EQ(err, CL_INVALID_VALUE);
	c = clCreateContext(bad, 1, &t.device, NULL, NULL, &err);
	EQ(err, CL_INVALID_PROPERTY);
	c = clCreateContext(other, 1, &t.device, NULL, NULL, &err);
	EQ(err, CL_INVALID_PLATFORM);
	/* Invalid handles are objects of another kind: the loader itself
	 * dispatches through the first device or object. */
	cl_device_id bogus = (cl_device_id)t.platform;
	c = clCreateContext(NULL, 1, &bogus, NULL, NULL, &err);
	EQ(err, CL_INVALID_DEVICE);
	EQ(clRetainContext(NULL), CL_INVALID_CONTEXT);
	EQ(clReleaseContext(NULL), CL_INVALID_CONTEXT);

	c = clCreateContext(NULL, 1, &t.device, NULL, NULL, &err);
	EQ(err, CL_SUCCESS);
	EQ(REFS(clGetContextInfo, c, CL_CONTEXT_REFERENCE_COUNT), 1);
	EQ(clRetainContext(c), CL_SUCCESS);
	EQ(REFS(clGetContextInfo, c, CL_CONTEXT_REFERENCE_COUNT), 2);
	/* A queue holds its context. */
	cl_command_queue q = clCreateCommandQueueWithProperties(c, t.device, NULL, &err);
	EQ(err, CL_SUCCESS);
	EQ(clReleaseContext(c), CL_SUCCESS);
	EQ(clReleaseContext(c), CL_SUCCESS);
	EQ(clFinish(q), CL_SUCCESS);
	cl_context qc = NULL;
	EQ(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof(qc), &qc, NULL), CL_SUCCESS);
	EQ(qc == c, 1);
	EQ(clReleaseCommandQueue(q), CL_SUCCESS);
}

static void case_queue(void)
{
	cl_int err;
	cl_queue_properties unknown[] = { CL_QUEUE_PROPERTIES, 1u << 20, 0 };
	cl_queue_properties ondev[] = { CL_QUEUE_PROPERTIES,
		CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE, 0 };
	cl_queue_properties badname[] = { 0x7fff, 0, 0 };
	cl_command_queue q;

	q = clCreateCommandQueueWithProperties(t.context, t.device, unknown, &err);
	EQ(err, CL_INVALID_VALUE);
	q = clCreateCommandQueueWithProperties(t.context, t.device, ondev, &err);
	EQ(err == CL_INVALID_QUEUE_PROPERTIES || err == CL_INVALID_VALUE, 1);
	q = clCreateCommandQueueWithProperties(t.context, t.device, badname, &err);
	EQ(err, CL_INVALID_VALUE);
	q = clCreateCommandQueueWithProperties(t.context, (cl_device_id)t.platform, NULL, &err);
	EQ(err, CL_INVALID_DEVICE);
	q = clCreateCommandQueueWithProperties(NULL, t.device, NULL, &err);
	EQ(err, CL_INVALID_CONTEXT);
	EQ(clReleaseCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
	EQ(clFlush(NULL), CL_INVALID_COMMAND_QUEUE);
	EQ(clFinish((cl_command_queue)t.context), CL_INVALID_COMMAND_QUEUE);
	q = clCreateCommandQueueWithProperties(t.context, t.device, NULL, &err);
	EQ(err, CL_SUCCESS);
	EQ(REFS(clGetCommandQueueInfo, q, CL_QUEUE_REFERENCE_COUNT), 1);
	EQ(clRetainCommandQueue(q), CL_SUCCESS);
	EQ(REFS(clGetCommandQueueInfo, q, CL_QUEUE_REFERENCE_COUNT), 2);
	EQ(clReleaseCommandQueue(q), CL_SUCCESS);
	EQ(clReleaseCommandQueue(q), CL_SUCCESS);
}

static void case_buffer(void)
{
	cl_int err;
	cl_mem m, s;
	char host[64];
	cl_ulong max;
	cl_uint align;
	cl_buffer_region r;

	m = clCreateBuffer(t.context, CL_MEM_READ_WRITE, 0, NULL, &err);
	EQ(err, CL_INVALID_BUFFER_SIZE);
	clGetDeviceInfo(t.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(max), &max, NULL);
	m = clCreateBuffer(t.context, CL_MEM_READ_WRITE, max + 1, NULL, &err);
	EQ(err, CL_INVALID_BUFFER_SIZE);
	m = clCreateBuffer(t.context, CL_MEM_READ_WRITE, 64, host, &err);
	EQ(err, CL_INVALID_HOST_PTR);
	m = clCreateBuffer(t.context, CL_MEM_COPY_HOST_PTR, 64, NULL, &err);
	EQ(err, CL_INVALID_HOST_PTR);
	m = clCreateBuffer(t.context, CL_MEM_USE_HOST_PTR, 64, NULL, &err);
	EQ(err, CL_INVALID_HOST_PTR);
	m = clCreateBuffer(t.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, NULL, &err);
	EQ(err, CL_INVALID_VALUE);
	m = clCreateBuffer(t.context, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, host, &err);
	EQ(err, CL_INVALID_VALUE);
	m = clCreateBuffer(t.context, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, host, &err);
	EQ(err, CL_INVALID_VALUE);
	m = clCreateBuffer(t.context, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 64, NULL, &err);
	EQ(err, CL_INVALID_VALUE);
	m = clCreateBuffer(t.context, 1ull << 40, 64, NULL, &err);
	EQ(err, CL_INVALID_VALUE);
	m = clCreateBuffer(NULL, CL_MEM_READ_WRITE, 64, NULL, &err);
	EQ(err, CL_INVALID_CONTEXT);

	clGetDeviceInfo(t.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(align), &align, NULL);
	align /= 8;
	m = clCreateBuffer(t.context, CL_MEM_READ_ONLY, 4 * align, NULL, &err);
	EQ(err, CL_SUCCESS);
	EQ(REFS(clGetMemObjectInfo, m, CL_MEM_REFERENCE_COUNT), 1);
	r.origin = 1; r.size = 8;
	s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	EQ(err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
	r.origin = align; r.size = 4 * align;
	s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	EQ(err, CL_INVALID_VALUE);
	r.size = 0;
	s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	EQ(err, CL_INVALID_BUFFER_SIZE);
	r.size = 16;
	s = clCreateSubBuffer(m, 0, 0x7fff, &r, &err);
	EQ(err, CL_INVALID_VALUE);
	/* A read-only parent cannot give a writable child. */
	s = clCreateSubBuffer(m, CL_MEM_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	EQ(err, CL_INVALID_VALUE);
	s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	EQ(err, CL_SUCCESS);
	if (!err) {
		cl_mem parent = NULL;
		size_t off = 0;

		EQ(REFS(clGetMemObjectInfo, m, CL_MEM_REFERENCE_COUNT), 2);
		clGetMemObjectInfo(s, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(parent), &parent, NULL);
		EQ(parent == m, 1);
		clGetMemObjectInfo(s, CL_MEM_OFFSET, sizeof(off), &off, NULL);
		EQ(off, align);
		r.origin = 0;
		clCreateSubBuffer(s, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
		EQ(err, CL_INVALID_MEM_OBJECT);
		EQ(clReleaseMemObject(s), CL_SUCCESS);
		EQ(REFS(clGetMemObjectInfo, m, CL_MEM_REFERENCE_COUNT), 1);
	}
	EQ(clReleaseMemObject(m), CL_SUCCESS);
	EQ(clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT);
}

static void case_commands(void)
{
	cl_int err, pat = 0x01020304;
	unsigned char buf[256], back[256];
	cl_mem a, b, na, oc;
	cl_event ue, e;
	size_t i, zero3[3] = { 0, 0, 0 }, r3[3] = { 16, 2, 1 };

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)i;
	a = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 256, buf);
	b = clt_buffer(&t, CL_MEM_READ_WRITE, 256, NULL);
	na = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, 256, NULL);
	oc = clCreateBuffer(other_ctx, CL_MEM_READ_WRITE, 256, NULL, &err);
	EQ(err, CL_SUCCESS);

	EQ(clEnqueueReadBuffer(t.queue, a, CL_TRUE, 200, 57, back, 0, NULL, NULL), CL_INVALID_VALUE);
	EQ(clEnqueueReadBuffer(t.queue, a, CL_TRUE, 0, 16, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
	EQ(clEnqueueReadBuffer(t.queue, a, CL_TRUE, 0, 0, back, 0, NULL, NULL), CL_INVALID_VALUE);
	EQ(clEnqueueReadBuffer(t.queue, NULL, CL_TRUE, 0, 16, back, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
	EQ(clEnqueueReadBuffer(NULL, a, CL_TRUE, 0, 16, back, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
	EQ(clEnqueueReadBuffer(t.queue, oc, CL_TRUE, 0, 16, back, 0, NULL, NULL), CL_INVALID_CONTEXT);
	EQ(clEnqueueReadBuffer(t.queue, na, CL_TRUE, 0, 16, back, 0, NULL, NULL), CL_INVALID_OPERATION);
	EQ(clEnqueueWriteBuffer(t.queue, na, CL_TRUE, 0, 16, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
	EQ(clEnqueueWriteBuffer(t.queue, a, CL_TRUE, 255, 2, buf, 0, NULL, NULL), CL_INVALID_VALUE);
	EQ(clEnqueueReadBuffer(t.queue, a, CL_TRUE, 0, 16, back, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
	EQ(clEnqueueReadBuffer(t.queue, a, CL_TRUE, 0, 16, back, 0, &e, NULL), CL_INVALID_EVENT_WAIT_LIST);
	ue = clCreateUserEvent(other_ctx, &err);
	EQ(err, CL_SUCCESS);
	EQ(clEnqueueReadBuffer(t.queue, a, CL_TRUE, 0, 16, back, 1, &ue, NULL), CL_INVALID_CONTEXT);
	EQ(clEnqueueMarkerWithWaitList(t.queue, 1, &ue, NULL), CL_INVALID_CONTEXT);
	clSetUserEventStatus(ue, CL_COMPLETE);
	clReleaseEvent(ue);
	/* A blocking read after a failed... no: a user event in the list. */
	EQ(clEnqueueCopyBuffer(t.queue, a, a, 0, 8, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
	EQ(clEnqueueCopyBuffer(t.queue, a, a, 16, 0, 17, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
	EQ(clEnqueueCopyBuffer(t.queue, a, b, 250, 0, 7, 0, NULL, NULL), CL_INVALID_VALUE);
	EQ(clEnqueueCopyBuffer(t.queue, a, b, 0, 250, 7, 0, NULL, NULL), CL_INVALID_VALUE);
	EQ(clEnqueueCopyBuffer(t.queue, a, oc, 0, 0, 7, 0, NULL, NULL), CL_INVALID_CONTEXT);
	EQ(clEnqueueFillBuffer(t.queue, a, &pat, 3, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
	EQ(clEnqueueFillBuffer(t.queue, a, &pat, 256, 0, 256, 0, NULL, NULL), CL_INVALID_VALUE);
	EQ(clEnqueueFillBuffer(t.queue, a, &pat, 4, 2, 8, 0, NULL, NULL), CL_INVALID_VALUE);
	EQ(clEnqueueFillBuffer(t.queue, a, &pat, 4, 0, 6, 0, NULL, NULL), CL_INVALID_VALUE);
	EQ(clEnqueueFillBuffer(t.queue, a, NULL, 4, 0, 8, 0, NULL, NULL), CL_INVALID_VALUE);
	EQ(clEnqueueFillBuffer(t.queue, a, &pat, 4, 252, 8, 0, NULL, NULL), CL_INVALID_VALUE);
	EQ(clEnqueueReadBufferRect(t.queue, a, CL_TRUE, zero3, zero3, r3, 8, 0, 0, 0, back,
				   0, NULL, NULL), CL_INVALID_VALUE);
	r3[1] = 20;
	EQ(clEnqueueReadBufferRect(t.queue, a, CL_TRUE, zero3, zero3, r3, 16, 0, 0, 0, back,
				   0, NULL, NULL), CL_INVALID_VALUE);
	r3[1] = 2;
	EQ(clEnqueueCopyBufferRect(t.queue, a, a, zero3, zero3, r3, 16, 0, 16, 0, 0, NULL, NULL),
	   CL_MEM_COPY_OVERLAP);
	EQ(clEnqueueMapBuffer(t.queue, a, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
			      0, 16, 0, NULL, NULL, &err) == NULL, 1);
	EQ(err, CL_INVALID_VALUE);
	clEnqueueMapBuffer(t.queue, a, CL_TRUE, CL_MAP_READ, 250, 16, 0, NULL, NULL, &err);
	EQ(err, CL_INVALID_VALUE);
	clEnqueueMapBuffer(t.queue, na, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err);
	EQ(err, CL_INVALID_OPERATION);
	EQ(clEnqueueUnmapMemObject(t.queue, a, buf, 0, NULL, NULL), CL_INVALID_VALUE);

	/* The good commands, executed by the fake device. */
	EQ(clEnqueueCopyBuffer(t.queue, a, b, 10, 20, 100, 0, NULL, NULL), CL_SUCCESS);
	EQ(clEnqueueFillBuffer(t.queue, b, &pat, 4, 200, 24, 0, NULL, NULL), CL_SUCCESS);
	EQ(clEnqueueWriteBuffer(t.queue, b, CL_FALSE, 0, 4, buf + 100, 0, NULL, NULL), CL_SUCCESS);
	EQ(clEnqueueReadBuffer(t.queue, b, CL_TRUE, 0, 256, back, 0, NULL, NULL), CL_SUCCESS);
	EQ(back[0], 100);
	EQ(back[20], 10);
	EQ(back[119], 109);
	EQ(back[120], 0);
	EQ(back[200], 4);
	EQ(back[223], 1);
	EQ(back[224], 0);
	unsigned char *p = clEnqueueMapBuffer(t.queue, b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
					      16, 32, 0, NULL, NULL, &err);
	EQ(err, CL_SUCCESS);
	if (p) {
		EQ(p[4], 10);
		p[0] = 0xee;
		EQ(clEnqueueUnmapMemObject(t.queue, b, p, 0, NULL, NULL), CL_SUCCESS);
		EQ(clEnqueueReadBuffer(t.queue, b, CL_TRUE, 16, 1, back, 0, NULL, NULL), CL_SUCCESS);
		EQ(back[0], 0xee);
	}
	clReleaseMemObject(a); clReleaseMemObject(b);
	clReleaseMemObject(na); clReleaseMemObject(oc);
}

static void case_program(void)
{
	cl_int err;
	cl_program p;
	const char *none = NULL;

	p = clCreateProgramWithSource(t.context, 0, &src, NULL, &err);
	EQ(err, CL_INVALID_VALUE);
	p = clCreateProgramWithSource(t.context, 1, NULL, NULL, &err);
	EQ(err, CL_INVALID_VALUE);
	p = clCreateProgramWithSource(t.context, 1, &none, NULL, &err);
	EQ(err, CL_INVALID_VALUE);
	p = clCreateProgramWithSource(t.context, 1, &src, NULL, &err);
	EQ(err, CL_SUCCESS);
	clCreateKernel(p, "k", &err);
	EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
	EQ(clBuildProgram(p, 1, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
	EQ(clBuildProgram(p, 0, &t.device, NULL, NULL, NULL), CL_INVALID_VALUE);
	int x;
	EQ(clBuildProgram(p, 0, NULL, NULL, NULL, &x), CL_INVALID_VALUE);
	EQ(clBuildProgram(NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
	EQ(clBuildProgram(p, 0, NULL, "-cl-no-such-option", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
	EQ(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
	/* No device takes IL: its calls are CL_INVALID_OPERATION. */
	cl_uint spec = 42;
	EQ(clSetProgramSpecializationConstant(p, 0, sizeof(spec), &spec), CL_INVALID_OPERATION);
	EQ(clSetProgramSpecializationConstant(NULL, 0, sizeof(spec), &spec), CL_INVALID_PROGRAM);
	clCreateProgramWithIL(t.context, &spec, sizeof(spec), &err);
	EQ(err, CL_INVALID_OPERATION);
	clCreateKernel(p, "nope", &err);
	EQ(err, CL_INVALID_KERNEL_NAME);
	clCreateKernel(p, NULL, &err);
	EQ(err, CL_INVALID_VALUE);
	cl_kernel ks[4];
	cl_uint nk = 0;
	EQ(clCreateKernelsInProgram(p, 1, ks, &nk), CL_INVALID_VALUE);
	EQ(clCreateKernelsInProgram(p, 4, ks, &nk), CL_SUCCESS);
	EQ(nk, 2);
	if (nk == 2) {
		clReleaseKernel(ks[0]);
		clReleaseKernel(ks[1]);
	}
	EQ(clReleaseProgram(p), CL_SUCCESS);
}

static cl_program compiled(const char *text, cl_int *err)
{
	cl_program p = clCreateProgramWithSource(t.context, 1, &text, NULL, err);

	if (*err == CL_SUCCESS)
		*err = clCompileProgram(p, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL);
	return p;
}

static void case_compile_link(void)
{
	cl_program good, broken, plain, needs, linked, other;
	const char *names[] = { "h.h" };
	char log[4096] = "";
	cl_int err;

	good = compiled("int helper(int x) { return x + 1; }\n", &err);
	EQ(err, CL_SUCCESS);
	broken = compiled("__kernel void b(__global int *o)\n{\n\to[0] = nope;\n}\n", &err);
	EQ(err, CL_COMPILE_PROGRAM_FAILURE);
	clGetProgramBuildInfo(broken, t.device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
	EQ(strstr(log, "program.cl:3:") != NULL && strstr(log, "nope") != NULL, 1);
	plain = clCreateProgramWithSource(t.context, 1, &src, NULL, &err);
	EQ(err, CL_SUCCESS);

	EQ(clCompileProgram(NULL, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
	EQ(clCompileProgram(plain, 0, NULL, NULL, 1, NULL, names, NULL, NULL), CL_INVALID_VALUE);
	EQ(clCompileProgram(plain, 0, NULL, NULL, 1, &good, NULL, NULL, NULL), CL_INVALID_VALUE);
	EQ(clCompileProgram(plain, 0, NULL, "-cl-no-such-option", 0, NULL, NULL, NULL, NULL),
	   CL_INVALID_COMPILER_OPTIONS);

	linked = clLinkProgram(t.context, 0, NULL, NULL, 0, &good, NULL, NULL, &err);
	EQ(err, CL_INVALID_VALUE);
	EQ(linked == NULL, 1);
	linked = clLinkProgram(t.context, 0, NULL, "-cl-no-such-option", 1, &good, NULL, NULL,
			       &err);
	EQ(err, CL_INVALID_LINKER_OPTIONS);
	/* Only compiled objects and libraries link. */
	linked = clLinkProgram(t.context, 0, NULL, NULL, 1, &broken, NULL, NULL, &err);
	EQ(err, CL_INVALID_OPERATION);
	linked = clLinkProgram(t.context, 0, NULL, NULL, 1, &plain, NULL, NULL, &err);
	EQ(err, CL_INVALID_OPERATION);
	linked = clLinkProgram(other_ctx, 0, NULL, NULL, 1, &good, NULL, NULL, &err);
	EQ(err, CL_INVALID_PROGRAM);

	/* A function nothing defines: a program with the log, no executable. */
	needs = compiled("int missing_fn(int x);\n"
			 "__kernel void k(__global int *o) { o[0] = missing_fn(1); }\n", &err);
	EQ(err, CL_SUCCESS);
	linked = clLinkProgram(t.context, 0, NULL, NULL, 1, &needs, NULL, NULL, &err);
	EQ(err, CL_LINK_PROGRAM_FAILURE);
	EQ(linked != NULL, 1);
	if (linked) {
		log[0] = '\0';
		clGetProgramBuildInfo(linked, t.device, CL_PROGRAM_BUILD_LOG, sizeof(log), log,
				      NULL);
		EQ(strstr(log, "missing_fn") != NULL, 1);
		clCreateKernel(linked, "k", &err);
		EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
		clReleaseProgram(linked);
	}
	/* With the definition, it links; the kernel is there. */
	other = compiled("int missing_fn(int x) { return x * 7; }\n", &err);
	EQ(err, CL_SUCCESS);
	cl_program both[] = { needs, other };
	linked = clLinkProgram(t.context, 0, NULL, NULL, 2, both, NULL, NULL, &err);
	EQ(err, CL_SUCCESS);
	if (linked) {
		cl_kernel k = clCreateKernel(linked, "k", &err);

		EQ(err, CL_SUCCESS);
		if (k)
			clReleaseKernel(k);
		clReleaseProgram(linked);
	}
	clReleaseProgram(other);
	clReleaseProgram(needs);
	clReleaseProgram(plain);
	clReleaseProgram(broken);
	clReleaseProgram(good);
}

static void CL_CALLBACK count_cb(cl_mem m, void *data)
{
	(void)m;
	++*(int *)data;
}

static void case_kernel_args(void)
{
	cl_int err, v = 3;
	cl_float4 f = { { 1, 2, 3, 4 } };
	cl_program p = clt_build(&t, src, NULL);
	cl_kernel k = clt_kernel(p, "k"), r = clt_kernel(p, "r");
	cl_mem m = clt_buffer(&t, CL_MEM_READ_WRITE, 4096, NULL);
	cl_mem oc = clCreateBuffer(other_ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
	size_t g = 64, l = 3, big[3] = { 1u << 20, 1, 1 }, maxwg;

	EQ(clSetKernelArg(k, 4, sizeof(v), &v), CL_INVALID_ARG_INDEX);
	EQ(clSetKernelArg(k, 1, 2, &v), CL_INVALID_ARG_SIZE);
	EQ(clSetKernelArg(k, 1, sizeof(v), NULL), CL_INVALID_ARG_VALUE);
	EQ(clSetKernelArg(k, 0, 4, &m), CL_INVALID_ARG_SIZE);
	EQ(clSetKernelArg(k, 0, sizeof(cl_mem), &t.queue), CL_INVALID_MEM_OBJECT);
	EQ(clSetKernelArg(k, 2, 0, NULL), CL_INVALID_ARG_SIZE);
	EQ(clSetKernelArg(k, 2, 16, &v), CL_INVALID_ARG_VALUE);
	EQ(clSetKernelArg(k, 3, 8, &f), CL_INVALID_ARG_SIZE);
	EQ(clSetKernelArg(NULL, 0, 4, &v), CL_INVALID_KERNEL);
	/* Not all arguments are set. */
	EQ(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
	EQ(clSetKernelArg(k, 0, sizeof(m), &m), CL_SUCCESS);
	EQ(clSetKernelArg(k, 1, sizeof(v), &v), CL_SUCCESS);
	EQ(clSetKernelArg(k, 2, 16, NULL), CL_SUCCESS);
	EQ(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
	EQ(clSetKernelArg(k, 3, sizeof(f), &f), CL_SUCCESS);
	EQ(clEnqueueNDRangeKernel(t.queue, k, 0, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
	EQ(clEnqueueNDRangeKernel(t.queue, k, 4, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
	EQ(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, NULL, NULL, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
	EQ(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
	clGetKernelWorkGroupInfo(k, t.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(maxwg), &maxwg, NULL);
	big[0] = maxwg * 2;
	EQ(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, big, big, 0, NULL, NULL) != CL_SUCCESS, 1);
	l = 4;
	EQ(clEnqueueNDRangeKernel(t.queue, r, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
	EQ(clSetKernelArg(r, 0, sizeof(m), &m), CL_SUCCESS);
	l = 8;
	EQ(clEnqueueNDRangeKernel(t.queue, r, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
	EQ(clSetKernelArg(k, 0, sizeof(oc), &oc), CL_INVALID_MEM_OBJECT);
	/* A launch on the fake device completes without running. */
	cl_event e;
	EQ(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &g, NULL, 0, NULL, &e), CL_SUCCESS);
	EQ(clWaitForEvents(1, &e), CL_SUCCESS);
	EQ(status_of(e), CL_COMPLETE);
	clReleaseEvent(e);

	/* Reference counts: a kernel holds its program. */
	cl_uint pr = REFS(clGetProgramInfo, p, CL_PROGRAM_REFERENCE_COUNT);

	EQ(pr >= 1, 1);
	EQ(clRetainProgram(p), CL_SUCCESS);
	EQ(REFS(clGetProgramInfo, p, CL_PROGRAM_REFERENCE_COUNT), pr + 1);
	EQ(clReleaseProgram(p), CL_SUCCESS);
	EQ(REFS(clGetProgramInfo, p, CL_PROGRAM_REFERENCE_COUNT), pr);
	EQ(REFS(clGetKernelInfo, k, CL_KERNEL_REFERENCE_COUNT), 1);
	EQ(clRetainKernel(k), CL_SUCCESS);
	EQ(REFS(clGetKernelInfo, k, CL_KERNEL_REFERENCE_COUNT), 2);
	EQ(clReleaseKernel(k), CL_SUCCESS);
	EQ(clReleaseProgram(p), CL_SUCCESS);
	cl_program kp = NULL;
	EQ(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof(kp), &kp, NULL), CL_SUCCESS);
	EQ(kp == p, 1);
	cl_kernel k2 = clCloneKernel(k, &err);
	EQ(err, CL_SUCCESS);
	if (k2) {
		EQ(clEnqueueNDRangeKernel(t.queue, k2, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
		clReleaseKernel(k2);
	}
	EQ(clFinish(t.queue), CL_SUCCESS);
	/*
	 * A kernel does not hold its buffers: released, one is freed at
	 * once (its destructor runs), and a launch refuses the argument
	 * until it is set again.
	 */
	int freed = 0;
	cl_mem gone = clCreateBuffer(t.context, CL_MEM_READ_WRITE, 64, NULL, &err);
	EQ(clSetMemObjectDestructorCallback(gone, count_cb, &freed), CL_SUCCESS);
	EQ(clSetKernelArg(k, 0, sizeof(gone), &gone), CL_SUCCESS);
	EQ(clReleaseMemObject(gone), CL_SUCCESS);
	EQ(freed, 1);
	EQ(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &g, NULL, 0, NULL, NULL),
	   CL_INVALID_KERNEL_ARGS);
	EQ(clSetKernelArg(k, 0, sizeof(m), &m), CL_SUCCESS);
	EQ(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
	EQ(clFinish(t.queue), CL_SUCCESS);
	EQ(clReleaseKernel(k), CL_SUCCESS);
	EQ(clReleaseKernel(r), CL_SUCCESS);
	EQ(clReleaseKernel(NULL), CL_INVALID_KERNEL);
	clReleaseMemObject(m);
	clReleaseMemObject(oc);
}

static void CL_CALLBACK nop_cb(cl_event e, cl_int s, void *d) { (void)e, (void)s, (void)d; }

static void case_events(void)
{
	cl_int err;
	cl_event u, e;
	cl_ulong ts;
	int pat = 0;
	cl_mem m = clt_buffer(&t, CL_MEM_READ_WRITE, 64, NULL);
	cl_command_queue plain = clCreateCommandQueueWithProperties(t.context, t.device, NULL, &err);

	EQ(clWaitForEvents(0, NULL), CL_INVALID_VALUE);
	EQ(clWaitForEvents(1, NULL), CL_INVALID_VALUE);
	clCreateUserEvent(NULL, &err);
	EQ(err, CL_INVALID_CONTEXT);
	u = clCreateUserEvent(t.context, &err);
	EQ(err, CL_SUCCESS);
	EQ(status_of(u), CL_SUBMITTED);
	EQ(clGetEventProfilingInfo(u, CL_PROFILING_COMMAND_QUEUED, sizeof(ts), &ts, NULL),
	   CL_PROFILING_INFO_NOT_AVAILABLE);
	EQ(clSetUserEventStatus(u, 1), CL_INVALID_VALUE);
	EQ(clSetUserEventStatus(u, CL_SUBMITTED), CL_INVALID_VALUE);
	EQ(clSetEventCallback(u, 7, nop_cb, NULL), CL_INVALID_VALUE);
	EQ(clSetEventCallback(u, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
	EQ(clSetEventCallback(NULL, CL_COMPLETE, nop_cb, NULL), CL_INVALID_EVENT);
	EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
	EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_OPERATION);
	EQ(clWaitForEvents(1, &u), CL_SUCCESS);

	EQ(clEnqueueFillBuffer(plain, m, &pat, 4, 0, 64, 0, NULL, &e), CL_SUCCESS);
	EQ(clSetUserEventStatus(e, CL_COMPLETE), CL_INVALID_EVENT);
	EQ(clWaitForEvents(1, &e), CL_SUCCESS);
	EQ(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof(ts), &ts, NULL),
	   CL_PROFILING_INFO_NOT_AVAILABLE);
	EQ(clGetEventProfilingInfo(e, 0x7fff, sizeof(ts), &ts, NULL) != CL_SUCCESS, 1);
	EQ(REFS(clGetEventInfo, e, CL_EVENT_REFERENCE_COUNT) >= 1, 1);
	EQ(clRetainEvent(e), CL_SUCCESS);
	EQ(clReleaseEvent(e), CL_SUCCESS);
	EQ(clReleaseEvent(e), CL_SUCCESS);
	EQ(clReleaseEvent(u), CL_SUCCESS);
	EQ(clReleaseEvent(NULL), CL_INVALID_EVENT);
	/* Events of two contexts in one wait. */
	cl_event o = clCreateUserEvent(other_ctx, &err);
	u = clCreateUserEvent(t.context, &err);
	cl_event two[2] = { u, o };
	EQ(clWaitForEvents(2, two), CL_INVALID_CONTEXT);
	clSetUserEventStatus(u, CL_COMPLETE);
	clSetUserEventStatus(o, CL_COMPLETE);
	clReleaseEvent(u);
	clReleaseEvent(o);
	clReleaseCommandQueue(plain);
	clReleaseMemObject(m);
}

static void case_user_event(void)
{
	cl_int err, v[16], back[16], i;
	cl_event u, w, c, mk;
	cl_mem a = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(v), NULL);
	cl_mem b = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(v), NULL);

	for (i = 0; i < 16; i++)
		v[i] = i * 7 + 1;
	u = clCreateUserEvent(t.context, &err);
	EQ(clEnqueueWriteBuffer(t.queue, a, CL_FALSE, 0, sizeof(v), v, 1, &u, &w), CL_SUCCESS);
	EQ(clEnqueueCopyBuffer(t.queue, a, b, 0, 0, sizeof(v), 0, NULL, &c), CL_SUCCESS);
	EQ(clEnqueueMarkerWithWaitList(t.queue, 0, NULL, &mk), CL_SUCCESS);
	EQ(clFlush(t.queue), CL_SUCCESS);
	usleep(100 * 1000);
	EQ(status_of(w) > CL_COMPLETE, 1);
	EQ(status_of(c) > CL_COMPLETE, 1);
	EQ(status_of(mk) > CL_COMPLETE, 1);
	EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
	EQ(clWaitForEvents(1, &mk), CL_SUCCESS);
	EQ(status_of(w), CL_COMPLETE);
	EQ(status_of(c), CL_COMPLETE);
	EQ(clEnqueueReadBuffer(t.queue, b, CL_TRUE, 0, sizeof(back), back, 0, NULL, NULL), CL_SUCCESS);
	EQ(memcmp(back, v, sizeof(v)), 0);
	clReleaseEvent(u); clReleaseEvent(w); clReleaseEvent(c); clReleaseEvent(mk);
	clReleaseMemObject(a); clReleaseMemObject(b);
}

static void case_user_fail(void)
{
	cl_int err, v[16] = { 5 }, back[16], i;
	cl_event u, w, c, w2;
	cl_mem a = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(v), v);
	cl_mem b = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(v), v);

	for (i = 0; i < 16; i++)
		v[i] = 100 + i;
	u = clCreateUserEvent(t.context, &err);
	EQ(clEnqueueWriteBuffer(t.queue, a, CL_FALSE, 0, sizeof(v), v, 1, &u, &w), CL_SUCCESS);
	EQ(clEnqueueCopyBuffer(t.queue, a, b, 0, 0, sizeof(v), 0, NULL, &c), CL_SUCCESS);
	EQ(clFlush(t.queue), CL_SUCCESS);
	EQ(clSetUserEventStatus(u, -1234), CL_SUCCESS);
	EQ(status_of(u), -1234);
	EQ(clWaitForEvents(1, &w), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	EQ(status_of(w), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	EQ(clWaitForEvents(1, &c), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	EQ(status_of(c) < 0, 1);
	/* A blocking write whose wait list holds a failed event. */
	u = (clReleaseEvent(u), clCreateUserEvent(t.context, &err));
	clSetUserEventStatus(u, -5);
	EQ(clEnqueueWriteBuffer(t.queue, a, CL_TRUE, 0, sizeof(v), v, 1, &u, &w2),
	   CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	EQ(clFinish(t.queue), CL_SUCCESS);
	/* The queue runs new work; the failed copy did not happen. */
	EQ(clEnqueueReadBuffer(t.queue, b, CL_TRUE, 0, sizeof(back), back, 0, NULL, NULL), CL_SUCCESS);
	EQ(back[0], 5);
	EQ(back[1], 0);
	EQ(clEnqueueWriteBuffer(t.queue, b, CL_TRUE, 0, sizeof(v), v, 0, NULL, NULL), CL_SUCCESS);
	EQ(clEnqueueReadBuffer(t.queue, b, CL_TRUE, 0, sizeof(back), back, 0, NULL, NULL), CL_SUCCESS);
	EQ(back[15], 115);
	clReleaseEvent(u); clReleaseEvent(w); clReleaseEvent(c); clReleaseEvent(w2);
	clReleaseMemObject(a); clReleaseMemObject(b);
}

static int order[8], norder;
static cl_int cb_status[8];
static pthread_mutex_t cb_lock = PTHREAD_MUTEX_INITIALIZER;

static void CL_CALLBACK record_cb(cl_event e, cl_int s, void *d)
{
	cl_int now = status_of(e);

	pthread_mutex_lock(&cb_lock);
	if (norder < 8) {
		/* the status given, and whether the event has reached it */
		cb_status[norder] = s < 0 ? s : s * 10 + (now <= s);
		order[norder++] = (int)(size_t)d;
	}
	pthread_mutex_unlock(&cb_lock);
}

static int wait_calls(int n)
{
	int i, got;

	for (i = 0; i < 300; i++) {
		pthread_mutex_lock(&cb_lock);
		got = norder;
		pthread_mutex_unlock(&cb_lock);
		if (got >= n)
			return got;
		usleep(10 * 1000);
	}
	return got;
}

static void case_callbacks(void)
{
	cl_int err, pat = 9;
	cl_event u, f;
	cl_mem m = clt_buffer(&t, CL_MEM_READ_WRITE, 256, NULL);

	u = clCreateUserEvent(t.context, &err);
	EQ(clEnqueueFillBuffer(t.queue, m, &pat, 4, 0, 256, 1, &u, &f), CL_SUCCESS);
	/* The specification leaves the order of callbacks undefined: each
	 * is called once, when its status is reached. */
	EQ(clSetEventCallback(f, CL_COMPLETE, record_cb, (void *)3), CL_SUCCESS);
	EQ(clSetEventCallback(f, CL_RUNNING, record_cb, (void *)2), CL_SUCCESS);
	EQ(clSetEventCallback(f, CL_SUBMITTED, record_cb, (void *)1), CL_SUCCESS);
	clFlush(t.queue);
	usleep(50 * 1000);
	pthread_mutex_lock(&cb_lock);
	EQ(norder <= 1, 1);	/* at most SUBMITTED before the user event */
	pthread_mutex_unlock(&cb_lock);
	clSetUserEventStatus(u, CL_COMPLETE);
	EQ(clWaitForEvents(1, &f), CL_SUCCESS);
	EQ(wait_calls(3), 3);
	EQ(order[0] + order[1] + order[2], 6);
	EQ(order[0] * order[1] * order[2], 6);
	for (int i = 0; i < 3; i++)
		EQ(cb_status[i], order[i] == 3 ? CL_COMPLETE * 10 + 1 : order[i] == 2 ?
		   CL_RUNNING * 10 + 1 : CL_SUBMITTED * 10 + 1);
	/* On a completed event: called at once (soon), with CL_COMPLETE. */
	EQ(clSetEventCallback(f, CL_COMPLETE, record_cb, (void *)4), CL_SUCCESS);
	EQ(wait_calls(4), 4);
	EQ(order[3], 4);
	EQ(cb_status[3], CL_COMPLETE * 10 + 1);
	clReleaseEvent(u); clReleaseEvent(f);
	/* A failed command's CL_COMPLETE callback gets its negative status. */
	u = clCreateUserEvent(t.context, &err);
	EQ(clEnqueueFillBuffer(t.queue, m, &pat, 4, 0, 256, 1, &u, &f), CL_SUCCESS);
	EQ(clSetEventCallback(f, CL_COMPLETE, record_cb, (void *)5), CL_SUCCESS);
	clSetUserEventStatus(u, -77);
	clWaitForEvents(1, &f);
	EQ(wait_calls(5), 5);
	EQ(order[4], 5);
	EQ(cb_status[4], CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	clReleaseEvent(u); clReleaseEvent(f);
	clFinish(t.queue);
	clReleaseMemObject(m);
}

static void case_release_in_flight(void)
{
	cl_int err, v[64], back[64], i;
	cl_event u, last;
	cl_command_queue q = clCreateCommandQueueWithProperties(t.context, t.device, NULL, &err);
	cl_mem a = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(v), NULL);
	cl_mem b = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(v), NULL);

	for (i = 0; i < 64; i++)
		v[i] = i * i;
	u = clCreateUserEvent(t.context, &err);
	EQ(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, sizeof(v), v, 1, &u, NULL), CL_SUCCESS);
	EQ(clEnqueueCopyBuffer(q, a, b, 0, 0, sizeof(v), 0, NULL, &last), CL_SUCCESS);
	EQ(clReleaseCommandQueue(q), CL_SUCCESS);
	usleep(50 * 1000);
	EQ(status_of(last) > CL_COMPLETE, 1);
	EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
	EQ(clWaitForEvents(1, &last), CL_SUCCESS);
	EQ(clEnqueueReadBuffer(t.queue, b, CL_TRUE, 0, sizeof(back), back, 0, NULL, NULL), CL_SUCCESS);
	EQ(memcmp(back, v, sizeof(v)), 0);
	clReleaseEvent(u); clReleaseEvent(last);
	clReleaseMemObject(a); clReleaseMemObject(b);
}

struct worker {
	cl_command_queue q;
	cl_mem m;
	int id, bad;
};

static void *worker(void *arg)
{
	struct worker *w = arg;
	cl_int v[32], back[32];
	int it, i;

	for (it = 0; it < 60; it++) {
		for (i = 0; i < 32; i++)
			v[i] = w->id * 100000 + it * 100 + i;
		if (clEnqueueWriteBuffer(w->q, w->m, CL_FALSE, 0, sizeof(v), v, 0, NULL, NULL) ||
		    clEnqueueReadBuffer(w->q, w->m, CL_TRUE, 0, sizeof(back), back, 0, NULL, NULL) ||
		    memcmp(v, back, sizeof(v)))
			w->bad++;
	}
	return NULL;
}

static void case_threads(void)
{
	struct worker w[4];
	pthread_t th[4];
	cl_int err;
	int i;

	for (i = 0; i < 4; i++) {
		w[i].id = i;
		w[i].bad = 0;
		w[i].m = clt_buffer(&t, CL_MEM_READ_WRITE, 128, NULL);
		w[i].q = i < 2 ? t.queue :
			clCreateCommandQueueWithProperties(t.context, t.device, NULL, &err);
	}
	for (i = 0; i < 4; i++)
		pthread_create(&th[i], NULL, worker, &w[i]);
	for (i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < 4; i++) {
		EQ(w[i].bad, 0);
		if (i >= 2)
			clReleaseCommandQueue(w[i].q);
		clReleaseMemObject(w[i].m);
	}
}

static void case_objects(void)
{
	cl_int err, pat = 3;
	cl_uint align;
	cl_buffer_region r1, r2;
	static char host[8192] __attribute__((aligned(4096)));
	cl_mem a, s1, s2, u, hw;
	cl_event ue, e;
	cl_command_queue q = (cl_command_queue)&err;
	cl_context c = NULL;
	char *p;

	clGetDeviceInfo(t.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(align), &align, NULL);
	align /= 8;
	a = clt_buffer(&t, CL_MEM_READ_WRITE, 4 * align, NULL);
	r1.origin = 0; r1.size = 2 * align;
	r2.origin = align; r2.size = 2 * align;
	s1 = clCreateSubBuffer(a, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
	EQ(err, CL_SUCCESS);
	s2 = clCreateSubBuffer(a, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
	EQ(err, CL_SUCCESS);
	/* Different sub-buffers of one buffer, overlapping regions. */
	EQ(clEnqueueCopyBuffer(t.queue, s1, s2, align, 0, 64, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
	EQ(clEnqueueCopyBuffer(t.queue, s1, s2, 0, align, 64, 0, NULL, NULL), CL_SUCCESS);
	clReleaseMemObject(s1);
	clReleaseMemObject(s2);
	clReleaseMemObject(a);

	/* Host access flags are inherited, and cannot be widened. */
	hw = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_HOST_WRITE_ONLY, 4 * align, NULL);
	s1 = clCreateSubBuffer(hw, CL_MEM_HOST_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
	EQ(err, CL_INVALID_VALUE);
	s1 = clCreateSubBuffer(hw, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
	EQ(err, CL_SUCCESS);
	EQ(clEnqueueReadBuffer(t.queue, s1, CL_TRUE, 0, 16, host, 0, NULL, NULL), CL_INVALID_OPERATION);
	clReleaseMemObject(s1);
	clReleaseMemObject(hw);

	/* A USE_HOST_PTR buffer maps at its host pointer plus the offset. */
	u = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof(host), host);
	EQ(clEnqueueFillBuffer(t.queue, u, &pat, 4, 0, sizeof(host), 0, NULL, NULL), CL_SUCCESS);
	p = clEnqueueMapBuffer(t.queue, u, CL_TRUE, CL_MAP_READ, 100, 200, 0, NULL, NULL, &err);
	EQ(err, CL_SUCCESS);
	EQ(p == host + 100, 1);
	EQ(host[100], 3);
	cl_uint maps = 0;
	clGetMemObjectInfo(u, CL_MEM_MAP_COUNT, sizeof(maps), &maps, NULL);
	EQ(maps, 1);
	if (p)
		EQ(clEnqueueUnmapMemObject(t.queue, u, p, 0, NULL, NULL), CL_SUCCESS);
	EQ(clFinish(t.queue), CL_SUCCESS);
	clReleaseMemObject(u);

	/* A user event has no queue; its context is its own. */
	ue = clCreateUserEvent(t.context, &err);
	EQ(clGetEventInfo(ue, CL_EVENT_COMMAND_QUEUE, sizeof(q), &q, NULL), CL_SUCCESS);
	EQ(q == NULL, 1);
	EQ(clGetEventInfo(ue, CL_EVENT_CONTEXT, sizeof(c), &c, NULL), CL_SUCCESS);
	EQ(c == t.context, 1);
	/* A marker on another queue waits for it. */
	cl_command_queue q2 = clCreateCommandQueueWithProperties(t.context, t.device, NULL, &err);
	EQ(clEnqueueMarkerWithWaitList(q2, 1, &ue, &e), CL_SUCCESS);
	clFlush(q2);
	usleep(50 * 1000);
	EQ(status_of(e) > CL_COMPLETE, 1);
	clSetUserEventStatus(ue, CL_COMPLETE);
	EQ(clWaitForEvents(1, &e), CL_SUCCESS);
	EQ(clGetEventInfo(e, CL_EVENT_COMMAND_QUEUE, sizeof(q), &q, NULL), CL_SUCCESS);
	EQ(q == q2, 1);
	clReleaseEvent(e);
	clReleaseEvent(ue);
	clReleaseCommandQueue(q2);
}

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{ "platform", case_platform },
	{ "context", case_context },
	{ "queue", case_queue },
	{ "buffer", case_buffer },
	{ "commands", case_commands },
	{ "program", case_program },
	{ "compile_link", case_compile_link },
	{ "kernel_args", case_kernel_args },
	{ "events", case_events },
	{ "user_event", case_user_event },
	{ "user_fail", case_user_fail },
	{ "callbacks", case_callbacks },
	{ "release_in_flight", case_release_in_flight },
	{ "threads", case_threads },
	{ "objects", case_objects },
};

int main(int argc, char **argv)
{
	unsigned int i;
	int bad = 0;
	cl_int err;

	clt_init(&t);
	other_ctx = clCreateContext(NULL, 1, &t.device, NULL, NULL, &err);
	CHECK(err);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (argc > 1 && strcmp(argv[1], cases[i].name))
			continue;
		case_failed = 0;
		alarm(60);
		cases[i].fn();
		if (case_failed)
			printf("not ok %s: %s\n", cases[i].name, case_why);
		else
			printf("ok %s\n", cases[i].name);
		fflush(stdout);
		bad |= case_failed;
	}
	alarm(0);
	clReleaseContext(other_ctx);
	clt_fini(&t);
	return bad;
}
