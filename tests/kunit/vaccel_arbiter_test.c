// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * KUnit tests of the arbiter as a pure policy: which context runs next,
 * when the running buffer is preempted and why, time-slice accounting, the
 * starvation guard, and the order of preemption reports and requeues.
 * Times are given by the tests, in nanoseconds; as from the engine's clock,
 * they are never 0.
 */

#include <kunit/test.h>
#include <linux/prandom.h>

#include "../vaccel_arbiter.h"

#define NCTX	6
#define NBUF	64
#define SLICE	10000000ULL	/* 10 ms */

enum { LOW, NORMAL, HIGH, REALTIME };

struct vaccel_arbiter_test {
	struct vaccel_arbiter arb;
	struct vaccel_arbiter_entry e[NCTX];
	struct vaccel_arbiter_buffer buf[NCTX][NBUF];
	unsigned int pushed[NCTX];
};

static int vaccel_arbiter_test_init(struct kunit *test)
{
	struct vaccel_arbiter_test *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	vaccel_arbiter_init(&t->arb, SLICE);
	test->priv = t;
	return 0;
}

static void ctx_init(struct vaccel_arbiter_test *t, int c, unsigned int band)
{
	vaccel_arbiter_entry_init(&t->e[c], band);
}

/* Pushes the next buffer of context @c. */
static void push(struct vaccel_arbiter_test *t, int c, u64 now)
{
	struct vaccel_arbiter_buffer *b = &t->buf[c][t->pushed[c]++];

	b->entry = &t->e[c];
	vaccel_arbiter_push(&t->arb, b, now);
}

/* The context of a slot's buffer, or -1 if the slot is empty. */
static int slot_ctx(struct vaccel_arbiter_test *t, unsigned int s)
{
	if (s >= t->arb.slots_used)
		return -1;
	return t->arb.slot[s]->entry - t->e;
}

/* The index of a slot's buffer within its context. */
static int slot_buf(struct vaccel_arbiter_test *t, unsigned int s)
{
	int c = slot_ctx(t, s);

	return t->arb.slot[s] - t->buf[c];
}

/* Nothing ready: nothing fills, nothing to preempt, no deadline. */
static void vaccel_test_arbiter_empty(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;

	ctx_init(t, 0, NORMAL);
	KUNIT_EXPECT_FALSE(test, vaccel_arbiter_fill(&t->arb, 1));
	KUNIT_EXPECT_EQ(test, t->arb.slots_used, 0);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_want_preempt(&t->arb, 1),
			VACCEL_PREEMPT_NONE);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_deadline(&t->arb), U64_MAX);
}

/* A context's buffers fill both slots in order; retiring frees one. */
static void vaccel_test_arbiter_two_slots(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;

	ctx_init(t, 0, NORMAL);
	push(t, 0, 1);
	push(t, 0, 1);
	push(t, 0, 1);
	KUNIT_EXPECT_TRUE(test, vaccel_arbiter_fill(&t->arb, 1));
	KUNIT_EXPECT_EQ(test, t->arb.slots_used, 2);
	KUNIT_EXPECT_EQ(test, slot_buf(t, 0), 0);
	KUNIT_EXPECT_EQ(test, slot_buf(t, 1), 1);
	vaccel_arbiter_start(&t->arb, 10);
	KUNIT_EXPECT_PTR_EQ(test, vaccel_arbiter_retire(&t->arb, 110),
			    &t->buf[0][0]);
	KUNIT_EXPECT_EQ(test, t->e[0].run_ns, 100);
	KUNIT_EXPECT_FALSE(test, vaccel_arbiter_fill(&t->arb, 110));
	KUNIT_EXPECT_EQ(test, slot_buf(t, 0), 1);
	KUNIT_EXPECT_EQ(test, slot_buf(t, 1), 2);
}

/* Bands are strict: a higher band's buffer is taken first. */
static void vaccel_test_arbiter_bands_strict(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;
	int band;

	for (band = 0; band < VACCEL_ARBITER_BANDS; band++)
		ctx_init(t, band, band);
	for (band = 0; band < VACCEL_ARBITER_BANDS; band++)
		push(t, band, 1);
	for (band = VACCEL_ARBITER_BANDS - 1; band >= 0; band--) {
		vaccel_arbiter_fill(&t->arb, 1);
		KUNIT_EXPECT_EQ(test, slot_ctx(t, 0), band);
		vaccel_arbiter_start(&t->arb, 1);
		vaccel_arbiter_retire(&t->arb, 2);
	}
	KUNIT_EXPECT_EQ(test, t->arb.slots_used, 0);
}

