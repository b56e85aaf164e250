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
 * applied all or nothing, in four stages under the VM lock:
 *
 * 1. Check.  Every operation is validated on its own (alignment, ranges,
 *    flags, handles), then the batch is simulated on a small interval set
 *    seeded with the existing mappings the maps would touch, so that a map
 *    over a mapped page, mapped before or by an earlier operation of the
 *    same batch, is refused with ``-EEXIST`` before anything changes.
 * 2. Prepare.  Everything that can fail happens here: pinning the BOs'
 *    pages, the drm_gpuvm_bo bindings, the VMA structures (one per map, two
 *    per unmap for the pieces a split leaves) and the page tables of every
 *    mapped range.  A failure gives it all back and leaves the VM as it was.
 * 3. Apply.  drm_gpuvm_sm_map() and drm_gpuvm_sm_unmap() walk the batch and
 *    call back into vaccel_vm_sm_step_map(), _remap() and _unmap(), which
 *    write page-table entries and move VMAs using only what was prepared:
 *    this stage cannot fail.  Unmapped VMAs leave the tree but keep their
 *    pages pinned.
 * 4. Release.  Empty tables are pruned, every TLB attached to the VM is
 *    invalidated (which waits for engine accesses in flight), and only then
 *    are the unmapped VMAs' pages unpinned and their BOs released.
 *
 * A mapping holds a pin on its BO's pages and, through its drm_gpuvm_bo, a
 * reference on the BO, so closing the handle does not take the pages from
 * under the device.  When a mapping is split, each piece holds its own pin.
 * Closing the file unmaps everything with the same machinery.
 *
 * A VM_BIND with syncobjs is asynchronous: after the per-operation checks,
 * the batch becomes the work of a job on the VM's paging context, a kernel
 * context on the PAGING engine, which waits for the in-syncobjs through
 * drm_sched like any job.  When the paging engine runs the job, it applies
 * the batch with the four stages above; the batch is, in MCDM's words, the
 * DMA buffer of page-table updates.  Asynchronous binds of a VM apply in
 * submission order, and a synchronous bind first waits for the last
 * asynchronous one, so that every bind of a VM applies in the order the
 * ioctls were made.
 */

#include <linux/overflow.h>
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
#include "vaccel_vm.h"

#define VACCEL_VM_BIND_MAP_FLAGS \
	(DRM_VACCEL_VM_BIND_READ_ONLY | DRM_VACCEL_VM_BIND_NO_EXEC)

/**
 * struct vaccel_vma - one mapping
 * @base: the drm_gpuva: range, BO and offset
 * @flags: DRM_VACCEL_VM_BIND_* flags of the mapping
 * @release_link: on &vaccel_bind.released once out of the tree
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
 * struct vaccel_bind_op - one operation of a batch and what it prepared
 * @args: the operation, copied from user space
 * @bo: for a map, a reference on the BO
 * @vm_bo: for a map, a reference on the BO's binding to the VM
 * @vmas: VMAs prepared for the operation, taken as it is applied
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
 * struct vaccel_bind - a batch of operations in flight
 * @vm: the VM
 * @ops: the operations
 * @count: number of @ops
 * @cur: the operation being applied
 * @released: VMAs taken out of the tree, released after invalidation
 * @inval_start: start of the VA range to invalidate
 * @inval_end: end of the VA range to invalidate; empty if <= @inval_start
 */
struct vaccel_bind {
	struct vaccel_vm *vm;
	struct vaccel_bind_op *ops;
	u32 count;
	struct vaccel_bind_op *cur;
	struct list_head released;
	u64 inval_start;
	u64 inval_end;
};

/**
 * struct vaccel_bind_batch - the operations of an asynchronous VM_BIND
 * @vm: the VM, referenced
 * @ops: the checked operations, their BOs referenced
 * @count: number of @ops
 * @applied: vaccel_vm_bind_run() consumed @ops and their references
 */
