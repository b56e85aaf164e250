/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * vaccel_priv.h - private header of libvaccel: the structures behind the
 * opaque handles of vaccel.h and the helpers shared between its files.
 * Nothing here is exported; only VACCEL_EXPORT functions are.
 */
#ifndef VACCEL_PRIV_H
#define VACCEL_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xf86drm.h>
#include <drm/vaccel_accel.h>

#include "vaccel.h"

#define VACCEL_EXPORT	__attribute__((visibility("default")))

/*
 * VACCEL_SYMVER(impl, "name@VERSION"): the exported function @impl is the
 * symbol name of that version: "name@@VERSION" for the version programs
 * link against, "name@VERSION" for an older one that programs linked
 * before keep calling (a result structure that grew, say).  The version
 * nodes are those of libvaccel.sym.
 */
#define VACCEL_SYMVER(impl, sym)	__asm__(".symver " #impl ", " sym)

/* The DRM driver name that marks a vaccel node. */
#define VACCEL_DRIVER_NAME	"vaccel"

/* The GPU page size of the memory API; the uapi fixes it at 4 KiB. */
#define VACCEL_PAGE_SIZE	4096ull
/* VA alignment of buffers of at least this size (64 KiB, see bo.c). */
#define VACCEL_BO_BIG_ALIGN	65536ull

/**
 * struct vaccel_va_extent - a range of GPU virtual addresses
 * @start: first address
 * @end: end, exclusive
 */
struct vaccel_va_extent {
	uint64_t start;
	uint64_t end;
};

/**
 * struct vaccel_va_space - the GPU VA allocator of a device handle (va.c)
 * @lock: protects every other field
 * @start: lowest address handed out, page aligned
 * @end: end (exclusive) of the addresses handed out, page aligned
 * @holes: the free extents, sorted by address; neighbours are always
 *	coalesced, so two holes never touch
 * @nholes: entries in @holes
 * @holes_cap: room in @holes; kept at least @nallocs + 1, the most holes
 *	there can be, so that freeing never needs memory
 * @allocs: the allocated extents, sorted by address, to validate frees
 * @nallocs: entries in @allocs
 * @allocs_cap: room in @allocs
 * @allocated: bytes allocated
 */
struct vaccel_va_space {
	pthread_mutex_t lock;
	uint64_t start;
	uint64_t end;
	struct vaccel_va_extent *holes;
	size_t nholes;
	size_t holes_cap;
	struct vaccel_va_extent *allocs;
	size_t nallocs;
	size_t allocs_cap;
	uint64_t allocated;
};

/* va.c: the allocator itself, also compiled alone by the host tests. */
int vaccel_va_space_init(struct vaccel_va_space *vs, uint64_t start,
			 uint64_t end);
void vaccel_va_space_fini(struct vaccel_va_space *vs);
int vaccel_va_space_alloc(struct vaccel_va_space *vs, uint64_t size,
			  uint64_t align, uint64_t *va);
int vaccel_va_space_free(struct vaccel_va_space *vs, uint64_t va,
			 uint64_t size);
size_t vaccel_va_space_holes(struct vaccel_va_space *vs);

struct vaccel_part;

/**
 * struct vaccel_bo - a buffer object, see vaccel.h
 * @dev: the device it belongs to
 * @handle: its GEM handle in @dev's file; 0 for a unified buffer
 * @flags: VACCEL_BO_* flags
 * @size: size in bytes, as the kernel rounded it
 * @va: GPU virtual address of its mapping in @dev's VM
 * @va_owned: @va came from the VA allocator for this buffer, and goes back
 *	to it with the buffer; a part of a unified buffer lives at an address
 *	of the unified buffer instead
 * @bound: the buffer is mapped at @va in @dev's VM
 * @map: the CPU mapping, or NULL before vaccel_bo_map()
 * @refcount: references; vaccel_bo_import() of a buffer the device already
 *	has adds one, vaccel_bo_free() drops one
 * @next: chain of &vaccel_device.bo_table, or of &vaccel_unified.bos for
 *	a unified buffer
 * @parts: for a buffer of a unified device, its parts by offset
 * @nparts: entries of @parts; 0 for a buffer of a device that is not
 *	unified
 * @ranges: for a unified buffer, its mappings' flags by range (the
 *	segments of a module)
 * @nranges: entries of @ranges
 *
 * @map, @refcount and @next are protected by &vaccel_device.bo_lock (by
 * &vaccel_unified.lock for a unified buffer); @parts changes only in
 * vaccel_bo_remap(), which the caller does not race with other uses of the
 * buffer; the other fields do not change after creation.
 */
struct vaccel_bo {
	struct vaccel_device *dev;
	uint32_t handle;
	uint32_t flags;
	uint64_t size;
	uint64_t va;
	bool va_owned;
	bool bound;
	void *map;
	unsigned int refcount;
	struct vaccel_bo *next;
	struct vaccel_part *parts;
	unsigned int nparts;
	struct vaccel_bo_range *ranges;
	unsigned int nranges;
};

/**
 * struct vaccel_part - the pages of a unified buffer one member holds
 * @offset: offset in the unified buffer, page aligned
 * @size: bytes, page aligned, not zero
 * @owner: index of the member whose buffer holds the pages
 * @bos: by member, the buffer of the part in that member's file: created
 *	on @owner, imported from it as a dma-buf by the others; each mapped
 *	at the unified buffer's address plus @offset
 */
