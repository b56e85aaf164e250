// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_async_bind.c - asynchronous DRM_IOCTL_VACCEL_VM_BIND (uapi 1.2),
 * applied by the PAGING engine: a copy on a COPY context that waits for an
 * asynchronous map sees it; a map gated on a WAIT_MEM job is not applied
 * before the gate opens and is after; asynchronous binds apply in
 * submission order; a synchronous bind waits for the asynchronous ones
 * before it; a conflict (-EEXIST), with the VM or with binds still
 * pending, and every argument error are the ioctl's and queue nothing;
 * the mappings show a bind at once and the page tables once it applied;
 * timeline points as in- and
 * out-syncs; a BO handle closed while its map is pending; closing the file
 * with binds pending on a gate that never opens, or on a gate of another
 * file, gives everything back; and fdinfo's drm-engine-paging.
 *
 * "Not applied yet" is checked after giving the kernel VT_SETTLE_MS (or a
 * few times that) to misbehave; everything that must happen is waited for
 * through a syncobj, a sync_file or by polling with a deadline.
 *
 * Gates (a WAIT_MEM on a word the CPU writes) run on compute engine 1, the
 * jobs that check results on compute engine 0 and the COPY engine, so that
 * a closed gate never holds up a check.
 *
 * Needs root (debugfs); a topology with two COMPUTE engines, a COPY engine
 * and the PAGING engine (the default one).
 */
#include "vt_exec.h"

#define COMPUTE	DRM_VACCEL_ENGINE_CLASS_COMPUTE
#define COPY	DRM_VACCEL_ENGINE_CLASS_COPY
#define PAGING	DRM_VACCEL_ENGINE_CLASS_PAGING

/* How long a gated bind is given to be applied too early. */
#define EARLY_MS	(5 * VT_SETTLE_MS)
/* How long the memory counters may take to come back after a close. */
#define SETTLE_MS	5000

/*
 * An open file, a command BO, a data BO holding the gate words, a context
 * on compute engine 0 for checks and one on compute engine 1 for gates.
 */
struct fx {
	struct vt_dev d;
	struct vt_cmd c;
	struct vt_bo data;
	__u32 ctx;
	__u32 gctx;
};

static struct fx fx_open(void)
{
	struct fx f;

	f.d = vt_dev_open();
	VT_ASSERT_EQ(f.d.info.uapi_major, 1);
	VT_ASSERT(f.d.info.uapi_minor >= 2);
	VT_REQUIRE_ENGINES(&f.d, COMPUTE, 2);
	VT_REQUIRE_ENGINES(&f.d, PAGING, 1);
	f.c = vt_cmd_new(&f.d, 128 * VT_KIB);
	f.data = vt_bo_new(&f.d, 64 * VT_KIB);
	f.ctx = vt_ctx_create(f.d.fd, COMPUTE, 0);
	f.gctx = vt_ctx_create(f.d.fd, COMPUTE, 1);
	return f;
}

/* A BO created and mapped for the CPU, filled with a pattern, not GPU-mapped. */
struct ubo {
	__u32 handle;
	__u64 size;
	unsigned char *cpu;
};

static struct ubo ubo_new(int fd, __u64 size, __u64 seed)
{
	struct ubo b;

	b.size = size;
	b.handle = vt_bo_create(fd, size, 0);
	b.cpu = vt_bo_mmap(fd, b.handle, size);
	vt_fill_pages(b.cpu, size / VT_PAGE, seed);
	return b;
}

/* VM_BIND with every array chosen by the caller. */
static int bind_raw(int fd, const struct drm_vaccel_vm_bind_op *ops, __u32 nops,
		    const struct drm_vaccel_sync *waits, __u32 nwaits,
		    const struct drm_vaccel_sync *signals, __u32 nsignals)
{
	struct drm_vaccel_vm_bind b = {
		.ops = DRM_VACCEL_OBJ_ARRAY(nops, ops),
		.waits = DRM_VACCEL_OBJ_ARRAY(nwaits, waits),
		.signals = DRM_VACCEL_OBJ_ARRAY(nsignals, signals),
	};

	return ioctl(fd, DRM_IOCTL_VACCEL_VM_BIND, &b);
}

/*
 * An asynchronous bind waiting for binary syncobj @in and signalling binary
 * syncobj @out (0: none; one of them must be given); fails the case if the
 * ioctl fails.
 */
static void bind_async_at(int line, int fd, const struct drm_vaccel_vm_bind_op *ops,
			  __u32 nops, __u32 in, __u32 out)
{
	struct drm_vaccel_sync w = { .handle = in }, s = { .handle = out };

	if (!in && !out)
		vtest_fail(__FILE__, line, "an asynchronous bind needs a syncobj");
	if (bind_raw(fd, ops, nops, &w, in ? 1 : 0, &s, out ? 1 : 0))
		vtest_fail(__FILE__, line, "asynchronous VM_BIND of %u ops: %s", nops,
			   strerror(errno));
}

#define bind_async(fd, ops, nops, in, out) \
	bind_async_at(__LINE__, fd, ops, nops, in, out)

/* A gate: a job on the gate context waiting for the word at @off to be 1. */
static __u32 gate(struct fx *f, __u64 off)
{
	__u32 g = vt_syncobj(f->d.fd);

	vt_pkt_wait_eq32(&f->c, f->data.va + off, 1);
	vt_submit(f->d.fd, f->gctx, &f->c, 0, g);
	return g;
}

static void gate_open(struct fx *f, __u64 off)
{
	VT_U32(&f->data, off) = 1;
}

/* Whether any mapping of the VM of @fd meets [@va, @va + @size). */
static bool mapped(int fd, __u64 va, __u64 size)
{
	struct vt_mapping *m;
	size_t n = vt_mappings(fd, &m), i;
	bool hit = false;

	for (i = 0; i < n; i++)
		if (m[i].start < va + size && va < m[i].end)
			hit = true;
	free(m);
	return hit;
}

/* Checks the mapping that starts at @va: its end, BO offset and permissions. */
static void expect_mapping(int fd, __u64 va, __u64 size, __u64 offset,
			   const char *perm, int line)
{
	struct vt_mapping m = vt_mapping_at(fd, va);

	if (m.end != va + size || m.offset != offset || strcmp(m.perm, perm))
		vtest_fail(__FILE__, line,
			   "mapping at 0x%llx: end 0x%llx offset 0x%llx %s; expected "
			   "end 0x%llx offset 0x%llx %s",
			   (unsigned long long)va, (unsigned long long)m.end,
			   (unsigned long long)m.offset, m.perm,
			   (unsigned long long)(va + size), (unsigned long long)offset,
			   perm);
}

static void expect_stats_plus(int fd, const struct drm_vaccel_vm_stats *s0,
			      __u64 mappings, __u64 bytes, int line)
{
	struct drm_vaccel_vm_stats s;

	vt_vm_stats(fd, &s);
	if (s.mappings != s0->mappings + mappings ||
	    s.mapped_bytes != s0->mapped_bytes + bytes)
		vtest_fail(__FILE__, line,
			   "VM stats: %llu mappings, %llu bytes; expected %llu, %llu",
			   (unsigned long long)s.mappings,
			   (unsigned long long)s.mapped_bytes,
			   (unsigned long long)(s0->mappings + mappings),
			   (unsigned long long)(s0->mapped_bytes + bytes));
}

/* No valid PTE in [@va, @va + @size). */
static void expect_no_ptes(int fd, __u64 va, __u64 size, int line)
{
	struct vt_pte *t;
	size_t n, i;

	n = vt_page_table(fd, &t);
	for (i = 0; i < n; i++)
		if (t[i].va >= va && t[i].va < va + size)
			vtest_fail(__FILE__, line, "a valid PTE for 0x%llx",
				   (unsigned long long)t[i].va);
	free(t);
}

