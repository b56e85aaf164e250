// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_dispatch.c - the DISPATCH packet end to end, with kernels assembled
 * here word by word (the toolchain has its own tests): work-item and
 * workgroup IDs in every dimension with partial workgroups, barriers and
 * local memory, atomics on global and local memory, fused multiply-add
 * against the CPU, every fault a kernel can take with its pc and address,
 * malformed dispatches, workgroup ranges (exactly the workgroups of the
 * range run, with the ids of the whole grid; ranges compose the grid;
 * bad ranges are malformed; preempted inside a range), a kernel
 * preempted at instruction granularity hundreds of times giving
 * bit-identical results, and a kernel that
 * loops forever recovered by the hang timeout while an innocent context
 * completes.
 *
 * The plan runs infinite_loop_recovered with timeout_ms=300 and the rest
 * with the default parameters.
 */
#define _GNU_SOURCE
#include <math.h>
#include <unistd.h>

#include "vt_exec.h"
#include "vt_rv.h"

#define COMPUTE		DRM_VACCEL_ENGINE_CLASS_COMPUTE
#define COPY		DRM_VACCEL_ENGINE_CLASS_COPY

/* --- fixture --- */

struct fx {
	struct vt_dev d;
	struct vt_cmd c;
	struct vt_bo code;	/* kernels */
	struct vt_bo args;	/* argument blocks */
	struct vt_bo out;	/* results */
	__u32 ctx;
	__u32 code_words;
};

#define OUT_SIZE	(1024 * 1024)

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

/* Copies a kernel into the code BO; returns its entry address. */
#define KERNEL(f, k)	kernel((f), (k), ARRAY_SIZE(k))

static __u64 kernel(struct fx *f, const __u32 *w, unsigned int n)
{
	__u64 va = f->code.va + f->code_words * 4;

	memcpy(f->code.cpu + f->code_words * 4, w, n * 4);
	f->code_words += n;
	return va;
}

/* The argument block: the output address, then @extra words. */
static __u64 args1(struct fx *f, __u64 a, __u64 b, __u64 c)
{
	VT_U64(&f->args, 0) = f->out.va;
	VT_U64(&f->args, 8) = a;
	VT_U64(&f->args, 16) = b;
	VT_U64(&f->args, 24) = c;
	return f->args.va;
}

/* out[gid] = gid over a 1-D grid of 1000 in workgroups of 64 (the last partial). */
VTEST(global_ids_partial_workgroups)
{
	static const __u32 k[] = {
		CSRR(T0, CSR_GID_X),
		LD(A1, A0, 0),
		SLLI(T1, T0, 2),
		ADD(A1, A1, T1),
		SW(T0, A1, 0),
		RET,
	};
	struct fx f = fx_open();
	__u32 grid[3] = { 1000, 1, 1 }, wg[3] = { 64, 1, 1 };
	unsigned int i;

	memset(f.out.cpu, 0xee, 4096 * 2);
	vt_pkt_dispatch(&f.c, KERNEL(&f, k), args1(&f, 0, 0, 0), grid, wg, 0, 256);
	vt_run(f.d.fd, f.ctx, &f.c);
	vt_expect_not_faulted(f.d.fd, f.ctx);
	for (i = 0; i < 1000; i++)
		VT_ASSERT_EQ(VT_U32(&f.out, i * 4), i);
	/* Work-items past the grid do not exist. */
	for (i = 1000; i < 1024; i++)
		VT_ASSERT_EQ(VT_U32(&f.out, i * 4), 0xeeeeeeee);
	fx_close(&f);
}

/*
 * A 3-D grid of 10 x 6 x 3 in workgroups of 4 x 4 x 2: each work-item
 * stores its global id and flat local id at its flat global index.
 */
VTEST(ids_in_three_dimensions)
{
	static const __u32 k[] = {
		CSRR(T0, CSR_GID_X),
		CSRR(T1, CSR_GID_Y),
		CSRR(T2, CSR_GID_Z),
		CSRR(A2, CSR_GSIZE_X),
		CSRR(A3, CSR_GSIZE_Y),
		MUL(A4, A3, T2),	/* gz * Ny */
		ADD(A4, A4, T1),	/* + gy */
		MUL(A4, A4, A2),	/* * Nx */
		ADD(A4, A4, T0),	/* + gx */
		SLLI(A4, A4, 4),	/* 16 bytes per work-item */
		LD(A1, A0, 0),
		ADD(A1, A1, A4),
		SW(T0, A1, 0),
		SW(T1, A1, 4),
		SW(T2, A1, 8),
		CSRR(A5, CSR_FLAT_LID),
		SW(A5, A1, 12),
		RET,
	};
	struct fx f = fx_open();
	__u32 grid[3] = { 10, 6, 3 }, wg[3] = { 4, 4, 2 };
	unsigned int x, y, z;

	vt_pkt_dispatch(&f.c, KERNEL(&f, k), args1(&f, 0, 0, 0), grid, wg, 0, 64);
	vt_run(f.d.fd, f.ctx, &f.c);
	for (z = 0; z < 3; z++)
		for (y = 0; y < 6; y++)
			for (x = 0; x < 10; x++) {
				__u64 o = ((z * 6 + y) * 10 + x) * 16;

				VT_ASSERT_EQ(VT_U32(&f.out, o), x);
				VT_ASSERT_EQ(VT_U32(&f.out, o + 4), y);
				VT_ASSERT_EQ(VT_U32(&f.out, o + 8), z);
				VT_ASSERT_EQ(VT_U32(&f.out, o + 12),
					     x % 4 + 4 * (y % 4) + 16 * (z % 2));
			}
	fx_close(&f);
}

