// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_submit.c - DRM_IOCTL_VACCEL_SUBMIT with raw ioctls and libdrm
 * syncobjs: every documented error (ENOENT, EINVAL, E2BIG, EFAULT, the
 * {stride, count, array} rules of the sync arrays), in-order completion
 * on a context, binary and timeline syncobjs ordering work across contexts
 * and engines, waits on points that the CPU or a gate job signals,
 * destroying and closing with work pending (also work that waits on
 * another context), two processes sharing an engine, and the submit and
 * wait round trip.
 *
 * Needs root; any topology with two COMPUTE engines and a COPY engine (the
 * default one).
 */
#include <signal.h>
#include <sys/socket.h>

#include "vt_exec.h"

#define COMPUTE	DRM_VACCEL_ENGINE_CLASS_COMPUTE
#define COPY	DRM_VACCEL_ENGINE_CLASS_COPY

/* An open file, a command BO, a data BO and a context on compute engine 0. */
static struct vt_work fx_open(void)
{
	return vt_work_open(256 * VT_KIB, 64 * VT_KIB, COMPUTE, 0);
}

/* A SUBMIT with every field chosen by the caller. */
static int submit_full(int fd, __u32 ctx, __u32 flags, __u64 va, __u64 size,
		       __u32 wstride, __u32 wcount, const void *waits,
		       __u32 sstride, __u32 scount, const void *signals)
{
	struct drm_vaccel_submit s = {
		.context = ctx,
		.flags = flags,
		.buffer_va = va,
		.buffer_size = size,
		.waits = { wstride, wcount, (__u64)(uintptr_t)waits },
		.signals = { sstride, scount, (__u64)(uintptr_t)signals },
	};

	return ioctl(fd, DRM_IOCTL_VACCEL_SUBMIT, &s);
}

static __u64 submitted(struct vt_work *f)
{
	return vt_ctx_state(f->d.fd, f->ctx).jobs_submitted;
}

/* A syncobj has no fence: nothing was ever installed in it. */
static void expect_no_fence(int fd, __u32 h, int line)
{
	int sfd = vt_sync_file_raw(fd, h);

	if (sfd >= 0)
		vtest_fail(__FILE__, line, "syncobj %u got a fence", h);
}

/* --- errors --- */

VTEST(enoent_context)
{
	struct vt_work f = fx_open();
	__u32 h = vt_ctx_create(f.d.fd, COPY, 0);

	vt_pkt_nop(&f.c, 1);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, 0, vt_cmd_va(&f.c), 8, NULL, 0, NULL, 0),
			ENOENT);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, h + 100, vt_cmd_va(&f.c), 8, NULL, 0, NULL, 0),
			ENOENT);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, 0xffffffffu, vt_cmd_va(&f.c), 8, NULL, 0,
				      NULL, 0), ENOENT);
	vt_ctx_destroy(f.d.fd, h);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, h, vt_cmd_va(&f.c), 8, NULL, 0, NULL, 0),
			ENOENT);
	VT_ASSERT_EQ(submitted(&f), 0);
}

/* A malformed buffer range or flags: EINVAL, and nothing queued. */
VTEST(einval_buffer_and_flags)
{
	struct vt_work f = fx_open();
	__u64 va = f.c.bo.va, M = DRM_VACCEL_MAX_BUFFER_SIZE;
	__u32 out = vt_syncobj(f.d.fd);
	struct drm_vaccel_sync sig = { .handle = out };
	struct {
		const char *what;
		__u32 flags;
		__u64 va, size;
	} bad[] = {
		{ "size 0", 0, va, 0 },
		{ "size 4", 0, va, 4 },
		{ "size 12", 0, va, 12 },
		{ "size 7", 0, va, 7 },
		{ "va + 4", 0, va + 4, 8 },
		{ "va + 1", 0, va + 1, 8 },
		{ "va + 2", 0, va + 2, 16 },
		{ "size past the maximum", 0, va, M + 8 },
		{ "size twice the maximum", 0, va, 2 * M },
		{ "size 2^63", 0, va, 1ull << 63 },
		{ "size ~7", 0, va, ~7ull },
		{ "flags 1", 1, va, 8 },
		{ "flags 1 << 31", 1u << 31, va, 8 },
	};
	unsigned int i;

	*VT_U64P(&f.c.bo, 0) = DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_NOP, 0, 1);
	*VT_U64P(&f.c.bo, 8) = DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_NOP, 0, 1);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		errno = 0;
		if (submit_full(f.d.fd, f.ctx, bad[i].flags, bad[i].va, bad[i].size, 16, 0,
				NULL, 16, 1, &sig) != -1 || errno != EINVAL)
			vtest_fail(__FILE__, __LINE__, "%s: expected EINVAL, got %s",
				   bad[i].what, strerror(errno));
	}
	VT_ASSERT_EQ(submitted(&f), 0);
	expect_no_fence(f.d.fd, out, __LINE__);
	/* The good one next to them. */
	VT_ASSERT_EQ(submit_full(f.d.fd, f.ctx, 0, va, 16, 16, 0, NULL, 16, 1, &sig), 0);
	vt_syncobj_wait(f.d.fd, out);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, out), 1);
	VT_ASSERT_EQ(submitted(&f), 1);
}

