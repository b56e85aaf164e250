// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Dispatch
 *
 * A ``DISPATCH`` packet runs a kernel over a grid of work-items, in
 * workgroups, which the engine's compute units take one at a time, in
 * order of their linear index (see "Compute units").  The state of the
 * dispatch, &struct vaccel_dispatch, belongs to the job from the packet's
 * first slice to its end: the next workgroup to hand out, and for each
 * unit a slot (&struct vaccel_wg_slot) with the workgroup it runs, its
 * work-items' architectural state (&struct vaccel_rv_hart), which of them
 * are ready and which wait at the barrier, its local memory and its
 * stacks.  A preemption therefore needs no copy: the job keeps the state
 * and the packet resumes from it, each slot on its unit, at the same
 * instruction.  The interpreters (&struct vaccel_rv_cpu, with their
 * caches) belong to the units.
 *
 * **Memory.**  The engine thread signals fences, so it must not wait for
 * memory: reclaim may wait for fences itself.  The state is therefore
 * allocated without blocking, in single pages (the work-items' state,
 * seven to a page; local memory; the queues of work-items), and charged
 * to the memory cgroup of the context's creator; the stacks are allocated
 * a page at a time when a work-item first touches them, zeroed.  The
 * state outlives the dispatch: the context keeps it for its next one, so
 * a launch allocates and zeroes nothing that an earlier launch of its
 * context already had, and a context's pages never reach another.  If
 * memory runs out, the buffer fails with ``-ENOMEM`` and its context goes
 * on: nothing waits, nothing is banned.
 *
 * **Work-items.**  Inside a workgroup, one work-item runs at a time until
 * it reaches the barrier or ends, then the next ready one: the ready ones
 * wait in a queue, those at the barrier in another, in the order they got
 * there, and when every work-item that has not ended waits at the
 * barrier, the two queues swap.  Every step is O(1).  Work-items
 * interleave only at barriers, so results do not depend on preemptions,
 * nor on the unit that runs the workgroup.
 *
 * **Slices.**  A unit runs slices of instructions (module parameter
 * dispatch_slice) with its TLB locked, so that the host pages the
 * interpreter caches stay valid (an unmap waits for the slice).  Between
 * two slices, unit 0, the engine's thread, checks the engine, at the
 * instruction level inside a workgroup and at the workgroup level between
 * two; the other units look at what the engine decided.  The TLB lock is
 * a mutex, and every %VACCEL_DISPATCH_YIELD instructions a unit offers
 * the CPU to whatever the scheduler prefers: a slice never keeps
 * preemption off.  A completed workgroup, on any unit, is the progress
 * that restarts the hang timeout.  A slice that stored to memory wakes
 * the WAIT_MEM packets of the device; one that did not leaves them
 * asleep.
 *
 * **Stopping.**  The engine stops a dispatch in one of two ways: it stops
 * handing out workgroups and lets those in flight end (a preemption at the
 * workgroup level), or it halts every unit at the end of its slice (a
 * preemption at the instruction level, a reset, a hang, a cancelled
 * context; and the first fault or failed allocation of any unit, which
 * is the one the context reports).  Either way it returns only once every
 * unit has handed the dispatch back.
 *
 * **Workgroup ranges.**  A DISPATCH with %DRM_VACCEL_PKT_F_GROUP_RANGE
 * runs only the workgroups of its range, by linear index: the state
 * starts at the range's first workgroup instead of 0 and ends before the
 * range's end instead of the number of workgroups, and nothing else
 * changes, so a work-item sees the ids and sizes of the whole grid, and a
 * preemption saves and resumes the index in the range as it does in the
 * whole grid.
 */

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/gfp.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/memcontrol.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/xarray.h>

#include <drm/drm_print.h>
#include <drm/vaccel_accel.h>
#include <drm/vaccel_coredump.h>

#include "vaccel_context.h"
#include "vaccel_cu.h"
#include "vaccel_dispatch.h"
#include "vaccel_drv.h"
#include "vaccel_engine.h"
#include "vaccel_inject.h"
#include "vaccel_mmu.h"
#include "vaccel_packet.h"
#include "vaccel_rv.h"
#include "vaccel_tlb.h"
#include "vaccel_trace.h"

/* translate() hands the interpreter whole pages of its size. */
static_assert(PAGE_SIZE == VACCEL_RV_PAGE_SIZE);

/* Instructions a work-item runs before the unit offers the CPU. */
#define VACCEL_DISPATCH_YIELD	4096

/* The engine signals fences: its allocations never wait for reclaim. */
#define VACCEL_DISPATCH_GFP	(GFP_NOWAIT | __GFP_NOWARN | __GFP_ACCOUNT)

/* How long unit 0 sleeps, at most and at least, while the others run. */
#define VACCEL_DISPATCH_WAIT_MAX_NS	(1ULL * NSEC_PER_MSEC)
#define VACCEL_DISPATCH_WAIT_MIN_NS	(20ULL * NSEC_PER_USEC)

