// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * KUnit tests of the RV64 interpreter: hand-assembled programs in a small
 * flat address space (code, data, read-only, no-execute and unmapped
 * pages), every instruction class with edge values, illegal and compressed
 * encodings, precise faults, the CSR rules, the barrier, the exit, the
 * budget, and NaN boxing.  tests/isa/run-rv.sh compares it with
 * qemu-riscv64 on random sequences.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../vaccel_rv.h"
#include "../vaccel_softfloat.h"

/* The address space: 8 pages from T_BASE, and the exit address. */
#define T_BASE		0x10000ull
#define T_PAGES		8
#define T_PAGE(n)	(T_BASE + (n) * 4096ull)
#define T_EXIT		0xdead0000ull

/* Pages: two of code, data, read-only, no-execute, unmapped. */
enum {
	T_CODE,
	T_CODE2,
	T_DATA,
	T_DATA2,
	T_RO,
	T_NX,
	T_HOLE,
	T_DATA3,
};

#define T_UNMAPPED	1	/* the reasons translate() gives */
#define T_DENIED	3

/* Registers the tests use. */
enum { ZERO, RA, SP, GP, TP, T0, T1, T2, S0, S1, A0, A1, A2, A3, A4, A5 };

struct rv_env {
	struct kunit *test;
	u8 *mem;
	u8 perm[T_PAGES];
	struct vaccel_rv_cpu *cpu;
	struct vaccel_rv_hart hart;
	struct vaccel_rv_fault fault;
	u64 executed;
	unsigned int translations;
	unsigned int csr_calls;
	u64 csr_pc;
	const struct vaccel_rv_hart *csr_hart;
	u32 code_words;
	u8 mem_class[T_PAGES];
	u8 *remap[T_PAGES];	/* another host page for a page, if set */
};

/* Instruction encoders */

#define ENC_R(f7, rs2, rs1, f3, rd, op) \
	((u32)(f7) << 25 | (u32)(rs2) << 20 | (u32)(rs1) << 15 | \
	 (u32)(f3) << 12 | (u32)(rd) << 7 | (op))
#define ENC_I(imm, rs1, f3, rd, op) \
	((u32)(imm) << 20 | (u32)(rs1) << 15 | (u32)(f3) << 12 | \
	 (u32)(rd) << 7 | (op))

static u32 enc_s(s32 imm, u32 rs2, u32 rs1, u32 f3, u32 op)
{
	u32 i = imm;

	return (i >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
	       (i & 31) << 7 | op;
}

static u32 enc_b(s32 imm, u32 rs2, u32 rs1, u32 f3)
{
	u32 i = imm;

	return (i >> 12 & 1) << 31 | (i >> 5 & 0x3f) << 25 | rs2 << 20 |
	       rs1 << 15 | f3 << 12 | (i >> 1 & 0xf) << 8 | (i >> 11 & 1) << 7 |
	       0x63;
}

static u32 enc_j(s32 imm, u32 rd)
{
	u32 i = imm;

	return (i >> 20 & 1) << 31 | (i >> 1 & 0x3ff) << 21 |
	       (i >> 11 & 1) << 20 | (i >> 12 & 0xff) << 12 | rd << 7 | 0x6f;
}

#define LUI(rd, imm20)		((u32)(imm20) << 12 | (rd) << 7 | 0x37)
#define AUIPC(rd, imm20)	((u32)(imm20) << 12 | (rd) << 7 | 0x17)
#define ADDI(rd, rs1, imm)	ENC_I(imm, rs1, 0, rd, 0x13)
#define OPI(f3, rd, rs1, imm)	ENC_I(imm, rs1, f3, rd, 0x13)
#define OPIW(f3, rd, rs1, imm)	ENC_I(imm, rs1, f3, rd, 0x1b)
#define OP(f7, f3, rd, rs1, rs2)	ENC_R(f7, rs2, rs1, f3, rd, 0x33)
#define OPW(f7, f3, rd, rs1, rs2)	ENC_R(f7, rs2, rs1, f3, rd, 0x3b)
#define LOAD(f3, rd, rs1, imm)	ENC_I(imm, rs1, f3, rd, 0x03)
#define STORE(f3, rs2, rs1, imm)	enc_s(imm, rs2, rs1, f3, 0x23)
#define BR(f3, rs1, rs2, imm)	enc_b(imm, rs2, rs1, f3)
#define JAL(rd, imm)		enc_j(imm, rd)
#define JALR(rd, rs1, imm)	ENC_I(imm, rs1, 0, rd, 0x67)
#define RET			JALR(ZERO, RA, 0)
#define AMO(f5, aqrl, f3, rd, rs1, rs2) \
	ENC_R((f5) << 2 | (aqrl), rs2, rs1, f3, rd, 0x2f)
#define CSR(f3, rd, csr, rs1)	ENC_I(csr, rs1, f3, rd, 0x73)
#define FLOAD(f3, rd, rs1, imm)	ENC_I(imm, rs1, f3, rd, 0x07)
#define FSTORE(f3, rs2, rs1, imm)	enc_s(imm, rs2, rs1, f3, 0x27)
#define FP(f5, fmt, rm, rd, rs1, rs2) \
	ENC_R((f5) << 2 | (fmt), rs2, rs1, rm, rd, 0x53)
#define FMA(op, fmt, rm, rd, rs1, rs2, rs3) \
	((rs3) << 27 | (fmt) << 25 | (rs2) << 20 | (rs1) << 15 | (rm) << 12 | \
	 (rd) << 7 | (op))
#define ECALL			0x00000073u
#define EBREAK			0x00100073u
#define FENCE			0x0ff0000fu
#define FENCE_I			0x0000100fu
#define BARRIER			VACCEL_RV_INSN_BARRIER

#define BOX(v)			(0xffffffff00000000ull | (u32)(v))

/* The environment */

static u8 *rv_env_translate(void *env, u64 va, unsigned int access,
			    u32 *reason, unsigned int *mem_class)
{
	struct rv_env *e = env;
	u64 page = (va - T_BASE) >> 12;
	u8 want;

	e->translations++;
	if (va < T_BASE || page >= T_PAGES || !e->perm[page]) {
		*reason = T_UNMAPPED;
		return NULL;
	}
	want = access;
	if ((e->perm[page] & want) != want) {
		*reason = T_DENIED;
		return NULL;
	}
	*mem_class = e->mem_class[page];
	if (e->remap[page])
		return e->remap[page];
	return e->mem + page * 4096;
}

static int rv_env_csr(void *env, const struct vaccel_rv_hart *hart, u32 csr,
		      u64 *val)
{
	struct rv_env *e = env;

	e->csr_calls++;
	e->csr_hart = hart;
	e->csr_pc = hart->pc;
	if (csr == VACCEL_RV_CSR_TIME) {
		*val = 123456789;
		return 0;
	}
	if (csr >= 0xcc0 && csr <= 0xcc3) {
		*val = 0x1000 + csr;
		return 0;
	}
	return -EINVAL;
}

static const struct vaccel_rv_ops rv_env_ops = {
	.translate = rv_env_translate,
	.csr_read = rv_env_csr,
};

static struct rv_env *rv_env_new(struct kunit *test)
{
	static const u8 perm[T_PAGES] = {
		[T_CODE] = VACCEL_RV_READ | VACCEL_RV_EXEC,
		[T_CODE2] = VACCEL_RV_READ | VACCEL_RV_EXEC,
		[T_DATA] = VACCEL_RV_READ | VACCEL_RV_WRITE,
		[T_DATA2] = VACCEL_RV_READ | VACCEL_RV_WRITE,
		[T_RO] = VACCEL_RV_READ,
		[T_NX] = VACCEL_RV_READ | VACCEL_RV_WRITE,
		[T_HOLE] = 0,
		[T_DATA3] = VACCEL_RV_READ | VACCEL_RV_WRITE | VACCEL_RV_EXEC,
	};
	struct rv_env *e;

	e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	e->mem = kunit_kzalloc(test, T_PAGES * 4096, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->mem);
	e->cpu = kunit_kzalloc(test, sizeof(*e->cpu), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->cpu);
	e->test = test;
	memcpy(e->perm, perm, sizeof(perm));
	vaccel_rv_cpu_init(e->cpu, &rv_env_ops, e, T_EXIT);
	e->hart.pc = T_PAGE(T_CODE);
	e->hart.x[RA] = T_EXIT;
	return e;
}

static u8 *rv_host(struct rv_env *e, u64 va)
{
	return e->mem + (va - T_BASE);
}

static u64 rv_mem64(struct rv_env *e, u64 va)
{
	u64 v;

	memcpy(&v, rv_host(e, va), 8);
	return v;
}

static void rv_set64(struct rv_env *e, u64 va, u64 v)
{
	memcpy(rv_host(e, va), &v, 8);
}

/* Writes @n words at @va. */
static void rv_code_at(struct rv_env *e, u64 va, const u32 *words,
		       unsigned int n)
{
	memcpy(rv_host(e, va), words, n * 4);
}

/* The program at the start of the code page; pc there. */
static void rv_code(struct rv_env *e, const u32 *words, unsigned int n)
{
	rv_code_at(e, T_PAGE(T_CODE), words, n);
	e->code_words = n;
	e->hart.pc = T_PAGE(T_CODE);
}

/*
 * Runs the hart as the engine does at the start of a dispatch: after an
 * instruction-cache sync, as the tests write code between runs.
 */
static enum vaccel_rv_stop rv_run(struct rv_env *e, u64 budget)
{
	vaccel_rv_cpu_sync(e->cpu);
	memset(&e->fault, 0xa5, sizeof(e->fault));
	return vaccel_rv_run(e->cpu, &e->hart, budget, &e->executed, &e->fault);
}

/* Runs to the exit, which the program must reach. */
static void rv_run_exit(struct rv_env *e)
{
	enum vaccel_rv_stop stop = rv_run(e, 100000);

	KUNIT_ASSERT_EQ_MSG(e->test, stop, VACCEL_RV_EXIT,
			    "cause %u pc 0x%llx insn 0x%08x va 0x%llx",
			    e->fault.cause, e->fault.pc, e->fault.insn,
			    e->fault.va);
}

/*
 * Runs a program whose first instruction faults: expects @cause at its
 * start, the instruction recorded, and the hart exactly as before.
 */
static void rv_expect_fault(struct rv_env *e, u32 cause, u64 va, u32 reason)
{
	struct vaccel_rv_hart before = e->hart;
	struct kunit *test = e->test;
	u64 executed = e->executed;
	enum vaccel_rv_stop stop;

	stop = rv_run(e, 100);
	KUNIT_ASSERT_EQ(test, stop, VACCEL_RV_FAULT);
	KUNIT_EXPECT_EQ(test, e->fault.cause, cause);
	KUNIT_EXPECT_EQ(test, e->fault.pc, before.pc);
	KUNIT_EXPECT_EQ(test, e->fault.va, va);
	KUNIT_EXPECT_EQ(test, e->fault.reason, reason);
	if (cause != VACCEL_RV_CAUSE_FETCH &&
	    cause != VACCEL_RV_CAUSE_MISALIGNED_FETCH)
		KUNIT_EXPECT_EQ(test, e->fault.insn,
				*(u32 *)rv_host(e, before.pc));
	KUNIT_EXPECT_EQ(test, e->executed, executed);
	KUNIT_EXPECT_EQ(test, memcmp(&before, &e->hart, sizeof(before)), 0);
}

/* Runs the single instruction @insn, then returns. */
static void rv_exec1(struct rv_env *e, u32 insn)
{
	u32 prog[] = { insn, RET };

	rv_code(e, prog, ARRAY_SIZE(prog));
	e->hart.x[RA] = T_EXIT;
	rv_run_exit(e);
}

/* Integer */

struct rv_alu_case {
	const char *name;
	u32 insn;	/* rd T2, rs1 T0, rs2 T1 */
	u64 a, b, r;
};

#define R3(f7, f3)	OP(f7, f3, T2, T0, T1)
#define R3W(f7, f3)	OPW(f7, f3, T2, T0, T1)
#define I2(f3, imm)	OPI(f3, T2, T0, imm)
#define I2W(f3, imm)	OPIW(f3, T2, T0, imm)

static const struct rv_alu_case rv_alu_cases[] = {
	{ "add", R3(0, 0), 5, -7ull, -2ull },
	{ "add_wrap", R3(0, 0), ~0ull, 1, 0 },
	{ "sub", R3(0x20, 0), 5, 7, -2ull },
	{ "sll", R3(0, 1), 1, 63 | 64, 1ull << 63 },
	{ "slt", R3(0, 2), -1ull, 0, 1 },
	{ "slt_eq", R3(0, 2), 4, 4, 0 },
	{ "sltu", R3(0, 3), 0, -1ull, 1 },
	{ "xor", R3(0, 4), 0xff00, 0x0ff0, 0xf0f0 },
	{ "srl", R3(0, 5), 1ull << 63, 63, 1 },
	{ "sra", R3(0x20, 5), 1ull << 63, 63, -1ull },
	{ "or", R3(0, 6), 0xf0, 0x0f, 0xff },
	{ "and", R3(0, 7), 0xf0, 0x3c, 0x30 },
	{ "addi_neg", I2(0, -2048), 0, 0, -2048ull },
	{ "slti", I2(2, -1), -2ull, 0, 1 },
	{ "sltiu_neg_imm", I2(3, -1), 5, 0, 1 },
	{ "xori_not", I2(4, -1), 0x1234, 0, ~0x1234ull },
	{ "ori", I2(6, 0x7ff), 0x800, 0, 0xfff },
	{ "andi_sext", I2(7, -16), 0x1234567f, 0, 0x12345670 },
	{ "slli_63", I2(1, 63), 3, 0, 1ull << 63 },
	{ "srli_63", I2(5, 63), ~0ull, 0, 1 },
	{ "srai_40", I2(5, 0x400 | 40), 1ull << 63, 0, ~0ull << 23 },
	{ "addw_wrap", R3W(0, 0), 0x7fffffff, 1, 0xffffffff80000000ull },
	{ "subw", R3W(0x20, 0), 0x100000000ull, 1, -1ull },
	{ "sllw", R3W(0, 1), 1, 31 | 32, 0xffffffff80000000ull },
	{ "srlw", R3W(0, 5), 0xffffffff80000000ull, 31, 1 },
	{ "sraw", R3W(0x20, 5), 0x80000000ull, 4, 0xfffffffff8000000ull },
	{ "addiw", I2W(0, -1), 0x80000000ull, 0, 0x7fffffff },
	{ "slliw", I2W(1, 31), 1, 0, 0xffffffff80000000ull },
	{ "srliw", I2W(5, 1), 0xffffffff00000000ull, 0, 0 },
	{ "sraiw", I2W(5, 0x400 | 31), 0x80000000ull, 0, -1ull },
	/* M */
	{ "mul", R3(1, 0), -3ull, 7, -21ull },
	{ "mulh", R3(1, 1), 1ull << 63, 1ull << 63, 1ull << 62 },
	{ "mulh_neg", R3(1, 1), -1ull, 5, -1ull },
	{ "mulhsu", R3(1, 2), -1ull, ~0ull, ~0ull },
	{ "mulhsu_pos", R3(1, 2), 2, ~0ull, 1 },
	{ "mulhu", R3(1, 3), ~0ull, ~0ull, ~0ull - 1 },
	{ "div", R3(1, 4), -7ull, 2, -3ull },
	{ "div_zero", R3(1, 4), 7, 0, -1ull },
	{ "div_overflow", R3(1, 4), 1ull << 63, -1ull, 1ull << 63 },
	{ "divu", R3(1, 5), ~0ull, 2, ~0ull >> 1 },
	{ "divu_zero", R3(1, 5), 7, 0, ~0ull },
	{ "rem", R3(1, 6), -7ull, 2, -1ull },
	{ "rem_zero", R3(1, 6), -7ull, 0, -7ull },
	{ "rem_overflow", R3(1, 6), 1ull << 63, -1ull, 0 },
	{ "remu", R3(1, 7), 7, 3, 1 },
	{ "remu_zero", R3(1, 7), 7, 0, 7 },
	{ "mulw", R3W(1, 0), 0x10000, 0x8000, 0xffffffff80000000ull },
	{ "divw", R3W(1, 4), 0xfffffff9ull, 2, -3ull },
	{ "divw_zero", R3W(1, 4), 5, 0x100000000ull, -1ull },
	{ "divw_overflow", R3W(1, 4), 0x80000000ull, 0xffffffff, 0xffffffff80000000ull },
	{ "divuw", R3W(1, 5), 0xffffffff, 1, -1ull },
	{ "divuw_zero", R3W(1, 5), 5, 0, -1ull },
	{ "remw", R3W(1, 6), -7ull, 2, -1ull },
	{ "remw_zero", R3W(1, 6), 0x1fffffff9ull, 0, -7ull },
	{ "remw_overflow", R3W(1, 6), 0x80000000ull, -1ull, 0 },
	{ "remuw", R3W(1, 7), 0x80000007ull, 0x10, 7 },
	{ "remuw_zero", R3W(1, 7), 0x80000007ull, 0, 0xffffffff80000007ull },
};

static void vaccel_test_rv_alu(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rv_alu_cases); i++) {
		const struct rv_alu_case *c = &rv_alu_cases[i];
		struct rv_env *e = rv_env_new(test);

		e->hart.x[T0] = c->a;
		e->hart.x[T1] = c->b;
		rv_exec1(e, c->insn);
		KUNIT_EXPECT_EQ_MSG(test, e->hart.x[T2], c->r, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, e->executed, 2, "%s", c->name);
	}
}

