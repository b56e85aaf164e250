// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * queue.c - command queues: MCDM's Command Queue, which turns the commands
 * a program records into DMA buffers and submits them to a kernel context.
 *
 * Recording appends packets to the current DMA buffer of the queue.  A
 * flush submits the part of the buffer recorded since the last submission
 * and leaves the rest of the buffer for what is recorded next, so that many
 * small submissions share one buffer.  A packet that does not fit in what
 * is left submits the buffer's pending part and moves on to another buffer:
 * a recording of any length is split into several submissions, and since a
 * context completes its buffers in submission order, each starting after
 * the previous one completed, the split is invisible.
 *
 * The DMA buffers come from a pool of the queue.  Every submission signals
 * the next point of a timeline syncobj of the queue, and a buffer remembers
 * the point of the last submission from it: once that point has signalled,
 * the device is done with the buffer and it can be recorded into again.
 * Points signal in order, so the buffers are reused in the order they
 * filled up: the busy list is a FIFO, and only its head needs looking at.
 * To find a buffer the queue takes a free one, else the head of the busy
 * list if its point has signalled (the timeline's value is cached, and
 * queried again only when the cache says no), else allocates a new one
 * while the pool is below VACCEL_QUEUE_MAX_BUFFERS, else waits for the
 * head's point.
 *
 * Every submission also installs its fence in a binary syncobj, @last, so
 * that vaccel_queue_finish() can read the fence's error: a faulted buffer
 * signals with -EFAULT or -EINVAL, and every later buffer of the context
 * with -ECANCELED.  The queue then refuses further work with -ECANCELED,
 * as the kernel does with any later submission to the context.
 *
 * Fault records.  The kernel says why the queue's context was banned (a
 * fault, a hang, the time limit), with which submission, its buffer and
 * the offset of the packet (CONTEXT_STATE, uapi 1.6).  To tell which
 * command of the program that was, every DMA buffer keeps a record per
 * command recorded into it (struct vaccel_cmd_record: where its packet
 * starts, its number in the queue, the function that recorded it, the
 * kernel of a launch), from the first submission since it was last
 * recorded into from the start.  The records go when the buffer is
 * recorded into again, once the device is done with it: the memory stays
 * bounded by the pool.  So that the records of a failed buffer are never
 * the ones that go, a buffer is only reused once the context is known not
 * to be banned (one CONTEXT_STATE per reuse of a whole buffer); a banned
 * queue refuses work anyway.  vaccel_queue_get_fault() puts it together,
 * and module.c names the kernel and the function of the faulting pc.
 *
 * Events an application waits for are snapshotted at vaccel_queue_wait_event()
 * (drmSyncobjTransfer() into a syncobj of the queue, which also fails
 * with -EINVAL if the event has no fence yet), and the next submission
 * waits for the snapshots.
 *
 * The waits and signal of one command (vaccel_queue_set_command_sync()):
 * the waits are snapshotted at once, as above, all into the same
 * submission; the signal waits in the queue (@sig_ev) for the next
 * recording function that records something.  Every public recording
 * function is VACCEL_QUEUE_COMMAND(): before the command, a profiling
 * event gets a TIMESTAMP packet into its slot (event.c) and the next
 * submission notes its CPU time; after it, a second TIMESTAMP, and a
 * flush that signals the event (a timeline at its point).  The command's
 * packets then lie between two timestamps of the same engine, in order,
 * after the command before it has completed: its start and end.
 *
 * A queue runs on the engine the kernel picks among those of its class
 * (the one with the fewest contexts), or on the instance the caller names
 * (vaccel_queue_create_ex()); CONTEXT_STATE says which one it is.
 *
 * Deferred submission (libvaccel 1.9).  Work that waits for an unset host
 * event, or for a pending event (one whose signalling command is itself
 * held), may not reach the kernel, whose fences all signal in finite
 * time.  Such a wait is kept in the queue as a deferred wait (@dwaits)
 * rather than a snapshot, and from then on the queue *holds*: each
 * submission it would make becomes a struct vaccel_held instead, with the
 * same buffer range, its snapshots and deferred waits, and its signal,
 * whose event becomes pending.  The DMA buffers stay as recorded; a
 * buffer with held submissions is never reused (nor waited for: the pool
 * grows past VACCEL_QUEUE_MAX_BUFFERS rather than wait for work that may
 * never be submitted).  Releasing (vaccel_queue_kick()) takes the held
 * submissions oldest first: one whose deferred waits are all resolved
 * gets them as snapshots (a pending event's fence exists once its command
 * is submitted) and goes to the kernel; one that waits for a failed event
 * is dropped with every held submission after it, and with the work
 * recorded after them but not cut into a submission yet, and the events
 * they signal fail (event.c).  The queue holds until nothing is held.
 *
 * Releases happen in the owner's calls and in the thread that sets a host
 * event: vaccel_defer_sweep() kicks every queue that holds, on a list under
 * the deferral lock (event.c), again and again while that changes
 * anything, since a release makes pending events real and a drop fails
 * them, which other queues wait for.  So that the owner can record while
 * another thread releases, a queue has a lock, taken by every public call
 * and by the sweep.  Lock order: a queue's lock, then the deferral lock,
 * then an event's; never two queues' locks at once (the sweep takes
 * references to the queues under the deferral lock, drops it, then locks
 * each queue in turn), and no CPU wait for held work with a queue's lock
 * held.  A queue of a unified device never holds work and takes no lock.
 *
 * Command groups: vaccel_queue_begin_group() takes the waits of the group
 * and starts the signal as for one command (the start TIMESTAMP of a
 * profiling event), vaccel_queue_end_group() finishes it.  A group whose
 * start was dropped is dropped to its end (@doom).
 *
 * A queue of a unified device (unified.c) is a queue on each member: the
 * public functions hand it over there.
 */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vaccel_priv.h"

#define VACCEL_PKT(op, flags, words)	DRM_VACCEL_PKT_HEADER(op, flags, words)

static_assert((int)VACCEL_PRIORITY_REALTIME == (int)DRM_VACCEL_PRIORITY_REALTIME &&
	      (int)VACCEL_PRIORITY_HIGH == (int)DRM_VACCEL_PRIORITY_HIGH &&
	      (int)VACCEL_PRIORITY_NORMAL == (int)DRM_VACCEL_PRIORITY_NORMAL &&
	      (int)VACCEL_PRIORITY_LOW == (int)DRM_VACCEL_PRIORITY_LOW,
	      "priorities are the uapi's");
static_assert((int)VACCEL_COMPARE_EQ == (int)DRM_VACCEL_WAIT_EQ &&
	      (int)VACCEL_COMPARE_NE == (int)DRM_VACCEL_WAIT_NE &&
	      (int)VACCEL_COMPARE_GT == (int)DRM_VACCEL_WAIT_GT &&
	      (int)VACCEL_COMPARE_GE == (int)DRM_VACCEL_WAIT_GE &&
	      (int)VACCEL_COMPARE_LT == (int)DRM_VACCEL_WAIT_LT &&
	      (int)VACCEL_COMPARE_LE == (int)DRM_VACCEL_WAIT_LE,
	      "comparisons are the uapi's");
static_assert(VACCEL_QUEUE_BUFFER_SIZE <= DRM_VACCEL_MAX_BUFFER_SIZE,
	      "a DMA buffer fits a submission");
static_assert(VACCEL_QUEUE_MAX_WAITS <= DRM_VACCEL_MAX_SYNCS,
	      "the waits fit a submission");
static_assert(VACCEL_QUEUE_BUFFER_SIZE / 8 <= UINT16_MAX + 1,
	      "a word of a DMA buffer fits a record");
static_assert(VACCEL_ELF_MAX_KERNELS <= UINT16_MAX + 1,
	      "a kernel's index fits a record");
static_assert((int)VACCEL_FAILURE_FAULT == (int)DRM_VACCEL_BAN_FAULT &&
	      (int)VACCEL_FAILURE_HANG == (int)DRM_VACCEL_BAN_HANG &&
	      (int)VACCEL_FAILURE_TIME_LIMIT == (int)DRM_VACCEL_BAN_TIME_LIMIT,
	      "failures are the uapi's ban reasons");
static_assert((int)VACCEL_FAULT_TRAP == (int)DRM_VACCEL_FAULT_TRAP &&
	      (int)VACCEL_FAULT_UNMAPPED == (int)DRM_VACCEL_FAULT_UNMAPPED &&
	      (int)VACCEL_FAULT_MALFORMED == (int)DRM_VACCEL_FAULT_MALFORMED &&
	      (int)VACCEL_ACCESS_EXEC == (int)DRM_VACCEL_ACCESS_EXEC,
	      "fault reasons and accesses are the uapi's");

static void vaccel_queue_fault_from_state(struct vaccel_queue *q,
					  const struct drm_vaccel_context_state *st);
static void vaccel_queue_snapshot_fault(struct vaccel_queue *q);
static bool vaccel_queue_kick(struct vaccel_queue *q);
static void vaccel_queue_drop(struct vaccel_queue *q, int status);
static void vaccel_queue_put(struct vaccel_queue *q);

/* --- the pool of DMA buffers --- */

static void vaccel_cmdbuf_free(struct vaccel_cmdbuf *buf)
{
	vaccel_bo_free(buf->bo);
	free(buf->recs);
	free(buf);
}

static int vaccel_queue_cmdbuf_alloc(struct vaccel_queue *q,
				     struct vaccel_cmdbuf **out)
{
	struct vaccel_cmdbuf *buf;
	void *map;
	int ret;

