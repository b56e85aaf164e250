// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * host_defer.c - libvaccel 1.9 on the fake device of fake_vaccel.c
 * (LD_PRELOAD), which executes the packets it is given: host events and
 * deferred submission (work held back until a host event is set, pending
 * events, failure and its spread, a queue destroyed with held work, a host
 * event set by another thread while the owner records, the pool growing
 * past its bound while work is held), waits on many events, command groups
 * (profiling, the empty group as a marker, refusals), the public wait
 * limit.  Every case ends with the objects it started with: nothing leaks
 * in the fake, and valgrind (run.sh) checks the library's own memory.
 * tests/vm/test_libvaccel_host_events.c checks the same against the
 * module.
 *
 *	VACCEL_DEVICE_DIR=DIR LD_PRELOAD=fake_vaccel.so host_defer
 *
 * Prints the first failed check on stderr and exits 1, else exits 0.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <vaccel.h>

#include "host_check.h"
#include "host_lib.h"

#define KIB		1024ull

static unsigned int (*objects)(void);
static unsigned long long (*stat)(const char *name);

struct census {
	unsigned int objects;
	unsigned long long contexts;
	unsigned long long syncobjs;
};

static struct census census(void)
{
	return (struct census){ objects(), stat("contexts"), stat("syncobjs") };
}

static void expect_census(struct census c)
{
	CHECK_EQ(objects(), c.objects);
	CHECK_EQ(stat("contexts"), c.contexts);
	CHECK_EQ(stat("syncobjs"), c.syncobjs);
}

static struct vaccel_event *host_event(void)
{
	struct vaccel_event *ev;

	CHECK_EQ(vaccel_event_create_ex(NULL, VACCEL_EVENT_HOST, &ev), 0);
	return ev;
}

static struct vaccel_event *event(struct vaccel_device *dev, uint32_t flags)
{
	struct vaccel_event *ev;

	CHECK_EQ(vaccel_event_create_ex(dev, flags, &ev), 0);
	return ev;
}

/* The next command of @q waits for @w (NULL: nothing) and signals @s. */
static void sync1(struct vaccel_queue *q, struct vaccel_event *w, uint64_t wp,
		  struct vaccel_event *s, uint64_t sp)
{
	struct vaccel_event_point p = { w, wp };
	struct vaccel_command_sync sync = {
		.waits = &p, .wait_count = w ? 1 : 0, .signal = s, .signal_point = sp,
	};

	CHECK_EQ(vaccel_queue_set_command_sync(q, &sync), 0);
}

