/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * icd.h - the objects of the OpenCL ICD (libvaccel-cl.so) and the helpers
 * its files share.  Private: the ICD exports only clGetExtensionFunctionAddress
 * and clIcdGetPlatformIDsKHR; everything else is reached through the
 * dispatch table that every object starts with (cl_khr_icd).
 *
 * Locking: one mutex per object guards its mutable fields where the
 * object says so; vcl_events_lock guards the state of every event (status,
 * callbacks, waiters) and is the innermost lock: nothing is called with it
 * held but the condition-variable functions.  A queue's lock is taken
 * before vcl_events_lock, never after.
 */
#ifndef VACCEL_CL_ICD_H
#define VACCEL_CL_ICD_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_gl.h>
#include <CL/cl_icd.h>

#include <vaccel.h>

#define VCL_EXPORT __attribute__((visibility("default")))

/* What the platform reports. */
#define VCL_PLATFORM_NAME	"vaccel"
#define VCL_PLATFORM_VENDOR	"The vaccel authors"
#define VCL_ICD_SUFFIX		"vaccel"
#define VCL_EXTENSIONS \
	"cl_khr_icd cl_khr_fp64 cl_khr_global_int32_base_atomics " \
	"cl_khr_global_int32_extended_atomics cl_khr_local_int32_base_atomics " \
	"cl_khr_local_int32_extended_atomics cl_khr_int64_base_atomics " \
	"cl_khr_int64_extended_atomics cl_khr_byte_addressable_store " \
	"cl_khr_priority_hints"

/* Most work-items of one launch (the device's DISPATCH limit). */
#define VCL_MAX_GRID_ITEMS	(1ull << 32)

/* Bytes of a launch's printf buffer (CL_DEVICE_PRINTF_BUFFER_SIZE). */
#define VCL_PRINTF_BUFFER_SIZE	(1024u * 1024)

extern struct _cl_icd_dispatch vcl_dispatch;

/*
 * Every object starts with the dispatch table (cl_khr_icd) and a magic
 * number of its type, which the entry points check, and which the last
 * release clears.
 */
enum vcl_magic {
	VCL_MAGIC_PLATFORM = 0x564c5031,
	VCL_MAGIC_DEVICE,
	VCL_MAGIC_CONTEXT,
	VCL_MAGIC_QUEUE,
	VCL_MAGIC_EVENT,
	VCL_MAGIC_MEM,
	VCL_MAGIC_PROGRAM,
	VCL_MAGIC_KERNEL,
};

#define VCL_VALID(o, m) ((o) && (o)->dispatch == &vcl_dispatch && (o)->magic == (m))

/* Counts references of an object; the last release frees it. */
struct vcl_ref {
	atomic_uint count;
};

static inline void vcl_ref_init(struct vcl_ref *r)
{
	atomic_init(&r->count, 1);
}

static inline void vcl_ref_get(struct vcl_ref *r)
{
	atomic_fetch_add(&r->count, 1);
}

/* Return: true if that was the last reference. */
static inline bool vcl_ref_put(struct vcl_ref *r)
{
	return atomic_fetch_sub(&r->count, 1) == 1;
}

/* The one platform. */
struct _cl_platform_id {
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
};

/* A device: one vaccel device (or the unified device), open for the process. */
struct _cl_device_id {
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
	struct vaccel_device *dev;
	struct vaccel_device_info info;
	unsigned int compute_units;	/* of the compute engines, together */
	unsigned int compute_engines;
	bool unified;
	char name[64];
};

/* A destructor callback of a context or a buffer. */
struct vcl_callback {
	struct vcl_callback *next;
	union {
		void (CL_CALLBACK *context)(cl_context, void *);
		void (CL_CALLBACK *mem)(cl_mem, void *);
	} fn;
	void *user_data;
};

struct _cl_context {
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
	struct vcl_ref ref;
	cl_uint num_devices;
	cl_device_id *devices;
	cl_context_properties *props;	/* a copy, with its 0; NULL if none */
	size_t props_size;
	void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
	void *notify_data;
	pthread_mutex_t lock;		/* guards destructors */
	struct vcl_callback *destructors;
};

/*
 * A command of a queue that the queue's thread completes: it waits for
 * the device's part (the event's vaccel event), then does the host's part
 * (a copy to the host, a map), then completes the event.
 */
struct vcl_host_action {
	void (*run)(struct vcl_host_action *a);
	void (*fini)(struct vcl_host_action *a);
	int error;			/* set by run() to fail the event */
};

/*
 * The lanes of a queue: each a libvaccel queue, which runs its commands
 * in order, and a thread, which completes them in order.  An in-order
 * queue uses one; an out-of-order queue spreads its commands over the
 * lanes its device has engines for (queue.c).
 */
enum vcl_lane_id {
	VCL_LANE_COMPUTE0,
	VCL_LANE_COMPUTE1,
	VCL_LANE_COPY,
	VCL_LANES
};

