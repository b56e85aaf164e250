// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * host_queue.c - the queues and events of libvaccel on the fake device of
 * fake_vaccel.c (LD_PRELOAD), which executes the packets it is given: the
 * commands and their results, the splitting of a recording larger than a
 * DMA buffer, the reuse and the bound of the pool of DMA buffers (the fake
 * can hold jobs back, like a slow device), events between queues and with
 * the CPU, faults and their records, and the unwinding of every step that
 * can fail (the fake fails ioctls on demand).  The VM tests (tests/vm/test_queue.c) check the
 * same against the real module; this one reaches paths the module cannot
 * be made to take.
 *
 *	VACCEL_DEVICE_DIR=DIR LD_PRELOAD=fake_vaccel.so host_queue
 *
 * Prints the first failed check on stderr and exits 1, else exits 0.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <vaccel.h>
#include <drm/vaccel_accel.h>

#include "host_check.h"
#include "host_lib.h"

#define KIB		1024ull
#define NR(x)		(DRM_COMMAND_BASE + (x))
#define NR_CORE(x)	(_IOC_NR(x))

static unsigned int (*objects)(void);
static void (*fail)(unsigned int nr, int err, unsigned int count);
static void (*fail_after)(unsigned int nr, int err, unsigned int skip);
static void (*hold)(int on);
static unsigned long long (*stat)(const char *name);

/* What a test leaves behind must be what it found. */
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

/* Every command, on both classes, with the results checked. */
static void test_commands(struct vaccel_device *dev)
{
	enum vaccel_engine_class classes[] = {
		VACCEL_ENGINE_CLASS_COMPUTE, VACCEL_ENGINE_CLASS_COPY,
	};
	struct census c0 = census();
	unsigned int k, i;

	for (k = 0; k < 2; k++) {
		struct vaccel_queue *q = host_queue(dev, classes[k]);
		struct host_buf b = host_buf_alloc(dev, 64 * KIB);
		uint64_t *w64 = (uint64_t *)b.cpu;

		CHECK_EQ(vaccel_queue_fill(q, b.va, 4096, 0x11223344), 0);
		CHECK_EQ(vaccel_queue_copy(q, b.va + 8192, b.va, 4096), 0);
		CHECK_EQ(vaccel_queue_write(q, b.va + 16384, 0x1122334455667788ull, 64), 0);
		CHECK_EQ(vaccel_queue_write(q, b.va + 16392, 0xaabbccdd99887766ull, 32), 0);
		CHECK_EQ(vaccel_queue_timestamp(q, b.va + 16400), 0);
		CHECK_EQ(vaccel_queue_delay(q, 1000), 0);
		CHECK_EQ(vaccel_queue_wait_mem(q, b.va + 16384, 0x55667788, ~0ull,
					       VACCEL_COMPARE_EQ, 32), 0);
		CHECK_EQ(vaccel_queue_wait_mem(q, b.va + 16384, 0x1122334455667788ull,
					       0xffff000000000000ull, VACCEL_COMPARE_EQ,
					       64), 0);
		/* An overlapping copy forwards: memmove semantics. */
		CHECK_EQ(vaccel_queue_copy(q, b.va + 8196, b.va + 8192, 8), 0);
		CHECK_EQ(vaccel_queue_copy(q, b.va, b.va, 0), 0);
		CHECK_EQ(vaccel_queue_fill(q, b.va, 0, 1), 0);
		CHECK_EQ(vaccel_queue_finish(q), 0);
		CHECK_EQ(vaccel_queue_finish(q), 0);

		for (i = 0; i < 1024; i++)
			CHECK_EQ(b.w32[i], 0x11223344);
		for (i = 2048; i < 3072; i++)
			CHECK_EQ(b.w32[i], 0x11223344);
		CHECK(w64[2048] == 0x1122334455667788ull);
		CHECK_EQ(b.w32[4098], 0x99887766);
		CHECK_EQ(b.w32[4099], 0);
		CHECK(w64[2050] > 0);

		/* Bad arguments record nothing. */
		CHECK_EQ(vaccel_queue_fill(q, b.va + 2, 4, 0), -EINVAL);
		CHECK_EQ(vaccel_queue_fill(q, b.va, 6, 0), -EINVAL);
		CHECK_EQ(vaccel_queue_write(q, b.va, 0, 16), -EINVAL);
		CHECK_EQ(vaccel_queue_write(q, b.va + 4, 0, 64), -EINVAL);
		CHECK_EQ(vaccel_queue_write(q, b.va + 2, 0, 32), -EINVAL);
		CHECK_EQ(vaccel_queue_timestamp(q, b.va + 4), -EINVAL);
		CHECK_EQ(vaccel_queue_wait_mem(q, b.va, 0, 0, 6, 32), -EINVAL);
		CHECK_EQ(vaccel_queue_wait_mem(q, b.va + 4, 0, 0, VACCEL_COMPARE_EQ, 64),
			 -EINVAL);
		CHECK_EQ(vaccel_queue_wait_mem(q, b.va, 0, 0, VACCEL_COMPARE_EQ, 8), -EINVAL);
		CHECK_EQ(stat("pending"), 0);
		vaccel_queue_destroy(q);
		vaccel_bo_free(b.bo);
	}
	expect_census(c0);
}

static void test_create_errors(struct vaccel_device *dev)
{
	struct vaccel_queue *q = (struct vaccel_queue *)&q;
	struct census c0 = census();
	struct vaccel_device *nocopy;
	unsigned int p;

	CHECK_EQ(vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_PAGING,
				     VACCEL_PRIORITY_NORMAL, &q), -EINVAL);
	CHECK_EQ(vaccel_queue_create(dev, 7, VACCEL_PRIORITY_NORMAL, &q), -EINVAL);
	CHECK_EQ(vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COMPUTE, 4, &q), -EINVAL);
	CHECK_EQ(vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COMPUTE,
				     VACCEL_PRIORITY_NORMAL, NULL), -EINVAL);
	CHECK_EQ(vaccel_queue_create(NULL, VACCEL_ENGINE_CLASS_COMPUTE,
				     VACCEL_PRIORITY_NORMAL, &q), -EINVAL);
	CHECK(q == (struct vaccel_queue *)&q);

	/* A device without copy engines has no copy queues. */
	CHECK(!setenv("VT_COPY", "0", 1));
	CHECK_EQ(vaccel_device_open(0, &nocopy), 0);
	CHECK_EQ(vaccel_queue_create(nocopy, VACCEL_ENGINE_CLASS_COPY,
				     VACCEL_PRIORITY_NORMAL, &q), -ENODEV);
	vaccel_device_close(nocopy);
	CHECK(!unsetenv("VT_COPY"));

	/* HIGH and REALTIME need CAP_SYS_NICE, which the fake asks too. */
	for (p = VACCEL_PRIORITY_LOW; p <= VACCEL_PRIORITY_REALTIME; p++) {
		int ret = vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COPY, p, &q);

		CHECK(!ret || (ret == -EPERM && p > VACCEL_PRIORITY_NORMAL));
		if (!ret)
			vaccel_queue_destroy(q);
	}
	vaccel_queue_destroy(NULL);

	/* The kernel's errors, and every step unwound. */
	fail(NR(DRM_VACCEL_CONTEXT_CREATE), EPERM, 1);
	CHECK_EQ(vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COMPUTE,
				     VACCEL_PRIORITY_HIGH, &q), -EPERM);
	/* Either syncobj: what was made before it is undone. */
	for (p = 0; p < 2; p++) {
		fail_after(NR_CORE(DRM_IOCTL_SYNCOBJ_CREATE), ENOMEM, p);
		CHECK_EQ(vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COMPUTE,
					     VACCEL_PRIORITY_NORMAL, &q), -ENOMEM);
		expect_census(c0);
	}
	fail_after(NR_CORE(DRM_IOCTL_SYNCOBJ_CREATE), ENOMEM, 2);
	CHECK_EQ(vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COMPUTE,
				     VACCEL_PRIORITY_NORMAL, &q), 0);
	fail(0, 0, 0);
	vaccel_queue_destroy(q);
	expect_census(c0);
}

