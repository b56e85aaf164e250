// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_queue.c - libvaccel's command queues and events on the real module:
 * every command with its result checked by the CPU, a recording longer than
 * a DMA buffer, the pool of DMA buffers staying bounded over 10000 flushes
 * (device-wide BO count in debugfs), events ordering two engines, CPU waits
 * with a timeout on a queue blocked in WAIT_MEM, sync_files with poll(), a
 * faulting queue that reports its error while another queue goes on, the
 * destruction of a busy queue and of one waiting for an event, priorities
 * and CAP_SYS_NICE, and threads.
 *
 * Needs root (debugfs, capabilities); the default topology or any with a
 * copy engine (cases that need one say so and pass without).
 */
#include <poll.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>

#include <linux/capability.h>

#include <vaccel.h>

#include "vt_mem.h"

#define MS	1000000ll

struct buf {
	struct vaccel_bo *bo;
	uint32_t *cpu;
	uint64_t va;
	uint64_t size;
};

static struct vaccel_device *open_dev(void)
{
	struct vaccel_device *dev;

	VT_ASSERT_OK(vaccel_device_open(0, &dev));
	return dev;
}

static struct buf buf_alloc(struct vaccel_device *dev, uint64_t size, uint32_t flags)
{
	struct buf b = { .size = size };
	void *p;

	VT_ASSERT_OK(vaccel_bo_alloc(dev, size, flags, &b.bo));
	VT_ASSERT_OK(vaccel_bo_map(b.bo, &p));
	b.cpu = p;
	b.va = vaccel_bo_va(b.bo);
	return b;
}

static bool has_copy_engine(struct vaccel_device *dev)
{
	struct vaccel_device_info info;

	VT_ASSERT_OK(vaccel_device_get_info(dev, &info));
	return info.engine_count[VACCEL_ENGINE_CLASS_COPY] > 0;
}

/* A COPY queue if the device has a copy engine, else a COMPUTE one. */
static struct vaccel_queue *queue(struct vaccel_device *dev, enum vaccel_engine_class c)
{
	struct vaccel_queue *q;

