/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef _VACCEL_COREDUMP_H_
#define _VACCEL_COREDUMP_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * DOC: coredump format
 *
 * When a buffer hangs, faults or uses up its time limit, and when an engine
 * or the whole device is reset, vaccel captures a device coredump: the
 * state of the engines, the guilty context, the packet the buffer stopped
 * at with an excerpt of its DMA buffer, the RV64 state of the work-items of
 * a DISPATCH in flight, and for a fault the page-table walk of the address
 * that faulted.  The kernel's devcoredump framework offers it, while it is
 * pending, as ``/sys/class/devcoredump/devcdN/data``, whose
 * ``failing_device`` link leads to the platform device ``vaccel.N``.
 *
 * The dump is binary, in the byte order of the machine that wrote it, and
 * describes itself:
 *
 * - a &struct drm_vaccel_coredump_header, which says what happened
 *   (&enum drm_vaccel_coredump_kind), where, when, and how many bytes and
 *   sections follow;
 * - then &drm_vaccel_coredump_header.num_sections sections, each a
 *   &struct drm_vaccel_coredump_section followed by
 *   &drm_vaccel_coredump_section.count entries of
 *   &drm_vaccel_coredump_section.entry_size bytes, whose type
 *   (&enum drm_vaccel_coredump_section_type) says what they are.
 *
 * Every structure is 8-byte aligned and sized, with explicit padding that
 * the kernel writes as zero, so the format is the same for 32-bit and
 * 64-bit readers.
 *
 * **Growing.**  %DRM_VACCEL_COREDUMP_VERSION changes only if a reader of
 * the old format could no longer read the new one; it never should.  The
 * format grows otherwise: a new section type, which old readers skip; a
 * new kind; a new field at the end of an entry, which makes
 * &drm_vaccel_coredump_section.entry_size larger.  A reader takes the
 * fields an entry does not have (an entry shorter than the reader's
 * structure) as zero, and zero always means "not known", and ignores the
 * bytes of an entry it does not know.  A new value of an enum is a new
 * meaning; a reader prints a value it does not know as a number.
 *
 * **Reading it safely.**  A dump is data from a file, and a reader treats
 * it as hostile: it checks the magic and version, that
 * &drm_vaccel_coredump_header.total_size is the size it read, that
 * &drm_vaccel_coredump_header.header_size is at least the size of the
 * first released header and within the dump, and for each section that
 * &drm_vaccel_coredump_section.size is exactly the section header plus
 * count times entry_size, a multiple of 8, and within the dump.  Strings
 * are fixed arrays that need not end with a NUL.  ``vaccel-coredump`` does
 * all of this and decodes the dump into text.
 */

/**
 * define DRM_VACCEL_COREDUMP_MAGIC - the first 8 bytes of a vaccel coredump
 *
 * "VACCDUMP" in the byte order of the machine that wrote the dump: a
 * reader on a machine of the other byte order sees it reversed.
 */
#define DRM_VACCEL_COREDUMP_MAGIC	0x504d554443434156ull

/** define DRM_VACCEL_COREDUMP_VERSION - the version of the format */
#define DRM_VACCEL_COREDUMP_VERSION	1

/**
 * define DRM_VACCEL_COREDUMP_NO_ENGINE - &drm_vaccel_coredump_header.engine_index
 * of a dump that is not about one engine (a device reset)
 */
#define DRM_VACCEL_COREDUMP_NO_ENGINE	0xffffffffu

/**
 * enum drm_vaccel_coredump_kind - what made the device dump its state
 */
