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
 * work-items' architectural state (&struct vaccel_rv_hart), whether each is
 * ready, waits at the barrier or has ended, its local memory and its
 * stacks.  A preemption therefore needs no copy: the job keeps the state
 * and the packet resumes from it, at the same instruction.  The state is
 * charged to the memory cgroup of the context's creator.  The interpreter
 * itself (&struct vaccel_rv_cpu, with its caches) belongs to the engine.
 *
 * Inside a workgroup, one work-item runs at a time until it reaches the
 * barrier or ends, then the next ready one, round robin.  Work-items
 * interleave only at barriers, so results do not depend on preemptions.
 * The barrier releases when every work-item that has not ended waits at
 * it.
 *
 * The engine runs slices of instructions (module parameter dispatch_slice)
 * with its TLB's lock held, so that the host pages the interpreter caches
 * stay valid (an unmap waits for the slice), then checks the engine, at
 * the instruction level inside a workgroup and at the workgroup level
 * between two.  A completed workgroup is the progress that restarts the
 * hang timeout.  A slice that stored to memory wakes the WAIT_MEM packets
 * of the device; one that did not leaves them asleep.
 */

#include <linux/memcontrol.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include <drm/vaccel_accel.h>

#include "vaccel_context.h"
#include "vaccel_dispatch.h"
#include "vaccel_drv.h"
#include "vaccel_engine.h"
#include "vaccel_packet.h"
#include "vaccel_rv.h"
#include "vaccel_tlb.h"

/* translate() hands the interpreter whole pages of its size. */
static_assert(PAGE_SIZE == VACCEL_RV_PAGE_SIZE);

enum vaccel_item_state {
	VACCEL_ITEM_READY,
	VACCEL_ITEM_BARRIER,
	VACCEL_ITEM_DONE,
};

/**
 * struct vaccel_dispatch - a DISPATCH in progress, kept by its job
 * @entry: the kernel's entry address
 * @args: the argument block's address, in a0
 * @grid: the grid, in work-items
 * @wg: the workgroup size
 * @groups: workgroups along each dimension
 * @num_groups: workgroups in all
 * @local_size: local memory asked for, in bytes
 * @stack_size: bytes of stack per work-item
 * @wg_items: work-items of a whole workgroup
 * @group: index of the workgroup in flight, or of the next one
 * @group_id: @group along each dimension
 * @live: work-items of @group that have not ended; 0 while no workgroup
 *	is in flight (every workgroup has at least one)
 * @waiting: work-items of @group waiting at the barrier
 * @cur: the work-item that runs, or runs next
 * @local: local memory, @local_size rounded up to pages
 * @local_bytes: size of @local
 * @private: the stacks, @stack_size apart
 * @private_bytes: size of @private
 * @items: the work-items' state
 * @item_state: &enum vaccel_item_state of each work-item
 * @engine: the engine that runs the dispatch, while it runs
 * @wrote: a slice wrote to memory outside the apertures
 */
struct vaccel_dispatch {
	u64 entry;
	u64 args;
	u32 grid[3];
	u32 wg[3];
	u32 groups[3];
	u64 num_groups;
	u32 local_size;
	u32 stack_size;
	u32 wg_items;
	u64 group;
	u32 group_id[3];
	u32 live;
	u32 waiting;
	u32 cur;
	u8 *local;
	size_t local_bytes;
	u8 *private;
	size_t private_bytes;
	struct vaccel_rv_hart *items;
	u8 *item_state;
	struct vaccel_engine *engine;
	bool wrote;
};

/* The decoded and checked operands of the packet. */
static int vaccel_dispatch_parse(struct vaccel_dispatch *d, const u64 *op)
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
	return 0;
}

