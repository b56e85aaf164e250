// SPDX-License-Identifier: GPL-2.0-only
/*
 * calls.c - vaccel-fuzz: every call a program can make, its arguments and
 * its result, and how it runs.
 *
 * The table covers vaccel's ioctls (QUERY, BO_CREATE, BO_MMAP_OFFSET,
 * BO_INFO, VM_BIND in its map, unmap and raw forms, CONTEXT_CREATE,
 * DESTROY and STATE, SUBMIT, BO_MIGRATE), the core DRM ioctls a vaccel user makes
 * (GEM_CLOSE, the syncobj family, PRIME export and import), the file and
 * memory calls around them (open, close, mmap of a BO or a dma-buf,
 * munmap, poll of a sync_file), the writes that fill a mapping with a DMA
 * buffer or an RV64 kernel, and the process events: fork, exit of the
 * child, fd passing over a unix socket.  Gates are fences the program
 * controls: a syncobj holding a fence of a sw_sync timeline of its own,
 * which the program's gate_open signals; submits, binds and moves wait on
 * them, so that they are really queued behind an unsignalled fence for as
 * long as the program says (or until it exits, which signals the fence).
 *
 * A call never trusts its arguments: a reference to a call that failed, or
 * has not run yet on the other thread, reads as 0 (or -1 for an fd), which
 * the kernel must refuse cleanly.  Writes into a mapping that another
 * thread unmapped are caught (SIGSEGV, SIGBUS) and count as a failed call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <drm/vaccel_accel.h>
#include <linux/types.h>

#include "fuzz.h"

enum {
	C_OPEN, C_CLOSE, C_QUERY, C_BO_CREATE, C_BO_INFO, C_BO_MMAP,
	C_MUNMAP, C_GEM_CLOSE, C_BIND_MAP, C_BIND_UNMAP, C_BIND_RAW,
	C_CTX_CREATE, C_CTX_DESTROY, C_CTX_STATE, C_SUBMIT, C_SUBMIT_RAW,
	C_WRITE_BUFFER, C_WRITE_KERNEL, C_SYNCOBJ_CREATE,
	C_SYNCOBJ_DESTROY, C_SYNCOBJ_WAIT, C_SYNCOBJ_TIMELINE_WAIT,
	C_SYNCOBJ_SIGNAL, C_SYNCOBJ_RESET, C_SYNCOBJ_TRANSFER,
	C_SYNCOBJ_QUERY, C_SYNCOBJ_EXPORT, C_SYNCOBJ_IMPORT,
	C_PRIME_EXPORT, C_PRIME_IMPORT, C_DMABUF_MMAP, C_SYNCFILE_POLL,
	C_FORK, C_SEND_FD, C_RECV_FD, C_SLEEP, C_BO_MIGRATE, C_GATE_CREATE,
	C_GATE_OPEN,
};

const struct fuzz_call_desc fuzz_calls[] = {
	[C_OPEN] = { "open", FR_FD, 1, { FA_SMALL }, 2 },
	[C_CLOSE] = { "close", FR_NONE, 1, { FA_ANYFD }, 3 },
	[C_QUERY] = { "query", FR_VALUE, 4, { FA_FD, FA_SMALL, FA_SIZE, FA_FLAGS }, 3 },
	[C_BO_CREATE] = { "bo_create", FR_BO, 3, { FA_FD, FA_SIZE, FA_BOFLAGS }, 10 },
	[C_BO_INFO] = { "bo_info", FR_VALUE, 3, { FA_FD, FA_BO, FA_FLAGS }, 2 },
	[C_BO_MMAP] = { "bo_mmap", FR_MAP, 4, { FA_FD, FA_BO, FA_SIZE, FA_FLAGS }, 6 },
	[C_MUNMAP] = { "munmap", FR_NONE, 1, { FA_MAP }, 2 },
	[C_GEM_CLOSE] = { "gem_close", FR_NONE, 2, { FA_FD, FA_BO }, 3 },
	[C_BIND_MAP] = { "bind_map", FR_VA, 7,
		{ FA_FD, FA_BO, FA_SLOT, FA_SIZE, FA_SIZE, FA_FLAGS, FA_SYNCOBJ }, 10 },
	[C_BIND_UNMAP] = { "bind_unmap", FR_NONE, 4,
		{ FA_FD, FA_SLOT, FA_SIZE, FA_SYNCOBJ }, 4 },
	[C_BIND_RAW] = { "bind_raw", FR_NONE, 7,
		{ FA_FD, FA_SMALL, FA_SMALL, FA_FLAGS, FA_SLOT, FA_SIZE, FA_SEED }, 2 },
	[C_CTX_CREATE] = { "ctx_create", FR_CTX, 5,
		{ FA_FD, FA_SMALL, FA_SMALL, FA_SMALL, FA_FLAGS }, 8 },
	[C_CTX_DESTROY] = { "ctx_destroy", FR_NONE, 2, { FA_FD, FA_CTX }, 2 },
	[C_CTX_STATE] = { "ctx_state", FR_VALUE, 2, { FA_FD, FA_CTX }, 2 },
	[C_SUBMIT] = { "submit", FR_NONE, 7,
		{ FA_FD, FA_CTX, FA_SLOT, FA_SIZE, FA_SYNCOBJ, FA_SYNCOBJ, FA_POINT }, 12 },
	[C_SUBMIT_RAW] = { "submit_raw", FR_NONE, 7,
		{ FA_FD, FA_CTX, FA_SLOT, FA_SIZE, FA_SMALL, FA_SMALL, FA_SEED }, 2 },
	[C_WRITE_BUFFER] = { "write_buffer", FR_NONE, 5,
		{ FA_MAP, FA_KIND, FA_SEED, FA_SLOT, FA_SLOT }, 10 },
	[C_WRITE_KERNEL] = { "write_kernel", FR_NONE, 3, { FA_MAP, FA_KIND, FA_SEED }, 6 },
	[C_SYNCOBJ_CREATE] = { "syncobj_create", FR_SYNCOBJ, 2, { FA_FD, FA_FLAGS }, 8 },
	[C_SYNCOBJ_DESTROY] = { "syncobj_destroy", FR_NONE, 2, { FA_FD, FA_SYNCOBJ }, 2 },
	[C_SYNCOBJ_WAIT] = { "syncobj_wait", FR_VALUE, 4,
		{ FA_FD, FA_SYNCOBJ, FA_FLAGS, FA_TIMEOUT }, 4 },
	[C_SYNCOBJ_TIMELINE_WAIT] = { "syncobj_timeline_wait", FR_VALUE, 5,
		{ FA_FD, FA_SYNCOBJ, FA_POINT, FA_FLAGS, FA_TIMEOUT }, 3 },
	[C_SYNCOBJ_SIGNAL] = { "syncobj_signal", FR_NONE, 3,
		{ FA_FD, FA_SYNCOBJ, FA_POINT }, 3 },
	[C_SYNCOBJ_RESET] = { "syncobj_reset", FR_NONE, 2, { FA_FD, FA_SYNCOBJ }, 2 },
	[C_SYNCOBJ_TRANSFER] = { "syncobj_transfer", FR_NONE, 6,
		{ FA_FD, FA_SYNCOBJ, FA_POINT, FA_SYNCOBJ, FA_POINT, FA_FLAGS }, 2 },
	[C_SYNCOBJ_QUERY] = { "syncobj_query", FR_VALUE, 3,
		{ FA_FD, FA_SYNCOBJ, FA_FLAGS }, 2 },
	[C_SYNCOBJ_EXPORT] = { "syncobj_export", FR_SYNCFILE, 3,
		{ FA_FD, FA_SYNCOBJ, FA_FLAGS }, 3 },
	[C_SYNCOBJ_IMPORT] = { "syncobj_import", FR_SYNCOBJ, 4,
		{ FA_FD, FA_SYNCFILE, FA_SYNCOBJ, FA_FLAGS }, 2 },
	[C_PRIME_EXPORT] = { "prime_export", FR_DMABUF, 3, { FA_FD, FA_BO, FA_FLAGS }, 4 },
	[C_PRIME_IMPORT] = { "prime_import", FR_BO, 2, { FA_FD, FA_DMABUF }, 4 },
	[C_DMABUF_MMAP] = { "dmabuf_mmap", FR_MAP, 3, { FA_DMABUF, FA_SIZE, FA_FLAGS }, 2 },
	[C_SYNCFILE_POLL] = { "syncfile_poll", FR_VALUE, 2, { FA_SYNCFILE, FA_TIMEOUT }, 2 },
	[C_FORK] = { "fork", FR_NONE, 1, { FA_SMALL }, 2 },
	[C_SEND_FD] = { "send_fd", FR_NONE, 1, { FA_ANYFD }, 2 },
	[C_RECV_FD] = { "recv_fd", FR_DMABUF, 0, { 0 }, 2 },
	[C_SLEEP] = { "sleep", FR_NONE, 1, { FA_TIMEOUT }, 1 },
	[C_BO_MIGRATE] = { "bo_migrate", FR_NONE, 6,
		{ FA_FD, FA_BO, FA_REGION, FA_FLAGS, FA_SYNCOBJ, FA_SYNCOBJ }, 6 },
	[C_GATE_CREATE] = { "gate_create", FR_SYNCOBJ, 1, { FA_FD }, 3 },
	[C_GATE_OPEN] = { "gate_open", FR_NONE, 1, { FA_SYNCOBJ }, 3 },
};

const unsigned int fuzz_ncalls = sizeof(fuzz_calls) / sizeof(fuzz_calls[0]);

/* The index of the call named @name in fuzz_calls, or -1. */
int fuzz_call_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < fuzz_ncalls; i++)
		if (!strcmp(fuzz_calls[i].name, name))
			return i;
	return -1;
}

