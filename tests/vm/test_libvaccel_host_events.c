// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_libvaccel_host_events.c - libvaccel 1.9 against the real module:
 * host events and deferred submission (work waiting for an unset host
 * event never reaches the kernel: its memory stays untouched until the
 * event is set; a failed event fails the held work and what waits for it,
 * and the queues stay usable; a queue destroyed with held work; the event
 * set by another thread while the owner records), waits on many events,
 * command groups (one profiling interval, the empty group as a marker),
 * the device memory of the device information and its free space,
 * placement and migration of buffers, and the metadata sections of a
 * module (kernels/sections.elf, which the Makefile makes with
 * llvm-objcopy).  tests/host/host_defer.c checks the deferral on the fake
 * device, under valgrind.
 *
 * Any topology with a COPY engine; the memory cases skip a device without
 * device memory.
 */
#include <pthread.h>
#include <time.h>

#include <vaccel.h>

#include "vt_util.h"

#define KIB	1024ull
#define MIB	(1024ull * 1024)

struct ctx {
	struct vaccel_device *dev;
	struct vaccel_queue *q;
	struct vaccel_bo *bo;
	uint32_t *cpu;
	uint64_t va;
};

static struct ctx setup(enum vaccel_engine_class cls, uint64_t size)
{
	struct ctx c;
	void *p;

	VT_ASSERT_OK(vaccel_device_open(0, &c.dev));
	VT_ASSERT_OK(vaccel_queue_create(c.dev, cls, VACCEL_PRIORITY_NORMAL, &c.q));
	VT_ASSERT_OK(vaccel_bo_alloc(c.dev, size, 0, &c.bo));
	VT_ASSERT_OK(vaccel_bo_map(c.bo, &p));
	c.cpu = p;
	c.va = vaccel_bo_va(c.bo);
	return c;
}

static void teardown(struct ctx *c)
{
	vaccel_queue_destroy(c->q);
	vaccel_bo_free(c->bo);
	vaccel_device_close(c->dev);
}

static struct vaccel_event *host_event(void)
{
	struct vaccel_event *ev;

	VT_ASSERT_OK(vaccel_event_create_ex(NULL, VACCEL_EVENT_HOST, &ev));
	return ev;
}

static struct vaccel_event *event(struct vaccel_device *dev, uint32_t flags)
{
	struct vaccel_event *ev;

	VT_ASSERT_OK(vaccel_event_create_ex(dev, flags, &ev));
	return ev;
}

/* The next command of @q waits for @w (NULL: nothing) and signals @s. */
static void sync1(struct vaccel_queue *q, struct vaccel_event *w, struct vaccel_event *s)
{
	struct vaccel_event_point p = { w, 0 };
	struct vaccel_command_sync sync = {
		.waits = &p, .wait_count = w ? 1 : 0, .signal = s,
	};

	VT_ASSERT_OK(vaccel_queue_set_command_sync(q, &sync));
}

/* An unset host event holds the work back; set to 0, it runs. */
VTEST(hold_release)
{
	struct ctx c = setup(VACCEL_ENGINE_CLASS_COPY, 64 * KIB);
	struct vaccel_event *h = host_event(), *e = event(c.dev, 0);

	sync1(c.q, h, e);
	VT_ASSERT_OK(vaccel_queue_fill(c.q, c.va, 4096, 0x5a5a5a5a));
	VT_ASSERT_OK(vaccel_queue_write(c.q, c.va + 8192, 77, 32));
	VT_ASSERT_OK(vaccel_queue_flush(c.q));
	usleep(200000);
	VT_ASSERT_EQ(c.cpu[0], 0);
	VT_ASSERT_EQ(c.cpu[2048], 0);
	VT_ASSERT_EQ(vaccel_event_wait(e, 50000000), -ETIME);
	VT_ASSERT_EQ(vaccel_event_wait(h, 0), -ETIME);

	VT_ASSERT_OK(vaccel_event_set_status(h, 0));
	VT_ASSERT_EQ(vaccel_event_set_status(h, 0), -EALREADY);
	VT_ASSERT_OK(vaccel_event_wait(e, -1));
	VT_ASSERT_OK(vaccel_queue_finish(c.q));
	VT_ASSERT_EQ(c.cpu[0], 0x5a5a5a5a);
	VT_ASSERT_EQ(c.cpu[1023], 0x5a5a5a5a);
	VT_ASSERT_EQ(c.cpu[2048], 77);
	vaccel_event_destroy(e);
	vaccel_event_destroy(h);
	teardown(&c);
}

/*
 * A failed host event: the held work never runs, its event fails with the
 * status, so does a command of another queue that waits for that event;
 * both queues then run new work.
 */