/* Work waiting for an unset host event waits; set to 0, it runs. */
static void test_hold_release(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct vaccel_queue *q = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct host_buf b = host_buf_alloc(dev, 64 * KIB);
	struct vaccel_event *h = host_event(), *e = event(dev, 0);

	CHECK_EQ(vaccel_event_wait(h, 0), -ETIME);
	sync1(q, h, 0, e, 0);
	CHECK_EQ(vaccel_queue_fill(q, b.va, 4096, 0x11111111), 0);
	/* In order: recorded after it, held too. */
	CHECK_EQ(vaccel_queue_write(q, b.va + 8192, 7, 32), 0);
	CHECK_EQ(vaccel_queue_flush(q), 0);
	usleep(20000);
	CHECK_EQ(b.w32[0], 0);
	CHECK_EQ(b.w32[2048], 0);
	CHECK_EQ(vaccel_event_wait(e, 10000000), -ETIME);
	CHECK_EQ(stat("pending"), 0);

	CHECK_EQ(vaccel_event_set_status(h, 0), 0);
	CHECK_EQ(vaccel_event_set_status(h, 0), -EALREADY);
	CHECK_EQ(vaccel_event_wait(h, 0), 0);
	CHECK_EQ(vaccel_event_wait(e, -1), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(b.w32[0], 0x11111111);
	CHECK_EQ(b.w32[1023], 0x11111111);
	CHECK_EQ(b.w32[2048], 7);

	/* A host event set already waits for nothing. */
	sync1(q, h, 0, NULL, 0);
	CHECK_EQ(vaccel_queue_write(q, b.va + 8192, 8, 32), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(b.w32[2048], 8);

	/* Bad uses. */
	CHECK_EQ(vaccel_event_set_status(e, 0), -EINVAL);
	CHECK_EQ(vaccel_event_set_status(NULL, 0), -EINVAL);
	CHECK_EQ(vaccel_event_signal(h), -EINVAL);
	CHECK_EQ(vaccel_event_reset(h), -EINVAL);
	CHECK_EQ(vaccel_queue_signal(q, h), -EINVAL);
	{
		struct vaccel_event *x;
		int fd;

		CHECK_EQ(vaccel_event_export_sync_file(h, &fd), -EINVAL);
		CHECK_EQ(vaccel_event_create_ex(dev, VACCEL_EVENT_HOST |
						VACCEL_EVENT_TIMELINE, &x), -EINVAL);
		CHECK_EQ(vaccel_event_create_ex(NULL, 0, &x), -EINVAL);
		x = host_event();
		CHECK_EQ(vaccel_event_set_status(x, 1), -EINVAL);
		CHECK_EQ(vaccel_event_set_status(x, -5000), -EINVAL);
		vaccel_event_destroy(x);
	}
	{
		/* A host event is not a command's signal. */
		struct vaccel_command_sync sync = { .signal = h };

		CHECK_EQ(vaccel_queue_set_command_sync(q, &sync), -EINVAL);
	}
	vaccel_event_destroy(e);
	vaccel_event_destroy(h);
	vaccel_queue_destroy(q);
	vaccel_bo_free(b.bo);
	expect_census(c0);
}

/*
 * Pending events: a command of another queue that waits for an event a
 * held command signals is held too, and runs once that command is
 * submitted; a timeline's point likewise.
 */
static void test_pending(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct vaccel_queue *q1 = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct vaccel_queue *q2 = host_queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct host_buf b = host_buf_alloc(dev, 64 * KIB);
	struct vaccel_event *h = host_event(), *e = event(dev, 0);
	struct vaccel_event *t = event(dev, VACCEL_EVENT_TIMELINE), *e2 = event(dev, 0);
	uint64_t point;

	sync1(q1, h, 0, e, 0);
	CHECK_EQ(vaccel_queue_write(q1, b.va, 1, 32), 0);
	sync1(q1, NULL, 0, t, 1);
	CHECK_EQ(vaccel_queue_write(q1, b.va + 4, 2, 32), 0);
	/* q2 waits for the pending e, then for the pending point 1 of t. */
	sync1(q2, e, 0, NULL, 0);
	CHECK_EQ(vaccel_queue_write(q2, b.va + 8, 3, 32), 0);
	CHECK_EQ(vaccel_queue_wait_event(q2, t), 0);
	sync1(q2, NULL, 0, e2, 0);
	CHECK_EQ(vaccel_queue_write(q2, b.va + 12, 4, 32), 0);
	CHECK_EQ(vaccel_queue_flush(q2), 0);
	usleep(20000);
	CHECK_EQ(b.w32[0] | b.w32[1] | b.w32[2] | b.w32[3], 0);
	CHECK_EQ(vaccel_event_get_point(t, &point), 0);
	CHECK(point == 0);
	CHECK_EQ(vaccel_event_wait(e2, 0), -ETIME);
	CHECK_EQ(vaccel_event_wait_point(t, 1, 1000000), -ETIME);

	CHECK_EQ(vaccel_event_set_status(h, 0), 0);
	CHECK_EQ(vaccel_event_wait(e2, -1), 0);
	CHECK_EQ(vaccel_event_wait_point(t, 1, -1), 0);
	CHECK_EQ(vaccel_queue_finish(q2), 0);
	CHECK_EQ(vaccel_queue_finish(q1), 0);
	CHECK_EQ(b.w32[0], 1);
	CHECK_EQ(b.w32[1], 2);
	CHECK_EQ(b.w32[2], 3);
	CHECK_EQ(b.w32[3], 4);

	vaccel_event_destroy(e2);
	vaccel_event_destroy(t);
	vaccel_event_destroy(e);
	vaccel_event_destroy(h);
	vaccel_queue_destroy(q2);
	vaccel_queue_destroy(q1);
	vaccel_bo_free(b.bo);
	expect_census(c0);
}

/*
 * A failed host event: the held work never runs, its events fail with the
 * status, and so does the work waiting for them on another queue; the
 * queues stay usable.
 */
static void test_fail(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct vaccel_queue *q1 = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct vaccel_queue *q2 = host_queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct host_buf b = host_buf_alloc(dev, 64 * KIB);
	struct vaccel_event *h = host_event(), *e1 = event(dev, 0), *e2 = event(dev, 0);
	struct vaccel_event *e3 = event(dev, 0), *e4 = event(dev, 0), *h2 = host_event();

	sync1(q1, h, 0, e1, 0);
	CHECK_EQ(vaccel_queue_write(q1, b.va, 1, 32), 0);
	sync1(q1, NULL, 0, e2, 0);
	CHECK_EQ(vaccel_queue_write(q1, b.va + 4, 2, 32), 0);
	CHECK_EQ(vaccel_queue_write(q1, b.va + 16, 5, 32), 0);	/* unflushed */
	sync1(q2, e2, 0, e3, 0);
	CHECK_EQ(vaccel_queue_write(q2, b.va + 8, 3, 32), 0);

	CHECK_EQ(vaccel_event_set_status(h, -EIO), 0);
	CHECK_EQ(vaccel_event_wait(h, 0), -EIO);
	CHECK_EQ(vaccel_event_wait(e1, -1), -EIO);
	CHECK_EQ(vaccel_event_wait(e2, -1), -EIO);
	CHECK_EQ(vaccel_event_wait(e3, -1), -EIO);
	CHECK_EQ(vaccel_queue_finish(q1), 0);
	CHECK_EQ(vaccel_queue_finish(q2), 0);
	CHECK_EQ(b.w32[0] | b.w32[1] | b.w32[2] | b.w32[4], 0);
	{
		struct vaccel_event_point p[] = { { e1, 0 }, { e3, 0 } };
		uint32_t first = 99;

		CHECK_EQ(vaccel_event_wait_many(p, 2, true, 0, &first), -EIO);
		CHECK_EQ(first, 0);
	}

	/* Usable: new work runs. */
	sync1(q1, NULL, 0, e4, 0);
	CHECK_EQ(vaccel_queue_write(q1, b.va, 9, 32), 0);
	CHECK_EQ(vaccel_event_wait(e4, -1), 0);
	CHECK_EQ(vaccel_queue_write(q2, b.va + 8, 10, 32), 0);
	CHECK_EQ(vaccel_queue_finish(q2), 0);
	CHECK_EQ(b.w32[0], 9);
	CHECK_EQ(b.w32[2], 10);

	/* Waiting for a failed event fails the command at once. */
	sync1(q2, h, 0, e3, 0);
	CHECK_EQ(vaccel_queue_write(q2, b.va + 8, 11, 32), 0);
	CHECK_EQ(vaccel_event_wait(e3, -1), -EIO);
	CHECK_EQ(vaccel_queue_finish(q2), 0);
	CHECK_EQ(b.w32[2], 10);
	/* The event failed by a drop is signalled anew by a command. */
	sync1(q2, NULL, 0, e3, 0);
	CHECK_EQ(vaccel_queue_write(q2, b.va + 8, 12, 32), 0);
	CHECK_EQ(vaccel_event_wait(e3, -1), 0);
	CHECK_EQ(b.w32[2], 12);

	/* Destroying an unset host event fails its waiters with -ECANCELED. */
	sync1(q2, h2, 0, e3, 0);
	CHECK_EQ(vaccel_queue_write(q2, b.va + 8, 13, 32), 0);
	vaccel_event_destroy(h2);
	CHECK_EQ(vaccel_event_wait(e3, -1), -ECANCELED);
	CHECK_EQ(b.w32[2], 12);

	vaccel_event_destroy(e4);
	vaccel_event_destroy(e3);
	vaccel_event_destroy(e2);
	vaccel_event_destroy(e1);
	vaccel_event_destroy(h);
	vaccel_queue_destroy(q2);
	vaccel_queue_destroy(q1);
	vaccel_bo_free(b.bo);
	expect_census(c0);
}

/* A queue destroyed with held work: its events fail with -ECANCELED. */
static void test_destroy_held(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct vaccel_queue *q = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct vaccel_queue *q2 = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct host_buf b = host_buf_alloc(dev, 64 * KIB);
	struct vaccel_event *h = host_event(), *e = event(dev, 0), *e2 = event(dev, 0);

	sync1(q, h, 0, e, 0);
	CHECK_EQ(vaccel_queue_fill(q, b.va, 4096, 1), 0);
	sync1(q2, e, 0, e2, 0);
	CHECK_EQ(vaccel_queue_fill(q2, b.va + 4096, 4096, 2), 0);
	/* The events outlive their owner's destroy while held work has them. */
	vaccel_queue_destroy(q);
	CHECK_EQ(vaccel_event_wait(e, -1), -ECANCELED);
	CHECK_EQ(vaccel_event_wait(e2, -1), -ECANCELED);
	CHECK_EQ(vaccel_event_set_status(h, 0), 0);
	CHECK_EQ(vaccel_queue_finish(q2), 0);
	CHECK_EQ(b.w32[0] | b.w32[1024], 0);

	/* An event destroyed while held work signals it lives on for it. */
	sync1(q2, h, 0, NULL, 0);
	vaccel_event_destroy(e);
	vaccel_event_destroy(e2);
	vaccel_queue_destroy(q2);
	vaccel_event_destroy(h);
	vaccel_bo_free(b.bo);
	expect_census(c0);
}

struct setter {
	struct vaccel_event *h;
	unsigned int delay_us;
};

static void *set_later(void *arg)
{
	struct setter *s = arg;

	usleep(s->delay_us);
	CHECK_EQ(vaccel_event_set_status(s->h, 0), 0);
	return NULL;
}

/*
 * Another thread sets the host event while the owner records: the work
 * runs in order, whichever thread submits it; the pool grows past its
 * bound while work is held.
 */
static void test_threads(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct vaccel_queue *q = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct host_buf b = host_buf_alloc(dev, 64 * KIB);
	struct setter s = { .h = host_event(), .delay_us = 2000 };
	unsigned int i, round;
	pthread_t t;

	for (round = 0; round < 20; round++) {
		struct setter r = { .h = host_event(), .delay_us = round * 300 };

		CHECK_EQ(pthread_create(&t, NULL, set_later, &r), 0);
		sync1(q, r.h, 0, NULL, 0);
		/* Each write adds one: the last value proves the order. */
		for (i = 0; i < 3000; i++)
			CHECK_EQ(vaccel_queue_write(q, b.va + 4 * (i % 64), round * 3000 + i, 32), 0);
		CHECK_EQ(vaccel_queue_finish(q), 0);
		CHECK_EQ(pthread_join(t, NULL), 0);
		for (i = 2936; i < 3000; i++)
			CHECK_EQ(b.w32[i % 64], round * 3000 + i);
		vaccel_event_destroy(r.h);
	}

	/* More than VACCEL_QUEUE_MAX_BUFFERS buffers of held work. */
	sync1(q, s.h, 0, NULL, 0);
	for (i = 0; i < 8000 * 3; i++)
		CHECK_EQ(vaccel_queue_fill(q, b.va + 4096, 4096, i), 0);
	CHECK(stat("pending") == 0);
	/* finish blocks until the other thread sets the event. */
	CHECK_EQ(pthread_create(&t, NULL, set_later, &s), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
	CHECK_EQ(b.w32[1024], 8000 * 3 - 1);
	vaccel_event_destroy(s.h);
	vaccel_queue_destroy(q);
	vaccel_bo_free(b.bo);
	expect_census(c0);
}

/* Waits on many: any and all, host and device events, the timeout. */
static void test_wait_many(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct vaccel_queue *q = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct vaccel_event *h = host_event(), *e = event(dev, 0);
	struct vaccel_event *t = event(dev, VACCEL_EVENT_TIMELINE), *f = event(dev, 0);
	struct vaccel_event_point p[3] = { { h, 0 }, { e, 0 }, { t, 2 } };
	struct setter s = { .h = h, .delay_us = 20000 };
	uint32_t first = 99;
	pthread_t th;

	CHECK_EQ(vaccel_event_wait_many(p, 3, false, 1000000, &first), -ETIME);
	CHECK_EQ(vaccel_event_wait_many(p, 3, true, 0, &first), -ETIME);
	CHECK_EQ(vaccel_queue_signal(q, e), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(vaccel_event_wait_many(p, 3, false, -1, &first), 0);
	CHECK_EQ(first, 1);
	CHECK_EQ(vaccel_event_wait_many(p, 3, true, 1000000, &first), -ETIME);
	/* All: ends once the other thread sets the host event. */
	CHECK_EQ(vaccel_event_signal_point(t, 2), 0);
	CHECK_EQ(pthread_create(&th, NULL, set_later, &s), 0);
	CHECK_EQ(vaccel_event_wait_many(p, 3, true, -1, &first), 0);
	CHECK_EQ(pthread_join(th, NULL), 0);
	/* One device, no host event: one wait of the kernel. */
	CHECK_EQ(vaccel_event_wait_many(p + 1, 2, true, 0, NULL), 0);
	p[0].event = f;
	CHECK_EQ(vaccel_event_wait_many(p, 1, false, 0, &first), -ETIME);
	CHECK_EQ(vaccel_event_wait_many(p, 2, false, -1, &first), 0);
	CHECK_EQ(first, 1);
	/* Bad points. */
	p[0].point = 1;
	CHECK_EQ(vaccel_event_wait_many(p, 1, true, 0, NULL), -EINVAL);
	CHECK_EQ(vaccel_event_wait_many(p, 0, true, 0, NULL), -EINVAL);
	CHECK_EQ(vaccel_event_wait_many(NULL, 1, true, 0, NULL), -EINVAL);
	vaccel_event_destroy(f);
	vaccel_event_destroy(t);
	vaccel_event_destroy(e);
	vaccel_event_destroy(h);
	vaccel_queue_destroy(q);
	expect_census(c0);
}

/*
 * Groups: one wait set, one signal, one profiling interval; the marker.
 * A device of its own: profiling slots are the device's until it closes.
 */
static void test_groups(void)
{
	struct census c0 = census();
	struct vaccel_event *p, *m, *h = host_event(), *e;
	struct vaccel_command_sync sync = { 0 };
	struct vaccel_event_times times;
	struct vaccel_event_point w = { h, 0 };
	struct vaccel_device *dev;
	struct vaccel_queue *q;
	struct host_buf b;

	CHECK_EQ(vaccel_device_open(0, &dev), 0);
	q = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	b = host_buf_alloc(dev, 64 * KIB);
	p = event(dev, VACCEL_EVENT_PROFILING);
	m = event(dev, 0);
	e = event(dev, 0);
	sync.signal = p;

	CHECK_EQ(vaccel_queue_begin_group(q, &sync), 0);
	CHECK_EQ(vaccel_queue_begin_group(q, NULL), -EBUSY);
	CHECK_EQ(vaccel_queue_set_command_sync(q, &sync), -EBUSY);
	CHECK_EQ(vaccel_queue_delay(q, 2000000), 0);
	CHECK_EQ(vaccel_queue_fill(q, b.va, 4096, 5), 0);
	CHECK_EQ(vaccel_queue_delay(q, 2000000), 0);
	CHECK_EQ(vaccel_queue_end_group(q), 0);
	CHECK_EQ(vaccel_queue_end_group(q), -EINVAL);
	CHECK_EQ(vaccel_event_wait(p, -1), 0);
	CHECK_EQ(vaccel_event_get_times(p, &times), 0);
	CHECK(times.submitted_ns <= times.started_ns);
	/* The interval covers both delays. */
	CHECK(times.ended_ns - times.started_ns >= 4000000);
	CHECK_EQ(b.w32[0], 5);

	/* An empty group is a marker; a group waits as one for a host event. */
	sync.signal = e;
	sync.waits = &w;
	sync.wait_count = 1;
	CHECK_EQ(vaccel_queue_begin_group(q, &sync), 0);
	CHECK_EQ(vaccel_queue_fill(q, b.va, 4096, 6), 0);
	CHECK_EQ(vaccel_queue_fill(q, b.va + 4096, 4096, 6), 0);
	CHECK_EQ(vaccel_queue_end_group(q), 0);
	sync.signal = m;
	sync.wait_count = 0;
	CHECK_EQ(vaccel_queue_begin_group(q, &sync), 0);
	CHECK_EQ(vaccel_queue_end_group(q), 0);
	usleep(10000);
	CHECK_EQ(vaccel_event_wait(m, 0), -ETIME);
	CHECK_EQ(b.w32[0], 5);
	CHECK_EQ(vaccel_event_set_status(h, 0), 0);
	CHECK_EQ(vaccel_event_wait(m, -1), 0);
	CHECK_EQ(vaccel_event_wait(e, 0), 0);
	CHECK_EQ(b.w32[0], 6);
	CHECK_EQ(b.w32[1024], 6);

	/* The wait limit. */
	{
		struct vaccel_event_point many[VACCEL_MAX_WAITS + 1];
		struct vaccel_command_sync big = { .waits = many };
		unsigned int i;

		for (i = 0; i <= VACCEL_MAX_WAITS; i++)
			many[i] = (struct vaccel_event_point){ m, 0 };
		big.wait_count = VACCEL_MAX_WAITS + 1;
		CHECK_EQ(vaccel_queue_set_command_sync(q, &big), -E2BIG);
		big.wait_count = VACCEL_MAX_WAITS;
		CHECK_EQ(vaccel_queue_set_command_sync(q, &big), 0);
		CHECK_EQ(vaccel_queue_write(q, b.va, 1, 32), 0);
		CHECK_EQ(vaccel_queue_finish(q), 0);
		CHECK_EQ(b.w32[0], 1);
	}
	vaccel_event_destroy(e);
	vaccel_event_destroy(h);
	vaccel_event_destroy(m);
	vaccel_event_destroy(p);
	vaccel_queue_destroy(q);
	vaccel_bo_free(b.bo);
	vaccel_device_close(dev);
	expect_census(c0);
}

int main(void)
{
	struct vaccel_device *dev;
	struct census c0;

	objects = (unsigned int (*)(void))host_hook("fake_vaccel_objects");
	stat = (unsigned long long (*)(const char *))host_hook("fake_vaccel_stat");

	CHECK_EQ(vaccel_device_open(0, &dev), 0);
	c0 = census();
	test_hold_release(dev);
	test_pending(dev);
	test_fail(dev);
	test_destroy_held(dev);
	test_threads(dev);
	test_wait_many(dev);
	test_groups();
	expect_census(c0);
	vaccel_device_close(dev);
	CHECK_EQ(stat("contexts"), 0);
	CHECK_EQ(stat("syncobjs"), 0);
	return 0;
}
