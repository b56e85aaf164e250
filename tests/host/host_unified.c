// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * host_unified.c - the unified device of libvaccel on four fake devices
 * of fake_vaccel.c (LD_PRELOAD), where the kernel is not needed: opening
 * and its bad input, VACCEL_UNIFIED and its parsing, the split of a buffer
 * (owners, one mapping per part in every member, the same address), the
 * objects a buffer costs and the mappings it gives back, unwinding when a
 * step of an allocation fails (the fake fails ioctls on demand), export,
 * and the bad
 * input of remap and of a launch's options.  The VM tests run the same
 * device against the module, with work.
 *
 *	VACCEL_DEVICE_DIR=DIR LD_PRELOAD=fake_vaccel.so host_unified
 *
 * DIR holds accel0 to accel3.  Prints the first failed check on stderr and
 * exits 1, else exits 0.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vaccel.h>
#include <drm/vaccel_accel.h>

#include "host_check.h"
#include "host_lib.h"

#define PAGE	4096ull

static unsigned int (*objects)(void);
static void (*fail)(unsigned int nr, int err, unsigned int count);
static void (*fail_after)(unsigned int nr, int err, unsigned int skip);

static const unsigned int all4[] = { 0, 1, 2, 3 };

static void expect_member_vm(struct vaccel_device *dev, unsigned int i,
			     uint64_t mappings, uint64_t bytes)
{
	struct vaccel_device *m;
	struct vaccel_vm_stats s;

	CHECK_EQ(vaccel_device_get_member(dev, i, &m), 0);
	CHECK_EQ(vaccel_device_vm_stats(m, &s), 0);
	CHECK_EQ(s.mappings, mappings);
	CHECK_EQ(s.mapped_bytes, bytes);
}

static void test_open(void)
{
	unsigned int twice[] = { 2, 1, 2 }, missing[] = { 0, 4 }, many[9] = { 0 };
	struct vaccel_device *dev, *m;
	struct vaccel_device_info info, mi;
	unsigned int objs0 = objects();

	CHECK_EQ(vaccel_device_open_unified(NULL, 1, &dev), -EINVAL);
	CHECK_EQ(vaccel_device_open_unified(all4, 1, NULL), -EINVAL);
	CHECK_EQ(vaccel_device_open_unified(all4, 0, &dev), -EINVAL);
	CHECK_EQ(vaccel_device_open_unified(many, 9, &dev), -EINVAL);
	CHECK_EQ(vaccel_device_open_unified(twice, 3, &dev), -EINVAL);
	CHECK_EQ(vaccel_device_open_unified(missing, 2, &dev), -ENODEV);
	CHECK_EQ(objects(), objs0);

	CHECK_EQ(vaccel_device_open_unified(all4, 4, &dev), 0);
	CHECK_EQ(vaccel_device_member_count(dev), 4);
	CHECK_EQ(vaccel_device_get_info(dev, &info), 0);
	CHECK_EQ(vaccel_device_get_member(dev, 3, &m), 0);
	CHECK_EQ(vaccel_device_get_info(m, &mi), 0);
	CHECK(info.va_start == mi.va_start && info.va_end == mi.va_end);
	CHECK_EQ(vaccel_device_get_member(dev, 4, &m), -ENOENT);
	CHECK_EQ(vaccel_device_get_member(dev, 0, NULL), -EINVAL);
	CHECK(!strncmp(vaccel_device_path(dev), "unified:", 8));
	CHECK(strstr(vaccel_device_path(dev), "accel3"));
	vaccel_device_close(dev);

	CHECK_EQ(vaccel_device_open(1, &dev), 0);
	CHECK_EQ(vaccel_device_member_count(dev), 0);
	CHECK_EQ(vaccel_device_get_member(dev, 0, &m), -EINVAL);
	vaccel_device_close(dev);
}