/* LUI, AUIPC, and writes to x0 of every kind. */
static void vaccel_test_rv_upper_and_x0(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u32 prog[] = {
		LUI(T0, 0x80000),		/* sign-extended */
		AUIPC(T1, 0xfffff),		/* pc - 4096 */
		ADDI(ZERO, T0, 5),
		LOAD(3, ZERO, A0, 0),
		JAL(ZERO, 4),
		CSR(2, ZERO, VACCEL_RV_CSR_FCSR, ZERO),
		AMO(0, 0, 3, ZERO, A0, A1),
		FP(0x14, 1, 2, ZERO, 0, 0),	/* feq.d x0, f0, f0 */
		LUI(ZERO, 0x12345),
		ADDI(T2, ZERO, 0),
		RET,
	};

	e->hart.x[A0] = T_PAGE(T_DATA);
	e->hart.x[A1] = 9;
	e->hart.x[ZERO] = 77;	/* whatever is stored there reads 0 */
	rv_code(e, prog, ARRAY_SIZE(prog));
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[T0], 0xffffffff80000000ull);
	KUNIT_EXPECT_EQ(test, e->hart.x[T1], T_PAGE(T_CODE) + 4 - 4096);
	KUNIT_EXPECT_EQ(test, e->hart.x[T2], 0);
	KUNIT_EXPECT_EQ(test, e->hart.x[ZERO], 0);
	KUNIT_EXPECT_EQ(test, rv_mem64(e, T_PAGE(T_DATA)), 9);
	KUNIT_EXPECT_EQ(test, e->executed, ARRAY_SIZE(prog));
}

static void vaccel_test_rv_load_store(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u64 d = T_PAGE(T_DATA), cross = T_PAGE(T_DATA2) - 3;
	u32 prog[] = {
		LOAD(0, S0, A0, 7),	/* lb */
		LOAD(4, S1, A0, 7),	/* lbu */
		LOAD(1, A2, A0, 6),	/* lh */
		LOAD(5, A3, A0, 6),	/* lhu */
		LOAD(2, A4, A0, 4),	/* lw */
		LOAD(6, A5, A0, 4),	/* lwu */
		LOAD(3, T0, A0, 0),	/* ld */
		LOAD(3, T1, A0, 1),	/* misaligned ld */
		STORE(0, A1, A0, 16),	/* sb */
		STORE(1, A1, A0, 25),	/* misaligned sh */
		STORE(2, A1, A0, 34),	/* misaligned sw */
		STORE(3, A1, A0, 41),	/* misaligned sd */
		STORE(3, A1, GP, 0),	/* sd across the page */
		LOAD(3, T2, GP, 0),	/* ld across the page */
		LOAD(2, TP, A0, -4),	/* negative offset: previous page */
		RET,
	};

	rv_set64(e, d, 0x8899aabbccddeeffull);
	rv_set64(e, d + 8, 0x11);
	e->hart.x[A0] = d;
	e->hart.x[A1] = 0x0102030405060708ull;
	e->hart.x[GP] = cross;
	e->mem[T_PAGE(T_DATA) - T_BASE - 1] = 0x80;	/* code page 2 end */
	rv_code(e, prog, ARRAY_SIZE(prog));
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[S0], (u64)(s8)0x88);
	KUNIT_EXPECT_EQ(test, e->hart.x[S1], 0x88);
	KUNIT_EXPECT_EQ(test, e->hart.x[A2], (u64)(s16)0x8899);
	KUNIT_EXPECT_EQ(test, e->hart.x[A3], 0x8899);
	KUNIT_EXPECT_EQ(test, e->hart.x[A4], (u64)(s32)0x8899aabb);
	KUNIT_EXPECT_EQ(test, e->hart.x[A5], 0x8899aabb);
	KUNIT_EXPECT_EQ(test, e->hart.x[T0], 0x8899aabbccddeeffull);
	KUNIT_EXPECT_EQ(test, e->hart.x[T1], 0x118899aabbccddeeull);
	KUNIT_EXPECT_EQ(test, e->mem[d + 16 - T_BASE], 0x08);
	KUNIT_EXPECT_EQ(test, e->mem[d + 25 - T_BASE], 0x08);
	KUNIT_EXPECT_EQ(test, e->mem[d + 26 - T_BASE], 0x07);
	KUNIT_EXPECT_EQ(test, rv_mem64(e, d + 34) & 0xffffffff, 0x05060708);
	KUNIT_EXPECT_EQ(test, rv_mem64(e, d + 41), 0x0102030405060708ull);
	KUNIT_EXPECT_EQ(test, rv_mem64(e, cross), 0x0102030405060708ull);
	KUNIT_EXPECT_EQ(test, e->hart.x[T2], 0x0102030405060708ull);
	KUNIT_EXPECT_EQ(test, e->hart.x[TP], 0xffffffff80000000ull);
}

static void vaccel_test_rv_branch_jump(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	/* Each taken branch skips an ADDI that would mark S0. */
	u32 prog[] = {
		BR(0, A0, A0, 8), ADDI(S0, S0, 1),	/* beq taken */
		BR(1, A0, A0, 8), ADDI(S1, S1, 1),	/* bne not taken */
		BR(4, A1, A0, 8), ADDI(S0, S0, 2),	/* blt -1 < 1 */
		BR(5, A0, A1, 8), ADDI(S0, S0, 4),	/* bge 1 >= -1 */
		BR(6, A0, A1, 8), ADDI(S0, S0, 8),	/* bltu 1 < ~0 */
		BR(7, A1, A0, 8), ADDI(S0, S0, 16),	/* bgeu ~0 >= 1 */
		BR(6, A1, A0, 8), ADDI(S1, S1, 2),	/* bltu not taken */
		JAL(T0, 8), ADDI(S0, S0, 32),		/* jal, link */
		AUIPC(T1, 0),
		JALR(T2, T1, 13),			/* to T1 + 12, bit 0 cleared */
		ADDI(S0, S0, 64),
		JAL(ZERO, 8), ADDI(S0, S0, 128),	/* forward */
		ADDI(A2, A2, 1),			/* loop: counts to 3 */
		BR(1, A2, A3, -4),
		RET,
	};

	e->hart.x[A0] = 1;
	e->hart.x[A1] = -1ull;
	e->hart.x[A3] = 3;
	rv_code(e, prog, ARRAY_SIZE(prog));
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[S0], 0);
	KUNIT_EXPECT_EQ(test, e->hart.x[S1], 3);
	KUNIT_EXPECT_EQ(test, e->hart.x[T0], T_PAGE(T_CODE) + 15 * 4);
	KUNIT_EXPECT_EQ(test, e->hart.x[T2], T_PAGE(T_CODE) + 18 * 4);
	KUNIT_EXPECT_EQ(test, e->hart.x[A2], 3);
}

/* Jumps between pages and back, a call and a return through ra. */
static void vaccel_test_rv_cross_page(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u64 fn = T_PAGE(T_CODE2) - 8;	/* straddles the two code pages */
	u32 prog[] = {
		ADDI(S0, RA, 0),
		AUIPC(T0, 1),
		JALR(RA, T0, -8 - 4),	/* call fn */
		ADDI(RA, S0, 0),
		RET,
	};
	u32 body[] = {
		ADDI(A0, A0, 1), ADDI(A0, A0, 2), ADDI(A0, A0, 4), RET,
	};

	rv_code(e, prog, ARRAY_SIZE(prog));
	rv_code_at(e, fn, body, ARRAY_SIZE(body));
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 7);
	KUNIT_EXPECT_EQ(test, e->executed, ARRAY_SIZE(prog) + ARRAY_SIZE(body));
}

struct rv_amo_case {
	const char *name;
	u32 f5;
	bool word;
	u64 mem, src, rd, after;
};

static const struct rv_amo_case rv_amo_cases[] = {
	{ "amoswap.d", 0x01, false, 5, 9, 5, 9 },
	{ "amoadd.d", 0x00, false, ~0ull, 2, ~0ull, 1 },
	{ "amoxor.d", 0x04, false, 0xff, 0x0f, 0xff, 0xf0 },
	{ "amoand.d", 0x0c, false, 0xff, 0x0f, 0xff, 0x0f },
	{ "amoor.d", 0x08, false, 0xf0, 0x0f, 0xf0, 0xff },
	{ "amomin.d", 0x10, false, 1, -1ull, 1, -1ull },
	{ "amomax.d", 0x14, false, 1, -1ull, 1, 1 },
	{ "amominu.d", 0x18, false, 1, -1ull, 1, 1 },
	{ "amomaxu.d", 0x1c, false, 1, -1ull, 1, -1ull },
	{ "amoswap.w", 0x01, true, 0xaaaaaaaa80000000ull, 7,
	  0xffffffff80000000ull, 0xaaaaaaaa00000007ull },
	{ "amoadd.w", 0x00, true, 0x5555555580000000ull, 0x80000000ull,
	  0xffffffff80000000ull, 0x5555555500000000ull },
	{ "amomin.w", 0x10, true, 0x7fffffff, 0x180000000ull, 0x7fffffff,
	  0x80000000 },
	{ "amomax.w", 0x14, true, 0x7fffffff, 0x80000000ull, 0x7fffffff,
	  0x7fffffff },
	{ "amominu.w", 0x18, true, 0x7fffffff, 0x80000000ull, 0x7fffffff,
	  0x7fffffff },
	{ "amomaxu.w", 0x1c, true, 0x7fffffff, 0x80000000ull, 0x7fffffff,
	  0x80000000 },
	{ "amoxor.w", 0x04, true, 0x1234567800000000ull, ~0ull,
	  0, 0x12345678ffffffffull },
};

static void vaccel_test_rv_amo(struct kunit *test)
{
	unsigned int i, aqrl;

	for (i = 0; i < ARRAY_SIZE(rv_amo_cases); i++) {
		for (aqrl = 0; aqrl < 4; aqrl++) {
			const struct rv_amo_case *c = &rv_amo_cases[i];
			struct rv_env *e = rv_env_new(test);
			u64 va = T_PAGE(T_DATA) + 64;

			rv_set64(e, va, c->mem);
			e->hart.x[A0] = va;
			e->hart.x[A1] = c->src;
			rv_exec1(e, AMO(c->f5, aqrl, c->word ? 2 : 3, A2, A0,
					A1));
			KUNIT_EXPECT_EQ_MSG(test, e->hart.x[A2], c->rd, "%s",
					    c->name);
			KUNIT_EXPECT_EQ_MSG(test, rv_mem64(e, va), c->after,
					    "%s", c->name);
		}
	}
}

static void vaccel_test_rv_lr_sc(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u64 va = T_PAGE(T_DATA) + 128;
	u32 prog[] = {
		AMO(0x02, 2, 2, S0, A0, ZERO),	/* lr.w.aq: 0xffffffff80000001 */
		AMO(0x03, 1, 2, S1, A0, A1),	/* sc.w.rl: succeeds */
		AMO(0x03, 0, 2, A2, A0, A1),	/* sc.w without lr: fails */
		AMO(0x02, 0, 3, A3, A0, ZERO),	/* lr.d */
		STORE(3, A5, A0, 0),		/* another value */
		AMO(0x03, 0, 3, A4, A0, A1),	/* sc.d fails */
		AMO(0x02, 0, 3, T0, A0, ZERO),	/* lr.d */
		AMO(0x03, 0, 3, T1, GP, A1),	/* sc.d elsewhere fails */
		AMO(0x03, 0, 3, T2, A0, A1),	/* reservation gone: fails */
		AMO(0x02, 0, 3, TP, A0, ZERO),	/* lr.d */
		AMO(0x03, 0, 2, SP, A0, A1),	/* sc.w: other size, fails */
		RET,
	};

	rv_set64(e, va, 0x1234567880000001ull);
	e->hart.x[A0] = va;
	e->hart.x[A1] = 0x4242424242424242ull;
	e->hart.x[A5] = 77;
	e->hart.x[GP] = va + 8;
	rv_code(e, prog, ARRAY_SIZE(prog));
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[S0], 0xffffffff80000001ull);
	KUNIT_EXPECT_EQ(test, e->hart.x[S1], 0);
	KUNIT_EXPECT_EQ(test, e->hart.x[A2], 1);
	KUNIT_EXPECT_EQ(test, e->hart.x[A3], 0x1234567842424242ull);
	KUNIT_EXPECT_EQ(test, e->hart.x[A4], 1);
	KUNIT_EXPECT_EQ(test, e->hart.x[T0], 77);
	KUNIT_EXPECT_EQ(test, e->hart.x[T1], 1);
	KUNIT_EXPECT_EQ(test, e->hart.x[T2], 1);
	KUNIT_EXPECT_EQ(test, e->hart.x[SP], 1);
	KUNIT_EXPECT_EQ(test, rv_mem64(e, va), 77);
	KUNIT_EXPECT_EQ(test, e->hart.resv_size, 0);
}

