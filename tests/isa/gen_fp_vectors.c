// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * Generates tests/kunit/vaccel_softfloat_vectors.h, the reference vectors
 * of the soft-float KUnit suite: an RV64 program, run under qemu-riscv64,
 * which runs curated edge cases (and a few random ones from a fixed seed)
 * on the real F and D instructions, every rounding mode, and prints the
 * results and fflags as C initializers.
 *
 *   tests/isa/run-fp.sh --regen
 *
 * The edge operands are written once for both formats, relative to the
 * format's landmarks (zero, one, the smallest normal, the largest binade,
 * infinity), so binary32 and binary64 get the same cases.
 */
#include <stddef.h>

#include "fp_oracle.h"

/* Where an operand is anchored: its value is 2^(anchor + k) ... */
enum {
	A_ZERO,		/* 0 */
	A_ONE,		/* 2^k */
	A_EMIN,		/* 2^(emin + k), emin the exponent of the smallest normal */
	A_EMAX,		/* 2^(emax + k), emax the exponent of the largest binade */
	A_ULP,		/* 2^(k - mbits), k = 0 the ulp of 1 */
	A_MAXULP,	/* 2^(emax + k - mbits), k = 0 the ulp of the largest */
	A_INF,		/* infinity */
};

/*
 * An operand: the float 2^(anchor + k) * 1.m (m the first 8 fraction
 * bits), whose bit pattern is then moved by delta (so +1 is the next float
 * up in magnitude, -1 the one below), and negated if neg.  From A_ZERO,
 * delta counts the smallest subnormals; from A_INF, m = 0x80 is the
 * canonical quiet NaN and delta = 1 a signalling NaN.
 */
struct opnd {
	signed char anchor;
	short k;
	unsigned char m;
	int delta;
	unsigned char neg;
};

#define O(anchor, k, m, delta, neg) { anchor, k, m, delta, neg }

#define ZERO	O(A_ZERO, 0, 0, 0, 0)
#define NZERO	O(A_ZERO, 0, 0, 0, 1)
#define MINSUB	O(A_ZERO, 0, 0, 1, 0)
#define NMINSUB	O(A_ZERO, 0, 0, 1, 1)
#define MAXSUB	O(A_EMIN, 0, 0, -1, 0)
#define NMAXSUB	O(A_EMIN, 0, 0, -1, 1)
#define MINNORM	O(A_EMIN, 0, 0, 0, 0)
#define NMINNORM O(A_EMIN, 0, 0, 0, 1)
#define MAXF	O(A_INF, 0, 0, -1, 0)
#define NMAXF	O(A_INF, 0, 0, -1, 1)
#define INF	O(A_INF, 0, 0, 0, 0)
#define NINF	O(A_INF, 0, 0, 0, 1)
#define QNAN	O(A_INF, 0, 0x80, 0, 0)
#define NQNAN	O(A_INF, 0, 0x80, 0x1234, 1)	/* negative, with a payload */
#define SNAN	O(A_INF, 0, 0, 1, 0)
#define NSNAN	O(A_INF, 0, 0x40, 0, 1)	/* negative, with a payload */
#define ONE	O(A_ONE, 0, 0, 0, 0)
#define NONE	O(A_ONE, 0, 0, 0, 1)
#define ONEUP	O(A_ONE, 0, 0, 1, 0)	/* 1 + ulp */
#define ONEDN	O(A_ONE, 0, 0, -1, 0)	/* 1 - ulp / 2 */
#define P2(k)	O(A_ONE, k, 0, 0, 0)
#define NP2(k)	O(A_ONE, k, 0, 0, 1)
#define ULP(k)	O(A_ULP, k, 0, 0, 0)	/* 2^k ulps of 1 */
#define NULP(k)	O(A_ULP, k, 0, 0, 1)
#define V(k, m)	O(A_ONE, k, m, 0, 0)	/* 2^k * 1.m */
#define NV(k, m) O(A_ONE, k, m, 0, 1)