/* A buffer of exactly DRM_VACCEL_MAX_BUFFER_SIZE bytes is accepted and runs. */
VTEST(max_buffer_size)
{
	struct vt_work f = fx_open();
	const __u64 M = DRM_VACCEL_MAX_BUFFER_SIZE, big = 0xffff * 8;
	struct vt_bo buf;
	__u64 off;

	VT_ASSERT(f.d.info.max_bo_size >= M);
	buf = vt_bo_new(&f.d, M);
	/* The longest NOPs, then one for the rest, then a write at the end. */
	for (off = 0; off + big <= M - 32; off += big)
		*VT_U64P(&buf, off) = DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_NOP, 0, 0xffff);
	*VT_U64P(&buf, off) = DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_NOP, 0,
						    (M - 24 - off) / 8);
	*VT_U64P(&buf, M - 24) = DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_WRITE_IMM, 0, 3);
	*VT_U64P(&buf, M - 16) = f.data.va;
	*VT_U64P(&buf, M - 8) = 0x600d;
	{
		__u32 o = vt_syncobj(f.d.fd);
		struct drm_vaccel_sync sig = { .handle = o };

		VT_ASSERT_EQ(vt_submit_raw(f.d.fd, f.ctx, buf.va, M, NULL, 0, &sig, 1), 0);
		vt_syncobj_wait(f.d.fd, o);
		VT_ASSERT_EQ(vt_fence_status(f.d.fd, o), 1);
	}
	VT_ASSERT_EQ(VT_U32(&f.data, 0), 0x600d);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, buf.va, M + 8, NULL, 0, NULL, 0),
			EINVAL);
}

/*
 * Sync arrays: unknown syncobjs ENOENT, flags EINVAL, more than
 * DRM_VACCEL_MAX_SYNCS E2BIG, unreadable arrays EFAULT; nothing is queued
 * and no syncobj of the failed call gets a fence.
 */
VTEST(sync_errors)
{
	struct vt_work f = fx_open();
	__u32 done = vt_syncobj_flags(f.d.fd, DRM_SYNCOBJ_CREATE_SIGNALED);
	__u32 out = vt_syncobj(f.d.fd), unknown = out + 1000;
	struct drm_vaccel_sync ok_w[2] = { { .handle = done }, { .handle = done } };
	struct drm_vaccel_sync ok_s = { .handle = out };
	struct drm_vaccel_sync bad_w[2] = { { .handle = done }, { .handle = unknown } };
	struct drm_vaccel_sync bad_s[2] = { { .handle = out }, { .handle = unknown } };
	struct drm_vaccel_sync many[DRM_VACCEL_MAX_SYNCS + 1];
	struct drm_vaccel_sync flagged = { .handle = done, .flags = 1 };
	struct drm_vaccel_sync flagged_s = { .handle = out, .flags = 1u << 31 };
	unsigned char *two;
	void *gone;
	__u64 va, size;
	unsigned int i;

	vt_pkt_nop(&f.c, 1);
	va = vt_cmd_va(&f.c);
	size = vt_cmd_size(&f.c);
	for (i = 0; i < ARRAY_SIZE(many); i++)
		many[i] = (struct drm_vaccel_sync){ .handle = done };
	/* A readable page, then an unmapped one. */
	two = mmap(NULL, 2 * VT_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	VT_ASSERT(two != MAP_FAILED);
	gone = two + VT_PAGE;
	VT_ASSERT_EQ(munmap(gone, VT_PAGE), 0);
	memcpy(gone - sizeof(ok_w[0]), &ok_w[0], sizeof(ok_w[0]));

	/* ENOENT: an unknown syncobj to wait for, or to signal. */
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, va, size, bad_w, 2, &ok_s, 1), ENOENT);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, va, size, ok_w, 2, bad_s, 2), ENOENT);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, va, size, NULL, 0, &bad_s[1], 1), ENOENT);
	/* EINVAL: flags in a sync. */
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, va, size, &flagged, 1, &ok_s, 1), EINVAL);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, va, size, ok_w, 2, &flagged_s, 1),
			EINVAL);
	/* E2BIG: one past the maximum. */
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, va, size, many,
				      DRM_VACCEL_MAX_SYNCS + 1, &ok_s, 1), E2BIG);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, va, size, NULL, 0, many,
				      DRM_VACCEL_MAX_SYNCS + 1), E2BIG);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, va, size, many, 0xffffffffu, NULL, 0),
			E2BIG);
	/* EFAULT: arrays that cannot be read. */
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, va, size, gone, 1, &ok_s, 1), EFAULT);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, va, size, ok_w, 2, gone, 1), EFAULT);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, va, size, (void *)8, 1, NULL, 0), EFAULT);
	/* The array is readable, its second element not. */
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, va, size,
				      (struct drm_vaccel_sync *)gone - 1, 2, &ok_s, 1), EFAULT);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, va, size, ok_w, 2,
				      (struct drm_vaccel_sync *)gone - 1, 2), EFAULT);

	VT_ASSERT_EQ(submitted(&f), 0);
	expect_no_fence(f.d.fd, out, __LINE__);
	/* The maximum itself is fine, waiting and signalling. */
	VT_ASSERT_EQ(vt_submit_raw(f.d.fd, f.ctx, va, size, many, DRM_VACCEL_MAX_SYNCS,
				   &ok_s, 1), 0);
	vt_syncobj_wait(f.d.fd, out);
	VT_ASSERT_EQ(submitted(&f), 1);
}