struct vaccel_bind_batch {
	struct vaccel_vm *vm;
	struct vaccel_bind_op *ops;
	u32 count;
	bool applied;
};

/* --- simulation of a batch ------------------------------------------------ */

struct vaccel_range {
	u64 start;
	u64 end;
};

/**
 * struct vaccel_rangeset - mapped intervals, for the simulation of a batch
 * @r: the intervals, possibly overlapping
 * @n: number of intervals
 * @cap: capacity of @r
 */
struct vaccel_rangeset {
	struct vaccel_range *r;
	u32 n;
	u32 cap;
};

static int vaccel_rangeset_add(struct vaccel_rangeset *rs, u64 start, u64 end)
{
	if (rs->n == rs->cap) {
		u32 cap = rs->cap ? 2 * rs->cap : 16;
		struct vaccel_range *r;

		r = kvrealloc(rs->r, array_size(cap, sizeof(*r)), GFP_KERNEL);
		if (!r)
			return -ENOMEM;
		rs->r = r;
		rs->cap = cap;
	}
	rs->r[rs->n++] = (struct vaccel_range){ start, end };
	return 0;
}

static bool vaccel_rangeset_intersects(const struct vaccel_rangeset *rs,
				       u64 start, u64 end)
{
	u32 i;

	for (i = 0; i < rs->n; i++)
		if (rs->r[i].start < end && start < rs->r[i].end)
			return true;
	return false;
}

/* Removes [start, end) from every interval, splitting those it cuts. */
static int vaccel_rangeset_remove(struct vaccel_rangeset *rs, u64 start,
				  u64 end)
{
	u32 i, n = rs->n;

	for (i = 0; i < n; i++) {
		struct vaccel_range *r = &rs->r[i];
		u64 rend = r->end;

		if (r->end <= start || end <= r->start)
			continue;
		if (r->start < start) {
			r->end = start;
			if (rend > end &&
			    vaccel_rangeset_add(rs, end, rend))
				return -ENOMEM;
		} else if (rend > end) {
			r->start = end;
		} else {
			r->start = 0;
			r->end = 0;
		}
	}
	return 0;
}

/*
 * Plays the batch on the mappings the maps would touch: a map must find
 * its range free once the earlier operations are applied.
 */
static int vaccel_bind_simulate(struct vaccel_bind *b)
{
	struct vaccel_rangeset rs = {};
	struct drm_gpuva *va;
	int ret = 0;
	u32 i;

	for (i = 0; i < b->count && !ret; i++) {
		const struct drm_vaccel_vm_bind_op *a = &b->ops[i].args;

		if (a->op != DRM_VACCEL_VM_BIND_OP_MAP)
			continue;
		drm_gpuvm_for_each_va_range(va, &b->vm->base, a->va, a->va + a->size) {
			ret = vaccel_rangeset_add(&rs, va->va.addr,
						  va->va.addr + va->va.range);
			if (ret)
				break;
		}
	}

	for (i = 0; i < b->count && !ret; i++) {
		const struct drm_vaccel_vm_bind_op *a = &b->ops[i].args;
		u64 end = a->va + a->size;

		if (a->op == DRM_VACCEL_VM_BIND_OP_UNMAP)
			ret = vaccel_rangeset_remove(&rs, a->va, end);
		else if (vaccel_rangeset_intersects(&rs, a->va, end))
			ret = -EEXIST;
		else
			ret = vaccel_rangeset_add(&rs, a->va, end);
	}
	kvfree(rs.r);
	return ret;
}

/* --- the drm_gpuvm steps ---------------------------------------------------- */

static u64 vaccel_vma_pte_flags(const struct vaccel_vma *vma)
{
	u64 flags = 0;

	if (!(vma->flags & DRM_VACCEL_VM_BIND_READ_ONLY))
		flags |= DRM_VACCEL_PTE_WRITE;
	if (!(vma->flags & DRM_VACCEL_VM_BIND_NO_EXEC))
		flags |= DRM_VACCEL_PTE_EXEC;
	return flags;
}