	if (c == VACCEL_ENGINE_CLASS_COPY && !has_copy_engine(dev))
		c = VACCEL_ENGINE_CLASS_COMPUTE;
	VT_ASSERT_OK(vaccel_queue_create(dev, c, VACCEL_PRIORITY_NORMAL, &q));
	return q;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static long long bo_count(struct vaccel_device *dev)
{
	struct vt_dev_mem m;

	vt_dev_mem(vaccel_device_fd(dev), &m);
	return m.bo_count;
}

/* Waits up to a second for the device's BO count to come back to @want. */
static void expect_bo_count(struct vaccel_device *dev, long long want)
{
	int i;

	for (i = 0; i < 100 && bo_count(dev) != want; i++)
		usleep(10000);
	VT_ASSERT_EQ(bo_count(dev), want);
}

/* Every command on both classes, checked by the CPU. */
VTEST(commands)
{
	enum vaccel_engine_class classes[] = {
		VACCEL_ENGINE_CLASS_COMPUTE, VACCEL_ENGINE_CLASS_COPY,
	};
	struct vaccel_device *dev = open_dev();
	unsigned int k, i;

	for (k = 0; k < ARRAY_SIZE(classes); k++) {
		struct vaccel_queue *q = queue(dev, classes[k]);
		struct buf b = buf_alloc(dev, 256 * VT_KIB, 0);
		uint64_t *w64 = (uint64_t *)b.cpu, t0, t1;

		memset(b.cpu, 0xee, b.size);
		t0 = now_ns();
		VT_ASSERT_OK(vaccel_queue_timestamp(q, b.va + 0x30000));
		VT_ASSERT_OK(vaccel_queue_fill(q, b.va, 64 * VT_KIB, 0x11223344));
		VT_ASSERT_OK(vaccel_queue_copy(q, b.va + 0x10000, b.va, 64 * VT_KIB));
		/* Overlapping: memmove semantics, forwards by 4 bytes. */
		VT_ASSERT_OK(vaccel_queue_write(q, b.va + 0x20000, 0xaaaaaaaa, 32));
		VT_ASSERT_OK(vaccel_queue_write(q, b.va + 0x20004, 0xbbbbbbbb, 32));
		VT_ASSERT_OK(vaccel_queue_copy(q, b.va + 0x20004, b.va + 0x20000, 8));
		VT_ASSERT_OK(vaccel_queue_write(q, b.va + 0x20010, 0x1122334455667788ull, 64));
		VT_ASSERT_OK(vaccel_queue_write(q, b.va + 0x20018, 0xffffffff99887766ull, 32));
		VT_ASSERT_OK(vaccel_queue_delay(q, 1000000));
		/* Satisfied waits: equal under a mask, 32 and 64 bits, unsigned. */
		VT_ASSERT_OK(vaccel_queue_wait_mem(q, b.va + 0x20010, 0x55667788, ~0ull,
						   VACCEL_COMPARE_EQ, 32));
		VT_ASSERT_OK(vaccel_queue_wait_mem(q, b.va + 0x20010, 0x1122000000000000ull,
						   0xffff000000000000ull,
						   VACCEL_COMPARE_EQ, 64));
		VT_ASSERT_OK(vaccel_queue_wait_mem(q, b.va + 0x20018, 0x10, ~0ull,
						   VACCEL_COMPARE_GT, 32));
		VT_ASSERT_OK(vaccel_queue_timestamp(q, b.va + 0x30008));
		VT_ASSERT_OK(vaccel_queue_finish(q));
		t1 = now_ns();

		for (i = 0; i < 16384; i++) {
			VT_ASSERT_EQ(b.cpu[i], 0x11223344);
			VT_ASSERT_EQ(b.cpu[16384 + i], 0x11223344);
		}
		VT_ASSERT_EQ(b.cpu[0x8000], 0xaaaaaaaa);
		VT_ASSERT_EQ(b.cpu[0x8001], 0xaaaaaaaa);
		VT_ASSERT_EQ(b.cpu[0x8002], 0xbbbbbbbb);
		VT_ASSERT(w64[0x4002] == 0x1122334455667788ull);
		VT_ASSERT_EQ(b.cpu[0x8006], 0x99887766);
		VT_ASSERT_EQ(b.cpu[0x8007], 0xeeeeeeee);
		/* The engine clock is CLOCK_MONOTONIC; the delay took 1 ms. */
		VT_ASSERT(w64[0x6000] >= t0 && w64[0x6001] <= t1);
		VT_ASSERT(w64[0x6001] - w64[0x6000] >= 1000000);
		/* The rest is untouched. */
		VT_ASSERT_EQ(b.cpu[0x8003], 0xeeeeeeee);
		VT_ASSERT_EQ(b.cpu[0xc004], 0xeeeeeeee);

		vaccel_queue_destroy(q);
		vaccel_bo_free(b.bo);
	}
	vaccel_device_close(dev);
}

/* Arguments the library or the kernel refuse. */
VTEST(errors)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = (struct vaccel_queue *)&q;
	struct buf b = buf_alloc(dev, 4096, 0);
	struct vaccel_event *ev;
	int fd = -1;