static uint64_t opnd_bits(int dbl, const struct opnd *o)
{
	int64_t mbits = FP_MBITS(dbl), bias = FP_BIAS(dbl), e;
	uint64_t sig, bits = 0;

	switch (o->anchor) {
	case A_ZERO:
		bits = 0;
		break;
	case A_INF:
		bits = fp_pack(dbl, 0, FP_EMAX(dbl), (uint64_t)o->m << (mbits - 8));
		break;
	default:
		e = o->k;
		if (o->anchor == A_EMIN)
			e += 1 - bias;
		else if (o->anchor == A_EMAX)
			e += bias;
		else if (o->anchor == A_ULP)
			e -= mbits;
		else if (o->anchor == A_MAXULP)
			e += bias - mbits;
		sig = (1ull << mbits) | ((uint64_t)o->m << (mbits - 8));
		if (e + bias >= 1)
			bits = fp_pack(dbl, 0, (uint64_t)(e + bias), sig);
		else if (e + bias > -mbits)
			bits = sig >> (1 - (e + bias));
		else
			fp_sys_exit(5);
		break;
	}
	bits += (uint64_t)(int64_t)o->delta;
	return o->neg ? bits | FP_SIGN(dbl) : bits;
}

/* Cases of one or more operands; unused operands are ZERO. */
struct vcase {
	struct opnd a, b, c;
};

#define C1(a)		{ a, ZERO, ZERO }
#define C2(a, b)	{ a, b, ZERO }
#define C3(a, b, c)	{ a, b, c }

/* Crossed with each other in RNE: every class against every class. */
static const struct opnd arith_cross[] = {
	ZERO, NZERO, ONE, MINSUB, INF, NINF, QNAN, SNAN,
};

static const struct opnd cmp_cross[] = {
	ZERO, NZERO, ONE, ONEUP, NONE, NINF, QNAN, SNAN,
};

/* Every rounding mode. */
static const struct vcase add_cases[] = {
	C2(ONE, ULP(-1)),		/* a tie, to the even 1 */
	C2(ONEUP, ULP(-1)),		/* a tie, to the even 1 + 2 ulp */
	C2(ONE, ULP(-2)),		/* below half */
	C2(ONE, O(A_ULP, -1, 0, 1, 0)),	/* above half */
	C2(ONE, NULP(-2)),		/* 1 - ulp/4: a tie below 1 */
	C2(NONE, MINSUB),		/* sticky only */
	C2(ONE, MINSUB),
	C2(MAXF, MAXF),			/* overflow */
	C2(NMAXF, NMAXF),
	C2(MAXF, O(A_MAXULP, -1, 0, 0, 0)),	/* a tie, odd: overflows */
	C2(MAXF, O(A_MAXULP, -2, 0, 0, 0)),	/* below half */
	C2(ONE, NONE),			/* exact zero: -0 in RDN only */
	C2(NZERO, ZERO),
	C2(NZERO, NZERO),
	C2(MINNORM, NMINSUB),		/* exact subnormal: no UF */
	C2(MINSUB, MINSUB),
	C2(ONEUP, NONE),		/* exact cancellation */
	C2(O(A_ONE, 3, 0x55, 12345, 0), O(A_ONE, -7, 0xa5, 4321, 1)),
	C2(NMAXSUB, NMINNORM),
};

static const struct vcase mul_cases[] = {
	C2(V(0, 0x80), V(0, 0x80)),	/* exact: 2.25 */
	C2(ONEUP, ONEUP),		/* 1 + 2 ulp + ulp^2 */
	C2(ONEDN, ONEUP),
	C2(MAXF, P2(1)),		/* overflow */
	C2(MAXF, ONEUP),		/* overflow by rounding */
	C2(NMAXF, P2(1)),
	C2(O(A_EMAX, 0, 0, 0, 0), P2(1)),	/* exactly 2^(emax + 1) */
	C2(MINNORM, P2(-1)),		/* exact subnormal: no UF */
	C2(O(A_EMIN, 0, 0, 1, 0), P2(-1)),	/* subnormal tie: UF */
	/* 2^emin (1 - ulp^2): tiny only if rounded to 2^emin - ulp/2 */
	C2(O(A_ONE, 0, 0, -2, 0), O(A_EMIN, 0, 0, 1, 0)),
	C2(MINSUB, P2(-1)),		/* a tie at zero */
	C2(MINSUB, NP2(-1)),
	C2(MINSUB, MINSUB),		/* total underflow */
	C2(MAXSUB, P2(1)),		/* subnormal to normal, exact */
	C2(V(1, 0x80), O(A_ONE, -2, 0x55, 0x5555, 0)),	/* 3 * 0.333 */
	C2(O(A_ONE, -10, 0x12, 777, 0), O(A_ONE, -5, 0x33, 999, 1)),
};

