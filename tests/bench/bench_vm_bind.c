// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * bench_vm_bind.c - what VM_BIND costs, against what the CPU's own MMU
 * costs, measured in the same run (the machines are noisy and may be
 * emulated: only ratios mean anything).
 *
 * For each size (4 MiB to 1 GiB): a BO of that size is mapped once at VA X
 * and stays mapped, so that its pages are resident and pinned; then
 * VM_BIND maps the whole BO at VA Y and unmaps it again, repeatedly, until
 * each size has taken at least MIN_SECONDS.  The reference is munmap(2) of
 * an anonymous mapping of the same size whose every page was touched first
 * (transparent huge pages off, so that it has 4 KiB pages too), timed alone
 * and repeated likewise.  Each figure is per 4 KiB page; a ratio is VM_BIND
 * time over munmap time, and the target is at most 1.0.  The BO is freed
 * before the anonymous mapping is made: the two never coexist (the guest has
 * about 3 GiB).
 *
 * Then the page-table memory: pt_bytes of DRM_VACCEL_QUERY_VM_STATS with
 * the 1 GiB BO mapped, minus the empty VM's, as a percentage of the bytes
 * mapped; the target is at most 0.2 % (4-level tables of 4 KiB pages need
 * about 0.196 %).
 *
 * Output: a table, then
 *	bench.vm_bind.map_ratio_max <x> PASS|FAIL
 *	bench.vm_bind.unmap_ratio_max <x> PASS|FAIL
 *	bench.vm_bind.pt_overhead_pct <x> PASS|FAIL
 * Exits 0 once measured (whatever the verdicts), 1 with a `not ok` line if
 * it could not measure.
 *
 *	bench_vm_bind [DEVICE]	(default: the first vaccel node)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <drm/vaccel_accel.h>

#include "bench.h"

#define PAGE		4096ull
#define MIB		(1024ull * 1024)
#define GIB		(1024ull * MIB)
#define MIN_SECONDS	0.2
#define MIN_REPS	2

#define MAP_RATIO_TARGET	1.0
#define UNMAP_RATIO_TARGET	1.0
#define PT_PCT_TARGET		0.2

static const unsigned long long sizes[] = {
	4 * MIB, 16 * MIB, 64 * MIB, 256 * MIB, 1 * GIB,
};
#define NSIZES	(sizeof(sizes) / sizeof(sizes[0]))

static int fd = -1;

static void query(__u32 type, void *data, __u32 size)
{
	struct drm_vaccel_query q = {
		.type = type,
		.size = size,
		.data = (__u64)(uintptr_t)data,
	};

	if (ioctl(fd, DRM_IOCTL_VACCEL_QUERY, &q))
		bench_die("QUERY %u: %s", type, strerror(errno));
}

static struct drm_vaccel_vm_stats vm_stats(void)
{
	struct drm_vaccel_vm_stats s;

	query(DRM_VACCEL_QUERY_VM_STATS, &s, sizeof(s));
	return s;
}

static __u32 bo_create(__u64 size)
{
	struct drm_vaccel_bo_create c = { .size = size };

	if (ioctl(fd, DRM_IOCTL_VACCEL_BO_CREATE, &c))
		bench_die("BO_CREATE %llu: %s", (unsigned long long)size, strerror(errno));
	return c.handle;
}

static void gem_close(__u32 handle)
{
	struct drm_gem_close c = { .handle = handle };

	if (ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c))
		bench_die("GEM_CLOSE: %s", strerror(errno));
}

static void vm_bind(__u32 op, __u32 handle, __u64 va, __u64 size)
{
	struct drm_vaccel_vm_bind_op o = {
		.op = op,
		.handle = handle,
		.va = va,
		.size = size,
	};
	struct drm_vaccel_vm_bind b = { .ops = DRM_VACCEL_OBJ_ARRAY(1, &o) };

	if (ioctl(fd, DRM_IOCTL_VACCEL_VM_BIND, &b))
		bench_die("VM_BIND %s of %llu MiB at 0x%llx: %s",
		    op == DRM_VACCEL_VM_BIND_OP_MAP ? "map" : "unmap",
		    (unsigned long long)(size / MIB), (unsigned long long)va,
		    strerror(errno));
}

struct result {
	double map_ns, unmap_ns, munmap_ns;	/* per page */
	unsigned int bind_reps, munmap_reps;
};

/* VM_BIND map and unmap of a @size BO at @y, while it stays mapped at @x. */
static void measure_bind(__u64 size, __u64 x, __u64 y, struct result *r,
			 struct drm_vaccel_vm_stats *mapped)
{
	__u32 h = bo_create(size);
	double t_map = 0, t_unmap = 0, t0, t1, t2;
	unsigned int reps = 0;

	vm_bind(DRM_VACCEL_VM_BIND_OP_MAP, h, x, size);	/* pins every page */
	*mapped = vm_stats();
	do {
		t0 = (bench_now_ns() * 1e-9);
		vm_bind(DRM_VACCEL_VM_BIND_OP_MAP, h, y, size);
		t1 = (bench_now_ns() * 1e-9);
		vm_bind(DRM_VACCEL_VM_BIND_OP_UNMAP, 0, y, size);
		t2 = (bench_now_ns() * 1e-9);
		t_map += t1 - t0;
		t_unmap += t2 - t1;
		reps++;
	} while (t_map + t_unmap < MIN_SECONDS || reps < MIN_REPS);
	vm_bind(DRM_VACCEL_VM_BIND_OP_UNMAP, 0, x, size);
	gem_close(h);