/*
 * Each work-item writes its local id into local memory, waits at the
 * barrier, and reads its mirror's: out[gid] = size - 1 - lid.
 */
static const __u32 mirror_kernel[] = {
	CSRR(T0, CSR_LID_X),
	CSRR(T1, CSR_LOCAL_BASE),
	SLLI(T2, T0, 2),
	ADD(T2, T1, T2),
	SW(T0, T2, 0),		/* local[lid] = lid */
	BARRIER,
	CSRR(A2, CSR_LSIZE_X),
	ADDI(A2, A2, -1),
	SUB(A2, A2, T0),	/* size - 1 - lid */
	SLLI(A2, A2, 2),
	ADD(A2, T1, A2),
	LW(A3, A2, 0),		/* local[size - 1 - lid] */
	CSRR(A4, CSR_GID_X),
	SLLI(A4, A4, 2),
	LD(A1, A0, 0),
	ADD(A1, A1, A4),
	SW(A3, A1, 0),
	RET,
};

static void check_mirror(struct fx *f, unsigned int groups, unsigned int size)
{
	unsigned int g, l;

	for (g = 0; g < groups; g++)
		for (l = 0; l < size; l++)
			VT_ASSERT_EQ(VT_U32(&f->out, (g * size + l) * 4), size - 1 - l);
}

VTEST(barrier_and_local_memory)
{
	struct fx f = fx_open();
	__u32 grid[3] = { 256 * 8, 1, 1 }, wg[3] = { 256, 1, 1 };

	vt_pkt_dispatch(&f.c, KERNEL(&f, mirror_kernel), args1(&f, 0, 0, 0),
		     grid, wg, 1024, 128);
	vt_run(f.d.fd, f.ctx, &f.c);
	vt_expect_not_faulted(f.d.fd, f.ctx);
	check_mirror(&f, 8, 256);
	fx_close(&f);
}

/* Every work-item adds 1 to a global counter and to a local one. */
VTEST(atomics_global_and_local)
{
	static const __u32 k[] = {
		LD(A1, A0, 0),
		ADDI(T0, ZERO, 1),
		AMOADD_W(ZERO, A1, T0),		/* out[0] += 1 */
		CSRR(T1, CSR_LOCAL_BASE),
		AMOADD_W(ZERO, T1, T0),		/* local[0] += 1 */
		BARRIER,
		CSRR(T2, CSR_LID_X),
		BNE(T2, ZERO, 7 * 4),		/* only local id 0 goes on */
		LW(A2, T1, 0),
		CSRR(A3, CSR_GRP_X),
		ADDI(A3, A3, 1),
		SLLI(A3, A3, 2),
		ADD(A3, A1, A3),
		SW(A2, A3, 0),			/* out[1 + group] = local[0] */
		RET,
	};
	struct fx f = fx_open();
	__u32 grid[3] = { 1000, 1, 1 }, wg[3] = { 128, 1, 1 };
	unsigned int g;

	VT_U32(&f.out, 0) = 5;
	vt_pkt_dispatch(&f.c, KERNEL(&f, k), args1(&f, 0, 0, 0), grid, wg, 64, 64);
	vt_run(f.d.fd, f.ctx, &f.c);
	VT_ASSERT_EQ(VT_U32(&f.out, 0), 1005);
	for (g = 0; g < 8; g++)
		VT_ASSERT_EQ(VT_U32(&f.out, 4 + g * 4), g < 7 ? 128 : 1000 - 7 * 128);
	fx_close(&f);
}

/* out[i] = fma(a[i], b[i], c[i]) in double, against the CPU's fma(). */
VTEST(fused_multiply_add_double)
{
	static const __u32 k[] = {
		CSRR(T0, CSR_GID_X),
		SLLI(T0, T0, 3),
		LD(A1, A0, 0),		/* out */
		LD(A2, A0, 8),		/* a */
		LD(A3, A0, 16),		/* b */
		LD(A4, A0, 24),		/* c */
		ADD(A2, A2, T0),
		ADD(A3, A3, T0),
		ADD(A4, A4, T0),
		FLD(1, A2, 0),
		FLD(2, A3, 0),
		FLD(3, A4, 0),
		FMADD_D(4, 1, 2, 3),
		ADD(A1, A1, T0),
		FSD(4, A1, 0),
		RET,
	};
	struct fx f = fx_open();
	struct vt_bo in = vt_bo_new(&f.d, 3 * 4096);
	__u32 grid[3] = { 512, 1, 1 }, wg[3] = { 64, 1, 1 };
	double *a = (double *)in.cpu, *b = a + 512, *c = b + 512;
	unsigned int i;

	srand(7);
	for (i = 0; i < 512; i++) {
		a[i] = (rand() - RAND_MAX / 2) / 3.0e3;
		b[i] = (rand() - RAND_MAX / 2) / 7.0e-5;
		c[i] = -a[i] * b[i] + (rand() % 5) * 1e-9;
	}
	vt_pkt_dispatch(&f.c, KERNEL(&f, k),
		     args1(&f, in.va, in.va + 4096, in.va + 8192), grid, wg, 0, 64);
	vt_run(f.d.fd, f.ctx, &f.c);
	for (i = 0; i < 512; i++) {
		double want = fma(a[i], b[i], c[i]);

		VT_ASSERT_EQ(memcmp((void *)(f.out.cpu + i * 8), &want, 8), 0);
	}
	fx_close(&f);
}

