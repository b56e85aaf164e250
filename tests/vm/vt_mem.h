/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * vt_mem.h - helpers of the memory VM tests, on top of vt_util.h: raw BO
 * and VM_BIND ioctls, the VM statistics query, the driver's debugfs files
 * (page table, mappings, statistics, device memory), what the engines read
 * at a GPU address (vt_gpu_read(), a COPY) and /proc/meminfo.
 *
 * debugfs (root, mounted at /sys/kernel/debug, mounted here if it is not):
 *	accel/<dev>/memory			bo_count, bo_bytes, vms, pt_pages
 *	accel/<dev>/vm<client>/stats		mappings, mapped_bytes, pt_pages
 *	accel/<dev>/vm<client>/mappings		0x<start>-0x<end> offset 0x<o> rwx
 *	accel/<dev>/vm<client>/page_table	0x<va> 0x<pte>, valid level-0 entries,
 *						the frame an identity of the page
 * <client> is the drm-client-id of the file in /proc/self/fdinfo.  <dev> is
 * the DRM device's unique name, which Linux 6.12 uses for accel debugfs
 * directories: the platform device (vaccel.0), found through
 * /sys/dev/char/<major>:<minor>/device; a kernel that names the directory by
 * the accel minor (N of /dev/accel/accelN) instead is handled too.
 *
 * Helpers named vt_*_raw return the ioctl result (-1 and errno); the others
 * fail the case on error.
 */
#ifndef VT_MEM_H
#define VT_MEM_H

#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>

#include "vt_util.h"

#define VT_PAGE		4096ull
#define VT_KIB		1024ull
#define VT_MIB		(1024ull * 1024)
#define VT_GIB		(1024ull * 1024 * 1024)
#define VT_DEBUGFS	"/sys/kernel/debug"
#define VT_DIR_MAX	256	/* a debugfs directory path */

/* Opens the vaccel node of index @index, or fails the case. */
static inline int vt_open_index(int index)
{
	char paths[VT_MAX_NODES][PATH_MAX];
	int n = vt_vaccel_nodes(paths, VT_MAX_NODES), fd;

	if (index >= n)
		vtest_fail(__FILE__, __LINE__, "no vaccel node of index %d (%d found)",
			   index, n);
	fd = open(paths[index], O_RDWR | O_CLOEXEC);
	if (fd < 0)
		vtest_fail(__FILE__, __LINE__, "open %s: %s", paths[index],
			   strerror(errno));
	return fd;
}

/* --- buffer objects --- */

static inline int vt_bo_create_raw(int fd, __u64 size, __u32 flags, __u32 *handle,
				   __u64 *out_size)
{
	struct drm_vaccel_bo_create c = { .size = size, .flags = flags };
	int ret = ioctl(fd, DRM_IOCTL_VACCEL_BO_CREATE, &c);

	if (!ret) {
		if (handle)
			*handle = c.handle;
		if (out_size)
			*out_size = c.size;
	}
	return ret;
}

static inline __u32 vt_bo_create(int fd, __u64 size, __u32 flags)
{
	__u32 handle = 0;

	if (vt_bo_create_raw(fd, size, flags, &handle, NULL))
		vtest_fail(__FILE__, __LINE__, "BO_CREATE(%llu, 0x%x): %s",
			   (unsigned long long)size, flags, strerror(errno));
	VT_ASSERT(handle != 0);
	return handle;
}

