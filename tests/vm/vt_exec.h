/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * vt_exec.h - helpers of the execution VM tests, on top of vt_mem.h: an
 * open device with a small GPU VA allocator, BOs mapped for the GPU and the
 * CPU at once, contexts, DMA buffers recorded packet by packet into a BO,
 * SUBMIT with in and out syncobjs, and the state of a syncobj's fence read
 * through a sync_file.
 *
 * Fence status (vt_fence_status() and friends): SYNC_IOC_FILE_INFO with
 * num_fences = 0 gives dma_fence_get_status(): 0 still active, 1 signalled
 * without error, a negative errno when signalled with an error.
 *
 * A drm_sched fence names its timeline through the scheduler that made it
 * (fence->sched->name), and SYNC_IOC_FILE_INFO asks for that name unless
 * the sync_file has a user-given one.  A vaccel scheduler lives in its
 * context, so once the context is destroyed that name is gone: to read the
 * status of a job that outlives its context, take the sync_file with
 * vt_sync_file_named() while the job is still pending (the merge that names
 * it keeps the fence itself only while it is unsignalled).
 *
 * Helpers named *_raw return the ioctl result (-1 and errno); the others
 * fail the case on error.
 */
#ifndef VT_EXEC_H
#define VT_EXEC_H

#include <poll.h>
#include <pthread.h>
#include <time.h>
#include <linux/sync_file.h>
#include <xf86drm.h>

#include "vt_mem.h"

/* Longest wait for work that must complete: generous, QEMU TCG is slow. */
#define VT_TIMEOUT_MS	10000
/* How long work that must not complete is given to misbehave. */
#define VT_SETTLE_MS	20

#define VT_MS		1000000ull	/* ns */

/* A pattern for NOP payload words: a malformed header if ever decoded. */
#define VT_NOP_FILL	0xffffffffffffffffull

/* --- time --- */

static inline __u64 vt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline void vt_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* --- device --- */

/* An open file with what the device says of itself and a VA allocator. */
struct vt_dev {
	int fd;
	struct drm_vaccel_device_info info;
	struct drm_vaccel_engine_list *engines;
	__u32 engines_size;
	__u64 next_va;	/* next free GPU VA of the allocator */
};

#define VT_VA_BASE	(16 * VT_MIB)	/* first VA the allocator hands out */
#define VT_VA_GUARD	(64 * VT_KIB)	/* unmapped gap after each BO */

static inline void vt_dev_init(struct vt_dev *d, int fd)
{
	d->fd = fd;
	vt_device_info(fd, &d->info);
	d->engines = vt_engine_list(fd, &d->engines_size);
	VT_ASSERT(d->info.va_start < VT_VA_BASE);
	d->next_va = VT_VA_BASE;
}

static inline struct vt_dev vt_dev_open(void)
{
	struct vt_dev d;

	vt_dev_init(&d, vt_open_first());
	return d;
}

static inline void vt_dev_close(struct vt_dev *d)
{
	free(d->engines);
	VT_ASSERT_EQ(close(d->fd), 0);
	d->fd = -1;
}

/* Index in the engine list of engine @instance of @engine_class, or -1. */
static inline int vt_engine_index(struct vt_dev *d, __u32 engine_class,
				  __u32 instance)
{
	unsigned int i;

	for (i = 0; i < d->engines->count; i++) {
		struct drm_vaccel_engine_info *e = vt_engine(d->engines, i);

		if (e->engine_class == engine_class && e->instance == instance)
			return (int)i;
	}
	return -1;
}

/* Fails the case unless the device has @n engines of @engine_class. */
#define VT_REQUIRE_ENGINES(d, engine_class, n)				\
	do {								\
		if ((d)->info.engine_count[engine_class] < (n))		\
			vtest_fail(__FILE__, __LINE__,			\
				   "needs %u engines of class %u, the device has %u", \
				   (unsigned int)(n), (unsigned int)(engine_class), \
				   (d)->info.engine_count[engine_class]); \
	} while (0)

