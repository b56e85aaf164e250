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
 *   out_of_order	an out-of-order queue overlaps what does not depend:
 *			a short kernel, or a copy, enqueued after a long
 *			kernel ends before it (on an in-order queue, starts
 *			after it); a kernel that waits for another's event
 *			starts after it ends, a barrier orders everything
 *			before it before everything after it, a marker
 *			completes after the commands before it (their events
 *			complete by then); the data are the in-order ones
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

static cl_ulong when(cl_event e, cl_profiling_info what)
{
	cl_ulong v;

	CHECK(clGetEventProfilingInfo(e, what, sizeof(v), &v, NULL));
	return v;
}

#define START(e) when(e, CL_PROFILING_COMMAND_START)
#define END(e) when(e, CL_PROFILING_COMMAND_END)
#define OOO_ITEMS 256

/* work() on @m, @rounds rounds; its event. */
static cl_event ooo_work(cl_command_queue q, cl_kernel k, cl_mem m, int rounds,
			 cl_uint num_waits, const cl_event *waits)
{
	size_t n = OOO_ITEMS;
	cl_event e;

	ARG(k, 0, m); ARG(k, 1, rounds);
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, num_waits, waits, &e));
	return e;
}

/* The host's work(): @rounds rounds over @v. */
static void ooo_model(cl_int *v, int rounds)
{
	for (int i = 0; i < OOO_ITEMS; i++) {
		cl_uint x = (cl_uint)v[i];

		for (int r = 0; r < rounds; r++)
			x = x * 1103515245u + 12345u;
		v[i] = (cl_int)x;
	}
}

