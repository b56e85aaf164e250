// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * fake_vaccel.c - an LD_PRELOAD library that makes /dev/zero answer like a
 * vaccel device, so that libvaccel and vaccel-info can be exercised on the
 * host, without the module or a VM.
 *
 * Every ioctl() on a descriptor of /dev/zero (char 1:5) is answered here:
 * DRM_IOCTL_VERSION names the driver "vaccel", DRM_IOCTL_VACCEL_QUERY
 * follows the uapi (size negotiation, errors), other DRM ioctls get EINVAL.
 * The topology comes from VT_COMPUTE, VT_COPY and VT_VA_BITS (defaults 2,
 * 1, 48).  User buffers are written with process_vm_writev(), which fails
 * with EFAULT where the kernel's copy_to_user() would.  Point
 * VACCEL_DEVICE_DIR at a directory of accelN -> /dev/zero symlinks.
 *
 * Memory is modelled too, per descriptor (one "file" each, forgotten when
 * close() is called on it): BO_CREATE, BO_MMAP_OFFSET, BO_INFO, GEM_CLOSE,
 * VM_BIND (all or nothing, EEXIST on overlap, splits), QUERY_VM_STATS and
 * PRIME, where a dma-buf is a memfd and importing what a file already has
 * returns its handle.  mmap() of /dev/zero gives zeroed memory, so a CPU
 * map is private to each call.  Tests reach hooks with dlsym():
 * fake_vaccel_objects() counts live objects, fake_vaccel_fail() and
 * fake_vaccel_fail_after() make ioctls of one number fail,
 * fake_vaccel_hold() holds jobs back,
 * fake_vaccel_stat() reads counters of the execution model,
 * fake_vaccel_last_dispatch() returns the last DISPATCH executed,
 * fake_vaccel_map_flags() the flags of the mapping of an address.
 *
 * Execution too: CONTEXT_CREATE, _DESTROY, _STATE and SUBMIT, and the core
 * syncobj ioctls that libvaccel uses (CREATE, DESTROY, HANDLE_TO_FD and
 * FD_TO_HANDLE of a sync_file, TRANSFER, RESET, SIGNAL, TIMELINE_SIGNAL,
 * QUERY, WAIT, TIMELINE_WAIT).  The packets of a submitted buffer execute on the CPU
 * mappings of the objects (mmap() is interposed to learn them), faults
 * included; a sync_file is an eventfd that becomes readable when its fence
 * signals, and SYNC_IOC_FILE_INFO on it reports the fence's status.  See
 * "execution" below for when jobs run.  A DISPATCH is checked as the module
 * checks it (limits, a COMPUTE context) and recorded with its argument
 * block, but not run: the fake has no RV64 interpreter.  VT_NO_COMPUTE=1
 * makes the device a uapi 1.3 one, without the compute limits.
 *
 * This is a model of the uapi contract, not of the driver: the VM tests are
 * the authority.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/sync_file.h>

#include <drm.h>
#include <drm/vaccel_accel.h>

#define FAKE_MAX_ENGINES	32

/* The compute limits of vaccel_dispatch.h. */
#define FAKE_MAX_WG_ITEMS	1024
#define FAKE_MAX_LOCAL		65536
#define FAKE_MAX_STACK		65536
#define FAKE_MAX_PRIVATE	(4u << 20)
#define FAKE_LOCAL_BASE		0x0100000000000000ull
#define FAKE_PRIVATE_BASE	0x0200000000000000ull
#define FAKE_MAX_ARGS		4096

static unsigned int env_uint(const char *name, unsigned int def)
{
	const char *s = getenv(name);

	return s && *s ? strtoul(s, NULL, 0) : def;
}

static int is_fake(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISCHR(st.st_mode) &&
	       st.st_rdev == makedev(1, 5);
}

/* Writes @len bytes at user address @dst like copy_to_user(): 0 or -EFAULT. */
static int put_user_buf(uint64_t dst, const void *src, size_t len)
{
	struct iovec local = { (void *)src, len };
	struct iovec remote = { (void *)(uintptr_t)dst, len };

	if (!len)
		return 0;
	return process_vm_writev(getpid(), &local, 1, &remote, 1, 0) ==
	       (ssize_t)len ? 0 : -EFAULT;
}

static size_t build_answer(uint32_t type, unsigned char *buf, uint32_t *min)
{
	unsigned int counts[3] = { env_uint("VT_COMPUTE", 2),
				   env_uint("VT_COPY", 1), 1 };
	unsigned int va_bits = env_uint("VT_VA_BITS", 48);
	bool compute = !env_uint("VT_NO_COMPUTE", 0);
	unsigned int cls, i, n = 0;

	if (type == DRM_VACCEL_QUERY_DEVICE) {
		struct drm_vaccel_device_info info = {
			.uapi_major = DRM_VACCEL_UAPI_MAJOR,
			.uapi_minor = compute ? DRM_VACCEL_UAPI_MINOR : 3,
			.engine_count = { counts[0], counts[1], counts[2] },
			.engines_total = counts[0] + counts[1] + counts[2],
			.hw_queue_depth = 2,
			.va_bits = va_bits,
			.page_size = 4096,
			.va_start = 1ull << 16,
			.va_end = 1ull << va_bits,
			.max_bo_size = 1ull << 32,
			.max_bind_ops = 1024,
			.max_bos_per_file = 65536,
		};

		if (compute) {
			info.max_workgroup_items = FAKE_MAX_WG_ITEMS;
			info.max_local_size = FAKE_MAX_LOCAL;
			info.max_stack_size = FAKE_MAX_STACK;
			info.max_private_size = FAKE_MAX_PRIVATE;
			info.local_base = FAKE_LOCAL_BASE;
			info.private_base = FAKE_PRIVATE_BASE;
			/* uapi 1.5 */
			info.hang_timeout_ns = 2000000000ull;
			info.time_limit_ns = 30000000000ull;
			info.max_grid_items = 1ull << 32;
			info.max_copy_size = 1ull << 32;
			info.max_pt_bytes = 64ull << 20;
			info.max_mappings = 65536;
			info.max_jobs_per_file = 4096;
			/* uapi 1.7 */
			info.device_mem_size = (__u64)env_uint("VT_DEVICE_MEM_MB", 0) << 20;
			info.device_mem_free = info.device_mem_size / 2;
			if (info.device_mem_size)
				info.device_mem_base = DRM_VACCEL_DEVICE_MEM_BASE(0);
			info.cost_peer_ns = env_uint("VT_COST_PEER_NS", 0);
		}
		memcpy(buf, &info, sizeof(info));
		/* The first released size (uapi 1.0) stays the minimum. */
		*min = 64;
		return sizeof(info);
	}

	/* DRM_VACCEL_QUERY_ENGINES */
	for (cls = 0; cls < 3; cls++) {
		for (i = 0; i < counts[cls] && n < FAKE_MAX_ENGINES; i++, n++) {
			struct drm_vaccel_engine_info e = {
				.engine_class = cls,
				.instance = i,
				.hw_queue_depth = 2,
				.preempt_caps = cls ? 0x3 : 0xf,
				.preempt_granularity = cls ? 1 : 2,
				.compute_units = cls ? 0 : 2,
			};

			memcpy(buf + 8 + n * sizeof(e), &e, sizeof(e));
		}
	}
	((struct drm_vaccel_engine_list *)buf)->count = n;
	((struct drm_vaccel_engine_list *)buf)->entry_size =
		sizeof(struct drm_vaccel_engine_info);
	*min = 8 + n * sizeof(struct drm_vaccel_engine_info);
	return *min;
}

/* --- memory --- */

#define FAKE_PAGE		4096ull
#define FAKE_MAX_BO_SIZE	(1ull << 32)
#define FAKE_MAX_BIND_OPS	1024
#define FAKE_MAX_OBJS		8192
#define FAKE_MAX_FILES		16
#define FAKE_MAX_HANDLES	4096
#define FAKE_MAX_MAPS		2048

struct fake_obj {
	bool used;
	uint64_t size;
	uint32_t flags;
	unsigned int handles;	/* handles in all files */
	unsigned int maps;	/* mappings in all VMs */
	int memfd;		/* once exported; keeps the object forever */
	ino_t ino;
	unsigned char *cpu;	/* the last CPU mapping, what the engines see */
	size_t cpu_len;
};

struct fake_map {
	uint64_t start;
	uint64_t end;
	uint32_t obj;
	uint32_t flags;		/* DRM_VACCEL_VM_BIND_* */
	uint64_t offset;	/* in the object, of start */
};

#define FAKE_MAX_CONTEXTS	DRM_VACCEL_MAX_CONTEXTS_PER_FILE
#define FAKE_MAX_SYNCOBJS	1024

