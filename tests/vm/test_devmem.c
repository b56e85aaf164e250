// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_devmem.c - device memory: the segment the query reports, BOs placed
 * there, the CPU's and the engines' view of them, page-table entries with
 * device physical addresses, BO_MIGRATE between system and device memory
 * under running work, and eviction when processes ask for twice the
 * segment, every byte checked.
 *
 * The plan loads the module with device_mem_mb=16 (VT_DEVICE_MEM_MB).
 * Needs root (debugfs).
 */
#include <vaccel.h>

#include "vt_exec.h"
#include "vt_mem.h"

#define MIB	(1024ull * 1024)

static __u64 seg_size(void)
{
	return (__u64)vt_env_num("VT_DEVICE_MEM_MB", 16) * MIB;
}

/* A BO of @flags, mapped at a fresh VA and for the CPU. */
static struct vt_bo bo_new_placed(struct vt_dev *d, __u64 size, __u32 flags)
{
	struct vt_bo b;

	b.size = size;
	b.handle = vt_bo_create(d->fd, size, flags);
	b.cpu = vt_bo_mmap(d->fd, b.handle, size);
	b.va = vt_va_alloc(d, size);
	vt_map(d->fd, b.handle, 0, b.va, size, 0);
	return b;
}

/* Every valid entry of @pages pages at @va is in device memory, or none. */
static void expect_device_ptes(int fd, __u64 va, size_t pages, bool device)
{
	struct drm_vaccel_device_info info;
	struct vt_pte *t;
	size_t n = vt_page_table(fd, &t), i;

	vt_device_info(fd, &info);
	for (i = 0; i < pages; i++) {
		__u64 pte = vt_pte_find(t, n, va + i * VT_PAGE);
		__u64 addr = pte & DRM_VACCEL_PTE_ADDR_MASK;

		VT_ASSERT(pte & DRM_VACCEL_PTE_VALID);
		VT_ASSERT_EQ(!!(pte & DRM_VACCEL_PTE_DEVICE), device);
		if (device)
			VT_ASSERT(addr >= info.device_mem_base &&
				  addr < info.device_mem_base + info.device_mem_size);
	}
	free(t);
}

/* The engines see @b's CPU bytes. */
static void expect_gpu_sees(int fd, const struct vt_bo *b)
{
	unsigned char *buf = malloc(b->size);

	VT_ASSERT(buf);
	vt_gpu_read(fd, b->va, buf, b->size);
	VT_ASSERT(!memcmp(buf, b->cpu, b->size));
	free(buf);
}

VTEST(query_reports_segment)
{
	struct vt_dev d = vt_dev_open();

	VT_ASSERT_EQ(d.info.uapi_minor >= 7, 1);
	VT_ASSERT_EQ(d.info.device_mem_size, seg_size());
	VT_ASSERT_EQ(d.info.device_mem_free, seg_size());
	VT_ASSERT_EQ(d.info.device_mem_base,
		     DRM_VACCEL_DEVICE_MEM_BASE(d.info.device_index));
}

VTEST(placement_and_free_space)
{
	struct vt_dev d = vt_dev_open();
	struct drm_vaccel_device_info info;
	__u32 h, p, s;

	h = vt_bo_create(d.fd, 4 * MIB, DRM_VACCEL_BO_DEVICE);
	VT_ASSERT_EQ(vt_bo_region(d.fd, h), DRM_VACCEL_REGION_DEVICE(d.info.device_index));
	vt_device_info(d.fd, &info);
	VT_ASSERT_EQ(info.device_mem_free, seg_size() - 4 * MIB);

	/* Too big for the segment: refused, or in system memory if only preferred. */
	VT_ASSERT_ERRNO(vt_bo_create_raw(d.fd, seg_size() + VT_PAGE,
					 DRM_VACCEL_BO_DEVICE, &p, NULL), ENOSPC);
	p = vt_bo_create(d.fd, seg_size() + VT_PAGE, DRM_VACCEL_BO_DEVICE_PREFERRED);
	VT_ASSERT_EQ(vt_bo_region(d.fd, p), DRM_VACCEL_REGION_SYSTEM);
	s = vt_bo_create(d.fd, VT_PAGE, DRM_VACCEL_BO_DEVICE_PREFERRED);
	VT_ASSERT_EQ(vt_bo_region(d.fd, s), DRM_VACCEL_REGION_DEVICE(d.info.device_index));
	VT_ASSERT_ERRNO(vt_bo_create_raw(d.fd, VT_PAGE, DRM_VACCEL_BO_DEVICE |
					 DRM_VACCEL_BO_DEVICE_PREFERRED, &p, NULL), EINVAL);

	vt_gem_close(d.fd, h);
	vt_gem_close(d.fd, s);
	vt_device_info(d.fd, &info);
	VT_ASSERT_EQ(info.device_mem_free, seg_size());
}