static inline int vt_gem_close_raw(int fd, __u32 handle)
{
	struct drm_gem_close c = { .handle = handle };

	return ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static inline void vt_gem_close(int fd, __u32 handle)
{
	VT_ASSERT_EQ(vt_gem_close_raw(fd, handle), 0);
}

static inline int vt_bo_info_raw(int fd, __u32 handle, struct drm_vaccel_bo_info *info)
{
	memset(info, 0, sizeof(*info));
	info->handle = handle;
	return ioctl(fd, DRM_IOCTL_VACCEL_BO_INFO, info);
}

static inline void vt_bo_info(int fd, __u32 handle, struct drm_vaccel_bo_info *info)
{
	if (vt_bo_info_raw(fd, handle, info))
		vtest_fail(__FILE__, __LINE__, "BO_INFO(%u): %s", handle,
			   strerror(errno));
}

static inline int vt_bo_mmap_offset_raw(int fd, __u32 handle, __u64 *offset)
{
	struct drm_vaccel_bo_mmap_offset m = { .handle = handle };
	int ret = ioctl(fd, DRM_IOCTL_VACCEL_BO_MMAP_OFFSET, &m);

	if (!ret && offset)
		*offset = m.offset;
	return ret;
}

/* Maps @size bytes of BO @handle for the CPU, read-write, shared. */
static inline void *vt_bo_mmap(int fd, __u32 handle, __u64 size)
{
	__u64 offset = 0;
	void *p;

	if (vt_bo_mmap_offset_raw(fd, handle, &offset))
		vtest_fail(__FILE__, __LINE__, "BO_MMAP_OFFSET(%u): %s", handle,
			   strerror(errno));
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
	if (p == MAP_FAILED)
		vtest_fail(__FILE__, __LINE__, "mmap of BO %u (%llu bytes): %s",
			   handle, (unsigned long long)size, strerror(errno));
	return p;
}

/* PRIME: BO @handle of @fd as a new dma-buf descriptor. */
static inline int vt_prime_export(int fd, __u32 handle)
{
	struct drm_prime_handle p = {
		.handle = handle,
		.flags = DRM_CLOEXEC | DRM_RDWR,
		.fd = -1,
	};

	if (ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p))
		vtest_fail(__FILE__, __LINE__, "PRIME_HANDLE_TO_FD(%u): %s", handle,
			   strerror(errno));
	VT_ASSERT(p.fd >= 0);
	return p.fd;
}

static inline int vt_prime_import_raw(int fd, int dmabuf, __u32 *handle)
{
	struct drm_prime_handle p = { .fd = dmabuf };
	int ret = ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p);

	if (!ret)
		*handle = p.handle;
	return ret;
}

/* PRIME: the handle of dma-buf @dmabuf in file @fd. */
static inline __u32 vt_prime_import(int fd, int dmabuf)
{
	__u32 handle = 0;

	if (vt_prime_import_raw(fd, dmabuf, &handle))
		vtest_fail(__FILE__, __LINE__, "PRIME_FD_TO_HANDLE(%d): %s", dmabuf,
			   strerror(errno));
	VT_ASSERT(handle != 0);
	return handle;
}

/* --- VM_BIND --- */

static inline struct drm_vaccel_vm_bind_op vt_op_map(__u32 handle, __u64 bo_offset,
						     __u64 va, __u64 size, __u32 flags)
{
	struct drm_vaccel_vm_bind_op op = {
		.op = DRM_VACCEL_VM_BIND_OP_MAP,
		.flags = flags,
		.handle = handle,
		.bo_offset = bo_offset,
		.va = va,
		.size = size,
	};

	return op;
}

static inline struct drm_vaccel_vm_bind_op vt_op_unmap(__u64 va, __u64 size)
{
	struct drm_vaccel_vm_bind_op op = {
		.op = DRM_VACCEL_VM_BIND_OP_UNMAP,
		.va = va,
		.size = size,
	};

	return op;
}

/* VM_BIND with every field of the argument chosen by the caller. */
static inline int vt_vm_bind_full(int fd, const void *ops, __u32 stride,
				  __u32 count, __u32 flags, __u32 pad)
{
	struct drm_vaccel_vm_bind b = {
		.flags = flags,
		.pad = pad,
		.ops = {
			.stride = stride,
			.count = count,
			.array = (__u64)(uintptr_t)ops,
		},
	};

	return ioctl(fd, DRM_IOCTL_VACCEL_VM_BIND, &b);
}

static inline int vt_vm_bind_raw(int fd, const struct drm_vaccel_vm_bind_op *ops,
				 __u32 count)
{
	return vt_vm_bind_full(fd, ops, sizeof(*ops), count, 0, 0);
}

