// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * device.c - the device object: finding vaccel nodes among the accel nodes,
 * opening them and closing them.
 *
 * Devices are numbered in the order of their accel minor (accel2 before
 * accel10), skipping the nodes of other accel drivers.  A node is vaccel if
 * DRM_IOCTL_VERSION names the driver "vaccel".  A node that cannot be opened
 * (a single-use device in use, no permission) is identified through sysfs
 * instead, so that it keeps its index and opening it reports the real error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "vaccel_priv.h"

#define VACCEL_DEFAULT_DEVICE_DIR	"/dev/accel"

static const char *vaccel_device_dir(void)
{
	const char *dir = secure_getenv("VACCEL_DEVICE_DIR");

	return dir && *dir ? dir : VACCEL_DEFAULT_DEVICE_DIR;
}

/* Parses "accelN" (N without leading zeros); false for any other name. */
static bool vaccel_parse_node_name(const char *name, unsigned int *minor)
{
	char canon[32];
	unsigned long n;
	char *end;

	if (strncmp(name, "accel", 5) || name[5] < '0' || name[5] > '9')
		return false;
	errno = 0;
	n = strtoul(name + 5, &end, 10);
	if (errno || *end || n > UINT_MAX)
		return false;
	snprintf(canon, sizeof(canon), "accel%lu", n);
	if (strcmp(canon, name))
		return false;
	*minor = n;
	return true;
}

static int vaccel_cmp_minor(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/*
 * Lists the accel minors found in @dir, sorted.  *@minors is NULL when
 * there are none; the caller frees it.  Return: the count, or -errno.
 */
static int vaccel_scan_dir(const char *dir, unsigned int **minors)
{
	unsigned int *list = NULL, *grown, minor;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;

	*minors = NULL;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;

	while ((de = readdir(d))) {
		if (!vaccel_parse_node_name(de->d_name, &minor))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			grown = realloc(list, cap * sizeof(*list));
			if (!grown) {
				free(list);
				closedir(d);
				return -ENOMEM;
			}
			list = grown;
		}
		list[n++] = minor;
	}
	closedir(d);

	if (n > INT_MAX) {
		free(list);
		return -EOVERFLOW;
	}
	qsort(list, n, sizeof(*list), vaccel_cmp_minor);
	*minors = list;
	return n;
}

/* Whether sysfs file @path holds exactly @want (plus a newline). */
static bool vaccel_sysfs_equals(const char *path, const char *want)
{
	char buf[64];
	ssize_t len;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return false;
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return !strcmp(buf, want);
}

/*
 * Identifies a node that cannot be opened: its device is bound to the
 * vaccel driver, or is the platform device "vaccel" (bound or not).
 */
static bool vaccel_sysfs_is_vaccel(const char *path)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *base;
	struct stat st;
	ssize_t len;

	if (stat(path, &st) || !S_ISCHR(st.st_mode))
		return false;

	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/device/driver",
		 major(st.st_rdev), minor(st.st_rdev));
	len = readlink(link, target, sizeof(target) - 1);
	if (len > 0) {
		target[len] = '\0';
		base = strrchr(target, '/');
		if (!strcmp(base ? base + 1 : target, VACCEL_DRIVER_NAME))
			return true;
	}

	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/device/modalias",
		 major(st.st_rdev), minor(st.st_rdev));
	return vaccel_sysfs_equals(link, "platform:" VACCEL_DRIVER_NAME);
}

/*
 * Opens @path and checks that it is a vaccel node.  Return: the descriptor
 * and the version in *@version, or -ENODEV (not vaccel) or -errno (open).
 */
static int vaccel_node_open(const char *path, drmVersionPtr *version)
{
	drmVersionPtr ver;
	struct stat st;
	int fd;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;

	if (fstat(fd, &st) || !S_ISCHR(st.st_mode))
		goto err_close;

	ver = drmGetVersion(fd);
	if (!ver)
		goto err_close;
	if (!ver->name || strcmp(ver->name, VACCEL_DRIVER_NAME)) {
		drmFreeVersion(ver);
		goto err_close;
	}

	*version = ver;
	return fd;

err_close:
	close(fd);
	return -ENODEV;
}

