// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Packets
 *
 * The engine's front end: vaccel_packet_run() fetches the packets of a DMA
 * buffer through the engine's TLB, decodes them and executes them, every
 * memory access going through the MMU of the buffer's address space.
 *
 * Decoding is strict: a header with reserved bits, an unknown opcode or
 * flag, a length that is not the opcode's, a packet that runs past the end
 * of the buffer, or a misaligned operand is a ``MALFORMED`` fault at the
 * packet's address.  A fault stops the buffer at the faulting packet and
 * leaves the context's fault record for the engine to report.
 *
 * The engine checks (vaccel_engine_check()) before every packet and, in
 * the long packets, between pieces: ``COPY`` and ``FILL`` work in pieces of
 * at most a page, ``DELAY`` and ``WAIT_MEM`` sleep until the engine needs
 * them, ``DISPATCH`` runs workgroups in slices of instructions (see
 * "Dispatch").  A check can stop the buffer for a preemption; the packet then
 * records its progress in the job (bytes done, or time delayed) and resumes
 * from there, so that a long packet is preemptible in the middle and its
 * result is that of an uninterrupted run: ``COPY`` and ``FILL`` write each
 * byte once, in the same pieces; ``WAIT_MEM`` reads its location afresh.
 *
 * Waiting packets sleep interruptibly, never in ``D`` state, so that a
 * buffer waiting for hours is no hung task: ``DELAY`` on an hrtimer,
 * ``WAIT_MEM`` with an exponential backoff from 10 µs to 1 ms that any
 * engine's write to memory cuts short.  Both wake early when the engine
 * needs their attention and at the next deadline of the arbiter or of the
 * hang timeout.
 */

#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include <drm/vaccel_accel.h>

#include "vaccel_context.h"
#include "vaccel_dispatch.h"
#include "vaccel_drv.h"
#include "vaccel_engine.h"
#include "vaccel_packet.h"
#include "vaccel_vm.h"

#define VACCEL_WAIT_MIN_NS	10000
#define VACCEL_WAIT_MAX_NS	1000000

/* What executing one packet needs. */
struct vaccel_exec {
	struct vaccel_engine *engine;
	struct vaccel_job *job;
	u64 pkt_va;
	struct vaccel_fault *fault;
};

static int vaccel_exec_check(struct vaccel_exec *x, bool progressed)
{
	return vaccel_engine_check(x->engine, x->job, progressed,
				   DRM_VACCEL_PREEMPT_PACKET);
}

/* A sleeping packet wakes when the engine needs it, or its context ends. */
static bool vaccel_exec_wanted(struct vaccel_exec *x)
{
	return READ_ONCE(x->engine->attention) ||
	       READ_ONCE(x->job->ctx->cancelled) || kthread_should_stop();
}

/*
 * Sleeps for up to @ns of engine time, or until vaccel_engine_kick() wakes
 * the thread because the engine wants its attention.
 */
static void vaccel_exec_nap(struct vaccel_exec *x, u64 ns)
{
	ktime_t t = ns_to_ktime(ns);

	set_current_state(TASK_INTERRUPTIBLE);
	if (!vaccel_exec_wanted(x))
		schedule_hrtimeout(&t, HRTIMER_MODE_REL);
	__set_current_state(TASK_RUNNING);
}

static int vaccel_exec_malformed(struct vaccel_exec *x)
{
	x->fault->va = x->pkt_va;
	x->fault->access = VACCEL_ACCESS_READ;
	x->fault->reason = VACCEL_FAULT_MALFORMED;
	return -EINVAL;
}

/**
 * vaccel_packet_wrote() - tell WAIT_MEM packets that memory changed
 * @engine: the engine that wrote
 *
 * Context: Process context.
 */
void vaccel_packet_wrote(struct vaccel_engine *engine)
{
	struct vaccel_device *vdev = engine->vdev;

	atomic_inc(&vdev->mem_writes);
	if (wq_has_sleeper(&vdev->mem_wq))
		wake_up_all(&vdev->mem_wq);
}

static void vaccel_exec_wrote(struct vaccel_exec *x)
{
	vaccel_packet_wrote(x->engine);
}