struct vaccel_part {
	uint64_t offset;
	uint64_t size;
	unsigned int owner;
	struct vaccel_bo *bos[VACCEL_UNIFIED_MAX_MEMBERS];
};

/**
 * struct vaccel_unified - what makes a device unified (unified.c)
 * @n: number of members
 * @members: the member devices, opened by the unified device
 * @lock: protects @bos and the CPU mappings of unified buffers
 * @bos: the live unified buffers, linked by &vaccel_bo.next
 */
struct vaccel_unified {
	unsigned int n;
	struct vaccel_device *members[VACCEL_UNIFIED_MAX_MEMBERS];
	pthread_mutex_t lock;
	struct vaccel_bo *bos;
};

/**
 * struct vaccel_device - an open device, see vaccel.h
 * @fd: the open node, O_RDWR | O_CLOEXEC
 * @path: the path it was opened from
 * @version: drmGetVersion() of @fd
 * @info: the answer to DRM_VACCEL_QUERY_DEVICE (the prefix this library knows)
 * @engines: the raw answer to DRM_VACCEL_QUERY_ENGINES
 * @engine_count: entries in @engines
 * @engine_entry_size: the kernel's stride between two entries of @engines
 * @va: the GPU VA allocator of the file's VM, with its own lock
 * @bo_lock: protects @bo_table, @bo_buckets, @bo_count and the mutable
 *	fields of every buffer; held across the creation of a GEM handle by
 *	import and its GEM_CLOSE by free, so that a handle number always
 *	names at most one &struct vaccel_bo
 * @bo_table: the live buffers by GEM handle, a chained hash table
 * @bo_buckets: size of @bo_table, a power of two
 * @bo_count: buffers in @bo_table
 * @modules_lock: protects @modules and @next_module_id
 * @modules: the loaded kernel modules, newest first, linked by
 *	&vaccel_module.next: where a fault's addresses are looked up
 * @next_module_id: the &vaccel_module.id of the next module loaded
 * @prof_lock: protects @prof_pages and their slots
 * @prof_pages: the pages of profiling slots of its events (event.c)
 * @parent: for a member of a unified device, that device, whose VA
 *	allocator and modules the member uses; NULL otherwise
 * @unified: for a unified device, its members; NULL otherwise.  @fd and
 *	@version are then its first member's, not its own
 *
 * The fields above @va, @parent and @unified are written only while
 * opening and read-only afterwards, hence safe to read from several
 * threads without a lock.
 */
struct vaccel_device {
	int fd;
	char *path;
	drmVersionPtr version;
	struct drm_vaccel_device_info info;
	struct drm_vaccel_engine_list *engines;
	uint32_t engine_count;
	uint32_t engine_entry_size;
	struct vaccel_va_space va;
	pthread_mutex_t bo_lock;
	struct vaccel_bo **bo_table;
	uint32_t bo_buckets;
	uint32_t bo_count;
	pthread_mutex_t modules_lock;
	struct vaccel_module *modules;
	uint32_t next_module_id;
	pthread_mutex_t prof_lock;
	struct vaccel_prof_page *prof_pages;
	struct vaccel_device *parent;
	struct vaccel_unified *unified;
};

/* The VA allocator @dev's buffers take their addresses from. */
static inline struct vaccel_va_space *vaccel_dev_va(struct vaccel_device *dev)
{
	return dev->parent ? &dev->parent->va : &dev->va;
}

/* Longest kernel or function name a fault record keeps. */
#define VACCEL_FAULT_NAME_MAX	255

/* Snapshots of events a queue holds for its next submission (queue.c). */
#define VACCEL_QUEUE_MAX_WAITS	VACCEL_MAX_WAITS

/**
 * struct vaccel_cmd_record - where a command of a queue is in its DMA buffer
 * @index: the command's number in its queue, from 1
 * @module_id: for a launch, &vaccel_module.id of the kernel's module
 * @kernel: for a launch, the kernel's index in its module
 * @word: the word of the buffer where the command's packet starts
 * @command: &enum vaccel_command
 */
struct vaccel_cmd_record {
	uint64_t index;
	uint32_t module_id;
	uint16_t kernel;
	uint16_t word;
	uint8_t command;
};

/**
 * struct vaccel_cmdbuf - a DMA buffer of a queue's pool (queue.c)
 * @bo: the buffer object, mapped read-only and non-executable for the device
 * @map: its CPU mapping, where packets are written
 * @va: its GPU virtual address
 * @words: its size in 64-bit words
 * @point: the queue's timeline point of the last submission from it; the
 *	device is done with the buffer once that point has signalled (0:
 *	nothing submitted from it)
 * @first_point: the point of the first submission from it since it was
 *	last recorded into from the start (0: none yet): @recs describe
 *	the submissions from @first_point to @point
 * @recs: the commands recorded into it since then, by word; a command
 *	whose record could not be allocated is simply missing
 * @nrecs: entries of @recs
 * @recs_cap: room in @recs
 * @held: held submissions from it (struct vaccel_held): it stays busy,
 *	whatever @point says, until they are submitted or dropped
 * @next: link in the queue's busy or free list
 */
struct vaccel_cmdbuf {
	struct vaccel_bo *bo;
	uint64_t *map;
	uint64_t va;
	uint32_t words;
	uint64_t point;
	uint64_t first_point;
	struct vaccel_cmd_record *recs;
	uint32_t nrecs;
	uint32_t recs_cap;
	unsigned int held;
	struct vaccel_cmdbuf *next;
};

