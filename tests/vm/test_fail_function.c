// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_fail_function.c - fault injection where fail-nth is blind, on the
 * debug kernel: the allocations of the engines' threads (the state of a
 * DISPATCH, a compute unit's slot), of the coredump worker, and the steps
 * of the probe, each failed through fail_function on the function the
 * driver marks with ALLOW_ERROR_INJECTION().  After each injected fault
 * the failure is the buffer's or the device's alone, with a clean error,
 * the memory counters are back where they were, and the same operation
 * succeeds once the injection is gone.  The plan's kernel-log rule and
 * kmemleak scan judge the rest.
 *
 * Needs CONFIG_FAIL_FUNCTION and debugfs (the debug kernel).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>

#include "vtest.h"
#include "vt_exec.h"
#include "vt_mem.h"
#include "vt_module.h"

#define FEI	"/sys/kernel/debug/fail_function"

static void fei_write(const char *name, const char *value)
{
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), FEI "/%s", name);
	ret = vt_write_str(path, value);
	if (ret)
		vtest_fail(__FILE__, __LINE__, "%s: %s (a kernel without fail_function?)",
			   path, strerror(-ret));
}

/*
 * Fails the next @times calls of @fn: with -ENOMEM if it returns an
 * errno, with NULL (its default) if it returns a pointer.
 */
static void inject(const char *fn, bool errno_type, int times)
{
	char name[128], num[16];

	fei_write("inject", fn);
	if (errno_type) {
		snprintf(name, sizeof(name), "%s/retval", fn);
		fei_write(name, "0xfffffffffffffff4");	/* -ENOMEM */
	}
	fei_write("probability", "100");
	fei_write("interval", "1");
	snprintf(num, sizeof(num), "%d", times);
	fei_write("times", num);
	fei_write("verbose", "0");
}

static void inject_none(void)
{
	fei_write("inject", "\n");
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
 * @fn fails in the engine's thread: the DISPATCH fails with ENOMEM, its
 * context is not banned, nothing leaks, and the next one runs.
 */
static void engine_alloc_fails(const char *fn, bool errno_type)
{
	struct disp x = disp_open();
	struct counters before = counters(x.d.fd), after;

	inject(fn, errno_type, 1);
	VT_ASSERT_EQ(disp_run(&x), -ENOMEM);
	inject_none();
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
	engine_alloc_fails("vaccel_dispatch_get", true);
}

/* A compute unit's slot of a DISPATCH, allocated by the engine's thread. */
VTEST(compute_unit_slot)
{
	engine_alloc_fails("vaccel_slot_new", false);
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
	inject("vaccel_coredump_buf_alloc", false, 1);
	fault_once(&d);
	wait_counter(d.fd, "dropped_failed", failed + 1);
	inject_none();
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
		"vaccel_device_init", "vaccel_devmem_init",
		"vaccel_coredump_init", "vaccel_engines_init",
	};
	struct vt_dev d;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		VT_ASSERT_OK(vt_unbind(0));
		inject(steps[i], true, 1);
		VT_ASSERT(vt_bind(0) < 0);
		inject_none();
		VT_ASSERT(access("/dev/accel/accel0", F_OK) != 0);
		VT_ASSERT_OK(vt_bind(0));
		d = vt_dev_open();
		vt_dev_close(&d);
		printf("# probe_steps: %s failed cleanly\n", steps[i]);
	}
}

VTEST_MAIN()
