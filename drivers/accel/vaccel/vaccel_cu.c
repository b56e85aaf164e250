// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Compute units
 *
 * A compute engine runs the workgroups of a ``DISPATCH`` on its compute
 * units (module parameter ``compute_units``), as a GPU's dispatcher hands
 * workgroups to its CUs.  Each unit has an interpreter of its own
 * (&struct vaccel_rv_cpu, with its decode cache and micro-TLBs) and a TLB
 * of its own, so that the units never share a lock while they run slices.
 *
 * Unit 0 is the engine's own thread, which also runs the DMA buffer,
 * makes every check of the engine and signals its fences.  Each other unit
 * is a kernel thread that sleeps until the engine hands it a dispatch
 * (vaccel_cu_start()), attaches its TLB to the dispatch's address space,
 * runs workgroups until the dispatch has none left or the engine tells it
 * to stop, and hands the dispatch back (vaccel_dispatch_unit()).  The
 * engine's thread waits for every unit before it returns from the packet,
 * so a unit never touches a dispatch, a job or an address space that the
 * engine has let go, and it detaches the unit's TLB then
 * (vaccel_cu_release()): an address space never waits for an idle unit.
 *
 * The units' threads follow the rules of the engine's: they allocate
 * without blocking, take no lock that is held while waiting for a fence,
 * and stop within a slice when told; each marks its dispatch's work with
 * dma_fence_begin_signalling(), so that lockdep checks them as it checks
 * the engine.  What they count (instructions,
 * memory traffic) is theirs to write; the engine adds it up when it is
 * read.
 */

#include <linux/dma-fence.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "vaccel_cu.h"
#include "vaccel_dispatch.h"
#include "vaccel_drv.h"
#include "vaccel_engine.h"

static int vaccel_cu_thread(void *data)
{
	struct vaccel_cu *cu = data;

	while (!kthread_should_stop()) {
		struct vaccel_dispatch *d;
		u64 kcov_handle;
		bool cookie;

		set_current_state(TASK_INTERRUPTIBLE);
		/* Pairs with the release of vaccel_cu_start(). */
		d = smp_load_acquire(&cu->work);
		if (!d) {
			if (!kthread_should_stop())
				schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		/* The unit's coverage is the submitter's, as the engine's is. */
		kcov_handle = cu->kcov_handle;
		vaccel_kcov_begin(kcov_handle);
		/*
		 * Part of the engine's buffer, whose fence waits for the
		 * unit: the same rules, which lockdep checks here too.
		 */
		cookie = dma_fence_begin_signalling();
		vaccel_dispatch_unit(cu, d);
		dma_fence_end_signalling(cookie);
		vaccel_kcov_end(kcov_handle);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/**
 * vaccel_cu_start() - hand a dispatch to a unit
 * @cu: a unit other than 0, idle
 * @d: the dispatch, which the engine keeps until the unit hands it back
 * @kcov_handle: the KCOV handle of the dispatch's job, 0 for none
 *
 * Puts the unit's TLB behind the engine's, in its address space.
 *
 * Context: The engine's thread.
 */
void vaccel_cu_start(struct vaccel_cu *cu, struct vaccel_dispatch *d, u64 kcov_handle)
{
	struct vaccel_engine *engine = cu->engine;

	vaccel_tlb_attach_child(cu->tlb, &engine->tlb);
	cu->kcov_handle = kcov_handle;
	/* The unit sees the dispatch's state as the engine wrote it. */
	smp_store_release(&cu->work, d);
	wake_up_process(cu->thread);
}

/**
 * vaccel_cu_release() - detach an idle unit from its address space
 * @cu: a unit other than 0, which has handed its dispatch back
 *
 * Context: The engine's thread.
 */
void vaccel_cu_release(struct vaccel_cu *cu)
{
	vaccel_tlb_detach_child(cu->tlb, &cu->engine->tlb);
}

/**
 * vaccel_engine_instructions() - kernel instructions an engine executed
 * @engine: the engine
 *
 * Context: Any context.
 * Return: the sum over its compute units; 0 for an engine without.
 */
u64 vaccel_engine_instructions(struct vaccel_engine *engine)
{
	u64 sum = 0;
	unsigned int i;

	for (i = 0; i < engine->num_cus; i++)
		sum += READ_ONCE(engine->cus[i].instructions);
	return sum;
}

/**
 * vaccel_cus_fold_traffic() - add the units' memory traffic to the engine's
 * @engine: the engine
 *
 * Unit 0 counts in the engine's TLB; the others in their own, which this
 * adds, since the last call, to the engine's counters, which the files'
 * counters and the cost model read.
 *
 * Context: The engine's thread.
 */
void vaccel_cus_fold_traffic(struct vaccel_engine *engine)
{
	unsigned int i, c, w;

	for (i = 1; i < engine->num_cus; i++) {
		struct vaccel_cu *cu = &engine->cus[i];

		for (c = 0; c < VACCEL_MEM_CLASSES; c++) {
			for (w = 0; w < 2; w++) {
				u64 now = READ_ONCE(cu->own_tlb.traffic.bytes[c][w]);

				vaccel_tlb_count(&engine->tlb, c, w,
						 now - cu->folded.bytes[c][w]);
				cu->folded.bytes[c][w] = now;
			}
		}
	}
}

/**
 * vaccel_cus_init() - create the compute units of an engine
 * @engine: a compute engine, its TLB initialised, its thread not started
 * @count: the number of units, at least 1
 *
 * Context: Process context.
 * Return: 0 or a negative errno; vaccel_cus_fini() undoes what was done.
 */
int vaccel_cus_init(struct vaccel_engine *engine, unsigned int count)
{
	struct vaccel_device *vdev = engine->vdev;
	unsigned int i;

	engine->cus = kcalloc(count, sizeof(*engine->cus), GFP_KERNEL);
	if (!engine->cus)
		return -ENOMEM;
	for (i = 0; i < count; i++) {
		struct vaccel_cu *cu = &engine->cus[i];
		struct task_struct *thread;

		cu->engine = engine;
		cu->index = i;
		cu->rv = vaccel_dispatch_cpu_new();
		if (!cu->rv)
			return -ENOMEM;
		/* Counted now: vaccel_cus_fini() looks at this unit. */
		engine->num_cus = i + 1;
		if (!i) {
			cu->tlb = &engine->tlb;
			continue;
		}
		vaccel_tlb_init(&cu->own_tlb);
		cu->own_tlb.local_base = engine->tlb.local_base;
		cu->tlb = &cu->own_tlb;
		thread = kthread_create(vaccel_cu_thread, cu, "vaccel%u-cu%u.%u",
					vdev->index, engine->desc.instance, i);
		if (IS_ERR(thread))
			return PTR_ERR(thread);
		cu->thread = thread;
		wake_up_process(thread);
	}
	return 0;
}

/**
 * vaccel_cus_fini() - stop and free the compute units of an engine
 * @engine: the engine, its thread stopped
 *
 * Context: Process context.
 */
void vaccel_cus_fini(struct vaccel_engine *engine)
{
	unsigned int i;

	for (i = 0; i < engine->num_cus; i++) {
		struct vaccel_cu *cu = &engine->cus[i];

		if (cu->thread)
			kthread_stop(cu->thread);
		kvfree(cu->rv);
	}
	kfree(engine->cus);
	engine->cus = NULL;
	engine->num_cus = 0;
}