/* --- faults --- */

/* Submits the buffer recorded in @f to @ctx and waits: it must end with @status. */
static void run_expect_status(struct fx *f, __u32 ctx, int status)
{
	__u32 out = vt_syncobj(f->d.fd);

	vt_submit(f->d.fd, ctx, &f->c, 0, out);
	vt_syncobj_wait(f->d.fd, out);
	VT_ASSERT_EQ(vt_fence_status(f->d.fd, out), status);
	drmSyncobjDestroy(f->d.fd, out);
}

/* What the fault address of a kernel's fault is expected to be. */
enum fault_va { VA_PC, VA_VALUE, VA_OUT };

/*
 * Runs a one-work-item kernel that must fault: the context reports
 * @reason, @access (-1: any), the address (the pc, @va itself, or the out
 * BO's address plus @va) and the pc of the faulting instruction, word @at
 * of the kernel; the fence fails with -EFAULT.
 */
static void expect_kernel_fault(const __u32 *w, unsigned int n, unsigned int at,
				__u32 reason, long long access, enum fault_va how,
				__u64 va)
{
	struct fx f = fx_open();
	__u32 grid[3] = { 1, 1, 1 }, wg[3] = { 1, 1, 1 };
	__u64 entry = kernel(&f, w, n), off = vt_cmd_offset(&f.c);
	struct drm_vaccel_context_state s;

	vt_pkt_dispatch(&f.c, entry, args1(&f, 0, 0, 0), grid, wg, 0, 64);
	run_expect_status(&f, f.ctx, -EFAULT);
	if (how == VA_PC)
		va = entry + at * 4;
	else if (how == VA_OUT)
		va += f.out.va;
	vt_expect_fault(f.d.fd, f.ctx, reason, access, va, off);
	s = vt_ctx_state(f.d.fd, f.ctx);
	VT_ASSERT_EQ(s.fault_pc, entry + at * 4);
	VT_ASSERT_EQ(s.ban_reason, DRM_VACCEL_BAN_FAULT);
	fx_close(&f);
}

VTEST(fault_illegal_instruction)
{
	static const __u32 k[] = { ADDI(T0, ZERO, 1), ILLEGAL, RET };

	expect_kernel_fault(k, ARRAY_SIZE(k), 1, DRM_VACCEL_FAULT_ILLEGAL_INSTRUCTION, -1,
			    VA_VALUE, ILLEGAL);
}

VTEST(fault_compressed_instruction)
{
	static const __u32 k[] = { C_LI_A0_0, RET };

	expect_kernel_fault(k, ARRAY_SIZE(k), 0, DRM_VACCEL_FAULT_COMPRESSED, -1, VA_PC, 0);
}

VTEST(fault_ecall)
{
	static const __u32 k[] = { ADDI(T0, ZERO, 1), ADDI(T0, T0, 1), ECALL, RET };

	expect_kernel_fault(k, ARRAY_SIZE(k), 2, DRM_VACCEL_FAULT_TRAP, -1, VA_PC, 0);
}

VTEST(fault_unknown_and_read_only_csr)
{
	static const __u32 unknown[] = { CSRR(T0, 0x7c0), RET };
	static const __u32 write_ro[] = { ADDI(T0, ZERO, 3), CSRW(CSR_LID_X, T0), RET };

	expect_kernel_fault(unknown, ARRAY_SIZE(unknown), 0, DRM_VACCEL_FAULT_CSR, -1,
			    VA_VALUE, 0x7c0);
	expect_kernel_fault(write_ro, ARRAY_SIZE(write_ro), 1, DRM_VACCEL_FAULT_CSR, -1, VA_VALUE,
			    CSR_LID_X);
}

VTEST(fault_misaligned_atomic)
{
	static const __u32 k[] = {
		LD(A1, A0, 0), ADDI(A1, A1, 2), ADDI(T0, ZERO, 1),
		AMOADD_W(ZERO, A1, T0), RET,
	};

	expect_kernel_fault(k, ARRAY_SIZE(k), 3, DRM_VACCEL_FAULT_MISALIGNED,
			    DRM_VACCEL_ACCESS_WRITE, VA_OUT, 2);
}

VTEST(fault_unmapped_store)
{
	/* a1 = out + OUT_SIZE: the allocator's guard gap, never mapped */
	static const __u32 k[] = {
		LD(A1, A0, 8), ADDI(T0, ZERO, 7), SW(T0, A1, 0), RET,
	};
	struct fx f = fx_open();
	__u32 grid[3] = { 1, 1, 1 }, wg[3] = { 1, 1, 1 };
	__u64 entry = KERNEL(&f, k), bad = f.out.va + OUT_SIZE, off;

	off = vt_cmd_offset(&f.c);
	vt_pkt_dispatch(&f.c, entry, args1(&f, bad, 0, 0), grid, wg, 0, 64);
	run_expect_status(&f, f.ctx, -EFAULT);
	vt_expect_fault(f.d.fd, f.ctx, DRM_VACCEL_FAULT_UNMAPPED,
			DRM_VACCEL_ACCESS_WRITE, bad, off);
	VT_ASSERT_EQ(vt_ctx_state(f.d.fd, f.ctx).fault_pc, entry + 8);
	fx_close(&f);
}

