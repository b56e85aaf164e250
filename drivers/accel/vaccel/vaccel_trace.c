// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Trace events
 *
 * The driver's trace events (system ``vaccel`` in tracefs) follow a DMA
 * buffer through its whole life, and the device around it:
 *
 * - ``vaccel_job_submit``: the SUBMIT (or asynchronous VM_BIND) ioctl
 *   pushed it to its context's drm_sched entity;
 * - ``vaccel_job_run``: its dependencies are met, drm_sched ran it, and it
 *   waits on its context's ring for the arbiter;
 * - ``vaccel_job_hw_queue``: the arbiter picked it into a slot of the
 *   engine's HW queue; ``vaccel_hw_queue`` gives the whole HW queue after
 *   every change (the queue-depth counter of a timeline);
 * - ``vaccel_job_start``: the engine starts it, or resumes it where a
 *   preemption stopped it (``resumed``, ``offset``, ``progress``);
 * - ``vaccel_job_preempt``: the engine stopped it part-way, why, at which
 *   granularity, and the point it resumes from;
 * - ``vaccel_dispatch_group``: a workgroup of its DISPATCH started or
 *   finished, with the slices it took;
 * - ``vaccel_job_fault``, ``vaccel_job_hang``: it faulted (reason, access,
 *   VA, pc, packet offset) or stopped making progress;
 * - ``vaccel_job_done``: the engine is done with it, with its errno
 *   (``-ECANCELED`` for a cancelled one); its fence signals from here, in
 *   its context's order.
 *
 * And: ``vaccel_context_create`` (which names the context: its process,
 * engine, priority and fence contexts), ``vaccel_context_destroy``,
 * ``vaccel_context_ban``, ``vaccel_engine_reset``, ``vaccel_device_reset``,
 * ``vaccel_vm_bind`` (each operation, synchronous or with the paging job
 * that applies it) and ``vaccel_tlb_invalidate``.
 *
 * Every event of a buffer carries the device, the engine, the context (a
 * number unique on the device, which ``vaccel_context_create`` maps to the
 * file's handle and process) and the context and seqno of the buffer's
 * drm_sched *finished* fence: the fence that waits, syncobjs and sync_files
 * hold, and that dma_fence's events name.  gpu_scheduler's own events name
 * the scheduler, whose name is the context's (``vaccel<dev>-<engine>-c<id>``,
 * also the timeline name of its fences), and the job id, which
 * ``vaccel_job_submit`` and ``vaccel_job_run`` carry.
 *
 * The events cost a static branch each while disabled.  The HW queue's are
 * computed only while one of them is enabled.  All of them fire from the
 * engine threads with nothing but the ring buffer's own reservation, which
 * neither allocates nor sleeps: tracing keeps the fence-signalling rules.
 */

#define CREATE_TRACE_POINTS
#include "vaccel_trace.h"
