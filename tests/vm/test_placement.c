// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_placement.c - memory placement against execution, CPU faults and
 * process exit: the races of the second review of moves and evictions,
 * each opened deterministically with the hold points of debugfs
 * (hold_moves: a queued move waits before the PAGING engine), never by
 * timing.
 *
 * Needs root (debugfs) and a device with device memory.
 */
#include <vaccel.h>

#include <sys/mman.h>

#include "vt_exec.h"
#include "vt_mem.h"
#include "vt_rv.h"

#define PAGES	8
#define SIZE	(PAGES * VT_PAGE)

static void hold_moves(int fd, bool on)
{
	VT_ASSERT_OK(vt_debugfs_write(fd, "hold_moves", on ? "1\n" : "0\n"));
}

/* The times work waited at hold point @name. */
static long long hold_waited(int fd, const char *name)
{
	char *text = vt_debugfs_read(fd, name);
	long long n = vt_kv(text, "waited");

	free(text);
	return n;
}

static __u32 dev_region(const struct vt_dev *d)
{
	return DRM_VACCEL_REGION_DEVICE(d->info.device_index);
}

/* Every byte of @p is @v. */
static bool all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

/*
 * Migrate, then map: a BO nobody touched, moved to device memory while
 * the move waits, is mapped synchronously and asynchronously before the
 * move runs.  Both binds point at the BO's device range, which is zero;
 * the review's four ioctls oopsed on a NULL page array here.
 */
VTEST(map_while_move_of_untouched_bo_waits)
{
	struct vt_dev d = vt_dev_open();
	__u32 h = vt_bo_create(d.fd, SIZE, 0), done = vt_syncobj(d.fd);
	__u32 bound = vt_syncobj(d.fd);
	__u64 va = vt_va_alloc(&d, SIZE), va2 = vt_va_alloc(&d, SIZE);
	long long waited = hold_waited(d.fd, "hold_moves");
	struct drm_vaccel_vm_bind_op op = vt_op_map(h, 0, va2, SIZE, 0);
	struct drm_vaccel_sync sig = { .handle = bound };
	struct drm_vaccel_vm_bind bind = {
		.ops = DRM_VACCEL_OBJ_ARRAY(1, &op),
		.signals = DRM_VACCEL_OBJ_ARRAY(1, &sig),
	};
	unsigned char buf[SIZE];

	hold_moves(d.fd, true);
	VT_ASSERT_OK(vt_migrate_raw(d.fd, h, dev_region(&d), done));
	VT_ASSERT_EQ(hold_waited(d.fd, "hold_moves"), waited + 1);
	VT_ASSERT(!vt_syncobj_signalled(d.fd, done));
	vt_map(d.fd, h, 0, va, SIZE, 0);
	VT_ASSERT_OK(ioctl(d.fd, DRM_IOCTL_VACCEL_VM_BIND, &bind));
	vt_syncobj_wait(d.fd, bound);
	VT_ASSERT_EQ(vt_fence_status(d.fd, bound), 1);
	VT_ASSERT(!vt_syncobj_signalled(d.fd, done));
	hold_moves(d.fd, false);
	vt_syncobj_wait(d.fd, done);
	VT_ASSERT_EQ(vt_fence_status(d.fd, done), 1);
	VT_ASSERT_EQ(vt_bo_region(d.fd, h), dev_region(&d));
	memset(buf, 0xa5, sizeof(buf));
	vt_gpu_read(d.fd, va, buf, SIZE);
	VT_ASSERT(all_bytes(buf, SIZE, 0));
	memset(buf, 0xa5, sizeof(buf));
	vt_gpu_read(d.fd, va2, buf, SIZE);
	VT_ASSERT(all_bytes(buf, SIZE, 0));
	vt_dev_close(&d);
}

/*
 * The file that queued a move closes while the move waits: the close
 * returns at once (it waited, uninterruptibly, for the move before), the
 * move still completes, and the other file that shares the BO finds its
 * data in device memory, through the CPU and the engines.
 */
