// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_sched.c - scheduling end to end: priority bands, preemption that
 * resumes long packets where they stopped, time slices shared fairly,
 * hang detection and recovery with bans, engine and device resets from
 * debugfs, and the escalation to a device reset of repeated hangs and of
 * an engine that hangs again before it has recovered.
 *
 * What each case checks is at the case.  Fences are read through
 * sync_files (vt_fence_status()); the counters come from CONTEXT_STATE
 * (preemptions, engine_ns, guilty and innocent resets, ban_reason) and
 * from debugfs arbiter (per-engine preemptions by reason, resets, hangs,
 * device_resets), always as differences, since they count per module
 * load.  Results of FILL and COPY are compared byte for byte with what
 * the CPU computes.
 *
 * Cases need different module loads; the plan names the cases to run in
 * each:
 *
 * - default parameters: params, high_overtakes_low, bands_in_strict_order,
 *   preempted_copy_fill_exact, equal_contexts_share_fairly,
 *   priority_needs_cap_sys_nice, granularity, force_reset_engine,
 *   force_reset_device, debugfs_control_errors,
 *   destroy_behind_completed_buffer, destroy_during_forced_preemption,
 *   destroy_during_reset;
 * - timeout_ms=300: params, hang_detected_and_recovered,
 *   time_off_engine_never_counts (any timeout up to 1 s works);
 * - timeout_ms=300 with no earlier hang: escalation_to_device_reset, or
 *   hang_again_before_recovery;
 * - preempt_granularity=0, or one value per engine: params, granularity.
 *
 * The plan exports what it loaded: VT_TIMEOUT_MS, VT_TIMESLICE_MS and
 * VT_GRANULARITY (the preempt_granularity values); without them the
 * defaults are expected.  Timing assertions are loose ratios, robust on
 * a loaded two-CPU TCG guest.
 *
 * Needs root (CAP_SYS_NICE, debugfs); two COMPUTE engines and a COPY
 * engine (the default topology).
 */
#define _GNU_SOURCE
#include <grp.h>
#include <unistd.h>

#include "vt_exec.h"

#define COMPUTE		DRM_VACCEL_ENGINE_CLASS_COMPUTE
#define COPY		DRM_VACCEL_ENGINE_CLASS_COPY
#define PAGING		DRM_VACCEL_ENGINE_CLASS_PAGING

#define LOW		DRM_VACCEL_PRIORITY_LOW
#define NORMAL		DRM_VACCEL_PRIORITY_NORMAL
#define HIGH		DRM_VACCEL_PRIORITY_HIGH
#define REALTIME	DRM_VACCEL_PRIORITY_REALTIME

#define DEFAULT_TIMEOUT_MS	2000
#define DEFAULT_TIMESLICE_MS	10
#define NOBODY			65534

/* Layout of the fixture's data BO: markers, then timestamps. */
#define MARK(i)		(4ull * (i))		/* 32-bit markers, 0..255 */
#define TS(i)		(1024 + 8ull * (i))	/* 64-bit timestamps, 0..255 */
#define DATA_SIZE	(64 * VT_KIB)

/* An open file, a command BO and a data BO for markers and timestamps. */
struct fx {
	struct vt_dev d;
	struct vt_cmd c;
	struct vt_bo data;
};

static struct fx fx_open(void)
{
	struct fx f;

	f.d = vt_dev_open();
	VT_REQUIRE_ENGINES(&f.d, COMPUTE, 2);
	VT_REQUIRE_ENGINES(&f.d, COPY, 1);
	f.c = vt_cmd_new(&f.d, 256 * VT_KIB);
	f.data = vt_bo_new(&f.d, DATA_SIZE);
	return f;
}

/* Submits the buffer being recorded to @ctx; returns its out-syncobj. */
static __u32 submit_out(struct fx *f, __u32 ctx)
{
	__u32 o = vt_syncobj(f->d.fd);

	vt_submit(f->d.fd, ctx, &f->c, 0, o);
	return o;
}

static __u64 ts(struct fx *f, unsigned int i)
{
	return VT_U64(&f->data, TS(i));
}

static unsigned int engine_of(int fd, __u32 ctx)
{
	return vt_ctx_state(fd, ctx).engine_index;
}

/* Waits until marker @i, written by a buffer that got there, holds @v. */
#define WAIT_MARK(f, i, v)						\
	do {								\
		if (!vt_poll_u32(VT_U32P(&(f)->data, MARK(i)), v, VT_TIMEOUT_MS)) \
			vtest_fail(__FILE__, __LINE__, "marker %u never became 0x%x", \
				   (unsigned int)(i), (unsigned int)(v)); \
	} while (0)

/* Every 32-bit word of [@off, @off + @size) of @b holds @v. */
static void expect_words(struct vt_bo *b, __u64 off, __u64 size, __u32 v, int line)
{
	const __u32 *w = (const __u32 *)(b->cpu + off);
	__u64 i;

	for (i = 0; i < size / 4; i++)
		if (w[i] != v)
			vtest_fail(__FILE__, line, "word at 0x%llx: 0x%x, expected 0x%x",
				   (unsigned long long)(off + 4 * i), w[i], v);
}

#define EXPECT_WORDS(b, off, size, v)	expect_words(b, off, size, v, __LINE__)

/* [@off, @off + @size) of @b equals @want. */
static void expect_bytes(struct vt_bo *b, __u64 off, const void *want, __u64 size,
			 int line)
{
	const unsigned char *p = b->cpu + off, *q = want;
	__u64 i;

	if (!memcmp(p, q, size))
		return;
	for (i = 0; i < size && p[i] == q[i]; i++)
		;
	vtest_fail(__FILE__, line, "byte at 0x%llx: 0x%02x, expected 0x%02x",
		   (unsigned long long)(off + i), p[i], q[i]);
}

#define EXPECT_BYTES(b, off, want, size) expect_bytes(b, off, want, size, __LINE__)

/* The hang timeout in force, which must be short for the hang cases. */
static unsigned int short_timeout_ms(void)
{
	long long ms = vt_param("timeout_ms");

	if (ms > 1000)
		vtest_fail(__FILE__, __LINE__,
			   "needs a short hang timeout (vt_load timeout_ms=300), not %lld ms",
			   ms);
	return ms;
}

/* --- parameters --- */

/*
 * The time slice and the hang timeout are those the plan loaded (by
 * default 10 ms and 2 s), in sysfs and in every engine's arbiter.
 */
VTEST(params)
{
	struct vt_dev d = vt_dev_open();
	long long timeout = vt_env_num("VT_TIMEOUT_MS", DEFAULT_TIMEOUT_MS);
	long long slice = vt_env_num("VT_TIMESLICE_MS", DEFAULT_TIMESLICE_MS);
	struct vt_arbiter a;
	unsigned int i;

	VT_ASSERT_EQ(vt_param("timeout_ms"), timeout);
	VT_ASSERT_EQ(vt_param("timeslice_ms"), slice);
	vt_arbiter_read(d.fd, &a);
	VT_ASSERT_EQ(a.count, d.info.engines_total);
	for (i = 0; i < a.count; i++) {
		VT_ASSERT_EQ(a.e[i].slice_ns, slice * VT_MS);
		VT_ASSERT_EQ(a.e[i].timeout_ns, timeout * VT_MS);
	}
}

/* --- priority --- */

/*
 * A HIGH buffer submitted while a LOW one executes long FILL, COPY and
 * DELAY packets on the same engine overtakes it: HIGH's fence signals
 * while LOW's is still pending, HIGH's timestamp precedes LOW's last one,
 * LOW counts a preemption (as does the arbiter, for priority), and LOW's
 * 32 MiB FILL and COPY are byte-exact afterwards.
 */
