// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_prime.c - sharing BOs as dma-bufs with the core PRIME ioctls:
 * between processes (a descriptor inherited over fork or passed over a
 * unix socket), between two vaccel devices, and within one file, where
 * importing what the file already has must give back its handle.  Both
 * sides see the same bytes through their CPU mappings and reach the same
 * pages through their GPU mappings (the page identities of debugfs).  A
 * process never reaches another's handles, and has a VM of its own.
 *
 * Needs root (debugfs).  second_device needs two devices
 * (VT_DEVICES >= 2, the plan loads devices=2): with one it passes without
 * checking anything, saying so on stderr.
 */
#include <vaccel.h>

#include "vt_mem.h"

#define PAGES	16
#define SIZE	(PAGES * VT_PAGE)

static __u64 base_va(int fd)
{
	struct drm_vaccel_device_info info;

	vt_device_info(fd, &info);
	return ((info.va_start + VT_MIB - 1) & ~(VT_MIB - 1)) + VT_MIB;
}

/* The GPU page table of @fd maps @pages pages at @va onto pages @phys[]. */
static void pt_phys(int fd, __u64 va, size_t pages, __u64 *phys)
{
	struct vt_pte *t;
	size_t n = vt_page_table(fd, &t), i;

	for (i = 0; i < pages; i++) {
		phys[i] = vt_pte_find(t, n, va + i * VT_PAGE);
		VT_ASSERT(phys[i] & DRM_VACCEL_PTE_VALID);
		phys[i] &= DRM_VACCEL_PTE_ADDR_MASK;
	}
	free(t);
}

/*
 * A child process opens its own file, imports the dma-buf it inherited,
 * and both processes see and change the same memory, through the CPU and
 * through their VMs.
 */
VTEST(fork_inherited_dmabuf)
{
	int fd = vt_open_first();
	__u64 va = base_va(fd), parent_phys[PAGES];
	__u32 h = vt_bo_create(fd, SIZE, 0);
	unsigned char *cpu = vt_bo_mmap(fd, h, SIZE);
	int dmabuf;
	pid_t pid;

	vt_fill_pages(cpu, PAGES, 10);
	vt_map(fd, h, 0, va, SIZE, 0);
	pt_phys(fd, va, PAGES, parent_phys);
	dmabuf = vt_prime_export(fd, h);

	pid = fork();
	if (pid == 0) {
		int cfd = vt_open_first();
		struct drm_vaccel_bo_info info;
		struct drm_vaccel_vm_stats s;
		__u64 child_phys[PAGES];
		unsigned char *ccpu;
		__u32 ch;
		size_t i;

		/* An empty VM of its own, whatever the parent mapped. */
		vt_vm_stats(cfd, &s);
		VT_ASSERT(s.mappings == 0 && s.mapped_bytes == 0);

		ch = vt_prime_import(cfd, dmabuf);
		vt_bo_info(cfd, ch, &info);
		VT_ASSERT(info.size == SIZE);
		/* Same device: the same object, not an import of another's pages. */
		VT_ASSERT_EQ(info.flags & ~DRM_VACCEL_BO_IMPORTED, 0);
		VT_ASSERT_EQ(info.mappings, 0);

		ccpu = vt_bo_mmap(cfd, ch, SIZE);
		VT_ASSERT(!memcmp(ccpu, cpu, SIZE));	/* cpu: inherited mapping */
		vt_map(cfd, ch, 0, va + 4 * VT_MIB, SIZE, DRM_VACCEL_VM_BIND_READ_ONLY);
		vt_check_translation(cfd, va + 4 * VT_MIB, ccpu, PAGES, false, true);
		pt_phys(cfd, va + 4 * VT_MIB, PAGES, child_phys);
		for (i = 0; i < PAGES; i++)
			VT_ASSERT(child_phys[i] == parent_phys[i]);
		vt_bo_info(cfd, ch, &info);
		VT_ASSERT_EQ(info.mappings, 1);

		/* The child writes the last page; the parent will read it. */
		vt_fill_pages(ccpu + (PAGES - 1) * VT_PAGE, 1, 11);
		_exit(0);
	}
	vt_wait_child(pid);

	{
		unsigned char *want = malloc(VT_PAGE);

		VT_ASSERT(want);
		vt_fill_pages(want, 1, 11);
		VT_ASSERT(!memcmp(cpu + (PAGES - 1) * VT_PAGE, want, VT_PAGE));
		free(want);
	}
	vt_check_translation(fd, va, cpu, PAGES, true, true);
	close(dmabuf);
}

