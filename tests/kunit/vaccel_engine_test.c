// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * KUnit tests of execution: real engine threads, contexts and drm_sched on
 * a KUnit DRM device, with DMA buffers in pages mapped straight into a VM's
 * page table.  Packet decoding and validation, in-order completion, the
 * two-slot bound of the HW queue, how fence errors propagate, preemption
 * of a running packet, priority, and hang recovery.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/dma-fence.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>

#include <drm/drm_file.h>
#include <drm/drm_kunit_helpers.h>
#include <drm/vaccel_accel.h>

#include "../vaccel_context.h"
#include "../vaccel_drv.h"
#include "../vaccel_engine.h"
#include "../vaccel_file.h"
#include "../vaccel_vm.h"

#define CMD_VA		SZ_1M		/* 2 pages of packets */
#define DATA_VA		SZ_2M		/* 2 pages of data */
#define RO_VA		SZ_4M		/* 1 read-only page */
#define UNMAPPED_VA	SZ_8M
#define NPAGES		5
#define TIMEOUT_MS	300
#define TIME_LIMIT_MS	1000

#define HDR(op, flags, words)	DRM_VACCEL_PKT_HEADER(op, flags, words)

struct vaccel_engine_test {
	struct vaccel_device *vdev;
	struct drm_file file;
	struct vaccel_file *vfile;
	struct vaccel_context *ctx;
	struct page *pages[NPAGES];
	u64 *cmd;
	u8 *data;
};

static void map(struct vaccel_engine_test *t, u64 va, unsigned int first,
		unsigned int n, u64 flags)
{
	struct vaccel_vm *vm = t->vfile->vm;
	struct vaccel_pt_reserve r;

	vaccel_pt_reserve_init(&r);
	WARN_ON(vaccel_pt_reserve_fill(&vm->pt, &r,
				       vaccel_pt_tables_for(va, n * PAGE_SIZE)));
	mutex_lock(&vm->pt_lock);
	vaccel_pt_map(&vm->pt, va, n * PAGE_SIZE,
		      &(struct vaccel_pt_frames){ .pages = &t->pages[first] }, flags, &r);
	mutex_unlock(&vm->pt_lock);
	vaccel_pt_reserve_release(&vm->pt, &r);
}

static int vaccel_engine_test_init(struct kunit *test)
{
	struct vaccel_topology_params p = {
		.devices = 1, .compute_engines = 1, .copy_engines = 1, .va_bits = 48,
		.timeslice_ms = VACCEL_TIMESLICE_MS_DEFAULT,
		.timeout_ms = TIMEOUT_MS,
		.time_limit_ms = TIME_LIMIT_MS,
		.dispatch_slice = VACCEL_DISPATCH_SLICE_DEFAULT,
	};
	struct vaccel_engine_test *t;
	struct device *dev;
	const char *why;
	int i;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;

	dev = drm_kunit_helper_alloc_device(test);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	t->vdev = drm_kunit_helper_alloc_drm_device(test, dev,
						    struct vaccel_device, drm,
						    DRIVER_GEM | DRIVER_GEM_GPUVA);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t->vdev));
	KUNIT_ASSERT_EQ(test, vaccel_topology_init(&t->vdev->topo, &p, &why), 0);
	KUNIT_ASSERT_EQ(test, vaccel_device_init(t->vdev), 0);

	t->file.client_id = 1;
	t->vfile = vaccel_file_create(t->vdev, &t->file);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t->vfile));

	for (i = 0; i < NPAGES; i++) {
		t->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, t->pages[i]);
	}
	/* Two command pages and two data pages: contiguous in the kernel too. */
	t->cmd = vmap(t->pages, 2, VM_MAP, PAGE_KERNEL);
	t->data = vmap(&t->pages[2], 2, VM_MAP, PAGE_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->cmd);
	KUNIT_ASSERT_NOT_NULL(test, t->data);
	map(t, CMD_VA, 0, 2, DRM_VACCEL_PTE_WRITE);
	map(t, DATA_VA, 2, 2, DRM_VACCEL_PTE_WRITE);
	map(t, RO_VA, 4, 1, 0);

	t->ctx = vaccel_context_create(t->vdev, t->vfile, &t->vdev->engines[0],
				       DRM_VACCEL_PRIORITY_NORMAL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t->ctx));
	return 0;
}