/* Floating point */

struct rv_fp_case {
	const char *name;
	u32 insn;	/* rd f3 or x T2; rs1 f1 or x T0; rs2 f2; rs3 f4 */
	u64 a, b, c;	/* f1 or x T0, f2, f4 */
	u32 frm;
	bool to_x;	/* the result is in x T2, else in f3 */
	u64 r;
	u32 flags;
};

#define F2(f5, fmt, rm)		FP(f5, fmt, rm, 3, 1, 2)
#define F1(f5, fmt, rm, rs2)	FP(f5, fmt, rm, 3, 1, rs2)
#define FX(f5, fmt, rm, rs2)	FP(f5, fmt, rm, T2, 1, rs2)
#define XF(f5, fmt, rm, rs2)	FP(f5, fmt, rm, 3, T0, rs2)
#define F3(op, fmt, rm)		FMA(op, fmt, rm, 3, 1, 2, 4)

#define S1_0	BOX(0x3f800000)
#define S2_0	BOX(0x40000000)
#define S3_0	BOX(0x40400000)
#define SM1_0	BOX(0xbf800000)
#define SM2_0	BOX(0xc0000000)
#define S4_0	BOX(0x40800000)
#define SQNAN	BOX(0x7fc00000)
#define SSNAN	BOX(0x7f800001)
#define D1_0	0x3ff0000000000000ull
#define D2_0	0x4000000000000000ull
#define D3_0	0x4008000000000000ull
#define D4_0	0x4010000000000000ull

#define NX	VACCEL_FFLAG_NX
#define UF	VACCEL_FFLAG_UF
#define OF	VACCEL_FFLAG_OF
#define DZ	VACCEL_FFLAG_DZ
#define NV	VACCEL_FFLAG_NV

static const struct rv_fp_case rv_fp_cases[] = {
	{ "fadd.s", F2(0x00, 0, 0), S1_0, S2_0, 0, 0, false, S3_0, 0 },
	{ "fsub.s", F2(0x01, 0, 0), S1_0, S2_0, 0, 0, false, SM1_0, 0 },
	{ "fmul.s", F2(0x02, 0, 0), S2_0, S2_0, 0, 0, false, S4_0, 0 },
	{ "fdiv.s_rne", F2(0x03, 0, 0), S1_0, S3_0, 0, 0, false,
	  BOX(0x3eaaaaab), NX },
	{ "fdiv.s_rtz", F2(0x03, 0, 1), S1_0, S3_0, 0, 0, false,
	  BOX(0x3eaaaaaa), NX },
	{ "fdiv.s_dyn_rdn", F2(0x03, 0, 7), S1_0, S3_0, 0, 2, false,
	  BOX(0x3eaaaaaa), NX },
	{ "fdiv.s_dyn_rup", F2(0x03, 0, 7), S1_0, S3_0, 0, 3, false,
	  BOX(0x3eaaaaab), NX },
	{ "fdiv.s_zero", F2(0x03, 0, 0), S1_0, BOX(0), 0, 0, false,
	  BOX(0x7f800000), DZ },
	{ "fsqrt.s", F1(0x0b, 0, 0, 0), S4_0, 0, 0, 0, false, S2_0, 0 },
	{ "fsqrt.s_neg", F1(0x0b, 0, 0, 0), SM1_0, 0, 0, 0, false, SQNAN,
	  NV },
	{ "fmadd.s", F3(0x43, 0, 0), S2_0, S3_0, S1_0, 0, false,
	  BOX(0x40e00000), 0 },
	{ "fmsub.s", F3(0x47, 0, 0), S2_0, S3_0, S1_0, 0, false,
	  BOX(0x40a00000), 0 },
	{ "fnmsub.s", F3(0x4b, 0, 0), S2_0, S3_0, S1_0, 0, false,
	  BOX(0xc0a00000), 0 },
	{ "fnmadd.s", F3(0x4f, 0, 0), S2_0, S3_0, S1_0, 0, false,
	  BOX(0xc0e00000), 0 },
	{ "fmadd.s_inf_zero_qnan", F3(0x43, 0, 0), BOX(0x7f800000), BOX(0),
	  SQNAN, 0, false, SQNAN, NV },
	{ "fsgnj.s", F2(0x04, 0, 0), S1_0, SM2_0, 0, 0, false, SM1_0, 0 },
	{ "fsgnjn.s", F2(0x04, 0, 1), S1_0, SM2_0, 0, 0, false, S1_0, 0 },
	{ "fsgnjx.s", F2(0x04, 0, 2), SM1_0, SM2_0, 0, 0, false, S1_0, 0 },
	{ "fmin.s", F2(0x05, 0, 0), S1_0, S2_0, 0, 0, false, S1_0, 0 },
	{ "fmax.s_qnan", F2(0x05, 0, 1), SQNAN, S2_0, 0, 0, false, S2_0, 0 },
	{ "fmin.s_snan", F2(0x05, 0, 0), SSNAN, S1_0, 0, 0, false, S1_0, NV },
	{ "fmin.s_zeros", F2(0x05, 0, 0), BOX(0), BOX(0x80000000), 0, 0,
	  false, BOX(0x80000000), 0 },
	{ "feq.s", FX(0x14, 0, 2, 2), S1_0, S1_0, 0, 0, true, 1, 0 },
	{ "feq.s_qnan", FX(0x14, 0, 2, 2), SQNAN, S1_0, 0, 0, true, 0, 0 },
	{ "flt.s", FX(0x14, 0, 1, 2), S1_0, S2_0, 0, 0, true, 1, 0 },
	{ "flt.s_qnan", FX(0x14, 0, 1, 2), SQNAN, S1_0, 0, 0, true, 0, NV },
	{ "fle.s", FX(0x14, 0, 0, 2), S2_0, S1_0, 0, 0, true, 0, 0 },
	{ "fclass.s_neg_inf", FX(0x1c, 0, 1, 0), BOX(0xff800000), 0, 0, 0,
	  true, 0x001, 0 },
	{ "fclass.s_zero", FX(0x1c, 0, 1, 0), BOX(0), 0, 0, 0, true, 0x010,
	  0 },
	{ "fclass.s_snan", FX(0x1c, 0, 1, 0), SSNAN, 0, 0, 0, true, 0x100, 0 },
	{ "fclass.s_unboxed", FX(0x1c, 0, 1, 0), 0x3f800000, 0, 0, 0, true,
	  0x200, 0 },
	{ "fcvt.w.s_tie", FX(0x18, 0, 0, 0), BOX(0x40600000), 0, 0, 0, true,
	  4, NX },
	{ "fcvt.w.s_rtz", FX(0x18, 0, 1, 0), BOX(0xc0600000), 0, 0, 0, true,
	  -3ull, NX },
	{ "fcvt.w.s_nan", FX(0x18, 0, 0, 0), SQNAN, 0, 0, 0, true,
	  0x7fffffff, NV },
	{ "fcvt.wu.s_neg", FX(0x18, 0, 1, 1), SM1_0, 0, 0, 0, true, 0, NV },
	{ "fcvt.wu.s_sext", FX(0x18, 0, 1, 1), BOX(0x4f32d05e), 0, 0, 0,
	  true, 0xffffffffb2d05e00ull, 0 },
	{ "fcvt.l.s_neg_inf", FX(0x18, 0, 1, 2), BOX(0xff800000), 0, 0, 0,
	  true, 1ull << 63, NV },
	{ "fcvt.lu.s_big", FX(0x18, 0, 1, 3), BOX(0x5f800000), 0, 0, 0, true,
	  ~0ull, NV },
	{ "fcvt.s.w", XF(0x1a, 0, 0, 0), -1ull, 0, 0, 0, false, SM1_0, 0 },
	{ "fcvt.s.wu", XF(0x1a, 0, 0, 1), -1ull, 0, 0, 0, false,
	  BOX(0x4f800000), NX },
	{ "fcvt.s.l", XF(0x1a, 0, 0, 2), -2ull, 0, 0, 0, false, SM2_0, 0 },
	{ "fcvt.s.lu", XF(0x1a, 0, 1, 3), ~0ull, 0, 0, 0, false,
	  BOX(0x5f7fffff), NX },
	{ "fcvt.s.d", F1(0x08, 0, 0, 1), 0x3fd5555555555555ull, 0, 0, 0,
	  false, BOX(0x3eaaaaab), NX },
	{ "fcvt.d.s", F1(0x08, 1, 0, 0), S1_0, 0, 0, 0, false, D1_0, 0 },
	{ "fcvt.d.s_unboxed", F1(0x08, 1, 0, 0), 0x3f800000, 0, 0, 0, false,
	  0x7ff8000000000000ull, 0 },
	{ "fmv.x.w", FX(0x1c, 0, 0, 0), BOX(0x80000000), 0, 0, 0, true,
	  0xffffffff80000000ull, 0 },
	{ "fmv.x.w_unboxed", FX(0x1c, 0, 0, 0), 0x123456789abcdef0ull, 0, 0,
	  0, true, 0xffffffff9abcdef0ull, 0 },
	{ "fmv.w.x", XF(0x1e, 0, 0, 0), 0x1234567887654321ull, 0, 0, 0,
	  false, BOX(0x87654321), 0 },
	{ "fadd.d", F2(0x00, 1, 0), D1_0, D2_0, 0, 0, false, D3_0, 0 },
	{ "fsub.d", F2(0x01, 1, 0), D1_0, D2_0, 0, 0, false,
	  0xbff0000000000000ull, 0 },
	{ "fmul.d_overflow", F2(0x02, 1, 0), 0x7fefffffffffffffull, D2_0, 0,
	  0, false, 0x7ff0000000000000ull, OF | NX },
	{ "fmul.d_overflow_rtz", F2(0x02, 1, 1), 0x7fefffffffffffffull, D2_0,
	  0, 0, false, 0x7fefffffffffffffull, OF | NX },
	{ "fdiv.d_rup", F2(0x03, 1, 3), D1_0, D3_0, 0, 0, false,
	  0x3fd5555555555556ull, NX },
	{ "fdiv.d_dyn_rtz", F2(0x03, 1, 7), D1_0, D3_0, 0, 1, false,
	  0x3fd5555555555555ull, NX },
	{ "fmul.d_underflow", F2(0x02, 1, 0), 0x0010000000000001ull,
	  0x3fe0000000000000ull, 0, 0, false, 0x0008000000000000ull,
	  UF | NX },
	{ "fsqrt.d", F1(0x0b, 1, 0, 0), D4_0, 0, 0, 0, false, D2_0, 0 },
	{ "fmadd.d", F3(0x43, 1, 0), D2_0, D3_0, D1_0, 0, false,
	  0x401c000000000000ull, 0 },
	{ "fnmadd.d", F3(0x4f, 1, 0), D2_0, D3_0, D1_0, 0, false,
	  0xc01c000000000000ull, 0 },
	{ "fsgnjx.d", F2(0x04, 1, 2), 0xbff0000000000000ull,
	  0x8000000000000000ull, 0, 0, false, D1_0, 0 },
	{ "fmax.d", F2(0x05, 1, 1), D1_0, D2_0, 0, 0, false, D2_0, 0 },
	{ "fle.d", FX(0x14, 1, 0, 2), D1_0, D1_0, 0, 0, true, 1, 0 },
	{ "fclass.d_subnormal", FX(0x1c, 1, 1, 0), 1, 0, 0, 0, true, 0x020,
	  0 },
	{ "fcvt.w.d_big", FX(0x18, 1, 1, 0), 0x41e0000000000000ull, 0, 0, 0,
	  true, 0x7fffffff, NV },
	{ "fcvt.wu.d_max", FX(0x18, 1, 1, 1), 0x41efffffffe00000ull, 0, 0, 0,
	  true, ~0ull, 0 },
	{ "fcvt.l.d", FX(0x18, 1, 2, 2), 0xc004000000000000ull, 0, 0, 0, true,
	  -3ull, NX },
	{ "fcvt.lu.d_neg", FX(0x18, 1, 1, 3), 0xbfe0000000000000ull, 0, 0, 0,
	  true, 0, NX },
	{ "fcvt.d.wu", XF(0x1a, 1, 0, 1), ~0ull, 0, 0, 0, false,
	  0x41efffffffe00000ull, 0 },
	{ "fcvt.d.w", XF(0x1a, 1, 0, 0), 0x80000000ull, 0, 0, 0, false,
	  0xc1e0000000000000ull, 0 },
	{ "fcvt.d.l_inexact", XF(0x1a, 1, 1, 2), ~0ull >> 1, 0, 0, 0, false,
	  0x43dfffffffffffffull, NX },
	{ "fcvt.d.lu", XF(0x1a, 1, 0, 3), 1ull << 63, 0, 0, 0, false,
	  0x43e0000000000000ull, 0 },
	{ "fmv.x.d", FX(0x1c, 1, 0, 0), 0x8000000000000001ull, 0, 0, 0, true,
	  0x8000000000000001ull, 0 },
	{ "fmv.d.x", XF(0x1e, 1, 0, 0), 0x7ff0000000000001ull, 0, 0, 0,
	  false, 0x7ff0000000000001ull, 0 },
	/* NaN boxing: a single operand not boxed reads as the canonical NaN. */
	{ "fadd.s_unboxed", F2(0x00, 0, 0), 0x000000003f800000ull, S1_0, 0, 0,
	  false, SQNAN, 0 },
	{ "fmul.s_double", F2(0x02, 0, 0), D1_0, S1_0, 0, 0, false, SQNAN,
	  0 },
	{ "fsgnj.s_unboxed", F2(0x04, 0, 0), 0xfffffffe3f800000ull, SM1_0, 0,
	  0, false, BOX(0xffc00000), 0 },
	{ "feq.s_unboxed", FX(0x14, 0, 2, 2), 0x7fffffff3f800000ull, S1_0, 0,
	  0, true, 0, 0 },
	{ "fmin.s_unboxed", F2(0x05, 0, 0), 0x3f800000ull, S2_0, 0, 0, false,
	  S2_0, 0 },
	{ "fcvt.w.s_unboxed", FX(0x18, 0, 1, 0), 0x3f800000ull, 0, 0, 0,
	  true, 0x7fffffff, NV },
};

static void vaccel_test_rv_fp(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rv_fp_cases); i++) {
		const struct rv_fp_case *c = &rv_fp_cases[i];
		struct rv_env *e = rv_env_new(test);

		e->hart.f[1] = c->a;
		e->hart.x[T0] = c->a;
		e->hart.f[2] = c->b;
		e->hart.f[4] = c->c;
		e->hart.fcsr = c->frm << 5;
		e->hart.f[3] = 0x5555;
		e->hart.x[T2] = 0x5555;
		rv_exec1(e, c->insn);
		KUNIT_EXPECT_EQ_MSG(test, c->to_x ? e->hart.x[T2] : e->hart.f[3],
				    c->r, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, e->hart.fcsr, c->frm << 5 | c->flags,
				    "%s", c->name);
	}
}