static inline int vt_map_raw(int fd, __u32 handle, __u64 bo_offset, __u64 va,
			     __u64 size, __u32 flags)
{
	struct drm_vaccel_vm_bind_op op = vt_op_map(handle, bo_offset, va, size, flags);

	return vt_vm_bind_raw(fd, &op, 1);
}

#define vt_map(fd, handle, bo_offset, va, size, flags)			\
	do {								\
		if (vt_map_raw(fd, handle, bo_offset, va, size, flags))	\
			vtest_fail(__FILE__, __LINE__,			\
				   "map of BO %u +0x%llx at 0x%llx size 0x%llx: %s", \
				   (unsigned int)(handle),		\
				   (unsigned long long)(bo_offset),	\
				   (unsigned long long)(va),		\
				   (unsigned long long)(size), strerror(errno)); \
	} while (0)

static inline int vt_unmap_raw(int fd, __u64 va, __u64 size)
{
	struct drm_vaccel_vm_bind_op op = vt_op_unmap(va, size);

	return vt_vm_bind_raw(fd, &op, 1);
}

#define vt_unmap(fd, va, size)						\
	do {								\
		if (vt_unmap_raw(fd, va, size))				\
			vtest_fail(__FILE__, __LINE__,			\
				   "unmap of 0x%llx size 0x%llx: %s",	\
				   (unsigned long long)(va),		\
				   (unsigned long long)(size), strerror(errno)); \
	} while (0)

/* The VM statistics of the file @fd. */
static inline void vt_vm_stats(int fd, struct drm_vaccel_vm_stats *s)
{
	__u32 size = sizeof(*s);

	memset(s, 0xff, sizeof(*s));
	if (vt_query(fd, DRM_VACCEL_QUERY_VM_STATS, s, &size))
		vtest_fail(__FILE__, __LINE__, "QUERY_VM_STATS: %s", strerror(errno));
	VT_ASSERT_EQ(size, sizeof(*s));
	VT_ASSERT(s->pt_bytes == s->pt_pages * VT_PAGE);
}

#define VT_ASSERT_STATS_EQ(a, b)					\
	do {								\
		VT_ASSERT_EQ((a)->mappings, (b)->mappings);		\
		VT_ASSERT_EQ((a)->mapped_bytes, (b)->mapped_bytes);	\
		VT_ASSERT_EQ((a)->pt_pages, (b)->pt_pages);		\
		VT_ASSERT_EQ((a)->pt_bytes, (b)->pt_bytes);		\
	} while (0)

/* --- files --- */

/* The whole of a file, NUL-terminated, malloc'ed; NULL and errno if not. */
static inline char *vt_read_file_try(const char *path, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap), *grown;
	ssize_t r;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			grown = realloc(buf, cap);
			if (!grown) {
				free(buf);
				close(fd);
				errno = ENOMEM;
				return NULL;
			}
			buf = grown;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			close(fd);
			return NULL;
		}
		if (!r)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static inline char *vt_read_file(const char *path)
{
	char *buf = vt_read_file_try(path, NULL);

	if (!buf)
		vtest_fail(__FILE__, __LINE__, "read %s: %s", path, strerror(errno));
	return buf;
}

