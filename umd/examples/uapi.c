// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * uapi.c - a user-mode driver in one file, on the raw uapi: no libvaccel,
 * only the ioctls of <drm/vaccel_accel.h> and of the DRM core, and libdrm
 * for drmIoctl(), drmGetVersion() and the syncobj calls.  It is the
 * reference for whoever writes a runtime of their own; every step a UMD
 * takes is here, in the order it takes them:
 *
 *   1. find the vaccel node among the accel nodes (DRM_IOCTL_VERSION);
 *   2. query the device and its engines, with the size negotiation that
 *      lets old and new programs and kernels meet;
 *   3. create buffer objects and map them for the CPU;
 *   4. choose GPU virtual addresses and map the BOs there (VM_BIND): the
 *      address space is the program's to lay out, as in WDDM's GpuMmu;
 *   5. create a context on an engine;
 *   6. write a DMA buffer of packets by hand: TIMESTAMP, FILL, COPY,
 *      WRITE_IMM;
 *   7. submit it with a syncobj to signal, wait for the syncobj, and read
 *      the fence's status and the context's state;
 *   8. check what the engine wrote, on the CPU;
 *   9. make a buffer fault on purpose (a COPY from an address that is not
 *      mapped) and decode the fault from the context's state, as a
 *      runtime does to tell its user which command failed and why.
 *
 *	example-uapi [-h] [-d INDEX]
 *
 * Exit status: 0 when every step did what the uapi says, 1 otherwise, 2 on
 * a usage error.  It uses a COPY engine, or a COMPUTE engine on a device
 * without one: both execute these packets.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include <drm/vaccel_accel.h>

#define NAME		"example-uapi"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The data the engine fills, copies and checks: 1 MiB source and target. */
#define DATA_SIZE	(1u << 20)
#define COPY_SIZE	(DATA_SIZE / 2)
#define FILL_VALUE	0xa5c3e10fu
#define CMD_SIZE	(64u * 1024)
#define STATUS_SIZE	4096u

/*
 * Where the program puts its buffers in its GPU address space, as offsets
 * from a base it picks in [va_start, va_end).  The gaps between them are
 * left unmapped on purpose: a runaway access faults instead of landing in
 * a neighbour, and HOLE is the address of the deliberate fault.
 */
#define CMD_OFF		0x000000ull	/* the DMA buffers, read-only for the device */
#define STATUS_OFF	0x100000ull	/* timestamps and markers */
#define SRC_OFF		0x200000ull	/* source of the COPY, read-only for the device */
#define DST_OFF		0x400000ull	/* target of the FILL and the COPY */
#define HOLE_OFF	0x600000ull	/* never mapped */
#define LAYOUT_SIZE	0x800000ull

/* The words of the status BO. */
#define ST_TS_BEGIN	0	/* engine clock before the work, 64 bits */
#define ST_TS_END	8	/* and after it */
#define ST_MARK32	16	/* WRITE_IMM of 32 bits */
#define ST_MARK64	24	/* WRITE_IMM of 64 bits */
#define ST_BEFORE_FAULT	32	/* written by the faulting buffer before its fault */
#define ST_AFTER_FAULT	36	/* must never be written */

#define MARK32		0x600dcafeu
#define MARK64		0x0123456789abcdefull

/* Longest wait for a buffer: generous, the debug kernel is slow. */
#define WAIT_NS		(60ull * 1000 * 1000 * 1000)

/* A buffer object: its GEM handle, its CPU mapping and its GPU address. */
struct bo {
	uint32_t handle;
	uint64_t size;
	void *cpu;
	uint64_t va;
};

/* The open device and what the program made on it. */
struct umd {
	int fd;
	struct drm_vaccel_device_info info;
	uint32_t engine_class;
	uint32_t engine_instance;
	uint32_t context;
	uint32_t syncobj;
	struct bo cmd, status, src, dst;
	uint64_t base;
};

/*
 * Every ioctl goes through here: drmIoctl() restarts it on EINTR and
 * EAGAIN, and a failure is printed with the ioctl's name.  Return: 0 or
 * -errno.
 */
static int uioctl(int fd, unsigned long request, void *arg, const char *what)
{
	int err;

	if (drmIoctl(fd, request, arg) == 0)
		return 0;
	err = errno;
	fprintf(stderr, NAME ": %s: %s\n", what, strerror(err));
	return -err;
}