/* 64 out-syncobjs all get the job's fence. */
VTEST(max_signals)
{
	struct vt_work f = fx_open();
	struct drm_vaccel_sync s[DRM_VACCEL_MAX_SYNCS];
	unsigned int i;

	for (i = 0; i < DRM_VACCEL_MAX_SYNCS; i++)
		s[i] = (struct drm_vaccel_sync){ .handle = vt_syncobj(f.d.fd) };
	vt_pkt_wait_eq32(&f.c, f.data.va, 1);
	vt_submit_syncs(f.d.fd, f.ctx, &f.c, NULL, 0, s, DRM_VACCEL_MAX_SYNCS);
	vt_sleep_ms(VT_SETTLE_MS);
	for (i = 0; i < DRM_VACCEL_MAX_SYNCS; i++)
		VT_ASSERT(!vt_syncobj_signalled(f.d.fd, s[i].handle));
	VT_U32(&f.data, 0) = 1;
	for (i = 0; i < DRM_VACCEL_MAX_SYNCS; i++) {
		vt_syncobj_wait(f.d.fd, s[i].handle);
		VT_ASSERT_EQ(vt_fence_status(f.d.fd, s[i].handle), 1);
	}
}

/* The stride rules of VM_BIND's arrays, for waits and for signals. */
VTEST(sync_array_stride)
{
	struct vt_work f = fx_open();
	__u32 done = vt_syncobj_flags(f.d.fd, DRM_SYNCOBJ_CREATE_SIGNALED);
	__u32 out = vt_syncobj(f.d.fd);
	static __u64 raw[3 * 4096 / 8];
	struct {
		__u32 stride;
		int err;	/* 0: accepted */
		bool tail;	/* a non-zero byte past the 16 known ones */
	} cases[] = {
		{ 0, EINVAL, false }, { 8, EINVAL, false }, { 12, EINVAL, false },
		{ 15, EINVAL, false }, { 4097, EINVAL, false }, { 8192, EINVAL, false },
		{ 16, 0, false }, { 24, 0, false }, { 4096, 0, false },
		{ 24, EINVAL, true }, { 32, EINVAL, true }, { 4096, EINVAL, true },
	};
	unsigned int i, side;
	__u64 n = 0;

	vt_pkt_nop(&f.c, 1);
	for (side = 0; side < 2; side++) {
		for (i = 0; i < ARRAY_SIZE(cases); i++) {
			__u32 st = cases[i].stride, k;
			unsigned char *p = (unsigned char *)raw;
			int r;

			memset(raw, 0, sizeof(raw));
			/* Two elements, @st apart (when that fits). */
			for (k = 0; k < 2 && (k == 0 || st >= 16); k++) {
				struct drm_vaccel_sync *e = (void *)(p + (size_t)k * st);

				e->handle = side ? out : done;
				if (cases[i].tail && st > 16)
					p[(size_t)k * st + st - 1] = k + 1;
			}
			errno = 0;
			if (side == 0)
				r = submit_full(f.d.fd, f.ctx, 0, vt_cmd_va(&f.c), 8, st, 2,
						raw, 16, 0, NULL);
			else
				r = submit_full(f.d.fd, f.ctx, 0, vt_cmd_va(&f.c), 8, 16, 0,
						NULL, st, 2, raw);
			if (cases[i].err ? r != -1 || errno != cases[i].err : r != 0)
				vtest_fail(__FILE__, __LINE__,
					   "%s stride %u%s: got %d/%s, expected %s",
					   side ? "signals" : "waits", st,
					   cases[i].tail ? " with a tail" : "", r,
					   strerror(errno),
					   cases[i].err ? strerror(cases[i].err) : "success");
			if (!r)
				n++;
			if (!r && side)
				vt_syncobj_wait(f.d.fd, out);
		}
	}
	VT_ASSERT_EQ(submitted(&f), n);
	VT_ASSERT_EQ(n, 6);
}

/*
 * A wait on a timeline point that has no fence is EINVAL (the uapi), and
 * nothing is queued.
 */
VTEST(wait_point_without_fence)
{
	struct vt_work f = fx_open();
	__u32 tl = vt_syncobj(f.d.fd), out = vt_syncobj(f.d.fd);
	struct drm_vaccel_sync w = { .handle = tl, .point = 1 };
	struct drm_vaccel_sync s = { .handle = out };
	uint64_t p3 = 3;

	/* A point with no fence yet is refused, as the uapi says: EINVAL. */
	vt_pkt_nop(&f.c, 1);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, vt_cmd_va(&f.c), 8, &w, 1, &s, 1),
			EINVAL);
	VT_ASSERT_EQ(drmSyncobjTimelineSignal(f.d.fd, &tl, &p3, 1), 0);
	w.point = 4;
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, vt_cmd_va(&f.c), 8, &w, 1, &s, 1),
			EINVAL);
	VT_ASSERT_EQ(submitted(&f), 0);
	expect_no_fence(f.d.fd, out, __LINE__);
	/* Points up to the last one are there. */
	w.point = 3;
	VT_ASSERT_EQ(vt_submit_raw(f.d.fd, f.ctx, vt_cmd_va(&f.c), 8, &w, 1, &s, 1), 0);
	vt_syncobj_wait(f.d.fd, out);
}