	VT_ASSERT_EQ(vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_PAGING,
					 VACCEL_PRIORITY_NORMAL, &q), -EINVAL);
	VT_ASSERT_EQ(vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COMPUTE, 4, &q), -EINVAL);
	VT_ASSERT_EQ(vaccel_queue_create(NULL, VACCEL_ENGINE_CLASS_COMPUTE,
					 VACCEL_PRIORITY_NORMAL, &q), -EINVAL);
	VT_ASSERT(q == (struct vaccel_queue *)&q);

	q = queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	VT_ASSERT_EQ(vaccel_queue_fill(q, b.va + 2, 4, 0), -EINVAL);
	VT_ASSERT_EQ(vaccel_queue_fill(q, b.va, 6, 0), -EINVAL);
	VT_ASSERT_EQ(vaccel_queue_write(q, b.va, 0, 16), -EINVAL);
	VT_ASSERT_EQ(vaccel_queue_write(q, b.va + 4, 0, 64), -EINVAL);
	VT_ASSERT_EQ(vaccel_queue_timestamp(q, b.va + 4), -EINVAL);
	VT_ASSERT_EQ(vaccel_queue_wait_mem(q, b.va, 0, 0, 6, 32), -EINVAL);
	VT_ASSERT_EQ(vaccel_queue_finish(q), 0);	/* nothing recorded */

	/* An event without a fence: no queue may wait for it, no export. */
	VT_ASSERT_OK(vaccel_event_create(dev, &ev));
	VT_ASSERT_EQ(vaccel_queue_wait_event(q, ev), -EINVAL);
	VT_ASSERT_EQ(vaccel_event_export_sync_file(ev, &fd), -EINVAL);
	VT_ASSERT_EQ(vaccel_event_wait(ev, 0), -ETIME);
	VT_ASSERT_EQ(vaccel_event_wait(ev, 10 * MS), -ETIME);
	VT_ASSERT_OK(vaccel_event_signal(ev));
	VT_ASSERT_OK(vaccel_event_wait(ev, 0));
	VT_ASSERT_OK(vaccel_queue_wait_event(q, ev));
	VT_ASSERT_OK(vaccel_event_reset(ev));
	VT_ASSERT_EQ(vaccel_event_wait(ev, 0), -ETIME);
	/* The wait recorded before the reset is for the signalled fence. */
	VT_ASSERT_OK(vaccel_queue_write(q, b.va, 5, 32));
	VT_ASSERT_OK(vaccel_queue_finish(q));
	VT_ASSERT_EQ(b.cpu[0], 5);
	VT_ASSERT(fd == -1);

	vaccel_event_destroy(ev);
	vaccel_queue_destroy(q);
	vaccel_bo_free(b.bo);
	vaccel_device_close(dev);
}

/*
 * 20000 writes, 480000 bytes of packets, in one recording: the library
 * splits it over DMA buffers, and the order holds across the splits.
 */
VTEST(split_large_recording)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct buf b = buf_alloc(dev, 64 * VT_KIB, 0);
	unsigned int i;

	memset(b.cpu, 0, b.size);
	for (i = 0; i < 10000; i++) {
		VT_ASSERT_OK(vaccel_queue_write(q, b.va + 4 + 4 * i, i + 1, 32));
		/* One word written again and again: the last write wins. */
		VT_ASSERT_OK(vaccel_queue_write(q, b.va, i, 32));
	}
	VT_ASSERT_OK(vaccel_queue_finish(q));
	VT_ASSERT_EQ(b.cpu[0], 9999);
	for (i = 0; i < 10000; i++)
		VT_ASSERT_EQ(b.cpu[1 + i], i + 1);
	vaccel_queue_destroy(q);
	vaccel_bo_free(b.bo);
	vaccel_device_close(dev);
}

/*
 * 4096 flushes of 8 writes each, over a hundred times the queue's
 * VACCEL_QUEUE_MAX_BUFFERS: the queue never holds more buffers than that
 * (the device's BO count says so), reuses them, and gives them all back
 * when destroyed.  Each word of the target is written twice; the second
 * value stays.
 */
#define POOL_FLUSHES	4096