/* --- 1. finding the device --- */

/*
 * The accel nodes of every driver share /dev/accel: a node is vaccel's if
 * DRM_IOCTL_VERSION (drmGetVersion()) names the driver "vaccel".  Nodes
 * are taken in the order of their minor, which is libvaccel's numbering
 * too; @index counts vaccel nodes only.  Return: the open descriptor, or
 * -errno with a message printed.
 */
static int open_vaccel_node(unsigned int index)
{
	unsigned int minor, seen = 0;
	int first_err = 0;
	char path[64];

	for (minor = 0; minor < 256; minor++) {
		drmVersionPtr v;
		bool ours;
		int fd;

		snprintf(path, sizeof(path), "/dev/accel/accel%u", minor);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			if (errno != ENOENT && !first_err)
				first_err = errno;
			continue;
		}
		v = drmGetVersion(fd);
		ours = v && !strcmp(v->name, "vaccel");
		if (ours && seen++ == index) {
			printf("%s: %s %d.%d.%d, %s\n", path, v->name,
			       v->version_major, v->version_minor,
			       v->version_patchlevel, v->desc);
			drmFreeVersion(v);
			return fd;
		}
		drmFreeVersion(v);
		close(fd);
	}
	if (first_err) {
		fprintf(stderr, NAME ": no vaccel device of index %u; opening an accel node failed: %s\n",
			index, strerror(first_err));
		return -first_err;
	}
	fprintf(stderr, NAME ": no vaccel device of index %u: is the module loaded? (insmod vaccel.ko)\n",
		index);
	return -ENODEV;
}

/* --- 2. queries --- */

/*
 * DRM_IOCTL_VACCEL_QUERY in two calls: with size 0 the kernel says how
 * big the answer is; with a buffer it writes min(size, answer) bytes and
 * zeroes the rest.  A program that only knows an older, shorter structure
 * may skip the first call and pass its own size: it gets the prefix it
 * knows.  Here the answer goes into a buffer of the size the kernel asks
 * for, which the caller frees.  Return: 0 or -errno.
 */
static int query(int fd, uint32_t type, void **answer, uint32_t *size,
		 const char *what)
{
	struct drm_vaccel_query q = { .type = type };
	void *buf;
	int ret;

	ret = uioctl(fd, DRM_IOCTL_VACCEL_QUERY, &q, what);
	if (ret)
		return ret;
	buf = calloc(1, q.size);
	if (!buf) {
		fprintf(stderr, NAME ": %s: out of memory\n", what);
		return -ENOMEM;
	}
	q.data = (uintptr_t)buf;
	ret = uioctl(fd, DRM_IOCTL_VACCEL_QUERY, &q, what);
	if (ret) {
		free(buf);
		return ret;
	}
	*answer = buf;
	*size = q.size;
	return 0;
}

static const char *class_name(uint32_t c)
{
	static const char *const names[] = { "compute", "copy", "paging" };

	return c < DRM_VACCEL_ENGINE_CLASS_COUNT ? names[c] : "unknown";
}

static const char *granularity_name(uint32_t g)
{
	static const char *const names[] = {
		"DMA buffers", "packets", "workgroups", "instructions",
	};

	return g < ARRAY_SIZE(names) ? names[g] : "unknown points";
}

/*
 * The device: its version, engines and address space.  This program reads
 * fields up to ban_job of the context state (uapi 1.6), so it refuses an
 * older module rather than misread zeros.
 */