/* FLW boxes, FSW and FSD store the bits as they are, flags accrue. */
static void vaccel_test_rv_fp_load_store(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u64 d = T_PAGE(T_DATA);
	u32 prog[] = {
		FLOAD(2, 1, A0, 0),		/* flw f1 */
		FLOAD(3, 2, A0, 8),		/* fld f2 */
		FSTORE(2, 5, A0, 16),		/* fsw of an unboxed f5 */
		FSTORE(3, 1, A0, 24),		/* fsd of the boxed f1 */
		FSTORE(2, 1, A0, 33),		/* misaligned fsw */
		F2(0x03, 0, 0),			/* fdiv.s f3 = f1 / f2: NaN */
		FP(0x03, 0, 0, 6, 1, 1),	/* f6 = f1 / f1 */
		FP(0x03, 1, 0, 7, 2, 8),	/* fdiv.d f7 = f2 / 0: DZ */
		RET,
	};

	rv_set64(e, d, 0x7777777740400000ull);
	rv_set64(e, d + 8, D1_0);
	e->hart.x[A0] = d;
	e->hart.f[5] = 0x0123456789abcdefull;
	e->hart.fcsr = VACCEL_FFLAG_UF;
	rv_code(e, prog, ARRAY_SIZE(prog));
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.f[1], BOX(0x40400000));
	KUNIT_EXPECT_EQ(test, e->hart.f[2], D1_0);
	KUNIT_EXPECT_EQ(test, rv_mem64(e, d + 16) & 0xffffffff, 0x89abcdef);
	KUNIT_EXPECT_EQ(test, rv_mem64(e, d + 24), BOX(0x40400000));
	KUNIT_EXPECT_EQ(test, rv_mem64(e, d + 33) & 0xffffffff, 0x40400000);
	KUNIT_EXPECT_EQ(test, e->hart.f[3], SQNAN);
	KUNIT_EXPECT_EQ(test, e->hart.f[6], S1_0);
	KUNIT_EXPECT_EQ(test, e->hart.f[7], 0x7ff0000000000000ull);
	KUNIT_EXPECT_EQ(test, e->hart.fcsr, VACCEL_FFLAG_UF | DZ);
}

/* Invalid rounding modes are illegal, whether in rm or through frm. */
static void vaccel_test_rv_fp_rm(struct kunit *test)
{
	static const u32 insns[] = {
		F2(0x00, 0, 5), F2(0x03, 1, 6), F3(0x43, 0, 5),
		F3(0x4f, 1, 6), F1(0x0b, 0, 5, 0), FX(0x18, 0, 6, 0),
		XF(0x1a, 1, 5, 2), F1(0x08, 0, 5, 1), F1(0x08, 1, 6, 0),
		XF(0x1a, 1, 5, 0),
	};
	unsigned int i, frm;

	for (i = 0; i < ARRAY_SIZE(insns); i++) {
		struct rv_env *e = rv_env_new(test);

		rv_code(e, &insns[i], 1);
		e->hart.f[1] = S1_0;
		e->hart.f[2] = S2_0;
		e->hart.fcsr = 0x1f;
		rv_expect_fault(e, VACCEL_RV_CAUSE_ILLEGAL_INSN, 0, 0);
	}
	/* DYN with frm 5, 6, 7 */
	for (frm = 5; frm < 8; frm++) {
		struct rv_env *e = rv_env_new(test);
		u32 insn = F2(0x00, 0, 7);

		rv_code(e, &insn, 1);
		e->hart.f[1] = S1_0;
		e->hart.fcsr = frm << 5;
		rv_expect_fault(e, VACCEL_RV_CAUSE_ILLEGAL_INSN, 0, 0);
		insn = FX(0x18, 1, 7, 3);	/* fcvt.lu.d */
		rv_code(e, &insn, 1);
		rv_expect_fault(e, VACCEL_RV_CAUSE_ILLEGAL_INSN, 0, 0);
		/* FSGNJ, FMIN, compares, FMV, FCLASS have no rm. */
		insn = F2(0x04, 1, 0);
		rv_exec1(e, insn);
	}
}

/* CSRs */

static void vaccel_test_rv_fcsr(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u32 prog[] = {
		CSR(1, S0, VACCEL_RV_CSR_FCSR, A0),	/* csrrw: 0x5a -> fcsr */
		CSR(2, S1, VACCEL_RV_CSR_FFLAGS, ZERO),	/* read fflags: 0x1a */
		CSR(2, A2, VACCEL_RV_CSR_FRM, ZERO),	/* read frm: 2 */
		CSR(6, A3, VACCEL_RV_CSR_FFLAGS, 5),	/* csrrsi: 0x1a -> 0x1f */
		CSR(7, A4, VACCEL_RV_CSR_FFLAGS, 3),	/* csrrci: -> 0x1c */
		CSR(5, A5, VACCEL_RV_CSR_FRM, 0x1f),	/* csrrwi frm 7 */
		CSR(3, T0, VACCEL_RV_CSR_FCSR, A1),	/* csrrc fcsr */
		CSR(1, ZERO, VACCEL_RV_CSR_FFLAGS, A0),	/* csrw fflags */
		CSR(2, T1, VACCEL_RV_CSR_FCSR, ZERO),
		RET,
	};

	e->hart.fcsr = 0x21;
	e->hart.x[A0] = 0xffffff5a;
	e->hart.x[A1] = 0x80;
	rv_code(e, prog, ARRAY_SIZE(prog));
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[S0], 0x21);
	KUNIT_EXPECT_EQ(test, e->hart.x[S1], 0x1a);
	KUNIT_EXPECT_EQ(test, e->hart.x[A2], 2);
	KUNIT_EXPECT_EQ(test, e->hart.x[A3], 0x1a);
	KUNIT_EXPECT_EQ(test, e->hart.x[A4], 0x1f);
	KUNIT_EXPECT_EQ(test, e->hart.x[A5], 2);
	KUNIT_EXPECT_EQ(test, e->hart.x[T0], 0xfc);
	KUNIT_EXPECT_EQ(test, e->hart.x[T1], 0x7a);
	KUNIT_EXPECT_EQ(test, e->hart.fcsr, 0x7a);
	KUNIT_EXPECT_EQ(test, e->csr_calls, 0);
}

static void vaccel_test_rv_counters(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u32 prog[] = {
		ADDI(T0, ZERO, 1),
		CSR(2, S0, VACCEL_RV_CSR_CYCLE, ZERO),
		CSR(2, S1, VACCEL_RV_CSR_INSTRET, ZERO),
		CSR(2, A2, VACCEL_RV_CSR_TIME, ZERO),
		CSR(2, A3, 0xcc1, ZERO),
		CSR(6, A4, 0xcc3, ZERO),		/* csrrsi, uimm 0: a read */
		RET,
	};

	e->hart.instret = 1000;
	rv_code(e, prog, ARRAY_SIZE(prog));
	/* Two slices: the counter goes on. */
	KUNIT_ASSERT_EQ(test, rv_run(e, 2), VACCEL_RV_BUDGET);
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[S0], 1001);
	KUNIT_EXPECT_EQ(test, e->hart.x[S1], 1002);
	KUNIT_EXPECT_EQ(test, e->hart.x[A2], 123456789);
	KUNIT_EXPECT_EQ(test, e->hart.x[A3], 0x1cc1);
	KUNIT_EXPECT_EQ(test, e->hart.x[A4], 0x1cc3);
	KUNIT_EXPECT_EQ(test, e->hart.instret, 1007);
	KUNIT_EXPECT_EQ(test, e->executed, 7);
	KUNIT_EXPECT_EQ(test, e->csr_calls, 3);
	KUNIT_EXPECT_PTR_EQ(test, e->csr_hart, &e->hart);
	KUNIT_EXPECT_EQ(test, e->csr_pc, T_PAGE(T_CODE) + 20);
}

/* Unknown CSRs, and writes to read-only ones, fault. */
static void vaccel_test_rv_csr_faults(struct kunit *test)
{
	static const u32 insns[] = {
		CSR(2, A0, 0x004, ZERO),		/* unknown */
		CSR(2, A0, 0x300, ZERO),		/* mstatus */
		CSR(2, A0, 0xc03, ZERO),		/* hpmcounter3 */
		CSR(2, A0, 0xc80, ZERO),		/* cycleh: not RV64 */
		CSR(2, A0, 0xcc4, ZERO),		/* custom the env refuses */
		CSR(2, A0, 0xd00, ZERO),
		CSR(1, ZERO, VACCEL_RV_CSR_CYCLE, A1),	/* csrw to read-only */
		CSR(1, A0, VACCEL_RV_CSR_INSTRET, ZERO), /* csrrw, even of x0 */
		CSR(2, A0, VACCEL_RV_CSR_TIME, A1),	/* csrrs, rs1 != x0 */
		CSR(3, A0, 0xcc0, A1),			/* csrrc, rs1 != x0 */
		CSR(5, ZERO, 0xcc0, 0),			/* csrrwi */
		CSR(6, A0, VACCEL_RV_CSR_CYCLE, 1),	/* csrrsi nonzero */
		CSR(7, A0, 0xcc2, 4),			/* csrrci nonzero */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(insns); i++) {
		struct rv_env *e = rv_env_new(test);

		e->hart.x[A0] = 0x99;
		e->hart.x[A1] = 1;
		e->hart.fcsr = 0x45;
		rv_code(e, &insns[i], 1);
		rv_expect_fault(e, VACCEL_RV_CAUSE_CSR, 0, 0);
	}
}

/* Illegal and compressed encodings */

static void vaccel_test_rv_illegal(struct kunit *test)
{
	const u32 insns[] = {
		0xffffffff,			/* 48-bit+ form */
		0x0000007f,
		OPI(1, T0, T0, 64 << 0 | 0x400),	/* slli funct6 0x10 */
		OPI(5, T0, T0, 0x200),		/* srli funct6 8 */
		OPIW(1, T0, T0, 32),		/* slliw shamt[5] */
		OPIW(5, T0, T0, 0x420),		/* sraiw shamt[5] */
		OPIW(2, T0, T0, 0),		/* OP-IMM-32 funct3 2 */
		OP(0x40, 0, T0, T0, T1),
		OP(0x20, 1, T0, T0, T1),
		OP(0x01 | 0x20, 0, T0, T0, T1),
		OPW(0, 2, T0, T0, T1),
		OPW(1, 1, T0, T0, T1),		/* no mulhw */
		OPW(0x20, 1, T0, T0, T1),
		OP(0x40, 0, ZERO, T0, T1),	/* illegal even into x0 */
		JALR(RA, T0, 0) | 1 << 12,
		BR(2, T0, T1, 8),
		BR(3, T0, T1, 8),
		LOAD(7, T0, A0, 0),
		STORE(4, T0, A0, 0),
		AMO(0x01, 0, 1, T0, A0, T1),	/* funct3 1 */
		AMO(0x01, 0, 4, T0, A0, T1),
		AMO(0x02, 0, 2, T0, A0, T1),	/* lr with rs2 */
		AMO(0x05, 0, 3, T0, A0, T1),	/* funct5 5 */
		AMO(0x1f, 0, 3, T0, A0, T1),
		0x0000200f,			/* MISC-MEM funct3 2 */
		0x30200073,			/* mret */
		0x10500073,			/* wfi */
		0x00200073,			/* uret-like */
		CSR(4, A0, VACCEL_RV_CSR_FCSR, ZERO),	/* SYSTEM funct3 4 */
		0x0000100b,			/* custom-0, not the barrier */
		0x0000008b,
		0x8000000b,
		0x0000002b,			/* custom-1 */
		0x0000005b,			/* custom-2 */
		0x0000007b,			/* custom-3 */
		FP(0x00, 2, 0, 3, 1, 2),	/* fmt H */
		FP(0x00, 3, 0, 3, 1, 2),	/* fmt Q */
		FMA(0x43, 2, 0, 3, 1, 2, 4),
		FP(0x0b, 0, 0, 3, 1, 1),	/* fsqrt rs2 1 */
		FP(0x04, 0, 3, 3, 1, 2),	/* fsgnj funct3 3 */
		FP(0x05, 1, 2, 3, 1, 2),	/* fmin funct3 2 */
		FP(0x14, 0, 3, T0, 1, 2),	/* fcmp funct3 3 */
		FP(0x08, 0, 0, 3, 1, 0),	/* fcvt.s.d needs rs2 1 */
		FP(0x08, 1, 0, 3, 1, 1),	/* fcvt.d.s needs rs2 0 */
		FP(0x18, 0, 0, T0, 1, 4),	/* fcvt.?.s */
		FP(0x1a, 1, 0, 3, T0, 5),
		FP(0x1c, 0, 0, T0, 1, 1),	/* fmv.x.w rs2 1 */
		FP(0x1c, 0, 2, T0, 1, 0),	/* fmv/fclass funct3 2 */
		FP(0x1e, 0, 1, 3, T0, 0),	/* fmv.w.x funct3 1 */
		FP(0x06, 0, 0, 3, 1, 2),
		FP(0x1f, 1, 0, 3, 1, 2),
		FLOAD(1, 3, A0, 0),		/* flh */
		FLOAD(4, 3, A0, 0),		/* flq */
		FSTORE(0, 3, A0, 0),
		FSTORE(6, 3, A0, 0),
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(insns); i++) {
		struct rv_env *e = rv_env_new(test);

		e->hart.x[A0] = T_PAGE(T_DATA);
		e->hart.x[T0] = 0x1234;
		e->hart.x[T1] = 3;
		e->hart.f[1] = S1_0;
		rv_code(e, &insns[i], 1);
		rv_expect_fault(e, VACCEL_RV_CAUSE_ILLEGAL_INSN, 0, 0);
		KUNIT_EXPECT_EQ_MSG(test, e->fault.insn, insns[i], "word %u",
				    i);
	}
}

static void vaccel_test_rv_compressed(struct kunit *test)
{
	static const u32 insns[] = {
		0x00000000, 0x00000001, 0x00004501, 0x8082a001, 0x00000002,
		0xfffffffe,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(insns); i++) {
		struct rv_env *e = rv_env_new(test);

		rv_code(e, &insns[i], 1);
		rv_expect_fault(e, VACCEL_RV_CAUSE_COMPRESSED, 0, 0);
	}
}

static void vaccel_test_rv_ecall_ebreak(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u32 prog[] = { ADDI(A0, ZERO, 1), ECALL, EBREAK, RET };

	rv_code(e, prog, ARRAY_SIZE(prog));
	KUNIT_ASSERT_EQ(test, rv_run(e, 100), VACCEL_RV_FAULT);
	KUNIT_EXPECT_EQ(test, e->fault.cause, VACCEL_RV_CAUSE_ECALL);
	KUNIT_EXPECT_EQ(test, e->fault.pc, T_PAGE(T_CODE) + 4);
	KUNIT_EXPECT_EQ(test, e->fault.insn, ECALL);
	KUNIT_EXPECT_EQ(test, e->hart.pc, T_PAGE(T_CODE) + 4);
	KUNIT_EXPECT_EQ(test, e->executed, 1);
	/* The environment steps over it. */
	e->hart.pc += 4;
	rv_expect_fault(e, VACCEL_RV_CAUSE_BREAKPOINT, 0, 0);
	e->hart.pc += 4;
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->executed, 2);
	KUNIT_EXPECT_EQ(test, e->hart.instret, 2);
}