/*
 * A HIGH buffer arriving while LOW work runs asks for a priority
 * preemption; the report lists the running LOW buffer then the HIGH one
 * that had not started; after the requeue HIGH runs first, then LOW
 * resumes its buffer before its next one.
 */
static void vaccel_test_arbiter_priority_preempt(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;
	struct vaccel_arbiter_buffer *b;
	LIST_HEAD(report);
	int i = 0;

	ctx_init(t, 0, LOW);
	ctx_init(t, 1, HIGH);
	push(t, 0, 0);
	push(t, 0, 0);
	push(t, 0, 0);
	vaccel_arbiter_fill(&t->arb, 0);
	vaccel_arbiter_start(&t->arb, 100);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_want_preempt(&t->arb, 200),
			VACCEL_PREEMPT_NONE);

	push(t, 1, 300);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_want_preempt(&t->arb, 300),
			VACCEL_PREEMPT_PRIORITY);
	vaccel_arbiter_preempt(&t->arb, 400, VACCEL_PREEMPT_PRIORITY, &report);
	KUNIT_EXPECT_EQ(test, t->arb.slots_used, 0);
	list_for_each_entry(b, &report, link) {
		KUNIT_EXPECT_PTR_EQ(test, b, &t->buf[0][i]);
		KUNIT_EXPECT_EQ(test, b->started, i == 0);
		i++;
	}
	KUNIT_EXPECT_EQ(test, i, 2);
	KUNIT_EXPECT_EQ(test, t->e[0].preemptions, 1);
	KUNIT_EXPECT_EQ(test, t->e[0].run_ns, 300);
	KUNIT_EXPECT_EQ(test, t->arb.preempt_count[VACCEL_PREEMPT_PRIORITY], 1);

	vaccel_arbiter_requeue(&t->arb, VACCEL_PREEMPT_PRIORITY, &report, 400);
	KUNIT_EXPECT_TRUE(test, list_empty(&report));
	vaccel_arbiter_fill(&t->arb, 400);
	KUNIT_EXPECT_EQ(test, slot_ctx(t, 0), 1);
	KUNIT_EXPECT_EQ(test, slot_ctx(t, 1), 0);
	KUNIT_EXPECT_EQ(test, slot_buf(t, 1), 0);
	vaccel_arbiter_start(&t->arb, 400);
	vaccel_arbiter_retire(&t->arb, 500);
	vaccel_arbiter_fill(&t->arb, 500);
	KUNIT_EXPECT_EQ(test, slot_buf(t, 0), 0);
	KUNIT_EXPECT_TRUE(test, t->arb.slot[0]->started);
	KUNIT_EXPECT_EQ(test, slot_buf(t, 1), 1);
}

/* A HIGH buffer already in the next slot still preempts running LOW work. */
static void vaccel_test_arbiter_priority_in_next_slot(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;

	ctx_init(t, 0, LOW);
	ctx_init(t, 1, HIGH);
	push(t, 0, 0);
	vaccel_arbiter_fill(&t->arb, 0);
	vaccel_arbiter_start(&t->arb, 1);
	push(t, 1, 2);
	vaccel_arbiter_fill(&t->arb, 2);
	KUNIT_EXPECT_EQ(test, slot_ctx(t, 1), 1);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_want_preempt(&t->arb, 3),
			VACCEL_PREEMPT_PRIORITY);
}

/*
 * Two contexts of a band with long work: the running one is preempted
 * when its slice is used, not before, goes to the tail, and the other
 * runs; the deadline says when.
 */