VTEST(close_never_waits_for_a_move)
{
	struct vt_dev a = vt_dev_open(), b;
	__u32 ha = vt_bo_create(a.fd, SIZE, 0), hb;
	unsigned char *cpu_a = vt_bo_mmap(a.fd, ha, SIZE), *cpu_b;
	unsigned char buf[SIZE];
	__u64 va, t0, ms;
	int dmabuf;

	vt_dev_init(&b, vt_open_index(a.info.device_index));
	memset(cpu_a, 0x5c, SIZE);
	dmabuf = vt_prime_export(a.fd, ha);
	hb = vt_prime_import(b.fd, dmabuf);
	close(dmabuf);
	va = vt_va_alloc(&b, SIZE);
	vt_map(b.fd, hb, 0, va, SIZE, 0);
	munmap(cpu_a, SIZE);

	hold_moves(a.fd, true);
	VT_ASSERT_OK(vt_migrate_raw(a.fd, ha, dev_region(&a), 0));
	t0 = vt_now_ns();
	vt_dev_close(&a);
	ms = (vt_now_ns() - t0) / VT_MS;
	/* The hold lets go by itself after 10 s: far from it. */
	VT_ASSERT(ms < 5000);
	hold_moves(b.fd, false);

	/* The CPU waits for the move, then reads the device's copy. */
	cpu_b = vt_bo_mmap(b.fd, hb, SIZE);
	VT_ASSERT(all_bytes(cpu_b, SIZE, 0x5c));
	VT_ASSERT_EQ(vt_bo_region(b.fd, hb), dev_region(&b));
	vt_gpu_read(b.fd, va, buf, SIZE);
	VT_ASSERT(all_bytes(buf, SIZE, 0x5c));
	munmap(cpu_b, SIZE);
	vt_dev_close(&b);
}

/*
 * BO_MIGRATE's waits hold up its signals, not the move: with a wait on a
 * buffer that sleeps for a second, the move is done (the CPU reads the
 * data in device memory) while its out-syncobj is still unsignalled, and
 * the out-syncobj signals once the buffer has.
 */
VTEST(migrate_waits_gate_the_signals_only)
{
	struct vt_dev d = vt_dev_open();
	__u32 h = vt_bo_create(d.fd, SIZE, 0), slept = vt_syncobj(d.fd);
	__u32 done = vt_syncobj(d.fd);
	__u32 ctx = vt_ctx_create(d.fd, DRM_VACCEL_ENGINE_CLASS_COPY,
				  DRM_VACCEL_ENGINE_ANY);
	unsigned char *cpu = vt_bo_mmap(d.fd, h, SIZE);
	struct drm_vaccel_sync w = { .handle = slept }, s = { .handle = done };
	struct drm_vaccel_bo_migrate m = {
		.handle = h,
		.region = dev_region(&d),
		.waits = DRM_VACCEL_OBJ_ARRAY(1, &w),
		.signals = DRM_VACCEL_OBJ_ARRAY(1, &s),
	};
	struct vt_cmd c = vt_cmd_new(&d, VT_PAGE);

	memset(cpu, 0x3e, SIZE);
	munmap(cpu, SIZE);
	vt_pkt_delay(&c, 1000 * VT_MS);
	vt_submit(d.fd, ctx, &c, 0, slept);
	VT_ASSERT_OK(ioctl(d.fd, DRM_IOCTL_VACCEL_BO_MIGRATE, &m));
	/* A CPU access waits for the move alone. */
	cpu = vt_bo_mmap(d.fd, h, SIZE);
	VT_ASSERT(all_bytes(cpu, SIZE, 0x3e));
	VT_ASSERT(!vt_syncobj_signalled(d.fd, slept));
	VT_ASSERT(!vt_syncobj_signalled(d.fd, done));
	vt_syncobj_wait(d.fd, done);
	VT_ASSERT(vt_syncobj_signalled(d.fd, slept));
	VT_ASSERT_EQ(vt_fence_status(d.fd, done), 1);
	munmap(cpu, SIZE);
	vt_dev_close(&d);
}

/*
 * A CPU fault finds its page from the file offset: after the head of a
 * mapping is unmapped, the rest still maps the pages it mapped, in system
 * memory and in device memory.
 */
VTEST(partial_munmap_keeps_page_offsets)
{
	struct vt_dev d = vt_dev_open();
	__u32 h = vt_bo_create(d.fd, SIZE, 0);
	unsigned char *cpu = vt_bo_mmap(d.fd, h, SIZE), *other;
	unsigned int i;

	for (i = 0; i < PAGES; i++)
		memset(cpu + i * VT_PAGE, 0x10 + i, VT_PAGE);
	munmap(cpu, SIZE);
	other = vt_bo_mmap(d.fd, h, SIZE);
	VT_ASSERT_OK(munmap(other, 2 * VT_PAGE));
	for (i = 2; i < PAGES; i++)
		VT_ASSERT(all_bytes(other + i * VT_PAGE, VT_PAGE, 0x10 + i));
	/* Moved, the mapping is zapped; its faults map the device's pages. */
	vt_migrate(d.fd, h, dev_region(&d));
	for (i = PAGES; i-- > 2;)
		VT_ASSERT(all_bytes(other + i * VT_PAGE, VT_PAGE, 0x10 + i));
	munmap(other + 2 * VT_PAGE, SIZE - 2 * VT_PAGE);
	vt_dev_close(&d);
}