struct fake_ctx {
	bool used;
	uint32_t engine_class;
	uint32_t instance;
	int cancelled;		/* the error later jobs get */
	bool faulted;
	uint64_t fault_va;
	uint32_t fault_reason;
	uint32_t fault_access;
	uint64_t fault_offset;
	uint64_t ban_job;	/* the job's number in its context, from 1 */
	uint64_t ban_buffer_va;
	uint64_t submitted;
	uint64_t completed;
	uint64_t blocked_pass;	/* progress pass in which it could not go on */
};

/* A fence is a job number (1-based); 0 is the signalled stub, -1 none. */
struct fake_point {
	uint64_t point;
	int64_t fence;
};

struct fake_syncobj {
	bool used;
	int64_t fence;			/* the current (binary) fence */
	struct fake_point *points;	/* timeline, ascending */
	unsigned int npoints;
	unsigned int points_cap;
	uint64_t floor;			/* points up to this one signalled */
};

struct fake_file {
	int fd;			/* -1: free slot */
	uint32_t handle[FAKE_MAX_HANDLES];	/* handle h: obj index + 1 in [h - 1] */
	struct fake_map map[FAKE_MAX_MAPS];
	unsigned int nmaps;
	struct fake_ctx ctx[FAKE_MAX_CONTEXTS];		/* handle h in [h - 1] */
	struct fake_syncobj syncobj[FAKE_MAX_SYNCOBJS];	/* handle h in [h - 1] */
};

/* Recursive: munmap() and close() are interposed too. */
static pthread_mutex_t fake_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static struct fake_obj objs[FAKE_MAX_OBJS];
static struct fake_file files[FAKE_MAX_FILES];
static bool files_ready;
static unsigned int fail_nr, fail_count, fail_skip;
static int fail_err;

/*
 * The DRM_VACCEL_VM_BIND_* flags of the mapping of @va in any open file,
 * or -1 if no file maps it.
 */
__attribute__((visibility("default"))) int fake_vaccel_map_flags(uint64_t va);
int fake_vaccel_map_flags(uint64_t va)
{
	unsigned int i, m;
	int flags = -1;

	pthread_mutex_lock(&fake_lock);
	for (i = 0; files_ready && i < FAKE_MAX_FILES && flags < 0; i++) {
		if (files[i].fd < 0)
			continue;
		for (m = 0; m < files[i].nmaps; m++)
			if (va >= files[i].map[m].start && va < files[i].map[m].end)
				flags = files[i].map[m].flags;
	}
	pthread_mutex_unlock(&fake_lock);
	return flags;
}

/* The number of live objects. */
__attribute__((visibility("default"))) unsigned int fake_vaccel_objects(void);
unsigned int fake_vaccel_objects(void)
{
	unsigned int i, n = 0;

	pthread_mutex_lock(&fake_lock);
	for (i = 0; i < FAKE_MAX_OBJS; i++)
		n += objs[i].used;
	pthread_mutex_unlock(&fake_lock);
	return n;
}

/*
 * The next @count ioctls numbered @nr (DRM_COMMAND_BASE + ... for the
 * driver's, _IOC_NR() for the core's) fail with @err; not QUERY and VERSION.
 */
__attribute__((visibility("default"))) void fake_vaccel_fail(unsigned int nr, int err,
							     unsigned int count);
void fake_vaccel_fail(unsigned int nr, int err, unsigned int count)
{
	pthread_mutex_lock(&fake_lock);
	fail_nr = nr;
	fail_err = err;
	fail_count = count;
	fail_skip = 0;
	pthread_mutex_unlock(&fake_lock);
}

/* Lets the next @skip ioctls numbered @nr through, fails the one after. */
__attribute__((visibility("default"))) void fake_vaccel_fail_after(unsigned int nr,
								   int err,
								   unsigned int skip);
void fake_vaccel_fail_after(unsigned int nr, int err, unsigned int skip)
{
	pthread_mutex_lock(&fake_lock);
	fail_nr = nr;
	fail_err = err;
	fail_count = 1;
	fail_skip = skip;
	pthread_mutex_unlock(&fake_lock);
}

static struct fake_file *file_of(int fd, bool create)
{
	struct fake_file *free_slot = NULL;
	unsigned int i;

	if (!files_ready) {
		for (i = 0; i < FAKE_MAX_FILES; i++)
			files[i].fd = -1;
		files_ready = true;
	}
	for (i = 0; i < FAKE_MAX_FILES; i++) {
		if (files[i].fd == fd)
			return &files[i];
		if (files[i].fd < 0 && !free_slot)
			free_slot = &files[i];
	}
	if (!create || !free_slot)
		return NULL;
	memset(free_slot, 0, sizeof(*free_slot));
	free_slot->fd = fd;
	return free_slot;
}

static void obj_put_maybe(uint32_t o)
{
	struct fake_obj *obj = &objs[o];

	if (obj->used && !obj->handles && !obj->maps && obj->memfd < 0) {
		obj->used = false;
		obj->cpu = NULL;
	}
}

/* Object index of @handle in @f, or -1. */
static int obj_of(struct fake_file *f, uint32_t handle)
{
	if (!handle || handle > FAKE_MAX_HANDLES || !f->handle[handle - 1])
		return -1;
	return f->handle[handle - 1] - 1;
}

/* The lowest free handle of @f for object @o, or 0. */
static uint32_t handle_new(struct fake_file *f, uint32_t o)
{
	uint32_t h;

	for (h = 0; h < FAKE_MAX_HANDLES; h++) {
		if (!f->handle[h]) {
			f->handle[h] = o + 1;
			objs[o].handles++;
			return h + 1;
		}
	}
	return 0;
}

static void jobs_cancel(int fi, uint32_t handle);
static void syncobj_clear(struct fake_syncobj *s);

static void file_drop(struct fake_file *f)
{
	unsigned int i;

	for (i = 0; i < f->nmaps; i++) {
		objs[f->map[i].obj].maps--;
		obj_put_maybe(f->map[i].obj);
	}
	for (i = 0; i < FAKE_MAX_HANDLES; i++) {
		if (f->handle[i]) {
			objs[f->handle[i] - 1].handles--;
			obj_put_maybe(f->handle[i] - 1);
		}
	}
	jobs_cancel(f - files, 0);
	for (i = 0; i < FAKE_MAX_SYNCOBJS; i++)
		syncobj_clear(&f->syncobj[i]);
	f->fd = -1;
}

static int fake_bo_create(struct fake_file *f, struct drm_vaccel_bo_create *c)
{
	unsigned int o;

	if (!c->size || c->flags & ~DRM_VACCEL_BO_NO_MMAP)
		return -EINVAL;
	if (c->size > FAKE_MAX_BO_SIZE)
		return -E2BIG;
	for (o = 0; o < FAKE_MAX_OBJS && objs[o].used; o++)
		;
	if (o == FAKE_MAX_OBJS)
		return -ENOMEM;
	memset(&objs[o], 0, sizeof(objs[o]));
	objs[o].used = true;
	objs[o].size = (c->size + FAKE_PAGE - 1) & ~(FAKE_PAGE - 1);
	objs[o].flags = c->flags;
	objs[o].memfd = -1;
	c->handle = handle_new(f, o);
	if (!c->handle) {
		objs[o].used = false;
		return -ENOSPC;
	}
	c->size = objs[o].size;
	return 0;
}

static int fake_gem_close(struct fake_file *f, struct drm_gem_close *c)
{
	int o = obj_of(f, c->handle);

	if (o < 0 || c->pad)
		return -EINVAL;
	f->handle[c->handle - 1] = 0;
	objs[o].handles--;
	obj_put_maybe(o);
	return 0;
}

static int fake_bo_mmap_offset(struct fake_file *f, struct drm_vaccel_bo_mmap_offset *m)
{
	int o;

	if (m->pad)
		return -EINVAL;
	o = obj_of(f, m->handle);
	if (o < 0)
		return -ENOENT;
	if (objs[o].flags & DRM_VACCEL_BO_NO_MMAP)
		return -EPERM;
	/*
	 * A cookie naming the object, which mmap() below turns back into
	 * offset 0: a shared mapping of /dev/zero faults past its size.
	 */
	m->offset = (uint64_t)(o + 1) << 32;
	return 0;
}

static int fake_bo_info(struct fake_file *f, struct drm_vaccel_bo_info *info)
{
	unsigned int i;
	int o;

	if (info->pad)
		return -EINVAL;
	o = obj_of(f, info->handle);
	if (o < 0)
		return -ENOENT;
	info->size = objs[o].size;
	info->flags = objs[o].flags;
	info->mappings = 0;
	for (i = 0; i < f->nmaps; i++)
		info->mappings += f->map[i].obj == (uint32_t)o;
	return 0;
}

