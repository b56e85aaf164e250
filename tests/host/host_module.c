// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * host_module.c - libvaccel's kernel modules and launches on the fake
 * device of fake_vaccel.c (LD_PRELOAD), with module_kernel.c built by
 * vaccel-cc: the module loaded, each segment mapped with its permissions
 * and its relocations applied (the image read back through the device),
 * the kernels found, refusals with their errno and message through the
 * library, the print buffer read back, launches and raw DISPATCHes
 * recorded as the fake sees them (argument blocks included, across DMA
 * buffers), every argument error, and the unwinding of failed steps.  The
 * fake runs no kernel: tests/vm/test_kernels.c runs them.
 *
 *	VACCEL_DEVICE_DIR=DIR LD_PRELOAD=fake_vaccel.so host_module MODULE
 *
 * Prints the first failed check on stderr and exits 1, else exits 0.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vaccel.h>
#include <drm/vaccel_accel.h>

#include "host_check.h"
#include "host_lib.h"

#define NR(x)		(DRM_COMMAND_BASE + (x))
#define LOCAL_BASE	0x0100000000000000ull

static unsigned int (*objects)(void);
static void (*fail)(unsigned int nr, int err, unsigned int count);
static void (*fail_after)(unsigned int nr, int err, unsigned int skip);
static unsigned long long (*stat)(const char *name);
static unsigned long long (*last_dispatch)(uint64_t op[10], void *args, size_t len);
static int (*map_flags)(uint64_t va);

static unsigned char *elf;
static size_t elf_size;
static const char *elf_path;

static const Elf64_Phdr *phdr(unsigned int type, unsigned int nth)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf;
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(elf + eh->e_phoff);
	unsigned int i;

	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == type && !nth--)
			return &ph[i];
	CHECK(!"no such program header");
	return NULL;
}

