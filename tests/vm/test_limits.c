// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_limits.c - what one open file may hold, and what happens at the
 * edge: each limit of the device query is reached with its errno, the
 * failed call changes nothing, and freeing below the limit makes room
 * again.
 *
 * - max_pt_bytes: one 4 KiB BO mapped at addresses 2 MiB apart, each
 *   mapping its own page tables (the "one BO mapped at 65,536 addresses"
 *   case): ENOSPC before the VM's page tables pass the limit;
 * - max_mappings: one page mapped at consecutive addresses until ENOSPC;
 *   unmapping whole mappings at the limit still works;
 * - max_jobs_per_file: SUBMIT waits for a buffer to retire once the file
 *   has that many; a signal interrupts the wait (EINTR);
 * - a memory cgroup of 24 MiB: contexts and pinned pages are charged to
 *   it (an asynchronous bind's in its ioctl), a pin past the limit fails
 *   with ENOMEM (never the OOM killer), closing the BO gives back its
 *   pages, and the device keeps working for others;
 * - a DISPATCH whose stack pages do not fit in its cgroup fails with
 *   ENOMEM (the engine allocates without blocking), its context goes on.
 *
 * Needs root (cgroup2, vgem) and a topology with COPY and COMPUTE engines.
 */
#include <signal.h>
#include <sys/mount.h>
#include <sys/time.h>

#include "vt_exec.h"
#include "vt_vgem.h"

#define COPY	DRM_VACCEL_ENGINE_CLASS_COPY
#define COMPUTE	DRM_VACCEL_ENGINE_CLASS_COMPUTE
#define BATCH	1024

static void no_handler(int sig)
{
}

/* VM_BIND of @n maps of BO @h at @va, @va + @step, ...; returns 0 or -errno. */
static int map_many(int fd, __u32 h, __u64 va, __u64 step, unsigned int n)
{
	static struct drm_vaccel_vm_bind_op ops[BATCH];
	unsigned int i;

	for (i = 0; i < n; i++)
		ops[i] = vt_op_map(h, 0, va + i * step, VT_PAGE, 0);
	return vt_vm_bind_raw(fd, ops, n) ? -errno : 0;
}

/*
 * One 4 KiB BO at addresses 2 MiB apart: each mapping costs a level-0
 * table of its own, and the VM's page tables stop at max_pt_bytes.
 */
VTEST(page_table_limit)
{
	struct vt_dev d = vt_dev_open();
	__u32 h = vt_bo_create(d.fd, VT_PAGE, 0);
	__u64 va = 1ull << 30, step = 2 * VT_MIB;
	struct drm_vaccel_vm_stats s, before;
	unsigned int n = 0;
	int ret;

	VT_ASSERT(d.info.max_pt_bytes >= 4 * VT_MIB);
	/* Whole batches first, then one by one to the last table. */
	while (!(ret = map_many(d.fd, h, va + n * step, step, BATCH)))
		n += BATCH;
	VT_ASSERT_EQ(ret, -ENOSPC);
	while (!(ret = map_many(d.fd, h, va + n * step, step, 1)))
		n++;
	VT_ASSERT_EQ(ret, -ENOSPC);
	vt_vm_stats(d.fd, &s);
	printf("# page_table_limit: %u mappings, %llu KiB of page tables\n", n,
	       (unsigned long long)(s.pt_bytes >> 10));
	VT_ASSERT_EQ(s.mappings, n);
	VT_ASSERT(s.pt_bytes <= d.info.max_pt_bytes);
	VT_ASSERT(s.pt_bytes + 4 * VT_PAGE > d.info.max_pt_bytes);

	/* The refused map changed nothing; an unmap makes room again. */
	before = s;
	VT_ASSERT_EQ(map_many(d.fd, h, va + n * step, step, 1), -ENOSPC);
	vt_vm_stats(d.fd, &s);
	VT_ASSERT_EQ(s.mappings, before.mappings);
	VT_ASSERT_EQ(s.pt_pages, before.pt_pages);
	vt_unmap(d.fd, va, 64 * step);
	VT_ASSERT_OK(map_many(d.fd, h, va, step, 1));
	vt_unmap(d.fd, d.info.va_start, d.info.va_end - d.info.va_start);
	vt_vm_stats(d.fd, &s);
	VT_ASSERT_EQ(s.mappings, 0);
	VT_ASSERT_EQ(s.pt_pages, 1);
}

/* One page at consecutive addresses until max_mappings. */
VTEST(mapping_limit)
{
	struct vt_dev d = vt_dev_open();
	__u32 h = vt_bo_create(d.fd, VT_PAGE, 0);
	__u64 va = 1ull << 30;
	struct drm_vaccel_vm_stats s;
	unsigned int n = 0;
	int ret;

	VT_ASSERT_EQ(d.info.max_mappings, vt_expect_def("", "max_mappings", 65536, false));
	VT_ASSERT(d.info.max_mappings >= BATCH);
	while (!(ret = map_many(d.fd, h, va + n * VT_PAGE, VT_PAGE, BATCH)))
		n += BATCH;
	VT_ASSERT_EQ(ret, -ENOSPC);
	while (!(ret = map_many(d.fd, h, va + n * VT_PAGE, VT_PAGE, 1)))
		n++;
	VT_ASSERT_EQ(ret, -ENOSPC);
	VT_ASSERT_EQ(n, d.info.max_mappings);
	vt_vm_stats(d.fd, &s);
	VT_ASSERT_EQ(s.mappings, n);
	/* At the limit, unmapping whole mappings works, and makes room. */
	vt_unmap(d.fd, va, 2 * VT_PAGE);
	VT_ASSERT_OK(map_many(d.fd, h, va, VT_PAGE, 2));
	VT_ASSERT_EQ(map_many(d.fd, h, va + n * VT_PAGE, VT_PAGE, 1), -ENOSPC);
	vt_unmap(d.fd, va, (__u64)n * VT_PAGE);
	vt_vm_stats(d.fd, &s);
	VT_ASSERT_EQ(s.mappings, 0);
}

/*
 * max_jobs_per_file buffers wait for a vgem fence: the next SUBMIT waits
 * for one to retire, and a signal ends the wait with EINTR.  Once the
 * fence signals, they all run and SUBMIT works again.
 */
VTEST(job_limit_waits)
{
	int vgem = vt_vgem_require();
	struct vt_vgem_fence f = vt_vgem_fence_new(vgem);
	struct vt_dev d = vt_dev_open();
	struct vt_cmd c = vt_cmd_new(&d, VT_PAGE);
	__u32 ctx = vt_ctx_create(d.fd, COPY, 0), in = vt_syncobj(d.fd);
	__u32 out = vt_syncobj(d.fd);
	struct drm_vaccel_sync w = { .handle = in }, s = { .handle = out };
	struct sigaction sa = { .sa_handler = no_handler };
	struct itimerval t = { .it_value = { .tv_usec = 300000 } };
	unsigned int i;
	__u64 start;

	vt_vgem_fence_import(&f, d.fd, in);
	vt_pkt_nop(&c, 1);
	for (i = 0; i < d.info.max_jobs_per_file; i++)
		VT_ASSERT_OK(vt_submit_raw(d.fd, ctx, c.bo.va, 8, &w, 1, NULL, 0));

	/* No SA_RESTART: the signal ends the wait. */
	VT_ASSERT_OK(sigaction(SIGALRM, &sa, NULL));
	VT_ASSERT_OK(setitimer(ITIMER_REAL, &t, NULL));
	start = vt_now_ns();
	VT_ASSERT_ERRNO(vt_submit_raw(d.fd, ctx, c.bo.va, 8, &w, 1, NULL, 0), EINTR);
	VT_ASSERT(vt_now_ns() - start >= 250 * VT_MS);

	vt_vgem_fence_signal(&f);
	VT_ASSERT_OK(vt_submit_raw(d.fd, ctx, c.bo.va, 8, NULL, 0, &s, 1));
	VT_ASSERT_OK(vt_syncobj_wait_ms(d.fd, out, 60000));
	VT_ASSERT_EQ(vt_fence_status(d.fd, out), 1);
	close(f.sync_file);
	close(vgem);
}

/* The cgroup2 hierarchy, mounted if it is not; its path. */
static const char *cgroup_root(void)
{
	static const char *root = "/sys/fs/cgroup";

	if (access("/sys/fs/cgroup/cgroup.controllers", F_OK)) {
		mkdir(root, 0755);
		if (mount("none", root, "cgroup2", 0, NULL) && errno != EBUSY)
			vtest_fail(__FILE__, __LINE__, "mount cgroup2: %s", strerror(errno));
	}
	return root;
}

static void cg_write(const char *dir, const char *file, const char *value)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (!f || fputs(value, f) < 0 || fclose(f))
		vtest_fail(__FILE__, __LINE__, "%s: %s", path, strerror(errno));
}

