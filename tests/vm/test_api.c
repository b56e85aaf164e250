// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_api.c - libvaccel 1.7 against the module: queues on chosen
 * engines, commands that wait for lists of events across engines and
 * signal one, timeline points, sync_file round trips, profiling times
 * against the engine's busy time, stacks sized from the module's
 * .stack_sizes and per launch, and dynamic local memory.  The host tests
 * (tests/host/host_queue.c) check the same calls on the fake device;
 * this is the authority.
 */
#include <poll.h>
#include <time.h>

#include <vaccel.h>

#include "vt_mem.h"
#include "kernels/api.h"

VT_INCBIN(ta_module, VT_KERNELS "/api.elf");

static struct vaccel_device *open_dev(void)
{
	struct vaccel_device *dev;

	VT_ASSERT_OK(vaccel_device_open(0, &dev));
	return dev;
}

static struct vaccel_queue *queue_on(struct vaccel_device *dev, uint32_t cls,
				     uint32_t instance)
{
	const struct vaccel_queue_desc d = {
		.engine_class = cls,
		.engine_instance = instance,
		.priority = VACCEL_PRIORITY_NORMAL,
	};
	struct vaccel_queue *q;

	VT_ASSERT_OK(vaccel_queue_create_ex(dev, &d, &q));
	return q;
}

struct buf {
	struct vaccel_bo *bo;
	uint32_t *w;
	uint64_t va;
};

static struct buf buf_new(struct vaccel_device *dev, uint64_t size)
{
	struct buf b;
	void *p;

	VT_ASSERT_OK(vaccel_bo_alloc(dev, size, VACCEL_BO_GPU_NO_EXEC, &b.bo));
	VT_ASSERT_OK(vaccel_bo_map(b.bo, &p));
	memset(p, 0, size);
	b.w = p;
	b.va = vaccel_bo_va(b.bo);
	return b;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint64_t engine_ns(struct vaccel_queue *q)
{
	struct vaccel_queue_stats s;

	VT_ASSERT_OK(vaccel_queue_get_stats(q, &s));
	return s.engine_ns;
}

/*
 * Every engine of both classes, by instance: the queue's context is on
 * that engine (the kernel's CONTEXT_STATE), and its work runs.
 */
VTEST(queue_on_each_engine)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_device_info info;
	struct vaccel_engine_info ei;
	struct vaccel_queue_info qi;
	struct buf b = buf_new(dev, 4096);
	const uint32_t classes[] = { VACCEL_ENGINE_CLASS_COMPUTE, VACCEL_ENGINE_CLASS_COPY };
	const struct vaccel_queue_desc bad = {
		.engine_class = VACCEL_ENGINE_CLASS_COPY, .engine_instance = 99,
	};
	struct vaccel_queue *q;
	unsigned int c, i, n = 0;

	VT_ASSERT_OK(vaccel_device_get_info(dev, &info));
	for (c = 0; c < 2; c++) {
		for (i = 0; i < info.engine_count[classes[c]]; i++, n++) {
			q = queue_on(dev, classes[c], i);
			VT_ASSERT_OK(vaccel_queue_get_info(q, &qi));
			VT_ASSERT_EQ(qi.engine_class, classes[c]);
			VT_ASSERT_EQ(qi.engine_instance, i);
			VT_ASSERT_OK(vaccel_device_get_engine(dev, qi.engine_index, &ei));
			VT_ASSERT_EQ(ei.engine_class, classes[c]);
			VT_ASSERT_EQ(ei.instance, i);
			VT_ASSERT_OK(vaccel_queue_write(q, b.va + 4 * n, 100 + n, 32));
			VT_ASSERT_OK(vaccel_queue_finish(q));
			VT_ASSERT_EQ(b.w[n], 100 + n);
			vaccel_queue_destroy(q);
		}
	}
	VT_ASSERT_EQ(vaccel_queue_create_ex(dev, &bad, &q), -ENODEV);
	VT_ASSERT(strstr(vaccel_last_error_message(), "no copy engine 99"));
	vaccel_bo_free(b.bo);
	vaccel_device_close(dev);
}