static void vaccel_test_arbiter_slice(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;
	LIST_HEAD(report);

	ctx_init(t, 0, NORMAL);
	ctx_init(t, 1, NORMAL);
	push(t, 0, 1);
	push(t, 1, 1);
	vaccel_arbiter_fill(&t->arb, 1);
	KUNIT_EXPECT_EQ(test, slot_ctx(t, 0), 0);
	KUNIT_EXPECT_EQ(test, slot_ctx(t, 1), 1);
	vaccel_arbiter_start(&t->arb, 1000);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_deadline(&t->arb), 1000 + SLICE);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_want_preempt(&t->arb, 1000 + SLICE - 1),
			VACCEL_PREEMPT_NONE);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_want_preempt(&t->arb, 1000 + SLICE),
			VACCEL_PREEMPT_SLICE);

	vaccel_arbiter_preempt(&t->arb, 1000 + SLICE, VACCEL_PREEMPT_SLICE, &report);
	vaccel_arbiter_requeue(&t->arb, VACCEL_PREEMPT_SLICE, &report, 1000 + SLICE);
	KUNIT_EXPECT_EQ(test, t->e[0].run_ns, SLICE);
	KUNIT_EXPECT_EQ(test, t->e[0].slice_used_ns, 0);
	vaccel_arbiter_fill(&t->arb, 1000 + SLICE);
	KUNIT_EXPECT_EQ(test, slot_ctx(t, 0), 1);
	KUNIT_EXPECT_EQ(test, slot_ctx(t, 1), 0);
	KUNIT_EXPECT_TRUE(test, t->arb.slot[1]->started);
}

/* Alone in its band, a context keeps the engine past its slice. */
static void vaccel_test_arbiter_slice_alone(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;

	ctx_init(t, 0, NORMAL);
	ctx_init(t, 1, LOW);
	push(t, 0, 0);
	vaccel_arbiter_fill(&t->arb, 0);
	vaccel_arbiter_start(&t->arb, 1);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_deadline(&t->arb), U64_MAX);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_want_preempt(&t->arb, 5 * SLICE),
			VACCEL_PREEMPT_NONE);
	/* A lower band does not contend for the slice. */
	push(t, 1, 5 * SLICE);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_want_preempt(&t->arb, 6 * SLICE),
			VACCEL_PREEMPT_NONE);
	/* Another of its band does, at once: the slice is long used. */
	ctx_init(t, 2, NORMAL);
	push(t, 2, 6 * SLICE);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_want_preempt(&t->arb, 6 * SLICE),
			VACCEL_PREEMPT_SLICE);
}

/* Short buffers: the turn passes at the buffer boundary past the slice. */
static void vaccel_test_arbiter_slice_at_boundary(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;
	u64 now = 1;
	int i;

	ctx_init(t, 0, NORMAL);
	ctx_init(t, 1, NORMAL);
	for (i = 0; i < 20; i++) {
		push(t, 0, now);
		push(t, 1, now);
	}
	/*
	 * Buffers of 3 ms: A has used 12 ms >= slice when its 4th ends, so B
	 * takes the next free slot: after the 5th of A, which entered the
	 * HW queue while A's slice lasted.
	 */
	for (i = 0; i < 8; i++) {
		vaccel_arbiter_fill(&t->arb, now);
		KUNIT_EXPECT_EQ(test, slot_ctx(t, 0), i < 5 ? 0 : 1);
		vaccel_arbiter_start(&t->arb, now);
		now += 3000000;
		vaccel_arbiter_retire(&t->arb, now);
	}
}

/*
 * Preempted by a higher band, a context keeps its turn and what is left
 * of its slice: it resumes before its band peers.
 */
static void vaccel_test_arbiter_priority_keeps_turn(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;
	LIST_HEAD(report);

	ctx_init(t, 0, NORMAL);
	ctx_init(t, 1, NORMAL);
	ctx_init(t, 2, HIGH);
	push(t, 0, 0);
	push(t, 1, 0);
	vaccel_arbiter_fill(&t->arb, 0);
	vaccel_arbiter_start(&t->arb, 1);
	push(t, 2, 4000001);
	vaccel_arbiter_preempt(&t->arb, 4000001, VACCEL_PREEMPT_PRIORITY, &report);
	vaccel_arbiter_requeue(&t->arb, VACCEL_PREEMPT_PRIORITY, &report, 4000001);
	vaccel_arbiter_fill(&t->arb, 4000001);
	KUNIT_EXPECT_EQ(test, slot_ctx(t, 0), 2);
	KUNIT_EXPECT_EQ(test, slot_ctx(t, 1), 0);
	vaccel_arbiter_start(&t->arb, 4000001);
	vaccel_arbiter_retire(&t->arb, 5000001);
	vaccel_arbiter_fill(&t->arb, 5000001);
	KUNIT_EXPECT_EQ(test, slot_ctx(t, 0), 0);
	vaccel_arbiter_start(&t->arb, 5000001);
	KUNIT_EXPECT_EQ(test, t->e[0].slice_used_ns, 4000000);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_deadline(&t->arb), 5000001 + 6000000);
}