VTEST(fault_fetch_from_no_exec)
{
	static const __u32 k[] = { RET };
	struct fx f = fx_open();
	struct vt_bo nx = vt_bo_new_flags(&f.d, 4096, DRM_VACCEL_VM_BIND_NO_EXEC);
	__u32 grid[3] = { 1, 1, 1 }, wg[3] = { 1, 1, 1 };
	__u64 off = vt_cmd_offset(&f.c);

	memcpy(nx.cpu, k, sizeof(k));
	vt_pkt_dispatch(&f.c, nx.va, args1(&f, 0, 0, 0), grid, wg, 0, 64);
	run_expect_status(&f, f.ctx, -EFAULT);
	vt_expect_fault(f.d.fd, f.ctx, DRM_VACCEL_FAULT_PERMISSION,
			DRM_VACCEL_ACCESS_EXEC, nx.va, off);
	VT_ASSERT_EQ(vt_ctx_state(f.d.fd, f.ctx).fault_pc, nx.va);
	fx_close(&f);
}

/* A fault of one context leaves another's dispatch untouched. */
VTEST(fault_spares_other_contexts)
{
	static const __u32 bad[] = { ILLEGAL };
	struct fx f = fx_open();
	__u32 other = vt_ctx_create(f.d.fd, COMPUTE, 0), o1 = vt_syncobj(f.d.fd);
	__u32 grid[3] = { 256 * 4, 1, 1 }, wg[3] = { 256, 1, 1 }, one[3] = { 1, 1, 1 };
	__u64 good_entry = KERNEL(&f, mirror_kernel), bad_entry = KERNEL(&f, bad);

	vt_pkt_dispatch(&f.c, bad_entry, args1(&f, 0, 0, 0), one, one, 0, 64);
	vt_submit(f.d.fd, f.ctx, &f.c, 0, o1);
	vt_pkt_dispatch(&f.c, good_entry, f.args.va, grid, wg, 1024, 64);
	vt_run(f.d.fd, other, &f.c);
	vt_syncobj_wait(f.d.fd, o1);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, o1), -EFAULT);
	vt_expect_not_faulted(f.d.fd, other);
	check_mirror(&f, 4, 256);
	vt_ctx_destroy(f.d.fd, other);
	drmSyncobjDestroy(f.d.fd, o1);
	fx_close(&f);
}

/* Dispatches outside the limits are malformed packets. */
VTEST(malformed_dispatches)
{
	static const __u32 k[] = { RET };
	static const struct {
		__u32 grid[3], wg[3], local, stack;
	} bad[] = {
		{ { 0, 1, 1 }, { 1, 1, 1 }, 0, 64 },		/* empty grid */
		{ { 1, 1, 1 }, { 0, 1, 1 }, 0, 64 },		/* empty workgroup */
		{ { 64, 64, 1 }, { 64, 32, 1 }, 0, 64 },	/* 2048 work-items */
		{ { 1, 1, 1 }, { 1, 1, 1 }, 65537, 64 },	/* local memory */
		{ { 1, 1, 1 }, { 1, 1, 1 }, 0, 0 },		/* no stack */
		{ { 1, 1, 1 }, { 1, 1, 1 }, 0, 24 },		/* misaligned stack */
		{ { 1, 1, 1 }, { 1024, 1, 1 }, 0, 65536 },	/* 64 MiB of stacks */
		/* 2^40 work-items, past max_grid_items: it would run for days. */
		{ { 1u << 20, 1u << 20, 1 }, { 1, 1, 1 }, 0, 64 },
		{ { 65536, 65536, 2 }, { 1, 1, 1 }, 0, 64 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct fx f = fx_open();
		__u64 off = vt_cmd_offset(&f.c), entry = KERNEL(&f, k);

		vt_pkt_dispatch(&f.c, entry, 0, bad[i].grid, bad[i].wg, bad[i].local,
			     bad[i].stack);
		run_expect_status(&f, f.ctx, -EINVAL);
		vt_expect_fault(f.d.fd, f.ctx, DRM_VACCEL_FAULT_MALFORMED,
				DRM_VACCEL_ACCESS_READ, f.c.bo.va + off, off);
		fx_close(&f);
	}
}

/*
 * A grid of 2^32 one-item workgroups progresses at every workgroup, so it
 * never hangs: the time limit (the plan loads time_limit_ms=1000) stops
 * it, fails it with ETIMEDOUT and bans its context with reason
 * TIME_LIMIT, without an engine reset; a context on the other engine runs
 * on.
 */
VTEST_NAMED(time_limit_stops_endless_grid)
{
	static const __u32 k[] = { RET };
	struct fx f = fx_open();
	__u32 other = vt_ctx_create(f.d.fd, COMPUTE, 1), o = vt_syncobj(f.d.fd);
	__u32 grid[3] = { 65536, 65536, 1 }, one[3] = { 1, 1, 1 };
	struct drm_vaccel_context_state s;
	long long limit_ms = vt_param("time_limit_ms");
	__u64 t, va, before;

	VT_ASSERT_EQ(f.d.info.time_limit_ns, limit_ms * 1000000ull);
	VT_ASSERT_EQ(f.d.info.max_grid_items, 1ull << 32);
	vt_pkt_nop(&f.c, 2);
	vt_pkt_dispatch(&f.c, KERNEL(&f, k), 0, grid, one, 0, 64);
	va = vt_cmd_va(&f.c);
	before = vt_ctx_state(f.d.fd, f.ctx).jobs_submitted;
	t = vt_now_ns();
	vt_submit(f.d.fd, f.ctx, &f.c, 0, o);
	VT_ASSERT_OK(vt_syncobj_wait_ms(f.d.fd, o, 60000));
	t = vt_now_ns() - t;
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, o), -ETIMEDOUT);
	s = vt_ctx_state(f.d.fd, f.ctx);
	VT_ASSERT_EQ(s.ban_reason, DRM_VACCEL_BAN_TIME_LIMIT);
	VT_ASSERT_EQ(s.flags, DRM_VACCEL_CONTEXT_BANNED);
	VT_ASSERT_EQ(s.guilty_resets, 0);
	/* The ban names the buffer and its DISPATCH, after the NOP (uapi 1.6). */
	VT_ASSERT_EQ(s.ban_job, before + 1);
	VT_ASSERT(s.ban_buffer_va == va);
	VT_ASSERT_EQ(s.ban_offset, 16);
	/* At least the limit of engine time, and not much more. */
	VT_ASSERT(t >= (__u64)limit_ms * VT_MS);
	if (s.engine_ns > (__u64)limit_ms * VT_MS * 3 / 2)
		vtest_fail(__FILE__, __LINE__, "ran %llu ms of engine time",
			   (unsigned long long)(s.engine_ns / VT_MS));
	VT_ASSERT_ERRNO(vt_submit_raw(f.d.fd, f.ctx, f.c.bo.va, 8, NULL, 0, NULL, 0),
			ECANCELED);

	vt_pkt_dispatch(&f.c, KERNEL(&f, k), 0, one, one, 0, 64);
	run_expect_status(&f, other, 1);
	fx_close(&f);
}

