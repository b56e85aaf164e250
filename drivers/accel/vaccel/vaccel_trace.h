/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */

/*
 * The driver's trace events, system ``vaccel``.  Documentation/observability.rst
 * describes them and how vaccel-trace joins them with gpu_scheduler's and
 * dma_fence's; the DOC: block of vaccel_trace.c says what they promise.
 */

#if !defined(__VACCEL_TRACE_H__) || defined(TRACE_HEADER_MULTI_READ)
#define __VACCEL_TRACE_H__

#include <linux/sched.h>
#include <linux/tracepoint.h>
#include <linux/types.h>

#include "vaccel_arbiter.h"
#include "vaccel_context.h"
#include "vaccel_dispatch.h"
#include "vaccel_drv.h"
#include "vaccel_engine.h"
#include "vaccel_file.h"
#include "vaccel_tlb.h"

#undef TRACE_SYSTEM
#define TRACE_SYSTEM vaccel
#define TRACE_INCLUDE_FILE vaccel_trace

/*
 * Every event of a buffer names it the same way: its device, engine and
 * context, and the context and seqno of its drm_sched finished fence, which
 * is the fence that syncobjs, sync_files and the waits of other buffers
 * hold (gpu_scheduler's drm_sched_job_wait_dep names it too).
 */
#define VACCEL_TRACE_JOB_ASSIGN(job)					\
	do {								\
		const struct vaccel_job *__job = (job);			\
									\
		__entry->dev = __job->ctx->vdev->index;			\
		__entry->engine = __job->ctx->engine->index;		\
		__entry->ctx = __job->ctx->id;				\
		__entry->fctx = __job->base.s_fence->finished.context;	\
		__entry->seqno = __job->base.s_fence->finished.seqno;	\
	} while (0)

TRACE_EVENT(vaccel_context_create,
	    TP_PROTO(const struct vaccel_context *ctx),
	    TP_ARGS(ctx),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, engine)
			     __field(u32, ctx)
			     __field(u32, priority)
			     __field(u64, fctx)
			     __field(u64, hw_fctx)
			     __field(u64, client)
			     __field(pid_t, pid)
			     __array(char, comm, TASK_COMM_LEN)
			     __string(name, ctx->slot->name)),
	    TP_fast_assign(__entry->dev = ctx->vdev->index;
			   __entry->engine = ctx->engine->index;
			   __entry->ctx = ctx->id;
			   __entry->priority = ctx->priority;
			   /* drm_sched's finished fences: the entity's context plus one. */
			   __entry->fctx = ctx->entity.fence_context + 1;
			   __entry->hw_fctx = ctx->fence_context;
			   __entry->client = ctx->file->client_id;
			   __entry->pid = current->tgid;
			   memcpy(__entry->comm, current->comm, TASK_COMM_LEN);
			   __assign_str(name);),
	    TP_printk("dev=%u engine=%u ctx=%u priority=%u fence_context=%llu hw_fence_context=%llu client=%llu pid=%d comm=%s name=%s",
		      __entry->dev, __entry->engine, __entry->ctx,
		      __entry->priority, __entry->fctx, __entry->hw_fctx,
		      __entry->client, __entry->pid, __entry->comm,
		      __get_str(name))
);

TRACE_EVENT(vaccel_context_destroy,
	    TP_PROTO(const struct vaccel_context *ctx),
	    TP_ARGS(ctx),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, engine)
			     __field(u32, ctx)),
	    TP_fast_assign(__entry->dev = ctx->vdev->index;
			   __entry->engine = ctx->engine->index;
			   __entry->ctx = ctx->id;),
	    TP_printk("dev=%u engine=%u ctx=%u",
		      __entry->dev, __entry->engine, __entry->ctx)
);

TRACE_EVENT(vaccel_context_ban,
	    TP_PROTO(const struct vaccel_context *ctx),
	    TP_ARGS(ctx),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, engine)
			     __field(u32, ctx)
			     __field(u32, reason)),
	    TP_fast_assign(__entry->dev = ctx->vdev->index;
			   __entry->engine = ctx->engine->index;
			   __entry->ctx = ctx->id;
			   __entry->reason = ctx->ban_reason;),
	    TP_printk("dev=%u engine=%u ctx=%u reason=%s",
		      __entry->dev, __entry->engine, __entry->ctx,
		      __print_symbolic(__entry->reason,
				       { DRM_VACCEL_BAN_NONE, "none" },
				       { DRM_VACCEL_BAN_FAULT, "fault" },
				       { DRM_VACCEL_BAN_HANG, "hang" },
				       { DRM_VACCEL_BAN_TIME_LIMIT, "time-limit" }))
);