/**
 * struct vaccel_dwait - a wait that cannot go to the kernel yet (queue.c)
 * @ev: a host event, or a pending event (a reference of the wait)
 * @point: the point waited for; 0 for a binary or host event
 * @status: 0, or the failure the wait had when it was taken (an event
 *	whose held command was dropped): the work waiting is dropped too
 */
struct vaccel_dwait {
	struct vaccel_event *ev;
	uint64_t point;
	int status;
};

/**
 * struct vaccel_held - a submission held back in user space (queue.c)
 * @buf: the DMA buffer it is in
 * @start: its first word in @buf
 * @end: its end (exclusive) in @buf
 * @waits: syncobjs holding snapshots of the fences it waits for, its own
 * @nwaits: entries of @waits
 * @dwaits: its waits for host and pending events, resolved on release
 * @ndwaits: entries of @dwaits
 * @signal: the event it signals (a reference), or NULL
 * @point: the point of @signal (0: binary)
 * @arm: @signal profiles the command that ends here
 * @watch: it holds part of a command whose submission time is noted
 * @doom: 0, or the status it is to be dropped with (a group that lost
 *	its start)
 * @next: the queue's next held submission
 */
struct vaccel_held {
	struct vaccel_cmdbuf *buf;
	uint32_t start;
	uint32_t end;
	uint32_t waits[VACCEL_QUEUE_MAX_WAITS];
	unsigned int nwaits;
	struct vaccel_dwait dwaits[VACCEL_QUEUE_MAX_WAITS];
	unsigned int ndwaits;
	struct vaccel_event *signal;
	uint64_t point;
	bool arm;
	bool watch;
	int doom;
	struct vaccel_held *next;
};

/**
 * struct vaccel_queue - a command queue, see vaccel.h
 * @dev: the device
 * @context: the kernel context's handle
 * @engine_class: the class of its engine
 * @timeline: a timeline syncobj; submission n signals point n
 * @last: a binary syncobj holding the fence of the last submission, whose
 *	error tells whether the queue's work failed
 * @submitted: the last point submitted
 * @completed: the highest point known to have signalled
 * @cur: the DMA buffer being recorded into, or NULL
 * @start: word of @cur where the recording not yet submitted starts
 * @used: words of @cur written; [@start, @used) is not submitted yet
 * @busy: DMA buffers the device may still read, oldest (lowest @point)
 *	first; @busy_tail is the newest
 * @busy_tail: last entry of @busy
 * @free: DMA buffers ready to be recorded into
 * @nbufs: DMA buffers the pool holds, @cur included
 * @wait_objs: binary syncobjs holding snapshots of the events the next
 *	submission waits for; created as needed and kept
 * @nwait_objs: entries of @wait_objs created
 * @nwaits: entries of @wait_objs the next submission waits for
 * @error: 0, or -ECANCELED once the queue's work failed: the queue accepts
 *	no more work
 * @commands: commands recorded so far, the index of the last one
 * @fault: the fault record, once @fault_valid
 * @fault_valid: @fault holds the queue's failure, which never changes
 * @fault_kernel: the kernel name @fault points to
 * @fault_function: the function name @fault points to
 * @u: for a queue of a unified device, its members' queues; NULL otherwise
 * @priority: &enum vaccel_priority
 * @sig_ev: the event vaccel_queue_set_command_sync() set for the next
 *	command to signal, or NULL
 * @sig_point: the point @sig_ev is to signal (0: binary)
 * @sig_watch: a command that signals an event is being recorded: the
 *	next submission notes its time in @sig_submit_ns
 * @sig_submit_ns: when the first submission of that command went to the
 *	kernel; 0 until then
 * @lock: serialises the calls on the queue with the threads that release
 *	its held work (vaccel_event_set_status()); protects every field but
 *	@refs, @reg_next, @reg_prev and @registered; not taken for a unified
 *	queue, which never holds work
 * @held: the submissions held back, oldest first
 * @held_tail: the newest of @held
 * @dwaits: waits of the next submission for host and pending events
 * @ndwaits: entries of @dwaits; @nwaits + @ndwaits <= %VACCEL_QUEUE_MAX_WAITS
 * @rel_submit_ns: the submission time of the held command being released
 * @kick_error: an error of submitting released work, for the next
 *	vaccel_queue_flush() or vaccel_queue_finish()
 * @group: a command group is open
 * @group_ev: its signal, or NULL
 * @group_point: the point of @group_ev
 * @doom: 0, or the status every submission is held and dropped with until
 *	the open group ends (its start was dropped)
 * @dead: destroyed; only the references keep the structure
 * @refs: references, under the deferral lock (event.c): the owner's and
 *	those of threads releasing work
 * @registered: on the deferral lock's list of queues that hold work
 * @reg_next: link in that list
 * @reg_prev: link in that list
 *
 * The caller serialises its calls on a queue; @lock is for the threads
 * that set host events.  Lock order: @lock, then the deferral lock, then
 * &vaccel_event.lock; never two queues' locks at once.
 */