/* The number after "@key" at the start of a line of @text ("key value"). */
static inline bool vt_kv_try(const char *text, const char *key, long long *val)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, klen) && (p[klen] == ' ' || p[klen] == '\t' ||
					       p[klen] == ':')) {
			p += klen + 1;
			while (*p == ' ' || *p == '\t' || *p == ':')
				p++;
			*val = strtoll(p, NULL, 0);
			return true;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

static inline long long vt_kv(const char *text, const char *key)
{
	long long v;

	if (!vt_kv_try(text, key, &v))
		vtest_fail(__FILE__, __LINE__, "no '%s' in:\n%s", key, text);
	return v;
}

/* --- debugfs --- */

/* Mounts debugfs if it is not. */
static inline void vt_debugfs_mount(void)
{
	struct stat st;

	if (!stat(VT_DEBUGFS "/accel", &st))
		return;
	mount("debugfs", VT_DEBUGFS, "debugfs", 0, NULL);
	if (stat(VT_DEBUGFS "/accel", &st))
		vtest_fail(__FILE__, __LINE__, "no %s/accel: is debugfs mounted?",
			   VT_DEBUGFS);
}

/* The accel minor of @fd: N of /dev/accel/accelN. */
static inline unsigned int vt_accel_minor(int fd)
{
	struct stat st;

	VT_ASSERT_EQ(fstat(fd, &st), 0);
	VT_ASSERT(S_ISCHR(st.st_mode));
	return minor(st.st_rdev);
}

/* The debugfs directory of the device node @rdev, into @buf. */
static inline void vt_debugfs_dir_rdev(dev_t rdev, char *buf, size_t len)
{
	char link[64], target[192];
	const char *base;
	struct stat st;
	ssize_t n;

	vt_debugfs_mount();
	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/device", major(rdev),
		 minor(rdev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		base = strrchr(target, '/');
		snprintf(buf, len, VT_DEBUGFS "/accel/%s", base ? base + 1 : target);
		if (!stat(buf, &st) && S_ISDIR(st.st_mode))
			return;
	}
	snprintf(buf, len, VT_DEBUGFS "/accel/%u", minor(rdev));
	if (stat(buf, &st) || !S_ISDIR(st.st_mode))
		vtest_fail(__FILE__, __LINE__,
			   "no debugfs directory for accel minor %u (%s)", minor(rdev),
			   n > 0 ? target : link);
}

/* The debugfs directory of the device of @fd. */
static inline void vt_debugfs_dir(int fd, char *buf, size_t len)
{
	struct stat st;

	VT_ASSERT_EQ(fstat(fd, &st), 0);
	VT_ASSERT(S_ISCHR(st.st_mode));
	vt_debugfs_dir_rdev(st.st_rdev, buf, len);
}

/* The number of key @key in /proc/self/fdinfo of @fd; fails if absent. */
static inline long long vt_fdinfo_kv(int fd, const char *key)
{
	char path[64], *text;
	long long v;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	text = vt_read_file(path);
	v = vt_kv(text, key);
	free(text);
	return v;
}

/* drm-client-id of @fd from /proc/self/fdinfo. */
static inline unsigned long long vt_client_id(int fd)
{
	return vt_fdinfo_kv(fd, "drm-client-id");
}

/* Path of the debugfs file @name of the VM of @fd. */
static inline void vt_vm_debugfs_path(int fd, const char *name, char *buf, size_t len)
{
	char dir[VT_DIR_MAX];

	vt_debugfs_dir(fd, dir, sizeof(dir));
	snprintf(buf, len, "%s/vm%llu/%s", dir, vt_client_id(fd), name);
}

static inline char *vt_vm_debugfs(int fd, const char *name)
{
	char path[PATH_MAX];

	vt_vm_debugfs_path(fd, name, path, sizeof(path));
	return vt_read_file(path);
}

/* Device-wide memory counters, from accel/<minor>/memory. */
struct vt_dev_mem {
	long long bo_count;
	long long bo_bytes;
	long long vms;
	long long pt_pages;
};

/* The counters in the debugfs directory @dir of a device. */
static inline void vt_dev_mem_dir(const char *dir, struct vt_dev_mem *m)
{
	char path[PATH_MAX], *text;

	snprintf(path, sizeof(path), "%s/memory", dir);
	text = vt_read_file(path);
	m->bo_count = vt_kv(text, "bo_count");
	m->bo_bytes = vt_kv(text, "bo_bytes");
	m->vms = vt_kv(text, "vms");
	m->pt_pages = vt_kv(text, "pt_pages");
	free(text);
}

static inline void vt_dev_mem(int fd, struct vt_dev_mem *m)
{
	char dir[VT_DIR_MAX];

	vt_debugfs_dir(fd, dir, sizeof(dir));
	vt_dev_mem_dir(dir, m);
}

/* The debugfs directory of vaccel node @index, without opening the node. */
static inline void vt_debugfs_dir_index(int index, char *buf, size_t len)
{
	char paths[VT_MAX_NODES][PATH_MAX];
	int n = vt_vaccel_nodes(paths, VT_MAX_NODES);
	struct stat st;

	if (index >= n)
		vtest_fail(__FILE__, __LINE__, "no vaccel node of index %d", index);
	VT_ASSERT_EQ(stat(paths[index], &st), 0);
	vt_debugfs_dir_rdev(st.st_rdev, buf, len);
}

static inline bool vt_dev_mem_equal(const struct vt_dev_mem *a,
				    const struct vt_dev_mem *b)
{
	return a->bo_count == b->bo_count && a->bo_bytes == b->bo_bytes &&
	       a->vms == b->vms && a->pt_pages == b->pt_pages;
}

/* One valid level-0 entry of the page table. */
struct vt_pte {
	__u64 va;
	__u64 pte;
};

static inline int vt_pte_cmp(const void *a, const void *b)
{
	const struct vt_pte *x = a, *y = b;

	return x->va < y->va ? -1 : x->va > y->va;
}

/* The page table of the VM of @fd, sorted by VA; malloc'ed.  Return: entries. */
static inline size_t vt_page_table(int fd, struct vt_pte **out)
{
	char *text = vt_vm_debugfs(fd, "page_table"), *line, *save = NULL;
	size_t n = 0, cap = 256;
	struct vt_pte *t = malloc(cap * sizeof(*t));
	unsigned long long va, pte;

	VT_ASSERT(t);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%llx %llx", &va, &pte) != 2)
			vtest_fail(__FILE__, __LINE__, "bad page_table line '%s'", line);
		if (n == cap) {
			cap *= 2;
			t = realloc(t, cap * sizeof(*t));
			VT_ASSERT(t);
		}
		t[n].va = va;
		t[n].pte = pte;
		n++;
	}
	free(text);
	qsort(t, n, sizeof(*t), vt_pte_cmp);
	*out = t;
	return n;
}