/* The VM is exactly as in @s0, and nothing is mapped in [@va, @va + @size). */
static void expect_unchanged(int fd, const struct drm_vaccel_vm_stats *s0, __u64 va,
			     __u64 size, int line)
{
	struct drm_vaccel_vm_stats s;

	vt_vm_stats(fd, &s);
	if (s.mappings != s0->mappings || s.mapped_bytes != s0->mapped_bytes ||
	    s.pt_pages != s0->pt_pages)
		vtest_fail(__FILE__, line,
			   "VM changed: %llu mappings, %llu bytes, %llu pt pages; was "
			   "%llu, %llu, %llu",
			   (unsigned long long)s.mappings, (unsigned long long)s.mapped_bytes,
			   (unsigned long long)s.pt_pages,
			   (unsigned long long)s0->mappings,
			   (unsigned long long)s0->mapped_bytes,
			   (unsigned long long)s0->pt_pages);
	if (size && mapped(fd, va, size))
		vtest_fail(__FILE__, line, "debugfs shows a mapping at 0x%llx",
			   (unsigned long long)va);
	expect_no_ptes(fd, va, size, line);
}

/* A valid PTE for every page of [@va, @va + @size). */
static void expect_ptes(int fd, __u64 va, __u64 size, int line)
{
	struct vt_pte *t;
	size_t n = vt_page_table(fd, &t);
	__u64 p;

	for (p = va; p < va + size; p += VT_PAGE)
		if (!(vt_pte_find(t, n, p) & DRM_VACCEL_PTE_VALID))
			vtest_fail(__FILE__, line, "no valid PTE for 0x%llx",
				   (unsigned long long)p);
	free(t);
}

/* Whether the out-syncobj @h got a fence: a wait without WAIT_FOR_SUBMIT says. */
static bool has_fence(int fd, __u32 h)
{
	struct drm_syncobj_wait w = { .handles = (uintptr_t)&h, .count_handles = 1 };

	return !ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w) || errno != EINVAL;
}

/* Copies @size bytes at GPU VA @src to @dst on context @ctx, and waits. */
static void gpu_copy(struct fx *f, __u32 ctx, __u64 src, __u64 dst, __u64 size)
{
	vt_pkt_copy(&f->c, src, dst, size);
	vt_run(f->d.fd, ctx, &f->c);
}

/* --- debugfs and fdinfo --- */

struct ctx_line {
	unsigned int handle;
	unsigned long long client;
	unsigned int engine;
	char state[16];
	long long submitted;
	long long completed;
};

/* The paging context of @fd (handle 0, the file's client) in debugfs contexts. */
static bool paging_context(int fd, struct ctx_line *out)
{
	char dir[VT_DIR_MAX], path[PATH_MAX], *text, *line, *save = NULL;
	unsigned long long client = vt_client_id(fd);
	bool found = false;

	vt_debugfs_dir(fd, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/contexts", dir);
	text = vt_read_file(path);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct ctx_line l;
		char prio[16];

		if (sscanf(line, "context %u client %llu engine %u priority %15s %15s "
			   "submitted %lld completed %lld", &l.handle, &l.client, &l.engine,
			   prio, l.state, &l.submitted, &l.completed) != 7)
			vtest_fail(__FILE__, __LINE__, "bad contexts line '%s'", line);
		if (l.handle || l.client != client)
			continue;
		if (found)
			vtest_fail(__FILE__, __LINE__, "two paging contexts for client %llu",
				   client);
		*out = l;
		found = true;
	}
	free(text);
	return found;
}

/* Jobs submitted to the paging context of @fd; 0 if it has none. */
static long long paging_submitted(int fd)
{
	struct ctx_line l;

	return paging_context(fd, &l) ? l.submitted : 0;
}

static long long fdinfo_value(int fd, const char *key)
{
	char path[64], *text;
	long long v;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	text = vt_read_file(path);
	v = vt_kv(text, key);
	free(text);
	return v;
}

/* busy_ns of engine @name ("paging0") in debugfs engines. */
static unsigned long long engine_busy_ns(int fd, const char *name)
{
	char dir[VT_DIR_MAX], path[PATH_MAX], *text, *line, *save = NULL;
	unsigned long long busy = 0;
	bool found = false;

	vt_debugfs_dir(fd, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/engines", dir);
	text = vt_read_file(path);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char n[32], st[16];
		unsigned int idx;
		unsigned long long b;

		if (sscanf(line, "engine %u: %31s %15s busy_ns %llu", &idx, n, st, &b) == 4 &&
		    !strcmp(n, name)) {
			busy = b;
			found = true;
		}
	}
	free(text);
	if (!found)
		vtest_fail(__FILE__, __LINE__, "no engine %s in debugfs engines", name);
	return busy;
}

/* --- cases --- */

/*
 * (a) A COPY on a COPY context that waits for an asynchronous map reads the
 * new mapping: the BO's contents, written by the CPU, reach the
 * destination.  The map waits for a gate, so the copy is queued well before
 * the mapping exists; had it not waited, it would fault.  Then the same
 * without a gate, the copy submitted right behind the bind.
 */
VTEST(copy_waits_for_async_map)
{
	struct fx f = fx_open();
	int fd = f.d.fd;
	struct ubo src = ubo_new(fd, 256 * VT_KIB, 0xa1), src2;
	struct vt_bo dst = vt_bo_new(&f.d, 256 * VT_KIB);
	__u64 va = vt_va_alloc(&f.d, src.size), va2;
	struct drm_vaccel_vm_bind_op op = vt_op_map(src.handle, 0, va, src.size, 0), op2;
	struct drm_vaccel_vm_stats s0;
	__u32 cctx, g, sb = vt_syncobj(fd), sc = vt_syncobj(fd);

	VT_REQUIRE_ENGINES(&f.d, COPY, 1);
	cctx = vt_ctx_create(fd, COPY, 0);
	vt_vm_stats(fd, &s0);

	g = gate(&f, 0);
	bind_async(fd, &op, 1, g, sb);
	vt_pkt_copy(&f.c, va, dst.va, src.size);
	vt_submit(fd, cctx, &f.c, sb, sc);

	vt_sleep_ms(VT_SETTLE_MS);
	VT_ASSERT(!vt_syncobj_signalled(fd, sb));
	VT_ASSERT(!vt_syncobj_signalled(fd, sc));
	/* Tracked at once, in the page table once applied. */
	expect_stats_plus(fd, &s0, 1, src.size, __LINE__);
	expect_no_ptes(fd, va, src.size, __LINE__);
	VT_ASSERT_EQ(VT_U64(&dst, 0), 0);

	gate_open(&f, 0);
	vt_syncobj_wait(fd, sc);
	VT_ASSERT_EQ(vt_fence_status(fd, sb), 1);
	VT_ASSERT_EQ(vt_fence_status(fd, sc), 1);
	vt_expect_not_faulted(fd, cctx);
	if (memcmp(dst.cpu, src.cpu, src.size))
		vtest_fail(__FILE__, __LINE__, "the copy did not read the new mapping");
	expect_stats_plus(fd, &s0, 1, src.size, __LINE__);
	expect_mapping(fd, va, src.size, 0, "rwx", __LINE__);

	/* Ungated: the copy queued right behind the bind still waits for it. */
	src2 = ubo_new(fd, 256 * VT_KIB, 0xa2);
	va2 = vt_va_alloc(&f.d, src2.size);
	op2 = vt_op_map(src2.handle, 0, va2, src2.size, DRM_VACCEL_VM_BIND_READ_ONLY);
	bind_async(fd, &op2, 1, 0, sb);
	vt_pkt_copy(&f.c, va2, dst.va, src2.size);
	vt_submit(fd, cctx, &f.c, sb, sc);
	vt_syncobj_wait(fd, sc);
	VT_ASSERT_EQ(vt_fence_status(fd, sb), 1);
	VT_ASSERT_EQ(vt_fence_status(fd, sc), 1);
	vt_expect_not_faulted(fd, cctx);
	if (memcmp(dst.cpu, src2.cpu, src2.size))
		vtest_fail(__FILE__, __LINE__, "the copy did not read the second mapping");
	expect_mapping(fd, va2, src2.size, 0, "r-x", __LINE__);
}

/*
 * (b) A map waiting for a job gated on a WAIT_MEM: the VM statistics and
 * debugfs mappings show it at once, as the next bind will find it, but
 * until the gate opens the page table has no entry for it, the bind's
 * fence is pending, and the file's paging context (handle 0, on the
 * PAGING engine) holds one job not completed.  After: the page table maps
 * it, and it works both ways.
 */