/*
 * A copy on a compute engine waits for a copy engine held on memory, for
 * another compute queue and for a timeline point the CPU signals; it
 * signals an event; the commands around it are not part of it.
 */
VTEST(command_waits_across_engines)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *a = queue_on(dev, VACCEL_ENGINE_CLASS_COPY, 0);
	struct vaccel_queue *b = queue_on(dev, VACCEL_ENGINE_CLASS_COMPUTE, 0);
	struct vaccel_queue *c = queue_on(dev, VACCEL_ENGINE_CLASS_COMPUTE,
					  VACCEL_ENGINE_INSTANCE_ANY);
	struct vaccel_event *ea, *eb, *tl, *done;
	struct vaccel_event_point waits[3];
	struct vaccel_command_sync sync = { 0 };
	struct buf m = buf_new(dev, 4096);
	uint64_t point;

	VT_ASSERT_OK(vaccel_event_create(dev, &ea));
	VT_ASSERT_OK(vaccel_event_create(dev, &eb));
	VT_ASSERT_OK(vaccel_event_create_ex(dev, VACCEL_EVENT_TIMELINE, &tl));
	VT_ASSERT_OK(vaccel_event_create(dev, &done));

	/* a: held, then 7 at word 1; b: 8 at word 2. */
	VT_ASSERT_OK(vaccel_queue_wait_mem(a, m.va, 1, ~0ull, VACCEL_COMPARE_EQ, 32));
	VT_ASSERT_OK(vaccel_queue_write(a, m.va + 4, 7, 32));
	VT_ASSERT_OK(vaccel_queue_signal(a, ea));
	VT_ASSERT_OK(vaccel_queue_write(b, m.va + 8, 8, 32));
	VT_ASSERT_OK(vaccel_queue_signal(b, eb));
	VT_ASSERT_OK(vaccel_event_signal_point(tl, 2));

	/* c: 5 at word 3 alone; then a copy of words 1-2 that waits for all three. */
	VT_ASSERT_OK(vaccel_queue_write(c, m.va + 12, 5, 32));
	waits[0] = (struct vaccel_event_point){ ea, 0 };
	waits[1] = (struct vaccel_event_point){ eb, 0 };
	waits[2] = (struct vaccel_event_point){ tl, 2 };
	sync.waits = waits;
	sync.wait_count = 3;
	sync.signal = done;
	VT_ASSERT_OK(vaccel_queue_set_command_sync(c, &sync));
	VT_ASSERT_OK(vaccel_queue_copy(c, m.va + 16, m.va + 4, 8));
	/* And a timeline point signalled by the command after it. */
	sync = (struct vaccel_command_sync){ .signal = tl, .signal_point = 3 };
	VT_ASSERT_OK(vaccel_queue_set_command_sync(c, &sync));
	VT_ASSERT_OK(vaccel_queue_write(c, m.va + 24, 9, 32));
	VT_ASSERT_OK(vaccel_queue_flush(c));

	VT_ASSERT_EQ(vaccel_event_wait(done, 50000000), -ETIME);
	VT_ASSERT_EQ(vaccel_event_wait_point(tl, 3, 0), -ETIME);
	VT_ASSERT_OK(vaccel_event_wait(eb, -1));
	VT_ASSERT_EQ(m.w[4], 0);
	VT_ASSERT_EQ(vaccel_event_wait(done, 0), -ETIME);
	__atomic_store_n(&m.w[0], 1, __ATOMIC_SEQ_CST);
	VT_ASSERT_OK(vaccel_event_wait(done, -1));
	VT_ASSERT_EQ(m.w[4], 7);
	VT_ASSERT_EQ(m.w[5], 8);
	VT_ASSERT_OK(vaccel_event_wait_point(tl, 3, -1));
	VT_ASSERT_EQ(m.w[6], 9);
	VT_ASSERT_OK(vaccel_event_get_point(tl, &point));
	VT_ASSERT_EQ(point, 3);
	VT_ASSERT_EQ(m.w[3], 5);
	VT_ASSERT_OK(vaccel_queue_finish(a));
	VT_ASSERT_OK(vaccel_queue_finish(b));
	VT_ASSERT_OK(vaccel_queue_finish(c));

	/* A point not submitted yet cannot be waited for by a queue. */
	waits[0] = (struct vaccel_event_point){ tl, 10 };
	sync = (struct vaccel_command_sync){ .waits = waits, .wait_count = 1 };
	VT_ASSERT_EQ(vaccel_queue_set_command_sync(c, &sync), -EINVAL);

	vaccel_event_destroy(ea);
	vaccel_event_destroy(eb);
	vaccel_event_destroy(tl);
	vaccel_event_destroy(done);
	vaccel_queue_destroy(a);
	vaccel_queue_destroy(b);
	vaccel_queue_destroy(c);
	vaccel_bo_free(m.bo);
	vaccel_device_close(dev);
}