/* Unmaps [start, end) from @maps, splitting; false if it would overflow. */
static bool maps_unmap(struct fake_map *maps, unsigned int *n, uint64_t start,
		       uint64_t end)
{
	unsigned int i;

	for (i = 0; i < *n; i++) {
		struct fake_map m = maps[i];

		if (m.end <= start || m.start >= end)
			continue;
		if (m.start < start && m.end > end) {
			if (*n == FAKE_MAX_MAPS)
				return false;
			maps[i].end = start;
			maps[(*n)++] = (struct fake_map){ end, m.end, m.obj, m.flags,
							  m.offset + (end - m.start) };
		} else if (m.start < start) {
			maps[i].end = start;
		} else if (m.end > end) {
			maps[i].start = end;
			maps[i].offset += end - m.start;
		} else {
			maps[i--] = maps[--(*n)];
		}
	}
	return true;
}

static int fake_vm_bind(struct fake_file *f, struct drm_vaccel_vm_bind *b)
{
	static struct fake_map maps[FAKE_MAX_MAPS];
	uint64_t va_end = 1ull << env_uint("VT_VA_BITS", 48), va_start = 1ull << 16;
	struct drm_vaccel_vm_bind_op op;
	unsigned int n, i, j;
	const unsigned char *src;
	int o;

	/* Synchronous binds only: the model has no PAGING engine. */
	if (b->flags || b->pad || b->waits.count || b->signals.count)
		return -EINVAL;
	if (!b->ops.count)
		return 0;
	if (b->ops.count > FAKE_MAX_BIND_OPS)
		return -E2BIG;
	if (b->ops.stride < sizeof(op) || b->ops.stride > 4096)
		return -EINVAL;
	if (!b->ops.array)
		return -EFAULT;

	/* Simulate on a copy of the mappings; commit only if all went well. */
	memcpy(maps, f->map, f->nmaps * sizeof(maps[0]));
	n = f->nmaps;
	for (i = 0; i < b->ops.count; i++) {
		src = (const unsigned char *)(uintptr_t)b->ops.array + (size_t)i * b->ops.stride;
		memcpy(&op, src, sizeof(op));
		for (j = sizeof(op); j < b->ops.stride; j++)
			if (src[j])
				return -EINVAL;
		if (op.pad || !op.size || (op.va | op.size | op.bo_offset) & (FAKE_PAGE - 1) ||
		    op.va < va_start || op.va >= va_end || op.size > va_end - op.va)
			return -EINVAL;
		if (op.op == DRM_VACCEL_VM_BIND_OP_UNMAP) {
			if (op.flags || op.handle || op.bo_offset)
				return -EINVAL;
			if (!maps_unmap(maps, &n, op.va, op.va + op.size))
				return -ENOMEM;
			continue;
		}
		if (op.op != DRM_VACCEL_VM_BIND_OP_MAP ||
		    op.flags & ~(DRM_VACCEL_VM_BIND_READ_ONLY | DRM_VACCEL_VM_BIND_NO_EXEC))
			return -EINVAL;
		o = obj_of(f, op.handle);
		if (o < 0)
			return -ENOENT;
		if (op.bo_offset > objs[o].size || op.size > objs[o].size - op.bo_offset)
			return -EINVAL;
		for (j = 0; j < n; j++)
			if (maps[j].start < op.va + op.size && maps[j].end > op.va)
				return -EEXIST;
		if (n == FAKE_MAX_MAPS)
			return -ENOMEM;
		maps[n++] = (struct fake_map){ op.va, op.va + op.size, o, op.flags,
					       op.bo_offset };
	}

	for (i = 0; i < n; i++)
		objs[maps[i].obj].maps++;
	for (i = 0; i < f->nmaps; i++)
		objs[f->map[i].obj].maps--;
	for (i = 0; i < f->nmaps; i++)
		obj_put_maybe(f->map[i].obj);
	memcpy(f->map, maps, n * sizeof(maps[0]));
	f->nmaps = n;
	return 0;
}