/* The entry of @va in table @t, or 0 if the page is not mapped. */
static inline __u64 vt_pte_find(const struct vt_pte *t, size_t n, __u64 va)
{
	struct vt_pte key = { .va = va }, *e;

	e = bsearch(&key, t, n, sizeof(*t), vt_pte_cmp);
	return e ? e->pte : 0;
}

/* One mapping of the VM, from the mappings file. */
struct vt_mapping {
	__u64 start;
	__u64 end;
	__u64 offset;
	char perm[4];
};

/* The mappings of the VM of @fd, in file order; malloc'ed.  Return: count. */
static inline size_t vt_mappings(int fd, struct vt_mapping **out)
{
	char *text = vt_vm_debugfs(fd, "mappings"), *line, *save = NULL;
	size_t n = 0, cap = 64;
	struct vt_mapping *m = malloc(cap * sizeof(*m));
	unsigned long long s, e, o;
	char perm[4];

	VT_ASSERT(m);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%llx-%llx offset %llx %3s", &s, &e, &o, perm) != 4 ||
		    strlen(perm) != 3)
			vtest_fail(__FILE__, __LINE__, "bad mappings line '%s'", line);
		if (n == cap) {
			cap *= 2;
			m = realloc(m, cap * sizeof(*m));
			VT_ASSERT(m);
		}
		m[n].start = s;
		m[n].end = e;
		m[n].offset = o;
		memcpy(m[n].perm, perm, 4);
		n++;
	}
	free(text);
	*out = m;
	return n;
}

/* The mapping that starts at @va, or fails the case. */
static inline struct vt_mapping vt_mapping_at(int fd, __u64 va)
{
	struct vt_mapping *m, r;
	size_t n = vt_mappings(fd, &m), i;

	for (i = 0; i < n && m[i].start != va; i++)
		;
	if (i == n)
		vtest_fail(__FILE__, __LINE__, "no mapping starts at 0x%llx",
			   (unsigned long long)va);
	r = m[i];
	free(m);
	return r;
}

