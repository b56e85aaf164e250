// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * bench_migrate.c - how fast BO_MIGRATE moves a BO between system memory
 * and the device's segment, against a COPY of the same size on the copy
 * engine, measured in the same run (the machines are noisy and emulated:
 * only ratios mean anything).
 *
 * A 64 MiB BO, filled and mapped, moves to device memory and back, each
 * move timed from the ioctl to its out-syncobj; the reference is a COPY
 * packet (split at max_copy_size) of 64 MiB between two mapped system BOs
 * on a COPY engine context, timed from SUBMIT to its out-syncobj.  Rounds
 * alternate the two, and the medians are compared: the ratio is COPY time
 * over move time (the throughput of a move relative to a COPY), and the
 * target is at least 0.8.
 *
 * Output: a table (each round's COPY, the mean of its two moves, and each
 * move with the part of it spent in the ioctl, which allocates the
 * destination), then
 *	bench.migrate.throughput_ratio <x> PASS|FAIL
 *	bench.migrate.cold_return_ratio <x>
 * the second, without a target, for a return to system memory once the
 * BO's shmem pages are gone (a COPY's time over the move's).
 * Exits 0 once measured (whatever the verdict), 1 with a `not ok` line if
 * it could not measure.
 *
 *	bench_migrate [DEVICE]	(default: the first vaccel node)
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/mman.h>

#include "bench.h"

#include <drm/vaccel_accel.h>

#define MIB		(1024ull * 1024)
#define SIZE		(64 * MIB)
#define ROUNDS		7
#define RATIO_TARGET	0.8

#define VA_A		(1ull << 32)
#define VA_B		(VA_A + SIZE + 2 * MIB)
#define VA_CMD		(VA_B + SIZE + 2 * MIB)

static int fd = -1;

static __u32 bo_create(__u64 size)
{
	struct drm_vaccel_bo_create c = { .size = size };

	if (ioctl(fd, DRM_IOCTL_VACCEL_BO_CREATE, &c))
		bench_die("BO_CREATE: %s", strerror(errno));
	return c.handle;
}

static void *bo_mmap(__u32 handle, __u64 size)
{
	struct drm_vaccel_bo_mmap_offset o = { .handle = handle };
	void *p;

	if (ioctl(fd, DRM_IOCTL_VACCEL_BO_MMAP_OFFSET, &o))
		bench_die("BO_MMAP_OFFSET: %s", strerror(errno));
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, o.offset);
	if (p == MAP_FAILED)
		bench_die("mmap: %s", strerror(errno));
	return p;
}

static void map(__u32 handle, __u64 va, __u64 size)
{
	struct drm_vaccel_vm_bind_op o = {
		.op = DRM_VACCEL_VM_BIND_OP_MAP, .handle = handle, .va = va, .size = size,
	};
	struct drm_vaccel_vm_bind b = { .ops = DRM_VACCEL_OBJ_ARRAY(1, &o) };

	if (ioctl(fd, DRM_IOCTL_VACCEL_VM_BIND, &b))
		bench_die("VM_BIND: %s", strerror(errno));
}

static __u32 syncobj(void)
{
	struct drm_syncobj_create c = { 0 };

	if (ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c))
		bench_die("SYNCOBJ_CREATE: %s", strerror(errno));
	return c.handle;
}

static void syncobj_wait(__u32 h)
{
	struct drm_syncobj_wait w = {
		.handles = (__u64)(uintptr_t)&h,
		.count_handles = 1,
		.timeout_nsec = INT64_MAX,
	};

	if (ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w))
		bench_die("SYNCOBJ_WAIT: %s", strerror(errno));
}

static void syncobj_reset(__u32 h)
{
	struct drm_syncobj_array a = { .handles = (__u64)(uintptr_t)&h, .count_handles = 1 };

	if (ioctl(fd, DRM_IOCTL_SYNCOBJ_RESET, &a))
		bench_die("SYNCOBJ_RESET: %s", strerror(errno));
}

/* The time of a move, from the ioctl to its fence; *@ioctl_ns: the ioctl's. */
static __u64 time_migrate(__u32 handle, __u32 region, __u32 out, __u64 *ioctl_ns)
{
	struct drm_vaccel_sync s = { .handle = out };
	struct drm_vaccel_bo_migrate m = {
		.handle = handle,
		.region = region,
		.signals = DRM_VACCEL_OBJ_ARRAY(1, &s),
	};
	__u64 t0 = bench_now_ns();

	if (ioctl(fd, DRM_IOCTL_VACCEL_BO_MIGRATE, &m))
		bench_die("BO_MIGRATE to region %u: %s", region, strerror(errno));
	*ioctl_ns = bench_now_ns() - t0;
	syncobj_wait(out);
	t0 = bench_now_ns() - t0;
	syncobj_reset(out);
	return t0;
}

static __u64 time_copy(__u32 ctx, __u64 cmd_size, __u32 out)
{
	struct drm_vaccel_sync s = { .handle = out };
	struct drm_vaccel_submit sub = {
		.context = ctx,
		.buffer_va = VA_CMD,
		.buffer_size = cmd_size,
		.signals = DRM_VACCEL_OBJ_ARRAY(1, &s),
	};
	__u64 t0 = bench_now_ns();

	if (ioctl(fd, DRM_IOCTL_VACCEL_SUBMIT, &sub))
		bench_die("SUBMIT: %s", strerror(errno));
	syncobj_wait(out);
	t0 = bench_now_ns() - t0;
	syncobj_reset(out);
	return t0;
}