static int query_device(struct umd *u)
{
	struct drm_vaccel_device_info *info;
	uint32_t size;
	int ret;

	ret = query(u->fd, DRM_VACCEL_QUERY_DEVICE, (void **)&info, &size,
		    "DRM_VACCEL_QUERY_DEVICE");
	if (ret)
		return ret;
	/* A newer kernel may answer with more than we know: keep our part. */
	memcpy(&u->info, info, size < sizeof(u->info) ? size : sizeof(u->info));
	free(info);

	if (u->info.uapi_major != DRM_VACCEL_UAPI_MAJOR || u->info.uapi_minor < 6) {
		fprintf(stderr, NAME ": the module speaks uapi %u.%u; this program needs %u.6 or later\n",
			u->info.uapi_major, u->info.uapi_minor, DRM_VACCEL_UAPI_MAJOR);
		return -EPROTO;
	}
	printf("  uapi %u.%u, %u engines (compute %u, copy %u, paging %u), %u-bit VA, %u-byte pages\n",
	       u->info.uapi_major, u->info.uapi_minor, u->info.engines_total,
	       u->info.engine_count[DRM_VACCEL_ENGINE_CLASS_COMPUTE],
	       u->info.engine_count[DRM_VACCEL_ENGINE_CLASS_COPY],
	       u->info.engine_count[DRM_VACCEL_ENGINE_CLASS_PAGING],
	       u->info.va_bits, u->info.page_size);
	printf("  user VA range 0x%" PRIx64 " - 0x%" PRIx64 ", COPY and FILL up to %" PRIu64 " MiB\n",
	       (uint64_t)u->info.va_start, (uint64_t)u->info.va_end,
	       (uint64_t)u->info.max_copy_size >> 20);
	return 0;
}

/*
 * The engines: an array whose entries are entry_size bytes apart, which
 * may be more than this program's sizeof(struct drm_vaccel_engine_info)
 * if the kernel is newer.  Pick a COPY engine, or a COMPUTE engine if the
 * device has no COPY engine; the PAGING engine is the kernel's own.
 */
static int query_engines(struct umd *u)
{
	const struct drm_vaccel_engine_info *e, *pick = NULL;
	struct drm_vaccel_engine_list *list;
	uint32_t size, i;
	int ret;

	ret = query(u->fd, DRM_VACCEL_QUERY_ENGINES, (void **)&list, &size,
		    "DRM_VACCEL_QUERY_ENGINES");
	if (ret)
		return ret;
	for (i = 0; i < list->count; i++) {
		e = (const void *)((const char *)list->engines + (size_t)i * list->entry_size);
		if (e->engine_class == DRM_VACCEL_ENGINE_CLASS_COPY && !pick)
			pick = e;
	}
	for (i = 0; i < list->count && !pick; i++) {
		e = (const void *)((const char *)list->engines + (size_t)i * list->entry_size);
		if (e->engine_class == DRM_VACCEL_ENGINE_CLASS_COMPUTE)
			pick = e;
	}
	if (!pick) {
		fprintf(stderr, NAME ": the device lists no COPY or COMPUTE engine\n");
		free(list);
		return -ENODEV;
	}
	u->engine_class = pick->engine_class;
	u->engine_instance = pick->instance;
	printf("  using %s engine %u (HW queue of %u buffers, preempted between %s)\n",
	       class_name(pick->engine_class), pick->instance, pick->hw_queue_depth,
	       granularity_name(pick->preempt_granularity));
	free(list);
	return 0;
}

/* --- 3. buffer objects --- */

/*
 * A BO is created zeroed, at least @size bytes (the kernel rounds up to
 * pages and says how much it made).  The CPU maps it through the device
 * file at the fake offset BO_MMAP_OFFSET gives.
 */
static int bo_create(struct umd *u, struct bo *bo, uint64_t size, const char *what)
{
	struct drm_vaccel_bo_create create = { .size = size };
	struct drm_vaccel_bo_mmap_offset off = { 0 };
	int ret;

	ret = uioctl(u->fd, DRM_IOCTL_VACCEL_BO_CREATE, &create, "DRM_IOCTL_VACCEL_BO_CREATE");
	if (ret)
		return ret;
	bo->handle = create.handle;
	bo->size = create.size;

	off.handle = bo->handle;
	ret = uioctl(u->fd, DRM_IOCTL_VACCEL_BO_MMAP_OFFSET, &off,
		     "DRM_IOCTL_VACCEL_BO_MMAP_OFFSET");
	if (ret)
		return ret;
	bo->cpu = mmap(NULL, bo->size, PROT_READ | PROT_WRITE, MAP_SHARED, u->fd,
		       (off_t)off.offset);
	if (bo->cpu == MAP_FAILED) {
		ret = -errno;
		bo->cpu = NULL;
		fprintf(stderr, NAME ": mmap of the %s BO: %s\n", what, strerror(-ret));
		return ret;
	}
	return 0;
}