static int vaccel_exec_write_imm(struct vaccel_exec *x, u32 flags, const u64 *op)
{
	bool wide = flags & DRM_VACCEL_PKT_F_64BIT;
	u32 low = op[1];
	int ret;

	if (flags & ~DRM_VACCEL_PKT_F_64BIT || op[0] % (wide ? 8 : 4))
		return vaccel_exec_malformed(x);
	ret = vaccel_tlb_write(&x->engine->tlb, op[0], wide ? (void *)&op[1] : &low,
			       wide ? 8 : 4, x->fault);
	if (!ret)
		vaccel_exec_wrote(x);
	return ret;
}

/*
 * Runs @step over [0, @size) in pieces of at most a page, from the end when
 * @backwards, checking between pieces.
 * The one loop of the long packets: it starts from the job's progress and
 * leaves it there when a check stops it.  A piece copies a page at most,
 * and every piece is a point where the CPU may run something else.
 */
static int vaccel_exec_pieces(struct vaccel_exec *x, const u64 *op, u64 size,
			      bool backwards,
			      int (*step)(struct vaccel_exec *x, const u64 *op,
					  u64 off, u64 len))
{
	u64 done = x->job->pkt_progress;
	int ret;

	while (done < size) {
		u64 len = min_t(u64, size - done, PAGE_SIZE);

		ret = step(x, op, backwards ? size - done - len : done, len);
		if (ret)
			break;
		done += len;
		cond_resched();
		if (done < size) {
			ret = vaccel_exec_check(x, true);
			if (ret)
				break;
		}
	}
	if (done)
		vaccel_exec_wrote(x);
	x->job->pkt_progress = done;
	return done < size ? ret : 0;
}

/* COPY {src, dst, size}: one piece through the engine's bounce page. */
static int vaccel_copy_step(struct vaccel_exec *x, const u64 *op, u64 off,
			    u64 len)
{
	int ret;

	ret = vaccel_tlb_read(&x->engine->tlb, op[0] + off, x->engine->bounce,
			      len, VACCEL_ACCESS_READ, x->fault);
	if (ret)
		return ret;
	return vaccel_tlb_write(&x->engine->tlb, op[1] + off, x->engine->bounce,
				len, x->fault);
}

static int vaccel_exec_copy(struct vaccel_exec *x, u32 flags, const u64 *op)
{
	u64 src = op[0], dst = op[1], size = op[2];

	if (flags || size > VACCEL_MAX_COPY_SIZE)
		return vaccel_exec_malformed(x);
	/* Overlapping forward copies run backwards: memmove semantics. */
	return vaccel_exec_pieces(x, op, size, dst > src && dst - src < size,
				  vaccel_copy_step);
}

/* FILL {dst, size, value}: one piece from the bounce page of the pattern. */
static int vaccel_fill_step(struct vaccel_exec *x, const u64 *op, u64 off,
			    u64 len)
{
	return vaccel_tlb_write(&x->engine->tlb, op[0] + off, x->engine->bounce,
				len, x->fault);
}

static int vaccel_exec_fill(struct vaccel_exec *x, u32 flags, const u64 *op)
{
	u32 *bounce = x->engine->bounce;
	unsigned int i;

	if (flags || op[0] % 4 || op[1] % 4 || op[1] > VACCEL_MAX_COPY_SIZE)
		return vaccel_exec_malformed(x);
	for (i = 0; i < PAGE_SIZE / 4; i++)
		bounce[i] = (u32)op[2];
	return vaccel_exec_pieces(x, op, op[1], false, vaccel_fill_step);
}

static int vaccel_exec_timestamp(struct vaccel_exec *x, u32 flags, const u64 *op)
{
	u64 now = ktime_get_ns();
	int ret;

	if (flags || op[0] % 8)
		return vaccel_exec_malformed(x);
	ret = vaccel_tlb_write(&x->engine->tlb, op[0], &now, 8, x->fault);
	if (!ret)
		vaccel_exec_wrote(x);
	return ret;
}

static bool vaccel_wait_compare(unsigned int cmp, u64 value, u64 ref)
{
	switch (cmp) {
	case DRM_VACCEL_WAIT_EQ:
		return value == ref;
	case DRM_VACCEL_WAIT_NE:
		return value != ref;
	case DRM_VACCEL_WAIT_GT:
		return value > ref;
	case DRM_VACCEL_WAIT_GE:
		return value >= ref;
	case DRM_VACCEL_WAIT_LT:
		return value < ref;
	default:
		return value <= ref;
	}
}