enum drm_vaccel_coredump_kind {
	/**
	 * @DRM_VACCEL_COREDUMP_HANG: a buffer made no progress for the
	 * timeout: its context was banned and the engine reset
	 */
	DRM_VACCEL_COREDUMP_HANG = 1,
	/**
	 * @DRM_VACCEL_COREDUMP_ENGINE_RESET: an engine was reset on request
	 * (debugfs ``force_reset``); what its HW queue held is innocent and
	 * resumes
	 */
	DRM_VACCEL_COREDUMP_ENGINE_RESET = 2,
	/**
	 * @DRM_VACCEL_COREDUMP_DEVICE_RESET: every engine of the device was
	 * reset, on request or because hangs repeated
	 */
	DRM_VACCEL_COREDUMP_DEVICE_RESET = 3,
	/**
	 * @DRM_VACCEL_COREDUMP_FAULT: a buffer faulted (a memory access the
	 * address space refused, a malformed packet, a kernel's fault): its
	 * context was banned
	 */
	DRM_VACCEL_COREDUMP_FAULT = 4,
	/**
	 * @DRM_VACCEL_COREDUMP_TIME_LIMIT: a buffer used up its time limit:
	 * its context was banned
	 */
	DRM_VACCEL_COREDUMP_TIME_LIMIT = 5,
};

/**
 * struct drm_vaccel_coredump_header - the start of a dump
 */
struct drm_vaccel_coredump_header {
	/** @magic: %DRM_VACCEL_COREDUMP_MAGIC */
	__u64 magic;
	/** @version: %DRM_VACCEL_COREDUMP_VERSION */
	__u32 version;
	/**
	 * @header_size: bytes of this header; the first section starts
	 * there
	 */
	__u32 header_size;
	/** @total_size: bytes of the whole dump, this header included */
	__u64 total_size;
	/** @num_sections: sections after the header */
	__u32 num_sections;
	/** @kind: &enum drm_vaccel_coredump_kind */
	__u32 kind;
	/** @time_ns: when it happened, CLOCK_REALTIME in nanoseconds */
	__u64 time_ns;
	/**
	 * @monotonic_ns: when it happened, CLOCK_MONOTONIC in nanoseconds:
	 * the clock of the engine's TIMESTAMP packet and of trace events
	 */
	__u64 monotonic_ns;
	/** @device_index: the device, vaccel.N */
	__u32 device_index;
	/**
	 * @engine_index: the engine it happened on, an index in the engine
	 * list of the device query; %DRM_VACCEL_COREDUMP_NO_ENGINE for a
	 * device reset
	 */
	__u32 engine_index;
	/**
	 * @sequence: the number of the event on its device, from 1, counting
	 * those that were not dumped
	 */
	__u64 sequence;
	/**
	 * @dropped: events of the device before this one that were not
	 * dumped: a dump was pending, or capture failed or was disabled
	 */
	__u64 dropped;
};

/**
 * enum drm_vaccel_coredump_section_type - what a section holds
 */
enum drm_vaccel_coredump_section_type {
	/**
	 * @DRM_VACCEL_COREDUMP_SECTION_DEVICE: one
	 * &struct drm_vaccel_coredump_device
	 */
	DRM_VACCEL_COREDUMP_SECTION_DEVICE = 1,
	/**
	 * @DRM_VACCEL_COREDUMP_SECTION_ENGINE: a &struct
	 * drm_vaccel_coredump_engine per engine: the engine of the event,
	 * or every engine of the device for a device reset
	 */
	DRM_VACCEL_COREDUMP_SECTION_ENGINE = 2,
	/**
	 * @DRM_VACCEL_COREDUMP_SECTION_CONTEXT: one &struct
	 * drm_vaccel_coredump_context: the guilty context, or for an engine
	 * reset the context of the buffer that ran
	 */
	DRM_VACCEL_COREDUMP_SECTION_CONTEXT = 3,
	/**
	 * @DRM_VACCEL_COREDUMP_SECTION_BUFFER: one &struct
	 * drm_vaccel_coredump_buffer: the DMA buffer that ran, where it
	 * stopped and an excerpt of it
	 */
	DRM_VACCEL_COREDUMP_SECTION_BUFFER = 4,
	/**
	 * @DRM_VACCEL_COREDUMP_SECTION_DISPATCH: one &struct
	 * drm_vaccel_coredump_dispatch: the DISPATCH in flight in that buffer
	 */
	DRM_VACCEL_COREDUMP_SECTION_DISPATCH = 5,
	/**
	 * @DRM_VACCEL_COREDUMP_SECTION_WORKITEM: a &struct
	 * drm_vaccel_coredump_workitem per work-item of its workgroup in
	 * flight, at most %DRM_VACCEL_COREDUMP_MAX_WORKITEMS, the one that
	 * ran last first
	 */
	DRM_VACCEL_COREDUMP_SECTION_WORKITEM = 6,
	/**
	 * @DRM_VACCEL_COREDUMP_SECTION_PAGE_WALK: one &struct
	 * drm_vaccel_coredump_page_walk: for a fault, the walk of the
	 * page tables of the context's address space
	 */
	DRM_VACCEL_COREDUMP_SECTION_PAGE_WALK = 7,
};