static unsigned long long cg_read(const char *dir, const char *file)
{
	char path[PATH_MAX];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%llu", &v) != 1)
		vtest_fail(__FILE__, __LINE__, "%s: %s", path, strerror(errno));
	fclose(f);
	return v;
}

/* The count of @key in the cgroup's memory.events. */
static unsigned long long cg_event(const char *dir, const char *key)
{
	char path[PATH_MAX + 16], name[64];
	unsigned long long v;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.events", dir);
	f = fopen(path, "r");
	if (!f)
		vtest_fail(__FILE__, __LINE__, "%s: %s", path, strerror(errno));
	while (fscanf(f, "%63s %llu", name, &v) == 2)
		if (!strcmp(name, key)) {
			fclose(f);
			return v;
		}
	vtest_fail(__FILE__, __LINE__, "%s: no %s", path, key);
}

/*
 * Maps a new BO of @size at @va; 0 or the errno.  A BO that failed to map
 * is closed, which frees what it had of its pages.
 */
static int map_new_bo(int fd, __u64 va, __u64 size)
{
	struct drm_vaccel_bo_create c = { .size = size };
	int err = 0;

	if (ioctl(fd, DRM_IOCTL_VACCEL_BO_CREATE, &c))
		return errno;
	if (vt_map_raw(fd, c.handle, 0, va, size, 0)) {
		err = errno;
		vt_gem_close(fd, c.handle);
	}
	return err;
}

