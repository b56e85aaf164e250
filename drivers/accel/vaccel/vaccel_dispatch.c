// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Dispatch
 *
 * A ``DISPATCH`` packet runs a kernel over a grid of work-items, in
 * workgroups, one after another, x fastest.  The engine keeps the state of
 * the dispatch in a &struct vaccel_dispatch that belongs to the job from
 * the packet's first slice to its end: the workgroup in flight, its
 * work-items' architectural state (&struct vaccel_rv_hart), which of them
 * are ready and which wait at the barrier, its local memory and its
 * stacks.  A preemption therefore needs no copy: the job keeps the state
 * and the packet resumes from it, at the same instruction.  The
 * interpreter itself (&struct vaccel_rv_cpu, with its caches) belongs to
 * the engine.
 *
 * **Memory.**  The engine thread signals fences, so it must not wait for
 * memory: reclaim may wait for fences itself.  The state is therefore
 * allocated without blocking, in single pages (the work-items' state,
 * seven to a page; local memory; the queues of work-items), and charged
 * to the memory cgroup of the context's creator; the stacks are allocated
 * a page at a time when a work-item first touches them, zeroed, so a
 * dispatch costs what its kernels use rather than what they may use.  If
 * memory runs out, the buffer fails with ``-ENOMEM`` and its context goes
 * on: nothing waits, nothing is banned.
 *
 * **Work-items.**  Inside a workgroup, one work-item runs at a time until
 * it reaches the barrier or ends, then the next ready one: the ready ones
 * wait in a queue, those at the barrier in another, in the order they got
 * there, and when every work-item that has not ended waits at the
 * barrier, the two queues swap.  Every step is O(1).  Work-items
 * interleave only at barriers, so results do not depend on preemptions.
 *
 * **Slices.**  The engine runs slices of instructions (module parameter
 * dispatch_slice) with its TLB locked, so that the host pages the
 * interpreter caches stay valid (an unmap waits for the slice), then
 * checks the engine, at the instruction level inside a workgroup and at
 * the workgroup level between two.  The TLB lock is a mutex, and every
 * %VACCEL_DISPATCH_YIELD instructions the engine offers the CPU to
 * whatever the scheduler prefers: a slice never keeps preemption off.  A
 * completed workgroup is the progress that restarts the hang timeout.  A
 * slice that stored to memory wakes the WAIT_MEM packets of the device;
 * one that did not leaves them asleep.
 *
 * **Workgroup ranges.**  A DISPATCH with %DRM_VACCEL_PKT_F_GROUP_RANGE
 * runs only the workgroups of its range, by linear index: the state
 * starts at the range's first workgroup instead of 0 and ends before the
 * range's end instead of the number of workgroups, and nothing else
 * changes, so a work-item sees the ids and sizes of the whole grid, and a
 * preemption saves and resumes the index in the range as it does in the
 * whole grid.
 */

#include <linux/gfp.h>
#include <linux/memcontrol.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/xarray.h>

#include <drm/vaccel_accel.h>
#include <drm/vaccel_coredump.h>

#include "vaccel_context.h"
#include "vaccel_dispatch.h"
#include "vaccel_drv.h"
#include "vaccel_engine.h"
#include "vaccel_packet.h"
#include "vaccel_rv.h"
#include "vaccel_tlb.h"
#include "vaccel_trace.h"

/* translate() hands the interpreter whole pages of its size. */
static_assert(PAGE_SIZE == VACCEL_RV_PAGE_SIZE);

/* Instructions a work-item runs before the engine offers the CPU. */
#define VACCEL_DISPATCH_YIELD	1024

/* The engine signals fences: its allocations never wait for reclaim. */
#define VACCEL_DISPATCH_GFP	(GFP_NOWAIT | __GFP_NOWARN | __GFP_ACCOUNT)

#define VACCEL_HARTS_PER_PAGE	(PAGE_SIZE / sizeof(struct vaccel_rv_hart))
#define VACCEL_HART_PAGES	DIV_ROUND_UP(VACCEL_MAX_WORKGROUP_ITEMS, \
					     VACCEL_HARTS_PER_PAGE)