#define VACCEL_HARTS_PER_PAGE	(PAGE_SIZE / sizeof(struct vaccel_rv_hart))
#define VACCEL_HART_PAGES	DIV_ROUND_UP(VACCEL_MAX_WORKGROUP_ITEMS, \
					     VACCEL_HARTS_PER_PAGE)
#define VACCEL_LOCAL_PAGES	(VACCEL_MAX_LOCAL_SIZE / PAGE_SIZE)
#define VACCEL_ITEM_NONE	U16_MAX

/* Work-items are numbered in 16 bits; both queues share one page. */
static_assert(VACCEL_MAX_WORKGROUP_ITEMS < VACCEL_ITEM_NONE);
static_assert(2 * VACCEL_MAX_WORKGROUP_ITEMS * sizeof(u16) <= PAGE_SIZE);

/**
 * enum vaccel_dispatch_stop - what the engine told the units
 * @VACCEL_DISPATCH_GO: take workgroups until there are none left
 * @VACCEL_DISPATCH_DRAIN: take no more; end those in flight
 * @VACCEL_DISPATCH_HALT: stop at the end of the slice
 */
enum vaccel_dispatch_stop {
	VACCEL_DISPATCH_GO,
	VACCEL_DISPATCH_DRAIN,
	VACCEL_DISPATCH_HALT,
};

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
 * struct vaccel_wg_slot - the workgroup a compute unit runs, and its memory
 * @d: the dispatch
 * @index: the unit's number, which runs the slot
 * @cu: the unit, while it runs the slot
 * @group: index of the workgroup in flight
 * @slices: slices the workgroup in flight took so far, for its trace
 * @group_id: @group along each dimension
 * @live: work-items of @group that have not ended; 0 while no workgroup
 *	is in flight (every workgroup has at least one)
 * @waiting: work-items of @group waiting at the barrier
 * @cur: the work-item that runs, or %VACCEL_ITEM_NONE between two
 * @ready: work-items ready to run, in the order they run
 * @arrived: work-items at the barrier, in the order they got there
 * @queues: the page both queues live in
 * @num_harts: pages of @harts allocated
 * @harts: the work-items' state, %VACCEL_HARTS_PER_PAGE to a page
 * @num_local: pages of @local allocated
 * @local: local memory, a page per 4 KiB
 * @private: the stacks' pages by index in the aperture, allocated when
 *	first touched, kept with the slot
 * @wrote: a slice wrote to memory outside the apertures
 * @oom: a page of the stacks could not be allocated
 *
 * Everything but the pages is the unit's while it runs the dispatch, and
 * the engine thread's otherwise.
 */