/*
 * Timeline points are 64 bits: with point 5 signalled, point 2^32 + 5 has
 * no fence, so waiting for it is EINVAL, not a wait for point 5.
 */
VTEST(wait_point_64_bits)
{
	struct vt_work f = fx_open();
	__u32 tl = vt_syncobj(f.d.fd), out = vt_syncobj(f.d.fd);
	struct drm_vaccel_sync w = { .handle = tl, .point = (1ull << 32) + 5 };
	struct drm_vaccel_sync s = { .handle = out };
	uint64_t p5 = 5;

	VT_ASSERT_EQ(drmSyncobjTimelineSignal(f.d.fd, &tl, &p5, 1), 0);
	/* Point 2^32 + 5 has no fence: a 32-bit cut would find point 5's. */
	vt_pkt_nop(&f.c, 1);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, vt_cmd_va(&f.c), 8, &w, 1, &s, 1),
			EINVAL);
	VT_ASSERT_EQ(submitted(&f), 0);
}

/* --- ordering --- */

/*
 * 100 jobs on one context, queued behind a gate: they complete in
 * submission order.  Each reads the shared word (it must hold the previous
 * job's index), writes its own index there and takes a timestamp in its
 * own slot; the timestamps strictly increase.
 */
VTEST(in_order_100_jobs)
{
	struct vt_work f = fx_open();
	const unsigned int n = 100;
	struct vt_bo prev = vt_bo_new(&f.d, 4 * n), ts = vt_bo_new(&f.d, 8 * n);
	__u32 out[100], i;

	VT_U32(&f.data, 0) = 0xffffffff;
	for (i = 0; i < n; i++) {
		out[i] = vt_syncobj(f.d.fd);
		if (i == 0)
			vt_pkt_wait_eq32(&f.c, f.data.va + 64, 1);
		vt_pkt_copy(&f.c, f.data.va, prev.va + 4 * i, 4);
		vt_pkt_write32(&f.c, f.data.va, i);
		vt_pkt_timestamp(&f.c, ts.va + 8 * i);
		vt_submit(f.d.fd, f.ctx, &f.c, 0, out[i]);
	}
	vt_sleep_ms(VT_SETTLE_MS);
	VT_ASSERT(!vt_syncobj_signalled(f.d.fd, out[n - 1]));
	VT_ASSERT_EQ(vt_ctx_state(f.d.fd, f.ctx).jobs_submitted, n);
	VT_ASSERT_EQ(vt_ctx_state(f.d.fd, f.ctx).jobs_completed, 0);
	VT_U32(&f.data, 64) = 1;

	vt_syncobj_wait(f.d.fd, out[n - 1]);
	/* When the last has signalled, every earlier one has. */
	for (i = 0; i < n; i++) {
		VT_ASSERT(vt_syncobj_signalled(f.d.fd, out[i]));
		VT_ASSERT_EQ(vt_fence_status(f.d.fd, out[i]), 1);
	}
	VT_ASSERT_EQ(VT_U32(&f.data, 0), n - 1);
	for (i = 0; i < n; i++) {
		VT_ASSERT_EQ(VT_U32(&prev, 4 * i), i ? i - 1 : 0xffffffff);
		if (i && VT_U64(&ts, 8 * i) <= VT_U64(&ts, 8 * (i - 1)))
			vtest_fail(__FILE__, __LINE__, "timestamp %u: %llu after %llu", i,
				   (unsigned long long)VT_U64(&ts, 8 * i),
				   (unsigned long long)VT_U64(&ts, 8 * (i - 1)));
	}
	VT_ASSERT_EQ(vt_ctx_state(f.d.fd, f.ctx).jobs_completed, n);
}

/*
 * Binary syncobjs order two contexts on different engines: B waits for
 * A's out-syncobj, A delays then writes, B copies what A wrote.  Then the
 * same with B on the copy engine, waiting on two syncobjs and signalling
 * two.
 */