#define VACCEL_LOCAL_PAGES	(VACCEL_MAX_LOCAL_SIZE / PAGE_SIZE)
#define VACCEL_ITEM_NONE	U16_MAX

/* Work-items are numbered in 16 bits; both queues share one page. */
static_assert(VACCEL_MAX_WORKGROUP_ITEMS < VACCEL_ITEM_NONE);
static_assert(2 * VACCEL_MAX_WORKGROUP_ITEMS * sizeof(u16) <= PAGE_SIZE);

/**
 * struct vaccel_item_queue - work-items in order, a ring
 * @slot: the ring, as many entries as the workgroup has work-items
 * @head: index of the first
 * @count: how many
 */
struct vaccel_item_queue {
	u16 *slot;
	u32 head;
	u32 count;
};

/**
 * struct vaccel_dispatch - a DISPATCH in progress, kept by its job
 * @entry: the kernel's entry address
 * @args: the argument block's address, in a0
 * @grid: the grid, in work-items
 * @wg: the workgroup size
 * @groups: workgroups along each dimension
 * @num_groups: workgroups in all
 * @end: index past the last workgroup to run: @num_groups, or the end
 *	of the packet's range
 * @local_size: local memory asked for, in bytes
 * @stack_size: bytes of stack per work-item
 * @wg_items: work-items of a whole workgroup
 * @local_bytes: @local_size rounded up to pages
 * @private_bytes: the stacks of a workgroup, rounded up to pages
 * @group: index of the workgroup in flight, or of the next one
 * @slices: slices the workgroup in flight took so far, for its trace
 * @group_id: @group along each dimension
 * @live: work-items of @group that have not ended; 0 while no workgroup
 *	is in flight (every workgroup has at least one)
 * @waiting: work-items of @group waiting at the barrier
 * @cur: the work-item that runs, or %VACCEL_ITEM_NONE between two
 * @ready: work-items ready to run, in the order they run
 * @arrived: work-items at the barrier, in the order they got there
 * @queues: the page both queues live in
 * @harts: the work-items' state, %VACCEL_HARTS_PER_PAGE to a page
 * @local: local memory, a page per 4 KiB
 * @private: the stacks' pages by index in the aperture, allocated when
 *	first touched
 * @engine: the engine that runs the dispatch, while it runs
 * @wrote: a slice wrote to memory outside the apertures
 * @oom: a page of the stacks could not be allocated
 */
struct vaccel_dispatch {
	u64 entry;
	u64 args;
	u32 grid[3];
	u32 wg[3];
	u32 groups[3];
	u64 num_groups;
	u64 end;
	u32 local_size;
	u32 stack_size;
	u32 wg_items;
	size_t local_bytes;
	size_t private_bytes;
	u64 group;
	u64 slices;
	u32 group_id[3];
	u32 live;
	u32 waiting;
	u32 cur;
	struct vaccel_item_queue ready;
	struct vaccel_item_queue arrived;
	struct page *queues;
	struct page *harts[VACCEL_HART_PAGES];
	struct page *local[VACCEL_LOCAL_PAGES];
	struct xarray private;
	struct vaccel_engine *engine;
	bool wrote;
	bool oom;
};

static void vaccel_item_push(struct vaccel_item_queue *q, u32 n, u32 item)
{
	q->slot[(q->head + q->count++) % n] = item;
}

static u32 vaccel_item_pop(struct vaccel_item_queue *q, u32 n)
{
	u32 item = q->slot[q->head];

	q->head = (q->head + 1) % n;
	q->count--;
	return item;
}

static struct vaccel_rv_hart *vaccel_dispatch_hart(struct vaccel_dispatch *d,
						   u32 item)
{
	struct vaccel_rv_hart *page = page_address(d->harts[item / VACCEL_HARTS_PER_PAGE]);

	return page + item % VACCEL_HARTS_PER_PAGE;
}

