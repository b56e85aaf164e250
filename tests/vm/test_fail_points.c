// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_fail_points.c - fault injection where fail-nth is blind, on the
 * debug kernel, through the driver's own fault-injection points
 * (/sys/kernel/debug/vaccel/fail_*, see "Fault injection points"): every
 * page the driver allocates, swept call after call through open,
 * VM_BIND, device BOs, moves and a DISPATCH; the allocations of the
 * engines' threads (a DISPATCH's state, a compute unit's slot) and of the
 * coredump worker; and the steps of the probe.  After each injected fault
 * the failure is the buffer's or the device's alone, with a clean error,
 * the memory counters are back where they were, and the same operation
 * succeeds once the injection is gone.  The plan's kernel-log rule and
 * kmemleak scan judge the rest.
 *
 * Needs CONFIG_FAULT_INJECTION_DEBUG_FS (the debug kernel).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>

#include "vtest.h"
#include "vt_exec.h"
#include "vt_mem.h"
#include "vt_module.h"

#define POINTS	"/sys/kernel/debug/vaccel"

static void knob_write(const char *point, const char *knob, const char *value)
{
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), POINTS "/%s/%s", point, knob);
	ret = vt_write_str(path, value);
	if (ret)
		vtest_fail(__FILE__, __LINE__, "%s: %s (a kernel without fault injection?)",
			   path, strerror(-ret));
}

static long long knob_read(const char *point, const char *knob)
{
	char path[PATH_MAX], *text;
	long long v;

	snprintf(path, sizeof(path), POINTS "/%s/%s", point, knob);
	text = vt_read_file(path);
	v = strtoll(text, NULL, 0);
	free(text);
	return v;
}

/* Fails point @point once, after letting @skip calls of it through. */
static void inject(const char *point, int skip)
{
	char num[16];

	knob_write(point, "verbose", "0");
	knob_write(point, "interval", "1");
	snprintf(num, sizeof(num), "%d", skip + 1);
	knob_write(point, "space", num);
	knob_write(point, "times", "1");
	knob_write(point, "probability", "100");
}

/* Whether the injection at @point happened. */
static bool injected(const char *point)
{
	return knob_read(point, "times") == 0;
}

static void inject_none(const char *point)
{
	knob_write(point, "probability", "0");
	knob_write(point, "space", "0");
}

/* The device's memory counters, as test_fail_nth reads them. */
static long long counter(int fd, const char *file, const char *key)
{
	char *text = vt_debugfs_read(fd, file);
	long long v = vt_kv(text, key);

	free(text);
	return v;
}

struct counters {
	long long bo_count, bo_bytes, pt_pages;
};

static struct counters counters(int fd)
{
	return (struct counters){
		.bo_count = counter(fd, "memory", "bo_count"),
		.bo_bytes = counter(fd, "memory", "bo_bytes"),
		.pt_pages = counter(fd, "memory", "pt_pages"),
	};
}

/* A DISPATCH of one work-item of a kernel that returns at once. */
struct disp {
	struct vt_dev d;
	struct vt_bo code;
	struct vt_cmd c;
	__u32 ctx, out;
};

static struct disp disp_open(void)
{
	static const __u32 ret = 0x00008067;	/* ret */
	struct disp x;

	x.d = vt_dev_open();
	x.code = vt_bo_new(&x.d, VT_PAGE);
	memcpy(x.code.cpu, &ret, sizeof(ret));
	x.c = vt_cmd_new(&x.d, VT_PAGE);
	x.ctx = vt_ctx_create(x.d.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE, 0);
	x.out = vt_syncobj(x.d.fd);
	return x;
}

/* Runs the DISPATCH; returns its fence's status (1, or -errno). */
static int disp_run(struct disp *x)
{
	__u32 one[3] = { 1, 1, 1 };

	vt_pkt_dispatch(&x->c, x->code.va, 0, one, one, 0, 256);
	vt_submit(x->d.fd, x->ctx, &x->c, 0, x->out);
	VT_ASSERT_OK(vt_syncobj_wait_ms(x->d.fd, x->out, 60000));
	return vt_fence_status(x->d.fd, x->out);
}