/* Alignment */

static void vaccel_test_rv_misaligned_fetch(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u32 insn;

	/* A JAL, a taken branch, a JALR to pc + 2: the jump faults. */
	insn = JAL(RA, 6);
	rv_code(e, &insn, 1);
	rv_expect_fault(e, VACCEL_RV_CAUSE_MISALIGNED_FETCH,
			T_PAGE(T_CODE) + 6, 0);
	insn = BR(0, ZERO, ZERO, -2);
	rv_code(e, &insn, 1);
	rv_expect_fault(e, VACCEL_RV_CAUSE_MISALIGNED_FETCH,
			T_PAGE(T_CODE) - 2, 0);
	insn = JALR(RA, T0, 3);			/* bit 0 cleared: +2 */
	e->hart.x[T0] = T_PAGE(T_CODE) + 0x100 - 1;
	rv_code(e, &insn, 1);
	rv_expect_fault(e, VACCEL_RV_CAUSE_MISALIGNED_FETCH,
			T_PAGE(T_CODE) + 0x102, 0);

	/* A branch not taken to a misaligned target does not fault. */
	e = rv_env_new(test);
	{
		u32 prog[] = { BR(1, ZERO, ZERO, 6), RET };

		rv_code(e, prog, ARRAY_SIZE(prog));
		rv_run_exit(e);
	}

	/* Nor does a JALR whose bit 0 only is set. */
	e = rv_env_new(test);
	{
		u32 prog[] = { JALR(ZERO, T0, 1), ADDI(A0, ZERO, 1), RET };

		e->hart.x[T0] = T_PAGE(T_CODE) + 8;
		rv_code(e, prog, ARRAY_SIZE(prog));
		rv_run_exit(e);
		KUNIT_EXPECT_EQ(test, e->hart.x[A0], 0);
	}

	/* A pc not a multiple of 4 on entry. */
	e = rv_env_new(test);
	e->hart.pc = T_PAGE(T_CODE) + 2;
	rv_expect_fault(e, VACCEL_RV_CAUSE_MISALIGNED_FETCH,
			T_PAGE(T_CODE) + 2, 0);
	KUNIT_EXPECT_EQ(test, e->fault.insn, 0);
}

static void vaccel_test_rv_misaligned_atomic(struct kunit *test)
{
	static const u32 insns[] = {
		AMO(0x00, 0, 2, A2, A0, A1),	/* amoadd.w */
		AMO(0x01, 3, 3, A2, A0, A1),	/* amoswap.d.aqrl */
		AMO(0x02, 0, 2, A2, A0, ZERO),	/* lr.w */
		AMO(0x03, 0, 3, A2, A0, A1),	/* sc.d */
	};
	static const u64 offs[] = { 1, 2, 4, 6 };
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(insns); i++) {
		for (j = 0; j < ARRAY_SIZE(offs); j++) {
			struct rv_env *e = rv_env_new(test);
			u64 va = T_PAGE(T_DATA) + offs[j];
			bool word = (insns[i] >> 12 & 7) == 2;

			if (word && offs[j] == 4)
				continue;
			e->hart.x[A0] = va;
			e->hart.x[A1] = 5;
			rv_code(e, &insns[i], 1);
			rv_expect_fault(e, VACCEL_RV_CAUSE_MISALIGNED_ATOMIC,
					va, 0);
			KUNIT_EXPECT_EQ(test, rv_mem64(e, T_PAGE(T_DATA)), 0);
		}
	}
}

/* Access faults: precise, nothing written */

static void vaccel_test_rv_access_faults(struct kunit *test)
{
	struct rv_env *e;
	u32 insn;

	/* Loads from a hole, and across into it. */
	e = rv_env_new(test);
	insn = LOAD(3, A2, A0, 8);
	e->hart.x[A0] = T_PAGE(T_HOLE) - 8;
	rv_code(e, &insn, 1);
	rv_expect_fault(e, VACCEL_RV_CAUSE_LOAD, T_PAGE(T_HOLE), T_UNMAPPED);
	e->hart.x[A0] = T_PAGE(T_HOLE) - 12;	/* crosses */
	rv_expect_fault(e, VACCEL_RV_CAUSE_LOAD, T_PAGE(T_HOLE), T_UNMAPPED);
	insn = FLOAD(3, 5, A0, 8);
	rv_code(e, &insn, 1);
	rv_expect_fault(e, VACCEL_RV_CAUSE_LOAD, T_PAGE(T_HOLE), T_UNMAPPED);
	e->hart.x[A0] = 0x100000;		/* beyond the space */
	insn = LOAD(0, A2, A0, 0);
	rv_code(e, &insn, 1);
	rv_expect_fault(e, VACCEL_RV_CAUSE_LOAD, 0x100000, T_UNMAPPED);

	/* Stores to read-only memory, also across, write nothing. */
	e = rv_env_new(test);
	e->hart.x[A0] = T_PAGE(T_RO) - 3;
	e->hart.x[A1] = ~0ull;
	insn = STORE(3, A1, A0, 0);
	rv_code(e, &insn, 1);
	rv_expect_fault(e, VACCEL_RV_CAUSE_STORE, T_PAGE(T_RO), T_DENIED);
	KUNIT_EXPECT_EQ(test, rv_mem64(e, T_PAGE(T_RO) - 8), 0);
	insn = FSTORE(2, 1, A0, 3);
	rv_code(e, &insn, 1);
	rv_expect_fault(e, VACCEL_RV_CAUSE_STORE, T_PAGE(T_RO), T_DENIED);
	/* Across, the first page refused. */
	e->hart.x[A0] = T_PAGE(T_NX) - 2;
	insn = STORE(2, A1, A0, 0);
	rv_code(e, &insn, 1);
	rv_expect_fault(e, VACCEL_RV_CAUSE_STORE, T_PAGE(T_NX) - 2, T_DENIED);
	KUNIT_EXPECT_EQ(test, rv_mem64(e, T_PAGE(T_NX)), 0);

	/* AMOs need write access, LR read access, SC write access. */
	e = rv_env_new(test);
	e->hart.x[A0] = T_PAGE(T_RO) + 8;
	insn = AMO(0x00, 0, 3, A2, A0, A1);
	rv_code(e, &insn, 1);
	rv_expect_fault(e, VACCEL_RV_CAUSE_STORE, T_PAGE(T_RO) + 8, T_DENIED);
	insn = AMO(0x03, 0, 2, A2, A0, A1);
	rv_code(e, &insn, 1);
	rv_expect_fault(e, VACCEL_RV_CAUSE_STORE, T_PAGE(T_RO) + 8, T_DENIED);
	insn = AMO(0x02, 0, 3, A2, A0, ZERO);
	rv_exec1(e, insn);
	e->hart.x[A0] = T_PAGE(T_HOLE) + 16;
	rv_code(e, &insn, 1);
	rv_expect_fault(e, VACCEL_RV_CAUSE_LOAD, T_PAGE(T_HOLE) + 16,
			T_UNMAPPED);
	/* Memory that can be written but not read. */
	e->perm[T_NX] = VACCEL_RV_WRITE;
	e->hart.x[A0] = T_PAGE(T_NX);
	e->hart.x[A1] = ~0ull;
	insn = AMO(0x01, 0, 2, A2, A0, A1);
	rv_code(e, &insn, 1);
	rv_expect_fault(e, VACCEL_RV_CAUSE_STORE, T_PAGE(T_NX), T_DENIED);
	insn = STORE(2, A1, A0, 0);
	rv_exec1(e, insn);
	KUNIT_EXPECT_EQ(test, rv_mem64(e, T_PAGE(T_NX)), 0xffffffff);
}

static void vaccel_test_rv_fetch_faults(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u32 prog[] = { ADDI(A0, ZERO, 1), JALR(RA, T0, 0) };
	enum vaccel_rv_stop stop;

	/* A jump to a no-execute page: the fault is at the target. */
	e->hart.x[T0] = T_PAGE(T_NX) + 16;
	rv_code(e, prog, ARRAY_SIZE(prog));
	stop = rv_run(e, 100);
	KUNIT_ASSERT_EQ(test, stop, VACCEL_RV_FAULT);
	KUNIT_EXPECT_EQ(test, e->fault.cause, VACCEL_RV_CAUSE_FETCH);
	KUNIT_EXPECT_EQ(test, e->fault.pc, T_PAGE(T_NX) + 16);
	KUNIT_EXPECT_EQ(test, e->fault.va, T_PAGE(T_NX) + 16);
	KUNIT_EXPECT_EQ(test, e->fault.reason, T_DENIED);
	KUNIT_EXPECT_EQ(test, e->fault.insn, 0);
	KUNIT_EXPECT_EQ(test, e->hart.pc, T_PAGE(T_NX) + 16);
	KUNIT_EXPECT_EQ(test, e->hart.x[RA], T_PAGE(T_CODE) + 8);
	KUNIT_EXPECT_EQ(test, e->executed, 2);

	/* Into a hole, and falling off the end of code into data. */
	e = rv_env_new(test);
	e->hart.pc = T_PAGE(T_HOLE);
	rv_expect_fault(e, VACCEL_RV_CAUSE_FETCH, T_PAGE(T_HOLE), T_UNMAPPED);
	e->hart.pc = T_PAGE(T_DATA) - 4;
	*(u32 *)rv_host(e, e->hart.pc) = ADDI(A0, A0, 1);
	KUNIT_ASSERT_EQ(test, rv_run(e, 100), VACCEL_RV_FAULT);
	KUNIT_EXPECT_EQ(test, e->fault.cause, VACCEL_RV_CAUSE_FETCH);
	KUNIT_EXPECT_EQ(test, e->fault.va, T_PAGE(T_DATA));
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 1);
}

/* Barrier, exit, budget */

static void vaccel_test_rv_barrier(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u32 prog[] = { ADDI(A0, ZERO, 1), BARRIER, ADDI(A0, A0, 2), RET };

	rv_code(e, prog, ARRAY_SIZE(prog));
	KUNIT_ASSERT_EQ(test, rv_run(e, 100), VACCEL_RV_BARRIER);
	KUNIT_EXPECT_EQ(test, e->hart.pc, T_PAGE(T_CODE) + 8);
	KUNIT_EXPECT_EQ(test, e->executed, 2);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 1);
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 3);
	KUNIT_EXPECT_EQ(test, e->executed, 4);
	KUNIT_EXPECT_EQ(test, e->hart.instret, 4);
}

static void vaccel_test_rv_exit(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u32 prog[] = { ADDI(A0, ZERO, 5), ADDI(A1, ZERO, 6) };
	u64 mid = T_PAGE(T_DATA3) + 8;

	/* Exit through ret, to an unmapped exit address. */
	rv_exec1(e, ADDI(A0, ZERO, 5));
	KUNIT_EXPECT_EQ(test, e->hart.pc, T_EXIT);
	KUNIT_EXPECT_EQ(test, e->executed, 2);
	/* Once there, it stays there, even without budget. */
	KUNIT_EXPECT_EQ(test, rv_run(e, 0), VACCEL_RV_EXIT);
	KUNIT_EXPECT_EQ(test, rv_run(e, 10), VACCEL_RV_EXIT);
	KUNIT_EXPECT_EQ(test, e->executed, 2);

	/* An exit address in executable memory, reached by falling in. */
	e = rv_env_new(test);
	vaccel_rv_cpu_init(e->cpu, &rv_env_ops, e, mid);
	rv_code_at(e, mid - 8, prog, ARRAY_SIZE(prog));
	*(u32 *)rv_host(e, mid) = ADDI(A2, ZERO, 7);
	e->hart.pc = mid - 8;
	KUNIT_ASSERT_EQ(test, rv_run(e, 100), VACCEL_RV_EXIT);
	KUNIT_EXPECT_EQ(test, e->hart.pc, mid);
	KUNIT_EXPECT_EQ(test, e->hart.x[A1], 6);
	KUNIT_EXPECT_EQ(test, e->hart.x[A2], 0);
	/* and by a jump back to it. */
	e->hart.pc = mid + 4;
	*(u32 *)rv_host(e, mid + 4) = JAL(ZERO, -4);
	KUNIT_ASSERT_EQ(test, rv_run(e, 100), VACCEL_RV_EXIT);
	KUNIT_EXPECT_EQ(test, e->hart.pc, mid);
	KUNIT_EXPECT_EQ(test, e->hart.x[A2], 0);
	KUNIT_EXPECT_EQ(test, e->executed, 3);
}

/*
 * A program with loops, calls, memory, atomics and floating point: run
 * whole, and in slices of several budgets, it ends in the same state.
 */
static void rv_budget_setup(struct rv_env *e)
{
	const u32 prog[] = {
		ADDI(S0, ZERO, 40),			/* i = 40 */
		ADDI(A2, ZERO, 0),
		FP(0x1a, 1, 0, 1, S0, 2),		/* f1 = (double)i */
		/* loop: */
		FP(0x1a, 1, 7, 2, S0, 0),		/* f2 = (double)i */
		FP(0x03, 1, 7, 3, 1, 2),		/* f3 = f1 / f2 */
		FMA(0x43, 1, 7, 1, 3, 2, 1),		/* f1 = f3 * f2 + f1 */
		FP(0x00, 0, 7, 4, 4, 5),		/* fadd.s f4 = f4 + f5 */
		OP(1, 0, T0, S0, S0),			/* t0 = i * i */
		STORE(3, T0, A0, 0),
		LOAD(2, T1, A0, 2),
		OP(0, 0, A2, A2, T1),
		AMO(0x00, 0, 3, T2, A1, S0),		/* amoadd.d */
		ADDI(A0, A0, 8),
		ADDI(S0, S0, -1),
		BR(1, S0, ZERO, -44),			/* bne loop */
		CSR(2, A3, VACCEL_RV_CSR_INSTRET, ZERO),
		CSR(2, A4, VACCEL_RV_CSR_FFLAGS, ZERO),
		RET,
	};

	rv_code(e, prog, ARRAY_SIZE(prog));
	e->hart.x[A0] = T_PAGE(T_DATA) + 5;
	e->hart.x[A1] = T_PAGE(T_DATA2) + 64;
	e->hart.f[4] = S1_0;
	e->hart.f[5] = BOX(0x33d6bf95);		/* 1e-7 */
	e->hart.fcsr = 1 << 5;
}