static int out_of_order(void)
{
	cl_queue_properties ooo_props[] = { CL_QUEUE_PROPERTIES,
		CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0 };
	cl_queue_properties io_props[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };
	cl_int va[OOO_ITEMS], vb[OOO_ITEMS], got[OOO_ITEMS], err;
	cl_command_queue_properties qp;
	cl_event a, b, c, m, bar, copy;
	cl_command_queue oq, iq;
	cl_mem ma, mb, big, big2;
	size_t big_size = 1 << 20;
	int rounds = 64, shorter;
	cl_kernel ka, kb;

	oq = clCreateCommandQueueWithProperties(t.context, t.device, ooo_props, &err);
	CHECK(err);
	iq = clCreateCommandQueueWithProperties(t.context, t.device, io_props, &err);
	CHECK(err);
	CHECK(clGetCommandQueueInfo(oq, CL_QUEUE_PROPERTIES, sizeof(qp), &qp, NULL));
	EXPECT(qp & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
	CHECK(clGetDeviceInfo(t.device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof(qp), &qp,
			      NULL));
	EXPECT(qp & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
	ka = clt_kernel(prog, "work");
	kb = clt_kernel(prog, "work");
	for (int i = 0; i < OOO_ITEMS; i++) {
		va[i] = i;
		vb[i] = 7 * i + 1;
	}
	ma = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(va), va);
	mb = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(vb), vb);
	big = clt_buffer(&t, CL_MEM_READ_WRITE, big_size, NULL);
	big2 = clt_buffer(&t, CL_MEM_READ_WRITE, big_size, NULL);

	/* The long kernel: 200 ms or more (the module's time limit is 4 s). */
	for (;;) {
		a = ooo_work(iq, ka, ma, rounds, 0, NULL);
		CHECK(clWaitForEvents(1, &a));
		ooo_model(va, rounds);
		if (END(a) - START(a) >= 200000000 || rounds >= 1 << 20)
			break;
		clReleaseEvent(a);
		rounds *= 2;
	}
	fprintf(stderr, "long kernel: %d rounds, %.1f ms\n", rounds,
		(double)(END(a) - START(a)) / 1e6);
	clReleaseEvent(a);
	shorter = rounds / 16;

	/* In order: the short kernel starts after the long one ends. */
	a = ooo_work(iq, ka, ma, rounds, 0, NULL);
	b = ooo_work(iq, kb, mb, shorter, 0, NULL);
	CHECK(clFinish(iq));
	ooo_model(va, rounds);
	ooo_model(vb, shorter);
	EXPECT(START(b) >= END(a));
	clReleaseEvent(a);
	clReleaseEvent(b);

	/* Out of order: it ends first; a kernel that waits for it starts after. */
	a = ooo_work(oq, ka, ma, rounds, 0, NULL);
	b = ooo_work(oq, kb, mb, shorter, 0, NULL);
	CHECK(clWaitForEvents(1, &b));
	c = ooo_work(oq, kb, mb, shorter, 1, &a);
	CHECK(clFinish(oq));
	ooo_model(va, rounds);
	ooo_model(vb, 2 * shorter);
	fprintf(stderr, "a %llu..%llu, b %llu..%llu, c %llu..%llu\n",
		(unsigned long long)START(a), (unsigned long long)END(a),
		(unsigned long long)START(b), (unsigned long long)END(b),
		(unsigned long long)START(c), (unsigned long long)END(c));
	EXPECT(END(b) < END(a));
	EXPECT(START(c) >= END(a));
	clReleaseEvent(a);
	clReleaseEvent(b);
	clReleaseEvent(c);

	/* A copy after the long kernel ends before it. */
	a = ooo_work(oq, ka, ma, rounds, 0, NULL);
	CHECK(clEnqueueCopyBuffer(oq, big, big2, 0, 0, big_size, 0, NULL, &copy));
	CHECK(clFinish(oq));
	ooo_model(va, rounds);
	EXPECT(END(copy) < END(a));
	clReleaseEvent(a);
	clReleaseEvent(copy);

	/* A barrier: what follows starts after everything before it. */
	a = ooo_work(oq, ka, ma, rounds, 0, NULL);
	b = ooo_work(oq, kb, mb, shorter, 0, NULL);
	CHECK(clEnqueueBarrierWithWaitList(oq, 0, NULL, &bar));
	c = ooo_work(oq, kb, mb, shorter, 0, NULL);
	CHECK(clFinish(oq));
	ooo_model(va, rounds);
	ooo_model(vb, 2 * shorter);
	EXPECT(START(c) >= END(a));
	EXPECT(START(c) >= END(b));
	EXPECT(END(bar) >= END(a));
	clReleaseEvent(a);
	clReleaseEvent(b);
	clReleaseEvent(c);
	clReleaseEvent(bar);

	/* A marker completes after the commands before it, their events too. */
	a = ooo_work(oq, ka, ma, rounds, 0, NULL);
	b = ooo_work(oq, kb, mb, shorter, 0, NULL);
	CHECK(clEnqueueMarkerWithWaitList(oq, 0, NULL, &m));
	CHECK(clWaitForEvents(1, &m));
	EXPECT(status_of(a) == CL_COMPLETE);
	EXPECT(status_of(b) == CL_COMPLETE);
	EXPECT(END(m) >= END(a));
	ooo_model(va, rounds);
	ooo_model(vb, shorter);
	clReleaseEvent(a);
	clReleaseEvent(b);
	clReleaseEvent(m);

	/* The data are what the commands in order give. */
	CHECK(clEnqueueReadBuffer(oq, ma, CL_TRUE, 0, sizeof(got), got, 0, NULL, NULL));
	EXPECT(!memcmp(got, va, sizeof(va)));
	CHECK(clEnqueueReadBuffer(oq, mb, CL_TRUE, 0, sizeof(got), got, 0, NULL, NULL));
	EXPECT(!memcmp(got, vb, sizeof(vb)));

	clReleaseMemObject(ma);
	clReleaseMemObject(mb);
	clReleaseMemObject(big);
	clReleaseMemObject(big2);
	clReleaseKernel(ka);
	clReleaseKernel(kb);
	clReleaseCommandQueue(oq);
	clReleaseCommandQueue(iq);
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
	else if (!strcmp(s, "out_of_order"))
		ret = out_of_order();
	else {
		fprintf(stderr, "usage: scenarios fault|hang|user_late|user_never|"
			"release_in_flight|threads_queues|threads_shared|out_of_order\n");
		return 2;
	}
	clReleaseProgram(prog);
	clt_fini(&t);
	return ret;
}
