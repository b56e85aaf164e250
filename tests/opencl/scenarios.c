// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: scenarios - faults, hangs, user events and threads on the device
 *
 * Run in the dev VM, one scenario per process (the argument), each under
 * alarm() so that nothing can hang the run; exit 0 when every expectation
 * holds, else 1 with the reason on stderr.  The VM's module has a short
 * time limit (run.sh passes time_limit_ms=4000).
 *
 *   fault		a kernel writes to an unmapped address: its event ends
 *			negative, the context's pfn_notify gets a message
 *			naming the kernel and "program.cl:<line>" of the
 *			store, and the queue then runs a new kernel correctly;
 *			the program builds in two parts on the VM's two CPUs,
 *			the faulting kernel in part 1 (heavy, never run, is
 *			part 0; tests/host/toolchain.sh checks that it splits)
 *   hang		an endless loop: the time limit ends it, its event
 *			ends CL_OUT_OF_RESOURCES, and the context and queue
 *			run new work correctly
 *   user_late		a kernel held behind a user event on one queue while
 *			another queue of the context runs other work; the
 *			event is set afterwards and the held kernel runs, after
 *			the held write, with the right data
 *   user_never		a kernel behind a user event that is never set: it
 *			stays unfinished, and the program releases the event,
 *			the kernel, the queue (an implicit flush, no wait)
 *			and the context, and exits without hanging
 *   release_in_flight	kernels and a non-blocking read enqueued, then the
 *			queue released at once: the work completes, the read's
 *			data arrives
 *   threads_queues	two threads, each with its own queue on one context,
 *			launching kernels and reading back
 *   threads_shared	two threads enqueueing into one shared queue
 */
#include <pthread.h>
#include <unistd.h>
#include "clt.h"

static char notes[4096];
static pthread_mutex_t notes_lock = PTHREAD_MUTEX_INITIALIZER;

static void CL_CALLBACK notify(const char *msg, const void *info, size_t size, void *data)
{
	pthread_mutex_lock(&notes_lock);
	strncat(notes, msg, sizeof(notes) - strlen(notes) - 2);
	strcat(notes, "\n");
	pthread_mutex_unlock(&notes_lock);
	fprintf(stderr, "notify: %s\n", msg);
}

static struct clt t;
static cl_program prog;

static const char *src =
	"__kernel void fill(__global int *p, int v)\n"
	"{ size_t i = get_global_id(0); p[i] = v + (int)i; }\n"
	"__kernel void bad(__global int *p)\n"
	"{\n"
	"	__global int *q = (__global int *)((ulong)p ^ 0x5a5a5a5a000ul);\n"
	"	q[get_global_id(0)] = 1;\n"		/* line 6 */
	"}\n"
	"__kernel void spin(__global volatile int *p)\n"
	"{\n"
	"	while (p[0] != 12345)\n"
	"		p[1]++;\n"
	"}\n"
	"__kernel void work(__global int *p, int rounds)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	int x = p[i];\n"
	"	for (int r = 0; r < rounds; r++)\n"
	"		x = x * 1103515245 + 12345;\n"
	"	p[i] = x;\n"
	"}\n"
	/* Never run: it makes the program large enough to build in parts. */
	"#define ROUND(k) a += b ^ k; b ^= rotate(a, 7u); c += popcount(b) + clz(c | 1u); \\\n"
	"	d = mad24(d, c, a); a = mul_hi(a, d) + hadd(b, c);\n"
	"__kernel void heavy(__global uint *p, uint n)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	uint a = p[i], b = a ^ 0x9e3779b9u, c = a * 3u, d = a + 7u;\n"
	"	for (uint r = 0; r < n; r++) {\n"
	"		ROUND(1u) ROUND(2u) ROUND(3u) ROUND(4u) ROUND(5u) ROUND(6u) ROUND(7u) ROUND(8u)\n"
	"		ROUND(9u) ROUND(10u) ROUND(11u) ROUND(12u) ROUND(13u) ROUND(14u) ROUND(15u)\n"
	"		ROUND(16u)\n"
	"	}\n"
	"	p[i] = a ^ b ^ c ^ d;\n"
	"}\n";

static void setup(void)
{
	cl_int err;

	t.platform = clt_platform();
	CHECK(clGetDeviceIDs(t.platform, CL_DEVICE_TYPE_ALL, 1, &t.device, NULL));
	t.context = clCreateContext(NULL, 1, &t.device, notify, NULL, &err);
	CHECK(err);
	t.queue = clCreateCommandQueueWithProperties(t.context, t.device, NULL, &err);
	CHECK(err);
	prog = clt_build(&t, src, NULL);
}