static void bo_destroy(struct umd *u, struct bo *bo)
{
	struct drm_gem_close close_args = { .handle = bo->handle };

	if (bo->cpu)
		munmap(bo->cpu, bo->size);
	/* The handle goes; a mapping in the VM would keep the pages alive. */
	if (bo->handle)
		uioctl(u->fd, DRM_IOCTL_GEM_CLOSE, &close_args, "DRM_IOCTL_GEM_CLOSE");
	memset(bo, 0, sizeof(*bo));
}

/* --- 4. the GPU address space --- */

static struct drm_vaccel_vm_bind_op map_op(const struct bo *bo, uint32_t flags)
{
	return (struct drm_vaccel_vm_bind_op){
		.op = DRM_VACCEL_VM_BIND_OP_MAP,
		.flags = flags,
		.handle = bo->handle,
		.bo_offset = 0,
		.va = bo->va,
		.size = bo->size,
	};
}

/*
 * One VM_BIND maps the four BOs, all or nothing.  The device gets no more
 * rights than it needs: it reads the DMA buffers and the source, and never
 * fetches code from any of them (NO_EXEC matters to compute kernels).
 * Without syncobjs the bind is synchronous: the page tables are updated
 * when the ioctl returns.  With waits or signals it would be a job of the
 * PAGING engine, ordered by syncobjs like any submission.
 */
static int map_buffers(struct umd *u)
{
	const uint64_t mib = 1ull << 20;
	struct drm_vaccel_vm_bind_op ops[4];
	struct drm_vaccel_vm_bind bind = { 0 };

	/* The first MiB-aligned address the user may map, and room after it. */
	u->base = (u->info.va_start + mib - 1) & ~(mib - 1);
	if (u->base + LAYOUT_SIZE > u->info.va_end) {
		fprintf(stderr, NAME ": the VA space [0x%" PRIx64 ", 0x%" PRIx64 ") has no room for the layout\n",
			(uint64_t)u->info.va_start, (uint64_t)u->info.va_end);
		return -ENOSPC;
	}
	u->cmd.va = u->base + CMD_OFF;
	u->status.va = u->base + STATUS_OFF;
	u->src.va = u->base + SRC_OFF;
	u->dst.va = u->base + DST_OFF;

	ops[0] = map_op(&u->cmd, DRM_VACCEL_VM_BIND_READ_ONLY | DRM_VACCEL_VM_BIND_NO_EXEC);
	ops[1] = map_op(&u->status, DRM_VACCEL_VM_BIND_NO_EXEC);
	ops[2] = map_op(&u->src, DRM_VACCEL_VM_BIND_READ_ONLY | DRM_VACCEL_VM_BIND_NO_EXEC);
	ops[3] = map_op(&u->dst, DRM_VACCEL_VM_BIND_NO_EXEC);
	bind.ops = (struct drm_vaccel_obj_array)DRM_VACCEL_OBJ_ARRAY(4, ops);
	if (uioctl(u->fd, DRM_IOCTL_VACCEL_VM_BIND, &bind, "DRM_IOCTL_VACCEL_VM_BIND"))
		return -1;
	printf("  mapped: DMA buffers at 0x%" PRIx64 " (read-only), status at 0x%" PRIx64
	       ", source at 0x%" PRIx64 " (read-only), target at 0x%" PRIx64 "\n",
	       u->cmd.va, u->status.va, u->src.va, u->dst.va);
	return 0;
}

/* --- 6. packets --- */

/*
 * A DMA buffer is an array of 64-bit words; a packet is a header word
 * (opcode, flags, length in words) and its operands.  The writer appends
 * to the CPU mapping of the command BO; the device reads it at the GPU
 * address of the same bytes.
 */
struct dmabuf_writer {
	uint64_t *words;	/* CPU view of the buffer */
	uint64_t va;		/* GPU address of words[0] */
	size_t n, max;
};

static void emit(struct dmabuf_writer *w, const uint64_t *pkt, size_t len)
{
	/* The buffers here are a few packets in 64 KiB: running out is a bug. */
	if (w->n + len > w->max) {
		fprintf(stderr, NAME ": DMA buffer overflow\n");
		abort();
	}
	memcpy(w->words + w->n, pkt, len * 8);
	w->n += len;
}

static void pkt_timestamp(struct dmabuf_writer *w, uint64_t va)
{
	const uint64_t p[] = { DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_TIMESTAMP, 0, 2), va };

	emit(w, p, 2);
}