	buf = calloc(1, sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	ret = vaccel_bo_alloc(q->dev, VACCEL_QUEUE_BUFFER_SIZE,
			      VACCEL_BO_GPU_READ_ONLY | VACCEL_BO_GPU_NO_EXEC,
			      &buf->bo);
	if (ret)
		goto err_free;
	ret = vaccel_bo_map(buf->bo, &map);
	if (ret)
		goto err_free_bo;
	buf->map = map;
	buf->va = vaccel_bo_va(buf->bo);
	buf->words = VACCEL_QUEUE_BUFFER_SIZE / 8;
	q->nbufs++;
	*out = buf;
	return 0;

err_free_bo:
	vaccel_bo_free(buf->bo);
err_free:
	free(buf);
	return ret;
}

/* Updates @q->completed from the kernel. */
static int vaccel_queue_query(struct vaccel_queue *q)
{
	uint64_t point = 0;

	if (drmSyncobjQuery(q->dev->fd, &q->timeline, &point, 1))
		return -errno;
	if (point > q->completed)
		q->completed = point;
	return 0;
}

/* Waits until @point of @q's timeline has signalled. */
static int vaccel_queue_wait_point(struct vaccel_queue *q, uint64_t point)
{
	int ret;

	if (point <= q->completed)
		return 0;
	/* Returns -errno itself. */
	ret = drmSyncobjTimelineWait(q->dev->fd, &q->timeline, &point, 1, INT64_MAX,
				     DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL);
	if (ret)
		return ret;
	q->completed = point;
	return 0;
}

/* Moves the busy buffers the device is done with to the free list. */
static void vaccel_queue_reap(struct vaccel_queue *q)
{
	struct vaccel_cmdbuf *buf;

	while ((buf = q->busy) && !buf->held && buf->point <= q->completed) {
		q->busy = buf->next;
		if (!q->busy)
			q->busy_tail = NULL;
		buf->next = q->free;
		q->free = buf;
	}
}

/* Puts @buf, whose last submission is the newest, on the busy list. */
static void vaccel_queue_retire(struct vaccel_queue *q, struct vaccel_cmdbuf *buf)
{
	if (!buf->held && buf->point <= q->completed) {
		buf->next = q->free;
		q->free = buf;
		return;
	}
	buf->next = NULL;
	if (q->busy_tail)
		q->busy_tail->next = buf;
	else
		q->busy = buf;
	q->busy_tail = buf;
}

/*
 * -ECANCELED if the queue's context is banned, noting it and its fault
 * record; 0 if not, or if the kernel cannot say.
 */
static int vaccel_queue_check_failed(struct vaccel_queue *q)
{
	struct drm_vaccel_context_state st = { .handle = q->context };

	if (drmIoctl(q->dev->fd, DRM_IOCTL_VACCEL_CONTEXT_STATE, &st) ||
	    !(st.flags & DRM_VACCEL_CONTEXT_BANNED))
		return 0;
	vaccel_queue_fault_from_state(q, &st);
	q->error = -ECANCELED;
	return q->error;
}

/* A buffer to record into: free, reused, new, or waited for. */
static int vaccel_queue_acquire(struct vaccel_queue *q, struct vaccel_cmdbuf **out)
{
	struct vaccel_cmdbuf *buf;
	int ret;

	vaccel_queue_reap(q);
	if (!q->free && q->busy) {
		ret = vaccel_queue_query(q);
		if (ret)
			return ret;
		vaccel_queue_reap(q);
	}
	if (!q->free) {
		/* Held work may never be submitted: grow rather than wait for it. */
		if (q->nbufs < VACCEL_QUEUE_MAX_BUFFERS || q->busy->held) {
			ret = vaccel_queue_cmdbuf_alloc(q, out);
			/* Short of memory: wait for a buffer instead, if any. */
			if (!ret || !q->busy || q->busy->held)
				return ret;
		}
		ret = vaccel_queue_wait_point(q, q->busy->point);
		if (ret)
			return ret;
		vaccel_queue_reap(q);
	}
	buf = q->free;
	/* Its records are about to go: not those of a failed submission. */
	if (buf->first_point) {
		ret = vaccel_queue_check_failed(q);
		if (ret)
			return ret;
	}
	q->free = buf->next;
	buf->next = NULL;
	buf->first_point = 0;
	buf->nrecs = 0;
	*out = buf;
	return 0;
}

/* --- submission --- */

/*
 * The SUBMIT of words [@start, @end) of @buf, waiting for the @nwaits
 * syncobjs of @wait_objs, signalling the queue's next point and @sig (NULL:
 * none) at @point.
 */
static int vaccel_queue_submit_range(struct vaccel_queue *q, struct vaccel_cmdbuf *buf,
				     uint32_t start, uint32_t end,
				     const uint32_t *wait_objs, unsigned int nwaits,
				     struct vaccel_event *sig, uint64_t point)
{
	struct drm_vaccel_sync waits[VACCEL_QUEUE_MAX_WAITS];
	struct drm_vaccel_sync signals[3] = {
		{ .handle = q->timeline, .point = q->submitted + 1 },
		{ .handle = q->last },
		{ .handle = sig ? sig->handle : 0, .point = point },
	};
	struct drm_vaccel_submit s = {
		.context = q->context,
		.buffer_va = buf->va + (uint64_t)start * 8,
		.buffer_size = (uint64_t)(end - start) * 8,
		.waits = DRM_VACCEL_OBJ_ARRAY(nwaits, waits),
		.signals = DRM_VACCEL_OBJ_ARRAY(sig ? 3 : 2, signals),
	};
	unsigned int i;
	int ret;