/*
 * A recording of 20000 writes (480000 bytes of packets) does not fit a DMA
 * buffer: it is split into full buffers, in order.
 */
static void test_split(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct vaccel_queue *q = host_queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct host_buf b = host_buf_alloc(dev, 64 * KIB);
	unsigned long long submits = stat("submits");
	unsigned int i, per_buffer = VACCEL_QUEUE_BUFFER_SIZE / 24;

	hold(1);
	for (i = 0; i < 10000; i++) {
		CHECK_EQ(vaccel_queue_write(q, b.va + 4 + 4 * i, i + 1, 32), 0);
		/* The same word again and again: the last write wins. */
		CHECK_EQ(vaccel_queue_write(q, b.va, i, 32), 0);
	}
	/* Only full buffers went: none of them executed yet. */
	CHECK_EQ(stat("submits") - submits, 20000 / per_buffer);
	CHECK_EQ(stat("pending"), 20000 / per_buffer);
	CHECK_EQ(stat("max_submit_bytes"), per_buffer * 24);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	hold(0);
	CHECK_EQ(stat("submits") - submits, 20000 / per_buffer + 1);
	CHECK_EQ(b.w32[0], 9999);
	for (i = 0; i < 10000; i++)
		CHECK_EQ(b.w32[1 + i], i + 1);
	vaccel_queue_destroy(q);
	vaccel_bo_free(b.bo);
	expect_census(c0);
}

/*
 * 10000 flushes: with a fast device the pool stays at a buffer or two;
 * with a device that holds jobs back it grows to VACCEL_QUEUE_MAX_BUFFERS,
 * then waits for the oldest buffer instead of growing.
 */
static void test_pool(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct host_buf b = host_buf_alloc(dev, 64 * KIB);
	unsigned int round, i, k, objs0 = objects(), most;

	for (round = 0; round < 2; round++) {
		struct vaccel_queue *q = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
		unsigned long long waits = stat("waits");

		hold(round);
		most = 0;
		for (i = 0; i < 10000; i++) {
			for (k = 0; k < 8; k++)
				CHECK_EQ(vaccel_queue_write(q, b.va + 4 * ((8 * i + k) % 16384),
							    8 * i + k, 32), 0);
			CHECK_EQ(vaccel_queue_flush(q), 0);
			if (objects() - objs0 > most)
				most = objects() - objs0;
		}
		if (round) {
			/* 240000 words would take 30 buffers: 16, then waits. */
			CHECK_EQ(most, VACCEL_QUEUE_MAX_BUFFERS);
			CHECK(stat("waits") > waits);
		} else {
			CHECK(most <= 2);
			CHECK_EQ(stat("waits"), waits);
		}
		CHECK_EQ(vaccel_queue_finish(q), 0);
		hold(0);
		for (i = 0; i < 16384; i++)
			CHECK_EQ(b.w32[i], i + 16384 * ((79999 - i) / 16384));
		/* Nothing to submit: finish waits for nothing new. */
		CHECK_EQ(vaccel_queue_flush(q), 0);
		CHECK_EQ(vaccel_queue_finish(q), 0);
		vaccel_queue_destroy(q);
		CHECK_EQ(objects(), objs0);
		memset(b.cpu, 0, 64 * KIB);
	}
	vaccel_bo_free(b.bo);
	expect_census(c0);
}

/* Events order two queues, and the CPU waits with a timeout. */
static void test_events(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct vaccel_queue *a = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct vaccel_queue *b = host_queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct vaccel_event *ev, *done;
	struct host_buf m = host_buf_alloc(dev, 4096);
	struct pollfd pfd;
	int fd = -1;

	CHECK_EQ(vaccel_event_create(dev, &ev), 0);
	CHECK_EQ(vaccel_event_create(dev, &done), 0);

	/* a: wait for the CPU, then write 7; b: after a, copy it. */
	CHECK_EQ(vaccel_queue_wait_mem(a, m.va, 1, ~0ull, VACCEL_COMPARE_EQ, 32), 0);
	CHECK_EQ(vaccel_queue_write(a, m.va + 4, 7, 32), 0);
	CHECK_EQ(vaccel_queue_signal(a, ev), 0);
	CHECK_EQ(vaccel_queue_write(b, m.va + 12, 5, 32), 0);	/* does not wait */
	CHECK_EQ(vaccel_queue_wait_event(b, ev), 0);
	CHECK_EQ(vaccel_queue_copy(b, m.va + 8, m.va + 4, 4), 0);
	CHECK_EQ(vaccel_queue_signal(b, done), 0);

	CHECK_EQ(vaccel_event_export_sync_file(done, &fd), 0);
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	CHECK_EQ(poll(&pfd, 1, 0), 0);
	CHECK_EQ(vaccel_event_wait(done, 0), -ETIME);
	CHECK_EQ(vaccel_event_wait(done, 2000000), -ETIME);
	CHECK_EQ(m.w32[3], 5);
	CHECK_EQ(m.w32[2], 0);

	__atomic_store_n(&m.w32[0], 1, __ATOMIC_SEQ_CST);
	CHECK_EQ(vaccel_event_wait(done, -1), 0);
	CHECK_EQ(vaccel_event_wait(ev, 0), 0);
	CHECK_EQ(m.w32[2], 7);
	CHECK_EQ(poll(&pfd, 1, 1000), 1);
	CHECK(pfd.revents & POLLIN);
	close(fd);
	CHECK_EQ(vaccel_queue_finish(a), 0);
	CHECK_EQ(vaccel_queue_finish(b), 0);

	/* The snapshot: resetting the event after the wait does not matter. */
	CHECK_EQ(vaccel_event_signal(ev), 0);
	CHECK_EQ(vaccel_queue_wait_event(b, ev), 0);
	CHECK_EQ(vaccel_event_reset(ev), 0);
	CHECK_EQ(vaccel_queue_write(b, m.va + 16, 9, 32), 0);
	CHECK_EQ(vaccel_queue_finish(b), 0);
	CHECK_EQ(m.w32[4], 9);

	/* No fence: no wait by a queue, no export; the CPU times out. */
	CHECK_EQ(vaccel_queue_wait_event(b, ev), -EINVAL);
	CHECK_EQ(vaccel_event_export_sync_file(ev, &fd), -EINVAL);
	CHECK_EQ(vaccel_event_wait(ev, 1000), -ETIME);
	CHECK_EQ(vaccel_event_signal(ev), 0);
	CHECK_EQ(vaccel_event_wait(ev, 0), 0);
	CHECK_EQ(vaccel_event_export_sync_file(ev, &fd), 0);
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	CHECK_EQ(poll(&pfd, 1, 0), 1);
	close(fd);

	/* More waits than a submission carries at once, all honoured. */
	{
		struct vaccel_event *many[40];
		unsigned int i;

		for (i = 0; i < 40; i++) {
			CHECK_EQ(vaccel_event_create(dev, &many[i]), 0);
			CHECK_EQ(vaccel_event_signal(many[i]), 0);
			CHECK_EQ(vaccel_queue_wait_event(b, many[i]), 0);
		}
		CHECK_EQ(vaccel_queue_write(b, m.va + 20, 11, 32), 0);
		CHECK_EQ(vaccel_queue_finish(b), 0);
		CHECK_EQ(m.w32[5], 11);
		for (i = 0; i < 40; i++)
			vaccel_event_destroy(many[i]);
		/* Pending waits alone are submitted by a flush. */
		CHECK_EQ(vaccel_queue_wait_event(b, done), 0);
		CHECK_EQ(vaccel_queue_flush(b), 0);
		CHECK_EQ(vaccel_queue_finish(b), 0);
	}

	/* Wrong arguments. */
	{
		struct vaccel_device *dev2;
		struct vaccel_event *other;

		CHECK_EQ(vaccel_device_open(0, &dev2), 0);
		CHECK_EQ(vaccel_event_create(dev2, &other), 0);
		CHECK_EQ(vaccel_event_signal(other), 0);
		CHECK_EQ(vaccel_queue_signal(b, other), -EINVAL);
		CHECK_EQ(vaccel_queue_wait_event(b, other), -EINVAL);
		vaccel_event_destroy(other);
		vaccel_device_close(dev2);
	}
	CHECK_EQ(vaccel_queue_signal(b, NULL), -EINVAL);
	CHECK_EQ(vaccel_queue_wait_event(NULL, ev), -EINVAL);
	CHECK_EQ(vaccel_event_create(dev, NULL), -EINVAL);
	CHECK_EQ(vaccel_event_export_sync_file(ev, NULL), -EINVAL);

	vaccel_event_destroy(ev);
	vaccel_event_destroy(done);
	vaccel_queue_destroy(a);
	vaccel_queue_destroy(b);
	vaccel_bo_free(m.bo);
	expect_census(c0);
}