VTEST(binary_syncobj_across_engines)
{
	struct vt_work f = fx_open();
	__u32 a = f.ctx, b1, b2, sa = vt_syncobj(f.d.fd), sb = vt_syncobj(f.d.fd);
	__u32 sb2 = vt_syncobj(f.d.fd);
	__u32 done = vt_syncobj_flags(f.d.fd, DRM_SYNCOBJ_CREATE_SIGNALED);
	struct drm_vaccel_sync w[2] = { { .handle = done }, { .handle = sa } };
	struct drm_vaccel_sync s[2] = { { .handle = sb }, { .handle = sb2 } };
	int round;

	VT_REQUIRE_ENGINES(&f.d, COMPUTE, 2);
	VT_REQUIRE_ENGINES(&f.d, COPY, 1);
	b1 = vt_ctx_create(f.d.fd, COMPUTE, 1);
	b2 = vt_ctx_create(f.d.fd, COPY, 0);
	for (round = 0; round < 2; round++) {
		__u64 x = 256 * round, y = x + 8, ta = x + 16, tb = x + 24;
		__u32 value = 0xc0ffee00 + round;

		vt_pkt_delay(&f.c, 50 * VT_MS);
		vt_pkt_timestamp(&f.c, f.data.va + ta);
		vt_pkt_write32(&f.c, f.data.va + x, value);
		vt_submit(f.d.fd, a, &f.c, 0, sa);

		if (round == 0) {
			vt_pkt_timestamp(&f.c, f.data.va + tb);
			vt_pkt_copy(&f.c, f.data.va + x, f.data.va + y, 4);
			vt_submit(f.d.fd, b1, &f.c, sa, sb);
			vt_syncobj_wait(f.d.fd, sb);
			VT_ASSERT(VT_U64(&f.data, tb) >= VT_U64(&f.data, ta));
		} else {
			vt_pkt_copy(&f.c, f.data.va + x, f.data.va + y, 4);
			vt_submit_syncs(f.d.fd, b2, &f.c, w, 2, s, 2);
			vt_syncobj_wait(f.d.fd, sb);
			vt_syncobj_wait(f.d.fd, sb2);
			VT_ASSERT_EQ(vt_fence_status(f.d.fd, sb2), 1);
		}
		VT_ASSERT_EQ(vt_fence_status(f.d.fd, sb), 1);
		/* A is done: B waited for it. */
		VT_ASSERT(vt_syncobj_signalled(f.d.fd, sa));
		VT_ASSERT_EQ(VT_U32(&f.data, y), value);
	}
}

/*
 * Successive jobs of one context signal points 1, 2 and 3 of a timeline;
 * a context on another engine waits for point 2 and sees the work of jobs
 * 1 and 2 done.
 */
VTEST(timeline_points)
{
	struct vt_work f = fx_open();
	__u32 a = f.ctx, b, tl = vt_syncobj(f.d.fd), ob = vt_syncobj(f.d.fd), k;
	struct drm_vaccel_sync w = { .handle = tl, .point = 2 };
	struct drm_vaccel_sync s = { .handle = ob };

	VT_REQUIRE_ENGINES(&f.d, COMPUTE, 2);
	b = vt_ctx_create(f.d.fd, COMPUTE, 1);
	for (k = 1; k <= 3; k++) {
		struct drm_vaccel_sync sig = { .handle = tl, .point = k };

		if (k == 1)
			vt_pkt_wait_eq32(&f.c, f.data.va + 128, 1);	/* gate */
		if (k == 3)
			vt_pkt_delay(&f.c, 50 * VT_MS);
		vt_pkt_write32(&f.c, f.data.va, k);
		vt_pkt_timestamp(&f.c, f.data.va + 8 * k);
		vt_submit_syncs(f.d.fd, a, &f.c, NULL, 0, &sig, 1);
	}
	vt_pkt_timestamp(&f.c, f.data.va + 64);
	vt_pkt_copy(&f.c, f.data.va, f.data.va + 72, 4);
	vt_submit_syncs(f.d.fd, b, &f.c, &w, 1, &s, 1);

	vt_sleep_ms(VT_SETTLE_MS);
	VT_ASSERT_EQ(vt_timeline_point(f.d.fd, tl), 0);
	VT_ASSERT(!vt_syncobj_signalled(f.d.fd, ob));
	VT_ASSERT_EQ(vt_timeline_wait_ms(f.d.fd, tl, 1, 0), -ETIME);

	VT_U32(&f.data, 128) = 1;
	vt_syncobj_wait(f.d.fd, ob);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, ob), 1);
	VT_ASSERT_EQ(vt_timeline_wait_ms(f.d.fd, tl, 2, 0), 0);
	/* B ran after job 2, and saw its write (or job 3's). */
	VT_ASSERT(VT_U64(&f.data, 64) >= VT_U64(&f.data, 16));
	VT_ASSERT(VT_U32(&f.data, 72) >= 2);
	VT_ASSERT_EQ(vt_timeline_wait_ms(f.d.fd, tl, 3, VT_TIMEOUT_MS), 0);
	VT_ASSERT_EQ(vt_timeline_point(f.d.fd, tl), 3);
	VT_ASSERT_EQ(VT_U32(&f.data, 0), 3);
	VT_ASSERT(VT_U64(&f.data, 8) <= VT_U64(&f.data, 16));
	VT_ASSERT(VT_U64(&f.data, 16) <= VT_U64(&f.data, 24));
}

/*
 * A wait on timeline point 5 that a gate job signals: the gate WAIT_MEMs on
 * a word the CPU writes later; the waiting job runs only then.
 */
