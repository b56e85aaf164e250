// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_foreign.c - dma-bufs of other drivers imported into vaccel: udmabuf
 * over a plain memfd, over a hugetlb memfd and over a memfd of transparent
 * huge pages, and vgem's buffers.  In each case the import is a BO flagged
 * IMPORTED of the dma-buf's size, and the engines reach exactly the memory
 * the exporter's CPU mapping shows, page by page and in order: the CPU
 * writes a word unique to each page and a COPY brings every page back
 * intact, then the engines write a word into each page and the CPU finds
 * it there.  The kernel log must stay clean (the VM runner checks): the
 * importer reads the DMA addresses of the mapping, never the exporter's
 * struct pages, which a hugetlb or THP udmabuf once made it WARN about.
 * debugfs's page table shows none of the frames pagemap gives for the
 * udmabuf's pages, only identities that two mappings of a page share.
 *
 * Needs root (hugetlb pages, the THP knob), /dev/udmabuf, vgem, and a
 * topology with a COMPUTE engine.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <linux/udmabuf.h>

#include "vt_exec.h"
#include "vt_vgem.h"

#define COMPUTE	DRM_VACCEL_ENGINE_CLASS_COMPUTE
#define SIZE	(4 * VT_MIB)
#define PAGES	(SIZE / VT_PAGE)

/* The word the CPU, then the engines, put at the start of page @i. */
#define CPU_WORD(i)	(0xc0de000000000000ull | (i))
#define GPU_WORD(i)	(0x5eed0000u | (i))

static int write_knob(const char *path, const char *value, char *old, size_t len)
{
	FILE *f = fopen(path, "r");

	if (old) {
		old[0] = 0;
		if (!f || !fgets(old, (int)len, f)) {
			if (f)
				fclose(f);
			return -1;
		}
		old[strcspn(old, "\n")] = 0;
		/* "always [advise] never": the choice is in brackets. */
		if (strchr(old, '[')) {
			char *s = strchr(old, '[') + 1;

			memmove(old, s, strcspn(s, "]"));
			old[strcspn(s, "]")] = 0;
		}
	}
	if (f)
		fclose(f);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(value, f);
	return fclose(f);
}

/* A sealed memfd of SIZE bytes, shared-mapped for the CPU. */
static int memfd_new(unsigned int flags, void **cpu, bool thp)
{
	int fd = memfd_create("vt-foreign", MFD_ALLOW_SEALING | flags);

	if (fd < 0)
		vtest_fail(__FILE__, __LINE__, "memfd_create: %s", strerror(errno));
	VT_ASSERT_OK(ftruncate(fd, SIZE));
	VT_ASSERT(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) == 0);
	*cpu = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	VT_ASSERT(*cpu != MAP_FAILED);
	if (thp)
		VT_ASSERT_OK(madvise(*cpu, SIZE, MADV_HUGEPAGE));
	memset(*cpu, 0, SIZE);
	return fd;
}

static int udmabuf_of(int memfd)
{
	struct udmabuf_create c = { .memfd = memfd, .flags = UDMABUF_FLAGS_CLOEXEC,
				    .size = SIZE };
	int dev = open("/dev/udmabuf", O_RDWR), dmabuf;

	if (dev < 0)
		vtest_fail(__FILE__, __LINE__, "/dev/udmabuf: %s", strerror(errno));
	dmabuf = ioctl(dev, UDMABUF_CREATE, &c);
	if (dmabuf < 0)
		vtest_fail(__FILE__, __LINE__, "UDMABUF_CREATE: %s", strerror(errno));
	close(dev);
	return dmabuf;
}

/*
 * Imports @dmabuf, whose CPU view is @cpu, and checks both directions page
 * by page.
 */
static void check_import(int dmabuf, volatile unsigned char *cpu)
{
	struct vt_dev d = vt_dev_open();
	struct vt_cmd c = vt_cmd_new(&d, 64 * VT_KIB);
	struct vt_bo copy = vt_bo_new(&d, SIZE);
	__u32 ctx = vt_ctx_create(d.fd, COMPUTE, 0);
	struct drm_vaccel_bo_info info = {};
	__u32 h = vt_prime_import(d.fd, dmabuf);
	__u64 va = vt_va_alloc(&d, SIZE);
	unsigned int i;

	info.handle = h;
	VT_ASSERT_OK(ioctl(d.fd, DRM_IOCTL_VACCEL_BO_INFO, &info));
	VT_ASSERT(info.flags & DRM_VACCEL_BO_IMPORTED);
	VT_ASSERT_EQ(info.size, SIZE);
	vt_map(d.fd, h, 0, va, SIZE, 0);

	for (i = 0; i < PAGES; i++)
		*(volatile __u64 *)(cpu + (size_t)i * VT_PAGE + 8) = CPU_WORD(i);
	vt_pkt_copy(&c, va, copy.va, SIZE);
	vt_run(d.fd, ctx, &c);
	for (i = 0; i < PAGES; i++)
		if (VT_U64(&copy, (size_t)i * VT_PAGE + 8) != CPU_WORD(i))
			vtest_fail(__FILE__, __LINE__, "page %u: the engine read 0x%llx", i,
				   (unsigned long long)VT_U64(&copy, (size_t)i * VT_PAGE + 8));

	for (i = 0; i < PAGES; i++)
		vt_pkt_write32(&c, va + (size_t)i * VT_PAGE, GPU_WORD(i));
	vt_run(d.fd, ctx, &c);
	for (i = 0; i < PAGES; i++)
		if (*(volatile __u32 *)(cpu + (size_t)i * VT_PAGE) != GPU_WORD(i))
			vtest_fail(__FILE__, __LINE__, "page %u: the CPU found 0x%x", i,
				   *(volatile __u32 *)(cpu + (size_t)i * VT_PAGE));
	vt_expect_not_faulted(d.fd, ctx);
	vt_unmap(d.fd, va, SIZE);
	vt_gem_close(d.fd, h);
}