struct vaccel_wg_slot {
	struct vaccel_dispatch *d;
	unsigned int index;
	struct vaccel_cu *cu;
	u64 group;
	u64 slices;
	u32 group_id[3];
	u32 live;
	u32 waiting;
	u32 cur;
	struct vaccel_item_queue ready;
	struct vaccel_item_queue arrived;
	struct page *queues;
	unsigned int num_harts;
	struct page *harts[VACCEL_HART_PAGES];
	unsigned int num_local;
	struct page *local[VACCEL_LOCAL_PAGES];
	struct xarray private;
	bool wrote;
	bool oom;
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
 * @lock: protects @next, @stop, @err, @fault and @fault_slot
 * @next: index of the next workgroup to hand out
 * @stop: &enum vaccel_dispatch_stop
 * @err: the first error of a unit: -EFAULT or -ENOMEM; 0 if none
 * @fault: for -EFAULT, the first fault
 * @fault_slot: the slot that failed first
 * @done: workgroups completed, for the progress of the hang timeout
 * @running: units other than 0 that still run the dispatch
 * @engine: the engine that runs the dispatch, while it runs
 * @job: its job, while it runs
 * @num_slots: entries of @slot allocated
 * @slot: a slot per compute unit, by the unit's number
 *
 * Between two dispatches, the context keeps it, slots and pages included.
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
	/* Protects the hand-out of workgroups and the first error. */
	spinlock_t lock;
	u64 next;
	int stop;
	int err;
	struct vaccel_fault fault;
	unsigned int fault_slot;
	atomic64_t done;
	atomic_t running;
	struct vaccel_engine *engine;
	struct vaccel_job *job;
	unsigned int num_slots;
	struct vaccel_wg_slot *slot[VACCEL_MAX_COMPUTE_UNITS];
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

static struct vaccel_rv_hart *vaccel_slot_hart(struct vaccel_wg_slot *s, u32 item)
{
	struct vaccel_rv_hart *page = page_address(s->harts[item / VACCEL_HARTS_PER_PAGE]);

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
	d->next = 0;
	d->end = d->num_groups;
	if (flags & DRM_VACCEL_PKT_F_GROUP_RANGE) {
		if (!vaccel_dispatch_range_ok(d->num_groups, op[10], op[11]))
			return -EINVAL;
		d->next = op[10];
		d->end = op[10] + op[11];
	}
	return 0;
}

/* The page of the stacks at @off in the aperture, allocated when first touched. */
static u8 *vaccel_slot_private_page(struct vaccel_wg_slot *s, u64 off)
{
	unsigned long index = off >> PAGE_SHIFT;
	struct page *page = xa_load(&s->private, index);

	if (page)
		return page_address(page);
	/* Never show a kernel what the host's memory held before. */
	page = vaccel_page_alloc(VACCEL_DISPATCH_GFP | __GFP_ZERO, 0);
	if (page && xa_err(xa_store(&s->private, index, page, VACCEL_DISPATCH_GFP))) {
		__free_page(page);
		page = NULL;
	}
	if (!page) {
		s->oom = true;
		return NULL;
	}
	return page_address(page);
}

/* Serves the apertures from the slot's memory, the rest from the unit's TLB. */
static u8 *vaccel_dispatch_translate(void *env, u64 va, unsigned int access,
				     u32 *reason, unsigned int *mem_class)
{
	struct vaccel_wg_slot *s = env;
	struct vaccel_dispatch *d = s->d;
	struct vaccel_fault fault;
	enum vaccel_mem_class cls;
	u8 *page;

	*mem_class = VACCEL_MEM_ON_CHIP;
	if (va - VACCEL_LOCAL_BASE < d->local_bytes && access != VACCEL_RV_EXEC)
		return page_address(s->local[(va - VACCEL_LOCAL_BASE) >> PAGE_SHIFT]);
	if (va - VACCEL_PRIVATE_BASE < d->private_bytes &&
	    access != VACCEL_RV_EXEC) {
		page = vaccel_slot_private_page(s, va - VACCEL_PRIVATE_BASE);
		if (!page)
			*reason = VACCEL_FAULT_UNMAPPED;
		return page;
	}

	/* The micro-TLB forgets pages at every slice: no store goes unseen. */
	if (access == VACCEL_RV_WRITE)
		s->wrote = true;
	page = vaccel_tlb_page_locked(s->cu->tlb, va,
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
	struct vaccel_wg_slot *s = env;
	struct vaccel_dispatch *d = s->d;
	/* Only the running work-item reads its CSRs. */
	u32 flat = s->cur;
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
			*val = s->group_id[dim];
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
		*val = (u64)s->group_id[dim] * d->wg[dim] + local[dim];
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

static void vaccel_slot_free(struct vaccel_wg_slot *s)
{
	struct page *page;
	unsigned long index;
	unsigned int i;

	if (!s)
		return;
	xa_for_each(&s->private, index, page)
		__free_page(page);
	xa_destroy(&s->private);
	for (i = 0; i < s->num_harts; i++)
		__free_page(s->harts[i]);
	for (i = 0; i < s->num_local; i++)
		__free_page(s->local[i]);
	if (s->queues)
		__free_page(s->queues);
	kfree(s);
}

/**
 * vaccel_dispatch_free() - free the state of a dispatch
 * @d: the state, or NULL
 *
 * Context: Any context that may free pages.
 */
void vaccel_dispatch_free(struct vaccel_dispatch *d)
{
	unsigned int i;

	if (!d)
		return;
	for (i = 0; i < d->num_slots; i++)
		vaccel_slot_free(d->slot[i]);
	kfree(d);
}

/*
 * A slot for unit @index of @d, its queues allocated, charged to the active
 * memory cgroup, without waiting for memory.  The fault-injection point
 * ``fail_unit_slot``: the engine's thread allocates it, which fail-nth on
 * a test's task cannot reach.
 */
static struct vaccel_wg_slot *vaccel_slot_new(struct vaccel_dispatch *d,
					      unsigned int index)
{
	struct vaccel_wg_slot *s;

	if (vaccel_should_fail(VACCEL_FAIL_UNIT_SLOT))
		return NULL;
	s = kzalloc(sizeof(*s), VACCEL_DISPATCH_GFP);
	if (!s)
		return NULL;
	xa_init(&s->private);
	s->d = d;
	s->index = index;
	s->queues = vaccel_page_alloc(VACCEL_DISPATCH_GFP, 0);
	if (!s->queues) {
		vaccel_slot_free(s);
		return NULL;
	}
	s->ready.slot = page_address(s->queues);
	s->arrived.slot = s->ready.slot + VACCEL_MAX_WORKGROUP_ITEMS;
	s->cur = VACCEL_ITEM_NONE;
	return s;
}

/*
 * The pages a workgroup of @d needs in @s, those it lacks allocated
 * without waiting.  Return: 0 or -ENOMEM.
 */
static int vaccel_slot_grow(struct vaccel_wg_slot *s)
{
	const struct vaccel_dispatch *d = s->d;
	unsigned int harts = DIV_ROUND_UP(d->wg_items, VACCEL_HARTS_PER_PAGE);
	unsigned int local = d->local_bytes >> PAGE_SHIFT;

	while (s->num_harts < harts) {
		s->harts[s->num_harts] = vaccel_page_alloc(VACCEL_DISPATCH_GFP, 0);
		if (!s->harts[s->num_harts])
			return -ENOMEM;
		s->num_harts++;
	}
	while (s->num_local < local) {
		s->local[s->num_local] = vaccel_page_alloc(VACCEL_DISPATCH_GFP, 0);
		if (!s->local[s->num_local])
			return -ENOMEM;
		s->num_local++;
	}
	return 0;
}

/*
 * The state of a dispatch of @ctx for the packet's flags @flags and
 * operands @op: the one the context kept, or a new one, charged to the
 * active memory cgroup, without waiting for memory.  The fault-injection
 * point ``fail_dispatch``, in the engine's thread.
 */
static struct vaccel_dispatch *vaccel_dispatch_get(struct vaccel_context *ctx,
						   u32 flags, const u64 *op)
{
	struct vaccel_dispatch *d;

	if (vaccel_should_fail(VACCEL_FAIL_DISPATCH))
		return ERR_PTR(-ENOMEM);
	d = xchg(&ctx->dispatch_cache, NULL);

	if (!d) {
		d = kzalloc(sizeof(*d), VACCEL_DISPATCH_GFP);
		if (!d)
			return ERR_PTR(-ENOMEM);
		spin_lock_init(&d->lock);
	}
	if (vaccel_dispatch_parse(d, flags, op)) {
		vaccel_dispatch_put(ctx, d);
		return ERR_PTR(-EINVAL);
	}
	atomic64_set(&d->done, 0);
	return d;
}

/**
 * vaccel_dispatch_put() - give the state of an ended dispatch to its context
 * @ctx: the context
 * @d: the state, no workgroup in flight
 *
 * The context keeps one state for its next dispatch; another is freed.
 *
 * Context: Any context that may free pages.
 */
void vaccel_dispatch_put(struct vaccel_context *ctx, struct vaccel_dispatch *d)
{
	if (cmpxchg(&ctx->dispatch_cache, NULL, d))
		vaccel_dispatch_free(d);
}

/* A slot for each of @units units. Return: 0 or -ENOMEM. */
static int vaccel_dispatch_slots(struct vaccel_dispatch *d, unsigned int units)
{
	while (d->num_slots < units) {
		d->slot[d->num_slots] = vaccel_slot_new(d, d->num_slots);
		if (!d->slot[d->num_slots])
			return -ENOMEM;
		d->num_slots++;
	}
	return 0;
}

/**
 * vaccel_dispatch_group() - the workgroup a dispatch resumes at
 * @d: the dispatch a job keeps across preemptions, or NULL
 *
 * Context: Any context.
 * Return: the index of its first workgroup in flight, or of the next one
 * to start if none is; -1 without a dispatch.
 */
s64 vaccel_dispatch_group(const struct vaccel_dispatch *d)
{
	u64 group;
	unsigned int i;

	if (!d)
		return -1;
	group = d->next;
	for (i = 0; i < d->num_slots; i++)
		if (d->slot[i]->live)
			group = min(group, d->slot[i]->group);
	return group;
}

/**
 * vaccel_dispatch_cpu_new() - the interpreter of a compute unit
 *
 * Its caches outlive dispatches: the decoded code pages are checked
 * against memory after vaccel_rv_cpu_sync(), which the engine calls at
 * every entry into a dispatch and after an unmap, and the micro-TLB
 * forgets its pages at every slice.
 *
 * Context: Process context.
 * Return: the interpreter, to free with kvfree(), or NULL.
 */
struct vaccel_rv_cpu *vaccel_dispatch_cpu_new(void)
{
	struct vaccel_rv_cpu *cpu = kvzalloc(sizeof(*cpu), GFP_KERNEL);

	if (cpu) {
		vaccel_rv_cpu_init(cpu, &vaccel_dispatch_ops, NULL, VACCEL_EXIT_PC);
		cpu->keep_tlb = true;
	}
	return cpu;
}

/* Starts workgroup @s->group: its work-items at the entry, memory zeroed. */
static void vaccel_slot_start(struct vaccel_wg_slot *s)
{
	const struct vaccel_dispatch *d = s->d;
	u64 g = s->group;
	u32 n[3], i, x, y, z;

	s->group_id[0] = g % d->groups[0];
	s->group_id[1] = g / d->groups[0] % d->groups[1];
	s->group_id[2] = g / d->groups[0] / d->groups[1];
	for (i = 0; i < 3; i++)
		n[i] = min(d->wg[i], d->grid[i] - s->group_id[i] * d->wg[i]);

	s->live = 0;
	s->slices = 0;
	s->waiting = 0;
	s->ready.head = 0;
	s->ready.count = 0;
	s->arrived.head = 0;
	s->arrived.count = 0;
	for (z = 0; z < n[2]; z++) {
		for (y = 0; y < n[1]; y++) {
			for (x = 0; x < n[0]; x++) {
				u32 flat = x + d->wg[0] * (y + d->wg[1] * z);
				struct vaccel_rv_hart *h = vaccel_slot_hart(s, flat);

				memset(h, 0, sizeof(*h));
				h->pc = d->entry;
				h->x[1] = VACCEL_EXIT_PC;	/* ra */
				h->x[2] = VACCEL_PRIVATE_BASE +
					  (u64)(flat + 1) * d->stack_size; /* sp */
				h->x[10] = d->args;		/* a0 */
				vaccel_item_push(&s->ready, d->wg_items, flat);
				s->live++;
			}
		}
	}
	for (i = 0; i < d->local_bytes >> PAGE_SHIFT; i++)
		clear_page(page_address(s->local[i]));
	s->cur = VACCEL_ITEM_NONE;
}

/*
 * Gives @s the next workgroup, unless the engine said to stop handing
 * them out or none is left.  Return: 1 if it took one, 0 if not, -ENOMEM.
 */
static int vaccel_slot_take(struct vaccel_wg_slot *s)
{
	struct vaccel_dispatch *d = s->d;
	bool took = false;
	int ret;

	/* Before it takes one: a workgroup taken is a workgroup run. */
	ret = vaccel_slot_grow(s);
	if (ret)
		return ret;
	spin_lock(&d->lock);
	if (d->stop == VACCEL_DISPATCH_GO && d->next < d->end) {
		s->group = d->next++;
		took = true;
	}
	spin_unlock(&d->lock);
	if (!took)
		return 0;
	vaccel_slot_start(s);
	trace_vaccel_dispatch_group(d->job, s->group, d->num_groups, false, 0);
	return 1;
}

/* Stops the units as @how says, unless they were told to stop harder. */
static void vaccel_dispatch_stop(struct vaccel_dispatch *d, int how)
{
	spin_lock(&d->lock);
	/* The units read it without the lock, between two slices. */
	WRITE_ONCE(d->stop, max(d->stop, how));
	spin_unlock(&d->lock);
}

/*
 * Records the error @err of slot @s, and @fault for -EFAULT, if it is the
 * first, and halts every unit.
 */
static void vaccel_dispatch_fail(struct vaccel_wg_slot *s, int err,
				 const struct vaccel_fault *fault)
{
	struct vaccel_dispatch *d = s->d;

	spin_lock(&d->lock);
	if (!d->err) {
		d->err = err;
		d->fault_slot = s->index;
		if (fault)
			d->fault = *fault;
	}
	WRITE_ONCE(d->stop, VACCEL_DISPATCH_HALT);
	spin_unlock(&d->lock);
}

/* Once every work-item that has not ended waits at the barrier, it opens. */
static void vaccel_slot_barrier(struct vaccel_wg_slot *s)
{
	if (s->live && s->waiting == s->live) {
		swap(s->ready, s->arrived);
		s->waiting = 0;
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
 * One slice of the workgroup of @s on unit @cu, its TLB locked: work-items
 * run in turn until @budget instructions are spent or the workgroup ends.
 * Return: 0, -EFAULT, or -ENOMEM when a stack page could not be had.
 */
static int vaccel_slot_slice(struct vaccel_wg_slot *s, struct vaccel_cu *cu,
			     u64 budget, struct vaccel_fault *fault)
{
	u32 n = s->d->wg_items;
	struct vaccel_rv_fault rvf;

	while (s->live && budget) {
		u64 done = 0;
		enum vaccel_rv_stop stop;

		/* Every live work-item is running, ready or at the barrier. */
		if (s->cur == VACCEL_ITEM_NONE)
			s->cur = vaccel_item_pop(&s->ready, n);
		stop = vaccel_rv_run(cu->rv, vaccel_slot_hart(s, s->cur),
				     min_t(u64, budget, VACCEL_DISPATCH_YIELD),
				     &done, &rvf);
		WRITE_ONCE(cu->instructions, cu->instructions + done);
		budget -= min(budget, done);
		switch (stop) {
		case VACCEL_RV_BUDGET:
			break;
		case VACCEL_RV_BARRIER:
			vaccel_item_push(&s->arrived, n, s->cur);
			s->waiting++;
			s->cur = VACCEL_ITEM_NONE;
			vaccel_slot_barrier(s);
			break;
		case VACCEL_RV_EXIT:
			s->live--;
			s->cur = VACCEL_ITEM_NONE;
			vaccel_slot_barrier(s);
			break;
		default:
			if (s->oom)
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

/* Adds what the unit's loads and stores moved to its TLB's counters. */
static void vaccel_cu_count(struct vaccel_cu *cu)
{
	u64 (*bytes)[2] = cu->rv->bytes;
	unsigned int c;

	for (c = 0; c < VACCEL_MEM_CLASSES; c++) {
		vaccel_tlb_count(cu->tlb, c, false, bytes[c][0]);
		vaccel_tlb_count(cu->tlb, c, true, bytes[c][1]);
	}
	memset(cu->rv->bytes, 0, sizeof(cu->rv->bytes));
}

/*
 * One slice of the workgroup of @s on unit @cu; when the workgroup ends,
 * it counts as done.  Return: 0, -EFAULT with @fault filled, or -ENOMEM.
 */
static int vaccel_slot_step(struct vaccel_wg_slot *s, struct vaccel_cu *cu,
			    struct vaccel_fault *fault)
{
	struct vaccel_dispatch *d = s->d;
	struct vaccel_engine *engine = d->engine;
	int ret;

	s->cu = cu;
	cu->rv->env = s;
	vaccel_tlb_lock(cu->tlb);
	/* An unmap since the last slice: code may be other than decoded. */
	if (cu->tlb->invalidations != cu->tlb_seen) {
		cu->tlb_seen = cu->tlb->invalidations;
		vaccel_rv_cpu_sync(cu->rv);
	}
	/* Translations hold while the lock does: for the whole slice. */
	vaccel_rv_cpu_flush_tlb(cu->rv);
	ret = vaccel_slot_slice(s, cu, engine->vdev->topo.dispatch_slice, fault);
	vaccel_tlb_unlock(cu->tlb);
	vaccel_cu_count(cu);
	s->slices++;
	if (s->wrote) {
		s->wrote = false;
		vaccel_packet_wrote(engine);
	}
	if (!ret && !s->live) {
		trace_vaccel_dispatch_group(d->job, s->group, d->num_groups,
					    true, s->slices);
		atomic64_inc(&d->done);
	}
	return ret;
}

/**
 * vaccel_dispatch_unit() - run a dispatch on a compute unit other than 0
 * @cu: the unit
 * @d: the dispatch the engine handed it
 *
 * Runs the unit's workgroup in flight, if the dispatch was preempted with
 * one, then takes workgroups until none is left or the engine stops the
 * dispatch, and hands the dispatch back.
 *
 * Context: The unit's thread; sleeps, allocates without blocking.
 */
void vaccel_dispatch_unit(struct vaccel_cu *cu, struct vaccel_dispatch *d)
{
	struct task_struct *engine_thread = d->engine->thread;
	struct vaccel_wg_slot *s = d->slot[cu->index];
	struct vaccel_fault fault;
	struct mem_cgroup *old;
	int ret = 0;

	old = set_active_memcg(d->job->ctx->memcg);
	while (READ_ONCE(d->stop) != VACCEL_DISPATCH_HALT) {
		if (!s->live) {
			ret = vaccel_slot_take(s);
			if (ret <= 0)
				break;
		}
		ret = vaccel_slot_step(s, cu, &fault);
		if (ret)
			break;
	}
	if (ret < 0)
		vaccel_dispatch_fail(s, ret, ret == -EFAULT ? &fault : NULL);
	set_active_memcg(old);

	WRITE_ONCE(cu->work, NULL);
	/* The last unit wakes the engine; @d is not ours any more. */
	if (atomic_dec_and_test(&d->running) || ret < 0)
		wake_up_process(engine_thread);
}

/*
 * Checks the engine at @level for the dispatch: the units' traffic added
 * first, and progress if a workgroup ended on any unit since @seen.
 */
static int vaccel_dispatch_check(struct vaccel_dispatch *d, u64 *seen,
				 unsigned int level)
{
	u64 done = atomic64_read(&d->done);
	bool progressed = done != *seen;

	*seen = done;
	vaccel_cus_fold_traffic(d->engine);
	return vaccel_engine_check(d->engine, d->job, progressed, level);
}

/*
 * How the units stop for what a check between two workgroups returned:
 * a preemption at the workgroup granularity lets the workgroups in flight
 * end; one at the instruction granularity, a reset or an error halts them.
 */
static int vaccel_dispatch_how(struct vaccel_engine *engine, int ret)
{
	if (ret == -EAGAIN &&
	    engine->desc.preempt_granularity < DRM_VACCEL_PREEMPT_INSTRUCTION &&
	    engine->stop_reason != VACCEL_PREEMPT_RESET)
		return VACCEL_DISPATCH_DRAIN;
	return VACCEL_DISPATCH_HALT;
}

/*
 * Unit 0, in the engine's thread, with the checks.  Return: 0 once it has
 * no workgroup left to run, or what a check stopped the dispatch with.
 */
static int vaccel_dispatch_lead(struct vaccel_dispatch *d, u64 *seen)
{
	struct vaccel_cu *cu = &d->engine->cus[0];
	struct vaccel_wg_slot *s = d->slot[0];
	struct vaccel_fault fault;
	int ret;

	while (READ_ONCE(d->stop) != VACCEL_DISPATCH_HALT) {
		if (!s->live) {
			ret = vaccel_dispatch_check(d, seen,
						    DRM_VACCEL_PREEMPT_WORKGROUP);
			if (ret) {
				vaccel_dispatch_stop(d, vaccel_dispatch_how(d->engine, ret));
				return ret;
			}
			ret = vaccel_slot_take(s);
			if (ret < 0)
				vaccel_dispatch_fail(s, ret, NULL);
			if (ret <= 0)
				return 0;
		}
		ret = vaccel_slot_step(s, cu, &fault);
		if (ret) {
			vaccel_dispatch_fail(s, ret, ret == -EFAULT ? &fault : NULL);
			return 0;
		}
		if (!s->live)
			continue;
		ret = vaccel_dispatch_check(d, seen, DRM_VACCEL_PREEMPT_INSTRUCTION);
		if (ret) {
			vaccel_dispatch_stop(d, VACCEL_DISPATCH_HALT);
			return ret;
		}
	}
	return 0;
}

/*
 * Unit 0 waits for the others, and keeps checking the engine meanwhile
 * unless it already stopped the dispatch for good.  @ret is what stopped
 * unit 0; an error of a check overrides a preemption.  Return: the same,
 * or what a later check stopped the dispatch with.
 */
static int vaccel_dispatch_wait(struct vaccel_dispatch *d, u64 *seen, int ret)
{
	struct vaccel_engine *engine = d->engine;

	while (atomic_read(&d->running)) {
		if (!ret || ret == -EAGAIN) {
			int r = vaccel_dispatch_check(d, seen,
						      DRM_VACCEL_PREEMPT_INSTRUCTION);

			if (r) {
				if (r != -EAGAIN)
					ret = r;
				else if (!ret)
					ret = r;
				vaccel_dispatch_stop(d, VACCEL_DISPATCH_HALT);
			}
		}
		set_current_state(TASK_INTERRUPTIBLE);
		if (atomic_read(&d->running) && !kthread_should_stop()) {
			ktime_t t = ns_to_ktime(clamp(vaccel_engine_sleep_ns(engine),
						      VACCEL_DISPATCH_WAIT_MIN_NS,
						      VACCEL_DISPATCH_WAIT_MAX_NS));

			schedule_hrtimeout(&t, HRTIMER_MODE_REL);
		}
		__set_current_state(TASK_RUNNING);
	}
	return ret;
}

/* Whether every workgroup of @d ran, none in flight. */
static bool vaccel_dispatch_ended(const struct vaccel_dispatch *d)
{
	unsigned int i;

	if (d->next < d->end)
		return false;
	for (i = 0; i < d->num_slots; i++)
		if (d->slot[i]->live)
			return false;
	return true;
}

/**
 * vaccel_dispatch_run() - run or resume a DISPATCH packet
 * @engine: the engine, its TLB attached to the job's address space
 * @job: the job; @job->dispatch keeps the state across preemptions
 * @flags: the packet's flags: 0 or %DRM_VACCEL_PKT_F_GROUP_RANGE
 * @op: the packet's operands, 10, or 12 with a range
 * @fault: filled on a fault
 *
 * Runs unit 0 itself and hands the dispatch to the engine's other units;
 * returns once they all handed it back.
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
	unsigned int units = engine->num_cus, i;
	struct mem_cgroup *old;
	u32 started = 0;
	u64 seen, left;
	int ret;

	if (engine->desc.engine_class != DRM_VACCEL_ENGINE_CLASS_COMPUTE)
		return -EINVAL;
	/* What the engine allocates for the job is its creator's. */
	old = set_active_memcg(job->ctx->memcg);
	if (!d) {
		d = vaccel_dispatch_get(job->ctx, flags, op);
		if (IS_ERR(d)) {
			ret = PTR_ERR(d);
			goto out;
		}
		job->dispatch = d;
	}
	ret = vaccel_dispatch_slots(d, units);
	if (ret)
		goto out;
	d->engine = engine;
	d->job = job;
	d->stop = VACCEL_DISPATCH_GO;
	seen = atomic64_read(&d->done);

	/*
	 * The units with a workgroup to resume, and as many others as there
	 * are workgroups left: a dispatch of one workgroup wakes no thread.
	 */
	left = d->end - d->next;
	for (i = 1; i < units; i++)
		if (d->slot[i]->live || i < left)
			started |= BIT(i);
	/*
	 * The instruction caches, as a GPU's at a dispatch: the code may have
	 * changed since, or be another address space's.
	 */
	for (i = 0; i < units; i++)
		if (!i || started & BIT(i))
			vaccel_rv_cpu_sync(engine->cus[i].rv);
	atomic_set(&d->running, hweight32(started));
	for (i = 1; i < units; i++)
		if (started & BIT(i))
			vaccel_cu_start(&engine->cus[i], d, job->kcov_handle);
	ret = vaccel_dispatch_lead(d, &seen);
	ret = vaccel_dispatch_wait(d, &seen, ret);
	for (i = 1; i < units; i++)
		if (started & BIT(i))
			vaccel_cu_release(&engine->cus[i]);
	vaccel_cus_fold_traffic(engine);

	/* The first unit's fault is the context's. */
	if (d->err) {
		ret = d->err;
		*fault = d->fault;
		goto out;
	}
	/* A unit stops before the end only when the engine or a fault says. */
	if (drm_WARN_ON_ONCE(&engine->vdev->drm, !ret && !vaccel_dispatch_ended(d)))
		ret = -EIO;
	if (ret)
		goto out;
	/* The next packet's check counts the last workgroup's progress. */
	job->dispatch = NULL;
	d->engine = NULL;
	d->job = NULL;
	vaccel_dispatch_put(job->ctx, d);
out:
	set_active_memcg(old);
	return ret;
}

/* One work-item of the workgroup of @s, for a dump. */
static void vaccel_dispatch_dump_item(struct vaccel_wg_slot *s, u32 flat,
				      u32 state,
				      struct drm_vaccel_coredump_workitem *w)
{
	const struct vaccel_dispatch *d = s->d;
	const struct vaccel_rv_hart *h = vaccel_slot_hart(s, flat);
	unsigned int i;

	memset(w, 0, sizeof(*w));
	w->flat_id = flat;
	w->state = state;
	w->local_id[0] = flat % d->wg[0];
	w->local_id[1] = flat / d->wg[0] % d->wg[1];
	w->local_id[2] = flat / d->wg[0] / d->wg[1];
	for (i = 0; i < 3; i++)
		w->global_id[i] = (u64)s->group_id[i] * d->wg[i] + w->local_id[i];
	w->fcsr = h->fcsr;
	w->pc = h->pc;
	w->instret = h->instret;
	memcpy(w->x, h->x, sizeof(w->x));
	w->x[0] = 0;
	memcpy(w->f, h->f, sizeof(w->f));
}

/* Adds the work-items of @q, in order, while there is room. */
static unsigned int vaccel_dispatch_dump_queue(struct vaccel_wg_slot *s,
					       const struct vaccel_item_queue *q,
					       u32 state,
					       struct drm_vaccel_coredump_workitem *items,
					       unsigned int n, unsigned int max)
{
	u32 i;

	for (i = 0; i < q->count && n < max; i++)
		vaccel_dispatch_dump_item(s, q->slot[(q->head + i) % s->d->wg_items],
					  state, &items[n++]);
	return n;
}

/*
 * The workgroup a dump shows: the one that failed first, else the first
 * in flight; NULL if none is.
 */
static struct vaccel_wg_slot *vaccel_dispatch_dump_slot(struct vaccel_dispatch *d)
{
	struct vaccel_wg_slot *s = NULL;
	unsigned int i;

	if (d->err && d->fault_slot < d->num_slots && d->slot[d->fault_slot]->live)
		return d->slot[d->fault_slot];
	for (i = 0; i < d->num_slots; i++)
		if (d->slot[i]->live && (!s || d->slot[i]->group < s->group))
			s = d->slot[i];
	return s;
}

/**
 * vaccel_dispatch_dump() - the state of a DISPATCH in flight, for a dump
 * @d: the state a job keeps
 * @info: filled with the packet's operands and progress
 * @items: filled with the work-items of one workgroup in flight (the one
 *	that faulted, else the first): the one that ran last, then those
 *	ready, then those at the barrier
 * @max: entries of @items
 *
 * Context: The engine's thread that runs the job, its units stopped, or
 * with the job off every engine.
 * Return: the number of @items filled.
 */
unsigned int vaccel_dispatch_dump(struct vaccel_dispatch *d,
				  struct drm_vaccel_coredump_dispatch *info,
				  struct drm_vaccel_coredump_workitem *items,
				  unsigned int max)
{
	struct vaccel_wg_slot *s = vaccel_dispatch_dump_slot(d);
	unsigned int i, n = 0;

	memset(info, 0, sizeof(*info));
	info->entry = d->entry;
	info->args = d->args;
	for (i = 0; i < 3; i++) {
		info->grid[i] = d->grid[i];
		info->wg[i] = d->wg[i];
		info->num_groups[i] = d->groups[i];
	}
	info->local_size = d->local_size;
	info->stack_size = d->stack_size;
	info->group = d->next;
	info->total_groups = d->num_groups;
	info->current_item = DRM_VACCEL_COREDUMP_NO_WORKITEM;
	/* Between two workgroups, no work-item has a state. */
	if (!s)
		return 0;
	for (i = 0; i < 3; i++)
		info->group_id[i] = s->group_id[i];
	info->group = s->group;
	info->live = s->live;
	info->waiting = s->waiting;
	if (s->cur != VACCEL_ITEM_NONE) {
		info->current_item = s->cur;
		if (n < max)
			vaccel_dispatch_dump_item(s, s->cur,
						  DRM_VACCEL_COREDUMP_WORKITEM_RUNNING,
						  &items[n++]);
	}
	n = vaccel_dispatch_dump_queue(s, &s->ready,
				       DRM_VACCEL_COREDUMP_WORKITEM_READY,
				       items, n, max);
	return vaccel_dispatch_dump_queue(s, &s->arrived,
					  DRM_VACCEL_COREDUMP_WORKITEM_BARRIER,
					  items, n, max);
}