VTEST(dispatch_refused_on_copy_engine)
{
	static const __u32 k[] = { RET };
	struct fx f = fx_open();
	__u32 copy = vt_ctx_create(f.d.fd, COPY, 0);
	__u32 one[3] = { 1, 1, 1 };
	__u64 off = vt_cmd_offset(&f.c);

	vt_pkt_dispatch(&f.c, KERNEL(&f, k), 0, one, one, 0, 64);
	run_expect_status(&f, copy, -EINVAL);
	vt_expect_fault(f.d.fd, copy, DRM_VACCEL_FAULT_MALFORMED,
			DRM_VACCEL_ACCESS_READ, f.c.bo.va + off, off);
	vt_ctx_destroy(f.d.fd, copy);
	fx_close(&f);
}

/* --- preemption and hangs --- */

#define SPIN_ITERS	100000

/* x = x * 6364136223846793005 + gid, SPIN_ITERS times: out[gid] = x. */
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

/*
 * The spin kernel and the barrier kernel, preempted again and again at
 * instruction granularity: the results are those of an uninterrupted run.
 */
VTEST(preempted_at_instructions_bit_identical)
{
	struct fx f = fx_open();
	__u32 grid[3] = { 64, 1, 1 }, wg[3] = { 16, 1, 1 }, o = vt_syncobj(f.d.fd);
	__u32 mgrid[3] = { 256 * 16, 1, 1 }, mwg[3] = { 256, 1, 1 };
	__u64 spin = KERNEL(&f, spin_kernel), mirror = KERNEL(&f, mirror_kernel);
	struct drm_vaccel_context_state s0, s1;
	struct vt_preempter p;
	unsigned int i;

	s0 = vt_ctx_state(f.d.fd, f.ctx);
	vt_pkt_dispatch(&f.c, spin, args1(&f, 6364136223846793005ull, SPIN_ITERS, 0),
		     grid, wg, 0, 64);
	vt_preempter_start(&p, f.d.fd, s0.engine_index, 100);
	vt_submit(f.d.fd, f.ctx, &f.c, 0, o);
	VT_ASSERT_EQ(vt_syncobj_wait_ms(f.d.fd, o, 120000), 0);
	vt_preempter_stop(&p);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, o), 1);
	s1 = vt_ctx_state(f.d.fd, f.ctx);
	for (i = 0; i < 64; i++)
		VT_ASSERT_EQ(VT_U64(&f.out, i * 8), spin_expected(i, SPIN_ITERS));
	printf("# preempted_at_instructions_bit_identical: %llu preemptions\n",
	       (unsigned long long)(s1.preemptions - s0.preemptions));
	/* Hundreds, fewer with several compute units: the kernel ends sooner. */
	VT_ASSERT(s1.preemptions - s0.preemptions >= 100);

	/* Barriers and local memory survive preemption too. */
	vt_pkt_dispatch(&f.c, mirror, f.args.va, mgrid, mwg, 1024, 64);
	vt_preempter_start(&p, f.d.fd, s0.engine_index, 100);
	vt_submit(f.d.fd, f.ctx, &f.c, 0, o);
	VT_ASSERT_EQ(vt_syncobj_wait_ms(f.d.fd, o, 120000), 0);
	vt_preempter_stop(&p);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, o), 1);
	check_mirror(&f, 16, 256);
	VT_ASSERT(vt_ctx_state(f.d.fd, f.ctx).preemptions > s1.preemptions);
	drmSyncobjDestroy(f.d.fd, o);
	fx_close(&f);
}