/* The CPU maps device memory as through a BAR; the engines see the same. */
VTEST(cpu_and_gpu_access)
{
	struct vt_dev d = vt_dev_open();
	struct vt_bo b = bo_new_placed(&d, 64 * VT_PAGE, DRM_VACCEL_BO_DEVICE);
	size_t i;

	for (i = 0; i < b.size; i++)
		VT_ASSERT_EQ(b.cpu[i], 0);
	vt_fill_pages(b.cpu, 64, 1);
	expect_device_ptes(d.fd, b.va, 64, true);
	vt_check_translation(d.fd, b.va, b.cpu, 64, true, true);
}

VTEST(migrate_round_trip)
{
	struct vt_dev d = vt_dev_open();
	struct vt_bo b = bo_new_placed(&d, 32 * VT_PAGE, 0);
	unsigned char *ref = malloc(b.size);
	struct drm_vaccel_device_info info;
	__u32 dev = DRM_VACCEL_REGION_DEVICE(d.info.device_index);

	VT_ASSERT(ref);
	vt_fill_pages(b.cpu, 32, 2);
	memcpy(ref, b.cpu, b.size);
	expect_device_ptes(d.fd, b.va, 32, false);

	vt_migrate(d.fd, b.handle, dev);
	VT_ASSERT_EQ(vt_bo_region(d.fd, b.handle), dev);
	vt_device_info(d.fd, &info);
	VT_ASSERT_EQ(info.device_mem_free, seg_size() - b.size);
	expect_device_ptes(d.fd, b.va, 32, true);
	VT_ASSERT(!memcmp(b.cpu, ref, b.size));
	expect_gpu_sees(d.fd, &b);

	/* Written in device memory, moved back: the CPU's writes came along. */
	b.cpu[5] = 0x5a;
	ref[5] = 0x5a;
	vt_migrate(d.fd, b.handle, DRM_VACCEL_REGION_SYSTEM);
	VT_ASSERT_EQ(vt_bo_region(d.fd, b.handle), DRM_VACCEL_REGION_SYSTEM);
	expect_device_ptes(d.fd, b.va, 32, false);
	VT_ASSERT(!memcmp(b.cpu, ref, b.size));
	expect_gpu_sees(d.fd, &b);
	vt_device_info(d.fd, &info);
	VT_ASSERT_EQ(info.device_mem_free, seg_size());

	/* To where it is: nothing moves, the out-fence still signals. */
	vt_migrate(d.fd, b.handle, DRM_VACCEL_REGION_SYSTEM);
	free(ref);
}

VTEST(migrate_bad_input)
{
	struct vt_dev d = vt_dev_open();
	__u32 h = vt_bo_create(d.fd, VT_PAGE, 0);
	struct drm_vaccel_bo_migrate m = { .handle = h };

	m.flags = 1;
	VT_ASSERT_ERRNO(ioctl(d.fd, DRM_IOCTL_VACCEL_BO_MIGRATE, &m), EINVAL);
	m.flags = 0;
	m.pad = 1;
	VT_ASSERT_ERRNO(ioctl(d.fd, DRM_IOCTL_VACCEL_BO_MIGRATE, &m), EINVAL);
	m.pad = 0;
	m.region = 1000;
	VT_ASSERT_ERRNO(ioctl(d.fd, DRM_IOCTL_VACCEL_BO_MIGRATE, &m), EINVAL);
	/* A device that does not exist: the module has at most 8. */
	m.region = DRM_VACCEL_REGION_DEVICE(7);
	VT_ASSERT_ERRNO(ioctl(d.fd, DRM_IOCTL_VACCEL_BO_MIGRATE, &m), ENODEV);
	m.region = DRM_VACCEL_REGION_SYSTEM;
	m.handle = h + 100;
	VT_ASSERT_ERRNO(ioctl(d.fd, DRM_IOCTL_VACCEL_BO_MIGRATE, &m), ENOENT);
	m.handle = h;
	m.signals = (struct drm_vaccel_obj_array){
		.stride = sizeof(struct drm_vaccel_sync), .count = 1, .array = 8 };
	VT_ASSERT_ERRNO(ioctl(d.fd, DRM_IOCTL_VACCEL_BO_MIGRATE, &m), EFAULT);
	VT_ASSERT_EQ(vt_bo_region(d.fd, h), DRM_VACCEL_REGION_SYSTEM);
}