static void vaccel_test_rv_budget(struct kunit *test)
{
	static const u64 budgets[] = { 1, 2, 3, 7, 13, 100, 1000 };
	struct rv_env *ref = rv_env_new(test);
	unsigned int i;

	rv_budget_setup(ref);
	rv_run_exit(ref);
	KUNIT_EXPECT_EQ(test, ref->executed, 3 + 40 * 12 + 3);
	KUNIT_EXPECT_EQ(test, ref->hart.x[A3], 3 + 40 * 12);

	for (i = 0; i < ARRAY_SIZE(budgets); i++) {
		struct rv_env *e = rv_env_new(test);
		enum vaccel_rv_stop stop;
		unsigned int calls = 0;

		rv_budget_setup(e);
		do {
			u64 before = e->executed;

			stop = rv_run(e, budgets[i]);
			KUNIT_ASSERT_LE(test, e->executed - before, budgets[i]);
			if (stop == VACCEL_RV_BUDGET)
				KUNIT_ASSERT_EQ(test, e->executed - before,
						budgets[i]);
			calls++;
		} while (stop == VACCEL_RV_BUDGET);
		KUNIT_EXPECT_EQ_MSG(test, stop, VACCEL_RV_EXIT, "budget %llu",
				    budgets[i]);
		KUNIT_EXPECT_EQ(test, e->executed, ref->executed);
		/* The exit is noticed before the budget. */
		KUNIT_EXPECT_EQ(test, calls,
				DIV_ROUND_UP(ref->executed, budgets[i]));
		KUNIT_EXPECT_EQ_MSG(test, memcmp(&e->hart, &ref->hart,
						 sizeof(e->hart)), 0,
				    "budget %llu", budgets[i]);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(e->mem, ref->mem,
						 T_PAGES * 4096), 0,
				    "budget %llu", budgets[i]);
	}
}

/* The micro-TLB: a loop over one page translates each page once. */
static void vaccel_test_rv_tlb(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u32 prog[] = {
		ADDI(S0, ZERO, 512),
		LOAD(3, T0, A0, 0),		/* loop */
		STORE(3, T0, A1, 0),
		ADDI(A0, A0, 8),
		ADDI(A1, A1, 8),
		ADDI(S0, S0, -1),
		BR(1, S0, ZERO, -20),
		RET,
	};

	e->hart.x[A0] = T_PAGE(T_DATA);
	e->hart.x[A1] = T_PAGE(T_DATA2);
	rv_set64(e, T_PAGE(T_DATA) + 4088, 42);
	rv_code(e, prog, ARRAY_SIZE(prog));
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, rv_mem64(e, T_PAGE(T_DATA2) + 4088), 42);
	/* code, data read, data2 write */
	KUNIT_EXPECT_EQ(test, e->translations, 3);
	/* Each call starts afresh. */
	rv_code(e, prog, ARRAY_SIZE(prog));
	e->hart.x[A0] = T_PAGE(T_DATA);
	e->hart.x[A1] = T_PAGE(T_DATA2);
	e->hart.x[RA] = T_EXIT;
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->translations, 6);
}

/*
 * Loads and stores count their bytes in the class of memory of their page,
 * split where an access crosses two; LR, SC and the AMOs count, fetches
 * do not.
 */
static void vaccel_test_rv_mem_counters(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u64 (*bytes)[2] = e->cpu->bytes;
	u32 prog[] = {
		ADDI(S0, ZERO, 512),
		LOAD(3, T0, A0, 0),		/* loop: 512 8-byte loads */
		STORE(2, T0, A1, 0),		/* and 4-byte stores */
		ADDI(A0, A0, 8),
		ADDI(A1, A1, 4),
		ADDI(S0, S0, -1),
		BR(1, S0, ZERO, -20),
		LOAD(3, T0, A2, -4),		/* 4 bytes in DATA2, 4 in RO */
		AMO(0x00, 0, 3, T1, A3, T0),	/* AMOADD.D: reads and writes 8 */
		RET,
	};

	e->mem_class[T_DATA] = 1;
	e->mem_class[T_DATA2] = 2;
	e->mem_class[T_RO] = 3;
	e->mem_class[T_DATA3] = 3;
	e->hart.x[A0] = T_PAGE(T_DATA);
	e->hart.x[A1] = T_PAGE(T_DATA2);
	e->hart.x[A2] = T_PAGE(T_RO);
	e->hart.x[A3] = T_PAGE(T_DATA3);
	rv_code(e, prog, ARRAY_SIZE(prog));
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, bytes[0][0], 0);
	KUNIT_EXPECT_EQ(test, bytes[0][1], 0);
	KUNIT_EXPECT_EQ(test, bytes[1][0], 4096);
	KUNIT_EXPECT_EQ(test, bytes[1][1], 0);
	KUNIT_EXPECT_EQ(test, bytes[2][0], 4);
	KUNIT_EXPECT_EQ(test, bytes[2][1], 2048);
	KUNIT_EXPECT_EQ(test, bytes[3][0], 4 + 8);
	KUNIT_EXPECT_EQ(test, bytes[3][1], 8);
}

/*
 * Translations never outlive a call, also when the generations of the
 * micro-TLB wrap: a page read in one call and unmapped since faults in a
 * later call that has the same generation.
 */
static void vaccel_test_rv_tlb_generations(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u32 plain[] = { LOAD(3, T0, A0, 0), STORE(3, T0, A0, 8), RET };
	u32 other = LOAD(3, T1, A1, 0);
	unsigned int i, runs = 0;

	e->hart.x[A0] = T_PAGE(T_DATA);
	e->hart.x[A1] = T_PAGE(T_DATA3);
	rv_code(e, plain, ARRAY_SIZE(plain));
	/* Until the next call wraps to the first generation. */
	while (e->cpu->gen != 4095) {
		e->hart.pc = T_PAGE(T_CODE);
		e->hart.x[RA] = T_EXIT;
		rv_run_exit(e);
		runs++;
	}
	KUNIT_EXPECT_EQ(test, e->translations, 3 * runs);
	rv_exec1(e, other);
	KUNIT_EXPECT_EQ(test, e->cpu->gen, 1);
	e->perm[T_DATA3] = 0;
	for (i = 0; i < 4094; i++) {
		rv_code(e, plain, ARRAY_SIZE(plain));
		e->hart.x[RA] = T_EXIT;
		rv_run_exit(e);
	}
	rv_code(e, &other, 1);
	rv_expect_fault(e, VACCEL_RV_CAUSE_LOAD, T_PAGE(T_DATA3), T_UNMAPPED);
	KUNIT_EXPECT_EQ(test, e->cpu->gen, 1);
}

/*
 * The decode cache serves any pc with the same word and notices a changed
 * word: code rewritten between calls, or by the program itself (FENCE.I).
 */
static void vaccel_test_rv_code_changes(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u64 code3 = T_PAGE(T_DATA3);
	u32 prog[] = {
		ADDI(A0, ZERO, 1),
		ADDI(A3, ZERO, 2),
		ADDI(A0, A0, 100),	/* loop: then addi a0, a0, 2 */
		STORE(2, A1, A2, 0),	/* rewrites it */
		FENCE_I,
		ADDI(A3, A3, -1),
		BR(1, A3, ZERO, -16),
		FENCE,
		RET,
	};
	u32 other[] = {
		ADDI(A0, ZERO, 1), FENCE, ADDI(A0, A0, 40), RET,
	};

	rv_code_at(e, code3, prog, ARRAY_SIZE(prog));
	e->hart.pc = code3;
	e->hart.x[A1] = ADDI(A0, A0, 2);
	e->hart.x[A2] = code3 + 8;
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 103);

	/* The same entries of the cache, another page, other words. */
	rv_code(e, other, ARRAY_SIZE(other));
	e->hart.x[RA] = T_EXIT;
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 41);

	/* Rewritten between two calls. */
	*(u32 *)rv_host(e, T_PAGE(T_CODE) + 8) = ADDI(A0, A0, 50);
	e->hart.pc = T_PAGE(T_CODE);
	e->hart.x[RA] = T_EXIT;
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 51);
}

/*
 * An ADDI and the branch after it run as a pair from one entry of the
 * decode cache: a rewritten second word is seen, and a budget that ends
 * between the two splits them.
 */
static void vaccel_test_rv_pairs(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u32 prog[] = {
		ADDI(A0, ZERO, 0),
		ADDI(A3, ZERO, 3),
		ADDI(A0, A0, 1),	/* loop: */
		BR(1, A3, A0, -4),	/* bne a3, a0, loop */
		RET,
	};
	u32 word = ADDI(A0, A0, 10);

	rv_code(e, prog, ARRAY_SIZE(prog));
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 3);
	KUNIT_EXPECT_EQ(test, e->executed, 2 + 3 * 2 + 1);

	/* The branch becomes an ADDI: the same first word, another pair. */
	rv_code_at(e, T_PAGE(T_CODE) + 12, &word, 1);
	e->hart.pc = T_PAGE(T_CODE);
	e->hart.x[RA] = T_EXIT;
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 11);

	/* And back, run 3 instructions at a time: the ADDI alone at times. */
	rv_code(e, prog, ARRAY_SIZE(prog));
	e->hart.x[RA] = T_EXIT;
	e->executed = 0;
	while (rv_run(e, 3) == VACCEL_RV_BUDGET)
		KUNIT_ASSERT_LE(test, e->executed, 9);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 3);
	KUNIT_EXPECT_EQ(test, e->hart.pc, T_EXIT);
	KUNIT_EXPECT_EQ(test, e->executed, 9);
}

/*
 * Two ADDIs and a branch run as a triple: rewritten second or third words
 * are seen, and budgets that end inside it split it.
 */
static void vaccel_test_rv_triples(struct kunit *test)
{
	static const u64 budgets[] = { 1, 2, 3, 4, 5 };
	struct rv_env *e = rv_env_new(test);
	u32 prog[] = {
		ADDI(A0, ZERO, 0),
		ADDI(A3, ZERO, 0),
		ADDI(A0, A0, 1),	/* loop: */
		ADDI(A3, A3, 2),
		BR(1, A0, A4, -8),	/* bne a0, a4, loop */
		RET,
	};
	u32 word;
	unsigned int i;

	rv_code(e, prog, ARRAY_SIZE(prog));
	e->hart.x[A4] = 5;
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 5);
	KUNIT_EXPECT_EQ(test, e->hart.x[A3], 10);
	KUNIT_EXPECT_EQ(test, e->executed, 2 + 5 * 3 + 1);

	/* The second word rewritten. */
	word = ADDI(A3, A3, 7);
	rv_code_at(e, T_PAGE(T_CODE) + 12, &word, 1);
	e->hart.pc = T_PAGE(T_CODE);
	e->hart.x[RA] = T_EXIT;
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[A3], 35);

	/* The third word rewritten: no branch any more. */
	word = ADDI(A5, A5, 1);
	rv_code_at(e, T_PAGE(T_CODE) + 16, &word, 1);
	e->hart.pc = T_PAGE(T_CODE);
	e->hart.x[RA] = T_EXIT;
	e->hart.x[A5] = 0;
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 1);
	KUNIT_EXPECT_EQ(test, e->hart.x[A3], 7);
	KUNIT_EXPECT_EQ(test, e->hart.x[A5], 1);

	for (i = 0; i < ARRAY_SIZE(budgets); i++) {
		e = rv_env_new(test);
		rv_code(e, prog, ARRAY_SIZE(prog));
		e->hart.x[A4] = 5;
		while (rv_run(e, budgets[i]) == VACCEL_RV_BUDGET)
			KUNIT_ASSERT_LE(test, e->executed, 18);
		KUNIT_EXPECT_EQ(test, e->hart.pc, T_EXIT);
		KUNIT_EXPECT_EQ(test, e->hart.x[A0], 5);
		KUNIT_EXPECT_EQ_MSG(test, e->hart.x[A3], 10, "budget %llu",
				    budgets[i]);
		KUNIT_EXPECT_EQ(test, e->executed, 18);
		KUNIT_EXPECT_EQ(test, e->hart.instret, 18);
	}
}

/* A multiply and an add of its product run as a pair, either operand. */
static void vaccel_test_rv_pair_mac(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u32 prog[] = {
		OPW(1, 0, A2, A0, A1),		/* mulw a2, a0, a1 */
		OPW(0, 0, A3, A3, A2),		/* addw a3, a3, a2 */
		OP(1, 0, A4, A0, A1),		/* mul a4, a0, a1 */
		OP(0, 0, A5, A4, A4),		/* add a5, a4, a4 */
		OP(1, 0, T2, A0, A1),		/* mul t2, a0, a1 */
		OP(0, 0, A0, S1, T2),		/* add a0, s1, t2 */
		OP(1, 0, A2, A1, A1),		/* mul a2, a1, a1 */
		OP(0, 0, A2, A2, A2),		/* add a2, a2, a2 */
		RET,
	};

	rv_code(e, prog, ARRAY_SIZE(prog));
	e->hart.x[A0] = 0x12345678;
	e->hart.x[A1] = 0x9abcdef;
	e->hart.x[A3] = 0x7fffffff;
	e->hart.x[S1] = 5;
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->executed, 9);
	KUNIT_EXPECT_EQ(test, e->hart.x[A3],
			(u64)(s64)(s32)(0x7fffffffu + 0x12345678u * 0x9abcdefu));
	KUNIT_EXPECT_EQ(test, e->hart.x[A4], 0x12345678ull * 0x9abcdef);
	KUNIT_EXPECT_EQ(test, e->hart.x[A5], 2 * 0x12345678ull * 0x9abcdef);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 5 + 0x12345678ull * 0x9abcdef);
	KUNIT_EXPECT_EQ(test, e->hart.x[A2], 2 * 0x9abcdefull * 0x9abcdef);
}

/*
 * FMUL and FADD run as a pair; an FADD whose dynamic rounding mode is
 * invalid faults after the FMUL retired.
 */
static void vaccel_test_rv_pair_fp(struct kunit *test)
{
	static const u64 one[] = { BOX(0x3f800000), 0x3ff0000000000000ull };
	static const u64 x[] = { BOX(0x3fc00000), 0x3ff8000000000000ull };
	static const u64 y[] = { BOX(0x40000000), 0x4000000000000000ull };
	static const u64 four[] = { BOX(0x40800000), 0x4010000000000000ull };
	unsigned int fmt;

	for (fmt = 0; fmt < 2; fmt++) {
		struct rv_env *e = rv_env_new(test);
		u32 prog[] = {
			FP(0x02, fmt, 0, 3, 1, 2),	/* fmul f3, f1, f2, rne */
			FP(0x00, fmt, 7, 4, 4, 3),	/* fadd f4, f4, f3, dyn */
			RET,
		};

		rv_code(e, prog, ARRAY_SIZE(prog));
		e->hart.f[1] = x[fmt];
		e->hart.f[2] = y[fmt];
		e->hart.f[4] = one[fmt];
		rv_run_exit(e);
		KUNIT_EXPECT_EQ(test, e->hart.f[4], four[fmt]);
		KUNIT_EXPECT_EQ(test, e->executed, 3);

		/* frm 5 is reserved: the FADD is illegal, the FMUL retired. */
		e->hart.pc = T_PAGE(T_CODE);
		e->hart.x[RA] = T_EXIT;
		e->hart.f[3] = 0;
		e->hart.fcsr = 5 << 5;
		e->executed = 0;
		KUNIT_ASSERT_EQ(test, rv_run(e, 100), VACCEL_RV_FAULT);
		KUNIT_EXPECT_EQ(test, e->fault.cause,
				VACCEL_RV_CAUSE_ILLEGAL_INSN);
		KUNIT_EXPECT_EQ(test, e->fault.pc, T_PAGE(T_CODE) + 4);
		KUNIT_EXPECT_EQ(test, e->fault.insn, prog[1]);
		KUNIT_EXPECT_EQ(test, e->hart.pc, T_PAGE(T_CODE) + 4);
		KUNIT_EXPECT_EQ(test, e->hart.f[3], fmt ? 0x4008000000000000ull :
				BOX(0x40400000));
		KUNIT_EXPECT_EQ(test, e->hart.f[4], four[fmt]);
		KUNIT_EXPECT_EQ(test, e->executed, 1);
	}
}