struct vaccel_queue {
	struct vaccel_device *dev;
	uint32_t context;
	uint32_t engine_class;
	uint32_t timeline;
	uint32_t last;
	uint64_t submitted;
	uint64_t completed;
	struct vaccel_cmdbuf *cur;
	uint32_t start;
	uint32_t used;
	struct vaccel_cmdbuf *busy;
	struct vaccel_cmdbuf *busy_tail;
	struct vaccel_cmdbuf *free;
	unsigned int nbufs;
	uint32_t wait_objs[VACCEL_QUEUE_MAX_WAITS];
	unsigned int nwait_objs;
	unsigned int nwaits;
	int error;
	uint64_t commands;
	struct vaccel_fault_info fault;
	bool fault_valid;
	char fault_kernel[VACCEL_FAULT_NAME_MAX + 1];
	char fault_function[VACCEL_FAULT_NAME_MAX + 1];
	struct vaccel_uqueue *u;
	uint32_t priority;
	struct vaccel_event *sig_ev;
	uint64_t sig_point;
	bool sig_watch;
	uint64_t sig_submit_ns;
	pthread_mutex_t lock;
	struct vaccel_held *held;
	struct vaccel_held *held_tail;
	struct vaccel_dwait dwaits[VACCEL_QUEUE_MAX_WAITS];
	unsigned int ndwaits;
	uint64_t rel_submit_ns;
	int kick_error;
	bool group;
	struct vaccel_event *group_ev;
	uint64_t group_point;
	int doom;
	bool dead;
	unsigned int refs;
	bool registered;
	struct vaccel_queue *reg_next;
	struct vaccel_queue *reg_prev;
};

/**
 * struct vaccel_uqueue - the members' queues of a unified queue (unified.c)
 * @n: number of members
 * @q: the queue of each member
 * @epoch: commands recorded on each member's queue so far
 * @seen: @seen[j][i], the commands of member i that the work member j
 *	records next is ordered after (it waits for their fence)
 * @export_fd: by member, a sync_file of the fence of its last submission,
 *	or -1
 * @export_point: the submission @export_fd is of
 * @error: 0, or -ECANCELED once work of a member failed
 */
struct vaccel_uqueue {
	unsigned int n;
	struct vaccel_queue *q[VACCEL_UNIFIED_MAX_MEMBERS];
	uint64_t epoch[VACCEL_UNIFIED_MAX_MEMBERS];
	uint64_t seen[VACCEL_UNIFIED_MAX_MEMBERS][VACCEL_UNIFIED_MAX_MEMBERS];
	int export_fd[VACCEL_UNIFIED_MAX_MEMBERS];
	uint64_t export_point[VACCEL_UNIFIED_MAX_MEMBERS];
	int error;
};

struct vaccel_prof_page;

/**
 * struct vaccel_event - an event, see vaccel.h
 * @dev: the device
 * @handle: its syncobj, binary or timeline; 0 for an event of a unified
 *	device
 * @flags: &enum vaccel_event_flags
 * @n: for an event of a unified device, its number of members; else 0
 * @members: then, an event of each member, which the member's queue
 *	signals
 * @lock: protects @armed, @armed_point and @submitted_ns
 * @prof_page: for a profiling event, the page of its slot
 * @prof_slot: the slot's index in @prof_page
 * @times: the slot's CPU address: started, ended (written by the engine)
 * @times_va: the slot's GPU address
 * @armed: a command signals the event and writes its times to the slot
 * @armed_point: the point it signals (0: the binary fence)
 * @submitted_ns: when the submission holding its start went to the kernel
 * @status: for a host event, 1 while unset, then its status (0 or a
 *	negative errno)
 * @held: held submissions that signal the event: it is pending while
 *	there are any
 * @held_point: the highest point of a timeline event they signal
 * @fail_status: 0, or the status of the last held command that signalled
 *	the event and was dropped (the syncobj then holds a signalled fence)
 * @fail_point: the point of that command
 * @refs: references: the owner's and those of held work
 *
 * @status, @held, @held_point, @fail_status, @fail_point and @refs are
 * protected by the deferral lock (event.c).  A host event has no syncobj,
 * and its @dev may be NULL.
 */
struct vaccel_event {
	struct vaccel_device *dev;
	uint32_t handle;
	uint32_t flags;
	unsigned int n;
	struct vaccel_event *members[VACCEL_UNIFIED_MAX_MEMBERS];
	pthread_mutex_t lock;
	struct vaccel_prof_page *prof_page;
	unsigned int prof_slot;
	volatile uint64_t *times;
	uint64_t times_va;
	bool armed;
	uint64_t armed_point;
	uint64_t submitted_ns;
	int status;
	unsigned int held;
	uint64_t held_point;
	int fail_status;
	uint64_t fail_point;
	unsigned int refs;
};

/* event.c: syncobjs of a device, through libdrm. */
int vaccel_syncobj_create(struct vaccel_device *dev, uint32_t *handle);
void vaccel_syncobj_destroy(struct vaccel_device *dev, uint32_t handle);
int vaccel_syncobj_export_point(struct vaccel_device *dev, uint32_t handle,
				uint64_t point, int *fd);
int vaccel_syncobj_status(struct vaccel_device *dev, uint32_t handle,
			  uint64_t point, int *status);
/* event.c: events' points and profiling. */
bool vaccel_event_point_ok(const struct vaccel_event *ev, uint64_t point);
int vaccel_event_get_point_submitted(struct vaccel_event *ev, uint64_t *point);
void vaccel_event_arm(struct vaccel_event *ev, uint64_t point, uint64_t submitted_ns);
void vaccel_event_disarm(struct vaccel_event *ev);
int vaccel_event_times(struct vaccel_event *ev, struct vaccel_event_times *out);
void vaccel_device_fini_profiling(struct vaccel_device *dev);
uint64_t vaccel_now_ns(void);