/*
 * A move queued behind a buffer that writes the BO waits for it, and the
 * buffer after it reads the new place: nothing written is lost, and no
 * engine keeps a stale translation of the old pages.
 */
VTEST(migrate_under_running_work)
{
	struct vt_work w = vt_work_open(64 * VT_KIB, 16 * VT_PAGE,
					DRM_VACCEL_ENGINE_CLASS_COMPUTE, 0);
	struct vt_bo src = bo_new_placed(&w.d, 16 * VT_PAGE, 0);
	struct vt_bo out = bo_new_placed(&w.d, 16 * VT_PAGE, 0);
	__u32 dev = DRM_VACCEL_REGION_DEVICE(w.d.info.device_index);
	__u32 done = vt_syncobj(w.d.fd), moved = vt_syncobj(w.d.fd);
	int round;

	for (round = 0; round < 2; round++) {
		__u32 to = round ? DRM_VACCEL_REGION_SYSTEM : dev;

		vt_fill_pages(src.cpu, 16, 3 + round);
		/* Touch the data BO first, so the engine's TLB holds it. */
		vt_pkt_fill(&w.c, w.data.va, w.data.size, 0);
		vt_pkt_delay(&w.c, 200 * 1000 * 1000ull);
		vt_pkt_copy(&w.c, src.va, w.data.va, w.data.size);
		vt_submit(w.d.fd, w.ctx, &w.c, 0, 0);
		VT_ASSERT_OK(vt_migrate_raw(w.d.fd, w.data.handle, to, moved));
		/* The buffer after the move reads the BO where it went. */
		vt_pkt_copy(&w.c, w.data.va, out.va, out.size);
		vt_submit(w.d.fd, w.ctx, &w.c, 0, done);
		vt_syncobj_wait(w.d.fd, done);
		VT_ASSERT_EQ(vt_fence_status(w.d.fd, done), 1);
		VT_ASSERT(vt_syncobj_signalled(w.d.fd, moved));
		VT_ASSERT_EQ(vt_bo_region(w.d.fd, w.data.handle), to);
		VT_ASSERT(!memcmp(w.data.cpu, src.cpu, src.size));
		VT_ASSERT(!memcmp(out.cpu, src.cpu, src.size));
		expect_device_ptes(w.d.fd, w.data.va, 16, to == dev);
	}
	vt_expect_not_faulted(w.d.fd, w.ctx);
}

/*
 * Two processes each fill a DEVICE BO of 3/4 of the segment: twice what
 * it holds.  The second evicts the first, whose data stays whole in system
 * memory and comes back when it submits; every byte is checked by the CPU
 * and the engines on both sides.
 */
