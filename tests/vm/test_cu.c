// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_cu.c - the compute units of a compute engine: the number the query
 * reports; results of dispatches of many workgroups (arithmetic, barriers
 * and local memory, atomics) that do not depend on the number of units,
 * with every unit given work; preemption, at whatever granularity the
 * module was loaded with, while several units have workgroups in flight,
 * bit-identical; a fault with units in flight, reported once with the pc
 * and address of a faulting store; and no data crossing from one context
 * to another through the stacks the engine reuses.
 *
 * The plan runs the file with compute_units=1, 2 and 4, and with
 * preempt_granularity=2.
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "vt_exec.h"
#include "vt_rv.h"

#define COMPUTE		DRM_VACCEL_ENGINE_CLASS_COMPUTE
#define OR(rd, a, b)	rv_r(0x33, rd, 6, a, b, 0)
#define BEQ(a, b, off)	rv_b(0, a, b, off)

#define OUT_SIZE	(256 * 1024)
#define SPIN_ITERS	20000

struct fx {
	struct vt_dev d;
	struct vt_cmd c;
	struct vt_bo code;
	struct vt_bo args;
	struct vt_bo out;
	__u32 ctx;
	__u32 code_words;
};

static struct fx fx_open(void)
{
	struct fx f;

	f.d = vt_dev_open();
	f.c = vt_cmd_new(&f.d, 64 * 1024);
	f.code = vt_bo_new(&f.d, 64 * 1024);
	f.args = vt_bo_new(&f.d, 4096);
	f.out = vt_bo_new(&f.d, OUT_SIZE);
	f.ctx = vt_ctx_create(f.d.fd, COMPUTE, 0);
	f.code_words = 0;
	return f;
}

static void fx_close(struct fx *f)
{
	vt_ctx_destroy(f->d.fd, f->ctx);
	vt_dev_close(&f->d);
}

#define KERNEL(f, k)	kernel((f), (k), ARRAY_SIZE(k))

static __u64 kernel(struct fx *f, const __u32 *w, unsigned int n)
{
	__u64 va = f->code.va + f->code_words * 4;

	memcpy(f->code.cpu + f->code_words * 4, w, n * 4);
	f->code_words += n;
	return va;
}

/* The argument block: the output address, then three words. */
static __u64 args(struct fx *f, __u64 a, __u64 b, __u64 c)
{
	VT_U64(&f->args, 0) = f->out.va;
	VT_U64(&f->args, 8) = a;
	VT_U64(&f->args, 16) = b;
	VT_U64(&f->args, 24) = c;
	return f->args.va;
}

/* The units of the compute engines: the parameter, or the default. */
static unsigned int expected_units(void)
{
	long long units = vt_param("compute_units");
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return units ? units : cpus < 8 ? cpus : 8;
}

/* x = (x * a + gid) ^ n, for n = iters down to 1: out[gid] = x. */
static const __u32 spin_kernel[] = {
	CSRR(T0, CSR_GID_X),
	LD(A2, A0, 8),		/* multiplier */
	ADDI(A3, ZERO, 0),	/* x */
	LD(A4, A0, 16),		/* iterations */
	MUL(A3, A3, A2),	/* loop: */
	ADD(A3, A3, T0),
	XOR(A3, A3, A4),
	ADDI(A4, A4, -1),
	BNE(A4, ZERO, -4 * 4),
	SLLI(T0, T0, 3),
	LD(A1, A0, 0),
	ADD(A1, A1, T0),
	SD(A3, A1, 0),
	RET,
};

static __u64 spin_expected(__u64 gid, __u64 iters)
{
	__u64 x = 0;

	for (; iters; iters--)
		x = (x * 6364136223846793005ull + gid) ^ iters;
	return x;
}

/* Each work-item reads its mirror's local id after a barrier. */
static const __u32 mirror_kernel[] = {
	CSRR(T0, CSR_LID_X),
	CSRR(T1, CSR_LOCAL_BASE),
	SLLI(T2, T0, 2),
	ADD(T2, T1, T2),
	SW(T0, T2, 0),
	BARRIER,
	CSRR(A2, CSR_LSIZE_X),
	ADDI(A2, A2, -1),
	SUB(A2, A2, T0),
	SLLI(A2, A2, 2),
	ADD(A2, T1, A2),
	LW(A3, A2, 0),
	CSRR(A4, CSR_GID_X),
	SLLI(A4, A4, 2),
	LD(A1, A0, 0),
	ADD(A1, A1, A4),
	SW(A3, A1, 0),
	RET,
};

