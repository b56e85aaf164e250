// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: GPU address spaces and VM_BIND
 *
 * Every open file has one GPU address space, a &struct vaccel_vm: MCDM's
 * "one address space per process".  drm_gpuvm tracks its mappings, and a
 * &struct vaccel_pt holds the page table the engines walk.  User space
 * picks the addresses (GpuMmu: the UMD assigns VAs) and asks for them with
 * %DRM_IOCTL_VACCEL_VM_BIND, an array of map and unmap operations that is
 * applied all or nothing.
 *
 * A bind has two halves, as in panthor and xe.  The ioctl does everything
 * that can fail, in process context and charged to the caller's memory
 * cgroup, then changes the mappings drm_gpuvm tracks; the *apply* step
 * then writes the page tables, allocating nothing and taking no lock that
 * is ever held while memory is allocated or a fence awaited:
 *
 * 1. Check.  Every operation on its own (alignment, ranges, flags,
 *    handles); then the batch as a whole: each map must find its range
 *    free once the operations before it are applied (``-EEXIST``), which
 *    an ordered set of the batch's effects and drm_gpuvm's interval
 *    queries decide in O(n log n + n^2) for n operations, whatever the VM
 *    holds; and the VM's limits (``-ENOSPC``, below).
 * 2. Prepare.  Pin the BOs' pages, bind the BOs to the VM, allocate the
 *    VMA structures (one per map, two per unmap for the pieces a split
 *    leaves) and set aside every page-table page the maps may need.  A
 *    failure gives it all back and leaves the VM as it was.
 * 3. Commit.  drm_gpuvm_sm_map() and drm_gpuvm_sm_unmap() walk the batch
 *    and call back into vaccel_vm_sm_step_map(), _remap() and _unmap(),
 *    which move VMAs using only what was prepared.  Unmapped VMAs leave the
 *    tree but keep their pages pinned.  From here on the bind cannot fail.
 * 4. Apply.  The page tables follow, operation by operation, a 2 MiB
 *    region at a time, under the VM's page-table lock only.
 * 5. Release.  Empty tables are pruned, every TLB attached to the VM is
 *    invalidated (which waits for engine accesses in flight), and only then
 *    are the unmapped VMAs' pages unpinned and their BOs released.
 *
 * A mapping holds a pin on its BO's pages and, through its drm_gpuvm_bo, a
 * reference on the BO, so closing the handle does not take the pages from
 * under the device.  When a mapping is split, each piece holds its own pin.
 * Closing the file unmaps everything with the same machinery.
 *
 * **Synchronous binds**, without syncobjs, run all five stages in the
 * ioctl, once every asynchronous bind submitted before them has applied.
 *
 * **Asynchronous binds**, with syncobjs, run the first three in the ioctl
 * and become the work of a job on the VM's paging context, a kernel
 * context on the PAGING engine: its DMA buffer of page-table updates, in
 * MCDM's words.  The job waits for the in-syncobjs through drm_sched like
 * any job; then the paging engine applies the batch and releases what it
 * unmapped, but for the unpinning, which a worker does once the job is
 * done.  The tracked mappings thus describe the VM as it will be once the
 * binds submitted so far have applied, which is what the next bind is
 * checked against; every error is the ioctl's, and the fences of an
 * asynchronous bind only ever carry a cancellation.  Binds of a VM apply
 * in the order of the ioctls.
 *
 * The paging engine checks between regions: it preempts there, so that
 * one file's large binds share the engine with another's in time slices,
 * and it honours cancellation and the time limit.  A bind stopped before
 * it applied whole, which only a close or the time limit can do, leaves
 * the VM's page tables behind its mappings: the pages it unmapped stay
 * pinned until the VM is gone, and further binds of the VM fail with
 * ``-ECANCELED``.
 *
 * **Limits.**  A VM holds at most max_mappings mappings (a module
 * parameter, at most and by default %VACCEL_MAX_MAPPINGS) and
 * %VACCEL_MAX_PT_BYTES of page tables, counting what pending binds may
 * need: one 4 GiB BO mapped at thousands of addresses costs its page
 * tables, never the host's memory.  Both are reported by the device query.
 */

#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/vaccel_accel.h>

#include "vaccel_context.h"
#include "vaccel_drv.h"
#include "vaccel_engine.h"
#include "vaccel_file.h"
#include "vaccel_gem.h"
#include "vaccel_migrate.h"
#include "vaccel_trace.h"
#include "vaccel_vm.h"

#define VACCEL_VM_BIND_MAP_FLAGS \
	(DRM_VACCEL_VM_BIND_READ_ONLY | DRM_VACCEL_VM_BIND_NO_EXEC)

/* The page tables are applied a level-0 table's region at a time. */
#define VACCEL_BIND_REGION	SZ_2M

/**
 * struct vaccel_vma - one mapping
 * @base: the drm_gpuva: range, BO and offset
 * @flags: DRM_VACCEL_VM_BIND_* flags of the mapping
 * @release_link: on &vaccel_bind_batch.released once out of the tree, or
 *	on &vaccel_vm.orphans
 */
struct vaccel_vma {
	struct drm_gpuva base;
	u32 flags;
	struct list_head release_link;
};

static struct vaccel_vma *to_vaccel_vma(struct drm_gpuva *va)
{
	return container_of(va, struct vaccel_vma, base);
}

/**
 * vaccel_vma_flags() - the DRM_VACCEL_VM_BIND_* flags of a mapping
 * @va: a mapping of a VM, its lock held
 *
 * Context: Any context.
 * Return: the flags it was mapped with.
 */
u32 vaccel_vma_flags(struct drm_gpuva *va)
{
	lockdep_assert_held(&container_of(va->vm, struct vaccel_vm, base)->lock);
	return to_vaccel_vma(va)->flags;
}

/**
 * struct vaccel_bind_op - one operation of a batch and what it prepared
 * @args: the operation, copied from user space
 * @bo: for a map, a reference on the BO
 * @vm_bo: for a map, a reference on the BO's binding to the VM
 * @vmas: VMAs prepared for the operation, taken as it is committed
 * @pinned: for a map, a pin not yet handed to a mapping
 */