TRACE_EVENT(vaccel_job_submit,
	    TP_PROTO(const struct vaccel_job *job),
	    TP_ARGS(job),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, engine)
			     __field(u32, ctx)
			     __field(u64, fctx)
			     __field(u64, seqno)
			     __field(u64, id)
			     __field(u64, va)
			     __field(u64, size)
			     __field(bool, bind)),
	    TP_fast_assign(VACCEL_TRACE_JOB_ASSIGN(job);
			   __entry->id = job->base.id;
			   __entry->va = job->va;
			   __entry->size = job->size;
			   __entry->bind = job->bind;),
	    TP_printk("dev=%u engine=%u ctx=%u fence=%llu:%llu id=%llu va=0x%llx size=%llu bind=%d",
		      __entry->dev, __entry->engine, __entry->ctx,
		      __entry->fctx, __entry->seqno, __entry->id, __entry->va,
		      __entry->size, __entry->bind)
);

TRACE_EVENT(vaccel_job_run,
	    TP_PROTO(const struct vaccel_job *job),
	    TP_ARGS(job),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, engine)
			     __field(u32, ctx)
			     __field(u64, fctx)
			     __field(u64, seqno)
			     __field(u64, id)
			     __field(u64, hw_fctx)
			     __field(u64, hw_seqno)),
	    TP_fast_assign(VACCEL_TRACE_JOB_ASSIGN(job);
			   __entry->id = job->base.id;
			   __entry->hw_fctx = job->hw.base.context;
			   __entry->hw_seqno = job->hw.base.seqno;),
	    TP_printk("dev=%u engine=%u ctx=%u fence=%llu:%llu id=%llu hw_fence=%llu:%llu",
		      __entry->dev, __entry->engine, __entry->ctx,
		      __entry->fctx, __entry->seqno, __entry->id,
		      __entry->hw_fctx, __entry->hw_seqno)
);

TRACE_EVENT(vaccel_job_hw_queue,
	    TP_PROTO(const struct vaccel_job *job,
		     unsigned int slot),
	    TP_ARGS(job, slot),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, engine)
			     __field(u32, ctx)
			     __field(u64, fctx)
			     __field(u64, seqno)
			     __field(u32, slot)
			     __field(bool, resumed)),
	    TP_fast_assign(VACCEL_TRACE_JOB_ASSIGN(job);
			   __entry->slot = slot;
			   __entry->resumed = job->arb.started;),
	    TP_printk("dev=%u engine=%u ctx=%u fence=%llu:%llu slot=%u resumed=%d",
		      __entry->dev, __entry->engine, __entry->ctx,
		      __entry->fctx, __entry->seqno, __entry->slot,
		      __entry->resumed)
);

TRACE_EVENT(vaccel_hw_queue,
	    TP_PROTO(const struct vaccel_engine *engine,
		     const u32 *ctx,
		     const u64 *seqno,
		     unsigned int used),
	    TP_ARGS(engine, ctx, seqno, used),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, engine)
			     __field(u32, used)
			     __array(u32, ctx, VACCEL_ARBITER_SLOTS)
			     __array(u64, seqno, VACCEL_ARBITER_SLOTS)),
	    TP_fast_assign(__entry->dev = engine->vdev->index;
			   __entry->engine = engine->index;
			   __entry->used = used;
			   memcpy(__entry->ctx, ctx, sizeof(__entry->ctx));
			   memcpy(__entry->seqno, seqno, sizeof(__entry->seqno));),
	    TP_printk("dev=%u engine=%u used=%u slot0=%u:%llu slot1=%u:%llu",
		      __entry->dev, __entry->engine, __entry->used,
		      __entry->ctx[0], __entry->seqno[0], __entry->ctx[1],
		      __entry->seqno[1])
);

TRACE_EVENT(vaccel_job_start,
	    TP_PROTO(const struct vaccel_job *job,
		     bool resumed),
	    TP_ARGS(job, resumed),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, engine)
			     __field(u32, ctx)
			     __field(u64, fctx)
			     __field(u64, seqno)
			     __field(u64, offset)
			     __field(u64, progress)
			     __field(u64, run_ns)
			     __field(bool, resumed)),
	    TP_fast_assign(VACCEL_TRACE_JOB_ASSIGN(job);
			   __entry->offset = job->offset;
			   __entry->progress = job->pkt_progress;
			   __entry->run_ns = job->run_ns;
			   __entry->resumed = resumed;),
	    TP_printk("dev=%u engine=%u ctx=%u fence=%llu:%llu offset=%llu progress=%llu run_ns=%llu resumed=%d",
		      __entry->dev, __entry->engine, __entry->ctx,
		      __entry->fctx, __entry->seqno, __entry->offset,
		      __entry->progress, __entry->run_ns, __entry->resumed)
);