/* VACCEL_UNIFIED: what vaccel_device_open(0) opens. */
static void test_env(void)
{
	static const char *const bad[] = {
		"x", "0,", ",0", "0,,1", "0,0", "0,1,2,3,4,5,6,7,8", "1 ", "-1",
		"99999999999",
	};
	struct vaccel_device *dev;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("VACCEL_UNIFIED", bad[i], 1);
		if (vaccel_device_open(0, &dev) != -EINVAL) {
			fprintf(stderr, "VACCEL_UNIFIED='%s' accepted\n", bad[i]);
			exit(1);
		}
	}
	setenv("VACCEL_UNIFIED", "3,1", 1);
	CHECK_EQ(vaccel_device_open(0, &dev), 0);
	CHECK_EQ(vaccel_device_member_count(dev), 2);
	vaccel_device_close(dev);
	/* Other indices are the plain devices. */
	CHECK_EQ(vaccel_device_open(2, &dev), 0);
	CHECK_EQ(vaccel_device_member_count(dev), 0);
	vaccel_device_close(dev);
	setenv("VACCEL_UNIFIED", "", 1);
	CHECK_EQ(vaccel_device_open(0, &dev), 0);
	CHECK_EQ(vaccel_device_member_count(dev), 0);
	vaccel_device_close(dev);
	unsetenv("VACCEL_UNIFIED");
}

/*
 * 15 pages on four members: parts of 4, 4, 4 and 3 pages; each member maps
 * all four at the same addresses; four objects, given back by the free.
 */
static void test_split(void)
{
	struct vaccel_device *dev;
	struct vaccel_bo *bo, *small;
	unsigned int objs0, i;
	int fd;

	CHECK_EQ(vaccel_device_open_unified(all4, 4, &dev), 0);
	objs0 = objects();
	CHECK_EQ(vaccel_bo_alloc(dev, 15 * PAGE - 100, 0, &bo), 0);
	CHECK(vaccel_bo_size(bo) == 15 * PAGE);
	CHECK(vaccel_bo_va(bo) != 0);
	CHECK_EQ(vaccel_bo_handle(bo), 0);
	for (i = 0; i < 15; i++)
		CHECK_EQ(vaccel_bo_owner(bo, i * PAGE + PAGE - 1), i / 4);
	CHECK_EQ(vaccel_bo_owner(bo, 15 * PAGE), -EINVAL);
	CHECK_EQ(vaccel_bo_owner(NULL, 0), -EINVAL);
	/* Four objects, each imported by the three other files. */
	CHECK_EQ(objects(), objs0 + 4);
	for (i = 0; i < 4; i++)
		expect_member_vm(dev, i, 4, 15 * PAGE);
	CHECK_EQ(vaccel_bo_export(bo, &fd), -EOPNOTSUPP);

	CHECK_EQ(vaccel_bo_alloc(dev, 1, 0, &small), 0);
	CHECK_EQ(vaccel_bo_owner(small, 0), 0);
	CHECK_EQ(vaccel_bo_export(small, &fd), 0);
	close(fd);
	CHECK_EQ(objects(), objs0 + 5);
	vaccel_bo_free(small);
	vaccel_bo_free(bo);
	/* The fake keeps an object it exported: the mappings tell. */
	for (i = 0; i < 4; i++)
		expect_member_vm(dev, i, 0, 0);
	vaccel_device_close(dev);
}