VTEST(high_overtakes_low)
{
	const __u64 big = 32 * VT_MIB, fill_value = 0x5eed1e55;
	struct fx f = fx_open();
	struct vt_bo src = vt_bo_new(&f.d, big), dst = vt_bo_new(&f.d, big);
	struct vt_bo fill = vt_bo_new(&f.d, big);
	__u32 low = vt_ctx_create_prio(f.d.fd, COMPUTE, 0, LOW);
	__u32 high = vt_ctx_create_prio(f.d.fd, COMPUTE, 0, HIGH);
	unsigned int e = engine_of(f.d.fd, low);
	struct drm_vaccel_context_state s;
	struct vt_arbiter a0, a1;
	__u32 ol, oh;

	vt_fill_pages(src.cpu, big / VT_PAGE, 1);
	vt_arbiter_read(f.d.fd, &a0);

	vt_pkt_write32(&f.c, f.data.va + MARK(0), 1);
	vt_pkt_fill(&f.c, fill.va, big, fill_value);
	vt_pkt_copy(&f.c, src.va, dst.va, big);
	vt_pkt_delay(&f.c, 300 * VT_MS);
	vt_pkt_timestamp(&f.c, f.data.va + TS(0));
	ol = submit_out(&f, low);
	WAIT_MARK(&f, 0, 1);

	vt_pkt_timestamp(&f.c, f.data.va + TS(1));
	vt_pkt_write32(&f.c, f.data.va + MARK(1), 0x4160);
	oh = submit_out(&f, high);
	VT_ASSERT_EQ(vt_wait_status(f.d.fd, oh), 1);
	if (vt_syncobj_signalled(f.d.fd, ol))
		vtest_fail(__FILE__, __LINE__, "LOW completed before HIGH");
	VT_ASSERT_EQ(VT_U32(&f.data, MARK(1)), 0x4160);

	VT_ASSERT_EQ(vt_wait_status(f.d.fd, ol), 1);
	VT_ASSERT(ts(&f, 1) < ts(&f, 0));
	EXPECT_WORDS(&fill, 0, big, fill_value);
	EXPECT_BYTES(&dst, 0, src.cpu, big);

	s = vt_ctx_state(f.d.fd, low);
	VT_ASSERT(s.preemptions >= 1);
	VT_ASSERT(s.engine_ns >= 300 * VT_MS);
	vt_expect_not_banned(f.d.fd, low);
	vt_expect_not_banned(f.d.fd, high);
	vt_arbiter_read(f.d.fd, &a1);
	VT_ASSERT(a1.e[e].preempt[VT_PREEMPT_PRIORITY] >
		  a0.e[e].preempt[VT_PREEMPT_PRIORITY]);
}

/*
 * Strict bands: while a LOW buffer runs, a NORMAL, a HIGH and a REALTIME
 * buffer are submitted one after the other, each once the previous one
 * has started: each preempts the one before, and they complete in the
 * reverse order, REALTIME first and LOW last.  The REALTIME buffer is
 * never preempted.
 */
VTEST(bands_in_strict_order)
{
	static const __u32 prio[] = { LOW, NORMAL, HIGH, REALTIME };
	struct fx f = fx_open();
	__u32 ctx[4], out[4];
	unsigned int i;

	for (i = 0; i < 4; i++)
		ctx[i] = vt_ctx_create_prio(f.d.fd, COMPUTE, 0, prio[i]);
	for (i = 0; i < 4; i++) {
		vt_pkt_write32(&f.c, f.data.va + MARK(i), 1);
		vt_pkt_delay(&f.c, 200 * VT_MS);
		vt_pkt_timestamp(&f.c, f.data.va + TS(i));
		out[i] = submit_out(&f, ctx[i]);
		WAIT_MARK(&f, i, 1);
	}
	for (i = 0; i < 4; i++)
		VT_ASSERT_EQ(vt_wait_status(f.d.fd, out[i]), 1);
	for (i = 0; i < 3; i++) {
		if (ts(&f, i + 1) >= ts(&f, i))
			vtest_fail(__FILE__, __LINE__,
				   "band %u ended %lld us after band %u", i + 1,
				   (long long)(ts(&f, i + 1) - ts(&f, i)) / 1000, i);
		VT_ASSERT(vt_ctx_state(f.d.fd, ctx[i]).preemptions >= 1);
	}
	VT_ASSERT_EQ(vt_ctx_state(f.d.fd, ctx[3]).preemptions, 0);
	for (i = 0; i < 4; i++)
		vt_expect_not_banned(f.d.fd, ctx[i]);
}

/* --- preemption inside long packets --- */

#define PX_FILL_SIZE	(16 * VT_MIB + 12)	/* FILL: multiple of 4, not of a page */
#define PX_COPY_SIZE	(24 * VT_MIB + 1001)	/* COPY: any size */
#define PX_OVL_SIZE	(16 * VT_MIB + 100)
#define PX_OVL_SHIFT	(12 * VT_KIB + 8)	/* an overlapping COPY runs backwards */
#define PX_N_BUFS	8
#define PX_N_REGION	(4 * VT_MIB)

/*
 * A long FILL, a DELAY, a long COPY and an overlapping COPY (memmove,
 * executed backwards) in one buffer, preempted again and again: by a
 * thread that writes the engine's index to debugfs force_preempt every
 * 200 us, and by time slices, as a context of the same band has long
 * buffers of its own on the engine (the DELAYs guarantee the engine time
 * this takes on a fast host).  Everything ends byte-identical to what
 * the CPU computes (an overlapping copy that resumed anywhere but where
 * it stopped would not be), the context counts at least 20 preemptions,
 * and the arbiter counts forced and slice preemptions.
 */
VTEST(preempted_copy_fill_exact)
{
	const __u32 fill_value = 0xf111c0de;
	struct fx f = fx_open();
	struct vt_bo fill = vt_bo_new(&f.d, PX_FILL_SIZE);
	struct vt_bo src = vt_bo_new(&f.d, PX_COPY_SIZE);
	struct vt_bo dst = vt_bo_new(&f.d, PX_COPY_SIZE);
	struct vt_bo ovl = vt_bo_new(&f.d, PX_OVL_SIZE + PX_OVL_SHIFT);
	struct vt_bo nbo = vt_bo_new(&f.d, PX_N_BUFS * PX_N_REGION);
	__u32 m = vt_ctx_create(f.d.fd, COMPUTE, 0), n = vt_ctx_create(f.d.fd, COMPUTE, 0);
	unsigned int e = engine_of(f.d.fd, m), i;
	__u32 om, on[PX_N_BUFS];
	struct drm_vaccel_context_state sm, sn;
	struct vt_arbiter a0, a1;
	struct vt_preempter p;
	unsigned char *want;
	unsigned long writes;

	VT_ASSERT_EQ(engine_of(f.d.fd, n), e);
	vt_fill_pages(src.cpu, src.size / VT_PAGE, 2);
	vt_fill_pages(ovl.cpu, ovl.size / VT_PAGE, 3);
	want = malloc(ovl.size);
	VT_ASSERT(want);
	memcpy(want, ovl.cpu, ovl.size);
	memmove(want + PX_OVL_SHIFT, want, PX_OVL_SIZE);

	vt_pkt_fill(&f.c, fill.va, PX_FILL_SIZE, fill_value);
	vt_pkt_delay(&f.c, 30 * VT_MS);
	vt_pkt_copy(&f.c, src.va, dst.va, PX_COPY_SIZE);
	vt_pkt_copy(&f.c, ovl.va, ovl.va + PX_OVL_SHIFT, PX_OVL_SIZE);
	vt_pkt_write32(&f.c, f.data.va + MARK(0), 0xd0e);
	vt_arbiter_read(f.d.fd, &a0);
	vt_preempter_start(&p, f.d.fd, e, 200);
	om = submit_out(&f, m);
	for (i = 0; i < PX_N_BUFS; i++) {
		vt_pkt_fill(&f.c, nbo.va + i * PX_N_REGION, PX_N_REGION, 0xc0de0000 + i);
		vt_pkt_delay(&f.c, 5 * VT_MS);
		on[i] = submit_out(&f, n);
	}
	VT_ASSERT_EQ(vt_wait_status(f.d.fd, om), 1);
	writes = vt_preempter_stop(&p);
	for (i = 0; i < PX_N_BUFS; i++)
		VT_ASSERT_EQ(vt_wait_status(f.d.fd, on[i]), 1);

	VT_ASSERT_EQ(VT_U32(&f.data, MARK(0)), 0xd0e);
	EXPECT_WORDS(&fill, 0, PX_FILL_SIZE, fill_value);
	EXPECT_WORDS(&fill, PX_FILL_SIZE, fill.size - PX_FILL_SIZE, 0);
	EXPECT_BYTES(&dst, 0, src.cpu, PX_COPY_SIZE);
	for (i = PX_COPY_SIZE; i < dst.size; i++)
		VT_ASSERT_EQ(*VT_U8P(&dst, i), 0);
	EXPECT_BYTES(&ovl, 0, want, ovl.size);
	for (i = 0; i < PX_N_BUFS; i++)
		EXPECT_WORDS(&nbo, i * PX_N_REGION, PX_N_REGION, 0xc0de0000 + i);

	sm = vt_ctx_state(f.d.fd, m);
	sn = vt_ctx_state(f.d.fd, n);
	vt_arbiter_read(f.d.fd, &a1);
	printf("# preempted_copy_fill_exact: %lu writes, %llu preemptions (%llu forced, %llu slice), %llu ms on the engine\n",
	       writes, (unsigned long long)sm.preemptions,
	       a1.e[e].preempt[VT_PREEMPT_FORCED] - a0.e[e].preempt[VT_PREEMPT_FORCED],
	       a1.e[e].preempt[VT_PREEMPT_SLICE] - a0.e[e].preempt[VT_PREEMPT_SLICE],
	       (unsigned long long)sm.engine_ns / VT_MS);
	if (sm.preemptions < 20)
		vtest_fail(__FILE__, __LINE__, "only %llu preemptions of the long buffer",
			   (unsigned long long)sm.preemptions);
	VT_ASSERT(sn.preemptions >= 1);
	VT_ASSERT(a1.e[e].preempt[VT_PREEMPT_FORCED] >= a0.e[e].preempt[VT_PREEMPT_FORCED] + 20);
	VT_ASSERT(a1.e[e].preempt[VT_PREEMPT_SLICE] > a0.e[e].preempt[VT_PREEMPT_SLICE]);
	vt_expect_not_banned(f.d.fd, m);
	vt_expect_not_banned(f.d.fd, n);
	free(want);
}

