/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * vt_module.h - the module and its devices as the driver core sees them:
 * binding and unbinding a device through sysfs (a hot-unplug), finding the
 * accel node of a platform device, and unloading and loading the module
 * from a test, without the shell.
 */
#ifndef VT_MODULE_H
#define VT_MODULE_H

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/syscall.h>

#include "vtest.h"

#define VT_DRV		"/sys/bus/platform/drivers/vaccel"
#define VT_MODULE_KO	"/vaccel/vaccel.ko"

/* Writes @s to the sysfs file @path; returns 0 or -errno. */
static inline int vt_write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -errno;
}

/*
 * Finds, in sysfs class directory @class, the entry named @prefix... whose
 * link @link points at platform device vaccel.@index; its name goes to
 * @name.  Returns 0 or -ENOENT.
 */
static inline int vt_class_entry_of(const char *class, const char *prefix,
				    const char *link, int index, char *name,
				    size_t len)
{
	char want[32], path[PATH_MAX], target[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(class);
	int ret = -ENOENT;

	if (!d)
		return -ENOENT;
	snprintf(want, sizeof(want), "/vaccel.%d", index);
	while ((de = readdir(d))) {
		ssize_t n;

		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s", class, de->d_name, link);
		n = readlink(path, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = 0;
		if (strlen(target) >= strlen(want) &&
		    !strcmp(target + strlen(target) - strlen(want), want)) {
			if (snprintf(name, len, "%s", de->d_name) < (int)len)
				ret = 0;
			break;
		}
	}
	closedir(d);
	return ret;
}

/* Finds the accel node of platform device vaccel.N; returns 0 or -ENOENT. */
static inline int vt_node_of(int index, char *path, size_t len)
{
	char name[64];
	int ret = vt_class_entry_of("/sys/class/accel", "accel", "device", index,
				    name, sizeof(name));

	if (!ret && snprintf(path, len, "/dev/accel/%s", name) >= (int)len)
		ret = -ENOENT;
	return ret;
}

static inline int vt_unbind(int index)
{
	char dev[32];

	snprintf(dev, sizeof(dev), "vaccel.%d", index);
	return vt_write_str(VT_DRV "/unbind", dev);
}

static inline int vt_bind(int index)
{
	char dev[32];

	snprintf(dev, sizeof(dev), "vaccel.%d", index);
	return vt_write_str(VT_DRV "/bind", dev);
}

/* delete_module(2) without waiting; returns 0 or -errno (EWOULDBLOCK: in use). */
static inline int vt_module_unload(void)
{
	return syscall(SYS_delete_module, "vaccel", O_NONBLOCK) ? -errno : 0;
}

/*
 * Unloads the module, retrying for up to @ms while it is in use: what held
 * it may be let go a little after the last file closed (a teardown on a
 * workqueue, an RCU grace period).  Returns 0 or the last -errno.
 */
static inline int vt_module_unload_within(unsigned int ms)
{
	int ret, i;

	for (i = 0;; i++) {
		ret = vt_module_unload();
		if (ret != -EWOULDBLOCK || i >= (int)ms / 10)
			return ret;
		usleep(10000);
	}
}

/* finit_module(2) of the module with @params ("" for the defaults). */
static inline int vt_module_load(const char *params)
{
	int fd = open(VT_MODULE_KO, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return ret;
}

#endif /* VT_MODULE_H */