VTEST(eviction_across_processes)
{
	__u64 size = seg_size() / 4 * 3;
	int to_child[2], to_parent[2];
	char token = 0;
	pid_t pid;

	VT_ASSERT_OK(pipe(to_child));
	VT_ASSERT_OK(pipe(to_parent));
	pid = fork();
	VT_ASSERT(pid >= 0);
	if (pid == 0) {
		struct vt_dev d;
		struct vt_bo b;

		VT_ASSERT_EQ(read(to_child[0], &token, 1), 1);
		d = vt_dev_open();
		b = bo_new_placed(&d, size, DRM_VACCEL_BO_DEVICE);
		vt_fill_pages(b.cpu, size / VT_PAGE, 21);
		expect_gpu_sees(d.fd, &b);
		VT_ASSERT_EQ(write(to_parent[1], &token, 1), 1);
		VT_ASSERT_EQ(read(to_child[0], &token, 1), 1);
		/* Evicted by the parent's return: still whole. */
		{
			unsigned char *ref = malloc(size);

			VT_ASSERT(ref);
			vt_fill_pages(ref, size / VT_PAGE, 21);
			VT_ASSERT(!memcmp(b.cpu, ref, size));
			free(ref);
		}
		expect_gpu_sees(d.fd, &b);
		_exit(0);
	} else {
		struct vt_dev d = vt_dev_open();
		struct vt_bo b = bo_new_placed(&d, size, DRM_VACCEL_BO_DEVICE);
		unsigned char *ref = malloc(size);
		struct drm_vaccel_bo_info info;
		__u32 dev = DRM_VACCEL_REGION_DEVICE(d.info.device_index);

		VT_ASSERT(ref);
		vt_fill_pages(b.cpu, size / VT_PAGE, 20);
		memcpy(ref, b.cpu, size);
		VT_ASSERT_EQ(write(to_child[1], &token, 1), 1);
		VT_ASSERT_EQ(read(to_parent[0], &token, 1), 1);

		/* The child's BO took the segment: ours went to system memory. */
		vt_bo_info(d.fd, b.handle, &info);
		VT_ASSERT_EQ(info.region, DRM_VACCEL_REGION_SYSTEM);
		VT_ASSERT_EQ(info.evictions, 1);
		VT_ASSERT(!memcmp(b.cpu, ref, size));
		/* A submission brings it back, evicting the child's. */
		expect_gpu_sees(d.fd, &b);
		VT_ASSERT_EQ(vt_bo_region(d.fd, b.handle), dev);
		expect_device_ptes(d.fd, b.va, size / VT_PAGE, true);
		VT_ASSERT(!memcmp(b.cpu, ref, size));
		VT_ASSERT_EQ(write(to_child[1], &token, 1), 1);
		vt_wait_child(pid);
		free(ref);
	}
}

/* A memory key of fdinfo in bytes (the kernel prints KiB, MiB...); -1 if absent. */
static long long fdinfo_bytes(int fd, const char *key)
{
	char path[64], *text, *p;
	long long v;
	char unit[8] = "";
	size_t klen = strlen(key);

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	text = vt_read_file(path);
	for (p = text; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, key, klen) && p[klen] == ':')
			break;
	}
	if (!p) {
		free(text);
		return -1;
	}
	VT_ASSERT(sscanf(p + klen + 1, "%lld %7s", &v, unit) >= 1);
	free(text);
	if (!strcmp(unit, "KiB"))
		v <<= 10;
	else if (!strcmp(unit, "MiB"))
		v <<= 20;
	else if (!strcmp(unit, "GiB"))
		v <<= 30;
	return v;
}

/* fdinfo counts memory per region, and debugfs the segment's moves. */
VTEST(fdinfo_and_debugfs_counters)
{
	struct vt_dev d = vt_dev_open();
	char key[32], *mem;
	long long moved_in, evictions;
	__u32 h, s;

	snprintf(key, sizeof(key), "drm-total-vram%u", d.info.device_index);
	VT_ASSERT_EQ(fdinfo_bytes(d.fd, key), -1);
	h = vt_bo_create(d.fd, 3 * MIB, DRM_VACCEL_BO_DEVICE);
	s = vt_bo_create(d.fd, 2 * MIB, 0);
	VT_ASSERT_EQ(fdinfo_bytes(d.fd, key), 3 * MIB);
	snprintf(key, sizeof(key), "drm-resident-vram%u", d.info.device_index);
	VT_ASSERT_EQ(fdinfo_bytes(d.fd, key), 3 * MIB);
	VT_ASSERT_EQ(fdinfo_bytes(d.fd, "drm-total-system"), 2 * MIB);
	/* Regions are disjoint: no key counts them all again. */
	VT_ASSERT_EQ(fdinfo_bytes(d.fd, "drm-total-memory"), -1);

	mem = vt_debugfs_read(d.fd, "memory");
	moved_in = vt_kv(mem, "device_mem_moved_in");
	evictions = vt_kv(mem, "device_mem_evictions");
	VT_ASSERT_EQ(vt_kv(mem, "device_mem_size"), (long long)seg_size());
	VT_ASSERT_EQ(vt_kv(mem, "device_mem_free"), (long long)(seg_size() - 3 * MIB));
	VT_ASSERT_EQ(vt_kv(mem, "device_mem_bos"), 1);
	free(mem);
	vt_migrate(d.fd, s, DRM_VACCEL_REGION_DEVICE(d.info.device_index));
	VT_ASSERT_EQ(fdinfo_bytes(d.fd, "drm-total-system"), 0);
	VT_ASSERT_EQ(fdinfo_bytes(d.fd, key), 5 * MIB);
	mem = vt_debugfs_read(d.fd, "memory");
	VT_ASSERT_EQ(vt_kv(mem, "device_mem_moved_in"), moved_in + 2 * (long long)MIB);
	VT_ASSERT_EQ(vt_kv(mem, "device_mem_evictions"), evictions);
	free(mem);
	vt_gem_close(d.fd, h);
	vt_gem_close(d.fd, s);
	VT_ASSERT_EQ(fdinfo_bytes(d.fd, key), -1);
}