/* --- arguments ----------------------------------------------------------- */

/* The value of an argument: a reference reads the result of its call. */
static uint64_t val(struct fuzz_state *st, struct fuzz_arg a)
{
	if (a.t == FT_REF)
		return a.v < FUZZ_MAX_CALLS ? __atomic_load_n(&st->res[a.v], __ATOMIC_ACQUIRE) : 0;
	if (a.t == FT_FD)
		return (uint64_t)(int64_t)st->devfd[a.v % FUZZ_DEVICE_FILES];
	return a.v;
}

/* An fd argument: results that are fds are stored as fd + 1, 0 for none. */
static int fd_of(struct fuzz_state *st, struct fuzz_arg a)
{
	if (a.t == FT_FD)
		return st->devfd[a.v % FUZZ_DEVICE_FILES];
	if (a.t == FT_REF)
		return (int)val(st, a) - 1;
	return (int)a.v;
}

/* The CPU mapping a reference names, NULL for anything else. */
static struct fuzz_map *map_of(struct fuzz_state *st, struct fuzz_arg a)
{
	if (a.t != FT_REF || a.v >= FUZZ_MAX_CALLS)
		return NULL;
	return &st->map[a.v];
}

/* CLOCK_MONOTONIC in nanoseconds. */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Timeouts are relative in programs, absolute for the syncobj ioctls. */
static int64_t deadline(uint64_t rel)
{
	if (rel >= (uint64_t)INT64_MAX / 2)
		return INT64_MAX;
	return (int64_t)(now_ns() + rel);
}