static void vaccel_engine_test_exit(struct kunit *test)
{
	struct vaccel_engine_test *t = test->priv;
	int i;

	if (!IS_ERR_OR_NULL(t->ctx))
		vaccel_context_destroy(t->ctx);
	if (!IS_ERR_OR_NULL(t->vfile))
		vaccel_file_close(t->vfile);
	/* The contexts' teardowns, before the pages their buffers used go. */
	flush_workqueue(vaccel_teardown_wq);
	if (t->cmd)
		vunmap(t->cmd);
	if (t->data)
		vunmap(t->data);
	for (i = 0; i < NPAGES; i++)
		if (t->pages[i])
			__free_page(t->pages[i]);
}

/* At CMD_VA + 64, 32 bytes: a WAIT_MEM for a 1 at DATA_VA, which holds 0. */
static void gate_at_64(struct vaccel_engine_test *t)
{
	t->cmd[8] = HDR(DRM_VACCEL_PKT_WAIT_MEM, 0, 4);
	t->cmd[9] = DATA_VA;
	t->cmd[10] = 1;
	t->cmd[11] = 0xffffffff;
	*(u32 *)t->data = 0;
}

static struct dma_fence *submit(struct kunit *test, struct vaccel_context *ctx,
				u64 va, u64 size)
{
	struct vaccel_engine_test *t = test->priv;
	struct drm_vaccel_obj_array none = {};
	struct vaccel_job *job = vaccel_job_alloc();
	struct dma_fence *done = NULL;

	KUNIT_ASSERT_NOT_NULL(test, job);
	job->va = va;
	job->size = size;
	KUNIT_ASSERT_EQ(test, vaccel_context_submit(ctx, &t->file, job, &none,
						    &none, &done), 0);
	return done;
}

/* Waits for @f and drops it; returns its error. */
static int wait(struct kunit *test, struct dma_fence *f)
{
	int err;

	KUNIT_ASSERT_GT(test, dma_fence_wait_timeout(f, false, 10 * HZ), 0);
	err = f->error;
	dma_fence_put(f);
	return err;
}

struct vaccel_pkt_case {
	const char *name;
	u64 words[8];
	unsigned int nwords;	/* the buffer's size in words */
	u64 buffer_va;		/* 0: CMD_VA */
	int error;
	u8 reason;
	u8 access;
	u64 fault_va;		/* 0: the faulting packet's own VA */
	u64 fault_offset;
};

#define OK(n, ...)	{ n, { __VA_ARGS__ }, ARRAY_SIZE(((u64[]){ __VA_ARGS__ })), 0, 0 }
/* A malformed packet @off bytes into the buffer, faulting at its own VA. */
#define BAD(n, off, ...) \
	{ n, { __VA_ARGS__ }, ARRAY_SIZE(((u64[]){ __VA_ARGS__ })), 0, -EINVAL, \
	  DRM_VACCEL_FAULT_MALFORMED, DRM_VACCEL_ACCESS_READ, 0, off }