/**
 * vaccel_dispatch_range_ok() - whether a workgroup range fits a grid
 * @num_groups: workgroups of the grid
 * @first: linear index of the first workgroup of the range
 * @count: workgroups in the range
 *
 * Context: Any context.
 * Return: true if @count is not zero and [@first, @first + @count) lies
 * within [0, @num_groups), without overflowing.
 */
bool vaccel_dispatch_range_ok(u64 num_groups, u64 first, u64 count)
{
	return count && first < num_groups && count <= num_groups - first;
}

/* The decoded and checked operands of the packet, of flags @flags. */
static int vaccel_dispatch_parse(struct vaccel_dispatch *d, u32 flags,
				 const u64 *op)
{
	u64 items = 1, private;
	int i;

	d->entry = op[0];
	d->args = op[1];
	d->num_groups = 1;
	for (i = 0; i < 3; i++) {
		if (!op[2 + i] || op[2 + i] > U32_MAX ||
		    !op[5 + i] || op[5 + i] > VACCEL_MAX_WORKGROUP_ITEMS)
			return -EINVAL;
		d->grid[i] = op[2 + i];
		d->wg[i] = op[5 + i];
		d->groups[i] = DIV_ROUND_UP(d->grid[i], d->wg[i]);
		if (check_mul_overflow(d->num_groups, (u64)d->groups[i],
				       &d->num_groups))
			return -EINVAL;
		items *= d->wg[i];
	}
	/* Each size is below 2^32: the product of two cannot overflow. */
	if ((u64)d->grid[0] * d->grid[1] > VACCEL_MAX_GRID_ITEMS ||
	    (u64)d->grid[0] * d->grid[1] * d->grid[2] > VACCEL_MAX_GRID_ITEMS)
		return -EINVAL;
	if (items > VACCEL_MAX_WORKGROUP_ITEMS || d->entry % 4)
		return -EINVAL;
	if (op[8] > VACCEL_MAX_LOCAL_SIZE || !op[9] ||
	    op[9] > VACCEL_MAX_STACK_SIZE || op[9] % 16)
		return -EINVAL;
	private = items * op[9];
	if (private > VACCEL_MAX_PRIVATE_SIZE)
		return -EINVAL;
	d->wg_items = items;
	d->local_size = op[8];
	d->stack_size = op[9];
	d->local_bytes = PAGE_ALIGN(d->local_size);
	d->private_bytes = PAGE_ALIGN(private);
	d->end = d->num_groups;
	if (flags & DRM_VACCEL_PKT_F_GROUP_RANGE) {
		if (!vaccel_dispatch_range_ok(d->num_groups, op[10], op[11]))
			return -EINVAL;
		d->group = op[10];
		d->end = op[10] + op[11];
	}
	return 0;
}

/* The page of the stacks at @off in the aperture, allocated when first touched. */
static u8 *vaccel_dispatch_private_page(struct vaccel_dispatch *d, u64 off)
{
	unsigned long index = off >> PAGE_SHIFT;
	struct page *page = xa_load(&d->private, index);

	if (page)
		return page_address(page);
	/* Never show a kernel what the host's memory held before. */
	page = alloc_page(VACCEL_DISPATCH_GFP | __GFP_ZERO);
	if (page && xa_err(xa_store(&d->private, index, page, VACCEL_DISPATCH_GFP))) {
		__free_page(page);
		page = NULL;
	}
	if (!page) {
		d->oom = true;
		return NULL;
	}
	return page_address(page);
}