/* A fault: reported by finish and by the events, the queue is lost. */
static void test_fault(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct vaccel_queue *q = host_queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct vaccel_queue *ok = host_queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct vaccel_event *ev;
	struct host_buf m = host_buf_alloc(dev, 4096);
	uint64_t hole;
	unsigned int round;

	CHECK_EQ(vaccel_va_alloc(dev, 4096, 0, &hole), 0);	/* never mapped */
	CHECK_EQ(vaccel_event_create(dev, &ev), 0);
	for (round = 0; round < 2; round++) {
		/* Round 1: the last buffer is cancelled, the fault is earlier. */
		hold(round);
		CHECK_EQ(vaccel_queue_write(q, hole, 1, 32), 0);
		CHECK_EQ(vaccel_queue_signal(q, ev), 0);
		if (round) {
			CHECK_EQ(vaccel_queue_write(q, m.va, 1, 32), 0);
			CHECK_EQ(vaccel_queue_flush(q), 0);
		}
		CHECK_EQ(vaccel_queue_finish(q), -EFAULT);
		hold(0);
		CHECK_EQ(vaccel_event_wait(ev, -1), -EFAULT);
		CHECK_EQ(vaccel_queue_write(q, m.va, 2, 32), -ECANCELED);
		CHECK_EQ(vaccel_queue_copy(q, m.va, m.va, 0), -ECANCELED);
		CHECK_EQ(vaccel_queue_flush(q), -ECANCELED);
		CHECK_EQ(vaccel_queue_finish(q), -ECANCELED);
		CHECK_EQ(vaccel_queue_signal(q, ev), -ECANCELED);
		CHECK_EQ(vaccel_queue_wait_event(q, ev), -ECANCELED);
		CHECK_EQ(m.w32[0], 0);

		/* Another queue goes on, and may wait for the failed event. */
		CHECK_EQ(vaccel_queue_wait_event(ok, ev), 0);
		CHECK_EQ(vaccel_queue_write(ok, m.va + 4, 3, 32), 0);
		CHECK_EQ(vaccel_queue_finish(ok), 0);
		CHECK_EQ(m.w32[1], 3);
		m.w32[1] = 0;
		vaccel_queue_destroy(q);
		q = host_queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	}

	/* A fault found by a later flush: the kernel refuses the submission. */
	CHECK_EQ(vaccel_queue_write(q, hole, 1, 32), 0);
	CHECK_EQ(vaccel_queue_flush(q), 0);
	CHECK_EQ(vaccel_queue_write(q, m.va, 1, 32), 0);
	CHECK_EQ(vaccel_queue_flush(q), -ECANCELED);
	CHECK_EQ(vaccel_queue_finish(q), -ECANCELED);

	vaccel_va_free(dev, hole, 4096);
	vaccel_event_destroy(ev);
	vaccel_queue_destroy(q);
	vaccel_queue_destroy(ok);
	vaccel_bo_free(m.bo);
	expect_census(c0);
}

/* The line of @f contains @want. */
static void expect_line(const struct vaccel_fault_info *f, const char *want)
{
	char line[VACCEL_FAULT_MSG_SIZE];
	int n = vaccel_fault_info_format(f, line, sizeof(line));

	CHECK(n > 0 && (size_t)n < sizeof(line));
	if (!strstr(line, want)) {
		fprintf(stderr, "fault line \"%s\" lacks \"%s\"\n", line, want);
		exit(1);
	}
}

/*
 * The fault record names the failing command: its reason, address,
 * submission, packet, recording function and number, across flushes and
 * DMA buffers, and after the pool wrapped around.
 */