/*
 * event.c: the deferral lock and what it protects.  vaccel_defer_lock()
 * and _unlock() take it; vaccel_defer_changed() (with it held) notes that
 * held work or a host event changed and wakes the CPU waiters;
 * vaccel_defer_wait_change() sleeps until a change after generation @gen
 * or the absolute CLOCK_MONOTONIC @deadline (-ETIME then).
 */
void vaccel_defer_lock(void);
void vaccel_defer_unlock(void);
void vaccel_defer_changed(void);
uint64_t vaccel_defer_generation(void);
int vaccel_defer_wait_change(uint64_t gen, int64_t deadline);
/* event.c: references of events held by queued work. */
void vaccel_event_get(struct vaccel_event *ev);
void vaccel_event_put(struct vaccel_event *ev);
/* event.c: a pending event's held command was dropped with @status. */
void vaccel_event_fail_held(struct vaccel_event *ev, uint64_t point, int status);
/* event.c: the last point of timeline @ev submitted, or held back. */
int vaccel_event_last_point(struct vaccel_event *ev, uint64_t *point);
int64_t vaccel_abs_timeout(int64_t timeout_ns);

/* queue.c: the registry of queues holding work, and their release. */
void vaccel_defer_register_locked(struct vaccel_queue *q);
void vaccel_defer_unregister_locked(struct vaccel_queue *q);
void vaccel_defer_sweep(void);
/* queue.c: the lock of a plain queue around a public call (module.c). */
void vaccel_queue_lock(struct vaccel_queue *q);
int vaccel_queue_unlock(struct vaccel_queue *q, int ret);

/* error.c: the message of vaccel_last_error_message(), for this thread. */
__attribute__((format(printf, 2, 3)))
int vaccel_error(int err, const char *fmt, ...);
void vaccel_error_clear(void);

/* --- kernel modules --- */

/* Most loadable segments of a module. */
#define VACCEL_ELF_MAX_SEGMENTS		16
/* Most kernels of a module. */
#define VACCEL_ELF_MAX_KERNELS		1024
/* Longest kernel name, in characters. */
#define VACCEL_KERNEL_NAME_MAX		255
/* Largest module image, loadable segments from the first page to the last. */
#define VACCEL_ELF_MAX_IMAGE		(256ull << 20)
/* Program header type of local memory (vaccel-kernel.ld), OS-specific range. */
#define VACCEL_PT_LOCAL			0x60766c6d
/* The symbols that name kernels: VACCEL_KERNEL() of vaccel_kernel.h. */
#define VACCEL_KERNEL_PREFIX		"__vaccel_kernel_"
/* The print descriptor of the device runtime (umd/kernel/rt_print.c). */
#define VACCEL_PRINT_SYMBOL		"__vaccel_print"

/**
 * struct vaccel_elf_segment - a loadable segment of a module (elf.c)
 * @vaddr: link address
 * @memsz: bytes in memory
 * @offset: offset of its contents in the file
 * @filesz: bytes of contents; the rest of @memsz is zeroed
 * @flags: PF_R, PF_W and PF_X
 */
struct vaccel_elf_segment {
	uint64_t vaddr;
	uint64_t memsz;
	uint64_t offset;
	uint64_t filesz;
	uint32_t flags;
};

/**
 * struct vaccel_elf_image - a module checked by vaccel_elf_parse() (elf.c)
 * @file: the file, which must outlive the structure
 * @file_size: its size
 * @base: link address of the first page of the image
 * @size: bytes from @base to the end of the last segment, whole pages
 * @align: alignment of the image's GPU address, a power of two >= 4096
 * @seg: the loadable segments, by address, no two sharing a page
 * @nseg: entries of @seg
 * @has_local: the module has a local memory segment
 * @local_vaddr: its link address
 * @local_size: its size, the local memory of the module's kernels
 * @has_dynamic: the module has a dynamic segment
 * @dyn_offset: its offset in the file
 * @dyn_size: its size in the file
 * @rela_offset: offset of the relocation table in the file
 * @rela_count: relocations, each R_RISCV_NONE or R_RISCV_RELATIVE
 * @symtab_offset: offset of the symbol table in the file
 * @symtab_count: its entries
 * @strtab_offset: offset of its string table in the file
 * @strtab_size: its size
 * @nkernels: kernels of the module, at least one
 * @has_print: the module has the print descriptor of the device runtime
 * @print_vaddr: its link address
 */
struct vaccel_elf_image {
	const unsigned char *file;
	size_t file_size;
	uint64_t base;
	uint64_t size;
	uint64_t align;
	struct vaccel_elf_segment seg[VACCEL_ELF_MAX_SEGMENTS];
	unsigned int nseg;
	bool has_local;
	uint64_t local_vaddr;
	uint64_t local_size;
	bool has_dynamic;
	uint64_t dyn_offset;
	uint64_t dyn_size;
	uint64_t rela_offset;
	uint64_t rela_count;
	uint64_t symtab_offset;
	uint64_t symtab_count;
	uint64_t strtab_offset;
	uint64_t strtab_size;
	unsigned int nkernels;
	bool has_print;
	uint64_t print_vaddr;
};

/*
 * elf.c, also compiled alone by the host tests: checks @file, 0 or
 * -ENOEXEC, -EBADMSG, -ENOTSUP, -E2BIG with a message in @msg.
 */
int vaccel_elf_parse(const void *file, size_t size, struct vaccel_elf_image *img,
		     char *msg, size_t msg_size);