/* @size bytes of GPU VA, page aligned, followed by an unmapped guard. */
static inline __u64 vt_va_alloc(struct vt_dev *d, __u64 size)
{
	__u64 va = d->next_va;

	size = (size + VT_PAGE - 1) & ~(VT_PAGE - 1);
	d->next_va += size + VT_VA_GUARD;
	VT_ASSERT(d->next_va < d->info.va_end);
	return va;
}

/* A page-aligned VA with nothing mapped in the 64 KiB from it. */
static inline __u64 vt_va_hole(struct vt_dev *d)
{
	return vt_va_alloc(d, VT_VA_GUARD);
}

/* --- buffer objects --- */

/* A BO mapped at @va in the GPU VM and read-write for the CPU. */
struct vt_bo {
	__u32 handle;
	__u64 size;
	__u64 va;
	unsigned char *cpu;
};

static inline struct vt_bo vt_bo_new_flags(struct vt_dev *d, __u64 size,
					   __u32 map_flags)
{
	struct vt_bo b;

	b.size = (size + VT_PAGE - 1) & ~(VT_PAGE - 1);
	b.handle = vt_bo_create(d->fd, b.size, 0);
	b.cpu = vt_bo_mmap(d->fd, b.handle, b.size);
	b.va = vt_va_alloc(d, b.size);
	vt_map(d->fd, b.handle, 0, b.va, b.size, map_flags);
	return b;
}

static inline struct vt_bo vt_bo_new(struct vt_dev *d, __u64 size)
{
	return vt_bo_new_flags(d, size, 0);
}

/* CPU views of the BO at byte offset @off. */
#define VT_U8P(bo, off)		((volatile __u8 *)((bo)->cpu + (off)))
#define VT_U32P(bo, off)	((volatile __u32 *)((bo)->cpu + (off)))
#define VT_U64P(bo, off)	((volatile __u64 *)((bo)->cpu + (off)))
#define VT_U32(bo, off)		(*VT_U32P(bo, off))
#define VT_U64(bo, off)		(*VT_U64P(bo, off))

/*
 * Waits until the 32-bit word at @p holds @v, polling the CPU mapping.
 * Return: true if it did within @ms.
 */
static inline bool vt_poll_u32(volatile __u32 *p, __u32 v, unsigned int ms)
{
	__u64 end = vt_now_ns() + ms * VT_MS;

	while (*p != v) {
		if (vt_now_ns() > end)
			return false;
		usleep(200);
	}
	return true;
}

/* --- contexts --- */

static inline int vt_ctx_create_raw(int fd, __u32 engine_class, __u32 instance,
				    __u32 priority, __u32 flags, __u32 pad,
				    __u32 *handle)
{
	struct drm_vaccel_context_create c = {
		.engine_class = engine_class,
		.engine_instance = instance,
		.priority = priority,
		.flags = flags,
		.pad = pad,
	};
	int ret = ioctl(fd, DRM_IOCTL_VACCEL_CONTEXT_CREATE, &c);

	if (!ret && handle)
		*handle = c.handle;
	return ret;
}

static inline __u32 vt_ctx_create_prio(int fd, __u32 engine_class,
				       __u32 instance, __u32 priority)
{
	__u32 h = 0;

	if (vt_ctx_create_raw(fd, engine_class, instance, priority, 0, 0, &h))
		vtest_fail(__FILE__, __LINE__,
			   "CONTEXT_CREATE(class %u, instance 0x%x, prio %u): %s",
			   engine_class, instance, priority, strerror(errno));
	VT_ASSERT(h != 0);
	return h;
}

static inline __u32 vt_ctx_create(int fd, __u32 engine_class, __u32 instance)
{
	return vt_ctx_create_prio(fd, engine_class, instance,
				  DRM_VACCEL_PRIORITY_NORMAL);
}

static inline int vt_ctx_destroy_raw(int fd, __u32 handle, __u32 pad)
{
	struct drm_vaccel_context_destroy c = { .handle = handle, .pad = pad };

	return ioctl(fd, DRM_IOCTL_VACCEL_CONTEXT_DESTROY, &c);
}