TRACE_EVENT(vaccel_job_preempt,
	    TP_PROTO(const struct vaccel_job *job,
		     enum vaccel_preempt_reason reason,
		     u32 granularity),
	    TP_ARGS(job, reason, granularity),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, engine)
			     __field(u32, ctx)
			     __field(u64, fctx)
			     __field(u64, seqno)
			     __field(u32, reason)
			     __field(u32, granularity)
			     __field(u64, offset)
			     __field(u64, progress)
			     __field(s64, group)),
	    TP_fast_assign(VACCEL_TRACE_JOB_ASSIGN(job);
			   __entry->reason = reason;
			   __entry->granularity = granularity;
			   __entry->offset = job->offset;
			   __entry->progress = job->pkt_progress;
			   __entry->group = vaccel_dispatch_group(job->dispatch);),
	    TP_printk("dev=%u engine=%u ctx=%u fence=%llu:%llu reason=%s granularity=%s resume_offset=%llu progress=%llu workgroup=%lld",
		      __entry->dev, __entry->engine, __entry->ctx,
		      __entry->fctx, __entry->seqno,
		      __print_symbolic(__entry->reason,
				       { VACCEL_PREEMPT_PRIORITY, "priority" },
				       { VACCEL_PREEMPT_SLICE, "slice" },
				       { VACCEL_PREEMPT_STARVATION, "starvation" },
				       { VACCEL_PREEMPT_FORCED, "forced" },
				       { VACCEL_PREEMPT_RESET, "reset" }),
		      __print_symbolic(__entry->granularity,
				       { DRM_VACCEL_PREEMPT_DMA_BUFFER, "dma-buffer" },
				       { DRM_VACCEL_PREEMPT_PACKET, "packet" },
				       { DRM_VACCEL_PREEMPT_WORKGROUP, "workgroup" },
				       { DRM_VACCEL_PREEMPT_INSTRUCTION, "instruction" }),
		      __entry->offset, __entry->progress, __entry->group)
);

TRACE_EVENT(vaccel_job_done,
	    TP_PROTO(const struct vaccel_job *job,
		     int error),
	    TP_ARGS(job, error),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, engine)
			     __field(u32, ctx)
			     __field(u64, fctx)
			     __field(u64, seqno)
			     __field(int, error)
			     __field(u64, offset)
			     __field(u64, run_ns)),
	    TP_fast_assign(VACCEL_TRACE_JOB_ASSIGN(job);
			   __entry->error = error;
			   __entry->offset = job->offset;
			   __entry->run_ns = job->run_ns;),
	    TP_printk("dev=%u engine=%u ctx=%u fence=%llu:%llu error=%d offset=%llu run_ns=%llu",
		      __entry->dev, __entry->engine, __entry->ctx,
		      __entry->fctx, __entry->seqno, __entry->error,
		      __entry->offset, __entry->run_ns)
);

TRACE_EVENT(vaccel_job_fault,
	    TP_PROTO(const struct vaccel_job *job,
		     const struct vaccel_fault *fault),
	    TP_ARGS(job, fault),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, engine)
			     __field(u32, ctx)
			     __field(u64, fctx)
			     __field(u64, seqno)
			     __field(u64, offset)
			     __field(u64, va)
			     __field(u64, pc)
			     __field(u32, reason)
			     __field(u32, access)),
	    TP_fast_assign(VACCEL_TRACE_JOB_ASSIGN(job);
			   __entry->offset = job->offset;
			   __entry->va = fault->va;
			   __entry->pc = fault->pc;
			   __entry->reason = fault->reason;
			   __entry->access = fault->access;),
	    TP_printk("dev=%u engine=%u ctx=%u fence=%llu:%llu offset=%llu va=0x%llx pc=0x%llx reason=%u access=%u",
		      __entry->dev, __entry->engine, __entry->ctx,
		      __entry->fctx, __entry->seqno, __entry->offset,
		      __entry->va, __entry->pc, __entry->reason, __entry->access)
);

TRACE_EVENT(vaccel_job_hang,
	    TP_PROTO(const struct vaccel_job *job,
		     u64 stalled_ns),
	    TP_ARGS(job, stalled_ns),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, engine)
			     __field(u32, ctx)
			     __field(u64, fctx)
			     __field(u64, seqno)
			     __field(u64, offset)
			     __field(u64, stalled_ns)),
	    TP_fast_assign(VACCEL_TRACE_JOB_ASSIGN(job);
			   __entry->offset = job->offset;
			   __entry->stalled_ns = stalled_ns;),
	    TP_printk("dev=%u engine=%u ctx=%u fence=%llu:%llu offset=%llu stalled_ns=%llu",
		      __entry->dev, __entry->engine, __entry->ctx,
		      __entry->fctx, __entry->seqno, __entry->offset,
		      __entry->stalled_ns)
);

