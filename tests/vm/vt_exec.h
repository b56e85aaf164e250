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
 * the sync_file has a user-given one; vaccel keeps a scheduler's memory as
 * long as a fence of it lives.  vt_sync_file_named() gives a sync_file a
 * name of its own, which says which syncobj it came from.
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

/*
 * The factor of every wait for work that must complete: VT_SLOW, which the
 * plan exports on kernels slower than the debug kernel (KCSAN), else 1.
 */
static inline unsigned int vt_slow(void)
{
	static unsigned int factor;

	if (!factor) {
		const char *e = getenv("VT_SLOW");
		long v = e ? strtol(e, NULL, 10) : 0;

		factor = v > 0 && v <= 100 ? v : 1;
	}
	return factor;
}

/* Longest wait for work that must complete: generous, QEMU TCG is slow. */
#define VT_TIMEOUT_MS	(10000u * vt_slow())
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

/*
 * Runs @stmt and fails the case if it took @ms or more: for calls that
 * must not wait for what they are documented not to wait for (a
 * dependency, a running buffer's end), with a bound far above their cost.
 */
#define VT_EXPECT_WITHIN_MS(ms, what, stmt)					\
	do {									\
		__u64 vt_t0_ = vt_now_ns(), vt_dt_;				\
										\
		stmt;								\
		vt_dt_ = vt_now_ns() - vt_t0_;					\
		if (vt_dt_ >= (__u64)(ms) * VT_MS)				\
			vtest_fail(__FILE__, __LINE__, "%s took %llu ms", what,	\
				   (unsigned long long)(vt_dt_ / VT_MS));	\
	} while (0)

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

/*
 * Drops the BO's CPU mapping, which, like every mapping of the device
 * file, keeps the file open after close().
 */
static inline void vt_bo_cpu_unmap(struct vt_bo *b)
{
	VT_ASSERT_EQ(munmap(b->cpu, b->size), 0);
	b->cpu = NULL;
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
	VT_ASSERT_EQ(s.ban_job, 0);
	VT_ASSERT_EQ(s.ban_buffer_va, 0);
	VT_ASSERT_EQ(s.ban_offset, 0);
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

/* DISPATCH {entry, args, grid[3], workgroup[3], local size, stack size}. */
static inline void vt_pkt_dispatch(struct vt_cmd *c, __u64 entry, __u64 args,
				   const __u32 grid[3], const __u32 wg[3],
				   __u32 local, __u32 stack)
{
	int i;

	vt_emit(c, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_DISPATCH, 0, 11));
	vt_emit(c, entry);
	vt_emit(c, args);
	for (i = 0; i < 3; i++)
		vt_emit(c, grid[i]);
	for (i = 0; i < 3; i++)
		vt_emit(c, wg[i]);
	vt_emit(c, local);
	vt_emit(c, stack);
}

/*
 * DISPATCH with DRM_VACCEL_PKT_F_GROUP_RANGE: only workgroups @first to
 * @first + @count - 1 of the grid run (uapi 1.7).
 */
static inline void vt_pkt_dispatch_range(struct vt_cmd *c, __u64 entry, __u64 args,
					 const __u32 grid[3], const __u32 wg[3],
					 __u32 local, __u32 stack, __u64 first,
					 __u64 count)
{
	int i;

	vt_emit(c, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_DISPATCH,
					 DRM_VACCEL_PKT_F_GROUP_RANGE, 13));
	vt_emit(c, entry);
	vt_emit(c, args);
	for (i = 0; i < 3; i++)
		vt_emit(c, grid[i]);
	for (i = 0; i < 3; i++)
		vt_emit(c, wg[i]);
	vt_emit(c, local);
	vt_emit(c, stack);
	vt_emit(c, first);
	vt_emit(c, count);
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

/* BO_MIGRATE of @handle to @region, signalling syncobj @out if not 0. */
static inline int vt_migrate_raw(int fd, __u32 handle, __u32 region, __u32 out)
{
	struct drm_vaccel_sync sig = { .handle = out };
	struct drm_vaccel_bo_migrate m = {
		.handle = handle,
		.region = region,
		.signals = DRM_VACCEL_OBJ_ARRAY(out ? 1 : 0, &sig),
	};

	return ioctl(fd, DRM_IOCTL_VACCEL_BO_MIGRATE, &m);
}