static void pkt_fill(struct dmabuf_writer *w, uint64_t dst, uint64_t size, uint32_t value)
{
	const uint64_t p[] = { DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_FILL, 0, 4), dst, size, value };

	emit(w, p, 4);
}

static void pkt_copy(struct dmabuf_writer *w, uint64_t src, uint64_t dst, uint64_t size)
{
	const uint64_t p[] = { DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_COPY, 0, 4), src, dst, size };

	emit(w, p, 4);
}

/* 32 bits, or 64 with the packet flag DRM_VACCEL_PKT_F_64BIT. */
static void pkt_write(struct dmabuf_writer *w, uint64_t va, uint64_t value, bool wide)
{
	const uint64_t p[] = {
		DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_WRITE_IMM,
				      wide ? DRM_VACCEL_PKT_F_64BIT : 0, 3),
		va, value,
	};

	emit(w, p, 3);
}

/* --- 7. submission and waiting --- */

/*
 * Submits the @w's packets, from @w->va, on the context; the fence of the
 * buffer's completion replaces whatever u->syncobj held.  The buffer's
 * bytes must not change until that fence signals.
 */
static int submit(struct umd *u, const struct dmabuf_writer *w)
{
	struct drm_vaccel_sync signal = { .handle = u->syncobj };
	struct drm_vaccel_submit s = {
		.context = u->context,
		.buffer_va = w->va,
		.buffer_size = w->n * 8,
		.signals = DRM_VACCEL_OBJ_ARRAY(1, &signal),
	};

	return uioctl(u->fd, DRM_IOCTL_VACCEL_SUBMIT, &s, "DRM_IOCTL_VACCEL_SUBMIT");
}

/*
 * Waits for the syncobj's fence, then reads the fence's status.  The wait
 * says only that the fence signalled; whether the buffer succeeded is the
 * fence's error, which the syncobj ioctls do not report: export the fence
 * as a sync_file and ask it (SYNC_IOC_FILE_INFO).  *@status: 1 for
 * success, or the buffer's error, negative.  Return: 0 or -errno.
 */
static int wait_buffer(struct umd *u, int *status)
{
	struct sync_file_info info = { .num_fences = 0 };
	struct timespec now;
	int64_t deadline;
	uint32_t first;
	int fd, ret;

	/* drmSyncobjWait() takes an absolute CLOCK_MONOTONIC deadline. */
	clock_gettime(CLOCK_MONOTONIC, &now);
	deadline = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec + (int64_t)WAIT_NS;
	ret = drmSyncobjWait(u->fd, &u->syncobj, 1, deadline, 0, &first);
	if (ret) {
		fprintf(stderr, NAME ": waiting for the buffer: %s\n",
			errno == ETIME ? "not done after 60 s" : strerror(errno));
		return -errno;
	}
	ret = drmSyncobjExportSyncFile(u->fd, u->syncobj, &fd);
	if (ret) {
		fprintf(stderr, NAME ": exporting the fence: %s\n", strerror(errno));
		return -errno;
	}
	if (ioctl(fd, SYNC_IOC_FILE_INFO, &info)) {
		ret = -errno;
		fprintf(stderr, NAME ": SYNC_IOC_FILE_INFO: %s\n", strerror(errno));
	} else {
		*status = info.status;
	}
	close(fd);
	return ret;
}

static int context_state(struct umd *u, struct drm_vaccel_context_state *st)
{
	*st = (struct drm_vaccel_context_state){ .handle = u->context };
	return uioctl(u->fd, DRM_IOCTL_VACCEL_CONTEXT_STATE, st,
		      "DRM_IOCTL_VACCEL_CONTEXT_STATE");
}

/* --- 8. the work, and its check on the CPU --- */

static uint32_t pattern(uint32_t i)
{
	return i * 2654435761u ^ 0x5bd1e995u;
}

/*
 * FILL the target, then COPY the first half of the source over the first
 * half of the target, between two timestamps, and write two markers.  The
 * packets of one buffer execute in order, each after the previous one
 * completed: the COPY lands on the FILL, not under it.
 */