static const struct vaccel_pkt_case vaccel_pkt_cases[] = {
	OK("nop", HDR(DRM_VACCEL_PKT_NOP, 0, 1)),
	OK("nop_padding", HDR(DRM_VACCEL_PKT_NOP, 0, 4), 1, 2, 3),
	OK("write32", HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3), DATA_VA, 0x11223344),
	OK("write64", HDR(DRM_VACCEL_PKT_WRITE_IMM, DRM_VACCEL_PKT_F_64BIT, 3),
	   DATA_VA + 8, 0x1122334455667788ull),
	OK("fill_crossing", HDR(DRM_VACCEL_PKT_FILL, 0, 4), DATA_VA + 4000, 200,
	   0xabcdabcd),
	OK("copy_overlapping", HDR(DRM_VACCEL_PKT_COPY, 0, 4), DATA_VA + 512,
	   DATA_VA + 520, 32),
	OK("timestamp", HDR(DRM_VACCEL_PKT_TIMESTAMP, 0, 2), DATA_VA + 16),
	OK("wait_satisfied", HDR(DRM_VACCEL_PKT_WAIT_MEM,
				 DRM_VACCEL_PKT_WAIT_OP(DRM_VACCEL_WAIT_GE), 4),
	   DATA_VA + 1024, 5, 0xffffffff),
	OK("delay", HDR(DRM_VACCEL_PKT_DELAY, 0, 2), 100000),
	BAD("unknown_opcode", 0, HDR(0x7f, 0, 1)),
	BAD("reserved_bits", 0, HDR(DRM_VACCEL_PKT_NOP, 0, 1) | BIT_ULL(40)),
	BAD("zero_length", 0, HDR(DRM_VACCEL_PKT_NOP, 0, 0)),
	BAD("wrong_length", 0, HDR(DRM_VACCEL_PKT_TIMESTAMP, 0, 3), DATA_VA, 0),
	BAD("nop_with_flags", 0, HDR(DRM_VACCEL_PKT_NOP, 1, 1)),
	BAD("copy_with_flags", 0, HDR(DRM_VACCEL_PKT_COPY, 1, 4), DATA_VA, DATA_VA, 8),
	BAD("write_misaligned", 0, HDR(DRM_VACCEL_PKT_WRITE_IMM, DRM_VACCEL_PKT_F_64BIT, 3),
	    DATA_VA + 4, 1),
	BAD("fill_misaligned", 0, HDR(DRM_VACCEL_PKT_FILL, 0, 4), DATA_VA + 2, 8, 0),
	BAD("wait_bad_compare", 0, HDR(DRM_VACCEL_PKT_WAIT_MEM, DRM_VACCEL_PKT_WAIT_OP(6), 4),
	    DATA_VA, 0, 0),
	BAD("past_the_end", 8, HDR(DRM_VACCEL_PKT_NOP, 0, 1),
	    HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3)),
	{ "write_unmapped", { HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3), UNMAPPED_VA, 1 }, 3, 0,
	  -EFAULT, DRM_VACCEL_FAULT_UNMAPPED, DRM_VACCEL_ACCESS_WRITE, UNMAPPED_VA, 0 },
	{ "write_read_only", { HDR(DRM_VACCEL_PKT_NOP, 0, 1),
			       HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3), RO_VA, 1 }, 4, 0,
	  -EFAULT, DRM_VACCEL_FAULT_PERMISSION, DRM_VACCEL_ACCESS_WRITE, RO_VA, 8 },
	{ "write_out_of_range", { HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3), BIT_ULL(50), 1 }, 3,
	  0, -EFAULT, DRM_VACCEL_FAULT_OUT_OF_RANGE, DRM_VACCEL_ACCESS_WRITE, BIT_ULL(50), 0 },
	{ "copy_src_unmapped", { HDR(DRM_VACCEL_PKT_COPY, 0, 4), UNMAPPED_VA, DATA_VA, 8 },
	  4, 0, -EFAULT, DRM_VACCEL_FAULT_UNMAPPED, DRM_VACCEL_ACCESS_READ, UNMAPPED_VA, 0 },
	{ "fetch_unmapped", {}, 1, UNMAPPED_VA, -EFAULT, DRM_VACCEL_FAULT_UNMAPPED,
	  DRM_VACCEL_ACCESS_READ, UNMAPPED_VA, 0 },
};