VTEST(udmabuf_plain_memfd)
{
	void *cpu;
	int memfd = memfd_new(0, &cpu, false), dmabuf = udmabuf_of(memfd);

	check_import(dmabuf, cpu);
	close(dmabuf);
	munmap(cpu, SIZE);
	close(memfd);
}

/* Two 2 MiB hugetlb pages: each spans 512 of vaccel's pages. */
VTEST(udmabuf_hugetlb_memfd)
{
	char old[32];
	void *cpu;
	int memfd, dmabuf;

	VT_ASSERT_OK(write_knob("/proc/sys/vm/nr_hugepages", "4", old, sizeof(old)));
	memfd = memfd_new(MFD_HUGETLB, &cpu, false);
	dmabuf = udmabuf_of(memfd);
	check_import(dmabuf, cpu);
	close(dmabuf);
	munmap(cpu, SIZE);
	close(memfd);
	write_knob("/proc/sys/vm/nr_hugepages", old, NULL, 0);
}

/* A shmem memfd backed by transparent huge pages where it could get them. */
VTEST(udmabuf_thp_memfd)
{
	const char *knob = "/sys/kernel/mm/transparent_hugepage/shmem_enabled";
	char old[32], line[256];
	unsigned long long huge_kb = 0;
	FILE *smaps;
	void *cpu;
	int memfd, dmabuf;

	VT_ASSERT_OK(write_knob(knob, "advise", old, sizeof(old)));
	memfd = memfd_new(0, &cpu, true);
	/* Say whether huge pages were had: the check holds either way. */
	smaps = fopen("/proc/self/smaps_rollup", "r");
	while (smaps && fgets(line, sizeof(line), smaps))
		sscanf(line, "ShmemPmdMapped: %llu kB", &huge_kb);
	if (smaps)
		fclose(smaps);
	printf("# udmabuf_thp_memfd: %llu kB of the memfd in huge pages\n", huge_kb);
	dmabuf = udmabuf_of(memfd);
	check_import(dmabuf, cpu);
	close(dmabuf);
	munmap(cpu, SIZE);
	close(memfd);
	write_knob(knob, old, NULL, 0);
}

/* The physical frame behind @addr, from /proc/self/pagemap (root). */
static __u64 pfn_of(const void *addr)
{
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	__u64 entry = 0;

	VT_ASSERT(fd >= 0);
	VT_ASSERT_EQ(pread(fd, &entry, 8, (uintptr_t)addr / VT_PAGE * 8), 8);
	close(fd);
	VT_ASSERT(entry & (1ull << 63));
	entry &= (1ull << 55) - 1;
	VT_ASSERT(entry);
	return entry;
}

/*
 * debugfs page_table names the pages, never where they are: the frames of
 * a udmabuf's pages, which pagemap shows, are nowhere in it, and two
 * mappings of one page show the same identity.
 */
VTEST(debugfs_shows_no_physical_address)
{
	void *cpu;
	int memfd = memfd_new(0, &cpu, false), dmabuf = udmabuf_of(memfd);
	struct vt_dev d = vt_dev_open();
	__u32 h = vt_prime_import(d.fd, dmabuf);
	__u64 va = vt_va_alloc(&d, SIZE), va2 = vt_va_alloc(&d, SIZE);
	struct vt_pte *t;
	unsigned int i;
	size_t n;

	vt_map(d.fd, h, 0, va, SIZE, 0);
	vt_map(d.fd, h, 0, va2, SIZE, 0);
	n = vt_page_table(d.fd, &t);
	for (i = 0; i < PAGES; i++) {
		__u64 pte = vt_pte_find(t, n, va + (__u64)i * VT_PAGE);
		__u64 frame = pte & DRM_VACCEL_PTE_ADDR_MASK;

		VT_ASSERT(pte & DRM_VACCEL_PTE_VALID);
		if (frame == pfn_of((char *)cpu + (size_t)i * VT_PAGE) << 12)
			vtest_fail(__FILE__, __LINE__,
				   "page %u: debugfs shows its physical address 0x%llx", i,
				   (unsigned long long)frame);
		VT_ASSERT_EQ(vt_pte_find(t, n, va2 + (__u64)i * VT_PAGE), pte);
	}
	free(t);
	vt_unmap(d.fd, va, SIZE);
	vt_unmap(d.fd, va2, SIZE);
	vt_gem_close(d.fd, h);
	close(dmabuf);
	munmap(cpu, SIZE);
	close(memfd);
}

VTEST(vgem_buffer)
{
	int vgem = vt_vgem_require(), dmabuf;
	__u32 h = vt_vgem_bo(vgem, SIZE);
	struct drm_mode_map_dumb m = { .handle = h };
	void *cpu;

	VT_ASSERT_OK(ioctl(vgem, DRM_IOCTL_MODE_MAP_DUMB, &m));
	cpu = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, vgem, m.offset);
	VT_ASSERT(cpu != MAP_FAILED);
	memset(cpu, 0, SIZE);
	dmabuf = vt_vgem_dmabuf(vgem, h);
	check_import(dmabuf, cpu);
	close(dmabuf);
	munmap(cpu, SIZE);
	close(vgem);
}

VTEST_MAIN()
