// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * rv_diff - the RV64 interpreter (vaccel_rv.c, vaccel_softfloat.c) against
 * qemu-riscv64.
 *
 * For each group of instructions it generates, from a seed, many random
 * loop-free sequences, each with a random initial state (x1-x30, f0-f31,
 * fcsr, a 512-byte scratch window that x31 points at), into one RV64
 * program built with clang and ld.lld.  The program's harness loads each
 * initial state, runs the sequence, stores every register, fcsr and the
 * window, and writes them to stdout.  The same ELF runs under qemu-riscv64
 * and under the interpreter (in slices of random budgets, with write and
 * exit served as ECALL faults), and the two outputs are compared.  On a
 * mismatch, the prefixes of the failing sequence are run on both to find
 * the first instruction whose result differs.
 *
 * Usage: rv_diff [-s seed] [-n scale%] [-k] [-v] -o builddir [group...]
 * Prints `ok isa.rv_<group>` or `not ok isa.rv_<group>: ...` per group.
 */

#include <stdarg.h>
#include <stdint.h>
#include <unistd.h>

#include "rv_env.h"

#define SCRATCH		512
#define DUMP		520	/* x0-x31, f0-f31, fcsr */
#define CHUNK		(DUMP + SCRATCH)
#define INIT_X		512
#define INIT_F		768
#define INIT_FCSR	1024

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static u64 rng;
static int verbose, keep;
static const char *clang = "clang-14", *lld = "ld.lld-14";
static const char *qemu = "qemu-riscv64";

static u64 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static u64 rn(u64 n)
{
	return rnd() % n;
}

/*
 * A line of a sequence: an instruction (or a pair), or a label.  An `@` in
 * the text is the label the next label line defines.
 */
struct rec {
	char text[120];
	char kind;	/* 'x', 'f': writes that register; 'L': label; 0 */
	int reg;
};

struct seq {
	struct rec *r;
	int n, cap;
	bool cross;		/* the scratch window crosses a page */
	u64 init[65];		/* x0-x31, f0-f31, fcsr */
	u8 mem[SCRATCH];
};

struct gen {
	struct seq *cur;
	int fp;			/* FP sequence: keep frm valid */
};

static void add(struct gen *g, char kind, int reg, const char *fmt, ...)
{
	struct seq *s = g->cur;
	va_list ap;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->r = realloc(s->r, s->cap * sizeof(*s->r));
	}
	va_start(ap, fmt);
	vsnprintf(s->r[s->n].text, sizeof(s->r[s->n].text), fmt, ap);
	va_end(ap);
	s->r[s->n].kind = kind;
	s->r[s->n].reg = reg;
	s->n++;
}

/* Values */

static u64 rand_int(void)
{
	switch (rn(16)) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2:
		return -1ull;
	case 3:
		return 1ull << 63;
	case 4:
		return (1ull << 63) - 1;
	case 5:
		return 0x80000000ull;
	case 6:
		return 0xffffffff80000000ull;
	case 7:
		return 0x7fffffff;
	case 8:
		return 0xffffffff;
	case 9:
		return (s64)(s32)rnd();
	case 10:
		return rn(4096) - 2048;
	case 11:
		return 1ull << rn(64);
	case 12:
		return rnd() >> rn(64);
	case 13:
		return -(rnd() >> rn(64));
	default:
		return rnd();
	}
}

static int rand_imm12(void)
{
	switch (rn(8)) {
	case 0:
		return 0;
	case 1:
		return -1;
	case 2:
		return 2047;
	case 3:
		return -2048;
	default:
		return (int)rn(4096) - 2048;
	}
}

static const u32 f32_special[] = {
	0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
	0xffc00000, 0x7fa00000, 0x7f800001, 0xffbfffff, 0x7fc12345,
	0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000,
	0x80800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000,
	0x3f000000, 0x3fc00000, 0x40000000, 0x4b000000, 0x4b7fffff,
	0x4effffff, 0x4f000000, 0xcf000000, 0xcf000001, 0x4f800000,
	0x5effffff, 0x5f000000, 0xdf000000, 0x5f800000, 0xbf000000,
	0x3effffff, 0x3f7fffff, 0x3f800001, 0x34000000, 0x0c000000,
};