/**
 * struct drm_vaccel_coredump_section - the header of a section
 *
 * @size is exactly sizeof(struct drm_vaccel_coredump_section) plus @count
 * times @entry_size.  The next section starts @size bytes after this one.
 */
struct drm_vaccel_coredump_section {
	/** @type: &enum drm_vaccel_coredump_section_type */
	__u32 type;
	/** @size: bytes of the section, this header included; a multiple of 8 */
	__u32 size;
	/** @count: entries in the section */
	__u32 count;
	/**
	 * @entry_size: bytes of each entry, a multiple of 8; larger than the
	 * structure a reader knows when the format has grown
	 */
	__u32 entry_size;
};

/**
 * struct drm_vaccel_coredump_device - the device and its parameters
 */
struct drm_vaccel_coredump_device {
	/** @device_index: the device, vaccel.N */
	__u32 device_index;
	/** @uapi_major: %DRM_VACCEL_UAPI_MAJOR of the driver */
	__u32 uapi_major;
	/** @uapi_minor: %DRM_VACCEL_UAPI_MINOR of the driver */
	__u32 uapi_minor;
	/** @num_engines: engines of the device */
	__u32 num_engines;
	/**
	 * @engine_count: engines of each &enum drm_vaccel_engine_class,
	 * indexed by it; unused entries zero
	 */
	__u32 engine_count[4];
	/** @va_bits: width of a GPU virtual address */
	__u32 va_bits;
	/** @flags: %DRM_VACCEL_DEVICE_SINGLE_USE, as the device query */
	__u32 flags;
	/** @va_start: lowest GPU VA user space may map */
	__u64 va_start;
	/** @va_end: end (exclusive) of the GPU VAs user space may map */
	__u64 va_end;
	/** @timeout_ns: time without progress that makes a buffer hung */
	__u64 timeout_ns;
	/** @time_limit_ns: engine time a buffer may use in all */
	__u64 time_limit_ns;
	/** @timeslice_ns: the time slice of contexts of one priority */
	__u64 timeslice_ns;
	/** @dispatch_slice: instructions a workgroup runs between two checks */
	__u32 dispatch_slice;
	/** @pad: zero */
	__u32 pad;
	/** @device_resets: device resets done before this event */
	__u64 device_resets;
	/**
	 * @kernel_release: the release of the running kernel, as uname -r;
	 * NUL-padded, not always NUL-terminated
	 */
	char kernel_release[64];
};

/** define DRM_VACCEL_COREDUMP_SLOTS - HW queue slots an engine entry has */
#define DRM_VACCEL_COREDUMP_SLOTS	2
/** define DRM_VACCEL_COREDUMP_BANDS - priority bands of an engine's arbiter */
#define DRM_VACCEL_COREDUMP_BANDS	4
/**
 * define DRM_VACCEL_COREDUMP_PREEMPT_REASONS - entries of
 * &drm_vaccel_coredump_engine.preemptions
 */
#define DRM_VACCEL_COREDUMP_PREEMPT_REASONS	8

/**
 * enum drm_vaccel_coredump_preempt_reason - why an engine's arbiter took
 * the engine back: the indices of &drm_vaccel_coredump_engine.preemptions
 */
enum drm_vaccel_coredump_preempt_reason {
	/** @DRM_VACCEL_COREDUMP_PREEMPT_PRIORITY: a higher band had work */
	DRM_VACCEL_COREDUMP_PREEMPT_PRIORITY = 1,
	/**
	 * @DRM_VACCEL_COREDUMP_PREEMPT_SLICE: the running context used its
	 * time slice and another of its band had work
	 */
	DRM_VACCEL_COREDUMP_PREEMPT_SLICE = 2,
	/**
	 * @DRM_VACCEL_COREDUMP_PREEMPT_STARVATION: a lower band waited too
	 * long and got a slice
	 */
	DRM_VACCEL_COREDUMP_PREEMPT_STARVATION = 3,
	/** @DRM_VACCEL_COREDUMP_PREEMPT_FORCED: asked for through debugfs */
	DRM_VACCEL_COREDUMP_PREEMPT_FORCED = 4,
	/** @DRM_VACCEL_COREDUMP_PREEMPT_RESET: an engine or device reset */
	DRM_VACCEL_COREDUMP_PREEMPT_RESET = 5,
};