/*
 * A child creates a BO, passes its dma-buf over a unix socket and exits:
 * the dma-buf alone keeps the memory, which the parent imports and uses.
 */
VTEST(socket_passed_dmabuf)
{
	int sv[2], fd, dmabuf;
	unsigned char *cpu, *want;
	pid_t pid;
	__u32 h;
	__u64 va;

	VT_ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	pid = fork();
	if (pid == 0) {
		int cfd = vt_open_first();
		__u32 ch = vt_bo_create(cfd, SIZE, 0);
		unsigned char *ccpu = vt_bo_mmap(cfd, ch, SIZE);
		int d;

		vt_fill_pages(ccpu, PAGES, 12);
		vt_map(cfd, ch, 0, base_va(cfd), SIZE, 0);
		d = vt_prime_export(cfd, ch);
		vt_send_fd(sv[1], d);
		_exit(0);
	}
	close(sv[1]);
	dmabuf = vt_recv_fd(sv[0]);
	vt_wait_child(pid);

	fd = vt_open_first();
	va = base_va(fd);
	h = vt_prime_import(fd, dmabuf);
	close(dmabuf);
	cpu = vt_bo_mmap(fd, h, SIZE);
	want = malloc(SIZE);
	VT_ASSERT(want);
	vt_fill_pages(want, PAGES, 12);
	VT_ASSERT(!memcmp(cpu, want, SIZE));
	vt_map(fd, h, 0, va, SIZE, 0);
	vt_check_translation(fd, va, cpu, PAGES, true, true);
	free(want);
}

/*
 * A BO of device 0 imported into device 1: marked imported, the same size,
 * the same bytes both ways through the CPU, and device 1's VM maps the very
 * pages of device 0's BO.
 */
VTEST(second_device)
{
	long long devices = vt_expect("VT_DEVICES", "devices");
	struct drm_vaccel_bo_info info;
	struct vt_dev_mem m1_before, m1;
	int fd0, fd1, dmabuf;
	unsigned char *cpu0, *cpu1;
	__u64 va0, va1, phys0[PAGES], phys1[PAGES];
	__u32 h0, h1;
	size_t i;

	if (devices < 2) {
		fprintf(stderr, "second_device: VT_DEVICES=%lld, nothing to check\n",
			devices);
		return;
	}
	fd0 = vt_open_index(0);
	fd1 = vt_open_index(1);
	va0 = base_va(fd0);
	va1 = base_va(fd1) + 2 * VT_MIB;
	vt_dev_mem(fd1, &m1_before);

	h0 = vt_bo_create(fd0, SIZE, 0);
	cpu0 = vt_bo_mmap(fd0, h0, SIZE);
	vt_fill_pages(cpu0, PAGES, 13);
	vt_map(fd0, h0, 0, va0, SIZE, 0);
	dmabuf = vt_prime_export(fd0, h0);

	h1 = vt_prime_import(fd1, dmabuf);
	vt_bo_info(fd1, h1, &info);
	VT_ASSERT(info.size == SIZE);
	VT_ASSERT_EQ(info.flags, DRM_VACCEL_BO_IMPORTED);
	vt_dev_mem(fd1, &m1);
	VT_ASSERT_EQ(m1.bo_count, m1_before.bo_count + 1);
	VT_ASSERT_EQ(m1.bo_bytes, m1_before.bo_bytes + (long long)SIZE);
	/* Importing it again into the same file: the same handle. */
	VT_ASSERT_EQ(vt_prime_import(fd1, dmabuf), h1);

	cpu1 = vt_bo_mmap(fd1, h1, SIZE);
	VT_ASSERT(!memcmp(cpu1, cpu0, SIZE));
	vt_fill_pages(cpu1 + 3 * VT_PAGE, 1, 14);
	VT_ASSERT(!memcmp(cpu0 + 3 * VT_PAGE, cpu1 + 3 * VT_PAGE, VT_PAGE));

	vt_map(fd1, h1, 4 * VT_PAGE, va1, 8 * VT_PAGE, DRM_VACCEL_VM_BIND_NO_EXEC);
	vt_check_translation(fd1, va1, cpu0 + 4 * VT_PAGE, 8, true, false);
	pt_phys(fd0, va0, PAGES, phys0);
	pt_phys(fd1, va1, 8, phys1);
	for (i = 0; i < 8; i++)
		VT_ASSERT(phys1[i] == phys0[4 + i]);

	/* The import lives on after the exporter lets go of everything. */
	close(dmabuf);
	munmap(cpu0, SIZE);
	vt_unmap(fd0, va0, SIZE);
	vt_gem_close(fd0, h0);
	close(fd0);
	vt_fill_pages(cpu1, 1, 15);
	vt_check_translation(fd1, va1, cpu1 + 4 * VT_PAGE, 8, true, false);

	/* And device 1 gives it back once its handle, map and mapping go. */
	munmap(cpu1, SIZE);
	vt_unmap(fd1, va1, 8 * VT_PAGE);
	vt_gem_close(fd1, h1);
	vt_dev_mem(fd1, &m1);
	VT_ASSERT_EQ(m1.bo_count, m1_before.bo_count);
	VT_ASSERT_EQ(m1.bo_bytes, m1_before.bo_bytes);
}