static void vaccel_pkt_case_desc(const struct vaccel_pkt_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(vaccel_pkt, vaccel_pkt_cases, vaccel_pkt_case_desc);

/* The effects of the good cases that write memory, read back by the CPU. */
static void check_effects(struct kunit *test, const struct vaccel_pkt_case *c,
			  u64 before_ns)
{
	struct vaccel_engine_test *t = test->priv;
	int i;

	if (!strcmp(c->name, "write32")) {
		KUNIT_EXPECT_EQ(test, *(u32 *)t->data, 0x11223344);
		KUNIT_EXPECT_EQ(test, *(u32 *)(t->data + 4), 0x5a5a5a5a);
	} else if (!strcmp(c->name, "write64")) {
		KUNIT_EXPECT_EQ(test, *(u64 *)(t->data + 8), 0x1122334455667788ull);
	} else if (!strcmp(c->name, "fill_crossing")) {
		for (i = 4000; i < 4200; i += 4)
			KUNIT_EXPECT_EQ(test, *(u32 *)(t->data + i), 0xabcdabcd);
		KUNIT_EXPECT_EQ(test, *(u32 *)(t->data + 4200), 0x5a5a5a5a);
	} else if (!strcmp(c->name, "copy_overlapping")) {
		/* memmove: the destination holds the source as it was. */
		for (i = 0; i < 32; i++)
			KUNIT_EXPECT_EQ(test, t->data[520 + i], (u8)i);
	} else if (!strcmp(c->name, "timestamp")) {
		u64 ts = *(u64 *)(t->data + 16);

		KUNIT_EXPECT_GE(test, ts, before_ns);
		KUNIT_EXPECT_LE(test, ts, ktime_get_ns());
	}
}

/*
 * Each packet, good or malformed: the fence's error, the context's fault
 * record (VA, access, reason, packet offset), and what reached memory.
 */
static void vaccel_test_engine_packets(struct kunit *test)
{
	const struct vaccel_pkt_case *c = test->param_value;
	struct vaccel_engine_test *t = test->priv;
	u64 before;
	int i, err;

	memset(t->data, 0x5a, 2 * PAGE_SIZE);
	for (i = 0; i < 32; i++)
		t->data[512 + i] = i;
	*(u32 *)(t->data + 1024) = 7;
	memcpy(t->cmd, c->words, sizeof(c->words));

	before = ktime_get_ns();
	err = wait(test, submit(test, t->ctx, c->buffer_va ?: CMD_VA, c->nwords * 8));
	KUNIT_EXPECT_EQ(test, err, c->error);
	KUNIT_EXPECT_EQ(test, t->ctx->faulted, !!c->error);
	if (c->error) {
		KUNIT_EXPECT_EQ(test, t->ctx->fault.reason, c->reason);
		KUNIT_EXPECT_EQ(test, t->ctx->fault.access, c->access);
		KUNIT_EXPECT_EQ(test, t->ctx->fault.va,
				c->fault_va ?: CMD_VA + c->fault_offset);
		KUNIT_EXPECT_EQ(test, t->ctx->fault_offset, c->fault_offset);
		/* A faulting write wrote nothing. */
		KUNIT_EXPECT_EQ(test, *(u32 *)t->data, 0x5a5a5a5a);
		/* The context takes no more work. */
		KUNIT_EXPECT_EQ(test, wait(test, submit(test, t->ctx, CMD_VA, 8)),
				-ECANCELED);
	} else {
		check_effects(test, c, before);
	}
}

/* 64 buffers of one context complete in order: their timestamps increase. */
static void vaccel_test_engine_in_order(struct kunit *test)
{
	struct vaccel_engine_test *t = test->priv;
	struct dma_fence *f[64];
	u64 *ts = (u64 *)t->data;
	int i;

	for (i = 0; i < 64; i++) {
		t->cmd[2 * i] = HDR(DRM_VACCEL_PKT_TIMESTAMP, 0, 2);
		t->cmd[2 * i + 1] = DATA_VA + 8 * i;
	}
	for (i = 0; i < 64; i++)
		f[i] = submit(test, t->ctx, CMD_VA + 16 * i, 16);
	for (i = 63; i >= 0; i--)
		KUNIT_EXPECT_EQ(test, wait(test, f[i]), 0);
	for (i = 1; i < 64; i++)
		KUNIT_EXPECT_GT_MSG(test, ts[i], ts[i - 1], "buffer %d", i);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->ctx->jobs_completed), 64);
}

/*
 * Three contexts keep one engine busy with short delays: the HW queue
 * fills both its slots and never holds more.
 */
static void vaccel_test_engine_hwq_bound(struct kunit *test)
{
	struct vaccel_engine_test *t = test->priv;
	struct vaccel_engine *e = &t->vdev->engines[0];
	struct vaccel_context *ctx[3];
	struct dma_fence *f[3][10];
	unsigned int max = 0, n;
	int i, j;

	t->cmd[0] = HDR(DRM_VACCEL_PKT_DELAY, 0, 2);
	t->cmd[1] = 200000;
	ctx[0] = t->ctx;
	for (i = 1; i < 3; i++) {
		ctx[i] = vaccel_context_create(t->vdev, t->vfile, e,
					       DRM_VACCEL_PRIORITY_NORMAL);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ctx[i]));
	}
	for (j = 0; j < 10; j++)
		for (i = 0; i < 3; i++)
			f[i][j] = submit(test, ctx[i], CMD_VA, 16);

	while (!dma_fence_is_signaled(f[2][9])) {
		spin_lock(&e->lock);
		n = e->arbiter.slots_used;
		spin_unlock(&e->lock);
		max = max(max, n);
		usleep_range(20, 50);
	}
	for (i = 0; i < 3; i++)
		for (j = 0; j < 10; j++)
			KUNIT_EXPECT_EQ(test, wait(test, f[i][j]), 0);
	KUNIT_EXPECT_EQ(test, max, VACCEL_HW_QUEUE_DEPTH);
	for (i = 1; i < 3; i++)
		vaccel_context_destroy(ctx[i]);
}