VTEST(timeline_gate_job)
{
	struct vt_work f = fx_open();
	__u32 g = f.ctx, w, tl = vt_syncobj(f.d.fd), ow = vt_syncobj(f.d.fd);
	struct drm_vaccel_sync sig5 = { .handle = tl, .point = 5 };
	struct drm_vaccel_sync wait5 = { .handle = tl, .point = 5 };
	struct drm_vaccel_sync s = { .handle = ow };

	VT_REQUIRE_ENGINES(&f.d, COPY, 1);
	w = vt_ctx_create(f.d.fd, COPY, 0);
	vt_pkt_wait_eq32(&f.c, f.data.va, 0x6a7e);
	vt_submit_syncs(f.d.fd, g, &f.c, NULL, 0, &sig5, 1);
	vt_pkt_fill(&f.c, f.data.va + 64, 4, 0x5);
	vt_submit_syncs(f.d.fd, w, &f.c, &wait5, 1, &s, 1);

	vt_sleep_ms(VT_SETTLE_MS);
	VT_ASSERT(!vt_syncobj_signalled(f.d.fd, ow));
	VT_ASSERT_EQ(VT_U32(&f.data, 64), 0);
	VT_ASSERT(vt_timeline_point(f.d.fd, tl) < 5);
	VT_ASSERT_EQ(vt_timeline_wait_ms(f.d.fd, tl, 5, 0), -ETIME);

	VT_U32(&f.data, 0) = 0x6a7e;
	VT_ASSERT_EQ(vt_timeline_wait_ms(f.d.fd, tl, 5, VT_TIMEOUT_MS), 0);
	vt_syncobj_wait(f.d.fd, ow);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, ow), 1);
	VT_ASSERT_EQ(VT_U32(&f.data, 64), 5);
	VT_ASSERT_EQ(vt_timeline_point(f.d.fd, tl), 5);
}

/* Waits on points and binary syncobjs the CPU signalled before the submit. */
VTEST(wait_cpu_signalled)
{
	struct vt_work f = fx_open();
	__u32 tl = vt_syncobj(f.d.fd), bin = vt_syncobj(f.d.fd), out = vt_syncobj(f.d.fd);
	struct drm_vaccel_sync w[3] = {
		{ .handle = tl, .point = 5 }, { .handle = tl, .point = 2 }, { .handle = bin },
	};
	uint64_t p5 = 5;

	VT_ASSERT_EQ(drmSyncobjTimelineSignal(f.d.fd, &tl, &p5, 1), 0);
	VT_ASSERT_EQ(drmSyncobjSignal(f.d.fd, &bin, 1), 0);
	vt_pkt_write32(&f.c, f.data.va, 0x51);
	{
		struct drm_vaccel_sync s = { .handle = out };

		vt_submit_syncs(f.d.fd, f.ctx, &f.c, w, 3, &s, 1);
	}
	vt_syncobj_wait(f.d.fd, out);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, out), 1);
	VT_ASSERT_EQ(VT_U32(&f.data, 0), 0x51);
}

/* A job may signal a timeline point and another wait on it as binary. */
VTEST(timeline_transfer_to_binary)
{
	struct vt_work f = fx_open();
	__u32 tl = vt_syncobj(f.d.fd), bin = vt_syncobj(f.d.fd), out = vt_syncobj(f.d.fd);
	struct drm_vaccel_sync s7 = { .handle = tl, .point = 7 };

	vt_pkt_write32(&f.c, f.data.va, 1);
	vt_submit_syncs(f.d.fd, f.ctx, &f.c, NULL, 0, &s7, 1);
	VT_ASSERT_EQ(drmSyncobjTransfer(f.d.fd, bin, 0, tl, 7, 0), 0);
	vt_pkt_write32(&f.c, f.data.va + 4, 2);
	vt_submit(f.d.fd, vt_ctx_create(f.d.fd, COMPUTE, DRM_VACCEL_ENGINE_ANY), &f.c, bin, out);
	vt_syncobj_wait(f.d.fd, out);
	VT_ASSERT_EQ(VT_U32(&f.data, 0), 1);
	VT_ASSERT_EQ(VT_U32(&f.data, 4), 2);
	VT_ASSERT_EQ(vt_timeline_point(f.d.fd, tl), 7);
}

/* --- destroy and close with work pending --- */

/*
 * Destroying a context that runs a WAIT_MEM never satisfied, with 10 jobs
 * queued behind it: destroy returns within a second, and every fence
 * signals with an error (-ECANCELED for the queued ones).
 */