static cl_int status_of(cl_event e)
{
	cl_int s;

	CHECK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(s), &s, NULL));
	return s;
}

/* check_fill: a fill kernel on @q gives its values; the queue works. */
static void check_fill(cl_command_queue q, int v)
{
	cl_int out[100], i;
	size_t n = 100;
	cl_kernel k = clt_kernel(prog, "fill");
	cl_mem m = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(out), NULL);

	ARG(k, 0, m); ARG(k, 1, v);
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
	for (i = 0; i < 100; i++)
		EXPECT(out[i] == v + i);
	clReleaseMemObject(m);
	clReleaseKernel(k);
}

static int fault(void)
{
	cl_kernel k = clt_kernel(prog, "bad");
	cl_mem m = clt_buffer(&t, CL_MEM_READ_WRITE, 4096, NULL);
	cl_event e;
	size_t n = 4;
	int i;

	ARG(k, 0, m);
	CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &n, NULL, 0, NULL, &e));
	clWaitForEvents(1, &e);
	fprintf(stderr, "fault: event status %d\n", status_of(e));
	EXPECT(status_of(e) < 0);
	/* pfn_notify may come from the queue's thread just after. */
	for (i = 0; i < 100 && !strstr(notes, "program.cl:"); i++)
		usleep(10000);
	pthread_mutex_lock(&notes_lock);
	EXPECT(strstr(notes, "bad") != NULL);
	EXPECT(strstr(notes, "program.cl:6") != NULL);
	pthread_mutex_unlock(&notes_lock);
	clReleaseEvent(e);
	check_fill(t.queue, 77);
	clReleaseMemObject(m);
	clReleaseKernel(k);
	return 0;
}

static int hang(void)
{
	cl_kernel k = clt_kernel(prog, "spin");
	cl_mem m = clt_buffer(&t, CL_MEM_READ_WRITE, 4096, NULL);
	cl_int zero = 0;
	cl_event e;
	size_t n = 1;

	CHECK(clEnqueueFillBuffer(t.queue, m, &zero, sizeof(zero), 0, 4096, 0, NULL, NULL));
	ARG(k, 0, m);
	CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &n, NULL, 0, NULL, &e));
	clWaitForEvents(1, &e);
	fprintf(stderr, "hang: event status %d\n", status_of(e));
	EXPECT(status_of(e) == CL_OUT_OF_RESOURCES);
	clReleaseEvent(e);
	check_fill(t.queue, -5);
	clReleaseMemObject(m);
	clReleaseKernel(k);
	return 0;
}

static int user_late(void)
{
	cl_int err, v[256], back[256], i;
	cl_event u, ek;
	size_t n = 256;
	int rounds = 3;
	cl_command_queue q2 = clCreateCommandQueueWithProperties(t.context, t.device, NULL, &err);
	cl_kernel k = clt_kernel(prog, "work");
	cl_mem m = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(v), NULL);

	CHECK(err);
	for (i = 0; i < 256; i++)
		v[i] = i;
	u = clCreateUserEvent(t.context, &err);
	CHECK(err);
	CHECK(clEnqueueWriteBuffer(t.queue, m, CL_FALSE, 0, sizeof(v), v, 1, &u, NULL));
	ARG(k, 0, m); ARG(k, 1, rounds);
	CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &n, NULL, 0, NULL, &ek));
	CHECK(clFlush(t.queue));
	/* Other work on another queue completes meanwhile. */
	check_fill(q2, 1000);
	check_fill(q2, 2000);
	EXPECT(status_of(ek) > CL_COMPLETE);
	CHECK(clSetUserEventStatus(u, CL_COMPLETE));
	CHECK(clWaitForEvents(1, &ek));
	CHECK(clEnqueueReadBuffer(t.queue, m, CL_TRUE, 0, sizeof(back), back, 0, NULL, NULL));
	for (i = 0; i < 256; i++) {
		cl_uint x = (cl_uint)i;

		for (int r = 0; r < rounds; r++)
			x = x * 1103515245u + 12345u;
		EXPECT(back[i] == (cl_int)x);
	}
	clReleaseEvent(u); clReleaseEvent(ek);
	clReleaseCommandQueue(q2);
	clReleaseMemObject(m);
	clReleaseKernel(k);
	return 0;
}