static int fake_prime_export(struct fake_file *f, struct drm_prime_handle *p)
{
	struct fake_obj *obj;
	struct stat st;
	int o = obj_of(f, p->handle);

	if (p->flags & ~(DRM_CLOEXEC | DRM_RDWR))
		return -EINVAL;
	if (o < 0)
		return -ENOENT;
	obj = &objs[o];
	if (obj->memfd < 0) {
		obj->memfd = memfd_create("fake-vaccel-bo", MFD_CLOEXEC);
		if (obj->memfd < 0)
			return -errno;
		if (ftruncate(obj->memfd, obj->size) || fstat(obj->memfd, &st))
			return -errno;
		obj->ino = st.st_ino;
	}
	p->fd = fcntl(obj->memfd, p->flags & DRM_CLOEXEC ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
	return p->fd < 0 ? -errno : 0;
}

static int fake_prime_import(struct fake_file *f, struct drm_prime_handle *p)
{
	struct stat st;
	uint32_t h;
	int o;

	if (fstat(p->fd, &st))
		return -EBADF;
	for (o = 0; o < FAKE_MAX_OBJS; o++)
		if (objs[o].used && objs[o].memfd >= 0 && objs[o].ino == st.st_ino)
			break;
	if (o == FAKE_MAX_OBJS)
		return -EINVAL;
	for (h = 0; h < FAKE_MAX_HANDLES; h++) {
		if (f->handle[h] == (uint32_t)o + 1) {
			p->handle = h + 1;
			return 0;
		}
	}
	p->handle = handle_new(f, o);
	return p->handle ? 0 : -ENOSPC;
}

static int fake_vm_stats(int fd, struct drm_vaccel_vm_stats *s)
{
	struct fake_file *f = file_of(fd, false);
	unsigned int i;

	memset(s, 0, sizeof(*s));
	if (f) {
		s->mappings = f->nmaps;
		for (i = 0; i < f->nmaps; i++)
			s->mapped_bytes += f->map[i].end - f->map[i].start;
	}
	s->pt_pages = 1 + s->mappings;
	s->pt_bytes = s->pt_pages * FAKE_PAGE;
	return 0;
}

static int fake_query(int fd, struct drm_vaccel_query *q)
{
	unsigned char answer[8 + FAKE_MAX_ENGINES * sizeof(struct drm_vaccel_engine_info)];
	unsigned char zero[4096] = { 0 };
	uint32_t min, n, off;
	size_t size;

	if (q->flags || q->pad || q->type > DRM_VACCEL_QUERY_VM_STATS)
		return -EINVAL;
	memset(answer, 0, sizeof(answer));
	if (q->type == DRM_VACCEL_QUERY_VM_STATS) {
		pthread_mutex_lock(&fake_lock);
		fake_vm_stats(fd, (struct drm_vaccel_vm_stats *)answer);
		pthread_mutex_unlock(&fake_lock);
		size = min = sizeof(struct drm_vaccel_vm_stats);
	} else {
		size = build_answer(q->type, answer, &min);
	}
	if (!q->size) {
		q->size = size;
		return 0;
	}
	if (q->size < min)
		return -EINVAL;
	n = q->size < size ? q->size : size;
	if (put_user_buf(q->data, answer, n))
		return -EFAULT;
	for (off = n; off < q->size; off += sizeof(zero)) {
		uint32_t chunk = q->size - off < sizeof(zero) ? q->size - off : sizeof(zero);

		if (put_user_buf(q->data + off, zero, chunk))
			return -EFAULT;
	}
	q->size = size;
	return 0;
}

static int fake_version(struct drm_version *v)
{
	static const char name[] = "vaccel", date[] = "20260101",
			  desc[] = "fake vaccel (LD_PRELOAD)";
	size_t len;

	v->version_major = DRM_VACCEL_UAPI_MAJOR;
	v->version_minor = DRM_VACCEL_UAPI_MINOR;
	v->version_patchlevel = 0;
#define FAKE_STR(f, s)							\
	do {								\
		len = v->f##_len < sizeof(s) - 1 ? v->f##_len : sizeof(s) - 1; \
		if (len && v->f && put_user_buf((uintptr_t)v->f, s, len)) \
			return -EFAULT;					\
		v->f##_len = sizeof(s) - 1;				\
	} while (0)
	FAKE_STR(name, name);
	FAKE_STR(date, date);
	FAKE_STR(desc, desc);
#undef FAKE_STR
	return 0;
}

/* --- execution: contexts, jobs, syncobjs, sync_files --- */

/*
 * Jobs run when the model makes progress: after a submission, a query or an
 * export, unless fake_vaccel_hold() holds them back, and always while an
 * ioctl waits (a device that makes progress while somebody waits, however
 * slow).  A job runs once its waits have signalled, after its context's
 * earlier jobs; its packets execute on the CPU mappings of the objects
 * its addresses map (the last mmap() of each object; an object never
 * mapped reads as zeros and drops writes).  WAIT_MEM blocks a job until a
 * later attempt finds the condition true, DELAY until its time has passed.
 */

#define FAKE_PENDING		1
#define FAKE_MAX_SYNC_FILES	256
#define FAKE_POLL_NS		50000

struct fake_job {
	int file;		/* index in files[], -1 once it closed */
	uint32_t ctx;		/* handle */
	uint64_t va;
	uint64_t size;
	uint64_t offset;	/* of the next packet */
	uint64_t seqno;		/* its number among its context's jobs, from 1 */
	int64_t delay_end;	/* of the DELAY at @offset, once started */
	int status;		/* FAKE_PENDING, 0 or -errno */
	bool killed;		/* its context went while it waited: -ESRCH */
	unsigned int nwaits;
	int64_t *waits;		/* fences */
};

struct fake_sync_file {
	int fd;			/* an eventfd; -1: free slot */
	int64_t fence;
	bool written;		/* the eventfd was made readable */
};

static struct fake_job *jobs;
static uint64_t njobs, jobs_cap, first_pending;
static uint64_t progress_pass;
static bool hold;
static struct fake_sync_file sync_files[FAKE_MAX_SYNC_FILES];
static bool sync_files_ready;
static unsigned long long stat_submits, stat_max_submit, stat_waits;
static unsigned long long stat_dispatches, stat_dispatch_sum;
static uint64_t last_dispatch[10];
static unsigned char last_args[FAKE_MAX_ARGS];

/* Holds jobs back (@on) until a wait needs them, or lets them run. */
__attribute__((visibility("default"))) void fake_vaccel_hold(int on);

/*
 * Counters by name: "submits" (accepted), "max_submit_bytes", "waits"
 * (syncobj wait ioctls), "contexts" and "syncobjs" (live, all files),
 * "pending" (jobs not completed), "dispatches" (executed) and
 * "dispatch_args_sum" (the sum of the first 64-bit word of their argument
 * blocks).
 */
__attribute__((visibility("default"))) unsigned long long fake_vaccel_stat(const char *name);

/*
 * The operands of the last DISPATCH executed into @op, and the first @len
 * (at most 4096) bytes at its argument address, read when it executed,
 * into @args (zeros if unmapped).  Return: the DISPATCHes executed so far.
 */
__attribute__((visibility("default"))) unsigned long long
fake_vaccel_last_dispatch(uint64_t op[10], void *args, size_t len);

/* 1 signalled, 0 pending, -errno signalled with an error; for fence >= 0. */
static int fence_status(int64_t fence)
{
	int st;

	if (fence <= 0)
		return 1;
	st = jobs[fence - 1].status;
	return st == FAKE_PENDING ? 0 : st ? st : 1;
}

static struct fake_ctx *ctx_of(struct fake_file *f, uint32_t handle)
{
	if (!handle || handle > FAKE_MAX_CONTEXTS || !f->ctx[handle - 1].used)
		return NULL;
	return &f->ctx[handle - 1];
}

static struct fake_syncobj *syncobj_of(struct fake_file *f, uint32_t handle)
{
	if (!handle || handle > FAKE_MAX_SYNCOBJS || !f->syncobj[handle - 1].used)
		return NULL;
	return &f->syncobj[handle - 1];
}

/* The fence a wait for @point of @s depends on: -1 none, else >= 0. */
static int64_t syncobj_fence(struct fake_syncobj *s, uint64_t point)
{
	unsigned int i;

	if (!point)
		return s->fence;
	if (point <= s->floor)
		return 0;
	for (i = 0; i < s->npoints; i++)
		if (s->points[i].point >= point)
			return s->points[i].fence;
	return -1;
}

/* Drops the leading points that signalled; the last point signalled. */
static uint64_t syncobj_signalled_point(struct fake_syncobj *s)
{
	unsigned int n = 0;

	while (n < s->npoints && fence_status(s->points[n].fence) != 0) {
		s->floor = s->points[n].point;
		n++;
	}
	memmove(s->points, s->points + n, (s->npoints - n) * sizeof(*s->points));
	s->npoints -= n;
	return s->floor;
}

/* Adds @point with @fence to timeline @s; the model gives up if short of memory. */
static void syncobj_add_point(struct fake_syncobj *s, uint64_t point, int64_t fence)
{
	if (s->npoints == s->points_cap) {
		unsigned int cap = s->points_cap ? s->points_cap * 2 : 16;
		struct fake_point *grown = realloc(s->points, cap * sizeof(*grown));

		if (!grown)
			return;
		s->points = grown;
		s->points_cap = cap;
	}
	s->points[s->npoints++] = (struct fake_point){ point, fence };
}

/* The last point submitted or signalled. */
static uint64_t syncobj_last_point(struct fake_syncobj *s)
{
	return s->npoints ? s->points[s->npoints - 1].point : s->floor;
}

static void syncobj_clear(struct fake_syncobj *s)
{
	free(s->points);
	memset(s, 0, sizeof(*s));
}

/* The mapping of @va in @f, or NULL. */
static struct fake_map *map_of(struct fake_file *f, uint64_t va)
{
	unsigned int i;

	for (i = 0; i < f->nmaps; i++)
		if (va >= f->map[i].start && va < f->map[i].end)
			return &f->map[i];
	return NULL;
}

/* Reads or writes @len bytes at @va like an engine; -EFAULT on a fault. */
static int vm_access(struct fake_file *f, struct fake_ctx *c, uint64_t va,
		     void *buf, uint64_t len, bool write)
{
	unsigned char *p = buf;

	while (len) {
		struct fake_map *m = map_of(f, va);
		struct fake_obj *obj;
		uint64_t chunk, off;

		if (!m || (write && m->flags & DRM_VACCEL_VM_BIND_READ_ONLY)) {
			c->fault_va = va;
			c->fault_access = write ? DRM_VACCEL_ACCESS_WRITE :
					  DRM_VACCEL_ACCESS_READ;
			c->fault_reason = m ? DRM_VACCEL_FAULT_PERMISSION :
				       DRM_VACCEL_FAULT_UNMAPPED;
			return -EFAULT;
		}
		chunk = m->end - va < len ? m->end - va : len;
		off = m->offset + (va - m->start);
		obj = &objs[m->obj];
		if (obj->cpu && off + chunk <= obj->cpu_len) {
			if (write)
				memcpy(obj->cpu + off, p, chunk);
			else
				memcpy(p, obj->cpu + off, chunk);
		} else if (!write) {
			memset(p, 0, chunk);
		}
		va += chunk;
		p += chunk;
		len -= chunk;
	}
	return 0;
}

static int malformed(struct fake_ctx *c, uint64_t va)
{
	c->fault_va = va;
	c->fault_access = DRM_VACCEL_ACCESS_READ;
	c->fault_reason = DRM_VACCEL_FAULT_MALFORMED;
	return -EINVAL;
}

static bool wait_compare(unsigned int op, uint64_t v, uint64_t ref)
{
	switch (op) {
	case DRM_VACCEL_WAIT_EQ: return v == ref;
	case DRM_VACCEL_WAIT_NE: return v != ref;
	case DRM_VACCEL_WAIT_GT: return v > ref;
	case DRM_VACCEL_WAIT_GE: return v >= ref;
	case DRM_VACCEL_WAIT_LT: return v < ref;
	default: return v <= ref;
	}
}

static int64_t now_ns(void);

/* The checks of vaccel_dispatch_parse(): operands @o of a DISPATCH. */
static bool dispatch_ok(const struct fake_ctx *c, const uint64_t *o)
{
	uint64_t items = 1, groups = 1;
	int i;

	if (c->engine_class != DRM_VACCEL_ENGINE_CLASS_COMPUTE || o[0] % 4)
		return false;
	for (i = 0; i < 3; i++) {
		if (!o[2 + i] || o[2 + i] > UINT32_MAX || !o[5 + i] ||
		    o[5 + i] > FAKE_MAX_WG_ITEMS)
			return false;
		items *= o[5 + i];
		if (__builtin_mul_overflow(groups, (o[2 + i] + o[5 + i] - 1) / o[5 + i],
					   &groups))
			return false;
	}
	return items <= FAKE_MAX_WG_ITEMS && o[8] <= FAKE_MAX_LOCAL && o[9] &&
	       o[9] <= FAKE_MAX_STACK && !(o[9] % 16) &&
	       items * o[9] <= FAKE_MAX_PRIVATE;
}

/* Runs a DISPATCH: records it, without a kernel to run. */
static int record_dispatch(struct fake_file *f, struct fake_ctx *c, const uint64_t *o)
{
	struct fake_ctx scratch = *c;
	uint64_t first;

	size_t n;

	memcpy(last_dispatch, o, sizeof(last_dispatch));
	memset(last_args, 0, sizeof(last_args));
	/*
	 * What can be read of the block, a word at a time up to the end of
	 * its mapping: the kernel, not the packet, would fault on the rest.
	 */
	for (n = 0; o[1] && n < sizeof(last_args); n += 8)
		if (vm_access(f, &scratch, o[1] + n, last_args + n, 8, false))
			break;
	stat_dispatches++;
	memcpy(&first, last_args, sizeof(first));
	stat_dispatch_sum += first;
	return 0;
}

/* One packet; FAKE_PENDING if it must wait, else 0 or the fault. */
static int exec_packet(struct fake_file *f, struct fake_ctx *c, struct fake_job *job,
		       uint64_t pva, uint32_t op, uint32_t flags, uint32_t words)
{
	static const int operands[] = { -1, 2, 3, 3, 1, 3, 1, 10 };
	bool wide = flags & DRM_VACCEL_PKT_F_64BIT;
	uint64_t o[10], v = 0, done;
	unsigned char *tmp;
	struct timespec ts;
	uint32_t fill[1024];
	int ret;

	if (op >= sizeof(operands) / sizeof(operands[0]))
		return malformed(c, pva);
	if (op == DRM_VACCEL_PKT_NOP)
		return flags ? malformed(c, pva) : 0;
	if ((int)words != operands[op] + 1)
		return malformed(c, pva);
	ret = vm_access(f, c, pva + 8, o, (words - 1) * 8, false);
	if (ret)
		return ret;

	switch (op) {
	case DRM_VACCEL_PKT_WRITE_IMM:
		if (flags & ~DRM_VACCEL_PKT_F_64BIT || o[0] % (wide ? 8 : 4))
			return malformed(c, pva);
		return vm_access(f, c, o[0], &o[1], wide ? 8 : 4, true);
	case DRM_VACCEL_PKT_COPY:
		if (flags)
			return malformed(c, pva);
		tmp = malloc(o[2] ? o[2] : 1);
		if (!tmp)
			return -ENOMEM;
		ret = vm_access(f, c, o[0], tmp, o[2], false);
		if (!ret)
			ret = vm_access(f, c, o[1], tmp, o[2], true);
		free(tmp);
		return ret;
	case DRM_VACCEL_PKT_FILL:
		if (flags || o[0] % 4 || o[1] % 4)
			return malformed(c, pva);
		for (done = 0; done < sizeof(fill) / 4; done++)
			fill[done] = (uint32_t)o[2];
		for (done = 0; done < o[1]; done += sizeof(fill)) {
			uint64_t chunk = o[1] - done < sizeof(fill) ? o[1] - done : sizeof(fill);

			ret = vm_access(f, c, o[0] + done, fill, chunk, true);
			if (ret)
				return ret;
		}
		return 0;
	case DRM_VACCEL_PKT_TIMESTAMP:
		if (flags || o[0] % 8)
			return malformed(c, pva);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		v = (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
		return vm_access(f, c, o[0], &v, 8, true);
	case DRM_VACCEL_PKT_DISPATCH:
		if (flags || !dispatch_ok(c, o))
			return malformed(c, pva);
		return record_dispatch(f, c, o);
	case DRM_VACCEL_PKT_WAIT_MEM:
		if ((flags >> 1) > DRM_VACCEL_WAIT_LE || o[0] % (wide ? 8 : 4))
			return malformed(c, pva);
		ret = vm_access(f, c, o[0], &v, wide ? 8 : 4, false);
		if (ret)
			return ret;
		if (!wide)
			o[2] = (uint32_t)o[2];
		return wait_compare(flags >> 1, v & o[2], o[1] & o[2]) ? 0 : FAKE_PENDING;
	default:	/* DELAY */
		if (flags)
			return malformed(c, pva);
		if (!job->delay_end)
			job->delay_end = now_ns() + (int64_t)(o[0] > INT64_MAX / 2 ?
							     INT64_MAX / 2 : o[0]);
		if (now_ns() < job->delay_end)
			return FAKE_PENDING;
		job->delay_end = 0;
		return 0;
	}
}

/* Runs @job from its next packet: 0, FAKE_PENDING, or the fault. */
static int exec_job(struct fake_file *f, struct fake_ctx *c, struct fake_job *job)
{
	while (job->offset < job->size) {
		uint64_t hdr, pva = job->va + job->offset, words;
		int ret;

		ret = vm_access(f, c, pva, &hdr, 8, false);
		if (ret)
			return ret;
		words = (hdr >> 16) & 0xffff;
		if (hdr >> 32 || !words || words > (job->size - job->offset) / 8)
			return malformed(c, pva);
		ret = exec_packet(f, c, job, pva, hdr & 0xff, (hdr >> 8) & 0xff, words);
		if (ret)
			return ret;
		job->offset += words * 8;
	}
	return 0;
}

/* Whether a fence @job waits for has not signalled yet. */
static bool job_waiting(const struct fake_job *job)
{
	unsigned int w;

	for (w = 0; w < job->nwaits; w++)
		if (!fence_status(job->waits[w]))
			return true;
	return false;
}

static void job_complete(struct fake_job *job, int status)
{
	job->status = status;
	free(job->waits);
	job->waits = NULL;
	if (job->file >= 0 && !job->killed)
		files[job->file].ctx[job->ctx - 1].completed++;
}

/* Makes the sync_files of signalled fences readable. */
static void sync_files_update(void)
{
	static const uint64_t one = 1;
	unsigned int i;

	for (i = 0; sync_files_ready && i < FAKE_MAX_SYNC_FILES; i++) {
		struct fake_sync_file *sf = &sync_files[i];

		if (sf->fd >= 0 && !sf->written && fence_status(sf->fence)) {
			sf->written = write(sf->fd, &one, 8) == 8;
		}
	}
}

/* Runs every job that can run, until none can. */
static void progress(void)
{
	bool moved = true;
	uint64_t j;

	while (moved) {
		moved = false;
		progress_pass++;
		for (j = first_pending; j < njobs; j++) {
			struct fake_job *job = &jobs[j];
			struct fake_file *f;
			struct fake_ctx *c;
			int ret;

			if (job->status != FAKE_PENDING)
				continue;
			if (job->killed) {
				if (!job_waiting(job)) {
					job_complete(job, -ESRCH);
					moved = true;
				}
				continue;
			}
			f = &files[job->file];
			c = &f->ctx[job->ctx - 1];
			if (c->blocked_pass == progress_pass)
				continue;
			if (c->cancelled) {
				job_complete(job, c->cancelled);
				moved = true;
				continue;
			}
			ret = job_waiting(job) ? FAKE_PENDING : exec_job(f, c, job);
			if (ret == FAKE_PENDING) {
				c->blocked_pass = progress_pass;
				continue;
			}
			if (ret == -EFAULT || ret == -EINVAL) {
				c->faulted = true;
				c->fault_offset = job->offset;
				c->ban_job = job->seqno;
				c->ban_buffer_va = job->va;
				c->cancelled = -ECANCELED;
			}
			job_complete(job, ret);
			moved = true;
		}
		while (first_pending < njobs && jobs[first_pending].status != FAKE_PENDING)
			first_pending++;
	}
	sync_files_update();
}

static void progress_unless_held(void)
{
	if (!hold)
		progress();
}

/*
 * Cancels the pending jobs of context @handle of file @fi, like the module:
 * -ECANCELED for those ready, -ESRCH once their waits signal for the others.
 * With @handle 0, the file closes: all get -ECANCELED at once.
 */
static void jobs_cancel(int fi, uint32_t handle)
{
	uint64_t j;

	for (j = first_pending; j < njobs; j++) {
		struct fake_job *job = &jobs[j];

		if (job->file != fi || job->status != FAKE_PENDING ||
		    (handle && job->ctx != handle) || (handle && job->killed))
			continue;
		if (handle && !job->offset && !job->delay_end && job_waiting(job)) {
			job->killed = true;
			continue;
		}
		job_complete(job, -ECANCELED);
		if (!handle)
			job->file = -1;
	}
	sync_files_update();
}

void fake_vaccel_hold(int on)
{
	pthread_mutex_lock(&fake_lock);
	hold = on;
	if (!hold)
		progress();
	pthread_mutex_unlock(&fake_lock);
}

unsigned long long fake_vaccel_stat(const char *name)
{
	unsigned long long n = 0;
	unsigned int i, k;

	pthread_mutex_lock(&fake_lock);
	if (!strcmp(name, "submits"))
		n = stat_submits;
	else if (!strcmp(name, "max_submit_bytes"))
		n = stat_max_submit;
	else if (!strcmp(name, "waits"))
		n = stat_waits;
	else if (!strcmp(name, "dispatches"))
		n = stat_dispatches;
	else if (!strcmp(name, "dispatch_args_sum"))
		n = stat_dispatch_sum;
	else if (!strcmp(name, "pending"))
		for (k = first_pending; k < njobs; k++)
			n += jobs[k].status == FAKE_PENDING;
	for (i = 0; files_ready && i < FAKE_MAX_FILES; i++) {
		if (files[i].fd < 0)
			continue;
		for (k = 0; !strcmp(name, "contexts") && k < FAKE_MAX_CONTEXTS; k++)
			n += files[i].ctx[k].used;
		for (k = 0; !strcmp(name, "syncobjs") && k < FAKE_MAX_SYNCOBJS; k++)
			n += files[i].syncobj[k].used;
	}
	pthread_mutex_unlock(&fake_lock);
	return n;
}

unsigned long long fake_vaccel_last_dispatch(uint64_t op[10], void *args, size_t len)
{
	unsigned long long n;

	pthread_mutex_lock(&fake_lock);
	memcpy(op, last_dispatch, sizeof(last_dispatch));
	memcpy(args, last_args, len < sizeof(last_args) ? len : sizeof(last_args));
	n = stat_dispatches;
	pthread_mutex_unlock(&fake_lock);
	return n;
}

/* Whether the caller has CAP_SYS_NICE in its effective set. */
static bool capable_sys_nice(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	if (syscall(SYS_capget, &h, d))
		return false;
	return d[CAP_SYS_NICE / 32].effective & (1u << (CAP_SYS_NICE % 32));
}

static int fake_context_create(struct fake_file *f, struct drm_vaccel_context_create *c)
{
	unsigned int counts[2] = { env_uint("VT_COMPUTE", 2), env_uint("VT_COPY", 1) };
	unsigned int i;

	if (c->flags || c->pad || c->engine_class > DRM_VACCEL_ENGINE_CLASS_COPY ||
	    c->priority > DRM_VACCEL_PRIORITY_REALTIME)
		return -EINVAL;
	if (c->priority > DRM_VACCEL_PRIORITY_NORMAL && !capable_sys_nice())
		return -EPERM;
	if (!counts[c->engine_class] ||
	    (c->engine_instance != DRM_VACCEL_ENGINE_ANY &&
	     c->engine_instance >= counts[c->engine_class]))
		return -EINVAL;
	for (i = 0; i < FAKE_MAX_CONTEXTS && f->ctx[i].used; i++)
		;
	if (i == FAKE_MAX_CONTEXTS)
		return -ENOSPC;
	memset(&f->ctx[i], 0, sizeof(f->ctx[i]));
	f->ctx[i].used = true;
	f->ctx[i].engine_class = c->engine_class;
	/* "Any" is the first engine of the class, in the model. */
	f->ctx[i].instance = c->engine_instance == DRM_VACCEL_ENGINE_ANY ? 0 :
			     c->engine_instance;
	c->handle = i + 1;
	return 0;
}

static int fake_context_destroy(struct fake_file *f, struct drm_vaccel_context_destroy *d)
{
	if (d->pad)
		return -EINVAL;
	if (!ctx_of(f, d->handle))
		return -ENOENT;
	jobs_cancel(f - files, d->handle);
	f->ctx[d->handle - 1].used = false;
	return 0;
}

static int fake_context_state(struct fake_file *f, struct drm_vaccel_context_state *s)
{
	struct fake_ctx *c;
	uint32_t handle = s->handle;

	if (s->pad)
		return -EINVAL;
	c = ctx_of(f, handle);
	if (!c)
		return -ENOENT;
	progress_unless_held();
	memset(s, 0, sizeof(*s));
	s->handle = handle;
	s->engine_index = (c->engine_class ? env_uint("VT_COMPUTE", 2) : 0) + c->instance;
	s->jobs_submitted = c->submitted;
	s->jobs_completed = c->completed;
	if (c->faulted) {
		s->flags = (DRM_VACCEL_CONTEXT_FAULTED | DRM_VACCEL_CONTEXT_BANNED);
		s->fault_va = c->fault_va;
		s->fault_offset = c->fault_offset;
		s->fault_reason = c->fault_reason;
		s->fault_access = c->fault_access;
		s->ban_reason = DRM_VACCEL_BAN_FAULT;
		s->ban_job = c->ban_job;
		s->ban_buffer_va = c->ban_buffer_va;
		s->ban_offset = c->fault_offset;
	}
	return 0;
}

/* Copies an array of drm_vaccel_sync like the module: stride, zero tail. */
static int copy_syncs(const struct drm_vaccel_obj_array *a, struct drm_vaccel_sync *out)
{
	const unsigned char *src;
	unsigned int i, j;

	if (!a->count)
		return 0;
	if (a->count > DRM_VACCEL_MAX_SYNCS)
		return -E2BIG;
	if (a->stride < sizeof(*out) || a->stride > 4096)
		return -EINVAL;
	for (i = 0; i < a->count; i++) {
		src = (const unsigned char *)(uintptr_t)a->array + (size_t)i * a->stride;
		memcpy(&out[i], src, sizeof(*out));
		for (j = sizeof(*out); j < a->stride; j++)
			if (src[j])
				return -EINVAL;
		if (out[i].flags)
			return -EINVAL;
	}
	return 0;
}

static int fake_submit(struct fake_file *f, struct drm_vaccel_submit *s)
{
	struct drm_vaccel_sync waits[DRM_VACCEL_MAX_SYNCS], signals[DRM_VACCEL_MAX_SYNCS];
	struct fake_syncobj *so;
	struct fake_job *job;
	struct fake_ctx *c;
	int64_t fences[DRM_VACCEL_MAX_SYNCS];
	unsigned int i;
	int ret;

	if (s->flags || !s->buffer_size || s->buffer_size % 8 || s->buffer_va % 8 ||
	    s->buffer_size > DRM_VACCEL_MAX_BUFFER_SIZE)
		return -EINVAL;
	c = ctx_of(f, s->context);
	if (!c)
		return -ENOENT;
	if (c->cancelled)
		return -ECANCELED;
	ret = copy_syncs(&s->waits, waits);
	if (!ret)
		ret = copy_syncs(&s->signals, signals);
	if (ret)
		return ret;
	for (i = 0; i < s->signals.count; i++)
		if (!syncobj_of(f, signals[i].handle))
			return -ENOENT;
	for (i = 0; i < s->waits.count; i++) {
		so = syncobj_of(f, waits[i].handle);
		if (!so)
			return -ENOENT;
		fences[i] = syncobj_fence(so, waits[i].point);
		if (fences[i] < 0)
			return -EINVAL;
	}

	if (njobs == jobs_cap) {
		uint64_t cap = jobs_cap ? jobs_cap * 2 : 1024;
		struct fake_job *grown = realloc(jobs, cap * sizeof(*jobs));

		if (!grown)
			return -ENOMEM;
		jobs = grown;
		jobs_cap = cap;
	}
	job = &jobs[njobs];
	memset(job, 0, sizeof(*job));
	job->file = f - files;
	job->ctx = s->context;
	job->va = s->buffer_va;
	job->size = s->buffer_size;
	job->status = FAKE_PENDING;
	if (s->waits.count) {
		job->waits = malloc(s->waits.count * sizeof(*job->waits));
		if (!job->waits)
			return -ENOMEM;
		memcpy(job->waits, fences, s->waits.count * sizeof(*job->waits));
		job->nwaits = s->waits.count;
	}
	njobs++;
	c->submitted++;
	job->seqno = c->submitted;
	stat_submits++;
	if (s->buffer_size > stat_max_submit)
		stat_max_submit = s->buffer_size;

	for (i = 0; i < s->signals.count; i++) {
		so = syncobj_of(f, signals[i].handle);
		so->fence = njobs;
		if (signals[i].point)
			syncobj_add_point(so, signals[i].point, njobs);
	}
	progress_unless_held();
	return 0;
}

static int fake_syncobj_create(struct fake_file *f, struct drm_syncobj_create *c)
{
	unsigned int i;

	if (c->flags & ~DRM_SYNCOBJ_CREATE_SIGNALED)
		return -EINVAL;
	for (i = 0; i < FAKE_MAX_SYNCOBJS && f->syncobj[i].used; i++)
		;
	if (i == FAKE_MAX_SYNCOBJS)
		return -ENOMEM;
	syncobj_clear(&f->syncobj[i]);
	f->syncobj[i].used = true;
	f->syncobj[i].fence = c->flags & DRM_SYNCOBJ_CREATE_SIGNALED ? 0 : -1;
	c->handle = i + 1;
	return 0;
}

static int fake_syncobj_destroy(struct fake_file *f, struct drm_syncobj_destroy *d)
{
	struct fake_syncobj *s = syncobj_of(f, d->handle);

	if (d->pad || !s)
		return -EINVAL;
	syncobj_clear(s);
	return 0;
}

static int sync_file_new(int64_t fence)
{
	unsigned int i;
	int fd;

	if (!sync_files_ready) {
		for (i = 0; i < FAKE_MAX_SYNC_FILES; i++)
			sync_files[i].fd = -1;
		sync_files_ready = true;
	}
	for (i = 0; i < FAKE_MAX_SYNC_FILES && sync_files[i].fd >= 0; i++)
		;
	if (i == FAKE_MAX_SYNC_FILES)
		return -EMFILE;
	fd = eventfd(0, EFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	sync_files[i] = (struct fake_sync_file){ fd, fence, false };
	sync_files_update();
	return fd;
}

static int fake_syncobj_handle_to_fd(struct fake_file *f, struct drm_syncobj_handle *h)
{
	struct fake_syncobj *s;
	int fd;

	if (h->pad || h->flags != DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE)
		return -EINVAL;	/* the model exports sync_files only */
	s = syncobj_of(f, h->handle);
	if (!s)
		return -ENOENT;
	if (s->fence < 0)
		return -EINVAL;
	progress_unless_held();
	fd = sync_file_new(s->fence);
	if (fd < 0)
		return fd;
	h->fd = fd;
	return 0;
}

static int fake_syncobj_transfer(struct fake_file *f, struct drm_syncobj_transfer *t)
{
	struct fake_syncobj *src = syncobj_of(f, t->src_handle);
	struct fake_syncobj *dst = syncobj_of(f, t->dst_handle);
	int64_t fence;

	if (t->pad || t->flags)
		return -EINVAL;
	if (!src || !dst)
		return -ENOENT;
	fence = syncobj_fence(src, t->src_point);
	if (fence < 0)
		return -EINVAL;
	if (t->dst_point)
		syncobj_add_point(dst, t->dst_point, fence);
	else
		dst->fence = fence;
	return 0;
}

static struct fake_sync_file *sync_file_of(int fd);

/* DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE of a sync_file into a binary syncobj. */
static int fake_syncobj_fd_to_handle(struct fake_file *f, struct drm_syncobj_handle *h)
{
	struct fake_syncobj *s;
	struct fake_sync_file *sf;

	if (h->pad || h->flags != DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE)
		return -EINVAL;	/* the model imports sync_files only */
	s = syncobj_of(f, h->handle);
	if (!s)
		return -ENOENT;
	sf = sync_file_of(h->fd);
	if (!sf)
		return -EINVAL;
	s->fence = sf->fence;
	return 0;
}

/* DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL: points that have signalled. */
static int fake_syncobj_timeline_signal(struct fake_file *f,
					struct drm_syncobj_timeline_array *a)
{
	const uint32_t *h = (const uint32_t *)(uintptr_t)a->handles;
	const uint64_t *points = (const uint64_t *)(uintptr_t)a->points;
	unsigned int i;

	if (a->flags || !a->count_handles)
		return -EINVAL;
	for (i = 0; i < a->count_handles; i++)
		if (!syncobj_of(f, h[i]))
			return -ENOENT;
	for (i = 0; i < a->count_handles; i++) {
		if (points[i])
			syncobj_add_point(syncobj_of(f, h[i]), points[i], 0);
		else
			syncobj_of(f, h[i])->fence = 0;
	}
	return 0;
}

static int fake_syncobj_array(struct fake_file *f, struct drm_syncobj_array *a, bool signal)
{
	const uint32_t *h = (const uint32_t *)(uintptr_t)a->handles;
	unsigned int i;

	if (a->pad || !a->count_handles)
		return -EINVAL;
	for (i = 0; i < a->count_handles; i++)
		if (!syncobj_of(f, h[i]))
			return -ENOENT;
	for (i = 0; i < a->count_handles; i++) {
		struct fake_syncobj *s = syncobj_of(f, h[i]);

		s->fence = signal ? 0 : -1;
		if (!signal) {
			s->npoints = 0;
			s->floor = 0;
		}
	}
	return 0;
}

static int fake_syncobj_query(struct fake_file *f, struct drm_syncobj_timeline_array *a)
{
	const uint32_t *h = (const uint32_t *)(uintptr_t)a->handles;
	uint64_t *points = (uint64_t *)(uintptr_t)a->points;
	unsigned int i;

	if (a->flags & ~DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED || !a->count_handles)
		return -EINVAL;
	for (i = 0; i < a->count_handles; i++)
		if (!syncobj_of(f, h[i]))
			return -ENOENT;
	progress_unless_held();
	for (i = 0; i < a->count_handles; i++) {
		struct fake_syncobj *so = syncobj_of(f, h[i]);

		points[i] = syncobj_signalled_point(so);
		if (a->flags & DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED)
			points[i] = syncobj_last_point(so);
	}
	return 0;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * DRM_IOCTL_SYNCOBJ_WAIT and _TIMELINE_WAIT (@points non-NULL): makes
 * progress and looks, until done or the absolute @timeout.  Called and
 * returns with fake_lock held; drops it while sleeping.
 */
static int fake_syncobj_wait(int fd, const uint32_t *h, const uint64_t *points,
			     uint32_t count, uint32_t flags, int64_t timeout,
			     uint32_t *first)
{
	const uint32_t valid = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
			       DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	struct timespec pause = { 0, FAKE_POLL_NS };
	struct fake_file *f;
	unsigned int i, done;

	if (flags & ~valid || !count)
		return -EINVAL;
	stat_waits++;
	for (;;) {
		f = file_of(fd, true);
		if (!f)
			return -EMFILE;
		progress();
		for (i = done = 0; i < count; i++) {
			struct fake_syncobj *s = syncobj_of(f, h[i]);
			int64_t fence;

			if (!s)
				return -ENOENT;
			fence = syncobj_fence(s, points ? points[i] : 0);
			if (fence < 0 && !(flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT))
				return -EINVAL;
			if (fence >= 0 && fence_status(fence)) {
				if (!done++ && first)
					*first = i;
			}
		}
		if (done == count || (done && !(flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL)))
			return 0;
		if (now_ns() >= timeout)
			return -ETIME;
		pthread_mutex_unlock(&fake_lock);
		nanosleep(&pause, NULL);
		pthread_mutex_lock(&fake_lock);
	}
}

/* The sync_file of @fd, or NULL. */
static struct fake_sync_file *sync_file_of(int fd)
{
	unsigned int i;

	for (i = 0; sync_files_ready && i < FAKE_MAX_SYNC_FILES; i++)
		if (sync_files[i].fd == fd && fd >= 0)
			return &sync_files[i];
	return NULL;
}

/* SYNC_IOC_FILE_INFO on a sync_file of the model. */
static int fake_sync_file_info(struct fake_sync_file *sf, struct sync_file_info *info)
{
	struct sync_fence_info fi = { .obj_name = "fake", .driver_name = "vaccel" };

	if (info->flags || info->pad)
		return -EINVAL;
	info->status = fence_status(sf->fence);
	strcpy(info->name, "fake-vaccel");
	if (!info->num_fences) {
		info->num_fences = 1;
		return 0;
	}
	fi.status = info->status;
	if (put_user_buf(info->sync_fence_info, &fi, sizeof(fi)))
		return -EFAULT;
	info->num_fences = 1;
	return 0;
}

/* The ioctls of the model but QUERY and VERSION, under its lock. */
static int fake_locked_ioctl(int fd, unsigned int nr, void *k)
{
	struct fake_file *f;
	int ret;

	pthread_mutex_lock(&fake_lock);
	if (fail_count && nr == fail_nr) {
		if (fail_skip) {
			fail_skip--;
		} else {
			fail_count--;
			ret = -fail_err;
			goto out;
		}
	}
	f = file_of(fd, true);
	if (!f) {
		ret = -EMFILE;
		goto out;
	}
	switch (nr) {
	case DRM_COMMAND_BASE + DRM_VACCEL_BO_CREATE:
		ret = fake_bo_create(f, k);
		break;
	case DRM_COMMAND_BASE + DRM_VACCEL_BO_MMAP_OFFSET:
		ret = fake_bo_mmap_offset(f, k);
		break;
	case DRM_COMMAND_BASE + DRM_VACCEL_BO_INFO:
		ret = fake_bo_info(f, k);
		break;
	case DRM_COMMAND_BASE + DRM_VACCEL_VM_BIND:
		ret = fake_vm_bind(f, k);
		break;
	case _IOC_NR(DRM_IOCTL_GEM_CLOSE):
		ret = fake_gem_close(f, k);
		break;
	case _IOC_NR(DRM_IOCTL_PRIME_HANDLE_TO_FD):
		ret = fake_prime_export(f, k);
		break;
	case _IOC_NR(DRM_IOCTL_PRIME_FD_TO_HANDLE):
		ret = fake_prime_import(f, k);
		break;
	case DRM_COMMAND_BASE + DRM_VACCEL_CONTEXT_CREATE:
		ret = fake_context_create(f, k);
		break;
	case DRM_COMMAND_BASE + DRM_VACCEL_CONTEXT_DESTROY:
		ret = fake_context_destroy(f, k);
		break;
	case DRM_COMMAND_BASE + DRM_VACCEL_CONTEXT_STATE:
		ret = fake_context_state(f, k);
		break;
	case DRM_COMMAND_BASE + DRM_VACCEL_SUBMIT:
		ret = fake_submit(f, k);
		break;
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_CREATE):
		ret = fake_syncobj_create(f, k);
		break;
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_DESTROY):
		ret = fake_syncobj_destroy(f, k);
		break;
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD):
		ret = fake_syncobj_handle_to_fd(f, k);
		break;
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_TRANSFER):
		ret = fake_syncobj_transfer(f, k);
		break;
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE):
		ret = fake_syncobj_fd_to_handle(f, k);
		break;
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL):
		ret = fake_syncobj_timeline_signal(f, k);
		break;
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_RESET):
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_SIGNAL):
		ret = fake_syncobj_array(f, k, nr == _IOC_NR(DRM_IOCTL_SYNCOBJ_SIGNAL));
		break;
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_QUERY):
		ret = fake_syncobj_query(f, k);
		break;
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_WAIT): {
		struct drm_syncobj_wait *w = k;

		ret = fake_syncobj_wait(fd, (const uint32_t *)(uintptr_t)w->handles, NULL,
					w->count_handles, w->flags, w->timeout_nsec,
					&w->first_signaled);
		break;
	}
	default: {	/* DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT */
		struct drm_syncobj_timeline_wait *w = k;

		ret = fake_syncobj_wait(fd, (const uint32_t *)(uintptr_t)w->handles,
					(const uint64_t *)(uintptr_t)w->points,
					w->count_handles, w->flags, w->timeout_nsec,
					&w->first_signaled);
		break;
	}
	}