VTEST(pool_bounded)
{
	struct vaccel_device *dev = open_dev();
	struct buf b = buf_alloc(dev, 64 * VT_KIB, 0);
	long long base = bo_count(dev), most = 0, n;
	struct vaccel_queue *q = queue(dev, VACCEL_ENGINE_CLASS_COPY);
	unsigned int i, k;

	for (i = 0; i < POOL_FLUSHES; i++) {
		for (k = 0; k < 8; k++)
			VT_ASSERT_OK(vaccel_queue_write(q, b.va + 4 * ((8 * i + k) % 16384),
							8 * i + k, 32));
		VT_ASSERT_OK(vaccel_queue_flush(q));
		if (i % 128 == 0) {
			n = bo_count(dev) - base;
			if (n > most)
				most = n;
		}
	}
	VT_ASSERT_OK(vaccel_queue_finish(q));
	VT_ASSERT(most >= 1 && most <= VACCEL_QUEUE_MAX_BUFFERS);
	VT_ASSERT(bo_count(dev) - base <= VACCEL_QUEUE_MAX_BUFFERS);
	for (i = 0; i < 16384; i++)
		VT_ASSERT_EQ(b.cpu[i], i + 16384 * ((8 * POOL_FLUSHES - 1 - i) / 16384));
	vaccel_queue_destroy(q);
	expect_bo_count(dev, base);
	vaccel_bo_free(b.bo);
	vaccel_device_close(dev);
}

/*
 * An event orders a compute engine after a copy engine: the copy queue
 * spends 50 ms in a DELAY before it writes the value the compute queue
 * copies.  Without the event the copy would read the old value.
 */
VTEST(event_orders_engines)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *a, *b;
	struct vaccel_event *ev;
	struct buf m = buf_alloc(dev, 4096, 0);
	uint64_t *ts = (uint64_t *)m.cpu + 64;

	/* Two compute engines, or one, on a device without copy engines. */
	a = queue(dev, VACCEL_ENGINE_CLASS_COPY);
	b = queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	memset(m.cpu, 0, 4096);
	VT_ASSERT_OK(vaccel_event_create(dev, &ev));

	VT_ASSERT_OK(vaccel_queue_delay(a, 50 * MS));
	VT_ASSERT_OK(vaccel_queue_write(a, m.va, 1, 32));
	VT_ASSERT_OK(vaccel_queue_timestamp(a, m.va + 512));
	VT_ASSERT_OK(vaccel_queue_signal(a, ev));

	VT_ASSERT_OK(vaccel_queue_write(b, m.va + 12, 3, 32));	/* does not wait */
	VT_ASSERT_OK(vaccel_queue_wait_event(b, ev));
	VT_ASSERT_OK(vaccel_queue_timestamp(b, m.va + 520));
	VT_ASSERT_OK(vaccel_queue_copy(b, m.va + 4, m.va, 4));
	VT_ASSERT_OK(vaccel_queue_finish(b));

	VT_ASSERT_EQ(m.cpu[1], 1);
	VT_ASSERT_EQ(m.cpu[3], 3);
	VT_ASSERT(ts[1] >= ts[0] && ts[0] != 0);
	VT_ASSERT_OK(vaccel_event_wait(ev, 0));
	VT_ASSERT_OK(vaccel_queue_finish(a));

	vaccel_event_destroy(ev);
	vaccel_queue_destroy(a);
	vaccel_queue_destroy(b);
	vaccel_bo_free(m.bo);
	vaccel_device_close(dev);
}