static const u64 f64_special[] = {
	0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000,
	0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000000000,
	0x7ff4000000000000, 0x7ff0000000000001, 0x7ff8000000abcdef,
	0x0000000000000001, 0x8000000000000001, 0x000fffffffffffff,
	0x0010000000000000, 0x8010000000000000, 0x7fefffffffffffff,
	0xffefffffffffffff, 0x3ff0000000000000, 0xbff0000000000000,
	0x3fe0000000000000, 0x3ff8000000000000, 0x4330000000000000,
	0x41dfffffffc00000, 0x41e0000000000000, 0xc1e0000000000000,
	0xc1e0000000200000, 0x41efffffffe00000, 0x41f0000000000000,
	0x43dfffffffffffff, 0x43e0000000000000, 0xc3e0000000000000,
	0x43f0000000000000, 0x3fefffffffffffff, 0x3ff0000000000001,
	0x36a0000000000000, 0x3810000000000000, 0x47efffffe0000000,
	0x47efffffffffffff, 0x3690000000000000, 0x380fffffffffffff,
	0xbfe0000000000001,
};

static u32 rand_f32(void)
{
	u32 sign = rn(2) << 31;

	switch (rn(6)) {
	case 0:
	case 1:
		return f32_special[rn(ARRAY_LEN(f32_special))];
	case 2:	/* near 1 */
		return sign | (0x3f000000 + (u32)rn(0x1000000));
	case 3:	/* small exponents, subnormals */
		return sign | (u32)rn(0x02000000);
	case 4:	/* integers in range of conversions */
		return sign | (0x4a800000 + (u32)rn(0x05000000));
	default:
		return (u32)rnd();
	}
}

static u64 rand_f64(void)
{
	u64 sign = rn(2) << 63;

	switch (rn(7)) {
	case 0:
	case 1:
		return f64_special[rn(ARRAY_LEN(f64_special))];
	case 2:
		return sign | (0x3fe0000000000000ull + rn(1ull << 53));
	case 3:
		return sign | rn(1ull << 54);
	case 4:
		return sign | (0x4320000000000000ull + rn(0x00c0000000000000ull));
	case 5:	/* around the single-precision range */
		return sign | (0x3680000000000000ull + (rn(0x1100) << 44) +
			       (rnd() >> 20));
	default:
		return rnd();
	}
}

/* An f register's initial value: mostly NaN-boxed singles or doubles. */
static u64 rand_freg(void)
{
	switch (rn(10)) {
	case 0: {	/* not NaN-boxed */
		u64 hi = rn(2) ? (u32)rnd() : rn(2) ? 0 : 0xfffffffe;

		if (hi == 0xffffffff)
			hi = 0x7fffffff;
		return hi << 32 | rand_f32();
	}
	case 1:
	case 2:
	case 3:
	case 4:
		return 0xffffffff00000000ull | rand_f32();
	default:
		return rand_f64();
	}
}

/* Random registers: destinations avoid x31, the scratch base. */
static int xrd(void)
{
	return rn(31);
}

static int xrs(void)
{
	return rn(32);
}

static int frg(void)
{
	return rn(32);
}

static const char *const rm_names[] = {
	"rne", "rtz", "rdn", "rup", "rmm", "", "", "dyn",
};

static const char *rand_rm(void)
{
	unsigned int r = rn(7);

	return rm_names[r > 4 ? 7 : r];
}

/* Generators of instructions */

static void gen_alu(struct gen *g)
{
	static const char *const rr[] = {
		"add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or",
		"and", "addw", "subw", "sllw", "srlw", "sraw",
	};
	static const char *const ri[] = {
		"addi", "slti", "sltiu", "xori", "ori", "andi", "addiw",
	};
	static const char *const sh[] = { "slli", "srli", "srai" };
	static const char *const shw[] = { "slliw", "srliw", "sraiw" };
	int rd = xrd();

	switch (rn(6)) {
	case 0:
	case 1:
		add(g, 'x', rd, "%s x%d, x%d, x%d", rr[rn(ARRAY_LEN(rr))], rd,
		    xrs(), xrs());
		break;
	case 2:
		add(g, 'x', rd, "%s x%d, x%d, %d", ri[rn(ARRAY_LEN(ri))], rd,
		    xrs(), rand_imm12());
		break;
	case 3:
		add(g, 'x', rd, "%s x%d, x%d, %d", sh[rn(3)], rd, xrs(),
		    (int)rn(64));
		break;
	case 4:
		add(g, 'x', rd, "%s x%d, x%d, %d", shw[rn(3)], rd, xrs(),
		    (int)rn(32));
		break;
	default:
		add(g, 'x', rd, "%s x%d, %d", rn(2) ? "lui" : "auipc", rd,
		    (int)rn(1 << 20));
		break;
	}
}

static void gen_muldiv(struct gen *g)
{
	static const char *const ops[] = {
		"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu",
		"mulw", "divw", "divuw", "remw", "remuw",
	};
	int rd = xrd();

	add(g, 'x', rd, "%s x%d, x%d, x%d", ops[rn(ARRAY_LEN(ops))], rd,
	    xrs(), xrs());
}