static const struct vcase div_cases[] = {
	C2(ONE, V(1, 0x80)),		/* 1/3 */
	C2(NONE, V(1, 0x80)),
	C2(ONE, ZERO),			/* DZ */
	C2(NONE, ZERO),
	C2(ONE, NZERO),
	C2(MAXF, P2(-1)),		/* overflow */
	C2(O(A_EMAX, 0, 0, 0, 0), P2(-1)),	/* exactly 2^(emax + 1) */
	C2(MINNORM, P2(1)),		/* exact subnormal */
	C2(MINNORM, V(1, 0x80)),	/* inexact subnormal */
	C2(ONE, MAXF),			/* below the normals */
	C2(MINSUB, P2(1)),		/* a tie at zero */
	C2(V(3, 0x20), V(1, 0x80)),	/* 9 / 3 */
	C2(P2(1), ONEDN),
	C2(MINNORM, ONEUP),		/* tiny, just below 2^emin */
	C2(MAXSUB, MAXF),
	C2(ONE, V(3, 0x40)),		/* 1/10 */
};

static const struct vcase sqrt_cases[] = {
	C1(P2(1)), C1(V(1, 0x80)), C1(P2(2)), C1(P2(-1)), C1(MINSUB),
	C1(MAXSUB), C1(MINNORM), C1(MAXF), C1(ONEUP), C1(ONEDN),
	C1(V(0, 0x80)), C1(O(A_ZERO, 0, 0, 2, 0)),
};

/* RNE only: specials. */
static const struct vcase sqrt_specials[] = {
	C1(ZERO), C1(NZERO), C1(NONE), C1(INF), C1(NINF), C1(QNAN), C1(SNAN),
	C1(NMINSUB), C1(NQNAN), C1(ONE),
};

static const struct vcase fma_specials[] = {
	C3(INF, ZERO, QNAN),		/* NV even with a quiet NaN addend */
	C3(ZERO, NINF, QNAN),
	C3(INF, ZERO, ONE),
	C3(QNAN, ONE, ONE),
	C3(ONE, ONE, SNAN),
	C3(SNAN, ZERO, ONE),
	C3(ONE, QNAN, SNAN),
	C3(INF, ONE, NINF),		/* inf - inf */
	C3(INF, ONE, INF),
	C3(ONE, ONE, NINF),
	C3(MAXF, MAXF, NINF),		/* no overflow: the infinity wins */
	C3(ZERO, ONE, QNAN),
	C3(ZERO, INF, ONE),
};

static const struct vcase fma_cases[] = {
	C3(ZERO, ONE, NZERO),		/* zero signs */
	C3(NZERO, ONE, NZERO),
	C3(NZERO, ONE, ZERO),
	C3(ONE, ONE, NONE),		/* exact zero */
	C3(ONEUP, ONEDN, NONE),		/* fused: ulp/2 - ulp^2/2, exact */
	C3(ONEUP, ONEUP, O(A_ONE, 0, 0, 2, 1)),	/* exactly ulp^2 */
	C3(ONE, ONE, ULP(-1)),		/* a tie */
	C3(ONEUP, ONEUP, MINSUB),
	C3(MAXF, P2(1), NMAXF),		/* no intermediate overflow */
	C3(MAXF, MAXF, NMAXF),		/* overflow */
	C3(MINNORM, P2(-1), MINSUB),	/* exact subnormal */
	C3(MINSUB, P2(-1), ZERO),	/* tie at zero */
	C3(MINSUB, NP2(-1), ZERO),
	C3(MINSUB, P2(-1), NZERO),
	C3(V(1, 0x80), O(A_ONE, -2, 0x55, 0x5555, 0), NONE),	/* 3 * 0.333 - 1 */
	C3(P2(-20), P2(-20), ONE),	/* a tiny product, sticky */
};

/* For FMSUB, FNMSUB, FNMADD: the same cases, fewer. */
static const struct vcase fma_small_cases[] = {
	C3(ONE, ONE, ONE),
	C3(ZERO, ONE, ZERO),
	C3(NZERO, ONE, ZERO),
	C3(ONEUP, ONEUP, O(A_ONE, 0, 0, 2, 0)),
	C3(ONE, ONE, ULP(-1)),
	C3(MAXF, P2(1), MAXF),
	C3(MINSUB, P2(-1), ZERO),
	C3(V(1, 0x80), O(A_ONE, -2, 0x55, 0x5555, 0), ONE),
};