/**
 * define DRM_VACCEL_COREDUMP_SLOT_STARTED - slot flag, the buffer has run on
 * the engine: it runs, or was preempted part-way and resumes where it
 * stopped
 */
#define DRM_VACCEL_COREDUMP_SLOT_STARTED	(1u << 0)

/**
 * struct drm_vaccel_coredump_slot - one DMA buffer in a HW queue
 */
struct drm_vaccel_coredump_slot {
	/** @context: handle of its context (0 for the kernel's own) */
	__u32 context;
	/** @flags: DRM_VACCEL_COREDUMP_SLOT_* */
	__u32 flags;
	/** @client_id: DRM client id of the file of its context */
	__u64 client_id;
	/** @buffer_va: GPU VA of the buffer */
	__u64 buffer_va;
	/** @buffer_size: its size in bytes */
	__u64 buffer_size;
	/** @offset: offset in the buffer of the next packet to execute */
	__u64 offset;
	/**
	 * @progress: how far the packet at @offset got: bytes of a COPY or
	 * FILL, nanoseconds of a DELAY; 0 when it has not started
	 */
	__u64 progress;
	/** @priority: &enum drm_vaccel_priority of its context */
	__u32 priority;
	/** @pad: zero */
	__u32 pad;
};

/** define DRM_VACCEL_COREDUMP_ENGINE_RUNNING - engine flag, slot 0 was running */
#define DRM_VACCEL_COREDUMP_ENGINE_RUNNING		(1u << 0)
/** define DRM_VACCEL_COREDUMP_ENGINE_RESET_PENDING - engine flag, a reset was asked for */
#define DRM_VACCEL_COREDUMP_ENGINE_RESET_PENDING	(1u << 1)
/**
 * define DRM_VACCEL_COREDUMP_ENGINE_RESET_UNPROVEN - engine flag, it was
 * reset for a hang and has not completed a buffer since: another hang
 * escalates to a device reset
 */
#define DRM_VACCEL_COREDUMP_ENGINE_RESET_UNPROVEN	(1u << 2)
/**
 * define DRM_VACCEL_COREDUMP_ENGINE_BOOSTED - engine flag, the starvation
 * guard gave a slice to &drm_vaccel_coredump_engine.boosted_context
 */
#define DRM_VACCEL_COREDUMP_ENGINE_BOOSTED		(1u << 3)

/**
 * struct drm_vaccel_coredump_engine - an engine, its HW queue and arbiter
 *
 * As it was at the event, before the engine reacted to it: for a hang or
 * a fault, slot 0 holds the guilty buffer.
 */