/* The module loaded, its layout, permissions and relocations. */
static void test_load(struct vaccel_device *dev)
{
	char msg[VACCEL_MODULE_MSG_SIZE] = "x";
	unsigned int before = objects(), i, seg;
	struct vaccel_module_info mi;
	struct vaccel_kernel_info ki;
	struct vaccel_kernel *k, *k2;
	struct vaccel_module *mod;
	struct vaccel_queue *q;
	const Elf64_Dyn *d;
	const Elf64_Rela *r = NULL;
	uint64_t relasz = 0, v;
	struct host_buf img;

	CHECK_EQ(vaccel_module_load(dev, elf, elf_size, &mod, msg, sizeof(msg)), 0);
	CHECK_EQ(msg[0], 0);
	CHECK_EQ(vaccel_module_get_info(mod, &mi), 0);
	CHECK_EQ(mi.kernel_count, 2);
	CHECK_EQ(mi.local_size, phdr(0x60766c6d, 0)->p_memsz);
	CHECK_EQ(mi.local_size, 400 + 24);
	CHECK(mi.prints);
	CHECK(mi.va && !(mi.va % 4096));
	CHECK_EQ(mi.size, (phdr(PT_LOAD, 2)->p_vaddr + phdr(PT_LOAD, 2)->p_memsz + 4095) &
			  ~4095ull);
	/* The image and the print buffer. */
	CHECK_EQ(objects(), before + 2);

	/* Kernels by name and index; the same handle each time. */
	CHECK_EQ(vaccel_kernel_get(mod, "mk_fill", &k), 0);
	CHECK_EQ(vaccel_kernel_get(mod, "mk_fill", &k2), 0);
	CHECK(k == k2);
	CHECK_EQ(vaccel_kernel_get(mod, "mk_hello", &k2), 0);
	CHECK(k != k2);
	CHECK_EQ(vaccel_kernel_get(mod, "mk_pick", &k2), -ENOENT);
	CHECK_EQ(vaccel_kernel_get(mod, "", &k2), -ENOENT);
	CHECK_EQ(vaccel_kernel_get(mod, "__vaccel_kernel_mk_fill", &k2), -ENOENT);
	CHECK_EQ(vaccel_kernel_get(NULL, "mk_fill", &k2), -EINVAL);
	CHECK_EQ(vaccel_kernel_get(mod, NULL, &k2), -EINVAL);
	CHECK_EQ(vaccel_kernel_get(mod, "mk_fill", NULL), -EINVAL);
	for (i = 0; i < 2; i++) {
		CHECK_EQ(vaccel_module_get_kernel(mod, i, &k2), 0);
		CHECK_EQ(vaccel_kernel_get_info(k2, &ki), 0);
		CHECK(!strcmp(ki.name, i ? "mk_hello" : "mk_fill"));
	}
	CHECK_EQ(vaccel_module_get_kernel(mod, 2, &k2), -ENOENT);
	CHECK_EQ(vaccel_kernel_get_info(k, &ki), 0);
	CHECK(!strcmp(ki.name, "mk_fill"));
	CHECK_EQ(ki.entry_va, mi.va);		/* the first function of .text */
	CHECK_EQ(ki.local_size, mi.local_size);
	CHECK_EQ(ki.stack_size, VACCEL_DEFAULT_STACK_SIZE);
	CHECK_EQ(vaccel_kernel_get_info(NULL, &ki), -EINVAL);
	CHECK_EQ(vaccel_module_get_info(NULL, &mi), -EINVAL);

	/* Each segment's pages with their permissions, nothing else. */
	for (seg = 0; seg < 3; seg++) {
		const Elf64_Phdr *p = phdr(PT_LOAD, seg);
		int want = p->p_flags & PF_X ? DRM_VACCEL_VM_BIND_READ_ONLY :
			   p->p_flags & PF_W ? DRM_VACCEL_VM_BIND_NO_EXEC :
			   DRM_VACCEL_VM_BIND_READ_ONLY | DRM_VACCEL_VM_BIND_NO_EXEC;

		for (v = p->p_vaddr & ~4095ull; v < p->p_vaddr + p->p_memsz; v += 4096)
			CHECK_EQ(map_flags(mi.va + v), want);
	}
	CHECK_EQ(map_flags(mi.va - 4096), -1);
	CHECK_EQ(map_flags(mi.va + mi.size), -1);

	/* The image read back through the device: contents and relocations. */
	img = host_buf_alloc(dev, mi.size);
	q = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	for (seg = 0; seg < 3; seg++) {
		const Elf64_Phdr *p = phdr(PT_LOAD, seg);

		CHECK_EQ(vaccel_queue_copy(q, img.va + p->p_vaddr, mi.va + p->p_vaddr,
					   p->p_memsz), 0);
	}
	CHECK_EQ(vaccel_queue_finish(q), 0);
	for (d = (const Elf64_Dyn *)(elf + phdr(PT_DYNAMIC, 0)->p_offset);
	     d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_RELA)
			r = (const Elf64_Rela *)(elf + phdr(PT_LOAD, 1)->p_offset +
						 d->d_un.d_ptr - phdr(PT_LOAD, 1)->p_vaddr);
		if (d->d_tag == DT_RELASZ)
			relasz = d->d_un.d_val;
	}
	CHECK(r && relasz >= 5 * sizeof(*r));
	for (i = 0; i < relasz / sizeof(*r); i++) {
		memcpy(&v, img.cpu + r[i].r_offset, 8);
		if ((uint64_t)r[i].r_addend >= LOCAL_BASE)
			CHECK_EQ(v, r[i].r_addend);	/* the device's local base */
		else
			CHECK_EQ(v, mi.va + r[i].r_addend);
	}
	CHECK(!memcmp(img.cpu, elf + phdr(PT_LOAD, 0)->p_offset,
		      phdr(PT_LOAD, 0)->p_filesz));
	CHECK(!memcmp(img.cpu + phdr(PT_LOAD, 1)->p_vaddr, elf + phdr(PT_LOAD, 1)->p_offset,
		      phdr(PT_LOAD, 1)->p_filesz));

	vaccel_queue_destroy(q);
	vaccel_bo_free(img.bo);
	vaccel_module_destroy(mod);
	vaccel_module_destroy(NULL);
	CHECK_EQ(objects(), before);
}