/* Every work-item adds 1 to a global counter, out[0]. */
static const __u32 count_kernel[] = {
	LD(A1, A0, 0),
	ADDI(T0, ZERO, 1),
	AMOADD_W(ZERO, A1, T0),
	RET,
};

/* The instructions each unit of engine @index has run. */
static void unit_instructions(int fd, unsigned int index, unsigned long long *out,
			      unsigned int *units)
{
	struct vt_arbiter a;

	vt_arbiter_read(fd, &a);
	VT_ASSERT(index < a.count);
	*units = a.e[index].units;
	memcpy(out, a.e[index].unit_instructions, sizeof(a.e[index].unit_instructions));
}

/* The query and debugfs agree on the number of units. */
VTEST(units_reported)
{
	struct fx f = fx_open();
	struct drm_vaccel_context_state s = vt_ctx_state(f.d.fd, f.ctx);
	struct drm_vaccel_engine_list *list;
	unsigned long long ins[8];
	unsigned int i, units;
	__u32 size;

	list = vt_engine_list(f.d.fd, &size);
	for (i = 0; i < list->count; i++) {
		struct drm_vaccel_engine_info *e = vt_engine(list, i);

		VT_ASSERT_EQ(e->compute_units,
			     e->engine_class == COMPUTE ? expected_units() : 0);
	}
	unit_instructions(f.d.fd, s.engine_index, ins, &units);
	VT_ASSERT_EQ(units, expected_units());
	free(list);
	fx_close(&f);
}

/*
 * Many workgroups of three kernels: every result is the one expected,
 * whatever the number of units, and every unit ran some of them. The spin
 * kernel gives each unit eight workgroups of eight work-items, 6.4 million
 * instructions: one unit on the debug kernel under TCG runs them in a few
 * seconds; the wait allows six times VT_TIMEOUT_MS for a slow machine.
 */
VTEST(results_identical)
{
	struct fx f = fx_open();
	struct drm_vaccel_context_state s = vt_ctx_state(f.d.fd, f.ctx);
	unsigned int items = 64 * expected_units();
	__u32 sgrid[3] = { items, 1, 1 }, swg[3] = { 8, 1, 1 }, o = vt_syncobj(f.d.fd);
	__u32 mgrid[3] = { 256 * 16, 1, 1 }, mwg[3] = { 256, 1, 1 };
	__u32 cgrid[3] = { 5000, 1, 1 }, cwg[3] = { 64, 1, 1 };
	__u64 spin = KERNEL(&f, spin_kernel), mirror = KERNEL(&f, mirror_kernel);
	__u64 count = KERNEL(&f, count_kernel);
	unsigned long long before[8], after[8];
	unsigned int i, units;

	unit_instructions(f.d.fd, s.engine_index, before, &units);
	vt_pkt_dispatch(&f.c, spin, args(&f, 6364136223846793005ull, SPIN_ITERS, 0),
			sgrid, swg, 0, 64);
	vt_submit(f.d.fd, f.ctx, &f.c, 0, o);
	VT_ASSERT_EQ(vt_syncobj_wait_ms(f.d.fd, o, 6 * VT_TIMEOUT_MS), 0);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, o), 1);
	vt_expect_not_faulted(f.d.fd, f.ctx);
	for (i = 0; i < items; i++)
		VT_ASSERT_EQ(VT_U64(&f.out, i * 8), spin_expected(i, SPIN_ITERS));
	unit_instructions(f.d.fd, s.engine_index, after, &units);
	for (i = 0; i < units; i++) {
		printf("# results_identical: unit %u ran %llu instructions\n", i,
		       after[i] - before[i]);
		/* Eight workgroups of 800000 instructions per unit: each takes some. */
		VT_ASSERT(after[i] > before[i]);
	}

	vt_pkt_dispatch(&f.c, mirror, args(&f, 0, 0, 0), mgrid, mwg, 1024, 64);
	vt_run(f.d.fd, f.ctx, &f.c);
	for (i = 0; i < 256 * 16; i++)
		VT_ASSERT_EQ(VT_U32(&f.out, i * 4), 255 - i % 256);

	VT_U32(&f.out, 0) = 7;
	vt_pkt_dispatch(&f.c, count, args(&f, 0, 0, 0), cgrid, cwg, 0, 64);
	vt_run(f.d.fd, f.ctx, &f.c);
	VT_ASSERT_EQ(VT_U32(&f.out, 0), 5007);
	fx_close(&f);
}