static inline void vt_ctx_destroy(int fd, __u32 handle)
{
	if (vt_ctx_destroy_raw(fd, handle, 0))
		vtest_fail(__FILE__, __LINE__, "CONTEXT_DESTROY(%u): %s", handle,
			   strerror(errno));
}

static inline int vt_ctx_state_raw(int fd, __u32 handle, __u32 pad,
				   struct drm_vaccel_context_state *s)
{
	memset(s, 0xa5, sizeof(*s));
	s->handle = handle;
	s->pad = pad;
	return ioctl(fd, DRM_IOCTL_VACCEL_CONTEXT_STATE, s);
}

static inline struct drm_vaccel_context_state vt_ctx_state(int fd, __u32 handle)
{
	struct drm_vaccel_context_state s;

	if (vt_ctx_state_raw(fd, handle, 0, &s))
		vtest_fail(__FILE__, __LINE__, "CONTEXT_STATE(%u): %s", handle,
			   strerror(errno));
	VT_ASSERT_EQ(s.handle, handle);
	VT_ASSERT_EQ(s.pad, 0);
	return s;
}

/* The context has not faulted: flags and every fault field are zero. */
static inline void vt_expect_not_faulted(int fd, __u32 ctx)
{
	struct drm_vaccel_context_state s = vt_ctx_state(fd, ctx);

	VT_ASSERT_EQ(s.flags, 0);
	VT_ASSERT_EQ(s.fault_reason, DRM_VACCEL_FAULT_NONE);
	VT_ASSERT_EQ(s.fault_va, 0);
	VT_ASSERT_EQ(s.fault_offset, 0);
	VT_ASSERT_EQ(s.fault_access, 0);
}

/* --- DMA buffers --- */

/*
 * A BO that DMA buffers are recorded into, one after the other: the buffer
 * being recorded is [@start, @pos).
 */
struct vt_cmd {
	struct vt_bo bo;
	__u64 start;
	__u64 pos;
};

static inline struct vt_cmd vt_cmd_new(struct vt_dev *d, __u64 size)
{
	struct vt_cmd c;

	c.bo = vt_bo_new(d, size);
	c.start = 0;
	c.pos = 0;
	return c;
}

/* GPU VA and size of the buffer being recorded. */
static inline __u64 vt_cmd_va(const struct vt_cmd *c)
{
	return c->bo.va + c->start;
}

static inline __u64 vt_cmd_size(const struct vt_cmd *c)
{
	return c->pos - c->start;
}

/* Offset in the buffer being recorded of the next packet. */
static inline __u64 vt_cmd_offset(const struct vt_cmd *c)
{
	return c->pos - c->start;
}

/* Starts a new buffer after the current one. */
static inline void vt_cmd_next(struct vt_cmd *c)
{
	c->start = c->pos;
}

/* Appends one 64-bit word. */
static inline void vt_emit(struct vt_cmd *c, __u64 w)
{
	if (c->pos + 8 > c->bo.size)
		vtest_fail(__FILE__, __LINE__, "command BO of %llu bytes is full",
			   (unsigned long long)c->bo.size);
	*VT_U64P(&c->bo, c->pos) = w;
	c->pos += 8;
}

static inline void vt_pkt_nop(struct vt_cmd *c, unsigned int words)
{
	unsigned int i;

	vt_emit(c, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_NOP, 0, words));
	for (i = 1; i < words; i++)
		vt_emit(c, VT_NOP_FILL);
}

/* WRITE_IMM of the low 32 bits of @value (all 64 bits are in the packet). */
static inline void vt_pkt_write32(struct vt_cmd *c, __u64 va, __u64 value)
{
	vt_emit(c, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_WRITE_IMM, 0, 3));
	vt_emit(c, va);
	vt_emit(c, value);
}

static inline void vt_pkt_write64(struct vt_cmd *c, __u64 va, __u64 value)
{
	vt_emit(c, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_WRITE_IMM,
					 DRM_VACCEL_PKT_F_64BIT, 3));
	vt_emit(c, va);
	vt_emit(c, value);
}