/*
 * A fault fails its buffer with -EFAULT and cancels what the context has
 * behind it with -ECANCELED; another context on the same engine is
 * untouched; destroying a context cancels its running and queued buffers.
 */
static void vaccel_test_engine_fence_errors(struct kunit *test)
{
	struct vaccel_engine_test *t = test->priv;
	struct vaccel_engine *e = &t->vdev->engines[0];
	struct dma_fence *a[4], *b[3], *gated[2];
	struct vaccel_context *other;
	int i;

	/* [0]: nop; [2]: a fault; [6]: a long delay; [8]: a gate never opened */
	t->cmd[0] = HDR(DRM_VACCEL_PKT_NOP, 0, 2);
	t->cmd[2] = HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3);
	t->cmd[3] = UNMAPPED_VA;
	t->cmd[6] = HDR(DRM_VACCEL_PKT_DELAY, 0, 2);
	t->cmd[7] = 2000000;
	gate_at_64(t);

	other = vaccel_context_create(t->vdev, t->vfile, e,
				      DRM_VACCEL_PRIORITY_NORMAL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(other));

	a[0] = submit(test, t->ctx, CMD_VA, 16);
	a[1] = submit(test, t->ctx, CMD_VA + 16, 32);
	a[2] = submit(test, t->ctx, CMD_VA, 16);
	a[3] = submit(test, t->ctx, CMD_VA + 48, 16);
	for (i = 0; i < 3; i++)
		b[i] = submit(test, other, CMD_VA, 16);

	KUNIT_EXPECT_EQ(test, wait(test, a[0]), 0);
	KUNIT_EXPECT_EQ(test, wait(test, a[1]), -EFAULT);
	KUNIT_EXPECT_EQ(test, wait(test, a[2]), -ECANCELED);
	KUNIT_EXPECT_EQ(test, wait(test, a[3]), -ECANCELED);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, wait(test, b[i]), 0);

	/* A gate that never opens, a buffer queued behind it: destroy both. */
	gated[0] = submit(test, other, CMD_VA + 64, 32);
	gated[1] = submit(test, other, CMD_VA, 16);
	msleep(20);
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(gated[0]));
	vaccel_context_destroy(other);
	KUNIT_EXPECT_EQ(test, wait(test, gated[0]), -ECANCELED);
	KUNIT_EXPECT_EQ(test, wait(test, gated[1]), -ECANCELED);
}

/*
 * A DELAY preempted again and again resumes with what is left: it
 * completes without error after its whole time on the engine, and every
 * forced preemption is counted.
 */
static void vaccel_test_engine_delay_preempted(struct kunit *test)
{
	struct vaccel_engine_test *t = test->priv;
	struct vaccel_engine *e = &t->vdev->engines[0];
	struct dma_fence *f;
	u64 start, run_ns, preemptions;
	int i;

	/*
	 * Long enough for five forced preemptions whatever UML's HZ, short
	 * of the hang timeout.
	 */
	t->cmd[0] = HDR(DRM_VACCEL_PKT_DELAY, 0, 2);
	t->cmd[1] = 200 * NSEC_PER_MSEC;
	start = ktime_get_ns();
	f = submit(test, t->ctx, CMD_VA, 16);
	for (i = 0; i < 5; i++) {
		usleep_range(10000, 12000);
		vaccel_engine_force_preempt(e);
	}
	KUNIT_EXPECT_EQ(test, wait(test, f), 0);
	KUNIT_EXPECT_GE(test, ktime_get_ns() - start, 200 * NSEC_PER_MSEC);
	spin_lock(&e->lock);
	run_ns = t->ctx->arb.run_ns;
	preemptions = t->ctx->arb.preemptions;
	spin_unlock(&e->lock);
	KUNIT_EXPECT_GE(test, run_ns, 200 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, preemptions, 5);
	KUNIT_EXPECT_EQ(test, e->arbiter.preempt_count[VACCEL_PREEMPT_FORCED], 5);
}

