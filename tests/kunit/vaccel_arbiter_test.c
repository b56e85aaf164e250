// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * KUnit tests of the arbiter: strict order between priority bands, turns
 * within a band, contexts joining and leaving.
 */

#include <kunit/test.h>

#include "../vaccel_arbiter.h"

#define NCTX	6

struct vaccel_arbiter_test {
	struct vaccel_arbiter arb;
	struct vaccel_arbiter_entry e[NCTX];
};

static int vaccel_arbiter_test_init(struct kunit *test)
{
	struct vaccel_arbiter_test *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	vaccel_arbiter_init(&t->arb);
	test->priv = t;
	return 0;
}

/* The index of the entry the arbiter serves next, or -1. */
static int next(struct vaccel_arbiter_test *t)
{
	struct vaccel_arbiter_entry *e = vaccel_arbiter_next(&t->arb);

	return e ? e - t->e : -1;
}

/* Nothing ready: nothing to serve. */
static void vaccel_test_arbiter_empty(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;

	KUNIT_EXPECT_EQ(test, next(t), -1);
	vaccel_arbiter_entry_init(&t->e[0], 1);
	KUNIT_EXPECT_EQ(test, next(t), -1);
}

/* Contexts of one band are served in turn, in the order they became ready. */
static void vaccel_test_arbiter_round_robin(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;
	int i, round;

	for (i = 0; i < 3; i++) {
		vaccel_arbiter_entry_init(&t->e[i], 1);
		vaccel_arbiter_ready(&t->arb, &t->e[i]);
	}
	for (round = 0; round < 4; round++)
		for (i = 0; i < 3; i++)
			KUNIT_EXPECT_EQ(test, next(t), i);
}

/* A higher band is always served first; lower bands wait. */
static void vaccel_test_arbiter_bands_strict(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;
	int i;

	vaccel_arbiter_entry_init(&t->e[0], 0);
	vaccel_arbiter_entry_init(&t->e[1], 1);
	vaccel_arbiter_entry_init(&t->e[2], 3);
	vaccel_arbiter_entry_init(&t->e[3], 2);
	for (i = 0; i < 4; i++)
		vaccel_arbiter_ready(&t->arb, &t->e[i]);

	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, next(t), 2);
	vaccel_arbiter_idle(&t->e[2]);
	KUNIT_EXPECT_EQ(test, next(t), 3);
	vaccel_arbiter_idle(&t->e[3]);
	KUNIT_EXPECT_EQ(test, next(t), 1);
	vaccel_arbiter_idle(&t->e[1]);
	KUNIT_EXPECT_EQ(test, next(t), 0);
	vaccel_arbiter_idle(&t->e[0]);
	KUNIT_EXPECT_EQ(test, next(t), -1);
}

/* A context that becomes ready joins the end of its band's turn. */
static void vaccel_test_arbiter_join_leave(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;
	int i;

	for (i = 0; i < 3; i++)
		vaccel_arbiter_entry_init(&t->e[i], 2);
	vaccel_arbiter_ready(&t->arb, &t->e[0]);
	vaccel_arbiter_ready(&t->arb, &t->e[1]);
	KUNIT_EXPECT_EQ(test, next(t), 0);
	vaccel_arbiter_ready(&t->arb, &t->e[2]);
	KUNIT_EXPECT_EQ(test, next(t), 1);
	KUNIT_EXPECT_EQ(test, next(t), 0);
	KUNIT_EXPECT_EQ(test, next(t), 2);

	/* Leaving mid-turn removes it; ready twice does not queue it twice. */
	vaccel_arbiter_idle(&t->e[1]);
	vaccel_arbiter_ready(&t->arb, &t->e[0]);
	KUNIT_EXPECT_EQ(test, next(t), 0);
	KUNIT_EXPECT_EQ(test, next(t), 2);
	KUNIT_EXPECT_EQ(test, next(t), 0);

	/* Idle twice is harmless. */
	vaccel_arbiter_idle(&t->e[1]);
	vaccel_arbiter_idle(&t->e[0]);
	vaccel_arbiter_idle(&t->e[2]);
	KUNIT_EXPECT_EQ(test, next(t), -1);
}

/*
 * Under a random mix of ready and idle, each served context is ready,
 * from the highest ready band, and the first of that band in turn order.
 */
static void vaccel_test_arbiter_random(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;
	bool ready[NCTX] = {};
	u32 seed = 12345;
	int i, step;

	for (i = 0; i < NCTX; i++)
		vaccel_arbiter_entry_init(&t->e[i], i % VACCEL_ARBITER_BANDS);

	for (step = 0; step < 10000; step++) {
		int best = -1, got;

		seed = seed * 1103515245 + 12345;
		i = (seed >> 16) % NCTX;
		if ((seed >> 8) & 1) {
			vaccel_arbiter_ready(&t->arb, &t->e[i]);
			ready[i] = true;
		} else {
			vaccel_arbiter_idle(&t->e[i]);
			ready[i] = false;
		}
		for (i = 0; i < NCTX; i++)
			if (ready[i] && (best < 0 || t->e[i].band > t->e[best].band))
				best = i;
		got = next(t);
		if (best < 0) {
			KUNIT_ASSERT_EQ(test, got, -1);
			continue;
		}
		KUNIT_ASSERT_GE(test, got, 0);
		KUNIT_ASSERT_TRUE(test, ready[got]);
		KUNIT_ASSERT_EQ(test, t->e[got].band, t->e[best].band);
	}
}

static struct kunit_case vaccel_arbiter_test_cases[] = {
	KUNIT_CASE(vaccel_test_arbiter_empty),
	KUNIT_CASE(vaccel_test_arbiter_round_robin),
	KUNIT_CASE(vaccel_test_arbiter_bands_strict),
	KUNIT_CASE(vaccel_test_arbiter_join_leave),
	KUNIT_CASE(vaccel_test_arbiter_random),
	{}
};

static struct kunit_suite vaccel_arbiter_test_suite = {
	.name = "vaccel_arbiter",
	.init = vaccel_arbiter_test_init,
	.test_cases = vaccel_arbiter_test_cases,
};

kunit_test_suite(vaccel_arbiter_test_suite);