/*
 * The starvation guard: LOW waits while HIGH runs; after the guard's time
 * LOW gets one slice, which HIGH does not preempt; then HIGH again, and
 * the next boost is a whole guard period later.
 */
static void vaccel_test_arbiter_starvation(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;
	u64 starve = SLICE * VACCEL_ARBITER_STARVATION_SLICES;
	LIST_HEAD(report);
	u64 now;

	ctx_init(t, 0, HIGH);
	ctx_init(t, 1, LOW);
	push(t, 0, 1);
	push(t, 0, 1);
	push(t, 1, 1);
	vaccel_arbiter_fill(&t->arb, 1);
	KUNIT_EXPECT_EQ(test, slot_ctx(t, 1), 0);
	vaccel_arbiter_start(&t->arb, 1);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_deadline(&t->arb), 1 + starve);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_want_preempt(&t->arb, starve),
			VACCEL_PREEMPT_NONE);
	now = 1 + starve;
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_want_preempt(&t->arb, now),
			VACCEL_PREEMPT_STARVATION);
	vaccel_arbiter_preempt(&t->arb, now, VACCEL_PREEMPT_STARVATION, &report);
	vaccel_arbiter_requeue(&t->arb, VACCEL_PREEMPT_STARVATION, &report, now);
	vaccel_arbiter_fill(&t->arb, now);
	KUNIT_EXPECT_EQ(test, slot_ctx(t, 0), 1);
	KUNIT_EXPECT_PTR_EQ(test, t->arb.boosted, &t->e[1]);
	vaccel_arbiter_start(&t->arb, now);

	/* HIGH waits, but the boosted slice is not preempted... */
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_want_preempt(&t->arb, now + SLICE - 1),
			VACCEL_PREEMPT_NONE);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_deadline(&t->arb), now + SLICE);
	/* ...until it ends. */
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_want_preempt(&t->arb, now + SLICE),
			VACCEL_PREEMPT_PRIORITY);
	push(t, 1, now + SLICE);
	vaccel_arbiter_preempt(&t->arb, now + SLICE, VACCEL_PREEMPT_PRIORITY, &report);
	vaccel_arbiter_requeue(&t->arb, VACCEL_PREEMPT_PRIORITY, &report, now + SLICE);
	KUNIT_EXPECT_NULL(test, t->arb.boosted);
	now += SLICE;
	vaccel_arbiter_fill(&t->arb, now);
	KUNIT_EXPECT_EQ(test, slot_ctx(t, 0), 0);
	vaccel_arbiter_start(&t->arb, now);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_deadline(&t->arb), now + starve);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_want_preempt(&t->arb, now + starve - 1),
			VACCEL_PREEMPT_NONE);
	KUNIT_EXPECT_EQ(test, vaccel_arbiter_want_preempt(&t->arb, now + starve),
			VACCEL_PREEMPT_STARVATION);
}

/*
 * Reports list the HW queue in order, and requeues put every buffer back
 * before the later ones of its context: both slots of one context, and
 * one slot each of two.
 */