/*
 * A sync_file out of an event, into a binary event and a timeline point,
 * out of the point again, and a queue waiting on the import; poll() sees
 * it signal.
 */
VTEST(sync_file_round_trip)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *a = queue_on(dev, VACCEL_ENGINE_CLASS_COPY, 0);
	struct vaccel_queue *b = queue_on(dev, VACCEL_ENGINE_CLASS_COMPUTE,
					  VACCEL_ENGINE_INSTANCE_ANY);
	struct vaccel_event *src, *bin, *tl;
	struct vaccel_event_point w;
	struct vaccel_command_sync sync = { .waits = &w, .wait_count = 1 };
	struct buf m = buf_new(dev, 4096);
	struct pollfd pfd;
	int fd, fd2;

	VT_ASSERT_OK(vaccel_event_create(dev, &src));
	VT_ASSERT_OK(vaccel_event_create(dev, &bin));
	VT_ASSERT_OK(vaccel_event_create_ex(dev, VACCEL_EVENT_TIMELINE, &tl));
	VT_ASSERT_OK(vaccel_queue_wait_mem(a, m.va, 1, ~0ull, VACCEL_COMPARE_EQ, 32));
	VT_ASSERT_OK(vaccel_queue_write(a, m.va + 4, 11, 32));
	VT_ASSERT_OK(vaccel_queue_signal(a, src));
	VT_ASSERT_OK(vaccel_event_export_sync_file(src, &fd));
	VT_ASSERT_OK(vaccel_event_import_sync_file(bin, 0, fd));
	VT_ASSERT_OK(vaccel_event_import_sync_file(tl, 1, fd));
	close(fd);
	VT_ASSERT_OK(vaccel_event_export_sync_file_point(tl, 1, &fd2));

	/* b copies what a wrote, after the imported point. */
	w = (struct vaccel_event_point){ tl, 1 };
	VT_ASSERT_OK(vaccel_queue_set_command_sync(b, &sync));
	VT_ASSERT_OK(vaccel_queue_copy(b, m.va + 8, m.va + 4, 4));
	VT_ASSERT_OK(vaccel_queue_flush(b));
	pfd = (struct pollfd){ .fd = fd2, .events = POLLIN };
	VT_ASSERT_EQ(poll(&pfd, 1, 50), 0);
	VT_ASSERT_EQ(vaccel_event_wait(bin, 0), -ETIME);
	__atomic_store_n(&m.w[0], 1, __ATOMIC_SEQ_CST);
	VT_ASSERT_EQ(poll(&pfd, 1, 10000), 1);
	VT_ASSERT_OK(vaccel_event_wait(bin, -1));
	VT_ASSERT_OK(vaccel_queue_finish(b));
	VT_ASSERT_EQ(m.w[2], 11);
	close(fd2);
	/* Standard input is no sync_file. */
	VT_ASSERT_EQ(vaccel_event_import_sync_file(bin, 0, 0), -EINVAL);
	VT_ASSERT_OK(vaccel_queue_finish(a));

	vaccel_event_destroy(src);
	vaccel_event_destroy(bin);
	vaccel_event_destroy(tl);
	vaccel_queue_destroy(a);
	vaccel_queue_destroy(b);
	vaccel_bo_free(m.bo);
	vaccel_device_close(dev);
}

