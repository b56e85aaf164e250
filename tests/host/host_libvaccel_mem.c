// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * host_libvaccel_mem.c - the memory API of libvaccel on the fake device of
 * fake_vaccel.c (LD_PRELOAD): buffers, the buffer table and its reference
 * counts, unwinding when a step fails (the fake fails ioctls on demand),
 * and threads.  The VM tests check the same API against the real module;
 * this one runs on any host, and reaches failure paths the module cannot
 * be made to take.
 *
 *	VACCEL_DEVICE_DIR=DIR LD_PRELOAD=fake_vaccel.so host_libvaccel_mem
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
#include <unistd.h>

#include <vaccel.h>
#include <drm/vaccel_accel.h>

#include "host_check.h"
#include "host_lib.h"

#define KIB	1024ull
#define MIB	(1024ull * 1024)

static unsigned int (*objects)(void);
static void (*fail)(unsigned int nr, int err, unsigned int count);

static struct vaccel_device *open_dev(struct vaccel_device_info *info)
{
	struct vaccel_device *dev;

	CHECK_EQ(vaccel_device_open(0, &dev), 0);
	if (info)
		CHECK_EQ(vaccel_device_get_info(dev, info), 0);
	return dev;
}

static void expect_vm(struct vaccel_device *dev, uint64_t mappings, uint64_t bytes)
{
	struct vaccel_vm_stats s;

	CHECK_EQ(vaccel_device_vm_stats(dev, &s), 0);
	CHECK_EQ(s.mappings, mappings);
	CHECK_EQ(s.mapped_bytes, bytes);
}

static void test_basic(void)
{
	struct vaccel_device_info info;
	struct vaccel_device *dev = open_dev(&info);
	unsigned int objs0 = objects();
	struct vaccel_bo *bo, *small;
	unsigned char *p, *q;
	size_t i;

	CHECK(info.max_bo_size == 1ull << 32);
	CHECK_EQ(info.max_bind_ops, 1024);
	CHECK_EQ(info.max_bos_per_file, 65536);
	CHECK_EQ(vaccel_bo_alloc(dev, MIB, 0, &bo), 0);
	CHECK(vaccel_bo_size(bo) == MIB);
	CHECK(vaccel_bo_va(bo) == info.va_start);	/* 64 KiB aligned already */
	CHECK(vaccel_bo_handle(bo) != 0);
	CHECK_EQ(objects(), objs0 + 1);
	expect_vm(dev, 1, MIB);

	CHECK_EQ(vaccel_bo_map(bo, (void **)&p), 0);
	CHECK_EQ(vaccel_bo_map(bo, (void **)&q), 0);
	CHECK(p == q);
	for (i = 0; i < MIB; i += 4096)
		CHECK(!p[i]);
	memset(p, 0xab, MIB);

	/* A small one after the big one: 4 KiB alignment, rounded size. */
	CHECK_EQ(vaccel_bo_alloc(dev, 5000, 0, &small), 0);
	CHECK(vaccel_bo_size(small) == 8192);
	CHECK(vaccel_bo_va(small) == info.va_start + MIB);
	expect_vm(dev, 2, MIB + 8192);

	vaccel_bo_free(bo);
	expect_vm(dev, 1, 8192);
	/* The freed range is reused first. */
	CHECK_EQ(vaccel_bo_alloc(dev, 4096, 0, &bo), 0);
	CHECK(vaccel_bo_va(bo) == info.va_start);
	vaccel_bo_free(bo);
	vaccel_bo_free(small);
	expect_vm(dev, 0, 0);
	CHECK_EQ(objects(), objs0);
	vaccel_device_close(dev);
}