VTEST(fail_spreads)
{
	struct ctx c = setup(VACCEL_ENGINE_CLASS_COPY, 64 * KIB);
	struct vaccel_event *h = host_event(), *e1 = event(c.dev, 0), *e2 = event(c.dev, 0);
	struct vaccel_queue *q2;

	VT_ASSERT_OK(vaccel_queue_create(c.dev, VACCEL_ENGINE_CLASS_COMPUTE,
					 VACCEL_PRIORITY_NORMAL, &q2));
	sync1(c.q, h, e1);
	VT_ASSERT_OK(vaccel_queue_write(c.q, c.va, 1, 32));
	sync1(q2, e1, e2);
	VT_ASSERT_OK(vaccel_queue_write(q2, c.va + 4, 2, 32));
	VT_ASSERT_OK(vaccel_event_set_status(h, -EIO));
	VT_ASSERT_EQ(vaccel_event_wait(e1, -1), -EIO);
	VT_ASSERT_EQ(vaccel_event_wait(e2, -1), -EIO);
	VT_ASSERT_OK(vaccel_queue_finish(c.q));
	VT_ASSERT_OK(vaccel_queue_finish(q2));
	VT_ASSERT_EQ(c.cpu[0], 0);
	VT_ASSERT_EQ(c.cpu[1], 0);

	sync1(c.q, NULL, e1);
	VT_ASSERT_OK(vaccel_queue_write(c.q, c.va, 3, 32));
	sync1(q2, e1, e2);
	VT_ASSERT_OK(vaccel_queue_write(q2, c.va + 4, 4, 32));
	VT_ASSERT_OK(vaccel_event_wait(e2, -1));
	VT_ASSERT_EQ(c.cpu[0], 3);
	VT_ASSERT_EQ(c.cpu[1], 4);
	vaccel_queue_destroy(q2);
	vaccel_event_destroy(e2);
	vaccel_event_destroy(e1);
	vaccel_event_destroy(h);
	teardown(&c);
}

/* A queue destroyed with held work: its event fails with -ECANCELED. */
VTEST(destroy_held)
{
	struct ctx c = setup(VACCEL_ENGINE_CLASS_COPY, 64 * KIB);
	struct vaccel_event *h = host_event(), *e = event(c.dev, 0);
	struct vaccel_queue *q;

	VT_ASSERT_OK(vaccel_queue_create(c.dev, VACCEL_ENGINE_CLASS_COPY,
					 VACCEL_PRIORITY_NORMAL, &q));
	sync1(q, h, e);
	VT_ASSERT_OK(vaccel_queue_fill(q, c.va, 4096, 9));
	vaccel_queue_destroy(q);
	VT_ASSERT_EQ(vaccel_event_wait(e, -1), -ECANCELED);
	VT_ASSERT_OK(vaccel_event_set_status(h, 0));
	usleep(50000);
	VT_ASSERT_EQ(c.cpu[0], 0);
	vaccel_event_destroy(e);
	vaccel_event_destroy(h);
	teardown(&c);
}

struct setter {
	struct vaccel_event *h;
	unsigned int delay_us;
};

static void *set_later(void *arg)
{
	struct setter *s = arg;

	usleep(s->delay_us);
	return (void *)(intptr_t)vaccel_event_set_status(s->h, 0);
}

/*
 * Another thread sets the event while the owner records more than the
 * pool's 16 buffers of work behind it: it all runs, in order.
 */
VTEST(set_from_thread)
{
	struct ctx c = setup(VACCEL_ENGINE_CLASS_COPY, 64 * KIB);
	unsigned int round, i;
	pthread_t t;
	void *ret;

	for (round = 0; round < 4; round++) {
		struct setter s = { host_event(), round * 20000 };

		VT_ASSERT_EQ(pthread_create(&t, NULL, set_later, &s), 0);
		sync1(c.q, s.h, NULL);
		for (i = 0; i < 20000; i++)
			VT_ASSERT_OK(vaccel_queue_write(c.q, c.va + 4 * (i % 16),
							round * 20000 + i, 32));
		VT_ASSERT_OK(vaccel_queue_finish(c.q));
		VT_ASSERT_EQ(pthread_join(t, &ret), 0);
		VT_ASSERT(ret == NULL);
		for (i = 20000 - 16; i < 20000; i++)
			VT_ASSERT_EQ(c.cpu[i % 16], round * 20000 + i);
		vaccel_event_destroy(s.h);
	}
	teardown(&c);
}

