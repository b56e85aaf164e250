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
 * This is a model of the uapi contract, not of the driver: the VM tests are
 * the authority.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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
		};

		memcpy(buf, &info, sizeof(info));
		*min = sizeof(info);
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

static int fake_query(struct drm_vaccel_query *q)
{
	unsigned char answer[8 + FAKE_MAX_ENGINES * sizeof(struct drm_vaccel_engine_info)];
	unsigned char zero[4096] = { 0 };
	uint32_t min, n, off;
	size_t size;

	if (q->flags || q->pad || q->type > DRM_VACCEL_QUERY_ENGINES)
		return -EINVAL;
	memset(answer, 0, sizeof(answer));
	size = build_answer(q->type, answer, &min);
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

/* Like drm_ioctl(): zero-extends a short argument, copies back its prefix. */
static int fake_ioctl(unsigned long cmd, void *arg)
{
	union {
		struct drm_version v;
		struct drm_vaccel_query q;
	} k;
	size_t usize = _IOC_SIZE(cmd), ksize;
	int ret;

	if (_IOC_TYPE(cmd) != DRM_IOCTL_BASE)
		return -ENOTTY;
	memset(&k, 0, sizeof(k));
	if (_IOC_NR(cmd) == _IOC_NR(DRM_IOCTL_VERSION))
		ksize = sizeof(k.v);
	else if (_IOC_NR(cmd) == DRM_COMMAND_BASE + DRM_VACCEL_QUERY)
		ksize = sizeof(k.q);
	else
		return -EINVAL;
	if (usize > ksize)
		usize = ksize;
	memcpy(&k, arg, usize);
	if (_IOC_NR(cmd) == _IOC_NR(DRM_IOCTL_VERSION))
		ret = fake_version(&k.v);
	else
		ret = fake_query(&k.q);
	memcpy(arg, &k, usize);
	return ret;
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
	ret = fake_ioctl(request, arg);
	if (ret) {
		errno = -ret;
		return -1;
	}
	return 0;
}