VTEST(gated_map_waits_for_gate)
{
	struct fx f = fx_open();
	int fd = f.d.fd;
	struct ubo bo = ubo_new(fd, 64 * VT_KIB, 0xb1);
	__u64 va = vt_va_alloc(&f.d, bo.size);
	struct drm_vaccel_vm_bind_op op = vt_op_map(bo.handle, 0, va, bo.size, 0);
	struct drm_vaccel_vm_stats s0;
	struct ctx_line pc;
	__u32 g, sb = vt_syncobj(fd);

	vt_vm_stats(fd, &s0);
	VT_ASSERT(!paging_context(fd, &pc));	/* created at the first async bind */
	g = gate(&f, 0);
	bind_async(fd, &op, 1, g, sb);

	vt_sleep_ms(EARLY_MS);
	VT_ASSERT_EQ(vt_fence_status(fd, sb), 0);
	expect_stats_plus(fd, &s0, 1, bo.size, __LINE__);
	expect_mapping(fd, va, bo.size, 0, "rwx", __LINE__);
	expect_no_ptes(fd, va, bo.size, __LINE__);
	VT_ASSERT(paging_context(fd, &pc));
	VT_ASSERT_EQ(pc.engine, vt_engine_index(&f.d, PAGING, 0));
	VT_ASSERT_EQ(pc.submitted, 1);
	VT_ASSERT_EQ(pc.completed, 0);
	VT_ASSERT(!strcmp(pc.state, "active"));

	gate_open(&f, 0);
	vt_syncobj_wait(fd, sb);
	VT_ASSERT_EQ(vt_fence_status(fd, sb), 1);
	VT_ASSERT_EQ(vt_fence_status(fd, g), 1);
	expect_stats_plus(fd, &s0, 1, bo.size, __LINE__);
	expect_mapping(fd, va, bo.size, 0, "rwx", __LINE__);
	VT_ASSERT(paging_context(fd, &pc));
	VT_ASSERT_EQ(pc.submitted, 1);
	VT_ASSERT_EQ(pc.completed, 1);

	/* The GPU reads what the CPU wrote and writes what the CPU reads. */
	VT_U32(&f.data, 512) = 0;
	gpu_copy(&f, f.ctx, va + 4096, f.data.va + 512, 8);
	VT_ASSERT_EQ(VT_U64(&f.data, 512), *(volatile __u64 *)(bo.cpu + 4096));
	vt_pkt_write32(&f.c, va + 8, 0x5eed);
	vt_run(fd, f.ctx, &f.c);
	VT_ASSERT_EQ(*(volatile __u32 *)(bo.cpu + 8), 0x5eed);
	vt_expect_not_faulted(fd, f.ctx);
}

/*
 * (c) Asynchronous binds apply in submission order.  Map A onto BO 1
 * (gated), unmap A, map A onto the second half of BO 2: the two later
 * binds wait for nothing but still come after the first, and a job that
 * reads A after the last sees BO 2's bytes.  Then 64 binds with no gate,
 * alternating unmaps and maps onto four BOs: each succeeds and the last
 * wins.
 */
VTEST(binds_apply_in_order)
{
	struct fx f = fx_open();
	int fd = f.d.fd;
	const __u64 sz = 64 * VT_KIB;
	struct ubo b1 = ubo_new(fd, sz, 0xc1), b2 = ubo_new(fd, 2 * sz, 0xc2);
	struct ubo many[4];
	struct vt_bo dst = vt_bo_new(&f.d, sz);
	__u64 A = vt_va_alloc(&f.d, sz);
	struct drm_vaccel_vm_bind_op map1 = vt_op_map(b1.handle, 0, A, sz, 0);
	struct drm_vaccel_vm_bind_op unmap = vt_op_unmap(A, sz);
	struct drm_vaccel_vm_bind_op map2 = vt_op_map(b2.handle, sz, A, sz,
						      DRM_VACCEL_VM_BIND_NO_EXEC);
	struct drm_vaccel_vm_stats s0;
	__u32 g, s1 = vt_syncobj(fd), s2 = vt_syncobj(fd), s3 = vt_syncobj(fd);
	__u32 sc = vt_syncobj(fd), outs[64];
	unsigned int k, last = 0;

	vt_vm_stats(fd, &s0);
	g = gate(&f, 0);
	bind_async(fd, &map1, 1, g, s1);
	bind_async(fd, &unmap, 1, 0, s2);
	bind_async(fd, &map2, 1, 0, s3);
	vt_pkt_copy(&f.c, A, dst.va, sz);
	vt_submit(fd, f.ctx, &f.c, s3, sc);

	vt_sleep_ms(EARLY_MS);
	/* Nothing passes the gated bind, not even binds without waits. */
	VT_ASSERT(!vt_syncobj_signalled(fd, s1));
	VT_ASSERT(!vt_syncobj_signalled(fd, s2));
	VT_ASSERT(!vt_syncobj_signalled(fd, s3));
	VT_ASSERT(!vt_syncobj_signalled(fd, sc));
	/* The mappings are as the three leave them; the page table empty. */
	expect_stats_plus(fd, &s0, 1, sz, __LINE__);
	expect_mapping(fd, A, sz, sz, "rw-", __LINE__);
	expect_no_ptes(fd, A, sz, __LINE__);

	gate_open(&f, 0);
	vt_syncobj_wait(fd, sc);
	VT_ASSERT_EQ(vt_fence_status(fd, s1), 1);
	VT_ASSERT_EQ(vt_fence_status(fd, s2), 1);
	VT_ASSERT_EQ(vt_fence_status(fd, s3), 1);
	VT_ASSERT_EQ(vt_fence_status(fd, sc), 1);
	vt_expect_not_faulted(fd, f.ctx);
	VT_ASSERT(memcmp(b1.cpu, b2.cpu + sz, sz));
	if (memcmp(dst.cpu, b2.cpu + sz, sz))
		vtest_fail(__FILE__, __LINE__, "the job read A %s",
			   memcmp(dst.cpu, b1.cpu, sz) ? "as neither BO" : "as BO 1");
	expect_stats_plus(fd, &s0, 1, sz, __LINE__);
	expect_mapping(fd, A, sz, sz, "rw-", __LINE__);

	/* 64 ungated binds: unmap, map BO k % 4 at offset k % 2 pages, ... */
	for (k = 0; k < 4; k++)
		many[k] = ubo_new(fd, sz + VT_PAGE, 0xc10 + k);
	for (k = 0; k < 64; k++) {
		struct drm_vaccel_vm_bind_op op;

		outs[k] = vt_syncobj(fd);
		if (k % 2 == 0) {
			op = vt_op_unmap(A, sz);
		} else {
			last = (k / 2) % 4;
			op = vt_op_map(many[last].handle, (k / 2) % 2 * VT_PAGE, A, sz, 0);
		}
		bind_async(fd, &op, 1, 0, outs[k]);
	}
	vt_pkt_copy(&f.c, A, dst.va, sz);
	vt_submit(fd, f.ctx, &f.c, outs[63], sc);
	vt_syncobj_wait(fd, sc);
	for (k = 0; k < 64; k++)
		if (vt_fence_status(fd, outs[k]) != 1)
			vtest_fail(__FILE__, __LINE__, "bind %u ended with status %d", k,
				   vt_fence_status(fd, outs[k]));
	VT_ASSERT_EQ(vt_fence_status(fd, sc), 1);
	if (memcmp(dst.cpu, many[last].cpu + (63 / 2) % 2 * VT_PAGE, sz))
		vtest_fail(__FILE__, __LINE__, "A does not hold the last BO mapped");
	expect_stats_plus(fd, &s0, 1, sz, __LINE__);
	expect_mapping(fd, A, sz, (63 / 2) % 2 * VT_PAGE, "rwx", __LINE__);
}

struct sync_bind_thread {
	int fd;
	struct drm_vaccel_vm_bind_op op;
	int ret;
	int err;
	int done;
};

