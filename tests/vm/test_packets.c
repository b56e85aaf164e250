// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_packets.c - the packets of a DMA buffer, each checked through CPU
 * mappings of the BOs it touches: WRITE_IMM, COPY (memmove semantics),
 * FILL, TIMESTAMP against CLOCK_MONOTONIC, DELAY, WAIT_MEM with every
 * comparison (satisfied by the CPU, by another engine, or at once), NOP
 * padding; then faults: malformed packets, unmapped, read-only and
 * out-of-range memory, buffers that cannot be fetched.  A fault must show
 * in the job's fence (-EINVAL malformed, -EFAULT memory), in CONTEXT_STATE
 * (reason, access, VA, packet offset), stop the buffer at the faulting
 * packet, cancel the context's later jobs (-ECANCELED) and refuse later
 * submits (ECANCELED), while other contexts keep running.
 *
 * Needs root; any topology with two COMPUTE engines and a COPY engine (the
 * default one).
 */
#include "vt_exec.h"

#define COMPUTE	DRM_VACCEL_ENGINE_CLASS_COMPUTE
#define COPY	DRM_VACCEL_ENGINE_CLASS_COPY

#define DATA_SIZE	(64 * VT_KIB)
#define MARK		(DATA_SIZE - 64)	/* markers at the end of the data BO */

/*
 * An open file, a command BO, a data BO, a BO for the markers of
 * bad_buffer() and a context on compute engine 0.
 */
struct fx {
	struct vt_dev d;
	struct vt_cmd c;
	struct vt_bo data;
	struct vt_bo marks;
	__u32 ctx;
};

static struct fx fx_open(void)
{
	struct fx f;

	f.d = vt_dev_open();
	f.c = vt_cmd_new(&f.d, 1 * VT_MIB);
	f.data = vt_bo_new(&f.d, DATA_SIZE);
	f.marks = vt_bo_new(&f.d, VT_PAGE);
	f.ctx = vt_ctx_create(f.d.fd, COMPUTE, 0);
	return f;
}

/* The fault address is the faulting packet's own VA. */
#define AT_PACKET	(~0ull)
/* The access is not checked (malformed packets). */
#define ANY_ACCESS	(-1)

/*
 * Runs, on a fresh context of compute engine 0, the buffer
 *	WRITE_IMM marker 1; @w[0..@n); WRITE_IMM marker 2
 * (markers in their own BO)
 * (the second marker only if the whole of @w is in the buffer: @inbuf
 * words of @w are, the rest lies in memory past the buffer's end) and
 * expects the packets of @w to fault: the fence carries @err, the context
 * records @reason, @access and @va at the offset of @w, the first marker
 * is written and the second is not, and the context takes no more work.
 */
static void bad_buffer(struct fx *f, const __u64 *w, unsigned int n,
		       unsigned int inbuf, int err, __u32 reason, int access,
		       __u64 va, int line)
{
	__u32 ctx = vt_ctx_create(f->d.fd, COMPUTE, 0), o = vt_syncobj(f->d.fd);
	struct drm_vaccel_sync sig = { .handle = o };
	__u64 off, size, bva;
	unsigned int i;
	int st;

	VT_U32(&f->marks, 0) = 0;
	VT_U32(&f->marks, 4) = 0;
	vt_pkt_write32(&f->c, f->marks.va, 1);
	off = vt_cmd_offset(&f->c);
	for (i = 0; i < n; i++)
		vt_emit(&f->c, w[i]);
	if (inbuf == n)
		vt_pkt_write32(&f->c, f->marks.va + 4, 1);
	bva = vt_cmd_va(&f->c);
	size = inbuf == n ? vt_cmd_size(&f->c) : off + 8ull * inbuf;
	if (vt_submit_raw(f->d.fd, ctx, bva, size, NULL, 0, &sig, 1))
		vtest_fail(__FILE__, line, "SUBMIT: %s", strerror(errno));
	vt_cmd_next(&f->c);
	if (vt_syncobj_wait_ms(f->d.fd, o, VT_TIMEOUT_MS))
		vtest_fail(__FILE__, line, "the faulting job did not end");
	st = vt_fence_status(f->d.fd, o);
	if (st != err)
		vtest_fail(__FILE__, line, "fence status %d (%s), expected %d (%s)", st,
			   st < 0 ? strerror(-st) : "-", err, strerror(-err));
	{
		struct drm_vaccel_context_state s = vt_ctx_state(f->d.fd, ctx);
		__u64 fva = va == AT_PACKET ? bva + off : va;

		if (s.flags != (DRM_VACCEL_CONTEXT_FAULTED | DRM_VACCEL_CONTEXT_BANNED) || s.fault_reason != reason ||
		    (access >= 0 && s.fault_access != (__u32)access) ||
		    s.fault_va != fva || s.fault_offset != off)
			vtest_fail(__FILE__, line,
				   "fault: flags 0x%x reason %u access %u va 0x%llx offset %llu; "
				   "expected reason %u access %d va 0x%llx offset %llu",
				   s.flags, s.fault_reason, s.fault_access,
				   (unsigned long long)s.fault_va,
				   (unsigned long long)s.fault_offset, reason, access,
				   (unsigned long long)fva, (unsigned long long)off);
		if (s.jobs_submitted != 1 || s.jobs_completed != 1)
			vtest_fail(__FILE__, line, "jobs submitted %llu completed %llu",
				   (unsigned long long)s.jobs_submitted,
				   (unsigned long long)s.jobs_completed);
	}
	if (VT_U32(&f->marks, 0) != 1)
		vtest_fail(__FILE__, line, "the packet before the fault did not run");
	if (VT_U32(&f->marks, 4) != 0)
		vtest_fail(__FILE__, line, "a packet after the fault ran");
	errno = 0;
	if (vt_submit_raw(f->d.fd, ctx, bva, 24, NULL, 0, NULL, 0) != -1 ||
	    errno != ECANCELED)
		vtest_fail(__FILE__, line, "SUBMIT after the fault: %s", strerror(errno));
	vt_ctx_destroy(f->d.fd, ctx);
	drmSyncobjDestroy(f->d.fd, o);
}

#define BAD(f, w, inbuf, err, reason, access, va)			\
	bad_buffer(f, w, ARRAY_SIZE(w), inbuf, err, reason, access, va, __LINE__)
#define MALFORMED(f, ...)						\
	do {								\
		const __u64 _w[] = { __VA_ARGS__ };			\
		BAD(f, _w, ARRAY_SIZE(_w), -EINVAL, DRM_VACCEL_FAULT_MALFORMED, \
		    ANY_ACCESS, AT_PACKET);				\
	} while (0)
#define HDR(op, flags, words)	DRM_VACCEL_PKT_HEADER(op, flags, words)

/* --- WRITE_IMM --- */