struct drm_vaccel_coredump_engine {
	/** @index: index in the engine list of the device query */
	__u32 index;
	/** @engine_class: &enum drm_vaccel_engine_class */
	__u32 engine_class;
	/** @instance: index within the class */
	__u32 instance;
	/** @preempt_granularity: &enum drm_vaccel_preempt_granularity in force */
	__u32 preempt_granularity;
	/** @hw_queue_depth: DMA buffers the HW queue holds at most */
	__u32 hw_queue_depth;
	/** @slots_used: buffers in the HW queue; @slot beyond them is zero */
	__u32 slots_used;
	/** @num_contexts: contexts bound to the engine */
	__u32 num_contexts;
	/** @flags: DRM_VACCEL_COREDUMP_ENGINE_* */
	__u32 flags;
	/** @resets: engine resets done, hangs and device resets included */
	__u64 resets;
	/** @hangs: buffers found hung */
	__u64 hangs;
	/** @instructions: kernel instructions the engine has executed */
	__u64 instructions;
	/** @timeout_ns: time without progress that makes a buffer hung */
	__u64 timeout_ns;
	/** @time_limit_ns: engine time a buffer may use in all */
	__u64 time_limit_ns;
	/** @slice_ns: the arbiter's time slice */
	__u64 slice_ns;
	/**
	 * @running_ns: how long the buffer in slot 0 had been running in
	 * its current run; 0 if it was not running
	 */
	__u64 running_ns;
	/**
	 * @boosted_context: with %DRM_VACCEL_COREDUMP_ENGINE_BOOSTED, the
	 * handle of the context the starvation guard serves
	 */
	__u32 boosted_context;
	/** @pad: zero */
	__u32 pad;
	/** @band_ns: engine time per priority band, lowest first */
	__u64 band_ns[DRM_VACCEL_COREDUMP_BANDS];
	/** @band_ready: contexts with a buffer ready, per band */
	__u32 band_ready[DRM_VACCEL_COREDUMP_BANDS];
	/**
	 * @preemptions: preemptions of the engine per
	 * &enum drm_vaccel_coredump_preempt_reason; unused entries zero
	 */
	__u64 preemptions[DRM_VACCEL_COREDUMP_PREEMPT_REASONS];
	/** @slot: the HW queue: slot 0 runs, slot 1 is next */
	struct drm_vaccel_coredump_slot slot[DRM_VACCEL_COREDUMP_SLOTS];
};

/**
 * define DRM_VACCEL_COREDUMP_CONTEXT_GUILTY - context flag, its buffer
 * caused the event (a hang, a fault, the time limit)
 */
#define DRM_VACCEL_COREDUMP_CONTEXT_GUILTY	(1u << 0)
/** define DRM_VACCEL_COREDUMP_CONTEXT_FAULTED - context flag, a buffer faulted */
#define DRM_VACCEL_COREDUMP_CONTEXT_FAULTED	(1u << 1)
/**
 * define DRM_VACCEL_COREDUMP_CONTEXT_BANNED - context flag, it accepts no
 * more work; &drm_vaccel_coredump_context.ban_reason says why
 */
#define DRM_VACCEL_COREDUMP_CONTEXT_BANNED	(1u << 2)
/**
 * define DRM_VACCEL_COREDUMP_CONTEXT_DESTROYED - context flag, it was
 * destroyed, or its file closed, and drains
 */
#define DRM_VACCEL_COREDUMP_CONTEXT_DESTROYED	(1u << 3)

/**
 * struct drm_vaccel_coredump_context - a context and who made it
 *
 * As it is once the event has been recorded: a fault's record is filled,
 * a hang counts in @guilty_resets.
 */
struct drm_vaccel_coredump_context {
	/** @handle: its handle in its file (0 for the kernel's own) */
	__u32 handle;
	/** @flags: DRM_VACCEL_COREDUMP_CONTEXT_* */
	__u32 flags;
	/**
	 * @client_id: DRM client id of its file, as ``drm-client-id`` in
	 * fdinfo and the debugfs directory vm<client_id>
	 */
	__u64 client_id;
	/** @pid: thread-group id of the process that created it */
	__u32 pid;
	/** @engine_index: its engine, an index in the engine list */
	__u32 engine_index;
	/**
	 * @comm: the command name of that process; NUL-padded, not always
	 * NUL-terminated
	 */
	char comm[16];
	/** @priority: &enum drm_vaccel_priority */
	__u32 priority;
	/** @ban_reason: &enum drm_vaccel_ban_reason */
	__u32 ban_reason;
	/**
	 * @error: the negative errno its remaining buffers complete with
	 * (-ECANCELED once banned or destroyed); 0 while it runs
	 */
	__s32 error;
	/** @guilty_resets: engine resets caused by its hung buffers */
	__u32 guilty_resets;
	/** @innocent_resets: resets that preempted its buffers */
	__u32 innocent_resets;
	/** @pad: zero */
	__u32 pad;
	/** @jobs_submitted: buffers submitted */
	__u64 jobs_submitted;
	/** @jobs_completed: buffers completed, with or without error */
	__u64 jobs_completed;
	/** @preemptions: times its buffers were taken off the engine part-way */
	__u64 preemptions;
	/** @engine_ns: engine time its buffers used */
	__u64 engine_ns;
	/**
	 * @fault_va: with %DRM_VACCEL_COREDUMP_CONTEXT_FAULTED, the address
	 * that faulted, or what &drm_vaccel_context_state.fault_va holds for
	 * a kernel's fault that is not an access
	 */
	__u64 fault_va;
	/** @fault_pc: for a kernel's fault, the address of the instruction */
	__u64 fault_pc;
	/** @fault_offset: offset in its buffer of the packet that faulted */
	__u64 fault_offset;
	/** @fault_reason: &enum drm_vaccel_fault_reason */
	__u32 fault_reason;
	/** @fault_access: &enum drm_vaccel_access */
	__u32 fault_access;
};

