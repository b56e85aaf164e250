// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * bench_sched.c - how the engines are shared: preemption latency, fairness
 * within a band, the shares of the bands, and recovery from a hang, each
 * against a reference measured in the same run (the machines are noisy and
 * may be emulated: only ratios mean anything).  Raw ioctls throughout, so
 * that the figures are the kernel's, not libvaccel's.  Every context runs
 * on COMPUTE engine 0, which nothing else uses meanwhile.
 *
 * (1) Preemption latency: a HIGH context submits a buffer whose first
 *     packet is a TIMESTAMP (the engine's clock is CLOCK_MONOTONIC); the
 *     latency is that timestamp minus clock_gettime() just before SUBMIT.
 *     Measured on an idle engine, then while a LOW context keeps the engine
 *     busy with long DELAYs, then with long FILLs (the engine thread busy
 *     on a CPU), then with DISPATCHes of SPIN_GROUPS workgroups (every
 *     compute unit busy, with workgroups in flight to save at the
 *     instruction granularity), LAT_SAMPLES times each after LAT_WARMUP.  The reference,
 *     interleaved with the samples under the same load: the wake-up of a
 *     thread asleep on a futex, from just before FUTEX_WAKE to the woken
 *     thread's clock_gettime().  Targets under load: p99 < 1 ms and p99 at
 *     most 10 times the wake-up's p99.  LOW's preemption counter tells how
 *     many samples did preempt it.  For scale, the table also shows by how
 *     much the 1 to 3 ms nanosleeps between samples overshoot: under
 *     emulation on a busy host, stalls of milliseconds are the machine's.
 * (2) Fairness: 2, 4 and 8 NORMAL contexts, each with a backlog of 25 ms
 *     DELAY buffers; the engine time each gets (CONTEXT_STATE.engine_ns) in
 *     a window of at least 40 rounds of time slices, all of them still
 *     backlogged at its end; Jain's index J = (sum x)^2 / (n sum x^2).
 *     Target J >= 0.99.
 * (3) Bands: one backlogged context per band (LOW, NORMAL, HIGH, REALTIME)
 *     for BAND_WINDOW_NS; each band's share of the engine time.  Expected:
 *     REALTIME nearly all of it, and the starvation guard's one slice in
 *     101 (about 1 %) for each lower band.  Targets: REALTIME >= 95 %, each
 *     lower band within 0.5 % to 2 %.
 * (4) Recovery: a NORMAL context's buffer is a TIMESTAMP (the hang's start
 *     on the engine) then a WAIT_MEM that is never satisfied; once it has
 *     started, an innocent context submits a 2 ms DELAY.  From the hang's
 *     start to (a) the hung buffer's fence signalled with -ETIMEDOUT and
 *     (b) the innocent buffer's fence signalled, both seen by poll() on
 *     sync_files, as ratios to the hang timeout (module parameter
 *     timeout_ms).  Two cases: the innocent context in the LOW band, whose
 *     buffer waits in the HW queue behind the hang until the reset, and in
 *     the NORMAL band, which takes its turn after one time slice.  Target
 *     for both (a) and (b): within the timeout plus one time slice
 *     (timeslice_ms).  Three hangs in 30 s on one device escalate to a
 *     device reset, so the samples go two per device over every vaccel
 *     device (scripts/guest/bench.sh loads three).
 *
 * Output: tables, then
 *	bench.sched.preempt_{delay,fill,dispatch}_p99_us <x> PASS|FAIL
 *	bench.sched.preempt_{delay,fill,dispatch}_p99_ratio <x> PASS|FAIL
 *	bench.sched.jain_{2,4,8} <x> PASS|FAIL
 *	bench.sched.band_{realtime,high,normal,low}_pct <x> PASS|FAIL
 *	bench.sched.recovery_{lower,same}_{hang,innocent}_ratio <x> PASS|FAIL
 * (the recovery ratios are the worst sample's).  Exits 0 once measured
 * (whatever the verdicts), 1 with a `not ok` line if it could not measure.
 *
 *	bench_sched [DEVICE]	(default: the first vaccel node for (1) to (3),
 *				 every vaccel node for (4))
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <pthread.h>
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

#define PAGE		4096ull
#define MIB		(1024ull * 1024)
#define MS		1000000ull	/* ns */

/* (1) preemption latency */
#define LAT_WARMUP		20
#define LAT_SAMPLES		500
#define LOW_DELAY_NS		(100 * MS)	/* a LOW buffer of the DELAY load */
#define FILL_SIZE		(8 * MIB)	/* what one FILL of the FILL load covers */
#define FILL_PKTS		8		/* FILLs in a LOW buffer of the FILL load */
#define LOW_OUTSTANDING		3		/* LOW buffers kept submitted */
#define SPIN_GROUPS		64		/* workgroups of the DISPATCH load */
#define SPIN_ITERS		100000		/* loop steps of each */
#define LAT_P99_TARGET_US	1000.0
#define LAT_RATIO_TARGET	10.0

/* (2) fairness */
#define FAIR_JOB_NS		(25 * MS)
#define FAIR_ROUNDS		40
#define FAIR_MIN_WINDOW_NS	(1000 * MS)
#define JAIN_TARGET		0.99

/* (3) bands */
#define BAND_JOB_NS		(50 * MS)
#define BAND_WINDOW_NS		(4000 * MS)
#define RT_PCT_TARGET		95.0
#define LOWER_PCT_MIN		0.5
#define LOWER_PCT_MAX		2.0

/* (2) and (3): time for every context to have started before the window */
#define WARMUP_NS		(200 * MS)

/* (4) recovery */
#define HANGS_PER_DEVICE	2	/* a third within 30 s resets the device */
#define MAX_HANGS		6
#define INNOCENT_DELAY_NS	(2 * MS)
#define MAX_DEVICES		8

/* Offsets in a data BO. */
#define TS_OFF			0	/* the HIGH buffer's timestamp */
#define HANG_TS_OFF		64	/* the hang's start */
#define NEVER_OFF		256	/* a word that stays 0 */
#define SPIN_ARGS_OFF		512	/* the DISPATCH load's argument block */
#define SPIN_CODE_OFF		1024	/* its kernel */

static const char *const band_names[] = { "LOW", "NORMAL", "HIGH", "REALTIME" };
static const char *const band_keys[] = { "low", "normal", "high", "realtime" };

/* --- the device: BOs, DMA buffers, contexts, syncobjs --- */

struct dev {
	int fd;
	struct drm_vaccel_device_info info;
	__u64 next_va;
	char path[32];
};

/* A BO mapped for the CPU and at @va in the device's VM. */
struct bo {
	__u32 handle;
	__u64 size;
	__u64 va;
	unsigned char *cpu;
};

/* DMA buffers recorded one after the other into a BO. */
struct cmd {
	struct bo bo;
	__u64 pos;
};

/* A recorded DMA buffer. */
struct buf {
	__u64 va;
	__u64 size;
};

static __u64 slice_ns, timeout_ns;

static void query(struct dev *d, __u32 type, void *data, __u32 *size)
{
	struct drm_vaccel_query q = {
		.type = type,
		.size = *size,
		.data = (__u64)(uintptr_t)data,
	};

	if (ioctl(d->fd, DRM_IOCTL_VACCEL_QUERY, &q))
		bench_die("%s: QUERY %u: %s", d->path, type, strerror(errno));
	*size = q.size;
}

static void dev_init(struct dev *d, int fd, const char *path)
{
	__u32 size = sizeof(d->info);

	memset(d, 0, sizeof(*d));
	d->fd = fd;
	snprintf(d->path, sizeof(d->path), "%s", path);
	query(d, DRM_VACCEL_QUERY_DEVICE, &d->info, &size);
	if (d->info.uapi_major != 1 || d->info.uapi_minor < 3)
		bench_die("%s: uapi %u.%u, CONTEXT_STATE's engine time needs 1.3", path,
		    d->info.uapi_major, d->info.uapi_minor);
	d->next_va = (d->info.va_start + PAGE - 1) & ~(PAGE - 1);
}

/* The preemption granularity of COMPUTE engine 0, or -1. */
static int compute0_granularity(struct dev *d)
{
	struct drm_vaccel_engine_list *l;
	__u32 size = 0, i;
	int g = -1;

	query(d, DRM_VACCEL_QUERY_ENGINES, NULL, &size);
	l = calloc(1, size);
	if (!l)
		bench_die("out of memory");
	query(d, DRM_VACCEL_QUERY_ENGINES, l, &size);
	for (i = 0; i < l->count; i++) {
		struct drm_vaccel_engine_info *e =
			(void *)((char *)l->engines + (size_t)i * l->entry_size);

		if (e->engine_class == DRM_VACCEL_ENGINE_CLASS_COMPUTE && !e->instance)
			g = e->preempt_granularity;
	}
	free(l);
	return g;
}

static struct bo bo_new(struct dev *d, __u64 size)
{
	struct drm_vaccel_bo_create c = { .size = size };
	struct drm_vaccel_bo_mmap_offset mo = { 0 };
	struct drm_vaccel_vm_bind_op op = { .op = DRM_VACCEL_VM_BIND_OP_MAP };
	struct drm_vaccel_vm_bind b = { .ops = DRM_VACCEL_OBJ_ARRAY(1, &op) };
	struct bo bo;
	void *p;

	if (ioctl(d->fd, DRM_IOCTL_VACCEL_BO_CREATE, &c))
		bench_die("BO_CREATE %llu: %s", (unsigned long long)size, strerror(errno));
	mo.handle = c.handle;
	if (ioctl(d->fd, DRM_IOCTL_VACCEL_BO_MMAP_OFFSET, &mo))
		bench_die("BO_MMAP_OFFSET: %s", strerror(errno));
	p = mmap(NULL, c.size, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd, mo.offset);
	if (p == MAP_FAILED)
		bench_die("mmap: %s", strerror(errno));
	bo.handle = c.handle;
	bo.size = c.size;
	bo.cpu = p;
	bo.va = d->next_va;
	d->next_va += c.size + 16 * PAGE;	/* an unmapped guard after each */
	op.handle = c.handle;
	op.va = bo.va;
	op.size = c.size;
	if (ioctl(d->fd, DRM_IOCTL_VACCEL_VM_BIND, &b))
		bench_die("VM_BIND: %s", strerror(errno));
	return bo;
}

static volatile __u64 *u64_at(struct bo *bo, __u64 off)
{
	return (volatile __u64 *)(bo->cpu + off);
}

static void emit(struct cmd *c, __u64 w)
{
	if (c->pos + 8 > c->bo.size)
		bench_die("command BO full");
	*u64_at(&c->bo, c->pos) = w;
	c->pos += 8;
}

/* The buffer recorded since @start. */
static struct buf recorded(struct cmd *c, __u64 start)
{
	struct buf b = { .va = c->bo.va + start, .size = c->pos - start };

	return b;
}

static void pkt_timestamp(struct cmd *c, __u64 va)
{
	emit(c, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_TIMESTAMP, 0, 2));
	emit(c, va);
}