static struct vaccel_vma *vaccel_bind_take_vma(struct vaccel_bind *b)
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

static void vaccel_bind_unmapped(struct vaccel_bind *b, struct vaccel_vma *vma,
				 u64 start, u64 range)
{
	vaccel_pt_unmap(&b->vm->pt, start, range);
	b->inval_start = min(b->inval_start, start);
	b->inval_end = max(b->inval_end, start + range);
	b->vm->mapped_bytes -= range;
	list_add_tail(&vma->release_link, &b->released);
}

static int vaccel_vm_sm_step_map(struct drm_gpuva_op *op, void *priv)
{
	struct vaccel_bind *b = priv;
	struct vaccel_vm *vm = b->vm;
	struct vaccel_vma *vma = vaccel_bind_take_vma(b);
	struct page **pages;

	if (drm_WARN_ON(vm->base.drm, !vma))
		return -EINVAL;
	vma->flags = b->cur->args.flags;
	pages = vaccel_bo_pages(b->cur->bo) + (op->map.gem.offset >> PAGE_SHIFT);
	vaccel_pt_map(&vm->pt, op->map.va.addr, op->map.va.range, pages,
		      vaccel_vma_pte_flags(vma));
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
	struct vaccel_bind *b = priv;
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
	vaccel_bind_unmapped(b, old, start, range);
	return 0;
}

static int vaccel_vm_sm_step_unmap(struct drm_gpuva_op *op, void *priv)
{
	struct vaccel_bind *b = priv;
	struct vaccel_vma *vma = to_vaccel_vma(op->unmap.va);

	drm_gpuva_unmap(&op->unmap);
	b->vm->mappings--;
	vaccel_bind_unmapped(b, vma, vma->base.va.addr, vma->base.va.range);
	return 0;
}

/* --- the stages ---------------------------------------------------------- */

static int vaccel_bind_check_op(struct vaccel_vm *vm, struct drm_file *file,
				struct vaccel_bind_op *op)
{
	const struct drm_vaccel_vm_bind_op *a = &op->args;
	struct drm_gem_object *obj;

	if (a->pad || !a->size || !PAGE_ALIGNED(a->va) ||
	    !PAGE_ALIGNED(a->size) || !PAGE_ALIGNED(a->bo_offset))
		return -EINVAL;
	if (a->va < vm->pt.va_start || a->va >= vm->pt.va_end ||
	    a->size > vm->pt.va_end - a->va)
		return -EINVAL;

	switch (a->op) {
	case DRM_VACCEL_VM_BIND_OP_MAP:
		if (a->flags & ~VACCEL_VM_BIND_MAP_FLAGS)
			return -EINVAL;
		obj = drm_gem_object_lookup(file, a->handle);
		if (!obj)
			return -ENOENT;
		op->bo = to_vaccel_bo(obj);
		if (a->bo_offset > obj->size || a->size > obj->size - a->bo_offset)
			return -EINVAL;
		return 0;
	case DRM_VACCEL_VM_BIND_OP_UNMAP:
		if (a->flags || a->handle || a->bo_offset)
			return -EINVAL;
		return 0;
	default:
		return -EINVAL;
	}
}

static int vaccel_bind_prepare(struct vaccel_bind *b)
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
			op->vmas[j] = kzalloc(sizeof(*op->vmas[j]), GFP_KERNEL);
			if (!op->vmas[j])
				return -ENOMEM;
		}
		if (a->op != DRM_VACCEL_VM_BIND_OP_MAP)
			continue;

		ret = vaccel_bo_pin(op->bo);
		if (ret)
			return ret;
		op->pinned = true;

		op->vm_bo = drm_gpuvm_bo_create(&vm->base, &op->bo->base.base);
		if (!op->vm_bo)
			return -ENOMEM;
		mutex_lock(&op->bo->gpuva_lock);
		op->vm_bo = drm_gpuvm_bo_obtain_prealloc(op->vm_bo);
		mutex_unlock(&op->bo->gpuva_lock);

		ret = vaccel_pt_prepare(&vm->pt, a->va, a->size);
		if (ret)
			return ret;
	}
	return 0;
}