static void test_fault_record(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct host_buf m = host_buf_alloc(dev, 4096);
	struct vaccel_fault_info f;
	struct vaccel_queue *q;
	char want[128], line[16];
	uint64_t hole;
	unsigned int i;
	int ret;

	CHECK_EQ(vaccel_va_alloc(dev, 4096, 0, &hole), 0);	/* never mapped */

	/* A queue that has not failed has no record. */
	q = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	memset(&f, 0xa5, sizeof(f));
	CHECK_EQ(vaccel_queue_get_fault(q, &f), 0);
	CHECK_EQ(f.failure, VACCEL_FAILURE_NONE);
	CHECK_EQ(f.command_index, 0);
	CHECK(!f.kernel && !f.function && !f.reserved[7]);
	expect_line(&f, "no failure");

	/* The third command of one submission: a write, 8 words in. */
	CHECK_EQ(vaccel_queue_fill(q, m.va, 64, 0), 0);
	CHECK_EQ(vaccel_queue_copy(q, m.va + 64, m.va, 64), 0);
	CHECK_EQ(vaccel_queue_write(q, hole + 8, 1, 32), 0);
	CHECK_EQ(vaccel_queue_write(q, m.va, 1, 32), 0);
	CHECK_EQ(vaccel_queue_finish(q), -EFAULT);
	CHECK_EQ(vaccel_queue_get_fault(q, &f), 0);
	CHECK_EQ(f.failure, VACCEL_FAILURE_FAULT);
	CHECK_EQ(f.error, -EFAULT);
	CHECK_EQ(f.reason, VACCEL_FAULT_UNMAPPED);
	CHECK_EQ(f.access, VACCEL_ACCESS_WRITE);
	CHECK(f.va == hole + 8);
	CHECK_EQ(f.pc, 0);
	CHECK_EQ(f.submission, 1);
	CHECK(f.buffer_va != 0);
	CHECK_EQ(f.packet_offset, 64);
	CHECK_EQ(f.command, VACCEL_COMMAND_WRITE);
	CHECK_EQ(f.command_index, 3);
	CHECK(!f.kernel && !f.function && !f.elf_pc);
	snprintf(want, sizeof(want), "fault: write of unmapped address 0x%llx by write #3, "
		 "submission 1, packet +0x40 of DMA buffer 0x%llx",
		 (unsigned long long)hole + 8, (unsigned long long)f.buffer_va);
	expect_line(&f, want);
	/* The record stays, and later errors do not change it. */
	CHECK_EQ(vaccel_queue_flush(q), -ECANCELED);
	CHECK_EQ(vaccel_queue_get_fault(q, &f), 0);
	CHECK_EQ(f.command_index, 3);
	vaccel_queue_destroy(q);

	/* A copy from the hole in the third of several submissions. */
	q = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	for (i = 0; i < 5; i++)
		CHECK_EQ(vaccel_queue_write(q, m.va + 4 * i, i, 32), 0);
	CHECK_EQ(vaccel_queue_flush(q), 0);
	CHECK_EQ(vaccel_queue_delay(q, 10), 0);
	CHECK_EQ(vaccel_queue_flush(q), 0);
	CHECK_EQ(vaccel_queue_timestamp(q, m.va + 64), 0);
	CHECK_EQ(vaccel_queue_copy(q, m.va, hole, 16), 0);
	CHECK_EQ(vaccel_queue_finish(q), -EFAULT);
	CHECK_EQ(vaccel_queue_get_fault(q, &f), 0);
	CHECK_EQ(f.submission, 3);
	CHECK_EQ(f.command, VACCEL_COMMAND_COPY);
	CHECK_EQ(f.command_index, 8);
	CHECK_EQ(f.access, VACCEL_ACCESS_READ);
	CHECK_EQ(f.packet_offset, 16);
	expect_line(&f, "fault: read of unmapped address");
	expect_line(&f, " by copy #8, submission 3, packet +0x10 of DMA buffer");
	vaccel_queue_destroy(q);

	/*
	 * The 5000th write, in the second DMA buffer (a full one goes
	 * alone), held back so that the fault comes after the recording.
	 */
	q = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	hold(1);
	for (i = 1; i <= 6000; i++)
		CHECK_EQ(vaccel_queue_write(q, i == 5000 ? hole : m.va, i, 32), 0);
	CHECK_EQ(vaccel_queue_finish(q), -EFAULT);
	hold(0);
	CHECK_EQ(vaccel_queue_get_fault(q, &f), 0);
	CHECK_EQ(f.command, VACCEL_COMMAND_WRITE);
	CHECK_EQ(f.command_index, 5000);
	CHECK_EQ(f.submission, 2);
	CHECK_EQ(f.packet_offset, (5000 - 1 - (VACCEL_QUEUE_BUFFER_SIZE / 24)) * 24ull);
	vaccel_queue_destroy(q);

	/*
	 * Held back, the fault is found only once recording wraps the pool
	 * around: the failed buffer is not reused, so its record survives,
	 * and the recording stops there with -ECANCELED.
	 */
	q = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	hold(1);
	CHECK_EQ(vaccel_queue_write(q, hole, 1, 32), 0);
	CHECK_EQ(vaccel_queue_flush(q), 0);
	for (i = 0, ret = 0; i < 100000 && !ret; i++)
		ret = vaccel_queue_write(q, m.va, i, 32);
	hold(0);
	CHECK_EQ(ret, -ECANCELED);
	CHECK(i > 16 * (VACCEL_QUEUE_BUFFER_SIZE / 24) - 16);
	CHECK_EQ(vaccel_queue_get_fault(q, &f), 0);
	CHECK_EQ(f.command_index, 1);
	CHECK_EQ(f.submission, 1);
	CHECK_EQ(f.packet_offset, 0);
	CHECK_EQ(vaccel_queue_finish(q), -ECANCELED);
	vaccel_queue_destroy(q);

	/* Names, and the formatter's edges. */
	CHECK(!strcmp(vaccel_failure_name(VACCEL_FAILURE_TIME_LIMIT), "time-limit"));
	CHECK(!vaccel_failure_name(4));
	CHECK(!strcmp(vaccel_fault_reason_name(VACCEL_FAULT_ILLEGAL_INSTRUCTION),
		      "illegal-instruction"));
	CHECK(!vaccel_fault_reason_name(10));
	CHECK(!strcmp(vaccel_access_name(VACCEL_ACCESS_EXEC), "exec"));
	CHECK(!vaccel_access_name(3));
	CHECK(!strcmp(vaccel_command_name(VACCEL_COMMAND_LAUNCH), "launch"));
	CHECK(!vaccel_command_name(9));
	CHECK_EQ(vaccel_queue_get_fault(NULL, &f), -EINVAL);
	CHECK_EQ(vaccel_fault_info_format(NULL, line, sizeof(line)), -EINVAL);
	CHECK_EQ(vaccel_fault_info_format(&f, NULL, 1), -EINVAL);
	/* Cut short like snprintf(), and the length of the whole line. */
	ret = vaccel_fault_info_format(&f, NULL, 0);
	CHECK(ret > (int)sizeof(line));
	CHECK_EQ(vaccel_fault_info_format(&f, line, sizeof(line)), ret);
	CHECK_EQ(strlen(line), sizeof(line) - 1);
	CHECK(!strncmp(line, "fault: write of", sizeof(line) - 1));

	vaccel_va_free(dev, hole, 4096);
	vaccel_bo_free(m.bo);
	expect_census(c0);
}

/*
 * Destroying a busy queue cancels its work; its events signal -ECANCELED,
 * or -ESRCH for work that waited for an event.
 */