/*
 * @point fails in the engine's thread: the DISPATCH fails with ENOMEM, its
 * context is not banned, nothing leaks, and the next one runs.
 */
static void engine_alloc_fails(const char *point)
{
	struct disp x = disp_open();
	struct counters before = counters(x.d.fd), after;

	inject(point, 0);
	VT_ASSERT_EQ(disp_run(&x), -ENOMEM);
	VT_ASSERT(injected(point));
	inject_none(point);
	VT_ASSERT_EQ(vt_ctx_state(x.d.fd, x.ctx).flags, 0);
	after = counters(x.d.fd);
	VT_ASSERT(!memcmp(&before, &after, sizeof(before)));
	drmSyncobjReset(x.d.fd, &x.out, 1);
	VT_ASSERT_EQ(disp_run(&x), 1);
	vt_dev_close(&x.d);
}

/* The state of a DISPATCH, allocated by the engine's thread. */
VTEST(dispatch_state)
{
	engine_alloc_fails("fail_dispatch");
}

/* A compute unit's slot of a DISPATCH, allocated by the engine's thread. */
VTEST(compute_unit_slot)
{
	engine_alloc_fails("fail_unit_slot");
}

/* Writes anything to every pending devcoredump's data: it goes. */
static void clear_dumps(void)
{
	DIR *dir = opendir("/sys/class/devcoredump");
	struct dirent *de;
	char path[PATH_MAX];

	if (!dir)
		return;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/devcoredump/%s/data", de->d_name);
		vt_write_str(path, "1");
	}
	closedir(dir);
}

/* A buffer that writes to an unmapped address: a fault, and a dump. */
static void fault_once(struct vt_dev *d)
{
	struct vt_cmd c = vt_cmd_new(d, VT_PAGE);
	__u32 ctx = vt_ctx_create(d->fd, DRM_VACCEL_ENGINE_CLASS_COPY, 0);
	__u32 out = vt_syncobj(d->fd);

	vt_pkt_write32(&c, vt_va_alloc(d, VT_PAGE), 1);
	vt_submit(d->fd, ctx, &c, 0, out);
	VT_ASSERT_EQ(vt_wait_status(d->fd, out), -EFAULT);
	vt_ctx_destroy(d->fd, ctx);
}

/* Waits up to 10 s for debugfs coredump's @key to reach @want. */
static void wait_counter(int fd, const char *key, long long want)
{
	int i;

	for (i = 0; i < 1000 && counter(fd, "coredump", key) < want; i++)
		vt_sleep_ms(10);
	VT_ASSERT_EQ(counter(fd, "coredump", key), want);
}

/*
 * The coredump worker finds no memory for the dump: the dump is dropped
 * and counted, and the next fault's dump is captured.
 */
VTEST(coredump_buffer)
{
	struct vt_dev d = vt_dev_open();
	long long failed, captured;

	clear_dumps();
	failed = counter(d.fd, "coredump", "dropped_failed");
	captured = counter(d.fd, "coredump", "captured");
	inject("fail_coredump", 0);
	fault_once(&d);
	wait_counter(d.fd, "dropped_failed", failed + 1);
	inject_none("fail_coredump");
	VT_ASSERT_EQ(counter(d.fd, "coredump", "captured"), captured);
	fault_once(&d);
	wait_counter(d.fd, "captured", captured + 1);
	clear_dumps();
	vt_dev_close(&d);
}

/*
 * Each step of the probe fails in turn, through a sysfs bind of device 0:
 * the bind fails cleanly (no device node, nothing left for kmemleak), and
 * binds once the injection is gone.  The plan names it: it needs no file
 * open on device 0.
 */