/* A HIGH buffer overtakes a long LOW one, which then completes. */
static void vaccel_test_engine_priority(struct kunit *test)
{
	struct vaccel_engine_test *t = test->priv;
	struct vaccel_engine *e = &t->vdev->engines[0];
	struct vaccel_context *low, *high;
	struct dma_fence *fl, *fh;

	t->cmd[0] = HDR(DRM_VACCEL_PKT_DELAY, 0, 2);
	t->cmd[1] = 100 * NSEC_PER_MSEC;
	t->cmd[2] = HDR(DRM_VACCEL_PKT_WRITE_IMM, 0, 3);
	t->cmd[3] = DATA_VA;
	t->cmd[4] = 7;
	low = vaccel_context_create(t->vdev, t->vfile, e, DRM_VACCEL_PRIORITY_LOW);
	KUNIT_ASSERT_FALSE(test, IS_ERR(low));
	high = vaccel_context_create(t->vdev, t->vfile, e, DRM_VACCEL_PRIORITY_HIGH);
	KUNIT_ASSERT_FALSE(test, IS_ERR(high));

	fl = submit(test, low, CMD_VA, 16);
	usleep_range(10000, 12000);
	fh = submit(test, high, CMD_VA + 16, 24);
	/* The LOW DELAY has 90 ms left: HIGH is done long before. */
	KUNIT_EXPECT_GT(test, dma_fence_wait_timeout(fh, false, msecs_to_jiffies(50)), 0);
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(fl));
	KUNIT_EXPECT_EQ(test, *(u32 *)t->data, 7);
	KUNIT_EXPECT_EQ(test, wait(test, fh), 0);
	KUNIT_EXPECT_EQ(test, wait(test, fl), 0);
	KUNIT_EXPECT_EQ(test, low->arb.preemptions, 1);
	KUNIT_EXPECT_EQ(test, e->arbiter.preempt_count[VACCEL_PREEMPT_PRIORITY], 1);
	vaccel_context_destroy(high);
	vaccel_context_destroy(low);
}

/*
 * A WAIT_MEM that is never satisfied hangs: after the timeout its buffer
 * fails with -ETIMEDOUT, the context is banned with its later buffer
 * cancelled, and another context's buffers on the engine all complete.
 */
static void vaccel_test_engine_hang(struct kunit *test)
{
	struct vaccel_engine_test *t = test->priv;
	struct vaccel_engine *e = &t->vdev->engines[0];
	struct dma_fence *hung, *after, *b[4];
	struct vaccel_context *other;
	u64 start, took;
	int i;

	t->cmd[0] = HDR(DRM_VACCEL_PKT_NOP, 0, 2);
	gate_at_64(t);
	other = vaccel_context_create(t->vdev, t->vfile, e,
				      DRM_VACCEL_PRIORITY_NORMAL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(other));

	start = ktime_get_ns();
	hung = submit(test, t->ctx, CMD_VA + 64, 32);
	after = submit(test, t->ctx, CMD_VA, 16);
	for (i = 0; i < 4; i++)
		b[i] = submit(test, other, CMD_VA, 16);
	KUNIT_EXPECT_EQ(test, wait(test, hung), -ETIMEDOUT);
	took = ktime_get_ns() - start;
	KUNIT_EXPECT_EQ(test, wait(test, after), -ECANCELED);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, wait(test, b[i]), 0);
	KUNIT_EXPECT_GE(test, took, TIMEOUT_MS * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, t->ctx->ban_reason, DRM_VACCEL_BAN_HANG);
	KUNIT_EXPECT_EQ(test, t->ctx->guilty_resets, 1);
	KUNIT_EXPECT_EQ(test, t->ctx->cancelled, -ECANCELED);
	KUNIT_EXPECT_EQ(test, other->guilty_resets, 0);
	KUNIT_EXPECT_EQ(test, e->hangs, 1);
	KUNIT_EXPECT_GE(test, e->resets, 1);
	vaccel_context_destroy(other);
}

/*
 * An engine reset that does not bring the engine back escalates: a second
 * hang before any buffer completed resets the device, and everything else
 * still completes.
 */