static void test_destroy_busy(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct vaccel_queue *q = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct host_buf m = host_buf_alloc(dev, 4096);
	struct vaccel_event *ev;
	unsigned int i;

	CHECK_EQ(vaccel_event_create(dev, &ev), 0);
	CHECK_EQ(vaccel_queue_wait_mem(q, m.va, 1, ~0ull, VACCEL_COMPARE_EQ, 32), 0);
	CHECK_EQ(vaccel_queue_signal(q, ev), 0);
	/* Several buffers behind it, and some recorded but not flushed. */
	for (i = 0; i < 6000; i++)
		CHECK_EQ(vaccel_queue_write(q, m.va + 4, i, 32), 0);
	CHECK_EQ(vaccel_event_wait(ev, 1000000), -ETIME);
	vaccel_queue_destroy(q);
	CHECK_EQ(vaccel_event_wait(ev, -1), -ECANCELED);
	CHECK_EQ(stat("pending"), 0);
	CHECK_EQ(m.w32[1], 0);

	/* Work waiting for an event: -ESRCH, once the event signalled. */
	{
		struct vaccel_queue *a = host_queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
		struct vaccel_event *ev_b;

		q = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
		CHECK_EQ(vaccel_event_create(dev, &ev_b), 0);
		CHECK_EQ(vaccel_queue_wait_mem(a, m.va, 1, ~0ull, VACCEL_COMPARE_EQ, 32), 0);
		CHECK_EQ(vaccel_queue_signal(a, ev), 0);
		CHECK_EQ(vaccel_queue_wait_event(q, ev), 0);
		CHECK_EQ(vaccel_queue_write(q, m.va + 4, 5, 32), 0);
		CHECK_EQ(vaccel_queue_signal(q, ev_b), 0);
		vaccel_queue_destroy(q);
		CHECK_EQ(vaccel_event_wait(ev_b, 1000000), -ETIME);
		m.w32[0] = 1;
		CHECK_EQ(vaccel_event_wait(ev_b, -1), -ESRCH);
		CHECK_EQ(vaccel_event_wait(ev, 0), 0);
		CHECK_EQ(m.w32[1], 0);
		CHECK_EQ(vaccel_queue_finish(a), 0);
		vaccel_queue_destroy(a);
		vaccel_event_destroy(ev_b);
	}
	vaccel_event_destroy(ev);
	vaccel_bo_free(m.bo);
	expect_census(c0);
}