static void *sync_bind_fn(void *p)
{
	struct sync_bind_thread *t = p;

	t->ret = vt_vm_bind_raw(t->fd, &t->op, 1);
	t->err = errno;
	__atomic_store_n(&t->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static bool thread_done_within(struct sync_bind_thread *t, unsigned int ms)
{
	__u64 end = vt_now_ns() + ms * VT_MS;

	while (!__atomic_load_n(&t->done, __ATOMIC_SEQ_CST)) {
		if (vt_now_ns() > end)
			return false;
		usleep(1000);
	}
	return true;
}

/*
 * Runs the synchronous bind @op in a thread while the asynchronous bind
 * before it waits for the gate at @off: the thread must still be blocked
 * after EARLY_MS, and return 0 once the gate opens.
 */
static void sync_bind_behind_gate(struct fx *f, struct drm_vaccel_vm_bind_op op,
				  __u64 off, int line)
{
	struct sync_bind_thread t = { .fd = f->d.fd, .op = op };
	pthread_t th;
	bool early;

	VT_ASSERT_EQ(pthread_create(&th, NULL, sync_bind_fn, &t), 0);
	early = thread_done_within(&t, EARLY_MS);
	gate_open(f, off);
	if (!thread_done_within(&t, VT_TIMEOUT_MS))
		vtest_fail(__FILE__, line, "the synchronous bind still blocks after the gate");
	VT_ASSERT_EQ(pthread_join(th, NULL), 0);
	if (early)
		vtest_fail(__FILE__, line,
			   "the synchronous bind returned %d (%s) before the asynchronous "
			   "one before it was applied", t.ret, t.ret ? strerror(t.err) : "ok");
	if (t.ret)
		vtest_fail(__FILE__, line, "the synchronous bind failed: %s",
			   strerror(t.err));
}

/*
 * (d) A synchronous bind waits for the pending asynchronous binds before
 * it.  A synchronous map of a range that a gated asynchronous unmap frees
 * blocks until the gate opens and then succeeds (run first, it would fail
 * with EEXIST); a synchronous unmap of a range that a gated asynchronous
 * map fills leaves it empty (run first, it would find nothing to unmap and
 * the map would stay).
 */
VTEST(sync_bind_waits_for_async)
{
	struct fx f = fx_open();
	int fd = f.d.fd;
	const __u64 sz = 64 * VT_KIB;
	struct ubo x = ubo_new(fd, sz, 0xd1), y = ubo_new(fd, sz, 0xd2), z = ubo_new(fd, sz, 0xd3);
	struct vt_bo dst = vt_bo_new(&f.d, sz);
	__u64 A = vt_va_alloc(&f.d, sz), B = vt_va_alloc(&f.d, sz);
	struct drm_vaccel_vm_bind_op unmapA = vt_op_unmap(A, sz);
	struct drm_vaccel_vm_bind_op mapB = vt_op_map(z.handle, 0, B, sz, 0);
	struct drm_vaccel_vm_stats s0;
	__u32 g, su = vt_syncobj(fd), sm = vt_syncobj(fd);

	vt_map(fd, x.handle, 0, A, sz, 0);
	vt_vm_stats(fd, &s0);

	g = gate(&f, 0);
	bind_async(fd, &unmapA, 1, g, su);
	sync_bind_behind_gate(&f, vt_op_map(y.handle, 0, A, sz, DRM_VACCEL_VM_BIND_READ_ONLY),
			      0, __LINE__);
	VT_ASSERT_EQ(vt_fence_status(fd, su), 1);
	expect_stats_plus(fd, &s0, 0, 0, __LINE__);
	expect_mapping(fd, A, sz, 0, "r-x", __LINE__);
	gpu_copy(&f, f.ctx, A, dst.va, sz);
	if (memcmp(dst.cpu, y.cpu, sz))
		vtest_fail(__FILE__, __LINE__, "A is not mapped onto the second BO");

	g = gate(&f, 4);
	bind_async(fd, &mapB, 1, g, sm);
	sync_bind_behind_gate(&f, vt_op_unmap(B, sz), 4, __LINE__);
	VT_ASSERT_EQ(vt_fence_status(fd, sm), 1);
	expect_stats_plus(fd, &s0, 0, 0, __LINE__);
	VT_ASSERT(!mapped(fd, B, sz));
	vt_expect_not_faulted(fd, f.ctx);
}

/*
 * (e) Conflicts are the ioctl's: -EEXIST, nothing queued (the out-syncobj
 * gets no fence, the paging context no job) and the VM as it was, for a
 * map over a mapping, for a batch whose good first map would have to be
 * undone, for a batch that conflicts with itself, and for a map that only
 * conflicts with an earlier asynchronous map still pending at the ioctl.
 * The pending map then applies, and the paging context keeps working.
 */
VTEST(conflict_fails_in_ioctl)
{
	struct fx f = fx_open();
	int fd = f.d.fd;
	const __u64 sz = 64 * VT_KIB;
	struct ubo x = ubo_new(fd, sz, 0xe1), y = ubo_new(fd, sz, 0xe2);
	__u64 A = vt_va_alloc(&f.d, sz), B = vt_va_alloc(&f.d, sz);
	struct drm_vaccel_vm_bind_op over = vt_op_map(y.handle, 16 * VT_KIB,
						      A + 16 * VT_KIB, 16 * VT_KIB, 0);
	struct drm_vaccel_vm_bind_op half[2] = {
		vt_op_map(y.handle, 0, B, sz, 0), vt_op_map(y.handle, 0, A, VT_PAGE, 0),
	};
	struct drm_vaccel_vm_bind_op self[2] = {
		vt_op_map(y.handle, 0, B, sz, 0),
		vt_op_map(x.handle, 0, B + sz - VT_PAGE, VT_PAGE, 0),
	};
	struct drm_vaccel_vm_bind_op mapBy = vt_op_map(y.handle, 0, B, sz, 0);
	struct drm_vaccel_vm_bind_op mapBx = vt_op_map(x.handle, 0, B, sz, 0);
	struct drm_vaccel_vm_bind_op unmapB = vt_op_unmap(B, sz);
	const struct drm_vaccel_vm_bind_op *bad[3] = { &over, half, self };
	const __u32 nbad[3] = { 1, 2, 2 };
	struct drm_vaccel_vm_stats s0;
	struct vt_mapping *m0, *m1;
	long long jobs;
	size_t n0, n1;
	__u32 o[6], g;
	unsigned int i;

	for (i = 0; i < 6; i++)
		o[i] = vt_syncobj(fd);
	vt_map(fd, x.handle, 0, A, sz, 0);
	/* The paging context exists from the first asynchronous bind. */
	bind_async(fd, NULL, 0, 0, o[5]);
	vt_syncobj_wait(fd, o[5]);
	vt_vm_stats(fd, &s0);
	n0 = vt_mappings(fd, &m0);
	jobs = paging_submitted(fd);

	for (i = 0; i < 3; i++) {
		struct drm_vaccel_sync s = { .handle = o[i] };

		errno = 0;
		if (bind_raw(fd, bad[i], nbad[i], NULL, 0, &s, 1) != -1 || errno != EEXIST)
			vtest_fail(__FILE__, __LINE__, "conflicting bind %u: %s, expected "
				   "EEXIST", i, strerror(errno));
		VT_ASSERT(!has_fence(fd, o[i]));
	}
	expect_unchanged(fd, &s0, B, sz, __LINE__);
	VT_ASSERT_EQ(paging_submitted(fd), jobs);
	n1 = vt_mappings(fd, &m1);
	VT_ASSERT_EQ(n1, n0);
	for (i = 0; i < n0; i++) {
		VT_ASSERT_EQ(m1[i].start, m0[i].start);
		VT_ASSERT_EQ(m1[i].end, m0[i].end);
		VT_ASSERT_EQ(m1[i].offset, m0[i].offset);
		VT_ASSERT(!strcmp(m1[i].perm, m0[i].perm));
	}
	free(m1);

	/* Both pending: the second conflicts with the first, not yet applied. */
	g = gate(&f, 0);
	bind_async(fd, &mapBy, 1, g, o[3]);
	{
		struct drm_vaccel_sync s = { .handle = o[4] };

		VT_ASSERT_ERRNO(bind_raw(fd, &mapBx, 1, NULL, 0, &s, 1), EEXIST);
		VT_ASSERT(!has_fence(fd, o[4]));
	}
	gate_open(&f, 0);
	vt_syncobj_wait(fd, o[3]);
	VT_ASSERT_EQ(vt_fence_status(fd, o[3]), 1);
	expect_stats_plus(fd, &s0, 1, sz, __LINE__);
	{
		/* B holds BO y: the GPU reads y's bytes there. */
		struct vt_bo dst = vt_bo_new(&f.d, sz);

		gpu_copy(&f, f.ctx, B, dst.va, sz);
		VT_ASSERT(!memcmp(dst.cpu, y.cpu, sz));
	}

	/* The paging context is not stuck: an unmap after the errors works. */
	bind_async(fd, &unmapB, 1, 0, o[5]);
	vt_syncobj_wait(fd, o[5]);
	VT_ASSERT_EQ(vt_fence_status(fd, o[5]), 1);
	VT_ASSERT(!mapped(fd, B, sz));
	vt_unmap(fd, A, sz);
	free(m0);
}

/*
 * (f) Errors in the arguments of an asynchronous bind are the ioctl's:
 * unknown BO handles ENOENT, malformed operations EINVAL, unknown syncobjs
 * ENOENT, a wait on a syncobj without a fence EINVAL, flags in a sync
 * EINVAL, too many syncs or operations E2BIG.  Nothing is queued: the
 * out-syncobj gets no fence, the VM does not change, the paging context
 * (if the attempt created it) has no job, and no paging time is counted.
 */
VTEST(argument_errors_from_ioctl)
{
	struct fx f = fx_open();
	int fd = f.d.fd;
	const __u64 sz = 64 * VT_KIB;
	struct ubo x = ubo_new(fd, sz, 0xf1);
	__u64 A = vt_va_alloc(&f.d, sz), end = f.d.info.va_end;
	__u32 out = vt_syncobj(fd), nofence = vt_syncobj(fd);
	__u32 done = vt_syncobj_flags(fd, DRM_SYNCOBJ_CREATE_SIGNALED);
	__u32 unknown_bo = x.handle + 1000, unknown_so = out + 1000;
	struct drm_vaccel_vm_bind_op good = vt_op_map(x.handle, 0, A, sz, 0);
	struct drm_vaccel_sync w_ok = { .handle = done }, s_ok = { .handle = out };
	struct drm_vaccel_sync w_unknown = { .handle = unknown_so };
	struct drm_vaccel_sync s_unknown = { .handle = unknown_so };
	struct drm_vaccel_sync w_nofence = { .handle = nofence };
	struct drm_vaccel_sync w_flags = { .handle = done, .flags = 1 };
	struct drm_vaccel_sync s_flags = { .handle = out, .flags = 1u << 31 };
	struct drm_vaccel_sync many[DRM_VACCEL_MAX_SYNCS + 1];
	struct drm_vaccel_vm_bind_op *lots;
	struct drm_vaccel_vm_stats s0;
	struct {
		const char *what;
		struct drm_vaccel_vm_bind_op ops[2];
		__u32 nops;
		const struct drm_vaccel_sync *w, *s;
		int err;
	} bad[] = {
		{ "unknown handle", { vt_op_map(unknown_bo, 0, A, sz, 0) }, 1, &w_ok, &s_ok, ENOENT },
		{ "handle 0", { vt_op_map(0, 0, A, sz, 0) }, 1, &w_ok, &s_ok, ENOENT },
		{ "unknown handle, second op", { good, vt_op_map(unknown_bo, 0, A + sz, sz, 0) },
		  2, NULL, &s_ok, ENOENT },
		{ "unknown handle, waits only", { vt_op_map(unknown_bo, 0, A, sz, 0) }, 1,
		  &w_ok, NULL, ENOENT },
		{ "va + 1", { vt_op_map(x.handle, 0, A + 1, VT_PAGE, 0) }, 1, &w_ok, &s_ok, EINVAL },
		{ "va + 2048", { vt_op_map(x.handle, 0, A + 2048, VT_PAGE, 0) }, 1, NULL, &s_ok,
		  EINVAL },
		{ "size 4095", { vt_op_map(x.handle, 0, A, 4095, 0) }, 1, &w_ok, &s_ok, EINVAL },
		{ "size 0", { vt_op_map(x.handle, 0, A, 0, 0) }, 1, &w_ok, &s_ok, EINVAL },
		{ "bo_offset 512", { vt_op_map(x.handle, 512, A, VT_PAGE, 0) }, 1, &w_ok, &s_ok,
		  EINVAL },
		{ "past the BO", { vt_op_map(x.handle, VT_PAGE, A, sz, 0) }, 1, &w_ok, &s_ok,
		  EINVAL },
		{ "past the VA space", { vt_op_map(x.handle, 0, end - VT_PAGE, 2 * VT_PAGE, 0) },
		  1, &w_ok, &s_ok, EINVAL },
		{ "unmap misaligned", { vt_op_unmap(A + 8, VT_PAGE) }, 1, &w_ok, &s_ok, EINVAL },
		{ "misaligned second op", { good, vt_op_unmap(A, 100) }, 2, &w_ok, &s_ok, EINVAL },
		{ "unknown op", { { .op = 2, .handle = x.handle, .va = A, .size = sz } }, 1,
		  &w_ok, &s_ok, EINVAL },
		{ "unknown map flag", { vt_op_map(x.handle, 0, A, sz, 1u << 2) }, 1, &w_ok,
		  &s_ok, EINVAL },
		{ "unmap with a handle", { { .op = DRM_VACCEL_VM_BIND_OP_UNMAP,
					     .handle = x.handle, .va = A, .size = sz } }, 1,
		  &w_ok, &s_ok, EINVAL },
		{ "op pad", { { .op = DRM_VACCEL_VM_BIND_OP_MAP, .handle = x.handle,
				.pad = 1, .va = A, .size = sz } }, 1, &w_ok, &s_ok, EINVAL },
		{ "unknown syncobj to signal", { good }, 1, &w_ok, &s_unknown, ENOENT },
		{ "unknown syncobj to wait for", { good }, 1, &w_unknown, &s_ok, ENOENT },
		{ "unknown syncobj, no ops", { good }, 0, &w_unknown, &s_ok, ENOENT },
		{ "wait without a fence", { good }, 1, &w_nofence, &s_ok, EINVAL },
		{ "wait flags", { good }, 1, &w_flags, &s_ok, EINVAL },
		{ "signal flags", { good }, 1, &w_ok, &s_flags, EINVAL },
	};
	struct drm_vaccel_vm_bind b;
	unsigned int i;
	int sfd;

	vt_vm_stats(fd, &s0);
	VT_ASSERT_EQ(fdinfo_value(fd, "drm-engine-paging"), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		errno = 0;
		if (bind_raw(fd, bad[i].ops, bad[i].nops, bad[i].w, bad[i].w ? 1 : 0,
			     bad[i].s, bad[i].s ? 1 : 0) != -1 || errno != bad[i].err)
			vtest_fail(__FILE__, __LINE__, "%s: expected %s, got %s", bad[i].what,
				   strerror(bad[i].err), strerror(errno));
	}

	/* The argument itself: flags, pad, too many syncs, too many ops. */
	for (i = 0; i < ARRAY_SIZE(many); i++)
		many[i] = (struct drm_vaccel_sync){ .handle = done };
	memset(&b, 0, sizeof(b));
	b.ops = (struct drm_vaccel_obj_array)DRM_VACCEL_OBJ_ARRAY(1, &good);
	b.signals = (struct drm_vaccel_obj_array)DRM_VACCEL_OBJ_ARRAY(1, &s_ok);
	b.flags = 1;
	VT_ASSERT_ERRNO(ioctl(fd, DRM_IOCTL_VACCEL_VM_BIND, &b), EINVAL);
	b.flags = 0;
	b.pad = 1;
	VT_ASSERT_ERRNO(ioctl(fd, DRM_IOCTL_VACCEL_VM_BIND, &b), EINVAL);
	VT_ASSERT_ERRNO(bind_raw(fd, &good, 1, many, DRM_VACCEL_MAX_SYNCS + 1, &s_ok, 1),
			E2BIG);
	VT_ASSERT_ERRNO(bind_raw(fd, &good, 1, &w_ok, 1, many, DRM_VACCEL_MAX_SYNCS + 1),
			E2BIG);
	b.pad = 0;
	b.signals.stride = 8;
	VT_ASSERT_ERRNO(ioctl(fd, DRM_IOCTL_VACCEL_VM_BIND, &b), EINVAL);
	lots = calloc(f.d.info.max_bind_ops + 1, sizeof(*lots));
	VT_ASSERT(lots);
	for (i = 0; i <= f.d.info.max_bind_ops; i++)
		lots[i] = vt_op_unmap(A, VT_PAGE);
	VT_ASSERT_ERRNO(bind_raw(fd, lots, f.d.info.max_bind_ops + 1, NULL, 0, &s_ok, 1),
			E2BIG);
	free(lots);

	/* Nothing was queued, nothing ran. */
	sfd = vt_sync_file_raw(fd, out);
	if (sfd >= 0)
		vtest_fail(__FILE__, __LINE__, "a failed bind installed a fence");
	expect_unchanged(fd, &s0, A, 2 * sz, __LINE__);
	VT_ASSERT_EQ(paging_submitted(fd), 0);
	VT_ASSERT_EQ(fdinfo_value(fd, "drm-engine-paging"), 0);

	/* The good one next to them. */
	VT_ASSERT_EQ(bind_raw(fd, &good, 1, &w_ok, 1, &s_ok, 1), 0);
	vt_syncobj_wait(fd, out);
	VT_ASSERT_EQ(vt_fence_status(fd, out), 1);
	expect_stats_plus(fd, &s0, 1, sz, __LINE__);
	VT_ASSERT_EQ(paging_submitted(fd), 1);
}

/*
 * (g) Timeline points: a bind signals point 5; a gated unmap signals point
 * 7 and a job waiting for point 7 runs only after it; a bind waits for
 * point 7 and signals point 2^32 + 9 (points are 64 bits); waiting for a
 * point that has no fence is EINVAL.  An empty asynchronous bind only
 * orders: it signals once its waits have.
 */
VTEST(timeline_points)
{
	struct fx f = fx_open();
	int fd = f.d.fd;
	const __u64 sz = 64 * VT_KIB, big = (1ull << 32) + 9;
	struct ubo x = ubo_new(fd, sz, 0x91);
	__u64 A = vt_va_alloc(&f.d, sz);
	struct drm_vaccel_vm_bind_op map = vt_op_map(x.handle, 0, A, sz, 0);
	struct drm_vaccel_vm_bind_op unmap = vt_op_unmap(A, sz);
	__u32 tl = vt_syncobj(fd), oj = vt_syncobj(fd), oe = vt_syncobj(fd), g;
	struct drm_vaccel_sync s5 = { .handle = tl, .point = 5 };
	struct drm_vaccel_sync s7 = { .handle = tl, .point = 7 };
	struct drm_vaccel_sync w7 = { .handle = tl, .point = 7 };
	struct drm_vaccel_sync sbig = { .handle = tl, .point = big };
	struct drm_vaccel_sync wnone = { .handle = tl, .point = big + 1 };
	struct drm_vaccel_sync wg, soe = { .handle = oe };
	struct drm_vaccel_vm_stats s0;

	vt_vm_stats(fd, &s0);
	VT_ASSERT_EQ(bind_raw(fd, &map, 1, NULL, 0, &s5, 1), 0);
	VT_ASSERT_EQ(vt_timeline_wait_ms(fd, tl, 5, VT_TIMEOUT_MS), 0);
	VT_ASSERT_EQ(vt_timeline_point(fd, tl), 5);
	expect_stats_plus(fd, &s0, 1, sz, __LINE__);

	g = gate(&f, 0);
	wg = (struct drm_vaccel_sync){ .handle = g };
	VT_ASSERT_EQ(bind_raw(fd, &unmap, 1, &wg, 1, &s7, 1), 0);
	vt_pkt_write32(&f.c, f.data.va + 64, 0x77);
	vt_submit_syncs(fd, f.ctx, &f.c, &w7, 1, &(struct drm_vaccel_sync){ .handle = oj }, 1);
	/* An empty batch behind the gated unmap. */
	VT_ASSERT_EQ(bind_raw(fd, NULL, 0, &wg, 1, &soe, 1), 0);

	vt_sleep_ms(EARLY_MS);
	VT_ASSERT_EQ(vt_timeline_point(fd, tl), 5);
	VT_ASSERT_EQ(vt_timeline_wait_ms(fd, tl, 7, 0), -ETIME);
	VT_ASSERT(!vt_syncobj_signalled(fd, oj));
	VT_ASSERT(!vt_syncobj_signalled(fd, oe));
	VT_ASSERT_EQ(VT_U32(&f.data, 64), 0);
	/* Unmapped as the next bind sees it; the page table keeps it for now. */
	expect_stats_plus(fd, &s0, 0, 0, __LINE__);
	VT_ASSERT(!mapped(fd, A, sz));
	expect_ptes(fd, A, sz, __LINE__);

	gate_open(&f, 0);
	VT_ASSERT_EQ(vt_timeline_wait_ms(fd, tl, 7, VT_TIMEOUT_MS), 0);
	vt_syncobj_wait(fd, oj);
	vt_syncobj_wait(fd, oe);
	VT_ASSERT_EQ(vt_fence_status(fd, oj), 1);
	VT_ASSERT_EQ(vt_fence_status(fd, oe), 1);
	VT_ASSERT_EQ(VT_U32(&f.data, 64), 0x77);
	VT_ASSERT_EQ(vt_timeline_point(fd, tl), 7);
	expect_stats_plus(fd, &s0, 0, 0, __LINE__);
	VT_ASSERT(!mapped(fd, A, sz));

	/* Wait for a point, signal a 64-bit one. */
	VT_ASSERT_EQ(bind_raw(fd, &map, 1, &w7, 1, &sbig, 1), 0);
	VT_ASSERT_EQ(vt_timeline_wait_ms(fd, tl, big, VT_TIMEOUT_MS), 0);
	VT_ASSERT_EQ(vt_timeline_point(fd, tl), big);
	expect_stats_plus(fd, &s0, 1, sz, __LINE__);

	/* A point with no fence yet cannot be waited for, as with SUBMIT. */
	VT_ASSERT_ERRNO(bind_raw(fd, &unmap, 1, &wnone, 1, &soe, 1), EINVAL);
	VT_ASSERT_EQ(vt_timeline_point(fd, tl), big);
	expect_stats_plus(fd, &s0, 1, sz, __LINE__);
}

/*
 * The BO handle of a pending map may be closed: the bind holds the BO,
 * and the mapping works once applied.  Unmapping it then frees the BO.
 */
VTEST(handle_closed_while_pending)
{
	struct fx f = fx_open();
	int fd = f.d.fd;
	const __u64 sz = 64 * VT_KIB;
	struct ubo x = ubo_new(fd, sz, 0x71);
	__u64 A = vt_va_alloc(&f.d, sz);
	struct drm_vaccel_vm_bind_op map = vt_op_map(x.handle, 0, A, sz, 0);
	struct vt_dev_mem m0, m1;
	__u32 g, sb = vt_syncobj(fd);
	int waited;

	g = gate(&f, 0);
	bind_async(fd, &map, 1, g, sb);
	vt_gem_close(fd, x.handle);
	vt_dev_mem(fd, &m0);
	gate_open(&f, 0);
	vt_syncobj_wait(fd, sb);
	VT_ASSERT_EQ(vt_fence_status(fd, sb), 1);
	expect_mapping(fd, A, sz, 0, "rwx", __LINE__);
	vt_pkt_write32(&f.c, A + 12, 0xc105ed);
	vt_run(fd, f.ctx, &f.c);
	VT_ASSERT_EQ(*(volatile __u32 *)(x.cpu + 12), 0xc105ed);

	/* Without its mapping and its CPU mapping, the BO goes. */
	vt_unmap(fd, A, sz);
	VT_ASSERT_EQ(munmap(x.cpu, sz), 0);
	for (waited = 0;; waited += 20) {
		vt_dev_mem(fd, &m1);
		if (m1.bo_count == m0.bo_count - 1 && m1.bo_bytes == m0.bo_bytes - (long long)sz)
			break;
		if (waited >= SETTLE_MS)
			vtest_fail(__FILE__, __LINE__, "bo_count %lld bo_bytes %lld, was %lld %lld",
				   m1.bo_count, m1.bo_bytes, m0.bo_count, m0.bo_bytes);
		usleep(20000);
	}
}

/*
 * A bind waiting for a job that faults: the dependency signals with an
 * error, which does not propagate: the bind applies once its waits have
 * signalled, as the uapi says.
 */
VTEST(failed_dependency)
{
	struct fx f = fx_open();
	int fd = f.d.fd;
	const __u64 sz = 64 * VT_KIB;
	struct ubo x = ubo_new(fd, sz, 0x61);
	__u64 A = vt_va_alloc(&f.d, sz), hole = vt_va_hole(&f.d);
	struct drm_vaccel_vm_bind_op map = vt_op_map(x.handle, 0, A, sz, 0);
	struct drm_vaccel_vm_stats s0;
	__u32 bad = vt_ctx_create(fd, COMPUTE, 1), sj = vt_syncobj(fd), sb = vt_syncobj(fd);
	int st;

	vt_vm_stats(fd, &s0);
	vt_pkt_delay(&f.c, 20 * VT_MS);
	vt_pkt_wait_eq32(&f.c, hole, 1);	/* faults: nothing is mapped there */
	vt_submit(fd, bad, &f.c, 0, sj);
	bind_async(fd, &map, 1, sj, sb);
	vt_syncobj_wait(fd, sb);
	VT_ASSERT_EQ(vt_fence_status(fd, sj), -EFAULT);
	/* An error of a dependency does not propagate: the bind applies. */
	st = vt_fence_status(fd, sb);
	VT_ASSERT_EQ(st, 1);
	expect_stats_plus(fd, &s0, 1, sz, __LINE__);
	expect_mapping(fd, A, sz, 0, "rwx", __LINE__);
	/* The file's other work goes on. */
	vt_pkt_write32(&f.c, f.data.va + 8, 0x61);
	vt_run(fd, f.ctx, &f.c);
	VT_ASSERT_EQ(VT_U32(&f.data, 8), 0x61);
}

/* --- closing with binds pending --- */

struct baseline {
	char dir[VT_DIR_MAX];
	struct vt_dev_mem mem;
};

static void baseline_take(struct baseline *b)
{
	vt_debugfs_dir_index(0, b->dir, sizeof(b->dir));
	vt_dev_mem_dir(b->dir, &b->mem);
}

/* Polls until the memory counters equal @want exactly. */
static void expect_mem(const struct baseline *b, const struct vt_dev_mem *want,
		       bool only_vms_pt, int line)
{
	struct vt_dev_mem m;
	int waited;

	for (waited = 0;; waited += 20) {
		vt_dev_mem_dir(b->dir, &m);
		if (only_vms_pt ? m.vms == want->vms && m.pt_pages == want->pt_pages :
		    vt_dev_mem_equal(&m, want))
			return;
		if (waited >= SETTLE_MS)
			vtest_fail(__FILE__, line,
				   "after %d ms: bo_count %lld (want %lld), bo_bytes %lld (%lld), "
				   "vms %lld (%lld), pt_pages %lld (%lld)", waited, m.bo_count,
				   want->bo_count, m.bo_bytes, want->bo_bytes, m.vms, want->vms,
				   m.pt_pages, want->pt_pages);
		usleep(20000);
	}
}

/* Contexts of client @client in debugfs contexts. */
static int client_contexts(const struct baseline *b, unsigned long long client)
{
	char path[PATH_MAX], key[64], *text, *p;
	int n = 0;

	snprintf(path, sizeof(path), "%s/contexts", b->dir);
	snprintf(key, sizeof(key), " client %llu ", client);
	text = vt_read_file(path);
	for (p = strstr(text, key); p; p = strstr(p + 1, key))
		n++;
	free(text);
	return n;
}

/* Unmaps the CPU mappings of the fixture, which hold the file open. */
static void fx_close(struct fx *f)
{
	VT_ASSERT_EQ(munmap(f->c.bo.cpu, f->c.bo.size), 0);
	VT_ASSERT_EQ(munmap(f->data.cpu, f->data.size), 0);
	vt_dev_close(&f->d);
}

/*
 * (h) Closing a file whose binds wait for a gate that never opens (a
 * WAIT_MEM of the same file), with a job waiting for the last bind: close
 * returns promptly, every fence signals (the gate's and the job's with an
 * error), no context of the client is left, and the device's memory
 * counters return exactly to what they were before the file was opened.
 */
VTEST(close_with_pending_binds)
{
	struct baseline b;
	struct vt_dev_mem grown;
	struct fx f;
	struct ubo x;
	__u64 A;
	__u32 g, s[4];
	int sf[5], i, fd;
	unsigned long long client;

	baseline_take(&b);
	f = fx_open();
	fd = f.d.fd;
	client = vt_client_id(fd);
	x = ubo_new(fd, VT_MIB, 0x81);
	A = vt_va_alloc(&f.d, VT_MIB);
	{
		struct drm_vaccel_vm_bind_op map = vt_op_map(x.handle, 0, A, VT_MIB, 0);
		struct drm_vaccel_vm_bind_op unmap = vt_op_unmap(A, VT_MIB);

		for (i = 0; i < 4; i++)
			s[i] = vt_syncobj(fd);
		g = gate(&f, 0);
		bind_async(fd, &map, 1, g, s[0]);
		bind_async(fd, &unmap, 1, 0, s[1]);
		bind_async(fd, &map, 1, 0, s[2]);
		vt_pkt_copy(&f.c, A, f.data.va + 1024, 64);
		vt_submit(fd, f.ctx, &f.c, s[2], s[3]);
	}
	for (i = 0; i < 4; i++)
		sf[i] = vt_sync_file_named(fd, s[i]);
	sf[4] = vt_sync_file_named(fd, g);
	vt_dev_mem_dir(b.dir, &grown);
	VT_ASSERT_EQ(grown.vms, b.mem.vms + 1);
	VT_ASSERT_EQ(grown.bo_count, b.mem.bo_count + 3);
	VT_ASSERT_EQ(client_contexts(&b, client), 3);	/* two, and the paging one */

	VT_ASSERT_EQ(munmap(x.cpu, x.size), 0);
	VT_EXPECT_WITHIN_MS(2000, "close", fx_close(&f));

	for (i = 0; i < 5; i++)
		if (!vt_sync_file_wait(sf[i], VT_TIMEOUT_MS))
			vtest_fail(__FILE__, __LINE__, "fence %d not signalled after close", i);
	VT_ASSERT(vt_sync_file_status(sf[4]) < 0);	/* the gate */
	VT_ASSERT(vt_sync_file_status(sf[3]) < 0);	/* the job */
	for (i = 0; i < 3; i++)
		printf("# close_with_pending_binds: bind %d status %d\n", i,
		       vt_sync_file_status(sf[i]));
	expect_mem(&b, &b.mem, false, __LINE__);
	VT_ASSERT_EQ(client_contexts(&b, client), 0);
	for (i = 0; i < 5; i++)
		close(sf[i]);
}

/*
 * Closing a file whose bind waits for a gate of another file, which stays
 * closed meanwhile: the VM and its page tables go at once; once the gate
 * opens, the bind's fence signals with an error (it must not be applied to
 * a VM that is gone), and closing the other file brings every counter back.
 */
VTEST(close_with_bind_gated_elsewhere)
{
	struct baseline b;
	struct vt_dev_mem with_other;
	struct fx other, f;
	struct ubo x;
	__u32 gs, w, sb;
	int gsf, sf;
	unsigned long long client;
	__u64 A;

	baseline_take(&b);
	other = fx_open();
	gs = gate(&other, 0);
	gsf = vt_sync_file(other.d.fd, gs);
	vt_dev_mem_dir(b.dir, &with_other);

	f = fx_open();
	client = vt_client_id(f.d.fd);
	w = vt_syncobj(f.d.fd);
	sb = vt_syncobj(f.d.fd);
	VT_ASSERT_EQ(drmSyncobjImportSyncFile(f.d.fd, w, gsf), 0);
	x = ubo_new(f.d.fd, VT_MIB, 0x82);
	A = vt_va_alloc(&f.d, VT_MIB);
	{
		struct drm_vaccel_vm_bind_op map = vt_op_map(x.handle, 0, A, VT_MIB, 0);

		bind_async(f.d.fd, &map, 1, w, sb);
	}
	sf = vt_sync_file_named(f.d.fd, sb);
	VT_ASSERT_EQ(munmap(x.cpu, x.size), 0);
	fx_close(&f);

	/* The VM is gone; the pending bind may still hold its BO. */
	expect_mem(&b, &with_other, true, __LINE__);
	VT_ASSERT_EQ(client_contexts(&b, client), 0);

	gate_open(&other, 0);
	vt_syncobj_wait(other.d.fd, gs);
	VT_ASSERT_EQ(vt_fence_status(other.d.fd, gs), 1);
	if (!vt_sync_file_wait(sf, VT_TIMEOUT_MS))
		vtest_fail(__FILE__, __LINE__, "the orphaned bind never signalled");
	if (vt_sync_file_status(sf) >= 0)
		vtest_fail(__FILE__, __LINE__,
			   "the bind of a closed file ended with status %d (applied?)",
			   vt_sync_file_status(sf));
	expect_mem(&b, &with_other, false, __LINE__);
	fx_close(&other);
	expect_mem(&b, &b.mem, false, __LINE__);
	close(gsf);
	close(sf);
}

/*
 * (i) fdinfo: drm-engine-paging is 0 for a new file and grows with every
 * asynchronous bind the paging engine applies, and so does the paging
 * engine's busy time in debugfs; no compute or copy time is counted for
 * binds.
 */
VTEST(fdinfo_paging_time)
{
	struct fx f = fx_open();
	int fd = f.d.fd;
	const __u64 sz = 16 * VT_MIB;
	struct ubo x = ubo_new(fd, sz, 0x41);
	__u64 A = vt_va_alloc(&f.d, sz);
	struct drm_vaccel_vm_bind_op map = vt_op_map(x.handle, 0, A, sz, 0);
	struct drm_vaccel_vm_bind_op unmap = vt_op_unmap(A, sz);
	long long p0, p1, p2, c0, y0 = 0;
	unsigned long long e0, e1;
	__u32 o = vt_syncobj(fd);
	unsigned int k;
	bool has_copy = f.d.info.engine_count[COPY] > 0;

	p0 = fdinfo_value(fd, "drm-engine-paging");
	c0 = fdinfo_value(fd, "drm-engine-compute");
	if (has_copy)
		y0 = fdinfo_value(fd, "drm-engine-copy");
	VT_ASSERT_EQ(p0, 0);
	e0 = engine_busy_ns(fd, "paging0");

	bind_async(fd, &map, 1, 0, o);
	vt_syncobj_wait(fd, o);
	VT_ASSERT_EQ(vt_fence_status(fd, o), 1);
	p1 = fdinfo_value(fd, "drm-engine-paging");
	if (p1 <= p0)
		vtest_fail(__FILE__, __LINE__, "drm-engine-paging %lld after a 16 MiB map",
			   p1);

	for (k = 0; k < 10; k++)
		bind_async(fd, k % 2 ? &map : &unmap, 1, 0, o);
	vt_syncobj_wait(fd, o);
	VT_ASSERT_EQ(vt_fence_status(fd, o), 1);
	p2 = fdinfo_value(fd, "drm-engine-paging");
	if (p2 <= p1)
		vtest_fail(__FILE__, __LINE__, "drm-engine-paging %lld after 10 more binds "
			   "(was %lld)", p2, p1);
	e1 = engine_busy_ns(fd, "paging0");
	VT_ASSERT(e1 >= e0 + (unsigned long long)p2);
	VT_ASSERT_EQ(fdinfo_value(fd, "drm-engine-compute"), c0);
	if (has_copy)
		VT_ASSERT_EQ(fdinfo_value(fd, "drm-engine-copy"), y0);
	expect_mapping(fd, A, sz, 0, "rwx", __LINE__);
}

/*
 * One paging engine serves every file, and a file's large bind does not
 * hold it: the engine preempts a bind between 2 MiB regions, so another
 * file's small bind, submitted while the large one applies, completes
 * while the large one is still applying (time slices of one band), and
 * the large one completes too, whole.
 *
 * The large bind is sized to this machine: some 200 time slices of
 * applying, as the engine's time for four of its operations measures
 * (from the ioctl's return, which did the preparing, to the fence),
 * between 8 and 192 operations of 64 MiB.  The engine applies four in
 * tens of milliseconds even on the debug kernel under TCG, so the
 * sizing mostly keeps 192; the ioctl's preparing costs far more there.
 */
#define SHARED_OPS_MIN	8
#define SHARED_OPS_MAX	192
#define SHARED_PROBE	4

VTEST(paging_engine_shared_between_files)
{
	struct vt_dev a = vt_dev_open(), b = vt_dev_open();
	const __u64 bo_size = 64 * VT_MIB, base = 1ull << 34;
	__u32 big = vt_bo_create(a.fd, bo_size, 0), small = vt_bo_create(b.fd, VT_PAGE, 0);
	static struct drm_vaccel_vm_bind_op ops[SHARED_OPS_MAX];
	struct drm_vaccel_vm_bind_op op = vt_op_map(small, 0, 1ull << 30, VT_PAGE, 0);
	__u32 probe = vt_syncobj(a.fd), oa = vt_syncobj(a.fd), ob = vt_syncobj(b.fd);
	__u64 t0, probe_ns, want_ns, span;
	struct drm_vaccel_vm_stats s;
	unsigned int i, n;

	for (i = 0; i < ARRAY_SIZE(ops); i++)
		ops[i] = vt_op_map(big, 0, base + i * bo_size, bo_size, 0);

	/* The probe: four operations, applied alone, then unmapped. */
	bind_async(a.fd, ops, SHARED_PROBE, 0, probe);
	t0 = vt_now_ns();
	VT_ASSERT_OK(vt_syncobj_wait_ms(a.fd, probe, 120000));
	probe_ns = vt_now_ns() - t0 + 1;
	VT_ASSERT_EQ(vt_fence_status(a.fd, probe), 1);
	vt_unmap(a.fd, base, SHARED_PROBE * bo_size);
	want_ns = 200ull * vt_expect_def("VT_TIMESLICE_MS", "timeslice_ms", 10, false) * VT_MS;
	n = SHARED_PROBE * (want_ns / probe_ns + 1);
	n = n < SHARED_OPS_MIN ? SHARED_OPS_MIN : n > SHARED_OPS_MAX ? SHARED_OPS_MAX : n;
	span = n * bo_size;

	bind_async(a.fd, ops, n, 0, oa);
	bind_async(b.fd, &op, 1, 0, ob);
	VT_ASSERT_OK(vt_syncobj_wait_ms(b.fd, ob, 60000));
	if (vt_syncobj_signalled(a.fd, oa))
		vtest_fail(__FILE__, __LINE__,
			   "the small bind completed after the large one (%u operations)", n);
	VT_ASSERT_OK(vt_syncobj_wait_ms(a.fd, oa, 120000));
	VT_ASSERT_EQ(vt_fence_status(a.fd, oa), 1);
	VT_ASSERT_EQ(vt_fence_status(b.fd, ob), 1);
	expect_ptes(a.fd, base + span - bo_size, 16 * VT_PAGE, __LINE__);
	vt_vm_stats(a.fd, &s);
	VT_ASSERT_EQ(s.mapped_bytes, span);
}

VTEST_MAIN()