/* --- /proc --- */

/* Fills @pages pages at @cpu with words unique to @seed, page and offset. */
static inline void vt_fill_pages(void *cpu, size_t pages, __u64 seed)
{
	__u64 *w = cpu;
	size_t i;

	for (i = 0; i < pages * VT_PAGE / 8; i++)
		w[i] = (seed * 0x9e3779b97f4a7c15ull) ^ (i * 0xbf58476d1ce4e5b9ull) ^ i;
}

/* A VA range of @size bytes that no mapping of @fd meets, near the top. */
static inline __u64 vt_free_va_top(int fd, __u64 size)
{
	struct drm_vaccel_device_info info;
	struct vt_mapping *m;
	size_t n, i;
	__u64 va;

	vt_device_info(fd, &info);
	n = vt_mappings(fd, &m);
	for (va = (info.va_end - size) & ~(2 * VT_MIB - 1); va > info.va_start;
	     va -= size + 2 * VT_MIB) {
		for (i = 0; i < n; i++)
			if (m[i].start < va + size && va < m[i].end)
				break;
		if (i == n)
			break;
	}
	free(m);
	VT_ASSERT(va > info.va_start);
	return va;
}

/*
 * Copies @size bytes at GPU VA @src of the VM of @fd into @dst, through
 * the engines: a COPY on a compute context of its own, into a BO of its
 * own, mapped where nothing else is.
 */
static inline void vt_gpu_read(int fd, __u64 src, void *dst, __u64 size)
{
	__u64 bo_size = (size + VT_PAGE - 1) / VT_PAGE * VT_PAGE + VT_PAGE;
	__u32 h = vt_bo_create(fd, bo_size, 0);
	unsigned char *cpu = vt_bo_mmap(fd, h, bo_size);
	__u64 va = vt_free_va_top(fd, bo_size), *cmd = (__u64 *)(cpu + bo_size - VT_PAGE);
	struct drm_vaccel_context_create c = {
		.engine_class = DRM_VACCEL_ENGINE_CLASS_COMPUTE,
		.engine_instance = DRM_VACCEL_ENGINE_ANY,
		.priority = DRM_VACCEL_PRIORITY_NORMAL,
	};
	struct drm_syncobj_create sc = {};
	struct drm_vaccel_sync sig;
	struct drm_vaccel_submit s = {};
	struct drm_syncobj_wait w = { .count_handles = 1, .timeout_nsec = INT64_MAX };
	struct drm_vaccel_context_destroy cd = {};

	vt_map(fd, h, 0, va, bo_size, 0);
	cmd[0] = DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_COPY, 0, 4);
	cmd[1] = src;
	cmd[2] = va;
	cmd[3] = size;
	VT_ASSERT_OK(ioctl(fd, DRM_IOCTL_VACCEL_CONTEXT_CREATE, &c));
	VT_ASSERT_OK(ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc));
	sig = (struct drm_vaccel_sync){ .handle = sc.handle };
	s.context = c.handle;
	s.buffer_va = va + bo_size - VT_PAGE;
	s.buffer_size = 32;
	s.signals = (struct drm_vaccel_obj_array)DRM_VACCEL_OBJ_ARRAY(1, &sig);
	VT_ASSERT_OK(ioctl(fd, DRM_IOCTL_VACCEL_SUBMIT, &s));
	w.handles = (uintptr_t)&sc.handle;
	VT_ASSERT_OK(ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w));
	memcpy(dst, cpu, size);
	cd.handle = c.handle;
	VT_ASSERT_OK(ioctl(fd, DRM_IOCTL_VACCEL_CONTEXT_DESTROY, &cd));
	VT_ASSERT_OK(ioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY,
			   &(struct drm_syncobj_destroy){ .handle = sc.handle }));
	vt_unmap(fd, va, bo_size);
	munmap(cpu, bo_size);
	vt_gem_close(fd, h);
}

