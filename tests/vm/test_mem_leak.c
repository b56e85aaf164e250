// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_mem_leak.c - nothing stays behind.  Each case measures, before and
 * after a workload, the device's counters in debugfs (accel/<dev>/memory:
 * bo_count, bo_bytes, vms, pt_pages) and the Shmem line of /proc/meminfo,
 * where BO pages live.  After the workload the counters must equal the
 * baseline exactly and Shmem must be back within SHMEM_SLACK_KB; both are
 * polled for up to SETTLE_MS, since a process's files are released as it
 * exits.  Each workload also checks that the counters did grow while it
 * held memory, so that a test that measures nothing cannot pass.
 *
 * The workloads: a process that creates 64 MiB of BOs, maps them on the GPU
 * and the CPU, touches them, exports some, closes some handles while they
 * are still mapped, and exits (or is killed) without freeing anything; the
 * same with libvaccel; libvaccel freeing properly; a dma-buf outliving its
 * process; and repeated create/map/free cycles in one file.
 *
 * Needs root (debugfs); any topology with a VA space of 1 GiB or more.
 */
#include <signal.h>

#include <vaccel.h>

#include "vt_mem.h"

#define LEAK_BOS	16
#define LEAK_BO_SIZE	(4 * VT_MIB)		/* 64 MiB together */
#define LEAK_TOTAL	(LEAK_BOS * LEAK_BO_SIZE)
#define SHMEM_SLACK_KB	1024
#define SETTLE_MS	5000

struct baseline {
	char dir[VT_DIR_MAX];
	struct vt_dev_mem mem;
	long long shmem_kb;
};

static void baseline_take(struct baseline *b)
{
	vt_debugfs_dir_index(0, b->dir, sizeof(b->dir));
	vt_dev_mem_dir(b->dir, &b->mem);
	b->shmem_kb = vt_meminfo_kb("Shmem");
}

/* Waits for the counters to return to @b exactly and Shmem to about it. */
static void baseline_expect(const struct baseline *b)
{
	struct vt_dev_mem m;
	long long shmem;
	int waited;

	for (waited = 0;; waited += 20) {
		vt_dev_mem_dir(b->dir, &m);
		shmem = vt_meminfo_kb("Shmem");
		if (vt_dev_mem_equal(&m, &b->mem) &&
		    llabs(shmem - b->shmem_kb) <= SHMEM_SLACK_KB)
			break;
		if (waited >= SETTLE_MS)
			vtest_fail(__FILE__, __LINE__,
				   "after %d ms: bo_count %lld (was %lld), bo_bytes %lld (%lld), "
				   "vms %lld (%lld), pt_pages %lld (%lld), Shmem %lld kB (%lld kB)",
				   waited, m.bo_count, b->mem.bo_count, m.bo_bytes,
				   b->mem.bo_bytes, m.vms, b->mem.vms, m.pt_pages,
				   b->mem.pt_pages, shmem, b->shmem_kb);
		usleep(20000);
	}
}

/* While a workload holds memory: the counters show it. */
static void expect_grown(const struct baseline *b, long long bos, long long bytes,
			 long long vms)
{
	struct vt_dev_mem m;

	vt_dev_mem_dir(b->dir, &m);
	VT_ASSERT_EQ(m.bo_count, b->mem.bo_count + bos);
	VT_ASSERT_EQ(m.bo_bytes, b->mem.bo_bytes + bytes);
	VT_ASSERT_EQ(m.vms, b->mem.vms + vms);
	VT_ASSERT(m.pt_pages > b->mem.pt_pages);
	VT_ASSERT(vt_meminfo_kb("Shmem") >= b->shmem_kb + bytes / 1024 - SHMEM_SLACK_KB);
}

static __u64 base_va(int fd)
{
	struct drm_vaccel_device_info info;

	vt_device_info(fd, &info);
	VT_ASSERT(info.va_end - info.va_start >= VT_GIB);
	return ((info.va_start + VT_MIB - 1) & ~(VT_MIB - 1)) + VT_MIB;
}

/*
 * The raw workload: 64 MiB of BOs mapped twice over, touched, partly
 * exported, partly closed, plus a second file importing one of them.
 * Returns with everything held.
 */