	for (i = 0; i < nwaits; i++)
		waits[i] = (struct drm_vaccel_sync){ .handle = wait_objs[i] };
	if (drmIoctl(q->dev->fd, DRM_IOCTL_VACCEL_SUBMIT, &s)) {
		ret = -errno;
		/* The context failed: it takes no more work. */
		if (ret == -ECANCELED) {
			q->error = ret;
			vaccel_queue_snapshot_fault(q);
		}
		return ret;
	}
	q->submitted++;
	buf->point = q->submitted;
	if (!buf->first_point)
		buf->first_point = q->submitted;
	return 0;
}

static bool vaccel_queue_holding(const struct vaccel_queue *q)
{
	return q->held || q->ndwaits || q->doom;
}

/* Makes [@start, @used) of the current buffer, which is not empty, held work. */
static int vaccel_queue_hold(struct vaccel_queue *q, struct vaccel_event *sig,
			     uint64_t point, bool arm)
{
	struct vaccel_held *h;

	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->buf = q->cur;
	h->start = q->start;
	h->end = q->used;
	/* The snapshots go with it; the queue keeps the syncobjs it did not use. */
	memcpy(h->waits, q->wait_objs, q->nwaits * sizeof(h->waits[0]));
	h->nwaits = q->nwaits;
	memmove(q->wait_objs, q->wait_objs + q->nwaits,
		(q->nwait_objs - q->nwaits) * sizeof(q->wait_objs[0]));
	q->nwait_objs -= q->nwaits;
	q->nwaits = 0;
	memcpy(h->dwaits, q->dwaits, q->ndwaits * sizeof(h->dwaits[0]));
	h->ndwaits = q->ndwaits;
	q->ndwaits = 0;
	h->watch = q->sig_watch;
	h->arm = arm;
	h->doom = q->doom;
	if (sig) {
		vaccel_event_get(sig);
		h->signal = sig;
		h->point = point;
		vaccel_defer_lock();
		sig->held++;
		if (point > sig->held_point)
			sig->held_point = point;
		sig->fail_status = 0;
		vaccel_defer_unlock();
		/* CPU waits wait for this command, not for the fence before it. */
		if (!point)
			drmSyncobjReset(q->dev->fd, &sig->handle, 1);
	}
	q->cur->held++;
	if (q->held_tail)
		q->held_tail->next = h;
	else
		q->held = h;
	q->held_tail = h;
	q->start = q->used;
	vaccel_defer_lock();
	vaccel_defer_register_locked(q);
	vaccel_defer_unlock();
	return 0;
}

/*
 * Submits [@start, @used) of the current buffer, which is not empty, with
 * the pending waits, signalling @sig (NULL: none) at @point; @arm: @sig
 * profiles the command that ends here.  Held instead if the queue holds.
 */
static int vaccel_queue_submit(struct vaccel_queue *q, struct vaccel_event *sig,
			       uint64_t point, bool arm)
{
	int ret;

	if (vaccel_queue_holding(q))
		return vaccel_queue_hold(q, sig, point, arm);
	/* The submitted time of a profiled command: before the kernel sees it. */
	if (q->sig_watch && !q->sig_submit_ns)
		q->sig_submit_ns = vaccel_now_ns();
	ret = vaccel_queue_submit_range(q, q->cur, q->start, q->used, q->wait_objs,
					q->nwaits, sig, point);
	if (ret)
		return ret;
	q->start = q->used;
	q->nwaits = 0;
	if (arm)
		vaccel_event_arm(sig, point, q->sig_submit_ns);
	return 0;
}

/* Moves on to another buffer, submitting what the current one holds. */
static int vaccel_queue_next_buffer(struct vaccel_queue *q)
{
	struct vaccel_cmdbuf *buf;
	int ret;

	if (q->cur) {
		if (q->used > q->start) {
			ret = vaccel_queue_submit(q, NULL, 0, false);
			if (ret)
				return ret;
		}
		vaccel_queue_retire(q, q->cur);
		q->cur = NULL;
		q->start = q->used = 0;
	}
	ret = vaccel_queue_acquire(q, &buf);
	if (ret)
		return ret;
	q->cur = buf;
	return 0;
}

/*
 * Makes room for @words words in the current buffer (at most a buffer's
 * worth), moving on to another buffer if need be: packets written there
 * together are submitted together.
 */
static int vaccel_queue_room(struct vaccel_queue *q, uint32_t words)
{
	if (q->error)
		return q->error;
	if (!q->cur || q->used + words > q->cur->words)
		return vaccel_queue_next_buffer(q);
	return 0;
}

/*
 * Counts a command whose packet starts at word @word of the current
 * buffer, and records it there.  A record that cannot be allocated is
 * left out: the command then reads as unknown in a fault record, and
 * recording goes on.
 */
static void vaccel_queue_note(struct vaccel_queue *q, uint32_t word,
			      enum vaccel_command command, uint32_t module_id,
			      unsigned int kernel)
{
	struct vaccel_cmdbuf *buf = q->cur;
	struct vaccel_cmd_record *r;

	q->commands++;
	if (buf->nrecs == buf->recs_cap) {
		uint32_t cap = buf->recs_cap ? buf->recs_cap * 2 : 64;

		r = realloc(buf->recs, cap * sizeof(*r));
		if (!r)
			return;
		buf->recs = r;
		buf->recs_cap = cap;
	}
	buf->recs[buf->nrecs++] = (struct vaccel_cmd_record){
		.index = q->commands,
		.module_id = module_id,
		.kernel = kernel,
		.word = word,
		.command = command,
	};
}

/* Appends a packet of @words words, the command @command (UNKNOWN: none). */
static int vaccel_queue_emit(struct vaccel_queue *q, const uint64_t *pkt,
			     uint32_t words, enum vaccel_command command)
{
	int ret;

	ret = vaccel_queue_room(q, words);
	if (ret)
		return ret;
	memcpy(q->cur->map + q->used, pkt, words * 8);
	if (command != VACCEL_COMMAND_UNKNOWN)
		vaccel_queue_note(q, q->used, command, 0, 0);
	q->used += words;
	return 0;
}

/*
 * Submits what is recorded and the pending waits, and signals @signal
 * (NULL: none) at @point (0: its binary fence), @arm as for
 * vaccel_queue_submit().  With nothing to submit, submits a NOP if @force
 * or waits are pending, else does nothing.
 */
static int vaccel_queue_flush_signal(struct vaccel_queue *q, struct vaccel_event *signal,
				     uint64_t point, bool force, bool arm)
{
	static const uint64_t nop = VACCEL_PKT(DRM_VACCEL_PKT_NOP, 0, 1);
	int ret;

	if (q->error)
		return q->error;
	if (q->used == q->start) {
		if (!force && !q->nwaits && !q->ndwaits)
			return 0;
		ret = vaccel_queue_emit(q, &nop, 1, VACCEL_COMMAND_UNKNOWN);
		if (ret)
			return ret;
	}
	return vaccel_queue_submit(q, signal, point, arm);
}

/* --- the waits and the signal of a command --- */

/*
 * Before the first packet of a command that signals @ev: the next
 * submission's time is noted, and a profiling event gets the engine's
 * clock in its slot's first word.
 */
int vaccel_queue_sig_start(struct vaccel_queue *q, struct vaccel_event *ev)
{
	const uint64_t pkt[] = {
		VACCEL_PKT(DRM_VACCEL_PKT_TIMESTAMP, 0, 2), ev->times_va,
	};

	q->sig_watch = true;
	q->sig_submit_ns = 0;
	if (!(ev->flags & VACCEL_EVENT_PROFILING))
		return 0;
	return vaccel_queue_emit(q, pkt, 2, VACCEL_COMMAND_UNKNOWN);
}

/*
 * After the command: the engine's clock in the slot's second word, and
 * the submission that signals @ev at @point once it has completed.
 */
int vaccel_queue_sig_finish(struct vaccel_queue *q, struct vaccel_event *ev,
			    uint64_t point)
{
	const uint64_t pkt[] = {
		VACCEL_PKT(DRM_VACCEL_PKT_TIMESTAMP, 0, 2), ev->times_va + 8,
	};
	int ret = 0;

	vaccel_event_disarm(ev);
	if (ev->flags & VACCEL_EVENT_PROFILING)
		ret = vaccel_queue_emit(q, pkt, 2, VACCEL_COMMAND_UNKNOWN);
	if (!ret)
		ret = vaccel_queue_flush_signal(q, ev, point, true,
						ev->flags & VACCEL_EVENT_PROFILING);
	q->sig_watch = false;
	return ret;
}

/*
 * Called by every recording function before it records: the start of a
 * command that signals an event.  *@commands receives the count of
 * commands so far, for vaccel_queue_command_end().
 */
int vaccel_queue_command_begin(struct vaccel_queue *q, uint64_t *commands)
{
	if (q->u)
		return vaccel_uq_command_begin(q, commands);
	*commands = q->commands;
	if (!q->sig_ev)
		return 0;
	return vaccel_queue_sig_start(q, q->sig_ev);
}

/*
 * Called after a recording function recorded with result @ret: if it
 * recorded a command and one was to signal an event, the signal.  A call
 * that recorded nothing (an error, a copy of 0 bytes) leaves the signal
 * for the next command.
 */
int vaccel_queue_command_end(struct vaccel_queue *q, uint64_t commands,
				    int ret)
{
	struct vaccel_event *ev = q->sig_ev;

	if (ret || !ev)
		return ret;
	if (q->u)
		return vaccel_uq_command_end(q, commands);
	if (q->commands == commands)
		return 0;
	q->sig_ev = NULL;
	return vaccel_queue_sig_finish(q, ev, q->sig_point);
}

/*
 * Records a command: checks nothing, brackets @record(@q, ...) with the
 * signal that vaccel_queue_set_command_sync() asked for, if any.
 */
#define VACCEL_QUEUE_COMMAND(q, record)					\
	({								\
		uint64_t __commands;					\
		int __ret;						\
									\
		vaccel_queue_lock(q);					\
		__ret = vaccel_queue_command_begin(q, &__commands);	\
		if (!__ret)						\
			__ret = vaccel_queue_command_end(q, __commands, record); \
		vaccel_queue_unlock(q, __ret);				\
	})

/* Whether @sync is a valid one for @q: 0 or -EINVAL. */
static int vaccel_command_sync_check(const struct vaccel_queue *q,
				     const struct vaccel_command_sync *sync)
{
	unsigned int i;

	for (i = 0; i < sizeof(sync->reserved) / sizeof(sync->reserved[0]); i++)
		if (sync->reserved[i])
			return -EINVAL;
	if (sync->wait_count && !sync->waits)
		return -EINVAL;
	if (sync->wait_count > VACCEL_MAX_WAITS)
		return vaccel_error(-E2BIG, "%u waits: a command waits for at most %u events",
				    sync->wait_count, VACCEL_MAX_WAITS);
	for (i = 0; i < sync->wait_count; i++) {
		const struct vaccel_event_point *w = &sync->waits[i];

		if (!w->event)
			return -EINVAL;
		/* A host event is of no device in particular. */
		if (w->event->flags & VACCEL_EVENT_HOST) {
			if (w->point)
				return -EINVAL;
			continue;
		}
		if (w->event->dev != q->dev || !vaccel_event_point_ok(w->event, w->point))
			return -EINVAL;
	}
	if (sync->signal && (sync->signal->flags & VACCEL_EVENT_HOST ||
			     sync->signal->dev != q->dev ||
			     !vaccel_event_point_ok(sync->signal, sync->signal_point)))
		return -EINVAL;
	return 0;
}

/* --- the API --- */

/*
 * Whether @desc asks for a queue @dev can have: 0, -EINVAL or -ENODEV,
 * with the reason in vaccel_last_error_message().
 */
static int vaccel_queue_desc_check(const struct vaccel_device *dev,
				   const struct vaccel_queue_desc *desc)
{
	unsigned int i, count;

	if (desc->engine_class != VACCEL_ENGINE_CLASS_COMPUTE &&
	    desc->engine_class != VACCEL_ENGINE_CLASS_COPY)
		return vaccel_error(-EINVAL, "engine class %u: queues are of the compute or the copy class",
				    desc->engine_class);
	if (desc->priority > VACCEL_PRIORITY_REALTIME)
		return vaccel_error(-EINVAL, "priority %u: the priorities go from 0 to %u",
				    desc->priority, VACCEL_PRIORITY_REALTIME);
	if (desc->flags)
		return vaccel_error(-EINVAL, "unknown queue flags 0x%x", desc->flags);
	for (i = 0; i < sizeof(desc->reserved) / sizeof(desc->reserved[0]); i++)
		if (desc->reserved[i])
			return vaccel_error(-EINVAL, "reserved fields of the queue's description are not zero");
	count = dev->info.engine_count[desc->engine_class];
	if (!count)
		return vaccel_error(-ENODEV, "the device has no %s engine",
				    vaccel_engine_class_name(desc->engine_class));
	if (desc->engine_instance != VACCEL_ENGINE_INSTANCE_ANY &&
	    desc->engine_instance >= count)
		return vaccel_error(-ENODEV, "no %s engine %u: the device has %u (0 to %u)",
				    vaccel_engine_class_name(desc->engine_class),
				    desc->engine_instance, count, count - 1);
	return 0;
}

/* A queue of a device that is not unified, its operands checked. */
int vaccel_queue_create_plain(struct vaccel_device *dev,
			      const struct vaccel_queue_desc *desc,
			      struct vaccel_queue **out)
{
	struct drm_vaccel_context_create create = { 0 };
	struct drm_vaccel_context_destroy destroy = { 0 };
	struct vaccel_queue *q;
	int ret;

	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->dev = dev;
	q->engine_class = desc->engine_class;
	q->priority = desc->priority;
	q->refs = 1;

	create.engine_class = desc->engine_class;
	/* The uapi's "any" is ours. */
	create.engine_instance = desc->engine_instance;
	create.priority = desc->priority;
	if (drmIoctl(dev->fd, DRM_IOCTL_VACCEL_CONTEXT_CREATE, &create)) {
		ret = -errno;
		goto err_free;
	}
	q->context = create.handle;

	ret = vaccel_syncobj_create(dev, &q->timeline);
	if (ret)
		goto err_destroy_context;
	ret = vaccel_syncobj_create(dev, &q->last);
	if (ret)
		goto err_destroy_timeline;