/*
 * An ADD and a load from its result run as a pair; when the load faults,
 * the ADD has retired and the fault is the load's.
 */
static void vaccel_test_rv_pair_faults(struct kunit *test)
{
	static const unsigned int f3[] = { 2, 3 };
	unsigned int i, fp;

	for (fp = 0; fp < 2; fp++) {
		for (i = 0; i < ARRAY_SIZE(f3); i++) {
			struct rv_env *e = rv_env_new(test);
			u32 prog[] = {
				OP(0, 0, A2, A0, A1),		/* add a2, a0, a1 */
				fp ? FLOAD(f3[i], 5, A2, 8) :
				     LOAD(f3[i], A3, A2, 8),
				RET,
			};

			rv_code(e, prog, ARRAY_SIZE(prog));
			e->hart.x[A0] = T_PAGE(T_DATA);
			e->hart.x[A1] = 16;
			rv_set64(e, T_PAGE(T_DATA) + 24, 0x8877665544332211ull);
			rv_run_exit(e);
			KUNIT_EXPECT_EQ(test, e->executed, 3);
			if (fp)
				KUNIT_EXPECT_EQ(test, e->hart.f[5], i ?
						0x8877665544332211ull :
						0xffffffff44332211ull);
			else
				KUNIT_EXPECT_EQ(test, e->hart.x[A3], i ?
						0x8877665544332211ull : 0x44332211);

			/* Into the hole: the ADD retires, the load faults. */
			e->hart.pc = T_PAGE(T_CODE);
			e->hart.x[RA] = T_EXIT;
			e->hart.x[A1] = T_PAGE(T_HOLE) - T_PAGE(T_DATA) - 8;
			e->executed = 0;
			KUNIT_ASSERT_EQ(test, rv_run(e, 100), VACCEL_RV_FAULT);
			KUNIT_EXPECT_EQ(test, e->fault.cause,
					VACCEL_RV_CAUSE_LOAD);
			KUNIT_EXPECT_EQ(test, e->fault.pc, T_PAGE(T_CODE) + 4);
			KUNIT_EXPECT_EQ(test, e->fault.insn, prog[1]);
			KUNIT_EXPECT_EQ(test, e->fault.va, T_PAGE(T_HOLE));
			KUNIT_EXPECT_EQ(test, e->hart.pc, T_PAGE(T_CODE) + 4);
			KUNIT_EXPECT_EQ(test, e->hart.x[A2],
					T_PAGE(T_HOLE) - 8);
			KUNIT_EXPECT_EQ(test, e->executed, 1);
			KUNIT_EXPECT_EQ(test, e->hart.instret, 3 + 1);
		}
	}
}

/* One interpreter, two harts taking turns at barriers. */
static void vaccel_test_rv_two_harts(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	struct vaccel_rv_hart h[2] = {};
	u32 prog[] = {
		AMO(0x00, 0, 3, T0, A0, A1),	/* amoadd.d t0, a1, (a0) */
		BARRIER,
		LOAD(3, T1, A0, 0),
		RET,
	};
	unsigned int i;

	rv_code(e, prog, ARRAY_SIZE(prog));
	for (i = 0; i < 2; i++) {
		h[i].pc = T_PAGE(T_CODE);
		h[i].x[RA] = T_EXIT;
		h[i].x[A0] = T_PAGE(T_DATA);
		h[i].x[A1] = i + 1;
	}
	for (i = 0; i < 2; i++)
		KUNIT_ASSERT_EQ(test, vaccel_rv_run(e->cpu, &h[i], 100,
						    &e->executed, &e->fault),
				VACCEL_RV_BARRIER);
	for (i = 0; i < 2; i++)
		KUNIT_ASSERT_EQ(test, vaccel_rv_run(e->cpu, &h[i], 100,
						    &e->executed, &e->fault),
				VACCEL_RV_EXIT);
	KUNIT_EXPECT_EQ(test, h[0].x[T0], 0);
	KUNIT_EXPECT_EQ(test, h[1].x[T0], 1);
	KUNIT_EXPECT_EQ(test, h[0].x[T1], 3);
	KUNIT_EXPECT_EQ(test, h[1].x[T1], 3);
	KUNIT_EXPECT_EQ(test, e->executed, 8);
}

/* Runs without the sync of rv_run(): as within one dispatch. */
static enum vaccel_rv_stop rv_run_nosync(struct rv_env *e, u64 budget)
{
	memset(&e->fault, 0xa5, sizeof(e->fault));
	return vaccel_rv_run(e->cpu, &e->hart, budget, &e->executed, &e->fault);
}

/* The decoded form of the page at @va, if the cpu keeps one. */
static struct vaccel_rv_code *rv_decoded(struct rv_env *e, u64 va)
{
	unsigned int i;

	for (i = 0; i < VACCEL_RV_CODE_PAGES; i++)
		if (e->cpu->code[i].va == va)
			return &e->cpu->code[i];
	return NULL;
}

/*
 * The decode cache and mappings: after the environment maps other content
 * at the code page's address and the engine syncs, the new code runs; an
 * unmapped code page faults FETCH, with or without a sync.
 */
static void vaccel_test_rv_decode_remap(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u32 prog[] = { ADDI(A0, ZERO, 1), RET };
	u32 other[] = { ADDI(A0, ZERO, 2), RET };
	u8 *page = kunit_kzalloc(test, 4096, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, page);
	memcpy(page, other, sizeof(other));
	rv_code(e, prog, ARRAY_SIZE(prog));
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 1);

	e->remap[T_CODE] = page;
	e->hart.pc = T_PAGE(T_CODE);
	rv_run_exit(e);		/* with its sync */
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 2);

	/* Unmapped: a fetch fault, though the page stays decoded. */
	e->perm[T_CODE] = 0;
	e->hart.pc = T_PAGE(T_CODE);
	KUNIT_ASSERT_EQ(test, rv_run_nosync(e, 100), VACCEL_RV_FAULT);
	KUNIT_EXPECT_EQ(test, e->fault.cause, VACCEL_RV_CAUSE_FETCH);
	KUNIT_EXPECT_EQ(test, e->fault.pc, T_PAGE(T_CODE));
	KUNIT_EXPECT_EQ(test, e->fault.reason, T_UNMAPPED);
	KUNIT_EXPECT_EQ(test, rv_run(e, 100), VACCEL_RV_FAULT);
	KUNIT_EXPECT_EQ(test, e->fault.cause, VACCEL_RV_CAUSE_FETCH);
	KUNIT_EXPECT_EQ(test, e->hart.pc, T_PAGE(T_CODE));
}

/*
 * A decoded page survives runs while its words are unchanged (the test
 * alters the decoded form itself to see that it is used, not decoded
 * again), and a CPU write between runs plus a sync is seen.
 */
static void vaccel_test_rv_decode_survives(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u32 prog[] = { ADDI(A0, ZERO, 1), ADDI(A1, ZERO, 5), RET };
	struct vaccel_rv_code *cp;
	unsigned int i;

	rv_code(e, prog, ARRAY_SIZE(prog));
	rv_run_exit(e);
	cp = rv_decoded(e, T_PAGE(T_CODE));
	KUNIT_ASSERT_NOT_NULL(test, cp);
	cp->ops[0].imm = 7;	/* not what memory says */
	for (i = 0; i < 50; i++) {
		e->hart.pc = T_PAGE(T_CODE);
		e->hart.x[RA] = T_EXIT;
		rv_run_exit(e);
		KUNIT_ASSERT_EQ(test, e->hart.x[A0], 7);
	}
	KUNIT_EXPECT_EQ(test, e->executed, 51 * 3);

	/* The CPU writes the page: after the sync, the new words run. */
	*(u32 *)rv_host(e, T_PAGE(T_CODE)) = ADDI(A0, ZERO, 9);
	e->hart.pc = T_PAGE(T_CODE);
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 9);
	KUNIT_EXPECT_EQ(test, e->hart.x[A1], 5);
}

/*
 * The hart stores into its own code page, in the block being executed,
 * without FENCE.I: the store forgets the decoded page, and the new word
 * runs; then the same through a FENCE.I after a store through another
 * mapping of the page, which the write rule cannot see.
 */
static void vaccel_test_rv_decode_self_modify(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u64 code3 = T_PAGE(T_DATA3);
	u32 prog[] = {
		ADDI(A0, ZERO, 0),
		ADDI(A3, ZERO, 3),
		ADDI(A0, A0, 100),	/* then addi a0, a0, 1 */
		STORE(2, A1, A2, 0),	/* rewrites the one above */
		ADDI(A4, ZERO, 1),	/* then addi a4, zero, 2 */
		ADDI(A3, A3, -1),
		BR(1, A3, ZERO, -16),
		RET,
	};
	u32 alias[] = {
		ADDI(A0, ZERO, 1),	/* then addi a0, zero, 2 */
		STORE(2, A1, A2, 0),
		FENCE_I,
		JAL(ZERO, -12),		/* once: then ret */
	};

	rv_code_at(e, code3, prog, ARRAY_SIZE(prog));
	e->hart.pc = code3;
	e->hart.x[A1] = ADDI(A0, A0, 1);
	e->hart.x[A2] = code3 + 8;
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 102);
	KUNIT_EXPECT_EQ(test, e->executed, 2 + 3 * 5 + 1);

	/* The store in the middle of a block rewrites the next word. */
	prog[3] = STORE(2, A1, A2, 4);
	rv_code_at(e, code3, prog, ARRAY_SIZE(prog));
	e->hart.pc = code3;
	e->hart.x[RA] = T_EXIT;
	e->hart.x[A1] = ADDI(A4, ZERO, 2);
	e->hart.x[A2] = code3 + 12;
	e->executed = 0;
	KUNIT_ASSERT_EQ(test, rv_run(e, 5), VACCEL_RV_BUDGET);
	KUNIT_EXPECT_EQ(test, e->hart.x[A4], 2);
	KUNIT_EXPECT_EQ(test, e->hart.pc, code3 + 20);
	rv_run_exit(e);
	KUNIT_EXPECT_EQ(test, e->hart.x[A4], 2);
	KUNIT_EXPECT_EQ(test, e->executed, 2 + 3 * 5 + 1);

	/* Through another mapping of the page, then FENCE.I. */
	e = rv_env_new(test);
	e->remap[T_DATA2] = rv_host(e, code3);
	rv_code_at(e, code3, alias, ARRAY_SIZE(alias));
	e->hart.pc = code3;
	e->hart.x[A1] = ADDI(A0, ZERO, 2);
	e->hart.x[A2] = T_PAGE(T_DATA2);
	/* The first pass: addi 1, store, fence.i, jump back. */
	KUNIT_ASSERT_EQ(test, rv_run(e, 4), VACCEL_RV_BUDGET);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 1);
	/* The second pass runs the new word; then the jump becomes a ret. */
	e->hart.x[A1] = RET;
	e->hart.x[A2] = T_PAGE(T_DATA2) + 12;
	KUNIT_ASSERT_EQ(test, rv_run_nosync(e, 1), VACCEL_RV_BUDGET);
	KUNIT_EXPECT_EQ(test, e->hart.x[A0], 2);
	KUNIT_ASSERT_EQ(test, rv_run_nosync(e, 100), VACCEL_RV_EXIT);
	KUNIT_EXPECT_EQ(test, e->executed, 8);
}

/*
 * A basic block charged at once and stopped by a fault in its middle (a
 * load, and the load of an ADD + load pair) retires exactly the
 * instructions before the fault: executed, instret and pc say so.
 */
static void vaccel_test_rv_block_fault(struct kunit *test)
{
	struct rv_env *e = rv_env_new(test);
	u32 prog[] = {
		ADDI(A0, ZERO, 1),
		ADDI(A1, ZERO, 2),
		OP(0, 0, A2, A0, A1),
		LOAD(3, A3, A4, 0),	/* faults */
		ADDI(A5, ZERO, 4),
		BR(0, ZERO, ZERO, 8),
		ADDI(A5, ZERO, 5),
		RET,
	};
	u32 pair[] = {
		ADDI(A0, ZERO, 1),
		OP(0, 0, A2, A4, A1),
		LOAD(3, A3, A2, 0),	/* faults, after the add */
		ADDI(A5, ZERO, 4),
		RET,
	};

	rv_code(e, prog, ARRAY_SIZE(prog));
	e->hart.x[A4] = T_PAGE(T_HOLE);
	e->hart.instret = 1000;
	KUNIT_ASSERT_EQ(test, rv_run(e, 100), VACCEL_RV_FAULT);
	KUNIT_EXPECT_EQ(test, e->fault.cause, VACCEL_RV_CAUSE_LOAD);
	KUNIT_EXPECT_EQ(test, e->fault.pc, T_PAGE(T_CODE) + 12);
	KUNIT_EXPECT_EQ(test, e->fault.insn, prog[3]);
	KUNIT_EXPECT_EQ(test, e->executed, 3);
	KUNIT_EXPECT_EQ(test, e->hart.instret, 1003);
	KUNIT_EXPECT_EQ(test, e->hart.x[A2], 3);
	KUNIT_EXPECT_EQ(test, e->hart.x[A5], 0);

	e = rv_env_new(test);
	rv_code(e, pair, ARRAY_SIZE(pair));
	e->hart.x[A4] = T_PAGE(T_HOLE);
	KUNIT_ASSERT_EQ(test, rv_run(e, 100), VACCEL_RV_FAULT);
	KUNIT_EXPECT_EQ(test, e->fault.pc, T_PAGE(T_CODE) + 8);
	KUNIT_EXPECT_EQ(test, e->fault.insn, pair[2]);
	KUNIT_EXPECT_EQ(test, e->executed, 2);
	KUNIT_EXPECT_EQ(test, e->hart.instret, 2);
	KUNIT_EXPECT_EQ(test, e->hart.x[A2], T_PAGE(T_HOLE));
	KUNIT_EXPECT_EQ(test, e->hart.pc, T_PAGE(T_CODE) + 8);
}

/*
 * A fixed program (loops, pairs, a triple, memory, CSR reads of instret,
 * floating point, a call into another page) run with every budget from 1
 * to its length ends exactly as one run with a large budget.
 */
