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
 * map is private to each call.  Tests reach two hooks with dlsym():
 * fake_vaccel_objects() counts live objects, fake_vaccel_fail() makes the
 * next ioctls of one number fail.
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
#include <sys/uio.h>
#include <unistd.h>

#include <drm.h>
#include <drm/vaccel_accel.h>

#define FAKE_MAX_ENGINES	32

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
	unsigned int cls, i, n = 0;

	if (type == DRM_VACCEL_QUERY_DEVICE) {
		struct drm_vaccel_device_info info = {
			.uapi_major = DRM_VACCEL_UAPI_MAJOR,
			.uapi_minor = DRM_VACCEL_UAPI_MINOR,
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
};

struct fake_map {
	uint64_t start;
	uint64_t end;
	uint32_t obj;
};

struct fake_file {
	int fd;			/* -1: free slot */
	uint32_t handle[FAKE_MAX_HANDLES];	/* handle h: obj index + 1 in [h - 1] */
	struct fake_map map[FAKE_MAX_MAPS];
	unsigned int nmaps;
};

static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fake_obj objs[FAKE_MAX_OBJS];
static struct fake_file files[FAKE_MAX_FILES];
static bool files_ready;
static unsigned int fail_nr, fail_count;
static int fail_err;

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

/* The next @count ioctls numbered @nr (DRM_COMMAND_BASE + ...) fail with @err. */
__attribute__((visibility("default"))) void fake_vaccel_fail(unsigned int nr, int err,
							     unsigned int count);
void fake_vaccel_fail(unsigned int nr, int err, unsigned int count)
{
	pthread_mutex_lock(&fake_lock);
	fail_nr = nr;
	fail_err = err;
	fail_count = count;
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

	if (obj->used && !obj->handles && !obj->maps && obj->memfd < 0)
		obj->used = false;
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
	/* A shared mapping of /dev/zero faults past its size: offset 0. */
	m->offset = 0;
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
			maps[(*n)++] = (struct fake_map){ end, m.end, m.obj };
		} else if (m.start < start) {
			maps[i].end = start;
		} else if (m.end > end) {
			maps[i].start = end;
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

	if (b->flags || b->pad)
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
		maps[n++] = (struct fake_map){ op.va, op.va + op.size, o };
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

/* The memory ioctls, under the model's lock. */
static int fake_mem_ioctl(int fd, unsigned int nr, void *k)
{
	struct fake_file *f;
	int ret;

	pthread_mutex_lock(&fake_lock);
	if (fail_count && nr == fail_nr) {
		fail_count--;
		ret = -fail_err;
		goto out;
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
	default:
		ret = fake_prime_import(f, k);
		break;
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
		ret = fake_mem_ioctl(fd, nr, &k);
	if (_IOC_DIR(cmd) & _IOC_READ)
		memcpy(arg, &k, usize);
	return ret;
}

/* A descriptor of the fake closes: its file, handles and VM go with it. */
int close(int fd)
{
	static int (*real_close)(int);
	struct fake_file *f;

	if (is_fake(fd)) {
		pthread_mutex_lock(&fake_lock);
		f = file_of(fd, false);
		if (f)
			file_drop(f);
		pthread_mutex_unlock(&fake_lock);
	}
	if (!real_close)
		real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
	return real_close(fd);
}

int ioctl(int fd, unsigned long request, ...)
{
	static int (*real_ioctl)(int, unsigned long, ...);
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);

	if (!is_fake(fd)) {
		if (!real_ioctl)
			real_ioctl = (int (*)(int, unsigned long, ...))
				dlsym(RTLD_NEXT, "ioctl");
		return real_ioctl(fd, request, arg);
	}
	ret = fake_ioctl(fd, request, arg);
	if (ret) {
		errno = -ret;
		return -1;
	}
	return 0;
}
