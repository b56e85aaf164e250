// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * bench_rt.c - does the host stay responsive while the engines compute?
 *
 * A real-time thread (SCHED_FIFO) sleeps to absolute deadlines 1 ms apart
 * and records how late it wakes up.  It does so twice in one boot:
 *
 *   reference  while two user-space threads keep both CPUs busy: the
 *              scheduler preempts them at once for the real-time thread;
 *   engines    while both compute engines run one long DISPATCH each, a
 *              loop of a few hundred million instructions: kernel threads
 *              that must give the CPU up as readily.
 *
 * Prints the percentiles of both and closes with
 *
 *	bench.rt.wakeup_p99_ratio <engines p99 / reference p99> PASS|FAIL
 *
 * (target: at most 2), then the p50 ratio and the worst wake-ups, which
 * are informative only: under TCG a single late sample is as likely the
 * host's doing as the guest's.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <sched.h>
#include <sys/mman.h>

#include <drm/vaccel_accel.h>

#include "bench.h"

#define PERIOD_NS	1000000ull
#define SAMPLES		2000
#define WARMUP		50
#define TARGET_RATIO	2.0

/* The loop's iterations: a few seconds of engine time under TCG. */
#define LOOP_ITERS	150000000ull

static int fd;

static void dev_ioctl(unsigned long req, void *arg, const char *what)
{
	if (ioctl(fd, req, arg))
		bench_die("%s: %s", what, strerror(errno));
}

/* A BO of @size bytes mapped for the CPU and at @va for the engines. */
static void *bo_at(__u64 size, __u64 va)
{
	struct drm_vaccel_bo_create c = { .size = size };
	struct drm_vaccel_bo_mmap_offset m = {};
	struct drm_vaccel_vm_bind_op op = {
		.op = DRM_VACCEL_VM_BIND_OP_MAP, .va = va, .size = size,
	};
	struct drm_vaccel_vm_bind b = { .ops = DRM_VACCEL_OBJ_ARRAY(1, &op) };
	void *p;

	dev_ioctl(DRM_IOCTL_VACCEL_BO_CREATE, &c, "BO_CREATE");
	m.handle = c.handle;
	op.handle = c.handle;
	dev_ioctl(DRM_IOCTL_VACCEL_BO_MMAP_OFFSET, &m, "BO_MMAP_OFFSET");
	dev_ioctl(DRM_IOCTL_VACCEL_VM_BIND, &b, "VM_BIND");
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, m.offset);
	if (p == MAP_FAILED)
		bench_die("mmap: %s", strerror(errno));
	return p;
}

/* Both compute engines each run a DISPATCH of one long loop. */
static void engines_start(__u32 out)
{
	/* ld t0, 0(a0); 1: addi t0, t0, -1; bnez t0, 1b; ret */
	static const __u32 loop[] = { 0x00053283, 0xfff28293, 0xfe029ee3, 0x00008067 };
	const __u64 code_va = 0x100000, args_va = 0x200000, cmd_va = 0x300000;
	__u32 *code = bo_at(4096, code_va);
	__u64 *args = bo_at(4096, args_va), *cmd = bo_at(4096, cmd_va);
	struct drm_vaccel_sync sig = { .handle = out };
	unsigned int e, i = 0;

	memcpy(code, loop, sizeof(loop));
	args[0] = LOOP_ITERS;
	cmd[i++] = DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_DISPATCH, 0, 11);
	cmd[i++] = code_va;
	cmd[i++] = args_va;
	cmd[i++] = 1; cmd[i++] = 1; cmd[i++] = 1;	/* grid */
	cmd[i++] = 1; cmd[i++] = 1; cmd[i++] = 1;	/* workgroup */
	cmd[i++] = 0;					/* local memory */
	cmd[i++] = 256;					/* stack */
	for (e = 0; e < 2; e++) {
		struct drm_vaccel_context_create c = {
			.engine_class = DRM_VACCEL_ENGINE_CLASS_COMPUTE,
			.engine_instance = e,
			.priority = DRM_VACCEL_PRIORITY_NORMAL,
		};
		struct drm_vaccel_submit s = {
			.buffer_va = cmd_va,
			.buffer_size = i * 8,
			.signals = DRM_VACCEL_OBJ_ARRAY(e ? 1 : 0, &sig),
		};

		dev_ioctl(DRM_IOCTL_VACCEL_CONTEXT_CREATE, &c, "CONTEXT_CREATE");
		s.context = c.handle;
		dev_ioctl(DRM_IOCTL_VACCEL_SUBMIT, &s, "SUBMIT");
	}
}