VTEST(write_imm)
{
	struct fx f = fx_open();
	__u64 v = f.data.va;
	unsigned int i;

	memset(f.data.cpu, 0xaa, DATA_SIZE);
	vt_pkt_write32(&f.c, v + 0, 0x1122334455667788ull);
	vt_pkt_write32(&f.c, v + 12, 0xdeadbeef);
	vt_pkt_write64(&f.c, v + 16, 0x0123456789abcdefull);
	vt_pkt_write64(&f.c, v + 24, 0);
	vt_pkt_write32(&f.c, v + VT_PAGE - 4, 0xcafef00d);	/* last word of a page */
	vt_pkt_write64(&f.c, v + 2 * VT_PAGE - 8, 0xfeedfacecafebeefull);
	vt_pkt_write32(&f.c, v + 32, 0x1);
	vt_pkt_write32(&f.c, v + 32, 0x2);			/* in packet order */
	vt_run(f.d.fd, f.ctx, &f.c);

	/* 32 bits: the low half of the value, the next bytes untouched. */
	VT_ASSERT_EQ(VT_U32(&f.data, 0), 0x55667788);
	VT_ASSERT_EQ(VT_U32(&f.data, 4), 0xaaaaaaaa);
	VT_ASSERT_EQ(VT_U32(&f.data, 8), 0xaaaaaaaa);
	VT_ASSERT_EQ(VT_U32(&f.data, 12), 0xdeadbeef);
	VT_ASSERT_EQ(VT_U64(&f.data, 16), 0x0123456789abcdefull);
	VT_ASSERT_EQ(VT_U64(&f.data, 24), 0);
	VT_ASSERT_EQ(VT_U32(&f.data, 32), 2);
	VT_ASSERT_EQ(VT_U32(&f.data, 36), 0xaaaaaaaa);
	VT_ASSERT_EQ(VT_U32(&f.data, VT_PAGE - 8), 0xaaaaaaaa);
	VT_ASSERT_EQ(VT_U32(&f.data, VT_PAGE - 4), 0xcafef00d);
	VT_ASSERT_EQ(VT_U32(&f.data, VT_PAGE), 0xaaaaaaaa);
	VT_ASSERT_EQ(VT_U64(&f.data, 2 * VT_PAGE - 8), 0xfeedfacecafebeefull);
	for (i = 40; i < VT_PAGE - 8; i++)
		VT_ASSERT_EQ(*VT_U8P(&f.data, i), 0xaa);
	vt_expect_not_faulted(f.d.fd, f.ctx);
}

/* WRITE_IMM to an address not aligned to its size: MALFORMED. */
VTEST(write_imm_misaligned)
{
	struct fx f = fx_open();
	__u64 v = f.data.va;

	memset(f.data.cpu, 0xaa, 64);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3), v + 2, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3), v + 1, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3), v + 7, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WRITE_IMM, DRM_VACCEL_PKT_F_64BIT, 3), v + 4, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WRITE_IMM, DRM_VACCEL_PKT_F_64BIT, 3), v + 12, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WRITE_IMM, DRM_VACCEL_PKT_F_64BIT, 3), v + 1, 0);
	VT_ASSERT_EQ(VT_U64(&f.data, 0), 0xaaaaaaaaaaaaaaaaull);
	VT_ASSERT_EQ(VT_U64(&f.data, 8), 0xaaaaaaaaaaaaaaaaull);
}

/* --- COPY --- */

/* A pattern that differs at every byte of the first 64 KiB. */
static void pattern(volatile __u8 *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (__u8)(i * 7 + (i >> 8) * 13 + seed * 101 + 1);
}

static void expect_bytes(const volatile __u8 *got, const __u8 *want, size_t n,
			 int line)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (got[i] != want[i])
			vtest_fail(__FILE__, line, "byte %zu: 0x%02x, expected 0x%02x", i,
				   got[i], want[i]);
}

/* Small copies at odd offsets, with the bytes around untouched. */
VTEST(copy_small)
{
	struct fx f = fx_open();
	struct vt_bo src = vt_bo_new(&f.d, VT_PAGE);
	__u8 want[VT_PAGE];

	pattern(src.cpu, VT_PAGE, 1);
	memset(f.data.cpu, 0x5a, VT_PAGE);
	vt_pkt_copy(&f.c, src.va + 3, f.data.va + 5, 13);
	vt_pkt_copy(&f.c, src.va + 100, f.data.va + 200, 1);
	vt_pkt_copy(&f.c, src.va + 512, f.data.va + 1024, 8);
	vt_pkt_copy(&f.c, src.va + 1001, f.data.va + 2002, 3);
	vt_run(f.d.fd, f.ctx, &f.c);

	memset(want, 0x5a, sizeof(want));
	memcpy(want + 5, src.cpu + 3, 13);
	memcpy(want + 200, src.cpu + 100, 1);
	memcpy(want + 1024, src.cpu + 512, 8);
	memcpy(want + 2002, src.cpu + 1001, 3);
	expect_bytes(f.data.cpu, want, VT_PAGE, __LINE__);
}

/* Copies that cross page boundaries on either side, or both. */
VTEST(copy_page_crossing)
{
	struct fx f = fx_open();
	struct vt_bo src = vt_bo_new(&f.d, 8 * VT_PAGE);
	static __u8 want[DATA_SIZE];
	struct {
		__u64 s, d, n;
	} cp[] = {
		{ 4000, 100, 300 },			/* source crosses */
		{ 50, 8100, 300 },			/* destination crosses */
		{ 4090, 12280, 20 },			/* both, not in step */
		{ 3 * VT_PAGE - 1, 16 * VT_KIB + 7, 2 * VT_PAGE + 3 },	/* several pages */
		{ 17, 32 * VT_KIB + 4095, 3 * VT_PAGE + 17 },
	};
	unsigned int i;

	pattern(src.cpu, src.size, 2);
	memset(f.data.cpu, 0x33, DATA_SIZE);
	memset(want, 0x33, sizeof(want));
	for (i = 0; i < ARRAY_SIZE(cp); i++) {
		vt_pkt_copy(&f.c, src.va + cp[i].s, f.data.va + cp[i].d, cp[i].n);
		memcpy(want + cp[i].d, src.cpu + cp[i].s, cp[i].n);
	}
	vt_run(f.d.fd, f.ctx, &f.c);
	expect_bytes(f.data.cpu, want, DATA_SIZE, __LINE__);
}

/* 1 MiB in one packet, the byte after it untouched. */
VTEST(copy_1mib)
{
	struct fx f = fx_open();
	struct vt_bo src = vt_bo_new(&f.d, VT_MIB);
	struct vt_bo dst = vt_bo_new(&f.d, VT_MIB + VT_PAGE);

	vt_fill_pages(src.cpu, VT_MIB / VT_PAGE, 77);
	memset(dst.cpu, 0xee, dst.size);
	vt_pkt_copy(&f.c, src.va, dst.va, VT_MIB);
	vt_pkt_copy(&f.c, src.va + 1, dst.va + VT_MIB + 1, 64);
	vt_run(f.d.fd, f.ctx, &f.c);
	VT_ASSERT(!memcmp(dst.cpu, src.cpu, VT_MIB));
	VT_ASSERT_EQ(dst.cpu[VT_MIB], 0xee);
	VT_ASSERT(!memcmp(dst.cpu + VT_MIB + 1, src.cpu + 1, 64));
	VT_ASSERT_EQ(dst.cpu[VT_MIB + 65], 0xee);
}