static void vaccel_test_rv_every_budget(struct kunit *test)
{
	u64 data = T_PAGE(T_DATA);
	u32 prog[] = {
		ADDI(S0, ZERO, 0), LUI(S1, data >> 12),
		ADDI(A0, ZERO, 5),
		/* loop: */
		ADDI(A1, A1, 3),
		OP(1, 0, A2, A1, A0),			/* mul + add */
		OP(0, 0, A3, A2, A1),
		OP(0, 0, A4, S1, S0),			/* add + ld */
		LOAD(3, A5, A4, 0),
		CSR(2, T0, VACCEL_RV_CSR_INSTRET, 0),
		OP(0, 0, A5, A5, T0),
		STORE(3, A5, A4, 0),
		FP(0x1e, 1, 0, 1, A3, 0),		/* fmv.d.x */
		FP(2, 1, 7, 2, 1, 1),			/* fmul + fadd */
		FP(0, 1, 7, 3, 2, 1),
		JAL(RA, 4096 - 14 * 4),			/* to the other page */
		ADDI(S0, S0, 8),
		ADDI(16, 16, 1),			/* triple: a6 */
		ADDI(A0, A0, -1),
		BR(1, A0, ZERO, -15 * 4),
		FSTORE(3, 3, S1, 64),
		LUI(T2, T_EXIT >> 16),
		OPI(1, T2, T2, 4),
		JALR(ZERO, T2, 0),
	};
	u32 callee[] = { ADDI(17, 17, 2), ADDI(T1, ZERO, 1), RET };
	struct rv_env *ref = NULL, *e;
	u64 n, total = 0;

	for (n = 0; ; n++) {
		enum vaccel_rv_stop stop;

		e = rv_env_new(test);
		rv_code(e, prog, ARRAY_SIZE(prog));
		rv_code_at(e, T_PAGE(T_CODE2), callee, ARRAY_SIZE(callee));
		if (!ref) {
			rv_run_exit(e);
			ref = e;
			total = e->executed;
			KUNIT_ASSERT_GT(test, total, 80);
			continue;
		}
		if (n > total)
			break;
		do {
			stop = rv_run(e, n);
		} while (stop == VACCEL_RV_BUDGET);
		KUNIT_ASSERT_EQ(test, stop, VACCEL_RV_EXIT);
		KUNIT_ASSERT_EQ_MSG(test, e->executed, total, "budget %llu", n);
		KUNIT_ASSERT_EQ_MSG(test, memcmp(&e->hart, &ref->hart,
						 sizeof(e->hart)), 0,
				    "budget %llu", n);
		KUNIT_ASSERT_EQ_MSG(test, memcmp(e->mem, ref->mem,
						 T_PAGES * 4096), 0,
				    "budget %llu", n);
		kunit_kfree(test, e->cpu);
		kunit_kfree(test, e->mem);
	}
}

/* A generator of programs, and a comparison with the reference. */

struct rv_gen {
	struct rnd_state rnd;
	u32 *w;
	unsigned int n;
};

static u32 rv_rand(struct rv_gen *g, u32 n)
{
	return prandom_u32_state(&g->rnd) % n;
}

/* A register the programs compute in: t0-t2, a0-a5, s2-s5. */
static u32 rv_rand_reg(struct rv_gen *g)
{
	static const u8 regs[] = { 5, 6, 7, 10, 11, 12, 13, 14, 15,
				   18, 19, 20, 21 };

	return regs[rv_rand(g, ARRAY_SIZE(regs))];
}

static void rv_emit(struct rv_gen *g, u32 w)
{
	g->w[g->n++] = w;
}

static u32 rv_branch_f3(u32 i)
{
	static const u8 f3[] = { 0, 1, 4, 5, 6, 7 };

	return f3[i];
}

/* One random instruction or pattern; s0 is the data page, s1 counts. */
static void rv_gen_one(struct rv_gen *g)
{
	static const u8 opf[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	u32 rd = rv_rand_reg(g), a = rv_rand_reg(g), b = rv_rand_reg(g);
	u32 off = rv_rand(g, 250) * 8;

	switch (rv_rand(g, 17)) {
	case 0:
		rv_emit(g, ADDI(rd, a, (s32)rv_rand(g, 4096) - 2048));
		break;
	case 1:
		rv_emit(g, OP(rv_rand(g, 2) ? 0x20 : 0, rv_rand(g, 2) * 5,
			      rd, a, b));
		break;
	case 2:
		rv_emit(g, OP(0, opf[rv_rand(g, 8)], rd, a, b));
		break;
	case 3:
		rv_emit(g, OP(1, rv_rand(g, 8), rd, a, b));	/* M */
		break;
	case 4:
		rv_emit(g, OPW(1, rv_rand(g, 2) ? 0 : 4 + rv_rand(g, 4),
			       rd, a, b));
		break;
	case 5:
		rv_emit(g, OPI(rv_rand(g, 2) ? 1 : 5, rd, a, rv_rand(g, 64)));
		break;
	case 6:		/* add + load */
		rv_emit(g, OPI(7, T1, a, 0xf8));
		rv_emit(g, OP(0, 0, T2, S0, T1));
		rv_emit(g, LOAD(rv_rand(g, 2) ? 3 : 2, rd, T2, rv_rand(g, 64) * 8));
		break;
	case 7:
		rv_emit(g, LOAD(rv_rand(g, 7), rd, S0, off));
		break;
	case 8:
		rv_emit(g, STORE(rv_rand(g, 4), a, S0, off + rv_rand(g, 8)));
		break;
	case 9:		/* mul + add */
		rv_emit(g, OP(1, 0, rd, a, b));
		rv_emit(g, OP(0, 0, b, rd, a));
		break;
	case 10:	/* a forward branch */
		rv_emit(g, BR(rv_branch_f3(rv_rand(g, 6)), a, b,
			      4 * (1 + rv_rand(g, 3))));
		break;
	case 11:	/* addi + branch */
		rv_emit(g, ADDI(rd, rd, 1));
		rv_emit(g, BR(rv_rand(g, 2), rd, b, 8));
		break;
	case 12:	/* fmv, fmul + fadd, fmadd, fsd */
		rv_emit(g, FP(0x1e, 1, 0, rv_rand(g, 8), a, 0));
		rv_emit(g, FP(2, 1, 7, rv_rand(g, 8), rv_rand(g, 8), rv_rand(g, 8)));
		rv_emit(g, FP(0, 1, 7, rv_rand(g, 8), rv_rand(g, 8), rv_rand(g, 8)));
		break;
	case 13:
		rv_emit(g, FMA(0x43, rv_rand(g, 2), 7, rv_rand(g, 8),
			       rv_rand(g, 8), rv_rand(g, 8), rv_rand(g, 8)));
		rv_emit(g, FSTORE(3, rv_rand(g, 8), S0, off));
		break;
	case 14:
		rv_emit(g, FLOAD(rv_rand(g, 2) ? 3 : 2, rv_rand(g, 8), S0, off));
		rv_emit(g, FP(2, 0, 7, rv_rand(g, 8), rv_rand(g, 8), rv_rand(g, 8)));
		rv_emit(g, FP(0, 0, 7, rv_rand(g, 8), rv_rand(g, 8), rv_rand(g, 8)));
		break;
	case 15:	/* fsub, fdiv, fsqrt; any rounding mode, a bad rs2 */
		rv_emit(g, FP(rv_rand(g, 2) ? 1 : 3, rv_rand(g, 2),
			      rv_rand(g, 4) ? 7 : rv_rand(g, 8), rv_rand(g, 8),
			      rv_rand(g, 8), rv_rand(g, 8)));
		rv_emit(g, FP(0x0b, rv_rand(g, 2), rv_rand(g, 4) ? 7 : rv_rand(g, 8),
			      rv_rand(g, 8), rv_rand(g, 8),
			      rv_rand(g, 16) ? 0 : 1));
		break;
	default:
		rv_emit(g, OPIW(0, rd, a, (s32)rv_rand(g, 4096) - 2048));
		break;
	}
}

/* Runs @e to its end in slices of random budgets. */
static enum vaccel_rv_stop rv_run_sliced(struct rv_env *e, struct rv_gen *g,
					 bool ref)
{
	enum vaccel_rv_stop stop;
	u64 budget;

	do {
		budget = rv_rand(g, 4) ? 1 + rv_rand(g, 40) : 100000;
		memset(&e->fault, 0xa5, sizeof(e->fault));
		if (ref)
			stop = vaccel_rv_ref_run(e->cpu, &e->hart, budget,
						 &e->executed, &e->fault);
		else
			stop = vaccel_rv_run(e->cpu, &e->hart, budget,
					     &e->executed, &e->fault);
	} while (stop == VACCEL_RV_BUDGET && e->executed < 1000000);
	return stop;
}

/*
 * Threaded dispatch against the reference interpreter on generated
 * sequences: loops of random ALU, M, memory, branches, pairs and floating
 * point, run in random slices by both, give the same hart, memory, count
 * and fault.
 */
static void vaccel_test_rv_vs_reference(struct kunit *test)
{
	struct rv_gen g;
	unsigned int seq;

	prandom_seed_state(&g.rnd, 17);
	for (seq = 0; seq < 300; seq++) {
		struct rv_env *e = rv_env_new(test), *r = rv_env_new(test);
		enum vaccel_rv_stop se, sr;
		unsigned int i, body, loop, fault;

		g.w = (u32 *)rv_host(e, T_PAGE(T_CODE));
		g.n = 0;
		rv_emit(&g, LUI(S0, T_PAGE(T_DATA) >> 12));
		rv_emit(&g, ADDI(S1, ZERO, 1 + rv_rand(&g, 5)));
		for (i = 5; i < 32; i++)
			if (i != 8 && i != 9)
				rv_emit(&g, ADDI(i, ZERO, (s32)rv_rand(&g, 4096) - 2048));
		loop = g.n;
		body = 4 + rv_rand(&g, 40);
		fault = rv_rand(&g, 8) ? body : rv_rand(&g, body);
		for (i = 0; i < body; i++) {
			if (i == fault) {	/* sometimes a load faults */
				rv_emit(&g, LUI(T0, T_PAGE(T_HOLE) >> 12));
				rv_emit(&g, LOAD(3, T0, T0, 0));
			}
			rv_gen_one(&g);
		}
		/* Where the forward branches may land. */
		for (i = 0; i < 3; i++)
			rv_emit(&g, ADDI(T0, T0, 1));
		rv_emit(&g, ADDI(S1, S1, -1));
		rv_emit(&g, BR(1, S1, ZERO, -4 * (g.n - loop)));
		rv_emit(&g, RET);
		prandom_bytes_state(&g.rnd, rv_host(e, T_PAGE(T_DATA)), 4096);
		memcpy(r->mem, e->mem, T_PAGES * 4096);

		se = rv_run_sliced(e, &g, false);
		sr = rv_run_sliced(r, &g, true);
		KUNIT_ASSERT_EQ_MSG(test, se, sr, "sequence %u", seq);
		KUNIT_ASSERT_EQ_MSG(test, e->executed, r->executed,
				    "sequence %u", seq);
		for (i = 0; i < 32; i++) {
			KUNIT_ASSERT_EQ_MSG(test, e->hart.x[i], r->hart.x[i],
					    "sequence %u x%u", seq, i);
			KUNIT_ASSERT_EQ_MSG(test, e->hart.f[i], r->hart.f[i],
					    "sequence %u f%u", seq, i);
		}
		KUNIT_ASSERT_EQ_MSG(test, memcmp(&e->hart, &r->hart,
						 sizeof(e->hart)), 0,
				    "sequence %u", seq);
		KUNIT_ASSERT_EQ_MSG(test, memcmp(e->mem, r->mem,
						 T_PAGES * 4096), 0,
				    "sequence %u", seq);
		if (se == VACCEL_RV_FAULT)
			KUNIT_ASSERT_EQ_MSG(test, memcmp(&e->fault, &r->fault,
							 sizeof(e->fault)), 0,
					    "sequence %u", seq);
		kunit_kfree(test, e->cpu);
		kunit_kfree(test, r->cpu);
		kunit_kfree(test, e->mem);
		kunit_kfree(test, r->mem);
	}
}

static struct kunit_case vaccel_rv_test_cases[] = {
	KUNIT_CASE(vaccel_test_rv_alu),
	KUNIT_CASE(vaccel_test_rv_upper_and_x0),
	KUNIT_CASE(vaccel_test_rv_load_store),
	KUNIT_CASE(vaccel_test_rv_branch_jump),
	KUNIT_CASE(vaccel_test_rv_cross_page),
	KUNIT_CASE(vaccel_test_rv_amo),
	KUNIT_CASE(vaccel_test_rv_lr_sc),
	KUNIT_CASE(vaccel_test_rv_fp),
	KUNIT_CASE(vaccel_test_rv_fp_load_store),
	KUNIT_CASE(vaccel_test_rv_fp_rm),
	KUNIT_CASE(vaccel_test_rv_fcsr),
	KUNIT_CASE(vaccel_test_rv_counters),
	KUNIT_CASE(vaccel_test_rv_csr_faults),
	KUNIT_CASE(vaccel_test_rv_illegal),
	KUNIT_CASE(vaccel_test_rv_compressed),
	KUNIT_CASE(vaccel_test_rv_ecall_ebreak),
	KUNIT_CASE(vaccel_test_rv_misaligned_fetch),
	KUNIT_CASE(vaccel_test_rv_misaligned_atomic),
	KUNIT_CASE(vaccel_test_rv_access_faults),
	KUNIT_CASE(vaccel_test_rv_fetch_faults),
	KUNIT_CASE(vaccel_test_rv_barrier),
	KUNIT_CASE(vaccel_test_rv_exit),
	KUNIT_CASE(vaccel_test_rv_budget),
	KUNIT_CASE(vaccel_test_rv_tlb),
	KUNIT_CASE(vaccel_test_rv_mem_counters),
	KUNIT_CASE(vaccel_test_rv_tlb_generations),
	KUNIT_CASE(vaccel_test_rv_code_changes),
	KUNIT_CASE(vaccel_test_rv_pairs),
	KUNIT_CASE(vaccel_test_rv_triples),
	KUNIT_CASE(vaccel_test_rv_pair_mac),
	KUNIT_CASE(vaccel_test_rv_pair_faults),
	KUNIT_CASE(vaccel_test_rv_pair_fp),
	KUNIT_CASE(vaccel_test_rv_two_harts),
	KUNIT_CASE(vaccel_test_rv_decode_remap),
	KUNIT_CASE(vaccel_test_rv_decode_survives),
	KUNIT_CASE(vaccel_test_rv_decode_self_modify),
	KUNIT_CASE(vaccel_test_rv_block_fault),
	KUNIT_CASE(vaccel_test_rv_every_budget),
	KUNIT_CASE(vaccel_test_rv_vs_reference),
	{}
};

static struct kunit_suite vaccel_rv_test_suite = {
	.name = "vaccel_rv",
	.test_cases = vaccel_rv_test_cases,
};

kunit_test_suite(vaccel_rv_test_suite);
