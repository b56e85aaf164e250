// SPDX-License-Identifier: MIT
/*
 * test_isolation.c - another process's memory is out of reach.
 *
 * Process A owns BOs full of a secret pattern, mapped in its VM.  Process
 * B, with its own open file of the same device, tries every path to them:
 *
 * guessed_handles	every handle A could have, through BO_INFO,
 *			BO_MMAP_OFFSET, VM_BIND, PRIME export and GEM_CLOSE:
 *			ENOENT (EINVAL for GEM_CLOSE), A's BOs untouched;
 * guessed_vas		DMA buffers in B's VM reading A's addresses: the
 *			context faults on an unmapped page, nothing copied;
 * mmap_offsets		A's mmap offsets on B's file: refused;
 * stale_handles	A's own handles after GEM_CLOSE: ENOENT everywhere,
 *			and a mapping made before the close keeps working;
 * dmabuf_misuse	imports of what is not a dma-buf, of a closed fd,
 *			of a NO_MMAP BO's dma-buf then mmap: clean errors;
 * recycled_memory	after A frees its BOs and exits, B's new BOs, read
 *			by the CPU and by an engine, hold zeros only, and so
 *			do the page tables of B's new VM.
 */
#define _GNU_SOURCE
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "vtest.h"
#include "vt_exec.h"
#include "vt_mem.h"

#define SECRET		0x5ec2e75ec2e75ec2ull
#define BO_SIZE		(64 * VT_KIB)
#define NBOS		8

/* A BO of the secret, mapped in A's VM and CPU-mapped. */
static struct vt_bo secret_bo(struct vt_dev *d)
{
	struct vt_bo b = vt_bo_new(d, BO_SIZE);

	for (__u64 i = 0; i < BO_SIZE / 8; i++)
		VT_U64P(&b, 0)[i] = SECRET ^ i;
	return b;
}

static bool holds_secret(const volatile __u64 *p, __u64 words)
{
	for (__u64 i = 0; i < words; i++)
		if (p[i] == (SECRET ^ i) || p[i] == SECRET)
			return true;
	return false;
}

VTEST(guessed_handles)
{
	struct vt_dev a = vt_dev_open();
	struct vt_bo bos[NBOS];
	pid_t pid;

	for (int i = 0; i < NBOS; i++)
		bos[i] = secret_bo(&a);
	pid = fork();
	VT_ASSERT(pid >= 0);
	if (pid == 0) {
		struct vt_dev b = vt_dev_open();

		for (__u32 h = 1; h < 4 * NBOS; h++) {
			struct drm_vaccel_bo_info info;
			struct drm_prime_handle p = { .handle = h, .flags = DRM_CLOEXEC };
			__u64 off;

			VT_ASSERT_ERRNO(vt_bo_info_raw(b.fd, h, &info), ENOENT);
			VT_ASSERT_ERRNO(vt_bo_mmap_offset_raw(b.fd, h, &off), ENOENT);
			VT_ASSERT_ERRNO(vt_map_raw(b.fd, h, 0, bos[0].va, BO_SIZE, 0), ENOENT);
			VT_ASSERT_ERRNO(ioctl(b.fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p), ENOENT);
			VT_ASSERT_ERRNO(vt_gem_close_raw(b.fd, h), EINVAL);
		}
		_exit(0);
	}
	vt_wait_child(pid);
	for (int i = 0; i < NBOS; i++)
		VT_ASSERT(holds_secret(VT_U64P(&bos[i], 0), BO_SIZE / 8));
}

VTEST(guessed_vas)
{
	struct vt_dev a = vt_dev_open();
	struct vt_bo s = secret_bo(&a);
	pid_t pid = fork();

	VT_ASSERT(pid >= 0);
	if (pid == 0) {
		struct vt_dev b = vt_dev_open();
		struct vt_cmd cmd;
		struct vt_bo dst;
		__u32 ctx, so;
		struct drm_vaccel_context_state st;

		/* B's own allocator starts where A's did: skip past A's VA. */
		b.next_va = s.va + BO_SIZE + VT_VA_GUARD;
		cmd = vt_cmd_new(&b, 64 * VT_KIB);
		dst = vt_bo_new(&b, BO_SIZE);
		ctx = vt_ctx_create(b.fd, DRM_VACCEL_ENGINE_CLASS_COPY, DRM_VACCEL_ENGINE_ANY);
		so = vt_syncobj(b.fd);
		vt_pkt_copy(&cmd, s.va, dst.va, BO_SIZE);
		vt_submit(b.fd, ctx, &cmd, 0, so);
		vt_syncobj_wait(b.fd, so);
		st = vt_ctx_state(b.fd, ctx);
		VT_ASSERT(st.flags & DRM_VACCEL_CONTEXT_FAULTED);
		VT_ASSERT_EQ(st.fault_reason, DRM_VACCEL_FAULT_UNMAPPED);
		VT_ASSERT_EQ(st.fault_va, s.va);
		VT_ASSERT(!holds_secret(VT_U64P(&dst, 0), BO_SIZE / 8));
		_exit(0);
	}
	vt_wait_child(pid);
	VT_ASSERT(holds_secret(VT_U64P(&s, 0), BO_SIZE / 8));
}

VTEST(mmap_offsets)
{
	struct vt_dev a = vt_dev_open();
	struct vt_bo s = secret_bo(&a);
	__u64 off;
	pid_t pid;

	VT_ASSERT_OK(vt_bo_mmap_offset_raw(a.fd, s.handle, &off));
	pid = fork();
	VT_ASSERT(pid >= 0);
	if (pid == 0) {
		struct vt_dev b = vt_dev_open();
		void *p = mmap(NULL, BO_SIZE, PROT_READ, MAP_SHARED, b.fd, (off_t)off);

		/* The offset is A's: B's file was never allowed it. */
		VT_ASSERT(p == MAP_FAILED);
		VT_ASSERT(errno == EACCES || errno == EINVAL);
		_exit(0);
	}
	vt_wait_child(pid);
}