/* Overlapping copies behave like memmove(), whatever the distance. */
static void copy_overlap(bool forward)
{
	struct fx f = fx_open();
	static __u8 want[DATA_SIZE];
	struct {
		__u64 a, b, n;		/* copy from a to b if forward, else b to a */
	} cp[] = {
		{ 0, 8, 64 },			/* within a page, 8 apart */
		{ 1000, 1001, 500 },		/* 1 byte apart */
		{ 8192, 8292, 3 * VT_PAGE + 100 },	/* within one chunk of 4 KiB */
		{ 24576, 29576, 3 * VT_PAGE },	/* across chunks */
		{ 45000, 45000 + VT_PAGE, 2 * VT_PAGE + 1 },	/* exactly a page */
		{ 100, 100, 50 },		/* onto itself */
	};
	unsigned int i;

	pattern(f.data.cpu, MARK, 3);
	memcpy(want, f.data.cpu, MARK);
	for (i = 0; i < ARRAY_SIZE(cp); i++) {
		__u64 s = forward ? cp[i].a : cp[i].b, d = forward ? cp[i].b : cp[i].a;

		VT_ASSERT(cp[i].b + cp[i].n <= MARK);
		vt_pkt_copy(&f.c, f.data.va + s, f.data.va + d, cp[i].n);
		memmove(want + d, want + s, cp[i].n);
	}
	vt_run(f.d.fd, f.ctx, &f.c);
	expect_bytes(f.data.cpu, want, MARK, __LINE__);
}

VTEST(copy_overlap_forward)
{
	copy_overlap(true);
}

VTEST(copy_overlap_backward)
{
	copy_overlap(false);
}

/* A copy of zero bytes does nothing and is no error. */
VTEST(copy_zero_size)
{
	struct fx f = fx_open();

	pattern(f.data.cpu, VT_PAGE, 4);
	vt_pkt_copy(&f.c, f.data.va, f.data.va + 8, 0);
	vt_pkt_copy(&f.c, f.data.va + 3, f.data.va + 2048, 0);
	vt_pkt_write32(&f.c, f.data.va + MARK, 1);
	vt_run(f.d.fd, f.ctx, &f.c);
	{
		__u8 want[VT_PAGE];

		pattern(want, VT_PAGE, 4);
		expect_bytes(f.data.cpu, want, VT_PAGE, __LINE__);
	}
	VT_ASSERT_EQ(VT_U32(&f.data, MARK), 1);
}

/* --- FILL --- */

VTEST(fill)
{
	struct fx f = fx_open();
	unsigned int i;

	memset(f.data.cpu, 0x55, DATA_SIZE);
	/* Only the low 32 bits of the value, repeated. */
	vt_pkt_fill(&f.c, f.data.va + 4, 8, 0x1234567899aabbccull);
	/* 4 bytes, the smallest. */
	vt_pkt_fill(&f.c, f.data.va + 64, 4, 0x01020304);
	/* From the last word of a page over three more pages and a bit. */
	vt_pkt_fill(&f.c, f.data.va + VT_PAGE - 4, 3 * VT_PAGE + 12, 0xdeadbeef);
	/* Zero bytes: nothing. */
	vt_pkt_fill(&f.c, f.data.va + 128, 0, 0xffffffff);
	vt_run(f.d.fd, f.ctx, &f.c);

	VT_ASSERT_EQ(VT_U32(&f.data, 0), 0x55555555);
	VT_ASSERT_EQ(VT_U32(&f.data, 4), 0x99aabbcc);
	VT_ASSERT_EQ(VT_U32(&f.data, 8), 0x99aabbcc);
	VT_ASSERT_EQ(VT_U32(&f.data, 12), 0x55555555);
	VT_ASSERT_EQ(VT_U32(&f.data, 60), 0x55555555);
	VT_ASSERT_EQ(VT_U32(&f.data, 64), 0x01020304);
	VT_ASSERT_EQ(VT_U32(&f.data, 68), 0x55555555);
	VT_ASSERT_EQ(VT_U32(&f.data, 128), 0x55555555);
	VT_ASSERT_EQ(VT_U32(&f.data, VT_PAGE - 8), 0x55555555);
	for (i = VT_PAGE - 4; i < 4 * VT_PAGE + 8; i += 4)
		if (VT_U32(&f.data, i) != 0xdeadbeef)
			vtest_fail(__FILE__, __LINE__, "word at %u: 0x%x", i,
				   VT_U32(&f.data, i));
	VT_ASSERT_EQ(VT_U32(&f.data, 4 * VT_PAGE + 8), 0x55555555);
}

/* FILL with a destination or a size not a multiple of 4: MALFORMED. */
VTEST(fill_misaligned)
{
	struct fx f = fx_open();
	__u64 v = f.data.va;

	memset(f.data.cpu, 0x55, 64);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_FILL, 0, 4), v + 2, 8, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_FILL, 0, 4), v + 1, 4, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_FILL, 0, 4), v, 6, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_FILL, 0, 4), v, 1, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_FILL, 0, 4), v + 4, 4097, 0);
	VT_ASSERT_EQ(VT_U64(&f.data, 0), 0x5555555555555555ull);
	VT_ASSERT_EQ(VT_U64(&f.data, 8), 0x5555555555555555ull);
}

/* --- TIMESTAMP and DELAY --- */

/* Timestamps are CLOCK_MONOTONIC ns, in packet and job order. */
VTEST(timestamp)
{
	struct fx f = fx_open();
	__u64 t0, t1, t2, t3;
	unsigned int i;

	t0 = vt_now_ns();
	for (i = 0; i < 4; i++)
		vt_pkt_timestamp(&f.c, f.data.va + 8 * i);
	vt_run(f.d.fd, f.ctx, &f.c);
	t1 = vt_now_ns();
	for (i = 0; i < 4; i++) {
		__u64 ts = VT_U64(&f.data, 8 * i);

		if (ts < t0 || ts > t1)
			vtest_fail(__FILE__, __LINE__,
				   "timestamp %u: %llu not in [%llu, %llu]", i,
				   (unsigned long long)ts, (unsigned long long)t0,
				   (unsigned long long)t1);
		if (i)
			VT_ASSERT(ts >= VT_U64(&f.data, 8 * (i - 1)));
	}
	/* A later job, after a CPU reading. */
	t2 = vt_now_ns();
	vt_pkt_timestamp(&f.c, f.data.va + 64);
	vt_run(f.d.fd, f.ctx, &f.c);
	t3 = vt_now_ns();
	VT_ASSERT(VT_U64(&f.data, 64) > VT_U64(&f.data, 24));
	VT_ASSERT(VT_U64(&f.data, 64) >= t2 && VT_U64(&f.data, 64) <= t3);
	/* The address must be 8-byte aligned. */
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_TIMESTAMP, 0, 2), f.data.va + 4);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_TIMESTAMP, 0, 2), f.data.va + 1);
}

/* DELAY occupies the engine for at least the time asked. */
VTEST(delay)
{
	struct fx f = fx_open();
	static const __u64 ns[] = { 0, 1000, 5 * VT_MS, 30 * VT_MS };
	unsigned int i;
	__u64 t0, t1;

	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		vt_pkt_timestamp(&f.c, f.data.va + 16 * i);
		vt_pkt_delay(&f.c, ns[i]);
		vt_pkt_timestamp(&f.c, f.data.va + 16 * i + 8);
	}
	t0 = vt_now_ns();
	vt_run(f.d.fd, f.ctx, &f.c);
	t1 = vt_now_ns();
	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		__u64 a = VT_U64(&f.data, 16 * i), b = VT_U64(&f.data, 16 * i + 8);

		if (b < a || b - a < ns[i])
			vtest_fail(__FILE__, __LINE__, "DELAY %llu ns took %lld ns",
				   (unsigned long long)ns[i], (long long)(b - a));
	}
	VT_ASSERT(t1 - t0 >= 35 * VT_MS + 1000);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_DELAY, 1, 2), 1000);
}

/*
 * Another context of the same engine gets its turn while a context has
 * many long buffers queued: time slices preempt the long DELAYs, so it
 * runs within the first of them or right after, long before the last
 * one starts; and every DELAY still lasts its time.
 */