/* Waits on many: any, all, a host event among device events. */
VTEST(wait_many)
{
	struct ctx c = setup(VACCEL_ENGINE_CLASS_COPY, 64 * KIB);
	struct vaccel_event *h = host_event(), *e = event(c.dev, 0), *f = event(c.dev, 0);
	struct vaccel_event_point p[3] = { { h, 0 }, { e, 0 }, { f, 0 } };
	struct setter s = { h, 100000 };
	uint32_t first = 99;
	pthread_t t;

	VT_ASSERT_EQ(vaccel_event_wait_many(p, 3, false, 10000000, &first), -ETIME);
	VT_ASSERT_OK(vaccel_queue_delay(c.q, 20000000));
	VT_ASSERT_OK(vaccel_queue_signal(c.q, e));
	VT_ASSERT_OK(vaccel_event_wait_many(p, 3, false, -1, &first));
	VT_ASSERT_EQ(first, 1);
	VT_ASSERT_EQ(vaccel_event_wait_many(p, 3, true, 10000000, &first), -ETIME);
	/* Two events of one device: the kernel waits. */
	VT_ASSERT_EQ(vaccel_event_wait_many(p + 1, 2, true, 10000000, NULL), -ETIME);
	VT_ASSERT_OK(vaccel_queue_signal(c.q, f));
	VT_ASSERT_OK(vaccel_event_wait_many(p + 1, 2, true, -1, NULL));
	VT_ASSERT_EQ(pthread_create(&t, NULL, set_later, &s), 0);
	VT_ASSERT_OK(vaccel_event_wait_many(p, 3, true, -1, &first));
	VT_ASSERT_EQ(pthread_join(t, NULL), 0);
	vaccel_event_destroy(f);
	vaccel_event_destroy(e);
	vaccel_event_destroy(h);
	teardown(&c);
}

/*
 * A group: one profiling interval from its first command's start to its
 * last's end; the empty group signals after the work before it.
 */
VTEST(groups)
{
	struct ctx c = setup(VACCEL_ENGINE_CLASS_COPY, 64 * KIB);
	struct vaccel_event *p = event(c.dev, VACCEL_EVENT_PROFILING), *m = event(c.dev, 0);
	struct vaccel_command_sync sync = { .signal = p };
	struct vaccel_event_times t;
	uint64_t *w64 = (uint64_t *)c.cpu;

	VT_ASSERT_OK(vaccel_queue_timestamp(c.q, c.va + 8192));
	VT_ASSERT_OK(vaccel_queue_begin_group(c.q, &sync));
	VT_ASSERT_EQ(vaccel_queue_begin_group(c.q, NULL), -EBUSY);
	VT_ASSERT_OK(vaccel_queue_delay(c.q, 10000000));
	VT_ASSERT_OK(vaccel_queue_fill(c.q, c.va, 4096, 5));
	VT_ASSERT_OK(vaccel_queue_delay(c.q, 10000000));
	VT_ASSERT_OK(vaccel_queue_end_group(c.q));
	VT_ASSERT_OK(vaccel_queue_timestamp(c.q, c.va + 8200));
	VT_ASSERT_OK(vaccel_event_wait(p, -1));
	VT_ASSERT_OK(vaccel_queue_finish(c.q));
	VT_ASSERT_OK(vaccel_event_get_times(p, &t));
	VT_ASSERT(t.ended_ns - t.started_ns >= 20000000);
	VT_ASSERT(t.started_ns >= w64[1024] && t.ended_ns <= w64[1025]);
	VT_ASSERT_EQ(c.cpu[0], 5);

	/* The marker. */
	sync.signal = m;
	VT_ASSERT_OK(vaccel_queue_delay(c.q, 50000000));
	VT_ASSERT_OK(vaccel_queue_write(c.q, c.va, 6, 32));
	VT_ASSERT_OK(vaccel_queue_begin_group(c.q, &sync));
	VT_ASSERT_OK(vaccel_queue_end_group(c.q));
	VT_ASSERT_OK(vaccel_event_wait(m, -1));
	VT_ASSERT_EQ(c.cpu[0], 6);
	VT_ASSERT_EQ(vaccel_queue_end_group(c.q), -EINVAL);
	vaccel_event_destroy(m);
	vaccel_event_destroy(p);
	teardown(&c);
}