struct vaccel_bind_op {
	struct drm_vaccel_vm_bind_op args;
	struct vaccel_bo *bo;
	struct drm_gpuvm_bo *vm_bo;
	struct vaccel_vma *vmas[2];
	bool pinned;
};

/**
 * struct vaccel_bind_batch - a VM_BIND, from the ioctl to its release
 * @vm: the VM, referenced
 * @ops: the operations
 * @count: number of @ops
 * @cur: the operation being committed
 * @reserve: the page-table pages the maps may need
 * @released: VMAs the batch took out of the tree, whose pins go once no
 *	engine can reach their pages
 * @next_op: the operation the apply step does next
 * @next_off: how far into it the apply step got
 * @inval_start: start of the VA range the apply step cleared
 * @inval_end: its end; empty if not above @inval_start
 * @applied: the page tables were updated for every operation
 * @release_work: releases the batch of a job once the job is done
 * @kcov_handle: the KCOV handle of the job, for the release's coverage
 */
struct vaccel_bind_batch {
	struct vaccel_vm *vm;
	struct vaccel_bind_op *ops;
	u32 count;
	struct vaccel_bind_op *cur;
	struct vaccel_pt_reserve reserve;
	struct list_head released;
	u32 next_op;
	u64 next_off;
	u64 inval_start;
	u64 inval_end;
	bool applied;
	struct work_struct release_work;
	u64 kcov_handle;
};

/* --- the check of a batch ------------------------------------------------- */

/**
 * struct vaccel_effect - what the operations before one did to a range
 * @start: start of the range
 * @end: its end
 * @mapped: mapped by a map of the batch, or unmapped by an unmap
 */
struct vaccel_effect {
	u64 start;
	u64 end;
	bool mapped;
};

/**
 * struct vaccel_effects - the batch's effects so far, ordered, disjoint
 * @e: the ranges
 * @n: how many
 *
 * Each operation adds one range and splits at most one: 2 per operation
 * and one more bound the size.
 */
struct vaccel_effects {
	struct vaccel_effect *e;
	u32 n;
};

