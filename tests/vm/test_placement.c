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

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "vt_exec.h"
#include "vt_mem.h"
#include "vt_module.h"
#include "vt_rv.h"

#define PAGES	8
#define SIZE	(PAGES * VT_PAGE)

static void hold_moves(int fd, bool on)
{
	vt_hold(fd, "hold_moves", on);
}

static __u32 dev_region(const struct vt_dev *d)
{
	return DRM_VACCEL_REGION_DEVICE(d->info.device_index);
}

/* The @pages entries from @va of @fd's VM point into the segment of @info. */
static bool ptes_in_segment(int fd, __u64 va, size_t pages,
			    const struct drm_vaccel_device_info *info)
{
	struct vt_pte *t;
	size_t n = vt_page_table(fd, &t), i;
	bool ok = true;

	for (i = 0; i < pages; i++) {
		__u64 pte = vt_pte_find(t, n, va + i * VT_PAGE);
		__u64 addr = pte & DRM_VACCEL_PTE_ADDR_MASK;

		ok = ok && (pte & DRM_VACCEL_PTE_VALID) && (pte & DRM_VACCEL_PTE_DEVICE) &&
		     addr >= info->device_mem_base &&
		     addr < info->device_mem_base + info->device_mem_size;
	}
	free(t);
	return ok;
}