static void vaccel_bind_apply(struct vaccel_bind *b)
{
	struct vaccel_vm *vm = b->vm;
	u32 i;
	int ret;

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
	}
	b->cur = NULL;
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

/*
 * Prunes what the batch emptied or prepared in vain, invalidates the TLBs,
 * then releases tables, unmapped VMAs and what the operations still hold.
 */
static void vaccel_bind_release(struct vaccel_bind *b)
{
	struct vaccel_vm *vm = b->vm;
	struct vaccel_vma *vma, *tmp;
	u32 i;
	int j;

	for (i = 0; i < b->count; i++)
		vaccel_pt_prune(&vm->pt, b->ops[i].args.va, b->ops[i].args.size);
	if (b->inval_start < b->inval_end)
		vaccel_pt_invalidate(&vm->pt, b->inval_start,
				     b->inval_end - b->inval_start);
	if (!list_empty(&vm->pt.zombies))
		vaccel_pt_invalidate(&vm->pt, vm->pt.va_start,
				     vm->pt.va_end - vm->pt.va_start);
	vaccel_pt_release_zombies(&vm->pt);

	list_for_each_entry_safe(vma, tmp, &b->released, release_link)
		vaccel_vma_release(vma);

	for (i = 0; i < b->count; i++) {
		struct vaccel_bind_op *op = &b->ops[i];

		for (j = 0; j < ARRAY_SIZE(op->vmas); j++)
			kfree(op->vmas[j]);
		if (op->pinned)
			vaccel_bo_unpin(op->bo);
		if (op->vm_bo)
			vaccel_vm_bo_put(op->vm_bo);
		if (op->bo)
			drm_gem_object_put(&op->bo->base.base);
	}
}

static int vaccel_vm_bind_locked(struct vaccel_vm *vm, struct vaccel_bind_op *ops,
				 u32 count)
{
	struct vaccel_bind b = {
		.vm = vm,
		.ops = ops,
		.count = count,
		.released = LIST_HEAD_INIT(b.released),
		.inval_start = U64_MAX,
	};
	int ret;

	lockdep_assert_held(&vm->lock);

	ret = vaccel_bind_simulate(&b);
	if (!ret)
		ret = vaccel_bind_prepare(&b);
	if (!ret)
		vaccel_bind_apply(&b);
	vaccel_bind_release(&b);
	return ret;
}

static int vaccel_bind_copy_ops(const struct drm_vaccel_obj_array *arr,
				struct vaccel_bind_op **out)
{
	struct vaccel_bind_op *ops;
	u32 i;
	int ret;

	*out = NULL;
	if (arr->count > VACCEL_MAX_BIND_OPS)
		return -E2BIG;
	if (arr->stride < sizeof(ops->args) || arr->stride > PAGE_SIZE)
		return -EINVAL;

	ops = kvcalloc(arr->count, sizeof(*ops), GFP_KERNEL);
	if (!ops)
		return -ENOMEM;
	for (i = 0; i < arr->count; i++) {
		u64 src = arr->array + (u64)i * arr->stride;

		ret = copy_struct_from_user(&ops[i].args, sizeof(ops[i].args),
					    u64_to_user_ptr(src), arr->stride);
		if (ret) {
			kvfree(ops);
			/* Non-zero bytes this kernel does not know. */
			return ret == -E2BIG ? -EINVAL : ret;
		}
	}
	*out = ops;
	return 0;
}