VTEST(delay_does_not_starve_other_context)
{
	struct fx f = fx_open();
	__u32 a = f.ctx, b = vt_ctx_create(f.d.fd, COMPUTE, 0);
	__u32 oa = vt_syncobj(f.d.fd), ob = vt_syncobj(f.d.fd);
	const unsigned int n = 10;
	unsigned int i;
	__u64 tb;

	VT_ASSERT_EQ(vt_ctx_state(f.d.fd, a).engine_index,
		     vt_ctx_state(f.d.fd, b).engine_index);
	for (i = 0; i < n; i++) {
		vt_pkt_timestamp(&f.c, f.data.va + 16 * i);
		vt_pkt_delay(&f.c, 20 * VT_MS);
		vt_pkt_timestamp(&f.c, f.data.va + 16 * i + 8);
		vt_submit(f.d.fd, a, &f.c, 0, i == n - 1 ? oa : 0);
	}
	vt_pkt_timestamp(&f.c, f.data.va + 1024);
	vt_pkt_write32(&f.c, f.data.va + 1032, 0xb);
	vt_submit(f.d.fd, b, &f.c, 0, ob);

	vt_syncobj_wait(f.d.fd, ob);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, ob), 1);
	VT_ASSERT_EQ(VT_U32(&f.data, 1032), 0xb);
	vt_syncobj_wait(f.d.fd, oa);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, oa), 1);
	tb = VT_U64(&f.data, 1024);
	for (i = 0; i < n; i++)
		VT_ASSERT(VT_U64(&f.data, 16 * i + 8) - VT_U64(&f.data, 16 * i) >=
			  20 * VT_MS);
	VT_ASSERT(tb >= VT_U64(&f.data, 0));		/* after A started */
	if (tb >= VT_U64(&f.data, 16 * (n - 1)))
		vtest_fail(__FILE__, __LINE__,
			   "context B waited for all %u buffers of context A", n);
}

/* --- WAIT_MEM --- */

struct wait_case {
	const char *what;
	unsigned int op;
	bool wide;
	__u64 ref, mask;
	__u64 before;	/* does not satisfy the condition (and would if done wrong) */
	__u64 after;	/* satisfies it */
};

static const struct wait_case wait_cases[] = {
	{ "eq32", DRM_VACCEL_WAIT_EQ, false, 5, ~0ull, 4, 5 },
	{ "eq32 ref's high half ignored", DRM_VACCEL_WAIT_EQ, false,
	  0xabcd000000000007ull, 0xffffffffull, 6, 7 },
	{ "eq32 masked", DRM_VACCEL_WAIT_EQ, false, 0x3400, 0xff00, 0x12ab, 0x34cd },
	{ "eq64", DRM_VACCEL_WAIT_EQ, true, 0x100000000ull, ~0ull, 0, 0x100000000ull },
	{ "eq64 masked", DRM_VACCEL_WAIT_EQ, true, 0xff00000000000000ull,
	  0xff00000000000000ull, 0x00ffffffffffffffull, 0xff12345678abcdefull },
	{ "ne32 masked", DRM_VACCEL_WAIT_NE, false, 9, 0xff, 0x109, 0x10a },
	{ "ne64", DRM_VACCEL_WAIT_NE, true, 0x100000009ull, ~0ull, 0x100000009ull,
	  0x200000009ull },
	{ "gt32 unsigned", DRM_VACCEL_WAIT_GT, false, 1, ~0ull, 1, 0x80000000ull },
	{ "gt32 masked", DRM_VACCEL_WAIT_GT, false, 0x10, 0xf0, 0x1f, 0x20 },
	{ "gt64 unsigned", DRM_VACCEL_WAIT_GT, true, 0x7fffffffffffffffull, ~0ull,
	  0x7fffffffffffffffull, 0x8000000000000000ull },
	{ "ge32", DRM_VACCEL_WAIT_GE, false, 100, ~0ull, 99, 100 },
	{ "ge64", DRM_VACCEL_WAIT_GE, true, 0x100000000ull, ~0ull, 0xffffffffull,
	  0x100000000ull },
	{ "lt32 unsigned", DRM_VACCEL_WAIT_LT, false, 0x80000000ull, ~0ull,
	  0xffffffffull, 0x7fffffffull },
	{ "lt64", DRM_VACCEL_WAIT_LT, true, 0x500000000ull, ~0ull, 0x500000000ull,
	  0x4ffffffffull },
	{ "le32", DRM_VACCEL_WAIT_LE, false, 10, ~0ull, 11, 10 },
	{ "le64 masked", DRM_VACCEL_WAIT_LE, true, 0x1000000000000000ull,
	  0xff00000000000000ull, 0x1100000000000000ull, 0x10ffffffffffffffull },
};

/* Sets the watched word: 32 bits with garbage in the 4 bytes after, or 64. */
static void wait_set(struct vt_bo *b, __u64 off, const struct wait_case *w, __u64 v)
{
	if (w->wide) {
		VT_U64(b, off) = v;
	} else {
		VT_U32(b, off + 4) = 0xffffffff;
		VT_U32(b, off) = (__u32)v;
	}
}

/*
 * Each comparison, 32 and 64 bits, with masks: the job waits while the
 * memory does not satisfy it, and completes once the CPU writes a value
 * that does.
 */
VTEST(wait_mem_cpu_write)
{
	struct fx f = fx_open();
	__u32 o = vt_syncobj(f.d.fd);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wait_cases); i++) {
		const struct wait_case *w = &wait_cases[i];
		__u64 off = 64 * i, mark = MARK - 4 * (i % 8);

		wait_set(&f.data, off, w, w->before);
		VT_U32(&f.data, mark) = 0;
		vt_pkt_wait(&f.c, f.data.va + off, w->ref, w->mask, w->op, w->wide);
		vt_pkt_write32(&f.c, f.data.va + mark, i + 1);
		vt_submit(f.d.fd, f.ctx, &f.c, 0, o);
		vt_sleep_ms(VT_SETTLE_MS);
		if (vt_syncobj_signalled(f.d.fd, o) || VT_U32(&f.data, mark))
			vtest_fail(__FILE__, __LINE__, "%s: done before the condition held",
				   w->what);
		wait_set(&f.data, off, w, w->after);
		if (vt_syncobj_wait_ms(f.d.fd, o, VT_TIMEOUT_MS))
			vtest_fail(__FILE__, __LINE__, "%s: not done after the CPU write",
				   w->what);
		VT_ASSERT_EQ(vt_fence_status(f.d.fd, o), 1);
		VT_ASSERT_EQ(VT_U32(&f.data, mark), i + 1);
	}
	vt_expect_not_faulted(f.d.fd, f.ctx);
}

/* A condition that holds when the packet starts does not wait at all. */
VTEST(wait_mem_already_satisfied)
{
	struct fx f = fx_open();
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wait_cases); i++) {
		const struct wait_case *w = &wait_cases[i];

		wait_set(&f.data, 64 * i, w, w->after);
		vt_pkt_wait(&f.c, f.data.va + 64 * i, w->ref, w->mask, w->op, w->wide);
		vt_pkt_write32(&f.c, f.data.va + MARK, i + 1);
	}
	/* And one buffer is nothing but satisfied waits. */
	vt_run(f.d.fd, f.ctx, &f.c);
	VT_ASSERT_EQ(VT_U32(&f.data, MARK), ARRAY_SIZE(wait_cases));
}

