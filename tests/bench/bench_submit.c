// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * bench_submit.c - what submitting a DMA buffer costs, against references
 * measured in the same run (the machines are noisy and may be emulated:
 * only ratios mean anything).  Raw ioctls throughout, so that the figures
 * are the kernel's, not libvaccel's.
 *
 * (a) Round trip: SUBMIT of a one-packet NOP buffer with an out-syncobj,
 *     then SYNCOBJ_WAIT on it, ITERS times after WARMUP; against a futex
 *     ping-pong between two threads (a wake-up there and back), measured
 *     the same way.  Ratios of the p50 and of the p99; target p50 <= 2.0.
 * (b) Pipelined: JOBS NOP buffers submitted back to back, the last one with
 *     an out-syncobj, one wait at the end; the cost per job, against one
 *     bare ioctl (DRM_IOCTL_VACCEL_QUERY of the device information), as a
 *     number of bare ioctls; target at most 6 (issue 12).  In
 *     PIPELINED_ROUNDS rounds, each the reference then its share of the
 *     buffers; the median of the rounds' ratios.  Also printed,
 *     informative: the SUBMIT loop's share, and the context switches per
 *     buffer.
 * (c) Completion to wake-up: a buffer whose last packet is a TIMESTAMP
 *     (the engine's clock is CLOCK_MONOTONIC); the time from it to the
 *     return of SYNCOBJ_WAIT, read with clock_gettime(); p50 and p99 in µs.
 * (d) Tracing: the round trip of (a) with every vaccel trace event enabled
 *     (tracefs, the top-level instance), against the same with them
 *     disabled, in TRACE_ROUNDS alternating rounds; the ratio of the p50s,
 *     target at most 1.2 (issue 14).  Informative: the same with
 *     gpu_scheduler's and dma_fence's events enabled too.  Skipped, with
 *     a note, where tracefs is not mounted.
 *
 * Output: a table, then
 *	bench.submit.nop_rt_p50_ratio <x> PASS|FAIL
 *	bench.submit.pipelined_per_job_ioctls <x> PASS|FAIL
 *	bench.submit.wake_latency_p50_us <x>
 *	bench.submit.trace_nop_rt_p50_ratio <x> PASS|FAIL
 * Exits 0 once measured (whatever the verdicts), 1 with a `not ok` line if
 * it could not measure.
 *
 *	bench_submit [DEVICE]	(default: the first vaccel node)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <drm/vaccel_accel.h>

#include "bench.h"

#define WARMUP		200
#define ITERS		4000
#define JOBS		100000
#define IOCTL_REPS	100000
#define IOCTL_BATCHES	11
#define PIPELINED_ROUNDS	9
#define QUIET_US	100000

#define RT_RATIO_TARGET		2.0
#define PIPELINED_TARGET	6.0
#define TRACE_RATIO_TARGET	1.2
#define TRACE_ROUNDS		5
#define TRACEFS			"/sys/kernel/tracing"

#define PAGE		4096ull
/* Offsets in the BO: the NOP buffer, the TIMESTAMP buffer, the timestamp. */
#define NOP_OFF		0
#define TS_BUF_OFF	64
#define TS_OFF		2048

static int fd = -1;
static __u32 ctx, syncobj;
static __u64 bo_va;
static volatile __u64 *cpu;

static void query_device(struct drm_vaccel_device_info *info)
{
	struct drm_vaccel_query q = {
		.type = DRM_VACCEL_QUERY_DEVICE,
		.size = sizeof(*info),
		.data = (__u64)(uintptr_t)info,
	};

	if (ioctl(fd, DRM_IOCTL_VACCEL_QUERY, &q))
		bench_die("QUERY: %s", strerror(errno));
}

/* One BO mapped for the CPU and at the lowest GPU VA; a context; a syncobj. */
static void setup(void)
{
	struct drm_vaccel_device_info info;
	struct drm_vaccel_bo_create c = { .size = PAGE };
	struct drm_vaccel_bo_mmap_offset mo = { 0 };
	struct drm_vaccel_vm_bind_op op = { .op = DRM_VACCEL_VM_BIND_OP_MAP };
	struct drm_vaccel_vm_bind b = { .ops = DRM_VACCEL_OBJ_ARRAY(1, &op) };
	struct drm_vaccel_context_create cc = {
		.engine_class = DRM_VACCEL_ENGINE_CLASS_COMPUTE,
		.engine_instance = DRM_VACCEL_ENGINE_ANY,
		.priority = DRM_VACCEL_PRIORITY_NORMAL,
	};
	struct drm_syncobj_create sc = { 0 };
	void *p;

	memset(&info, 0, sizeof(info));
	query_device(&info);
	if (ioctl(fd, DRM_IOCTL_VACCEL_BO_CREATE, &c))
		bench_die("BO_CREATE: %s", strerror(errno));
	mo.handle = c.handle;
	if (ioctl(fd, DRM_IOCTL_VACCEL_BO_MMAP_OFFSET, &mo))
		bench_die("BO_MMAP_OFFSET: %s", strerror(errno));
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, mo.offset);
	if (p == MAP_FAILED)
		bench_die("mmap: %s", strerror(errno));
	cpu = p;
	bo_va = info.va_start;
	op.handle = c.handle;
	op.va = bo_va;
	op.size = PAGE;
	if (ioctl(fd, DRM_IOCTL_VACCEL_VM_BIND, &b))
		bench_die("VM_BIND: %s", strerror(errno));
	if (ioctl(fd, DRM_IOCTL_VACCEL_CONTEXT_CREATE, &cc))
		bench_die("CONTEXT_CREATE: %s", strerror(errno));
	ctx = cc.handle;
	if (ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc))
		bench_die("SYNCOBJ_CREATE: %s", strerror(errno));
	syncobj = sc.handle;

	cpu[NOP_OFF / 8] = DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_NOP, 0, 1);
	cpu[TS_BUF_OFF / 8] = DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_TIMESTAMP, 0, 2);
	cpu[TS_BUF_OFF / 8 + 1] = bo_va + TS_OFF;
}