static int engines_done(__u32 out)
{
	struct drm_syncobj_wait w = {
		.handles = (uintptr_t)&out, .count_handles = 1, .timeout_nsec = 0,
	};

	return !ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
}

/* The real-time thread: SAMPLES wake-ups, each how late it was, in ns. */
struct sampler {
	__u64 late[SAMPLES];
};

static void *sampler_fn(void *arg)
{
	struct sampler *s = arg;
	struct sched_param sp = { .sched_priority = 50 };
	struct timespec next;
	unsigned int i;

	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		bench_die("SCHED_FIFO: %s (needs root)", strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < WARMUP + SAMPLES; i++) {
		__u64 due;

		next.tv_nsec += PERIOD_NS;
		if (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		due = (__u64)next.tv_sec * 1000000000 + next.tv_nsec;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		if (i >= WARMUP)
			s->late[i - WARMUP] = bench_now_ns() - due;
	}
	return NULL;
}

static void sample(struct sampler *s)
{
	pthread_t t;

	if (pthread_create(&t, NULL, sampler_fn, s) || pthread_join(t, NULL))
		bench_die("sampler thread");
}

/* The reference load: two threads spinning in user space. */
static volatile int spin_stop;

static void *spin_fn(void *unused)
{
	while (!spin_stop)
		;
	return NULL;
}

struct pct {
	double p50, p99, max;
};

static struct pct percentiles(__u64 *v)
{
	struct pct p;

	p.p50 = bench_percentile(v, SAMPLES, 50);
	p.p99 = bench_percentile(v, SAMPLES, 99);
	p.max = bench_percentile(v, SAMPLES, 100);
	return p;
}

int main(int argc, char **argv)
{
	static struct sampler ref, eng;
	struct drm_syncobj_create sc = {};
	pthread_t spin[2];
	struct pct r, e;
	double ratio;
	int i;

	bench_name = "rt";
	fd = bench_open_device(argc > 1 ? argv[1] : NULL);
	if (fd < 0)
		bench_die("no vaccel device: %s", strerror(errno));

	spin_stop = 0;
	for (i = 0; i < 2; i++)
		if (pthread_create(&spin[i], NULL, spin_fn, NULL))
			bench_die("spinning thread");
	sample(&ref);
	spin_stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(spin[i], NULL);

	dev_ioctl(DRM_IOCTL_SYNCOBJ_CREATE, &sc, "SYNCOBJ_CREATE");
	engines_start(sc.handle);
	/* Let both engines get going. */
	usleep(200000);
	sample(&eng);
	if (engines_done(sc.handle))
		bench_die("the dispatches ended before the samples did: make LOOP_ITERS larger");

	r = percentiles(ref.late);
	e = percentiles(eng.late);
	printf("%-44s %10s %10s %10s\n", "real-time thread, late by", "p50", "p99", "max");
	printf("%-44s %7.1f us %7.1f us %7.1f us\n", "both CPUs busy in user space",
	       r.p50 / 1e3, r.p99 / 1e3, r.max / 1e3);
	printf("%-44s %7.1f us %7.1f us %7.1f us\n", "both compute engines running",
	       e.p50 / 1e3, e.p99 / 1e3, e.max / 1e3);
	ratio = e.p99 / r.p99;
	printf("bench.rt.wakeup_p99_ratio %.3f %s\n", ratio,
	       ratio <= TARGET_RATIO ? "PASS" : "FAIL");
	printf("bench.rt.wakeup_p50_ratio %.3f\n", e.p50 / r.p50);
	printf("bench.rt.wakeup_max_us %.1f %.1f\n", r.max / 1e3, e.max / 1e3);
	close(fd);
	return 0;
}
