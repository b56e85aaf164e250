// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * KUnit tests of the soft-float library against reference vectors that
 * the real RV64 F and D instructions produced under qemu-riscv64
 * (vaccel_softfloat_vectors.h, from tests/isa/gen_fp_vectors.c): the
 * result bits and the fflags of every operation, in every rounding mode.
 * tests/isa/run-fp.sh runs millions of random cases the same way in user
 * space.
 */

#include <kunit/test.h>

#include "../vaccel_softfloat.h"
#include "vaccel_softfloat_vectors.h"

#define SF_F32_SIGN	0x80000000u
#define SF_F64_SIGN	0x8000000000000000ull
#define SF_ALL_FLAGS	(VACCEL_FFLAG_NX | VACCEL_FFLAG_UF | VACCEL_FFLAG_OF | \
			 VACCEL_FFLAG_DZ | VACCEL_FFLAG_NV)

/* Mismatches reported in full per operation; the rest are only counted. */
#define SF_MAX_REPORTS	8

static const char *const vaccel_sf_rm_names[] = {
	"RNE", "RTZ", "RDN", "RUP", "RMM",
};

/*
 * What the interpreter runs for the instruction: FMSUB, FNMSUB and FNMADD
 * are the fused multiply-add with c, a, or both negated; 32-bit integer
 * results are compared as their 32 bits.
 */