/*
 * A kernel that loops forever: -ETIMEDOUT after the hang timeout, its
 * context banned for a hang; a context on the same engine completes.
 * Load with timeout_ms=300.
 */
VTEST(infinite_loop_recovered)
{
	static const __u32 forever[] = { J(0) };
	struct fx f = fx_open();
	__u32 innocent = vt_ctx_create(f.d.fd, COMPUTE, 0);
	__u32 oh = vt_syncobj(f.d.fd), oi = vt_syncobj(f.d.fd);
	__u32 one[3] = { 1, 1, 1 };
	__u32 mgrid[3] = { 256 * 2, 1, 1 }, mwg[3] = { 256, 1, 1 };
	__u64 loop = KERNEL(&f, forever), mirror = KERNEL(&f, mirror_kernel);
	struct drm_vaccel_context_state s;
	__u64 va = vt_cmd_va(&f.c), before = vt_ctx_state(f.d.fd, f.ctx).jobs_submitted;

	vt_pkt_nop(&f.c, 3);
	vt_pkt_dispatch(&f.c, loop, f.args.va, one, one, 0, 64);
	vt_submit(f.d.fd, f.ctx, &f.c, 0, oh);
	args1(&f, 0, 0, 0);
	vt_pkt_dispatch(&f.c, mirror, f.args.va, mgrid, mwg, 1024, 64);
	vt_submit(f.d.fd, innocent, &f.c, 0, oi);
	VT_ASSERT_EQ(vt_syncobj_wait_ms(f.d.fd, oh, 30000), 0);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, oh), -ETIMEDOUT);
	VT_ASSERT_EQ(vt_syncobj_wait_ms(f.d.fd, oi, 30000), 0);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, oi), 1);
	check_mirror(&f, 2, 256);
	s = vt_ctx_state(f.d.fd, f.ctx);
	VT_ASSERT_EQ(s.ban_reason, DRM_VACCEL_BAN_HANG);
	VT_ASSERT_EQ(s.guilty_resets, 1);
	/* The ban names the buffer and its DISPATCH, after the NOP (uapi 1.6). */
	VT_ASSERT_EQ(s.ban_job, before + 1);
	VT_ASSERT(s.ban_buffer_va == va);
	VT_ASSERT_EQ(s.ban_offset, 24);
	vt_ctx_destroy(f.d.fd, innocent);
	drmSyncobjDestroy(f.d.fd, oh);
	drmSyncobjDestroy(f.d.fd, oi);
	fx_close(&f);
}

/* --- workgroup ranges (uapi 1.7) --- */

/*
 * Each work-item stores its global id x, y, z, its group id x, y, z and
 * the number of workgroups along x at its flat global index (32 bytes),
 * and adds 1 to a counter there: a work-item run twice, or not at all,
 * shows.
 */
static const __u32 range_kernel[] = {
	CSRR(T0, CSR_GID_X),
	CSRR(T1, CSR_GID_Y),
	CSRR(T2, CSR_GID_Z),
	CSRR(A2, CSR_GSIZE_X),
	CSRR(A3, CSR_GSIZE_Y),
	MUL(A4, A3, T2),	/* gz * Ny */
	ADD(A4, A4, T1),	/* + gy */
	MUL(A4, A4, A2),	/* * Nx */
	ADD(A4, A4, T0),	/* + gx */
	SLLI(A4, A4, 5),	/* 32 bytes per work-item */
	LD(A1, A0, 0),
	ADD(A1, A1, A4),
	SW(T0, A1, 0),
	SW(T1, A1, 4),
	SW(T2, A1, 8),
	CSRR(A5, CSR_GRP_X),
	SW(A5, A1, 12),
	CSRR(A5, CSR_GRP_X + 1),
	SW(A5, A1, 16),
	CSRR(A5, CSR_GRP_X + 2),
	SW(A5, A1, 20),
	CSRR(A5, 0xcc9),	/* workgroups along x */
	SW(A5, A1, 24),
	ADDI(A1, A1, 28),
	ADDI(T0, ZERO, 1),
	AMOADD_W(ZERO, A1, T0),
	RET,
};

/* The grid of the range tests: 10 x 6 x 3 in 4 x 4 x 2, 3 x 2 x 2 = 12 groups. */
static const __u32 range_grid[3] = { 10, 6, 3 }, range_wg[3] = { 4, 4, 2 };
#define RANGE_GROUPS	12

/* The linear index of the workgroup of work-item (x, y, z) of the range grid. */
static unsigned int range_group_of(unsigned int x, unsigned int y, unsigned int z)
{
	return x / 4 + 3 * (y / 4) + 6 * (z / 2);
}

/*
 * Checks the output of the range kernel: the work-items of the workgroups
 * in [@first, @end) ran exactly @times times with the ids of the whole
 * grid, the others never.
 */
