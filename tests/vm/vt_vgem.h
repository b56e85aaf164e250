/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * vt_vgem.h - fences and buffers from vgem, the stock kernel's virtual GEM
 * driver: a dependency that signals exactly when the test says (or after
 * vgem's own 10 s timeout), and a dma-buf exported by a driver that is not
 * vaccel.
 *
 * A vgem fence is attached to a vgem BO; the BO's dma-buf gives it out as
 * a sync_file (DMA_BUF_IOCTL_EXPORT_SYNC_FILE), which a vaccel syncobj
 * imports.  The vgem ioctls are declared here from the kernel's uapi
 * (include/uapi/drm/vgem_drm.h), which libdrm does not install.
 */
#ifndef VT_VGEM_H
#define VT_VGEM_H

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/ioctl.h>
#include <linux/dma-buf.h>

#include <drm.h>

#include "vtest.h"

struct vt_vgem_fence_attach {
	__u32 handle;
	__u32 flags;
	__u32 out_fence;
	__u32 pad;
};

struct vt_vgem_fence_signal {
	__u32 fence;
	__u32 flags;
};

#define VT_VGEM_FENCE_WRITE		0x1
#define VT_DRM_IOCTL_VGEM_FENCE_ATTACH \
	DRM_IOWR(DRM_COMMAND_BASE + 0x1, struct vt_vgem_fence_attach)
#define VT_DRM_IOCTL_VGEM_FENCE_SIGNAL \
	DRM_IOW(DRM_COMMAND_BASE + 0x2, struct vt_vgem_fence_signal)

/* An open vgem node, or -1 if vgem is not loaded. */
static inline int vt_vgem_open(void)
{
	DIR *d = opendir("/dev/dri");
	struct dirent *de;
	int fd = -1;

	if (!d)
		return -1;
	while (fd < 0 && (de = readdir(d))) {
		char path[PATH_MAX], name[16] = "";
		struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

		if (strncmp(de->d_name, "card", 4))
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", de->d_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (ioctl(fd, DRM_IOCTL_VERSION, &v) || strcmp(name, "vgem")) {
			close(fd);
			fd = -1;
		}
	}
	closedir(d);
	return fd;
}

static inline int vt_vgem_require(void)
{
	int fd = vt_vgem_open();

	if (fd < 0)
		vtest_fail(__FILE__, __LINE__, "no vgem device (modprobe vgem)");
	return fd;
}

/* A vgem BO of @size bytes (a multiple of 4096); returns its handle. */
static inline __u32 vt_vgem_bo(int vgem, __u64 size)
{
	struct drm_mode_create_dumb c = {
		.width = 1024, .height = (__u32)(size / 4096), .bpp = 32,
	};

	if (ioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &c))
		vtest_fail(__FILE__, __LINE__, "vgem CREATE_DUMB: %s", strerror(errno));
	return c.handle;
}

/* The dma-buf of a vgem BO. */
static inline int vt_vgem_dmabuf(int vgem, __u32 handle)
{
	struct drm_prime_handle p = { .handle = handle, .flags = DRM_CLOEXEC | DRM_RDWR };

	if (ioctl(vgem, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p))
		vtest_fail(__FILE__, __LINE__, "vgem HANDLE_TO_FD: %s", strerror(errno));
	return p.fd;
}

/* A fence the test signals: vgem's id, and a sync_file of it. */
struct vt_vgem_fence {
	int vgem;
	__u32 fence;
	int sync_file;
};

static inline struct vt_vgem_fence vt_vgem_fence_new(int vgem)
{
	struct vt_vgem_fence f = { .vgem = vgem };
	struct vt_vgem_fence_attach a = { .flags = VT_VGEM_FENCE_WRITE };
	struct dma_buf_export_sync_file e = { .flags = DMA_BUF_SYNC_WRITE };
	int dmabuf;

	a.handle = vt_vgem_bo(vgem, 4096);
	if (ioctl(vgem, VT_DRM_IOCTL_VGEM_FENCE_ATTACH, &a))
		vtest_fail(__FILE__, __LINE__, "VGEM_FENCE_ATTACH: %s", strerror(errno));
	f.fence = a.out_fence;
	dmabuf = vt_vgem_dmabuf(vgem, a.handle);
	if (ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &e))
		vtest_fail(__FILE__, __LINE__, "EXPORT_SYNC_FILE: %s", strerror(errno));
	close(dmabuf);
	f.sync_file = e.fd;
	return f;
}

/*
 * Signals the fence.  vgem signals a fence itself 10 s after attaching it
 * and then answers ETIMEDOUT: on a slow machine (the debug kernel beside
 * other VMs) a test can take that long to get here, and the fence is
 * signalled either way.  A test that needs it pending until now checks
 * that on its own.
 */
static inline void vt_vgem_fence_signal(struct vt_vgem_fence *f)
{
	struct vt_vgem_fence_signal s = { .fence = f->fence };

	if (ioctl(f->vgem, VT_DRM_IOCTL_VGEM_FENCE_SIGNAL, &s) && errno != ETIMEDOUT)
		vtest_fail(__FILE__, __LINE__, "VGEM_FENCE_SIGNAL: %s", strerror(errno));
}

/* Puts the fence into syncobj @syncobj of the DRM file @fd. */
static inline void vt_vgem_fence_import(const struct vt_vgem_fence *f, int fd,
					__u32 syncobj)
{
	struct drm_syncobj_handle h = {
		.handle = syncobj,
		.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
		.fd = f->sync_file,
	};

	if (ioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h))
		vtest_fail(__FILE__, __LINE__, "import sync_file: %s", strerror(errno));
}

#endif /* VT_VGEM_H */