/* Moves @handle to @region and waits for the move, which must succeed. */
static inline void vt_migrate(int fd, __u32 handle, __u32 region)
{
	__u32 out = vt_syncobj(fd);

	VT_ASSERT_OK(vt_migrate_raw(fd, handle, region, out));
	vt_syncobj_wait(fd, out);
	VT_ASSERT_EQ(vt_fence_status(fd, out), 1);
	drmSyncobjDestroy(fd, out);
}

/* The region BO_INFO reports for @handle. */
static inline __u32 vt_bo_region(int fd, __u32 handle)
{
	struct drm_vaccel_bo_info info;

	vt_bo_info(fd, handle, &info);
	return info.region;
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

/* --- a place to work --- */

/* An open file, a command BO, a data BO and one context. */
struct vt_work {
	struct vt_dev d;
	struct vt_cmd c;
	struct vt_bo data;
	__u32 ctx;
};

static inline struct vt_work vt_work_open(__u64 cmd_size, __u64 data_size,
					  __u32 engine_class, __u32 instance)
{
	struct vt_work w;

	w.d = vt_dev_open();
	w.c = vt_cmd_new(&w.d, cmd_size);
	w.data = vt_bo_new(&w.d, data_size);
	w.ctx = vt_ctx_create(w.d.fd, engine_class, instance);
	return w;
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
 * checked), the address and the packet's offset in its buffer; and its
 * ban record (uapi 1.6): banned for the fault, by one of the buffers it
 * was given, at the same packet.
 */
#define vt_expect_fault(fd, ctx, reason, access, va, offset)		\
	do {								\
		struct drm_vaccel_context_state _s = vt_ctx_state(fd, ctx); \
		long long _acc = (access);				\
		if (_s.ban_reason != DRM_VACCEL_BAN_FAULT || !_s.ban_job || \
		    _s.ban_job > _s.jobs_submitted ||			\
		    _s.ban_offset != _s.fault_offset || !_s.ban_buffer_va) \
			vtest_fail(__FILE__, __LINE__,			\
				   "ban: reason %u job %llu of %llu buffer 0x%llx offset %llu", \
				   _s.ban_reason, (unsigned long long)_s.ban_job, \
				   (unsigned long long)_s.jobs_submitted, \
				   (unsigned long long)_s.ban_buffer_va, \
				   (unsigned long long)_s.ban_offset);	\
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

/* --- scheduling: module parameters, debugfs controls and the arbiter --- */

/*
 * Module parameter @name as text, without its newline, into @buf; "" for
 * an array parameter given no value.  Fails the case if it cannot be read.
 */
static inline void vt_param_text(const char *name, char *buf, size_t len)
{
	char path[256], *text, *nl;

	snprintf(path, sizeof(path), VT_PARAM_DIR "%s", name);
	text = vt_read_file(path);
	nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	snprintf(buf, len, "%s", text);
	free(text);
}

/* A numeric module parameter. */
static inline long long vt_param(const char *name)
{
	char buf[64], *end;
	long long v;

	vt_param_text(name, buf, sizeof(buf));
	errno = 0;
	v = strtoll(buf, &end, 0);
	if (errno || end == buf || *end)
		vtest_fail(__FILE__, __LINE__, "module parameter %s: '%s'", name, buf);
	return v;
}

/* A number from environment variable @env (set by the plan), else @def. */
static inline long long vt_env_num(const char *env, long long def)
{
	const char *s = getenv(env);
	long long v;
	char *end;

	if (!s || !*s)
		return def;
	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || *end)
		vtest_fail(__FILE__, __LINE__, "bad %s='%s'", env, s);
	return v;
}

/*
 * Writes @text to the debugfs file @name of the device of @fd, in one
 * write(2).  Return: 0, or -errno of the open or the write.
 */
static inline int vt_debugfs_write(int fd, const char *name, const char *text)
{
	char dir[VT_DIR_MAX], path[PATH_MAX];
	ssize_t n;
	int f, err = 0;

	vt_debugfs_dir(fd, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = open(path, O_WRONLY | O_CLOEXEC);
	if (f < 0)
		return -errno;
	n = write(f, text, strlen(text));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(text))
		err = -EIO;
	close(f);
	return err;
}

/* The text of the debugfs file @name of the device of @fd, malloc'ed. */
static inline char *vt_debugfs_read(int fd, const char *name)
{
	char dir[VT_DIR_MAX], path[PATH_MAX];

	vt_debugfs_dir(fd, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return vt_read_file(path);
}

#define VT_ARB_MAX_ENGINES	32

/* Preemption reasons, in the order debugfs arbiter prints them. */
enum vt_preempt_reason {
	VT_PREEMPT_PRIORITY,
	VT_PREEMPT_SLICE,
	VT_PREEMPT_STARVATION,
	VT_PREEMPT_FORCED,
	VT_PREEMPT_RESET,
	VT_PREEMPT_REASONS,
};

/* One engine's block of debugfs arbiter. */
struct vt_arb_engine {
	unsigned int granularity;
	unsigned long long slice_ns;
	unsigned long long timeout_ns;
	unsigned long long resets;
	unsigned long long hangs;
	unsigned long long instructions;
	unsigned long long preempt[VT_PREEMPT_REASONS];
	unsigned int units;
	unsigned long long unit_instructions[8];
};

/* debugfs arbiter: every engine, and the device resets of this module load. */
struct vt_arbiter {
	unsigned int count;
	struct vt_arb_engine e[VT_ARB_MAX_ENGINES];
	long long device_resets;
};

/*
 * Reads debugfs arbiter:
 *	engine N: granularity G slice_ns S timeout_ns T resets R hangs H instructions I
 *	  preemptions: priority P slice S starvation S forced F reset R
 *	  units: U instructions I0 I1 ...	(compute engines)
 *	  ...
 *	device_resets D
 */
static inline void vt_arbiter_read(int fd, struct vt_arbiter *a)
{
	char *text = vt_debugfs_read(fd, "arbiter"), *line, *save = NULL;
	struct vt_arb_engine *cur = NULL;

	memset(a, 0, sizeof(*a));
	a->device_resets = -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned int idx;

		if (!strncmp(line, "engine ", 7)) {
			if (a->count >= VT_ARB_MAX_ENGINES)
				vtest_fail(__FILE__, __LINE__, "more than %u engines",
					   VT_ARB_MAX_ENGINES);
			cur = &a->e[a->count];
			if (sscanf(line, "engine %u: granularity %u slice_ns %llu timeout_ns %llu resets %llu hangs %llu instructions %llu",
				   &idx, &cur->granularity, &cur->slice_ns, &cur->timeout_ns,
				   &cur->resets, &cur->hangs, &cur->instructions) != 7 ||
			    idx != a->count)
				vtest_fail(__FILE__, __LINE__, "bad arbiter line '%s'", line);
			a->count++;
		} else if (!strncmp(line, "  preemptions:", 14)) {
			unsigned long long *p;

			if (!cur)
				vtest_fail(__FILE__, __LINE__, "preemptions before an engine");
			p = cur->preempt;
			if (sscanf(line, "  preemptions: priority %llu slice %llu starvation %llu forced %llu reset %llu",
				   &p[0], &p[1], &p[2], &p[3], &p[4]) != 5)
				vtest_fail(__FILE__, __LINE__, "bad arbiter line '%s'", line);
		} else if (!strncmp(line, "  units: ", 9)) {
			char *p = line + 9, *end;
			unsigned int u;

			if (!cur)
				vtest_fail(__FILE__, __LINE__, "units before an engine");
			cur->units = strtoul(p, &end, 10);
			if (end == p || strncmp(end, " instructions", 13) || cur->units > 8)
				vtest_fail(__FILE__, __LINE__, "bad arbiter line '%s'", line);
			p = end + 13;
			for (u = 0; u < cur->units; u++) {
				cur->unit_instructions[u] = strtoull(p, &end, 10);
				if (end == p)
					vtest_fail(__FILE__, __LINE__, "bad arbiter line '%s'", line);
				p = end;
			}
		} else if (!strncmp(line, "device_resets ", 14)) {
			a->device_resets = strtoll(line + 14, NULL, 0);
		}
	}
	free(text);
	if (!a->count || a->device_resets < 0)
		vtest_fail(__FILE__, __LINE__, "debugfs arbiter without engines or device_resets");
}

/*
 * The handles of the contexts whose buffers debugfs engines shows in the
 * HW queue of engine @index (-1 for an empty slot), and whether they are
 * of the client of @fd.
 */
static inline void vt_hw_queue(int fd, unsigned int index, long long slot[2],
			       bool mine[2])
{
	char *text = vt_debugfs_read(fd, "engines"), *line, *save = NULL;
	unsigned long long me = vt_client_id(fd);
	bool in = false;

	slot[0] = slot[1] = -1;
	mine[0] = mine[1] = false;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned int e, s, ctx;
		unsigned long long client;

		if (sscanf(line, "engine %u:", &e) == 1) {
			in = e == index;
		} else if (in && sscanf(line, "  slot %u: context %u client %llu",
					&s, &ctx, &client) == 3 && s < 2) {
			slot[s] = ctx;
			mine[s] = client == me;
		}
	}
	free(text);
}