static void test_flags_and_errors(void)
{
	struct vaccel_device *dev = open_dev(NULL);
	unsigned int objs0 = objects();
	struct vaccel_bo *bo = (struct vaccel_bo *)&bo;
	void *p = NULL;

	CHECK_EQ(vaccel_bo_alloc(dev, 0, 0, &bo), -EINVAL);
	CHECK_EQ(vaccel_bo_alloc(dev, 4096, 1u << 5, &bo), -EINVAL);
	CHECK_EQ(vaccel_bo_alloc(dev, 4096, 0, NULL), -EINVAL);
	CHECK_EQ(vaccel_bo_alloc(dev, (1ull << 32) + 1, 0, &bo), -E2BIG);
	CHECK_EQ(vaccel_bo_import(dev, -1, &bo), -EINVAL);
	CHECK_EQ(vaccel_bo_import(dev, 1000000, &bo), -EBADF);
	CHECK(bo == (struct vaccel_bo *)&bo);
	CHECK_EQ(objects(), objs0);

	CHECK_EQ(vaccel_bo_alloc(dev, 4096, VACCEL_BO_NO_MMAP | VACCEL_BO_GPU_READ_ONLY |
				 VACCEL_BO_GPU_NO_EXEC, &bo), 0);
	CHECK_EQ(vaccel_bo_map(bo, &p), -EPERM);
	CHECK(!p);
	vaccel_bo_free(bo);
	CHECK_EQ(objects(), objs0);
	vaccel_device_close(dev);
}

/* Import of its own export: the same buffer, one more reference. */
static void test_refcount(void)
{
	struct vaccel_device *dev = open_dev(NULL), *dev2 = open_dev(NULL);
	struct vaccel_bo *bo, *a, *b, *other;
	int d1, d2;

	CHECK_EQ(vaccel_bo_alloc(dev, 64 * KIB, 0, &bo), 0);
	CHECK_EQ(vaccel_bo_export(bo, &d1), 0);
	CHECK_EQ(vaccel_bo_export(bo, &d2), 0);
	CHECK_EQ(vaccel_bo_import(dev, d1, &a), 0);
	CHECK_EQ(vaccel_bo_import(dev, d2, &b), 0);
	CHECK(a == bo && b == bo);
	expect_vm(dev, 1, 64 * KIB);

	CHECK_EQ(vaccel_bo_import(dev2, d1, &other), 0);
	CHECK(other != bo);
	CHECK(vaccel_bo_size(other) == 64 * KIB);
	expect_vm(dev2, 1, 64 * KIB);

	vaccel_bo_free(a);
	vaccel_bo_free(bo);
	expect_vm(dev, 1, 64 * KIB);
	vaccel_bo_free(b);		/* the last reference */
	expect_vm(dev, 0, 0);
	/* Imported again after the last free: a new buffer. */
	CHECK_EQ(vaccel_bo_import(dev, d2, &a), 0);
	expect_vm(dev, 1, 64 * KIB);
	vaccel_bo_free(a);
	vaccel_bo_free(other);
	expect_vm(dev2, 0, 0);
	close(d1);
	close(d2);
	vaccel_device_close(dev2);
	vaccel_device_close(dev);
}

/* Every step that fails leaves nothing: no object, no mapping, no address. */
static void test_unwind(void)
{
	struct vaccel_device_info info;
	struct vaccel_device *dev = open_dev(&info);
	unsigned int objs0 = objects();
	struct vaccel_bo *bo, *imp;
	uint64_t all;
	void *p;
	int d;

	fail(DRM_COMMAND_BASE + DRM_VACCEL_BO_CREATE, ENOMEM, 1);
	CHECK_EQ(vaccel_bo_alloc(dev, 4096, 0, &bo), -ENOMEM);
	fail(DRM_COMMAND_BASE + DRM_VACCEL_VM_BIND, ENOMEM, 1);
	CHECK_EQ(vaccel_bo_alloc(dev, 4096, 0, &bo), -ENOMEM);
	CHECK_EQ(objects(), objs0);
	expect_vm(dev, 0, 0);

	/* A full VA space: -ENOSPC, and the BO made for it is closed. */
	CHECK_EQ(vaccel_va_alloc(dev, info.va_end - info.va_start, 0, &all), 0);
	CHECK_EQ(vaccel_bo_alloc(dev, 4096, 0, &bo), -ENOSPC);
	CHECK_EQ(objects(), objs0);
	CHECK_EQ(vaccel_va_free(dev, all, info.va_end - info.va_start), 0);

	/* The address of the failed attempts was given back. */
	CHECK_EQ(vaccel_bo_alloc(dev, 4096, 0, &bo), 0);
	CHECK(vaccel_bo_va(bo) == info.va_start);

	fail(DRM_COMMAND_BASE + DRM_VACCEL_BO_MMAP_OFFSET, EIO, 1);
	CHECK_EQ(vaccel_bo_map(bo, &p), -EIO);
	CHECK_EQ(vaccel_bo_map(bo, &p), 0);

	/* Import into another handle, failing at BO_INFO, then at VM_BIND. */
	CHECK_EQ(vaccel_bo_export(bo, &d), 0);
	{
		struct vaccel_device *dev2 = open_dev(NULL);

		fail(DRM_COMMAND_BASE + DRM_VACCEL_BO_INFO, EIO, 1);
		CHECK_EQ(vaccel_bo_import(dev2, d, &imp), -EIO);
		fail(DRM_COMMAND_BASE + DRM_VACCEL_VM_BIND, ENOMEM, 1);
		CHECK_EQ(vaccel_bo_import(dev2, d, &imp), -ENOMEM);
		expect_vm(dev2, 0, 0);
		/* The handle was closed each time: this import is fresh. */
		CHECK_EQ(vaccel_bo_import(dev2, d, &imp), 0);
		CHECK(vaccel_bo_va(imp) == info.va_start);
		expect_vm(dev2, 1, 4096);
		vaccel_bo_free(imp);
		expect_vm(dev2, 0, 0);
		vaccel_device_close(dev2);
	}
	close(d);
	vaccel_bo_free(bo);
	expect_vm(dev, 0, 0);
	vaccel_device_close(dev);
}

