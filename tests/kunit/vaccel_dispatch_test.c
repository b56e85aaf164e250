// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * KUnit tests of the workgroup range of a DISPATCH: which ranges fit a
 * grid, at the edges where an off-by-one or an overflow would let a range
 * run past the grid or refuse one that fits.
 */

#include <kunit/test.h>
#include <linux/limits.h>

#include "../vaccel_dispatch.h"

struct vaccel_range_case {
	const char *desc;
	u64 num_groups, first, count;
	bool ok;
};

static const struct vaccel_range_case vaccel_range_cases[] = {
	{ "whole_grid", 8, 0, 8, true },
	{ "first_only", 8, 0, 1, true },
	{ "last_only", 8, 7, 1, true },
	{ "middle", 8, 3, 2, true },
	{ "one_group_grid", 1, 0, 1, true },
	{ "zero_count", 8, 0, 0, false },
	{ "zero_count_at_end", 8, 8, 0, false },
	{ "one_past_the_end", 8, 0, 9, false },
	{ "last_plus_one", 8, 7, 2, false },
	{ "first_at_end", 8, 8, 1, false },
	{ "first_far_past", 8, U64_MAX, 1, false },
	{ "count_overflows", 8, 1, U64_MAX, false },
	{ "sum_wraps_to_zero", 8, 2, U64_MAX - 1, false },
	{ "sum_wraps_inside", 8, 4, U64_MAX - 1, false },
	{ "largest_grid_whole", U64_MAX, 0, U64_MAX, true },
	{ "largest_grid_last", U64_MAX, U64_MAX - 1, 1, true },
	{ "largest_grid_past", U64_MAX, U64_MAX - 1, 2, false },
	{ "grid_2_32", 1ull << 32, (1ull << 32) - 1, 1, true },
	{ "grid_2_32_past", 1ull << 32, 1ull << 32, 1, false },
};

static void vaccel_range_case_desc(const struct vaccel_range_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(vaccel_range, vaccel_range_cases, vaccel_range_case_desc);

/*
 * A range passes if and only if it is not empty and every workgroup of
 * it exists, whatever the sum of its first group and count does in 64
 * bits.
 */
static void vaccel_test_dispatch_range(struct kunit *test)
{
	const struct vaccel_range_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, vaccel_dispatch_range_ok(c->num_groups, c->first,
						       c->count), c->ok);
}

static struct kunit_case vaccel_dispatch_test_cases[] = {
	KUNIT_CASE_PARAM(vaccel_test_dispatch_range, vaccel_range_gen_params),
	{}
};

static struct kunit_suite vaccel_dispatch_test_suite = {
	.name = "vaccel_dispatch",
	.test_cases = vaccel_dispatch_test_cases,
};

kunit_test_suite(vaccel_dispatch_test_suite);