/* Builds the handle around an open vaccel node; takes @fd and @version. */
static int vaccel_device_create(int fd, drmVersionPtr version, const char *path,
				struct vaccel_device **out)
{
	struct vaccel_device *dev;
	int ret;

	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		ret = -ENOMEM;
		goto err_close;
	}
	dev->fd = fd;
	dev->version = version;
	dev->path = strdup(path);
	if (!dev->path) {
		ret = -ENOMEM;
		goto err_free_dev;
	}

	ret = vaccel_device_init_queries(dev);
	if (ret)
		goto err_free_dev;

	ret = vaccel_va_space_init(&dev->va, dev->info.va_start, dev->info.va_end);
	if (ret)
		goto err_free_dev;

	ret = vaccel_device_init_bos(dev);
	if (ret)
		goto err_fini_va;
	ret = vaccel_device_init_modules(dev);
	if (ret)
		goto err_fini_bos;
	pthread_mutex_init(&dev->prof_lock, NULL);

	*out = dev;
	return 0;

err_fini_bos:
	vaccel_device_fini_bos(dev);
err_fini_va:
	vaccel_va_space_fini(&dev->va);
err_free_dev:
	free(dev->engines);
	free(dev->path);
	free(dev);
err_close:
	drmFreeVersion(version);
	close(fd);
	return ret;
}

/*
 * Walks the vaccel devices in order.  With @out NULL, counts them.
 * Otherwise opens the one numbered @index.  Return: the count, 0 after
 * opening, or -errno.
 */
static int vaccel_device_walk(unsigned int index, struct vaccel_device **out)
{
	const char *dir = vaccel_device_dir();
	char path[PATH_MAX];
	unsigned int *minors;
	drmVersionPtr ver;
	unsigned int seen = 0;
	int n, i, fd, ret;

	n = vaccel_scan_dir(dir, &minors);
	if (n < 0)
		return n;

	ret = -ENODEV;
	for (i = 0; i < n; i++) {
		if (snprintf(path, sizeof(path), "%s/accel%u", dir, minors[i]) >=
		    (int)sizeof(path))
			continue;

		fd = vaccel_node_open(path, &ver);
		if (fd == -ENODEV)
			continue;
		if (fd < 0 && !vaccel_sysfs_is_vaccel(path))
			continue;

		if (!out || seen != index) {
			if (fd >= 0) {
				drmFreeVersion(ver);
				close(fd);
			}
			seen++;
			continue;
		}

		ret = fd < 0 ? fd : vaccel_device_create(fd, ver, path, out);
		break;
	}
	free(minors);

	if (!out)
		return seen > INT_MAX ? INT_MAX : (int)seen;
	return ret;
}

VACCEL_EXPORT int vaccel_device_count(void)
{
	return vaccel_device_walk(0, NULL);
}

/* Opens the plain device of index @index, for unified.c. */
int vaccel_device_open_plain(unsigned int index, struct vaccel_device **out)
{
	return vaccel_device_walk(index, out);
}

VACCEL_EXPORT int vaccel_device_open(unsigned int index, struct vaccel_device **out)
{
	const char *unified = secure_getenv("VACCEL_UNIFIED");

	if (!out)
		return -EINVAL;
	if (!index && unified && *unified)
		return vaccel_unified_open_env(out);
	return vaccel_device_walk(index, out);
}

VACCEL_EXPORT int vaccel_device_open_path(const char *path, struct vaccel_device **out)
{
	drmVersionPtr ver;
	int fd;

	if (!path || !out)
		return -EINVAL;

	fd = vaccel_node_open(path, &ver);
	if (fd < 0)
		return fd;
	return vaccel_device_create(fd, ver, path, out);
}

VACCEL_EXPORT void vaccel_device_close(struct vaccel_device *dev)
{
	if (!dev)
		return;
	if (dev->unified) {
		vaccel_unified_close(dev);
		return;
	}
	vaccel_device_fini_modules(dev);
	vaccel_device_fini_profiling(dev);
	pthread_mutex_destroy(&dev->prof_lock);
	vaccel_device_fini_bos(dev);
	vaccel_va_space_fini(&dev->va);
	close(dev->fd);
	drmFreeVersion(dev->version);
	free(dev->engines);
	free(dev->path);
	free(dev);
}

VACCEL_EXPORT int vaccel_device_fd(const struct vaccel_device *dev)
{
	return dev ? dev->fd : -EINVAL;
}

VACCEL_EXPORT const char *vaccel_device_path(const struct vaccel_device *dev)
{
	return dev ? dev->path : NULL;
}