/* --- time slices --- */

#define FAIR_CTXS	4
#define FAIR_DELAY_MS	200
#define FAIR_RATIO	1.3

/*
 * Four NORMAL contexts on one engine, each with the same job (a FILL and
 * a 200 ms DELAY) ready at once, share the engine in time slices: when
 * the first one completes the others have had about as much engine time
 * (within 1.3 times), not nothing as in FIFO order; they complete at
 * comparable times (the last within 1.3 times the first, counted from
 * when they became ready, where FIFO gives 4 times); in the end each has
 * used comparable engine time and was preempted several times.
 */
VTEST(equal_contexts_share_fairly)
{
	struct fx f = fx_open();
	struct vt_bo buf = vt_bo_new(&f.d, FAIR_CTXS * VT_MIB);
	__u32 ctx[FAIR_CTXS], out[FAIR_CTXS], first = FAIR_CTXS, gate, gs;
	__u64 ns[FAIR_CTXS], lo, hi, t0, end_lo, end_hi;
	unsigned int i;
	int r;

	for (i = 0; i < FAIR_CTXS; i++)
		ctx[i] = vt_ctx_create(f.d.fd, COMPUTE, 0);
	/*
	 * The jobs wait for a gate on the copy engine that the CPU opens once
	 * all are submitted, so that they are ready together even if this
	 * process is slow to submit them.
	 */
	gate = vt_ctx_create(f.d.fd, COPY, 0);
	vt_pkt_wait_eq32(&f.c, f.data.va + MARK(0), 1);
	gs = submit_out(&f, gate);
	for (i = 0; i < FAIR_CTXS; i++) {
		vt_pkt_fill(&f.c, buf.va + i * VT_MIB, VT_MIB, 0xfa170000 + i);
		vt_pkt_delay(&f.c, FAIR_DELAY_MS * VT_MS);
		vt_pkt_timestamp(&f.c, f.data.va + TS(i));
		out[i] = vt_syncobj(f.d.fd);
		vt_submit(f.d.fd, ctx[i], &f.c, gs, out[i]);
	}
	t0 = vt_now_ns();
	VT_U32(&f.data, MARK(0)) = 1;

	r = drmSyncobjWait(f.d.fd, out, FAIR_CTXS, vt_deadline(VT_TIMEOUT_MS), 0, &first);
	VT_ASSERT_EQ(r, 0);
	VT_ASSERT(first < FAIR_CTXS);
	lo = ~0ull;
	hi = 0;
	for (i = 0; i < FAIR_CTXS; i++) {
		ns[i] = vt_ctx_state(f.d.fd, ctx[i]).engine_ns;
		lo = ns[i] < lo ? ns[i] : lo;
		hi = ns[i] > hi ? ns[i] : hi;
	}
	if (hi > lo * FAIR_RATIO)
		vtest_fail(__FILE__, __LINE__,
			   "when context %u completed, engine time ranged from %llu to %llu ms",
			   first, (unsigned long long)lo / VT_MS,
			   (unsigned long long)hi / VT_MS);

	for (i = 0; i < FAIR_CTXS; i++)
		VT_ASSERT_EQ(vt_wait_status(f.d.fd, out[i]), 1);
	VT_ASSERT_EQ(vt_wait_status(f.d.fd, gs), 1);
	end_lo = ~0ull;
	end_hi = 0;
	lo = ~0ull;
	hi = 0;
	for (i = 0; i < FAIR_CTXS; i++) {
		struct drm_vaccel_context_state s = vt_ctx_state(f.d.fd, ctx[i]);
		__u64 end = ts(&f, i) - t0;

		end_lo = end < end_lo ? end : end_lo;
		end_hi = end > end_hi ? end : end_hi;
		lo = s.engine_ns < lo ? s.engine_ns : lo;
		hi = s.engine_ns > hi ? s.engine_ns : hi;
		VT_ASSERT(s.engine_ns >= FAIR_DELAY_MS * VT_MS);
		VT_ASSERT(s.preemptions >= 5);
		vt_expect_not_banned(f.d.fd, ctx[i]);
		EXPECT_WORDS(&buf, i * VT_MIB, VT_MIB, 0xfa170000 + i);
	}
	printf("# equal_contexts_share_fairly: completed %llu to %llu ms after the gate, engine time %llu to %llu ms\n",
	       (unsigned long long)end_lo / VT_MS, (unsigned long long)end_hi / VT_MS,
	       (unsigned long long)lo / VT_MS, (unsigned long long)hi / VT_MS);
	if (end_hi > end_lo * FAIR_RATIO)
		vtest_fail(__FILE__, __LINE__, "completions from %llu to %llu ms",
			   (unsigned long long)end_lo / VT_MS,
			   (unsigned long long)end_hi / VT_MS);
	VT_ASSERT(hi <= lo * FAIR_RATIO);
}

/* --- CAP_SYS_NICE --- */

/*
 * A child process that gives up root (setresuid to nobody, which clears
 * its capabilities) gets EPERM for HIGH and REALTIME contexts on every
 * engine class, while LOW and NORMAL are allowed; a HIGH context it
 * created while privileged keeps working.  The parent, still root, is
 * allowed REALTIME.
 */
VTEST(priority_needs_cap_sys_nice)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct fx f = fx_open();
		__u32 high = vt_ctx_create_prio(f.d.fd, COMPUTE, 0, HIGH), h, c[3];
		unsigned int i;

		VT_ASSERT_EQ(setgroups(0, NULL), 0);
		VT_ASSERT_EQ(setresgid(NOBODY, NOBODY, NOBODY), 0);
		VT_ASSERT_EQ(setresuid(NOBODY, NOBODY, NOBODY), 0);
		VT_ASSERT_ERRNO(vt_ctx_create_raw(f.d.fd, COMPUTE, 0, HIGH, 0, 0, &h), EPERM);
		VT_ASSERT_ERRNO(vt_ctx_create_raw(f.d.fd, COMPUTE, DRM_VACCEL_ENGINE_ANY,
						  REALTIME, 0, 0, &h), EPERM);
		VT_ASSERT_ERRNO(vt_ctx_create_raw(f.d.fd, COPY, 0, HIGH, 0, 0, &h), EPERM);
		VT_ASSERT_ERRNO(vt_ctx_create_raw(f.d.fd, COPY, 0, REALTIME, 0, 0, &h), EPERM);
		c[0] = vt_ctx_create_prio(f.d.fd, COMPUTE, 0, LOW);
		c[1] = vt_ctx_create_prio(f.d.fd, COPY, 0, NORMAL);
		c[2] = high;
		for (i = 0; i < 3; i++) {
			vt_pkt_write32(&f.c, f.data.va + MARK(i), 0x90 + i);
			vt_run(f.d.fd, c[i], &f.c);
			VT_ASSERT_EQ(VT_U32(&f.data, MARK(i)), 0x90 + i);
		}
		_exit(0);
	}
	vt_wait_child(pid);
	/* The parent kept root and its capability. */
	{
		struct vt_dev d = vt_dev_open();

		vt_ctx_create_prio(d.fd, COMPUTE, 0, REALTIME);
	}
}

/* --- preemption granularity --- */

/*
 * The granularity each engine should have: the preempt_granularity the
 * plan loaded (VT_GRANULARITY, else the module parameter), one value for
 * every compute and copy engine (capped at each engine's finest) or one
 * each in engine order; by default the finest: 3 (INSTRUCTION) on compute
 * engines, 1 (PACKET) on copy engines; the PAGING engine's is always 1
 * (PACKET: between 2 MiB regions of a bind).
 */
static void expected_granularity(struct vt_dev *d, unsigned int *g)
{
	char text[256], *p, *end;
	const char *env = getenv("VT_GRANULARITY");
	unsigned int v[VT_ARB_MAX_ENGINES], n = 0, k = 0, i;

	if (env)
		snprintf(text, sizeof(text), "%s", env);
	else
		vt_param_text("preempt_granularity", text, sizeof(text));
	for (p = text; *p; p = *end ? end + 1 : end) {
		VT_ASSERT(n < VT_ARB_MAX_ENGINES);
		v[n++] = strtoul(p, &end, 0);
		VT_ASSERT(end != p && (*end == ',' || !*end));
	}
	for (i = 0; i < d->engines->count; i++) {
		unsigned int finest = vt_engine(d->engines, i)->engine_class == COMPUTE ?
				      DRM_VACCEL_PREEMPT_INSTRUCTION : DRM_VACCEL_PREEMPT_PACKET;

		if (vt_engine(d->engines, i)->engine_class == PAGING) {
			g[i] = DRM_VACCEL_PREEMPT_PACKET;
			continue;
		}
		/* One value for all: each engine takes it, or its finest. */
		g[i] = !n ? finest : n == 1 ? (v[0] < finest ? v[0] : finest) : v[k];
		k++;
	}
	VT_ASSERT(n <= 1 || n == k);
}