static void gen_loadstore(struct gen *g)
{
	static const char *const ld[] = {
		"lb", "lh", "lw", "ld", "lbu", "lhu", "lwu",
	};
	static const int ldsz[] = { 1, 2, 4, 8, 1, 2, 4 };
	static const char *const st[] = { "sb", "sh", "sw", "sd" };
	int i, off, rd = xrd(), t;

	if (rn(2)) {
		i = rn(7);
		off = rn(SCRATCH - ldsz[i] + 1);
		if (rn(3)) {
			add(g, 'x', rd, "%s x%d, %d(x31)", ld[i], rd, off);
		} else {
			t = 1 + rn(30);
			int o1 = (int)rn(1024) - 256;

			add(g, 'x', t, "addi x%d, x31, %d", t, o1);
			add(g, 'x', rd, "%s x%d, %d(x%d)", ld[i], rd, off - o1,
			    t);
		}
	} else {
		i = rn(4);
		off = rn(SCRATCH - (1 << i) + 1);
		add(g, 0, 0, "%s x%d, %d(x31)", st[i], xrs(), off);
	}
}

static const char *rand_aqrl(void)
{
	static const char *const s[] = { "", ".aq", ".rl", ".aqrl" };

	return s[rn(4)];
}

static void gen_amo(struct gen *g)
{
	static const char *const ops[] = {
		"amoswap", "amoadd", "amoxor", "amoand", "amoor", "amomin",
		"amomax", "amominu", "amomaxu",
	};
	int d = rn(2), size = d ? 8 : 4, t = 1 + rn(30), rd = xrd();
	int off = rn(SCRATCH / size) * size, rs2 = xrs(), v, t2;

	add(g, 'x', t, "addi x%d, x31, %d", t, off);
	if (rn(4)) {
		add(g, 'x', rd, "%s.%c%s x%d, x%d, (x%d)", ops[rn(9)],
		    d ? 'd' : 'w', rand_aqrl(), rd, rs2, t);
		return;
	}
	/* LR, maybe a store, SC. */
	v = 1 + rn(29);
	if (v >= t)
		v++;
	add(g, 'x', v, "lr.%c%s x%d, (x%d)", d ? 'd' : 'w', rand_aqrl(), v, t);
	switch (rn(4)) {
	case 0:	/* the same value back */
		add(g, 0, 0, "s%c x%d, %d(x31)", d ? 'd' : 'w', v, off);
		break;
	case 1:	/* another value */
		add(g, 0, 0, "s%c x%d, %d(x31)", d ? 'd' : 'w', xrs(), off);
		break;
	case 2:	/* elsewhere */
		add(g, 0, 0, "sb x%d, %d(x31)", xrs(), (off + 64) % SCRATCH);
		break;
	}
	t2 = t;
	if (!rn(5)) {	/* SC elsewhere fails */
		t2 = v;
		add(g, 'x', t2, "addi x%d, x31, %d", t2,
		    (off + 8 * (1 + (int)rn(8))) % SCRATCH);
	}
	add(g, 'x', rd, "sc.%c%s x%d, x%d, (x%d)", d ? 'd' : 'w', rand_aqrl(),
	    rd, rs2, t2);
}

/* A forward branch or jump over a few instructions. */
static void gen_branch(struct gen *g)
{
	static const char *const br[] = {
		"beq", "bne", "blt", "bge", "bltu", "bgeu",
	};
	int k = rn(4), i, rd = xrd(), t = 1 + rn(30);
	int r1 = xrs(), r2 = rn(3) ? xrs() : r1;

	switch (rn(4)) {
	case 0:
	case 1:
		add(g, 0, 0, "%s x%d, x%d, @", br[rn(6)], r1, r2);
		break;
	case 2:
		add(g, 'x', rd, "jal x%d, @", rd);
		break;
	default:
		add(g, 'x', t, "lla x%d, @", t);
		add(g, 'x', rd, "jalr x%d, %d(x%d)", rd, (int)rn(2), t);
		break;
	}
	for (i = 0; i < k; i++)
		gen_alu(g);
	add(g, 'L', 0, "@:");
}

static void gen_csr(struct gen *g)
{
	static const char *const csr[] = { "fflags", "frm", "fcsr" };
	static const char *const op[] = { "csrrw", "csrrs", "csrrc" };
	int rd = xrd(), c = rn(3);

	if (rn(2))
		add(g, 'x', rd, "%s x%d, %s, x%d", op[rn(3)], rd, csr[c],
		    rn(4) ? xrs() : 0);
	else
		add(g, 'x', rd, "%si x%d, %s, %d", op[rn(3)], rd, csr[c],
		    (int)rn(32));
}