	pthread_mutex_init(&q->lock, NULL);
	*out = q;
	return 0;

err_destroy_timeline:
	vaccel_syncobj_destroy(dev, q->timeline);
err_destroy_context:
	destroy.handle = q->context;
	drmIoctl(dev->fd, DRM_IOCTL_VACCEL_CONTEXT_DESTROY, &destroy);
err_free:
	free(q);
	return ret;
}

static_assert(VACCEL_ENGINE_INSTANCE_ANY == DRM_VACCEL_ENGINE_ANY,
	      "any engine is the uapi's");

VACCEL_EXPORT int vaccel_queue_create_ex(struct vaccel_device *dev,
					 const struct vaccel_queue_desc *desc,
					 struct vaccel_queue **out)
{
	int ret;

	if (!dev || !desc || !out)
		return -EINVAL;
	vaccel_error_clear();
	ret = vaccel_queue_desc_check(dev, desc);
	if (ret)
		return ret;
	if (dev->unified)
		return vaccel_unified_queue_create(dev, desc, out);
	return vaccel_queue_create_plain(dev, desc, out);
}

VACCEL_EXPORT int vaccel_queue_create(struct vaccel_device *dev,
				      enum vaccel_engine_class engine_class,
				      enum vaccel_priority priority,
				      struct vaccel_queue **out)
{
	const struct vaccel_queue_desc desc = {
		.engine_class = engine_class,
		.engine_instance = VACCEL_ENGINE_INSTANCE_ANY,
		.priority = priority,
	};

	return vaccel_queue_create_ex(dev, &desc, out);
}

VACCEL_EXPORT int vaccel_queue_get_info(struct vaccel_queue *q,
					struct vaccel_queue_info *out)
{
	struct drm_vaccel_context_state st;
	struct vaccel_engine_info e;
	int ret;

	if (!q || !out)
		return -EINVAL;
	/* A unified queue: its first member's. */
	if (q->u)
		q = q->u->q[0];
	memset(&st, 0, sizeof(st));
	st.handle = q->context;
	if (drmIoctl(q->dev->fd, DRM_IOCTL_VACCEL_CONTEXT_STATE, &st))
		return -errno;
	ret = vaccel_device_get_engine(q->dev, st.engine_index, &e);
	if (ret)
		return ret == -ENOENT ? -EIO : ret;
	memset(out, 0, sizeof(*out));
	out->engine_class = e.engine_class;
	out->engine_instance = e.instance;
	out->engine_index = st.engine_index;
	out->priority = q->priority;
	return 0;
}

static void vaccel_cmdbuf_free_list(struct vaccel_cmdbuf *buf)
{
	struct vaccel_cmdbuf *next;

	for (; buf; buf = next) {
		next = buf->next;
		vaccel_cmdbuf_free(buf);
	}
}

VACCEL_EXPORT void vaccel_queue_destroy(struct vaccel_queue *q)
{
	struct drm_vaccel_context_destroy destroy = { 0 };
	unsigned int i;
	bool held;

	if (!q)
		return;
	if (q->u) {
		vaccel_unified_queue_destroy(q);
		return;
	}
	pthread_mutex_lock(&q->lock);
	q->dead = true;
	/* Held work never runs: its events fail, and what waits for them. */
	held = q->held;
	vaccel_queue_drop(q, -ECANCELED);
	for (i = 0; i < q->ndwaits; i++)
		vaccel_event_put(q->dwaits[i].ev);
	q->ndwaits = 0;
	/*
	 * Cancels what is pending and returns once the context's jobs are
	 * gone: then no engine reads the DMA buffers any more.
	 */
	destroy.handle = q->context;
	drmIoctl(q->dev->fd, DRM_IOCTL_VACCEL_CONTEXT_DESTROY, &destroy);

	if (q->cur)
		vaccel_cmdbuf_free(q->cur);
	vaccel_cmdbuf_free_list(q->busy);
	vaccel_cmdbuf_free_list(q->free);
	for (i = 0; i < q->nwait_objs; i++)
		vaccel_syncobj_destroy(q->dev, q->wait_objs[i]);
	vaccel_syncobj_destroy(q->dev, q->last);
	vaccel_syncobj_destroy(q->dev, q->timeline);
	q->cur = q->busy = q->free = NULL;
	pthread_mutex_unlock(&q->lock);
	vaccel_defer_lock();
	vaccel_defer_unregister_locked(q);
	vaccel_defer_unlock();
	vaccel_queue_put(q);
	if (held)
		vaccel_defer_sweep();
}

static int vaccel_queue_do_copy(struct vaccel_queue *q, uint64_t dst_va,
				uint64_t src_va, uint64_t size)
{
	const uint64_t pkt[] = {
		VACCEL_PKT(DRM_VACCEL_PKT_COPY, 0, 4), src_va, dst_va, size,
	};

	if (!q)
		return -EINVAL;
	if (q->u)
		return vaccel_uq_copy(q, dst_va, src_va, size);
	if (!size)
		return q->error;
	return vaccel_queue_emit(q, pkt, 4, VACCEL_COMMAND_COPY);
}

VACCEL_EXPORT int vaccel_queue_copy(struct vaccel_queue *q, uint64_t dst_va,
				    uint64_t src_va, uint64_t size)
{
	if (!q)
		return -EINVAL;
	return VACCEL_QUEUE_COMMAND(q, vaccel_queue_do_copy(q, dst_va, src_va, size));
}

static int vaccel_queue_do_fill(struct vaccel_queue *q, uint64_t dst_va,
				uint64_t size, uint32_t value)
{
	const uint64_t pkt[] = {
		VACCEL_PKT(DRM_VACCEL_PKT_FILL, 0, 4), dst_va, size, value,
	};

	if (!q || dst_va % 4 || size % 4)
		return -EINVAL;
	if (q->u)
		return vaccel_uq_fill(q, dst_va, size, value);
	if (!size)
		return q->error;
	return vaccel_queue_emit(q, pkt, 4, VACCEL_COMMAND_FILL);
}

VACCEL_EXPORT int vaccel_queue_fill(struct vaccel_queue *q, uint64_t dst_va,
				    uint64_t size, uint32_t value)
{
	if (!q)
		return -EINVAL;
	return VACCEL_QUEUE_COMMAND(q, vaccel_queue_do_fill(q, dst_va, size, value));
}

/* The flags of a packet with a value of @bits bits; -1 for a bad @bits. */
static int vaccel_width_flags(unsigned int bits)
{
	if (bits == 32)
		return 0;
	if (bits == 64)
		return DRM_VACCEL_PKT_F_64BIT;
	return -1;
}

static int vaccel_queue_do_write(struct vaccel_queue *q, uint64_t va,
				 uint64_t value, unsigned int bits)
{
	int flags = vaccel_width_flags(bits);
	uint64_t pkt[3];

	if (!q || flags < 0 || va % (bits / 8))
		return -EINVAL;
	if (q->u)
		return vaccel_uq_write(q, va, value, bits);
	pkt[0] = VACCEL_PKT(DRM_VACCEL_PKT_WRITE_IMM, flags, 3);
	pkt[1] = va;
	pkt[2] = bits == 32 ? (uint32_t)value : value;
	return vaccel_queue_emit(q, pkt, 3, VACCEL_COMMAND_WRITE);
}

VACCEL_EXPORT int vaccel_queue_write(struct vaccel_queue *q, uint64_t va,
				     uint64_t value, unsigned int bits)
{
	if (!q)
		return -EINVAL;
	return VACCEL_QUEUE_COMMAND(q, vaccel_queue_do_write(q, va, value, bits));
}

static int vaccel_queue_do_timestamp(struct vaccel_queue *q, uint64_t va)
{
	const uint64_t pkt[] = { VACCEL_PKT(DRM_VACCEL_PKT_TIMESTAMP, 0, 2), va };

	if (!q || va % 8)
		return -EINVAL;
	if (q->u)
		return vaccel_uq_timestamp(q, va);
	return vaccel_queue_emit(q, pkt, 2, VACCEL_COMMAND_TIMESTAMP);
}

VACCEL_EXPORT int vaccel_queue_timestamp(struct vaccel_queue *q, uint64_t va)
{
	if (!q)
		return -EINVAL;
	return VACCEL_QUEUE_COMMAND(q, vaccel_queue_do_timestamp(q, va));
}

static int vaccel_queue_do_wait_mem(struct vaccel_queue *q, uint64_t va,
				    uint64_t ref, uint64_t mask,
				    enum vaccel_compare op, unsigned int bits)
{
	int flags = vaccel_width_flags(bits);
	uint64_t pkt[4];