/* SUBMIT of the buffer at @off, @words long, signalling the syncobj or not. */
static void submit(__u64 off, __u64 words, int signal)
{
	struct drm_vaccel_sync s = { .handle = syncobj };
	struct drm_vaccel_submit args = {
		.context = ctx,
		.buffer_va = bo_va + off,
		.buffer_size = words * 8,
		.signals = DRM_VACCEL_OBJ_ARRAY(signal ? 1 : 0, &s),
	};

	if (ioctl(fd, DRM_IOCTL_VACCEL_SUBMIT, &args))
		bench_die("SUBMIT: %s", strerror(errno));
}

static void wait_syncobj(void)
{
	struct drm_syncobj_wait w = {
		.handles = (__u64)(uintptr_t)&syncobj,
		.timeout_nsec = INT64_MAX,
		.count_handles = 1,
		.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
	};

	while (ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w))
		if (errno != EINTR)
			bench_die("SYNCOBJ_WAIT: %s", strerror(errno));
}

/* --- (a) the round trip of a NOP buffer, and of a futex ping-pong --- */

static void nop_round_trips(__u64 *rt)
{
	unsigned int i;
	__u64 t0;

	for (i = 0; i < WARMUP + ITERS; i++) {
		t0 = bench_now_ns();
		submit(NOP_OFF, 1, 1);
		wait_syncobj();
		if (i >= WARMUP)
			rt[i - WARMUP] = bench_now_ns() - t0;
	}
}

static int turn;	/* 0: the measuring thread's, 1: the echo thread's, 2: stop */