static void range_check(struct fx *f, unsigned int first, unsigned int end,
			unsigned int times)
{
	unsigned int x, y, z;

	for (z = 0; z < 3; z++)
		for (y = 0; y < 6; y++)
			for (x = 0; x < 10; x++) {
				__u64 o = ((z * 6 + y) * 10 + x) * 32;
				unsigned int g = range_group_of(x, y, z);

				if (g < first || g >= end) {
					VT_ASSERT_EQ(VT_U32(&f->out, o + 28), 0);
					continue;
				}
				VT_ASSERT_EQ(VT_U32(&f->out, o + 28), times);
				VT_ASSERT_EQ(VT_U32(&f->out, o), x);
				VT_ASSERT_EQ(VT_U32(&f->out, o + 4), y);
				VT_ASSERT_EQ(VT_U32(&f->out, o + 8), z);
				VT_ASSERT_EQ(VT_U32(&f->out, o + 12), x / 4);
				VT_ASSERT_EQ(VT_U32(&f->out, o + 16), y / 4);
				VT_ASSERT_EQ(VT_U32(&f->out, o + 20), z / 2);
				VT_ASSERT_EQ(VT_U32(&f->out, o + 24), 3);
			}
}

/*
 * Every range of the 12 workgroups, one per buffer: exactly the
 * workgroups of the range run, with the ids of the whole grid; the first
 * and the last workgroup, and ranges that end at the last one, catch an
 * off-by-one at either end.
 */
VTEST(group_range_runs_exactly_its_workgroups)
{
	struct fx f = fx_open();
	__u64 entry = KERNEL(&f, range_kernel), args = args1(&f, 0, 0, 0);
	unsigned int first, count;

	for (first = 0; first < RANGE_GROUPS; first++) {
		for (count = 1; first + count <= RANGE_GROUPS; count++) {
			memset(f.out.cpu, 0, 180 * 32);
			vt_pkt_dispatch_range(&f.c, entry, args, range_grid, range_wg,
					      0, 64, first, count);
			vt_run(f.d.fd, f.ctx, &f.c);
			range_check(&f, first, first + count, 1);
		}
	}
	vt_expect_not_faulted(f.d.fd, f.ctx);
	fx_close(&f);
}

/*
 * Ranges that split the grid, in one buffer and in the order of the
 * devices of a unified device, compute what one DISPATCH of the whole
 * grid computes; so do 12 ranges of one workgroup each.
 */
VTEST(group_ranges_compose_the_grid)
{
	struct fx f = fx_open();
	__u64 entry = KERNEL(&f, range_kernel), args = args1(&f, 0, 0, 0);
	unsigned int g;

	memset(f.out.cpu, 0, 180 * 32);
	vt_pkt_dispatch_range(&f.c, entry, args, range_grid, range_wg, 0, 64, 0, 5);
	vt_pkt_dispatch_range(&f.c, entry, args, range_grid, range_wg, 0, 64, 5, 1);
	vt_pkt_dispatch_range(&f.c, entry, args, range_grid, range_wg, 0, 64, 6, 6);
	vt_run(f.d.fd, f.ctx, &f.c);
	range_check(&f, 0, RANGE_GROUPS, 1);

	memset(f.out.cpu, 0, 180 * 32);
	for (g = RANGE_GROUPS; g--;)
		vt_pkt_dispatch_range(&f.c, entry, args, range_grid, range_wg, 0, 64, g, 1);
	/* And a DISPATCH without a range after them: the whole grid again. */
	vt_pkt_dispatch(&f.c, entry, args, range_grid, range_wg, 0, 64);
	vt_run(f.d.fd, f.ctx, &f.c);
	range_check(&f, 0, RANGE_GROUPS, 2);
	fx_close(&f);
}

/*
 * Ranges past the grid, empty, or that overflow, a range flag on an
 * 11-word packet, 13 words without it, and an unknown flag are malformed
 * packets; nothing of the grid runs.
 */
VTEST(group_range_malformed)
{
	static const struct {
		__u64 first, count;
	} bad[] = {
		{ 0, 0 },			/* empty */
		{ RANGE_GROUPS, 0 },		/* empty, at the end */
		{ 0, RANGE_GROUPS + 1 },	/* one past the end */
		{ RANGE_GROUPS - 1, 2 },	/* the last and one more */
		{ RANGE_GROUPS, 1 },		/* starts at the end */
		{ ~0ull, 1 },			/* starts far past it */
		{ 1, ~0ull },			/* count overflows */
		{ 2, ~0ull - 1 },		/* first + count wraps to 0 */
		{ 4, ~0ull - 1 },		/* first + count wraps to 2 */
	};
	static const __u32 hdrs[3][2] = {
		/* flags, words */
		{ DRM_VACCEL_PKT_F_GROUP_RANGE, 11 },
		{ 0, 13 },
		{ DRM_VACCEL_PKT_F_GROUP_RANGE | (1u << 5), 13 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad) + ARRAY_SIZE(hdrs); i++) {
		struct fx f = fx_open();
		__u64 off = vt_cmd_offset(&f.c), entry = KERNEL(&f, range_kernel);
		__u64 args = args1(&f, 0, 0, 0);

		memset(f.out.cpu, 0, 180 * 32);
		if (i < ARRAY_SIZE(bad)) {
			vt_pkt_dispatch_range(&f.c, entry, args, range_grid, range_wg,
					      0, 64, bad[i].first, bad[i].count);
		} else {
			const __u32 *h = hdrs[i - ARRAY_SIZE(bad)];

			/* A good range, with the wrong header. */
			vt_pkt_dispatch_range(&f.c, entry, args, range_grid, range_wg,
					      0, 64, 0, 1);
			VT_U64(&f.c.bo, f.c.start + off) =
				DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_DISPATCH, h[0], h[1]);
			if (h[1] == 11)
				f.c.pos = f.c.start + off + 11 * 8;
		}
		run_expect_status(&f, f.ctx, -EINVAL);
		vt_expect_fault(f.d.fd, f.ctx, DRM_VACCEL_FAULT_MALFORMED,
				DRM_VACCEL_ACCESS_READ, f.c.bo.va + off, off);
		range_check(&f, 0, 0, 0);
		fx_close(&f);
	}
}