/* A queue blocked in WAIT_MEM: the CPU times out, then writes, then waits. */
VTEST(cpu_wait_timeout)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct buf m = buf_alloc(dev, 4096, 0);
	struct vaccel_event *ev;
	uint64_t t0;

	memset(m.cpu, 0, 4096);
	VT_ASSERT_OK(vaccel_event_create(dev, &ev));
	VT_ASSERT_OK(vaccel_queue_wait_mem(q, m.va, 1, ~0ull, VACCEL_COMPARE_EQ, 32));
	VT_ASSERT_OK(vaccel_queue_write(q, m.va + 4, 2, 32));
	VT_ASSERT_OK(vaccel_queue_signal(q, ev));

	VT_ASSERT_EQ(vaccel_event_wait(ev, 0), -ETIME);
	t0 = now_ns();
	VT_ASSERT_EQ(vaccel_event_wait(ev, 100 * MS), -ETIME);
	t0 = now_ns() - t0;
	if (t0 < 100 * MS)
		printf("# the wait returned after %llu ns\n", (unsigned long long)t0);
	VT_ASSERT(t0 >= 100 * MS);
	VT_ASSERT_EQ(m.cpu[1], 0);

	__atomic_store_n(&m.cpu[0], 1, __ATOMIC_SEQ_CST);
	VT_ASSERT_OK(vaccel_event_wait(ev, 5000 * MS));
	VT_ASSERT_EQ(m.cpu[1], 2);
	VT_ASSERT_OK(vaccel_queue_finish(q));

	vaccel_event_destroy(ev);
	vaccel_queue_destroy(q);
	vaccel_bo_free(m.bo);
	vaccel_device_close(dev);
}

/* A CPU thread waits for an event that is signalled after it started. */
struct waiter {
	struct vaccel_event *ev;
	int ret;
};

static void *waiter_fn(void *p)
{
	struct waiter *w = p;

	w->ret = vaccel_event_wait(w->ev, -1);
	return NULL;
}

VTEST(wait_before_signal)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct buf m = buf_alloc(dev, 4096, 0);
	struct waiter w = { .ret = 1 };
	pthread_t t;

	VT_ASSERT_OK(vaccel_event_create(dev, &w.ev));
	VT_ASSERT_OK(pthread_create(&t, NULL, waiter_fn, &w));
	usleep(20000);
	VT_ASSERT_EQ(__atomic_load_n(&w.ret, __ATOMIC_SEQ_CST), 1);
	VT_ASSERT_OK(vaccel_queue_write(q, m.va, 9, 32));
	VT_ASSERT_OK(vaccel_queue_signal(q, w.ev));
	VT_ASSERT_OK(pthread_join(t, NULL));
	VT_ASSERT_EQ(w.ret, 0);
	VT_ASSERT_EQ(m.cpu[0], 9);
	vaccel_event_destroy(w.ev);
	vaccel_queue_destroy(q);
	vaccel_bo_free(m.bo);
	vaccel_device_close(dev);
}

/* An event exported as a sync_file: poll() sees it signal. */
VTEST(sync_file_poll)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct buf m = buf_alloc(dev, 4096, 0);
	struct vaccel_event *ev;
	struct pollfd pfd;
	int fd;

	memset(m.cpu, 0, 4096);
	VT_ASSERT_OK(vaccel_event_create(dev, &ev));
	VT_ASSERT_OK(vaccel_queue_wait_mem(q, m.va, 7, ~0ull, VACCEL_COMPARE_GE, 32));
	VT_ASSERT_OK(vaccel_queue_signal(q, ev));
	VT_ASSERT_OK(vaccel_event_export_sync_file(ev, &fd));
	VT_ASSERT(fd >= 0);
	VT_ASSERT(fcntl(fd, F_GETFD) & FD_CLOEXEC);

	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	VT_ASSERT_EQ(poll(&pfd, 1, 50), 0);
	__atomic_store_n(&m.cpu[0], 8, __ATOMIC_SEQ_CST);
	VT_ASSERT_EQ(poll(&pfd, 1, 5000), 1);
	VT_ASSERT(pfd.revents & POLLIN);
	close(fd);
	VT_ASSERT_OK(vaccel_event_wait(ev, 0));

	/* A CPU-signalled event exports a signalled sync_file. */
	VT_ASSERT_OK(vaccel_event_reset(ev));
	VT_ASSERT_OK(vaccel_event_signal(ev));
	VT_ASSERT_OK(vaccel_event_export_sync_file(ev, &fd));
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	VT_ASSERT_EQ(poll(&pfd, 1, 0), 1);
	close(fd);

	vaccel_event_destroy(ev);
	vaccel_queue_destroy(q);
	vaccel_bo_free(m.bo);
	vaccel_device_close(dev);
}