static const struct vcase fma_small_specials[] = {
	C3(INF, ZERO, QNAN),
	C3(INF, ONE, INF),
	C3(NINF, ONE, INF),
	C3(ONE, SNAN, ONE),
	C3(QNAN, ONE, ONE),
};

/* RNE only, on top of cmp_cross crossed. */
static const struct vcase cmp_extra[] = {
	C2(MAXF, INF), C2(MINSUB, ZERO), C2(NMINSUB, NZERO), C2(NQNAN, ONE),
	C2(ONE, NSNAN), C2(NMAXF, NINF), C2(MAXSUB, MINNORM), C2(ONE, ONE),
	C2(NONE, NONE), C2(QNAN, QNAN),
};

static const struct vcase class_cases[] = {
	C1(ZERO), C1(NZERO), C1(MINSUB), C1(NMINSUB), C1(MAXSUB), C1(NMAXSUB),
	C1(MINNORM), C1(NMINNORM), C1(MAXF), C1(NMAXF), C1(INF), C1(NINF),
	C1(QNAN), C1(NQNAN), C1(SNAN), C1(NSNAN), C1(ONE), C1(NONE),
};

/* To integers: every mode. */
static const struct vcase toint_cases[] = {
	C1(NZERO), C1(P2(-1)), C1(NP2(-1)), C1(V(0, 0x80)), C1(V(1, 0x40)),
	C1(NV(1, 0x40)), C1(NV(-1, 0x80)), C1(MINSUB), C1(NMINSUB), C1(NONE),
	C1(ONEUP), C1(MAXF),
};

static const struct vcase toint_specials[] = {
	C1(ZERO), C1(INF), C1(NINF), C1(QNAN), C1(SNAN), C1(NQNAN),
};

static const struct vcase toint32_cases[] = {
	C1(O(A_ONE, 31, 0, -1, 0)),	/* just below 2^31 */
	C1(P2(31)), C1(NP2(31)),
	C1(O(A_ONE, 31, 0, 1, 1)),	/* just below -2^31 */
	C1(O(A_ONE, 32, 0, -1, 0)),
	C1(P2(32)),
	C1(O(A_ONE, 31, 0, -1, 1)),	/* just above -2^31 */
};

static const struct vcase toint64_cases[] = {
	C1(O(A_ONE, 63, 0, -1, 0)), C1(P2(63)), C1(NP2(63)),
	C1(O(A_ONE, 63, 0, 1, 1)), C1(O(A_ONE, 64, 0, -1, 0)), C1(P2(64)),
	C1(O(A_ONE, 63, 0, -1, 1)),
};

static const struct vcase f64_to_f32_cases[] = {
	C1(O(A_ONE, 0, 0, 1 << 28, 0)),	/* a tie at binary32 precision */
	C1(O(A_ONE, 0, 0, 3 << 28, 0)),	/* a tie, odd */
	C1(O(A_ONE, 0, 0, (1 << 28) + 1, 1)),
	C1(O(A_ONE, 128, 0, -1, 0)),	/* above the binary32 max: OF */
	C1(O(A_ONE, 128, 0, -(1 << 28), 0)),	/* the tie above max */
	C1(O(A_ONE, 128, 0, -(1 << 28) - 1, 1)),
	C1(O(A_ONE, -126, 0, -(1 << 28), 0)),	/* not tiny after rounding */
	C1(O(A_ONE, -126, 0, -(1 << 29), 0)),	/* tiny: a subnormal tie */
	C1(O(A_ONE, -127, 0, 1, 0)),	/* tiny, inexact */
	C1(P2(-149)),			/* the smallest subnormal */
	C1(P2(-150)),			/* the tie at zero */
	C1(O(A_ONE, -150, 0, 1, 1)),
	C1(P2(-200)),
	C1(MINSUB), C1(MAXF), C1(NMAXF),
};

static const struct vcase cvt_specials[] = {
	C1(ZERO), C1(NZERO), C1(INF), C1(NINF), C1(QNAN), C1(NQNAN), C1(SNAN),
	C1(NSNAN), C1(ONE), C1(MINSUB), C1(MAXF),
};