static inline void vt_pkt_copy(struct vt_cmd *c, __u64 src, __u64 dst, __u64 size)
{
	vt_emit(c, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_COPY, 0, 4));
	vt_emit(c, src);
	vt_emit(c, dst);
	vt_emit(c, size);
}

static inline void vt_pkt_fill(struct vt_cmd *c, __u64 dst, __u64 size, __u64 value)
{
	vt_emit(c, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_FILL, 0, 4));
	vt_emit(c, dst);
	vt_emit(c, size);
	vt_emit(c, value);
}

static inline void vt_pkt_timestamp(struct vt_cmd *c, __u64 va)
{
	vt_emit(c, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_TIMESTAMP, 0, 2));
	vt_emit(c, va);
}

/* WAIT_MEM until (*va & mask) <op> (ref & mask); 64-bit if @wide. */
static inline void vt_pkt_wait(struct vt_cmd *c, __u64 va, __u64 ref, __u64 mask,
			       unsigned int op, bool wide)
{
	vt_emit(c, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_WAIT_MEM,
					 DRM_VACCEL_PKT_WAIT_OP(op) |
					 (wide ? DRM_VACCEL_PKT_F_64BIT : 0), 4));
	vt_emit(c, va);
	vt_emit(c, ref);
	vt_emit(c, mask);
}

/* WAIT_MEM until the 32-bit word at @va equals @v. */
static inline void vt_pkt_wait_eq32(struct vt_cmd *c, __u64 va, __u32 v)
{
	vt_pkt_wait(c, va, v, 0xffffffffull, DRM_VACCEL_WAIT_EQ, false);
}

static inline void vt_pkt_delay(struct vt_cmd *c, __u64 ns)
{
	vt_emit(c, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_DELAY, 0, 2));
	vt_emit(c, ns);
}

/* --- syncobjs --- */

static inline __u32 vt_syncobj_flags(int fd, __u32 flags)
{
	__u32 h = 0;

	if (drmSyncobjCreate(fd, flags, &h))
		vtest_fail(__FILE__, __LINE__, "drmSyncobjCreate: %s", strerror(errno));
	VT_ASSERT(h != 0);
	return h;
}

static inline __u32 vt_syncobj(int fd)
{
	return vt_syncobj_flags(fd, 0);
}

/* An absolute CLOCK_MONOTONIC deadline @ms from now, for syncobj waits. */
static inline int64_t vt_deadline(unsigned int ms)
{
	return (int64_t)(vt_now_ns() + ms * VT_MS);
}

/* Waits for a binary syncobj: 0, -ETIME, or another -errno. */
static inline int vt_syncobj_wait_ms(int fd, __u32 h, unsigned int ms)
{
	return drmSyncobjWait(fd, &h, 1, ms ? vt_deadline(ms) : 0, 0, NULL);
}

/* Waits for a binary syncobj, which must signal within VT_TIMEOUT_MS. */
#define vt_syncobj_wait(fd, h)						\
	do {								\
		int _r = vt_syncobj_wait_ms(fd, h, VT_TIMEOUT_MS);	\
		if (_r)							\
			vtest_fail(__FILE__, __LINE__,			\
				   "syncobj %u not signalled: %s", (unsigned int)(h), \
				   strerror(-_r));			\
	} while (0)

/* Whether a binary syncobj with a fence has signalled, now. */
static inline bool vt_syncobj_signalled(int fd, __u32 h)
{
	int r = vt_syncobj_wait_ms(fd, h, 0);

	if (r && r != -ETIME)
		vtest_fail(__FILE__, __LINE__, "SYNCOBJ_WAIT(%u): %s", h, strerror(-r));
	return !r;
}

/* Waits for point @point of a timeline syncobj: 0, -ETIME or -errno. */
static inline int vt_timeline_wait_ms(int fd, __u32 h, __u64 point, unsigned int ms)
{
	uint64_t p = point;

	return drmSyncobjTimelineWait(fd, &h, &p, 1, ms ? vt_deadline(ms) : 0, 0,
				      NULL);
}