/** define DRM_VACCEL_COREDUMP_EXCERPT - bytes of a buffer's excerpt */
#define DRM_VACCEL_COREDUMP_EXCERPT	256

/**
 * struct drm_vaccel_coredump_buffer - the DMA buffer that ran
 *
 * The excerpt is up to %DRM_VACCEL_COREDUMP_EXCERPT bytes of the buffer
 * around @offset (half before, half from it, less at the buffer's ends),
 * read through the address space of the buffer's context, as the engine
 * would; bytes it could not read (a page unmapped since) are zero and
 * their bits in @excerpt_valid clear.
 */
struct drm_vaccel_coredump_buffer {
	/** @context: handle of its context */
	__u32 context;
	/** @pad: zero */
	__u32 pad;
	/** @buffer_va: GPU VA of the buffer */
	__u64 buffer_va;
	/** @buffer_size: its size in bytes */
	__u64 buffer_size;
	/**
	 * @offset: offset in the buffer of the packet it stopped at: the one
	 * that faulted or hung, or was running
	 */
	__u64 offset;
	/**
	 * @progress: how far that packet got: bytes of a COPY or FILL,
	 * nanoseconds of a DELAY; 0 when it had not started
	 */
	__u64 progress;
	/** @stall_ns: engine time without progress, up to the event */
	__u64 stall_ns;
	/** @run_ns: engine time the buffer used in all, up to the event */
	__u64 run_ns;
	/** @excerpt_offset: offset in the buffer of the first byte of @excerpt */
	__u64 excerpt_offset;
	/** @excerpt_size: bytes of @excerpt that are the buffer's */
	__u32 excerpt_size;
	/** @pad2: zero */
	__u32 pad2;
	/** @excerpt_valid: bit n (of word n / 64): byte n of @excerpt was read */
	__u64 excerpt_valid[DRM_VACCEL_COREDUMP_EXCERPT / 64];
	/** @excerpt: the bytes */
	__u8 excerpt[DRM_VACCEL_COREDUMP_EXCERPT];
};

/**
 * define DRM_VACCEL_COREDUMP_NO_WORKITEM - &drm_vaccel_coredump_dispatch.current_item
 * when no work-item was running
 */
#define DRM_VACCEL_COREDUMP_NO_WORKITEM	0xffffffffu

/**
 * struct drm_vaccel_coredump_dispatch - a DISPATCH packet in flight
 *
 * The packet's operands, and where it got to.
 */
struct drm_vaccel_coredump_dispatch {
	/** @entry: the kernel's entry address */
	__u64 entry;
	/** @args: the argument block's address, in a0 */
	__u64 args;
	/** @grid: the grid, in work-items, x y z */
	__u32 grid[3];
	/** @wg: the workgroup size */
	__u32 wg[3];
	/** @num_groups: workgroups along each dimension */
	__u32 num_groups[3];
	/** @local_size: bytes of local memory per workgroup */
	__u32 local_size;
	/** @stack_size: bytes of stack per work-item */
	__u32 stack_size;
	/** @group_id: the workgroup in flight (or next), x y z */
	__u32 group_id[3];
	/** @group: the index of that workgroup, x fastest */
	__u64 group;
	/** @total_groups: workgroups in all */
	__u64 total_groups;
	/**
	 * @live: work-items of the workgroup that had not ended; 0 between
	 * two workgroups
	 */
	__u32 live;
	/** @waiting: work-items waiting at the barrier */
	__u32 waiting;
	/**
	 * @current_item: flat local id of the work-item that ran last (that
	 * faulted, for a kernel's fault), or %DRM_VACCEL_COREDUMP_NO_WORKITEM
	 */
	__u32 current_item;
	/** @pad: zero */
	__u32 pad;
};