/* Integers: every mode. */
static const int64_t int32_cases[] = {
	0, 1, -1, 0x7fffffff, -0x7fffffff - 1, 0x01000001, -0x01000001,
	0x01000003, 0x7fffffc0, 0x7fffffbf, 0x12345678, -0x76543210,
};

static const uint64_t int64_cases[] = {
	0, 1, ~0ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
	0x0020000000000001ull, 0xffdfffffffffffffull, 0x0020000000000003ull,
	0x0000000001000001ull, 0x7ffffe8000000000ull, 0x123456789abcdef0ull,
	0xfedcba9876543210ull, 0x0000000080000001ull,
};

/* A line being built, printed wrapped at 100 columns. */
static char line[256];
static unsigned int line_len;

static void lput(const char *s)
{
	while (*s && line_len < sizeof(line) - 1)
		line[line_len++] = *s++;
}

static void lhex(uint64_t x, int digits)
{
	lput("0x");
	while (digits--)
		line[line_len++] = "0123456789abcdef"[(x >> (4 * digits)) & 15];
}

/* A value in full width for readability; 0 for unused operands. */
static void lvalue(uint64_t x, int digits)
{
	if (x)
		lhex(x, digits);
	else
		lput("0");
}

static unsigned long nr_vectors, nr_op_vectors;

static void emit(unsigned int op, unsigned int rm, const struct fp_case *k)
{
	const struct fp_op_info *info = &fp_ops[op];
	int width = info->dbl ? 16 : 8, rwidth;
	unsigned int split, i;
	uint64_t flags, r;

	/* The source of integer conversions is an integer register. */
	if (info->kind == FP_K_FROMI32 || info->kind == FP_K_FROMI64)
		width = 16;
	rwidth = fp_result_mask(op) >> 32 ? 16 : 8;
	r = fp_exec(op, rm, k, &flags);

	line_len = 0;
	lput("\tSF_V(");
	lput(fp_rm_names[rm]);
	lput(", ");
	lvalue(k->a, width);
	lput(", ");
	lvalue(k->b, width);
	lput(", ");
	lvalue(k->c, width);
	lput(",");
	split = line_len;
	lput(" ");
	lvalue(r, rwidth);
	lput(", ");
	lhex(flags, 2);
	lput("),\n");
	line[line_len] = 0;
	if (line_len - 1 + 7 > 100) {	/* the tab is 8 columns */
		for (i = 0; i < split; i++)
			fp_put(&line[i], 1);
		fp_puts("\n\t     ");
		fp_puts(line + split + 1);
	} else {
		fp_puts(line);
	}
	nr_vectors++;
	nr_op_vectors++;
}

static void emit_opnds(unsigned int op, unsigned int rm, const struct opnd *a,
		       const struct opnd *b, const struct opnd *c)
{
	int dbl = fp_ops[op].dbl;
	struct fp_case k;

	k.a = opnd_bits(dbl, a);
	k.b = b ? opnd_bits(dbl, b) : 0;
	k.c = c ? opnd_bits(dbl, c) : 0;
	/* FSUB gets the FADD cases: a + b is a - (-b). */
	if (op == FP_F32_SUB || op == FP_F64_SUB)
		k.b ^= FP_SIGN(dbl);
	emit(op, rm, &k);
}

static unsigned int nr_args(unsigned int op)
{
	switch (fp_ops[op].kind) {
	case FP_K_BIN:
		return 2;
	case FP_K_FMA:
		return 3;
	default:
		return 1;
	}
}

/* Each case in RNE only (specials), or in every mode of the operation. */
static void emit_cases(unsigned int op, const struct vcase *v,
		       unsigned long n, int all_modes)
{
	unsigned int nrm = all_modes && fp_ops[op].has_rm ? 5 : 1, rm, args;
	unsigned long i;

	args = nr_args(op);
	for (i = 0; i < n; i++)
		for (rm = 0; rm < nrm; rm++)
			emit_opnds(op, rm, &v[i].a, args > 1 ? &v[i].b : NULL,
				   args > 2 ? &v[i].c : NULL);
}

#define EMIT(op, v, all) emit_cases(op, v, sizeof(v) / sizeof(v[0]), all)

static void emit_cross(unsigned int op, const struct opnd *v, unsigned long n)
{
	unsigned long i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			emit_opnds(op, 0, &v[i], &v[j], NULL);
}

