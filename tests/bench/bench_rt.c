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
 *   engines    while both compute engines run one long DISPATCH each, of
 *              workgroups that loop for millions of instructions: kernel
 *              threads that must give the CPU up as readily;
 *   binds      while two processes' worth of VMs (one file each) fill
 *              BIND_TABLES page tables with 4 KiB mappings 2 MiB apart and
 *              then unmap the whole VA space (256 TiB) in one operation,
 *              over and over: one synchronously, in its ioctl, the other
 *              asynchronously, on the PAGING engine.
 *
 * Prints the percentiles of each and closes with
 *
 *	bench.rt.wakeup_p99_ratio <engines p99 / reference p99> PASS|FAIL
 *	bench.rt.binds_p99_ratio <binds p99 / reference p99> PASS|FAIL
 *
 * (target: at most 2 each), then the p50 ratio and the worst wake-ups
 * (bench.rt.wakeup_max_{reference,engines,binds}_us), which are
 * informative only: under TCG a single late sample is as likely the host's
 * doing as the guest's.
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

/*
 * Each workgroup loops for some milliseconds, so that the dispatch
 * progresses (a workgroup that runs past the hang timeout is hung); the
 * grid lasts longer than the sampling on any machine (the time limit
 * stops it at 30 s).  The contexts are destroyed once the samples are
 * taken.
 */
#define LOOP_ITERS		2000000ull
#define LOOP_WORKGROUPS		100000ull

/* Level-0 tables a bind load fills: 32 MiB of page tables. */
#define BIND_TABLES	8192
#define BIND_BATCH	1024

static const char *dev_path;
static int fd;
static __u32 engine_ctx[2];

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

/* Both compute engines each run a DISPATCH of long loops. */
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
	cmd[i++] = LOOP_WORKGROUPS; cmd[i++] = 1; cmd[i++] = 1;	/* grid */
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
		engine_ctx[e] = c.handle;
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