/*
 * The ENGINES query reports the granularity in force: the finest by
 * default (INSTRUCTION on compute engines, PACKET on copy engines),
 * DMA_BUFFER under preempt_granularity=0, per engine when given per
 * engine, and PACKET for the PAGING engine always; the capabilities are
 * all four for compute engines, DMA_BUFFER and PACKET for copy and PAGING
 * engines.  The arbiter shows the same.  Then on every compute
 * and copy engine at once, a LOW buffer runs a 300 ms DELAY and a HIGH
 * buffer is submitted: at the PACKET granularity or finer HIGH completes first,
 * LOW preempted; at DMA_BUFFER it completes after LOW, which is never
 * preempted, and LOW's fence has signalled when HIGH's does.
 */
VTEST(granularity)
{
	struct fx f = fx_open();
	unsigned int g[VT_ARB_MAX_ENGINES], i, n = f.d.engines->count;
	__u32 low[VT_ARB_MAX_ENGINES], high[VT_ARB_MAX_ENGINES];
	__u32 ol[VT_ARB_MAX_ENGINES], oh[VT_ARB_MAX_ENGINES];
	struct vt_arbiter a;

	VT_ASSERT(n <= VT_ARB_MAX_ENGINES && n <= 64);
	expected_granularity(&f.d, g);
	vt_arbiter_read(f.d.fd, &a);
	VT_ASSERT_EQ(a.count, n);
	for (i = 0; i < n; i++) {
		struct drm_vaccel_engine_info *e = vt_engine(f.d.engines, i);
		__u32 caps = e->engine_class == COMPUTE ? 0xf : 0x3;

		if (e->preempt_caps != caps || e->preempt_granularity != g[i] ||
		    a.e[i].granularity != g[i])
			vtest_fail(__FILE__, __LINE__,
				   "engine %u: caps 0x%x granularity %u (arbiter %u), expected 0x%x %u",
				   i, e->preempt_caps, e->preempt_granularity,
				   a.e[i].granularity, caps, g[i]);
	}

	for (i = 0; i < n; i++) {
		struct drm_vaccel_engine_info *e = vt_engine(f.d.engines, i);

		if (e->engine_class == PAGING)
			continue;
		low[i] = vt_ctx_create_prio(f.d.fd, e->engine_class, e->instance, LOW);
		high[i] = vt_ctx_create_prio(f.d.fd, e->engine_class, e->instance, HIGH);
		VT_ASSERT_EQ(engine_of(f.d.fd, low[i]), i);
		vt_pkt_write32(&f.c, f.data.va + MARK(i), 1);
		vt_pkt_delay(&f.c, 300 * VT_MS);
		vt_pkt_timestamp(&f.c, f.data.va + TS(2 * i));
		ol[i] = submit_out(&f, low[i]);
	}
	for (i = 0; i < n; i++) {
		if (vt_engine(f.d.engines, i)->engine_class == PAGING)
			continue;
		WAIT_MARK(&f, i, 1);
		vt_pkt_timestamp(&f.c, f.data.va + TS(2 * i + 1));
		oh[i] = submit_out(&f, high[i]);
	}
	/*
	 * First the engines that preempt inside buffers, whose HIGH completes
	 * at once: LOW's fence must still be pending then.
	 */
	for (i = 0; i < n; i++) {
		if (vt_engine(f.d.engines, i)->engine_class == PAGING ||
		    g[i] < DRM_VACCEL_PREEMPT_PACKET)
			continue;
		VT_ASSERT_EQ(vt_wait_status(f.d.fd, oh[i]), 1);
		if (vt_syncobj_signalled(f.d.fd, ol[i]))
			vtest_fail(__FILE__, __LINE__,
				   "engine %u, PACKET: LOW completed before HIGH", i);
	}
	for (i = 0; i < n; i++) {
		__u64 preemptions;

		if (vt_engine(f.d.engines, i)->engine_class == PAGING)
			continue;
		VT_ASSERT_EQ(vt_wait_status(f.d.fd, oh[i]), 1);
		/* LOW's fence signals before HIGH's buffer starts, if it is first. */
		if (g[i] < DRM_VACCEL_PREEMPT_PACKET && !vt_syncobj_signalled(f.d.fd, ol[i]))
			vtest_fail(__FILE__, __LINE__,
				   "engine %u, DMA_BUFFER: HIGH completed before LOW", i);
		VT_ASSERT_EQ(vt_wait_status(f.d.fd, ol[i]), 1);
		preemptions = vt_ctx_state(f.d.fd, low[i]).preemptions;
		if (g[i] >= DRM_VACCEL_PREEMPT_PACKET) {
			if (ts(&f, 2 * i + 1) >= ts(&f, 2 * i))
				vtest_fail(__FILE__, __LINE__,
					   "engine %u, PACKET: HIGH ran after LOW's last packet", i);
			VT_ASSERT(preemptions >= 1);
		} else {
			if (ts(&f, 2 * i + 1) < ts(&f, 2 * i))
				vtest_fail(__FILE__, __LINE__,
					   "engine %u, DMA_BUFFER: HIGH ran inside LOW's buffer", i);
			VT_ASSERT_EQ(preemptions, 0);
		}
		vt_expect_not_banned(f.d.fd, low[i]);
		vt_expect_not_banned(f.d.fd, high[i]);
	}
}

/* --- hangs --- */

#define INNO_BUFS	12
#define INNO_REGION	(64 * VT_KIB)

/*
 * Records @INNO_BUFS buffers for innocent context @ctx: each FILLs its
 * region of @b, DELAYs @delay_ns, COPYs the region to the second half of
 * @b and writes marker @mark + k; their out-syncobjs go to @out.
 */
static void innocent_work(struct fx *f, __u32 ctx, struct vt_bo *b, __u64 delay_ns,
			  unsigned int mark, __u32 *out)
{
	unsigned int k;

	for (k = 0; k < INNO_BUFS; k++) {
		vt_pkt_fill(&f->c, b->va + k * INNO_REGION, INNO_REGION, 0x1c0e0000 + k);
		vt_pkt_delay(&f->c, delay_ns);
		vt_pkt_copy(&f->c, b->va + k * INNO_REGION,
			    b->va + (INNO_BUFS + k) * INNO_REGION, INNO_REGION);
		vt_pkt_write32(&f->c, f->data.va + MARK(mark + k), 0x600d);
		out[k] = submit_out(f, ctx);
	}
}

/* Every buffer of innocent_work() completed, with its results. */
static void innocent_done(struct fx *f, __u32 ctx, struct vt_bo *b, unsigned int mark,
			  const __u32 *out, int line)
{
	unsigned int k;
	int st;

	for (k = 0; k < INNO_BUFS; k++) {
		st = vt_wait_status(f->d.fd, out[k]);
		if (st != 1)
			vtest_fail(__FILE__, line, "innocent context %u, buffer %u: status %d",
				   ctx, k, st);
		expect_words(b, (INNO_BUFS + k) * INNO_REGION, INNO_REGION,
			     0x1c0e0000 + k, line);
		if (VT_U32(&f->data, MARK(mark + k)) != 0x600d)
			vtest_fail(__FILE__, line, "innocent context %u, buffer %u: no marker",
				   ctx, k);
	}
	vt_expect_not_banned(f->d.fd, ctx);
}

/* The context hung: banned for it, one guilty reset, no fault. */
static void expect_hung(int fd, __u32 ctx, int line)
{
	struct drm_vaccel_context_state s = vt_ctx_state(fd, ctx);

	if (s.flags != DRM_VACCEL_CONTEXT_BANNED || s.ban_reason != DRM_VACCEL_BAN_HANG ||
	    s.guilty_resets != 1 || s.innocent_resets || s.fault_reason ||
	    !s.ban_job || s.ban_job > s.jobs_submitted || !s.ban_buffer_va)
		vtest_fail(__FILE__, line,
			   "context %u: flags 0x%x ban_reason %u guilty %u innocent %u fault %u ban_job %llu",
			   ctx, s.flags, s.ban_reason, s.guilty_resets, s.innocent_resets,
			   s.fault_reason, (unsigned long long)s.ban_job);
	errno = 0;
	if (vt_submit_raw(fd, ctx, 0x10000, 8, NULL, 0, NULL, 0) != -1 || errno != ECANCELED)
		vtest_fail(__FILE__, line, "SUBMIT to the hung context: %s", strerror(errno));
}