/* Serves the apertures from the dispatch's memory, the rest from the TLB. */
static u8 *vaccel_dispatch_translate(void *env, u64 va, unsigned int access,
				     u32 *reason, unsigned int *mem_class)
{
	struct vaccel_dispatch *d = env;
	struct vaccel_fault fault;
	enum vaccel_mem_class cls;
	u8 *page;

	*mem_class = VACCEL_MEM_ON_CHIP;
	if (va - VACCEL_LOCAL_BASE < d->local_bytes && access != VACCEL_RV_EXEC)
		return page_address(d->local[(va - VACCEL_LOCAL_BASE) >> PAGE_SHIFT]);
	if (va - VACCEL_PRIVATE_BASE < d->private_bytes &&
	    access != VACCEL_RV_EXEC) {
		page = vaccel_dispatch_private_page(d, va - VACCEL_PRIVATE_BASE);
		if (!page)
			*reason = VACCEL_FAULT_UNMAPPED;
		return page;
	}

	/* The micro-TLB forgets pages at every run: no store goes unseen. */
	if (access == VACCEL_RV_WRITE)
		d->wrote = true;
	page = vaccel_tlb_page_locked(&d->engine->tlb, va,
				      access == VACCEL_RV_EXEC ? VACCEL_ACCESS_EXEC :
				      access == VACCEL_RV_WRITE ? VACCEL_ACCESS_WRITE :
				      VACCEL_ACCESS_READ, &fault, &cls);
	if (!page) {
		*reason = fault.reason;
		return NULL;
	}
	*mem_class = cls;
	return page;
}

static int vaccel_dispatch_csr(void *env, const struct vaccel_rv_hart *hart,
			       u32 csr, u64 *val)
{
	struct vaccel_dispatch *d = env;
	/* Only the running work-item reads its CSRs. */
	u32 flat = d->cur;
	u32 local[3];
	int dim;

	if (csr == VACCEL_RV_CSR_TIME) {
		*val = ktime_get_ns();
		return 0;
	}
	local[0] = flat % d->wg[0];
	local[1] = flat / d->wg[0] % d->wg[1];
	local[2] = flat / d->wg[0] / d->wg[1];
	if (csr >= DRM_VACCEL_CSR_LOCAL_ID && csr < DRM_VACCEL_CSR_FLAT_LOCAL_ID) {
		/* The five vectors, one after the other. */
		dim = (csr - DRM_VACCEL_CSR_LOCAL_ID) % 3;
		switch (csr - dim) {
		case DRM_VACCEL_CSR_LOCAL_ID:
			*val = local[dim];
			break;
		case DRM_VACCEL_CSR_GROUP_ID:
			*val = d->group_id[dim];
			break;
		case DRM_VACCEL_CSR_LOCAL_SIZE:
			*val = d->wg[dim];
			break;
		case DRM_VACCEL_CSR_NUM_GROUPS:
			*val = d->groups[dim];
			break;
		default:	/* DRM_VACCEL_CSR_GLOBAL_SIZE */
			*val = d->grid[dim];
			break;
		}
		return 0;
	}
	switch (csr) {
	case DRM_VACCEL_CSR_FLAT_LOCAL_ID:
		*val = flat;
		return 0;
	case DRM_VACCEL_CSR_GLOBAL_ID:
	case DRM_VACCEL_CSR_GLOBAL_ID + 1:
	case DRM_VACCEL_CSR_GLOBAL_ID + 2:
		dim = csr - DRM_VACCEL_CSR_GLOBAL_ID;
		*val = (u64)d->group_id[dim] * d->wg[dim] + local[dim];
		return 0;
	case DRM_VACCEL_CSR_LOCAL_BASE:
		*val = VACCEL_LOCAL_BASE;
		return 0;
	case DRM_VACCEL_CSR_LOCAL_MEM_SIZE:
		*val = d->local_size;
		return 0;
	}
	return -EINVAL;
}

static const struct vaccel_rv_ops vaccel_dispatch_ops = {
	.translate = vaccel_dispatch_translate,
	.csr_read = vaccel_dispatch_csr,
};

/**
 * vaccel_dispatch_free() - free the state of a dispatch
 * @d: the state, or NULL
 *
 * Context: Any context that may free pages.
 */
void vaccel_dispatch_free(struct vaccel_dispatch *d)
{
	struct page *page;
	unsigned long index;
	unsigned int i;

	if (!d)
		return;
	xa_for_each(&d->private, index, page)
		__free_page(page);
	xa_destroy(&d->private);
	for (i = 0; i < ARRAY_SIZE(d->harts); i++)
		if (d->harts[i])
			__free_page(d->harts[i]);
	for (i = 0; i < ARRAY_SIZE(d->local); i++)
		if (d->local[i])
			__free_page(d->local[i]);
	if (d->queues)
		__free_page(d->queues);
	kfree(d);
}