VTEST_NAMED(probe_steps)
{
	static const char *const steps[] = {
		"the device", "its memory", "its coredump", "its engines",
	};
	struct vt_dev d;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		VT_ASSERT_OK(vt_unbind(0));
		inject("fail_probe", i);
		VT_ASSERT(vt_bind(0) < 0);
		VT_ASSERT(injected("fail_probe"));
		inject_none("fail_probe");
		VT_ASSERT(access("/dev/accel/accel0", F_OK) != 0);
		VT_ASSERT_OK(vt_bind(0));
		d = vt_dev_open();
		vt_dev_close(&d);
		printf("# probe_steps: %s failed cleanly\n", steps[i]);
	}
}

/* --- the driver's own pages, swept call after call --- */

/* What one sweep step works on. */
struct pg {
	struct vt_dev d;
	__u32 bo, out, so;
	__u64 va;
	int fd;
	unsigned char *cpu;
	struct disp x;
};

struct pg_ops {
	void (*setup)(struct pg *p);
	int (*op)(struct pg *p);	/* 0, or -errno */
	void (*undo)(struct pg *p);	/* after a successful op */
	bool keeps_counters;		/* a failure leaves the counters */
};

/*
 * The page sweep: the 1st, 2nd, ... page the driver allocates during the
 * operation fails, until the operation completes without reaching the
 * fault.  Each failure is ENOMEM (or EINTR), leaves the memory counters
 * as they were if the operation says so, and the operation succeeds right
 * after.
 */
static void page_sweep(const char *name, const struct pg_ops *ops)
{
	int n;

	for (n = 0; n < 4096; n++) {
		struct pg p = { .fd = -1 };
		struct counters before = {}, after;
		int ret;

		p.d = vt_dev_open();
		ops->setup(&p);
		if (ops->keeps_counters)
			before = counters(p.d.fd);
		inject("fail_page", n);
		ret = ops->op(&p);
		if (!injected("fail_page")) {
			inject_none("fail_page");
			if (ret)
				vtest_fail(__FILE__, __LINE__, "%s failed without a fault: %s",
					   name, strerror(-ret));
			if (ops->undo)
				ops->undo(&p);
			vt_dev_close(&p.d);
			break;
		}
		inject_none("fail_page");
		if (ret) {
			if (ret != -ENOMEM && ret != -EINTR)
				vtest_fail(__FILE__, __LINE__, "%s with page %d failed: %s",
					   name, n + 1, strerror(-ret));
			if (ops->keeps_counters) {
				after = counters(p.d.fd);
				if (memcmp(&before, &after, sizeof(before)))
					vtest_fail(__FILE__, __LINE__,
						   "%s with page %d failed: counters moved: BOs %lld -> %lld, page-table pages %lld -> %lld",
						   name, n + 1, before.bo_count, after.bo_count,
						   before.pt_pages, after.pt_pages);
			}
			ret = ops->op(&p);
			if (ret)
				vtest_fail(__FILE__, __LINE__, "%s failed again after page %d: %s",
					   name, n + 1, strerror(-ret));
		}
		if (ops->undo)
			ops->undo(&p);
		if (p.fd >= 0)
			close(p.fd);
		vt_dev_close(&p.d);
	}
	VT_ASSERT(n < 4096);
	printf("# fail_points.%s: %d page allocations swept\n", name, n);
}

static void pg_none(struct pg *p)
{
}

static int pg_open(struct pg *p)
{
	p->fd = open("/dev/accel/accel0", O_RDWR | O_CLOEXEC);
	return p->fd < 0 ? -errno : 0;
}

static void pg_close(struct pg *p)
{
	close(p->fd);
	p->fd = -1;
}

static void pg_bo(struct pg *p)
{
	p->bo = vt_bo_create(p->d.fd, 64 * VT_KIB, 0);
	/* Across 2 MiB and 1 GiB boundaries: three levels of new tables. */
	p->va = (1ull << 30) - 32 * VT_KIB;
}

