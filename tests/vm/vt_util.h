/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * vt_util.h - helpers shared by the vaccel VM tests, on top of vtest.h:
 * the expected topology (from the guest plan's environment, else from the
 * module parameters), finding vaccel nodes with raw ioctls, and issuing a
 * raw DRM_IOCTL_VACCEL_QUERY.
 *
 * Expectations:
 *	VT_DEVICES	vaccel devices	(else /sys/module/vaccel/parameters/devices)
 *	VT_COMPUTE	compute engines	(else .../compute_engines)
 *	VT_COPY		copy engines	(else .../copy_engines)
 *	VT_VA_BITS	VA width	(else .../va_bits)
 *	VT_HW_QUEUE_DEPTH (else .../hw_queue_depth, else 2)
 *	VT_SINGLE_USE	1 if the devices are single use (default 0)
 * Nodes are looked for in $VACCEL_DEVICE_DIR, default /dev/accel, like
 * libvaccel does.
 */
#ifndef VT_UTIL_H
#define VT_UTIL_H

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <drm.h>
#include <drm/vaccel_accel.h>

#include "vtest.h"

#define VT_MAX_NODES	64

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#define VT_PARAM_DIR	"/sys/module/vaccel/parameters/"

/*
 * Reads a number from @env, else from module parameter @param (a bool's Y
 * or N as 1 or 0), else @def.
 */
static inline long long vt_expect_def(const char *env, const char *param,
				      long long def, bool required)
{
	char path[256], buf[64];
	const char *s = getenv(env);
	long long v;
	char *end;
	FILE *f;

	if (s && *s) {
		errno = 0;
		v = strtoll(s, &end, 0);
		if (errno || *end)
			vtest_fail(__FILE__, __LINE__, "bad %s='%s'", env, s);
		return v;
	}
	snprintf(path, sizeof(path), VT_PARAM_DIR "%s", param);
	f = fopen(path, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f)) {
			fclose(f);
			/* A bool parameter reads Y or N. */
			if ((buf[0] == 'Y' || buf[0] == 'N') && buf[1] == '\n')
				return buf[0] == 'Y';
			errno = 0;
			v = strtoll(buf, &end, 0);
			if (!errno && end != buf)
				return v;
			vtest_fail(__FILE__, __LINE__, "bad %s: '%s'", path, buf);
		}
		fclose(f);
	}
	if (required)
		vtest_fail(__FILE__, __LINE__,
			   "expectation unknown: set %s or load vaccel (no %s)",
			   env, path);
	return def;
}

#define vt_expect(env, param)		vt_expect_def(env, param, 0, true)

static inline const char *vt_dev_dir(void)
{
	const char *dir = getenv("VACCEL_DEVICE_DIR");

	return dir && *dir ? dir : "/dev/accel";
}

/* DRM_IOCTL_VERSION into @name; returns the ioctl result. */
static inline int vt_drm_version(int fd, struct drm_version *v, char *name,
				 size_t len)
{
	memset(v, 0, sizeof(*v));
	memset(name, 0, len);
	v->name = name;
	v->name_len = len - 1;
	return ioctl(fd, DRM_IOCTL_VERSION, v);
}

static inline bool vt_fd_is_vaccel(int fd)
{
	struct drm_version v;
	char name[64];

	return !vt_drm_version(fd, &v, name, sizeof(name)) &&
	       !strcmp(name, "vaccel");
}

static inline int vt_cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/*
 * Fills @paths with the vaccel nodes, in accel minor order, opening each
 * with raw syscalls.  Returns how many.
 */
static inline int vt_vaccel_nodes(char paths[][PATH_MAX], int max)
{
	unsigned int minors[VT_MAX_NODES];
	const char *dir = vt_dev_dir();
	int n = 0, found = 0, i, fd;
	struct dirent *de;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)) && n < VT_MAX_NODES) {
		char *end;
		unsigned long m;

		if (strncmp(de->d_name, "accel", 5) || !de->d_name[5])
			continue;
		m = strtoul(de->d_name + 5, &end, 10);
		if (*end)
			continue;
		minors[n++] = m;
	}
	closedir(d);
	qsort(minors, n, sizeof(minors[0]), vt_cmp_uint);

	for (i = 0; i < n && found < max; i++) {
		snprintf(paths[found], PATH_MAX, "%s/accel%u", dir, minors[i]);
		fd = open(paths[found], O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (vt_fd_is_vaccel(fd))
			found++;
		close(fd);
	}
	return found;
}