/* Bytes the engines of @fd's device read from system memory, live. */
static long long system_reads(int fd)
{
	char *text = vt_debugfs_read(fd, "engines"), *p = text;
	long long sum = 0, v;

	while ((p = strstr(p, "memory: read local "))) {
		if (sscanf(p, "memory: read local %*u system %lld", &v) == 1)
			sum += v;
		p++;
	}
	free(text);
	return sum;
}

/*
 * The cost model's debt is the buffer's that moved the bytes: a buffer
 * that read 1.5 MiB of system memory at 1 ms per KiB owes 1.5 s, and is
 * preempted while it pays, by a NOP buffer of high priority of another
 * process.  The NOP buffer's engine time stays a NOP's (it once paid what
 * was left of the other's debt), and the first buffer pays the rest when
 * it resumes.  The plan loads the module with cost_system_ns=1000000,
 * dispatch_slice=1048576 and compute_units=1.
 */
VTEST_NAMED(cost_debt_stays_with_its_buffer)
{
	/* a1 = src, a2 = bytes; loads 8 bytes at a time; returns. */
	static const __u32 k[] = {
		LD(A1, A0, 0), LD(A2, A0, 8),
		LD(T0, A1, 0), ADDI(A1, A1, 8), ADDI(A2, A2, -8), BNE(A2, ZERO, -12),
		RET,
	};
	const __u64 bytes = 1536 * VT_KIB;
	struct vt_dev a = vt_dev_open(), b;
	struct vt_bo code = vt_bo_new(&a, VT_PAGE), args = vt_bo_new(&a, VT_PAGE);
	struct vt_bo src = vt_bo_new(&a, bytes);
	struct vt_cmd ca = vt_cmd_new(&a, VT_PAGE), cb;
	__u32 one[3] = { 1, 1, 1 }, ctx_a, ctx_b, out_a, out_b;
	long long reads, busy_b, busy_a;
	int i;

	VT_ASSERT_EQ(vt_param("cost_system_ns"), 1000000);
	vt_dev_init(&b, vt_open_index(a.info.device_index));
	memcpy(code.cpu, k, sizeof(k));
	((__u64 *)args.cpu)[0] = src.va;
	((__u64 *)args.cpu)[1] = bytes;
	ctx_a = vt_ctx_create(a.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE, 0);
	out_a = vt_syncobj(a.fd);
	vt_pkt_dispatch(&ca, code.va, args.va, one, one, 0, 256);
	reads = system_reads(a.fd);
	vt_submit(a.fd, ctx_a, &ca, 0, out_a);
	/* Its loads are done: it pays for them, asleep, for 1.5 s. */
	for (i = 0; i < 6000 && system_reads(a.fd) < reads + (long long)bytes; i++)
		vt_sleep_ms(10);
	VT_ASSERT(system_reads(a.fd) >= reads + (long long)bytes);
	VT_ASSERT(!vt_syncobj_signalled(a.fd, out_a));

	cb = vt_cmd_new(&b, VT_PAGE);
	ctx_b = vt_ctx_create_prio(b.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE, 0,
				   DRM_VACCEL_PRIORITY_HIGH);
	out_b = vt_syncobj(b.fd);
	vt_pkt_nop(&cb, 1);
	vt_submit(b.fd, ctx_b, &cb, 0, out_b);
	VT_ASSERT_EQ(vt_wait_status(b.fd, out_b), 1);
	busy_b = vt_fdinfo_kv(b.fd, "drm-engine-compute");
	VT_ASSERT_EQ(vt_wait_status(a.fd, out_a), 1);
	busy_a = vt_fdinfo_kv(a.fd, "drm-engine-compute");
	printf("# cost_debt: the preempting NOP buffer ran %lld us, the reader %lld ms\n",
	       busy_b / 1000, busy_a / 1000000);
	VT_ASSERT(busy_b < 300 * (long long)VT_MS);
	/* The reader paid its 1.5 s, before and after the preemption. */
	VT_ASSERT(busy_a >= 1400 * (long long)VT_MS);
	vt_dev_close(&b);
	vt_dev_close(&a);
}

/* The hold points refuse what is not a boolean, and report their state. */
VTEST(hold_points_in_debugfs)
{
	struct vt_dev d = vt_dev_open();
	char *text;

	VT_ASSERT_EQ(vt_debugfs_write(d.fd, "hold_moves", "maybe\n"), -EINVAL);
	VT_ASSERT_OK(vt_debugfs_write(d.fd, "hold_teardown", "1\n"));
	text = vt_debugfs_read(d.fd, "hold_teardown");
	VT_ASSERT_EQ(vt_kv(text, "held"), 1);
	free(text);
	VT_ASSERT_OK(vt_debugfs_write(d.fd, "hold_teardown", "0\n"));
	text = vt_debugfs_read(d.fd, "hold_teardown");
	VT_ASSERT_EQ(vt_kv(text, "held"), 0);
	free(text);
	vt_dev_close(&d);
}

VTEST_MAIN()