static int run_work(struct umd *u)
{
	struct dmabuf_writer w = { u->cmd.cpu, u->cmd.va, 0, u->cmd.size / 8 };
	const volatile uint64_t *st64 = u->status.cpu;
	const volatile uint32_t *st32 = u->status.cpu;
	const uint32_t *src = u->src.cpu, *dst = u->dst.cpu;
	struct drm_vaccel_context_state st;
	size_t i, bad = 0, first_bad = 0;
	uint64_t ns;
	int status, ret;

	for (i = 0; i < DATA_SIZE / 4; i++)
		((uint32_t *)u->src.cpu)[i] = pattern(i);

	pkt_timestamp(&w, u->status.va + ST_TS_BEGIN);
	pkt_fill(&w, u->dst.va, DATA_SIZE, FILL_VALUE);
	pkt_copy(&w, u->src.va, u->dst.va, COPY_SIZE);
	pkt_write(&w, u->status.va + ST_MARK32, MARK32, false);
	pkt_write(&w, u->status.va + ST_MARK64, MARK64, true);
	pkt_timestamp(&w, u->status.va + ST_TS_END);

	ret = submit(u, &w);
	if (ret)
		return ret;
	ret = wait_buffer(u, &status);
	if (ret)
		return ret;
	if (status != 1) {
		fprintf(stderr, NAME ": the buffer failed: %s\n", strerror(-status));
		return -EIO;
	}
	ret = context_state(u, &st);
	if (ret)
		return ret;
	if (st.jobs_submitted != 1 || st.jobs_completed != 1 || st.flags) {
		fprintf(stderr, NAME ": context state after one buffer: %" PRIu64 " submitted, %" PRIu64
			" completed, flags 0x%x (want 1, 1, 0)\n", (uint64_t)st.jobs_submitted,
			(uint64_t)st.jobs_completed, st.flags);
		return -EIO;
	}

	for (i = 0; i < DATA_SIZE / 4; i++) {
		uint32_t want = i < COPY_SIZE / 4 ? src[i] : FILL_VALUE;

		if (dst[i] != want && !bad++)
			first_bad = i;
	}
	if (bad) {
		fprintf(stderr, NAME ": %zu words of the target are wrong, the first at byte %zu: 0x%08x\n",
			bad, first_bad * 4, dst[first_bad]);
		return -EIO;
	}
	if (st32[ST_MARK32 / 4] != MARK32 || st64[ST_MARK64 / 8] != MARK64) {
		fprintf(stderr, NAME ": markers 0x%08x and 0x%016" PRIx64 ", want 0x%08x and 0x%016llx\n",
			st32[ST_MARK32 / 4], st64[ST_MARK64 / 8], MARK32, MARK64);
		return -EIO;
	}
	if (!st64[ST_TS_BEGIN / 8] || st64[ST_TS_END / 8] < st64[ST_TS_BEGIN / 8]) {
		fprintf(stderr, NAME ": timestamps %" PRIu64 " and %" PRIu64 " are not in order\n",
			st64[ST_TS_BEGIN / 8], st64[ST_TS_END / 8]);
		return -EIO;
	}
	ns = st64[ST_TS_END / 8] - st64[ST_TS_BEGIN / 8];
	printf("  buffer 1: TIMESTAMP, FILL %u KiB, COPY %u KiB, WRITE_IMM x2, TIMESTAMP: %" PRIu64 " words\n",
	       DATA_SIZE >> 10, COPY_SIZE >> 10, (uint64_t)w.n);
	printf("  done in %.3f ms of engine clock; the CPU sees the copy, the fill and both markers\n",
	       ns / 1e6);
	return 0;
}

/* --- 9. a fault, decoded --- */

static const char *ban_name(uint32_t r)
{
	static const char *const names[] = { "none", "fault", "hang", "time limit" };

	return r < ARRAY_SIZE(names) ? names[r] : "unknown";
}

static const char *fault_name(uint32_t r)
{
	static const char *const names[] = {
		"none", "unmapped", "out of range", "permission", "malformed packet",
		"illegal instruction", "compressed instruction", "misaligned",
		"CSR", "trap",
	};

	return r < ARRAY_SIZE(names) ? names[r] : "unknown";
}

static const char *access_name(uint32_t a)
{
	static const char *const names[] = { "read", "write", "exec" };

	return a < ARRAY_SIZE(names) ? names[a] : "unknown";
}