/*
 * The profiling times of a delay and of a launch: ordered, the delay's at
 * least its length, and each within the engine time its queue used.
 */
VTEST(profiling_times_ordered_within_busy_time)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = queue_on(dev, VACCEL_ENGINE_CLASS_COMPUTE,
					  VACCEL_ENGINE_INSTANCE_ANY);
	const uint32_t grid[3] = { 64, 1, 1 }, wg[3] = { 64, 1, 1 };
	struct vaccel_command_sync sync = { 0 };
	struct vaccel_event_times t;
	struct vaccel_event *ev;
	struct vaccel_module *mod;
	struct vaccel_kernel *k;
	struct buf out = buf_new(dev, 4096);
	struct ta_args args = { .out = out.va };
	uint64_t t0, busy0, busy, ns;

	VT_ASSERT_OK(vaccel_event_create_ex(dev, VACCEL_EVENT_PROFILING, &ev));
	VT_ASSERT_EQ(vaccel_event_get_times(ev, &t), -ENODATA);
	VT_ASSERT_OK(vaccel_module_load(dev, VT_MODULE(ta_module), &mod, NULL, 0));
	VT_ASSERT_OK(vaccel_kernel_get(mod, "ta_frame", &k));

	busy0 = engine_ns(q);
	t0 = now_ns();
	VT_ASSERT_OK(vaccel_queue_delay(q, 5000000));		/* not part of it */
	sync.signal = ev;
	VT_ASSERT_OK(vaccel_queue_set_command_sync(q, &sync));
	VT_ASSERT_OK(vaccel_queue_delay(q, 20000000));
	VT_ASSERT_OK(vaccel_event_wait(ev, -1));
	VT_ASSERT_OK(vaccel_queue_finish(q));
	busy = engine_ns(q) - busy0;
	VT_ASSERT_OK(vaccel_event_get_times(ev, &t));
	VT_ASSERT(t0 <= t.submitted_ns);
	VT_ASSERT(t.submitted_ns <= t.started_ns);
	VT_ASSERT(t.started_ns <= t.ended_ns);
	VT_ASSERT(t.ended_ns <= now_ns());
	VT_ASSERT_OK(vaccel_event_elapsed_ns(ev, &ns));
	VT_ASSERT(ns >= 20000000);
	/* Within the engine time: the delays, the first one excluded. */
	VT_ASSERT(ns <= busy - 5000000);
	printf("# delay of 20 ms: %.3f ms on the engine, queue busy %.3f ms\n",
	       ns / 1e6, busy / 1e6);

	busy0 = engine_ns(q);
	VT_ASSERT_OK(vaccel_queue_set_command_sync(q, &sync));
	VT_ASSERT_OK(vaccel_launch(q, k, grid, wg, &args, sizeof(args)));
	VT_ASSERT_OK(vaccel_queue_finish(q));
	busy = engine_ns(q) - busy0;
	VT_ASSERT_OK(vaccel_event_elapsed_ns(ev, &ns));
	VT_ASSERT(ns > 0 && ns <= busy);
	printf("# launch of 64 work-items: %.3f ms on the engine, queue busy %.3f ms\n",
	       ns / 1e6, busy / 1e6);

	vaccel_event_destroy(ev);
	vaccel_module_destroy(mod);
	vaccel_queue_destroy(q);
	vaccel_bo_free(out.bo);
	vaccel_device_close(dev);
}

/* The byte sum ta_frame and ta_aligned compute of @n bytes for work-item @id. */
static uint32_t frame_sum(unsigned int n, unsigned int id)
{
	uint32_t s = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		s += (uint8_t)(i * 3 + id);
	return s;
}

/*
 * Stacks from .stack_sizes: a frame and a call is a known need, launched
 * with just that; so is a frame realigned to 4 KiB, with what realigning
 * may take (each work-item's callee ran below its stack before that was
 * counted); recursion is not known and gets the default; a need above
 * the device's is refused, saying why; a per-launch size wins.
 */