static void pkt_delay(struct cmd *c, __u64 ns)
{
	emit(c, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_DELAY, 0, 2));
	emit(c, ns);
}

static void pkt_fill(struct cmd *c, __u64 dst, __u64 size, __u32 value)
{
	emit(c, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_FILL, 0, 4));
	emit(c, dst);
	emit(c, size);
	emit(c, value);
}

/* WAIT_MEM until the 32-bit word at @va equals @value. */
static void pkt_wait_eq32(struct cmd *c, __u64 va, __u32 value)
{
	emit(c, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_WAIT_MEM,
				      DRM_VACCEL_PKT_WAIT_OP(DRM_VACCEL_WAIT_EQ), 4));
	emit(c, va);
	emit(c, value);
	emit(c, 0xffffffffull);
}

/*
 * DISPATCH of the kernel at @entry, arguments at @args: SPIN_GROUPS
 * workgroups of one work-item, 64 bytes of stack each.
 */
static void pkt_dispatch_spin(struct cmd *c, __u64 entry, __u64 args)
{
	emit(c, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_DISPATCH, 0, 11));
	emit(c, entry);
	emit(c, args);
	emit(c, SPIN_GROUPS);
	emit(c, 1);
	emit(c, 1);
	emit(c, 1);
	emit(c, 1);
	emit(c, 1);
	emit(c, 0);
	emit(c, 64);
}