/* Refusals through the library: the parser's errno and message. */
static void test_refusals(struct vaccel_device *dev)
{
	char msg[VACCEL_MODULE_MSG_SIZE];
	unsigned int before = objects();
	/* Not a module: what a failed load must leave in its @out. */
	struct vaccel_module *const none = (struct vaccel_module *)&none;
	struct vaccel_module *mod = none;
	unsigned char *bad = malloc(elf_size);
	Elf64_Phdr *local;
	char path[] = "/tmp/host_module.XXXXXX";
	int fd;

	CHECK(bad);
	memcpy(bad, elf, elf_size);
	((Elf64_Ehdr *)bad)->e_flags |= EF_RISCV_RVC;
	CHECK_EQ(vaccel_module_load(dev, bad, elf_size, &mod, msg, sizeof(msg)), -ENOTSUP);
	CHECK(mod == none);
	CHECK(strstr(msg, "compressed instructions"));
	CHECK_EQ(vaccel_module_load(dev, bad, elf_size, &mod, NULL, 0), -ENOTSUP);
	CHECK(mod == none);
	CHECK_EQ(vaccel_module_load(dev, "\177ELF", 4, &mod, msg, sizeof(msg)), -ENOEXEC);
	CHECK(mod == none);
	CHECK(!strcmp(msg, "not an ELF file"));

	/* More local memory than the device has: the device's refusal. */
	memcpy(bad, elf, elf_size);
	local = (Elf64_Phdr *)(bad + ((const Elf64_Ehdr *)elf)->e_phoff) +
		(phdr(0x60766c6d, 0) - (const Elf64_Phdr *)(elf + ((const Elf64_Ehdr *)elf)->e_phoff));
	local->p_memsz = 65537;
	CHECK_EQ(vaccel_module_load(dev, bad, elf_size, &mod, msg, sizeof(msg)), -E2BIG);
	CHECK(mod == none);
	CHECK(strstr(msg, "65537 bytes of local memory, above the device's 65536"));
	local->p_memsz = 65536;
	CHECK_EQ(vaccel_module_load(dev, bad, elf_size, &mod, msg, sizeof(msg)), 0);
	vaccel_module_destroy(mod);
	mod = none;

	CHECK_EQ(vaccel_module_load(NULL, elf, elf_size, &mod, msg, sizeof(msg)), -EINVAL);
	CHECK(mod == none);
	CHECK(msg[0]);
	CHECK_EQ(vaccel_module_load(dev, NULL, elf_size, &mod, msg, sizeof(msg)), -EINVAL);
	CHECK(mod == none);
	CHECK_EQ(vaccel_module_load(dev, elf, elf_size, NULL, msg, sizeof(msg)), -EINVAL);

	/* From files. */
	CHECK_EQ(vaccel_module_load_file(dev, elf_path, &mod, msg, sizeof(msg)), 0);
	vaccel_module_destroy(mod);
	mod = none;
	CHECK_EQ(vaccel_module_load_file(dev, "/nonexistent/k.elf", &mod, msg, sizeof(msg)),
		 -ENOENT);
	CHECK(mod == none);
	CHECK(strstr(msg, "/nonexistent/k.elf: No such file or directory"));
	CHECK_EQ(vaccel_module_load_file(dev, "/tmp", &mod, msg, sizeof(msg)), -EINVAL);
	CHECK(mod == none);
	CHECK(strstr(msg, "not a regular file"));
	fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK_EQ(vaccel_module_load_file(dev, path, &mod, msg, sizeof(msg)), -ENOEXEC);
	CHECK(mod == none);
	CHECK(strstr(msg, "not an ELF file"));
	CHECK_EQ(write(fd, bad, 100), 100);
	CHECK_EQ(vaccel_module_load_file(dev, path, &mod, msg, sizeof(msg)), -EBADMSG);
	CHECK(mod == none);
	CHECK(strstr(msg, "program headers past the end"));
	close(fd);
	unlink(path);
	CHECK_EQ(vaccel_module_load_file(dev, NULL, &mod, msg, sizeof(msg)), -EINVAL);
	CHECK(mod == none);
	free(bad);
	CHECK_EQ(objects(), before);
}