static void futex_wait(int *addr, int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(int *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *echo_thread(void *unused)
{
	int t;

	for (;;) {
		while ((t = __atomic_load_n(&turn, __ATOMIC_ACQUIRE)) == 0)
			futex_wait(&turn, 0);
		if (t == 2)
			return NULL;
		__atomic_store_n(&turn, 0, __ATOMIC_RELEASE);
		futex_wake(&turn);
	}
}

static void futex_round_trips(__u64 *rt)
{
	pthread_t t;
	unsigned int i;
	__u64 t0;

	if (pthread_create(&t, NULL, echo_thread, NULL))
		bench_die("pthread_create");
	for (i = 0; i < WARMUP + ITERS; i++) {
		t0 = bench_now_ns();
		__atomic_store_n(&turn, 1, __ATOMIC_RELEASE);
		futex_wake(&turn);
		while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != 0)
			futex_wait(&turn, 1);
		if (i >= WARMUP)
			rt[i - WARMUP] = bench_now_ns() - t0;
	}
	__atomic_store_n(&turn, 2, __ATOMIC_RELEASE);
	futex_wake(&turn);
	pthread_join(t, NULL);
}

/* --- (b) pipelined submission against a bare ioctl --- */

/* Context switches of the whole system so far, from /proc/stat. */
static unsigned long long context_switches(void)
{
	unsigned long long n = 0;
	char line[256];
	FILE *f = fopen("/proc/stat", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "ctxt %llu", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

/* What a pipelined buffer costs besides its time: informative. */
struct pipelined_cost {
	double submit_ns;	/* the SUBMIT loop alone, per buffer */
	double ctxsw;		/* context switches per buffer, system-wide */
};

/* @jobs NOP buffers back to back, one wait at the end: ns per buffer. */
static double pipelined_ns_per_job(unsigned int jobs, struct pipelined_cost *cost)
{
	unsigned long long sw0 = context_switches();
	unsigned int i;
	__u64 t0, t1;

	t0 = bench_now_ns();
	for (i = 0; i < jobs; i++)
		submit(NOP_OFF, 1, i == jobs - 1);
	t1 = bench_now_ns();
	wait_syncobj();
	cost->submit_ns = (double)(t1 - t0) / jobs;
	cost->ctxsw = (double)(context_switches() - sw0) / jobs;
	return (double)(bench_now_ns() - t0) / jobs;
}

/*
 * The bare ioctl, @reps of them, as the median of IOCTL_BATCHES batches,
 * so that one batch that met other work does not move the reference.
 */
static double bare_ioctl_ns(unsigned int reps)
{
	__u64 batch[IOCTL_BATCHES];
	struct drm_vaccel_device_info info;
	unsigned int b, i;
	__u64 t0;

	for (b = 0; b < IOCTL_BATCHES; b++) {
		t0 = bench_now_ns();
		for (i = 0; i < reps / IOCTL_BATCHES; i++)
			query_device(&info);
		batch[b] = bench_now_ns() - t0;
	}
	return bench_percentile(batch, IOCTL_BATCHES, 50) / (reps / IOCTL_BATCHES);
}

struct pipelined_ratio {
	double per;		/* the median of the rounds' ratios */
	double lo, hi;		/* the lowest and the highest */
	double job_ns, ioctl_ns;	/* the medians of the rounds' figures */
	struct pipelined_cost cost;	/* the rounds' mean */
};

/*
 * The emulated machine drifts over seconds (the bare ioctl read 2.3 to
 * 7.2 us in six boots), so each round takes its reference just before its
 * buffers and the verdict is the median of the rounds' ratios.  The
 * reference comes after a pause: not while the previous round's frees and
 * RCU callbacks still run after its last buffer signalled.
 */
static void pipelined_rounds(struct pipelined_ratio *pr)
{
	__u64 ratio[PIPELINED_ROUNDS], job[PIPELINED_ROUNDS], ioctl_ns[PIPELINED_ROUNDS];
	struct pipelined_cost cost;
	unsigned int r;

	pr->cost = (struct pipelined_cost){ 0 };
	for (r = 0; r < PIPELINED_ROUNDS; r++) {
		usleep(QUIET_US);
		ioctl_ns[r] = bare_ioctl_ns(IOCTL_REPS / PIPELINED_ROUNDS);
		job[r] = pipelined_ns_per_job(JOBS / PIPELINED_ROUNDS, &cost);
		ratio[r] = job[r] * 1000 / ioctl_ns[r];
		pr->cost.submit_ns += cost.submit_ns / PIPELINED_ROUNDS;
		pr->cost.ctxsw += cost.ctxsw / PIPELINED_ROUNDS;
	}
	/* bench_percentile() sorts ratio[] in place: its ends are the extremes. */
	pr->per = bench_percentile(ratio, PIPELINED_ROUNDS, 50) / 1000.0;
	pr->lo = ratio[0] / 1000.0;
	pr->hi = ratio[PIPELINED_ROUNDS - 1] / 1000.0;
	pr->job_ns = bench_percentile(job, PIPELINED_ROUNDS, 50);
	pr->ioctl_ns = bench_percentile(ioctl_ns, PIPELINED_ROUNDS, 50);
}

/* --- (c) from the last packet to the waiter's wake-up --- */

static void wake_latencies(__u64 *lat)
{
	unsigned int i;
	__u64 woke, ts;

	for (i = 0; i < WARMUP + ITERS; i++) {
		cpu[TS_OFF / 8] = 0;
		submit(TS_BUF_OFF, 2, 1);
		wait_syncobj();
		woke = bench_now_ns();
		ts = cpu[TS_OFF / 8];
		if (!ts || ts > woke)
			bench_die("timestamp %llu, woken at %llu", (unsigned long long)ts,
			    (unsigned long long)woke);
		if (i >= WARMUP)
			lat[i - WARMUP] = woke - ts;
	}
}

/* --- (d) the round trip with the trace events enabled --- */

/* Writes "0" or "1" to an event system's enable file; false without tracefs. */
static bool trace_enable(const char *system, bool on)
{
	char path[128];
	int f;
	bool ok;

	snprintf(path, sizeof(path), TRACEFS "/events/%s/enable", system);
	f = open(path, O_WRONLY);
	if (f < 0)
		return false;
	ok = write(f, on ? "1" : "0", 1) == 1;
	close(f);
	return ok;
}

struct trace_cost {
	double off50, vaccel50, all50;
};

/*
 * Rounds of the three states, one after another, so that drift on a noisy
 * host spreads over all three; each state's p50 over all its rounds.
 */
static bool trace_round_trips(struct trace_cost *tc)
{
	static __u64 off[TRACE_ROUNDS * ITERS], vac[TRACE_ROUNDS * ITERS];
	static __u64 all[TRACE_ROUNDS * ITERS];
	unsigned int r;

	if (!trace_enable("vaccel", false))
		return false;
	for (r = 0; r < TRACE_ROUNDS; r++) {
		nop_round_trips(off + r * ITERS);
		trace_enable("vaccel", true);
		nop_round_trips(vac + r * ITERS);
		trace_enable("gpu_scheduler", true);
		trace_enable("dma_fence", true);
		nop_round_trips(all + r * ITERS);
		trace_enable("vaccel", false);
		trace_enable("gpu_scheduler", false);
		trace_enable("dma_fence", false);
	}
	tc->off50 = bench_percentile(off, TRACE_ROUNDS * ITERS, 50);
	tc->vaccel50 = bench_percentile(vac, TRACE_ROUNDS * ITERS, 50);
	tc->all50 = bench_percentile(all, TRACE_ROUNDS * ITERS, 50);
	return true;
}

int main(int argc, char **argv)
{
	static __u64 nop[ITERS], fut[ITERS], lat[ITERS];
	struct pipelined_ratio pr;
	struct trace_cost tc;
	bool traced;
	double nop50, nop99, fut50, fut99, lat50, lat99, r50, r99;

	bench_name = "submit";

	fd = bench_open_device(argc > 1 ? argv[1] : NULL);
	if (fd < 0)
		bench_die("no vaccel device: %s", strerror(errno));
	setup();

	nop_round_trips(nop);
	futex_round_trips(fut);
	nop50 = bench_percentile(nop, ITERS, 50);
	nop99 = bench_percentile(nop, ITERS, 99);
	fut50 = bench_percentile(fut, ITERS, 50);
	fut99 = bench_percentile(fut, ITERS, 99);
	r50 = nop50 / fut50;
	r99 = nop99 / fut99;

	pipelined_rounds(&pr);

	wake_latencies(lat);
	lat50 = bench_percentile(lat, ITERS, 50) / 1000.0;
	lat99 = bench_percentile(lat, ITERS, 99) / 1000.0;

	traced = trace_round_trips(&tc);

	printf("submission against references measured in this run, %u iterations "
	       "after %u of warm-up\n", ITERS, WARMUP);
	printf("%-44s %11s %11s\n", "", "p50", "p99");
	printf("%-44s %8.1f us %8.1f us\n", "NOP buffer: SUBMIT + SYNCOBJ_WAIT", nop50 / 1e3,
	       nop99 / 1e3);
	printf("%-44s %8.1f us %8.1f us\n", "futex ping-pong between two threads",
	       fut50 / 1e3, fut99 / 1e3);
	printf("%-44s %11.2f %11.2f\n", "ratio", r50, r99);
	printf("%-44s %8.1f us %8.1f us\n", "last packet (TIMESTAMP) to the waiter awake",
	       lat50, lat99);
	printf("%u rounds of %u NOP buffers back to back, one wait, each after its "
	       "reference, medians: %.2f us per buffer; a bare QUERY ioctl: %.2f us; "
	       "%.2f ioctls per buffer\n", PIPELINED_ROUNDS, JOBS / PIPELINED_ROUNDS,
	       pr.job_ns / 1e3, pr.ioctl_ns / 1e3, pr.per);
	printf("  the rounds' ratios %.2f to %.2f; the SUBMIT loop %.2f us per buffer; "
	       "%.2f context switches per buffer\n", pr.lo, pr.hi, pr.cost.submit_ns / 1e3,
	       pr.cost.ctxsw);

	bench_report(&(struct bench_metric){ "nop_rt_p50_ratio", r50, 3, "ratio", "<=",
		RT_RATIO_TARGET });
	bench_report(&(struct bench_metric){ "pipelined_per_job_ioctls", pr.per, 3, "ioctls", "<=",
		PIPELINED_TARGET });
	bench_report(&(struct bench_metric){ "wake_latency_p50_us", lat50, 1, "us" });
	if (traced) {
		printf("NOP round trip p50, %u rounds of %u: events off %.1f us, vaccel's on "
		       "%.1f us (%.3fx), with gpu_scheduler's and dma_fence's %.1f us (%.3fx)\n",
		       TRACE_ROUNDS, ITERS, tc.off50 / 1e3, tc.vaccel50 / 1e3,
		       tc.vaccel50 / tc.off50, tc.all50 / 1e3, tc.all50 / tc.off50);
		bench_report(&(struct bench_metric){ "trace_nop_rt_p50_ratio",
			tc.vaccel50 / tc.off50, 3, "ratio", "<=", TRACE_RATIO_TARGET });
	} else {
		printf("# no tracefs at " TRACEFS ": the tracing ratio is not measured\n");
	}
	close(fd);
	return 0;
}
