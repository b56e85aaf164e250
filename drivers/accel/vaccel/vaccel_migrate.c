// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Moving a BO
 *
 * A BO is in system memory (its shmem pages) or in a device's segment (a
 * range of it, see "Device memory").  It moves as the GpuMmu model
 * prescribes: a job on the PAGING engine, the paging DMA buffer, copies the
 * data and rewrites every page-table entry that maps the BO, in every VM of
 * every device, then invalidates those TLBs.  A move is queued by
 * %DRM_IOCTL_VACCEL_BO_MIGRATE, by the eviction of a full segment, and by
 * the return of an evicted BO when a buffer of a VM that maps it is
 * submitted.
 *
 * **Nobody cancels a move.**  Moves run on a kernel context of the file
 * that caused them, its *mover* (vaccel_vm_mover()), as TTM, xe and amdgpu
 * move on kernel entities: not on the context of the file's binds, which
 * the time limit can ban.  Nothing a user does stops a queued move: no
 * fault, no time limit (its buffers have none), no ban, not the close of
 * its file, which detaches the mover (vaccel_context_detach()) and lets its
 * moves complete on their own.  A move's fence signals once the data is in
 * place and the page tables point at it, never before and never with an
 * error.  The one exception is not a user's: should a move's device go
 * before its engine ran it, the worker that releases it copies and switches
 * (the fence having signalled), and zaps the CPU's mappings once more
 * after its switch.
 *
 * **What a move waits for.**  Every buffer submitted on a user context adds
 * its finished fence to the reservation object of its VM (usage BOOKKEEP)
 * and waits for the fences of usage KERNEL there.  A move waits for every
 * fence of the BO and of each VM that maps it, so it runs after the work
 * submitted before it; it adds its own fence to all of them as KERNEL, so
 * the work submitted after it waits.  A bind that maps a BO with a move
 * pending adds the move's fence to its VM the same way.  Those waits are
 * bounded: each buffer has its time limit, each file its limit of jobs, and
 * each dependency is a fence that signals in finite time.  The syncobjs
 * BO_MIGRATE waits for gate only its out-syncobjs (a fence array of the
 * move and the waits), never the move: every sharer's work waits for the
 * move, and must not wait for one process's fences.  A close waits for no
 * move at all.
 *
 * **The CPU.**  CPU mappings are zapped as the move is queued.  A fault
 * meanwhile waits for the move's fence, with the mmap lock dropped where
 * the fault allows it (%VM_FAULT_RETRY, as TTM), then maps the new place;
 * its page comes from the file offset, so a mapping cut by a partial
 * munmap still maps the right pages.
 *
 * **The switch.**  The ioctl decides where the BO goes (&vaccel_bo.region)
 * and allocates the destination; the page tables follow &vaccel_bo.gpu_vram,
 * which only the job changes, once the data is copied.  Writers of page
 * tables (binds) read it under their VM's page-table lock; the job, after
 * the switch, takes each such lock in turn and rewrites the entries that
 * still hold the old frames (vaccel_pt_remap()), so a bind that raced with
 * it is rewritten, and one that came after wrote the new frames.  The old
 * memory goes once every TLB that could hold it was invalidated.  A BO that
 * never held data has no mapping and no pages: a move of it into device
 * memory switches at once, in the ioctl, to its zeroed range, so that a
 * bind before the job runs finds it there rather than nowhere.
 *
 * **Pins.**  A GPU mapping pins its BO (vaccel_bo_pin()); in system memory
 * that pins the shmem pages, in device memory the segment holds the pages
 * anyway.  A move converts the pins: the shmem pages of a BO that left
 * system memory are unpinned, and shmem frees them %VACCEL_SHMEM_LINGER_MS
 * later unless the BO came back meanwhile: a round trip (a prefetch to the
 * device and back for the CPU, an eviction undone) then finds its pages,
 * where allocating and clearing them again costs ten times the copy under
 * emulation.  dma-buf attachments of other drivers pin a BO in system
 * memory: it cannot move while they hold it (``-EBUSY``).  The system
 * side's pages are faulted in before a move takes its locks, one page at a
 * time and stoppably (vaccel_bo_populate()): pinning up to 4 GiB under the
 * reservation locks would hold a killed process, and everyone waiting on
 * those locks, for as long as it takes.
 *
 * **Eviction.**  When a segment lacks room for a BO, the least recently
 * used BOs of the segment move to system memory until it has room: a BO is
 * used when it is mapped, moved in, or when a buffer of a VM that maps it
 * is submitted.  A BO placed in device memory and evicted is marked on
 * every VM that maps it (drm_gpuvm's evict list), and comes back before
 * the next buffer of such a VM runs; a BO that only prefers device memory
 * comes back if it fits without evicting others.  A BO that cannot be made
 * resident fails the creation, the move or the submission with
 * ``-ENOSPC``.  The evictions run on the mover of the file that needs the
 * room, and the waits for them are killable.
 *
 * **Who may move where.**  A file moves a BO to system memory, to its own
 * device's segment, or to the segment of the device the BO belongs to;
 * another device's segment is ``-EACCES``: only that device's users may
 * fill it and evict from it.
 */

#include <linux/dma-resv.h>
#include <linux/highmem.h>
#include <linux/sched/signal.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_exec.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gpuvm.h>
#include <drm/drm_print.h>
#include <drm/drm_vma_manager.h>
#include <drm/vaccel_accel.h>

#include "vaccel_context.h"
#include "vaccel_devmem.h"
#include "vaccel_drv.h"
#include "vaccel_engine.h"
#include "vaccel_file.h"
#include "vaccel_gem.h"
#include "vaccel_migrate.h"
#include "vaccel_mmu.h"
#include "vaccel_trace.h"
#include "vaccel_vm.h"

/* Pages copied between two checks of the paging engine. */
#define VACCEL_MOVE_CHUNK	64

/* A move lost a race for the destination's room: make room and retry. */
#define VACCEL_MOVE_RETRIES	8

/* Orders uses of BOs for the LRU: bumped at every use. */
static atomic64_t vaccel_use_clock = ATOMIC64_INIT(0);

/**
 * struct vaccel_move - one move of a BO, from the ioctl to its release
 * @bo: the BO, referenced
 * @src: the segment memory moved from, or NULL for system memory
 * @dst: the segment memory moved to, or NULL for system memory
 * @sys_pages: the shmem pages of the system side, pinned by the move
 * @npages: pages to copy; 0 if the move has nothing to do
 * @next: the next page to copy
 * @copy: the data must be copied; a BO that never held data needs not
 * @switched: the page tables point at the destination
 * @unpin_sys: shmem pins that go once the move is done
 * @release_work: releases the source once the job is done
 * @vdev: the device whose PAGING engine moves it, referenced: its hold
 *	point of teardown applies to the release
 * @kcov_handle: the KCOV handle of the job, for the release's coverage
 */
struct vaccel_move {
	struct vaccel_bo *bo;
	struct vaccel_devmem_range *src;
	struct vaccel_devmem_range *dst;
	struct page **sys_pages;
	unsigned long npages;
	unsigned long next;
	bool copy;
	bool switched;
	u32 unpin_sys;
	struct work_struct release_work;
	struct vaccel_device *vdev;
	u64 kcov_handle;
};

/**
 * vaccel_bo_touch() - the BO was used: last in its segment's LRU
 * @bo: the BO, its reservation lock held
 *
 * Context: Process context.
 */
void vaccel_bo_touch(struct vaccel_bo *bo)
{
	struct vaccel_devmem_range *vram = bo->vram;

	dma_resv_assert_held(bo->base.base.resv);
	WRITE_ONCE(bo->last_use, atomic64_inc_return(&vaccel_use_clock));
	if (!vram)
		return;
	mutex_lock(&vram->mem->lock);
	list_move_tail(&bo->lru_link, &vram->mem->lru);
	mutex_unlock(&vram->mem->lock);
}

static void vaccel_bo_lru_del(struct vaccel_bo *bo, struct vaccel_devmem *mem)
{
	mutex_lock(&mem->lock);
	list_del_init(&bo->lru_link);
	mutex_unlock(&mem->lock);
}

/* Marks the BO evicted, or not, on every VM that maps it. */
static void vaccel_bo_mark_evicted(struct vaccel_bo *bo, bool evicted)
{
	struct drm_gem_object *obj = &bo->base.base;
	struct drm_gpuvm_bo *vm_bo;

	dma_resv_assert_held(obj->resv);
	mutex_lock(&bo->gpuva_lock);
	drm_gem_for_each_gpuvm_bo(vm_bo, obj)
		if (vm_bo->evicted != evicted)
			drm_gpuvm_bo_evict(vm_bo, evicted);
	mutex_unlock(&bo->gpuva_lock);
}

/**
 * vaccel_bo_shmem_release() - the shmem pages of a BO out of system memory go
 * @work: &vaccel_bo.shmem_release
 *
 * Runs %VACCEL_SHMEM_LINGER_MS after a move out of system memory, unless
 * the BO came back meanwhile.  The BO's free cancels it first, maybe with
 * another BO's reservation lock held: so it only tries the lock, and tries
 * again a little later if it is taken.
 *
 * Context: Process context, a workqueue.
 */
void vaccel_bo_shmem_release(struct work_struct *work)
{
	struct vaccel_bo *bo = container_of(to_delayed_work(work), struct vaccel_bo,
					    shmem_release);
	struct drm_gem_object *obj = &bo->base.base;

	if (!dma_resv_trylock(obj->resv)) {
		mod_delayed_work(system_unbound_wq, &bo->shmem_release,
				 msecs_to_jiffies(10));
		return;
	}
	if (bo->region != DRM_VACCEL_REGION_SYSTEM && !bo->base.pages)
		shmem_truncate_range(file_inode(obj->filp), 0, (loff_t)-1);
	dma_resv_unlock(obj->resv);
}

/**
 * vaccel_bo_release_memory() - give back what a BO being freed holds
 * @bo: the BO, without mappings, moves or handles
 *
 * Context: Process context.
 */
void vaccel_bo_release_memory(struct vaccel_bo *bo)
{
	struct dma_resv *resv = bo->base.base.resv;

	/* The shmem pages go with the BO's file anyway. */
	cancel_delayed_work_sync(&bo->shmem_release);
	dma_resv_lock(resv, NULL);
	if (bo->vram) {
		vaccel_bo_lru_del(bo, bo->vram->mem);
		vaccel_devmem_free(bo->vram);
		kfree(bo->vram);
		bo->vram = NULL;
		bo->gpu_vram = NULL;
	}
	if (bo->cpu_pinned)
		drm_gem_shmem_unpin_locked(&bo->base);
	bo->cpu_pinned = false;
	dma_fence_put(bo->moving);
	bo->moving = NULL;
	dma_resv_unlock(resv);
}

/* --- the job -------------------------------------------------------------- */

static void *vaccel_move_page(const struct vaccel_devmem_range *r,
			      struct page **sys, unsigned long i)
{
	return page_address(r ? vaccel_devmem_page(r->addrs[i]) : sys[i]);
}

static void vaccel_move_frames(const struct vaccel_devmem_range *r,
			       struct page **sys, unsigned long first,
			       struct vaccel_pt_frames *f)
{
	f->pages = r ? NULL : sys + first;
	f->addrs = r ? r->addrs + first : NULL;
}

/*
 * Points the page tables at the destination: @bo->gpu_vram for the writers
 * to come, then every entry already written, in every VM, and invalidates
 * their TLBs, which waits for the accesses in flight.
 */
static void vaccel_move_switch(struct vaccel_move *m)
{
	struct vaccel_bo *bo = m->bo;
	struct drm_gem_object *obj = &bo->base.base;
	struct drm_gpuvm_bo *vm_bo;
	struct drm_gpuva *va;

	WRITE_ONCE(bo->gpu_vram, m->dst);
	m->switched = true;
	/* A BO that never held data has no mapping to rewrite. */
	if (!m->src && !m->sys_pages)
		return;
	mutex_lock(&bo->gpuva_lock);
	drm_gem_for_each_gpuvm_bo(vm_bo, obj) {
		struct vaccel_vm *vm = container_of(vm_bo->vm, struct vaccel_vm, base);

		drm_gpuvm_bo_for_each_va(va, vm_bo) {
			unsigned long first = va->gem.offset >> PAGE_SHIFT, n;
			struct vaccel_pt_frames from, to;
			unsigned int tlbs;

			vaccel_move_frames(m->src, m->sys_pages, first, &from);
			vaccel_move_frames(m->dst, m->sys_pages, first, &to);
			mutex_lock(&vm->pt_lock);
			n = vaccel_pt_remap(&vm->pt, va->va.addr, va->va.range,
					    &from, &to);
			mutex_unlock(&vm->pt_lock);
			if (!n)
				continue;
			tlbs = vaccel_pt_invalidate(&vm->pt, va->va.addr, va->va.range);
			trace_vaccel_tlb_invalidate(vm->vdev, vm->client_id, va->va.addr,
						    va->va.range, tlbs);
		}
		cond_resched();
	}
	mutex_unlock(&bo->gpuva_lock);
}

/* The class of memory of page @i of @r (or of the shmem pages), for @tlb. */
static enum vaccel_mem_class vaccel_move_class(const struct vaccel_tlb *tlb,
					       const struct vaccel_devmem_range *r,
					       unsigned long i)
{
	return vaccel_tlb_mem_class(tlb, r, r ? r->addrs[i] : 0);
}

/*
 * Copies from @m->next on; stops for @check, if given, between chunks, and
 * counts on @tlb, if given, what it moved.
 */
static int vaccel_move_copy(struct vaccel_move *m, struct vaccel_tlb *tlb,
			    int (*check)(void *data), void *data)
{
	int ret;

	while (m->copy && m->next < m->npages) {
		copy_page(vaccel_move_page(m->dst, m->sys_pages, m->next),
			  vaccel_move_page(m->src, m->sys_pages, m->next));
		if (tlb) {
			vaccel_tlb_count(tlb, vaccel_move_class(tlb, m->src, m->next),
					 false, PAGE_SIZE);
			vaccel_tlb_count(tlb, vaccel_move_class(tlb, m->dst, m->next),
					 true, PAGE_SIZE);
		}
		m->next++;
		if (m->next % VACCEL_MOVE_CHUNK)
			continue;
		cond_resched();
		if (check) {
			ret = check(data);
			if (ret)
				return ret;
		}
	}
	return 0;
}

struct vaccel_move_engine {
	struct vaccel_engine *engine;
	struct vaccel_job *job;
};

/* Preemption only: a move always completes (see "Moving a BO"). */
static int vaccel_move_engine_check(void *data)
{
	struct vaccel_move_engine *e = data;

	return vaccel_engine_check(e->engine, e->job, true,
				   DRM_VACCEL_PREEMPT_PACKET) == -EAGAIN ? -EAGAIN : 0;
}

/**
 * vaccel_move_run() - copy a BO and switch its page tables, on the PAGING engine
 * @engine: the paging engine
 * @job: the move's job
 *
 * Allocates nothing; takes the BO's gpuva lock, the page-table locks of the
 * VMs that map it and their TLBs' locks, none of which is held while memory
 * is allocated or a fence awaited.
 *
 * Context: The PAGING engine's thread; sleeps.
 * Return: 0 once done, or -EAGAIN if preempted, to resume where it stopped.
 */
int vaccel_move_run(struct vaccel_engine *engine, struct vaccel_job *job)
{
	struct vaccel_move_engine e = { .engine = engine, .job = job };
	struct vaccel_move *m = job->move;
	int ret;

	ret = vaccel_move_copy(m, &engine->tlb, vaccel_move_engine_check, &e);
	if (ret)
		return ret;
	if (!m->switched) {
		/* A test's hold point (see "Hold points"). */
		vaccel_hold_poll(&engine->vdev->hold_switch);
		vaccel_move_switch(m);
	}
	return 0;
}

static void vaccel_move_release(struct vaccel_move *m)
{
	struct vaccel_bo *bo = m->bo;
	struct drm_gem_object *obj = &bo->base.base;

	vaccel_hold_wait(&m->vdev->hold_teardown);
	dma_resv_lock(obj->resv, NULL);
	/*
	 * The job never ran, its engine gone with its device: finish it
	 * here.  Its fence signalled already, so a CPU fault may have mapped
	 * the source meanwhile: zap again, after the switch.
	 */
	if (!m->switched) {
		vaccel_move_copy(m, NULL, NULL, NULL);
		vaccel_move_switch(m);
		drm_vma_node_unmap(&obj->vma_node, obj->dev->anon_inode->i_mapping);
	}
	if (m->src) {
		struct vaccel_devmem *mem = m->src->mem;

		atomic64_add(m->src->npages << PAGE_SHIFT, &mem->moved_out);
		/* The device may go with the range: wake before. */
		drm_dev_get(&mem->vdev->drm);
		vaccel_devmem_free(m->src);
		kfree(m->src);
		atomic_dec(&mem->releasing);
		wake_up_all(&mem->free_wq);
		drm_dev_put(&mem->vdev->drm);
	}
	while (m->unpin_sys) {
		drm_gem_shmem_unpin_locked(&bo->base);
		m->unpin_sys--;
	}
	/* Out of system memory: shmem gives its memory back, in a while. */
	if (bo->region != DRM_VACCEL_REGION_SYSTEM && !bo->base.pages)
		mod_delayed_work(system_unbound_wq, &bo->shmem_release,
				 msecs_to_jiffies(VACCEL_SHMEM_LINGER_MS));
	dma_resv_unlock(obj->resv);
	drm_gem_object_put(obj);
	drm_dev_put(&m->vdev->drm);
	kfree(m);
}

static void vaccel_move_release_work(struct work_struct *work)
{
	struct vaccel_move *m = container_of(work, struct vaccel_move, release_work);
	u64 kcov_handle = m->kcov_handle;

	/* The release's coverage goes to the KCOV of the move's job. */
	vaccel_kcov_begin(kcov_handle);
	vaccel_move_release(m);
	vaccel_kcov_end(kcov_handle);
}

/**
 * vaccel_move_free() - release a move whose job drm_sched is done with
 * @move: the move
 * @kcov_handle: the KCOV handle of its job, to which the release reports
 *
 * The release takes the BO's reservation lock, held while fences are
 * awaited: left to a worker, off drm_sched's own work.
 *
 * Context: Any context.
 */
void vaccel_move_free(struct vaccel_move *move, u64 kcov_handle)
{
	move->kcov_handle = kcov_handle;
	INIT_WORK(&move->release_work, vaccel_move_release_work);
	queue_work(vaccel_teardown_wq, &move->release_work);
}

/* --- queueing a move ------------------------------------------------------- */

/* Whether shmem holds any data of @bo: a BO never touched is zero. */
static bool vaccel_bo_has_data(struct vaccel_bo *bo)
{
	return bo->base.pages || bo->base.base.filp->f_mapping->nrpages;
}

/*
 * Decides the move of @bo to @to (in segment @mem, or system memory) and
 * prepares all it needs; the last step that can fail.  Under the
 * reservation locks of the BO and of every VM that maps it.
 */
static int vaccel_move_prepare(struct vaccel_move *m, struct vaccel_bo *bo,
			       u32 to, struct vaccel_devmem *mem, bool evict)
{
	struct drm_gem_object *obj = &bo->base.base;
	struct vaccel_device *vdev = to_vaccel_device(obj->dev);
	struct vaccel_devmem_range *dst = NULL;
	u32 i, pins = 0;
	int ret;

	dma_resv_assert_held(obj->resv);
	m->bo = bo;
	if (bo->region == to) {
		m->switched = true;
		if (to == bo->home)
			vaccel_bo_mark_evicted(bo, false);
		return 0;
	}
	if (VACCEL_IOCTL_DBG(vdev, bo->export_pins) ||
	    VACCEL_IOCTL_DBG(vdev, bo->base.vmap_use_count))
		return -EBUSY;

	m->npages = obj->size >> PAGE_SHIFT;
	m->copy = bo->region != DRM_VACCEL_REGION_SYSTEM || vaccel_bo_has_data(bo);
	if (mem) {
		dst = kzalloc(sizeof(*dst), GFP_KERNEL_ACCOUNT);
		if (!dst)
			return -ENOMEM;
		ret = vaccel_devmem_alloc(mem, m->npages, !m->copy, dst);
		if (ret) {
			kfree(dst);
			/* Someone took the room made: make it again. */
			return ret == -ENOSPC ? -EAGAIN : ret;
		}
	}
	/* The system side's pages, pinned by the move until it is done. */
	if (bo->region == DRM_VACCEL_REGION_SYSTEM ? m->copy : !mem) {
		ret = drm_gem_shmem_pin_locked(&bo->base);
		if (ret)
			goto err_free_dst;
		pins = 1;
		m->sys_pages = bo->base.pages;
	}

	if (bo->region == DRM_VACCEL_REGION_SYSTEM) {
		/* The mappings' and the CPU's pins go with the move. */
		m->unpin_sys = pins + bo->gpu_pins + bo->cpu_pinned;
		bo->cpu_pinned = false;
	}
	if (!mem) {
		/* In system memory each mapping pins, and the move's pin serves the CPU. */
		for (i = 0; i < bo->gpu_pins; i++)
			drm_WARN_ON(obj->dev, drm_gem_shmem_pin_locked(&bo->base));
		bo->cpu_pinned = true;
	}

	m->src = bo->vram;
	m->dst = dst;
	if (m->src) {
		vaccel_bo_lru_del(bo, m->src->mem);
		atomic_inc(&m->src->mem->releasing);
	}
	bo->vram = dst;
	bo->region = to;
	if (!evict)
		bo->home = to;
	if (dst) {
		atomic64_add((u64)m->npages << PAGE_SHIFT, &mem->moved_in);
		vaccel_bo_touch(bo);
	}
	/*
	 * A BO without data has no mapping, and its range is zeroed: it is
	 * in device memory now.  A bind before the job runs must not find
	 * it on neither side, with no pages and no range.
	 */
	if (dst && !m->copy) {
		WRITE_ONCE(bo->gpu_vram, dst);
		m->switched = true;
	}
	if (evict) {
		atomic_inc(&bo->evictions);
		atomic64_inc(&m->src->mem->evictions);
	}
	/* An evicted BO comes back for the VMs that map it; one home stays. */
	vaccel_bo_mark_evicted(bo, bo->region != bo->home &&
			       bo->home != DRM_VACCEL_REGION_SYSTEM);
	/* The CPU faults again, and waits for the move. */
	drm_vma_node_unmap(&obj->vma_node, obj->dev->anon_inode->i_mapping);
	return 0;

err_free_dst:
	if (dst) {
		vaccel_devmem_free(dst);
		kfree(dst);
	}
	return ret;
}

static void vaccel_vms_put(struct vaccel_vm **vms, unsigned int count)
{
	while (count--)
		drm_gpuvm_put(&vms[count]->base);
	kvfree(vms);
}

/* The VMs that map @bo, referenced; the BO's reservation lock held. */
static int vaccel_bo_collect_vms(struct vaccel_bo *bo, struct vaccel_vm ***vms,
				 unsigned int *count)
{
	struct drm_gem_object *obj = &bo->base.base;
	struct drm_gpuvm_bo *vm_bo;
	unsigned int n, cap = 0;
	struct vaccel_vm **arr = NULL;

	for (;;) {
		n = 0;
		mutex_lock(&bo->gpuva_lock);
		drm_gem_for_each_gpuvm_bo(vm_bo, obj) {
			if (n < cap) {
				arr[n] = container_of(vm_bo->vm, struct vaccel_vm, base);
				drm_gpuvm_get(&arr[n]->base);
			}
			n++;
		}
		mutex_unlock(&bo->gpuva_lock);
		if (n <= cap)
			break;
		vaccel_vms_put(arr, cap);
		cap = n + 4;
		arr = kvmalloc_array(cap, sizeof(*arr), VACCEL_GFP_SIZED);
		if (!arr)
			return -ENOMEM;
	}
	*vms = arr;
	*count = n;
	return 0;
}

/* Locks @bo and the VMs that map it, which are collected into @vms. */
static int vaccel_move_lock(struct drm_exec *exec, struct vaccel_bo *bo,
			    struct vaccel_vm ***vms, unsigned int *count)
{
	unsigned int i;
	int ret = 0;

	drm_exec_until_all_locked(exec) {
		vaccel_vms_put(*vms, *count);
		*vms = NULL;
		*count = 0;
		ret = drm_exec_prepare_obj(exec, &bo->base.base, 1);
		drm_exec_retry_on_contention(exec);
		if (ret)
			break;
		ret = vaccel_bo_collect_vms(bo, vms, count);
		if (ret)
			break;
		for (i = 0; i < *count && !ret; i++) {
			ret = drm_exec_prepare_obj(exec, (*vms)[i]->base.r_obj, 1);
			drm_exec_retry_on_contention(exec);
		}
	}
	return ret;
}

/*
 * Queues one move of @bo to @to on the paging context of @file's VM.
 * Return: 0 with the move's fence in @done if not NULL; -EAGAIN if the
 * destination lacked room after all; or a negative errno.
 */
static int vaccel_bo_move_once(struct vaccel_bo *bo, u32 to,
			       struct vaccel_devmem *mem, struct drm_file *file,
			       bool evict, struct dma_fence **done)
{
	static const struct drm_vaccel_obj_array none = {};
	struct vaccel_vm *vm = ((struct vaccel_file *)file->driver_priv)->vm;
	struct drm_gem_object *obj = &bo->base.base;
	struct vaccel_vm **vms = NULL;
	struct vaccel_context *mover;
	struct vaccel_submit sub;
	struct vaccel_move *m;
	struct dma_fence *fence;
	struct vaccel_job *job;
	unsigned int nvms = 0, i;
	struct drm_exec exec;
	int ret;

	/*
	 * The system side's pages are pinned under the locks below: fault
	 * them in first, where a fatal signal stops it (up to 4 GiB).
	 */
	if (READ_ONCE(bo->region) != to &&
	    (to == DRM_VACCEL_REGION_SYSTEM || vaccel_bo_has_data(bo))) {
		ret = vaccel_bo_populate(bo);
		if (ret)
			return ret;
	}
	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;
	ret = mutex_lock_interruptible(&vm->bind_lock);
	if (ret)
		goto err_free;
	mover = vaccel_vm_mover(vm, file);
	ret = PTR_ERR_OR_ZERO(mover);
	if (ret)
		goto err_unlock_bind;
	job = vaccel_job_alloc();
	ret = -ENOMEM;
	if (!job)
		goto err_unlock_bind;
	ret = vaccel_submit_begin(&sub, mover, file, job, &none, &none);
	if (ret)
		goto err_unlock_bind;

	drm_exec_init(&exec, DRM_EXEC_INTERRUPTIBLE_WAIT | DRM_EXEC_IGNORE_DUPLICATES, 0);
	ret = vaccel_move_lock(&exec, bo, &vms, &nvms);
	/* After what touched the BO or its VMs before. */
	if (!ret)
		ret = drm_sched_job_add_resv_dependencies(&job->base, obj->resv,
							  DMA_RESV_USAGE_BOOKKEEP);
	for (i = 0; i < nvms && !ret; i++)
		ret = drm_sched_job_add_resv_dependencies(&job->base,
							  vms[i]->base.r_obj->resv,
							  DMA_RESV_USAGE_BOOKKEEP);
	/* A test's hold point (see "Hold points"). */
	if (!ret) {
		fence = vaccel_hold_fence(&vm->vdev->hold_moves);
		if (fence)
			ret = drm_sched_job_add_dependency(&job->base, fence);
	}
	if (!ret)
		ret = vaccel_move_prepare(m, bo, to, mem, evict);
	if (ret) {
		drm_exec_fini(&exec);
		vaccel_vms_put(vms, nvms);
		vaccel_submit_abort(&sub);
		goto err_unlock_bind;
	}

	drm_gem_object_get(obj);
	m->vdev = vm->vdev;
	drm_dev_get(&m->vdev->drm);
	job->move = m;
	vaccel_submit_commit(&sub, &fence);
	/* Before what touches the BO or its VMs after. */
	dma_resv_add_fence(obj->resv, fence, DMA_RESV_USAGE_KERNEL);
	for (i = 0; i < nvms; i++)
		dma_resv_add_fence(vms[i]->base.r_obj->resv, fence,
				   DMA_RESV_USAGE_KERNEL);
	dma_fence_put(bo->moving);
	bo->moving = dma_fence_get(fence);
	drm_exec_fini(&exec);
	vaccel_vms_put(vms, nvms);
	mutex_unlock(&vm->bind_lock);
	if (done)
		*done = fence;
	else
		dma_fence_put(fence);
	return 0;

err_unlock_bind:
	mutex_unlock(&vm->bind_lock);
err_free:
	kfree(m);
	return ret;
}

/* --- eviction -------------------------------------------------------------- */

/* The last use of @bo: its own, or a submission of a VM that maps it. */
static u64 vaccel_bo_last_use(struct vaccel_bo *bo)
{
	struct drm_gem_object *obj = &bo->base.base;
	u64 last = READ_ONCE(bo->last_use);
	struct drm_gpuvm_bo *vm_bo;

	mutex_lock(&bo->gpuva_lock);
	drm_gem_for_each_gpuvm_bo(vm_bo, obj)
		last = max(last, READ_ONCE(container_of(vm_bo->vm, struct vaccel_vm,
							base)->last_use));
	mutex_unlock(&bo->gpuva_lock);
	return last;
}

static bool vaccel_bo_mapped_by(struct vaccel_bo *bo, struct vaccel_vm *vm)
{
	struct drm_gem_object *obj = &bo->base.base;
	struct drm_gpuvm_bo *vm_bo;
	bool mapped = false;

	if (!vm)
		return false;
	mutex_lock(&bo->gpuva_lock);
	drm_gem_for_each_gpuvm_bo(vm_bo, obj)
		mapped |= vm_bo->vm == &vm->base;
	mutex_unlock(&bo->gpuva_lock);
	return mapped;
}

/*
 * The least recently used BO of @mem but @keep, and none that @keep_vm
 * maps; referenced.  @skip counts those to pass over, which refused.
 */
static struct vaccel_bo *vaccel_devmem_victim(struct vaccel_devmem *mem,
					      struct vaccel_bo *keep,
					      struct vaccel_vm *keep_vm,
					      unsigned int skip)
{
	struct vaccel_bo *bo, *victim = NULL;
	u64 best = U64_MAX;

	mutex_lock(&mem->lock);
	list_for_each_entry(bo, &mem->lru, lru_link) {
		u64 last;

		if (bo == keep || vaccel_bo_mapped_by(bo, keep_vm))
			continue;
		if (skip) {
			skip--;
			continue;
		}
		last = vaccel_bo_last_use(bo);
		if (last < best) {
			best = last;
			victim = bo;
		}
	}
	if (victim && !kref_get_unless_zero(&victim->base.base.refcount))
		victim = NULL;
	mutex_unlock(&mem->lock);
	return victim;
}

/*
 * Evicts BOs of @mem, least recently used first, until @bytes are free,
 * and waits for their memory to come back.  Return: 0, -ENOSPC if nothing
 * more can go, -EINTR.
 */
static int vaccel_devmem_make_room(struct vaccel_devmem *mem, u64 bytes,
				   struct drm_file *file, struct vaccel_bo *keep,
				   struct vaccel_vm *keep_vm)
{
	unsigned int refused = 0;
	struct vaccel_bo *victim;
	struct dma_fence *done;
	u64 avail;
	int ret;

	if (bytes > mem->size)
		return -ENOSPC;
	while ((avail = vaccel_devmem_free_bytes(mem)) < bytes) {
		if (fatal_signal_pending(current))
			return -EINTR;
		victim = vaccel_devmem_victim(mem, keep, keep_vm, refused);
		if (!victim)
			return -ENOSPC;
		ret = vaccel_bo_move_once(victim, DRM_VACCEL_REGION_SYSTEM, NULL,
					  file, true, &done);
		drm_gem_object_put(&victim->base.base);
		if (ret == -EBUSY || ret == -EOPNOTSUPP) {
			refused++;
			continue;
		}
		if (ret)
			return ret;
		/* The victim's range goes with the move's release. */
		ret = dma_fence_wait(done, true);
		dma_fence_put(done);
		if (!ret)
			ret = wait_event_killable(mem->free_wq,
						  !atomic_read(&mem->releasing) ||
						  vaccel_devmem_free_bytes(mem) > avail);
		if (ret)
			return -EINTR;
	}
	return 0;
}

/*
 * Moves @bo to @to, making room there if @make_room (evicting BOs that
 * @keep_vm does not map).
 */
static int vaccel_bo_move(struct vaccel_bo *bo, u32 to, struct drm_file *file,
			  bool make_room, struct vaccel_vm *keep_vm,
			  struct dma_fence **done)
{
	struct vaccel_devmem *mem = NULL;
	unsigned int tries;
	int ret;

	if (to != DRM_VACCEL_REGION_SYSTEM) {
		mem = vaccel_devmem_get(to);
		if (!mem)
			return -ENODEV;
	}
	for (tries = 0; tries < VACCEL_MOVE_RETRIES; tries++) {
		if (mem && READ_ONCE(bo->region) != to) {
			ret = make_room ?
			      vaccel_devmem_make_room(mem, bo->base.base.size, file,
						      bo, keep_vm) :
			      (vaccel_devmem_free_bytes(mem) >= bo->base.base.size ?
			       0 : -ENOSPC);
			if (ret)
				break;
		}
		ret = vaccel_bo_move_once(bo, to, mem, file, false, done);
		if (ret != -EAGAIN)
			break;
		ret = -ENOSPC;
	}
	vaccel_devmem_put(mem);
	return ret;
}

/**
 * vaccel_bo_place_new() - put a new BO in its device's memory
 * @bo: the BO, just created with %DRM_VACCEL_BO_DEVICE or
 *	%DRM_VACCEL_BO_DEVICE_PREFERRED, known to nobody else
 * @file: the creator, on whose paging context evictions run
 *
 * Allocates the BO's range, zeroed, in the device's segment, evicting other
 * BOs for it if need be.  A BO that prefers device memory and does not fit
 * stays in system memory.
 *
 * Context: Process context; sleeps.
 * Return: 0; -ENOSPC if a BO that must be in device memory cannot be;
 * -ENOMEM; -EINTR.
 */
int vaccel_bo_place_new(struct vaccel_bo *bo, struct drm_file *file)
{
	struct drm_gem_object *obj = &bo->base.base;
	struct vaccel_device *vdev = to_vaccel_device(obj->dev);
	bool preferred = bo->flags & DRM_VACCEL_BO_DEVICE_PREFERRED;
	struct vaccel_devmem *mem = vdev->devmem;
	struct vaccel_devmem_range *r;
	unsigned int tries;
	int ret = -ENOSPC;

	if (!mem)
		return preferred ? 0 : -ENOSPC;
	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return -ENOMEM;
	for (tries = 0; tries < VACCEL_MOVE_RETRIES && ret == -ENOSPC; tries++) {
		ret = vaccel_devmem_make_room(mem, obj->size, file, bo, NULL);
		if (!ret)
			ret = vaccel_devmem_alloc(mem, obj->size >> PAGE_SHIFT, true, r);
	}
	if (ret) {
		kfree(r);
		return preferred && ret == -ENOSPC ? 0 : ret;
	}
	dma_resv_lock(obj->resv, NULL);
	bo->vram = r;
	bo->gpu_vram = r;
	bo->region = mem->region;
	bo->home = mem->region;
	vaccel_bo_touch(bo);
	dma_resv_unlock(obj->resv);
	return 0;
}

/**
 * vaccel_vm_await_move() - order a VM's work after the move of a BO it maps
 * @vm: the VM, whose lock is held by a bind that maps @bo
 * @bo: the BO, pinned by the bind
 *
 * A VM that maps a BO with a move pending was not among those the move
 * ordered itself against: its buffers to come wait for the move too.
 *
 * Context: Process context; sleeps.
 * Return: 0, -ENOMEM or -EINTR.
 */
int vaccel_vm_await_move(struct vaccel_vm *vm, struct vaccel_bo *bo)
{
	struct dma_resv *resv = vm->base.r_obj->resv;
	struct dma_fence *moving = NULL;
	int ret;

	ret = dma_resv_lock_interruptible(bo->base.base.resv, NULL);
	if (ret)
		return ret;
	if (bo->moving && !dma_fence_is_signaled(bo->moving))
		moving = dma_fence_get(bo->moving);
	dma_resv_unlock(bo->base.base.resv);
	if (!moving)
		return 0;
	ret = dma_resv_lock_interruptible(resv, NULL);
	if (!ret) {
		ret = dma_resv_reserve_fences(resv, 1);
		if (!ret)
			dma_resv_add_fence(resv, moving, DMA_RESV_USAGE_KERNEL);
		dma_resv_unlock(resv);
	}
	dma_fence_put(moving);
	return ret;
}

/**
 * vaccel_vm_make_resident() - bring back the evicted BOs a VM maps
 * @vm: the VM of a buffer about to be submitted
 * @file: the submitter
 *
 * Moves every BO on the VM's evict list back to where it belongs, before
 * the buffer: evicting others if it must be in device memory, only into
 * free room if it merely prefers it.
 *
 * Context: Process context; sleeps.
 * Return: 0; -ENOSPC if a BO that must be in device memory cannot be made
 * resident; another negative errno.
 */
int vaccel_vm_make_resident(struct vaccel_vm *vm, struct drm_file *file)
{
	struct drm_gpuvm *gpuvm = &vm->base;
	struct drm_gem_object *obj;
	struct drm_gpuvm_bo *vm_bo;
	struct vaccel_bo *bo;
	int ret = 0;

	WRITE_ONCE(vm->last_use, atomic64_inc_return(&vaccel_use_clock));
	/* The common case, on every submission: nothing was evicted. */
	if (list_empty_careful(&gpuvm->evict.list))
		return 0;
	for (;;) {
		spin_lock(&gpuvm->evict.lock);
		vm_bo = list_first_entry_or_null(&gpuvm->evict.list,
						 struct drm_gpuvm_bo,
						 list.entry.evict);
		/* Only under the lock: an unmap may free the vm_bo after. */
		obj = vm_bo ? vm_bo->obj : NULL;
		if (obj)
			drm_gem_object_get(obj);
		spin_unlock(&gpuvm->evict.lock);
		if (!obj)
			return 0;
		bo = to_vaccel_bo(obj);
		ret = vaccel_bo_move(bo, READ_ONCE(bo->home), file,
				     !(vaccel_bo_placement(bo) & DRM_VACCEL_BO_DEVICE_PREFERRED),
				     vm, NULL);
		if ((ret == -ENOSPC &&
		     (vaccel_bo_placement(bo) & DRM_VACCEL_BO_DEVICE_PREFERRED)) ||
		    ret == -ENODEV) {
			/*
			 * It stays in system memory until moved; for good if
			 * its segment went with its device.
			 */
			dma_resv_lock(bo->base.base.resv, NULL);
			bo->home = bo->region;
			vaccel_bo_mark_evicted(bo, false);
			dma_resv_unlock(bo->base.base.resv);
			ret = 0;
		}
		drm_gem_object_put(obj);
		if (ret)
			return ret;
	}
}

/*
 * Whether the caller may move @bo to @region: system memory, or the segment
 * of its own device, or that of the device whose BO it is (a peer object).
 * Another device's segment is another device's to fill: its users could
 * not otherwise be evicted by someone without access to it.
 */
static int vaccel_bo_migrate_allowed(struct vaccel_device *vdev,
				     struct vaccel_bo *bo, u32 region)
{
	struct vaccel_device *owner = to_vaccel_device(bo->base.base.dev);
	struct vaccel_devmem *mem;

	if (VACCEL_IOCTL_DBG(vdev, vaccel_bo_is_imported(bo)))
		return -EOPNOTSUPP;
	if (region == DRM_VACCEL_REGION_SYSTEM ||
	    region == DRM_VACCEL_REGION_DEVICE(vdev->index) ||
	    region == DRM_VACCEL_REGION_DEVICE(owner->index))
		return 0;
	/* A device that does not exist, or has no segment, says so first. */
	mem = vaccel_devmem_get(region);
	vaccel_devmem_put(mem);
	if (VACCEL_IOCTL_DBG(vdev, !mem))
		return -ENODEV;
	drm_dbg_driver(&vdev->drm, "BO_MIGRATE: region %u is another device's\n",
		       region);
	return -EACCES;
}

/**
 * vaccel_ioctl_bo_migrate() - handler of %DRM_IOCTL_VACCEL_BO_MIGRATE
 * @drm: the device
 * @data: &struct drm_vaccel_bo_migrate
 * @file: the caller
 *
 * Context: Process context.
 * Return: 0 or a negative errno as documented at &struct drm_vaccel_bo_migrate.
 */
int vaccel_ioctl_bo_migrate(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct vaccel_device *vdev = to_vaccel_device(drm);
	struct drm_vaccel_bo_migrate *args = data;
	struct dma_fence *done = NULL;
	struct vaccel_syncs syncs;
	struct drm_gem_object *obj;
	struct vaccel_bo *bo;
	int ret;

	if (VACCEL_IOCTL_DBG(vdev, args->flags) || VACCEL_IOCTL_DBG(vdev, args->pad) ||
	    VACCEL_IOCTL_DBG(vdev, args->region > DRM_VACCEL_REGION_DEVICE(VACCEL_MAX_DEVICES - 1)))
		return -EINVAL;
	obj = drm_gem_object_lookup(file, args->handle);
	if (VACCEL_IOCTL_DBG(vdev, !obj))
		return -ENOENT;
	/* A peer object moves the exporter's BO, as its exporter could. */
	bo = vaccel_bo_resolve(to_vaccel_bo(obj));
	ret = vaccel_bo_migrate_allowed(vdev, bo, args->region);
	if (!ret)
		ret = vaccel_syncs_prepare(&syncs, vdev, file, &args->waits,
					   &args->signals);
	if (ret) {
		drm_gem_object_put(obj);
		return ret;
	}
	ret = vaccel_bo_move(bo, args->region, file, true, NULL, &done);
	if (!ret) {
		u32 flags = args->region == DRM_VACCEL_REGION_SYSTEM ? 0 :
			    DRM_VACCEL_BO_DEVICE;

		/* Placed where asked, as if created there. */
		dma_resv_lock(bo->base.base.resv, NULL);
		WRITE_ONCE(bo->flags, (bo->flags & ~(DRM_VACCEL_BO_DEVICE |
						     DRM_VACCEL_BO_DEVICE_PREFERRED)) |
				      flags);
		dma_resv_unlock(bo->base.base.resv);
		vaccel_syncs_signal(&syncs, done);
		dma_fence_put(done);
	}
	vaccel_syncs_fini(&syncs);
	drm_gem_object_put(obj);
	return ret;
}