out:
	pthread_mutex_unlock(&fake_lock);
	return ret;
}

/* Like drm_ioctl(): zero-extends a short argument, copies back its prefix. */
static int fake_ioctl(int fd, unsigned long cmd, void *arg)
{
	union {
		struct drm_version v;
		struct drm_vaccel_query q;
		struct drm_vaccel_bo_create c;
		struct drm_vaccel_bo_mmap_offset m;
		struct drm_vaccel_bo_info i;
		struct drm_vaccel_vm_bind b;
		struct drm_gem_close g;
		struct drm_prime_handle p;
		struct drm_vaccel_context_create cc;
		struct drm_vaccel_context_destroy cd;
		struct drm_vaccel_context_state cs;
		struct drm_vaccel_submit s;
		struct drm_syncobj_create sc;
		struct drm_syncobj_destroy sd;
		struct drm_syncobj_handle sh;
		struct drm_syncobj_transfer st;
		struct drm_syncobj_array sa;
		struct drm_syncobj_timeline_array sq;
		struct drm_syncobj_wait sw;
		struct drm_syncobj_timeline_wait stw;
	} k;
	size_t usize = _IOC_SIZE(cmd), ksize;
	unsigned int nr = _IOC_NR(cmd);
	int ret;

	if (_IOC_TYPE(cmd) != DRM_IOCTL_BASE)
		return -ENOTTY;
	memset(&k, 0, sizeof(k));
	if (nr == _IOC_NR(DRM_IOCTL_VERSION))
		ksize = sizeof(k.v);
	else if (nr == DRM_COMMAND_BASE + DRM_VACCEL_QUERY)
		ksize = sizeof(k.q);
	else if (nr == DRM_COMMAND_BASE + DRM_VACCEL_BO_CREATE)
		ksize = sizeof(k.c);
	else if (nr == DRM_COMMAND_BASE + DRM_VACCEL_BO_MMAP_OFFSET)
		ksize = sizeof(k.m);
	else if (nr == DRM_COMMAND_BASE + DRM_VACCEL_BO_INFO)
		ksize = sizeof(k.i);
	else if (nr == DRM_COMMAND_BASE + DRM_VACCEL_VM_BIND)
		ksize = sizeof(k.b);
	else if (nr == _IOC_NR(DRM_IOCTL_GEM_CLOSE))
		ksize = sizeof(k.g);
	else if (nr == _IOC_NR(DRM_IOCTL_PRIME_HANDLE_TO_FD) ||
		 nr == _IOC_NR(DRM_IOCTL_PRIME_FD_TO_HANDLE))
		ksize = sizeof(k.p);
	else if (nr == DRM_COMMAND_BASE + DRM_VACCEL_CONTEXT_CREATE)
		ksize = sizeof(k.cc);
	else if (nr == DRM_COMMAND_BASE + DRM_VACCEL_CONTEXT_DESTROY)
		ksize = sizeof(k.cd);
	else if (nr == DRM_COMMAND_BASE + DRM_VACCEL_CONTEXT_STATE)
		ksize = sizeof(k.cs);
	else if (nr == DRM_COMMAND_BASE + DRM_VACCEL_SUBMIT)
		ksize = sizeof(k.s);
	else if (nr == _IOC_NR(DRM_IOCTL_SYNCOBJ_CREATE))
		ksize = sizeof(k.sc);
	else if (nr == _IOC_NR(DRM_IOCTL_SYNCOBJ_DESTROY))
		ksize = sizeof(k.sd);
	else if (nr == _IOC_NR(DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD) ||
		 nr == _IOC_NR(DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE))
		ksize = sizeof(k.sh);
	else if (nr == _IOC_NR(DRM_IOCTL_SYNCOBJ_TRANSFER))
		ksize = sizeof(k.st);
	else if (nr == _IOC_NR(DRM_IOCTL_SYNCOBJ_RESET) ||
		 nr == _IOC_NR(DRM_IOCTL_SYNCOBJ_SIGNAL))
		ksize = sizeof(k.sa);
	else if (nr == _IOC_NR(DRM_IOCTL_SYNCOBJ_QUERY) ||
		 nr == _IOC_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL))
		ksize = sizeof(k.sq);
	else if (nr == _IOC_NR(DRM_IOCTL_SYNCOBJ_WAIT))
		ksize = sizeof(k.sw);
	else if (nr == _IOC_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT))
		ksize = sizeof(k.stw);
	else
		return -EINVAL;
	if (usize > ksize)
		usize = ksize;
	memcpy(&k, arg, usize);
	if (nr == _IOC_NR(DRM_IOCTL_VERSION))
		ret = fake_version(&k.v);
	else if (nr == DRM_COMMAND_BASE + DRM_VACCEL_QUERY)
		ret = fake_query(fd, &k.q);
	else
		ret = fake_locked_ioctl(fd, nr, &k);
	if (_IOC_DIR(cmd) & _IOC_READ)
		memcpy(arg, &k, usize);
	return ret;
}