static int vaccel_exec_wait_mem(struct vaccel_exec *x, u32 flags, const u64 *op)
{
	struct vaccel_device *vdev = x->engine->vdev;
	bool wide = flags & DRM_VACCEL_PKT_F_64BIT;
	unsigned int cmp = flags >> 1;
	u64 backoff = VACCEL_WAIT_MIN_NS;
	u64 mask = wide ? op[2] : (u32)op[2];
	u64 ref = op[1] & mask;
	int ret;

	if (cmp > DRM_VACCEL_WAIT_LE || op[0] % (wide ? 8 : 4))
		return vaccel_exec_malformed(x);

	for (;;) {
		int gen = atomic_read(&vdev->mem_writes);
		u64 value = 0, sleep;

		ret = vaccel_tlb_read(&x->engine->tlb, op[0], &value, wide ? 8 : 4,
				      VACCEL_ACCESS_READ, x->fault);
		if (ret)
			return ret;
		if (vaccel_wait_compare(cmp, value & mask, ref))
			return 0;

		sleep = min(backoff, vaccel_engine_sleep_ns(x->engine));
		wait_event_interruptible_hrtimeout(vdev->mem_wq,
						   atomic_read(&vdev->mem_writes) != gen ||
						   vaccel_exec_wanted(x),
						   ns_to_ktime(sleep));
		ret = vaccel_exec_check(x, false);
		if (ret)
			return ret;
		backoff = min_t(u64, backoff * 2, VACCEL_WAIT_MAX_NS);
	}
}

/* DELAY {ns}: engine time; a preempted DELAY resumes with what is left. */
static int vaccel_exec_delay(struct vaccel_exec *x, u32 flags, const u64 *op)
{
	u64 ns = min_t(u64, op[0], KTIME_MAX / 2);
	u64 start = ktime_get_ns() - x->job->pkt_progress;

	if (flags)
		return vaccel_exec_malformed(x);
	for (;;) {
		u64 now = ktime_get_ns(), sleep;
		int ret;

		if (now - start >= ns)
			return 0;
		ret = vaccel_exec_check(x, false);
		if (ret) {
			x->job->pkt_progress = ktime_get_ns() - start;
			return ret;
		}
		sleep = min(start + ns - now, vaccel_engine_sleep_ns(x->engine));
		vaccel_exec_nap(x, sleep);
	}
}

/* Operand words each opcode takes, header excluded; -1: any (NOP). */
static const int vaccel_pkt_operands[] = {
	[DRM_VACCEL_PKT_NOP] = -1,
	[DRM_VACCEL_PKT_WRITE_IMM] = 2,
	[DRM_VACCEL_PKT_COPY] = 3,
	[DRM_VACCEL_PKT_FILL] = 3,
	[DRM_VACCEL_PKT_TIMESTAMP] = 1,
	[DRM_VACCEL_PKT_WAIT_MEM] = 3,
	[DRM_VACCEL_PKT_DELAY] = 1,
	[DRM_VACCEL_PKT_DISPATCH] = 10,
};

/* The length of a packet of opcode @op and flags @flags, header included. */
static u64 vaccel_pkt_words(u32 op, u32 flags)
{
	/* A workgroup range adds {first group, group count}. */
	if (op == DRM_VACCEL_PKT_DISPATCH && flags & DRM_VACCEL_PKT_F_GROUP_RANGE)
		return vaccel_pkt_operands[op] + 3;
	return vaccel_pkt_operands[op] + 1;
}

/*
 * A packet that a preemption stopped part-way resumes from the progress
 * its job saved: the DMA buffer must still hold the packet that progress
 * belongs to.  One rewritten meanwhile is malformed, rather than resumed
 * with the state of another.
 */
static bool vaccel_exec_resumes_other(struct vaccel_exec *x, u64 hdr,
				      const u64 *operands, u64 words)
{
	struct vaccel_job *job = x->job;

	return job->pkt_saved &&
	       (job->pkt_words[0] != hdr ||
		memcmp(&job->pkt_words[1], operands, (words - 1) * 8));
}

static void vaccel_exec_save(struct vaccel_exec *x, u64 hdr, const u64 *operands,
			     u64 words)
{
	struct vaccel_job *job = x->job;

	job->pkt_words[0] = hdr;
	memcpy(&job->pkt_words[1], operands, (words - 1) * 8);
	job->pkt_saved = true;
}