/*
 * A BO that moved to device memory gives its shmem pages back, a moment
 * later (they wait for a quick return); one that came back first keeps
 * them.
 */
VTEST(system_pages_go_after_a_move)
{
	struct vt_dev d = vt_dev_open();
	struct vt_bo b = bo_new_placed(&d, 8 * MIB, 0);
	__u32 dev = DRM_VACCEL_REGION_DEVICE(d.info.device_index);
	long long before, now = 0;
	int waited;

	vt_fill_pages(b.cpu, 8 * MIB / VT_PAGE, 40);
	before = vt_meminfo_kb("Shmem");
	vt_migrate(d.fd, b.handle, dev);
	for (waited = 0; waited < 10000; waited += 50) {
		now = vt_meminfo_kb("Shmem");
		if (now <= before - 8 * 1024 + 1024)
			break;
		usleep(50 * 1000);
	}
	VT_ASSERT(now <= before - 8 * 1024 + 1024);
	/* Back in system memory, whole. */
	vt_migrate(d.fd, b.handle, DRM_VACCEL_REGION_SYSTEM);
	{
		unsigned char *ref = malloc(b.size);

		VT_ASSERT(ref);
		vt_fill_pages(ref, 8 * MIB / VT_PAGE, 40);
		VT_ASSERT(!memcmp(b.cpu, ref, b.size));
		free(ref);
	}
}

/*
 * The host pages of a range given back stay in the segment's pool for the
 * next; the shrinker gives them to the host when it asks (drop_caches).
 */
VTEST(pool_kept_and_shrunk)
{
	struct vt_dev d = vt_dev_open();
	int drop = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	long long pooled;
	char *mem;
	__u32 h;

	VT_ASSERT(drop >= 0);
	h = vt_bo_create(d.fd, 4 * MIB, DRM_VACCEL_BO_DEVICE);
	vt_gem_close(d.fd, h);
	mem = vt_debugfs_read(d.fd, "memory");
	pooled = vt_kv(mem, "device_mem_pooled");
	free(mem);
	VT_ASSERT(pooled >= (long long)(4 * MIB));

	/* A new BO takes pooled pages, zeroed. */
	{
		struct vt_bo b = bo_new_placed(&d, 4 * MIB, DRM_VACCEL_BO_DEVICE);
		size_t i;

		mem = vt_debugfs_read(d.fd, "memory");
		VT_ASSERT_EQ(vt_kv(mem, "device_mem_pooled"), pooled - (long long)(4 * MIB));
		free(mem);
		for (i = 0; i < b.size; i += 512)
			VT_ASSERT_EQ(b.cpu[i], 0);
		munmap(b.cpu, b.size);
		vt_unmap(d.fd, b.va, b.size);
		vt_gem_close(d.fd, b.handle);
	}

	VT_ASSERT_EQ(write(drop, "2", 1), 1);
	close(drop);
	mem = vt_debugfs_read(d.fd, "memory");
	VT_ASSERT_EQ(vt_kv(mem, "device_mem_pooled"), 0);
	free(mem);
}

VTEST_MAIN()