/* Index of the first effect that ends after @va. */
static u32 vaccel_effects_find(const struct vaccel_effects *fx, u64 va)
{
	u32 lo = 0, hi = fx->n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (fx->e[mid].end <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Whether [start, end) is free once the batch's earlier operations are
 * applied: no effect maps it, and the VM has nothing where no effect is.
 */
static bool vaccel_effects_free(const struct vaccel_effects *fx,
				struct drm_gpuvm *gpuvm, u64 start, u64 end)
{
	u64 va = start;
	u32 i;

	for (i = vaccel_effects_find(fx, start); i < fx->n && va < end; i++) {
		const struct vaccel_effect *e = &fx->e[i];

		if (e->start >= end)
			break;
		if (e->start > va &&
		    !drm_gpuvm_interval_empty(gpuvm, va, e->start - va))
			return false;
		if (e->mapped)
			return false;
		va = e->end;
	}
	return va >= end || drm_gpuvm_interval_empty(gpuvm, va, end - va);
}

/* Records [start, end) as mapped or unmapped, over whatever was there. */
static void vaccel_effects_set(struct vaccel_effects *fx, u64 start, u64 end,
			       bool mapped)
{
	u32 first = vaccel_effects_find(fx, start), last = first, keep = 0;
	struct vaccel_effect head = {}, tail = {};
	bool has_head = false, has_tail = false;

	/* The effects [first, last) overlap the range. */
	while (last < fx->n && fx->e[last].start < end)
		last++;
	if (first < last && fx->e[first].start < start) {
		head = fx->e[first];
		head.end = start;
		has_head = true;
	}
	if (first < last && fx->e[last - 1].end > end) {
		tail = fx->e[last - 1];
		tail.start = end;
		has_tail = true;
	}
	keep = has_head + 1 + has_tail;
	memmove(&fx->e[first + keep], &fx->e[last],
		(fx->n - last) * sizeof(*fx->e));
	fx->n = fx->n - (last - first) + keep;
	if (has_head)
		fx->e[first++] = head;
	fx->e[first++] = (struct vaccel_effect){ start, end, mapped };
	if (has_tail)
		fx->e[first] = tail;
}

/* Every map of the batch finds its range free when its turn comes. */
static int vaccel_bind_check_free(struct vaccel_bind_batch *b)
{
	struct vaccel_effects fx = {};
	int ret = 0;
	u32 i;

	fx.e = kvmalloc_array(2 * b->count + 1, sizeof(*fx.e), VACCEL_GFP_SIZED);
	if (!fx.e)
		return -ENOMEM;
	for (i = 0; i < b->count && !ret; i++) {
		const struct drm_vaccel_vm_bind_op *a = &b->ops[i].args;
		bool map = a->op == DRM_VACCEL_VM_BIND_OP_MAP;

		if (map && VACCEL_IOCTL_DBG(b->vm->vdev,
					    !vaccel_effects_free(&fx, &b->vm->base, a->va,
								 a->va + a->size)))
			ret = -EEXIST;
		else
			vaccel_effects_set(&fx, a->va, a->va + a->size, map);
		cond_resched();
	}
	kvfree(fx.e);
	return ret;
}

/* Whether unmapping [start, end) cuts a mapping of the VM in two. */
static bool vaccel_bind_splits(struct vaccel_vm *vm, u64 start, u64 end)
{
	struct drm_gpuva *va;

	drm_gpuvm_for_each_va_range(va, &vm->base, start, end)
		return va->va.addr < start && va->va.addr + va->va.range > end;
	return false;
}

/*
 * The VM's limits, counting the worst case: a map adds a mapping and may
 * need a table per region it touches; an unmap that cuts a mapping in two
 * adds one.  An unmap that only removes or trims never fails them.
 */
static int vaccel_bind_check_limits(struct vaccel_bind_batch *b,
				    unsigned long *tables)
{
	struct vaccel_vm *vm = b->vm;
	u64 mappings = vm->mappings;
	u32 i;

	*tables = 0;
	for (i = 0; i < b->count; i++) {
		const struct drm_vaccel_vm_bind_op *a = &b->ops[i].args;

		if (a->op == DRM_VACCEL_VM_BIND_OP_MAP) {
			mappings++;
			*tables += vaccel_pt_tables_for(a->va, a->size);
		} else if (vaccel_bind_splits(vm, a->va, a->va + a->size)) {
			mappings++;
		}
		cond_resched();
	}
	if (VACCEL_IOCTL_DBG(vm->vdev, mappings > vm->vdev->topo.max_mappings) ||
	    VACCEL_IOCTL_DBG(vm->vdev, vaccel_pt_footprint(&vm->pt) + *tables >
				       VACCEL_MAX_PT_PAGES))
		return -ENOSPC;
	return 0;
}

/* --- the drm_gpuvm steps of the commit ------------------------------------ */

static struct vaccel_vma *vaccel_bind_take_vma(struct vaccel_bind_batch *b)
{
	struct vaccel_vma *vma;
	int i;

	for (i = 0; i < ARRAY_SIZE(b->cur->vmas); i++) {
		vma = b->cur->vmas[i];
		if (vma) {
			b->cur->vmas[i] = NULL;
			return vma;
		}
	}
	return NULL;
}

static void vaccel_vma_link(struct vaccel_vma *vma, struct drm_gpuvm_bo *vm_bo)
{
	struct vaccel_bo *bo = to_vaccel_bo(vm_bo->obj);

	mutex_lock(&bo->gpuva_lock);
	drm_gpuva_link(&vma->base, vm_bo);
	mutex_unlock(&bo->gpuva_lock);
}

/* @vma left the tree; its pages go once the apply step has cleared them. */
static void vaccel_bind_unmapped(struct vaccel_bind_batch *b,
				 struct vaccel_vma *vma, u64 range)
{
	b->vm->mapped_bytes -= range;
	list_add_tail(&vma->release_link, &b->released);
}

static int vaccel_vm_sm_step_map(struct drm_gpuva_op *op, void *priv)
{
	struct vaccel_bind_batch *b = priv;
	struct vaccel_vm *vm = b->vm;
	struct vaccel_vma *vma = vaccel_bind_take_vma(b);

	if (drm_WARN_ON(vm->base.drm, !vma))
		return -EINVAL;
	vma->flags = b->cur->args.flags;
	drm_gpuva_map(&vm->base, &vma->base, &op->map);
	vaccel_vma_link(vma, b->cur->vm_bo);
	/* The mapping owns the pin now. */
	b->cur->pinned = false;
	vm->mapped_bytes += op->map.va.range;
	vm->mappings++;
	return 0;
}

static int vaccel_vm_sm_step_remap(struct drm_gpuva_op *op, void *priv)
{
	struct vaccel_bind_batch *b = priv;
	struct vaccel_vma *old = to_vaccel_vma(op->remap.unmap->va);
	struct drm_gpuvm_bo *vm_bo = old->base.vm_bo;
	struct vaccel_vma *prev = NULL, *next = NULL;
	u64 start, range;

	drm_gpuva_op_remap_to_unmap_range(&op->remap, &start, &range);
	if (op->remap.prev) {
		prev = vaccel_bind_take_vma(b);
		if (drm_WARN_ON(b->vm->base.drm, !prev))
			return -EINVAL;
		prev->flags = old->flags;
	}
	if (op->remap.next) {
		next = vaccel_bind_take_vma(b);
		if (drm_WARN_ON(b->vm->base.drm, !next))
			return -EINVAL;
		next->flags = old->flags;
	}

	drm_gpuva_remap(prev ? &prev->base : NULL, next ? &next->base : NULL,
			&op->remap);
	/* Each piece holds its own pin; the old mapping's goes with it. */
	if (prev) {
		vaccel_bo_pin_again(to_vaccel_bo(vm_bo->obj));
		vaccel_vma_link(prev, vm_bo);
		b->vm->mappings++;
	}
	if (next) {
		vaccel_bo_pin_again(to_vaccel_bo(vm_bo->obj));
		vaccel_vma_link(next, vm_bo);
		b->vm->mappings++;
	}
	b->vm->mappings--;
	vaccel_bind_unmapped(b, old, range);
	return 0;
}

static int vaccel_vm_sm_step_unmap(struct drm_gpuva_op *op, void *priv)
{
	struct vaccel_bind_batch *b = priv;
	struct vaccel_vma *vma = to_vaccel_vma(op->unmap.va);

	/* One unmap may remove every mapping of the VM: yield between them. */
	cond_resched();
	drm_gpuva_unmap(&op->unmap);
	b->vm->mappings--;
	vaccel_bind_unmapped(b, vma, vma->base.va.range);
	return 0;
}

/* --- the stages ---------------------------------------------------------- */

static int vaccel_bind_check_op(struct vaccel_vm *vm, struct drm_file *file,
				struct vaccel_bind_op *op)
{
	const struct drm_vaccel_vm_bind_op *a = &op->args;
	struct vaccel_device *vdev = vm->vdev;
	struct drm_gem_object *obj;

	if (VACCEL_IOCTL_DBG(vdev, a->pad) ||
	    VACCEL_IOCTL_DBG(vdev, !a->size) ||
	    VACCEL_IOCTL_DBG(vdev, !PAGE_ALIGNED(a->va)) ||
	    VACCEL_IOCTL_DBG(vdev, !PAGE_ALIGNED(a->size)) ||
	    VACCEL_IOCTL_DBG(vdev, !PAGE_ALIGNED(a->bo_offset)))
		return -EINVAL;
	if (VACCEL_IOCTL_DBG(vdev, a->va < vm->pt.va_start) ||
	    VACCEL_IOCTL_DBG(vdev, a->va >= vm->pt.va_end) ||
	    VACCEL_IOCTL_DBG(vdev, a->size > vm->pt.va_end - a->va))
		return -EINVAL;

	if (a->op == DRM_VACCEL_VM_BIND_OP_UNMAP) {
		if (VACCEL_IOCTL_DBG(vdev, a->flags) ||
		    VACCEL_IOCTL_DBG(vdev, a->handle) ||
		    VACCEL_IOCTL_DBG(vdev, a->bo_offset))
			return -EINVAL;
		return 0;
	}
	if (VACCEL_IOCTL_DBG(vdev, a->op != DRM_VACCEL_VM_BIND_OP_MAP) ||
	    VACCEL_IOCTL_DBG(vdev, a->flags & ~VACCEL_VM_BIND_MAP_FLAGS))
		return -EINVAL;
	obj = drm_gem_object_lookup(file, a->handle);
	if (VACCEL_IOCTL_DBG(vdev, !obj))
		return -ENOENT;
	op->bo = to_vaccel_bo(obj);
	/* A peer object maps the exporter's BO itself: see "Peer mappings". */
	if (op->bo->peer) {
		op->bo = op->bo->peer;
		drm_gem_object_get(&op->bo->base.base);
		drm_gem_object_put(obj);
		obj = &op->bo->base.base;
	}
	if (VACCEL_IOCTL_DBG(vdev, a->bo_offset > obj->size) ||
	    VACCEL_IOCTL_DBG(vdev, a->size > obj->size - a->bo_offset))
		return -EINVAL;
	return 0;
}

static int vaccel_bind_copy_ops(struct vaccel_device *vdev,
				const struct drm_vaccel_obj_array *arr,
				struct vaccel_bind_op **out)
{
	struct vaccel_bind_op *ops;
	u32 i;
	int ret;

	*out = NULL;
	if (VACCEL_IOCTL_DBG(vdev, arr->count > VACCEL_MAX_BIND_OPS))
		return -E2BIG;
	if (VACCEL_IOCTL_DBG(vdev, arr->stride < sizeof(ops->args)) ||
	    VACCEL_IOCTL_DBG(vdev, arr->stride > PAGE_SIZE))
		return -EINVAL;

	ops = kvcalloc(arr->count, sizeof(*ops), VACCEL_GFP_SIZED);
	if (!ops)
		return -ENOMEM;
	for (i = 0; i < arr->count; i++) {
		u64 src = arr->array + (u64)i * arr->stride;

		ret = copy_struct_from_user(&ops[i].args, sizeof(ops[i].args),
					    u64_to_user_ptr(src), arr->stride);
		/* -E2BIG: non-zero bytes this kernel does not know. */
		if (VACCEL_IOCTL_DBG(vdev, ret == -E2BIG))
			ret = -EINVAL;
		if (ret) {
			kvfree(ops);
			return ret;
		}
	}
	*out = ops;
	return 0;
}

static void vaccel_bind_release(struct vaccel_bind_batch *b);

/* A batch of the operations of @arr, copied and checked one by one. */
static struct vaccel_bind_batch *vaccel_bind_new(struct vaccel_vm *vm,
						 struct drm_file *file,
						 const struct drm_vaccel_obj_array *arr)
{
	struct vaccel_bind_batch *b;
	int ret;
	u32 i;

	b = kzalloc(sizeof(*b), GFP_KERNEL_ACCOUNT);
	if (!b)
		return ERR_PTR(-ENOMEM);
	b->vm = vm;
	drm_gpuvm_get(&vm->base);
	INIT_LIST_HEAD(&b->released);
	vaccel_pt_reserve_init(&b->reserve);
	b->inval_start = U64_MAX;
	ret = vaccel_bind_copy_ops(vm->vdev, arr, &b->ops);
	if (!ret) {
		b->count = arr->count;
		for (i = 0; i < b->count && !ret; i++)
			ret = vaccel_bind_check_op(vm, file, &b->ops[i]);
	}
	if (ret) {
		vaccel_bind_release(b);
		return ERR_PTR(ret);
	}
	return b;
}

/*
 * Everything the commit and the apply step need; all that can fail.  The
 * pins come last: they are what a full memory cgroup refuses, and the
 * small allocations are not then left to meet it.
 */
static int vaccel_bind_prepare(struct vaccel_bind_batch *b, unsigned long tables)
{
	struct vaccel_vm *vm = b->vm;
	u32 i;
	int ret;

	for (i = 0; i < b->count; i++) {
		struct vaccel_bind_op *op = &b->ops[i];
		const struct drm_vaccel_vm_bind_op *a = &op->args;
		int j, nvmas = 1;

		/*
		 * An unmap leaves a piece of a mapping on each side it cuts,
		 * and nothing can lie beyond the ends of the VA space: so
		 * unmapping everything needs nothing, and cannot fail.
		 */
		if (a->op == DRM_VACCEL_VM_BIND_OP_UNMAP)
			nvmas = (a->va > vm->pt.va_start) +
				(a->va + a->size < vm->pt.va_end);

		for (j = 0; j < nvmas; j++) {
			op->vmas[j] = kzalloc(sizeof(*op->vmas[j]), GFP_KERNEL_ACCOUNT);
			if (!op->vmas[j])
				return -ENOMEM;
		}
		if (a->op != DRM_VACCEL_VM_BIND_OP_MAP)
			continue;

		op->vm_bo = drm_gpuvm_bo_create(&vm->base, &op->bo->base.base);
		if (!op->vm_bo)
			return -ENOMEM;
		mutex_lock(&op->bo->gpuva_lock);
		op->vm_bo = drm_gpuvm_bo_obtain_prealloc(op->vm_bo);
		mutex_unlock(&op->bo->gpuva_lock);
	}
	ret = vaccel_pt_reserve_fill(&vm->pt, &b->reserve, tables);
	if (ret)
		return ret;

	for (i = 0; i < b->count; i++) {
		struct vaccel_bind_op *op = &b->ops[i];

		if (op->args.op != DRM_VACCEL_VM_BIND_OP_MAP)
			continue;
		ret = vaccel_bo_pin(op->bo);
		if (ret)
			return ret;
		op->pinned = true;
		ret = vaccel_vm_await_move(vm, op->bo);
		if (ret)
			return ret;
		cond_resched();
	}
	return 0;
}

/* Changes the tracked mappings; the prepared batch cannot fail here. */
static void vaccel_bind_commit(struct vaccel_bind_batch *b)
{
	struct vaccel_vm *vm = b->vm;
	u32 i;
	int ret;

	lockdep_assert_held(&vm->lock);
	for (i = 0; i < b->count; i++) {
		const struct drm_vaccel_vm_bind_op *a = &b->ops[i].args;

		b->cur = &b->ops[i];
		if (a->op == DRM_VACCEL_VM_BIND_OP_MAP)
			ret = drm_gpuvm_sm_map(&vm->base, b, a->va, a->size,
					       &b->cur->bo->base.base,
					       a->bo_offset);
		else
			ret = drm_gpuvm_sm_unmap(&vm->base, b, a->va, a->size);
		/* Checked and prepared: nothing here may fail. */
		drm_WARN_ON(vm->base.drm, ret);
		cond_resched();
	}
	b->cur = NULL;
}

static u64 vaccel_bind_pte_flags(u32 flags)
{
	u64 pte = 0;

	if (!(flags & DRM_VACCEL_VM_BIND_READ_ONLY))
		pte |= DRM_VACCEL_PTE_WRITE;
	if (!(flags & DRM_VACCEL_VM_BIND_NO_EXEC))
		pte |= DRM_VACCEL_PTE_EXEC;
	return pte;
}

/*
 * Writes the page tables of one region of the operation at @b->next_op,
 * from @b->next_off: up to the next 2 MiB boundary, or past a stretch
 * without tables for an unmap.
 */
static void vaccel_bind_apply_region(struct vaccel_bind_batch *b)
{
	const struct vaccel_bind_op *op = &b->ops[b->next_op];
	const struct drm_vaccel_vm_bind_op *a = &op->args;
	struct vaccel_pt *pt = &b->vm->pt;
	u64 va = a->va + b->next_off, end = a->va + a->size, len;

	if (a->op == DRM_VACCEL_VM_BIND_OP_UNMAP) {
		va = min(vaccel_pt_skip_unmapped(pt, va, end), end);
		len = min(end - va, ALIGN(va + 1, VACCEL_BIND_REGION) - va);
		if (len) {
			vaccel_pt_unmap(pt, va, len);
			b->inval_start = min(b->inval_start, va);
			b->inval_end = max(b->inval_end, va + len);
		}
	} else {
		u64 off = a->bo_offset + b->next_off;
		struct vaccel_pt_frames f;

		len = min(end - va, ALIGN(va + 1, VACCEL_BIND_REGION) - va);
		/* Under the page-table lock: ordered against a move's switch. */
		vaccel_bo_frames(op->bo, off, &f);
		vaccel_pt_map(pt, va, len, &f, vaccel_bind_pte_flags(a->flags),
			      &b->reserve);
	}
	b->next_off = va + len - a->va;
}

/*
 * The apply step: the page tables of every operation, from where it got,
 * checking between regions, then the pruning and the invalidation of the
 * TLBs.  @check says whether the applier may go on.
 */
static int vaccel_bind_apply(struct vaccel_bind_batch *b,
			     int (*check)(void *data), void *data)
{
	struct vaccel_vm *vm = b->vm;
	struct vaccel_pt *pt = &vm->pt;
	unsigned int tlbs;
	int ret = 0;
	u32 i;

	mutex_lock(&vm->pt_lock);
	while (b->next_op < b->count) {
		const struct drm_vaccel_vm_bind_op *a = &b->ops[b->next_op].args;

		if (b->next_off < a->size)
			vaccel_bind_apply_region(b);
		if (b->next_off >= a->size) {
			b->next_op++;
			b->next_off = 0;
		}
		ret = check(data);
		if (ret) {
			mutex_unlock(&vm->pt_lock);
			return ret;
		}
	}
	for (i = 0; i < b->count; i++)
		vaccel_pt_prune(pt, b->ops[i].args.va, b->ops[i].args.size);
	mutex_unlock(&vm->pt_lock);

	if (b->inval_start < b->inval_end) {
		tlbs = vaccel_pt_invalidate(pt, b->inval_start,
					    b->inval_end - b->inval_start);
		trace_vaccel_tlb_invalidate(vm->vdev, vm->client_id, b->inval_start,
					    b->inval_end - b->inval_start, tlbs);
	}
	mutex_lock(&vm->pt_lock);
	if (!list_empty(&pt->zombies)) {
		mutex_unlock(&vm->pt_lock);
		tlbs = vaccel_pt_invalidate(pt, pt->va_start, pt->va_end - pt->va_start);
		trace_vaccel_tlb_invalidate(vm->vdev, vm->client_id, pt->va_start,
					    pt->va_end - pt->va_start, tlbs);
		mutex_lock(&vm->pt_lock);
	}
	vaccel_pt_release_zombies(pt);
	mutex_unlock(&vm->pt_lock);
	vaccel_pt_reserve_release(pt, &b->reserve);
	b->applied = true;
	return 0;
}

/* Drops a vm_bo reference; the BO must survive the gpuva lock. */
static void vaccel_vm_bo_put(struct drm_gpuvm_bo *vm_bo)
{
	struct drm_gem_object *obj = vm_bo->obj;
	struct vaccel_bo *bo = to_vaccel_bo(obj);

	drm_gem_object_get(obj);
	mutex_lock(&bo->gpuva_lock);
	drm_gpuvm_bo_put(vm_bo);
	mutex_unlock(&bo->gpuva_lock);
	drm_gem_object_put(obj);
}

static void vaccel_vma_release(struct vaccel_vma *vma)
{
	struct drm_gem_object *obj = vma->base.gem.obj;
	struct vaccel_bo *bo = to_vaccel_bo(obj);

	drm_gem_object_get(obj);
	vaccel_bo_unpin(bo);
	mutex_lock(&bo->gpuva_lock);
	drm_gpuva_unlink(&vma->base);
	mutex_unlock(&bo->gpuva_lock);
	drm_gem_object_put(obj);
	kfree(vma);
}

static void vaccel_vmas_release(struct list_head *vmas)
{
	struct vaccel_vma *vma, *tmp;

	list_for_each_entry_safe(vma, tmp, vmas, release_link) {
		list_del(&vma->release_link);
		vaccel_vma_release(vma);
		cond_resched();
	}
}

/*
 * Frees a batch, applied or not.  What it unmapped is released now if its
 * page tables were cleared or the VM is gone; otherwise an engine may
 * still reach those pages, and the VM keeps them until it is gone.
 */
static void vaccel_bind_release(struct vaccel_bind_batch *b)
{
	struct vaccel_vm *vm = b->vm;
	u32 i;
	int j;

	if (!list_empty(&b->released)) {
		mutex_lock(&vm->lock);
		if (!b->applied && !vm->dead) {
			list_splice_tail_init(&b->released, &vm->orphans);
			drm_dbg_driver(vm->base.drm,
				       "VM of client %llu: a bind stopped part-way, its pages stay\n",
				       vm->client_id);
		}
		mutex_unlock(&vm->lock);
		vaccel_vmas_release(&b->released);
	}
	vaccel_pt_reserve_release(&vm->pt, &b->reserve);
	for (i = 0; b->ops && i < b->count; i++) {
		struct vaccel_bind_op *op = &b->ops[i];

		for (j = 0; j < ARRAY_SIZE(op->vmas); j++)
			kfree(op->vmas[j]);
		if (op->pinned)
			vaccel_bo_unpin(op->bo);
		if (op->vm_bo)
			vaccel_vm_bo_put(op->vm_bo);
		if (op->bo)
			drm_gem_object_put(&op->bo->base.base);
		cond_resched();
	}
	kvfree(b->ops);
	drm_gpuvm_put(&vm->base);
	kfree(b);
}

static void vaccel_bind_release_work(struct work_struct *work)
{
	struct vaccel_bind_batch *b = container_of(work, struct vaccel_bind_batch,
						   release_work);
	u64 kcov_handle = b->kcov_handle;

	vaccel_kcov_begin(kcov_handle);
	/* A test's hold point (see "Hold points"). */
	vaccel_hold_wait(&b->vm->vdev->hold_teardown);
	vaccel_bind_release(b);
	vaccel_kcov_end(kcov_handle);
}

/**
 * vaccel_vm_bind_batch_free() - free the batch of a paging job
 * @batch: the batch, applied or not
 * @kcov_handle: the KCOV handle of its job, to which the release reports
 *
 * The unpinning takes the BOs' reservation locks, which are held while
 * fences are awaited: it is left to vaccel_teardown_wq, off drm_sched's
 * own work.
 *
 * Context: Any context.
 */
void vaccel_vm_bind_batch_free(struct vaccel_bind_batch *batch, u64 kcov_handle)
{
	batch->kcov_handle = kcov_handle;
	INIT_WORK(&batch->release_work, vaccel_bind_release_work);
	queue_work(vaccel_teardown_wq, &batch->release_work);
}

/* Traces the operations of a batch, as its paging job or its ioctl applies it. */
static void vaccel_bind_trace(const struct vaccel_bind_batch *b,
			      const struct vaccel_job *job)
{
	u32 i;

	if (!trace_vaccel_vm_bind_enabled())
		return;
	for (i = 0; i < b->count; i++)
		trace_vaccel_vm_bind(b->vm->vdev, b->vm->client_id,
				     &b->ops[i].args, job);
}

/* The paging engine's check between regions. */
struct vaccel_bind_engine {
	struct vaccel_engine *engine;
	struct vaccel_job *job;
};

static int vaccel_bind_engine_check(void *data)
{
	struct vaccel_bind_engine *e = data;

	cond_resched();
	return vaccel_engine_check(e->engine, e->job, true,
				   DRM_VACCEL_PREEMPT_PACKET);
}

/**
 * vaccel_vm_bind_run() - apply an asynchronous batch, on the PAGING engine
 * @engine: the paging engine
 * @job: the paging job, whose batch was committed by its ioctl
 *
 * Allocates nothing, and takes no lock but the VM's page-table lock and
 * the TLBs', which are never held while memory is allocated or a fence
 * awaited.
 *
 * Context: The PAGING engine's thread; sleeps.
 * Return: 0 once applied; -EAGAIN if preempted, the batch resuming where
 * it stopped; or the error vaccel_engine_check() stopped it with.
 */
int vaccel_vm_bind_run(struct vaccel_engine *engine, struct vaccel_job *job)
{
	struct vaccel_bind_engine e = { .engine = engine, .job = job };
	struct vaccel_bind_batch *b = job->bind;

	if (!b->next_op && !b->next_off)
		vaccel_bind_trace(b, job);
	return vaccel_bind_apply(b, vaccel_bind_engine_check, &e);
}

/* A synchronous bind yields between regions, and goes on. */
static int vaccel_bind_ioctl_check(void *unused)
{
	cond_resched();
	return 0;
}

/*
 * A synchronous bind applies after every asynchronous one before it.  The
 * wait is bounded: every fence signals in finite time.  Only a fatal
 * signal ends it early, and nothing has changed then.
 */
static int vaccel_vm_wait_async_binds(struct vaccel_vm *vm)
{
	struct dma_fence *fence = vm->last_bind;
	long ret;

	lockdep_assert_held(&vm->bind_lock);
	if (!fence)
		return 0;
	do {
		ret = dma_fence_wait(fence, true);
	} while (ret == -ERESTARTSYS && !fatal_signal_pending(current));
	return ret < 0 ? -EINTR : 0;
}

/* A context of @vm's file on the device's PAGING engine. */
static struct vaccel_context *vaccel_vm_paging_new(struct vaccel_vm *vm,
						   struct drm_file *file,
						   u32 priority, bool kernel)
{
	struct vaccel_device *vdev = vm->vdev;
	struct vaccel_engine *engine = NULL;
	struct vaccel_context *ctx;
	unsigned int i;

	for (i = 0; i < vdev->num_engines && !engine; i++)
		if (vdev->engines[i].desc.engine_class == DRM_VACCEL_ENGINE_CLASS_PAGING)
			engine = &vdev->engines[i];
	ctx = vaccel_context_create(vdev, file->driver_priv, engine, priority);
	if (!IS_ERR(ctx))
		ctx->kernel = kernel;
	return ctx;
}

/**
 * vaccel_vm_paging_context() - the context of a VM's binds on the PAGING engine
 * @vm: the VM, its bind lock held
 * @file: its file
 *
 * Created at the first asynchronous bind.  The time limit applies to its
 * buffers, which a close cancels.
 *
 * Context: Process context.
 * Return: the context, or an ERR_PTR.
 */
struct vaccel_context *vaccel_vm_paging_context(struct vaccel_vm *vm,
						struct drm_file *file)
{
	struct vaccel_context *ctx;

	lockdep_assert_held(&vm->bind_lock);
	if (vm->paging)
		return vm->paging;
	ctx = vaccel_vm_paging_new(vm, file, DRM_VACCEL_PRIORITY_NORMAL, false);
	if (!IS_ERR(ctx))
		vm->paging = ctx;
	return ctx;
}

/**
 * vaccel_vm_mover() - the kernel context that moves BOs for a VM's file
 * @vm: the VM, its bind lock held
 * @file: its file
 *
 * Created at the first move the file causes, by BO_MIGRATE, eviction or a
 * return to device memory.  A kernel context (see "Moving a BO"): nothing
 * the file does cancels or bans it, its moves have no time limit, and it
 * is detached rather than destroyed when the file closes, its moves
 * completing on their own.  Of high priority, since the work of every VM
 * that maps a BO waits for the BO's move.
 *
 * Context: Process context.
 * Return: the context, or an ERR_PTR.
 */
struct vaccel_context *vaccel_vm_mover(struct vaccel_vm *vm, struct drm_file *file)
{
	struct vaccel_context *ctx;

	lockdep_assert_held(&vm->bind_lock);
	if (vm->mover)
		return vm->mover;
	ctx = vaccel_vm_paging_new(vm, file, DRM_VACCEL_PRIORITY_HIGH, true);
	if (!IS_ERR(ctx))
		vm->mover = ctx;
	return ctx;
}

/* Check, prepare and commit, under the VM's lock. */
static int vaccel_bind_check_and_commit(struct vaccel_bind_batch *b)
{
	struct vaccel_vm *vm = b->vm;
	unsigned long tables;
	int ret;

	mutex_lock(&vm->lock);
	ret = vaccel_bind_check_free(b);
	if (!ret)
		ret = vaccel_bind_check_limits(b, &tables);
	if (!ret)
		ret = vaccel_bind_prepare(b, tables);
	if (!ret)
		vaccel_bind_commit(b);
	mutex_unlock(&vm->lock);
	return ret;
}

static int vaccel_vm_bind_async(struct vaccel_vm *vm, struct drm_file *file,
				struct vaccel_bind_batch *b,
				struct drm_vaccel_vm_bind *args)
{
	struct vaccel_context *paging;
	struct vaccel_submit sub;
	struct dma_fence *done;
	struct vaccel_job *job;
	int ret;

	lockdep_assert_held(&vm->bind_lock);
	paging = vaccel_vm_paging_context(vm, file);
	if (IS_ERR(paging))
		return PTR_ERR(paging);
	job = vaccel_job_alloc();
	if (!job)
		return -ENOMEM;
	/* The job's syncobjs first: nothing changes unless all is well. */
	ret = vaccel_submit_begin(&sub, paging, file, job, &args->waits,
				  &args->signals);
	if (ret)
		return ret;
	ret = vaccel_bind_check_and_commit(b);
	if (ret) {
		vaccel_submit_abort(&sub);
		return ret;
	}
	job->bind = b;
	vaccel_submit_commit(&sub, &done);
	dma_fence_put(vm->last_bind);
	vm->last_bind = done;
	return 0;
}

static int vaccel_vm_bind_sync(struct vaccel_vm *vm, struct vaccel_bind_batch *b)
{
	int ret;

	lockdep_assert_held(&vm->bind_lock);
	ret = vaccel_vm_wait_async_binds(vm);
	if (!ret)
		ret = vaccel_bind_check_and_commit(b);
	if (!ret) {
		vaccel_bind_trace(b, NULL);
		vaccel_bind_apply(b, vaccel_bind_ioctl_check, NULL);
	}
	vaccel_bind_release(b);
	return ret;
}

/**
 * vaccel_ioctl_vm_bind() - handler of %DRM_IOCTL_VACCEL_VM_BIND
 * @drm: the device
 * @data: &struct drm_vaccel_vm_bind
 * @file: the caller, whose VM is changed
 *
 * Context: Process context.
 * Return: 0 or a negative errno as documented at &struct drm_vaccel_vm_bind.
 */
int vaccel_ioctl_vm_bind(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct vaccel_device *vdev = to_vaccel_device(drm);
	struct vaccel_file *vfile = file->driver_priv;
	struct drm_vaccel_vm_bind *args = data;
	struct vaccel_vm *vm = vfile->vm;
	bool async = args->waits.count || args->signals.count;
	struct vaccel_bind_batch *b;
	int ret;

	if (VACCEL_IOCTL_DBG(vdev, args->flags) || VACCEL_IOCTL_DBG(vdev, args->pad))
		return -EINVAL;
	if (!async && !args->ops.count)
		return 0;
	b = vaccel_bind_new(vm, file, &args->ops);
	if (IS_ERR(b))
		return PTR_ERR(b);

	ret = mutex_lock_interruptible(&vm->bind_lock);
	if (ret) {
		vaccel_bind_release(b);
		return ret;
	}
	/* A bind stopped part-way left the page tables behind: no more. */
	if (VACCEL_IOCTL_DBG(vdev, vm->paging && READ_ONCE(vm->paging->cancelled))) {
		ret = -ECANCELED;
		vaccel_bind_release(b);
	} else if (async) {
		ret = vaccel_vm_bind_async(vm, file, b, args);
		if (ret)
			vaccel_bind_release(b);
	} else {
		ret = vaccel_vm_bind_sync(vm, b);
	}
	mutex_unlock(&vm->bind_lock);
	return ret;
}

/* --- life cycle ---------------------------------------------------------- */

static void vaccel_vm_free(struct drm_gpuvm *gpuvm)
{
	struct vaccel_vm *vm = container_of(gpuvm, struct vaccel_vm, base);
	struct vaccel_device *vdev = vm->vdev;

	mutex_destroy(&vm->pt_lock);
	mutex_destroy(&vm->bind_lock);
	mutex_destroy(&vm->lock);
	kfree(vm);
	drm_dev_put(&vdev->drm);
}

/* A BO's binding to the VM, charged to whoever maps it. */
static struct drm_gpuvm_bo *vaccel_vm_bo_alloc(void)
{
	return kzalloc(sizeof(struct drm_gpuvm_bo), GFP_KERNEL_ACCOUNT);
}

static void vaccel_vm_bo_free(struct drm_gpuvm_bo *vm_bo)
{
	kfree(vm_bo);
}

static const struct drm_gpuvm_ops vaccel_gpuvm_ops = {
	.vm_free = vaccel_vm_free,
	.vm_bo_alloc = vaccel_vm_bo_alloc,
	.vm_bo_free = vaccel_vm_bo_free,
	.sm_step_map = vaccel_vm_sm_step_map,
	.sm_step_remap = vaccel_vm_sm_step_remap,
	.sm_step_unmap = vaccel_vm_sm_step_unmap,
};

/**
 * vaccel_vm_create() - the address space of a new open file
 * @vdev: the device
 * @file: the file
 *
 * Context: Process context.
 * Return: the VM, or an ERR_PTR.
 */
struct vaccel_vm *vaccel_vm_create(struct vaccel_device *vdev,
				   struct drm_file *file)
{
	const struct vaccel_topology *topo = &vdev->topo;
	struct drm_gem_object *r_obj;
	struct vaccel_vm *vm;
	int ret;

	vm = kzalloc(sizeof(*vm), GFP_KERNEL_ACCOUNT);
	if (!vm)
		return ERR_PTR(-ENOMEM);
	vm->vdev = vdev;
	vm->client_id = file->client_id;
	mutex_init(&vm->lock);
	mutex_init(&vm->bind_lock);
	mutex_init(&vm->pt_lock);
	INIT_LIST_HEAD(&vm->link);
	INIT_LIST_HEAD(&vm->orphans);

	ret = vaccel_pt_init(&vm->pt, topo->va_start, topo->va_end, &vm->pt_lock);
	if (ret)
		goto err_free;

	r_obj = drm_gpuvm_resv_object_alloc(&vdev->drm);
	if (!r_obj) {
		ret = -ENOMEM;
		goto err_fini_pt;
	}
	drm_gpuvm_init(&vm->base, "vaccel", 0, &vdev->drm, r_obj,
		       topo->va_start, topo->va_end - topo->va_start, 0, 0,
		       &vaccel_gpuvm_ops);
	/* The VM holds its own reference. */
	drm_gem_object_put(r_obj);

	mutex_lock(&vdev->vms_lock);
	list_add_tail(&vm->link, &vdev->vms);
	mutex_unlock(&vdev->vms_lock);
	/* Dropped by vaccel_vm_free(): a VM can outlive its file. */
	drm_dev_get(&vdev->drm);
	return vm;

err_fini_pt:
	vaccel_pt_fini(&vm->pt);
err_free:
	mutex_destroy(&vm->pt_lock);
	mutex_destroy(&vm->bind_lock);
	mutex_destroy(&vm->lock);
	kfree(vm);
	return ERR_PTR(ret);
}

/**
 * vaccel_vm_destroy() - unmap everything and free an address space
 * @vm: the VM of a file being closed, whose contexts are destroyed
 *
 * Context: Process context.
 */
void vaccel_vm_destroy(struct vaccel_vm *vm)
{
	struct vaccel_device *vdev = vm->vdev;
	struct vaccel_bind_op op = {
		.args = {
			.op = DRM_VACCEL_VM_BIND_OP_UNMAP,
			.va = vm->pt.va_start,
			.size = vm->pt.va_end - vm->pt.va_start,
		},
	};
	struct vaccel_bind_batch b = {
		.vm = vm,
		.ops = &op,
		.count = 1,
		.released = LIST_HEAD_INIT(b.released),
		.inval_start = U64_MAX,
	};
	LIST_HEAD(orphans);

	mutex_lock(&vdev->vms_lock);
	list_del(&vm->link);
	mutex_unlock(&vdev->vms_lock);

	/*
	 * The moves the file queued complete without it, however long what
	 * they wait for takes: their BOs may be other files' too.
	 */
	if (vm->mover)
		vaccel_context_detach(vm->mover);
	vm->mover = NULL;
	/* Pending asynchronous binds are cancelled; their fences say so. */
	if (vm->paging)
		vaccel_context_destroy(vm->paging);
	vm->paging = NULL;
	dma_fence_put(vm->last_bind);
	vm->last_bind = NULL;

	/*
	 * Unmapping all never splits, so it allocates nothing that can
	 * fail; clearing the whole range clears too what a cancelled bind
	 * left behind.
	 */
	vaccel_pt_reserve_init(&b.reserve);
	mutex_lock(&vm->lock);
	vaccel_bind_commit(&b);
	mutex_unlock(&vm->lock);
	vaccel_bind_apply(&b, vaccel_bind_ioctl_check, NULL);
	vaccel_vmas_release(&b.released);

	vaccel_pt_fini(&vm->pt);
	mutex_lock(&vm->lock);
	vm->dead = true;
	list_splice_init(&vm->orphans, &orphans);
	mutex_unlock(&vm->lock);
	vaccel_vmas_release(&orphans);
	drm_gpuvm_put(&vm->base);
}

/**
 * vaccel_vm_bo_mappings() - how many times a BO is mapped in a VM
 * @vm: the VM
 * @bo: the BO, referenced by the caller
 *
 * Context: Process context.
 * Return: the number of mappings of @bo in @vm.
 */
u32 vaccel_vm_bo_mappings(struct vaccel_vm *vm, struct vaccel_bo *bo)
{
	struct drm_gpuvm_bo *vm_bo;
	struct drm_gpuva *va;
	u32 n = 0;

	mutex_lock(&vm->lock);
	mutex_lock(&bo->gpuva_lock);
	vm_bo = drm_gpuvm_bo_find(&vm->base, &bo->base.base);
	if (vm_bo) {
		drm_gpuvm_bo_for_each_va(va, vm_bo)
			n++;
		/* The mappings hold references: this is not the last. */
		drm_gpuvm_bo_put(vm_bo);
	}
	mutex_unlock(&bo->gpuva_lock);
	mutex_unlock(&vm->lock);
	return n;
}

/**
 * vaccel_vm_stats() - the statistics of %DRM_VACCEL_QUERY_VM_STATS
 * @vm: the VM
 * @stats: filled
 *
 * Context: Process context.
 */
void vaccel_vm_stats(struct vaccel_vm *vm, struct drm_vaccel_vm_stats *stats)
{
	mutex_lock(&vm->lock);
	stats->mappings = vm->mappings;
	stats->mapped_bytes = vm->mapped_bytes;
	mutex_unlock(&vm->lock);
	stats->pt_pages = atomic_long_read(&vm->pt.pages);
	stats->pt_bytes = stats->pt_pages * PAGE_SIZE;
}