static void vaccel_bind_ops_put(struct vaccel_bind_op *ops, u32 count)
{
	u32 i;

	for (i = 0; i < count; i++)
		if (ops[i].bo)
			drm_gem_object_put(&ops[i].bo->base.base);
}

/* A synchronous bind applies after every asynchronous one before it. */
static int vaccel_vm_wait_async_binds(struct vaccel_vm *vm)
{
	struct dma_fence *fence;
	long ret;

	mutex_lock(&vm->bind_lock);
	fence = dma_fence_get(vm->last_bind);
	mutex_unlock(&vm->bind_lock);
	if (!fence)
		return 0;
	ret = dma_fence_wait(fence, true);
	dma_fence_put(fence);
	return ret < 0 ? ret : 0;
}

/**
 * vaccel_vm_bind_run() - apply an asynchronous batch, on the PAGING engine
 * @batch: the batch of a paging job
 *
 * Context: The PAGING engine's thread; sleeps.
 * Return: 0, or the error of the batch, which left the VM as it was.
 */
int vaccel_vm_bind_run(struct vaccel_bind_batch *batch)
{
	struct vaccel_vm *vm = batch->vm;
	int ret;

	mutex_lock(&vm->lock);
	ret = vaccel_vm_bind_locked(vm, batch->ops, batch->count);
	mutex_unlock(&vm->lock);
	/* Applied or not, the batch's references are released. */
	batch->applied = true;
	return ret;
}

/**
 * vaccel_vm_bind_batch_free() - free the batch of a paging job
 * @batch: the batch, applied or not
 *
 * Context: Process context.
 */
void vaccel_vm_bind_batch_free(struct vaccel_bind_batch *batch)
{
	if (!batch->applied)
		vaccel_bind_ops_put(batch->ops, batch->count);
	kvfree(batch->ops);
	drm_gpuvm_put(&batch->vm->base);
	kfree(batch);
}

/* The paging context of @vm, created at its first asynchronous bind. */
static struct vaccel_context *vaccel_vm_paging_context(struct vaccel_vm *vm,
						       struct drm_file *file)
{
	struct vaccel_device *vdev = vm->vdev;
	struct vaccel_engine *engine = NULL;
	unsigned int i;

	lockdep_assert_held(&vm->bind_lock);
	if (vm->paging)
		return vm->paging;
	for (i = 0; i < vdev->num_engines && !engine; i++)
		if (vdev->engines[i].desc.engine_class == DRM_VACCEL_ENGINE_CLASS_PAGING)
			engine = &vdev->engines[i];
	vm->paging = vaccel_context_create(vdev, file->driver_priv, engine,
					   DRM_VACCEL_PRIORITY_NORMAL);
	if (IS_ERR(vm->paging)) {
		struct vaccel_context *err = vm->paging;

		vm->paging = NULL;
		return err;
	}
	return vm->paging;
}

static int vaccel_vm_bind_async(struct vaccel_vm *vm, struct drm_file *file,
				struct drm_vaccel_vm_bind *args)
{
	struct vaccel_bind_batch *batch;
	struct vaccel_context *paging;
	struct dma_fence *done;
	struct vaccel_job *job;
	u32 i;
	int ret;

	batch = kzalloc(sizeof(*batch), GFP_KERNEL);
	if (!batch)
		return -ENOMEM;
	batch->vm = vm;
	drm_gpuvm_get(&vm->base);
	batch->count = args->ops.count;
	ret = vaccel_bind_copy_ops(&args->ops, &batch->ops);
	if (ret) {
		batch->applied = true;
		vaccel_vm_bind_batch_free(batch);
		return ret;
	}
	for (i = 0; i < batch->count && !ret; i++)
		ret = vaccel_bind_check_op(vm, file, &batch->ops[i]);
	if (ret) {
		vaccel_vm_bind_batch_free(batch);
		return ret;
	}

	job = vaccel_job_alloc();
	if (!job) {
		vaccel_vm_bind_batch_free(batch);
		return -ENOMEM;
	}
	job->bind = batch;