/* Every step of the load that can fail is undone. */
static void test_unwind(struct vaccel_device *dev)
{
	static const unsigned int steps[] = {
		NR(DRM_VACCEL_BO_CREATE), NR(DRM_VACCEL_VM_BIND),
		NR(DRM_VACCEL_BO_MMAP_OFFSET),
	};
	char msg[VACCEL_MODULE_MSG_SIZE];
	unsigned int before = objects(), i, skip;
	struct vaccel_module *mod;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		/* The image's, then the print buffer's. */
		for (skip = 0; skip < 2; skip++) {
			fail_after(steps[i], ENOMEM, skip);
			CHECK_EQ(vaccel_module_load(dev, elf, elf_size, &mod, msg,
						    sizeof(msg)), -ENOMEM);
			CHECK(strstr(msg, skip ? "cannot allocate the print buffer" :
				     "cannot place the image"));
			fail(0, 0, 0);
			CHECK_EQ(objects(), before);
		}
	}
}

/* What vaccel_launch() records: the packet and its argument block. */
static void test_launch(struct vaccel_device *dev)
{
	struct vaccel_queue *q = host_queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct vaccel_queue *copy = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	const uint32_t grid[3] = { 1000, 3, 2 }, wg[3] = { 64, 2, 1 };
	uint32_t g[3], w[3];
	unsigned char args[VACCEL_LAUNCH_MAX_ARGS + 1], seen[VACCEL_LAUNCH_MAX_ARGS];
	unsigned long long n0, sum0;
	struct vaccel_module_info mi;
	struct vaccel_kernel_info ki;
	struct vaccel_module *mod;
	struct vaccel_kernel *k;
	struct vaccel_device *other;
	uint64_t op[10];
	unsigned int i;

	CHECK_EQ(vaccel_module_load(dev, elf, elf_size, &mod, NULL, 0), 0);
	CHECK_EQ(vaccel_module_get_info(mod, &mi), 0);
	CHECK_EQ(vaccel_kernel_get(mod, "mk_hello", &k), 0);
	CHECK_EQ(vaccel_kernel_get_info(k, &ki), 0);
	for (i = 0; i < sizeof(args); i++)
		args[i] = i * 7 + 1;

	n0 = last_dispatch(op, seen, 0);
	CHECK_EQ(vaccel_launch(q, k, grid, wg, args, 40), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(last_dispatch(op, seen, sizeof(seen)), n0 + 1);
	CHECK_EQ(op[0], ki.entry_va);
	CHECK(op[1] && !(op[1] % 16));
	CHECK(!memcmp(seen, args, 40));
	CHECK_EQ(op[2], 1000);
	CHECK_EQ(op[3], 3);
	CHECK_EQ(op[4], 2);
	CHECK_EQ(op[5], 64);
	CHECK_EQ(op[6], 2);
	CHECK_EQ(op[7], 1);
	CHECK_EQ(op[8], mi.local_size);
	CHECK_EQ(op[9], VACCEL_DEFAULT_STACK_SIZE);

	/* No arguments: a0 is 0; odd sizes; the largest block. */
	CHECK_EQ(vaccel_launch(q, k, grid, wg, NULL, 0), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(last_dispatch(op, seen, sizeof(seen)), n0 + 2);
	CHECK_EQ(op[1], 0);
	CHECK_EQ(vaccel_launch(q, k, grid, wg, args, 13), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	last_dispatch(op, seen, sizeof(seen));
	CHECK(!memcmp(seen, args, 13));
	/* The block's tail is zeros, up to its last word. */
	CHECK_EQ(seen[13] | seen[14] | seen[15], 0);
	CHECK(!(op[1] % 16));
	CHECK_EQ(vaccel_launch(q, k, grid, wg, args, VACCEL_LAUNCH_MAX_ARGS), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	last_dispatch(op, seen, sizeof(seen));
	CHECK(!memcmp(seen, args, VACCEL_LAUNCH_MAX_ARGS));

	/* The stack size, changed; its limits. */
	CHECK_EQ(vaccel_kernel_set_stack_size(k, 8192), 0);
	CHECK_EQ(vaccel_launch(q, k, grid, wg, args, 8), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	last_dispatch(op, seen, sizeof(seen));
	CHECK_EQ(op[9], 8192);
	CHECK_EQ(vaccel_kernel_set_stack_size(k, 0), -EINVAL);
	CHECK_EQ(vaccel_kernel_set_stack_size(k, 8), -EINVAL);
	CHECK_EQ(vaccel_kernel_set_stack_size(k, 24), -EINVAL);
	CHECK_EQ(vaccel_kernel_set_stack_size(k, 65536 + 16), -EINVAL);
	CHECK_EQ(vaccel_kernel_set_stack_size(NULL, 4096), -EINVAL);
	CHECK_EQ(vaccel_kernel_set_stack_size(k, 65536), 0);
	/* 1024 work-items of 64 KiB: 64 MiB of stacks, above 4 MiB. */
	w[0] = 1024, w[1] = 1, w[2] = 1;
	CHECK_EQ(vaccel_launch(q, k, grid, w, args, 8), -EINVAL);
	w[0] = 64;
	CHECK_EQ(vaccel_launch(q, k, grid, w, args, 8), 0);
	CHECK_EQ(vaccel_kernel_set_stack_size(k, 16), 0);
	CHECK_EQ(vaccel_kernel_set_stack_size(k, VACCEL_DEFAULT_STACK_SIZE), 0);

	/* Argument errors record nothing. */
	CHECK_EQ(vaccel_queue_finish(q), 0);
	n0 = stat("dispatches");
	CHECK_EQ(vaccel_launch(q, k, grid, wg, args, VACCEL_LAUNCH_MAX_ARGS + 1), -E2BIG);
	CHECK_EQ(vaccel_launch(q, k, grid, wg, NULL, 8), -EINVAL);
	CHECK_EQ(vaccel_launch(NULL, k, grid, wg, args, 8), -EINVAL);
	CHECK_EQ(vaccel_launch(q, NULL, grid, wg, args, 8), -EINVAL);
	CHECK_EQ(vaccel_launch(q, k, NULL, wg, args, 8), -EINVAL);
	CHECK_EQ(vaccel_launch(q, k, grid, NULL, args, 8), -EINVAL);
	CHECK_EQ(vaccel_launch(copy, k, grid, wg, args, 8), -EINVAL);
	for (i = 0; i < 3; i++) {
		memcpy(g, grid, sizeof(g));
		memcpy(w, wg, sizeof(w));
		g[i] = 0;
		CHECK_EQ(vaccel_launch(q, k, g, wg, args, 8), -EINVAL);
		w[i] = 0;
		CHECK_EQ(vaccel_launch(q, k, grid, w, args, 8), -EINVAL);
		w[i] = 1025;
		CHECK_EQ(vaccel_launch(q, k, grid, w, args, 8), -EINVAL);
	}
	w[0] = 32, w[1] = 32, w[2] = 2;		/* 2048 work-items */
	CHECK_EQ(vaccel_launch(q, k, grid, w, args, 8), -EINVAL);
	w[0] = 32, w[1] = 32, w[2] = 1;		/* 1024: the most */
	CHECK_EQ(vaccel_launch(q, k, grid, w, args, 8), 0);
	/* 2^32 - 1 workgroups along each dimension: 2^96 in all. */
	g[0] = g[1] = g[2] = UINT32_MAX;
	w[0] = w[1] = w[2] = 1;
	CHECK_EQ(vaccel_launch(q, k, g, w, args, 8), -EINVAL);
	g[2] = 1;
	CHECK_EQ(vaccel_launch(q, k, g, w, args, 8), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(stat("dispatches"), n0 + 2);

	/* A kernel of another device handle. */
	CHECK_EQ(vaccel_device_open(0, &other), 0);
	{
		struct vaccel_queue *oq = host_queue(other, VACCEL_ENGINE_CLASS_COMPUTE);

		CHECK_EQ(vaccel_launch(oq, k, grid, wg, args, 8), -EINVAL);
		vaccel_queue_destroy(oq);
	}
	vaccel_device_close(other);

	/*
	 * Many launches, each with its own block, through many DMA buffers:
	 * every DISPATCH reads its own arguments.
	 */
	n0 = stat("dispatches");
	sum0 = stat("dispatch_args_sum");
	for (i = 0; i < 3000; i++) {
		uint64_t a[5] = { i, ~(uint64_t)i, i * 3, 0, i };

		CHECK_EQ(vaccel_launch(q, k, grid, wg, a, sizeof(a) - 8 * (i % 4)), 0);
		if (i % 1000 == 999)
			CHECK_EQ(vaccel_queue_flush(q), 0);
	}
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(stat("dispatches"), n0 + 3000);
	CHECK_EQ(stat("dispatch_args_sum") - sum0, 3000ull * 2999 / 2);

	vaccel_queue_destroy(copy);
	vaccel_queue_destroy(q);
	vaccel_module_destroy(mod);
}

/* vaccel_queue_dispatch(): the raw packet, and its limits. */
static void test_dispatch(struct vaccel_device *dev)
{
	struct vaccel_queue *q = host_queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct vaccel_queue *copy = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	const uint32_t one[3] = { 1, 1, 1 }, grid[3] = { 7, 5, 3 }, wg[3] = { 4, 4, 4 };
	unsigned char seen[16];
	uint64_t op[10];
	unsigned long long n0 = stat("dispatches");
	struct vaccel_device *old;
	struct vaccel_queue *oq;

	CHECK_EQ(vaccel_queue_dispatch(q, 0x10000, 0x1234, grid, wg, 100, 48), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(last_dispatch(op, seen, sizeof(seen)), n0 + 1);
	CHECK_EQ(op[0], 0x10000);
	CHECK_EQ(op[1], 0x1234);
	CHECK_EQ(op[2], 7);
	CHECK_EQ(op[4], 3);
	CHECK_EQ(op[5], 4);
	CHECK_EQ(op[8], 100);
	CHECK_EQ(op[9], 48);

	CHECK_EQ(vaccel_queue_dispatch(q, 0, 0, one, one, 0, 16), -EINVAL);
	CHECK_EQ(vaccel_queue_dispatch(q, 0x10002, 0, one, one, 0, 16), -EINVAL);
	CHECK_EQ(vaccel_queue_dispatch(q, 0x10000, 0, one, one, 65537, 16), -EINVAL);
	CHECK_EQ(vaccel_queue_dispatch(q, 0x10000, 0, one, one, 65536, 16), 0);
	CHECK_EQ(vaccel_queue_dispatch(q, 0x10000, 0, one, one, 0, 0), -EINVAL);
	CHECK_EQ(vaccel_queue_dispatch(q, 0x10000, 0, one, one, 0, 40), -EINVAL);
	CHECK_EQ(vaccel_queue_dispatch(q, 0x10000, 0, one, one, 0, 65552), -EINVAL);
	CHECK_EQ(vaccel_queue_dispatch(q, 0x10000, 0, one, one, 0, 65536), 0);
	CHECK_EQ(vaccel_queue_dispatch(q, 0x10000, 0, NULL, one, 0, 16), -EINVAL);
	CHECK_EQ(vaccel_queue_dispatch(q, 0x10000, 0, one, NULL, 0, 16), -EINVAL);
	CHECK_EQ(vaccel_queue_dispatch(NULL, 0x10000, 0, one, one, 0, 16), -EINVAL);
	CHECK_EQ(vaccel_queue_dispatch(copy, 0x10000, 0, one, one, 0, 16), -EINVAL);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(stat("dispatches"), n0 + 3);
	vaccel_queue_destroy(copy);
	vaccel_queue_destroy(q);

	/* A device before uapi 1.4 runs no kernels. */
	CHECK(!setenv("VT_NO_COMPUTE", "1", 1));
	CHECK_EQ(vaccel_device_open(0, &old), 0);
	oq = host_queue(old, VACCEL_ENGINE_CLASS_COMPUTE);
	CHECK_EQ(vaccel_queue_dispatch(oq, 0x10000, 0, one, one, 0, 16), -ENOTSUP);
	{
		char msg[VACCEL_MODULE_MSG_SIZE];
		struct vaccel_module *mod;

		CHECK_EQ(vaccel_module_load(old, elf, elf_size, &mod, msg, sizeof(msg)),
			 -ENOTSUP);
		CHECK(strstr(msg, "runs no kernels (uapi 1.3"));
	}
	vaccel_queue_destroy(oq);
	vaccel_device_close(old);
	CHECK(!unsetenv("VT_NO_COMPUTE"));
}

/*
 * The print buffer: what the device would append (written here with
 * packets), read back whole or in pieces, the buffer emptied once read,
 * the dropped messages reported.
 */
static void test_print(struct vaccel_device *dev)
{
	struct vaccel_queue *q = host_queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct vaccel_module_info mi;
	struct vaccel_module *mod;
	uint64_t desc[2], print_va;
	struct host_buf b = host_buf_alloc(dev, 8192);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(elf + eh->e_shoff);
	const Elf64_Sym *sym = NULL, *s;
	const char *str = NULL;
	char text[128];
	unsigned int i;

	CHECK_EQ(vaccel_module_load(dev, elf, elf_size, &mod, NULL, 0), 0);
	CHECK_EQ(vaccel_module_get_info(mod, &mi), 0);
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB)
			continue;
		str = (const char *)elf + sh[sh[i].sh_link].sh_offset;
		for (s = (const Elf64_Sym *)(elf + sh[i].sh_offset);
		     s < (const Elf64_Sym *)(elf + sh[i].sh_offset + sh[i].sh_size); s++)
			if (!strcmp(str + s->st_name, "__vaccel_print"))
				sym = s;
	}
	CHECK(sym);

	/* The loader filled the descriptor: the buffer's address and size. */
	CHECK_EQ(vaccel_queue_copy(q, b.va, mi.va + sym->st_value, 16), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	memcpy(desc, b.cpu, 16);
	print_va = desc[0];
	CHECK(print_va);
	CHECK_EQ(desc[1], VACCEL_MODULE_PRINT_SIZE - 8);
	CHECK_EQ(map_flags(print_va), DRM_VACCEL_VM_BIND_NO_EXEC);

	CHECK_EQ(vaccel_module_read_print(mod, text, sizeof(text)), 0);
	CHECK_EQ(text[0], 0);

	/* "hello\nworld\n", 12 bytes, as two messages would leave it. */
	memcpy(b.cpu + 4096, "hello\nworld\n", 12);
	CHECK_EQ(vaccel_queue_copy(q, print_va + 8, b.va + 4096, 12), 0);
	CHECK_EQ(vaccel_queue_write(q, print_va, 12, 32), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(vaccel_module_read_print(mod, text, 5), 4);
	CHECK(!strcmp(text, "hell"));
	CHECK_EQ(vaccel_module_read_print(mod, text, sizeof(text)), 8);
	CHECK(!strcmp(text, "o\nworld\n"));
	CHECK_EQ(vaccel_module_read_print(mod, text, sizeof(text)), 0);
	/* Emptied: the device's counter is 0 again. */
	CHECK_EQ(vaccel_queue_copy(q, b.va, print_va, 8), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(b.w32[0], 0);

	/* Dropped messages: a line says so. */
	CHECK_EQ(vaccel_queue_copy(q, print_va + 8, b.va + 4096, 6), 0);
	CHECK_EQ(vaccel_queue_write(q, print_va, 6 | (3ull << 32), 64), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK(vaccel_module_read_print(mod, text, sizeof(text)) > 6);
	CHECK(!strncmp(text, "hello\n[vaccel_printf: 3 messages dropped", 40));
	CHECK_EQ(vaccel_module_read_print(mod, text, sizeof(text)), 0);

	/*
	 * A buffer too small for the note: the text first, then the note cut
	 * short, and the buffer emptied all the same.
	 */
	CHECK_EQ(vaccel_queue_copy(q, print_va + 8, b.va + 4096, 6), 0);
	CHECK_EQ(vaccel_queue_write(q, print_va, 6 | (3ull << 32), 64), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(vaccel_module_read_print(mod, text, 8), 6);
	CHECK(!strcmp(text, "hello\n"));
	CHECK_EQ(vaccel_module_read_print(mod, text, 8), 7);
	CHECK(!strcmp(text, "[vaccel"));
	CHECK_EQ(vaccel_module_read_print(mod, text, 8), 0);
	CHECK_EQ(text[0], 0);
	memset(b.cpu, 0xff, 8);
	CHECK_EQ(vaccel_queue_copy(q, b.va, print_va, 8), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(b.w32[0], 0);
	CHECK_EQ(b.w32[1], 0);

	/* Dropped messages only, and room for the NUL alone: emptied too. */
	CHECK_EQ(vaccel_queue_write(q, print_va, 5ull << 32, 64), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	text[0] = 'x';
	CHECK_EQ(vaccel_module_read_print(mod, text, 1), 0);
	CHECK_EQ(text[0], 0);
	memset(b.cpu, 0xff, 8);
	CHECK_EQ(vaccel_queue_copy(q, b.va, print_va, 8), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(b.w32[0], 0);
	CHECK_EQ(b.w32[1], 0);
	/* And the next text comes alone, no stale note after it. */
	CHECK_EQ(vaccel_queue_copy(q, print_va + 8, b.va + 4096, 6), 0);
	CHECK_EQ(vaccel_queue_write(q, print_va, 6, 32), 0);
	CHECK_EQ(vaccel_queue_finish(q), 0);
	CHECK_EQ(vaccel_module_read_print(mod, text, sizeof(text)), 6);
	CHECK(!strcmp(text, "hello\n"));
	CHECK_EQ(vaccel_module_read_print(mod, text, sizeof(text)), 0);

	CHECK_EQ(vaccel_module_read_print(mod, text, 0), -EINVAL);
	CHECK_EQ(vaccel_module_read_print(mod, NULL, 10), -EINVAL);
	CHECK_EQ(vaccel_module_read_print(NULL, text, 10), -EINVAL);
	vaccel_queue_destroy(q);
	vaccel_bo_free(b.bo);
	vaccel_module_destroy(mod);
}

int main(int argc, char **argv)
{
	struct vaccel_device *dev;
	unsigned int before;
	FILE *fp;
	long n;

	if (argc != 2) {
		fprintf(stderr, "usage: host_module MODULE\n");
		return 2;
	}
	objects = (unsigned int (*)(void))host_hook("fake_vaccel_objects");
	fail = (void (*)(unsigned int, int, unsigned int))host_hook("fake_vaccel_fail");
	fail_after = (void (*)(unsigned int, int, unsigned int))
		host_hook("fake_vaccel_fail_after");
	stat = (unsigned long long (*)(const char *))host_hook("fake_vaccel_stat");
	last_dispatch = (unsigned long long (*)(uint64_t *, void *, size_t))
		host_hook("fake_vaccel_last_dispatch");
	map_flags = (int (*)(uint64_t))host_hook("fake_vaccel_map_flags");
	CHECK(objects && fail && fail_after && stat && last_dispatch && map_flags);

	elf_path = argv[1];
	fp = fopen(elf_path, "rb");
	CHECK(fp);
	CHECK(!fseek(fp, 0, SEEK_END));
	n = ftell(fp);
	CHECK(n > 0);
	rewind(fp);
	elf_size = n;
	elf = malloc(elf_size);
	CHECK(elf && fread(elf, 1, elf_size, fp) == elf_size);
	fclose(fp);

	CHECK_EQ(vaccel_device_open(0, &dev), 0);
	before = objects();
	test_load(dev);
	test_refusals(dev);
	test_unwind(dev);
	test_launch(dev);
	test_dispatch(dev);
	test_print(dev);
	CHECK_EQ(objects(), before);
	vaccel_device_close(dev);
	free(elf);
	return 0;
}