/*
 * A WAIT_MEM on compute engine 0 is satisfied by another context's write
 * on another engine: WRITE_IMM on compute engine 1, FILL on the copy
 * engine.  The waiter resumes after the write.
 */
VTEST(wait_mem_other_engine)
{
	struct fx f = fx_open();
	__u32 w = f.ctx, ow = vt_syncobj(f.d.fd), ox = vt_syncobj(f.d.fd);
	__u32 x1 = vt_ctx_create(f.d.fd, COMPUTE, 1), x2;
	int round;

	VT_REQUIRE_ENGINES(&f.d, COMPUTE, 2);
	VT_REQUIRE_ENGINES(&f.d, COPY, 1);
	x2 = vt_ctx_create(f.d.fd, COPY, 0);
	for (round = 0; round < 2; round++) {
		__u64 flag = 256 * round, ts = flag + 8, tw = flag + 16;

		vt_pkt_wait(&f.c, f.data.va + flag, 0xf1a9, 0xffffffff, DRM_VACCEL_WAIT_EQ,
			    false);
		vt_pkt_timestamp(&f.c, f.data.va + tw);
		vt_submit(f.d.fd, w, &f.c, 0, ow);
		vt_sleep_ms(VT_SETTLE_MS);
		VT_ASSERT(!vt_syncobj_signalled(f.d.fd, ow));

		if (round == 0) {
			vt_pkt_delay(&f.c, 10 * VT_MS);
			vt_pkt_timestamp(&f.c, f.data.va + ts);
			vt_pkt_write32(&f.c, f.data.va + flag, 0xf1a9);
			vt_submit(f.d.fd, x1, &f.c, 0, ox);
		} else {
			/* Not the value yet, then the value, as a FILL. */
			vt_pkt_fill(&f.c, f.data.va + flag, 4, 0xf1a8);
			vt_submit(f.d.fd, x2, &f.c, 0, ox);
			vt_syncobj_wait(f.d.fd, ox);
			vt_sleep_ms(VT_SETTLE_MS);
			VT_ASSERT(!vt_syncobj_signalled(f.d.fd, ow));
			VT_U64(&f.data, ts) = vt_now_ns();
			vt_pkt_fill(&f.c, f.data.va + flag, 4, 0xf1a9);
			vt_submit(f.d.fd, x2, &f.c, 0, ox);
		}
		vt_syncobj_wait(f.d.fd, ox);
		VT_ASSERT_EQ(vt_fence_status(f.d.fd, ox), 1);
		vt_syncobj_wait(f.d.fd, ow);
		VT_ASSERT_EQ(vt_fence_status(f.d.fd, ow), 1);
		VT_ASSERT(VT_U64(&f.data, tw) >= VT_U64(&f.data, ts));
	}
}

/* A bad comparison, unknown flags or a misaligned address: MALFORMED. */
VTEST(wait_mem_malformed)
{
	struct fx f = fx_open();
	__u64 v = f.data.va;

	VT_U64(&f.data, 0) = 0;
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WAIT_MEM, DRM_VACCEL_PKT_WAIT_OP(6), 4), v, 0, ~0ull);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WAIT_MEM, DRM_VACCEL_PKT_WAIT_OP(7), 4), v, 0, ~0ull);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WAIT_MEM, DRM_VACCEL_PKT_WAIT_OP(7) | 1, 4), v, 0,
		  ~0ull);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WAIT_MEM, 1u << 4, 4), v, 0, ~0ull);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WAIT_MEM, 1u << 7, 4), v, 0, ~0ull);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WAIT_MEM, 0, 4), v + 2, 0, ~0ull);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WAIT_MEM, DRM_VACCEL_PKT_F_64BIT, 4), v + 4, 0,
		  ~0ull);
}

/* --- NOP --- */

/* NOPs of every length from 1 up, and the longest, are skipped whole. */
VTEST(nop_padding)
{
	struct fx f = fx_open();
	unsigned int k;

	/* A buffer of a single NOP. */
	vt_pkt_nop(&f.c, 1);
	vt_run(f.d.fd, f.ctx, &f.c);

	/* Its payload would be malformed if decoded (VT_NOP_FILL). */
	for (k = 1; k <= 24; k++) {
		vt_pkt_nop(&f.c, k);
		vt_pkt_write32(&f.c, f.data.va + 4 * k, k);
	}
	vt_pkt_nop(&f.c, 0xffff);
	vt_pkt_write32(&f.c, f.data.va, 0xffff);
	vt_pkt_nop(&f.c, 3);		/* the last packet of the buffer */
	vt_run(f.d.fd, f.ctx, &f.c);
	for (k = 1; k <= 24; k++)
		VT_ASSERT_EQ(VT_U32(&f.data, 4 * k), k);
	VT_ASSERT_EQ(VT_U32(&f.data, 0), 0xffff);
	vt_expect_not_faulted(f.d.fd, f.ctx);
}

/* --- faults --- */

/*
 * Malformed packets: the fence carries -EINVAL, the context is FAULTED
 * with reason MALFORMED at the packet's offset and VA.
 */
VTEST(malformed_packets)
{
	struct fx f = fx_open();
	__u64 v = f.data.va;

	/* Unknown opcodes. */
	MALFORMED(&f, HDR(0x7f, 0, 1));
	MALFORMED(&f, HDR(0xfe, 0, 2), 0);
	MALFORMED(&f, HDR(0x80, 0, 3), v, 0);
	MALFORMED(&f, HDR(0xff, 0, 1));
	/* Header bits 32 to 63. */
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3) | 1ull << 32, v, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3) | 1ull << 63, v, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_NOP, 0, 1) | 1ull << 40);
	/* Length 0. */
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_NOP, 0, 0), 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 0), v, 0);
	MALFORMED(&f, 0ull);
	/* The wrong length for the opcode (the buffer is long enough). */
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 1));
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 2), v);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 4), v, 0, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_COPY, 0, 3), v, v + 8);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_COPY, 0, 5), v, v + 8, 8, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_FILL, 0, 3), v, 4);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_FILL, 0, 5), v, 4, 0, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_TIMESTAMP, 0, 1));
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_TIMESTAMP, 0, 3), v, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WAIT_MEM, 0, 3), v, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WAIT_MEM, 0, 5), v, 0, 0, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_DELAY, 0, 1));
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_DELAY, 0, 3), 0, 0);
	/* Unknown flags. */
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_NOP, 1, 1));
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_NOP, 0x80, 2), 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WRITE_IMM, 2, 3), v, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_WRITE_IMM, 0x80 | DRM_VACCEL_PKT_F_64BIT, 3), v, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_COPY, 1, 4), v, v + 8, 8);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_FILL, 1, 4), v, 4, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_TIMESTAMP, 1, 2), v);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_DELAY, 0x40, 2), 0);
	/* Sizes past max_copy_size, whatever is mapped. */
	VT_ASSERT_EQ(f.d.info.max_copy_size, 4ull << 30);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_COPY, 0, 4), v, v + 8, (4ull << 30) + 1);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_COPY, 0, 4), v, v + 8, ~0ull);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_FILL, 0, 4), v, (4ull << 30) + 4, 0);
	MALFORMED(&f, HDR(DRM_VACCEL_PKT_FILL, 0, 4), v, ~3ull, 0);
}