/* The spin kernel: ld a4, 0(a0); 1: addi a4, a4, -1; bnez a4, 1b; ret. */
static const __u32 spin_code[] = {
	0x00053703, 0xfff70713, 0xfe071ee3, 0x00008067,
};

static struct buf buf_delay(struct cmd *c, __u64 ns)
{
	__u64 start = c->pos;

	pkt_delay(c, ns);
	return recorded(c, start);
}

/* A context of @priority on COMPUTE engine 0. */
static __u32 ctx_new(struct dev *d, __u32 priority)
{
	struct drm_vaccel_context_create cc = {
		.engine_class = DRM_VACCEL_ENGINE_CLASS_COMPUTE,
		.engine_instance = 0,
		.priority = priority,
	};

	if (ioctl(d->fd, DRM_IOCTL_VACCEL_CONTEXT_CREATE, &cc))
		bench_die("CONTEXT_CREATE %s: %s%s", band_names[priority], strerror(errno),
		    errno == EPERM ? " (HIGH and REALTIME need CAP_SYS_NICE)" : "");
	return cc.handle;
}

static void ctx_destroy(struct dev *d, __u32 ctx)
{
	struct drm_vaccel_context_destroy c = { .handle = ctx };

	if (ioctl(d->fd, DRM_IOCTL_VACCEL_CONTEXT_DESTROY, &c))
		bench_die("CONTEXT_DESTROY: %s", strerror(errno));
}

static struct drm_vaccel_context_state ctx_state(struct dev *d, __u32 ctx)
{
	struct drm_vaccel_context_state s;

	memset(&s, 0, sizeof(s));
	s.handle = ctx;
	if (ioctl(d->fd, DRM_IOCTL_VACCEL_CONTEXT_STATE, &s))
		bench_die("CONTEXT_STATE: %s", strerror(errno));
	return s;
}

static __u32 syncobj_new(struct dev *d)
{
	struct drm_syncobj_create sc = { 0 };

	if (ioctl(d->fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc))
		bench_die("SYNCOBJ_CREATE: %s", strerror(errno));
	return sc.handle;
}

static void syncobj_destroy(struct dev *d, __u32 h)
{
	struct drm_syncobj_destroy sd = { .handle = h };

	if (ioctl(d->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &sd))
		bench_die("SYNCOBJ_DESTROY: %s", strerror(errno));
}

/* SUBMIT of @b on @ctx, its fence into binary syncobj @out unless 0. */
static void submit(struct dev *d, __u32 ctx, struct buf b, __u32 out)
{
	struct drm_vaccel_sync s = { .handle = out };
	struct drm_vaccel_submit args = {
		.context = ctx,
		.buffer_va = b.va,
		.buffer_size = b.size,
		.signals = DRM_VACCEL_OBJ_ARRAY(out ? 1 : 0, &s),
	};

	if (ioctl(d->fd, DRM_IOCTL_VACCEL_SUBMIT, &args))
		bench_die("SUBMIT: %s", strerror(errno));
}