/* ioctl(), repeated on EINTR and EAGAIN except for the timed waits. */
static int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN) && req != DRM_IOCTL_SYNCOBJ_WAIT &&
		 req != DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT);
	return ret;
}

/* A page nothing may touch: user pointers that must fault. */
static void *guard_page(void)
{
	static void *page;

	if (!page)
		page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return page;
}

/* --- writes into mappings, which another thread may unmap ------------------ */

static __thread sigjmp_buf *write_jmp;

/* SIGSEGV, SIGBUS: back to the write that faulted, or die as before. */
static void write_fault(int sig)
{
	if (write_jmp)
		siglongjmp(*write_jmp, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Writes a buffer or a kernel into @m; a fault fails the call (EFAULT). */
static int guarded_write(struct fuzz_state *st, struct fuzz_map *m, bool kernel,
			 unsigned int kind, uint32_t seed, const struct fuzz_layout *l)
{
	static bool installed;
	sigjmp_buf jb;
	void *ptr;
	size_t len;

	if (!installed) {
		struct sigaction sa = { .sa_handler = write_fault, .sa_flags = SA_NODEFER };

		sigaction(SIGSEGV, &sa, NULL);
		sigaction(SIGBUS, &sa, NULL);
		installed = true;
	}
	ptr = __atomic_load_n(&m->ptr, __ATOMIC_ACQUIRE);
	len = m->len;
	if (!ptr || !len)
		return -1;
	if (sigsetjmp(jb, 1)) {
		write_jmp = NULL;
		errno = EFAULT;
		return -1;
	}
	write_jmp = &jb;
	if (kernel)
		fuzz_write_kernel(ptr, len, kind, seed, st->dev);
	else
		fuzz_write_buffer(ptr, len, kind, seed, st->dev, l);
	write_jmp = NULL;
	return 0;
}

/* --- fd passing ------------------------------------------------------------ */

/* Sends @fd over @sock (SCM_RIGHTS), without blocking. */
static int send_fd(int sock, int fd)
{
	char data = 'f';
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, MSG_DONTWAIT | MSG_NOSIGNAL) == 1 ? 0 : -1;
}

/* Receives an fd sent over @sock, -1 if none is waiting. */
static int recv_fd(int sock)
{
	char data;
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/* --- the calls ---------------------------------------------------------------- */

/* Publishes call @i's result to the other thread. */
static void set_res(struct fuzz_state *st, unsigned int i, uint64_t v)
{
	__atomic_store_n(&st->res[i], v, __ATOMIC_RELEASE);
}

/* VM_BIND of @nops operations, waiting for or signalling @sync if non-zero. */
static int vm_bind(int fd, struct drm_vaccel_vm_bind_op *op, uint32_t nops, uint32_t sync,
		bool signal)
{
	struct drm_vaccel_sync s = { .handle = sync };
	struct drm_vaccel_vm_bind b = {
		.ops = { sizeof(*op), nops, (uintptr_t)op },
	};

	if (sync) {
		if (signal)
			b.signals = (struct drm_vaccel_obj_array){ sizeof(s), 1, (uintptr_t)&s };
		else
			b.waits = (struct drm_vaccel_obj_array){ sizeof(s), 1, (uintptr_t)&s };
	}
	return xioctl(fd, DRM_IOCTL_VACCEL_VM_BIND, &b);
}

/*
 * A VA argument of call @index: the VA an earlier bind mapped (0 if it
 * failed), the call's own range, a slot number (small) or a wild address.
 */
static uint64_t va_of(struct fuzz_state *st, unsigned int index, struct fuzz_arg a)
{
	if (a.t == FT_REF)
		return val(st, a);
	if (a.v == FUZZ_SLOT_CALL)
		return fuzz_call_va(st->dev, index);
	return a.v < FUZZ_SLOTS * 4 ? fuzz_slot_va(st->dev, a.v) : a.v;
}

/* From <linux/sync_file.h>'s sw_sync side, which no header exports. */
struct sw_sync_create_fence_data {
	__u32 value;
	char name[32];
	__s32 fence;
};

#define SW_SYNC_PATH			"/sys/kernel/debug/sync/sw_sync"
#define SW_SYNC_IOC_CREATE_FENCE	_IOWR('W', 0, struct sw_sync_create_fence_data)
#define SW_SYNC_IOC_INC			_IOW('W', 1, __u32)

/*
 * A gate: a new syncobj of @fd holding the fence of point 1 of a new
 * sw_sync timeline, which stays unsignalled until gate_open (or the
 * executor's exit) advances the timeline.  Returns the syncobj, 0 on error.
 */
static uint32_t gate_create(struct fuzz_state *st, unsigned int index, int fd)
{
	struct sw_sync_create_fence_data f = { .value = 1, .name = "vaccel-fuzz" };
	struct drm_syncobj_create sc = { 0 };
	struct drm_syncobj_handle h = { .flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE };
	int tl = open(SW_SYNC_PATH, O_RDWR | O_CLOEXEC);

	if (tl < 0)
		return 0;
	if (ioctl(tl, SW_SYNC_IOC_CREATE_FENCE, &f))
		goto err_close_tl;
	h.fd = f.fence;
	if (xioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc))
		goto err_close_fence;
	h.handle = sc.handle;
	if (xioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h))
		goto err_close_fence;
	close(f.fence);
	st->gate[index] = tl + 1;
	return sc.handle;

err_close_fence:
	close(f.fence);
err_close_tl:
	close(tl);
	return 0;
}