/* The next kernel from symbol *@pos: its name and offset in the image. */
bool vaccel_elf_next_kernel(const struct vaccel_elf_image *img, uint64_t *pos,
			    const char **name, uint64_t *offset);
/*
 * Writes the image (@img->size bytes) into @dst for GPU address @va, its
 * relocations applied, those into local memory against @local_base.
 */
void vaccel_elf_place(const struct vaccel_elf_image *img, void *dst, uint64_t va,
		      uint64_t local_base);
/*
 * The next function from symbol *@pos: a defined STT_FUNC symbol in an
 * executable segment, not a kernel's alias; its name, its offset in the
 * image and its size.
 */
bool vaccel_elf_next_function(const struct vaccel_elf_image *img, uint64_t *pos,
			      const char **name, uint64_t *offset, uint64_t *size);
/*
 * The section named @name, with contents in the file: its offset and
 * size in *@offset and *@size; false if there is none.
 */
bool vaccel_elf_find_section(const struct vaccel_elf_image *img, const char *name,
			     uint64_t *offset, uint64_t *size);
/**
 * struct vaccel_elf_section - a section of a module, from vaccel_elf_next_section()
 * @name: its name, NUL-terminated inside the file's section name table
 * @type: sh_type
 * @flags: sh_flags
 * @offset: offset of its contents in the file
 * @size: bytes of contents
 * @in_file: the contents are in the file: not SHT_NOBITS, and [@offset,
 *	@offset + @size) inside it
 */
struct vaccel_elf_section {
	const char *name;
	uint32_t type;
	uint64_t flags;
	uint64_t offset;
	uint64_t size;
	bool in_file;
};

/*
 * The section after number *@pos (start with 0) that has a name, in
 * *@sec; false after the last.
 */
bool vaccel_elf_next_section(const struct vaccel_elf_image *img, unsigned int *pos,
			     struct vaccel_elf_section *sec);
/* Prefix of the metadata sections a module keeps (vaccel_module_get_section()). */
#define VACCEL_SECTION_PREFIX		".vaccel."

/* The file's bytes of [@vaddr, @vaddr + @len) of an executable segment, or NULL. */
const unsigned char *vaccel_elf_code(const struct vaccel_elf_image *img,
				     uint64_t vaddr, uint64_t len);

/**
 * struct vaccel_stack_need - the stack a function needs, from stack.c
 * @known: @bytes is the most the function and its callees use
 * @bytes: when @known, that many bytes
 */
struct vaccel_stack_need {
	bool known;
	uint32_t bytes;
};

struct vaccel_stack_graph;

/*
 * stack.c, also compiled alone by the host tests: the call graph of a
 * module's functions with their frames (clang's .stack_sizes), then the
 * need of the function at image offset @offset.
 */
int vaccel_stack_graph_build(const struct vaccel_elf_image *img,
			     struct vaccel_stack_graph **out);
struct vaccel_stack_need vaccel_stack_graph_need(struct vaccel_stack_graph *g,
						 uint64_t offset);
void vaccel_stack_graph_free(struct vaccel_stack_graph *g);

/* Stores @value at link address @vaddr of an image placed in @dst. */
void vaccel_elf_put64(const struct vaccel_elf_image *img, void *dst, uint64_t vaddr,
		      uint64_t value);

/* Bytes of the print buffer's header: used, dropped (rt_print.c). */
#define VACCEL_PRINT_HEADER		8

/**
 * struct vaccel_kernel - a kernel of a module, see vaccel.h
 * @mod: its module
 * @name: its name, without the symbol's prefix
 * @entry: GPU address of its entry
 * @stack_size: bytes of stack per work-item vaccel_launch() asks for
 * @stack_need: bytes of stack it needs, when @flags says it is known
 * @flags: &enum vaccel_kernel_flags
 */
struct vaccel_kernel {
	struct vaccel_module *mod;
	char *name;
	uint64_t entry;
	uint32_t stack_size;
	uint32_t stack_need;
	uint32_t flags;
};

/**
 * struct vaccel_launch_plan - how a launch runs, once checked (module.c)
 * @first: the first workgroup of its range
 * @count: workgroups of its range; 0 for the whole grid
 * @local_size: bytes of local memory per workgroup
 * @stack_size: bytes of stack per work-item
 */
struct vaccel_launch_plan {
	uint64_t first;
	uint64_t count;
	uint32_t local_size;
	uint32_t stack_size;
};

/**
 * struct vaccel_function - a function of a module, for faults (module.c)
 * @start: its offset in the image
 * @size: its size in bytes, 0 if the symbol does not say
 * @name: offset of its name in &vaccel_module.names
 */
struct vaccel_function {
	uint64_t start;
	uint64_t size;
	uint32_t name;
};

/**
 * struct vaccel_module - a loaded kernel module, see vaccel.h
 * @dev: the device
 * @image: the buffer holding the image, mapped segment by segment
 * @local_size: bytes of local memory of its kernels
 * @kernels: its kernels
 * @nkernels: entries of @kernels
 * @print: the print buffer, or NULL if the module does not print
 * @print_cpu: its CPU mapping
 * @print_read: bytes of its text vaccel_module_read_print() returned
 * @id: its number on the device, from 1, never reused
 * @link_base: the link address of the image's first page in the ELF file
 * @functions: the functions of its symbol table, by @start
 * @nfunctions: entries of @functions
 * @names: their names, NUL-terminated one after the other
 * @sections: copies of its non-allocated ".vaccel." sections, each its
 *	name (NUL-terminated), padded to 8 bytes, then its size as a
 *	uint64_t, then its bytes padded to 8
 * @sections_size: bytes of @sections
 * @next: link in &vaccel_device.modules, under its lock
 */