/* Waits for binary syncobj @h, at most 10 s. */
static void syncobj_wait(struct dev *d, __u32 h)
{
	struct drm_syncobj_wait w = {
		.handles = (__u64)(uintptr_t)&h,
		.timeout_nsec = (__s64)(bench_now_ns() + 10000 * MS),
		.count_handles = 1,
		.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
	};

	while (ioctl(d->fd, DRM_IOCTL_SYNCOBJ_WAIT, &w))
		if (errno != EINTR)
			bench_die("SYNCOBJ_WAIT: %s", strerror(errno));
}

/* A sync_file of the fence in binary syncobj @h. */
static int sync_file_of(struct dev *d, __u32 h)
{
	struct drm_syncobj_handle a = {
		.handle = h,
		.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
		.fd = -1,
	};

	if (ioctl(d->fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &a))
		bench_die("SYNCOBJ_HANDLE_TO_FD: %s", strerror(errno));
	return a.fd;
}

/* dma_fence_get_status() of a sync_file: 0 pending, 1 signalled, -errno. */
static int sync_file_status(int sfd)
{
	struct sync_file_info info;

	memset(&info, 0, sizeof(info));
	if (ioctl(sfd, SYNC_IOC_FILE_INFO, &info))
		bench_die("SYNC_IOC_FILE_INFO: %s", strerror(errno));
	return info.status;
}

static __u64 read_param(const char *name)
{
	char path[128];
	unsigned long long v;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/vaccel/parameters/%s", name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%llu", &v) != 1)
		bench_die("cannot read %s", path);
	fclose(f);
	return v;
}

/* --- statistics and time --- */