/*
 * fuzz_run_call() - run call @index of the program
 * Return: 0 if the call succeeded, -1 if it failed (errno set).
 * C_FORK is run by the executor, not here.
 */
int fuzz_run_call(struct fuzz_state *st, unsigned int index, unsigned int thread)
{
	const struct fuzz_call *c = &st->prog->call[index];
	const struct fuzz_arg *ta = c->arg;	/* typed, for resources */
	uint64_t a[FUZZ_MAX_ARGS];		/* raw, for literals */
	int fd = fd_of(st, ta[0]);

	for (unsigned int i = 0; i < FUZZ_MAX_ARGS; i++)
		a[i] = ta[i].v;
	int ret = -1;

	(void)thread;
	switch (c->id) {
	case C_OPEN: {
		int nfd = open(st->dev->path[a[0] % st->dev->files], O_RDWR | O_CLOEXEC);

		if (nfd >= 0) {
			set_res(st, index, nfd + 1);
			ret = 0;
		}
		break;
	}
	case C_CLOSE:
		ret = close(fd);
		break;
	case C_QUERY: {
		/* An answer larger than the buffer goes to a page that faults. */
		static __thread uint8_t buf[8192];
		struct drm_vaccel_query q = {
			.type = (uint32_t)val(st, ta[1]),
			.size = (uint32_t)a[2],
			.data = a[2] <= sizeof(buf) ? (uintptr_t)buf : (uintptr_t)guard_page(),
			.flags = (uint32_t)a[3],
		};

		ret = xioctl(fd, DRM_IOCTL_VACCEL_QUERY, &q);
		if (!ret)
			set_res(st, index, q.size);
		break;
	}
	case C_BO_CREATE: {
		struct drm_vaccel_bo_create b = { .size = a[1], .flags = (uint32_t)a[2] };

		ret = xioctl(fd, DRM_IOCTL_VACCEL_BO_CREATE, &b);
		if (!ret)
			set_res(st, index, b.handle);
		break;
	}
	case C_BO_INFO: {
		struct drm_vaccel_bo_info b = {
			.handle = (uint32_t)val(st, ta[1]), .pad = (uint32_t)a[2],
		};

		ret = xioctl(fd, DRM_IOCTL_VACCEL_BO_INFO, &b);
		if (!ret)
			set_res(st, index, b.size);
		break;
	}
	case C_BO_MMAP: {
		struct drm_vaccel_bo_mmap_offset m = { .handle = (uint32_t)val(st, ta[1]) };
		size_t len = a[2] ? (a[2] + 4095) & ~4095ull : 4096;
		void *p;

		ret = xioctl(fd, DRM_IOCTL_VACCEL_BO_MMAP_OFFSET, &m);
		if (ret)
			break;
		if (len > (64ull << 20))
			len = 64ull << 20;
		p = mmap(NULL, len, (a[3] & 1) ? PROT_READ : PROT_READ | PROT_WRITE,
			 MAP_SHARED, fd, (off_t)(m.offset + ((a[3] & 2) ? 4096 : 0)));
		if (p == MAP_FAILED)
			return -1;
		st->map[index].len = len;
		__atomic_store_n(&st->map[index].ptr, p, __ATOMIC_RELEASE);
		set_res(st, index, 1);
		ret = 0;
		break;
	}
	case C_MUNMAP: {
		struct fuzz_map *m = map_of(st, ta[0]);
		void *p = m ? __atomic_exchange_n(&m->ptr, NULL, __ATOMIC_ACQ_REL) : NULL;

		ret = p ? munmap(p, m->len) : -1;
		break;
	}
	case C_GEM_CLOSE: {
		struct drm_gem_close g = { .handle = (uint32_t)val(st, ta[1]) };

		ret = xioctl(fd, DRM_IOCTL_GEM_CLOSE, &g);
		break;
	}
	case C_BIND_MAP: {
		uint32_t sync = (uint32_t)val(st, ta[6]);
		struct drm_vaccel_vm_bind_op op = {
			.op = DRM_VACCEL_VM_BIND_OP_MAP,
			/* Bit 8 is ours: wait for the syncobj instead of signalling it. */
			.flags = (uint32_t)a[5] & ~(1u << 8),
			.handle = (uint32_t)val(st, ta[1]),
			.va = va_of(st, index, ta[2]),
			.size = a[3],
			.bo_offset = a[4],
		};

		ret = vm_bind(fd, &op, 1, sync, !(a[5] & (1u << 8)));
		if (!ret)
			set_res(st, index, op.va);
		break;
	}
	case C_BIND_UNMAP: {
		struct drm_vaccel_vm_bind_op op = {
			.op = DRM_VACCEL_VM_BIND_OP_UNMAP,
			.va = va_of(st, index, ta[1]),
			.size = a[2],
		};

		ret = vm_bind(fd, &op, 1, (uint32_t)val(st, ta[3]), true);
		break;
	}
	case C_BIND_RAW: {
		/* A batch of random operations, stride and count boundary values. */
		static __thread struct drm_vaccel_vm_bind_op ops[64];
		struct fuzz_rng r;
		uint32_t n = (uint32_t)(a[1] % 65), i;
		struct drm_vaccel_vm_bind b = {
			.flags = (uint32_t)a[3],
			.ops = { (uint32_t)(a[2] & 1 ? sizeof(ops[0]) : a[2] * 8), n, (uintptr_t)ops },
		};

		fuzz_seed(&r, a[6], 7);
		for (i = 0; i < 64; i++) {
			ops[i] = (struct drm_vaccel_vm_bind_op){
				.op = fuzz_chance(&r, 90) ? (uint32_t)fuzz_below(&r, 2) : (uint32_t)fuzz_next(&r),
				.flags = fuzz_chance(&r, 80) ? (uint32_t)fuzz_below(&r, 4) : (uint32_t)fuzz_next(&r),
				.handle = (uint32_t)fuzz_below(&r, 8),
				.pad = fuzz_chance(&r, 95) ? 0 : 1,
				.bo_offset = fuzz_chance(&r, 80) ? fuzz_below(&r, 4) * 4096 : fuzz_next(&r),
				.va = va_of(st, index, ta[4]) + fuzz_below(&r, 64) * 4096,
				.size = fuzz_chance(&r, 70) ? (1 + fuzz_below(&r, 16)) * 4096 : a[5],
			};
		}
		if (b.ops.stride > sizeof(ops[0]))
			b.ops.stride = sizeof(ops[0]);
		ret = xioctl(fd, DRM_IOCTL_VACCEL_VM_BIND, &b);
		break;
	}
	case C_CTX_CREATE: {
		struct drm_vaccel_context_create cc = {
			.engine_class = (uint32_t)a[1],
			.engine_instance = a[2] == 7 ? DRM_VACCEL_ENGINE_ANY : (uint32_t)a[2],
			.priority = (uint32_t)a[3],
			.flags = (uint32_t)a[4],
		};

		ret = xioctl(fd, DRM_IOCTL_VACCEL_CONTEXT_CREATE, &cc);
		if (!ret)
			set_res(st, index, cc.handle);
		break;
	}
	case C_CTX_DESTROY: {
		struct drm_vaccel_context_destroy d = { .handle = (uint32_t)val(st, ta[1]) };

		ret = xioctl(fd, DRM_IOCTL_VACCEL_CONTEXT_DESTROY, &d);
		break;
	}
	case C_CTX_STATE: {
		struct drm_vaccel_context_state s = { .handle = (uint32_t)val(st, ta[1]) };

		ret = xioctl(fd, DRM_IOCTL_VACCEL_CONTEXT_STATE, &s);
		if (!ret)
			set_res(st, index, s.flags);
		break;
	}
	case C_SUBMIT: {
		struct drm_vaccel_sync w = { .handle = (uint32_t)val(st, ta[4]) };
		struct drm_vaccel_sync s = { .handle = (uint32_t)val(st, ta[5]), .point = a[6] };
		struct drm_vaccel_submit sub = {
			.context = (uint32_t)val(st, ta[1]),
			.buffer_va = va_of(st, index, ta[2]),
			.buffer_size = a[3],
		};

		if (w.handle)
			sub.waits = (struct drm_vaccel_obj_array){ sizeof(w), 1, (uintptr_t)&w };
		if (s.handle)
			sub.signals = (struct drm_vaccel_obj_array){ sizeof(s), 1, (uintptr_t)&s };
		ret = xioctl(fd, DRM_IOCTL_VACCEL_SUBMIT, &sub);
		break;
	}
	case C_SUBMIT_RAW: {
		/* Sync arrays with boundary strides and counts, stale handles. */
		static __thread struct drm_vaccel_sync syncs[80];
		struct fuzz_rng r;
		uint32_t i;
		struct drm_vaccel_submit sub = {
			.context = (uint32_t)val(st, ta[1]),
			.buffer_va = va_of(st, index, ta[2]),
			.buffer_size = a[3],
		};

		fuzz_seed(&r, a[6], 11);
		for (i = 0; i < 80; i++)
			syncs[i] = (struct drm_vaccel_sync){
				.handle = (uint32_t)fuzz_below(&r, 12),
				.flags = fuzz_chance(&r, 95) ? 0 : 1,
				.point = fuzz_chance(&r, 50) ? 0 : fuzz_below(&r, 8),
			};
		sub.waits = (struct drm_vaccel_obj_array){
			a[4] & 1 ? sizeof(syncs[0]) : (uint32_t)(a[4] * 4), (uint32_t)(a[4] % 80),
			(uintptr_t)syncs };
		sub.signals = (struct drm_vaccel_obj_array){
			sizeof(syncs[0]), (uint32_t)(a[5] % 70), (uintptr_t)&syncs[8] };
		if (sub.waits.stride > sizeof(syncs[0]))
			sub.waits.stride = sizeof(syncs[0]);
		if (sub.signals.count + 8 > 80)
			sub.signals.count = 72;
		ret = xioctl(fd, DRM_IOCTL_VACCEL_SUBMIT, &sub);
		break;
	}
	case C_WRITE_BUFFER:
	case C_WRITE_KERNEL: {
		struct fuzz_map *m = map_of(st, ta[0]);
		struct fuzz_layout l = {
			.kernel_va = va_of(st, index, ta[3]), .data_va = va_of(st, index, ta[4]),
		};

		ret = m ? guarded_write(st, m, c->id == C_WRITE_KERNEL, (unsigned int)a[1],
					(uint32_t)a[2], &l) : -1;
		break;
	}
	case C_SYNCOBJ_CREATE: {
		struct drm_syncobj_create s = { .flags = (uint32_t)a[1] };

		ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &s);
		if (!ret) {
			st->res_fd[index] = fd;
			set_res(st, index, s.handle);
		}
		break;
	}
	case C_SYNCOBJ_DESTROY: {
		struct drm_syncobj_destroy s = { .handle = (uint32_t)val(st, ta[1]) };

		ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &s);
		break;
	}
	case C_SYNCOBJ_WAIT: {
		uint32_t h = (uint32_t)val(st, ta[1]);
		struct drm_syncobj_wait w = {
			.handles = (uintptr_t)&h, .count_handles = 1,
			.timeout_nsec = deadline(a[3]), .flags = (uint32_t)a[2],
		};

		ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
		break;
	}
	case C_SYNCOBJ_TIMELINE_WAIT: {
		uint32_t h = (uint32_t)val(st, ta[1]);
		uint64_t point = a[2];
		struct drm_syncobj_timeline_wait w = {
			.handles = (uintptr_t)&h, .points = (uintptr_t)&point,
			.count_handles = 1, .timeout_nsec = deadline(a[4]),
			.flags = (uint32_t)a[3],
		};

		ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
		break;
	}
	case C_SYNCOBJ_SIGNAL: {
		uint32_t h = (uint32_t)val(st, ta[1]);
		uint64_t point = a[2];

		if (point) {
			struct drm_syncobj_timeline_array t = {
				.handles = (uintptr_t)&h, .points = (uintptr_t)&point,
				.count_handles = 1,
			};

			ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &t);
		} else {
			struct drm_syncobj_array s = { .handles = (uintptr_t)&h, .count_handles = 1 };

			ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_SIGNAL, &s);
		}
		break;
	}
	case C_SYNCOBJ_RESET: {
		uint32_t h = (uint32_t)val(st, ta[1]);
		struct drm_syncobj_array s = { .handles = (uintptr_t)&h, .count_handles = 1 };

		ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_RESET, &s);
		break;
	}
	case C_SYNCOBJ_TRANSFER: {
		struct drm_syncobj_transfer t = {
			.dst_handle = (uint32_t)val(st, ta[1]), .dst_point = a[2],
			.src_handle = (uint32_t)val(st, ta[3]), .src_point = a[4],
			.flags = (uint32_t)a[5],
		};

		ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &t);
		break;
	}
	case C_SYNCOBJ_QUERY: {
		uint32_t h = (uint32_t)val(st, ta[1]);
		uint64_t point = 0;
		struct drm_syncobj_timeline_array t = {
			.handles = (uintptr_t)&h, .points = (uintptr_t)&point,
			.count_handles = 1, .flags = (uint32_t)a[2],
		};

		ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_QUERY, &t);
		if (!ret)
			set_res(st, index, point);
		break;
	}
	case C_SYNCOBJ_EXPORT: {
		struct drm_syncobj_handle h = {
			.handle = (uint32_t)val(st, ta[1]), .flags = (uint32_t)a[2], .fd = -1,
		};

		ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h);
		if (!ret)
			set_res(st, index, (uint64_t)h.fd + 1);
		break;
	}
	case C_SYNCOBJ_IMPORT: {
		struct drm_syncobj_handle h = {
			.fd = fd_of(st, ta[1]), .handle = (uint32_t)val(st, ta[2]),
			.flags = (uint32_t)a[3],
		};

		ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h);
		if (!ret) {
			st->res_fd[index] = fd;
			set_res(st, index, h.handle);
		}
		break;
	}
	case C_PRIME_EXPORT: {
		struct drm_prime_handle p = {
			.handle = (uint32_t)val(st, ta[1]),
			.flags = (uint32_t)a[2] & 1 ? DRM_CLOEXEC | DRM_RDWR : (uint32_t)a[2],
			.fd = -1,
		};

		ret = xioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p);
		if (!ret)
			set_res(st, index, (uint64_t)p.fd + 1);
		break;
	}
	case C_PRIME_IMPORT: {
		struct drm_prime_handle p = { .fd = fd_of(st, ta[1]) };

		ret = xioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p);
		if (!ret)
			set_res(st, index, p.handle);
		break;
	}
	case C_DMABUF_MMAP: {
		size_t len = a[1] ? (a[1] + 4095) & ~4095ull : 4096;
		void *p;

		if (len > (64ull << 20))
			len = 64ull << 20;
		p = mmap(NULL, len, (a[2] & 1) ? PROT_READ : PROT_READ | PROT_WRITE,
			 MAP_SHARED, fd, (a[2] & 2) ? 4096 : 0);
		if (p == MAP_FAILED)
			return -1;
		st->map[index].len = len;
		__atomic_store_n(&st->map[index].ptr, p, __ATOMIC_RELEASE);
		set_res(st, index, 1);
		ret = 0;
		break;
	}
	case C_SYNCFILE_POLL: {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		uint64_t ms = a[1] / 1000000;

		ret = poll(&p, 1, ms > 200 ? 200 : (int)ms) < 0 ? -1 : 0;
		break;
	}
	case C_SEND_FD:
		ret = send_fd(st->sock[0], fd);
		break;
	case C_RECV_FD: {
		int nfd = recv_fd(st->sock[1]);

		if (nfd >= 0) {
			set_res(st, index, nfd + 1);
			ret = 0;
		}
		break;
	}
	case C_SLEEP: {
		uint64_t us = a[0] / 1000;

		usleep(us > 50000 ? 50000 : (useconds_t)us);
		ret = 0;
		break;
	}
	case C_BO_MIGRATE: {
		struct drm_vaccel_sync w = { .handle = (uint32_t)val(st, ta[4]) };
		struct drm_vaccel_sync s = { .handle = (uint32_t)val(st, ta[5]) };
		struct drm_vaccel_bo_migrate m = {
			.handle = (uint32_t)val(st, ta[1]),
			.region = (uint32_t)a[2],
			.flags = (uint32_t)a[3],
		};

		if (w.handle)
			m.waits = (struct drm_vaccel_obj_array){ sizeof(w), 1, (uintptr_t)&w };
		if (s.handle)
			m.signals = (struct drm_vaccel_obj_array){ sizeof(s), 1, (uintptr_t)&s };
		ret = xioctl(fd, DRM_IOCTL_VACCEL_BO_MIGRATE, &m);
		break;
	}
	case C_GATE_CREATE: {
		uint32_t h = gate_create(st, index, fd);

		if (h) {
			st->res_fd[index] = fd;
			set_res(st, index, h);
			ret = 0;
		}
		break;
	}
	case C_GATE_OPEN: {
		__u32 one = 1;
		int tl = ta[0].t == FT_REF && ta[0].v < FUZZ_MAX_CALLS ? st->gate[ta[0].v] - 1 : -1;

		errno = EINVAL;
		if (tl >= 0)
			ret = ioctl(tl, SW_SYNC_IOC_INC, &one);
		break;
	}
	default:
		errno = ENOSYS;
		break;
	}
	return ret;
}