/* FP */

static void gen_fp_arith(struct gen *g, char t)
{
	static const char *const ops[] = { "fadd", "fsub", "fmul", "fdiv" };
	int rd = frg();

	if (rn(6))
		add(g, 'f', rd, "%s.%c f%d, f%d, f%d, %s", ops[rn(4)], t, rd,
		    frg(), frg(), rand_rm());
	else
		add(g, 'f', rd, "fsqrt.%c f%d, f%d, %s", t, rd, frg(),
		    rand_rm());
}

static void gen_fma(struct gen *g, char t)
{
	static const char *const ops[] = {
		"fmadd", "fmsub", "fnmsub", "fnmadd",
	};
	int rd = frg();

	add(g, 'f', rd, "%s.%c f%d, f%d, f%d, f%d, %s", ops[rn(4)], t, rd,
	    frg(), frg(), frg(), rand_rm());
}

static void gen_fcmp(struct gen *g, char t)
{
	static const char *const sg[] = { "fsgnj", "fsgnjn", "fsgnjx" };
	static const char *const cmp[] = { "feq", "flt", "fle" };
	int rd = frg(), xd = xrd();

	switch (rn(5)) {
	case 0:
		add(g, 'f', rd, "%s.%c f%d, f%d, f%d", sg[rn(3)], t, rd, frg(),
		    frg());
		break;
	case 1:
		add(g, 'f', rd, "%s.%c f%d, f%d, f%d", rn(2) ? "fmin" : "fmax",
		    t, rd, frg(), frg());
		break;
	case 2:
	case 3:
		add(g, 'x', xd, "%s.%c x%d, f%d, f%d", cmp[rn(3)], t, xd,
		    frg(), frg());
		break;
	default:
		add(g, 'x', xd, "fclass.%c x%d, f%d", t, xd, frg());
		break;
	}
}

static void gen_fcvt(struct gen *g)
{
	static const char *const ity[] = { "w", "wu", "l", "lu" };
	char t = rn(2) ? 'd' : 's';
	int rd = frg(), xd = xrd(), it = rn(4);
	const char *rm = rand_rm();
	unsigned int rmn;

	for (rmn = 0; rmn < 8 && strcmp(rm_names[rmn], rm); rmn++)
		;
	switch (rn(8)) {
	case 0:
	case 1:
		add(g, 'x', xd, "fcvt.%s.%c x%d, f%d, %s", ity[it], t, xd,
		    frg(), rm);
		break;
	case 2:
	case 3:
		if (t == 'd' && it < 2)	/* exact: LLVM fixes rm, we do not */
			add(g, 'f', rd, ".insn r 0x53, %u, 0x69, f%d, x%d, x%d",
			    rmn, rd, xrs(), it);
		else
			add(g, 'f', rd, "fcvt.%c.%s f%d, x%d, %s", t, ity[it],
			    rd, xrs(), rm);
		break;
	case 4:
		add(g, 'f', rd, "fcvt.s.d f%d, f%d, %s", rd, frg(), rm);
		break;
	case 5:
		add(g, 'f', rd, ".insn r 0x53, %u, 0x21, f%d, f%d, f0", rmn,
		    rd, frg());
		break;
	case 6:
		if (rn(2))
			add(g, 'x', xd, "fmv.x.%c x%d, f%d",
			    t == 'd' ? 'd' : 'w', xd, frg());
		else
			add(g, 'f', rd, "fmv.%c.x f%d, x%d",
			    t == 'd' ? 'd' : 'w', rd, xrs());
		break;
	default:
		gen_fcmp(g, t);
		break;
	}
}

static void gen_fmem(struct gen *g)
{
	int rd = frg(), w = rn(2), size = w ? 8 : 4;
	int off = rn(SCRATCH - size + 1);

	if (rn(2))
		add(g, 'f', rd, "fl%c f%d, %d(x31)", w ? 'd' : 'w', rd, off);
	else
		add(g, 0, 0, "fs%c f%d, %d(x31)", w ? 'd' : 'w', frg(), off);
}

/* FP sequences may change frm and fflags, but keep frm valid. */
static void gen_fcsr(struct gen *g)
{
	int rd = xrd();

	switch (rn(4)) {
	case 0:
		add(g, 'x', rd, "csrrwi x%d, frm, %d", rd, (int)rn(5));
		break;
	case 1:
		add(g, 'x', rd, "csrrwi x%d, fflags, %d", rd, (int)rn(32));
		break;
	case 2:
		add(g, 'x', rd, "csrrs x%d, fcsr, x0", rd);
		break;
	default:
		add(g, 'x', rd, "csrrci x%d, fflags, %d", rd, (int)rn(32));
		break;
	}
}