static void raw_workload(const struct baseline *b)
{
	int fd = vt_open_first(), fd2 = vt_open_first(), dmabuf[4];
	__u64 va = base_va(fd);
	unsigned char *cpu;
	__u32 h[LEAK_BOS], h2;
	unsigned int i;

	for (i = 0; i < LEAK_BOS; i++) {
		h[i] = vt_bo_create(fd, LEAK_BO_SIZE, 0);
		vt_map(fd, h[i], 0, va + i * LEAK_BO_SIZE, LEAK_BO_SIZE,
		       i % 2 ? DRM_VACCEL_VM_BIND_READ_ONLY : 0);
		cpu = vt_bo_mmap(fd, h[i], LEAK_BO_SIZE);
		memset(cpu, i + 1, LEAK_BO_SIZE);
	}
	/* Two of them mapped a second time, in part. */
	vt_map(fd, h[0], VT_MIB, va + 512 * VT_MIB, VT_MIB, 0);
	vt_map(fd, h[1], 0, va + 520 * VT_MIB, LEAK_BO_SIZE, 0);
	for (i = 0; i < 4; i++)
		dmabuf[i] = vt_prime_export(fd, h[2 + i]);
	/* Handles closed while still mapped on the GPU and the CPU. */
	for (i = 6; i < 10; i++)
		vt_gem_close(fd, h[i]);
	/* Another file imports one of them and maps it. */
	h2 = vt_prime_import(fd2, dmabuf[0]);
	vt_map(fd2, h2, 0, va, LEAK_BO_SIZE, 0);

	expect_grown(b, LEAK_BOS, LEAK_TOTAL, 2);
}

/* A process with 64 MiB in BOs exits without freeing anything. */
VTEST(raw_exit_without_freeing)
{
	struct baseline b;
	pid_t pid;

	baseline_take(&b);
	pid = fork();
	if (pid == 0) {
		raw_workload(&b);
		_exit(0);
	}
	vt_wait_child(pid);
	baseline_expect(&b);
}

/* The same process killed by SIGKILL while it holds everything. */
VTEST(raw_killed)
{
	struct baseline b;
	int pipefd[2], status;
	char c;
	pid_t pid;

	baseline_take(&b);
	VT_ASSERT_EQ(pipe(pipefd), 0);
	pid = fork();
	if (pid == 0) {
		raw_workload(&b);
		VT_ASSERT_EQ(write(pipefd[1], "r", 1), 1);
		for (;;)
			pause();
	}
	close(pipefd[1]);
	VT_ASSERT_EQ(read(pipefd[0], &c, 1), 1);
	VT_ASSERT_EQ(kill(pid, SIGKILL), 0);
	VT_ASSERT_EQ(waitpid(pid, &status, 0), pid);
	VT_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	baseline_expect(&b);
}

/*
 * libvaccel: 64 MiB of buffers, mapped and touched, exported, re-imported
 * by the same and by another device handle, then all freed: the VM is
 * empty again before the device is closed, and everything is back after.
 */
VTEST(libvaccel_free_properly)
{
	struct vaccel_device *dev, *dev2;
	struct vaccel_bo *bo[LEAK_BOS], *again, *other;
	struct vaccel_vm_stats empty, s;
	struct baseline b;
	unsigned int i;
	int dmabuf;
	void *p;

	baseline_take(&b);
	VT_ASSERT_OK(vaccel_device_open(0, &dev));
	VT_ASSERT_OK(vaccel_device_open(0, &dev2));
	VT_ASSERT_OK(vaccel_device_vm_stats(dev, &empty));
	for (i = 0; i < LEAK_BOS; i++) {
		VT_ASSERT_OK(vaccel_bo_alloc(dev, LEAK_BO_SIZE,
					     i % 3 == 2 ? VACCEL_BO_GPU_NO_EXEC : 0, &bo[i]));
		VT_ASSERT_OK(vaccel_bo_map(bo[i], &p));
		memset(p, i + 1, LEAK_BO_SIZE);
	}
	VT_ASSERT_OK(vaccel_bo_export(bo[3], &dmabuf));
	VT_ASSERT_OK(vaccel_bo_import(dev, dmabuf, &again));
	VT_ASSERT(again == bo[3]);
	VT_ASSERT_OK(vaccel_bo_import(dev2, dmabuf, &other));
	VT_ASSERT_OK(vaccel_bo_map(other, &p));
	close(dmabuf);
	expect_grown(&b, LEAK_BOS, LEAK_TOTAL, 2);

	vaccel_bo_free(other);
	vaccel_device_close(dev2);
	vaccel_bo_free(again);
	for (i = 0; i < LEAK_BOS; i++)
		vaccel_bo_free(bo[LEAK_BOS - 1 - i]);
	VT_ASSERT_OK(vaccel_device_vm_stats(dev, &s));
	VT_ASSERT(s.mappings == 0 && s.mapped_bytes == 0);
	VT_ASSERT(s.pt_pages == empty.pt_pages);
	vaccel_device_close(dev);
	baseline_expect(&b);
}