/* The last signalled point of a timeline syncobj. */
static inline __u64 vt_timeline_point(int fd, __u32 h)
{
	uint64_t p = ~0ull;

	if (drmSyncobjQuery(fd, &h, &p, 1))
		vtest_fail(__FILE__, __LINE__, "drmSyncobjQuery(%u): %s", h,
			   strerror(errno));
	return p;
}

/* A sync_file of the fence in binary syncobj @h: -1 and errno if none. */
static inline int vt_sync_file_raw(int fd, __u32 h)
{
	int sfd = -1;

	if (drmSyncobjExportSyncFile(fd, h, &sfd))
		return -1;
	return sfd;
}

static inline int vt_sync_file(int fd, __u32 h)
{
	int sfd = vt_sync_file_raw(fd, h);

	if (sfd < 0)
		vtest_fail(__FILE__, __LINE__, "export of syncobj %u as a sync_file: %s",
			   h, strerror(errno));
	return sfd;
}

/* dma_fence_get_status() of a sync_file's fence: 0, 1 or -errno. */
static inline int vt_sync_file_status(int sfd)
{
	struct sync_file_info info;

	memset(&info, 0, sizeof(info));
	if (ioctl(sfd, SYNC_IOC_FILE_INFO, &info))
		vtest_fail(__FILE__, __LINE__, "SYNC_IOC_FILE_INFO: %s", strerror(errno));
	return info.status;
}

/* Waits for a sync_file with poll(): true if it signalled within @ms. */
static inline bool vt_sync_file_wait(int sfd, unsigned int ms)
{
	struct pollfd p = { .fd = sfd, .events = POLLIN };
	__u64 end = vt_now_ns() + ms * VT_MS;
	int r;

	for (;;) {
		__u64 now = vt_now_ns();

		r = poll(&p, 1, now >= end ? 0 : (int)((end - now) / VT_MS) + 1);
		if (r >= 0 || errno != EINTR)
			break;
	}
	VT_ASSERT(r >= 0);
	return r == 1 && (p.revents & POLLIN);
}

/*
 * The status of the fence in binary syncobj @h, through a sync_file: 0
 * active, 1 signalled, -errno signalled with an error.  The job's context
 * must still exist (see the top of this file).
 */
static inline int vt_fence_status(int fd, __u32 h)
{
	int sfd = vt_sync_file(fd, h), st = vt_sync_file_status(sfd);

	close(sfd);
	return st;
}

/*
 * A sync_file of the still pending fence in binary syncobj @h, named, so
 * that its status can be read after the job's context is gone.  Fails the
 * case if the fence has signalled already.
 */
static inline int vt_sync_file_named(int fd, __u32 h)
{
	struct sync_merge_data m;
	int sfd = vt_sync_file(fd, h);

	memset(&m, 0, sizeof(m));
	snprintf(m.name, sizeof(m.name), "vt-syncobj-%u", h);
	m.fd2 = sfd;
	if (ioctl(sfd, SYNC_IOC_MERGE, &m))
		vtest_fail(__FILE__, __LINE__, "SYNC_IOC_MERGE: %s", strerror(errno));
	close(sfd);
	VT_ASSERT(m.fence >= 0);
	if (vt_sync_file_status(m.fence) != 0)
		vtest_fail(__FILE__, __LINE__, "the job of syncobj %u is not pending", h);
	return m.fence;
}

/* --- submission --- */

static inline int vt_submit_raw(int fd, __u32 ctx, __u64 va, __u64 size,
				const struct drm_vaccel_sync *waits, __u32 nwaits,
				const struct drm_vaccel_sync *signals, __u32 nsignals)
{
	struct drm_vaccel_submit s = {
		.context = ctx,
		.buffer_va = va,
		.buffer_size = size,
		.waits = DRM_VACCEL_OBJ_ARRAY(nwaits, waits),
		.signals = DRM_VACCEL_OBJ_ARRAY(nsignals, signals),
	};

	return ioctl(fd, DRM_IOCTL_VACCEL_SUBMIT, &s);
}