/* A descriptor of the fake closes: its file, handles and VM go with it. */
int close(int fd)
{
	static int (*real_close)(int);
	struct fake_sync_file *sf;
	struct fake_file *f;

	if (is_fake(fd)) {
		pthread_mutex_lock(&fake_lock);
		f = file_of(fd, false);
		if (f)
			file_drop(f);
		pthread_mutex_unlock(&fake_lock);
	} else {
		pthread_mutex_lock(&fake_lock);
		sf = sync_file_of(fd);
		if (sf)
			sf->fd = -1;
		pthread_mutex_unlock(&fake_lock);
	}
	if (!real_close)
		real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
	return real_close(fd);
}

int ioctl(int fd, unsigned long request, ...)
{
	static int (*real_ioctl)(int, unsigned long, ...);
	struct fake_sync_file *sf;
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);

	if (request == SYNC_IOC_FILE_INFO) {
		pthread_mutex_lock(&fake_lock);
		sf = sync_file_of(fd);
		ret = sf ? fake_sync_file_info(sf, arg) : 1;
		pthread_mutex_unlock(&fake_lock);
		if (ret <= 0)
			goto out;
	}
	if (!is_fake(fd)) {
		if (!real_ioctl)
			real_ioctl = (int (*)(int, unsigned long, ...))
				dlsym(RTLD_NEXT, "ioctl");
		return real_ioctl(fd, request, arg);
	}
	ret = fake_ioctl(fd, request, arg);