	mutex_lock(&vm->bind_lock);
	paging = vaccel_vm_paging_context(vm, file);
	if (IS_ERR(paging)) {
		mutex_unlock(&vm->bind_lock);
		vaccel_job_free(job);
		return PTR_ERR(paging);
	}
	ret = vaccel_context_submit(paging, file, job, &args->waits,
				    &args->signals, &done);
	if (!ret) {
		dma_fence_put(vm->last_bind);
		vm->last_bind = done;
	}
	mutex_unlock(&vm->bind_lock);
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
	struct vaccel_file *vfile = file->driver_priv;
	struct drm_vaccel_vm_bind *args = data;
	struct vaccel_vm *vm = vfile->vm;
	struct vaccel_bind_op *ops;
	u32 i;
	int ret;

	if (args->flags || args->pad)
		return -EINVAL;
	if (args->waits.count || args->signals.count)
		return vaccel_vm_bind_async(vm, file, args);
	if (!args->ops.count)
		return 0;

	ret = vaccel_bind_copy_ops(&args->ops, &ops);
	if (ret)
		return ret;

	for (i = 0; i < args->ops.count && !ret; i++)
		ret = vaccel_bind_check_op(vm, file, &ops[i]);
	if (!ret)
		ret = vaccel_vm_wait_async_binds(vm);

	if (!ret) {
		mutex_lock(&vm->lock);
		ret = vaccel_vm_bind_locked(vm, ops, args->ops.count);
		mutex_unlock(&vm->lock);
	} else {
		vaccel_bind_ops_put(ops, args->ops.count);
	}
	kvfree(ops);
	return ret;
}

/* --- life cycle ---------------------------------------------------------- */

static void vaccel_vm_free(struct drm_gpuvm *gpuvm)
{
	struct vaccel_vm *vm = container_of(gpuvm, struct vaccel_vm, base);
	struct vaccel_device *vdev = vm->vdev;

	mutex_destroy(&vm->bind_lock);
	mutex_destroy(&vm->lock);
	kfree(vm);
	drm_dev_put(&vdev->drm);
}

static const struct drm_gpuvm_ops vaccel_gpuvm_ops = {
	.vm_free = vaccel_vm_free,
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

	vm = kzalloc(sizeof(*vm), GFP_KERNEL);
	if (!vm)
		return ERR_PTR(-ENOMEM);
	vm->vdev = vdev;
	vm->client_id = file->client_id;
	mutex_init(&vm->lock);
	mutex_init(&vm->bind_lock);
	INIT_LIST_HEAD(&vm->link);

	ret = vaccel_pt_init(&vm->pt, topo->va_start, topo->va_end);
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
	mutex_destroy(&vm->bind_lock);
	mutex_destroy(&vm->lock);
	kfree(vm);
	return ERR_PTR(ret);
}

/**
 * vaccel_vm_destroy() - unmap everything and free an address space
 * @vm: the VM of a file being closed
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

	mutex_lock(&vdev->vms_lock);
	list_del(&vm->link);
	mutex_unlock(&vdev->vms_lock);

	/* Pending asynchronous binds are cancelled; their fences say so. */
	if (vm->paging)
		vaccel_context_destroy(vm->paging);
	vm->paging = NULL;
	dma_fence_put(vm->last_bind);
	vm->last_bind = NULL;

	mutex_lock(&vm->lock);
	/* Unmapping all never splits, so it allocates nothing that can fail. */
	drm_WARN_ON(&vdev->drm, vaccel_vm_bind_locked(vm, &op, 1));
	mutex_unlock(&vm->lock);

	vaccel_pt_fini(&vm->pt);
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
	stats->pt_pages = vm->pt.pages;
	stats->pt_bytes = vm->pt.pages * PAGE_SIZE;
	mutex_unlock(&vm->lock);
}
