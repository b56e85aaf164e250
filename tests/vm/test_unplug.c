// SPDX-License-Identifier: MIT
/*
 * test_unplug.c - unbinding a device is a hot-unplug.
 *
 * Unbinding vaccel.0 through sysfs while a file is open must make every
 * ioctl on that file fail with ENODEV, keep the process safe, free the
 * device when the file is closed, and let the device be bound again.  The
 * module cannot be unloaded while a file is open.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include <drm/vaccel_accel.h>

#include "vt_module.h"
#include "vtest.h"

static int query_device(int fd, struct drm_vaccel_device_info *info)
{
	struct drm_vaccel_query q = {
		.type = DRM_VACCEL_QUERY_DEVICE,
		.size = sizeof(*info),
		.data = (uintptr_t)info,
	};

	return ioctl(fd, DRM_IOCTL_VACCEL_QUERY, &q);
}

VTEST(unbind_open_file_gets_enodev)
{
	struct drm_vaccel_device_info info;
	char path[PATH_MAX];
	int fd, i;

	VT_ASSERT_OK(vt_node_of(0, path, sizeof(path)));
	fd = open(path, O_RDWR);
	VT_ASSERT(fd >= 0);
	VT_ASSERT_OK(query_device(fd, &info));

	VT_ASSERT_OK(vt_unbind(0));
	VT_ASSERT_EQ(vt_node_of(0, path, sizeof(path)), -ENOENT);
	for (i = 0; i < 100; i++)
		VT_ASSERT_ERRNO(query_device(fd, &info), ENODEV);
	close(fd);

	VT_ASSERT_OK(vt_bind(0));
	VT_ASSERT_OK(vt_node_of(0, path, sizeof(path)));
	fd = open(path, O_RDWR);
	VT_ASSERT(fd >= 0);
	memset(&info, 0xff, sizeof(info));
	VT_ASSERT_OK(query_device(fd, &info));
	VT_ASSERT_EQ(info.device_index, 0);
	close(fd);
}

VTEST(unbind_with_many_files_then_rebind)
{
	struct drm_vaccel_device_info info;
	char path[PATH_MAX];
	int fds[16], i;

	VT_ASSERT_OK(vt_node_of(0, path, sizeof(path)));
	for (i = 0; i < 16; i++) {
		fds[i] = open(path, O_RDWR);
		VT_ASSERT(fds[i] >= 0);
	}
	VT_ASSERT_OK(vt_unbind(0));
	for (i = 0; i < 16; i++) {
		VT_ASSERT_ERRNO(query_device(fds[i], &info), ENODEV);
		close(fds[i]);
	}
	VT_ASSERT_OK(vt_bind(0));
	VT_ASSERT_OK(vt_node_of(0, path, sizeof(path)));
}

VTEST(module_busy_while_file_open)
{
	char path[PATH_MAX];
	int fd;

	VT_ASSERT_OK(vt_node_of(0, path, sizeof(path)));
	fd = open(path, O_RDWR);
	VT_ASSERT(fd >= 0);
	VT_ASSERT_EQ(vt_module_unload(), -EWOULDBLOCK);
	close(fd);
	VT_ASSERT_EQ(access("/sys/module/vaccel", F_OK), 0);
}

VTEST_MAIN()