static void vaccel_test_arbiter_report_order(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;
	struct vaccel_arbiter_buffer *b;
	LIST_HEAD(report);
	int i, expect_ctx[] = { 0, 1, 1 };
	int expect_buf[] = { 2, 0, 1 };

	ctx_init(t, 0, NORMAL);
	ctx_init(t, 1, NORMAL);
	for (i = 0; i < 3; i++)
		push(t, 0, 0);
	vaccel_arbiter_fill(&t->arb, 0);
	vaccel_arbiter_start(&t->arb, 1);
	vaccel_arbiter_preempt(&t->arb, 2, VACCEL_PREEMPT_FORCED, &report);
	i = 0;
	list_for_each_entry(b, &report, link)
		KUNIT_EXPECT_PTR_EQ(test, b, &t->buf[0][i++]);
	KUNIT_EXPECT_EQ(test, t->e[0].preemptions, 1);
	vaccel_arbiter_requeue(&t->arb, VACCEL_PREEMPT_FORCED, &report, 2);
	i = 0;
	list_for_each_entry(b, &t->e[0].ring, link)
		KUNIT_EXPECT_PTR_EQ(test, b, &t->buf[0][i++]);
	KUNIT_EXPECT_EQ(test, i, 3);

	/* Slot 0 of context 0, slot 1 of context 1. */
	vaccel_arbiter_fill(&t->arb, 3);
	vaccel_arbiter_start(&t->arb, 3);
	vaccel_arbiter_retire(&t->arb, 4);
	vaccel_arbiter_retire(&t->arb, 4);
	push(t, 1, 4);
	push(t, 1, 4);
	vaccel_arbiter_fill(&t->arb, 4);
	KUNIT_EXPECT_EQ(test, slot_ctx(t, 0), 0);
	KUNIT_EXPECT_EQ(test, slot_buf(t, 0), 2);
	KUNIT_EXPECT_EQ(test, slot_ctx(t, 1), 1);
	vaccel_arbiter_start(&t->arb, 5);
	vaccel_arbiter_preempt(&t->arb, 6, VACCEL_PREEMPT_FORCED, &report);
	KUNIT_EXPECT_PTR_EQ(test, list_first_entry(&report, typeof(*b), link),
			    &t->buf[0][2]);
	KUNIT_EXPECT_PTR_EQ(test, list_last_entry(&report, typeof(*b), link),
			    &t->buf[1][0]);
	KUNIT_EXPECT_EQ(test, t->e[1].preemptions, 1);
	vaccel_arbiter_requeue(&t->arb, VACCEL_PREEMPT_FORCED, &report, 6);
	/* Serving order afterwards: the buffers in submission order per context. */
	for (i = 0; i < 3; i++) {
		vaccel_arbiter_fill(&t->arb, 7);
		KUNIT_EXPECT_EQ(test, slot_ctx(t, 0), expect_ctx[i]);
		KUNIT_EXPECT_EQ(test, slot_buf(t, 0), expect_buf[i]);
		vaccel_arbiter_start(&t->arb, 7);
		vaccel_arbiter_retire(&t->arb, 8);
	}
}

/* Removal waits for a running buffer, then takes slots before the ring. */
static void vaccel_test_arbiter_remove(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;
	struct vaccel_arbiter_buffer *b;
	LIST_HEAD(removed);
	int i = 0;

	ctx_init(t, 0, NORMAL);
	ctx_init(t, 1, NORMAL);
	push(t, 0, 0);
	push(t, 0, 0);
	push(t, 0, 0);
	push(t, 1, 0);
	vaccel_arbiter_fill(&t->arb, 0);
	vaccel_arbiter_start(&t->arb, 1);
	KUNIT_EXPECT_FALSE(test, vaccel_arbiter_remove(&t->arb, &t->e[0], &removed));
	KUNIT_EXPECT_TRUE(test, list_empty(&removed));
	KUNIT_EXPECT_EQ(test, t->arb.slots_used, 2);
	vaccel_arbiter_retire(&t->arb, 2);
	KUNIT_EXPECT_TRUE(test, vaccel_arbiter_remove(&t->arb, &t->e[0], &removed));
	list_for_each_entry(b, &removed, link)
		KUNIT_EXPECT_PTR_EQ(test, b, &t->buf[0][1 + i++]);
	KUNIT_EXPECT_EQ(test, i, 2);
	KUNIT_EXPECT_EQ(test, t->arb.slots_used, 0);
	vaccel_arbiter_fill(&t->arb, 2);
	KUNIT_EXPECT_EQ(test, slot_ctx(t, 0), 1);
	KUNIT_EXPECT_EQ(test, t->arb.slots_used, 1);
}

/*
 * Random pushes, retires, preemptions and removals over contexts of every
 * band: every buffer runs to completion exactly once, each context's in
 * submission order, and a buffer that starts below the highest band
 * waiting is preempted at once, unless the guard boosted it.
 */