static int vaccel_exec_op(struct vaccel_exec *x, u32 op, u32 flags,
			  const u64 *operands)
{
	int ret;

	switch (op) {
	case DRM_VACCEL_PKT_WRITE_IMM:
		return vaccel_exec_write_imm(x, flags, operands);
	case DRM_VACCEL_PKT_COPY:
		return vaccel_exec_copy(x, flags, operands);
	case DRM_VACCEL_PKT_FILL:
		return vaccel_exec_fill(x, flags, operands);
	case DRM_VACCEL_PKT_TIMESTAMP:
		return vaccel_exec_timestamp(x, flags, operands);
	case DRM_VACCEL_PKT_WAIT_MEM:
		return vaccel_exec_wait_mem(x, flags, operands);
	case DRM_VACCEL_PKT_DISPATCH:
		if (flags & ~DRM_VACCEL_PKT_F_GROUP_RANGE)
			return vaccel_exec_malformed(x);
		ret = vaccel_dispatch_run(x->engine, x->job, flags, operands,
					  x->fault);
		return ret == -EINVAL ? vaccel_exec_malformed(x) : ret;
	default:
		return vaccel_exec_delay(x, flags, operands);
	}
}

static int vaccel_exec_packet(struct vaccel_exec *x, u64 hdr, u64 words)
{
	u32 op = hdr & 0xff, flags = (hdr >> 8) & 0xff;
	u64 operands[VACCEL_PKT_MAX_WORDS - 1];
	int ret;

	if (op >= ARRAY_SIZE(vaccel_pkt_operands))
		return vaccel_exec_malformed(x);
	if (op == DRM_VACCEL_PKT_NOP)
		return flags ? vaccel_exec_malformed(x) : 0;
	if (words != vaccel_pkt_words(op, flags))
		return vaccel_exec_malformed(x);

	ret = vaccel_tlb_read(&x->engine->tlb, x->pkt_va + 8, operands,
			      (words - 1) * 8, VACCEL_ACCESS_READ, x->fault);
	if (ret)
		return ret;
	if (vaccel_exec_resumes_other(x, hdr, operands, words))
		return vaccel_exec_malformed(x);

	ret = vaccel_exec_op(x, op, flags, operands);
	if (ret == -EAGAIN && (x->job->pkt_progress || x->job->dispatch))
		vaccel_exec_save(x, hdr, operands, words);
	return ret;
}

/**
 * vaccel_packet_run() - execute a DMA buffer from its next packet
 * @engine: the engine, its TLB attached to the buffer's address space
 * @job: the buffer; @job->offset advances past each packet executed
 * @fault: filled on a fault
 *
 * Context: The engine's thread; sleeps.
 * Return: 0 once the last packet executed; -EFAULT for a memory fault and
 * -EINVAL for a malformed packet, @job->offset then being the packet's;
 * -EAGAIN when a check stopped the buffer for a preemption, its progress
 * saved in @job; -ETIMEDOUT when it is hung; -ENOMEM when a DISPATCH
 * finds no memory for its state; -ENODEV when the engine stops; or the
 * error of a cancellation.
 */
int vaccel_packet_run(struct vaccel_engine *engine, struct vaccel_job *job,
		      struct vaccel_fault *fault)
{
	struct vaccel_exec x = {
		.engine = engine,
		.job = job,
		.fault = fault,
	};
	bool progressed = false;
	int ret;

	while (job->offset < job->size) {
		u64 hdr, words;

		ret = vaccel_exec_check(&x, progressed);
		if (ret)
			return ret;

		x.pkt_va = job->va + job->offset;
		ret = vaccel_tlb_read(&engine->tlb, x.pkt_va, &hdr, 8,
				      VACCEL_ACCESS_READ, fault);
		if (ret)
			return ret;
		words = (hdr >> 16) & 0xffff;
		if (hdr >> 32 || !words || words > (job->size - job->offset) / 8)
			return vaccel_exec_malformed(&x);

		ret = vaccel_exec_packet(&x, hdr, words);
		if (ret)
			return ret;
		job->offset += words * 8;
		job->pkt_progress = 0;
		job->pkt_saved = false;
		progressed = true;
		cond_resched();
	}
	return 0;
}