/*
 * A second buffer, 4 KiB into the command BO, past the first one (done
 * with): a marker, a COPY from the hole of the layout, and a marker that must
 * never be written.  The engine's MMU finds no page at the hole; the
 * buffer stops there, its fence carries -EFAULT, and the context is
 * banned for good: CONTEXT_STATE says why, where, and with which
 * submission, which is how a runtime names the faulting command.  A
 * runtime that wants to go on creates a new context.
 */
static int run_fault(struct umd *u)
{
	const uint64_t buf_off = 4096;	/* past the first buffer, which is done */
	struct dmabuf_writer w = {
		(uint64_t *)((char *)u->cmd.cpu + buf_off), u->cmd.va + buf_off, 0,
		(u->cmd.size - buf_off) / 8,
	};
	const volatile uint32_t *st32 = u->status.cpu;
	const uint64_t hole = u->base + HOLE_OFF;
	struct drm_vaccel_context_state st;
	struct drm_vaccel_submit again;
	uint64_t copy_off;
	int status, ret;
	bool ok;

	pkt_write(&w, u->status.va + ST_BEFORE_FAULT, 1, false);
	copy_off = w.n * 8;
	pkt_copy(&w, hole, u->dst.va, 4096);
	pkt_write(&w, u->status.va + ST_AFTER_FAULT, 2, false);

	ret = submit(u, &w);
	if (ret)
		return ret;
	ret = wait_buffer(u, &status);
	if (ret)
		return ret;
	ret = context_state(u, &st);
	if (ret)
		return ret;

	printf("  buffer 2: WRITE_IMM, COPY from 0x%" PRIx64 " (never mapped), WRITE_IMM\n", hole);
	if (status == 1)
		printf("  its fence signalled without error\n");
	else
		printf("  its fence signalled with error %d (%s)\n", status, strerror(-status));
	printf("  context state:%s%s, banned for: %s, %s of 0x%" PRIx64 " (%s)\n"
	       "    by the packet at +0x%" PRIx64 " of the DMA buffer at 0x%" PRIx64
	       ", submission #%" PRIu64 " of the context\n",
	       st.flags & DRM_VACCEL_CONTEXT_FAULTED ? " FAULTED" : "",
	       st.flags & DRM_VACCEL_CONTEXT_BANNED ? " BANNED" : "",
	       ban_name(st.ban_reason), access_name(st.fault_access),
	       (uint64_t)st.fault_va, fault_name(st.fault_reason),
	       (uint64_t)st.ban_offset, (uint64_t)st.ban_buffer_va, (uint64_t)st.ban_job);

	ok = status == -EFAULT &&
	     st.flags == (DRM_VACCEL_CONTEXT_FAULTED | DRM_VACCEL_CONTEXT_BANNED) &&
	     st.ban_reason == DRM_VACCEL_BAN_FAULT &&
	     st.fault_reason == DRM_VACCEL_FAULT_UNMAPPED &&
	     st.fault_access == DRM_VACCEL_ACCESS_READ && st.fault_va == hole &&
	     st.fault_offset == copy_off && st.ban_offset == copy_off &&
	     st.ban_buffer_va == w.va && st.ban_job == 2 && st.jobs_completed == 2;
	if (!ok) {
		fprintf(stderr, NAME ": the fault is not the one expected: a read of unmapped 0x%" PRIx64
			" by the packet at +0x%" PRIx64 " of buffer 0x%" PRIx64 ", submission #2, fence -EFAULT\n",
			hole, copy_off, w.va);
		return -EIO;
	}
	if (st32[ST_BEFORE_FAULT / 4] != 1 || st32[ST_AFTER_FAULT / 4] != 0) {
		fprintf(stderr, NAME ": markers around the fault are %u and %u, want 1 and 0\n",
			st32[ST_BEFORE_FAULT / 4], st32[ST_AFTER_FAULT / 4]);
		return -EIO;
	}
	printf("  the packet before the fault ran, the one after did not\n");

	/* A banned context takes no more work. */
	again = (struct drm_vaccel_submit){
		.context = u->context, .buffer_va = w.va, .buffer_size = 8,
	};
	if (drmIoctl(u->fd, DRM_IOCTL_VACCEL_SUBMIT, &again) == 0) {
		fprintf(stderr, NAME ": SUBMIT to the banned context was accepted\n");
		return -EIO;
	}
	if (errno != ECANCELED) {
		fprintf(stderr, NAME ": SUBMIT to the banned context: %s, want %s\n",
			strerror(errno), strerror(ECANCELED));
		return -EIO;
	}
	printf("  SUBMIT to the banned context: %s, as it should\n", strerror(ECANCELED));
	return 0;
}