/* A packet that runs past the end of its buffer: MALFORMED. */
/*
 * A buffer of short DELAYs progresses at every packet, so it never hangs:
 * the time limit (the plan loads time_limit_ms=1000) stops it, with
 * ETIMEDOUT and the ban reason TIME_LIMIT, and cancels what its context
 * queued behind it.
 */
VTEST_NAMED(time_limit_stops_many_short_packets)
{
	struct fx f = fx_open();
	long long limit_ms = vt_param("time_limit_ms");
	__u32 o1 = vt_syncobj(f.d.fd), o2 = vt_syncobj(f.d.fd);
	struct drm_vaccel_context_state s;
	unsigned int i, n = 4 * limit_ms / 100;
	__u64 va, before;

	VT_ASSERT_EQ(f.d.info.time_limit_ns, limit_ms * 1000000ull);
	for (i = 0; i < n; i++)
		vt_pkt_delay(&f.c, 100 * VT_MS);
	before = vt_ctx_state(f.d.fd, f.ctx).jobs_submitted;
	va = vt_cmd_va(&f.c);
	vt_submit(f.d.fd, f.ctx, &f.c, 0, o1);
	vt_pkt_write32(&f.c, f.marks.va, 1);
	vt_submit(f.d.fd, f.ctx, &f.c, 0, o2);
	VT_ASSERT_OK(vt_syncobj_wait_ms(f.d.fd, o2, 4 * limit_ms));
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, o1), -ETIMEDOUT);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, o2), -ECANCELED);
	VT_ASSERT_EQ(VT_U32(&f.marks, 0), 0);
	s = vt_ctx_state(f.d.fd, f.ctx);
	VT_ASSERT_EQ(s.ban_reason, DRM_VACCEL_BAN_TIME_LIMIT);
	VT_ASSERT_EQ(s.guilty_resets, 0);
	/* The ban names the buffer and the DELAY it was stopped in (uapi 1.6). */
	VT_ASSERT_EQ(s.ban_job, before + 1);
	VT_ASSERT(s.ban_buffer_va == va);
	VT_ASSERT(s.ban_offset % 16 == 0 && s.ban_offset > 0 && s.ban_offset < n * 16ull);
	VT_ASSERT_EQ(s.flags, DRM_VACCEL_CONTEXT_BANNED);
	if (s.engine_ns < (__u64)limit_ms * VT_MS ||
	    s.engine_ns > (__u64)limit_ms * VT_MS * 3 / 2)
		vtest_fail(__FILE__, __LINE__, "stopped after %llu ms of engine time",
			   (unsigned long long)(s.engine_ns / VT_MS));
}

VTEST(malformed_past_buffer_end)
{
	struct fx f = fx_open();
	__u64 v = f.data.va;
	const __u64 w3[] = { HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3), v + 8, 0x77 };
	const __u64 w4[] = { HDR(DRM_VACCEL_PKT_COPY, 0, 4), v, v + 8, 8 };
	const __u64 nop[] = { HDR(DRM_VACCEL_PKT_NOP, 0, 6), 0, 0, 0, 0, 0 };
	const __u64 big[] = { HDR(DRM_VACCEL_PKT_NOP, 0, 0xffff), 0 };

	VT_U32(&f.data, 8) = 0;
	/* The rest of the packet is in memory, past the buffer's size. */
	BAD(&f, w3, 2, -EINVAL, DRM_VACCEL_FAULT_MALFORMED, ANY_ACCESS, AT_PACKET);
	BAD(&f, w3, 1, -EINVAL, DRM_VACCEL_FAULT_MALFORMED, ANY_ACCESS, AT_PACKET);
	BAD(&f, w4, 3, -EINVAL, DRM_VACCEL_FAULT_MALFORMED, ANY_ACCESS, AT_PACKET);
	BAD(&f, nop, 5, -EINVAL, DRM_VACCEL_FAULT_MALFORMED, ANY_ACCESS, AT_PACKET);
	BAD(&f, big, 2, -EINVAL, DRM_VACCEL_FAULT_MALFORMED, ANY_ACCESS, AT_PACKET);
	VT_ASSERT_EQ(VT_U32(&f.data, 8), 0);
}

#define MEMFAULT(f, reason, access, va, ...)				\
	do {								\
		const __u64 _w[] = { __VA_ARGS__ };			\
		BAD(f, _w, ARRAY_SIZE(_w), -EFAULT, reason, access, va); \
	} while (0)

/* Reads and writes of unmapped memory: UNMAPPED, with the access. */
VTEST(fault_unmapped)
{
	struct fx f = fx_open();
	__u64 hole = vt_va_hole(&f.d), v = f.data.va;
	__u64 end = f.data.va + f.data.size;	/* the guard after the BO */
	const __u32 R = DRM_VACCEL_ACCESS_READ, W = DRM_VACCEL_ACCESS_WRITE;
	const __u32 U = DRM_VACCEL_FAULT_UNMAPPED;
	static __u8 want[DATA_SIZE];

	pattern(f.data.cpu, DATA_SIZE, 5);
	memcpy(want, f.data.cpu, DATA_SIZE);
	/* COPY from a hole, into a hole. */
	MEMFAULT(&f, U, R, hole, HDR(DRM_VACCEL_PKT_COPY, 0, 4), hole, v, 64);
	MEMFAULT(&f, U, W, hole + VT_PAGE, HDR(DRM_VACCEL_PKT_COPY, 0, 4), v, hole + VT_PAGE,
		 64);
	/* Other writes and reads. */
	MEMFAULT(&f, U, W, hole + 8, HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3), hole + 8, 1);
	MEMFAULT(&f, U, W, hole, HDR(DRM_VACCEL_PKT_WRITE_IMM, DRM_VACCEL_PKT_F_64BIT, 3),
		 hole, 1);
	MEMFAULT(&f, U, W, hole + 64, HDR(DRM_VACCEL_PKT_FILL, 0, 4), hole + 64, 64, 0);
	MEMFAULT(&f, U, W, hole, HDR(DRM_VACCEL_PKT_TIMESTAMP, 0, 2), hole);
	MEMFAULT(&f, U, R, hole + 4, HDR(DRM_VACCEL_PKT_WAIT_MEM, 0, 4), hole + 4, 0, ~0ull);
	/*
	 * An access that runs from the BO into the hole after it faults at
	 * the first unmapped page, and moves nothing, not even its mapped part.
	 */
	MEMFAULT(&f, U, R, end, HDR(DRM_VACCEL_PKT_COPY, 0, 4), end - 64, v + 128, 128);
	MEMFAULT(&f, U, W, end, HDR(DRM_VACCEL_PKT_COPY, 0, 4), v, end - 128, 256);
	MEMFAULT(&f, U, W, end, HDR(DRM_VACCEL_PKT_FILL, 0, 4), end - 256, 512, 0);
	expect_bytes(f.data.cpu, want, DATA_SIZE, __LINE__);
}