/* The debugfs contexts line of context @ctx of the file @fd, malloc'ed. */
static char *context_line(int fd, __u32 ctx)
{
	char *text = vt_debugfs_read(fd, "contexts"), key[64], *p, *nl, *line;

	snprintf(key, sizeof(key), "context %u client %llu ", ctx, vt_client_id(fd));
	p = strstr(text, key);
	if (!p)
		vtest_fail(__FILE__, __LINE__, "no '%s' in debugfs contexts:\n%s", key, text);
	nl = strchr(p, '\n');
	if (nl)
		*nl = '\0';
	line = strdup(p);
	free(text);
	return line;
}

/*
 * With a short hang timeout: a buffer whose WAIT_MEM is never satisfied
 * hangs.  It runs on compute engine 0 with an innocent context submitted
 * right behind it, so that the innocent's buffers sit in the HW queue's
 * second slot and the two share the engine in time slices; another
 * innocent context works on compute engine 1.  Then:
 *
 * - the hung buffer's fence carries -ETIMEDOUT, its packet after the
 *   WAIT_MEM never ran, and it was detected after the timeout of its own
 *   engine time, not earlier, although it spent half its wall time off
 *   the engine (the wall time is at least 1.5 times the timeout);
 * - its context is BANNED, ban_reason HANG, one guilty reset, no fault,
 *   "hung" in debugfs contexts, and SUBMIT fails with ECANCELED;
 * - the innocent contexts complete every buffer with correct results and
 *   are not banned; the one whose buffer was in the HW queue counts an
 *   innocent reset, the one on the other engine none;
 * - the arbiter counts one hang and a reset on engine 0, nothing on the
 *   other, and no device reset (a single hang).
 */
VTEST(hang_detected_and_recovered)
{
	struct fx f = fx_open();
	unsigned int timeout = short_timeout_ms();
	struct vt_bo b1 = vt_bo_new(&f.d, 2 * INNO_BUFS * INNO_REGION);
	struct vt_bo b2 = vt_bo_new(&f.d, 2 * INNO_BUFS * INNO_REGION);
	__u32 g = vt_ctx_create(f.d.fd, COMPUTE, 0), i1 = vt_ctx_create(f.d.fd, COMPUTE, 0);
	__u32 i2 = vt_ctx_create(f.d.fd, COMPUTE, 1);
	__u32 og, o1[INNO_BUFS], o2[INNO_BUFS];
	unsigned int e = engine_of(f.d.fd, g), e2 = engine_of(f.d.fd, i2);
	struct drm_vaccel_context_state s;
	struct vt_arbiter a0, a1;
	__u64 t0, took;
	char *line;
	int st;

	VT_ASSERT_EQ(engine_of(f.d.fd, i1), e);
	vt_arbiter_read(f.d.fd, &a0);
	vt_pkt_write32(&f.c, f.data.va + MARK(0), 1);
	vt_pkt_wait_eq32(&f.c, f.data.va + MARK(1), 1);		/* never */
	vt_pkt_write32(&f.c, f.data.va + MARK(2), 1);		/* must not run */
	t0 = vt_now_ns();
	og = submit_out(&f, g);
	WAIT_MARK(&f, 0, 1);
	innocent_work(&f, i1, &b1, timeout * VT_MS / 5, 16, o1);
	innocent_work(&f, i2, &b2, timeout * VT_MS / 5, 32, o2);

	st = vt_wait_status(f.d.fd, og);
	took = vt_now_ns() - t0;
	VT_ASSERT_EQ(st, -ETIMEDOUT);
	VT_ASSERT_EQ(VT_U32(&f.data, MARK(2)), 0);
	innocent_done(&f, i1, &b1, 16, o1, __LINE__);
	innocent_done(&f, i2, &b2, 32, o2, __LINE__);
	printf("# hang_detected_and_recovered: detected %llu ms after submission (timeout %u ms)\n",
	       (unsigned long long)took / VT_MS, timeout);
	if (took < timeout * VT_MS * 3 / 2)
		vtest_fail(__FILE__, __LINE__,
			   "hang detected %llu ms after submission: time off the engine counted",
			   (unsigned long long)took / VT_MS);

	expect_hung(f.d.fd, g, __LINE__);
	s = vt_ctx_state(f.d.fd, g);
	VT_ASSERT(s.engine_ns >= timeout * VT_MS);
	VT_ASSERT_EQ(s.jobs_completed, 1);
	line = context_line(f.d.fd, g);
	if (!strstr(line, " hung ") || !strstr(line, " guilty 1 "))
		vtest_fail(__FILE__, __LINE__, "debugfs contexts: '%s'", line);
	free(line);

	s = vt_ctx_state(f.d.fd, i1);
	VT_ASSERT(s.innocent_resets >= 1);
	VT_ASSERT_EQ(vt_ctx_state(f.d.fd, i2).innocent_resets, 0);

	vt_arbiter_read(f.d.fd, &a1);
	VT_ASSERT_EQ(a1.e[e].hangs, a0.e[e].hangs + 1);
	VT_ASSERT(a1.e[e].resets >= a0.e[e].resets + 1);
	VT_ASSERT_EQ(a1.e[e2].hangs, a0.e[e2].hangs);
	VT_ASSERT_EQ(a1.e[e2].resets, a0.e[e2].resets);
	VT_ASSERT_EQ(a1.device_resets, a0.device_resets);

	/* The engine serves a new context. */
	g = vt_ctx_create(f.d.fd, COMPUTE, 0);
	vt_pkt_write32(&f.c, f.data.va + MARK(3), 0x3);
	vt_run(f.d.fd, g, &f.c);
	VT_ASSERT_EQ(VT_U32(&f.data, MARK(3)), 0x3);
}

#define WAITERS		4

/*
 * With a short hang timeout (T), buffers that each progress within T but
 * wait far longer than T in wall time are not hung, because only time
 * on the engine counts:
 *
 * - a LOW buffer, started first, preempted by NORMAL work for more than
 *   3 T in the middle of its DELAY;
 * - four NORMAL contexts with two buffers of a T/2 DELAY each, sharing
 *   the engine in time slices, so that each buffer takes about 2 T from
 *   its start to its end;
 * - on the copy engine, a buffer waiting on a syncobj that a chain of
 *   buffers on compute engine 1 signals after more than 2 T.
 *
 * All complete without error; no context is banned or reset; the arbiter
 * counts no hang and no reset.
 */