static int user_never(void)
{
	cl_int err;
	cl_event u, ek;
	size_t n = 64;
	cl_int v = 1;
	cl_kernel k = clt_kernel(prog, "fill");
	cl_mem m = clt_buffer(&t, CL_MEM_READ_WRITE, 4096, NULL);

	u = clCreateUserEvent(t.context, &err);
	CHECK(err);
	ARG(k, 0, m); ARG(k, 1, v);
	CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &n, NULL, 1, &u, &ek));
	CHECK(clFlush(t.queue));
	usleep(300 * 1000);
	EXPECT(status_of(ek) > CL_COMPLETE);
	/* Release everything; clReleaseCommandQueue must not wait for it. */
	CHECK(clReleaseEvent(ek));
	CHECK(clReleaseEvent(u));
	CHECK(clReleaseKernel(k));
	CHECK(clReleaseMemObject(m));
	CHECK(clReleaseProgram(prog));
	CHECK(clReleaseCommandQueue(t.queue));
	CHECK(clReleaseContext(t.context));
	return 0;
}

static int release_in_flight(void)
{
	cl_int err, v[1024], back[1024], i;
	cl_event er;
	size_t n = 1024;
	int rounds = 200;
	cl_command_queue q = clCreateCommandQueueWithProperties(t.context, t.device, NULL, &err);
	cl_kernel k = clt_kernel(prog, "work");
	cl_mem m = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(v), NULL);

	CHECK(err);
	for (i = 0; i < 1024; i++)
		v[i] = i * 3;
	memset(back, 0, sizeof(back));
	CHECK(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, sizeof(v), v, 0, NULL, NULL));
	ARG(k, 0, m); ARG(k, 1, rounds);
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, m, CL_FALSE, 0, sizeof(back), back, 0, NULL, &er));
	CHECK(clReleaseCommandQueue(q));
	CHECK(clReleaseKernel(k));
	CHECK(clReleaseMemObject(m));
	CHECK(clWaitForEvents(1, &er));
	EXPECT(status_of(er) == CL_COMPLETE);
	for (i = 0; i < 1024; i++) {
		cl_uint x = (cl_uint)(i * 3);

		for (int r = 0; r < 2 * rounds; r++)
			x = x * 1103515245u + 12345u;
		EXPECT(back[i] == (cl_int)x);
	}
	clReleaseEvent(er);
	return 0;
}

struct worker {
	cl_command_queue q;
	int id, bad;
};

static void *worker(void *arg)
{
	struct worker *w = arg;
	cl_int out[64];
	size_t n = 64;
	int it, i;
	cl_kernel k = clt_kernel(prog, "fill");
	cl_mem m = clt_buffer(&t, CL_MEM_READ_WRITE, sizeof(out), NULL);

	ARG(k, 0, m);
	for (it = 0; it < 15; it++) {
		cl_int v = w->id * 10000 + it * 100;

		/* A kernel object is not thread-safe for clSetKernelArg: one each. */
		ARG(k, 1, v);
		if (clEnqueueNDRangeKernel(w->q, k, 1, NULL, &n, NULL, 0, NULL, NULL) ||
		    clEnqueueReadBuffer(w->q, m, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL)) {
			w->bad++;
			continue;
		}
		for (i = 0; i < 64; i++)
			if (out[i] != v + i) {
				w->bad++;
				break;
			}
	}
	clReleaseMemObject(m);
	clReleaseKernel(k);
	return NULL;
}

static int threads(int shared)
{
	struct worker w[2];
	pthread_t th[2];
	cl_int err;
	int i;

	for (i = 0; i < 2; i++) {
		w[i].id = i;
		w[i].bad = 0;
		w[i].q = shared ? t.queue :
			clCreateCommandQueueWithProperties(t.context, t.device, NULL, &err);
	}
	for (i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, worker, &w[i]);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < 2; i++) {
		fprintf(stderr, "thread %d: %d bad\n", i, w[i].bad);
		EXPECT(w[i].bad == 0);
		if (!shared)
			clReleaseCommandQueue(w[i].q);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *s = argc > 1 ? argv[1] : "";
	int ret;

	alarm(90);
	setup();
	if (!strcmp(s, "fault"))
		ret = fault();
	else if (!strcmp(s, "hang"))
		ret = hang();
	else if (!strcmp(s, "user_late"))
		ret = user_late();
	else if (!strcmp(s, "user_never"))
		return user_never();
	else if (!strcmp(s, "release_in_flight"))
		ret = release_in_flight();
	else if (!strcmp(s, "threads_queues"))
		ret = threads(0);
	else if (!strcmp(s, "threads_shared"))
		ret = threads(1);
	else {
		fprintf(stderr, "usage: scenarios fault|hang|user_late|user_never|"
			"release_in_flight|threads_queues|threads_shared\n");
		return 2;
	}
	clReleaseProgram(prog);
	clt_fini(&t);
	return ret;
}