/* Writes to a read-only mapping: PERMISSION, WRITE; reading it is fine. */
VTEST(fault_read_only)
{
	struct fx f = fx_open();
	struct vt_bo ro = vt_bo_new_flags(&f.d, 2 * VT_PAGE, DRM_VACCEL_VM_BIND_READ_ONLY);
	const __u32 W = DRM_VACCEL_ACCESS_WRITE, P = DRM_VACCEL_FAULT_PERMISSION;
	__u8 want[2 * VT_PAGE];

	pattern(ro.cpu, ro.size, 6);
	memcpy(want, ro.cpu, sizeof(want));
	/* Reading works. */
	vt_pkt_copy(&f.c, ro.va + 10, f.data.va, 100);
	vt_pkt_wait(&f.c, ro.va, VT_U32(&ro, 0), ~0ull, DRM_VACCEL_WAIT_EQ, false);
	vt_run(f.d.fd, f.ctx, &f.c);
	expect_bytes(f.data.cpu, want + 10, 100, __LINE__);

	MEMFAULT(&f, P, W, ro.va + 8, HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3), ro.va + 8, 0);
	MEMFAULT(&f, P, W, ro.va + VT_PAGE,
		 HDR(DRM_VACCEL_PKT_WRITE_IMM, DRM_VACCEL_PKT_F_64BIT, 3), ro.va + VT_PAGE, 0);
	MEMFAULT(&f, P, W, ro.va + 16, HDR(DRM_VACCEL_PKT_COPY, 0, 4), f.data.va, ro.va + 16,
		 32);
	MEMFAULT(&f, P, W, ro.va, HDR(DRM_VACCEL_PKT_FILL, 0, 4), ro.va, 2 * VT_PAGE, 0);
	MEMFAULT(&f, P, W, ro.va + 64, HDR(DRM_VACCEL_PKT_TIMESTAMP, 0, 2), ro.va + 64);
	expect_bytes(ro.cpu, want, sizeof(want), __LINE__);
}

/* Addresses outside the VA space: OUT_OF_RANGE. */
VTEST(fault_out_of_range)
{
	struct fx f = fx_open();
	__u64 ve = f.d.info.va_end, v = f.data.va;
	const __u32 R = DRM_VACCEL_ACCESS_READ, W = DRM_VACCEL_ACCESS_WRITE;
	const __u32 O = DRM_VACCEL_FAULT_OUT_OF_RANGE;

	MEMFAULT(&f, O, W, ve, HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3), ve, 1);
	MEMFAULT(&f, O, W, ve + VT_PAGE, HDR(DRM_VACCEL_PKT_TIMESTAMP, 0, 2), ve + VT_PAGE);
	MEMFAULT(&f, O, R, 1ull << 60, HDR(DRM_VACCEL_PKT_COPY, 0, 4), 1ull << 60, v, 8);
	MEMFAULT(&f, O, W, 0xfffffffffffff000ull, HDR(DRM_VACCEL_PKT_FILL, 0, 4),
		 0xfffffffffffff000ull, 64, 0);
	MEMFAULT(&f, O, W, 0xfffffffffffffff8ull,
		 HDR(DRM_VACCEL_PKT_WRITE_IMM, DRM_VACCEL_PKT_F_64BIT, 3),
		 0xfffffffffffffff8ull, 1);
	MEMFAULT(&f, O, R, ve - 4 + VT_PAGE, HDR(DRM_VACCEL_PKT_WAIT_MEM, 0, 4),
		 ve - 4 + VT_PAGE, 0, ~0ull);
}

/*
 * The pages below va_start are never mapped, so that a null pointer
 * faults: whether that is called OUT_OF_RANGE or UNMAPPED, it must fault.
 */
VTEST(fault_null_pointer)
{
	struct fx f = fx_open();
	__u64 bad[] = { 0, 8, f.d.info.va_start - 8 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		__u32 ctx = vt_ctx_create(f.d.fd, COMPUTE, 0), o = vt_syncobj(f.d.fd);
		struct drm_vaccel_context_state s;

		vt_pkt_write32(&f.c, bad[i], 1);
		vt_submit(f.d.fd, ctx, &f.c, 0, o);
		vt_syncobj_wait(f.d.fd, o);
		VT_ASSERT_EQ(vt_fence_status(f.d.fd, o), -EFAULT);
		s = vt_ctx_state(f.d.fd, ctx);
		VT_ASSERT_EQ(s.flags, (DRM_VACCEL_CONTEXT_FAULTED | DRM_VACCEL_CONTEXT_BANNED));
		VT_ASSERT(s.fault_reason == DRM_VACCEL_FAULT_OUT_OF_RANGE ||
			  s.fault_reason == DRM_VACCEL_FAULT_UNMAPPED);
		VT_ASSERT_EQ(s.fault_access, DRM_VACCEL_ACCESS_WRITE);
		VT_ASSERT_EQ(s.fault_va, bad[i]);
		VT_ASSERT_EQ(s.fault_offset, 0);
		vt_ctx_destroy(f.d.fd, ctx);
	}
}

/* Submits @size bytes at @va and expects a fetch fault of the buffer. */
static void fetch_fault(struct fx *f, __u64 va, __u64 size, __u32 reason,
			__u64 fault_va, __u64 offset, int line)
{
	__u32 ctx = vt_ctx_create(f->d.fd, COMPUTE, 0), o = vt_syncobj(f->d.fd);
	struct drm_vaccel_sync sig = { .handle = o };
	struct drm_vaccel_context_state s;
	int st;

	if (vt_submit_raw(f->d.fd, ctx, va, size, NULL, 0, &sig, 1))
		vtest_fail(__FILE__, line, "SUBMIT: %s", strerror(errno));
	if (vt_syncobj_wait_ms(f->d.fd, o, VT_TIMEOUT_MS))
		vtest_fail(__FILE__, line, "the job did not end");
	st = vt_fence_status(f->d.fd, o);
	if (st != -EFAULT)
		vtest_fail(__FILE__, line, "fence status %d, expected -EFAULT", st);
	s = vt_ctx_state(f->d.fd, ctx);
	if (s.flags != (DRM_VACCEL_CONTEXT_FAULTED | DRM_VACCEL_CONTEXT_BANNED) || s.fault_reason != reason ||
	    s.fault_access != DRM_VACCEL_ACCESS_READ || s.fault_va != fault_va ||
	    s.fault_offset != offset)
		vtest_fail(__FILE__, line,
			   "fault: flags 0x%x reason %u access %u va 0x%llx offset %llu; "
			   "expected reason %u access READ va 0x%llx offset %llu",
			   s.flags, s.fault_reason, s.fault_access,
			   (unsigned long long)s.fault_va, (unsigned long long)s.fault_offset,
			   reason, (unsigned long long)fault_va, (unsigned long long)offset);
	vt_ctx_destroy(f->d.fd, ctx);
}

/* A buffer, or a packet of it, that cannot be fetched: a READ fault. */
VTEST(fault_fetch)
{
	struct fx f = fx_open();
	struct vt_bo edge = vt_bo_new(&f.d, VT_PAGE);
	__u64 hole = vt_va_hole(&f.d), end = edge.va + VT_PAGE;
	const __u32 U = DRM_VACCEL_FAULT_UNMAPPED;

	/* The buffer's VA itself. */
	fetch_fault(&f, hole, 8, U, hole, 0, __LINE__);
	fetch_fault(&f, hole + 0x100, 64, U, hole + 0x100, 0, __LINE__);
	fetch_fault(&f, f.d.info.va_end, 8, DRM_VACCEL_FAULT_OUT_OF_RANGE, f.d.info.va_end,
		    0, __LINE__);

	/* The next header is in the unmapped page after the BO. */
	*VT_U64P(&edge, VT_PAGE - 32) = HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3);
	*VT_U64P(&edge, VT_PAGE - 24) = f.data.va;
	*VT_U64P(&edge, VT_PAGE - 16) = 0x1234;
	*VT_U64P(&edge, VT_PAGE - 8) = HDR(DRM_VACCEL_PKT_NOP, 0, 1);
	VT_U32(&f.data, 0) = 0;
	fetch_fault(&f, end - 32, 48, U, end, 32, __LINE__);
	VT_ASSERT_EQ(VT_U32(&f.data, 0), 0x1234);

	/* The header is mapped, its operands are not. */
	*VT_U64P(&edge, VT_PAGE - 16) = HDR(DRM_VACCEL_PKT_NOP, 0, 1);
	*VT_U64P(&edge, VT_PAGE - 8) = HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3);
	fetch_fault(&f, end - 16, 32, U, end, 8, __LINE__);
}