VTEST(time_off_engine_never_counts)
{
	struct fx f = fx_open();
	unsigned int timeout = short_timeout_ms(), i, k;
	__u64 d = timeout * VT_MS / 2, t0, longest = 0;
	__u32 low = vt_ctx_create_prio(f.d.fd, COMPUTE, 0, LOW);
	__u32 gate = vt_ctx_create(f.d.fd, COMPUTE, 1), waiter = vt_ctx_create(f.d.fd, COPY, 0);
	__u32 ctx[WAITERS], out[WAITERS][2], ol, og[5], ow, gs = vt_syncobj(f.d.fd);
	struct vt_arbiter a0, a1;

	vt_arbiter_read(f.d.fd, &a0);
	for (i = 0; i < WAITERS; i++)
		ctx[i] = vt_ctx_create(f.d.fd, COMPUTE, 0);
	t0 = vt_now_ns();
	vt_pkt_write32(&f.c, f.data.va + MARK(0), 1);
	vt_pkt_delay(&f.c, d);
	vt_pkt_timestamp(&f.c, f.data.va + TS(0));
	ol = submit_out(&f, low);
	WAIT_MARK(&f, 0, 1);

	for (k = 0; k < 2; k++) {
		for (i = 0; i < WAITERS; i++) {
			vt_pkt_timestamp(&f.c, f.data.va + TS(16 + 4 * i + 2 * k));
			vt_pkt_delay(&f.c, d);
			vt_pkt_timestamp(&f.c, f.data.va + TS(16 + 4 * i + 2 * k + 1));
			out[i][k] = submit_out(&f, ctx[i]);
		}
	}
	for (k = 0; k < 5; k++) {
		vt_pkt_delay(&f.c, d);
		if (k < 4) {
			og[k] = submit_out(&f, gate);
		} else {
			og[k] = gs;
			vt_submit(f.d.fd, gate, &f.c, 0, gs);
		}
	}
	vt_pkt_timestamp(&f.c, f.data.va + TS(1));
	vt_pkt_write32(&f.c, f.data.va + MARK(1), 0x9a7e);
	ow = vt_syncobj(f.d.fd);
	vt_submit(f.d.fd, waiter, &f.c, gs, ow);

	VT_ASSERT_EQ(vt_wait_status(f.d.fd, ol), 1);
	for (i = 0; i < WAITERS; i++) {
		for (k = 0; k < 2; k++) {
			__u64 span = ts(&f, 16 + 4 * i + 2 * k + 1) - ts(&f, 16 + 4 * i + 2 * k);

			VT_ASSERT_EQ(vt_wait_status(f.d.fd, out[i][k]), 1);
			longest = span > longest ? span : longest;
		}
		vt_expect_not_banned(f.d.fd, ctx[i]);
		VT_ASSERT_EQ(vt_ctx_state(f.d.fd, ctx[i]).innocent_resets, 0);
	}
	for (k = 0; k < 5; k++)
		VT_ASSERT_EQ(vt_wait_status(f.d.fd, og[k]), 1);
	VT_ASSERT_EQ(vt_wait_status(f.d.fd, ow), 1);
	VT_ASSERT_EQ(VT_U32(&f.data, MARK(1)), 0x9a7e);
	vt_expect_not_banned(f.d.fd, low);
	vt_expect_not_banned(f.d.fd, gate);
	vt_expect_not_banned(f.d.fd, waiter);
	VT_ASSERT_EQ(vt_ctx_state(f.d.fd, low).innocent_resets, 0);

	printf("# time_off_engine_never_counts: LOW ended after %llu ms, the waiter after %llu ms, the longest NORMAL buffer took %llu ms (timeout %u ms)\n",
	       (unsigned long long)(ts(&f, 0) - t0) / VT_MS,
	       (unsigned long long)(ts(&f, 1) - t0) / VT_MS,
	       (unsigned long long)longest / VT_MS, timeout);
	/* The premises: each waited much longer than the timeout. */
	VT_ASSERT(ts(&f, 0) - t0 >= 3ull * timeout * VT_MS);
	VT_ASSERT(ts(&f, 1) - t0 >= 2ull * timeout * VT_MS);
	VT_ASSERT(longest >= 3ull * timeout * VT_MS / 2);
	VT_ASSERT(vt_ctx_state(f.d.fd, low).preemptions >= 1);

	vt_arbiter_read(f.d.fd, &a1);
	for (i = 0; i < a1.count; i++) {
		VT_ASSERT_EQ(a1.e[i].hangs, a0.e[i].hangs);
		VT_ASSERT_EQ(a1.e[i].resets, a0.e[i].resets);
	}
	VT_ASSERT_EQ(a1.device_resets, a0.device_resets);
}

/*
 * A context on compute engine 0 whose buffer hangs on a WAIT_MEM, with a
 * second buffer behind it: the first fails with -ETIMEDOUT, the second
 * with -ECANCELED, and the context is banned for the hang.
 */
static void hang_once(struct fx *f, unsigned int n, int line)
{
	__u32 h = vt_ctx_create(f->d.fd, COMPUTE, 0), o1, o2;
	int s1, s2;

	vt_pkt_wait_eq32(&f->c, f->data.va + MARK(100 + n), 1);	/* never */
	o1 = submit_out(f, h);
	vt_pkt_write32(&f->c, f->data.va + MARK(120 + n), 1);
	o2 = submit_out(f, h);
	s1 = vt_wait_status(f->d.fd, o1);
	s2 = vt_wait_status(f->d.fd, o2);
	if (s1 != -ETIMEDOUT || s2 != -ECANCELED)
		vtest_fail(__FILE__, line, "hang %u: status %d then %d", n, s1, s2);
	if (VT_U32(&f->data, MARK(120 + n)))
		vtest_fail(__FILE__, line, "hang %u: the buffer behind it ran", n);
	expect_hung(f->d.fd, h, line);
}

/* A new context completes a buffer on compute engine 0: the engine is back. */
static void engine_back(struct fx *f, unsigned int n)
{
	__u32 h = vt_ctx_create(f->d.fd, COMPUTE, 0);

	vt_pkt_write32(&f->c, f->data.va + MARK(140 + n), 0xbac);
	vt_run(f->d.fd, h, &f->c);
	VT_ASSERT_EQ(VT_U32(&f->data, MARK(140 + n)), 0xbac);
}

/* Polls debugfs arbiter until device_resets is @want; false if not in @ms. */
static bool device_resets_become(int fd, long long want, unsigned int ms)
{
	__u64 end = vt_now_ns() + ms * VT_MS;
	struct vt_arbiter a;

	for (;;) {
		vt_arbiter_read(fd, &a);
		if (a.device_resets == want)
			return true;
		if (vt_now_ns() > end)
			return false;
		usleep(5000);
	}
}

/* The device reset would come right after the hang's fence: give it time. */
static void expect_device_resets(int fd, long long want, int line)
{
	struct vt_arbiter a;

	vt_sleep_ms(100);
	vt_arbiter_read(fd, &a);
	if (a.device_resets != want)
		vtest_fail(__FILE__, line, "device_resets %lld, expected %lld",
			   a.device_resets, want);
}

/* Fails the case unless no engine has hung since the module was loaded. */
static void expect_no_hang_yet(struct vt_arbiter *a)
{
	unsigned int i;

	for (i = 0; i < a->count; i++)
		if (a->e[i].hangs)
			vtest_fail(__FILE__, __LINE__,
				   "needs a module load without earlier hangs (engine %u: %llu)",
				   i, a->e[i].hangs);
}

/*
 * Starts innocent work on compute engine 1 and the copy engine, long
 * enough to be running during a device reset that follows.
 */
static void innocents_start(struct fx *f, unsigned int timeout, __u32 *ctx,
			    struct vt_bo *b, __u32 out[2][INNO_BUFS])
{
	ctx[0] = vt_ctx_create(f->d.fd, COMPUTE, 1);
	ctx[1] = vt_ctx_create(f->d.fd, COPY, 0);
	b[0] = vt_bo_new(&f->d, 2 * INNO_BUFS * INNO_REGION);
	b[1] = vt_bo_new(&f->d, 2 * INNO_BUFS * INNO_REGION);
	innocent_work(f, ctx[0], &b[0], timeout * VT_MS / 4, 16, out[0]);
	innocent_work(f, ctx[1], &b[1], timeout * VT_MS / 4, 32, out[1]);
	WAIT_MARK(f, 16, 0x600d);
	WAIT_MARK(f, 32, 0x600d);
}

/*
 * After a device reset: the innocent work completed with correct results,
 * each innocent context counts one innocent reset, and every engine
 * counts one reset more than in @before, compute engine @e two (its hang
 * and the device reset).
 */
static void innocents_after_device_reset(struct fx *f, __u32 *ctx, struct vt_bo *b,
					 __u32 out[2][INNO_BUFS], unsigned int e,
					 const struct vt_arbiter *before)
{
	struct vt_arbiter a;
	unsigned int i;

	innocent_done(f, ctx[0], &b[0], 16, out[0], __LINE__);
	innocent_done(f, ctx[1], &b[1], 32, out[1], __LINE__);
	VT_ASSERT_EQ(vt_ctx_state(f->d.fd, ctx[0]).innocent_resets, 1);
	VT_ASSERT_EQ(vt_ctx_state(f->d.fd, ctx[1]).innocent_resets, 1);
	vt_arbiter_read(f->d.fd, &a);
	for (i = 0; i < a.count; i++) {
		unsigned long long want = before->e[i].resets + (i == e ? 2 : 1);

		if (a.e[i].resets != want)
			vtest_fail(__FILE__, __LINE__, "engine %u: %llu resets, expected %llu",
				   i, a.e[i].resets, want);
	}
}

/*
 * Three hangs within 30 s on a device reset the whole device.  On a
 * module load without earlier hangs, with a short timeout: two hangs on
 * compute engine 0, each followed by a buffer that completes there (so
 * that the engine is back and only the count of hangs matters), leave
 * device_resets alone; then, with innocent work running on compute
 * engine 1 and the copy engine, a third hang resets the device:
 * device_resets grows by one, every engine counts one reset more (engine
 * 0 one more for its own hang), the innocent work completes with correct
 * results, and both innocent contexts count an innocent reset.  A fourth
 * hang right after starts a new count: no second device reset.
 */
VTEST(escalation_to_device_reset)
{
	struct fx f = fx_open();
	unsigned int timeout = short_timeout_ms();
	unsigned int e = engine_of(f.d.fd, vt_ctx_create(f.d.fd, COMPUTE, 0));
	__u32 ictx[2], iout[2][INNO_BUFS];
	struct vt_arbiter a0, a1;
	struct vt_bo ibo[2];

	vt_arbiter_read(f.d.fd, &a0);
	expect_no_hang_yet(&a0);
	hang_once(&f, 0, __LINE__);
	engine_back(&f, 0);
	hang_once(&f, 1, __LINE__);
	engine_back(&f, 1);
	expect_device_resets(f.d.fd, a0.device_resets, __LINE__);

	vt_arbiter_read(f.d.fd, &a1);
	VT_ASSERT_EQ(a1.e[e].hangs, 2);
	innocents_start(&f, timeout, ictx, ibo, iout);
	hang_once(&f, 2, __LINE__);
	if (!device_resets_become(f.d.fd, a0.device_resets + 1, VT_TIMEOUT_MS))
		vtest_fail(__FILE__, __LINE__, "no device reset after the third hang in 30 s");
	innocents_after_device_reset(&f, ictx, ibo, iout, e, &a1);

	engine_back(&f, 2);
	hang_once(&f, 3, __LINE__);
	expect_device_resets(f.d.fd, a0.device_resets + 1, __LINE__);
	vt_arbiter_read(f.d.fd, &a1);
	VT_ASSERT_EQ(a1.e[e].hangs, 4);
}