/*
 * Checks that the GPU page table of @fd maps the @pages pages from @va onto
 * the pages behind the CPU mapping @cpu, in order, with the WRITE and EXEC
 * bits @write and @exec: every page has a valid entry with those bits, the
 * entries name @pages different pages (debugfs shows an identity of each
 * page, never its address), and the engines, copying the range, read what
 * the CPU sees.  Fill the BO with vt_fill_pages() first, so that every
 * page is different.
 */
static inline void vt_check_translation(int fd, __u64 va, const void *cpu,
					size_t pages, bool write, bool exec)
{
	unsigned char *buf = malloc(pages * VT_PAGE);
	__u64 *id = malloc(pages * sizeof(*id)), pte;
	struct vt_pte *t;
	size_t n, i, j;

	VT_ASSERT(buf && id);
	n = vt_page_table(fd, &t);
	for (i = 0; i < pages; i++) {
		pte = vt_pte_find(t, n, va + i * VT_PAGE);
		if (!(pte & DRM_VACCEL_PTE_VALID))
			vtest_fail(__FILE__, __LINE__, "no valid PTE for 0x%llx",
				   (unsigned long long)(va + i * VT_PAGE));
		VT_ASSERT_EQ(!!(pte & DRM_VACCEL_PTE_WRITE), write);
		VT_ASSERT_EQ(!!(pte & DRM_VACCEL_PTE_EXEC), exec);
		id[i] = pte & DRM_VACCEL_PTE_ADDR_MASK;
		for (j = 0; j < i; j++)
			if (id[j] == id[i])
				vtest_fail(__FILE__, __LINE__,
					   "GPU pages 0x%llx and 0x%llx are the same page",
					   (unsigned long long)(va + j * VT_PAGE),
					   (unsigned long long)(va + i * VT_PAGE));
	}
	vt_gpu_read(fd, va, buf, pages * VT_PAGE);
	for (i = 0; i < pages; i++)
		if (memcmp(buf + i * VT_PAGE, (const unsigned char *)cpu + i * VT_PAGE,
			   VT_PAGE))
			vtest_fail(__FILE__, __LINE__,
				   "the engines read at GPU page 0x%llx other bytes than CPU page %zu",
				   (unsigned long long)(va + i * VT_PAGE), i);
	free(t);
	free(id);
	free(buf);
}

/* A /proc/meminfo line in kB, such as "Shmem". */
static inline long long vt_meminfo_kb(const char *key)
{
	char *text = vt_read_file("/proc/meminfo");
	long long v = vt_kv(text, key);

	free(text);
	return v;
}

/* --- processes --- */

/* Waits for child @pid and fails the case unless it exited with 0. */
static inline void vt_wait_child(pid_t pid)
{
	int status;

	VT_ASSERT(pid > 0);
	VT_ASSERT_EQ(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status))
		vtest_fail(__FILE__, __LINE__, "child killed by signal %d",
			   WTERMSIG(status));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		vtest_fail(__FILE__, __LINE__, "child failed (exit %d)",
			   WEXITSTATUS(status));
}

/* Sends descriptor @fd over the unix socket @sock. */
static inline void vt_send_fd(int sock, int fd)
{
	char byte = 'F', cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;

	memset(cbuf, 0, sizeof(cbuf));
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	VT_ASSERT_EQ(sendmsg(sock, &msg, 0), 1);
}

/* Receives a descriptor from the unix socket @sock. */
static inline int vt_recv_fd(int sock)
{
	char byte, cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;
	int fd;

	VT_ASSERT_EQ(recvmsg(sock, &msg, MSG_CMSG_CLOEXEC), 1);
	c = CMSG_FIRSTHDR(&msg);
	VT_ASSERT(c && c->cmsg_type == SCM_RIGHTS);
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	VT_ASSERT(fd >= 0);
	return fd;
}

#endif /* VT_MEM_H */