VTEST(destroy_with_pending_jobs)
{
	struct vt_work f = fx_open();
	__u32 out[11], other;
	int sf[11], i;
	struct drm_vaccel_context_state st;

	for (i = 0; i < 11; i++) {
		out[i] = vt_syncobj(f.d.fd);
		if (i == 0) {
			vt_pkt_write32(&f.c, f.data.va + 4, 1);		/* running */
			vt_pkt_wait_eq32(&f.c, f.data.va, 1);		/* never */
		} else {
			vt_pkt_write32(&f.c, f.data.va + 8 + 4 * i, 1);
		}
		vt_submit(f.d.fd, f.ctx, &f.c, 0, out[i]);
	}
	for (i = 0; i < 11; i++)
		sf[i] = vt_sync_file_named(f.d.fd, out[i]);
	VT_ASSERT(vt_poll_u32(VT_U32P(&f.data, 4), 1, VT_TIMEOUT_MS));

	VT_EXPECT_WITHIN_MS(1000, "destroy", vt_ctx_destroy(f.d.fd, f.ctx));
	for (i = 0; i < 11; i++) {
		/* The syncobjs outlive the context, and are signalled. */
		VT_ASSERT(vt_syncobj_signalled(f.d.fd, out[i]));
		VT_ASSERT(vt_sync_file_wait(sf[i], 0));
		if (i)
			VT_ASSERT_EQ(vt_sync_file_status(sf[i]), -ECANCELED);
		else
			VT_ASSERT(vt_sync_file_status(sf[i]) < 0);
		VT_ASSERT_EQ(VT_U32(&f.data, 8 + 4 * i), 0);
	}
	VT_ASSERT_ERRNO(vt_ctx_state_raw(f.d.fd, f.ctx, 0, &st), ENOENT);
	vt_pkt_nop(&f.c, 1);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, vt_cmd_va(&f.c), 8, NULL, 0, NULL, 0),
			ENOENT);
	/* The engine serves others. */
	other = vt_ctx_create(f.d.fd, COMPUTE, 0);
	vt_pkt_write32(&f.c, f.data.va + 128, 0x0e);
	vt_run(f.d.fd, other, &f.c);
	VT_ASSERT_EQ(VT_U32(&f.data, 128), 0x0e);
}

struct destroy_thread {
	int fd;
	__u32 ctx;
	volatile int done;
	int ret, err;
};

static void *destroy_thread_fn(void *p)
{
	struct destroy_thread *t = p;

	t->ret = vt_ctx_destroy_raw(t->fd, t->ctx, 0);
	t->err = errno;
	__atomic_store_n(&t->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/*
 * Destroying a context whose job waits for another context's job that does
 * not end (a WAIT_MEM never satisfied): destroy does not wait for that
 * other job, and the waiting job ends with -ECANCELED once it has.  If destroy does
 * block, the case releases the gate so as not to hang, and fails.
 */
VTEST(destroy_with_foreign_dependency)
{
	struct vt_work f = fx_open();
	__u32 a = f.ctx, b = vt_ctx_create(f.d.fd, COMPUTE, 1);
	__u32 sa = vt_syncobj(f.d.fd), sb = vt_syncobj(f.d.fd);
	struct destroy_thread t = { .fd = f.d.fd, .ctx = b };
	pthread_t th;
	__u64 start, took;
	int sfb, blocked;

	VT_REQUIRE_ENGINES(&f.d, COMPUTE, 2);
	vt_pkt_wait_eq32(&f.c, f.data.va, 1);
	vt_submit(f.d.fd, a, &f.c, 0, sa);
	vt_pkt_write32(&f.c, f.data.va + 4, 1);
	vt_submit(f.d.fd, b, &f.c, sa, sb);
	sfb = vt_sync_file_named(f.d.fd, sb);
	vt_sleep_ms(VT_SETTLE_MS);

	start = vt_now_ns();
	VT_ASSERT_EQ(pthread_create(&th, NULL, destroy_thread_fn, &t), 0);
	while (!__atomic_load_n(&t.done, __ATOMIC_SEQ_CST) &&
	       vt_now_ns() - start < 1500 * VT_MS)
		usleep(1000);
	took = vt_now_ns() - start;
	blocked = !__atomic_load_n(&t.done, __ATOMIC_SEQ_CST);
	/* Release the gate either way, so that nothing hangs. */
	VT_U32(&f.data, 0) = 1;
	VT_ASSERT_EQ(pthread_join(th, NULL), 0);
	if (blocked)
		vtest_fail(__FILE__, __LINE__,
			   "destroy blocked until the other context's job ended");
	VT_ASSERT_EQ(t.ret, 0);
	if (took >= 1000 * VT_MS)
		vtest_fail(__FILE__, __LINE__, "destroy took %llu ms",
			   (unsigned long long)(took / VT_MS));
	/* Cancelled while waiting for its dependency. */
	VT_ASSERT(vt_sync_file_wait(sfb, VT_TIMEOUT_MS));
	VT_ASSERT_EQ(vt_sync_file_status(sfb), -ECANCELED);
	VT_ASSERT_EQ(VT_U32(&f.data, 4), 0);
	vt_syncobj_wait(f.d.fd, sa);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, sa), 1);
}

/*
 * A process exits with contexts whose jobs wait for a job of another of
 * its contexts, which never ends (a WAIT_MEM): the exit must complete.
 * Contexts are destroyed in some order at close; waiters are made on both
 * sides of the gate context's handle so that one of them goes first,
 * whichever the order.  The gate word is shared with the parent as a
 * dma-buf: if the child does not go away, the parent releases the gate so
 * that nothing hangs, and fails.
 */