/*
 * An engine reset that does not bring the engine back resets the device:
 * on a module load without earlier hangs, a hang on compute engine 0
 * leaves device_resets alone; a second hang there, before any buffer has
 * completed on the engine since, resets the device (two hangs are not
 * the three of a burst): device_resets grows by one, every engine resets,
 * and the innocent work on compute engine 1 and the copy engine completes
 * with correct results, each innocent context counting one innocent
 * reset.  Once a buffer has completed, a third hang resets only the
 * engine: the device reset started both rules afresh.
 */
VTEST(hang_again_before_recovery)
{
	struct fx f = fx_open();
	unsigned int timeout = short_timeout_ms();
	unsigned int e = engine_of(f.d.fd, vt_ctx_create(f.d.fd, COMPUTE, 0));
	__u32 ictx[2], iout[2][INNO_BUFS];
	struct vt_arbiter a0, a1;
	struct vt_bo ibo[2];

	vt_arbiter_read(f.d.fd, &a0);
	expect_no_hang_yet(&a0);
	hang_once(&f, 0, __LINE__);
	expect_device_resets(f.d.fd, a0.device_resets, __LINE__);

	vt_arbiter_read(f.d.fd, &a1);
	innocents_start(&f, timeout, ictx, ibo, iout);
	hang_once(&f, 1, __LINE__);
	if (!device_resets_become(f.d.fd, a0.device_resets + 1, VT_TIMEOUT_MS))
		vtest_fail(__FILE__, __LINE__,
			   "no device reset after a second hang without recovery");
	innocents_after_device_reset(&f, ictx, ibo, iout, e, &a1);

	engine_back(&f, 0);
	hang_once(&f, 2, __LINE__);
	expect_device_resets(f.d.fd, a0.device_resets + 1, __LINE__);
}

/* --- resets from debugfs --- */

/*
 * Records for context @ctx a buffer that FILLs [@off, @off + 1 MiB) of
 * @b, writes marker @mark, DELAYs 300 ms and COPYs the region to the
 * next MiB: long enough to be reset in the middle.
 */
static __u32 long_work(struct fx *f, __u32 ctx, struct vt_bo *b, __u64 off,
		       unsigned int mark)
{
	vt_pkt_fill(&f->c, b->va + off, VT_MIB, 0x7e5e0000 + mark);
	vt_pkt_write32(&f->c, f->data.va + MARK(mark), 1);
	vt_pkt_delay(&f->c, 300 * VT_MS);
	vt_pkt_copy(&f->c, b->va + off, b->va + off + VT_MIB, VT_MIB);
	vt_pkt_write32(&f->c, f->data.va + MARK(mark), 2);
	return submit_out(f, ctx);
}

static void long_work_done(struct fx *f, __u32 ctx, __u32 out, struct vt_bo *b,
			   __u64 off, unsigned int mark, int line)
{
	struct drm_vaccel_context_state s;
	int st = vt_wait_status(f->d.fd, out);

	if (st != 1)
		vtest_fail(__FILE__, line, "context %u: status %d", ctx, st);
	expect_words(b, off + VT_MIB, VT_MIB, 0x7e5e0000 + mark, line);
	if (VT_U32(&f->data, MARK(mark)) != 2)
		vtest_fail(__FILE__, line, "context %u: did not reach its end", ctx);
	s = vt_ctx_state(f->d.fd, ctx);
	if (s.flags || s.ban_reason || s.guilty_resets || s.innocent_resets != 1)
		vtest_fail(__FILE__, line,
			   "context %u: flags 0x%x ban_reason %u guilty %u innocent %u",
			   ctx, s.flags, s.ban_reason, s.guilty_resets, s.innocent_resets);
}

/* Waits until the HW queue of engine @e holds the buffers of @a and @b. */
static void wait_hw_queue(struct fx *f, unsigned int e, __u32 a, __u32 b)
{
	__u64 end = vt_now_ns() + VT_TIMEOUT_MS * VT_MS;
	long long slot[2];
	bool mine[2];

	for (;;) {
		vt_hw_queue(f->d.fd, e, slot, mine);
		if (mine[0] && mine[1] &&
		    ((slot[0] == a && slot[1] == b) || (slot[0] == b && slot[1] == a)))
			return;
		if (vt_now_ns() > end)
			vtest_fail(__FILE__, __LINE__,
				   "engine %u holds contexts %lld and %lld, not %u and %u",
				   e, slot[0], slot[1], a, b);
		usleep(1000);
	}
}

/*
 * Writing an engine's index to debugfs force_reset while two contexts
 * run long FILL, DELAY and COPY buffers on it, one in each slot of its HW
 * queue: both complete with correct results, neither is banned, each
 * counts one innocent reset; the arbiter counts one reset of that
 * engine, none of the others, no hang and no device reset.
 */
VTEST(force_reset_engine)
{
	struct fx f = fx_open();
	struct vt_bo b = vt_bo_new(&f.d, 4 * VT_MIB);
	__u32 x = vt_ctx_create(f.d.fd, COMPUTE, 0), y = vt_ctx_create(f.d.fd, COMPUTE, 0);
	unsigned int e = engine_of(f.d.fd, x), i;
	struct vt_arbiter a0, a1;
	char index[16];
	__u32 ox, oy;

	vt_arbiter_read(f.d.fd, &a0);
	ox = long_work(&f, x, &b, 0, 0);
	oy = long_work(&f, y, &b, 2 * VT_MIB, 1);
	WAIT_MARK(&f, 0, 1);
	wait_hw_queue(&f, e, x, y);
	snprintf(index, sizeof(index), "%u\n", e);
	VT_ASSERT_OK(vt_debugfs_write(f.d.fd, "force_reset", index));
	long_work_done(&f, x, ox, &b, 0, 0, __LINE__);
	long_work_done(&f, y, oy, &b, 2 * VT_MIB, 1, __LINE__);

	vt_arbiter_read(f.d.fd, &a1);
	for (i = 0; i < a1.count; i++) {
		VT_ASSERT_EQ(a1.e[i].resets, a0.e[i].resets + (i == e));
		VT_ASSERT_EQ(a1.e[i].hangs, a0.e[i].hangs);
	}
	VT_ASSERT_EQ(a1.e[e].preempt[VT_PREEMPT_RESET], a0.e[e].preempt[VT_PREEMPT_RESET] + 1);
	VT_ASSERT_EQ(a1.device_resets, a0.device_resets);
}

/*
 * Writing "device" to debugfs force_reset while compute engine 0 and the
 * copy engine each run two contexts' long buffers: everything completes
 * with correct results, nobody is banned, the four contexts count one
 * innocent reset each, device_resets grows by one and every engine, idle
 * ones included, counts one reset.
 */
VTEST(force_reset_device)
{
	struct fx f = fx_open();
	struct vt_bo b = vt_bo_new(&f.d, 8 * VT_MIB);
	__u32 ctx[4], out[4];
	unsigned int e[2], i;
	struct vt_arbiter a0, a1;

	ctx[0] = vt_ctx_create(f.d.fd, COMPUTE, 0);
	ctx[1] = vt_ctx_create(f.d.fd, COMPUTE, 0);
	ctx[2] = vt_ctx_create(f.d.fd, COPY, 0);
	ctx[3] = vt_ctx_create(f.d.fd, COPY, 0);
	e[0] = engine_of(f.d.fd, ctx[0]);
	e[1] = engine_of(f.d.fd, ctx[2]);
	vt_arbiter_read(f.d.fd, &a0);
	for (i = 0; i < 4; i++)
		out[i] = long_work(&f, ctx[i], &b, 2 * i * VT_MIB, i);
	WAIT_MARK(&f, 0, 1);
	WAIT_MARK(&f, 2, 1);
	wait_hw_queue(&f, e[0], ctx[0], ctx[1]);
	wait_hw_queue(&f, e[1], ctx[2], ctx[3]);
	VT_ASSERT_OK(vt_debugfs_write(f.d.fd, "force_reset", "device\n"));
	for (i = 0; i < 4; i++)
		long_work_done(&f, ctx[i], out[i], &b, 2 * i * VT_MIB, i, __LINE__);

	vt_arbiter_read(f.d.fd, &a1);
	VT_ASSERT_EQ(a1.device_resets, a0.device_resets + 1);
	for (i = 0; i < a1.count; i++) {
		if (a1.e[i].resets != a0.e[i].resets + 1)
			vtest_fail(__FILE__, __LINE__, "engine %u: %llu resets, expected %llu",
				   i, a1.e[i].resets, a0.e[i].resets + 1);
		VT_ASSERT_EQ(a1.e[i].hangs, a0.e[i].hangs);
	}
}