/** define DRM_VACCEL_COREDUMP_MAX_WORKITEMS - work-items a dump holds at most */
#define DRM_VACCEL_COREDUMP_MAX_WORKITEMS	16

/**
 * enum drm_vaccel_coredump_workitem_state - where a work-item was
 */
enum drm_vaccel_coredump_workitem_state {
	/**
	 * @DRM_VACCEL_COREDUMP_WORKITEM_RUNNING: it was running (for a
	 * kernel's fault: it faulted, and its pc is the instruction's)
	 */
	DRM_VACCEL_COREDUMP_WORKITEM_RUNNING = 1,
	/** @DRM_VACCEL_COREDUMP_WORKITEM_READY: it waited for its turn */
	DRM_VACCEL_COREDUMP_WORKITEM_READY = 2,
	/** @DRM_VACCEL_COREDUMP_WORKITEM_BARRIER: it waited at the barrier */
	DRM_VACCEL_COREDUMP_WORKITEM_BARRIER = 3,
};

/**
 * struct drm_vaccel_coredump_workitem - the RV64 state of a work-item
 */
struct drm_vaccel_coredump_workitem {
	/** @flat_id: flat local id: x + wg_x * (y + wg_y * z) */
	__u32 flat_id;
	/** @state: &enum drm_vaccel_coredump_workitem_state */
	__u32 state;
	/** @local_id: local id, x y z */
	__u32 local_id[3];
	/** @fcsr: frm << 5 | fflags */
	__u32 fcsr;
	/** @global_id: global id, x y z */
	__u64 global_id[3];
	/** @pc: address of the next instruction it executes */
	__u64 pc;
	/** @instret: instructions it retired */
	__u64 instret;
	/** @x: the integer registers; x[0] is zero */
	__u64 x[32];
	/** @f: the floating-point registers, single precision NaN-boxed */
	__u64 f[32];
};

/**
 * define DRM_VACCEL_COREDUMP_WALK_IN_RANGE - page walk flag, the address
 * is inside the address space's range of mappable VAs
 */
#define DRM_VACCEL_COREDUMP_WALK_IN_RANGE	(1u << 0)

/** define DRM_VACCEL_COREDUMP_WALK_LEVELS - page-table levels */
#define DRM_VACCEL_COREDUMP_WALK_LEVELS	4

/**
 * struct drm_vaccel_coredump_page_walk - the walk of one address
 *
 * The walk the MMU does (see "Page-table format"), from the root table
 * (level 3) down, stopping at the first entry without
 * %DRM_VACCEL_PTE_VALID or after level 0.  The page-frame field of each
 * entry holds an identity of the page rather than its physical address, as
 * in debugfs ``page_table``: a keyed hash of the frame, random at each
 * boot, so that two entries pointing at one page show the same value and
 * nothing tells where the page is.  The flag bits are the entry's own.
 */
struct drm_vaccel_coredump_page_walk {
	/**
	 * @va: the address walked: the one that faulted, or for an illegal
	 * instruction or a CSR fault the pc
	 */
	__u64 va;
	/** @va_start: lowest mappable VA of the address space */
	__u64 va_start;
	/** @va_end: end (exclusive) of the mappable VAs */
	__u64 va_end;
	/**
	 * @levels: entries read, 0 to 4: entry[3] first, down to
	 * entry[4 - @levels]; 0 when the walk could not be made (an address
	 * beyond 48 bits)
	 */
	__u32 levels;
	/** @flags: DRM_VACCEL_COREDUMP_WALK_* */
	__u32 flags;
	/**
	 * @entry: the entry read at each level, indexed by level; the index
	 * of the entry in its table is (@va >> (12 + 9 * level)) & 511
	 */
	__u64 entry[DRM_VACCEL_COREDUMP_WALK_LEVELS];
};

#if defined(__cplusplus)
}
#endif

#endif /* _VACCEL_COREDUMP_H_ */