/* Each step that can fail leaves the queue usable and nothing leaked. */
static void test_unwind(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct vaccel_queue *q = host_queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct host_buf m = host_buf_alloc(dev, 64 * KIB);
	unsigned int objs0 = objects(), per_buffer = VACCEL_QUEUE_BUFFER_SIZE / 24, i, k;
	struct vaccel_event *ev;

	/* The first DMA buffer cannot be had: nothing recorded, nothing left. */
	fail(NR(DRM_VACCEL_BO_CREATE), ENOMEM, 1);
	CHECK_EQ(vaccel_queue_write(q, m.va, 1, 32), -ENOMEM);
	fail(NR(DRM_VACCEL_VM_BIND), ENOSPC, 1);
	CHECK_EQ(vaccel_queue_write(q, m.va, 1, 32), -ENOSPC);
	CHECK_EQ(objects(), objs0);
	CHECK_EQ(vaccel_queue_finish(q), 0);

	/* A failed submission keeps the work, a later flush submits it. */
	CHECK_EQ(vaccel_queue_write(q, m.va, 1, 32), 0);
	fail(NR(DRM_VACCEL_SUBMIT), ENOMEM, 1);
	CHECK_EQ(vaccel_queue_flush(q), -ENOMEM);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(m.w32[0], 1);

	/*
	 * The submission of a full buffer fails: the write that needed room
	 * is not recorded; recording again goes on where it stopped.
	 */
	fail(NR(DRM_VACCEL_SUBMIT), EIO, 1);
	for (i = 0, k = 0; i < per_buffer + 100; i++) {
		int ret = vaccel_queue_write(q, m.va + 4 * i, i + 10, 32);

		if (ret == -EIO && !k++)
			ret = vaccel_queue_write(q, m.va + 4 * i, i + 10, 32);
		CHECK_EQ(ret, 0);
	}
	CHECK_EQ(k, 1);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	for (i = 0; i < per_buffer + 100; i++)
		CHECK_EQ(m.w32[i], i + 10);

	/* A queue whose pool cannot grow waits for its buffers instead. */
	hold(1);
	for (i = 0; i < per_buffer * 3; i++)
		CHECK_EQ(vaccel_queue_write(q, m.va, i, 32), 0);
	fail(NR(DRM_VACCEL_BO_CREATE), ENOMEM, 1000);
	for (i = 0; i < per_buffer * 3; i++)
		CHECK_EQ(vaccel_queue_write(q, m.va, i, 32), 0);
	fail(0, 0, 0);
	hold(0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(m.w32[0], per_buffer * 3 - 1);

	/* The snapshot of an event, and its syncobj, can fail. */
	CHECK_EQ(vaccel_event_create(dev, &ev), 0);
	CHECK_EQ(vaccel_event_signal(ev), 0);
	fail(NR_CORE(DRM_IOCTL_SYNCOBJ_CREATE), ENOMEM, 1);
	CHECK_EQ(vaccel_queue_wait_event(q, ev), -ENOMEM);
	fail(NR_CORE(DRM_IOCTL_SYNCOBJ_TRANSFER), ENOMEM, 1);
	CHECK_EQ(vaccel_queue_wait_event(q, ev), -ENOMEM);
	CHECK_EQ(vaccel_queue_wait_event(q, ev), 0);
	/* A signal whose submission fails keeps the work. */
	CHECK_EQ(vaccel_queue_write(q, m.va, 77, 32), 0);
	fail(NR(DRM_VACCEL_SUBMIT), ENOMEM, 1);
	CHECK_EQ(vaccel_queue_signal(q, ev), -ENOMEM);
	CHECK_EQ(vaccel_queue_signal(q, ev), 0);
	CHECK_EQ(vaccel_event_wait(ev, -1), 0);
	CHECK_EQ(m.w32[0], 77);
	/* The status of the fence cannot be read. */
	fail(NR_CORE(DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD), EMFILE, 1);
	CHECK_EQ(vaccel_event_wait(ev, -1), -EMFILE);
	fail(NR_CORE(DRM_IOCTL_SYNCOBJ_WAIT), EIO, 1);
	CHECK_EQ(vaccel_event_wait(ev, -1), -EIO);
	CHECK_EQ(vaccel_queue_write(q, m.va, 78, 32), 0);
	fail(NR_CORE(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT), EIO, 1);
	CHECK_EQ(vaccel_queue_finish(q), -EIO);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(m.w32[0], 78);
	vaccel_event_destroy(ev);

	vaccel_queue_destroy(q);
	vaccel_bo_free(m.bo);
	expect_census(c0);
}

struct thread_arg {
	struct vaccel_device *dev;
	struct host_buf *m;
	unsigned int index;
};

static void *thread_fn(void *p)
{
	struct thread_arg *a = p;
	struct vaccel_queue *q = host_queue(a->dev, a->index % 2 ? VACCEL_ENGINE_CLASS_COPY :
					       VACCEL_ENGINE_CLASS_COMPUTE);
	unsigned int i;

	for (i = 0; i < 3000; i++) {
		CHECK_EQ(vaccel_queue_write(q, a->m->va + 4 * (a->index * 3000 + i),
					    a->index << 16 | i, 32), 0);
		if (i % 100 == 0)
			CHECK_EQ(vaccel_queue_flush(q), 0);
	}
	CHECK_EQ(vaccel_queue_finish(q), 0);
	vaccel_queue_destroy(q);
	return NULL;
}

/* Queues of one device used from several threads at once. */
static void test_threads(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct host_buf m = host_buf_alloc(dev, 64 * KIB);
	struct thread_arg args[4];
	pthread_t t[4];
	unsigned int i, k;

	for (k = 0; k < 4; k++) {
		args[k] = (struct thread_arg){ dev, &m, k };
		CHECK_EQ(pthread_create(&t[k], NULL, thread_fn, &args[k]), 0);
	}
	for (k = 0; k < 4; k++)
		CHECK_EQ(pthread_join(t[k], NULL), 0);
	for (k = 0; k < 4; k++)
		for (i = 0; i < 3000; i++)
			CHECK_EQ(m.w32[k * 3000 + i], k << 16 | i);
	vaccel_bo_free(m.bo);
	expect_census(c0);
}

/* Queues on a chosen engine: the instance asked for, its errors. */
static void test_engine_select(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct vaccel_queue_desc d = {
		.engine_class = VACCEL_ENGINE_CLASS_COMPUTE,
		.priority = VACCEL_PRIORITY_NORMAL,
	};
	struct vaccel_queue_info qi;
	struct vaccel_engine_info ei;
	struct vaccel_queue *q;
	unsigned int i;

	/* The fake has compute engines 0 and 1 (indices 0, 1), copy 0 (2). */
	for (i = 0; i < 2; i++) {
		d.engine_instance = i;
		CHECK_EQ(vaccel_queue_create_ex(dev, &d, &q), 0);
		CHECK_EQ(vaccel_queue_get_info(q, &qi), 0);
		CHECK_EQ(qi.engine_class, VACCEL_ENGINE_CLASS_COMPUTE);
		CHECK_EQ(qi.engine_instance, i);
		CHECK_EQ(qi.engine_index, i);
		CHECK_EQ(qi.priority, VACCEL_PRIORITY_NORMAL);
		CHECK_EQ(vaccel_device_get_engine(dev, qi.engine_index, &ei), 0);
		CHECK_EQ(ei.instance, i);
		vaccel_queue_destroy(q);
	}
	d.engine_class = VACCEL_ENGINE_CLASS_COPY;
	d.engine_instance = VACCEL_ENGINE_INSTANCE_ANY;
	d.priority = VACCEL_PRIORITY_LOW;
	CHECK_EQ(vaccel_queue_create_ex(dev, &d, &q), 0);
	CHECK_EQ(vaccel_queue_get_info(q, &qi), 0);
	CHECK_EQ(qi.engine_class, VACCEL_ENGINE_CLASS_COPY);
	CHECK_EQ(qi.engine_index, 2);
	CHECK_EQ(qi.priority, VACCEL_PRIORITY_LOW);
	vaccel_queue_destroy(q);

	/* An instance the class does not have: -ENODEV, and why. */
	d.engine_instance = 1;
	CHECK_EQ(vaccel_queue_create_ex(dev, &d, &q), -ENODEV);
	CHECK(strstr(vaccel_last_error_message(), "no copy engine 1: the device has 1"));
	d.engine_instance = 0;
	d.flags = 1;
	CHECK_EQ(vaccel_queue_create_ex(dev, &d, &q), -EINVAL);
	d.flags = 0;
	d.reserved[3] = 1;
	CHECK_EQ(vaccel_queue_create_ex(dev, &d, &q), -EINVAL);
	d.reserved[3] = 0;
	d.engine_class = VACCEL_ENGINE_CLASS_PAGING;
	CHECK_EQ(vaccel_queue_create_ex(dev, &d, &q), -EINVAL);
	CHECK(strstr(vaccel_last_error_message(), "compute or the copy class"));
	d.engine_class = VACCEL_ENGINE_CLASS_COPY;
	CHECK_EQ(vaccel_queue_create_ex(dev, NULL, &q), -EINVAL);
	CHECK_EQ(vaccel_queue_create_ex(dev, &d, NULL), -EINVAL);
	CHECK_EQ(vaccel_queue_get_info(NULL, &qi), -EINVAL);
	/* A success clears the message. */
	CHECK_EQ(vaccel_queue_create_ex(dev, &d, &q), 0);
	CHECK_EQ(vaccel_last_error_message()[0], '\0');
	CHECK_EQ(vaccel_queue_get_info(q, NULL), -EINVAL);
	vaccel_queue_destroy(q);
	expect_census(c0);
}

/*
 * The waits and signal of one command: it waits for a list of events of
 * both kinds, signals one, and the commands around it are not part of it.
 */
static void test_command_sync(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct vaccel_queue *a = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct vaccel_queue *b = host_queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct host_buf m = host_buf_alloc(dev, 4096);
	struct vaccel_event *e1, *e2, *tl, *done;
	struct vaccel_event_point waits[3];
	struct vaccel_command_sync sync = { 0 };
	uint64_t point;

	CHECK_EQ(vaccel_event_create(dev, &e1), 0);
	CHECK_EQ(vaccel_event_create(dev, &e2), 0);
	CHECK_EQ(vaccel_event_create_ex(dev, VACCEL_EVENT_TIMELINE, &tl), 0);
	CHECK_EQ(vaccel_event_create(dev, &done), 0);

	/* a: held on memory, then signals e1; e2 from the CPU; tl point 3. */
	CHECK_EQ(vaccel_queue_wait_mem(a, m.va, 1, ~0ull, VACCEL_COMPARE_EQ, 32), 0);
	CHECK_EQ(vaccel_queue_write(a, m.va + 4, 7, 32), 0);
	CHECK_EQ(vaccel_queue_signal(a, e1), 0);
	CHECK_EQ(vaccel_event_signal(e2), 0);
	CHECK_EQ(vaccel_event_signal_point(tl, 3), 0);

	/* b: one copy waits for all three and signals done; then a write. */
	waits[0] = (struct vaccel_event_point){ e1, 0 };
	waits[1] = (struct vaccel_event_point){ e2, 0 };
	waits[2] = (struct vaccel_event_point){ tl, 3 };
	sync.waits = waits;
	sync.wait_count = 3;
	sync.signal = done;
	CHECK_EQ(vaccel_queue_write(b, m.va + 12, 5, 32), 0);	/* not part of it */
	CHECK_EQ(vaccel_queue_set_command_sync(b, &sync), 0);
	/* One signal at a time. */
	CHECK_EQ(vaccel_queue_set_command_sync(b, &sync), -EBUSY);
	/* A copy of nothing records nothing: the signal waits for a command. */
	CHECK_EQ(vaccel_queue_copy(b, m.va + 8, m.va + 4, 0), 0);
	CHECK_EQ(vaccel_queue_copy(b, m.va + 8, m.va + 4, 4), 0);
	CHECK_EQ(vaccel_queue_write(b, m.va + 16, 9, 32), 0);
	CHECK_EQ(vaccel_queue_flush(b), 0);
	CHECK_EQ(vaccel_event_wait(done, 2000000), -ETIME);
	CHECK_EQ(m.w32[3], 5);
	CHECK_EQ(m.w32[2], 0);
	__atomic_store_n(&m.w32[0], 1, __ATOMIC_SEQ_CST);
	CHECK_EQ(vaccel_event_wait(done, -1), 0);
	CHECK_EQ(m.w32[2], 7);
	CHECK_EQ(vaccel_queue_finish(b), 0);
	CHECK_EQ(m.w32[4], 9);

	/* A timeline signalled by commands, point by point. */
	sync = (struct vaccel_command_sync){ .signal = tl, .signal_point = 5 };
	CHECK_EQ(vaccel_queue_set_command_sync(b, &sync), 0);
	CHECK_EQ(vaccel_queue_write(b, m.va + 20, 1, 32), 0);
	CHECK_EQ(vaccel_event_wait_point(tl, 5, -1), 0);
	CHECK_EQ(vaccel_event_get_point(tl, &point), 0);
	CHECK_EQ(point, 5);
	CHECK_EQ(m.w32[5], 1);

	/* Bad arguments: nothing is waited for, nothing pending. */
	waits[0] = (struct vaccel_event_point){ e1, 1 };	/* binary: point 0 */
	sync = (struct vaccel_command_sync){ .waits = waits, .wait_count = 1 };
	CHECK_EQ(vaccel_queue_set_command_sync(b, &sync), -EINVAL);
	waits[0] = (struct vaccel_event_point){ tl, 0 };	/* timeline: >= 1 */
	CHECK_EQ(vaccel_queue_set_command_sync(b, &sync), -EINVAL);
	waits[0] = (struct vaccel_event_point){ NULL, 0 };
	CHECK_EQ(vaccel_queue_set_command_sync(b, &sync), -EINVAL);
	sync.wait_count = VACCEL_MAX_WAITS + 1;
	waits[0] = (struct vaccel_event_point){ e1, 0 };
	CHECK_EQ(vaccel_queue_set_command_sync(b, &sync), -E2BIG);	/* 1.9 */
	CHECK(strstr(vaccel_last_error_message(), "at most 16"));
	sync = (struct vaccel_command_sync){ .waits = NULL, .wait_count = 1 };
	CHECK_EQ(vaccel_queue_set_command_sync(b, &sync), -EINVAL);
	sync = (struct vaccel_command_sync){ .signal = tl };	/* point 0 */
	CHECK_EQ(vaccel_queue_set_command_sync(b, &sync), -EINVAL);
	sync = (struct vaccel_command_sync){ .signal = done, .reserved = { 1 } };
	CHECK_EQ(vaccel_queue_set_command_sync(b, &sync), -EINVAL);
	CHECK_EQ(vaccel_queue_set_command_sync(b, NULL), -EINVAL);
	CHECK_EQ(vaccel_queue_set_command_sync(NULL, &sync), -EINVAL);
	/* A point without a fence: -EINVAL, and the earlier waits undone. */
	CHECK_EQ(vaccel_event_reset(e2), 0);
	waits[0] = (struct vaccel_event_point){ e1, 0 };
	waits[1] = (struct vaccel_event_point){ e2, 0 };
	sync = (struct vaccel_command_sync){ .waits = waits, .wait_count = 2 };
	CHECK_EQ(vaccel_queue_set_command_sync(b, &sync), -EINVAL);
	waits[0] = (struct vaccel_event_point){ tl, 9 };	/* not submitted */
	sync.wait_count = 1;
	CHECK_EQ(vaccel_queue_set_command_sync(b, &sync), -EINVAL);
	CHECK_EQ(vaccel_queue_write(b, m.va + 24, 2, 32), 0);
	CHECK_EQ(vaccel_queue_finish(b), 0);
	CHECK_EQ(m.w32[6], 2);

	/* A timeline from the CPU: a point waited for before it exists. */
	CHECK_EQ(vaccel_event_wait_point(tl, 6, 1000000), -ETIME);
	CHECK_EQ(vaccel_event_signal_point(tl, 6), 0);
	CHECK_EQ(vaccel_event_wait_point(tl, 6, 0), 0);
	CHECK_EQ(vaccel_event_wait(tl, 0), 0);
	CHECK_EQ(vaccel_event_get_point(e1, &point), -EINVAL);
	CHECK_EQ(vaccel_event_signal_point(e1, 1), -EINVAL);
	CHECK_EQ(vaccel_event_signal_point(tl, 0), -EINVAL);
	CHECK_EQ(vaccel_event_wait_point(e1, 1, 0), -EINVAL);
	CHECK_EQ(vaccel_event_wait_point(tl, 0, 0), -EINVAL);
	CHECK_EQ(vaccel_event_create_ex(dev, 1u << 7, &e2), -EINVAL);
	/* vaccel_queue_signal() and _wait_event() on a timeline: the next point, the last. */
	CHECK_EQ(vaccel_queue_signal(b, tl), 0);
	CHECK_EQ(vaccel_event_wait_point(tl, 7, -1), 0);
	CHECK_EQ(vaccel_queue_wait_event(a, tl), 0);
	CHECK_EQ(vaccel_queue_finish(a), 0);

	vaccel_event_destroy(e1);
	vaccel_event_destroy(e2);
	vaccel_event_destroy(tl);
	vaccel_event_destroy(done);
	vaccel_queue_destroy(a);
	vaccel_queue_destroy(b);
	vaccel_bo_free(m.bo);
	expect_census(c0);
}

/* Sync_files in and out of events, binary and timeline. */
static void test_sync_file_import(struct vaccel_device *dev)
{
	struct census c0 = census();
	struct vaccel_queue *a = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct host_buf m = host_buf_alloc(dev, 4096);
	struct vaccel_event *src, *bin, *tl;
	struct pollfd pfd;
	int fd, fd2;

	CHECK_EQ(vaccel_event_create(dev, &src), 0);
	CHECK_EQ(vaccel_event_create(dev, &bin), 0);
	CHECK_EQ(vaccel_event_create_ex(dev, VACCEL_EVENT_TIMELINE, &tl), 0);
	CHECK_EQ(vaccel_queue_wait_mem(a, m.va, 1, ~0ull, VACCEL_COMPARE_EQ, 32), 0);
	CHECK_EQ(vaccel_queue_signal(a, src), 0);
	CHECK_EQ(vaccel_event_export_sync_file(src, &fd), 0);

	/* Into a binary event and a timeline's point 4. */
	CHECK_EQ(vaccel_event_import_sync_file(bin, 0, fd), 0);
	CHECK_EQ(vaccel_event_import_sync_file(tl, 4, fd), 0);
	CHECK_EQ(vaccel_event_wait(bin, 0), -ETIME);
	CHECK_EQ(vaccel_event_wait_point(tl, 4, 0), -ETIME);
	/* Out again, from the point. */
	CHECK_EQ(vaccel_event_export_sync_file_point(tl, 4, &fd2), 0);
	pfd = (struct pollfd){ .fd = fd2, .events = POLLIN };
	CHECK_EQ(poll(&pfd, 1, 0), 0);
	__atomic_store_n(&m.w32[0], 1, __ATOMIC_SEQ_CST);
	CHECK_EQ(vaccel_event_wait(bin, -1), 0);
	CHECK_EQ(vaccel_event_wait_point(tl, 4, -1), 0);
	CHECK_EQ(poll(&pfd, 1, 1000), 1);
	close(fd2);
	/* The timeline's last point, exported without naming it. */
	CHECK_EQ(vaccel_event_export_sync_file(tl, &fd2), 0);
	close(fd2);

	/* Errors. */
	CHECK_EQ(vaccel_event_import_sync_file(bin, 1, fd), -EINVAL);
	CHECK_EQ(vaccel_event_import_sync_file(tl, 0, fd), -EINVAL);
	CHECK_EQ(vaccel_event_import_sync_file(bin, 0, -1), -EINVAL);
	CHECK_EQ(vaccel_event_import_sync_file(NULL, 0, fd), -EINVAL);
	CHECK_EQ(vaccel_event_import_sync_file(bin, 0, m.w32[0] + 1000), -EINVAL);
	CHECK_EQ(vaccel_event_export_sync_file_point(tl, 9, &fd2), -EINVAL);
	CHECK_EQ(vaccel_event_export_sync_file_point(bin, 1, &fd2), -EINVAL);
	CHECK_EQ(vaccel_event_export_sync_file_point(tl, 4, NULL), -EINVAL);
	close(fd);

	CHECK_EQ(vaccel_queue_finish(a), 0);
	vaccel_event_destroy(src);
	vaccel_event_destroy(bin);
	vaccel_event_destroy(tl);
	vaccel_queue_destroy(a);
	vaccel_bo_free(m.bo);
	expect_census(c0);
}

/*
 * Profiling: the times of the command that signals the event, ordered,
 * and the command's own (a delay: at least its length); the states before
 * and after.  On a device of its own, whose profiling pages go with it.
 */
static void test_profiling(void)
{
	struct census c0 = census();
	struct vaccel_device *dev;
	struct vaccel_queue *q;
	struct vaccel_event *ev, *plain, *many[300];
	struct vaccel_command_sync sync = { 0 };
	struct vaccel_event_times t;
	uint64_t ns, before;
	unsigned int i;

	CHECK_EQ(vaccel_device_open(0, &dev), 0);
	q = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	CHECK_EQ(vaccel_event_create_ex(dev, VACCEL_EVENT_PROFILING, &ev), 0);
	CHECK_EQ(vaccel_event_create(dev, &plain), 0);
	CHECK_EQ(vaccel_event_get_times(ev, &t), -ENODATA);
	CHECK_EQ(vaccel_event_get_times(plain, &t), -EINVAL);
	CHECK_EQ(vaccel_event_elapsed_ns(plain, &ns), -EINVAL);

	hold(1);
	before = 0;
	{
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		before = (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	}
	CHECK_EQ(vaccel_queue_delay(q, 1000000), 0);		/* not part of it */
	sync.signal = ev;
	CHECK_EQ(vaccel_queue_set_command_sync(q, &sync), 0);
	CHECK_EQ(vaccel_queue_delay(q, 3000000), 0);
	CHECK_EQ(vaccel_event_get_times(ev, &t), -EBUSY);
	hold(0);
	CHECK_EQ(vaccel_event_wait(ev, -1), 0);
	CHECK_EQ(vaccel_event_get_times(ev, &t), 0);
	CHECK(t.submitted_ns >= before);
	CHECK(t.submitted_ns <= t.started_ns);
	CHECK(t.started_ns <= t.ended_ns);
	CHECK_EQ(vaccel_event_elapsed_ns(ev, &ns), 0);
	CHECK_EQ(ns, t.ended_ns - t.started_ns);
	CHECK(ns >= 3000000);
	CHECK_EQ(vaccel_event_elapsed_ns(ev, NULL), -EINVAL);

	/* Signalled otherwise: the times are gone. */
	CHECK_EQ(vaccel_queue_signal(q, ev), 0);
	CHECK_EQ(vaccel_event_get_times(ev, &t), -ENODATA);
	CHECK_EQ(vaccel_queue_set_command_sync(q, &sync), 0);
	CHECK_EQ(vaccel_queue_write(q, 0, 0, 64), 0);
	CHECK_EQ(vaccel_event_reset(ev), 0);
	CHECK_EQ(vaccel_event_get_times(ev, &t), -ENODATA);

	/* A failed command: its error. */
	CHECK_EQ(vaccel_queue_finish(q), -EFAULT);
	vaccel_queue_destroy(q);
	q = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	CHECK_EQ(vaccel_queue_set_command_sync(q, &sync), 0);
	CHECK_EQ(vaccel_queue_copy(q, 0, 0, 8), 0);
	CHECK_EQ(vaccel_event_wait(ev, -1), -EFAULT);
	CHECK_EQ(vaccel_event_get_times(ev, &t), -EFAULT);
	vaccel_queue_destroy(q);

	/* More events than a page of slots. */
	for (i = 0; i < 300; i++)
		CHECK_EQ(vaccel_event_create_ex(dev, VACCEL_EVENT_PROFILING, &many[i]), 0);
	q = host_queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	for (i = 0; i < 300; i += 37) {
		sync.signal = many[i];
		CHECK_EQ(vaccel_queue_set_command_sync(q, &sync), 0);
		CHECK_EQ(vaccel_queue_delay(q, 1000), 0);
	}
	CHECK_EQ(vaccel_queue_finish(q), 0);
	for (i = 0; i < 300; i++) {
		int ret = vaccel_event_get_times(many[i], &t);

		CHECK_EQ(ret, i % 37 ? -ENODATA : 0);
		CHECK(ret || (t.started_ns && t.started_ns <= t.ended_ns));
		vaccel_event_destroy(many[i]);
	}
	vaccel_queue_destroy(q);
	vaccel_event_destroy(ev);
	vaccel_event_destroy(plain);
	vaccel_device_close(dev);
	expect_census(c0);
}

int main(void)
{
	struct vaccel_device *dev;
	struct census c0;

	objects = (unsigned int (*)(void))host_hook("fake_vaccel_objects");
	fail = (void (*)(unsigned int, int, unsigned int))host_hook("fake_vaccel_fail");
	fail_after = (void (*)(unsigned int, int, unsigned int))
		host_hook("fake_vaccel_fail_after");
	hold = (void (*)(int))host_hook("fake_vaccel_hold");
	stat = (unsigned long long (*)(const char *))host_hook("fake_vaccel_stat");

	CHECK_EQ(vaccel_device_open(0, &dev), 0);
	c0 = census();
	test_commands(dev);
	test_create_errors(dev);
	test_split(dev);
	test_pool(dev);
	test_events(dev);
	test_fault(dev);
	test_fault_record(dev);
	test_destroy_busy(dev);
	test_unwind(dev);
	test_threads(dev);
	test_engine_select(dev);
	test_command_sync(dev);
	test_sync_file_import(dev);
	test_profiling();
	expect_census(c0);
	vaccel_device_close(dev);
	CHECK_EQ(stat("contexts"), 0);
	CHECK_EQ(stat("syncobjs"), 0);
	return 0;
}