/* Groups */

struct group {
	const char *name;
	int cases;
	int len;
	bool fp;
	void (*insn)(struct gen *g);
	bool cross;	/* half the windows cross a page */
};

static void g_int(struct gen *g)
{
	if (rn(5))
		gen_alu(g);
	else
		gen_muldiv(g);
}

static void g_muldiv(struct gen *g)
{
	if (rn(4))
		gen_muldiv(g);
	else
		gen_alu(g);
}

static void g_mem(struct gen *g)
{
	switch (rn(6)) {
	case 0:
		gen_alu(g);
		break;
	case 1:
	case 2:
		gen_amo(g);
		break;
	default:
		gen_loadstore(g);
		break;
	}
}

static void g_branch(struct gen *g)
{
	if (rn(3))
		gen_alu(g);
	else
		gen_branch(g);
}

static void g_csr(struct gen *g)
{
	if (rn(3))
		gen_csr(g);
	else
		gen_alu(g);
}

static void g_fp_s(struct gen *g)
{
	switch (rn(8)) {
	case 0:
		gen_fcsr(g);
		break;
	case 1:
		gen_fmem(g);
		break;
	default:
		gen_fp_arith(g, 's');
		break;
	}
}

static void g_fp_d(struct gen *g)
{
	switch (rn(8)) {
	case 0:
		gen_fcsr(g);
		break;
	case 1:
		gen_fmem(g);
		break;
	default:
		gen_fp_arith(g, 'd');
		break;
	}
}

static void g_fma(struct gen *g)
{
	if (!rn(8))
		gen_fcsr(g);
	else
		gen_fma(g, rn(2) ? 'd' : 's');
}

static void g_fcvt(struct gen *g)
{
	if (!rn(10))
		gen_fcsr(g);
	else
		gen_fcvt(g);
}

static void g_fcmp(struct gen *g)
{
	gen_fcmp(g, rn(2) ? 'd' : 's');
}

/* Every single-precision operation on registers that may not be boxed. */
static void g_nanbox(struct gen *g)
{
	switch (rn(7)) {
	case 0:
		gen_fp_arith(g, 's');
		break;
	case 1:
		gen_fma(g, 's');
		break;
	case 2:
		gen_fcmp(g, 's');
		break;
	case 3:
		gen_fmem(g);
		break;
	case 4: {
		int rd = xrd(), fd = frg();

		if (rn(2))
			add(g, 'x', rd, "fmv.x.w x%d, f%d", rd, frg());
		else
			add(g, 'f', fd, "fmv.w.x f%d, x%d", fd, xrs());
		break;
	}
	case 5: {
		int fd = frg();

		add(g, 'f', fd, "fmv.d.x f%d, x%d", fd, xrs());
		break;
	}
	default:
		gen_fcvt(g);
		break;
	}
}

static const struct group groups[] = {
	{ "int", 3000, 48, false, g_int, false },
	{ "muldiv", 1500, 32, false, g_muldiv, false },
	{ "mem", 3000, 40, false, g_mem, true },
	{ "branch", 1500, 40, false, g_branch, false },
	{ "csr", 800, 24, false, g_csr, false },
	{ "fp_s", 3000, 32, true, g_fp_s, false },
	{ "fp_d", 3000, 32, true, g_fp_d, false },
	{ "fma", 2500, 24, true, g_fma, false },
	{ "fcvt", 3000, 32, true, g_fcvt, false },
	{ "fcmp", 1500, 32, true, g_fcmp, false },
	{ "nanbox", 2000, 32, true, g_nanbox, false },
};

static void seq_init(struct seq *s, bool fp)
{
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 1; i < 31; i++)
		s->init[i] = rand_int();
	for (i = 0; i < 32; i++)
		s->init[32 + i] = rand_freg();
	s->init[64] = (fp ? rn(5) : rn(8)) << 5 | rn(32);
	for (i = 0; i < SCRATCH; i++)
		s->mem[i] = rnd();
	if (fp) {	/* some FP values in memory */
		for (i = 0; i < SCRATCH / 8; i += 1 + rn(3)) {
			u64 v = rand_freg();

			memcpy(&s->mem[8 * i], &v, 8);
		}
	}
}

/*
 * Writes the program of @n sequences: sequence i is @seqs[i], cut after
 * its first @cut[i] instructions when @cut.
 */