VTEST(stale_handles)
{
	struct vt_dev a = vt_dev_open();
	struct vt_bo s = secret_bo(&a);
	struct drm_vaccel_bo_info info;
	struct drm_prime_handle p = { .handle = s.handle, .flags = DRM_CLOEXEC };
	struct vt_cmd cmd = vt_cmd_new(&a, 64 * VT_KIB);
	struct vt_bo dst = vt_bo_new(&a, BO_SIZE);
	__u32 ctx = vt_ctx_create(a.fd, DRM_VACCEL_ENGINE_CLASS_COPY, DRM_VACCEL_ENGINE_ANY);
	__u32 so = vt_syncobj(a.fd);
	__u64 off;

	vt_gem_close(a.fd, s.handle);
	VT_ASSERT_ERRNO(vt_bo_info_raw(a.fd, s.handle, &info), ENOENT);
	VT_ASSERT_ERRNO(vt_bo_mmap_offset_raw(a.fd, s.handle, &off), ENOENT);
	VT_ASSERT_ERRNO(vt_map_raw(a.fd, s.handle, 0, vt_va_hole(&a), BO_SIZE, 0), ENOENT);
	VT_ASSERT_ERRNO(ioctl(a.fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p), ENOENT);
	VT_ASSERT_ERRNO(vt_gem_close_raw(a.fd, s.handle), EINVAL);
	/* The GPU mapping keeps the pages: the engine still reads them. */
	vt_pkt_copy(&cmd, s.va, dst.va, BO_SIZE);
	vt_submit(a.fd, ctx, &cmd, 0, so);
	vt_syncobj_wait(a.fd, so);
	vt_expect_not_faulted(a.fd, ctx);
	VT_ASSERT(holds_secret(VT_U64P(&dst, 0), BO_SIZE / 8));
}

VTEST(dmabuf_misuse)
{
	struct vt_dev a = vt_dev_open();
	__u32 h = vt_bo_create(a.fd, BO_SIZE, DRM_VACCEL_BO_NO_MMAP), out;
	int pipefd[2], dmabuf;

	VT_ASSERT_OK(pipe(pipefd));
	/* Not a dma-buf: a pipe, the device file itself, a closed fd. */
	VT_ASSERT_ERRNO(vt_prime_import_raw(a.fd, pipefd[0], &out), EINVAL);
	VT_ASSERT_ERRNO(vt_prime_import_raw(a.fd, a.fd, &out), EINVAL);
	close(pipefd[1]);
	VT_ASSERT_ERRNO(vt_prime_import_raw(a.fd, pipefd[1], &out), EBADF);
	close(pipefd[0]);
	/* A NO_MMAP BO's dma-buf cannot be mapped by the CPU either. */
	dmabuf = vt_prime_export(a.fd, h);
	VT_ASSERT(mmap(NULL, BO_SIZE, PROT_READ, MAP_SHARED, dmabuf, 0) == MAP_FAILED);
	VT_ASSERT_EQ(errno, EPERM);
	close(dmabuf);
}

VTEST(recycled_memory)
{
	pid_t pid = fork();

	VT_ASSERT(pid >= 0);
	if (pid == 0) {
		/* A: a lot of secret, written by the CPU and by an engine, then gone. */
		struct vt_dev a = vt_dev_open();
		struct vt_cmd cmd = vt_cmd_new(&a, 64 * VT_KIB);
		__u32 ctx = vt_ctx_create(a.fd, DRM_VACCEL_ENGINE_CLASS_COPY,
					  DRM_VACCEL_ENGINE_ANY);
		__u32 so = vt_syncobj(a.fd);

		for (int i = 0; i < 4 * NBOS; i++) {
			struct vt_bo s = secret_bo(&a);
			struct vt_bo t = vt_bo_new(&a, BO_SIZE);

			vt_pkt_copy(&cmd, s.va, t.va, BO_SIZE);
		}
		vt_submit(a.fd, ctx, &cmd, 0, so);
		vt_syncobj_wait(a.fd, so);
		_exit(0);
	}
	vt_wait_child(pid);

	{
		/* B: new BOs, read by the CPU, then copied by an engine. */
		struct vt_dev b = vt_dev_open();
		struct vt_cmd cmd = vt_cmd_new(&b, 64 * VT_KIB);
		__u32 ctx = vt_ctx_create(b.fd, DRM_VACCEL_ENGINE_CLASS_COPY,
					  DRM_VACCEL_ENGINE_ANY);
		__u32 so = vt_syncobj(b.fd);
		struct vt_bo fresh[4 * NBOS], seen = vt_bo_new(&b, 4 * NBOS * BO_SIZE);

		for (int i = 0; i < 4 * NBOS; i++) {
			fresh[i] = vt_bo_new(&b, BO_SIZE);
			vt_pkt_copy(&cmd, fresh[i].va, seen.va + i * BO_SIZE, BO_SIZE);
		}
		vt_submit(b.fd, ctx, &cmd, 0, so);
		vt_syncobj_wait(b.fd, so);
		vt_expect_not_faulted(b.fd, ctx);
		for (__u64 i = 0; i < 4 * NBOS * BO_SIZE / 8; i++)
			VT_ASSERT_EQ(VT_U64P(&seen, 0)[i], 0);
		for (int i = 0; i < 4 * NBOS; i++)
			VT_ASSERT(!holds_secret(VT_U64P(&fresh[i], 0), BO_SIZE / 8));
	}
}

VTEST_MAIN()
