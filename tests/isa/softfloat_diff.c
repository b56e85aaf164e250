// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * The host side of the soft-float tests: vaccel_softfloat.c built for the
 * host (with tests/isa/shim for <linux/types.h>) against the RV64 oracle.
 *
 *   softfloat_diff random SEED COUNT < records
 *	Makes the cases fp_oracle makes from SEED and COUNT, runs them
 *	through vaccel_softfloat.c and compares with the oracle's records
 *	on stdin: one `ok isa.softfloat_<op>` line per operation, or `not ok
 *	...` with the first mismatch (mode, operands, expected, got).  The
 *	fflags start from random bits, which must be kept: the library ORs
 *	into them and never clears.
 *
 *   softfloat_diff vectors
 *	Checks the KUnit suite's reference vectors with the host build, for
 *	a quick answer without UML: one `ok isa.softfloat_vectors` line, or
 *	`not ok ...` with the first mismatch.
 *
 *   softfloat_diff speed
 *	Prints the mean time of each operation on the host, as comments.
 *
 * Exits 1 on any mismatch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/types.h>

#include "vaccel_softfloat.h"

#include "fp_cases.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#include "vaccel_softfloat_vectors.h"

#define S32 0x80000000u
#define S64 0x8000000000000000ull

/* What the interpreter does for each instruction, on the library. */
static u64 host_exec(unsigned int op, unsigned int rm, u64 a, u64 b, u64 c,
		     u32 *fl)
{
	switch (op) {
	case FP_F32_ADD: return vaccel_f32_add(a, b, rm, fl);
	case FP_F32_SUB: return vaccel_f32_sub(a, b, rm, fl);
	case FP_F32_MUL: return vaccel_f32_mul(a, b, rm, fl);
	case FP_F32_DIV: return vaccel_f32_div(a, b, rm, fl);
	case FP_F32_SQRT: return vaccel_f32_sqrt(a, rm, fl);
	case FP_F32_FMADD: return vaccel_f32_fma(a, b, c, rm, fl);
	case FP_F32_FMSUB: return vaccel_f32_fma(a, b, c ^ S32, rm, fl);
	case FP_F32_FNMSUB: return vaccel_f32_fma(a ^ S32, b, c, rm, fl);
	case FP_F32_FNMADD: return vaccel_f32_fma(a ^ S32, b, c ^ S32, rm, fl);
	case FP_F32_MIN: return vaccel_f32_min(a, b, fl);
	case FP_F32_MAX: return vaccel_f32_max(a, b, fl);
	case FP_F32_EQ: return vaccel_f32_eq(a, b, fl);
	case FP_F32_LT: return vaccel_f32_lt(a, b, fl);
	case FP_F32_LE: return vaccel_f32_le(a, b, fl);
	case FP_F32_CLASSIFY: return vaccel_f32_classify(a);
	case FP_F32_TO_I32: return (u32)vaccel_f32_to_i32(a, rm, fl);
	case FP_F32_TO_U32: return vaccel_f32_to_u32(a, rm, fl);
	case FP_F32_TO_I64: return (u64)vaccel_f32_to_i64(a, rm, fl);
	case FP_F32_TO_U64: return vaccel_f32_to_u64(a, rm, fl);
	case FP_I32_TO_F32: return vaccel_i32_to_f32((s32)a, rm, fl);
	case FP_U32_TO_F32: return vaccel_u32_to_f32((u32)a, rm, fl);
	case FP_I64_TO_F32: return vaccel_i64_to_f32((s64)a, rm, fl);
	case FP_U64_TO_F32: return vaccel_u64_to_f32(a, rm, fl);
	case FP_F64_ADD: return vaccel_f64_add(a, b, rm, fl);
	case FP_F64_SUB: return vaccel_f64_sub(a, b, rm, fl);
	case FP_F64_MUL: return vaccel_f64_mul(a, b, rm, fl);
	case FP_F64_DIV: return vaccel_f64_div(a, b, rm, fl);
	case FP_F64_SQRT: return vaccel_f64_sqrt(a, rm, fl);
	case FP_F64_FMADD: return vaccel_f64_fma(a, b, c, rm, fl);
	case FP_F64_FMSUB: return vaccel_f64_fma(a, b, c ^ S64, rm, fl);
	case FP_F64_FNMSUB: return vaccel_f64_fma(a ^ S64, b, c, rm, fl);
	case FP_F64_FNMADD: return vaccel_f64_fma(a ^ S64, b, c ^ S64, rm, fl);
	case FP_F64_MIN: return vaccel_f64_min(a, b, fl);
	case FP_F64_MAX: return vaccel_f64_max(a, b, fl);
	case FP_F64_EQ: return vaccel_f64_eq(a, b, fl);
	case FP_F64_LT: return vaccel_f64_lt(a, b, fl);
	case FP_F64_LE: return vaccel_f64_le(a, b, fl);
	case FP_F64_CLASSIFY: return vaccel_f64_classify(a);
	case FP_F64_TO_I32: return (u32)vaccel_f64_to_i32(a, rm, fl);
	case FP_F64_TO_U32: return vaccel_f64_to_u32(a, rm, fl);
	case FP_F64_TO_I64: return (u64)vaccel_f64_to_i64(a, rm, fl);
	case FP_F64_TO_U64: return vaccel_f64_to_u64(a, rm, fl);
	case FP_I32_TO_F64: return vaccel_i32_to_f64((s32)a, rm, fl);
	case FP_U32_TO_F64: return vaccel_u32_to_f64((u32)a, rm, fl);
	case FP_I64_TO_F64: return vaccel_i64_to_f64((s64)a, rm, fl);
	case FP_U64_TO_F64: return vaccel_u64_to_f64(a, rm, fl);
	case FP_F32_TO_F64: return vaccel_f32_to_f64(a, fl);
	case FP_F64_TO_F32: return vaccel_f64_to_f32(a, rm, fl);
	}
	fprintf(stderr, "softfloat_diff: unknown op %u\n", op);
	exit(2);
}