/* --- putting it together --- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " NAME " [-h] [-d INDEX]\n"
		"A user-mode driver on the raw uapi: query, BOs, VM_BIND, a context,\n"
		"a DMA buffer of packets, a syncobj, and a fault decoded.\n"
		"\n"
		"  -d INDEX   the vaccel device of this index (default 0, the first)\n"
		"  -h         this help\n");
}

int main(int argc, char **argv)
{
	struct umd u = { .fd = -1 };
	struct drm_vaccel_context_create create = { 0 };
	unsigned long index = 0;
	char *end;
	int opt, status = 1;

	while ((opt = getopt(argc, argv, "hd:")) != -1) {
		switch (opt) {
		case 'h':
			usage(stdout);
			return 0;
		case 'd':
			errno = 0;
			index = strtoul(optarg, &end, 0);
			if (errno || *end || !*optarg || optarg[0] == '-' || index > UINT_MAX) {
				fprintf(stderr, NAME ": bad value '%s' for -d\n", optarg);
				return 2;
			}
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}

	u.fd = open_vaccel_node(index);
	if (u.fd < 0)
		return 1;
	if (query_device(&u) || query_engines(&u))
		goto out;

	if (bo_create(&u, &u.cmd, CMD_SIZE, "command") ||
	    bo_create(&u, &u.status, STATUS_SIZE, "status") ||
	    bo_create(&u, &u.src, DATA_SIZE, "source") ||
	    bo_create(&u, &u.dst, DATA_SIZE, "target"))
		goto out;
	if (map_buffers(&u))
		goto out;

	/*
	 * A context: a queue of DMA buffers on one engine, in this file's
	 * address space.  Priorities above NORMAL need CAP_SYS_NICE.
	 */
	create.engine_class = u.engine_class;
	create.engine_instance = u.engine_instance;
	create.priority = DRM_VACCEL_PRIORITY_NORMAL;
	if (uioctl(u.fd, DRM_IOCTL_VACCEL_CONTEXT_CREATE, &create,
		   "DRM_IOCTL_VACCEL_CONTEXT_CREATE"))
		goto out;
	u.context = create.handle;

	/* A binary syncobj: each SUBMIT installs its fence there. */
	if (drmSyncobjCreate(u.fd, 0, &u.syncobj)) {
		fprintf(stderr, NAME ": DRM_IOCTL_SYNCOBJ_CREATE: %s\n", strerror(errno));
		goto out;
	}

	if (run_work(&u) || run_fault(&u))
		goto out;
	status = 0;
out:
	if (u.syncobj)
		drmSyncobjDestroy(u.fd, u.syncobj);
	if (u.context) {
		struct drm_vaccel_context_destroy destroy = { .handle = u.context };

		uioctl(u.fd, DRM_IOCTL_VACCEL_CONTEXT_DESTROY, &destroy,
		       "DRM_IOCTL_VACCEL_CONTEXT_DESTROY");
	}
	/*
	 * The mappings in the VM keep the BOs' pages; closing the handles and
	 * the file would free everything too, but a long-lived runtime
	 * unmaps what it no longer uses.
	 */
	if (u.base) {
		struct drm_vaccel_vm_bind_op unmap = {
			.op = DRM_VACCEL_VM_BIND_OP_UNMAP, .va = u.base, .size = LAYOUT_SIZE,
		};
		struct drm_vaccel_vm_bind bind = { .ops = DRM_VACCEL_OBJ_ARRAY(1, &unmap) };

		uioctl(u.fd, DRM_IOCTL_VACCEL_VM_BIND, &bind, "DRM_IOCTL_VACCEL_VM_BIND (unmap)");
	}
	bo_destroy(&u, &u.dst);
	bo_destroy(&u, &u.src);
	bo_destroy(&u, &u.status);
	bo_destroy(&u, &u.cmd);
	close(u.fd);
	printf("result: %s\n", status ? "FAILED" : "OK, every step did what the uapi says");
	return status;
}