#define THREADS		4
#define ITERS		500

static struct vaccel_device *shared;
static int shared_fd;

static void *worker(void *arg)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull * ((uintptr_t)arg + 1);
	struct vaccel_bo *bo, *imp;
	uint64_t *p;
	int i;

	for (i = 0; i < ITERS; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		if (vaccel_bo_alloc(shared, 4096 * (1 + (seed >> 40) % 32), 0, &bo))
			return (void *)1;
		if (vaccel_bo_map(bo, (void **)&p))
			return (void *)2;
		*p = seed;
		if (vaccel_bo_import(shared, shared_fd, &imp))
			return (void *)3;
		vaccel_bo_free(imp);
		if (*p != seed)
			return (void *)4;
		vaccel_bo_free(bo);
	}
	return NULL;
}

/* Threads on one device: no failure (an address given twice would EEXIST). */
static void test_threads(void)
{
	struct vaccel_bo *keep;
	pthread_t t[THREADS];
	void *ret;
	uintptr_t i;

	shared = open_dev(NULL);
	CHECK_EQ(vaccel_bo_alloc(shared, 8192, 0, &keep), 0);
	CHECK_EQ(vaccel_bo_export(keep, &shared_fd), 0);
	for (i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_create(&t[i], NULL, worker, (void *)i), 0);
	for (i = 0; i < THREADS; i++) {
		CHECK_EQ(pthread_join(t[i], &ret), 0);
		CHECK(!ret);
	}
	expect_vm(shared, 1, 8192);
	vaccel_bo_free(keep);
	expect_vm(shared, 0, 0);
	close(shared_fd);
	vaccel_device_close(shared);
}

/* Closing a device with live buffers frees them and their file. */
static void test_close_live(void)
{
	unsigned int objs0 = objects();
	struct vaccel_device *dev = open_dev(NULL);
	struct vaccel_bo *bo;
	void *p;
	int i;

	for (i = 0; i < 100; i++) {
		CHECK_EQ(vaccel_bo_alloc(dev, 4096, 0, &bo), 0);
		if (i % 3 == 0)
			CHECK_EQ(vaccel_bo_map(bo, &p), 0);
	}
	CHECK_EQ(objects(), objs0 + 100);
	vaccel_device_close(dev);
	CHECK_EQ(objects(), objs0);
}

int main(void)
{
	objects = (unsigned int (*)(void))host_hook("fake_vaccel_objects");
	fail = (void (*)(unsigned int, int, unsigned int))host_hook("fake_vaccel_fail");
	test_basic();
	test_flags_and_errors();
	test_refcount();
	test_unwind();
	test_threads();
	test_close_live();
	return 0;
}