/*
 * The preemption granularity the plan loaded for engine @index
 * (VT_GRANULARITY: one value for all engines, or one per engine); the
 * compute engines' default, instruction, without it.
 */
static unsigned int granularity_of(unsigned int index)
{
	const char *s = getenv("VT_GRANULARITY");
	unsigned int i, g;

	if (!s || !*s)
		return DRM_VACCEL_PREEMPT_INSTRUCTION;
	g = strtoul(s, NULL, 10);
	if (!strchr(s, ','))
		return g;
	for (i = 0; i < index && s; i++) {
		s = strchr(s, ',');
		if (s)
			s++;
	}
	return s ? strtoul(s, NULL, 10) : g;
}

/*
 * The spin kernel over a range of its grid, preempted again and again at
 * whatever granularity the load set: the workgroups of the range give the
 * results of an uninterrupted run, those outside it never run, and the
 * preempted packet resumes inside its range (preempted at least once at
 * the workgroup and instruction granularities).
 */
VTEST(group_range_preempted_bit_identical)
{
	struct fx f = fx_open();
	__u32 grid[3] = { 64, 1, 1 }, wg[3] = { 4, 1, 1 }, o = vt_syncobj(f.d.fd);
	__u64 spin = KERNEL(&f, spin_kernel);
	struct drm_vaccel_context_state s0, s1;
	struct vt_preempter p;
	unsigned int i;

	memset(f.out.cpu, 0xee, 64 * 8);
	s0 = vt_ctx_state(f.d.fd, f.ctx);
	/* Workgroups 5 to 11 of 16: work-items 20 to 47. */
	vt_pkt_dispatch_range(&f.c, spin, args1(&f, 6364136223846793005ull, SPIN_ITERS / 4, 0),
			      grid, wg, 0, 64, 5, 7);
	vt_preempter_start(&p, f.d.fd, s0.engine_index, 100);
	vt_submit(f.d.fd, f.ctx, &f.c, 0, o);
	VT_ASSERT_EQ(vt_syncobj_wait_ms(f.d.fd, o, 120000), 0);
	vt_preempter_stop(&p);
	VT_ASSERT_EQ(vt_fence_status(f.d.fd, o), 1);
	s1 = vt_ctx_state(f.d.fd, f.ctx);
	for (i = 0; i < 64; i++) {
		if (i >= 20 && i < 48)
			VT_ASSERT_EQ(VT_U64(&f.out, i * 8), spin_expected(i, SPIN_ITERS / 4));
		else
			VT_ASSERT_EQ(VT_U64(&f.out, i * 8), 0xeeeeeeeeeeeeeeeeull);
	}
	printf("# group_range_preempted_bit_identical: %llu preemptions\n",
	       (unsigned long long)(s1.preemptions - s0.preemptions));
	/* Between workgroups or finer, the preempter must have had its way. */
	if (granularity_of(s0.engine_index) >= DRM_VACCEL_PREEMPT_WORKGROUP)
		VT_ASSERT(s1.preemptions > s0.preemptions);
	drmSyncobjDestroy(f.d.fd, o);
	fx_close(&f);
}

/* The engine's instruction counter (debugfs arbiter) of engine @index. */
static __u64 engine_instructions(int fd, unsigned int index)
{
	struct vt_arbiter a;

	vt_arbiter_read(fd, &a);
	VT_ASSERT(index < a.count);
	return a.e[index].instructions;
}

/*
 * The engine counts the instructions it executes: 1000 work-items of six
 * instructions each, the return included, are 6000.
 */
VTEST(instructions_counted)
{
	static const __u32 k[] = {
		CSRR(T0, CSR_GID_X), LD(A1, A0, 0), SLLI(T1, T0, 2),
		ADD(A1, A1, T1), SW(T0, A1, 0), RET,
	};
	struct fx f = fx_open();
	__u32 grid[3] = { 1000, 1, 1 }, wg[3] = { 64, 1, 1 };
	unsigned int e = vt_ctx_state(f.d.fd, f.ctx).engine_index;
	__u64 before = engine_instructions(f.d.fd, e);

	vt_pkt_dispatch(&f.c, KERNEL(&f, k), args1(&f, 0, 0, 0), grid, wg, 0, 64);
	vt_run(f.d.fd, f.ctx, &f.c);
	VT_ASSERT_EQ(engine_instructions(f.d.fd, e) - before, 6000);
	fx_close(&f);
}

VTEST(limits_reported)
{
	struct vt_dev d = vt_dev_open();

	VT_ASSERT_EQ(d.info.max_workgroup_items, 1024);
	VT_ASSERT_EQ(d.info.max_local_size, 65536);
	VT_ASSERT_EQ(d.info.max_stack_size, 65536);
	VT_ASSERT_EQ(d.info.max_private_size, 4 * 1024 * 1024);
	VT_ASSERT(d.info.local_base >= d.info.va_end);
	VT_ASSERT(d.info.private_base >= d.info.va_end);
	vt_dev_close(&d);
}

VTEST_MAIN()