static int pg_map(struct pg *p)
{
	return vt_map_raw(p->d.fd, p->bo, 0, p->va, 64 * VT_KIB, 0) ? -errno : 0;
}

static void pg_unmap(struct pg *p)
{
	vt_unmap(p->d.fd, p->va, 64 * VT_KIB);
}

/*
 * The segment gives its pooled host pages back (its shrinker), so that
 * the next device range allocates its pages again.
 */
static void pg_drained(struct pg *p)
{
	VT_ASSERT_OK(vt_write_str("/proc/sys/vm/drop_caches", "2"));
}

static int pg_device_bo(struct pg *p)
{
	return vt_bo_create_raw(p->d.fd, 256 * VT_KIB, DRM_VACCEL_BO_DEVICE, &p->out,
				NULL) ? -errno : 0;
}

static void pg_close_bo(struct pg *p)
{
	vt_gem_close(p->d.fd, p->out);
}

static void pg_placed(struct pg *p)
{
	pg_drained(p);
	pg_bo(p);
	p->cpu = vt_bo_mmap(p->d.fd, p->bo, VT_PAGE);
	memset(p->cpu, 0x5a, VT_PAGE);
	p->so = vt_syncobj(p->d.fd);
}

static int pg_migrate(struct pg *p)
{
	return vt_migrate_raw(p->d.fd, p->bo,
			      DRM_VACCEL_REGION_DEVICE(p->d.info.device_index), p->so) ?
	       -errno : 0;
}

static void pg_migrated(struct pg *p)
{
	VT_ASSERT_EQ(vt_wait_status(p->d.fd, p->so), 1);
	VT_ASSERT_EQ(p->cpu[VT_PAGE - 1], 0x5a);
	munmap(p->cpu, VT_PAGE);
}

/* A DISPATCH of a workgroup of 64 work-items with 8 KiB of local memory. */
static void pg_dispatch_setup(struct pg *p)
{
	static const __u32 ret = 0x00008067;	/* ret */

	p->x.d = p->d;
	p->x.code = vt_bo_new(&p->x.d, VT_PAGE);
	memcpy(p->x.code.cpu, &ret, sizeof(ret));
	p->x.c = vt_cmd_new(&p->x.d, VT_PAGE);
	p->x.ctx = vt_ctx_create(p->d.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE, 0);
	p->x.out = vt_syncobj(p->d.fd);
}

static int pg_dispatch(struct pg *p)
{
	__u32 grid[3] = { 128, 1, 1 }, wg[3] = { 64, 1, 1 };
	int st;

	drmSyncobjReset(p->d.fd, &p->x.out, 1);
	vt_pkt_dispatch(&p->x.c, p->x.code.va, 0, grid, wg, 8192, 1024);
	vt_submit(p->d.fd, p->x.ctx, &p->x.c, 0, p->x.out);
	st = vt_wait_status(p->d.fd, p->x.out);
	if (st == 1)
		return 0;
	/* The engine's failure is the buffer's, never its context's ban. */
	VT_ASSERT_EQ(vt_ctx_state(p->d.fd, p->x.ctx).flags, 0);
	return st;
}

#define PAGE_SWEEP(name, setup_fn, op_fn, undo_fn, keeps)		\
	VTEST(pages_##name)						\
	{								\
		static const struct pg_ops ops = {			\
			setup_fn, op_fn, undo_fn, keeps			\
		};							\
		page_sweep(#name, &ops);				\
	}

PAGE_SWEEP(open, pg_none, pg_open, pg_close, true)
PAGE_SWEEP(vm_bind_map, pg_bo, pg_map, pg_unmap, true)
PAGE_SWEEP(device_bo, pg_drained, pg_device_bo, pg_close_bo, true)
PAGE_SWEEP(migrate_to_device, pg_placed, pg_migrate, pg_migrated, true)
PAGE_SWEEP(dispatch, pg_dispatch_setup, pg_dispatch, NULL, false)

VTEST_MAIN()
