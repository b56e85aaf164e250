/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_CU_H__
#define __VACCEL_CU_H__

#include <linux/types.h>

#include "vaccel_tlb.h"

struct task_struct;
struct vaccel_dispatch;
struct vaccel_engine;
struct vaccel_rv_cpu;

/**
 * struct vaccel_cu - one compute unit of a compute engine
 * @engine: the engine it belongs to
 * @index: its number in the engine, 0 to &vaccel_engine.num_cus - 1
 * @rv: its interpreter, with its caches; used by one thread at a time
 * @tlb: the TLB its accesses go through: the engine's for unit 0, else
 *	@own_tlb
 * @own_tlb: the unit's own TLB (units 1 and up), behind the engine's for
 *	as long as the unit runs a dispatch
 * @thread: the unit's thread; NULL for unit 0, which the engine's thread
 *	runs
 * @work: the dispatch the engine handed to the unit, NULL when it has
 *	none; set by the engine's thread, cleared by the unit's
 * @tlb_seen: @tlb's invalidations when the unit last synchronised its
 *	interpreter's instruction cache with memory
 * @instructions: kernel instructions the unit executed; written by the
 *	thread that runs the unit, read without a lock
 * @kcov_handle: the KCOV handle of the job whose dispatch the unit runs
 *	(the submitter's, 0 for none), set with @work
 * @folded: @tlb's traffic that the engine has already added to its own;
 *	the engine thread's
 */
struct vaccel_cu {
	struct vaccel_engine *engine;
	unsigned int index;
	struct vaccel_rv_cpu *rv;
	struct vaccel_tlb *tlb;
	struct vaccel_tlb own_tlb;
	struct task_struct *thread;
	struct vaccel_dispatch *work;
	u64 kcov_handle;
	u64 tlb_seen;
	u64 instructions;
	struct vaccel_traffic folded;
};

int vaccel_cus_init(struct vaccel_engine *engine, unsigned int count);
void vaccel_cus_fini(struct vaccel_engine *engine);
void vaccel_cu_start(struct vaccel_cu *cu, struct vaccel_dispatch *d, u64 kcov_handle);
void vaccel_cu_release(struct vaccel_cu *cu);
u64 vaccel_engine_instructions(struct vaccel_engine *engine);
void vaccel_cus_fold_traffic(struct vaccel_engine *engine);

#endif /* __VACCEL_CU_H__ */