/* One file, one handle per object: its own exports and repeated imports. */
VTEST(same_dmabuf_same_handle)
{
	int a = vt_open_first(), b = vt_open_first();
	__u32 h = vt_bo_create(a, SIZE, 0), hb;
	int d1, d2, d3;

	d1 = vt_prime_export(a, h);
	d2 = vt_prime_export(a, h);		/* the same dma-buf, another fd */
	d3 = dup(d1);
	VT_ASSERT_EQ(vt_prime_import(a, d1), h);
	VT_ASSERT_EQ(vt_prime_import(a, d2), h);
	VT_ASSERT_EQ(vt_prime_import(a, d3), h);

	hb = vt_prime_import(b, d1);
	VT_ASSERT_EQ(vt_prime_import(b, d1), hb);
	VT_ASSERT_EQ(vt_prime_import(b, d2), hb);
	VT_ASSERT_EQ(vt_prime_import(b, d3), hb);

	/* One handle, one close. */
	vt_gem_close(b, hb);
	VT_ASSERT_ERRNO(vt_gem_close_raw(b, hb), EINVAL);
	VT_ASSERT_ERRNO(vt_bo_info_raw(b, hb, &(struct drm_vaccel_bo_info){ 0 }), ENOENT);
	/* Imported again afterwards, it is back. */
	hb = vt_prime_import(b, d2);
	vt_map(b, hb, 0, base_va(b), SIZE, 0);
	close(d1);
	close(d2);
	close(d3);
}

/* A dma-buf maps for the CPU like its BO, and refuses as a NO_MMAP BO does. */
VTEST(dmabuf_mmap)
{
	int fd = vt_open_first(), d, dn;
	__u32 h = vt_bo_create(fd, SIZE, 0);
	__u32 hn = vt_bo_create(fd, SIZE, DRM_VACCEL_BO_NO_MMAP);
	unsigned char *cpu = vt_bo_mmap(fd, h, SIZE), *dm;

	vt_fill_pages(cpu, PAGES, 17);
	d = vt_prime_export(fd, h);
	dm = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, d, 0);
	VT_ASSERT(dm != MAP_FAILED);
	VT_ASSERT(!memcmp(dm, cpu, SIZE));
	dm[5] ^= 0xff;
	VT_ASSERT(cpu[5] == dm[5]);

	dn = vt_prime_export(fd, hn);
	errno = 0;
	VT_ASSERT(mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, dn, 0) == MAP_FAILED);
	VT_ASSERT_EQ(errno, EPERM);
}

/* Not a dma-buf, or not a descriptor at all. */
VTEST(import_errors)
{
	int fd = vt_open_first(), null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	__u32 h = 0x1234;

	VT_ASSERT(null >= 0);
	VT_ASSERT_ERRNO(vt_prime_import_raw(fd, null, &h), EINVAL);
	VT_ASSERT_ERRNO(vt_prime_import_raw(fd, fd, &h), EINVAL);
	VT_ASSERT_ERRNO(vt_prime_import_raw(fd, 1000000, &h), EBADF);
	VT_ASSERT_ERRNO(vt_prime_import_raw(fd, -1, &h), EBADF);
	VT_ASSERT_EQ(h, 0x1234);
}