static void vaccel_test_arbiter_random(struct kunit *test)
{
	struct vaccel_arbiter_test *t = test->priv;
	unsigned int retired[NCTX] = {}, removed_from = NCTX;
	struct rnd_state rnd;
	u64 now = 1;
	int c, step;

	prandom_seed_state(&rnd, 42);
	for (c = 0; c < NCTX; c++)
		ctx_init(t, c, c % VACCEL_ARBITER_BANDS);

	for (step = 0; step < 20000; step++) {
		u32 r = prandom_u32_state(&rnd);
		LIST_HEAD(list);

		now += r % (SLICE / 2);
		c = (r >> 8) % NCTX;
		switch ((r >> 16) % 5) {
		case 0:
		case 1:
			if (t->pushed[c] < NBUF && c != removed_from)
				push(t, c, now);
			break;
		case 2:
			if (t->arb.running_since) {
				struct vaccel_arbiter_buffer *b =
					vaccel_arbiter_retire(&t->arb, now);
				int bc = b->entry - t->e;

				KUNIT_ASSERT_EQ(test, (int)(b - t->buf[bc]),
						(int)retired[bc]);
				retired[bc]++;
			}
			break;
		case 3: {
			enum vaccel_preempt_reason why =
				vaccel_arbiter_want_preempt(&t->arb, now);

			if (why == VACCEL_PREEMPT_NONE)
				why = VACCEL_PREEMPT_FORCED;
			vaccel_arbiter_preempt(&t->arb, now, why, &list);
			vaccel_arbiter_requeue(&t->arb, why, &list, now);
			break;
		}
		default:
			/* Cancel one context once, when none of its buffers runs. */
			if (removed_from == NCTX && step > 10000 &&
			    vaccel_arbiter_remove(&t->arb, &t->e[c], &list)) {
				struct vaccel_arbiter_buffer *b;

				list_for_each_entry(b, &list, link)
					KUNIT_ASSERT_EQ(test, (int)(b - t->buf[c]),
							(int)retired[c]++);
				KUNIT_ASSERT_EQ(test, retired[c], t->pushed[c]);
				removed_from = c;
			}
			break;
		}
		if (!t->arb.running_since) {
			int top = -1, b;

			vaccel_arbiter_fill(&t->arb, now);
			for (b = 0; b < VACCEL_ARBITER_BANDS; b++)
				if (!list_empty(&t->arb.bands[b]))
					top = b;
			for (b = 0; b < t->arb.slots_used; b++)
				top = max_t(int, top, t->arb.slot[b]->entry->band);
			if (t->arb.slots_used) {
				vaccel_arbiter_start(&t->arb, now);
				if (!t->arb.boosted &&
				    (int)t->arb.slot[0]->entry->band < top)
					KUNIT_ASSERT_EQ(test,
							vaccel_arbiter_want_preempt(&t->arb, now),
							VACCEL_PREEMPT_PRIORITY);
			}
		}
	}
	/* Drain: everything pushed completes. */
	while (t->arb.slots_used) {
		struct vaccel_arbiter_buffer *b;
		int bc;

		if (!t->arb.running_since)
			vaccel_arbiter_start(&t->arb, now);
		b = vaccel_arbiter_retire(&t->arb, ++now);
		bc = b->entry - t->e;
		KUNIT_ASSERT_EQ(test, (int)(b - t->buf[bc]), (int)retired[bc]);
		retired[bc]++;
		vaccel_arbiter_fill(&t->arb, now);
	}
	for (c = 0; c < NCTX; c++)
		KUNIT_EXPECT_EQ(test, retired[c], t->pushed[c]);
}

static struct kunit_case vaccel_arbiter_test_cases[] = {
	KUNIT_CASE(vaccel_test_arbiter_empty),
	KUNIT_CASE(vaccel_test_arbiter_two_slots),
	KUNIT_CASE(vaccel_test_arbiter_bands_strict),
	KUNIT_CASE(vaccel_test_arbiter_priority_preempt),
	KUNIT_CASE(vaccel_test_arbiter_priority_in_next_slot),
	KUNIT_CASE(vaccel_test_arbiter_slice),
	KUNIT_CASE(vaccel_test_arbiter_slice_alone),
	KUNIT_CASE(vaccel_test_arbiter_slice_at_boundary),
	KUNIT_CASE(vaccel_test_arbiter_priority_keeps_turn),
	KUNIT_CASE(vaccel_test_arbiter_starvation),
	KUNIT_CASE(vaccel_test_arbiter_report_order),
	KUNIT_CASE(vaccel_test_arbiter_remove),
	KUNIT_CASE(vaccel_test_arbiter_random),
	{}
};

static struct kunit_suite vaccel_arbiter_test_suite = {
	.name = "vaccel_arbiter",
	.init = vaccel_arbiter_test_init,
	.test_cases = vaccel_arbiter_test_cases,
};

kunit_test_suite(vaccel_arbiter_test_suite);