/* No entry of the @pages from @va of @fd's VM is valid. */
static bool ptes_unmapped(int fd, __u64 va, size_t pages)
{
	struct vt_pte *t;
	size_t n = vt_page_table(fd, &t), i;
	bool ok = true;

	for (i = 0; i < pages; i++)
		ok = ok && !(vt_pte_find(t, n, va + i * VT_PAGE) & DRM_VACCEL_PTE_VALID);
	free(t);
	return ok;
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
	long long waited = vt_hold_waited(d.fd, "hold_moves");
	struct drm_vaccel_vm_bind_op op = vt_op_map(h, 0, va2, SIZE, 0);
	struct drm_vaccel_sync sig = { .handle = bound };
	struct drm_vaccel_vm_bind bind = {
		.ops = DRM_VACCEL_OBJ_ARRAY(1, &op),
		.signals = DRM_VACCEL_OBJ_ARRAY(1, &sig),
	};
	unsigned char buf[SIZE];

	hold_moves(d.fd, true);
	VT_ASSERT_OK(vt_migrate_raw(d.fd, h, dev_region(&d), done));
	VT_ASSERT_EQ(vt_hold_waited(d.fd, "hold_moves"), waited + 1);
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

/*
 * Binds against a move's page-table switch: the move has copied a BO into
 * device memory and waits on the PAGING engine, before its switch
 * (hold_switch).  Right then, one VM maps the BO at a second address, and
 * unmaps a third; a second file's VM asks for an asynchronous map, which
 * queues behind the move.  After the switch every mapping points at the
 * device's copy, the rewritten one included (a write through it is what
 * the CPU reads), and the unmapped range stays unmapped.
 */
VTEST(bind_racing_the_switch)
{
	struct vt_dev a = vt_dev_open(), b;
	__u32 ha = vt_bo_create(a.fd, SIZE, 0), hb, done = vt_syncobj(a.fd);
	__u64 va1 = vt_va_alloc(&a, SIZE), va2 = vt_va_alloc(&a, SIZE);
	__u64 va3 = vt_va_alloc(&a, SIZE), vb;
	unsigned char *cpu = vt_bo_mmap(a.fd, ha, SIZE), want[SIZE], buf[SIZE];
	__u32 bound, ctx = vt_ctx_create(a.fd, DRM_VACCEL_ENGINE_CLASS_COPY,
					 DRM_VACCEL_ENGINE_ANY);
	struct vt_cmd c = vt_cmd_new(&a, VT_PAGE);
	struct drm_vaccel_vm_bind_op op;
	struct drm_vaccel_sync sig;
	struct drm_vaccel_vm_bind bind = {};
	long long held = vt_hold_waited(a.fd, "hold_switch");
	int dmabuf;

	vt_dev_init(&b, vt_open_index(a.info.device_index));
	vt_fill_pages(cpu, PAGES, 7);
	memcpy(want, cpu, SIZE);
	munmap(cpu, SIZE);
	vt_map(a.fd, ha, 0, va1, SIZE, 0);
	vt_map(a.fd, ha, 0, va3, SIZE, 0);
	dmabuf = vt_prime_export(a.fd, ha);
	hb = vt_prime_import(b.fd, dmabuf);
	close(dmabuf);
	vb = vt_va_alloc(&b, SIZE);
	bound = vt_syncobj(b.fd);
	op = vt_op_map(hb, 0, vb, SIZE, 0);
	sig = (struct drm_vaccel_sync){ .handle = bound };
	bind.ops = (struct drm_vaccel_obj_array)DRM_VACCEL_OBJ_ARRAY(1, &op);
	bind.signals = (struct drm_vaccel_obj_array)DRM_VACCEL_OBJ_ARRAY(1, &sig);

	vt_hold(a.fd, "hold_switch", true);
	VT_ASSERT_OK(vt_migrate_raw(a.fd, ha, dev_region(&a), done));
	vt_hold_reached(a.fd, "hold_switch", held);
	VT_ASSERT(!vt_syncobj_signalled(a.fd, done));
	vt_map(a.fd, ha, 0, va2, SIZE, 0);
	vt_unmap(a.fd, va3, SIZE);
	VT_ASSERT_OK(ioctl(b.fd, DRM_IOCTL_VACCEL_VM_BIND, &bind));
	VT_ASSERT(!vt_syncobj_signalled(a.fd, done));
	vt_hold(a.fd, "hold_switch", false);

	VT_ASSERT_EQ(vt_wait_status(a.fd, done), 1);
	VT_ASSERT_EQ(vt_wait_status(b.fd, bound), 1);
	VT_ASSERT_EQ(vt_bo_region(a.fd, ha), dev_region(&a));
	VT_ASSERT(ptes_in_segment(a.fd, va1, PAGES, &a.info));
	VT_ASSERT(ptes_in_segment(a.fd, va2, PAGES, &a.info));
	VT_ASSERT(ptes_in_segment(b.fd, vb, PAGES, &a.info));
	VT_ASSERT(ptes_unmapped(a.fd, va3, PAGES));
	vt_gpu_read(a.fd, va2, buf, SIZE);
	VT_ASSERT(!memcmp(buf, want, SIZE));
	vt_gpu_read(b.fd, vb, buf, SIZE);
	VT_ASSERT(!memcmp(buf, want, SIZE));

	/* A write through the address bound during the hold lands in the copy. */
	vt_pkt_fill(&c, va2, SIZE, 0x6b6b6b6b);
	vt_run(a.fd, ctx, &c);
	cpu = vt_bo_mmap(a.fd, ha, SIZE);
	VT_ASSERT(all_bytes(cpu, SIZE, 0x6b));
	munmap(cpu, SIZE);
	vt_dev_close(&b);
	vt_dev_close(&a);
}

struct touch_call {
	volatile unsigned char *p;
	size_t size;
	unsigned int sum;
	int done;
};

static void *touch_thread(void *arg)
{
	struct touch_call *t = arg;
	size_t i;

	for (i = 0; i < t->size; i += VT_PAGE)
		t->sum += t->p[i];
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * A CPU fault against a move: the BO's mapping is zapped when the move is
 * queued; while the move waits before its switch (hold_switch), a thread
 * that reads the mapping waits in its fault, and a child that does the
 * same dies at once of SIGKILL.  Once the switch is done the thread reads
 * the data, now the device's, and a CPU write lands where the engines
 * read it.
 */
VTEST(cpu_fault_during_a_move)
{
	struct vt_dev d = vt_dev_open();
	__u32 h = vt_bo_create(d.fd, SIZE, 0), done = vt_syncobj(d.fd);
	unsigned char *cpu = vt_bo_mmap(d.fd, h, SIZE), buf[SIZE];
	struct touch_call t = { .size = SIZE };
	long long held = vt_hold_waited(d.fd, "hold_switch");
	unsigned int i, want = 0;
	__u64 va = vt_va_alloc(&d, SIZE);
	int status;
	pthread_t th;
	pid_t pid;

	for (i = 0; i < PAGES; i++) {
		memset(cpu + i * VT_PAGE, 0x21 + i, VT_PAGE);
		want += 0x21 + i;
	}
	vt_map(d.fd, h, 0, va, SIZE, 0);
	t.p = cpu;
	vt_hold(d.fd, "hold_switch", true);
	VT_ASSERT_OK(vt_migrate_raw(d.fd, h, dev_region(&d), done));
	vt_hold_reached(d.fd, "hold_switch", held);

	pid = fork();
	VT_ASSERT(pid >= 0);
	if (!pid)
		_exit(cpu[VT_PAGE] == 0x22 ? 0 : 1);
	VT_ASSERT_OK(pthread_create(&th, NULL, touch_thread, &t));
	vt_sleep_ms(200);
	VT_ASSERT(!__atomic_load_n(&t.done, __ATOMIC_ACQUIRE));
	VT_ASSERT_OK(kill(pid, SIGKILL));
	VT_ASSERT_EQ(waitpid(pid, &status, 0), pid);
	VT_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	VT_ASSERT(!vt_syncobj_signalled(d.fd, done));
	vt_hold(d.fd, "hold_switch", false);

	VT_ASSERT_OK(pthread_join(th, NULL));
	VT_ASSERT_EQ(t.sum, want);
	VT_ASSERT_EQ(vt_wait_status(d.fd, done), 1);
	VT_ASSERT_EQ(vt_bo_region(d.fd, h), dev_region(&d));
	memset(cpu + 3 * VT_PAGE, 0x5a, VT_PAGE);
	vt_gpu_read(d.fd, va, buf, SIZE);
	VT_ASSERT(all_bytes(buf + 3 * VT_PAGE, VT_PAGE, 0x5a));
	VT_ASSERT(all_bytes(buf + 4 * VT_PAGE, VT_PAGE, 0x25));
	munmap(cpu, SIZE);
	vt_dev_close(&d);
}

struct migrate_call {
	int fd;
	__u32 handle;
	__u32 region;
	__u32 out;
	int ret;
	int returned;	/* the ioctl returned */
};

static void *migrate_thread(void *arg)
{
	struct migrate_call *m = arg;

	m->ret = vt_migrate_raw(m->fd, m->handle, m->region, m->out);
	__atomic_store_n(&m->returned, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Eviction of a BO an engine is reading: a buffer copies 64 KiB of a
 * device BO that fills most of the 16 MiB segment, then waits for a flag
 * the CPU sets, then copies them again.  While it waits, on the engine, a
 * BO_MIGRATE needs the room and evicts the first BO.  The eviction waits
 * for the buffer: both copies read the BO's data, and the BO lands in
 * system memory whole; the VM's next buffer brings it back.
 */
VTEST(eviction_of_a_bo_being_read)
{
	const __u64 big = 12 * VT_MIB, other = 8 * VT_MIB, part = 64 * VT_KIB;
	struct vt_dev d = vt_dev_open();
	struct vt_bo flag = vt_bo_new(&d, VT_PAGE), s1 = vt_bo_new(&d, part);
	struct vt_bo s2 = vt_bo_new(&d, part);
	struct vt_cmd c = vt_cmd_new(&d, VT_PAGE);
	__u32 ha, hb, read_out = vt_syncobj(d.fd);
	__u32 ctx = vt_ctx_create(d.fd, DRM_VACCEL_ENGINE_CLASS_COPY,
				  DRM_VACCEL_ENGINE_ANY);
	struct migrate_call m = { .fd = d.fd, .region = dev_region(&d) };
	unsigned char *cpu, *want = malloc(big);
	struct drm_vaccel_bo_info info;
	pthread_t t;
	__u64 va;

	VT_ASSERT(want);
	VT_ASSERT(d.info.device_mem_size == 16 * VT_MIB);
	ha = vt_bo_create(d.fd, big, DRM_VACCEL_BO_DEVICE);
	cpu = vt_bo_mmap(d.fd, ha, big);
	vt_fill_pages(cpu, big / VT_PAGE, 11);
	memcpy(want, cpu, big);
	munmap(cpu, big);
	va = vt_va_alloc(&d, big);
	vt_map(d.fd, ha, 0, va, big, 0);
	hb = vt_bo_create(d.fd, other, 0);

	vt_pkt_copy(&c, va, s1.va, part);
	vt_pkt_write32(&c, flag.va + 4, 1);
	vt_pkt_wait_eq32(&c, flag.va, 1);
	vt_pkt_copy(&c, va, s2.va, part);
	vt_submit(d.fd, ctx, &c, 0, read_out);
	VT_ASSERT(vt_poll_u32(VT_U32P(&flag, 4), 1, VT_TIMEOUT_MS));

	m.handle = hb;
	m.out = vt_syncobj(d.fd);
	VT_ASSERT_OK(pthread_create(&t, NULL, migrate_thread, &m));
	vt_sleep_ms(200);
	VT_ASSERT(!vt_syncobj_signalled(d.fd, read_out));
	/* Waiting for the room, in the ioctl or in its fence. */
	VT_ASSERT(!__atomic_load_n(&m.returned, __ATOMIC_ACQUIRE) ||
		  !vt_syncobj_signalled(d.fd, m.out));
	*VT_U32P(&flag, 0) = 1;
	VT_ASSERT_EQ(vt_wait_status(d.fd, read_out), 1);
	VT_ASSERT_OK(pthread_join(t, NULL));
	VT_ASSERT_OK(m.ret);
	VT_ASSERT_EQ(vt_wait_status(d.fd, m.out), 1);

	VT_ASSERT(!memcmp(s1.cpu, want, part));
	VT_ASSERT(!memcmp(s2.cpu, want, part));
	vt_bo_info(d.fd, ha, &info);
	VT_ASSERT_EQ(info.region, DRM_VACCEL_REGION_SYSTEM);
	VT_ASSERT_EQ(info.evictions, 1);
	VT_ASSERT_EQ(vt_bo_region(d.fd, hb), dev_region(&d));
	cpu = vt_bo_mmap(d.fd, ha, big);
	VT_ASSERT(!memcmp(cpu, want, big));
	munmap(cpu, big);
	/* The VM's next buffer brings it back, evicting the other. */
	vt_gpu_read(d.fd, va + big - part, s1.cpu, part);
	VT_ASSERT(!memcmp(s1.cpu, want + big - part, part));
	VT_ASSERT_EQ(vt_bo_region(d.fd, ha), dev_region(&d));
	VT_ASSERT_EQ(vt_bo_region(d.fd, hb), DRM_VACCEL_REGION_SYSTEM);
	free(want);
	vt_dev_close(&d);
}

struct create_call {
	int fd;
	__u64 size;
	__u32 handle;
	int ret;
};

static void *create_thread(void *arg)
{
	struct create_call *c = arg;

	c->ret = vt_bo_create_raw(c->fd, c->size, DRM_VACCEL_BO_DEVICE, &c->handle,
				  NULL);
	return NULL;
}

static long long pooled_bytes(int fd)
{
	char *text = vt_debugfs_read(fd, "memory");
	long long n = vt_kv(text, "device_mem_pooled");

	free(text);
	return n;
}

/*
 * The device-memory shrinker against an allocation: a BO of device memory
 * is being created, with its addresses but not yet the host pages behind
 * them (hold_alloc), when the host asks the shrinker for memory and it
 * frees the pooled pages at those addresses.  The allocation goes on with
 * fresh pages: the BO reads zero, through the CPU and the engines, never
 * the data the pooled pages held; closed, its pages are pooled again.
 */
VTEST(shrinker_against_allocation)
{
	const __u64 size = 4 * VT_MIB;
	struct vt_dev d = vt_dev_open();
	struct create_call c = { .fd = d.fd, .size = size };
	long long held = vt_hold_waited(d.fd, "hold_alloc");
	unsigned char *cpu, *buf = malloc(size);
	struct vt_dev_mem m0, m1;
	pthread_t t;
	__u32 h;
	__u64 va;

	VT_ASSERT(buf);
	vt_dev_mem(d.fd, &m0);
	h = vt_bo_create(d.fd, size, DRM_VACCEL_BO_DEVICE);
	cpu = vt_bo_mmap(d.fd, h, size);
	memset(cpu, 0x77, size);
	munmap(cpu, size);
	vt_gem_close(d.fd, h);
	VT_ASSERT(pooled_bytes(d.fd) >= (long long)size);

	vt_hold(d.fd, "hold_alloc", true);
	VT_ASSERT_OK(pthread_create(&t, NULL, create_thread, &c));
	vt_hold_reached(d.fd, "hold_alloc", held);
	VT_ASSERT_OK(vt_write_str("/proc/sys/vm/drop_caches", "2"));
	VT_ASSERT_EQ(pooled_bytes(d.fd), 0);
	vt_hold(d.fd, "hold_alloc", false);
	VT_ASSERT_OK(pthread_join(t, NULL));
	VT_ASSERT_OK(c.ret);

	VT_ASSERT_EQ(vt_bo_region(d.fd, c.handle), dev_region(&d));
	cpu = vt_bo_mmap(d.fd, c.handle, size);
	VT_ASSERT(all_bytes(cpu, size, 0));
	munmap(cpu, size);
	va = vt_va_alloc(&d, size);
	vt_map(d.fd, c.handle, 0, va, size, 0);
	memset(buf, 0x77, size);
	vt_gpu_read(d.fd, va, buf, size);
	VT_ASSERT(all_bytes(buf, size, 0));
	vt_unmap(d.fd, va, size);
	vt_gem_close(d.fd, c.handle);
	VT_ASSERT(pooled_bytes(d.fd) >= (long long)size);
	vt_dev_mem(d.fd, &m1);
	VT_ASSERT_EQ(m1.bo_count, m0.bo_count);
	VT_ASSERT_EQ(m1.bo_bytes, m0.bo_bytes);
	free(buf);
	vt_dev_close(&d);
}

/*
 * A process that shares a BO is killed while its move waits for another
 * process's work: this process maps the BO and runs fifty 100 ms buffers
 * (each within the hang timeout); the child imports the BO, migrates it to
 * device memory, and is SIGKILLed.  It is gone while the last buffer still
 * runs: its exit waits for nobody's work.  The move completes on its own,
 * after the buffers, and this process finds the data in device memory.
 */
VTEST(killed_sharer_with_a_waiting_move)
{
	struct vt_dev d = vt_dev_open();
	__u32 h = vt_bo_create(d.fd, SIZE, 0), last = vt_syncobj(d.fd);
	__u32 ctx = vt_ctx_create(d.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE,
				  DRM_VACCEL_ENGINE_ANY);
	unsigned char *cpu = vt_bo_mmap(d.fd, h, SIZE), want[SIZE], buf[SIZE];
	struct vt_cmd c = vt_cmd_new(&d, 64 * VT_KIB);
	__u64 va = vt_va_alloc(&d, SIZE);
	int dmabuf, sync[2], status, i;
	char byte;
	pid_t pid;

	vt_fill_pages(cpu, PAGES, 23);
	memcpy(want, cpu, SIZE);
	munmap(cpu, SIZE);
	vt_map(d.fd, h, 0, va, SIZE, 0);
	for (i = 0; i < 50; i++) {
		vt_pkt_delay(&c, 100 * VT_MS);
		vt_submit(d.fd, ctx, &c, 0, i == 49 ? last : 0);
	}
	dmabuf = vt_prime_export(d.fd, h);
	VT_ASSERT_OK(pipe(sync));
	pid = fork();
	VT_ASSERT(pid >= 0);
	if (!pid) {
		int fd = vt_open_index(d.info.device_index);
		__u32 mine = vt_prime_import(fd, dmabuf);

		if (vt_migrate_raw(fd, mine, dev_region(&d), 0))
			_exit(1);
		if (write(sync[1], "m", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(dmabuf);
	close(sync[1]);
	VT_ASSERT_EQ(read(sync[0], &byte, 1), 1);
	VT_ASSERT_OK(kill(pid, SIGKILL));
	VT_ASSERT_EQ(waitpid(pid, &status, 0), pid);
	VT_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	VT_ASSERT(!vt_syncobj_signalled(d.fd, last));
	close(sync[0]);

	/* The CPU waits for the move, which waited for the buffers. */
	cpu = vt_bo_mmap(d.fd, h, SIZE);
	VT_ASSERT(!memcmp(cpu, want, SIZE));
	VT_ASSERT(vt_syncobj_signalled(d.fd, last));
	VT_ASSERT_EQ(vt_bo_region(d.fd, h), dev_region(&d));
	vt_gpu_read(d.fd, va, buf, SIZE);
	VT_ASSERT(!memcmp(buf, want, SIZE));
	munmap(cpu, SIZE);
	vt_dev_close(&d);
}

/* The hold points refuse what is not a boolean, and report their state. */
VTEST(hold_points_in_debugfs)
{
	static const char *const names[] = {
		"hold_moves", "hold_switch", "hold_preempt", "hold_alloc",
		"hold_teardown",
	};
	struct vt_dev d = vt_dev_open();
	unsigned int i;
	char *text;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		VT_ASSERT_EQ(vt_debugfs_write(d.fd, names[i], "maybe\n"), -EINVAL);
		text = vt_debugfs_read(d.fd, names[i]);
		VT_ASSERT_EQ(vt_kv(text, "held"), 0);
		VT_ASSERT(vt_kv(text, "waited") >= 0);
		free(text);
	}
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