/* Device memory: its size, its free space, placement and migration. */
VTEST(device_memory)
{
	struct drm_vaccel_device_info raw;
	struct vaccel_device_memory m0, m1;
	struct vaccel_device_info info;
	struct vaccel_device *dev;
	struct vaccel_bo *bo;
	unsigned int i;
	uint32_t *p;

	VT_ASSERT_OK(vaccel_device_open(0, &dev));
	VT_ASSERT_OK(vaccel_device_get_info(dev, &info));
	vt_device_info(vaccel_device_fd(dev), &raw);
	VT_ASSERT(info.device_mem_size == raw.device_mem_size);
	for (i = 0; i < 7; i++)
		VT_ASSERT(info.reserved[i] == 0);
	VT_ASSERT_OK(vaccel_device_memory_info(dev, &m0));
	VT_ASSERT(m0.size == info.device_mem_size && m0.free <= m0.size);
	if (!info.device_mem_size) {
		VT_ASSERT_EQ(vaccel_bo_alloc(dev, 4096, VACCEL_BO_DEVICE, &bo), -ENODEV);
		vaccel_device_close(dev);
		return;
	}
	VT_ASSERT_EQ(vaccel_bo_alloc(dev, 4096, VACCEL_BO_DEVICE |
				     VACCEL_BO_DEVICE_PREFERRED, &bo), -EINVAL);
	VT_ASSERT_OK(vaccel_bo_alloc(dev, 4 * MIB, VACCEL_BO_DEVICE, &bo));
	VT_ASSERT_EQ(vaccel_bo_region(bo), VACCEL_MEMORY_DEVICE);
	VT_ASSERT_OK(vaccel_device_memory_info(dev, &m1));
	VT_ASSERT(m1.free + 4 * MIB <= m0.free);
	VT_ASSERT_OK(vaccel_bo_map(bo, (void **)&p));
	for (i = 0; i < MIB; i++)
		p[i] = i * 2654435761u;

	VT_ASSERT_OK(vaccel_bo_migrate(bo, VACCEL_MEMORY_SYSTEM, 0));
	VT_ASSERT_EQ(vaccel_bo_region(bo), VACCEL_MEMORY_SYSTEM);
	for (i = 0; i < MIB; i++)
		VT_ASSERT_EQ(p[i], i * 2654435761u);
	VT_ASSERT_OK(vaccel_device_memory_info(dev, &m1));
	VT_ASSERT(m1.free >= m0.free);
	VT_ASSERT_OK(vaccel_bo_migrate(bo, VACCEL_MEMORY_DEVICE, 0));
	VT_ASSERT_EQ(vaccel_bo_region(bo), VACCEL_MEMORY_DEVICE);
	for (i = 0; i < MIB; i++)
		VT_ASSERT_EQ(p[i], i * 2654435761u);
	VT_ASSERT_EQ(vaccel_bo_migrate(bo, 7, 0), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_migrate(bo, VACCEL_MEMORY_SYSTEM, 1), -EINVAL);
	vaccel_bo_free(bo);
	VT_ASSERT_OK(vaccel_bo_alloc(dev, MIB, VACCEL_BO_DEVICE_PREFERRED, &bo));
	VT_ASSERT_EQ(vaccel_bo_region(bo), VACCEL_MEMORY_DEVICE);
	vaccel_bo_free(bo);
	vaccel_device_close(dev);
}

/* Embedded: the debug kernels' VMs see no host files. */
VT_INCBIN(sections_module, VT_KERNELS "/sections.elf");
VT_INCBIN(sections_big_module, VT_KERNELS "/sections_big.elf");

/* The metadata sections of a module: kept, read back, bounded. */
VTEST(module_sections)
{
	static const char want[] = "vaccel metadata of the test module, sixty-four bytes long: ok!!!";
	char msg[VACCEL_MODULE_MSG_SIZE];
	struct vaccel_device *dev;
	struct vaccel_module *mod;
	const void *data;
	size_t size;

	VT_ASSERT_OK(vaccel_device_open(0, &dev));
	VT_ASSERT_OK(vaccel_module_load(dev, VT_MODULE(sections_module), &mod, msg,
					sizeof(msg)));
	VT_ASSERT_OK(vaccel_module_get_section(mod, ".vaccel.test", &data, &size));
	VT_ASSERT_EQ(size, 64);
	VT_ASSERT(!memcmp(data, want, 64));
	VT_ASSERT_OK(vaccel_module_get_section(mod, ".vaccel.empty", &data, &size));
	VT_ASSERT_EQ(size, 0);
	VT_ASSERT_EQ(vaccel_module_get_section(mod, ".vaccel.none", &data, &size), -ENOENT);
	/* Allocated, or not ".vaccel.": not kept. */
	VT_ASSERT_EQ(vaccel_module_get_section(mod, ".text", &data, &size), -ENOENT);
	VT_ASSERT_EQ(vaccel_module_get_section(mod, ".symtab", &data, &size), -ENOENT);
	VT_ASSERT_EQ(vaccel_module_get_section(mod, NULL, &data, &size), -EINVAL);
	vaccel_module_destroy(mod);
	VT_ASSERT_EQ(vaccel_module_load(dev, VT_MODULE(sections_big_module), &mod, msg,
				       sizeof(msg)), -E2BIG);
	VT_ASSERT(strstr(msg, ".vaccel."));
	vaccel_device_close(dev);
}

VTEST_MAIN()