/*
 * A write to an unmapped address faults the queue: finish and the event
 * report -EFAULT, the queue refuses more work, another queue (on the same
 * class) goes on, even waiting for the failed event.
 */
VTEST(fault_reported)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *bad = queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct vaccel_queue *good = queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct buf m = buf_alloc(dev, 4096, 0);
	struct vaccel_event *ev;
	uint64_t hole;

	memset(m.cpu, 0, 4096);
	VT_ASSERT_OK(vaccel_va_alloc(dev, 4096, 0, &hole));	/* never mapped */
	VT_ASSERT_OK(vaccel_event_create(dev, &ev));
	VT_ASSERT_OK(vaccel_queue_write(bad, m.va, 1, 32));
	VT_ASSERT_OK(vaccel_queue_write(bad, hole, 1, 32));
	VT_ASSERT_OK(vaccel_queue_write(bad, m.va + 4, 1, 32));
	VT_ASSERT_OK(vaccel_queue_signal(bad, ev));
	VT_ASSERT_EQ(vaccel_queue_finish(bad), -EFAULT);
	VT_ASSERT_EQ(m.cpu[0], 1);
	VT_ASSERT_EQ(m.cpu[1], 0);	/* after the fault: never executed */
	VT_ASSERT_EQ(vaccel_event_wait(ev, -1), -EFAULT);

	VT_ASSERT_EQ(vaccel_queue_write(bad, m.va + 8, 1, 32), -ECANCELED);
	VT_ASSERT_EQ(vaccel_queue_flush(bad), -ECANCELED);
	VT_ASSERT_EQ(vaccel_queue_finish(bad), -ECANCELED);
	VT_ASSERT_EQ(vaccel_queue_signal(bad, ev), -ECANCELED);

	VT_ASSERT_OK(vaccel_queue_wait_event(good, ev));
	VT_ASSERT_OK(vaccel_queue_write(good, m.va + 12, 3, 32));
	VT_ASSERT_OK(vaccel_queue_finish(good));
	VT_ASSERT_EQ(m.cpu[3], 3);
	vaccel_queue_destroy(bad);

	/* Work submitted behind a faulting buffer: the fault is reported. */
	bad = queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	VT_ASSERT_OK(vaccel_queue_delay(bad, 200 * MS));
	VT_ASSERT_OK(vaccel_queue_write(bad, hole, 1, 32));
	VT_ASSERT_OK(vaccel_queue_flush(bad));
	VT_ASSERT_OK(vaccel_queue_write(bad, m.va + 16, 1, 32));
	VT_ASSERT_OK(vaccel_queue_flush(bad));
	VT_ASSERT_EQ(vaccel_queue_finish(bad), -EFAULT);
	VT_ASSERT_EQ(m.cpu[4], 0);
	vaccel_queue_destroy(bad);

	vaccel_va_free(dev, hole, 4096);
	vaccel_event_destroy(ev);
	vaccel_queue_destroy(good);
	vaccel_bo_free(m.bo);
	vaccel_device_close(dev);
}

/* A write to a buffer the device may only read faults the same way. */
VTEST(fault_read_only)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct buf ro = buf_alloc(dev, 4096, VACCEL_BO_GPU_READ_ONLY);
	struct buf m = buf_alloc(dev, 4096, 0);

	memset(m.cpu, 0, 4096);
	ro.cpu[0] = 0x12345678;
	VT_ASSERT_OK(vaccel_queue_copy(q, m.va, ro.va, 4));
	VT_ASSERT_OK(vaccel_queue_finish(q));
	VT_ASSERT_EQ(m.cpu[0], 0x12345678);
	VT_ASSERT_OK(vaccel_queue_write(q, ro.va, 1, 32));
	VT_ASSERT_EQ(vaccel_queue_finish(q), -EFAULT);
	VT_ASSERT_EQ(ro.cpu[0], 0x12345678);
	vaccel_queue_destroy(q);
	vaccel_bo_free(ro.bo);
	vaccel_bo_free(m.bo);
	vaccel_device_close(dev);
}