/*
 * Maps a new BO of @size at @va with an asynchronous bind (an out-syncobj),
 * and waits for it; 0 or the errno.
 */
static int map_new_bo_async(int fd, __u64 va, __u64 size)
{
	struct drm_vaccel_bo_create c = { .size = size };
	struct drm_vaccel_vm_bind_op op;
	struct drm_vaccel_sync sig = { .handle = vt_syncobj(fd) };
	struct drm_vaccel_vm_bind b = {
		.ops = DRM_VACCEL_OBJ_ARRAY(1, &op),
		.signals = DRM_VACCEL_OBJ_ARRAY(1, &sig),
	};

	if (ioctl(fd, DRM_IOCTL_VACCEL_BO_CREATE, &c))
		return errno;
	op = vt_op_map(c.handle, 0, va, size, 0);
	if (ioctl(fd, DRM_IOCTL_VACCEL_VM_BIND, &b))
		return errno;
	if (vt_syncobj_wait_ms(fd, sig.handle, 60000) ||
	    vt_fence_status(fd, sig.handle) != 1)
		return EIO;
	return 0;
}

#define CG_LIMIT	(24 * VT_MIB)

/*
 * Runs @child in a new memory cgroup @name, with the limit @max (or none)
 * and no swap; it must exit 0, and the cgroup's OOM killer never run:
 * ENOMEM is the whole answer to a full cgroup.
 */
static void run_in_cgroup(const char *name, unsigned long long max,
			  int (*child)(const char *dir))
{
	char dir[PATH_MAX], swap[PATH_MAX + 32], text[32];
	int status;
	pid_t pid;

	snprintf(dir, sizeof(dir), "%s/%s", cgroup_root(), name);
	cg_write(cgroup_root(), "cgroup.subtree_control", "+memory");
	rmdir(dir);
	VT_ASSERT_OK(mkdir(dir, 0755));
	if (max) {
		snprintf(text, sizeof(text), "%llu", max);
		cg_write(dir, "memory.max", text);
	}
	/* No swap to escape to; a kernel without CONFIG_SWAP has no knob. */
	snprintf(swap, sizeof(swap), "%s/memory.swap.max", dir);
	if (!access(swap, F_OK))
		cg_write(dir, "memory.swap.max", "0");

	pid = fork();
	VT_ASSERT(pid >= 0);
	if (!pid) {
		snprintf(text, sizeof(text), "%d", getpid());
		cg_write(dir, "cgroup.procs", text);
		_exit(child(dir));
	}
	VT_ASSERT_EQ(waitpid(pid, &status, 0), pid);
	VT_ASSERT(WIFEXITED(status));
	VT_ASSERT_EQ(WEXITSTATUS(status), 0);
	VT_ASSERT_EQ(cg_event(dir, "oom_kill"), 0);
	VT_ASSERT_OK(rmdir(dir));
}