/*
 * The state of a dispatch for the packet's flags @flags and operands @op,
 * charged to the active memory cgroup, without waiting for memory.
 */
static struct vaccel_dispatch *vaccel_dispatch_new(u32 flags, const u64 *op)
{
	struct vaccel_dispatch *d;
	unsigned int i, n;

	d = kzalloc(sizeof(*d), VACCEL_DISPATCH_GFP);
	if (!d)
		return ERR_PTR(-ENOMEM);
	xa_init(&d->private);
	if (vaccel_dispatch_parse(d, flags, op)) {
		vaccel_dispatch_free(d);
		return ERR_PTR(-EINVAL);
	}
	d->queues = alloc_page(VACCEL_DISPATCH_GFP);
	if (!d->queues)
		goto nomem;
	d->ready.slot = page_address(d->queues);
	d->arrived.slot = d->ready.slot + VACCEL_MAX_WORKGROUP_ITEMS;
	n = DIV_ROUND_UP(d->wg_items, VACCEL_HARTS_PER_PAGE);
	for (i = 0; i < n; i++) {
		d->harts[i] = alloc_page(VACCEL_DISPATCH_GFP);
		if (!d->harts[i])
			goto nomem;
	}
	for (i = 0; i < d->local_bytes >> PAGE_SHIFT; i++) {
		d->local[i] = alloc_page(VACCEL_DISPATCH_GFP);
		if (!d->local[i])
			goto nomem;
	}
	d->cur = VACCEL_ITEM_NONE;
	return d;

nomem:
	vaccel_dispatch_free(d);
	return ERR_PTR(-ENOMEM);
}

/**
 * vaccel_dispatch_group() - the workgroup a dispatch resumes at
 * @d: the dispatch a job keeps across preemptions, or NULL
 *
 * Context: Any context.
 * Return: the index of its workgroup in flight, or of the next one; -1
 * without a dispatch.
 */
s64 vaccel_dispatch_group(const struct vaccel_dispatch *d)
{
	return d ? (s64)d->group : -1;
}

/**
 * vaccel_dispatch_cpu_new() - the interpreter of an engine
 *
 * Its caches outlive dispatches: the decode cache checks each instruction
 * word it caches, and the micro-TLB forgets its pages at every run.
 *
 * Context: Process context.
 * Return: the interpreter, to free with kvfree(), or NULL.
 */
struct vaccel_rv_cpu *vaccel_dispatch_cpu_new(void)
{
	struct vaccel_rv_cpu *cpu = kvzalloc(sizeof(*cpu), GFP_KERNEL);

	if (cpu)
		vaccel_rv_cpu_init(cpu, &vaccel_dispatch_ops, NULL, VACCEL_EXIT_PC);
	return cpu;
}

/* Starts workgroup @d->group: its work-items at the entry, memory zeroed. */
static void vaccel_dispatch_start_group(struct vaccel_dispatch *d)
{
	u64 g = d->group;
	u32 n[3], i, x, y, z;

	d->group_id[0] = g % d->groups[0];
	d->group_id[1] = g / d->groups[0] % d->groups[1];
	d->group_id[2] = g / d->groups[0] / d->groups[1];
	for (i = 0; i < 3; i++)
		n[i] = min(d->wg[i], d->grid[i] - d->group_id[i] * d->wg[i]);

	d->live = 0;
	d->slices = 0;
	d->waiting = 0;
	d->ready.head = 0;
	d->ready.count = 0;
	d->arrived.head = 0;
	d->arrived.count = 0;
	for (z = 0; z < n[2]; z++) {
		for (y = 0; y < n[1]; y++) {
			for (x = 0; x < n[0]; x++) {
				u32 flat = x + d->wg[0] * (y + d->wg[1] * z);
				struct vaccel_rv_hart *h = vaccel_dispatch_hart(d, flat);

				memset(h, 0, sizeof(*h));
				h->pc = d->entry;
				h->x[1] = VACCEL_EXIT_PC;	/* ra */
				h->x[2] = VACCEL_PRIVATE_BASE +
					  (u64)(flat + 1) * d->stack_size; /* sp */
				h->x[10] = d->args;		/* a0 */
				vaccel_item_push(&d->ready, d->wg_items, flat);
				d->live++;
			}
		}
	}
	for (i = 0; i < d->local_bytes >> PAGE_SHIFT; i++)
		clear_page(page_address(d->local[i]));
	d->cur = VACCEL_ITEM_NONE;
}