/* Prints @r, its `@` replaced by the label of sequence @c it refers to. */
static void put_rec(FILE *f, const struct seq *s, int c, int k)
{
	const char *t = s->r[k].text, *at = strchr(t, '@');
	int lab = 0, j;

	if (!at) {
		fprintf(f, "\t%s\n", t);
		return;
	}
	for (j = 0; j < k; j++)
		lab += s->r[j].kind == 'L';
	fprintf(f, "%s%.*s.L%d_%d%s\n", s->r[k].kind == 'L' ? "" : "\t",
		(int)(at - t), t, c, lab, at + 1);
}

static void write_program(FILE *f, struct seq *seqs, int n, const int *cut)
{
	int c, i, k;

	fprintf(f, "\t.option norvc\n\t.text\n\t.globl _start\n_start:\n");
	for (c = 0; c < n; c++) {
		struct seq *s = &seqs[c];
		int insns = 0;

		if (s->cross)	/* the window's 256th byte starts a page */
			fprintf(f, "\t.data\n\t.balign 4096\n\t.zero %d\n",
				4096 - 256 - DUMP);
		else
			fprintf(f, "\t.data\n\t.balign 64\n");
		fprintf(f, ".Ld%d:\t.zero %d\n.Ls%d:\n", c, DUMP, c);
		for (i = 0; i < SCRATCH; i += 8) {
			u64 v;

			memcpy(&v, &s->mem[i], 8);
			fprintf(f, "\t.dword 0x%llx\n", (unsigned long long)v);
		}
		for (i = 0; i < 65; i++)
			fprintf(f, "\t.dword 0x%llx\n",
				(unsigned long long)s->init[i]);
		fprintf(f, "\t.text\n\tlla x31, .Ls%d\n", c);
		fprintf(f, "\tld x1, %d(x31)\n\tfscsr x1\n", INIT_FCSR);
		for (i = 0; i < 32; i++)
			fprintf(f, "\tfld f%d, %d(x31)\n", i, INIT_F + 8 * i);
		for (i = 1; i < 31; i++)
			fprintf(f, "\tld x%d, %d(x31)\n", i, INIT_X + 8 * i);
		for (k = 0; k < s->n; k++) {
			const struct rec *r = &s->r[k];

			/* labels are all kept, cut or not */
			if (r->kind != 'L') {
				if (cut && insns >= cut[c])
					continue;
				insns++;
			}
			put_rec(f, s, c, k);
		}
		for (i = 1; i < 31; i++)
			fprintf(f, "\tsd x%d, %d(x31)\n", i, -DUMP + 8 * i);
		for (i = 0; i < 32; i++)
			fprintf(f, "\tfsd f%d, %d(x31)\n", i, -DUMP + 256 + 8 * i);
		fprintf(f, "\tfrcsr x1\n\tsd x1, -8(x31)\n");
		fprintf(f, "\taddi a1, x31, %d\n\tli a0, 1\n\tli a2, %d\n"
			"\tli a7, 64\n\tecall\n", -DUMP, CHUNK);
	}
	fprintf(f, "\tli a0, 0\n\tli a7, 93\n\tecall\n");
}

static int sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (verbose)
		fprintf(stderr, "+ %s\n", cmd);
	rc = system(cmd);
	return rc;
}

/* Assembles and links @base.S into @base.elf. */
static int build(const char *base)
{
	if (sh("%s --target=riscv64-unknown-elf -march=rv64imafd -mabi=lp64d "
	       "-mno-relax -c %s.S -o %s.o 2>%s.log", clang, base, base, base))
		return -1;
	return sh("%s -static -nostdlib -e _start -Ttext=0x10000 %s.o -o %s.elf 2>>%s.log",
		  lld, base, base, base);
}