	if (!q || flags < 0 || va % (bits / 8) ||
	    (unsigned int)op > VACCEL_COMPARE_LE)
		return -EINVAL;
	if (q->u)
		return vaccel_uq_wait_mem(q, va, ref, mask, op, bits);
	if (bits == 32) {
		ref = (uint32_t)ref;
		mask = (uint32_t)mask;
	}
	pkt[0] = VACCEL_PKT(DRM_VACCEL_PKT_WAIT_MEM,
			    flags | DRM_VACCEL_PKT_WAIT_OP(op), 4);
	pkt[1] = va;
	pkt[2] = ref;
	pkt[3] = mask;
	return vaccel_queue_emit(q, pkt, 4, VACCEL_COMMAND_WAIT_MEM);
}

VACCEL_EXPORT int vaccel_queue_wait_mem(struct vaccel_queue *q, uint64_t va,
					uint64_t ref, uint64_t mask,
					enum vaccel_compare op, unsigned int bits)
{
	if (!q)
		return -EINVAL;
	return VACCEL_QUEUE_COMMAND(q, vaccel_queue_do_wait_mem(q, va, ref, mask, op,
								  bits));
}

static int vaccel_queue_do_delay(struct vaccel_queue *q, uint64_t ns)
{
	const uint64_t pkt[] = { VACCEL_PKT(DRM_VACCEL_PKT_DELAY, 0, 2), ns };

	if (!q)
		return -EINVAL;
	if (q->u)
		return vaccel_uq_delay(q, ns);
	return vaccel_queue_emit(q, pkt, 2, VACCEL_COMMAND_DELAY);
}

VACCEL_EXPORT int vaccel_queue_delay(struct vaccel_queue *q, uint64_t ns)
{
	if (!q)
		return -EINVAL;
	return VACCEL_QUEUE_COMMAND(q, vaccel_queue_do_delay(q, ns));
}

/* --- DISPATCH --- */

#define VACCEL_DISPATCH_WORDS	11
/* With a workgroup range (uapi 1.7): {first group, group count} more. */
#define VACCEL_DISPATCH_RANGE_WORDS	13

static_assert(VACCEL_LAUNCH_MAX_ARGS % 8 == 0 &&
	      2 + VACCEL_LAUNCH_MAX_ARGS / 8 + VACCEL_DISPATCH_RANGE_WORDS <=
	      VACCEL_QUEUE_BUFFER_SIZE / 8, "a launch fits a DMA buffer");

bool vaccel_stack_size_ok(const struct vaccel_device *dev, uint32_t stack_size)
{
	return stack_size >= 16 && !(stack_size % 16) &&
	       stack_size <= dev->info.max_stack_size;
}

uint64_t vaccel_grid_groups(const uint32_t grid[3], const uint32_t wg[3])
{
	uint64_t groups = 1;
	int i;

	for (i = 0; i < 3; i++) {
		if (!grid[i] || !wg[i] ||
		    __builtin_mul_overflow(groups, (uint64_t)(grid[i] - 1) / wg[i] + 1,
					   &groups))
			return 0;
	}
	return groups;
}

/*
 * Whether the device takes a DISPATCH of these operands, as
 * vaccel_dispatch.c checks them: 0, -EINVAL or -ENOTSUP.
 */
int vaccel_queue_check_dispatch(const struct vaccel_queue *q, uint64_t entry,
				const uint32_t grid[3], const uint32_t wg[3],
				uint32_t local_size, uint32_t stack_size)
{
	const struct drm_vaccel_device_info *info = &q->dev->info;
	uint64_t items = 1, groups = 1;
	bool overflow = false;
	int i;

	if (!grid || !wg || q->engine_class != VACCEL_ENGINE_CLASS_COMPUTE)
		return -EINVAL;
	if (!info->max_workgroup_items)
		return -ENOTSUP;
	if (!entry || entry % 4)
		return -EINVAL;
	for (i = 0; i < 3; i++) {
		if (!grid[i] || !wg[i] || wg[i] > info->max_workgroup_items)
			return -EINVAL;
		items *= wg[i];
		overflow |= __builtin_mul_overflow(groups,
						   (uint64_t)(grid[i] - 1) / wg[i] + 1,
						   &groups);
	}
	if (items > info->max_workgroup_items || overflow)
		return -EINVAL;
	if (local_size > info->max_local_size ||
	    !vaccel_stack_size_ok(q->dev, stack_size) ||
	    items * stack_size > info->max_private_size)
		return -EINVAL;
	return 0;
}

/* Words of a DISPATCH of @count workgroups (0: all of them). */
static uint32_t vaccel_dispatch_words(uint64_t count)
{
	return count ? VACCEL_DISPATCH_RANGE_WORDS : VACCEL_DISPATCH_WORDS;
}

/*
 * The DISPATCH packet at @pkt: 11 words, or 13 with the workgroup range
 * [@first, @first + @count) when @count is not 0.
 */
static void vaccel_dispatch_packet(uint64_t *pkt, uint64_t entry, uint64_t args,
				   const uint32_t grid[3], const uint32_t wg[3],
				   uint32_t local_size, uint32_t stack_size,
				   uint64_t first, uint64_t count)
{
	int i;

	pkt[0] = VACCEL_PKT(DRM_VACCEL_PKT_DISPATCH,
			    count ? DRM_VACCEL_PKT_F_GROUP_RANGE : 0,
			    vaccel_dispatch_words(count));
	pkt[1] = entry;
	pkt[2] = args;
	for (i = 0; i < 3; i++) {
		pkt[3 + i] = grid[i];
		pkt[6 + i] = wg[i];
	}
	pkt[9] = local_size;
	pkt[10] = stack_size;
	if (count) {
		pkt[11] = first;
		pkt[12] = count;
	}
}

/*
 * Whether workgroups [@first, @first + @count) of the grid make a range
 * the device takes (@count 0: the whole grid, no range): 0, -EINVAL, or
 * -ENOTSUP before uapi 1.7.
 */
static int vaccel_range_check(const struct vaccel_queue *q, const uint32_t grid[3],
			      const uint32_t wg[3], uint64_t first, uint64_t count)
{
	uint64_t groups = vaccel_grid_groups(grid, wg);

	if (!count)
		return first ? -EINVAL : 0;
	if (first >= groups || count > groups - first)
		return -EINVAL;
	return q->dev->info.uapi_minor < 7 ? -ENOTSUP : 0;
}

int vaccel_queue_record_dispatch(struct vaccel_queue *q, uint64_t entry_va,
				 uint64_t args_va, const uint32_t grid[3],
				 const uint32_t workgroup[3], uint32_t local_size,
				 uint32_t stack_size, uint64_t first, uint64_t count)
{
	uint64_t pkt[VACCEL_DISPATCH_RANGE_WORDS];

	vaccel_dispatch_packet(pkt, entry_va, args_va, grid, workgroup, local_size,
			       stack_size, first, count);
	return vaccel_queue_emit(q, pkt, vaccel_dispatch_words(count),
				 VACCEL_COMMAND_DISPATCH);
}

static int vaccel_queue_do_dispatch(struct vaccel_queue *q, uint64_t entry_va,
				    uint64_t args_va, const uint32_t grid[3],
				    const uint32_t workgroup[3],
				    uint32_t local_size, uint32_t stack_size)
{
	int ret;

	if (!q)
		return -EINVAL;
	if (q->u)
		return vaccel_uq_dispatch(q, entry_va, args_va, grid, workgroup,
					  local_size, stack_size);
	ret = vaccel_queue_check_dispatch(q, entry_va, grid, workgroup, local_size,
					  stack_size);
	if (ret)
		return ret;
	return vaccel_queue_record_dispatch(q, entry_va, args_va, grid, workgroup,
					    local_size, stack_size, 0, 0);
}

VACCEL_EXPORT int vaccel_queue_dispatch(struct vaccel_queue *q, uint64_t entry_va,
					uint64_t args_va, const uint32_t grid[3],
					const uint32_t workgroup[3],
					uint32_t local_size, uint32_t stack_size)
{
	if (!q)
		return -EINVAL;
	return VACCEL_QUEUE_COMMAND(q, vaccel_queue_do_dispatch(q, entry_va, args_va, grid,
								  workgroup, local_size,
								  stack_size));
}

/*
 * The argument block rides in a NOP packet just before the DISPATCH, in
 * the same buffer and the same submission: the queue reuses the buffer
 * only once the device is done with the DISPATCH.  A word of padding in
 * the NOP puts the block on 16 bytes (buffers are page aligned).
 */
int vaccel_queue_record_launch(struct vaccel_queue *q, const struct vaccel_kernel *k,
			       const void *args, size_t args_size,
			       const uint32_t grid[3], const uint32_t workgroup[3],
			       const struct vaccel_launch_plan *plan)
{
	uint64_t first_group = plan->first, group_count = plan->count;
	uint32_t arg_words = (args_size + 7) / 8, nop = 0, pad;
	uint32_t local_size = plan->local_size, stack_size = plan->stack_size;
	uint32_t words = vaccel_dispatch_words(group_count);
	uint64_t *p, args_va = 0, entry = k->entry;
	int ret;

	ret = vaccel_queue_check_dispatch(q, entry, grid, workgroup, local_size,
					  stack_size);
	if (!ret)
		ret = vaccel_range_check(q, grid, workgroup, first_group, group_count);
	if (ret)
		return ret;
	if (args_size > VACCEL_LAUNCH_MAX_ARGS)
		return -E2BIG;
	if (args_size) {
		ret = vaccel_queue_room(q, 2 + arg_words + words);
		if (ret)
			return ret;
		pad = (q->used + 1) % 2;
		nop = 1 + pad + arg_words;
		p = q->cur->map + q->used;
		p[0] = VACCEL_PKT(DRM_VACCEL_PKT_NOP, 0, nop);
		if (pad)
			p[1] = 0;
		/* The block's tail, if not a whole word, is zeros. */
		p[nop - 1] = 0;
		memcpy(p + 1 + pad, args, args_size);
		args_va = q->cur->va + (uint64_t)(q->used + 1 + pad) * 8;
	} else {
		ret = vaccel_queue_room(q, words);
		if (ret)
			return ret;
	}
	vaccel_dispatch_packet(q->cur->map + q->used + nop, entry, args_va, grid,
			       workgroup, local_size, stack_size, first_group,
			       group_count);
	vaccel_queue_note(q, q->used + nop, VACCEL_COMMAND_LAUNCH, k->mod->id,
			  k - k->mod->kernels);
	q->used += nop + words;
	return 0;
}

/* Takes the error of an earlier release of held work, if any. */
static int vaccel_queue_take_kick_error(struct vaccel_queue *q)
{
	int ret = q->kick_error;

	q->kick_error = 0;
	return ret;
}

VACCEL_EXPORT int vaccel_queue_flush(struct vaccel_queue *q)
{
	int ret;

	if (!q)
		return -EINVAL;
	if (q->u)
		return vaccel_uq_flush(q);
	vaccel_queue_lock(q);
	ret = vaccel_queue_flush_signal(q, NULL, 0, false, false);
	if (!ret && q->held)
		vaccel_queue_kick(q);
	if (!ret)
		ret = vaccel_queue_take_kick_error(q);
	return vaccel_queue_unlock(q, ret);
}

int vaccel_queue_submit_pending(struct vaccel_queue *q)
{
	return vaccel_queue_flush_signal(q, NULL, 0, false, false);
}

/* The errno that explains a ban: the fault's, the hang's or the time limit's. */
static int vaccel_queue_ban_error(const struct drm_vaccel_context_state *st)
{
	if (st->ban_reason == DRM_VACCEL_BAN_HANG ||
	    st->ban_reason == DRM_VACCEL_BAN_TIME_LIMIT)
		return -ETIMEDOUT;
	if (!(st->flags & DRM_VACCEL_CONTEXT_FAULTED))
		return 0;
	return st->fault_reason == DRM_VACCEL_FAULT_MALFORMED ? -EINVAL : -EFAULT;
}

int vaccel_queue_get_stats_1_5(struct vaccel_queue *q, struct vaccel_queue_stats *stats);
int vaccel_queue_get_stats_1_3(struct vaccel_queue *q, void *stats);

/* Since libvaccel 1.5, with the structure's reserved space. */
VACCEL_EXPORT int vaccel_queue_get_stats_1_5(struct vaccel_queue *q,
					     struct vaccel_queue_stats *stats)
{
	struct drm_vaccel_context_state st;