/* Destroying the contexts stops their dispatches at the next check. */
static void engines_stop(void)
{
	unsigned int e;

	for (e = 0; e < 2; e++) {
		struct drm_vaccel_context_destroy d = { .handle = engine_ctx[e] };

		dev_ioctl(DRM_IOCTL_VACCEL_CONTEXT_DESTROY, &d, "CONTEXT_DESTROY");
	}
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

/*
 * The bind load: one file's VM, its tables filled by batches of maps,
 * then emptied by one unmap of the whole VA space; asynchronous binds
 * carry an out-syncobj and are waited for.
 */
struct binder {
	pthread_t thread;
	int async;
	unsigned long rounds;
};

static volatile int bind_stop;

static void bind_or_die(int bfd, struct drm_vaccel_vm_bind_op *ops, __u32 n,
			__u32 syncobj)
{
	struct drm_vaccel_sync sig = { .handle = syncobj };
	struct drm_vaccel_vm_bind b = {
		.ops = DRM_VACCEL_OBJ_ARRAY(n, ops),
		.signals = DRM_VACCEL_OBJ_ARRAY(syncobj ? 1 : 0, &sig),
	};
	struct drm_syncobj_wait w = {
		.handles = (uintptr_t)&syncobj, .count_handles = 1,
		.timeout_nsec = INT64_MAX,
	};

	if (ioctl(bfd, DRM_IOCTL_VACCEL_VM_BIND, &b))
		bench_die("VM_BIND: %s", strerror(errno));
	if (syncobj && ioctl(bfd, DRM_IOCTL_SYNCOBJ_WAIT, &w))
		bench_die("SYNCOBJ_WAIT: %s", strerror(errno));
}

static void *binder_fn(void *arg)
{
	static __thread struct drm_vaccel_vm_bind_op ops[BIND_BATCH];
	struct binder *bd = arg;
	struct drm_vaccel_device_info info = {};
	struct drm_vaccel_query q = {
		.type = DRM_VACCEL_QUERY_DEVICE, .size = sizeof(info),
		.data = (uintptr_t)&info,
	};
	struct drm_vaccel_bo_create c = { .size = 4096 };
	struct drm_syncobj_create sc = {};
	struct drm_vaccel_vm_bind_op all = { .op = DRM_VACCEL_VM_BIND_OP_UNMAP };
	int bfd = bench_open_device(dev_path);
	unsigned int i, t;

	if (bfd < 0 || ioctl(bfd, DRM_IOCTL_VACCEL_QUERY, &q) ||
	    ioctl(bfd, DRM_IOCTL_VACCEL_BO_CREATE, &c) ||
	    (bd->async && ioctl(bfd, DRM_IOCTL_SYNCOBJ_CREATE, &sc)))
		bench_die("bind load: %s", strerror(errno));
	all.va = info.va_start;
	all.size = info.va_end - info.va_start;
	while (!bind_stop) {
		for (t = 0; t < BIND_TABLES; t += BIND_BATCH) {
			for (i = 0; i < BIND_BATCH; i++)
				ops[i] = (struct drm_vaccel_vm_bind_op){
					.op = DRM_VACCEL_VM_BIND_OP_MAP,
					.handle = c.handle,
					.va = (1ull << 32) + (__u64)(t + i) * (2ull << 20),
					.size = 4096,
				};
			bind_or_die(bfd, ops, BIND_BATCH, sc.handle);
		}
		bind_or_die(bfd, &all, 1, sc.handle);
		bd->rounds++;
	}
	close(bfd);
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
	static struct sampler ref, eng, bind;
	struct drm_syncobj_create sc = {};
	struct binder binders[2] = { { .async = 0 }, { .async = 1 } };
	pthread_t spin[2];
	struct pct r, e, b;
	double ratio, bratio;
	int i;

	bench_name = "rt";
	dev_path = argc > 1 ? argv[1] : NULL;
	fd = bench_open_device(dev_path);
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
	if (engines_done(sc.handle)) {
		struct drm_vaccel_context_state st = { .handle = engine_ctx[1] };

		dev_ioctl(DRM_IOCTL_VACCEL_CONTEXT_STATE, &st, "CONTEXT_STATE");
		bench_die("the dispatches ended before the samples did (fault %u at pc 0x%llx, "
			  "ban %u, %llu ms of engine time)", st.fault_reason,
			  (unsigned long long)st.fault_pc, st.ban_reason,
			  (unsigned long long)st.engine_ns / 1000000);
	}
	engines_stop();

	bind_stop = 0;
	for (i = 0; i < 2; i++)
		if (pthread_create(&binders[i].thread, NULL, binder_fn, &binders[i]))
			bench_die("bind thread");
	usleep(200000);
	sample(&bind);
	bind_stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(binders[i].thread, NULL);
	if (!binders[0].rounds || !binders[1].rounds)
		bench_die("a bind load did not finish a round while sampling");

	r = percentiles(ref.late);
	e = percentiles(eng.late);
	b = percentiles(bind.late);
	printf("%-44s %10s %10s %10s\n", "real-time thread, late by", "p50", "p99", "max");
	printf("%-44s %7.1f us %7.1f us %7.1f us\n", "both CPUs busy in user space",
	       r.p50 / 1e3, r.p99 / 1e3, r.max / 1e3);
	printf("%-44s %7.1f us %7.1f us %7.1f us\n", "both compute engines running",
	       e.p50 / 1e3, e.p99 / 1e3, e.max / 1e3);
	printf("%-44s %7.1f us %7.1f us %7.1f us\n", "VMs filled and unmapped whole",
	       b.p50 / 1e3, b.p99 / 1e3, b.max / 1e3);
	printf("# bind rounds while sampling: %lu synchronous, %lu on the paging engine\n",
	       binders[0].rounds, binders[1].rounds);
	ratio = e.p99 / r.p99;
	bratio = b.p99 / r.p99;
	bench_report(&(struct bench_metric){ "wakeup_p99_ratio", ratio, 3, "ratio", "<=",
		TARGET_RATIO });
	bench_report(&(struct bench_metric){ "binds_p99_ratio", bratio, 3, "ratio", "<=",
		TARGET_RATIO });
	bench_report(&(struct bench_metric){ "wakeup_p50_ratio", e.p50 / r.p50, 3, "ratio" });
	bench_report(&(struct bench_metric){ "wakeup_max_reference_us", r.max / 1e3, 1, "us" });
	bench_report(&(struct bench_metric){ "wakeup_max_engines_us", e.max / 1e3, 1, "us" });
	bench_report(&(struct bench_metric){ "wakeup_max_binds_us", b.max / 1e3, 1, "us" });
	close(fd);
	return 0;
}