/* Once every work-item that has not ended waits at the barrier, it opens. */
static void vaccel_dispatch_barrier(struct vaccel_dispatch *d)
{
	if (d->live && d->waiting == d->live) {
		swap(d->ready, d->arrived);
		d->waiting = 0;
	}
}

/*
 * A work-item's fault as the context reports it: the address is the one
 * accessed, or the instruction word of an illegal instruction, the CSR of
 * a CSR fault, the pc otherwise.
 */
static void vaccel_dispatch_fault(struct vaccel_fault *fault,
				  const struct vaccel_rv_fault *rvf)
{
	fault->pc = rvf->pc;
	fault->va = rvf->pc;
	fault->access = VACCEL_ACCESS_EXEC;
	switch (rvf->cause) {
	case VACCEL_RV_CAUSE_FETCH:
		fault->reason = rvf->reason;
		fault->va = rvf->va;
		break;
	case VACCEL_RV_CAUSE_LOAD:
	case VACCEL_RV_CAUSE_STORE:
		fault->reason = rvf->reason;
		fault->va = rvf->va;
		fault->access = rvf->cause == VACCEL_RV_CAUSE_LOAD ?
				VACCEL_ACCESS_READ : VACCEL_ACCESS_WRITE;
		break;
	case VACCEL_RV_CAUSE_MISALIGNED_ATOMIC:
		fault->reason = VACCEL_FAULT_MISALIGNED;
		fault->va = rvf->va;
		fault->access = VACCEL_ACCESS_WRITE;
		break;
	case VACCEL_RV_CAUSE_MISALIGNED_FETCH:
		fault->reason = VACCEL_FAULT_MISALIGNED;
		fault->va = rvf->va;
		break;
	case VACCEL_RV_CAUSE_COMPRESSED:
		fault->reason = VACCEL_FAULT_COMPRESSED;
		break;
	case VACCEL_RV_CAUSE_CSR:
		fault->reason = VACCEL_FAULT_CSR;
		fault->va = rvf->insn >> 20;
		break;
	case VACCEL_RV_CAUSE_ECALL:
	case VACCEL_RV_CAUSE_BREAKPOINT:
		fault->reason = VACCEL_FAULT_TRAP;
		break;
	default:
		fault->reason = VACCEL_FAULT_ILLEGAL_INSTRUCTION;
		fault->va = rvf->insn;
		break;
	}
}

/*
 * One slice of the workgroup in flight, the TLB locked: work-items run in
 * turn until @budget instructions are spent or the workgroup ends.
 * Return: 0, -EFAULT, or -ENOMEM when a stack page could not be had.
 */
static int vaccel_dispatch_slice(struct vaccel_dispatch *d, u64 budget,
				 struct vaccel_fault *fault)
{
	struct vaccel_engine *engine = d->engine;
	struct vaccel_rv_fault rvf;