	if (!q || !stats)
		return -EINVAL;
	if (q->u)
		return vaccel_uq_get_stats(q, stats);
	memset(&st, 0, sizeof(st));
	st.handle = q->context;
	if (drmIoctl(q->dev->fd, DRM_IOCTL_VACCEL_CONTEXT_STATE, &st))
		return -errno;
	vaccel_queue_lock(q);
	memset(stats, 0, sizeof(*stats));
	stats->engine_ns = st.engine_ns;
	stats->preemptions = st.preemptions;
	stats->guilty_resets = st.guilty_resets;
	stats->innocent_resets = st.innocent_resets;
	if (st.flags & DRM_VACCEL_CONTEXT_BANNED) {
		stats->error = vaccel_queue_ban_error(&st) ?: -ECANCELED;
		vaccel_queue_fault_from_state(q, &st);
	}
	return vaccel_queue_unlock(q, 0);
}
VACCEL_SYMVER(vaccel_queue_get_stats_1_5, "vaccel_queue_get_stats@@VACCEL_1.5");

/* Programs built before 1.5 pass the structure without its reserved space. */
VACCEL_EXPORT int vaccel_queue_get_stats_1_3(struct vaccel_queue *q, void *stats)
{
	struct vaccel_queue_stats s;
	int ret;

	if (!stats)
		return -EINVAL;
	ret = vaccel_queue_get_stats_1_5(q, &s);
	if (!ret)
		memcpy(stats, &s, offsetof(struct vaccel_queue_stats, reserved));
	return ret;
}
VACCEL_SYMVER(vaccel_queue_get_stats_1_3, "vaccel_queue_get_stats@VACCEL_1.3");

/* --- fault records --- */

/* The buffer of @q that holds GPU address @va, or NULL. */
static struct vaccel_cmdbuf *vaccel_queue_buffer_at(struct vaccel_queue *q, uint64_t va)
{
	struct vaccel_cmdbuf *lists[] = { q->cur, q->busy, q->free };
	struct vaccel_cmdbuf *buf;
	unsigned int i;

	/* The current buffer is on no list: its link is NULL. */
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		for (buf = lists[i]; buf; buf = buf->next)
			if (va >= buf->va && va - buf->va < (uint64_t)buf->words * 8)
				return buf;
	return NULL;
}

/* The record of the command whose packet starts at @word of @buf, or NULL. */
static const struct vaccel_cmd_record *
vaccel_cmdbuf_record_at(const struct vaccel_cmdbuf *buf, uint64_t word)
{
	uint32_t lo = 0, hi = buf->nrecs;

	/* Recorded in the order of their words. */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (buf->recs[mid].word < word)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < buf->nrecs && buf->recs[lo].word == word ? &buf->recs[lo] : NULL;
}

/*
 * Which command of @q the failure @f names (its submission, buffer and
 * packet), and what its addresses are in the loaded modules.
 */
static void vaccel_queue_attribute(struct vaccel_queue *q, struct vaccel_fault_info *f)
{
	const struct vaccel_cmd_record *rec = NULL;
	const struct vaccel_cmdbuf *buf;
	uint64_t word, entry = 0;

	buf = f->submission ? vaccel_queue_buffer_at(q, f->buffer_va) : NULL;
	/* Its records are of the submissions since it was recorded from the start. */
	if (buf && buf->first_point && f->submission >= buf->first_point &&
	    f->submission <= buf->point && !(f->buffer_va % 8) && !(f->packet_offset % 8)) {
		word = (f->buffer_va - buf->va) / 8 + f->packet_offset / 8;
		rec = vaccel_cmdbuf_record_at(buf, word);
	}
	if (rec) {
		f->command = rec->command;
		f->command_index = rec->index;
		/* The DISPATCH still in the buffer names the kernel it ran. */
		if (rec->command == VACCEL_COMMAND_DISPATCH ||
		    rec->command == VACCEL_COMMAND_LAUNCH)
			entry = buf->map[rec->word + 1];
	}
	vaccel_module_describe(q->dev, rec ? rec->module_id : 0, rec ? rec->kernel : 0,
			       entry, f->pc, f, q->fault_kernel, q->fault_function,
			       sizeof(q->fault_kernel));
}

/*
 * Fills @q's fault record from the state of its banned context, once: a
 * ban, and the record with it, never changes.
 */
static void vaccel_queue_fault_from_state(struct vaccel_queue *q,
					  const struct drm_vaccel_context_state *st)
{
	struct vaccel_fault_info *f = &q->fault;

	if (q->fault_valid || !(st->flags & DRM_VACCEL_CONTEXT_BANNED))
		return;
	memset(f, 0, sizeof(*f));
	f->failure = st->ban_reason;
	/* Before uapi 1.3, a ban was a fault's. */
	if (!f->failure && (st->flags & DRM_VACCEL_CONTEXT_FAULTED))
		f->failure = VACCEL_FAILURE_FAULT;
	f->error = vaccel_queue_ban_error(st) ?: -ECANCELED;
	if (st->flags & DRM_VACCEL_CONTEXT_FAULTED) {
		f->reason = st->fault_reason;
		f->access = st->fault_access;
		f->va = st->fault_va;
		f->pc = st->fault_pc;
	}
	f->submission = st->ban_job;
	f->buffer_va = st->ban_buffer_va;
	f->packet_offset = st->ban_job ? st->ban_offset : st->fault_offset;
	vaccel_queue_attribute(q, f);
	q->fault_valid = true;
}

/*
 * Notes @q's failure as soon as it is seen, while the modules of its
 * launches are surely still loaded; an error here only delays it to
 * vaccel_queue_get_fault().
 */
static void vaccel_queue_snapshot_fault(struct vaccel_queue *q)
{
	struct drm_vaccel_context_state st = { .handle = q->context };

	if (!q->fault_valid && !drmIoctl(q->dev->fd, DRM_IOCTL_VACCEL_CONTEXT_STATE, &st))
		vaccel_queue_fault_from_state(q, &st);
}

VACCEL_EXPORT int vaccel_queue_get_fault(struct vaccel_queue *q,
					 struct vaccel_fault_info *out)
{
	struct drm_vaccel_context_state st;

	if (!q || !out)
		return -EINVAL;
	if (q->u)
		return vaccel_uq_get_fault(q, out);
	vaccel_queue_lock(q);
	if (!q->fault_valid) {
		memset(&st, 0, sizeof(st));
		st.handle = q->context;
		if (drmIoctl(q->dev->fd, DRM_IOCTL_VACCEL_CONTEXT_STATE, &st))
			return vaccel_queue_unlock(q, -errno);
		vaccel_queue_fault_from_state(q, &st);
	}
	if (!q->fault_valid)
		memset(out, 0, sizeof(*out));
	else
		*out = q->fault;
	return vaccel_queue_unlock(q, 0);
}

/*
 * Flushes @q and waits until it holds no work: set host events release
 * it, failed ones drop it.  Returns with @q's lock held.
 */
static int vaccel_queue_flush_held(struct vaccel_queue *q)
{
	bool changed;
	uint64_t gen;
	int ret;

	for (;;) {
		gen = vaccel_defer_generation();
		vaccel_queue_lock(q);
		ret = vaccel_queue_flush_signal(q, NULL, 0, false, false);
		changed = !ret && q->held && vaccel_queue_kick(q);
		if (!ret)
			ret = vaccel_queue_take_kick_error(q);
		if (ret || !q->held)
			return ret;
		/* Not under the queue's lock: the releasing thread needs it. */
		vaccel_queue_unlock(q, 0);
		if (changed)
			vaccel_defer_sweep();
		else
			vaccel_defer_wait_change(gen, INT64_MAX);
	}
}

/* Waits for the submitted work of @q; its lock held. */
static int vaccel_queue_finish_locked(struct vaccel_queue *q)
{
	int ret, status;

	if (!q->submitted)
		return 0;
	ret = vaccel_queue_wait_point(q, q->submitted);
	if (ret)
		return ret;

	ret = vaccel_syncobj_status(q->dev, q->last, 0, &status);
	if (ret)
		return ret;
	if (status > 0)
		return 0;
	/* Signalled, so a status of 0 (pending) cannot happen. */
	if (!status)
		return -EIO;
	/* Failed work: the context takes no more. */
	q->error = -ECANCELED;
	vaccel_queue_snapshot_fault(q);
	/*
	 * -ECANCELED is what the buffers after a faulting or hung one get:
	 * report the fault or the hang itself.
	 */
	if (status == -ECANCELED && q->fault_valid)
		return q->fault.error;
	return status;
}

VACCEL_EXPORT int vaccel_queue_finish(struct vaccel_queue *q)
{
	int ret;

	if (!q)
		return -EINVAL;
	if (q->u)
		return vaccel_uq_finish(q);
	ret = vaccel_queue_flush_held(q);
	if (!ret)
		ret = vaccel_queue_finish_locked(q);
	return vaccel_queue_unlock(q, ret);
}

/*
 * The point vaccel_queue_signal() and vaccel_queue_wait_event() use:
 * 0 for a binary event; for a timeline, the last point submitted,
 * signalled or held back to be, plus @next.
 */
static int vaccel_event_next_point(struct vaccel_event *ev, uint64_t next,
				   uint64_t *point)
{
	int ret;

	*point = 0;
	if (!(ev->flags & VACCEL_EVENT_TIMELINE))
		return 0;
	ret = vaccel_event_last_point(ev->n ? ev->members[0] : ev, point);
	*point += next;
	return ret;
}

VACCEL_EXPORT int vaccel_queue_signal(struct vaccel_queue *q,
				      struct vaccel_event *ev)
{
	uint64_t point;
	int ret;