/* The context has not been banned nor reset for a hang of its own. */
#define vt_expect_not_banned(fd, ctx)					\
	do {								\
		struct drm_vaccel_context_state _s = vt_ctx_state(fd, ctx); \
		if (_s.flags || _s.ban_reason != DRM_VACCEL_BAN_NONE ||	\
		    _s.guilty_resets)					\
			vtest_fail(__FILE__, __LINE__,			\
				   "context %u: flags 0x%x ban_reason %u guilty_resets %u", \
				   (unsigned int)(ctx), _s.flags, _s.ban_reason, \
				   _s.guilty_resets);			\
	} while (0)

/* Sets debugfs hold point @name of @fd's device (see "Hold points"), or lets go. */
static inline void vt_hold(int fd, const char *name, bool on)
{
	if (vt_debugfs_write(fd, name, on ? "1\n" : "0\n"))
		vtest_fail(__FILE__, __LINE__, "cannot %s %s", on ? "set" : "let go of",
			   name);
}

/* The times work waited at hold point @name. */
static inline long long vt_hold_waited(int fd, const char *name)
{
	char *text = vt_debugfs_read(fd, name);
	long long n = vt_kv(text, "waited");

	free(text);
	return n;
}

/* Waits until work waited at hold point @name more than @before times. */
static inline void vt_hold_reached(int fd, const char *name, long long before)
{
	__u64 end = vt_now_ns() + VT_TIMEOUT_MS * VT_MS;

	while (vt_hold_waited(fd, name) <= before) {
		if (vt_now_ns() > end)
			vtest_fail(__FILE__, __LINE__, "nothing reached %s", name);
		usleep(1000);
	}
}