static void emit_ints(unsigned int op, const uint64_t *v, unsigned long n)
{
	struct fp_case k = { 0, 0, 0 };
	unsigned long i;
	unsigned int rm;

	for (i = 0; i < n; i++) {
		k.a = v[i];
		for (rm = 0; rm < 5; rm++)
			emit(op, rm, &k);
	}
}

/* A few random cases per mode, from a fixed seed. */
static void emit_random(unsigned int op)
{
	unsigned int rm;
	struct fp_case k;
	uint64_t s;

	for (rm = 0; rm < (fp_ops[op].has_rm ? 5u : 1u); rm++) {
		s = fp_stream(20260101, op, rm);
		fp_make_case(&s, op, &k);
		emit(op, rm, &k);
	}
}

static void emit_op(unsigned int op)
{
	uint64_t ints[16];
	unsigned int i;

	switch (op) {
	case FP_F32_ADD:
	case FP_F32_SUB:
	case FP_F64_ADD:
	case FP_F64_SUB:
		emit_cross(op, arith_cross, sizeof(arith_cross) / sizeof(arith_cross[0]));
		EMIT(op, add_cases, 1);
		break;
	case FP_F32_MUL:
	case FP_F64_MUL:
		emit_cross(op, arith_cross, sizeof(arith_cross) / sizeof(arith_cross[0]));
		EMIT(op, mul_cases, 1);
		break;
	case FP_F32_DIV:
	case FP_F64_DIV:
		emit_cross(op, arith_cross, sizeof(arith_cross) / sizeof(arith_cross[0]));
		EMIT(op, div_cases, 1);
		break;
	case FP_F32_SQRT:
	case FP_F64_SQRT:
		EMIT(op, sqrt_specials, 0);
		EMIT(op, sqrt_cases, 1);
		break;
	case FP_F32_FMADD:
	case FP_F64_FMADD:
		EMIT(op, fma_specials, 0);
		EMIT(op, fma_cases, 1);
		break;
	case FP_F32_FMSUB:
	case FP_F32_FNMSUB:
	case FP_F32_FNMADD:
	case FP_F64_FMSUB:
	case FP_F64_FNMSUB:
	case FP_F64_FNMADD:
		EMIT(op, fma_small_specials, 0);
		EMIT(op, fma_small_cases, 1);
		break;
	case FP_F32_MIN:
	case FP_F32_MAX:
	case FP_F32_EQ:
	case FP_F32_LT:
	case FP_F32_LE:
	case FP_F64_MIN:
	case FP_F64_MAX:
	case FP_F64_EQ:
	case FP_F64_LT:
	case FP_F64_LE:
		emit_cross(op, cmp_cross, sizeof(cmp_cross) / sizeof(cmp_cross[0]));
		EMIT(op, cmp_extra, 0);
		break;
	case FP_F32_CLASSIFY:
	case FP_F64_CLASSIFY:
		EMIT(op, class_cases, 0);
		break;
	case FP_F32_TO_I32:
	case FP_F32_TO_U32:
	case FP_F64_TO_I32:
	case FP_F64_TO_U32:
		EMIT(op, toint_specials, 0);
		EMIT(op, toint_cases, 1);
		EMIT(op, toint32_cases, 1);
		break;
	case FP_F32_TO_I64:
	case FP_F32_TO_U64:
	case FP_F64_TO_I64:
	case FP_F64_TO_U64:
		EMIT(op, toint_specials, 0);
		EMIT(op, toint_cases, 1);
		EMIT(op, toint64_cases, 1);
		break;
	case FP_I32_TO_F32:
	case FP_U32_TO_F32:
	case FP_I32_TO_F64:
	case FP_U32_TO_F64:
		for (i = 0; i < sizeof(int32_cases) / sizeof(int32_cases[0]); i++)
			ints[i] = (uint64_t)int32_cases[i];
		emit_ints(op, ints, i);
		break;
	case FP_I64_TO_F32:
	case FP_U64_TO_F32:
	case FP_I64_TO_F64:
	case FP_U64_TO_F64:
		emit_ints(op, int64_cases,
			  sizeof(int64_cases) / sizeof(int64_cases[0]));
		break;
	case FP_F32_TO_F64:
		EMIT(op, cvt_specials, 0);
		EMIT(op, class_cases, 0);
		break;
	case FP_F64_TO_F32:
		EMIT(op, cvt_specials, 0);
		EMIT(op, f64_to_f32_cases, 1);
		break;
	}
	emit_random(op);
}