	if (!q || !ev || ev->dev != q->dev || ev->flags & VACCEL_EVENT_HOST)
		return -EINVAL;
	ret = vaccel_event_next_point(ev, 1, &point);
	if (ret)
		return ret;
	if (q->u)
		return vaccel_uq_signal(q, ev, point);
	vaccel_queue_lock(q);
	return vaccel_queue_unlock(q, vaccel_queue_signal_at(q, ev, point));
}

/* Flushes @q, whose work so far then signals @point of @ev (0: binary). */
int vaccel_queue_signal_at(struct vaccel_queue *q, struct vaccel_event *ev,
			   uint64_t point)
{
	vaccel_event_disarm(ev);
	return vaccel_queue_flush_signal(q, ev, point, true, false);
}

/*
 * Whether a wait for @point of @ev cannot go to the kernel now: 1 if it
 * must be deferred (a host event not set, a pending event), with *@status
 * the failure it has already (a failed host event, a dropped command), 0
 * if it can (an event with a fence), or -ENOENT if there is nothing to
 * wait for (a host event set to 0).
 */
static int vaccel_wait_classify(struct vaccel_event *ev, uint64_t point, int *status)
{
	uint64_t submitted = 0;
	unsigned int held;
	int ret;

	*status = 0;
	vaccel_defer_lock();
	if (ev->flags & VACCEL_EVENT_HOST) {
		ret = ev->status == 0 ? -ENOENT : 1;
		*status = ev->status < 0 ? ev->status : 0;
		vaccel_defer_unlock();
		return ret;
	}
	held = ev->held;
	if (ev->fail_status && ev->fail_point == point)
		*status = ev->fail_status;
	vaccel_defer_unlock();
	if (*status)
		return 1;
	if (!held || ev->n)
		return 0;
	if (!point)
		return 1;
	/* A timeline: the points submitted already have their fences. */
	ret = vaccel_event_get_point_submitted(ev, &submitted);
	if (ret)
		return ret;
	return point > submitted;
}

/*
 * Gets @q's next submission ready for another wait: what is recorded so
 * far is submitted (it does not wait), and there is room for the wait.
 */
static int vaccel_queue_wait_room(struct vaccel_queue *q)
{
	int ret;

	if (q->error)
		return q->error;
	/* What is recorded so far does not wait. */
	if (q->used > q->start) {
		ret = vaccel_queue_submit(q, NULL, 0, false);
		if (ret)
			return ret;
	}
	/* Full: the waits so far go with a NOP. */
	if (q->nwaits + q->ndwaits == VACCEL_QUEUE_MAX_WAITS)
		return vaccel_queue_flush_signal(q, NULL, 0, false, false);
	return 0;
}

/*
 * Gets the wait syncobj of @q's next submission ready: what is recorded so
 * far is submitted (it does not wait), and a slot is free.
 */
static int vaccel_queue_wait_slot(struct vaccel_queue *q)
{
	int ret;

	ret = vaccel_queue_wait_room(q);
	if (ret)
		return ret;
	if (q->nwaits == q->nwait_objs) {
		ret = vaccel_syncobj_create(q->dev, &q->wait_objs[q->nwait_objs]);
		if (ret)
			return ret;
		q->nwait_objs++;
	}
	return 0;
}

int vaccel_queue_wait_sync_file(struct vaccel_queue *q, int fd)
{
	int ret;

	ret = vaccel_queue_wait_slot(q);
	if (ret)
		return ret;
	if (drmSyncobjImportSyncFile(q->dev->fd, q->wait_objs[q->nwaits], fd))
		return -errno;
	q->nwaits++;
	return 0;
}

/* The next submission of @q waits for @point of @ev (0: its binary fence). */
int vaccel_queue_wait_at(struct vaccel_queue *q, struct vaccel_event *ev,
			 uint64_t point)
{
	int ret;

	ret = vaccel_queue_wait_slot(q);
	if (ret)
		return ret;
	/* A snapshot of the fence; -EINVAL if there is none. */
	if (drmSyncobjTransfer(q->dev->fd, q->wait_objs[q->nwaits], 0,
			       ev->handle, point, 0))
		return -errno;
	q->nwaits++;
	return 0;
}

/*
 * The next submission of a plain queue @q waits for @point of @ev: in the
 * kernel if the event has a fence, else as a deferred wait, which makes
 * the queue hold its work from then on.
 */
static int vaccel_queue_wait_deferrable(struct vaccel_queue *q, struct vaccel_event *ev,
					uint64_t point)
{
	int ret, status;

	ret = vaccel_wait_classify(ev, point, &status);
	if (ret == -ENOENT)
		return 0;
	if (ret < 0)
		return ret;
	if (!ret)
		return vaccel_queue_wait_at(q, ev, point);
	ret = vaccel_queue_wait_room(q);
	if (ret)
		return ret;
	vaccel_event_get(ev);
	q->dwaits[q->ndwaits++] = (struct vaccel_dwait){
		.ev = ev, .point = point, .status = status,
	};
	vaccel_defer_lock();
	vaccel_defer_register_locked(q);
	vaccel_defer_unlock();
	return 0;
}

/* Whether a wait for @ev on a unified queue would have to be deferred. */
static bool vaccel_wait_needs_defer(struct vaccel_event *ev, uint64_t point)
{
	int status;

	return vaccel_wait_classify(ev, point, &status) == 1 ||
	       ev->flags & VACCEL_EVENT_HOST;
}

/*
 * The waits of @sync for the next submission of @q, all or none: on an
 * error, the waits taken before are undone.
 */
static int vaccel_queue_take_waits(struct vaccel_queue *q,
				   const struct vaccel_command_sync *sync)
{
	unsigned int i, nwaits, ndwaits;
	int ret = 0;

	if (q->error)
		return q->error;
	/* What is recorded so far does not wait. */
	if (q->used > q->start) {
		ret = vaccel_queue_submit(q, NULL, 0, false);
		if (ret)
			return ret;
	}
	/*
	 * All the waits in the same submission, or none of them: the
	 * pending waits go first if they would not fit together.
	 */
	if (q->nwaits + q->ndwaits + sync->wait_count > VACCEL_QUEUE_MAX_WAITS) {
		ret = vaccel_queue_flush_signal(q, NULL, 0, false, false);
		if (ret)
			return ret;
	}
	/* The waits now submit nothing: undo is a count. */
	nwaits = q->nwaits;
	ndwaits = q->ndwaits;
	for (i = 0; i < sync->wait_count && !ret; i++)
		ret = vaccel_queue_wait_deferrable(q, sync->waits[i].event,
						   sync->waits[i].point);
	if (ret && ret != -ECANCELED) {
		q->nwaits = nwaits;
		while (q->ndwaits > ndwaits)
			vaccel_event_put(q->dwaits[--q->ndwaits].ev);
	}
	return ret;
}

static int vaccel_queue_set_command_sync_locked(struct vaccel_queue *q,
						const struct vaccel_command_sync *sync)
{
	unsigned int i;
	int ret;

	ret = vaccel_command_sync_check(q, sync);
	if (ret)
		return ret;
	if (q->group || (q->sig_ev && sync->signal))
		return -EBUSY;
	if (q->u) {
		for (i = 0; i < sync->wait_count; i++)
			if (vaccel_wait_needs_defer(sync->waits[i].event, sync->waits[i].point))
				return vaccel_error(-ENOTSUP, "a unified queue cannot wait for a host event or a pending one");
		ret = vaccel_uq_wait_points(q, sync->waits, sync->wait_count);
	} else {
		ret = vaccel_queue_take_waits(q, sync);
	}
	if (ret)
		return ret;
	if (sync->signal) {
		q->sig_ev = sync->signal;
		q->sig_point = sync->signal_point;
	}
	return 0;
}

VACCEL_EXPORT int vaccel_queue_set_command_sync(struct vaccel_queue *q,
						const struct vaccel_command_sync *sync)
{
	if (!q || !sync)
		return -EINVAL;
	vaccel_error_clear();
	vaccel_queue_lock(q);
	return vaccel_queue_unlock(q, vaccel_queue_set_command_sync_locked(q, sync));
}

VACCEL_EXPORT int vaccel_queue_wait_event(struct vaccel_queue *q,
					  struct vaccel_event *ev)
{
	uint64_t point;
	int ret;