/*
 * fuzz_open_gates() - signal every gate of the program
 * @st: the run
 *
 * For the executor's watchdog: a program whose thread waits behind a gate
 * that only a later call of the same thread opens (a synchronous bind
 * behind a gated one, a wait without end) would otherwise sit until the
 * manager kills it.
 */
void fuzz_open_gates(struct fuzz_state *st)
{
	__u32 one = 1;

	for (unsigned int i = 0; i < FUZZ_MAX_CALLS; i++)
		if (st->gate[i])
			ioctl(st->gate[i] - 1, SW_SYNC_IOC_INC, &one);
}

/*
 * fuzz_export_fences() - the fences of the program's syncobjs, as sync_files
 * @st: the run
 * @fds: where the sync_file fds go
 * @max: room in @fds
 *
 * For the manager's liveness check: once the executor is gone, every one
 * of them must signal.  A syncobj without a fence, or gone, is skipped.
 * Return: the number of fds in @fds.
 */
unsigned int fuzz_export_fences(struct fuzz_state *st, int *fds, unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < st->prog->ncalls && n < max; i++) {
		struct drm_syncobj_handle h = {
			.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE, .fd = -1,
		};

		if (fuzz_calls[st->prog->call[i].id].res != FR_SYNCOBJ)
			continue;
		h.handle = (uint32_t)__atomic_load_n(&st->res[i], __ATOMIC_ACQUIRE);
		if (!h.handle || ioctl(st->res_fd[i], DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h))
			continue;
		fds[n++] = h.fd;
	}
	return n;
}