TRACE_EVENT(vaccel_dispatch_group,
	    TP_PROTO(const struct vaccel_job *job,
		     u64 group,
		     u64 groups,
		     bool finished,
		     u64 slices),
	    TP_ARGS(job, group, groups, finished, slices),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, engine)
			     __field(u32, ctx)
			     __field(u64, fctx)
			     __field(u64, seqno)
			     __field(u64, offset)
			     __field(u64, group)
			     __field(u64, groups)
			     __field(u64, slices)
			     __field(bool, finished)),
	    TP_fast_assign(VACCEL_TRACE_JOB_ASSIGN(job);
			   __entry->offset = job->offset;
			   __entry->group = group;
			   __entry->groups = groups;
			   __entry->slices = slices;
			   __entry->finished = finished;),
	    TP_printk("dev=%u engine=%u ctx=%u fence=%llu:%llu offset=%llu workgroup=%llu/%llu finished=%d slices=%llu",
		      __entry->dev, __entry->engine, __entry->ctx,
		      __entry->fctx, __entry->seqno, __entry->offset,
		      __entry->group, __entry->groups, __entry->finished,
		      __entry->slices)
);

TRACE_EVENT(vaccel_engine_reset,
	    TP_PROTO(const struct vaccel_engine *engine,
		     u32 ctx,
		     bool hang),
	    TP_ARGS(engine, ctx, hang),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, engine)
			     __field(u32, ctx)
			     __field(bool, hang)
			     __field(u64, resets)),
	    TP_fast_assign(__entry->dev = engine->vdev->index;
			   __entry->engine = engine->index;
			   __entry->ctx = ctx;
			   __entry->hang = hang;
			   __entry->resets = engine->resets;),
	    TP_printk("dev=%u engine=%u guilty_ctx=%u hang=%d resets=%llu",
		      __entry->dev, __entry->engine, __entry->ctx,
		      __entry->hang, __entry->resets)
);

TRACE_EVENT(vaccel_device_reset,
	    TP_PROTO(const struct vaccel_device *vdev),
	    TP_ARGS(vdev),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u64, resets)),
	    TP_fast_assign(__entry->dev = vdev->index;
			   __entry->resets = atomic64_read(&vdev->device_resets);),
	    TP_printk("dev=%u device_resets=%llu",
		      __entry->dev, __entry->resets)
);

TRACE_EVENT(vaccel_vm_bind,
	    TP_PROTO(const struct vaccel_device *vdev,
		     u64 client,
		     const struct drm_vaccel_vm_bind_op *op,
		     const struct vaccel_job *job),
	    TP_ARGS(vdev, client, op, job),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, op)
			     __field(u32, flags)
			     __field(u32, ctx)
			     __field(u64, client)
			     __field(u64, va)
			     __field(u64, size)
			     __field(u64, bo_offset)
			     __field(u64, fctx)
			     __field(u64, seqno)),
	    TP_fast_assign(__entry->dev = vdev->index;
			   __entry->op = op->op;
			   __entry->flags = op->flags;
			   __entry->client = client;
			   __entry->va = op->va;
			   __entry->size = op->size;
			   __entry->bo_offset = op->bo_offset;
			   __entry->ctx = job ? job->ctx->id : 0;
			   __entry->fctx = job ? job->base.s_fence->finished.context : 0;
			   __entry->seqno = job ? job->base.s_fence->finished.seqno : 0;),
	    TP_printk("dev=%u client=%llu op=%u va=0x%llx size=0x%llx bo_offset=0x%llx flags=0x%x ctx=%u fence=%llu:%llu",
		      __entry->dev, __entry->client, __entry->op, __entry->va,
		      __entry->size, __entry->bo_offset, __entry->flags,
		      __entry->ctx, __entry->fctx, __entry->seqno)
);

TRACE_EVENT(vaccel_tlb_invalidate,
	    TP_PROTO(const struct vaccel_device *vdev,
		     u64 client,
		     u64 va,
		     u64 size,
		     unsigned int tlbs),
	    TP_ARGS(vdev, client, va, size, tlbs),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, tlbs)
			     __field(u64, client)
			     __field(u64, va)
			     __field(u64, size)),
	    TP_fast_assign(__entry->dev = vdev->index;
			   __entry->tlbs = tlbs;
			   __entry->client = client;
			   __entry->va = va;
			   __entry->size = size;),
	    TP_printk("dev=%u client=%llu va=0x%llx size=0x%llx tlbs=%u",
		      __entry->dev, __entry->client, __entry->va, __entry->size,
		      __entry->tlbs)
);

#endif /* __VACCEL_TRACE_H__ */

/* This part must be outside the header guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#include <trace/define_trace.h>