/*
 * Waits for binary syncobj @h, which must signal within VT_TIMEOUT_MS, and
 * returns its fence's status (1, or -errno); the context must still exist.
 */
static inline int vt_wait_status(int fd, __u32 h)
{
	int r = vt_syncobj_wait_ms(fd, h, VT_TIMEOUT_MS);

	if (r)
		vtest_fail(__FILE__, __LINE__, "syncobj %u not signalled: %s", h,
			   strerror(-r));
	return vt_fence_status(fd, h);
}

/*
 * A thread that writes an engine's index to debugfs force_preempt again
 * and again, every @interval_us, until stopped: a test of save and resume.
 */
struct vt_preempter {
	pthread_t thread;
	char path[PATH_MAX];
	char index[16];
	unsigned int interval_us;
	int stop;		/* set by vt_preempter_stop() */
	unsigned long writes;	/* successful writes */
	int error;		/* errno of a failed write, 0 if none */
};

static inline void *vt_preempter_fn(void *arg)
{
	struct vt_preempter *p = arg;
	int f = open(p->path, O_WRONLY | O_CLOEXEC);

	if (f < 0) {
		p->error = errno;
		return NULL;
	}
	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
		if (write(f, p->index, strlen(p->index)) < 0) {
			p->error = errno;
			break;
		}
		p->writes++;
		usleep(p->interval_us);
	}
	close(f);
	return NULL;
}

static inline void vt_preempter_start(struct vt_preempter *p, int fd,
				      unsigned int engine, unsigned int interval_us)
{
	char dir[VT_DIR_MAX];

	memset(p, 0, sizeof(*p));
	vt_debugfs_dir(fd, dir, sizeof(dir));
	snprintf(p->path, sizeof(p->path), "%s/force_preempt", dir);
	snprintf(p->index, sizeof(p->index), "%u", engine);
	p->interval_us = interval_us;
	VT_ASSERT_EQ(pthread_create(&p->thread, NULL, vt_preempter_fn, p), 0);
}

/* Stops the thread; fails the case if a write failed.  Returns the writes. */
static inline unsigned long vt_preempter_stop(struct vt_preempter *p)
{
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	VT_ASSERT_EQ(pthread_join(p->thread, NULL), 0);
	if (p->error)
		vtest_fail(__FILE__, __LINE__, "write %s to %s: %s", p->index, p->path,
			   strerror(p->error));
	return p->writes;
}

#endif /* VT_EXEC_H */