struct vcl_lane {
	cl_command_queue queue;
	enum vcl_lane_id id;
	struct vaccel_queue *q;		/* NULL until the lane's first command */
	unsigned int generation;	/* of q: it is replaced after a failure */
	bool failed;			/* q takes no more work */
	bool running;			/* the lane's thread was started */
	cl_event pending_head, pending_tail;	/* commands not yet complete */
	unsigned int pending_count;
	cl_event last;			/* the latest command, referenced */
	pthread_t thread;
};

struct _cl_command_queue {
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
	struct vcl_ref ref;
	cl_context ctx;
	cl_device_id device;
	cl_command_queue_properties props;
	cl_queue_properties *props_array;	/* as given, with its 0 */
	size_t props_array_size;
	enum vaccel_priority priority;

	/*
	 * lock guards the lanes, the pending lists and the threads' state;
	 * the threads wait on cond for work, clFinish() for none.
	 */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct vcl_lane lanes[VCL_LANES];
	unsigned int compute_lanes;	/* 1, or 2 out of order */
	bool copy_lane;			/* out of order on a copy engine */
	enum vcl_lane_id current;	/* the lane of the latest command */
	unsigned int next_compute;	/* round robin over equal lanes */
	cl_event barrier;		/* the latest barrier, referenced */
	bool groups;			/* libvaccel queues take command groups */
	unsigned int pending_count;	/* of every lane */
	unsigned int threads;		/* lane threads running: the last frees */
	bool stopping;
};

struct vcl_event_callback {
	struct vcl_event_callback *next;
	cl_int status;
	void (CL_CALLBACK *fn)(cl_event, cl_int, void *);
	void *user_data;
};

struct _cl_event {
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
	struct vcl_ref ref;
	cl_context ctx;
	cl_command_queue queue;		/* NULL for a user event; not
					 * dereferenced once complete */
	cl_device_id device;		/* the queue's */
	bool profiling;			/* the queue profiles */
	cl_command_type type;
	/*
	 * The device's part: signalled once the command's work on the
	 * device has completed (a profiling event), or for a user event the
	 * host event that clSetUserEventStatus() sets.
	 */
	struct vaccel_event *vev;
	struct vcl_host_action *action;
	cl_event next_pending;		/* its lane's pending list */
	enum vcl_lane_id lane;		/* of its queue */
	unsigned int generation;	/* of the lane's q it was recorded in */
	cl_program program;		/* a launch's, referenced until it completes */
	/*
	 * The events of the command's wait list, referenced until it
	 * completes: libvaccel may hold the command back and look at them
	 * only later, and the specification keeps them alive meanwhile.
	 */
	cl_event *waits;
	unsigned int num_waits;
	/* The buffers the command uses, referenced until it completes. */
	cl_mem *mems;
	unsigned int num_mems;
	/* Guarded by vcl_events_lock. */
	cl_int status;
	bool user_set;			/* clSetUserEventStatus() was called */
	struct vcl_event_callback *callbacks;
	cl_ulong t_queued, t_submit, t_start, t_end;
};

/* A region of a buffer that clEnqueueMapBuffer() mapped. */
struct vcl_map {
	struct vcl_map *next;
	void *ptr;			/* what the program got */
	size_t size;
	bool write;			/* mapped for writing: unmap copies back */
};

/* A buffer, or a sub-buffer of one (parent != NULL). */
struct _cl_mem {
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
	struct vcl_ref ref;
	cl_context ctx;
	cl_mem_flags flags;
	size_t size;
	void *host_ptr;			/* CL_MEM_USE_HOST_PTR's, else NULL */
	cl_mem parent;			/* a sub-buffer's, referenced */
	size_t offset;			/* in the root buffer */
	/* The root's storage: one BO per device of the context (shared). */
	struct vaccel_bo **bos;
	void *cpu;			/* the root's CPU mapping */
	cl_mem_properties *props;
	size_t props_size;
	pthread_mutex_t lock;		/* guards destructors, maps, map_count */
	struct vcl_callback *destructors;
	struct vcl_map *maps;		/* the regions mapped now, newest first */
	cl_uint map_count;
};

/* One kernel parameter, as the IR step recorded it (program.c). */
enum vcl_arg_kind {
	VCL_ARG_VALUE,
	VCL_ARG_GLOBAL,
	VCL_ARG_CONSTANT,
	VCL_ARG_LOCAL,
	VCL_ARG_BYVAL,
};

struct vcl_arg_info {
	enum vcl_arg_kind kind;
	cl_kernel_arg_access_qualifier access;
	cl_kernel_arg_type_qualifier type_qual;
	uint32_t offset;		/* in the argument block */
	uint32_t size;
	char *type_name;
	char *name;
};