static u64 vaccel_sf_run(enum vaccel_sf_op op, const struct vaccel_sf_vector *v,
			 u32 *fl)
{
	unsigned int rm = v->rm;
	u64 a = v->a, b = v->b, c = v->c;

	switch (op) {
	case VACCEL_SF_F32_ADD:
		return vaccel_f32_add(a, b, rm, fl);
	case VACCEL_SF_F32_SUB:
		return vaccel_f32_sub(a, b, rm, fl);
	case VACCEL_SF_F32_MUL:
		return vaccel_f32_mul(a, b, rm, fl);
	case VACCEL_SF_F32_DIV:
		return vaccel_f32_div(a, b, rm, fl);
	case VACCEL_SF_F32_SQRT:
		return vaccel_f32_sqrt(a, rm, fl);
	case VACCEL_SF_F32_FMADD:
		return vaccel_f32_fma(a, b, c, rm, fl);
	case VACCEL_SF_F32_FMSUB:
		return vaccel_f32_fma(a, b, c ^ SF_F32_SIGN, rm, fl);
	case VACCEL_SF_F32_FNMSUB:
		return vaccel_f32_fma(a ^ SF_F32_SIGN, b, c, rm, fl);
	case VACCEL_SF_F32_FNMADD:
		return vaccel_f32_fma(a ^ SF_F32_SIGN, b, c ^ SF_F32_SIGN, rm, fl);
	case VACCEL_SF_F32_MIN:
		return vaccel_f32_min(a, b, fl);
	case VACCEL_SF_F32_MAX:
		return vaccel_f32_max(a, b, fl);
	case VACCEL_SF_F32_EQ:
		return vaccel_f32_eq(a, b, fl);
	case VACCEL_SF_F32_LT:
		return vaccel_f32_lt(a, b, fl);
	case VACCEL_SF_F32_LE:
		return vaccel_f32_le(a, b, fl);
	case VACCEL_SF_F32_CLASSIFY:
		return vaccel_f32_classify(a);
	case VACCEL_SF_F32_TO_I32:
		return (u32)vaccel_f32_to_i32(a, rm, fl);
	case VACCEL_SF_F32_TO_U32:
		return vaccel_f32_to_u32(a, rm, fl);
	case VACCEL_SF_F32_TO_I64:
		return (u64)vaccel_f32_to_i64(a, rm, fl);
	case VACCEL_SF_F32_TO_U64:
		return vaccel_f32_to_u64(a, rm, fl);
	case VACCEL_SF_I32_TO_F32:
		return vaccel_i32_to_f32((s32)a, rm, fl);
	case VACCEL_SF_U32_TO_F32:
		return vaccel_u32_to_f32((u32)a, rm, fl);
	case VACCEL_SF_I64_TO_F32:
		return vaccel_i64_to_f32((s64)a, rm, fl);
	case VACCEL_SF_U64_TO_F32:
		return vaccel_u64_to_f32(a, rm, fl);
	case VACCEL_SF_F64_ADD:
		return vaccel_f64_add(a, b, rm, fl);
	case VACCEL_SF_F64_SUB:
		return vaccel_f64_sub(a, b, rm, fl);
	case VACCEL_SF_F64_MUL:
		return vaccel_f64_mul(a, b, rm, fl);
	case VACCEL_SF_F64_DIV:
		return vaccel_f64_div(a, b, rm, fl);
	case VACCEL_SF_F64_SQRT:
		return vaccel_f64_sqrt(a, rm, fl);
	case VACCEL_SF_F64_FMADD:
		return vaccel_f64_fma(a, b, c, rm, fl);
	case VACCEL_SF_F64_FMSUB:
		return vaccel_f64_fma(a, b, c ^ SF_F64_SIGN, rm, fl);
	case VACCEL_SF_F64_FNMSUB:
		return vaccel_f64_fma(a ^ SF_F64_SIGN, b, c, rm, fl);
	case VACCEL_SF_F64_FNMADD:
		return vaccel_f64_fma(a ^ SF_F64_SIGN, b, c ^ SF_F64_SIGN, rm, fl);
	case VACCEL_SF_F64_MIN:
		return vaccel_f64_min(a, b, fl);
	case VACCEL_SF_F64_MAX:
		return vaccel_f64_max(a, b, fl);
	case VACCEL_SF_F64_EQ:
		return vaccel_f64_eq(a, b, fl);
	case VACCEL_SF_F64_LT:
		return vaccel_f64_lt(a, b, fl);
	case VACCEL_SF_F64_LE:
		return vaccel_f64_le(a, b, fl);
	case VACCEL_SF_F64_CLASSIFY:
		return vaccel_f64_classify(a);
	case VACCEL_SF_F64_TO_I32:
		return (u32)vaccel_f64_to_i32(a, rm, fl);
	case VACCEL_SF_F64_TO_U32:
		return vaccel_f64_to_u32(a, rm, fl);
	case VACCEL_SF_F64_TO_I64:
		return (u64)vaccel_f64_to_i64(a, rm, fl);
	case VACCEL_SF_F64_TO_U64:
		return vaccel_f64_to_u64(a, rm, fl);
	case VACCEL_SF_I32_TO_F64:
		return vaccel_i32_to_f64((s32)a, rm, fl);
	case VACCEL_SF_U32_TO_F64:
		return vaccel_u32_to_f64((u32)a, rm, fl);
	case VACCEL_SF_I64_TO_F64:
		return vaccel_i64_to_f64((s64)a, rm, fl);
	case VACCEL_SF_U64_TO_F64:
		return vaccel_u64_to_f64(a, rm, fl);
	case VACCEL_SF_F32_TO_F64:
		return vaccel_f32_to_f64(a, fl);
	case VACCEL_SF_F64_TO_F32:
		return vaccel_f64_to_f32(a, rm, fl);
	default:
		return ~0ull;
	}
}