/*
 * debugfs force_preempt and force_reset refuse what is not an engine
 * index (or "device", for force_reset only): EINVAL for text, a negative
 * number or a string too long, ENODEV for an index past the last engine.
 * Nothing is reset by a refused write; writing an idle engine's index to
 * force_preempt preempts nothing, and to force_reset resets that engine
 * alone.
 */
VTEST(debugfs_control_errors)
{
	static const char *const einval[] = {
		"foo", "-1", "1x", "0x", "12345678901234567890", "device0",
	};
	struct vt_dev d = vt_dev_open();
	struct vt_arbiter a0, a1;
	char past[16];
	unsigned int i, c = d.engines->count - 1;	/* the idle PAGING engine */

	VT_ASSERT_EQ(vt_engine(d.engines, c)->engine_class, PAGING);
	vt_arbiter_read(d.fd, &a0);
	for (i = 0; i < ARRAY_SIZE(einval); i++) {
		VT_ASSERT_EQ(vt_debugfs_write(d.fd, "force_reset", einval[i]), -EINVAL);
		VT_ASSERT_EQ(vt_debugfs_write(d.fd, "force_preempt", einval[i]), -EINVAL);
	}
	VT_ASSERT_EQ(vt_debugfs_write(d.fd, "force_preempt", "device"), -EINVAL);
	snprintf(past, sizeof(past), "%u", d.engines->count);
	VT_ASSERT_EQ(vt_debugfs_write(d.fd, "force_reset", past), -ENODEV);
	VT_ASSERT_EQ(vt_debugfs_write(d.fd, "force_preempt", past), -ENODEV);
	VT_ASSERT_EQ(vt_debugfs_write(d.fd, "force_reset", "99"), -ENODEV);
	VT_ASSERT_EQ(vt_debugfs_write(d.fd, "force_preempt", "99"), -ENODEV);
	vt_arbiter_read(d.fd, &a1);
	VT_ASSERT_EQ(a1.device_resets, a0.device_resets);
	for (i = 0; i < a1.count; i++)
		VT_ASSERT_EQ(a1.e[i].resets, a0.e[i].resets);

	snprintf(past, sizeof(past), "%u\n", c);
	VT_ASSERT_OK(vt_debugfs_write(d.fd, "force_preempt", past));
	VT_ASSERT_OK(vt_debugfs_write(d.fd, "force_reset", past));
	for (i = 0; i < VT_TIMEOUT_MS / 10; i++) {
		vt_arbiter_read(d.fd, &a1);
		if (a1.e[c].resets != a0.e[c].resets)
			break;
		vt_sleep_ms(10);
	}
	VT_ASSERT_EQ(a1.device_resets, a0.device_resets);
	for (i = 0; i < a1.count; i++) {
		VT_ASSERT_EQ(a1.e[i].resets, a0.e[i].resets + (i == c));
		VT_ASSERT_EQ(a1.e[i].preempt[VT_PREEMPT_FORCED],
			     a0.e[i].preempt[VT_PREEMPT_FORCED]);
	}
}

/* --- lifetimes --- */

/*
 * Two contexts' long buffers fill the HW queue of a compute engine; the
 * engine is asked to stop them (debugfs @control: force_preempt or
 * force_reset), and debugfs hold_preempt holds it between the stop of the
 * running buffer and the hand-back of its HW queue to the arbiter.  Right
 * there, one context is destroyed: the running buffer's (@running) or the
 * next one's, as the HW queue shows them while held.  The destroyed context's buffer ends with -ECANCELED and
 * never resumes (its marker stays short of the end); the other's
 * completes with correct results, unbanned, innocent of a reset it saw;
 * the engine runs new work afterwards.
 */
static void destroy_while_engine_stops(const char *control, bool running)
{
	struct fx f = fx_open();
	struct vt_bo b = vt_bo_new(&f.d, 4 * VT_MIB);
	__u32 x = vt_ctx_create(f.d.fd, COMPUTE, 0), y = vt_ctx_create(f.d.fd, COMPUTE, 0);
	bool reset = !strcmp(control, "force_reset");
	unsigned int e = engine_of(f.d.fd, x), kept_mark;
	long long held = vt_hold_waited(f.d.fd, "hold_preempt");
	struct drm_vaccel_context_state s;
	long long slot[2];
	bool mine[2];
	__u32 ox, oy, gone, gone_out, kept, kept_out, after;
	__u64 kept_off;
	char index[16];

	ox = long_work(&f, x, &b, 0, 0);
	oy = long_work(&f, y, &b, 2 * VT_MIB, 1);
	WAIT_MARK(&f, 0, 1);
	wait_hw_queue(&f, e, x, y);
	vt_hold(f.d.fd, "hold_preempt", true);
	snprintf(index, sizeof(index), "%u\n", e);
	VT_ASSERT_OK(vt_debugfs_write(f.d.fd, control, index));
	vt_hold_reached(f.d.fd, "hold_preempt", held);

	/* Slot 0 holds the running buffer: x's, or y's after a time slice. */
	vt_hw_queue(f.d.fd, e, slot, mine);
	VT_ASSERT(mine[0] && mine[1]);
	gone = slot[running ? 0 : 1];
	VT_ASSERT(gone == x || gone == y);
	gone_out = gone == x ? ox : oy;
	kept = gone == x ? y : x;
	kept_out = gone == x ? oy : ox;
	kept_mark = gone == x ? 1 : 0;
	kept_off = gone == x ? 2 * VT_MIB : 0;
	vt_ctx_destroy(f.d.fd, gone);
	vt_hold(f.d.fd, "hold_preempt", false);

	VT_ASSERT_OK(vt_syncobj_wait_ms(f.d.fd, gone_out, VT_TIMEOUT_MS));
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, gone_out), -ECANCELED);
	VT_ASSERT_EQ(vt_wait_status(f.d.fd, kept_out), 1);
	EXPECT_WORDS(&b, kept_off + VT_MIB, VT_MIB, 0x7e5e0000 + kept_mark);
	VT_ASSERT_EQ(VT_U32(&f.data, MARK(kept_mark)), 2);
	VT_ASSERT(VT_U32(&f.data, MARK(1 - kept_mark)) != 2);
	s = vt_ctx_state(f.d.fd, kept);
	VT_ASSERT_EQ(s.flags, 0);
	VT_ASSERT_EQ(s.ban_reason, 0);
	VT_ASSERT_EQ(s.guilty_resets, 0);
	VT_ASSERT_EQ(s.innocent_resets, reset ? 1 : 0);

	vt_pkt_write32(&f.c, f.data.va + MARK(9), 9);
	after = submit_out(&f, kept);
	VT_ASSERT_EQ(vt_wait_status(f.d.fd, after), 1);
	VT_ASSERT_EQ(VT_U32(&f.data, MARK(9)), 9);
	vt_dev_close(&f.d);
}

/* See destroy_while_engine_stops(): a forced preemption, either context. */
VTEST(destroy_during_forced_preemption)
{
	destroy_while_engine_stops("force_preempt", true);
	destroy_while_engine_stops("force_preempt", false);
}

/* See destroy_while_engine_stops(): an engine reset, either context. */
VTEST(destroy_during_reset)
{
	destroy_while_engine_stops("force_reset", true);
	destroy_while_engine_stops("force_reset", false);
}

/*
 * A context destroyed, and its file closed, right after a buffer completes
 * while its next buffer of the same address space waits in the HW queue:
 * the engine must not stay attached to the address space, which is freed
 * (the kernel would WARN, then corrupt a list).  Many times over, with
 * the kernel log checked by the plan.
 */
VTEST(destroy_behind_completed_buffer)
{
	unsigned int i;

	for (i = 0; i < 40; i++) {
		struct fx f = fx_open();
		__u32 ctx = vt_ctx_create(f.d.fd, COMPUTE, 0), first;

		vt_pkt_delay(&f.c, VT_MS);
		first = submit_out(&f, ctx);
		vt_pkt_delay(&f.c, 50 * VT_MS);
		vt_submit(f.d.fd, ctx, &f.c, 0, 0);
		vt_syncobj_wait(f.d.fd, first);
		VT_ASSERT_EQ(vt_fence_status(f.d.fd, first), 1);
		vt_ctx_destroy(f.d.fd, ctx);
		vt_dev_close(&f.d);
	}
}

VTEST_MAIN()