struct vaccel_module {
	struct vaccel_device *dev;
	struct vaccel_bo *image;
	uint32_t local_size;
	struct vaccel_kernel *kernels;
	unsigned int nkernels;
	struct vaccel_bo *print;
	unsigned char *print_cpu;
	uint32_t print_read;
	uint32_t id;
	uint64_t link_base;
	struct vaccel_function *functions;
	unsigned int nfunctions;
	char *names;
	unsigned char *sections;
	size_t sections_size;
	struct vaccel_module *next;
};

/**
 * struct vaccel_bo_range - part of a buffer mapped with its own flags (bo.c)
 * @offset: offset in the buffer, page aligned
 * @size: bytes, page aligned
 * @flags: VACCEL_BO_GPU_READ_ONLY and VACCEL_BO_GPU_NO_EXEC
 *
 * The parts of a buffer not in any range are not mapped for the device.
 */
struct vaccel_bo_range {
	uint64_t offset;
	uint64_t size;
	uint32_t flags;
};

/* Most ranges of vaccel_bo_alloc_ranges(). */
#define VACCEL_BO_MAX_RANGES		VACCEL_ELF_MAX_SEGMENTS

/*
 * bo.c: a buffer of @size bytes at a GPU address aligned to @align (a
 * power of two, at least what vaccel_bo_alloc() would use), mapped for
 * the device in @count ranges of their own flags, in one VM_BIND.
 */
int vaccel_bo_alloc_ranges(struct vaccel_device *dev, uint64_t size,
			   uint64_t align, const struct vaccel_bo_range *ranges,
			   unsigned int count, struct vaccel_bo **out);

/*
 * queue.c: records a DISPATCH of kernel @k whose argument block,
 * @args_size bytes at @args, is copied into the DMA buffer just before it
 * (so that it lives exactly as long as the packet); vaccel_launch() of
 * module.c.
 */
int vaccel_queue_record_launch(struct vaccel_queue *q, const struct vaccel_kernel *k,
			       const void *args, size_t args_size,
			       const uint32_t grid[3], const uint32_t workgroup[3],
			       const struct vaccel_launch_plan *plan);

/*
 * queue.c: the workgroups of a grid, 0 if a size is zero or the count
 * overflows 64 bits.
 */
uint64_t vaccel_grid_groups(const uint32_t grid[3], const uint32_t wg[3]);
/*
 * queue.c: records a DISPATCH of workgroups [@first, @first + @count) of
 * the grid (@count 0: all of them) without checking the operands.
 */
int vaccel_queue_record_dispatch(struct vaccel_queue *q, uint64_t entry_va,
				 uint64_t args_va, const uint32_t grid[3],
				 const uint32_t workgroup[3], uint32_t local_size,
				 uint32_t stack_size, uint64_t first, uint64_t count);
/* queue.c: the next submission of @q waits for the fence of sync_file @fd. */
int vaccel_queue_wait_sync_file(struct vaccel_queue *q, int fd);
/* queue.c: submits what @q recorded and its waits, if anything. */
int vaccel_queue_submit_pending(struct vaccel_queue *q);
/*
 * queue.c: whether the kernel takes a DISPATCH of these operands: 0,
 * -EINVAL or -ENOTSUP.
 */
int vaccel_queue_check_dispatch(const struct vaccel_queue *q, uint64_t entry,
				const uint32_t grid[3], const uint32_t wg[3],
				uint32_t local_size, uint32_t stack_size);

/* --- unified devices (unified.c) --- */

int vaccel_device_open_plain(unsigned int index, struct vaccel_device **out);
int vaccel_unified_open_env(struct vaccel_device **out);
void vaccel_unified_close(struct vaccel_device *dev);
int vaccel_unified_vm_stats(struct vaccel_device *dev, struct vaccel_vm_stats *out);
int vaccel_unified_bo_alloc(struct vaccel_device *dev, uint64_t size,
			    uint32_t flags, uint64_t align,
			    const struct vaccel_bo_range *ranges,
			    unsigned int count, bool split, struct vaccel_bo **out);
int vaccel_unified_bo_import(struct vaccel_device *dev, int fd,
			     struct vaccel_bo **out);
void vaccel_unified_bo_free(struct vaccel_bo *bo);
int vaccel_unified_bo_map(struct vaccel_bo *bo, void **ptr);
int vaccel_unified_bo_export(struct vaccel_bo *bo, int *fd);
int vaccel_unified_queue_create(struct vaccel_device *dev,
				const struct vaccel_queue_desc *desc,
				struct vaccel_queue **out);
void vaccel_unified_queue_destroy(struct vaccel_queue *q);
int vaccel_uq_copy(struct vaccel_queue *q, uint64_t dst, uint64_t src,
		   uint64_t size);
int vaccel_uq_fill(struct vaccel_queue *q, uint64_t dst, uint64_t size,
		   uint32_t value);
int vaccel_uq_write(struct vaccel_queue *q, uint64_t va, uint64_t value,
		    unsigned int bits);
int vaccel_uq_timestamp(struct vaccel_queue *q, uint64_t va);
int vaccel_uq_wait_mem(struct vaccel_queue *q, uint64_t va, uint64_t ref,
		       uint64_t mask, enum vaccel_compare op, unsigned int bits);