VTEST(stack_sizes_from_module)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = queue_on(dev, VACCEL_ENGINE_CLASS_COMPUTE,
					  VACCEL_ENGINE_INSTANCE_ANY);
	struct buf out = buf_new(dev, 64 * 4);
	struct ta_args args = { .out = out.va, .n = 12 };
	struct vaccel_launch_options opts = { 0 };
	uint32_t grid[3] = { 64, 1, 1 }, wg[3] = { 64, 1, 1 };
	struct vaccel_device_info info;
	struct vaccel_kernel_info ki;
	struct vaccel_module *mod;
	struct vaccel_kernel *k;
	unsigned int i;

	VT_ASSERT_OK(vaccel_device_get_info(dev, &info));
	VT_ASSERT_OK(vaccel_module_load(dev, VT_MODULE(ta_module), &mod, NULL, 0));

	VT_ASSERT_OK(vaccel_kernel_get(mod, "ta_frame", &k));
	VT_ASSERT_OK(vaccel_kernel_get_info(k, &ki));
	VT_ASSERT_EQ(ki.flags, VACCEL_KERNEL_STACK_KNOWN);
	VT_ASSERT(ki.stack_need >= TA_FRAME_BYTES && ki.stack_need < TA_FRAME_BYTES + 256);
	VT_ASSERT_EQ(ki.stack_size, (ki.stack_need + 15) & ~15u);
	printf("# ta_frame needs %u bytes of stack, launched with %u\n",
	       ki.stack_need, ki.stack_size);
	VT_ASSERT_OK(vaccel_launch(q, k, grid, wg, &args, sizeof(args)));
	VT_ASSERT_OK(vaccel_queue_finish(q));
	for (i = 0; i < 64; i++)
		VT_ASSERT_EQ(out.w[i], frame_sum(TA_FRAME_BYTES, i));

	/* A workgroup whose stacks together do not fit: refused, and why. */
	if (info.max_private_size / ki.stack_size < info.max_workgroup_items) {
		wg[0] = info.max_private_size / ki.stack_size + 1;
		grid[0] = wg[0];
		VT_ASSERT_EQ(vaccel_launch(q, k, grid, wg, &args, sizeof(args)), -E2BIG);
		VT_ASSERT(strstr(vaccel_last_error_message(), "ta_frame needs"));
		grid[0] = wg[0] = 64;
	}

	/* A per-launch stack below the need overflows: the device faults it. */
	opts.stack_size = 1024;
	VT_ASSERT_OK(vaccel_launch_ex(q, k, grid, wg, &args, sizeof(args), &opts));
	VT_ASSERT_EQ(vaccel_queue_finish(q), -EFAULT);
	vaccel_queue_destroy(q);
	q = queue_on(dev, VACCEL_ENGINE_CLASS_COMPUTE, VACCEL_ENGINE_INSTANCE_ANY);

	/* Realigned to 4 KiB: up to 4080 bytes below the frame. */
	VT_ASSERT_OK(vaccel_kernel_get(mod, "ta_aligned", &k));
	VT_ASSERT_OK(vaccel_kernel_get_info(k, &ki));
	VT_ASSERT_EQ(ki.flags, VACCEL_KERNEL_STACK_KNOWN);
	VT_ASSERT(ki.stack_need >= TA_ALIGNED_BYTES + TA_ALIGNED_ALIGN - 16);
	printf("# ta_aligned needs %u bytes of stack\n", ki.stack_need);
	memset(out.w, 0, 64 * 4);
	VT_ASSERT_OK(vaccel_launch(q, k, grid, wg, &args, sizeof(args)));
	VT_ASSERT_OK(vaccel_queue_finish(q));
	for (i = 0; i < 64; i++)
		VT_ASSERT_EQ(out.w[i], frame_sum(TA_ALIGNED_BYTES, i));

	/* Recursion: not known, the default stack, and it runs. */
	VT_ASSERT_OK(vaccel_kernel_get(mod, "ta_recurse", &k));
	VT_ASSERT_OK(vaccel_kernel_get_info(k, &ki));
	VT_ASSERT_EQ(ki.flags, VACCEL_KERNEL_STACK_DYNAMIC);
	VT_ASSERT_EQ(ki.stack_need, 0);
	VT_ASSERT_EQ(ki.stack_size, VACCEL_DEFAULT_STACK_SIZE);
	VT_ASSERT_OK(vaccel_launch(q, k, grid, wg, &args, sizeof(args)));
	VT_ASSERT_OK(vaccel_queue_finish(q));
	VT_ASSERT_EQ(out.w[63], 144);		/* fib(12) */

	/* More than a work-item may have: refused before it runs. */
	VT_ASSERT_OK(vaccel_kernel_get(mod, "ta_huge", &k));
	VT_ASSERT_OK(vaccel_kernel_get_info(k, &ki));
	VT_ASSERT_EQ(ki.flags, VACCEL_KERNEL_STACK_KNOWN);
	VT_ASSERT(ki.stack_need > info.max_stack_size);
	VT_ASSERT_EQ(vaccel_launch(q, k, grid, wg, &args, sizeof(args)), -E2BIG);
	VT_ASSERT(strstr(vaccel_last_error_message(), "ta_huge needs"));
	VT_ASSERT(strstr(vaccel_last_error_message(), "above the device's"));
	VT_ASSERT_OK(vaccel_queue_finish(q));

	vaccel_module_destroy(mod);
	vaccel_queue_destroy(q);
	vaccel_bo_free(out.bo);
	vaccel_device_close(dev);
}