VTEST(exit_with_foreign_dependency)
{
	int sv[2], dmabuf, status = 0, blocked = 0;
	volatile __u32 *gate;
	pid_t pid;
	__u64 start;

	VT_ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid = fork();
	if (pid == 0) {
		struct vt_work f = fx_open();
		__u32 placeholder, a, b, c, sa = vt_syncobj(f.d.fd);

		close(sv[0]);
		/* The gate goes to the parent first, whatever happens next. */
		vt_send_fd(sv[1], vt_prime_export(f.d.fd, f.data.handle));
		placeholder = vt_ctx_create(f.d.fd, COMPUTE, 1);
		a = vt_ctx_create(f.d.fd, COMPUTE, 0);
		b = vt_ctx_create(f.d.fd, COMPUTE, 1);
		vt_ctx_destroy(f.d.fd, placeholder);
		c = vt_ctx_create(f.d.fd, COMPUTE, 1);
		VT_ASSERT(c < a && a < b);
		vt_pkt_wait_eq32(&f.c, f.data.va, 1);
		vt_submit(f.d.fd, a, &f.c, 0, sa);
		vt_pkt_write32(&f.c, f.data.va + 4, 1);
		vt_submit(f.d.fd, b, &f.c, sa, 0);
		vt_pkt_write32(&f.c, f.data.va + 8, 1);
		vt_submit(f.d.fd, c, &f.c, sa, 0);
		/* Exit without closing anything: the kernel cleans up. */
		_exit(0);
	}
	VT_ASSERT(pid > 0);
	close(sv[1]);
	dmabuf = vt_recv_fd(sv[0]);
	gate = mmap(NULL, VT_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, dmabuf, 0);
	VT_ASSERT(gate != MAP_FAILED);

	start = vt_now_ns();
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (vt_now_ns() - start > 5000 * VT_MS) {
			blocked = 1;
			break;
		}
		usleep(1000);
	}
	if (blocked) {
		gate[0] = 1;
		start = vt_now_ns();
		while (waitpid(pid, &status, WNOHANG) == 0 &&
		       vt_now_ns() - start < VT_TIMEOUT_MS * VT_MS)
			usleep(1000);
		vtest_fail(__FILE__, __LINE__,
			   "the exiting process hung until its contexts' work ended");
	}
	VT_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	munmap((void *)gate, VT_PAGE);
	close(dmabuf);
}

/* --- several processes --- */

/*
 * Two processes, each with its own context on compute engine 0, submit
 * 200 jobs each at the same time: all complete, with the right results.
 */
VTEST(two_processes_same_engine)
{
	const unsigned int n = 200;
	int go[2], p;
	pid_t pid[2];

	VT_ASSERT_EQ(pipe(go), 0);
	for (p = 0; p < 2; p++) {
		pid[p] = fork();
		if (pid[p] == 0) {
			struct vt_work f = fx_open();
			struct vt_bo res = vt_bo_new(&f.d, 8 * n);
			__u32 out = vt_syncobj(f.d.fd), seed = 0x10000 * (p + 1), i;
			struct drm_vaccel_context_state s;
			char byte;

			close(go[1]);
			VT_ASSERT_EQ(read(go[0], &byte, 1), 0);
			for (i = 0; i < n; i++) {
				vt_pkt_write32(&f.c, f.data.va + 4 * i, seed + i);
				vt_pkt_copy(&f.c, f.data.va + 4 * i, res.va + 8 * i, 4);
				vt_pkt_fill(&f.c, res.va + 8 * i + 4, 4, ~(seed + i));
				vt_submit(f.d.fd, f.ctx, &f.c, 0, i == n - 1 ? out : 0);
			}
			vt_syncobj_wait(f.d.fd, out);
			VT_ASSERT_EQ(vt_fence_status(f.d.fd, out), 1);
			for (i = 0; i < n; i++) {
				VT_ASSERT_EQ(VT_U32(&res, 8 * i), seed + i);
				VT_ASSERT_EQ(VT_U32(&res, 8 * i + 4), ~(seed + i));
			}
			s = vt_ctx_state(f.d.fd, f.ctx);
			VT_ASSERT_EQ(s.jobs_submitted, n);
			VT_ASSERT_EQ(s.jobs_completed, n);
			VT_ASSERT_EQ(s.flags, 0);
			_exit(0);
		}
		VT_ASSERT(pid[p] > 0);
	}
	close(go[0]);
	close(go[1]);		/* both start */
	for (p = 0; p < 2; p++)
		vt_wait_child(pid[p]);
}

/* Submit a NOP and wait for it, 1000 times over. */
VTEST(nop_round_trip_1000)
{
	struct vt_work f = fx_open();
	__u32 out = vt_syncobj(f.d.fd), i;
	struct drm_vaccel_sync s = { .handle = out };
	struct drm_vaccel_context_state st;
	__u64 va;

	vt_pkt_nop(&f.c, 1);
	va = vt_cmd_va(&f.c);
	for (i = 0; i < 1000; i++) {
		int r;

		if (vt_submit_raw(f.d.fd, f.ctx, va, 8, NULL, 0, &s, 1))
			vtest_fail(__FILE__, __LINE__, "submit %u: %s", i, strerror(errno));
		r = vt_syncobj_wait_ms(f.d.fd, out, VT_TIMEOUT_MS);
		if (r)
			vtest_fail(__FILE__, __LINE__, "wait %u: %s", i, strerror(-r));
	}
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, out), 1);
	st = vt_ctx_state(f.d.fd, f.ctx);
	VT_ASSERT_EQ(st.jobs_submitted, 1000);
	VT_ASSERT_EQ(st.jobs_completed, 1000);
	VT_ASSERT_EQ(st.flags, 0);
}

VTEST_MAIN()