static void vaccel_test_engine_hang_escalates(struct kunit *test)
{
	struct vaccel_engine_test *t = test->priv;
	struct vaccel_engine *e = &t->vdev->engines[0];
	struct vaccel_context *second, *innocent;
	struct dma_fence *h[2], *ok;
	s64 before = atomic64_read(&t->vdev->device_resets);

	t->cmd[0] = HDR(DRM_VACCEL_PKT_NOP, 0, 2);
	gate_at_64(t);
	second = vaccel_context_create(t->vdev, t->vfile, e,
				       DRM_VACCEL_PRIORITY_NORMAL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(second));
	innocent = vaccel_context_create(t->vdev, t->vfile, &t->vdev->engines[1],
					 DRM_VACCEL_PRIORITY_NORMAL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(innocent));

	h[0] = submit(test, t->ctx, CMD_VA + 64, 32);
	KUNIT_EXPECT_EQ(test, wait(test, h[0]), -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->vdev->device_resets), before);
	h[1] = submit(test, second, CMD_VA + 64, 32);
	KUNIT_EXPECT_EQ(test, wait(test, h[1]), -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->vdev->device_resets), before + 1);
	ok = submit(test, innocent, CMD_VA, 16);
	KUNIT_EXPECT_EQ(test, wait(test, ok), 0);
	KUNIT_EXPECT_EQ(test, second->ban_reason, DRM_VACCEL_BAN_HANG);
	KUNIT_EXPECT_EQ(test, innocent->ban_reason, DRM_VACCEL_BAN_NONE);
	vaccel_context_destroy(innocent);
	vaccel_context_destroy(second);
}

/*
 * Completions that come out of order, as a cancellation racing run_job
 * makes them, still signal in seqno order: a job completed before the
 * jobs started ahead of it waits for them, and signals with them.
 */
static void vaccel_test_engine_complete_in_seqno_order(struct kunit *test)
{
	struct vaccel_engine_test *t = test->priv;
	struct vaccel_job *job[3];
	int i;

	for (i = 0; i < 3; i++) {
		job[i] = vaccel_job_alloc();
		KUNIT_ASSERT_NOT_NULL(test, job[i]);
		job[i]->ctx = t->ctx;
		kref_get(&t->ctx->refcount);
		vaccel_job_start(job[i]);
	}
	KUNIT_EXPECT_LT(test, job[0]->hw.base.seqno, job[1]->hw.base.seqno);

	vaccel_job_complete(job[2], -ECANCELED);
	vaccel_job_complete(job[1], -ECANCELED);
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(&job[2]->hw.base));
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(&job[1]->hw.base));
	vaccel_job_complete(job[0], 0);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(&job[i]->hw.base));
	/* The first signalled first: a timestamp is taken as each signals. */
	KUNIT_EXPECT_LE(test, ktime_to_ns(job[0]->hw.base.timestamp),
			ktime_to_ns(job[1]->hw.base.timestamp));
	KUNIT_EXPECT_LE(test, ktime_to_ns(job[1]->hw.base.timestamp),
			ktime_to_ns(job[2]->hw.base.timestamp));
	KUNIT_EXPECT_EQ(test, job[0]->hw.base.error, 0);
	KUNIT_EXPECT_EQ(test, job[2]->hw.base.error, -ECANCELED);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->ctx->jobs_completed), 3);
	for (i = 0; i < 3; i++)
		vaccel_job_free(job[i]);
}

/*
 * A buffer of DELAYs, each shorter than the hang timeout, progresses at
 * every packet but runs past its time limit: it fails with -ETIMEDOUT, its
 * context is banned with reason TIME_LIMIT and its next buffer cancelled,
 * and the engine, which stopped it itself, is not reset.
 */