	if (!q || !ev || (!(ev->flags & VACCEL_EVENT_HOST) && ev->dev != q->dev))
		return -EINVAL;
	vaccel_error_clear();
	ret = vaccel_event_next_point(ev, 0, &point);
	if (ret)
		return ret;
	/* A timeline that never moved is signalled at point 0. */
	if (ev->flags & VACCEL_EVENT_TIMELINE && !point)
		return q->u ? q->u->error : q->error;
	if (q->u) {
		if (vaccel_wait_needs_defer(ev, point))
			return vaccel_error(-ENOTSUP, "a unified queue cannot wait for a host event or a pending one");
		return vaccel_uq_wait_point(q, ev, point);
	}
	vaccel_queue_lock(q);
	return vaccel_queue_unlock(q, vaccel_queue_wait_deferrable(q, ev, point));
}

/* --- command groups --- */

static int vaccel_queue_begin_group_locked(struct vaccel_queue *q,
					   const struct vaccel_command_sync *sync)
{
	struct vaccel_event *ev;
	int ret;

	if (q->group || q->sig_ev)
		return -EBUSY;
	if (sync) {
		ret = vaccel_queue_set_command_sync_locked(q, sync);
		if (ret)
			return ret;
	}
	/* The signal is the group's, not its first command's. */
	ev = q->sig_ev;
	q->sig_ev = NULL;
	if (ev) {
		ret = vaccel_queue_sig_start(q, ev);
		if (ret) {
			q->sig_watch = false;
			return ret;
		}
	}
	q->group = true;
	q->group_ev = ev;
	q->group_point = ev ? q->sig_point : 0;
	return 0;
}

VACCEL_EXPORT int vaccel_queue_begin_group(struct vaccel_queue *q,
					   const struct vaccel_command_sync *sync)
{
	if (!q)
		return -EINVAL;
	if (q->u)
		return vaccel_error(-ENOTSUP, "command groups are not supported on a unified device");
	vaccel_error_clear();
	vaccel_queue_lock(q);
	return vaccel_queue_unlock(q, vaccel_queue_begin_group_locked(q, sync));
}

static int vaccel_queue_end_group_locked(struct vaccel_queue *q)
{
	struct vaccel_event *ev = q->group_ev;
	int ret = 0;

	if (!q->group)
		return -EINVAL;
	q->group = false;
	q->group_ev = NULL;
	if (ev)
		ret = vaccel_queue_sig_finish(q, ev, q->group_point);
	else if (q->doom)
		/* What the group recorded since its start was dropped goes too. */
		ret = vaccel_queue_flush_signal(q, NULL, 0, false, false);
	q->doom = 0;
	return ret;
}

VACCEL_EXPORT int vaccel_queue_end_group(struct vaccel_queue *q)
{
	if (!q || q->u)
		return -EINVAL;
	vaccel_queue_lock(q);
	return vaccel_queue_unlock(q, vaccel_queue_end_group_locked(q));
}

/* --- deferred submission --- */

/* The queues that hold work, under the deferral lock. */
static struct vaccel_queue *vaccel_defer_queues;

void vaccel_defer_register_locked(struct vaccel_queue *q)
{
	if (q->registered)
		return;
	q->reg_prev = NULL;
	q->reg_next = vaccel_defer_queues;
	if (q->reg_next)
		q->reg_next->reg_prev = q;
	vaccel_defer_queues = q;
	q->registered = true;
}

void vaccel_defer_unregister_locked(struct vaccel_queue *q)
{
	if (!q->registered)
		return;
	if (q->reg_prev)
		q->reg_prev->reg_next = q->reg_next;
	else
		vaccel_defer_queues = q->reg_next;
	if (q->reg_next)
		q->reg_next->reg_prev = q->reg_prev;
	q->registered = false;
}

/* Drops a reference to @q; the last one frees it. */
static void vaccel_queue_put(struct vaccel_queue *q)
{
	bool last;

	vaccel_defer_lock();
	last = !--q->refs;
	vaccel_defer_unlock();
	if (!last)
		return;
	pthread_mutex_destroy(&q->lock);
	free(q);
}

/* Frees held submission @h, dropping what it holds. */
static void vaccel_held_free(struct vaccel_queue *q, struct vaccel_held *h)
{
	unsigned int i;

	for (i = 0; i < h->nwaits; i++)
		vaccel_syncobj_destroy(q->dev, h->waits[i]);
	for (i = 0; i < h->ndwaits; i++)
		vaccel_event_put(h->dwaits[i].ev);
	if (h->signal)
		vaccel_event_put(h->signal);
	h->buf->held--;
	free(h);
}

/*
 * Drops every held submission of @q, and the work recorded after them, its
 * events failing with @status.  An open group is dropped to its end.
 */
static void vaccel_queue_drop(struct vaccel_queue *q, int status)
{
	struct vaccel_held *h;

	if (!q->held)
		return;
	while ((h = q->held)) {
		q->held = h->next;
		if (h->signal)
			vaccel_event_fail_held(h->signal, h->point, status);
		vaccel_held_free(q, h);
	}
	q->held_tail = NULL;
	q->start = q->used;
	if (q->group)
		q->doom = status;
	vaccel_defer_lock();
	vaccel_defer_changed();
	vaccel_defer_unlock();
}

/*
 * Whether the deferred waits of held submission @h are resolved: 1 if one
 * still waits (an unset host event, a pending event), a negative status if
 * one failed, 0 if none does: then *@objs holds the syncobjs of the
 * fences to wait for, *@nobjs of them, created here.
 */
static int vaccel_held_resolve(struct vaccel_queue *q, const struct vaccel_held *h,
			       uint32_t *objs, unsigned int *nobjs)
{
	const struct vaccel_dwait *d;
	unsigned int i;
	int ret, status;

	*nobjs = 0;
	for (i = 0; i < h->ndwaits; i++) {
		d = &h->dwaits[i];
		if (d->status)
			return d->status;
		ret = vaccel_wait_classify(d->ev, d->point, &status);
		if (ret == 1)
			return status ?: 1;
		if (ret < 0 && ret != -ENOENT)
			return 1;
	}
	for (i = 0; i < h->ndwaits; i++) {
		d = &h->dwaits[i];
		if (d->ev->flags & VACCEL_EVENT_HOST)
			continue;
		ret = vaccel_syncobj_create(q->dev, &objs[*nobjs]);
		if (ret)
			goto err;
		/* No fence: reset since; there is nothing to wait for. */
		if (drmSyncobjTransfer(q->dev->fd, objs[*nobjs], 0, d->ev->handle,
				       d->point, 0))
			vaccel_syncobj_destroy(q->dev, objs[*nobjs]);
		else
			(*nobjs)++;
	}
	return 0;

err:
	while (*nobjs)
		vaccel_syncobj_destroy(q->dev, objs[--*nobjs]);
	return 1;
}

/* Submits held submission @h, whose waits are the @nobjs syncobjs @objs too. */
static int vaccel_held_submit(struct vaccel_queue *q, struct vaccel_held *h,
			      const uint32_t *objs, unsigned int nobjs)
{
	uint32_t waits[VACCEL_QUEUE_MAX_WAITS];
	int ret;

	memcpy(waits, h->waits, h->nwaits * sizeof(waits[0]));
	memcpy(waits + h->nwaits, objs, nobjs * sizeof(waits[0]));
	if (h->watch && !q->rel_submit_ns)
		q->rel_submit_ns = vaccel_now_ns();
	ret = vaccel_queue_submit_range(q, h->buf, h->start, h->end, waits,
					h->nwaits + nobjs, h->signal, h->point);
	if (ret)
		return ret;
	if (h->signal) {
		if (h->arm)
			vaccel_event_arm(h->signal, h->point, q->rel_submit_ns);
		q->rel_submit_ns = 0;
		/* Its fence exists: the event is no longer pending. */
		vaccel_defer_lock();
		h->signal->held--;
		vaccel_defer_changed();
		vaccel_defer_unlock();
	}
	return 0;
}

/*
 * Submits the held work of @q that waits for nothing unset any more,
 * oldest first, and drops it from the first that waits for a failed
 * event.  Called with @q's lock held.  Return: whether anything changed.
 */
static bool vaccel_queue_kick(struct vaccel_queue *q)
{
	uint32_t objs[VACCEL_QUEUE_MAX_WAITS];
	struct vaccel_held *h;
	bool changed = false;
	unsigned int nobjs = 0, i;
	int ret;

	while ((h = q->held)) {
		ret = h->doom ?: q->error ?: vaccel_held_resolve(q, h, objs, &nobjs);
		if (ret == 1)
			break;
		if (ret < 0) {
			vaccel_queue_drop(q, ret);
			changed = true;
			break;
		}
		ret = vaccel_held_submit(q, h, objs, nobjs);
		for (i = 0; i < nobjs; i++)
			vaccel_syncobj_destroy(q->dev, objs[i]);
		if (ret == -ECANCELED) {
			vaccel_queue_drop(q, ret);
			changed = true;
			break;
		}
		if (ret) {
			q->kick_error = ret;
			break;
		}
		q->held = h->next;
		if (!q->held)
			q->held_tail = NULL;
		vaccel_held_free(q, h);
		changed = true;
	}
	if (!vaccel_queue_holding(q)) {
		vaccel_defer_lock();
		vaccel_defer_unregister_locked(q);
		vaccel_defer_unlock();
	}
	return changed;
}

void vaccel_defer_sweep(void)
{
	struct vaccel_queue **qs, *q;
	unsigned int n, i;
	bool changed;

	do {
		changed = false;
		vaccel_defer_lock();
		for (n = 0, q = vaccel_defer_queues; q; q = q->reg_next)
			n++;
		qs = n ? malloc(n * sizeof(*qs)) : NULL;
		if (!qs) {
			/* Left to the owners' next calls. */
			vaccel_defer_unlock();
			return;
		}
		for (i = 0, q = vaccel_defer_queues; q; q = q->reg_next, i++) {
			qs[i] = q;
			q->refs++;
		}
		vaccel_defer_unlock();
		for (i = 0; i < n; i++) {
			pthread_mutex_lock(&qs[i]->lock);
			if (!qs[i]->dead)
				changed |= vaccel_queue_kick(qs[i]);
			pthread_mutex_unlock(&qs[i]->lock);
		}
		for (i = 0; i < n; i++)
			vaccel_queue_put(qs[i]);
		free(qs);
	} while (changed);
}

void vaccel_queue_lock(struct vaccel_queue *q)
{
	if (!q->u)
		pthread_mutex_lock(&q->lock);
}

/*
 * Ends a public call on @q that returns @ret: releases what @q can, and
 * then, without its lock, what that unblocked on other queues.
 */
int vaccel_queue_unlock(struct vaccel_queue *q, int ret)
{
	bool changed = false;

	if (q->u)
		return ret;
	if (vaccel_queue_holding(q))
		changed = vaccel_queue_kick(q);
	pthread_mutex_unlock(&q->lock);
	if (changed)
		vaccel_defer_sweep();
	return ret;
}