/* libvaccel in a process that exits without freeing or closing. */
VTEST(libvaccel_exit_without_freeing)
{
	struct baseline b;
	pid_t pid;

	baseline_take(&b);
	pid = fork();
	if (pid == 0) {
		struct vaccel_device *dev;
		struct vaccel_bo *bo;
		unsigned int i;
		int dmabuf;
		void *p;

		VT_ASSERT_OK(vaccel_device_open(0, &dev));
		for (i = 0; i < LEAK_BOS; i++) {
			VT_ASSERT_OK(vaccel_bo_alloc(dev, LEAK_BO_SIZE, 0, &bo));
			VT_ASSERT_OK(vaccel_bo_map(bo, &p));
			memset(p, 0x5a, LEAK_BO_SIZE);
			if (i % 4 == 0)
				VT_ASSERT_OK(vaccel_bo_export(bo, &dmabuf));
		}
		expect_grown(&b, LEAK_BOS, LEAK_TOTAL, 1);
		_exit(0);
	}
	vt_wait_child(pid);
	baseline_expect(&b);
}

/* A dma-buf keeps its BO after the process that made it is gone. */
VTEST(dmabuf_outlives_process)
{
	struct baseline b;
	struct vt_dev_mem m;
	int sv[2], dmabuf;
	pid_t pid;

	baseline_take(&b);
	VT_ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	pid = fork();
	if (pid == 0) {
		int fd = vt_open_first();
		__u32 h = vt_bo_create(fd, 16 * VT_MIB, 0);

		memset(vt_bo_mmap(fd, h, 16 * VT_MIB), 0x77, 16 * VT_MIB);
		vt_map(fd, h, 0, base_va(fd), 16 * VT_MIB, 0);
		vt_send_fd(sv[1], vt_prime_export(fd, h));
		_exit(0);
	}
	close(sv[1]);
	dmabuf = vt_recv_fd(sv[0]);
	vt_wait_child(pid);

	/* The file and its VM are gone; the BO and its pages are not. */
	vt_dev_mem_dir(b.dir, &m);
	VT_ASSERT_EQ(m.bo_count, b.mem.bo_count + 1);
	VT_ASSERT_EQ(m.bo_bytes, b.mem.bo_bytes + 16 * (long long)VT_MIB);
	VT_ASSERT_EQ(m.vms, b.mem.vms);
	VT_ASSERT_EQ(m.pt_pages, b.mem.pt_pages);
	VT_ASSERT(vt_meminfo_kb("Shmem") >= b.shmem_kb + 16 * 1024 - SHMEM_SLACK_KB);

	close(dmabuf);
	baseline_expect(&b);
}

/* Every VA window (c % 4) and every order of freeing ((i + c) % 8) twice. */
#define CYCLES		16
#define CYCLE_BOS	8

/* Create, map, touch and free, many times over in one file: no drift. */
VTEST(repeated_cycles)
{
	struct baseline b, open_b;
	struct drm_vaccel_vm_stats empty, s;
	struct vt_dev_mem m;
	unsigned char *cpu[CYCLE_BOS];
	__u32 h[CYCLE_BOS];
	unsigned int c, i;
	int fd;
	__u64 va;

	baseline_take(&b);
	fd = vt_open_first();
	va = base_va(fd);
	vt_vm_stats(fd, &empty);
	vt_dev_mem_dir(b.dir, &open_b.mem);
	for (c = 0; c < CYCLES; c++) {
		for (i = 0; i < CYCLE_BOS; i++) {
			h[i] = vt_bo_create(fd, VT_MIB, 0);
			cpu[i] = vt_bo_mmap(fd, h[i], VT_MIB);
			memset(cpu[i], c, VT_MIB);
			vt_map(fd, h[i], 0, va + (c % 4) * 64 * VT_MIB + i * VT_MIB, VT_MIB, 0);
		}
		/* Unmap everything at once, then free in another order. */
		vt_unmap(fd, va, 256 * VT_MIB);
		for (i = 0; i < CYCLE_BOS; i++) {
			VT_ASSERT_EQ(munmap(cpu[(i + c) % CYCLE_BOS], VT_MIB), 0);
			vt_gem_close(fd, h[(i + c) % CYCLE_BOS]);
		}
		vt_vm_stats(fd, &s);
		VT_ASSERT_STATS_EQ(&s, &empty);
		vt_dev_mem_dir(b.dir, &m);
		if (!vt_dev_mem_equal(&m, &open_b.mem))
			vtest_fail(__FILE__, __LINE__,
				   "cycle %u: bo_count %lld, bo_bytes %lld, pt_pages %lld", c,
				   m.bo_count, m.bo_bytes, m.pt_pages);
	}
	close(fd);
	baseline_expect(&b);
}

VTEST_MAIN()