/*
 * After a fault: the faulting job's fence carries the error, the jobs the
 * context had queued behind it end with -ECANCELED without running, SUBMIT
 * fails with ECANCELED, and contexts on the same engine and on another one
 * keep working.
 */
VTEST(after_fault)
{
	struct fx f = fx_open();
	__u32 a = f.ctx, same = vt_ctx_create(f.d.fd, COMPUTE, 0);
	__u32 other = vt_ctx_create(f.d.fd, COMPUTE, 1);
	__u32 o[5], os = vt_syncobj(f.d.fd), oo = vt_syncobj(f.d.fd), spare;
	struct drm_vaccel_sync sig;
	struct drm_vaccel_context_state s;
	__u64 bva;
	int i;

	VT_REQUIRE_ENGINES(&f.d, COMPUTE, 2);
	for (i = 0; i < 5; i++)
		o[i] = vt_syncobj(f.d.fd);
	/* A gate, then a bad packet after it; four jobs behind. */
	bva = vt_cmd_va(&f.c);
	vt_pkt_wait_eq32(&f.c, f.data.va, 1);
	vt_emit(&f.c, HDR(0x42, 0, 1));
	vt_pkt_write32(&f.c, f.data.va + 4, 1);
	vt_submit(f.d.fd, a, &f.c, 0, o[0]);
	for (i = 1; i < 5; i++) {
		vt_pkt_write32(&f.c, f.data.va + 4 + 4 * i, 1);
		vt_submit(f.d.fd, a, &f.c, 0, o[i]);
	}
	/* Another context of the same engine, queued behind the gate. */
	vt_pkt_write32(&f.c, f.data.va + 64, 0x5a);
	vt_submit(f.d.fd, same, &f.c, 0, os);
	/* A context of another engine runs meanwhile. */
	vt_pkt_write32(&f.c, f.data.va + 68, 0x07);
	vt_submit(f.d.fd, other, &f.c, 0, oo);
	vt_syncobj_wait(f.d.fd, oo);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, oo), 1);
	VT_ASSERT_EQ(VT_U32(&f.data, 68), 0x07);
	for (i = 0; i < 5; i++)
		VT_ASSERT(!vt_syncobj_signalled(f.d.fd, o[i]));

	VT_U32(&f.data, 0) = 1;
	for (i = 0; i < 5; i++)
		vt_syncobj_wait(f.d.fd, o[i]);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, o[0]), -EINVAL);
	for (i = 1; i < 5; i++)
		VT_ASSERT_EQ(vt_fence_status(f.d.fd, o[i]), -ECANCELED);
	for (i = 0; i < 5; i++)
		VT_ASSERT_EQ(VT_U32(&f.data, 4 + 4 * i), 0);
	s = vt_ctx_state(f.d.fd, a);
	VT_ASSERT_EQ(s.flags, (DRM_VACCEL_CONTEXT_FAULTED | DRM_VACCEL_CONTEXT_BANNED));
	VT_ASSERT_EQ(s.fault_reason, DRM_VACCEL_FAULT_MALFORMED);
	VT_ASSERT_EQ(s.fault_offset, 32);
	VT_ASSERT_EQ(s.fault_va, bva + 32);
	VT_ASSERT_EQ(s.jobs_submitted, 5);
	VT_ASSERT_EQ(s.jobs_completed, 5);

	/* No more work for it, and the rejected submit signals nothing. */
	spare = vt_syncobj(f.d.fd);
	sig = (struct drm_vaccel_sync){ .handle = spare };
	vt_pkt_write32(&f.c, f.data.va + 32, 1);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, a, vt_cmd_va(&f.c), vt_cmd_size(&f.c),
				      NULL, 0, &sig, 1), ECANCELED);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, a, vt_cmd_va(&f.c), vt_cmd_size(&f.c),
				      NULL, 0, NULL, 0), ECANCELED);
	vt_cmd_next(&f.c);
	VT_ASSERT(vt_sync_file_raw(f.d.fd, spare) < 0);		/* still no fence */
	VT_ASSERT_EQ(vt_ctx_state(f.d.fd, a).jobs_submitted, 5);
	VT_ASSERT_EQ(VT_U32(&f.data, 32), 0);

	/* The other contexts are fine and keep working. */
	vt_syncobj_wait(f.d.fd, os);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, os), 1);
	VT_ASSERT_EQ(VT_U32(&f.data, 64), 0x5a);
	vt_pkt_write32(&f.c, f.data.va + 72, 0x72);
	vt_run(f.d.fd, same, &f.c);
	vt_pkt_write32(&f.c, f.data.va + 76, 0x76);
	vt_run(f.d.fd, other, &f.c);
	VT_ASSERT_EQ(VT_U32(&f.data, 72), 0x72);
	VT_ASSERT_EQ(VT_U32(&f.data, 76), 0x76);
	vt_expect_not_faulted(f.d.fd, same);
	vt_expect_not_faulted(f.d.fd, other);

	/* The fault record stays the first one. */
	s = vt_ctx_state(f.d.fd, a);
	VT_ASSERT_EQ(s.fault_offset, 32);
	VT_ASSERT_EQ(s.fault_reason, DRM_VACCEL_FAULT_MALFORMED);
}

/* A memory fault has the same consequences, with -EFAULT. */
VTEST(after_memory_fault)
{
	struct fx f = fx_open();
	__u64 hole = vt_va_hole(&f.d);
	__u32 o1 = vt_syncobj(f.d.fd), o2 = vt_syncobj(f.d.fd), ok = vt_syncobj(f.d.fd);
	__u32 b = vt_ctx_create(f.d.fd, COMPUTE, 0);

	vt_pkt_wait_eq32(&f.c, f.data.va, 1);
	vt_pkt_copy(&f.c, hole, f.data.va + 8, 8);
	vt_submit(f.d.fd, f.ctx, &f.c, 0, o1);
	vt_pkt_write32(&f.c, f.data.va + 16, 1);
	vt_submit(f.d.fd, f.ctx, &f.c, 0, o2);
	vt_pkt_write32(&f.c, f.data.va + 24, 1);
	vt_submit(f.d.fd, b, &f.c, 0, ok);
	VT_U32(&f.data, 0) = 1;
	vt_syncobj_wait(f.d.fd, o2);
	vt_syncobj_wait(f.d.fd, ok);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, o1), -EFAULT);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, o2), -ECANCELED);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, ok), 1);
	VT_ASSERT_EQ(VT_U32(&f.data, 16), 0);
	VT_ASSERT_EQ(VT_U32(&f.data, 24), 1);
	vt_expect_fault(f.d.fd, f.ctx, DRM_VACCEL_FAULT_UNMAPPED, DRM_VACCEL_ACCESS_READ,
			hole, 32);
	vt_pkt_nop(&f.c, 1);
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, vt_cmd_va(&f.c), 8, NULL, 0, NULL, 0),
			ECANCELED);
	vt_expect_not_faulted(f.d.fd, b);
}

VTEST_MAIN()