static void vaccel_sf_case_desc(const struct vaccel_sf_op_vectors *ov,
				char *desc)
{
	strscpy(desc, ov->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(vaccel_sf, vaccel_sf_all_vectors, vaccel_sf_case_desc);

/*
 * Every vector of one operation: the result bits and the fflags from
 * clear flags, then again from every flag the vector does not raise
 * already set: the library only ORs into *flags, it never clears.
 */
static void vaccel_test_softfloat_vectors(struct kunit *test)
{
	const struct vaccel_sf_op_vectors *ov = test->param_value;
	unsigned int i, bad = 0;

	KUNIT_ASSERT_GT(test, ov->count, 0u);
	for (i = 0; i < ov->count; i++) {
		const struct vaccel_sf_vector *v = &ov->vectors[i];
		u32 fl = 0, fl_set = SF_ALL_FLAGS & ~v->flags;
		u64 got, got_set;

		got = vaccel_sf_run(ov->op, v, &fl);
		got_set = vaccel_sf_run(ov->op, v, &fl_set);
		if (got == v->result && fl == v->flags && got_set == got &&
		    fl_set == SF_ALL_FLAGS)
			continue;
		if (bad++ >= SF_MAX_REPORTS)
			continue;
		KUNIT_FAIL(test,
			   "%s %s a=%#llx b=%#llx c=%#llx: got %#llx fflags %#x (%#x from %#x), expected %#llx fflags %#x",
			   ov->name, vaccel_sf_rm_names[v->rm % 5], v->a, v->b,
			   v->c, got, fl, fl_set, SF_ALL_FLAGS & ~v->flags,
			   v->result, v->flags);
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0u, "%u of %u vectors of %s fail",
			    bad, ov->count, ov->name);
}

/* The operations without a rounding mode, hence with RNE vectors only. */
static bool vaccel_sf_has_rm(enum vaccel_sf_op op)
{
	switch (op) {
	case VACCEL_SF_F32_MIN:
	case VACCEL_SF_F32_MAX:
	case VACCEL_SF_F32_EQ:
	case VACCEL_SF_F32_LT:
	case VACCEL_SF_F32_LE:
	case VACCEL_SF_F32_CLASSIFY:
	case VACCEL_SF_F64_MIN:
	case VACCEL_SF_F64_MAX:
	case VACCEL_SF_F64_EQ:
	case VACCEL_SF_F64_LT:
	case VACCEL_SF_F64_LE:
	case VACCEL_SF_F64_CLASSIFY:
	case VACCEL_SF_F32_TO_F64:
		return false;
	default:
		return true;
	}
}

/*
 * The vectors cover what they must: every operation of the header, in
 * order, each rounding mode of the ones that round, every exception flag
 * and both canonical NaNs somewhere.
 */
static void vaccel_test_softfloat_coverage(struct kunit *test)
{
	bool f32_nan = false, f64_nan = false;
	unsigned int i, j, modes;
	u32 flags_seen = 0;

	KUNIT_ASSERT_EQ(test, ARRAY_SIZE(vaccel_sf_all_vectors),
			(size_t)VACCEL_SF_NR_OPS);
	for (i = 0; i < ARRAY_SIZE(vaccel_sf_all_vectors); i++) {
		const struct vaccel_sf_op_vectors *ov = &vaccel_sf_all_vectors[i];

		KUNIT_EXPECT_EQ(test, (unsigned int)ov->op, i);
		modes = 0;
		for (j = 0; j < ov->count; j++) {
			const struct vaccel_sf_vector *v = &ov->vectors[j];

			KUNIT_EXPECT_LE(test, v->rm, VACCEL_RM_RMM);
			modes |= 1u << v->rm;
			flags_seen |= v->flags;
			f32_nan |= v->result == VACCEL_F32_CANONICAL_NAN;
			f64_nan |= v->result == VACCEL_F64_CANONICAL_NAN;
		}
		KUNIT_EXPECT_EQ_MSG(test, modes,
				    vaccel_sf_has_rm(ov->op) ? 0x1fu : 0x1u,
				    "rounding modes of %s", ov->name);
	}
	KUNIT_EXPECT_EQ(test, flags_seen, (u32)SF_ALL_FLAGS);
	KUNIT_EXPECT_TRUE(test, f32_nan);
	KUNIT_EXPECT_TRUE(test, f64_nan);
}

static struct kunit_case vaccel_softfloat_cases[] = {
	KUNIT_CASE_PARAM(vaccel_test_softfloat_vectors, vaccel_sf_gen_params),
	KUNIT_CASE(vaccel_test_softfloat_coverage),
	{}
};

static struct kunit_suite vaccel_softfloat_suite = {
	.name = "vaccel_softfloat",
	.test_cases = vaccel_softfloat_cases,
};

kunit_test_suite(vaccel_softfloat_suite);