/* Serves the apertures from the dispatch's memory, the rest from the TLB. */
static u8 *vaccel_dispatch_translate(void *env, u64 va, unsigned int access,
				     u32 *reason)
{
	struct vaccel_dispatch *d = env;
	struct vaccel_fault fault;
	void *page;

	if (va - VACCEL_LOCAL_BASE < d->local_bytes && access != VACCEL_RV_EXEC)
		return d->local + ((va - VACCEL_LOCAL_BASE) & PAGE_MASK);
	if (va - VACCEL_PRIVATE_BASE < d->private_bytes &&
	    access != VACCEL_RV_EXEC)
		return d->private + ((va - VACCEL_PRIVATE_BASE) & PAGE_MASK);

	/* The micro-TLB forgets pages at every run: no store goes unseen. */
	if (access == VACCEL_RV_WRITE)
		d->wrote = true;
	page = vaccel_tlb_page_locked(&d->engine->tlb, va,
				      access == VACCEL_RV_EXEC ? VACCEL_ACCESS_EXEC :
				      access == VACCEL_RV_WRITE ? VACCEL_ACCESS_WRITE :
				      VACCEL_ACCESS_READ, &fault);
	if (!page) {
		*reason = fault.reason;
		return NULL;
	}
	return page;
}

static int vaccel_dispatch_csr(void *env, const struct vaccel_rv_hart *hart,
			       u32 csr, u64 *val)
{
	struct vaccel_dispatch *d = env;
	u32 flat = hart - d->items;
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

/*
 * Allocates the state of a dispatch for @job's packet, charged to the
 * memory cgroup of the context's creator: a preempted dispatch keeps all
 * of it, and the engine thread that allocates belongs to no one.
 */
static struct vaccel_dispatch *vaccel_dispatch_new(struct vaccel_job *job,
						   const u64 *op)
{
	struct mem_cgroup *old = set_active_memcg(job->ctx->memcg);
	struct vaccel_dispatch *d;

	d = kzalloc(sizeof(*d), GFP_KERNEL_ACCOUNT);
	if (!d)
		goto nomem;
	if (vaccel_dispatch_parse(d, op)) {
		kfree(d);
		set_active_memcg(old);
		return ERR_PTR(-EINVAL);
	}
	d->items = kvcalloc(d->wg_items, sizeof(*d->items), GFP_KERNEL_ACCOUNT);
	d->item_state = kvcalloc(d->wg_items, 1, GFP_KERNEL_ACCOUNT);
	/* Never show a kernel what the host's memory held before. */
	d->private = kvzalloc(d->private_bytes, GFP_KERNEL_ACCOUNT);
	if (d->local_bytes)
		d->local = kvmalloc(d->local_bytes, GFP_KERNEL_ACCOUNT);
	if (!d->items || !d->item_state || !d->private ||
	    (d->local_bytes && !d->local)) {
		vaccel_dispatch_free(d);
		goto nomem;
	}
	set_active_memcg(old);
	return d;

nomem:
	set_active_memcg(old);
	return ERR_PTR(-ENOMEM);
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

/**
 * vaccel_dispatch_free() - free the state of a dispatch
 * @d: the state, or NULL
 *
 * Context: Process context.
 */
void vaccel_dispatch_free(struct vaccel_dispatch *d)
{
	if (!d)
		return;
	kvfree(d->items);
	kvfree(d->item_state);
	kvfree(d->private);
	kvfree(d->local);
	kfree(d);
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
	for (z = 0; z < d->wg[2]; z++) {
		for (y = 0; y < d->wg[1]; y++) {
			for (x = 0; x < d->wg[0]; x++) {
				u32 flat = x + d->wg[0] * (y + d->wg[1] * z);
				struct vaccel_rv_hart *h = &d->items[flat];
				bool exists = x < n[0] && y < n[1] && z < n[2];

				d->item_state[flat] = exists ? VACCEL_ITEM_READY :
							       VACCEL_ITEM_DONE;
				if (!exists)
					continue;
				memset(h, 0, sizeof(*h));
				h->pc = d->entry;
				h->x[1] = VACCEL_EXIT_PC;	/* ra */
				h->x[2] = VACCEL_PRIVATE_BASE +
					  (u64)(flat + 1) * d->stack_size; /* sp */
				h->x[10] = d->args;		/* a0 */
				d->live++;
			}
		}
	}
	if (d->local_bytes)
		memset(d->local, 0, d->local_bytes);
	d->waiting = 0;
	d->cur = 0;
}

/* The next ready work-item after @d->cur, round robin. */
static void vaccel_dispatch_next_item(struct vaccel_dispatch *d)
{
	u32 n = d->wg_items, i;

	for (i = 1; i <= n; i++) {
		u32 k = (d->cur + i) % n;

		if (d->item_state[k] == VACCEL_ITEM_READY) {
			d->cur = k;
			return;
		}
	}
}

/* Releases the barrier once every live work-item waits at it. */
static void vaccel_dispatch_barrier(struct vaccel_dispatch *d)
{
	u32 n = d->wg_items, i;

	if (!d->live || d->waiting < d->live)
		return;
	for (i = 0; i < n; i++)
		if (d->item_state[i] == VACCEL_ITEM_BARRIER)
			d->item_state[i] = VACCEL_ITEM_READY;
	d->waiting = 0;
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
 * Return: 0 or -EFAULT.
 */
static int vaccel_dispatch_slice(struct vaccel_dispatch *d, u64 budget,
				 struct vaccel_fault *fault)
{
	struct vaccel_engine *engine = d->engine;
	struct vaccel_rv_fault rvf;

	while (d->live && budget) {
		struct vaccel_rv_hart *h = &d->items[d->cur];
		enum vaccel_rv_stop stop;
		u64 done = 0;

		if (d->item_state[d->cur] != VACCEL_ITEM_READY) {
			vaccel_dispatch_next_item(d);
			continue;
		}
		stop = vaccel_rv_run(engine->rv, h, budget, &done, &rvf);
		WRITE_ONCE(engine->instructions, engine->instructions + done);
		switch (stop) {
		case VACCEL_RV_BUDGET:
			break;
		case VACCEL_RV_BARRIER:
			d->item_state[d->cur] = VACCEL_ITEM_BARRIER;
			d->waiting++;
			vaccel_dispatch_barrier(d);
			vaccel_dispatch_next_item(d);
			break;
		case VACCEL_RV_EXIT:
			d->item_state[d->cur] = VACCEL_ITEM_DONE;
			d->live--;
			vaccel_dispatch_barrier(d);
			vaccel_dispatch_next_item(d);
			break;
		default:
			vaccel_dispatch_fault(fault, &rvf);
			return -EFAULT;
		}
		budget -= min(budget, done);
	}
	return 0;
}

/**
 * vaccel_dispatch_run() - run or resume a DISPATCH packet
 * @engine: the engine, its TLB attached to the job's address space
 * @job: the job; @job->dispatch keeps the state across preemptions
 * @op: the packet's operands
 * @fault: filled on a fault
 *
 * Context: The engine's thread; sleeps.
 * Return: 0 once every workgroup ran; -EINVAL for a malformed packet;
 * -EFAULT for a fault of a work-item; -ENOMEM; or what
 * vaccel_engine_check() stopped it with, the state kept in @job.
 */
int vaccel_dispatch_run(struct vaccel_engine *engine, struct vaccel_job *job,
			const u64 *op, struct vaccel_fault *fault)
{
	struct vaccel_dispatch *d = job->dispatch;
	bool progressed = false;
	int ret;

	if (engine->desc.engine_class != DRM_VACCEL_ENGINE_CLASS_COMPUTE)
		return -EINVAL;
	if (!d) {
		d = vaccel_dispatch_new(job, op);
		if (IS_ERR(d))
			return PTR_ERR(d);
		job->dispatch = d;
	}
	d->engine = engine;
	engine->rv->env = d;

	while (d->group < d->num_groups) {
		if (!d->live) {
			ret = vaccel_engine_check(engine, job, progressed,
						  DRM_VACCEL_PREEMPT_WORKGROUP);
			if (ret)
				return ret;
			vaccel_dispatch_start_group(d);
		}
		progressed = false;
		while (d->live) {
			vaccel_tlb_lock(&engine->tlb);
			ret = vaccel_dispatch_slice(d, engine->vdev->topo.dispatch_slice,
						    fault);
			vaccel_tlb_unlock(&engine->tlb);
			if (d->wrote) {
				d->wrote = false;
				vaccel_packet_wrote(engine);
			}
			if (ret)
				return ret;
			cond_resched();
			if (!d->live)
				break;
			ret = vaccel_engine_check(engine, job, false,
						  DRM_VACCEL_PREEMPT_INSTRUCTION);
			if (ret)
				return ret;
		}
		d->group++;
		progressed = true;
	}
	/* The next packet's check counts the last workgroup's progress. */
	job->dispatch = NULL;
	vaccel_dispatch_free(d);
	return 0;
}