static void sleep_ns(__u64 ns)
{
	struct timespec ts = { ns / 1000000000ull, ns % 1000000000ull };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Sleeps 1 to 3 ms, so that samples do not fall in step with the engine.
 * Return: by how much the sleep overshot, in ns: what the machine adds to
 * a timer's wake-up, for the reader of the figures.
 */
static __u64 nap(void)
{
	static __u32 x = 2463534242u;
	__u64 t0, ns;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	ns = 1 * MS + x % (2 * MS);
	t0 = bench_now_ns();
	sleep_ns(ns);
	return bench_now_ns() - t0 - ns;
}

/* --- (1) preemption latency --- */

/* The reference: a thread asleep on a futex, woken. */
static int wake_go;		/* 1: wake up; 2: exit */
static int wake_done;
static __u64 wake_seen;

static void futex_wait(int *addr, int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(int *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *sleeper_thread(void *unused)
{
	int go;

	for (;;) {
		while (!(go = __atomic_load_n(&wake_go, __ATOMIC_ACQUIRE)))
			futex_wait(&wake_go, 0);
		if (go == 2)
			return NULL;
		wake_seen = bench_now_ns();
		__atomic_store_n(&wake_go, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&wake_done, 1, __ATOMIC_RELEASE);
		futex_wake(&wake_done);
	}
}

/* One wake-up of the sleeping thread, in ns. */
static __u64 wake_sample(void)
{
	__u64 t0;

	t0 = bench_now_ns();
	__atomic_store_n(&wake_go, 1, __ATOMIC_RELEASE);
	futex_wake(&wake_go);
	while (!__atomic_load_n(&wake_done, __ATOMIC_ACQUIRE))
		futex_wait(&wake_done, 0);
	__atomic_store_n(&wake_done, 0, __ATOMIC_RELAXED);
	return wake_seen - t0;
}

struct lat_result {
	double p50, p99;		/* HIGH: SUBMIT to its first packet, ns */
	double ref50, ref99;		/* the futex wake-up, ns */
	double nap50, nap99;		/* a nanosleep's overshoot, ns */
	unsigned int preempted;		/* samples that preempted LOW */
};

/* Keeps LOW_OUTSTANDING buffers of @load submitted on @low. */
static void low_top_up(struct dev *d, __u32 low, struct buf load)
{
	struct drm_vaccel_context_state s = ctx_state(d, low);
	__u64 n;

	for (n = s.jobs_submitted - s.jobs_completed; n < LOW_OUTSTANDING; n++)
		submit(d, low, load, 0);
}

/*
 * LAT_SAMPLES HIGH buffers, each a TIMESTAMP first, while a LOW context
 * runs @load (none if its size is 0), interleaved with futex wake-ups.
 */
static void latency(struct dev *d, struct bo *data, struct buf ts_buf,
		    struct buf load, struct lat_result *r)
{
	static __u64 lat[LAT_SAMPLES], ref[LAT_SAMPLES], over[LAT_SAMPLES];
	volatile __u64 *ts = u64_at(data, TS_OFF);
	__u32 high, low = 0, out;
	__u64 pre = 0, t0, w, o, t;
	unsigned int i;

	high = ctx_new(d, DRM_VACCEL_PRIORITY_HIGH);
	out = syncobj_new(d);
	if (load.size) {
		low = ctx_new(d, DRM_VACCEL_PRIORITY_LOW);
		low_top_up(d, low, load);
	}
	r->preempted = 0;
	for (i = 0; i < LAT_WARMUP + LAT_SAMPLES; i++) {
		nap();
		w = wake_sample();
		o = nap();
		if (low)
			pre = ctx_state(d, low).preemptions;
		*ts = 0;
		t0 = bench_now_ns();
		submit(d, high, ts_buf, out);
		syncobj_wait(d, out);
		t = *ts;
		if (!t || t < t0)
			bench_die("timestamp %llu, submitted at %llu", (unsigned long long)t,
			    (unsigned long long)t0);
		if (low)
			low_top_up(d, low, load);
		if (i < LAT_WARMUP)
			continue;
		lat[i - LAT_WARMUP] = t - t0;
		ref[i - LAT_WARMUP] = w;
		over[i - LAT_WARMUP] = o;
		if (low && ctx_state(d, low).preemptions > pre)
			r->preempted++;
	}
	if (low)
		ctx_destroy(d, low);
	ctx_destroy(d, high);
	syncobj_destroy(d, out);
	r->p50 = bench_percentile(lat, LAT_SAMPLES, 50);
	r->p99 = bench_percentile(lat, LAT_SAMPLES, 99);
	r->ref50 = bench_percentile(ref, LAT_SAMPLES, 50);
	r->ref99 = bench_percentile(ref, LAT_SAMPLES, 99);
	r->nap50 = bench_percentile(over, LAT_SAMPLES, 50);
	r->nap99 = bench_percentile(over, LAT_SAMPLES, 99);
}

/* --- (2) and (3): engine time of backlogged contexts in a window --- */

/*
 * Contexts of the given priorities, each with @jobs buffers @job: their
 * engine time in a window of @window_ns after WARMUP_NS, into @x.
 */
static void engine_shares(struct dev *d, const __u32 *prio, unsigned int n,
			  struct buf job, unsigned int jobs, __u64 window_ns,
			  double *x, double *wall_ns)
{
	struct drm_vaccel_context_state s0[8], s1[8];
	__u32 ctx[8];
	unsigned int i, j;
	__u64 t0, t1;

	for (i = 0; i < n; i++)
		ctx[i] = ctx_new(d, prio[i]);
	for (j = 0; j < jobs; j++)
		for (i = 0; i < n; i++)
			submit(d, ctx[i], job, 0);
	sleep_ns(WARMUP_NS);
	t0 = bench_now_ns();
	for (i = 0; i < n; i++)
		s0[i] = ctx_state(d, ctx[i]);
	sleep_ns(window_ns);
	for (i = 0; i < n; i++)
		s1[i] = ctx_state(d, ctx[i]);
	t1 = bench_now_ns();
	for (i = 0; i < n; i++) {
		if (s1[i].jobs_completed >= s1[i].jobs_submitted)
			bench_die("context %u of %u ran out of work before the end of the window",
			    i, n);
		if (s1[i].flags)
			bench_die("context %u: flags 0x%x", i, s1[i].flags);
		x[i] = (double)(s1[i].engine_ns - s0[i].engine_ns);
	}
	for (i = 0; i < n; i++)
		ctx_destroy(d, ctx[i]);
	*wall_ns = (double)(t1 - t0);
}

struct fair_result {
	double jain, min, max;		/* min and max: x_i / mean */
	double busy;			/* engine time / wall time */
	double window_s;
};

static void fairness(struct dev *d, struct buf job, unsigned int n,
		     struct fair_result *r)
{
	static const __u32 normal[8] = {
		DRM_VACCEL_PRIORITY_NORMAL, DRM_VACCEL_PRIORITY_NORMAL,
		DRM_VACCEL_PRIORITY_NORMAL, DRM_VACCEL_PRIORITY_NORMAL,
		DRM_VACCEL_PRIORITY_NORMAL, DRM_VACCEL_PRIORITY_NORMAL,
		DRM_VACCEL_PRIORITY_NORMAL, DRM_VACCEL_PRIORITY_NORMAL,
	};
	__u64 window = FAIR_ROUNDS * n * slice_ns;
	double x[8], sum = 0, sq = 0, wall;
	unsigned int i, jobs;

	if (window < FAIR_MIN_WINDOW_NS)
		window = FAIR_MIN_WINDOW_NS;
	/* Half as much again as each context's share of warm-up and window. */
	jobs = (unsigned int)((WARMUP_NS + window) * 3 / 2 / n / FAIR_JOB_NS) + 4;
	engine_shares(d, normal, n, job, jobs, window, x, &wall);
	for (i = 0; i < n; i++) {
		sum += x[i];
		sq += x[i] * x[i];
	}
	r->jain = sum * sum / (n * sq);
	r->min = r->max = x[0];
	for (i = 1; i < n; i++) {
		if (x[i] < r->min)
			r->min = x[i];
		if (x[i] > r->max)
			r->max = x[i];
	}
	r->min /= sum / n;
	r->max /= sum / n;
	r->busy = sum / wall;
	r->window_s = wall / 1e9;
}

/* --- (4) recovery --- */

struct rec_sample {
	double hang_ns, innocent_ns;	/* from the hang's start */
	int hang_status, innocent_status;
	__u32 ban_reason, guilty, innocent_resets;
	unsigned int device;
};

/*
 * A hang on COMPUTE engine 0 of @d while an innocent context of
 * @innocent_prio submits a short buffer.
 */
static void recovery(struct dev *d, struct bo *data, struct buf hang_buf,
		     struct buf innocent_buf, __u32 innocent_prio,
		     struct rec_sample *r)
{
	volatile __u64 *hang_ts = u64_at(data, HANG_TS_OFF);
	struct drm_vaccel_context_state hs, is;
	__u64 start, deadline, now, done[2] = { 0, 0 };
	struct pollfd p[2];
	__u32 hang, inn, hs_out, is_out;
	unsigned int i;

	*hang_ts = 0;
	hang = ctx_new(d, DRM_VACCEL_PRIORITY_NORMAL);
	inn = ctx_new(d, innocent_prio);
	hs_out = syncobj_new(d);
	is_out = syncobj_new(d);

	submit(d, hang, hang_buf, hs_out);
	deadline = bench_now_ns() + 5000 * MS;
	while (!(start = *hang_ts)) {
		if (bench_now_ns() > deadline)
			bench_die("%s: the hanging buffer did not start", d->path);
		usleep(100);
	}
	submit(d, inn, innocent_buf, is_out);
	p[0].fd = sync_file_of(d, hs_out);
	p[1].fd = sync_file_of(d, is_out);

	deadline = start + 3 * timeout_ns + 10000 * MS;
	while (!done[0] || !done[1]) {
		int ms;

		now = bench_now_ns();
		if (now > deadline)
			bench_die("%s: %s fence not signalled %.1f s after the hang's start",
			    d->path, done[0] ? "the innocent buffer's" : "the hung buffer's",
			    (now - start) / 1e9);
		ms = (int)((deadline - now) / MS) + 1;
		for (i = 0; i < 2; i++) {
			p[i].events = done[i] ? 0 : POLLIN;
			p[i].revents = 0;
		}
		if (poll(p, 2, ms) < 0 && errno != EINTR)
			bench_die("poll: %s", strerror(errno));
		now = bench_now_ns();
		for (i = 0; i < 2; i++)
			if (!done[i] && (p[i].revents & POLLIN))
				done[i] = now;
	}
	r->hang_ns = (double)(done[0] - start);
	r->innocent_ns = (double)(done[1] - start);
	r->hang_status = sync_file_status(p[0].fd);
	r->innocent_status = sync_file_status(p[1].fd);
	hs = ctx_state(d, hang);
	is = ctx_state(d, inn);
	r->ban_reason = hs.ban_reason;
	r->guilty = hs.guilty_resets;
	r->innocent_resets = is.innocent_resets;
	if (is.flags)
		r->innocent_status = -1000;	/* the innocent context was banned */
	close(p[0].fd);
	close(p[1].fd);
	ctx_destroy(d, hang);
	ctx_destroy(d, inn);
	syncobj_destroy(d, hs_out);
	syncobj_destroy(d, is_out);
}

/* Every vaccel node, or @path alone; returns how many were opened. */
static unsigned int open_devices(const char *path, struct dev *devs)
{
	char node[32];
	unsigned int n = 0, i;
	int f;

	if (path) {
		f = bench_open_device(path);
		if (f < 0)
			bench_die("%s: %s", path, strerror(errno));
		dev_init(&devs[0], f, path);
		return 1;
	}
	for (i = 0; i < 64 && n < MAX_DEVICES; i++) {
		snprintf(node, sizeof(node), "/dev/accel/accel%u", i);
		f = bench_open_vaccel(node);
		if (f >= 0)
			dev_init(&devs[n++], f, node);
	}
	if (!n)
		bench_die("no vaccel device");
	return n;
}

/* --- main --- */

static void print_lat(const char *what, const struct lat_result *r, int load)
{
	printf("%-28s %8.1f %8.1f  %8.1f %8.1f  %6.2f %6.2f  %8.1f %8.1f", what,
	       r->p50 / 1e3, r->p99 / 1e3, r->ref50 / 1e3, r->ref99 / 1e3,
	       r->p50 / r->ref50, r->p99 / r->ref99, r->nap50 / 1e3, r->nap99 / 1e3);
	if (load)
		printf("  %u/%u", r->preempted, LAT_SAMPLES);
	printf("\n");
}

int main(int argc, char **argv)
{
	static const unsigned int fair_n[] = { 2, 4, 8 };
	static const __u32 bands[4] = {
		DRM_VACCEL_PRIORITY_LOW, DRM_VACCEL_PRIORITY_NORMAL,
		DRM_VACCEL_PRIORITY_HIGH, DRM_VACCEL_PRIORITY_REALTIME,
	};
	static struct dev devs[MAX_DEVICES];
	struct lat_result idle, dly, fil, spn;
	struct fair_result fair[3];
	struct rec_sample rec[MAX_HANGS];
	double share[4], band_wall, band_sum = 0, band_pct[4];
	double worst[2][2] = { { 0, 0 }, { 0, 0 } };
	int rec_ok[2] = { 1, 1 }, rec_n[2] = { 0, 0 };
	unsigned int ndev, nhang, i, k;
	struct buf ts_buf, none = { 0, 0 }, low_delay, low_fill, low_spin, fair_job, band_job;
	struct buf hang_buf, innocent_buf;
	struct bo data, target;
	struct cmd c;
	pthread_t sleeper;
	struct dev *d;
	char key[64];
	__u64 start;
	int gran;

	bench_name = "sched";
	setvbuf(stdout, NULL, _IOLBF, 0);

	ndev = open_devices(argc > 1 ? argv[1] : NULL, devs);
	d = &devs[0];
	slice_ns = read_param("timeslice_ms") * MS;
	timeout_ns = read_param("timeout_ms") * MS;
	gran = compute0_granularity(d);

	data = bo_new(d, PAGE);
	target = bo_new(d, FILL_SIZE);
	c.bo = bo_new(d, 64 * 1024);
	c.pos = 0;

	start = c.pos;
	pkt_timestamp(&c, data.va + TS_OFF);
	ts_buf = recorded(&c, start);
	low_delay = buf_delay(&c, LOW_DELAY_NS);
	start = c.pos;
	for (i = 0; i < FILL_PKTS; i++)
		pkt_fill(&c, target.va, FILL_SIZE, 0x5a5a0000 + i);
	low_fill = recorded(&c, start);
	/* The code and its argument (the loop's steps) at the start of data. */
	memcpy(data.cpu + SPIN_CODE_OFF, spin_code, sizeof(spin_code));
	*u64_at(&data, SPIN_ARGS_OFF) = SPIN_ITERS;
	start = c.pos;
	pkt_dispatch_spin(&c, data.va + SPIN_CODE_OFF, data.va + SPIN_ARGS_OFF);
	low_spin = recorded(&c, start);
	fair_job = buf_delay(&c, FAIR_JOB_NS);
	band_job = buf_delay(&c, BAND_JOB_NS);

	printf("%s, COMPUTE engine 0: preemption granularity %d, time slice %llu ms, "
	       "hang timeout %llu ms\n", d->path, gran, (unsigned long long)(slice_ns / MS),
	       (unsigned long long)(timeout_ns / MS));

	/* (1) */
	if (pthread_create(&sleeper, NULL, sleeper_thread, NULL))
		bench_die("pthread_create");
	latency(d, &data, ts_buf, none, &idle);
	latency(d, &data, ts_buf, low_delay, &dly);
	latency(d, &data, ts_buf, low_fill, &fil);
	latency(d, &data, ts_buf, low_spin, &spn);
	__atomic_store_n(&wake_go, 2, __ATOMIC_RELEASE);
	futex_wake(&wake_go);
	pthread_join(sleeper, NULL);

	printf("\n(1) preemption latency: HIGH SUBMIT to its first packet (TIMESTAMP), "
	       "against a futex wake-up\n    under the same load, %u samples after %u of "
	       "warm-up; for scale, what the machine adds to\n    a 1 to 3 ms nanosleep\n",
	       LAT_SAMPLES, LAT_WARMUP);
	printf("%-28s %17s  %17s  %13s  %17s  %s\n", "", "HIGH to 1st packet",
	       "futex wake-up", "ratio", "sleep overshoot", "LOW");
	printf("%-28s %8s %8s  %8s %8s  %6s %6s  %8s %8s  %s\n", "", "p50 us", "p99 us",
	       "p50 us", "p99 us", "p50", "p99", "p50 us", "p99 us", "preempted");
	print_lat("on an idle engine", &idle, 0);
	print_lat("over LOW 100 ms DELAYs", &dly, 1);
	print_lat("over LOW 8 MiB FILLs", &fil, 1);
	print_lat("over LOW DISPATCHes, units", &spn, 1);

	/* (2) */
	for (k = 0; k < 3; k++)
		fairness(d, fair_job, fair_n[k], &fair[k]);
	printf("\n(2) fairness: n NORMAL contexts with 25 ms DELAY buffers, engine time "
	       "of each in the window\n");
	printf("%-4s %9s %9s %9s %9s %9s\n", "n", "window s", "engine %", "min/mean",
	       "max/mean", "Jain");
	for (k = 0; k < 3; k++)
		printf("%-4u %9.2f %9.1f %9.3f %9.3f %9.4f\n", fair_n[k], fair[k].window_s,
		       fair[k].busy * 100, fair[k].min, fair[k].max, fair[k].jain);

	/* (3) */
	engine_shares(d, bands, 4, band_job, (unsigned int)((WARMUP_NS + BAND_WINDOW_NS) *
		      5 / 4 / BAND_JOB_NS) + 4, BAND_WINDOW_NS, share, &band_wall);
	for (i = 0; i < 4; i++)
		band_sum += share[i];
	for (i = 0; i < 4; i++)
		band_pct[i] = share[i] * 100 / band_sum;
	printf("\n(3) bands: one context per band, all backlogged with 50 ms DELAY buffers, "
	       "%.2f s; the starvation guard's share is 1/101 = 0.99 %%\n", band_wall / 1e9);
	printf("%-10s %12s %9s\n", "band", "engine ms", "share %");
	for (i = 4; i-- > 0;)
		printf("%-10s %12.1f %9.2f\n", band_names[i], share[i] / 1e6, band_pct[i]);
	printf("%-10s %12.1f %9.1f of the wall time\n", "all", band_sum / 1e6,
	       band_sum * 100 / band_wall);

	/* (4) */
	nhang = ndev * HANGS_PER_DEVICE;
	if (nhang > MAX_HANGS)
		nhang = MAX_HANGS;
	for (k = 0; k < nhang; k++) {
		struct dev *hd = &devs[k / HANGS_PER_DEVICE];
		struct bo hdata = bo_new(hd, PAGE);
		struct cmd hc = { .bo = bo_new(hd, PAGE), .pos = 0 };

		pkt_timestamp(&hc, hdata.va + HANG_TS_OFF);
		pkt_wait_eq32(&hc, hdata.va + NEVER_OFF, 1);
		hang_buf = recorded(&hc, 0);
		innocent_buf = buf_delay(&hc, INNOCENT_DELAY_NS);
		recovery(hd, &hdata, hang_buf, innocent_buf, k % 2 ? DRM_VACCEL_PRIORITY_NORMAL :
			 DRM_VACCEL_PRIORITY_LOW, &rec[k]);
		rec[k].device = k / HANGS_PER_DEVICE;
	}
	printf("\n(4) recovery: a hang (WAIT_MEM never satisfied) on a NORMAL context while "
	       "an innocent context\n    submits a 2 ms DELAY; from the hang's start, as "
	       "ratios to the timeout (%llu ms);\n    target for both: the timeout plus one "
	       "time slice, %.4f\n", (unsigned long long)(timeout_ns / MS),
	       1.0 + (double)slice_ns / timeout_ns);
	printf("%-8s %3s %11s %7s %11s %7s %8s %8s %4s %6s %9s\n", "innocent", "dev",
	       "(a) hung", "ratio", "(b) innoc.", "ratio", "hung st.", "inn. st.", "ban",
	       "guilty", "innocent");
	for (k = 0; k < nhang; k++) {
		struct rec_sample *r = &rec[k];
		int same = k % 2;
		int ok = r->hang_status == -ETIMEDOUT && r->innocent_status == 1 &&
			 r->ban_reason == DRM_VACCEL_BAN_HANG && r->guilty == 1;

		printf("%-8s %3u %8.1f ms %7.4f %8.1f ms %7.4f %8d %8d %4u %6u %9u%s\n",
		       same ? "NORMAL" : "LOW", r->device, r->hang_ns / 1e6,
		       r->hang_ns / timeout_ns, r->innocent_ns / 1e6, r->innocent_ns / timeout_ns,
		       r->hang_status, r->innocent_status, r->ban_reason, r->guilty,
		       r->innocent_resets, ok ? "" : "  unexpected");
		if (!ok)
			rec_ok[same] = 0;
		rec_n[same]++;
		if (r->hang_ns / timeout_ns > worst[same][0])
			worst[same][0] = r->hang_ns / timeout_ns;
		if (r->innocent_ns / timeout_ns > worst[same][1])
			worst[same][1] = r->innocent_ns / timeout_ns;
	}
	printf("(st.: fence status, -%d is -ETIMEDOUT, 1 success; ban: the hung context's "
	       "ban reason (%d: hang)\n and guilty resets; innocent: the innocent context's "
	       "innocent resets)\n", ETIMEDOUT, DRM_VACCEL_BAN_HANG);

	printf("\n");
	bench_report(&(struct bench_metric){ "preempt_delay_p99_us", dly.p99 / 1e3, 1, "us",
		"<", LAT_P99_TARGET_US });
	bench_report(&(struct bench_metric){ "preempt_delay_p99_ratio", dly.p99 / dly.ref99, 2,
		"ratio", "<=", LAT_RATIO_TARGET });
	bench_report(&(struct bench_metric){ "preempt_fill_p99_us", fil.p99 / 1e3, 1, "us",
		"<", LAT_P99_TARGET_US });
	bench_report(&(struct bench_metric){ "preempt_fill_p99_ratio", fil.p99 / fil.ref99, 2,
		"ratio", "<=", LAT_RATIO_TARGET });
	bench_report(&(struct bench_metric){ "preempt_dispatch_p99_us", spn.p99 / 1e3, 1, "us",
		"<", LAT_P99_TARGET_US });
	bench_report(&(struct bench_metric){ "preempt_dispatch_p99_ratio", spn.p99 / spn.ref99,
		2, "ratio", "<=", LAT_RATIO_TARGET });
	for (k = 0; k < 3; k++) {
		snprintf(key, sizeof(key), "jain_%u", fair_n[k]);
		bench_report(&(struct bench_metric){ key, fair[k].jain, 4, "index", ">=",
			JAIN_TARGET });
	}
	for (i = 4; i-- > 0;) {
		snprintf(key, sizeof(key), "band_%s_pct", band_keys[i]);
		if (i == 3)
			bench_report(&(struct bench_metric){ key, band_pct[i], 2, "pct", ">=",
				RT_PCT_TARGET });
		else
			bench_report(&(struct bench_metric){ key, band_pct[i], 2, "pct", "in",
				LOWER_PCT_MIN, LOWER_PCT_MAX });
	}
	for (k = 0; k < 2; k++) {
		double target_ratio = 1.0 + (double)slice_ns / timeout_ns;
		const char *name = k ? "same" : "lower";

		if (!rec_n[k])
			continue;
		/* An unexpected status or ban fails the figure, whatever its time. */
		snprintf(key, sizeof(key), "recovery_%s_hang_ratio", name);
		bench_report(&(struct bench_metric){ key, worst[k][0], 4, "ratio", "<=",
			target_ratio, .broken = !rec_ok[k] });
		snprintf(key, sizeof(key), "recovery_%s_innocent_ratio", name);
		bench_report(&(struct bench_metric){ key, worst[k][1], 4, "ratio", "<=",
			target_ratio, .broken = !rec_ok[k] });
	}
	for (i = 0; i < ndev; i++)
		close(devs[i].fd);
	return 0;
}