/*
 * Submits the buffer being recorded in @c to context @ctx, waiting for
 * binary syncobj @in and signalling binary syncobj @out (0: none), then
 * starts a new buffer.
 */
#define vt_submit(fd, ctx, c, in, out)					\
	do {								\
		struct drm_vaccel_sync _w = { .handle = (in) };		\
		struct drm_vaccel_sync _s = { .handle = (out) };	\
		if (vt_submit_raw(fd, ctx, vt_cmd_va(c), vt_cmd_size(c), &_w, \
				  _w.handle ? 1 : 0, &_s, _s.handle ? 1 : 0)) \
			vtest_fail(__FILE__, __LINE__,			\
				   "SUBMIT(ctx %u, 0x%llx + %llu): %s",	\
				   (unsigned int)(ctx),			\
				   (unsigned long long)vt_cmd_va(c),	\
				   (unsigned long long)vt_cmd_size(c),	\
				   strerror(errno));			\
		vt_cmd_next(c);						\
	} while (0)

/* Same with arrays of syncs. */
#define vt_submit_syncs(fd, ctx, c, waits, nwaits, signals, nsignals)	\
	do {								\
		if (vt_submit_raw(fd, ctx, vt_cmd_va(c), vt_cmd_size(c), waits, \
				  nwaits, signals, nsignals))		\
			vtest_fail(__FILE__, __LINE__,			\
				   "SUBMIT(ctx %u, 0x%llx + %llu): %s",	\
				   (unsigned int)(ctx),			\
				   (unsigned long long)vt_cmd_va(c),	\
				   (unsigned long long)vt_cmd_size(c),	\
				   strerror(errno));			\
		vt_cmd_next(c);						\
	} while (0)

/* Submits the buffer being recorded and waits for it: status 1 expected. */
#define vt_run(fd, ctx, c)						\
	do {								\
		__u32 _o = vt_syncobj(fd);				\
		int _st;						\
		vt_submit(fd, ctx, c, 0, _o);				\
		vt_syncobj_wait(fd, _o);				\
		_st = vt_fence_status(fd, _o);				\
		if (_st != 1)						\
			vtest_fail(__FILE__, __LINE__,			\
				   "job of ctx %u ended with status %d", \
				   (unsigned int)(ctx), _st);		\
		drmSyncobjDestroy(fd, _o);				\
	} while (0)

/*
 * Checks the fault record of a context: faulted, @reason, @access (-1: not
 * checked), the address and the packet's offset in its buffer.
 */
#define vt_expect_fault(fd, ctx, reason, access, va, offset)		\
	do {								\
		struct drm_vaccel_context_state _s = vt_ctx_state(fd, ctx); \
		long long _acc = (access);				\
		if (_s.flags != (DRM_VACCEL_CONTEXT_FAULTED | DRM_VACCEL_CONTEXT_BANNED) ||		\
		    _s.fault_reason != (reason) ||			\
		    (_acc >= 0 && _s.fault_access != _acc) ||		\
		    _s.fault_va != (__u64)(va) ||			\
		    _s.fault_offset != (__u64)(offset))			\
			vtest_fail(__FILE__, __LINE__,			\
				   "fault: flags 0x%x reason %u access %u va 0x%llx offset %llu; " \
				   "expected flags 0x%x reason %u access %lld va 0x%llx offset %llu", \
				   _s.flags, _s.fault_reason, _s.fault_access, \
				   (unsigned long long)_s.fault_va,	\
				   (unsigned long long)_s.fault_offset,	\
				   (DRM_VACCEL_CONTEXT_FAULTED | DRM_VACCEL_CONTEXT_BANNED), (unsigned int)(reason), \
				   _acc, (unsigned long long)(va),	\
				   (unsigned long long)(offset));	\
	} while (0)

#endif /* VT_EXEC_H */