	while (d->live && budget) {
		u64 done = 0;
		enum vaccel_rv_stop stop;

		/* Every live work-item is running, ready or at the barrier. */
		if (d->cur == VACCEL_ITEM_NONE)
			d->cur = vaccel_item_pop(&d->ready, d->wg_items);
		stop = vaccel_rv_run(engine->rv, vaccel_dispatch_hart(d, d->cur),
				     min_t(u64, budget, VACCEL_DISPATCH_YIELD),
				     &done, &rvf);
		WRITE_ONCE(engine->instructions, engine->instructions + done);
		budget -= min(budget, done);
		switch (stop) {
		case VACCEL_RV_BUDGET:
			break;
		case VACCEL_RV_BARRIER:
			vaccel_item_push(&d->arrived, d->wg_items, d->cur);
			d->waiting++;
			d->cur = VACCEL_ITEM_NONE;
			vaccel_dispatch_barrier(d);
			break;
		case VACCEL_RV_EXIT:
			d->live--;
			d->cur = VACCEL_ITEM_NONE;
			vaccel_dispatch_barrier(d);
			break;
		default:
			if (d->oom)
				return -ENOMEM;
			vaccel_dispatch_fault(fault, &rvf);
			return -EFAULT;
		}
		/* The TLB lock is a mutex: others may run meanwhile. */
		cond_resched();
	}
	return 0;
}

static_assert(VACCEL_MEM_ON_CHIP < VACCEL_RV_MEM_CLASSES);

/* Adds what the interpreter's loads and stores moved to the engine's counters. */
static void vaccel_dispatch_count(struct vaccel_engine *engine)
{
	u64 (*bytes)[2] = engine->rv->bytes;
	unsigned int c;

	for (c = 0; c < VACCEL_MEM_CLASSES; c++) {
		vaccel_tlb_count(&engine->tlb, c, false, bytes[c][0]);
		vaccel_tlb_count(&engine->tlb, c, true, bytes[c][1]);
	}
	memset(engine->rv->bytes, 0, sizeof(engine->rv->bytes));
}

/**
 * vaccel_dispatch_run() - run or resume a DISPATCH packet
 * @engine: the engine, its TLB attached to the job's address space
 * @job: the job; @job->dispatch keeps the state across preemptions
 * @flags: the packet's flags: 0 or %DRM_VACCEL_PKT_F_GROUP_RANGE
 * @op: the packet's operands, 10, or 12 with a range
 * @fault: filled on a fault
 *
 * Context: The engine's thread; sleeps, allocates without blocking.
 * Return: 0 once every workgroup ran; -EINVAL for a malformed packet;
 * -EFAULT for a fault of a work-item; -ENOMEM; or what
 * vaccel_engine_check() stopped it with, the state kept in @job.
 */
int vaccel_dispatch_run(struct vaccel_engine *engine, struct vaccel_job *job,
			u32 flags, const u64 *op, struct vaccel_fault *fault)
{
	struct vaccel_dispatch *d = job->dispatch;
	struct mem_cgroup *old;
	bool progressed = false;
	int ret = 0;

	if (engine->desc.engine_class != DRM_VACCEL_ENGINE_CLASS_COMPUTE)
		return -EINVAL;
	/* What the engine allocates for the job is its creator's. */
	old = set_active_memcg(job->ctx->memcg);
	if (!d) {
		d = vaccel_dispatch_new(flags, op);
		if (IS_ERR(d)) {
			ret = PTR_ERR(d);
			goto out;
		}
		job->dispatch = d;
	}
	d->engine = engine;
	engine->rv->env = d;

	while (d->group < d->end) {
		if (!d->live) {
			ret = vaccel_engine_check(engine, job, progressed,
						  DRM_VACCEL_PREEMPT_WORKGROUP);
			if (ret)
				goto out;
			vaccel_dispatch_start_group(d);
			trace_vaccel_dispatch_group(job, d->group, d->num_groups,
						    false, 0);
		}
		progressed = false;
		while (d->live) {
			vaccel_tlb_lock(&engine->tlb);
			ret = vaccel_dispatch_slice(d, engine->vdev->topo.dispatch_slice,
						    fault);
			vaccel_tlb_unlock(&engine->tlb);
			vaccel_dispatch_count(engine);
			d->slices++;
			if (d->wrote) {
				d->wrote = false;
				vaccel_packet_wrote(engine);
			}
			if (ret)
				goto out;
			if (!d->live)
				break;
			ret = vaccel_engine_check(engine, job, false,
						  DRM_VACCEL_PREEMPT_INSTRUCTION);
			if (ret)
				goto out;
		}
		trace_vaccel_dispatch_group(job, d->group, d->num_groups, true,
					    d->slices);
		d->group++;
		progressed = true;
	}
	/* The next packet's check counts the last workgroup's progress. */
	job->dispatch = NULL;
	vaccel_dispatch_free(d);
out:
	set_active_memcg(old);
	return ret;
}