/*
 * Runs in the cgroup, which has a limit of CG_LIMIT; returns 0, or 10 +
 * the step that went wrong (a failed assertion exits 1).  The steps stay
 * clear of the limit except for the one pin that passes it, so that
 * nothing small (a context, a VMA) meets the limit and calls the OOM
 * killer, which is the kernel's answer to those.
 */
static int cgroup_child(const char *dir)
{
	int fds[4], i, ret;
	unsigned long long before, after;
	__u32 h;

	/* Contexts are charged: 4 files of 255 at about 1.5 KiB each. */
	for (i = 0; i < 4; i++)
		fds[i] = vt_open_first();
	before = cg_read(dir, "memory.current");
	for (i = 0; i < 4 * 255; i++)
		if (vt_ctx_create_raw(fds[i % 4], COPY, DRM_VACCEL_ENGINE_ANY,
				      DRM_VACCEL_PRIORITY_NORMAL, 0, 0, &h))
			return 11;
	after = cg_read(dir, "memory.current");
	printf("# memory_cgroup: 1020 contexts charged %llu KiB\n",
	       (after - before) >> 10);
	/* Up to 256 KiB per CPU is charged ahead, in stock. */
	if (after < before + 512 * 1024)
		return 12;

	/* Pinned pages are charged. */
	before = after;
	if (map_new_bo(fds[0], 1ull << 32, 8 * VT_MIB))
		return 13;
	after = cg_read(dir, "memory.current");
	if (after < before + 7 * VT_MIB)
		return 14;

	/* So are those an asynchronous bind pins: in its ioctl, to its caller. */
	before = after;
	if (map_new_bo_async(fds[2], 1ull << 35, 4 * VT_MIB))
		return 18;
	after = cg_read(dir, "memory.current");
	printf("# memory_cgroup: an asynchronous 4 MiB bind charged %llu KiB\n",
	       (after - before) >> 10);
	if (after < before + 3 * VT_MIB)
		return 19;

	/*
	 * A pin past the limit: ENOMEM; the pages it had read stay with the
	 * BO, and closing it gives them back.
	 */
	before = after;
	ret = map_new_bo(fds[0], 1ull << 33, 2 * CG_LIMIT);
	after = cg_read(dir, "memory.current");
	printf("# memory_cgroup: a %llu MiB pin: %s; %llu KiB charged after\n",
	       (unsigned long long)(2 * CG_LIMIT / VT_MIB), strerror(ret),
	       after >> 10);
	if (ret != ENOMEM)
		return 15;
	if (after > before + VT_MIB)
		return 16;
	/* The room left is still there. */
	if (map_new_bo(fds[1], 1ull << 34, 4 * VT_MIB))
		return 17;
	return 0;
}

/*
 * A memory cgroup with a limit: what a process pins and allocates through
 * the device is charged to it, a pin past the limit fails with ENOMEM
 * without the OOM killer, closing the BO gives back the pages it had, and
 * the device works on for others.
 */
VTEST(memory_cgroup)
{
	struct vt_dev d;
	struct vt_cmd c;
	__u32 ctx;

	run_in_cgroup("vt-limits", CG_LIMIT, cgroup_child);

	/* Everyone else is fine. */
	d = vt_dev_open();
	c = vt_cmd_new(&d, VT_PAGE);
	ctx = vt_ctx_create(d.fd, COPY, 0);
	vt_pkt_nop(&c, 1);
	vt_run(d.fd, ctx, &c);
	vt_expect_not_faulted(d.fd, ctx);
}