/* libvaccel: importing its own export returns the same buffer, counted. */
VTEST(libvaccel_own_import)
{
	struct vaccel_device *dev, *dev2;
	struct vaccel_bo *bo, *again, *other;
	struct vaccel_vm_stats s;
	unsigned char *p, *q;
	int dmabuf;

	VT_ASSERT_OK(vaccel_device_open(0, &dev));
	VT_ASSERT_OK(vaccel_bo_alloc(dev, SIZE, 0, &bo));
	VT_ASSERT_OK(vaccel_bo_map(bo, (void **)&p));
	vt_fill_pages(p, PAGES, 16);
	VT_ASSERT_OK(vaccel_bo_export(bo, &dmabuf));
	VT_ASSERT(fcntl(dmabuf, F_GETFD) & FD_CLOEXEC);

	VT_ASSERT_OK(vaccel_bo_import(dev, dmabuf, &again));
	VT_ASSERT(again == bo);
	VT_ASSERT_OK(vaccel_device_vm_stats(dev, &s));
	VT_ASSERT(s.mappings == 1 && s.mapped_bytes == SIZE);

	/* Another handle on the same node: its own buffer and VM. */
	VT_ASSERT_OK(vaccel_device_open_path(vaccel_device_path(dev), &dev2));
	VT_ASSERT_OK(vaccel_bo_import(dev2, dmabuf, &other));
	VT_ASSERT(other != bo);
	VT_ASSERT(vaccel_bo_size(other) == SIZE);
	VT_ASSERT_OK(vaccel_bo_map(other, (void **)&q));
	VT_ASSERT(!memcmp(p, q, SIZE));
	vt_check_translation(vaccel_device_fd(dev2), vaccel_bo_va(other), p, PAGES,
			     true, true);
	vaccel_bo_free(other);
	vaccel_device_close(dev2);

	/* The first free drops the import's reference only. */
	vaccel_bo_free(again);
	VT_ASSERT_OK(vaccel_device_vm_stats(dev, &s));
	VT_ASSERT(s.mappings == 1);
	vt_check_translation(vaccel_device_fd(dev), vaccel_bo_va(bo), p, PAGES, true, true);
	vaccel_bo_free(bo);
	VT_ASSERT_OK(vaccel_device_vm_stats(dev, &s));
	VT_ASSERT(s.mappings == 0 && s.mapped_bytes == 0);
	close(dmabuf);
	vaccel_device_close(dev);
}

/*
 * Process B cannot use process A's handles, and sees an empty VM of its
 * own while A has mappings.
 */
VTEST(handles_are_per_process)
{
	int fd = vt_open_first();
	__u64 va = base_va(fd);
	__u32 h1 = vt_bo_create(fd, SIZE, 0), h2 = vt_bo_create(fd, SIZE, 0);
	pid_t pid;

	vt_map(fd, h1, 0, va, SIZE, 0);
	vt_map(fd, h2, 0, va + SIZE, SIZE, 0);
	pid = fork();
	if (pid == 0) {
		int bfd = vt_open_first();
		struct drm_vaccel_bo_info info;
		struct drm_vaccel_vm_stats s;
		struct vt_pte *t;
		__u32 hs[2] = { h1, h2 };
		__u64 off;
		int i;

		for (i = 0; i < 2; i++) {
			VT_ASSERT_ERRNO(vt_bo_info_raw(bfd, hs[i], &info), ENOENT);
			VT_ASSERT_ERRNO(vt_bo_mmap_offset_raw(bfd, hs[i], &off), ENOENT);
			VT_ASSERT_ERRNO(vt_map_raw(bfd, hs[i], 0, va, SIZE, 0), ENOENT);
			VT_ASSERT_ERRNO(vt_gem_close_raw(bfd, hs[i]), EINVAL);
			VT_ASSERT_ERRNO(ioctl(bfd, DRM_IOCTL_PRIME_HANDLE_TO_FD,
					      &(struct drm_prime_handle){ .handle = hs[i],
									  .flags = DRM_CLOEXEC }),
					ENOENT);
		}
		vt_vm_stats(bfd, &s);
		VT_ASSERT(s.mappings == 0 && s.mapped_bytes == 0);
		VT_ASSERT_EQ(vt_page_table(bfd, &t), 0);
		free(t);
		/* B maps its own BO at A's address. */
		vt_map(bfd, vt_bo_create(bfd, SIZE, 0), 0, va, SIZE, 0);
		_exit(0);
	}
	vt_wait_child(pid);
	/* A's handles and mappings are untouched. */
	VT_ASSERT_EQ(vt_map_raw(fd, h1, 0, va, SIZE, 0), -1);
	VT_ASSERT_EQ(errno, EEXIST);
	{
		struct drm_vaccel_vm_stats s;

		vt_vm_stats(fd, &s);
		VT_ASSERT(s.mappings == 2 && s.mapped_bytes == 2 * SIZE);
	}
}

VTEST_MAIN()
