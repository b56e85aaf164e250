// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Device coredumps
 *
 * When a buffer hangs, faults or uses up its time limit, and when an engine
 * or the device is reset, the device dumps its state through the kernel's
 * devcoredump framework, in the binary format of
 * ``uapi/drm/vaccel_coredump.h`` (see "Coredump format"), which
 * ``vaccel-coredump`` decodes.  A dump holds the engine's HW queue and
 * arbiter (every engine's, for a device reset), the guilty context and who
 * created it, the packet the buffer stopped at with an excerpt of its DMA
 * buffer, the RV64 state of the work-items of a DISPATCH in flight, and for
 * a fault the page-table walk of the address.
 *
 * **Two halves.**  The events happen on an engine's thread, between the
 * start of a buffer and its fence (see "Engines"): there, nothing may wait
 * for memory, and no lock may be taken that anyone holds while waiting for
 * a fence.  So the capture writes, with plain stores, into a snapshot that
 * each device allocated when it was created, and takes only the locks the
 * engine takes anyway: its own spinlock, for the HW queue and the contexts'
 * state, and its TLB's lock, to read the buffer and walk the page table.
 * A worker then formats the snapshot into the dump, in memory it may wait
 * for, and hands it to devcoredump.  The engine code says what it captures
 * where: vaccel_coredump_begin(), vaccel_coredump_add_job() and
 * vaccel_coredump_add_walk() before the engine reacts, the engine's state
 * under its lock before the reaction and the context's after it, then
 * vaccel_coredump_commit().
 *
 * **Bounds.**  Faults are for any user to cause, so a dump costs a bounded
 * amount of memory and nothing else: one snapshot per device, which an
 * event may take only when it is free (it is again once the worker has
 * formatted it), and one dump per device pending in devcoredump, until
 * user space reads and clears it (writing to its ``data``), or devcoredump
 * drops it after five minutes.  Every other event is counted as dropped;
 * so are events the module parameter ``coredump`` (writable at run time)
 * turns off, and dumps that found no memory.  Recovery never waits for a
 * dump and never fails because of one.  The counts are in debugfs
 * ``coredump``, and each dump's header carries its event number and the
 * drops before it.  A dump shows only what the guilty context's own
 * address space maps: the excerpt and the walk go through the engine's TLB
 * while it is attached to that address space, and page-table entries show
 * an identity of each page rather than its physical address.
 *
 * **Lifetime.**  The worker gives devcoredump a vmalloc'ed buffer with
 * dev_coredumpv(), which frees it with vfree(): once handed over, a dump
 * refers to nothing of the module's, neither code nor data, and the
 * module can be unloaded, or the device unbound, with a dump pending.
 * Passing the module as the owner of read and free callbacks
 * (dev_coredumpm()) would have made devcoredump hold a reference on it,
 * and ``rmmod`` fail until the dump was cleared.  Since the device cannot
 * be told when devcoredump lets a dump go, it asks the driver core: a
 * pending dump is the ``devcoredump`` link of the platform device in
 * sysfs.  Unbinding the device (and so unloading the module) removes its
 * pending dump with dev_coredump_put(), after drm_dev_unplug(), which waits
 * for a worker inside drm_dev_enter(); a worker that comes later gives
 * nothing to devcoredump.  A DRM device that was never registered (KUnit's)
 * gives nothing either: its snapshots are formatted and dropped.
 */

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/devcoredump.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>
#include <linux/utsname.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/vaccel_accel.h>
#include <drm/vaccel_coredump.h>

#include "vaccel_context.h"
#include "vaccel_coredump.h"
#include "vaccel_cu.h"
#include "vaccel_dispatch.h"
#include "vaccel_drv.h"
#include "vaccel_engine.h"
#include "vaccel_file.h"
#include "vaccel_inject.h"
#include "vaccel_vm.h"

static bool vaccel_coredump_enabled = true;
module_param_named(coredump, vaccel_coredump_enabled, bool, 0644);
MODULE_PARM_DESC(coredump,
		 "Dump the device's state on hangs, resets, faults and time limits (default 1)");

static_assert((int)VACCEL_PREEMPT_PRIORITY == DRM_VACCEL_COREDUMP_PREEMPT_PRIORITY);
static_assert((int)VACCEL_PREEMPT_SLICE == DRM_VACCEL_COREDUMP_PREEMPT_SLICE);
static_assert((int)VACCEL_PREEMPT_STARVATION == DRM_VACCEL_COREDUMP_PREEMPT_STARVATION);
static_assert((int)VACCEL_PREEMPT_FORCED == DRM_VACCEL_COREDUMP_PREEMPT_FORCED);
static_assert((int)VACCEL_PREEMPT_RESET == DRM_VACCEL_COREDUMP_PREEMPT_RESET);
static_assert(VACCEL_PREEMPT_REASONS <= DRM_VACCEL_COREDUMP_PREEMPT_REASONS);
static_assert(VACCEL_ARBITER_SLOTS == DRM_VACCEL_COREDUMP_SLOTS);
static_assert(VACCEL_ARBITER_BANDS == DRM_VACCEL_COREDUMP_BANDS);
static_assert(VACCEL_PT_LEVELS == DRM_VACCEL_COREDUMP_WALK_LEVELS);
static_assert(DRM_VACCEL_ENGINE_CLASS_COUNT <=
	      ARRAY_SIZE(((struct drm_vaccel_coredump_device *)0)->engine_count));
static_assert(sizeof(((struct drm_vaccel_coredump_context *)0)->comm) == TASK_COMM_LEN);

/* The bit of &vaccel_coredump.flags: the snapshot is taken. */
#define VACCEL_COREDUMP_BUSY	0

/**
 * struct vaccel_coredump_snapshot - what an event captured, unformatted
 * @kind: &enum drm_vaccel_coredump_kind
 * @engine_index: the engine of the event, or %DRM_VACCEL_COREDUMP_NO_ENGINE
 * @time_ns: when, CLOCK_REALTIME
 * @monotonic_ns: when, CLOCK_MONOTONIC
 * @sequence: the event's number on the device
 * @num_engines: entries of @engines
 * @num_items: entries of @items
 * @has_context: @context was captured
 * @has_buffer: @buffer was captured
 * @has_dispatch: @dispatch was captured
 * @has_walk: @walk was captured
 * @device: the device section
 * @context: the context section
 * @buffer: the buffer section
 * @dispatch: the dispatch section
 * @walk: the page walk section
 * @items: the work-item section
 * @engines: the engine section
 */
struct vaccel_coredump_snapshot {
	u32 kind;
	u32 engine_index;
	u64 time_ns;
	u64 monotonic_ns;
	u64 sequence;
	unsigned int num_engines;
	unsigned int num_items;
	bool has_context;
	bool has_buffer;
	bool has_dispatch;
	bool has_walk;
	struct drm_vaccel_coredump_device device;
	struct drm_vaccel_coredump_context context;
	struct drm_vaccel_coredump_buffer buffer;
	struct drm_vaccel_coredump_dispatch dispatch;
	struct drm_vaccel_coredump_page_walk walk;
	struct drm_vaccel_coredump_workitem items[DRM_VACCEL_COREDUMP_MAX_WORKITEMS];
	struct drm_vaccel_coredump_engine engines[VACCEL_MAX_ENGINES];
};

/**
 * struct vaccel_coredump - the dumps of one device
 * @vdev: the device
 * @flags: %VACCEL_COREDUMP_BUSY from vaccel_coredump_begin() until the
 *	worker has formatted @snap; the bit is the lock of @snap
 * @snap: the snapshot, allocated with the device
 * @work: formats @snap and hands the dump to devcoredump
 * @events: events so far, dumped or not
 * @captured: dumps handed to devcoredump
 * @dropped_busy: events that found the snapshot taken or a dump pending
 * @dropped_failed: dumps that found no memory, or that devcoredump refused
 *	or the device could not take any more (unbound, never registered)
 * @dropped_disabled: events while the module parameter was off
 */
struct vaccel_coredump {
	struct vaccel_device *vdev;
	unsigned long flags;
	struct vaccel_coredump_snapshot *snap;
	struct work_struct work;
	atomic64_t events;
	atomic64_t captured;
	atomic64_t dropped_busy;
	atomic64_t dropped_failed;
	atomic64_t dropped_disabled;
};

static u64 vaccel_coredump_dropped(struct vaccel_coredump *cd)
{
	return atomic64_read(&cd->dropped_busy) +
	       atomic64_read(&cd->dropped_failed) +
	       atomic64_read(&cd->dropped_disabled);
}

/* Whether devcoredump holds a dump of @dev: its sysfs link says so. */
static bool vaccel_coredump_pending(struct device *dev)
{
	struct kernfs_node *kn = sysfs_get_dirent(dev->kobj.sd, "devcoredump");

	if (!kn)
		return false;
	sysfs_put(kn);
	return true;
}

static void vaccel_coredump_fill_device(struct vaccel_device *vdev,
					struct drm_vaccel_coredump_device *d)
{
	const struct vaccel_topology *topo = &vdev->topo;
	unsigned int i;

	d->device_index = vdev->index;
	d->uapi_major = DRM_VACCEL_UAPI_MAJOR;
	d->uapi_minor = DRM_VACCEL_UAPI_MINOR;
	d->num_engines = vdev->num_engines;
	for (i = 0; i < DRM_VACCEL_ENGINE_CLASS_COUNT; i++)
		d->engine_count[i] = topo->engine_count[i];
	d->va_bits = topo->va_bits;
	d->flags = topo->single_use ? DRM_VACCEL_DEVICE_SINGLE_USE : 0;
	d->va_start = topo->va_start;
	d->va_end = topo->va_end;
	d->timeout_ns = topo->timeout_ns;
	d->time_limit_ns = topo->time_limit_ns;
	d->timeslice_ns = topo->timeslice_ns;
	d->dispatch_slice = topo->dispatch_slice;
	d->device_resets = atomic64_read(&vdev->device_resets);
	strscpy_pad(d->kernel_release, init_utsname()->release,
		    sizeof(d->kernel_release));
}

/**
 * vaccel_coredump_begin() - start the dump of an event, if one can be taken
 * @vdev: the device
 * @kind: &enum drm_vaccel_coredump_kind
 * @engine: the engine of the event, or NULL for the device
 *
 * Counts the event.  The caller that gets the dump adds what it knows and
 * ends with vaccel_coredump_commit(); others go on without one.
 *
 * Context: Any context: allocates nothing, waits for nothing.
 * Return: the dump to fill, or NULL if dumps are off or the device's
 * snapshot is taken (the event then counts as dropped).
 */
struct vaccel_coredump *vaccel_coredump_begin(struct vaccel_device *vdev,
					      u32 kind,
					      struct vaccel_engine *engine)
{
	struct vaccel_coredump *cd = vdev->coredump;
	struct vaccel_coredump_snapshot *s = cd->snap;
	u64 sequence = atomic64_inc_return(&cd->events);

	if (!READ_ONCE(vaccel_coredump_enabled)) {
		atomic64_inc(&cd->dropped_disabled);
		return NULL;
	}
	if (test_and_set_bit_lock(VACCEL_COREDUMP_BUSY, &cd->flags)) {
		atomic64_inc(&cd->dropped_busy);
		return NULL;
	}
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->engine_index = engine ? engine->index : DRM_VACCEL_COREDUMP_NO_ENGINE;
	s->time_ns = ktime_get_real_ns();
	s->monotonic_ns = ktime_get_ns();
	s->sequence = sequence;
	vaccel_coredump_fill_device(vdev, &s->device);
	return cd;
}

static void vaccel_coredump_fill_slot(struct drm_vaccel_coredump_slot *slot,
				      struct vaccel_arbiter_buffer *buf)
{
	struct vaccel_job *job = container_of(buf, struct vaccel_job, arb);
	struct vaccel_context *ctx = job->ctx;

	slot->context = ctx->handle;
	slot->flags = buf->started ? DRM_VACCEL_COREDUMP_SLOT_STARTED : 0;
	slot->client_id = ctx->file->client_id;
	slot->buffer_va = job->va;
	slot->buffer_size = job->size;
	slot->offset = job->offset;
	slot->progress = job->pkt_progress;
	slot->priority = ctx->priority;
}

/**
 * vaccel_coredump_add_engine_locked() - add an engine's state
 * @cd: the dump
 * @engine: the engine, its lock held
 * @now: the time of the event
 *
 * Context: Any context, the engine's lock held.
 */
void vaccel_coredump_add_engine_locked(struct vaccel_coredump *cd,
				       struct vaccel_engine *engine, u64 now)
{
	struct vaccel_coredump_snapshot *s = cd->snap;
	struct vaccel_arbiter *arb = &engine->arbiter;
	struct drm_vaccel_coredump_engine *e;
	unsigned int i;

	lockdep_assert_held(&engine->lock);
	if (drm_WARN_ON_ONCE(&engine->vdev->drm, s->num_engines >= ARRAY_SIZE(s->engines)))
		return;
	e = &s->engines[s->num_engines++];
	e->index = engine->index;
	e->engine_class = engine->desc.engine_class;
	e->instance = engine->desc.instance;
	e->preempt_granularity = engine->desc.preempt_granularity;
	e->hw_queue_depth = engine->desc.hw_queue_depth;
	e->slots_used = arb->slots_used;
	e->num_contexts = engine->num_contexts;
	if (arb->running_since)
		e->flags |= DRM_VACCEL_COREDUMP_ENGINE_RUNNING;
	if (engine->reset_pending)
		e->flags |= DRM_VACCEL_COREDUMP_ENGINE_RESET_PENDING;
	if (engine->reset_unproven)
		e->flags |= DRM_VACCEL_COREDUMP_ENGINE_RESET_UNPROVEN;
	if (arb->boosted) {
		e->flags |= DRM_VACCEL_COREDUMP_ENGINE_BOOSTED;
		e->boosted_context = container_of(arb->boosted, struct vaccel_context,
						  arb)->handle;
	}
	e->resets = engine->resets;
	e->hangs = engine->hangs;
	e->instructions = vaccel_engine_instructions(engine);
	e->timeout_ns = engine->timeout_ns;
	e->time_limit_ns = engine->time_limit_ns;
	e->slice_ns = arb->slice_ns;
	e->running_ns = arb->running_since && now > arb->running_since ?
			now - arb->running_since : 0;
	for (i = 0; i < VACCEL_ARBITER_BANDS; i++) {
		struct vaccel_arbiter_entry *entry;

		e->band_ns[i] = arb->band_ns[i];
		list_for_each_entry(entry, &arb->bands[i], link)
			e->band_ready[i]++;
	}
	for (i = 0; i < VACCEL_PREEMPT_REASONS; i++)
		e->preemptions[i] = arb->preempt_count[i];
	for (i = 0; i < arb->slots_used; i++)
		vaccel_coredump_fill_slot(&e->slot[i], arb->slot[i]);
}

/**
 * vaccel_coredump_add_context_locked() - add a context's state
 * @cd: the dump
 * @ctx: the context, its engine's lock held
 * @guilty: its buffer caused the event
 * @now: the time of the event
 *
 * Context: Any context, the lock of the context's engine held.
 */
void vaccel_coredump_add_context_locked(struct vaccel_coredump *cd,
					struct vaccel_context *ctx,
					bool guilty, u64 now)
{
	struct drm_vaccel_coredump_context *c = &cd->snap->context;
	struct vaccel_engine *engine = ctx->engine;

	lockdep_assert_held(&engine->lock);
	cd->snap->has_context = true;
	c->handle = ctx->handle;
	if (guilty)
		c->flags |= DRM_VACCEL_COREDUMP_CONTEXT_GUILTY;
	if (ctx->ban_reason)
		c->flags |= DRM_VACCEL_COREDUMP_CONTEXT_BANNED;
	/* Under the submit lock, which an engine never takes: a hint. */
	if (data_race(ctx->destroyed))
		c->flags |= DRM_VACCEL_COREDUMP_CONTEXT_DESTROYED;
	c->client_id = ctx->file->client_id;
	c->pid = ctx->pid;
	c->engine_index = engine->index;
	memcpy(c->comm, ctx->comm, sizeof(c->comm));
	c->priority = ctx->priority;
	c->ban_reason = ctx->ban_reason;
	c->error = ctx->cancelled;
	c->guilty_resets = ctx->guilty_resets;
	c->innocent_resets = ctx->innocent_resets;
	c->jobs_submitted = atomic64_read(&ctx->jobs_submitted);
	c->jobs_completed = atomic64_read(&ctx->jobs_completed);
	c->preemptions = ctx->arb.preemptions;
	c->engine_ns = vaccel_arbiter_entry_run_ns(&engine->arbiter, &ctx->arb, now);
	if (ctx->faulted) {
		c->flags |= DRM_VACCEL_COREDUMP_CONTEXT_FAULTED;
		c->fault_va = ctx->fault.va;
		c->fault_pc = ctx->fault.pc;
		c->fault_offset = ctx->fault_offset;
		c->fault_reason = ctx->fault.reason;
		c->fault_access = ctx->fault.access;
	}
}

/**
 * vaccel_coredump_add_job() - add the running buffer: where it stopped, an
 * excerpt, and the DISPATCH in flight
 * @cd: the dump
 * @engine: the engine that runs @job, its TLB attached to the job's
 *	address space
 * @job: the buffer, still the engine's
 *
 * The excerpt is read through the engine's TLB while it is attached to the
 * job's address space: the memory of that address space only, and of the
 * buffer only.
 *
 * Context: The engine's thread, no lock held; takes the TLB lock.
 */
void vaccel_coredump_add_job(struct vaccel_coredump *cd,
			     struct vaccel_engine *engine,
			     struct vaccel_job *job)
{
	struct vaccel_coredump_snapshot *s = cd->snap;
	struct drm_vaccel_coredump_buffer *b = &s->buffer;
	const struct vaccel_pt *pt = &job->ctx->vm->pt;
	u64 now = ktime_get_ns(), start, end, pos, len, i;

	/* A job of the PAGING engine applies a bind: no DMA buffer. */
	if (job->bind)
		return;
	s->has_buffer = true;
	b->context = job->ctx->handle;
	b->buffer_va = job->va;
	b->buffer_size = job->size;
	b->offset = job->offset;
	b->progress = job->pkt_progress;
	b->stall_ns = now - engine->stall_since;
	b->run_ns = job->run_ns + now - engine->run_start;

	/* Half the excerpt before the packet, half from it, in the buffer. */
	start = min(job->offset - min_t(u64, job->offset, DRM_VACCEL_COREDUMP_EXCERPT / 2),
		    job->size);
	end = min_t(u64, job->size, start + DRM_VACCEL_COREDUMP_EXCERPT);
	b->excerpt_offset = start;
	b->excerpt_size = end - start;
	for (pos = start; pos < end; pos += len) {
		u64 va = job->va + pos;

		len = min_t(u64, end - pos, PAGE_SIZE - offset_in_page(va));
		if (vaccel_tlb_peek(&engine->tlb, pt, va, &b->excerpt[pos - start], len))
			continue;
		for (i = pos - start; i < pos - start + len; i++)
			b->excerpt_valid[i / 64] |= 1ull << (i % 64);
	}

	if (job->dispatch) {
		s->has_dispatch = true;
		s->num_items = vaccel_dispatch_dump(job->dispatch, &s->dispatch,
						    s->items, ARRAY_SIZE(s->items));
	}
}

/**
 * vaccel_coredump_add_walk() - add the page-table walk of a fault's address
 * @cd: the dump
 * @engine: the engine that ran @job, its TLB attached to the job's
 *	address space
 * @job: the buffer that faulted
 * @fault: the fault
 *
 * Walks the address that faulted, or the pc for a fault whose address is
 * not one (an illegal instruction's word, a CSR's number).
 *
 * Context: The engine's thread, no lock held; takes the TLB lock.
 */
void vaccel_coredump_add_walk(struct vaccel_coredump *cd,
			      struct vaccel_engine *engine,
			      struct vaccel_job *job,
			      const struct vaccel_fault *fault)
{
	struct drm_vaccel_coredump_page_walk *w = &cd->snap->walk;
	const struct vaccel_pt *pt = &job->ctx->vm->pt;
	u64 entries[VACCEL_PT_LEVELS];
	unsigned int i;

	cd->snap->has_walk = true;
	w->va = fault->reason == VACCEL_FAULT_ILLEGAL_INSTRUCTION ||
		fault->reason == VACCEL_FAULT_CSR ? fault->pc : fault->va;
	w->va_start = pt->va_start;
	w->va_end = pt->va_end;
	if (w->va >= pt->va_start && w->va < pt->va_end)
		w->flags |= DRM_VACCEL_COREDUMP_WALK_IN_RANGE;
	w->levels = vaccel_tlb_walk(&engine->tlb, pt, w->va, entries);
	for (i = 0; i < w->levels; i++) {
		unsigned int level = VACCEL_PT_LEVELS - 1 - i;

		w->entry[level] = vaccel_pt_entry_identity(entries[level]);
	}
}

/**
 * vaccel_coredump_commit() - the dump is complete: format it and offer it
 * @cd: the dump
 *
 * Context: Any context.
 */
void vaccel_coredump_commit(struct vaccel_coredump *cd)
{
	queue_work(system_unbound_wq, &cd->work);
}

/* Where the worker writes the dump; with no @buf, it only measures it. */
struct vaccel_coredump_out {
	u8 *buf;
	size_t pos;
	u32 sections;
};

static void vaccel_coredump_emit(struct vaccel_coredump_out *o, u32 type,
				 const void *entries, u32 count, u32 entry_size)
{
	struct drm_vaccel_coredump_section sec = {
		.type = type,
		.size = sizeof(sec) + count * entry_size,
		.count = count,
		.entry_size = entry_size,
	};

	if (!count)
		return;
	if (o->buf) {
		memcpy(o->buf + o->pos, &sec, sizeof(sec));
		memcpy(o->buf + o->pos + sizeof(sec), entries, count * entry_size);
	}
	o->pos += sec.size;
	o->sections++;
}

/* The sections of @s, in the order the decoder prints them. */
static void vaccel_coredump_emit_all(struct vaccel_coredump_out *o,
				     const struct vaccel_coredump_snapshot *s)
{
	o->pos = sizeof(struct drm_vaccel_coredump_header);
	o->sections = 0;
	vaccel_coredump_emit(o, DRM_VACCEL_COREDUMP_SECTION_DEVICE, &s->device,
			     1, sizeof(s->device));
	vaccel_coredump_emit(o, DRM_VACCEL_COREDUMP_SECTION_ENGINE, s->engines,
			     s->num_engines, sizeof(s->engines[0]));
	vaccel_coredump_emit(o, DRM_VACCEL_COREDUMP_SECTION_CONTEXT, &s->context,
			     s->has_context, sizeof(s->context));
	vaccel_coredump_emit(o, DRM_VACCEL_COREDUMP_SECTION_BUFFER, &s->buffer,
			     s->has_buffer, sizeof(s->buffer));
	vaccel_coredump_emit(o, DRM_VACCEL_COREDUMP_SECTION_DISPATCH, &s->dispatch,
			     s->has_dispatch, sizeof(s->dispatch));
	vaccel_coredump_emit(o, DRM_VACCEL_COREDUMP_SECTION_WORKITEM, s->items,
			     s->num_items, sizeof(s->items[0]));
	vaccel_coredump_emit(o, DRM_VACCEL_COREDUMP_SECTION_PAGE_WALK, &s->walk,
			     s->has_walk, sizeof(s->walk));
}

/*
 * The dump's buffer, which devcoredump frees with vfree().  The
 * fault-injection point ``fail_coredump``: the worker allocates it, which
 * fail-nth on a test's task cannot reach.
 */
static void *vaccel_coredump_buf_alloc(size_t size)
{
	if (vaccel_should_fail(VACCEL_FAIL_COREDUMP))
		return NULL;
	return __vmalloc(size, GFP_KERNEL | __GFP_NOWARN | __GFP_ZERO);
}

/*
 * Formats the snapshot, frees it for the next event, then offers the dump
 * to devcoredump unless one is pending or the device is going away.
 */
static void vaccel_coredump_work(struct work_struct *work)
{
	struct vaccel_coredump *cd = container_of(work, struct vaccel_coredump, work);
	struct vaccel_device *vdev = cd->vdev;
	const struct vaccel_coredump_snapshot *s = cd->snap;
	struct vaccel_coredump_out o = {};
	struct drm_vaccel_coredump_header *h;
	size_t size;
	int idx;

	vaccel_coredump_emit_all(&o, s);
	size = o.pos;
	o.buf = vaccel_coredump_buf_alloc(size);
	if (o.buf) {
		vaccel_coredump_emit_all(&o, s);
		h = (struct drm_vaccel_coredump_header *)o.buf;
		h->magic = DRM_VACCEL_COREDUMP_MAGIC;
		h->version = DRM_VACCEL_COREDUMP_VERSION;
		h->header_size = sizeof(*h);
		h->total_size = size;
		h->num_sections = o.sections;
		h->kind = s->kind;
		h->time_ns = s->time_ns;
		h->monotonic_ns = s->monotonic_ns;
		h->device_index = vdev->index;
		h->engine_index = s->engine_index;
		h->sequence = s->sequence;
		h->dropped = vaccel_coredump_dropped(cd);
	}
	clear_bit_unlock(VACCEL_COREDUMP_BUSY, &cd->flags);

	if (!o.buf) {
		atomic64_inc(&cd->dropped_failed);
		return;
	}
	if (!drm_dev_enter(&vdev->drm, &idx)) {
		atomic64_inc(&cd->dropped_failed);
		vfree(o.buf);
		return;
	}
	if (!vdev->drm.registered) {
		atomic64_inc(&cd->dropped_failed);
		vfree(o.buf);
	} else if (vaccel_coredump_pending(vdev->drm.dev)) {
		atomic64_inc(&cd->dropped_busy);
		vfree(o.buf);
	} else {
		dev_coredumpv(vdev->drm.dev, o.buf, size, GFP_KERNEL);
		/* Refused (disabled in sysfs, no memory): freed already. */
		if (vaccel_coredump_pending(vdev->drm.dev))
			atomic64_inc(&cd->captured);
		else
			atomic64_inc(&cd->dropped_failed);
	}
	drm_dev_exit(idx);
}

/**
 * vaccel_coredump_show() - the dump counts, for debugfs
 * @vdev: the device
 * @m: where
 *
 * Context: Process context.
 */
void vaccel_coredump_show(struct vaccel_device *vdev, struct seq_file *m)
{
	struct vaccel_coredump *cd = vdev->coredump;
	bool pending = false;
	int idx;

	if (drm_dev_enter(&vdev->drm, &idx)) {
		pending = vdev->drm.registered && vaccel_coredump_pending(vdev->drm.dev);
		drm_dev_exit(idx);
	}
	seq_printf(m, "enabled %d\n", READ_ONCE(vaccel_coredump_enabled));
	seq_printf(m, "pending %d\n", pending);
	seq_printf(m, "events %lld\n", atomic64_read(&cd->events));
	seq_printf(m, "captured %lld\n", atomic64_read(&cd->captured));
	seq_printf(m, "dropped_busy %lld\n", atomic64_read(&cd->dropped_busy));
	seq_printf(m, "dropped_failed %lld\n", atomic64_read(&cd->dropped_failed));
	seq_printf(m, "dropped_disabled %lld\n", atomic64_read(&cd->dropped_disabled));
}

/**
 * vaccel_coredump_unplug() - the device is unbound: drop its pending dump
 * @vdev: the device, after drm_dev_unplug()
 *
 * No dump of it can be offered any more: a worker offers one only inside
 * drm_dev_enter(), which drm_dev_unplug() waited for.
 *
 * Context: Process context.
 */
void vaccel_coredump_unplug(struct vaccel_device *vdev)
{
	dev_coredump_put(vdev->drm.dev);
}

static void vaccel_coredump_fini(struct drm_device *drm, void *data)
{
	struct vaccel_coredump *cd = data;

	/* The engines are stopped: nothing commits any more. */
	cancel_work_sync(&cd->work);
	kvfree(cd->snap);
}

/**
 * vaccel_coredump_init() - set up the device's dumps
 * @vdev: the device, before its engines start
 *
 * Context: Process context.
 * Return: 0 or a negative errno; undone at the device's release, after
 * the engines have stopped.
 */
int vaccel_coredump_init(struct vaccel_device *vdev)
{
	struct vaccel_coredump *cd;

	cd = drmm_kzalloc(&vdev->drm, sizeof(*cd), GFP_KERNEL);
	if (!cd)
		return -ENOMEM;
	cd->snap = kvzalloc(sizeof(*cd->snap), GFP_KERNEL);
	if (!cd->snap)
		return -ENOMEM;
	cd->vdev = vdev;
	INIT_WORK(&cd->work, vaccel_coredump_work);
	atomic64_set(&cd->events, 0);
	atomic64_set(&cd->captured, 0);
	atomic64_set(&cd->dropped_busy, 0);
	atomic64_set(&cd->dropped_failed, 0);
	atomic64_set(&cd->dropped_disabled, 0);
	vdev->coredump = cd;
	return drmm_add_action_or_reset(&vdev->drm, vaccel_coredump_fini, cd);
}