static unsigned int nr_operands(unsigned int op)
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

static void print_case(unsigned int op, unsigned int rm, u64 a, u64 b, u64 c)
{
	unsigned int n = nr_operands(op);

	if (fp_ops[op].has_rm)
		printf(" rm=%s", fp_rm_names[rm]);
	printf(" a=0x%llx", (unsigned long long)a);
	if (n > 1)
		printf(" b=0x%llx", (unsigned long long)b);
	if (n > 2)
		printf(" c=0x%llx", (unsigned long long)c);
}

/* Per operation: cases, mismatches, the first mismatch. */
struct op_result {
	unsigned long cases, bad;
	unsigned int rm;
	struct fp_case k;
	u64 want, got;
	u32 want_fl, got_fl;
};

static void note(struct op_result *res, unsigned int rm,
		 const struct fp_case *k, u64 want, u32 want_fl, u64 got,
		 u32 got_fl)
{
	res->cases++;
	if (want == got && want_fl == got_fl)
		return;
	if (!res->bad++) {
		res->rm = rm;
		res->k = *k;
		res->want = want;
		res->want_fl = want_fl;
		res->got = got;
		res->got_fl = got_fl;
	}
}

static void print_mismatch(unsigned int op, const struct op_result *r)
{
	print_case(op, r->rm, r->k.a, r->k.b, r->k.c);
	printf(": expected 0x%llx fflags 0x%02x, got 0x%llx fflags 0x%02x",
	       (unsigned long long)r->want, r->want_fl,
	       (unsigned long long)r->got, r->got_fl);
}

/* One line per operation; returns the number of failed ones. */
static int report(struct op_result *res)
{
	unsigned int op;
	int failed = 0;

	for (op = 0; op < FP_NR_OPS; op++) {
		struct op_result *r = &res[op];

		if (!r->cases) {
			printf("not ok isa.softfloat_%s: no cases\n",
			       fp_ops[op].name);
			failed++;
			continue;
		}
		if (!r->bad) {
			printf("ok isa.softfloat_%s\n", fp_ops[op].name);
			continue;
		}
		failed++;
		printf("not ok isa.softfloat_%s: %lu of %lu differ; first:",
		       fp_ops[op].name, r->bad, r->cases);
		print_mismatch(op, r);
		printf("\n");
	}
	return failed;
}