/*
 * Runs in the cgroup: a DISPATCH of 1024 work-items that each touch the
 * top of a 4 KiB stack needs 4 MiB of stack pages, which the engine takes
 * without blocking, charged to the context's creator.  With 1 MiB of room
 * left in the cgroup the buffer fails with ENOMEM and the context goes
 * on; with the limit lifted the same buffer runs.  Returns 0, or 10 + the
 * step that went wrong.
 */
static int dispatch_child(const char *dir)
{
	/* sd sp, -8(sp); ret */
	static const __u32 kernel[] = { 0xfe213c23, 0x00008067 };
	__u32 items[3] = { 1024, 1, 1 };
	struct vt_dev d = vt_dev_open();
	struct vt_cmd c = vt_cmd_new(&d, VT_PAGE);
	struct vt_bo code = vt_bo_new(&d, VT_PAGE);
	__u32 ctx = vt_ctx_create(d.fd, COMPUTE, 0), out = vt_syncobj(d.fd);
	char limit[32];

	memcpy(code.cpu, kernel, sizeof(kernel));
	/* One workgroup: a grid of 1024 work-items in groups of 1024. */
	vt_pkt_dispatch(&c, code.va, 0, items, items, 0, 4096);
	snprintf(limit, sizeof(limit), "%llu", cg_read(dir, "memory.current") + VT_MIB);
	cg_write(dir, "memory.max", limit);
	vt_submit(d.fd, ctx, &c, 0, out);
	if (vt_syncobj_wait_ms(d.fd, out, 60000))
		return 11;
	printf("# dispatch_state_enomem: with 1 MiB of room: %s\n",
	       strerror(-vt_fence_status(d.fd, out)));
	if (vt_fence_status(d.fd, out) != -ENOMEM)
		return 12;
	if (vt_ctx_state(d.fd, ctx).flags)
		return 13;

	cg_write(dir, "memory.max", "max");
	vt_pkt_dispatch(&c, code.va, 0, items, items, 0, 4096);
	vt_submit(d.fd, ctx, &c, 0, out);
	if (vt_syncobj_wait_ms(d.fd, out, 60000) || vt_fence_status(d.fd, out) != 1)
		return 14;
	return 0;
}

/* The DISPATCH state of a memory cgroup at its limit: ENOMEM, nothing else. */
VTEST(dispatch_state_enomem)
{
	/* No limit at first: the child sets one once it is ready. */
	run_in_cgroup("vt-limits-dispatch", 0, dispatch_child);
}

/*
 * Runs in a cgroup of CG_LIMIT: a BO of three times the limit placed in
 * device memory, written whole by the CPU, charges the cgroup nothing,
 * since the segment's pages are the device's (see "Device memory"); the
 * segment's size bounds them instead.  Returns 0, or 10 + the step that
 * went wrong.
 */
static int device_memory_child(const char *dir)
{
	struct vt_dev d = vt_dev_open();
	__u64 size = 3 * CG_LIMIT;
	unsigned long long before, after;
	unsigned char *cpu;
	__u32 h;

	if (d.info.device_mem_size < size)
		return 11;
	before = cg_read(dir, "memory.current");
	if (vt_bo_create_raw(d.fd, size, DRM_VACCEL_BO_DEVICE, &h, NULL))
		return 12;
	cpu = vt_bo_mmap(d.fd, h, size);
	memset(cpu, 0x6b, size);
	after = cg_read(dir, "memory.current");
	printf("# device_memory_uncharged: a %llu MiB device BO charged %llu KiB\n",
	       (unsigned long long)(size / VT_MIB),
	       after > before ? (after - before) >> 10 : 0);
	fflush(stdout);
	if (after > before + 2 * VT_MIB)
		return 13;
	if (cpu[size - 1] != 0x6b)
		return 14;
	munmap(cpu, size);
	vt_gem_close(d.fd, h);
	return 0;
}

/*
 * Device memory is charged to no memory cgroup: a process limited to
 * 24 MiB places and fills a 72 MiB BO there, without ENOMEM or the OOM
 * killer.
 */
VTEST(device_memory_uncharged)
{
	run_in_cgroup("vt-limits-devmem", CG_LIMIT, device_memory_child);
}

VTEST_MAIN()