out:
	if (ret) {
		errno = -ret;
		return -1;
	}
	return 0;
}

/*
 * mmap() of an object's cookie (BO_MMAP_OFFSET) maps /dev/zero at offset
 * 0, and the model remembers the mapping as the object's memory; munmap()
 * makes it forget.
 */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
	uint64_t o = (uint64_t)off >> 32;
	void *p;

	if (!real_mmap)
		real_mmap = (void *(*)(void *, size_t, int, int, int, off_t))
			dlsym(RTLD_NEXT, "mmap");
	if (fd < 0 || !off || !is_fake(fd))
		return real_mmap(addr, len, prot, flags, fd, off);
	p = real_mmap(addr, len, prot, flags, fd, 0);
	if (p != MAP_FAILED && o >= 1 && o <= FAKE_MAX_OBJS) {
		pthread_mutex_lock(&fake_lock);
		if (objs[o - 1].used) {
			objs[o - 1].cpu = p;
			objs[o - 1].cpu_len = len;
		}
		pthread_mutex_unlock(&fake_lock);
	}
	return p;
}

int munmap(void *addr, size_t len)
{
	static int (*real_munmap)(void *, size_t);
	unsigned int i;

	if (!real_munmap)
		real_munmap = (int (*)(void *, size_t))dlsym(RTLD_NEXT, "munmap");
	pthread_mutex_lock(&fake_lock);
	for (i = 0; i < FAKE_MAX_OBJS; i++)
		if (objs[i].cpu && objs[i].cpu == addr)
			objs[i].cpu = NULL;
	pthread_mutex_unlock(&fake_lock);
	return real_munmap(addr, len);
}