static void vaccel_test_engine_time_limit(struct kunit *test)
{
	struct vaccel_engine_test *t = test->priv;
	struct vaccel_engine *e = &t->vdev->engines[0];
	struct dma_fence *f, *after;
	u64 start, took;
	int i;

	for (i = 0; i < 10; i++) {
		t->cmd[2 * i] = HDR(DRM_VACCEL_PKT_DELAY, 0, 2);
		t->cmd[2 * i + 1] = TIMEOUT_MS / 2 * NSEC_PER_MSEC;
	}
	t->cmd[20] = HDR(DRM_VACCEL_PKT_NOP, 0, 1);
	start = ktime_get_ns();
	f = submit(test, t->ctx, CMD_VA, 20 * 8);
	after = submit(test, t->ctx, CMD_VA + 20 * 8, 8);
	KUNIT_EXPECT_EQ(test, wait(test, f), -ETIMEDOUT);
	took = ktime_get_ns() - start;
	KUNIT_EXPECT_EQ(test, wait(test, after), -ECANCELED);
	KUNIT_EXPECT_GE(test, took, TIME_LIMIT_MS * NSEC_PER_MSEC);
	KUNIT_EXPECT_LT(test, took, 5 * TIMEOUT_MS / 2 * 10 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, t->ctx->ban_reason, DRM_VACCEL_BAN_TIME_LIMIT);
	KUNIT_EXPECT_EQ(test, t->ctx->guilty_resets, 0);
	KUNIT_EXPECT_EQ(test, e->resets, 0);
	KUNIT_EXPECT_EQ(test, e->hangs, 0);
}

/*
 * A DELAY preempted part-way resumes from its saved progress only if the
 * buffer still holds it: user space rewriting the packet meanwhile makes
 * it malformed at its own address, rather than resumed with the progress
 * of another packet.
 */
static void vaccel_test_engine_rewritten_while_preempted(struct kunit *test)
{
	struct vaccel_engine_test *t = test->priv;
	struct vaccel_engine *e = &t->vdev->engines[0];
	struct vaccel_context *low, *high;
	struct dma_fence *fl, *fh;

	t->cmd[0] = HDR(DRM_VACCEL_PKT_DELAY, 0, 2);
	t->cmd[1] = 200 * NSEC_PER_MSEC;
	t->cmd[2] = HDR(DRM_VACCEL_PKT_DELAY, 0, 2);
	t->cmd[3] = 100 * NSEC_PER_MSEC;
	low = vaccel_context_create(t->vdev, t->vfile, e, DRM_VACCEL_PRIORITY_LOW);
	KUNIT_ASSERT_FALSE(test, IS_ERR(low));
	high = vaccel_context_create(t->vdev, t->vfile, e, DRM_VACCEL_PRIORITY_HIGH);
	KUNIT_ASSERT_FALSE(test, IS_ERR(high));

	fl = submit(test, low, CMD_VA, 16);
	usleep_range(20000, 25000);
	fh = submit(test, high, CMD_VA + 16, 16);
	/* The LOW DELAY is preempted while the HIGH one runs: rewrite it. */
	usleep_range(20000, 25000);
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(fh));
	WRITE_ONCE(t->cmd[1], 150 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, wait(test, fh), 0);
	KUNIT_EXPECT_EQ(test, wait(test, fl), -EINVAL);
	KUNIT_EXPECT_EQ(test, low->arb.preemptions, 1);
	KUNIT_EXPECT_TRUE(test, low->faulted);
	KUNIT_EXPECT_EQ(test, low->fault.reason, DRM_VACCEL_FAULT_MALFORMED);
	KUNIT_EXPECT_EQ(test, low->fault.va, CMD_VA);
	vaccel_context_destroy(high);
	vaccel_context_destroy(low);
}

static struct kunit_case vaccel_engine_test_cases[] = {
	KUNIT_CASE_PARAM(vaccel_test_engine_packets, vaccel_pkt_gen_params),
	KUNIT_CASE(vaccel_test_engine_in_order),
	KUNIT_CASE(vaccel_test_engine_complete_in_seqno_order),
	KUNIT_CASE(vaccel_test_engine_hwq_bound),
	KUNIT_CASE(vaccel_test_engine_fence_errors),
	KUNIT_CASE(vaccel_test_engine_delay_preempted),
	KUNIT_CASE(vaccel_test_engine_priority),
	KUNIT_CASE(vaccel_test_engine_rewritten_while_preempted),
	KUNIT_CASE(vaccel_test_engine_hang),
	KUNIT_CASE(vaccel_test_engine_hang_escalates),
	KUNIT_CASE(vaccel_test_engine_time_limit),
	{}
};

static struct kunit_suite vaccel_engine_test_suite = {
	.name = "vaccel_engine",
	.init = vaccel_engine_test_init,
	.exit = vaccel_engine_test_exit,
	.test_cases = vaccel_engine_test_cases,
};

kunit_test_suite(vaccel_engine_test_suite);