static u8 *run_qemu(const char *elf, size_t *len)
{
	char cmd[4096];
	size_t cap = 1 << 20, n;
	u8 *buf = malloc(cap);
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s %s", qemu, elf);
	p = popen(cmd, "r");
	*len = 0;
	if (!p)
		return buf;
	while ((n = fread(buf + *len, 1, cap - *len, p)) > 0) {
		*len += n;
		if (*len == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	pclose(p);
	return buf;
}

static u64 budget_call;

static u64 random_budget(u64 call)
{
	u64 h = (call + budget_call) * 0x9e3779b97f4a7c15ull;

	return 1 + ((h >> 32) % 3000);
}

static u8 *run_vaccel(const char *elf, size_t *len, char *err, size_t errlen)
{
	struct vaccel_rv_fault fault;
	struct vaccel_rv_hart h;
	struct rv_image img;
	u64 executed;
	int rc;

	*len = 0;
	if (rv_load_elf(elf, &img, 0)) {
		snprintf(err, errlen, "cannot load %s", elf);
		return NULL;
	}
	budget_call = rnd();
	rc = rv_env_run(&img, &h, random_budget, 0, &executed, &fault);
	if (rc) {
		snprintf(err, errlen,
			 "the interpreter stopped: status %d, cause %u at pc 0x%llx insn 0x%08x va 0x%llx",
			 rc, fault.cause, (unsigned long long)fault.pc, fault.insn,
			 (unsigned long long)fault.va);
	}
	free(img.mem);
	*len = img.out_len;
	return img.out;
}

/* The first difference of two chunks, described; false if none. */
static bool diff_chunk(const u8 *e, const u8 *g, char *msg, size_t len,
		       char *kind, int *reg)
{
	u64 a, b;
	int i;

	for (i = 0; i < CHUNK / 8; i++) {
		memcpy(&a, e + 8 * i, 8);
		memcpy(&b, g + 8 * i, 8);
		if (a == b)
			continue;
		if (i < 32) {
			snprintf(msg, len, "x%d expected 0x%016llx got 0x%016llx",
				 i, (unsigned long long)a, (unsigned long long)b);
			*kind = 'x';
			*reg = i;
		} else if (i < 64) {
			snprintf(msg, len, "f%d expected 0x%016llx got 0x%016llx",
				 i - 32, (unsigned long long)a,
				 (unsigned long long)b);
			*kind = 'f';
			*reg = i - 32;
		} else if (i == 64) {
			snprintf(msg, len, "fcsr expected 0x%02llx got 0x%02llx",
				 (unsigned long long)a, (unsigned long long)b);
			*kind = 'c';
			*reg = 0;
		} else {
			snprintf(msg, len,
				 "memory +%d expected 0x%016llx got 0x%016llx",
				 8 * (i - 65), (unsigned long long)a,
				 (unsigned long long)b);
			*kind = 'm';
			*reg = 0;
		}
		return true;
	}
	return false;
}

static int count_insns(const struct seq *s)
{
	int k, n = 0;

	for (k = 0; k < s->n; k++)
		n += s->r[k].kind != 'L';
	return n;
}

/* The branch or jump whose skipped instructions include the i-th, if any. */
static const struct rec *shadow_of(const struct seq *s, int i)
{
	const struct rec *open = NULL;
	int k;

	for (k = 0; k < s->n && i >= 0; k++) {
		if (s->r[k].kind == 'L') {
			open = NULL;
			continue;
		}
		if (i-- == 0)
			break;
		if (strchr(s->r[k].text, '@'))
			open = &s->r[k];
	}
	return open;
}

static const struct rec *nth_insn(const struct seq *s, int i)
{
	int k;

	for (k = 0; k < s->n; k++)
		if (s->r[k].kind != 'L' && i-- == 0)
			return &s->r[k];
	return NULL;
}

/*
 * Runs every prefix of @s on both sides to find the first instruction whose
 * result differs.  Fills @msg.
 */
static void bisect(const char *dir, const char *name, int idx, struct seq *s,
		   char *msg, size_t len)
{
	int n = count_insns(s), i;
	struct seq *copies = calloc(n + 1, sizeof(*copies));
	int *cut = calloc(n + 1, sizeof(*cut));
	char base[1024], elf[1100], err[512], what[256], kind;
	size_t elen, glen;
	u8 *e, *g;
	FILE *f;
	int reg;

	for (i = 0; i <= n; i++) {
		copies[i] = *s;
		cut[i] = i;
	}
	snprintf(base, sizeof(base), "%s/rv_%s_bisect", dir, name);
	snprintf(elf, sizeof(elf), "%s.S", base);
	f = fopen(elf, "w");
	write_program(f, copies, n + 1, cut);
	fclose(f);
	if (build(base)) {
		snprintf(msg, len, "sequence %d: the bisection did not build",
			 idx);
		goto out;
	}
	snprintf(elf, sizeof(elf), "%s.elf", base);
	e = run_qemu(elf, &elen);
	g = run_vaccel(elf, &glen, err, sizeof(err));
	for (i = 0; i <= n; i++) {
		if ((size_t)(i + 1) * CHUNK > elen ||
		    (size_t)(i + 1) * CHUNK > glen) {
			snprintf(msg, len,
				 "sequence %d, instruction %d `%s`: one side stopped (qemu %zu bytes, vaccel %zu bytes) %s",
				 idx, i, i ? nth_insn(s, i - 1)->text : "",
				 elen, glen, err);
			break;
		}
		if (diff_chunk(e + i * CHUNK, g + i * CHUNK, what,
			       sizeof(what), &kind, &reg)) {
			const struct rec *br = i ? shadow_of(s, i - 1) : NULL;
			char after[160] = "";

			if (br) {
				const char *at = strchr(br->text, '@');

				snprintf(after, sizeof(after),
					 " (after the branch `%.*s.Lskip%s`)",
					 (int)(at - br->text), br->text, at + 1);
			}
			snprintf(msg, len, "sequence %d, instruction %d `%s`%s: %s",
				 idx, i - 1,
				 i ? nth_insn(s, i - 1)->text : "(the harness's loads)",
				 after, what);
			break;
		}
	}
	if (i > n)
		snprintf(msg, len,
			 "sequence %d differs, but none of its prefixes does",
			 idx);
	free(e);
	free(g);
out:
	if (!keep)
		sh("rm -f %s.S %s.o %s.elf %s.log", base, base, base, base);
	free(copies);
	free(cut);
}

static bool run_group(const char *dir, const struct group *gr, int scale)
{
	int n = gr->cases * scale / 100, c, i, bad = -1;
	struct seq *seqs = calloc(n, sizeof(*seqs));
	char base[1024], elf[1100], err[512] = "", msg[1024], what[256];
	size_t elen, glen;
	struct gen g;
	u8 *e, *got;
	char kind;
	FILE *f;
	int reg;

	if (n < 1)
		n = 1;
	memset(&g, 0, sizeof(g));
	for (c = 0; c < n; c++) {
		seq_init(&seqs[c], gr->fp);
		seqs[c].cross = gr->cross && c % 2;
		g.cur = &seqs[c];
		g.fp = gr->fp;
		for (i = 0; i < gr->len; i++)
			gr->insn(&g);
	}
	snprintf(base, sizeof(base), "%s/rv_%s", dir, gr->name);
	snprintf(elf, sizeof(elf), "%s.S", base);
	f = fopen(elf, "w");
	if (!f) {
		printf("not ok isa.rv_%s: cannot write %s\n", gr->name, elf);
		return false;
	}
	write_program(f, seqs, n, NULL);
	fclose(f);
	if (build(base)) {
		printf("not ok isa.rv_%s: %s.S does not build\n", gr->name,
		       base);
		return false;
	}
	snprintf(elf, sizeof(elf), "%s.elf", base);
	e = run_qemu(elf, &elen);
	got = run_vaccel(elf, &glen, err, sizeof(err));
	if (elen != (size_t)n * CHUNK) {
		printf("not ok isa.rv_%s: qemu wrote %zu bytes, not %zu\n",
		       gr->name, elen, (size_t)n * CHUNK);
		return false;
	}
	for (c = 0; c < n; c++) {
		if ((size_t)(c + 1) * CHUNK > glen ||
		    diff_chunk(e + c * CHUNK, got + c * CHUNK, what,
			       sizeof(what), &kind, &reg)) {
			bad = c;
			break;
		}
	}
	if (bad >= 0) {
		bisect(dir, gr->name, bad, &seqs[bad], msg, sizeof(msg));
		printf("not ok isa.rv_%s: %s\n", gr->name, msg);
	} else {
		printf("ok isa.rv_%s: %d sequences, %d instructions\n",
		       gr->name, n, n * gr->len);
	}
	if (!keep)
		sh("rm -f %s.S %s.o %s.elf %s.log", base, base, base, base);
	for (c = 0; c < n; c++)
		free(seqs[c].r);
	free(seqs);
	free(e);
	free(got);
	return bad < 0;
}

int main(int argc, char **argv)
{
	u64 seed = 0x5eed0f7a11ull;
	int scale = 100, opt, i, failed = 0, ran = 0;
	const char *dir = NULL;

	while ((opt = getopt(argc, argv, "s:n:o:kv")) != -1) {
		switch (opt) {
		case 'o':
			dir = optarg;
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			scale = atoi(optarg);
			break;
		case 'k':
			keep = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			dir = NULL;
			break;
		}
	}
	if (!dir) {
		fprintf(stderr, "usage: %s [-s seed] [-n scale%%] [-k] [-v] -o builddir [group...]\n",
			argv[0]);
		return 2;
	}
	if (getenv("CLANG"))
		clang = getenv("CLANG");
	if (getenv("LLD"))
		lld = getenv("LLD");
	if (getenv("QEMU"))
		qemu = getenv("QEMU");

	for (i = 0; i < (int)ARRAY_LEN(groups); i++) {
		int a;
		bool want = optind >= argc;

		for (a = optind; a < argc; a++)
			want |= !strcmp(argv[a], groups[i].name);
		if (!want)
			continue;
		/* Each group has its own stream: they do not shift. */
		rng = seed * 0x9e3779b97f4a7c15ull + i + 1;
		rnd();
		ran++;
		failed += !run_group(dir, &groups[i], scale);
	}
	if (!ran) {
		fprintf(stderr, "no such group\n");
		return 2;
	}
	return failed ? 1 : 0;
}