static int run_random(u64 seed, u64 count)
{
	static struct op_result res[FP_NR_OPS];
	u64 s, i, total = 0, noise = seed;
	struct fp_record rec;
	unsigned int op, rm;
	struct fp_case k;
	u32 fl, preset;
	u64 got;

	for (op = 0; op < FP_NR_OPS; op++) {
		for (rm = 0; rm < (fp_ops[op].has_rm ? 5u : 1u); rm++) {
			s = fp_stream(seed, op, rm);
			for (i = 0; i < count; i++) {
				fp_make_case(&s, op, &k);
				if (fread(&rec, sizeof(rec), 1, stdin) != 1) {
					printf("not ok isa.softfloat_oracle: its output ends at %s %s case %llu\n",
					       fp_ops[op].name, fp_rm_names[rm],
					       (unsigned long long)i);
					return 1;
				}
				/* Flags accrue: start from random bits. */
				preset = (u32)(fp_rand(&noise) >> 59);
				fl = preset;
				got = host_exec(op, rm, k.a, k.b, k.c, &fl) &
				      fp_result_mask(op);
				note(&res[op], rm, &k, rec.result,
				     (u32)rec.flags | preset, got, fl);
				total++;
			}
		}
	}
	if (fread(&rec, 1, 1, stdin) != 0) {
		printf("not ok isa.softfloat_oracle: more output than cases\n");
		return 1;
	}
	printf("# %llu random cases, seed %llu\n", (unsigned long long)total,
	       (unsigned long long)seed);
	return report(res) ? 1 : 0;
}

static int run_vectors(void)
{
	static struct op_result res[FP_NR_OPS];
	const struct vaccel_sf_op_vectors *ov;
	const struct vaccel_sf_vector *v;
	unsigned int i, j, bad_ops = 0;
	struct fp_case k;
	u32 fl;
	u64 got;

	if (ARRAY_SIZE(vaccel_sf_all_vectors) != FP_NR_OPS) {
		printf("not ok isa.softfloat_vectors: %zu operations, not %u\n",
		       ARRAY_SIZE(vaccel_sf_all_vectors), FP_NR_OPS);
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(vaccel_sf_all_vectors); i++) {
		ov = &vaccel_sf_all_vectors[i];
		if (ov->op != i || strcmp(ov->name, fp_ops[i].name)) {
			printf("not ok isa.softfloat_vectors: operation %u is %s\n",
			       i, ov->name);
			return 1;
		}
		for (j = 0; j < ov->count; j++) {
			v = &ov->vectors[j];
			k.a = v->a;
			k.b = v->b;
			k.c = v->c;
			fl = 0;
			got = host_exec(i, v->rm, v->a, v->b, v->c, &fl) &
			      fp_result_mask(i);
			note(&res[i], v->rm, &k, v->result, v->flags, got, fl);
		}
	}
	for (i = 0; i < FP_NR_OPS; i++)
		if (res[i].bad || !res[i].cases)
			bad_ops++;
	if (!bad_ops) {
		printf("ok isa.softfloat_vectors\n");
		return 0;
	}
	for (i = 0; !res[i].bad && res[i].cases; i++)
		;
	printf("not ok isa.softfloat_vectors: %u of %u operations fail; first: %s",
	       bad_ops, FP_NR_OPS, fp_ops[i].name);
	if (res[i].bad)
		print_mismatch(i, &res[i]);
	else
		printf(" has no vectors");
	printf("\n");
	return 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int run_speed(void)
{
	enum { N = 4096, ROUNDS = 64 };
	static struct fp_case cases[N];
	unsigned int op, i, r;
	volatile u64 sink = 0;
	u64 s, acc;
	double t;
	u32 fl;

	for (op = 0; op < FP_NR_OPS; op++) {
		s = fp_stream(1, op, 0);
		for (i = 0; i < N; i++)
			fp_make_case(&s, op, &cases[i]);
		acc = 0;
		fl = 0;
		t = now();
		for (r = 0; r < ROUNDS; r++)
			for (i = 0; i < N; i++)
				acc += host_exec(op, 0, cases[i].a, cases[i].b,
						 cases[i].c, &fl);
		t = now() - t;
		sink = acc + fl;
		printf("# %-14s %6.1f ns\n", fp_ops[op].name,
		       t * 1e9 / (N * ROUNDS));
	}
	(void)sink;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "random"))
		return run_random(strtoull(argv[2], NULL, 0),
				  strtoull(argv[3], NULL, 0));
	if (argc == 2 && !strcmp(argv[1], "vectors"))
		return run_vectors();
	if (argc == 2 && !strcmp(argv[1], "speed"))
		return run_speed();
	fprintf(stderr,
		"usage: softfloat_diff random SEED COUNT < oracle records\n"
		"       softfloat_diff vectors\n"
		"       softfloat_diff speed\n");
	return 2;
}