struct vcl_kernel_info {
	char *name;
	cl_uint num_args;
	struct vcl_arg_info *args;
	size_t reqd_wg[3];		/* 0s if not required */
	size_t wg_hint[3];
	char *vec_type_hint;		/* "" if none */
	char *attributes;		/* CL_KERNEL_ATTRIBUTES */
	uint32_t block_size;		/* header and parameters */
};

/* The program built for one device. */
struct vcl_program_device {
	cl_build_status status;
	char *log;
	char *options;
	cl_program_binary_type binary_type;
	void *binary;			/* the module ELF, or the compiled bitcode */
	size_t binary_size;
	struct vaccel_module *module;	/* an executable's, loaded */
};

struct _cl_program {
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
	struct vcl_ref ref;
	cl_context ctx;
	char *source;			/* NULL if made from binaries */
	pthread_mutex_t lock;		/* guards builds and kernels_attached */
	struct vcl_program_device *per_device;	/* ctx->num_devices */
	unsigned int kernels_attached;
	/* Of the last successful build (same for every device). */
	cl_uint num_kernels;
	struct vcl_kernel_info *kernels;
	bool prints;			/* calls printf: launches get a buffer */
};

/* An argument as set by clSetKernelArg(). */
struct vcl_arg_value {
	bool set;
	cl_mem mem;			/* a buffer argument's, not held */
	size_t local_size;		/* a __local argument's */
	unsigned char *bytes;		/* a value's */
};

struct _cl_kernel {
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
	struct vcl_ref ref;
	cl_program program;
	const struct vcl_kernel_info *info;
	struct vaccel_kernel **vkernels;	/* per device of the context */
	pthread_mutex_t lock;		/* guards args */
	struct vcl_arg_value *args;
};

extern struct _cl_platform_id vcl_platform;
extern pthread_mutex_t vcl_events_lock;
extern pthread_cond_t vcl_events_cond;

/* info.c: the answer of every clGet*Info. */
cl_int vcl_info(const void *value, size_t size, size_t param_value_size,
		void *param_value, size_t *param_value_size_ret);
cl_int vcl_info_string(const char *s, size_t param_value_size,
		       void *param_value, size_t *param_value_size_ret);
#define VCL_INFO(v) vcl_info(&(v), sizeof(v), param_value_size, param_value, \
			     param_value_size_ret)
#define VCL_INFO_STR(s) vcl_info_string(s, param_value_size, param_value, \
					param_value_size_ret)
cl_int vcl_errno_to_cl(int err);
uint64_t vcl_now_ns(void);

/* platform.c */
int vcl_platform_init(void);
cl_int vcl_extensions_with_version(size_t param_value_size, void *param_value,
				   size_t *param_value_size_ret);
cl_uint vcl_device_count(void);
cl_device_id vcl_device_get(cl_uint index);
bool vcl_device_valid(cl_device_id d);

/* context.c */
bool vcl_context_valid(cl_context c);
int vcl_context_device_index(cl_context c, cl_device_id d);
void vcl_context_notify(cl_context c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* queue.c */
bool vcl_queue_valid(cl_command_queue q);
struct vcl_command {
	cl_command_queue queue;
	cl_event event;
	struct vaccel_queue *vq;	/* recording, between begin and end */
};
cl_int vcl_command_begin(cl_command_queue q, cl_command_type type,
			 cl_uint num_events, const cl_event *wait_list,
			 struct vcl_command *cmd);
cl_int vcl_command_end(struct vcl_command *cmd, struct vcl_host_action *action,
		       cl_event *event_out, bool blocking);
void vcl_command_abort(struct vcl_command *cmd);
cl_int vcl_command_hold(struct vcl_command *cmd, cl_mem m);
cl_int vcl_check_wait_list(cl_context ctx, cl_uint num_events,
			   const cl_event *wait_list);

/* event.c */
bool vcl_event_valid(cl_event e);
cl_event vcl_event_new(cl_context ctx, cl_command_queue q, cl_command_type type);
void vcl_event_complete(cl_event e, cl_int status);
void vcl_event_submitted(cl_event e);
cl_int vcl_event_wait_complete(cl_event e);
void vcl_event_put(cl_event e);

/* memory.c */
bool vcl_mem_valid(cl_mem m);
struct vaccel_bo *vcl_mem_bo(cl_mem m, cl_device_id d);
uint64_t vcl_mem_va(cl_mem m, cl_device_id d);
void *vcl_mem_cpu(cl_mem m);
void vcl_mem_put(cl_mem m);
struct vaccel_bo *vcl_staging_new(cl_device_id d, size_t size, void **cpu);

/* program.c */
bool vcl_program_valid(cl_program p);
struct vaccel_module *vcl_program_module(cl_program p, cl_device_id d);
int vcl_program_symbolize(cl_program p, cl_device_id d, uint64_t elf_pc, char *out,
			  size_t out_size);

/* kernel.c */
bool vcl_kernel_valid(cl_kernel k);

/* enqueue.c */
cl_int vcl_finish(cl_command_queue q);

#endif /* VACCEL_CL_ICD_H */