/*
 * The spin kernel (64 workgroups of one work-item) and the barrier kernel,
 * preempted again and again at the granularity loaded while several units
 * have workgroups in flight: the results are those of an uninterrupted
 * run.
 */
VTEST(preempted_bit_identical)
{
	struct fx f = fx_open();
	__u32 grid[3] = { 64, 1, 1 }, wg[3] = { 1, 1, 1 }, o = vt_syncobj(f.d.fd);
	__u32 mgrid[3] = { 256 * 16, 1, 1 }, mwg[3] = { 256, 1, 1 };
	__u64 spin = KERNEL(&f, spin_kernel), mirror = KERNEL(&f, mirror_kernel);
	struct drm_vaccel_context_state s0, s1;
	struct vt_preempter p;
	struct vt_arbiter a;
	unsigned int i;

	s0 = vt_ctx_state(f.d.fd, f.ctx);
	vt_pkt_dispatch(&f.c, spin, args(&f, 6364136223846793005ull, 5 * SPIN_ITERS, 0),
			grid, wg, 0, 64);
	vt_preempter_start(&p, f.d.fd, s0.engine_index, 200);
	vt_submit(f.d.fd, f.ctx, &f.c, 0, o);
	VT_ASSERT_EQ(vt_syncobj_wait_ms(f.d.fd, o, 120000), 0);
	vt_preempter_stop(&p);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, o), 1);
	s1 = vt_ctx_state(f.d.fd, f.ctx);
	for (i = 0; i < 64; i++)
		VT_ASSERT_EQ(VT_U64(&f.out, i * 8), spin_expected(i, 5 * SPIN_ITERS));
	vt_arbiter_read(f.d.fd, &a);
	printf("# preempted_bit_identical: granularity %u, %u units, %llu preemptions\n",
	       a.e[s0.engine_index].granularity, a.e[s0.engine_index].units,
	       (unsigned long long)(s1.preemptions - s0.preemptions));
	VT_ASSERT(s1.preemptions - s0.preemptions >= 10);

	vt_pkt_dispatch(&f.c, mirror, args(&f, 0, 0, 0), mgrid, mwg, 1024, 64);
	vt_preempter_start(&p, f.d.fd, s0.engine_index, 200);
	vt_submit(f.d.fd, f.ctx, &f.c, 0, o);
	VT_ASSERT_EQ(vt_syncobj_wait_ms(f.d.fd, o, 120000), 0);
	vt_preempter_stop(&p);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, o), 1);
	for (i = 0; i < 256 * 16; i++)
		VT_ASSERT_EQ(VT_U32(&f.out, i * 4), 255 - i % 256);
	drmSyncobjDestroy(f.d.fd, o);
	fx_close(&f);
}

static const __u32 ret_kernel[] = { RET };

/*
 * 16 workgroups spin; those from 8 on then store to an unmapped address
 * of their own.  The context faults once, with the pc of the store and
 * the address of one of them; another context of the engine goes on.
 */