/* Every step of an allocation that fails leaves nothing behind. */
static void test_unwind(void)
{
	static const unsigned int nrs[] = {
		DRM_COMMAND_BASE + DRM_VACCEL_BO_CREATE,
		DRM_COMMAND_BASE + DRM_VACCEL_BO_INFO,
		DRM_COMMAND_BASE + DRM_VACCEL_VM_BIND,
		_IOC_NR(DRM_IOCTL_PRIME_HANDLE_TO_FD),
		_IOC_NR(DRM_IOCTL_PRIME_FD_TO_HANDLE),
	};
	struct vaccel_device *dev;
	struct vaccel_bo *bo;
	unsigned int objs0, i, skip, m;
	int ret;

	CHECK_EQ(vaccel_device_open_unified(all4, 4, &dev), 0);
	objs0 = objects();
	for (i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
		for (skip = 0; skip < 6; skip++) {
			fail_after(nrs[i], ENOMEM, skip);
			ret = vaccel_bo_alloc(dev, 8 * PAGE, 0, &bo);
			fail(0, 0, 0);
			if (!ret) {
				vaccel_bo_free(bo);
				continue;
			}
			CHECK_EQ(ret, -ENOMEM);
			for (m = 0; m < 4; m++)
				expect_member_vm(dev, m, 0, 0);
			/* Before the first export, not an object is left. */
			if (nrs[i] == DRM_COMMAND_BASE + DRM_VACCEL_BO_CREATE && !skip)
				CHECK_EQ(objects(), objs0);
		}
	}
	/* And then it works, at the address the failures gave back. */
	CHECK_EQ(vaccel_bo_alloc(dev, 8 * PAGE, 0, &bo), 0);
	CHECK_EQ(vaccel_bo_owner(bo, 7 * PAGE), 3);
	for (m = 0; m < 4; m++)
		expect_member_vm(dev, m, 4, 8 * PAGE);
	vaccel_bo_free(bo);
	vaccel_device_close(dev);
}

static void test_bad_input(void)
{
	struct vaccel_device *dev, *plain;
	struct vaccel_bo *bo, *pb;
	struct vaccel_launch_options o = { 0 };
	const uint32_t grid[3] = { 64, 1, 1 }, wg[3] = { 16, 1, 1 };

	CHECK_EQ(vaccel_device_open_unified(all4, 2, &dev), 0);
	CHECK_EQ(vaccel_bo_alloc(dev, 4 * PAGE, 0, &bo), 0);
	CHECK_EQ(vaccel_bo_remap(NULL, 0, PAGE, 0), -EINVAL);
	CHECK_EQ(vaccel_bo_remap(bo, 0, 0, 0), -EINVAL);
	CHECK_EQ(vaccel_bo_remap(bo, 1, PAGE, 0), -EINVAL);
	CHECK_EQ(vaccel_bo_remap(bo, 0, 2 * PAGE - 4, 0), -EINVAL);
	CHECK_EQ(vaccel_bo_remap(bo, 3 * PAGE, 2 * PAGE, 1), -EINVAL);
	CHECK_EQ(vaccel_bo_remap(bo, 5 * PAGE, PAGE, 1), -EINVAL);
	CHECK_EQ(vaccel_bo_remap(bo, 2 * PAGE, ~(PAGE - 1), 1), -EINVAL);
	CHECK_EQ(vaccel_bo_remap(bo, 0, PAGE, 2), -EINVAL);
	/* Already where it is asked to be: nothing to do. */
	CHECK_EQ(vaccel_bo_remap(bo, 0, 2 * PAGE, 0), 0);
	CHECK_EQ(vaccel_bo_owner(bo, 2 * PAGE), 1);

	CHECK_EQ(vaccel_device_open(0, &plain), 0);
	CHECK_EQ(vaccel_bo_alloc(plain, PAGE, 0, &pb), 0);
	CHECK_EQ(vaccel_bo_remap(pb, 0, PAGE, 0), -EINVAL);
	CHECK_EQ(vaccel_bo_owner(pb, 0), 0);
	vaccel_bo_free(pb);
	vaccel_device_close(plain);

	o.group_count = 1;
	CHECK_EQ(vaccel_launch_ex(NULL, NULL, grid, wg, NULL, 0, &o), -EINVAL);
	vaccel_bo_free(bo);
	vaccel_device_close(dev);
}

int main(void)
{
	objects = (unsigned int (*)(void))host_hook("fake_vaccel_objects");
	fail = (void (*)(unsigned int, int, unsigned int))host_hook("fake_vaccel_fail");
	fail_after = (void (*)(unsigned int, int, unsigned int))
		host_hook("fake_vaccel_fail_after");
	unsetenv("VACCEL_UNIFIED");
	test_open();
	test_env();
	test_split();
	test_unwind();
	test_bad_input();
	return 0;
}