/*
 * Destroying a queue blocked in WAIT_MEM with more work behind it returns,
 * cancels the work (its event signals -ECANCELED) and frees its buffers.
 */
VTEST(destroy_busy)
{
	struct vaccel_device *dev = open_dev();
	struct buf m = buf_alloc(dev, 4096, 0);
	long long base = bo_count(dev);
	struct vaccel_queue *q = queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct vaccel_event *ev;
	unsigned int i;
	int ret;

	memset(m.cpu, 0, 4096);
	VT_ASSERT_OK(vaccel_event_create(dev, &ev));
	VT_ASSERT_OK(vaccel_queue_wait_mem(q, m.va, 1, ~0ull, VACCEL_COMPARE_EQ, 32));
	VT_ASSERT_OK(vaccel_queue_signal(q, ev));
	for (i = 0; i < 6000; i++)	/* two DMA buffers and a bit */
		VT_ASSERT_OK(vaccel_queue_write(q, m.va + 4, i + 1, 32));
	VT_ASSERT_EQ(vaccel_event_wait(ev, 20 * MS), -ETIME);
	vaccel_queue_destroy(q);
	/* Whatever point each buffer reached: -ECANCELED. */
	ret = vaccel_event_wait(ev, 5000 * MS);
	VT_ASSERT_EQ(ret, -ECANCELED);
	VT_ASSERT_EQ(m.cpu[1], 0);
	expect_bo_count(dev, base);
	vaccel_event_destroy(ev);
	vaccel_bo_free(m.bo);
	vaccel_device_close(dev);
}

/*
 * Destroying a queue whose work waits for an event returns at once; that
 * work never runs, and its own event signals -ECANCELED once the awaited
 * one has signalled.
 */
VTEST(destroy_waiting)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *a = queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct vaccel_queue *b = queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct buf m = buf_alloc(dev, 4096, 0);
	struct vaccel_event *ev_a, *ev_b;
	uint64_t t0;

	memset(m.cpu, 0, 4096);
	VT_ASSERT_OK(vaccel_event_create(dev, &ev_a));
	VT_ASSERT_OK(vaccel_event_create(dev, &ev_b));
	VT_ASSERT_OK(vaccel_queue_wait_mem(a, m.va, 1, ~0ull, VACCEL_COMPARE_EQ, 32));
	VT_ASSERT_OK(vaccel_queue_signal(a, ev_a));
	VT_ASSERT_OK(vaccel_queue_wait_event(b, ev_a));
	VT_ASSERT_OK(vaccel_queue_write(b, m.va + 4, 5, 32));
	VT_ASSERT_OK(vaccel_queue_signal(b, ev_b));

	t0 = now_ns();
	vaccel_queue_destroy(b);
	VT_ASSERT(now_ns() - t0 < 2000 * MS);
	VT_ASSERT_EQ(vaccel_event_wait(ev_b, 20 * MS), -ETIME);
	__atomic_store_n(&m.cpu[0], 1, __ATOMIC_SEQ_CST);
	VT_ASSERT_OK(vaccel_event_wait(ev_a, 5000 * MS));
	VT_ASSERT_EQ(vaccel_event_wait(ev_b, 5000 * MS), -ECANCELED);
	VT_ASSERT_EQ(m.cpu[1], 0);
	VT_ASSERT_OK(vaccel_queue_finish(a));

	vaccel_event_destroy(ev_a);
	vaccel_event_destroy(ev_b);
	vaccel_queue_destroy(a);
	vaccel_bo_free(m.bo);
	vaccel_device_close(dev);
}