/* Opens the first vaccel node, or fails the case. */
static inline int vt_open_first(void)
{
	char paths[1][PATH_MAX];
	int fd;

	if (vt_vaccel_nodes(paths, 1) < 1)
		vtest_fail(__FILE__, __LINE__, "no vaccel node in %s", vt_dev_dir());
	fd = open(paths[0], O_RDWR | O_CLOEXEC);
	if (fd < 0)
		vtest_fail(__FILE__, __LINE__, "open %s: %s", paths[0],
			   strerror(errno));
	return fd;
}

/* A raw query; returns the ioctl result (-1 and errno on failure). */
static inline int vt_query_raw(int fd, __u32 type, void *data, __u32 *size,
			       __u32 flags, __u32 pad)
{
	struct drm_vaccel_query q = {
		.type = type,
		.size = *size,
		.data = (__u64)(uintptr_t)data,
		.flags = flags,
		.pad = pad,
	};
	int ret;

	ret = ioctl(fd, DRM_IOCTL_VACCEL_QUERY, &q);
	if (!ret)
		*size = q.size;
	return ret;
}

static inline int vt_query(int fd, __u32 type, void *data, __u32 *size)
{
	return vt_query_raw(fd, type, data, size, 0, 0);
}

/*
 * The device info, or fails the case.  An older module answers with less
 * (its uapi's size, at least uapi 1.0's 64 bytes) and the kernel clears
 * the rest, as the size negotiation says: the fields it does not know
 * read zero, and a case that needs one fails on it, not here.
 * test_query checks that this module answers with the whole structure.
 */
static inline void vt_device_info(int fd, struct drm_vaccel_device_info *info)
{
	__u32 size = sizeof(*info);

	memset(info, 0, sizeof(*info));
	VT_ASSERT_EQ(vt_query(fd, DRM_VACCEL_QUERY_DEVICE, info, &size), 0);
	VT_ASSERT(size >= 64 && size <= sizeof(*info));
}

/* The engine list, malloc'ed, or fails the case; *@size gets its size. */
static inline struct drm_vaccel_engine_list *vt_engine_list(int fd, __u32 *size)
{
	struct drm_vaccel_engine_list *list;

	*size = 0;
	VT_ASSERT_EQ(vt_query(fd, DRM_VACCEL_QUERY_ENGINES, NULL, size), 0);
	VT_ASSERT(*size >= sizeof(*list));
	list = malloc(*size);
	VT_ASSERT(list);
	VT_ASSERT_EQ(vt_query(fd, DRM_VACCEL_QUERY_ENGINES, list, size), 0);
	return list;
}

/* Entry @i of @list, with the kernel's stride. */
static inline struct drm_vaccel_engine_info *
vt_engine(struct drm_vaccel_engine_list *list, unsigned int i)
{
	return (struct drm_vaccel_engine_info *)((char *)list->engines +
						 (size_t)i * list->entry_size);
}

/*
 * VT_INCBIN(sym, path): the file @path, built before the test program,
 * embedded in it as the bytes sym[] to sym_end[]; VT_MODULE(sym) gives
 * their address and size, for vaccel_module_load().
 */
#define VT_INCBIN(sym, path)						\
	__asm__(".pushsection .rodata\n"				\
		".balign 16\n"						\
		#sym ":\n"						\
		".incbin \"" path "\"\n"				\
		#sym "_end:\n"						\
		".popsection\n");					\
	extern const unsigned char sym[], sym##_end[]

#define VT_MODULE(m)	(m), (size_t)(m##_end - (m))

#endif /* VT_UTIL_H */