static void lower(char *dst, const char *src)
{
	for (; *src; src++)
		*dst++ = *src >= 'A' && *src <= 'Z' ? (char)(*src - 'A' + 'a') : *src;
	*dst = 0;
}

static const char header[] =
"/* SPDX-License-Identifier: GPL-2.0-only */\n"
"/*\n"
" * Copyright 2026 The vaccel authors\n"
" *\n"
" * Reference vectors of the vaccel_softfloat KUnit suite.\n"
" *\n"
" * GENERATED, do not edit: tests/isa/gen_fp_vectors.c runs each case on the\n"
" * real RV64 F or D instruction under qemu-riscv64, with frm set to the\n"
" * rounding mode, and prints the result and fflags it gives.  Regenerate\n"
" * with `tests/isa/run-fp.sh --regen`; run-fp.sh fails when this file is not\n"
" * what the generator prints.\n"
" *\n"
" * The cases are curated edge cases (signed zeros, subnormal operands and\n"
" * results, ties, overflow, tininess after rounding, NaNs and invalid\n"
" * operations, conversion limits), some crossed with each other in RNE,\n"
" * most in every rounding mode, then one random case per mode.\n"
" *\n"
" * SF_V(rounding mode, a, b, c, expected result, expected fflags): unused\n"
" * operands are 0; 32-bit integer operands are sign-extended, as in the\n"
" * registers; binary32 and 32-bit integer results are their 32 bits.\n"
" * fflags: NV 0x10, DZ 0x08, OF 0x04, UF 0x02, NX 0x01.  FMSUB, FNMSUB and\n"
" * FNMADD are vaccel_f*_fma() with c, a, or both negated.\n"
" */\n"
"#ifndef __VACCEL_SOFTFLOAT_VECTORS_H__\n"
"#define __VACCEL_SOFTFLOAT_VECTORS_H__\n"
"\n";

static const char types[] =
"struct vaccel_sf_vector {\n"
"\tu64 a, b, c;\n"
"\tu64 result;\n"
"\tu8 rm;\n"
"\tu8 flags;\n"
"};\n"
"\n"
"struct vaccel_sf_op_vectors {\n"
"\tconst char *name;\n"
"\tenum vaccel_sf_op op;\n"
"\tconst struct vaccel_sf_vector *vectors;\n"
"\tunsigned int count;\n"
"};\n"
"\n"
"#define SF_V(rm, a, b, c, result, flags) \\\n"
"\t{ a, b, c, result, VACCEL_RM_##rm, flags }\n";

int main(void)
{
	char name[32];
	unsigned int op;

	fp_puts(header);
	fp_puts("enum vaccel_sf_op {\n");
	for (op = 0; op < FP_NR_OPS; op++) {
		fp_puts("\tVACCEL_SF_");
		fp_puts(fp_ops[op].ename);
		fp_puts(",\n");
	}
	fp_puts("\tVACCEL_SF_NR_OPS\n};\n\n");
	fp_puts(types);

	for (op = 0; op < FP_NR_OPS; op++) {
		lower(name, fp_ops[op].ename);
		fp_puts("\nstatic const struct vaccel_sf_vector vaccel_sf_");
		fp_puts(name);
		fp_puts("[] = {\n");
		nr_op_vectors = 0;
		emit_op(op);
		fp_puts("};\n");
	}

	fp_puts("\n/* ");
	fp_put_dec(nr_vectors);
	fp_puts(" vectors in all. */\n");
	fp_puts("static const struct vaccel_sf_op_vectors vaccel_sf_all_vectors[] = {\n");
	for (op = 0; op < FP_NR_OPS; op++) {
		lower(name, fp_ops[op].ename);
		fp_puts("\t{ \"");
		fp_puts(name);
		fp_puts("\", VACCEL_SF_");
		fp_puts(fp_ops[op].ename);
		fp_puts(", vaccel_sf_");
		fp_puts(name);
		fp_puts(",\n\t  ARRAY_SIZE(vaccel_sf_");
		fp_puts(name);
		fp_puts(") },\n");
	}
	fp_puts("};\n\n#endif /* __VACCEL_SOFTFLOAT_VECTORS_H__ */\n");
	fp_flush();
	return 0;
}