/* Drops CAP_SYS_NICE from the effective set of the calling process. */
static void drop_sys_nice(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	VT_ASSERT_EQ(syscall(SYS_capget, &h, d), 0);
	d[CAP_SYS_NICE / 32].effective &= ~(1u << (CAP_SYS_NICE % 32));
	VT_ASSERT_EQ(syscall(SYS_capset, &h, d), 0);
}

/* HIGH and REALTIME need CAP_SYS_NICE; root has it. */
VTEST(priorities)
{
	struct vaccel_device *dev = open_dev();
	struct buf m = buf_alloc(dev, 4096, 0);
	struct vaccel_queue *q;
	unsigned int p;
	pid_t pid;

	for (p = VACCEL_PRIORITY_LOW; p <= VACCEL_PRIORITY_REALTIME; p++) {
		int ret = vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COMPUTE, p, &q);

		if (geteuid() && p > VACCEL_PRIORITY_NORMAL) {
			VT_ASSERT_EQ(ret, -EPERM);
			continue;
		}
		VT_ASSERT_OK(ret);
		VT_ASSERT_OK(vaccel_queue_write(q, m.va, p + 1, 32));
		VT_ASSERT_OK(vaccel_queue_finish(q));
		VT_ASSERT_EQ(m.cpu[0], p + 1);
		vaccel_queue_destroy(q);
	}

	pid = fork();
	if (!pid) {
		drop_sys_nice();
		for (p = VACCEL_PRIORITY_LOW; p <= VACCEL_PRIORITY_REALTIME; p++) {
			int ret = vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COMPUTE, p, &q);

			if (p > VACCEL_PRIORITY_NORMAL) {
				VT_ASSERT_EQ(ret, -EPERM);
			} else {
				VT_ASSERT_OK(ret);
				vaccel_queue_destroy(q);
			}
		}
		_exit(0);
	}
	vt_wait_child(pid);
	vaccel_bo_free(m.bo);
	vaccel_device_close(dev);
}

struct worker {
	struct vaccel_device *dev;
	struct buf *m;
	unsigned int index;
};

static void *worker_fn(void *p)
{
	struct worker *w = p;
	struct vaccel_queue *q = queue(w->dev, w->index % 2 ? VACCEL_ENGINE_CLASS_COPY :
				       VACCEL_ENGINE_CLASS_COMPUTE);
	unsigned int i;

	for (i = 0; i < 2000; i++) {
		VT_ASSERT_OK(vaccel_queue_write(q, w->m->va + 4 * (w->index * 2000 + i),
						w->index << 16 | i, 32));
		if (i % 64 == 0)
			VT_ASSERT_OK(vaccel_queue_flush(q));
	}
	VT_ASSERT_OK(vaccel_queue_finish(q));
	vaccel_queue_destroy(q);
	return NULL;
}

/* Four threads, a queue each, on one device. */
VTEST(threads)
{
	struct vaccel_device *dev = open_dev();
	struct buf m = buf_alloc(dev, 64 * VT_KIB, 0);
	struct worker w[4];
	pthread_t t[4];
	unsigned int i, k;

	memset(m.cpu, 0, m.size);
	for (k = 0; k < 4; k++) {
		w[k] = (struct worker){ dev, &m, k };
		VT_ASSERT_OK(pthread_create(&t[k], NULL, worker_fn, &w[k]));
	}
	for (k = 0; k < 4; k++)
		VT_ASSERT_OK(pthread_join(t[k], NULL));
	for (k = 0; k < 4; k++)
		for (i = 0; i < 2000; i++)
			VT_ASSERT_EQ(m.cpu[k * 2000 + i], k << 16 | i);
	vaccel_bo_free(m.bo);
	vaccel_device_close(dev);
}

VTEST_MAIN()