	r->map_ns = t_map * 1e9 / reps / (size / PAGE);
	r->unmap_ns = t_unmap * 1e9 / reps / (size / PAGE);
	r->bind_reps = reps;
}

/* munmap(2) of @size bytes of touched anonymous 4 KiB pages. */
static void measure_munmap(__u64 size, struct result *r)
{
	double t = 0, t0;
	unsigned int reps = 0;
	volatile char *p;
	__u64 off;

	do {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			bench_die("mmap %llu MiB: %s", (unsigned long long)(size / MIB),
			    strerror(errno));
		/* 4 KiB pages, as the GPU's: no transparent huge pages. */
		madvise((void *)p, size, MADV_NOHUGEPAGE);
		for (off = 0; off < size; off += PAGE)
			p[off] = 1;
		t0 = (bench_now_ns() * 1e-9);
		if (munmap((void *)p, size))
			bench_die("munmap: %s", strerror(errno));
		t += (bench_now_ns() * 1e-9) - t0;
		reps++;
	} while (t < MIN_SECONDS || reps < MIN_REPS);

	r->munmap_ns = t * 1e9 / reps / (size / PAGE);
	r->munmap_reps = reps;
}

int main(int argc, char **argv)
{
	struct drm_vaccel_device_info info;
	struct drm_vaccel_vm_stats empty, mapped, after;
	struct result r[NSIZES];
	double map_max = 0, unmap_max = 0, pct = -1, mr, ur;
	__u64 x, y, span;
	unsigned int i;

	bench_name = "vm_bind";

	fd = bench_open_device(argc > 1 ? argv[1] : NULL);
	if (fd < 0)
		bench_die("no vaccel device: %s", strerror(errno));
	memset(&info, 0, sizeof(info));
	query(DRM_VACCEL_QUERY_DEVICE, &info, sizeof(info));
	empty = vm_stats();
	if (empty.mappings)
		bench_die("the VM is not empty");

	/* X and Y 1 GiB apart and aligned, like real allocations of that size. */
	span = GIB;
	x = (info.va_start + span - 1) & ~(span - 1);
	y = x + span;
	if (y + span > info.va_end)
		bench_die("VA space too small: 0x%llx-0x%llx", (unsigned long long)info.va_start,
		    (unsigned long long)info.va_end);
	if (info.max_bo_size < sizes[NSIZES - 1])
		bench_die("max_bo_size %llu is below %llu", (unsigned long long)info.max_bo_size,
		    (unsigned long long)sizes[NSIZES - 1]);

	printf("VM_BIND against munmap(2), per 4 KiB page, at least %.1f s per figure\n",
	       MIN_SECONDS);
	printf("%9s %11s %11s %11s %9s %9s %12s\n", "size", "map ns", "unmap ns",
	       "munmap ns", "map/mu", "unmap/mu", "reps b/mu");
	for (i = 0; i < NSIZES; i++) {
		measure_bind(sizes[i], x, y, &r[i], &mapped);
		if (sizes[i] == 1 * GIB)
			pct = (double)(mapped.pt_bytes - empty.pt_bytes) * 100.0 /
			      (double)mapped.mapped_bytes;
		after = vm_stats();
		if (after.mappings || after.pt_pages != empty.pt_pages)
			bench_die("VM not empty after %llu MiB: %llu mappings, %llu pt pages",
			    (unsigned long long)(sizes[i] / MIB),
			    (unsigned long long)after.mappings,
			    (unsigned long long)after.pt_pages);
		measure_munmap(sizes[i], &r[i]);

		mr = r[i].map_ns / r[i].munmap_ns;
		ur = r[i].unmap_ns / r[i].munmap_ns;
		if (mr > map_max)
			map_max = mr;
		if (ur > unmap_max)
			unmap_max = ur;
		printf("%5llu MiB %11.1f %11.1f %11.1f %9.3f %9.3f %6u/%-5u\n",
		       sizes[i] / MIB, r[i].map_ns, r[i].unmap_ns, r[i].munmap_ns, mr, ur,
		       r[i].bind_reps, r[i].munmap_reps);
		fflush(stdout);
	}

	printf("page tables with 1 GiB mapped in 4 KiB pages: %llu bytes over the "
	       "empty VM's %llu, %.4f %% of the bytes mapped\n",
	       (unsigned long long)(mapped.pt_bytes - empty.pt_bytes),
	       (unsigned long long)empty.pt_bytes, pct);
	bench_report(&(struct bench_metric){ "map_ratio_max", map_max, 3, "ratio", "<=",
		MAP_RATIO_TARGET });
	bench_report(&(struct bench_metric){ "unmap_ratio_max", unmap_max, 3, "ratio", "<=",
		UNMAP_RATIO_TARGET });
	bench_report(&(struct bench_metric){ "pt_overhead_pct", pct, 4, "pct", "<=",
		PT_PCT_TARGET });
	close(fd);
	return 0;
}