int vaccel_uq_delay(struct vaccel_queue *q, uint64_t ns);
int vaccel_uq_dispatch(struct vaccel_queue *q, uint64_t entry, uint64_t args,
		       const uint32_t grid[3], const uint32_t wg[3],
		       uint32_t local_size, uint32_t stack_size);
int vaccel_uq_launch(struct vaccel_queue *q, const struct vaccel_kernel *k,
		     const uint32_t grid[3], const uint32_t wg[3],
		     const void *args, size_t args_size,
		     const struct vaccel_launch_plan *plan);
int vaccel_uq_flush(struct vaccel_queue *q);
int vaccel_uq_finish(struct vaccel_queue *q);
int vaccel_uq_signal(struct vaccel_queue *q, struct vaccel_event *ev,
		     uint64_t point);
int vaccel_uq_wait_point(struct vaccel_queue *q, struct vaccel_event *ev,
			 uint64_t point);
int vaccel_uq_wait_points(struct vaccel_queue *q,
			  const struct vaccel_event_point *waits, unsigned int count);
int vaccel_uq_command_begin(struct vaccel_queue *q, uint64_t *commands);
int vaccel_uq_command_end(struct vaccel_queue *q, uint64_t commands);
int vaccel_uq_get_stats(struct vaccel_queue *q, struct vaccel_queue_stats *stats);
int vaccel_uq_get_fault(struct vaccel_queue *q, struct vaccel_fault_info *out);
int vaccel_unified_event_create(struct vaccel_device *dev, uint32_t flags,
				struct vaccel_event **out);
void vaccel_unified_event_destroy(struct vaccel_event *ev);
int vaccel_unified_event_wait(struct vaccel_event *ev, uint64_t point,
			      int64_t timeout_ns);
int vaccel_unified_event_signal(struct vaccel_event *ev);
int vaccel_unified_event_reset(struct vaccel_event *ev);
int vaccel_unified_event_export(struct vaccel_event *ev, uint64_t point, int *fd);
int vaccel_unified_event_import(struct vaccel_event *ev, uint64_t point, int fd);
int vaccel_unified_event_get_point(struct vaccel_event *ev, uint64_t *point);
int vaccel_unified_event_signal_point(struct vaccel_event *ev, uint64_t point);
int vaccel_unified_event_times(struct vaccel_event *ev,
			       struct vaccel_event_times *out);

/* queue.c: the signal of a command, on a queue of one device. */
int vaccel_queue_sig_start(struct vaccel_queue *q, struct vaccel_event *ev);
int vaccel_queue_sig_finish(struct vaccel_queue *q, struct vaccel_event *ev,
			    uint64_t point);
int vaccel_queue_wait_at(struct vaccel_queue *q, struct vaccel_event *ev,
			 uint64_t point);
int vaccel_queue_signal_at(struct vaccel_queue *q, struct vaccel_event *ev,
			   uint64_t point);
int vaccel_queue_create_plain(struct vaccel_device *dev,
			      const struct vaccel_queue_desc *desc,
			      struct vaccel_queue **out);
/* queue.c: around the recording of a command, for its waits and signal. */
int vaccel_queue_command_begin(struct vaccel_queue *q, uint64_t *commands);
int vaccel_queue_command_end(struct vaccel_queue *q, uint64_t commands, int ret);

/* bo.c: the building blocks of unified buffers. */
int vaccel_bo_wrap(struct vaccel_device *dev, uint32_t handle, uint64_t size,
		   uint32_t flags, struct vaccel_bo **out);
int vaccel_bo_create_wrapped(struct vaccel_device *dev, uint64_t size,
			     uint32_t flags, struct vaccel_bo **out);
int vaccel_bo_import_wrapped(struct vaccel_device *dev, int fd, uint32_t flags,
			     struct vaccel_bo **out);
int vaccel_vm_bind_ops(struct vaccel_device *dev,
		       const struct drm_vaccel_vm_bind_op *ops, unsigned int count);
uint32_t vaccel_bo_map_flags(uint32_t flags);
int vaccel_bo_mmap_offset(struct vaccel_bo *bo, uint64_t *offset);

/*
 * module.c: what a fault's addresses are in the device's loaded modules.
 * @module_id and @kernel name the kernel of a launch (0: look the kernel
 * up by @entry, the address a DISPATCH ran); @pc is the faulting
 * instruction's address, or 0.  Fills the kernel, function and ELF fields
 * of @f with names copied into @kernel_name and @function_name.
 */
void vaccel_module_describe(struct vaccel_device *dev, uint32_t module_id,
			    unsigned int kernel, uint64_t entry, uint64_t pc,
			    struct vaccel_fault_info *f, char *kernel_name,
			    char *function_name, size_t name_size);

/* module.c: the registry of a device's modules, set up and torn down with it. */
int vaccel_device_init_modules(struct vaccel_device *dev);
void vaccel_device_fini_modules(struct vaccel_device *dev);
/* queue.c: whether a stack size suits the device, as a DISPATCH needs it. */
bool vaccel_stack_size_ok(const struct vaccel_device *dev, uint32_t stack_size);

/* query.c: fill @dev->info and @dev->engines from the kernel. */
int vaccel_device_init_queries(struct vaccel_device *dev);

/* bo.c: the buffer table of a device, set up and torn down with it. */
int vaccel_device_init_bos(struct vaccel_device *dev);
void vaccel_device_fini_bos(struct vaccel_device *dev);

#endif /* VACCEL_PRIV_H */