int main(int argc, char **argv)
{
	struct drm_vaccel_device_info info;
	struct drm_vaccel_query q = {
		.type = DRM_VACCEL_QUERY_DEVICE,
		.size = sizeof(info),
		.data = (__u64)(uintptr_t)&info,
	};
	struct drm_vaccel_context_create cc = {
		.engine_class = DRM_VACCEL_ENGINE_CLASS_COPY,
		.engine_instance = DRM_VACCEL_ENGINE_ANY,
		.priority = DRM_VACCEL_PRIORITY_NORMAL,
	};
	__u64 copy_ns[ROUNDS], move_ns[ROUNDS], off, *cmd, words = 0, warm, cold;
	__u32 a, b, c, out, dev;
	double copy_med, move_med, ratio;
	unsigned int i;
	unsigned char *cpu;

	bench_name = "migrate";
	fd = bench_open_device(argc > 1 ? argv[1] : NULL);
	if (fd < 0)
		bench_die("no vaccel device: %s", strerror(errno));
	memset(&info, 0, sizeof(info));
	if (ioctl(fd, DRM_IOCTL_VACCEL_QUERY, &q))
		bench_die("QUERY: %s", strerror(errno));
	if (info.device_mem_size < SIZE)
		bench_die("the device has %llu MiB of device memory, 64 needed",
			  (unsigned long long)(info.device_mem_size / MIB));
	if (!info.engine_count[DRM_VACCEL_ENGINE_CLASS_COPY])
		bench_die("the device has no COPY engine");
	dev = DRM_VACCEL_REGION_DEVICE(info.device_index);

	a = bo_create(SIZE);
	b = bo_create(SIZE);
	c = bo_create(4096);
	cpu = bo_mmap(a, SIZE);
	for (off = 0; off < SIZE; off++)
		cpu[off] = (unsigned char)(off * 131 + 7);
	map(a, VA_A, SIZE);
	map(b, VA_B, SIZE);
	map(c, VA_CMD, 4096);
	cmd = bo_mmap(c, 4096);
	for (off = 0; off < SIZE; off += info.max_copy_size) {
		__u64 len = SIZE - off < info.max_copy_size ? SIZE - off : info.max_copy_size;

		cmd[words++] = DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_COPY, 0, 4);
		cmd[words++] = VA_A + off;
		cmd[words++] = VA_B + off;
		cmd[words++] = len;
	}
	if (ioctl(fd, DRM_IOCTL_VACCEL_CONTEXT_CREATE, &cc))
		bench_die("CONTEXT_CREATE: %s", strerror(errno));
	out = syncobj();

	/* Warm up both paths once: page tables, TLBs, allocators. */
	time_copy(cc.handle, words * 8, out);
	time_migrate(a, dev, out, &warm);
	time_migrate(a, DRM_VACCEL_REGION_SYSTEM, out, &warm);

	printf("%-6s %10s %10s %12s %10s %12s %10s\n", "round", "copy_ms",
	       "move_ms", "to_device", "(ioctl)", "to_system", "(ioctl)");
	for (i = 0; i < ROUNDS; i++) {
		__u64 to_dev, to_sys, dev_ioctl, sys_ioctl;

		copy_ns[i] = time_copy(cc.handle, words * 8, out);
		to_dev = time_migrate(a, dev, out, &dev_ioctl);
		to_sys = time_migrate(a, DRM_VACCEL_REGION_SYSTEM, out, &sys_ioctl);
		move_ns[i] = (to_dev + to_sys) / 2;
		printf("%-6u %10.3f %10.3f %12.3f %10.3f %12.3f %10.3f\n", i,
		       copy_ns[i] / 1e6, move_ns[i] / 1e6, to_dev / 1e6,
		       dev_ioctl / 1e6, to_sys / 1e6, sys_ioctl / 1e6);
	}
	/* The data survived the round trips. */
	for (off = 0; off < SIZE; off += 4093)
		if (cpu[off] != (unsigned char)(off * 131 + 7))
			bench_die("byte %llu of the moved BO changed",
				  (unsigned long long)off);
	copy_med = bench_percentile(copy_ns, ROUNDS, 50);
	move_med = bench_percentile(move_ns, ROUNDS, 50);
	ratio = copy_med / move_med;

	/*
	 * A return to system memory after the BO's shmem pages were given
	 * back (VACCEL_SHMEM_LINGER_MS, 1 s, after it left) allocates and
	 * clears them again: reported, without a target.
	 */
	time_migrate(a, dev, out, &warm);
	usleep(1500 * 1000);
	cold = time_migrate(a, DRM_VACCEL_REGION_SYSTEM, out, &warm);
	printf("# a return to system memory 1.5 s after leaving it: %.3f ms\n",
	       cold / 1e6);
	bench_report(&(struct bench_metric){ "throughput_ratio", ratio, 3, "ratio", ">=",
		RATIO_TARGET });
	bench_report(&(struct bench_metric){ "cold_return_ratio", copy_med / cold, 3,
		"ratio" });
	return 0;
}