VTEST(fault_with_units_in_flight)
{
	static const __u32 k[] = {
		ADDI(A4, ZERO, 2000),
		ADDI(A4, A4, -1),		/* spin */
		BNE(A4, ZERO, -4),
		CSRR(T0, CSR_GRP_X),
		ADDI(T1, ZERO, 8),
		BLTU(T0, T1, 5 * 4),		/* groups below 8 return */
		LD(A1, A0, 8),			/* the unmapped address */
		SLLI(T0, T0, 3),
		ADD(A1, A1, T0),
		SD(T0, A1, 0),			/* word 9: faults */
		RET,
	};
	struct fx f = fx_open();
	__u32 innocent = vt_ctx_create(f.d.fd, COMPUTE, 0);
	__u32 grid[3] = { 64, 1, 1 }, wg[3] = { 4, 1, 1 }, one[3] = { 1, 1, 1 };
	__u64 entry = KERNEL(&f, k), bad = f.out.va + OUT_SIZE, off;
	__u64 ret = KERNEL(&f, ret_kernel);
	struct drm_vaccel_context_state s;
	__u32 o = vt_syncobj(f.d.fd);
	bool found = false;
	unsigned int g;

	off = vt_cmd_offset(&f.c);
	vt_pkt_dispatch(&f.c, entry, args(&f, bad, 0, 0), grid, wg, 0, 64);
	vt_submit(f.d.fd, f.ctx, &f.c, 0, o);
	VT_ASSERT_EQ(vt_wait_status(f.d.fd, o), -EFAULT);
	s = vt_ctx_state(f.d.fd, f.ctx);
	VT_ASSERT_EQ(s.ban_reason, DRM_VACCEL_BAN_FAULT);
	VT_ASSERT_EQ(s.fault_pc, entry + 9 * 4);
	VT_ASSERT_EQ(s.fault_reason, DRM_VACCEL_FAULT_UNMAPPED);
	VT_ASSERT_EQ(s.fault_access, DRM_VACCEL_ACCESS_WRITE);
	VT_ASSERT_EQ(s.fault_offset, off);
	for (g = 8; g < 16; g++)
		found |= s.fault_va == bad + g * 8;
	if (!found)
		vtest_fail(__FILE__, __LINE__, "fault at 0x%llx, not a faulting store's",
			   (unsigned long long)s.fault_va);
	VT_ASSERT_EQ(s.jobs_submitted - s.jobs_completed, 0);

	vt_cmd_next(&f.c);
	vt_pkt_dispatch(&f.c, ret, 0, one, one, 0, 64);
	vt_run(f.d.fd, innocent, &f.c);
	vt_expect_not_faulted(f.d.fd, innocent);
	vt_ctx_destroy(f.d.fd, innocent);
	drmSyncobjDestroy(f.d.fd, o);
	fx_close(&f);
}

/* Fills the 1 KiB below sp with the word a1 (args[1]). */
static const __u32 stack_fill_kernel[] = {
	LD(T1, A0, 8),
	ADDI(T0, SP, -1024),
	SD(T1, T0, 0),			/* loop: */
	ADDI(T0, T0, 8),
	BLTU(T0, SP, -2 * 4),
	RET,
};

/* out[gid] = the OR of the 1 KiB below sp, as the work-item finds it. */
static const __u32 stack_read_kernel[] = {
	ADDI(T0, SP, -1024),
	ADDI(A2, ZERO, 0),
	LD(T1, T0, 0),			/* loop: */
	OR(A2, A2, T1),
	ADDI(T0, T0, 8),
	BLTU(T0, SP, -3 * 4),
	CSRR(T2, CSR_GID_X),
	SLLI(T2, T2, 3),
	LD(A1, A0, 0),
	ADD(A1, A1, T2),
	SD(A2, A1, 0),
	RET,
};

/*
 * A context fills its stacks; a new context, on the same engine and its
 * units, reads its own: they are zero, with the same stack size and a
 * larger one.
 */
VTEST(no_cross_context_stack_data)
{
	struct fx f = fx_open();
	__u32 grid[3] = { 256, 1, 1 }, wg[3] = { 64, 1, 1 }, reader;
	__u64 fill = KERNEL(&f, stack_fill_kernel), read = KERNEL(&f, stack_read_kernel);
	unsigned int i, round;

	vt_pkt_dispatch(&f.c, fill, args(&f, 0xa5a5a5a5a5a5a5a5ull, 0, 0), grid, wg, 0, 1024);
	vt_run(f.d.fd, f.ctx, &f.c);
	vt_expect_not_faulted(f.d.fd, f.ctx);
	/* Its pages go with the context: another may get them next. */
	vt_ctx_destroy(f.d.fd, f.ctx);
	f.ctx = vt_ctx_create(f.d.fd, COMPUTE, 0);

	for (round = 0; round < 2; round++) {
		reader = vt_ctx_create(f.d.fd, COMPUTE, 0);
		memset(f.out.cpu, 0xee, 256 * 8);
		vt_cmd_next(&f.c);
		vt_pkt_dispatch(&f.c, read, args(&f, 0, 0, 0), grid, wg, 0,
				round ? 2048 : 1024);
		vt_run(f.d.fd, reader, &f.c);
		vt_expect_not_faulted(f.d.fd, reader);
		for (i = 0; i < 256; i++)
			VT_ASSERT_EQ(VT_U64(&f.out, i * 8), 0);
		vt_ctx_destroy(f.d.fd, reader);
		/* And while the filler's context lives, in the second round. */
		vt_cmd_next(&f.c);
		vt_pkt_dispatch(&f.c, fill, args(&f, 0x5a5a5a5a5a5a5a5aull, 0, 0), grid, wg,
				0, 2048);
		vt_run(f.d.fd, f.ctx, &f.c);
	}
	fx_close(&f);
}

VTEST_MAIN()