/*
 * Dynamic local memory: after the module's VACCEL_LOCAL object, 16-byte
 * aligned, of the size asked, private to each workgroup; too much is
 * refused.
 */
VTEST(dynamic_local_memory)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = queue_on(dev, VACCEL_ENGINE_CLASS_COMPUTE,
					  VACCEL_ENGINE_INSTANCE_ANY);
	const uint32_t grid[3] = { 4 * 32, 1, 1 }, wg[3] = { 32, 1, 1 };
	struct vaccel_launch_options opts = { .dynamic_local_size = 32 * 4 };
	struct vaccel_device_info info;
	struct vaccel_module_info mi;
	struct vaccel_module *mod;
	struct vaccel_kernel *k;
	struct buf out = buf_new(dev, 4096);
	struct ta_args args = { .out = out.va };
	const struct ta_dynlocal *r = (const void *)out.w;
	unsigned int g;

	VT_ASSERT_OK(vaccel_device_get_info(dev, &info));
	VT_ASSERT_OK(vaccel_module_load(dev, VT_MODULE(ta_module), &mod, NULL, 0));
	VT_ASSERT_OK(vaccel_module_get_info(mod, &mi));
	VT_ASSERT_EQ(mi.local_size, TA_STATIC_LOCAL);
	VT_ASSERT_OK(vaccel_kernel_get(mod, "ta_dynlocal", &k));
	VT_ASSERT_OK(vaccel_launch_ex(q, k, grid, wg, &args, sizeof(args), &opts));
	VT_ASSERT_OK(vaccel_queue_finish(q));
	for (g = 0; g < 4; g++) {
		VT_ASSERT_EQ(r[g].dynamic, (TA_STATIC_LOCAL + 15) & ~15u);
		VT_ASSERT_EQ(r[g].size, 32 * 4);
		VT_ASSERT_EQ(r[g].sum, 32 * 33 / 2);
		VT_ASSERT_EQ(r[g].stat, 0x5a5a5a5a);
	}
	opts.dynamic_local_size = info.max_local_size;
	VT_ASSERT_EQ(vaccel_launch_ex(q, k, grid, wg, &args, sizeof(args), &opts), -EINVAL);
	VT_ASSERT(strstr(vaccel_last_error_message(), "local memory"));

	vaccel_module_destroy(mod);
	vaccel_queue_destroy(q);
	vaccel_bo_free(out.bo);
	vaccel_device_close(dev);
}

VTEST_MAIN()
