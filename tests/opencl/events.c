// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: events - events, profiling, user events, markers and barriers
 *
 * Profiling: for a kernel, a copy and a fill, QUEUED <= SUBMIT <= START
 * <= END.  A user event holds a write and a kernel behind it: both stay
 * unfinished until clSetUserEventStatus(CL_COMPLETE), then complete in
 * order with the right data.  A marker with a wait list, a marker without
 * one, a barrier, and callbacks registered for CL_SUBMITTED, CL_RUNNING
 * and CL_COMPLETE on one event: each called once, with a status at or
 * past the one asked for.  Prints one line per check.
 */
#include <pthread.h>
#include <unistd.h>
#include "clt.h"

static const char *src =
	"__kernel void inc(__global int *p) { p[get_global_id(0)] += 1; }\n";

static int calls[3];
static cl_int seen[3];

static void CL_CALLBACK on_event(cl_event e, cl_int status, void *data)
{
	int i = (int)(size_t)data;

	(void)e;
	__atomic_add_fetch(&calls[i], 1, __ATOMIC_SEQ_CST);
	seen[i] = status;
}

static void profile(const char *what, cl_event e)
{
	cl_ulong q, s, st, en;

	CHECK(clWaitForEvents(1, &e));
	CHECK(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED, sizeof(q), &q, NULL));
	CHECK(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_SUBMIT, sizeof(s), &s, NULL));
	CHECK(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof(st), &st, NULL));
	CHECK(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof(en), &en, NULL));
	printf("profile %s: %s\n", what, q <= s && s <= st && st <= en && q > 0 ? "ordered" : "WRONG");
	if (!(q <= s && s <= st && st <= en))
		fprintf(stderr, "%s: %llu %llu %llu %llu\n", what, (unsigned long long)q,
			(unsigned long long)s, (unsigned long long)st, (unsigned long long)en);
}

static cl_int status_of(cl_event e)
{
	cl_int s;

	CHECK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(s), &s, NULL));
	return s;
}

int main(void)
{
	struct clt t;
	cl_int err, v[64], pat = 7;
	cl_event ek, ec, ef, eu, ew, ek2, em, em2, eb;
	size_t n = 64;
	int i;

	for (i = 0; i < 64; i++)
		v[i] = i;
	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	cl_kernel k = clt_kernel(p, "inc");
	cl_mem a = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(v), v);
	cl_mem b = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(v), NULL);

	ARG(k, 0, a);
	CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &n, NULL, 0, NULL, &ek));
	CHECK(clEnqueueCopyBuffer(t.queue, a, b, 0, 0, sizeof(v), 0, NULL, &ec));
	CHECK(clEnqueueFillBuffer(t.queue, a, &pat, sizeof(pat), 0, sizeof(v), 0, NULL, &ef));
	profile("kernel", ek);
	profile("copy", ec);
	profile("fill", ef);

	/* A user event holds a write and a kernel. */
	eu = clCreateUserEvent(t.context, &err);
	CHECK(err);
	printf("user event: %s\n", status_of(eu) == CL_SUBMITTED ? "submitted" : "WRONG");
	for (i = 0; i < 64; i++)
		v[i] = 1000 + i;
	CHECK(clEnqueueWriteBuffer(t.queue, a, CL_FALSE, 0, sizeof(v), v, 1, &eu, &ew));
	CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &n, NULL, 0, NULL, &ek2));
	CHECK(clSetEventCallback(ek2, CL_SUBMITTED, on_event, (void *)0));
	CHECK(clSetEventCallback(ek2, CL_RUNNING, on_event, (void *)1));
	CHECK(clSetEventCallback(ek2, CL_COMPLETE, on_event, (void *)2));
	CHECK(clFlush(t.queue));
	usleep(200 * 1000);
	printf("held: write %s, kernel %s\n", status_of(ew) > CL_COMPLETE ? "pending" : "WRONG",
	       status_of(ek2) > CL_COMPLETE ? "pending" : "WRONG");
	CHECK(clSetUserEventStatus(eu, CL_COMPLETE));
	CHECK(clWaitForEvents(1, &ek2));
	printf("released: write %d, kernel %d\n", status_of(ew), status_of(ek2));
	CHECK(clEnqueueReadBuffer(t.queue, a, CL_TRUE, 0, sizeof(v), v, 0, NULL, NULL));
	printf("data: %d %d %d\n", v[0], v[31], v[63]);
	CHECK(clFinish(t.queue));
	/* The COMPLETE callback may run after the wait returns: give it time. */
	for (i = 0; i < 100 && calls[2] == 0; i++)
		usleep(10 * 1000);
	for (i = 0; i < 3; i++)
		printf("callback %d: %d call, status %s\n", i, calls[i],
		       seen[i] <= (i == 0 ? CL_SUBMITTED : i == 1 ? CL_RUNNING : CL_COMPLETE) ?
		       "reached" : "WRONG");

	/* Markers and barriers. */
	CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &n, NULL, 0, NULL, &ek));
	CHECK(clEnqueueMarkerWithWaitList(t.queue, 1, &ek, &em));
	CHECK(clEnqueueBarrierWithWaitList(t.queue, 0, NULL, &eb));
	CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &n, NULL, 1, &eb, NULL));
	CHECK(clEnqueueMarkerWithWaitList(t.queue, 0, NULL, &em2));
	CHECK(clWaitForEvents(1, &em2));
	printf("marker: %d %d, barrier %d, kernel before %d\n", status_of(em), status_of(em2),
	       status_of(eb), status_of(ek));
	CHECK(clEnqueueReadBuffer(t.queue, a, CL_TRUE, 0, sizeof(v), v, 0, NULL, NULL));
	printf("data: %d %d %d\n", v[0], v[31], v[63]);
	{
		cl_command_type ct;

		CHECK(clGetEventInfo(em, CL_EVENT_COMMAND_TYPE, sizeof(ct), &ct, NULL));
		printf("marker type %s\n", ct == CL_COMMAND_MARKER ? "marker" : "WRONG");
		CHECK(clGetEventInfo(eu, CL_EVENT_COMMAND_TYPE, sizeof(ct), &ct, NULL));
		printf("user type %s\n", ct == CL_COMMAND_USER ? "user" : "WRONG");
	}
	cl_event all[] = { ek, ec, ef, eu, ew, ek2, em, em2, eb };
	for (i = 0; i < 9; i++)
		CHECK(clReleaseEvent(all[i]));
	clReleaseMemObject(a); clReleaseMemObject(b);
	clReleaseKernel(k); clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