/* One work-item of the workgroup in flight, for a dump. */
static void vaccel_dispatch_dump_item(struct vaccel_dispatch *d, u32 flat,
				      u32 state,
				      struct drm_vaccel_coredump_workitem *w)
{
	const struct vaccel_rv_hart *h = vaccel_dispatch_hart(d, flat);
	unsigned int i;

	memset(w, 0, sizeof(*w));
	w->flat_id = flat;
	w->state = state;
	w->local_id[0] = flat % d->wg[0];
	w->local_id[1] = flat / d->wg[0] % d->wg[1];
	w->local_id[2] = flat / d->wg[0] / d->wg[1];
	for (i = 0; i < 3; i++)
		w->global_id[i] = (u64)d->group_id[i] * d->wg[i] + w->local_id[i];
	w->fcsr = h->fcsr;
	w->pc = h->pc;
	w->instret = h->instret;
	memcpy(w->x, h->x, sizeof(w->x));
	w->x[0] = 0;
	memcpy(w->f, h->f, sizeof(w->f));
}

/* Adds the work-items of @q, in order, while there is room. */
static unsigned int vaccel_dispatch_dump_queue(struct vaccel_dispatch *d,
					       const struct vaccel_item_queue *q,
					       u32 state,
					       struct drm_vaccel_coredump_workitem *items,
					       unsigned int n, unsigned int max)
{
	u32 i;

	for (i = 0; i < q->count && n < max; i++)
		vaccel_dispatch_dump_item(d, q->slot[(q->head + i) % d->wg_items],
					  state, &items[n++]);
	return n;
}

/**
 * vaccel_dispatch_dump() - the state of a DISPATCH in flight, for a dump
 * @d: the state a job keeps
 * @info: filled with the packet's operands and progress
 * @items: filled with the work-items of the workgroup in flight: the one
 *	that ran last, then those ready, then those at the barrier
 * @max: entries of @items
 *
 * Context: The engine's thread that runs the job, or with the job off
 * every engine.
 * Return: the number of @items filled.
 */
unsigned int vaccel_dispatch_dump(struct vaccel_dispatch *d,
				  struct drm_vaccel_coredump_dispatch *info,
				  struct drm_vaccel_coredump_workitem *items,
				  unsigned int max)
{
	unsigned int i, n = 0;

	memset(info, 0, sizeof(*info));
	info->entry = d->entry;
	info->args = d->args;
	for (i = 0; i < 3; i++) {
		info->grid[i] = d->grid[i];
		info->wg[i] = d->wg[i];
		info->num_groups[i] = d->groups[i];
		info->group_id[i] = d->group_id[i];
	}
	info->local_size = d->local_size;
	info->stack_size = d->stack_size;
	info->group = d->group;
	info->total_groups = d->num_groups;
	info->live = d->live;
	info->waiting = d->waiting;
	info->current_item = d->cur == VACCEL_ITEM_NONE ?
			     DRM_VACCEL_COREDUMP_NO_WORKITEM : d->cur;
	/* Between two workgroups, no work-item has a state. */
	if (!d->live)
		return 0;
	if (d->cur != VACCEL_ITEM_NONE && n < max)
		vaccel_dispatch_dump_item(d, d->cur,
					  DRM_VACCEL_COREDUMP_WORKITEM_RUNNING,
					  &items[n++]);
	n = vaccel_dispatch_dump_queue(d, &d->ready,
				       DRM_VACCEL_COREDUMP_WORKITEM_READY,
				       items, n, max);
	return vaccel_dispatch_dump_queue(d, &d->arrived,
					  DRM_VACCEL_COREDUMP_WORKITEM_BARRIER,
					  items, n, max);
}
