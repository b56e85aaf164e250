// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_kernels.c - compute kernels through libvaccel end to end: modules
 * built by vaccel-cc (tests/vm/kernels/kernels.c and the four examples'
 * kernels, embedded in this program) loaded, launched, waited for and
 * their results compared with the CPU's.
 *
 * - vaccel_kernel.h: the work-item functions in three dimensions with
 *   partial workgroups, local memory and barriers, every atomic on global
 *   and local memory, exact floating point, the stack;
 * - the device runtime: memcpy and friends, vaccel_printf() read back;
 * - the loader: relocations of code, read-only data and data pointers at
 *   the module's address, the local objects at the local aperture, each
 *   segment mapped with its permissions (debugfs), and what they forbid
 *   faulting (a write to the argument block or to code, a jump into
 *   data); refusals on the device with their errno and message; nothing
 *   left behind by a failed load or by many modules;
 * - the launch: argument blocks across DMA buffers and threads, every
 *   argument error, the stack size;
 * - the examples' kernels (vadd, saxpy, matmul, reduce) with other sizes
 *   than the examples use.
 *
 * Needs root (debugfs); the default topology.
 */
#include <elf.h>
#include <math.h>
#include <pthread.h>

#include <vaccel.h>

#include "vt_mem.h"
#include "kernels/kernels.h"
#include "../../umd/examples/matmul.h"
#include "../../umd/examples/reduce.h"
#include "../../umd/examples/saxpy.h"
#include "../../umd/examples/vadd.h"

/* The modules, embedded: VT_KERNELS and VT_EXAMPLES come from the Makefile. */
VT_INCBIN(tk_module, VT_KERNELS "/kernels.elf");
VT_INCBIN(vadd_module, VT_EXAMPLES "/vadd.elf");
VT_INCBIN(saxpy_module, VT_EXAMPLES "/saxpy.elf");
VT_INCBIN(matmul_module, VT_EXAMPLES "/matmul.elf");
VT_INCBIN(reduce_module, VT_EXAMPLES "/reduce.elf");


struct buf {
	struct vaccel_bo *bo;
	void *cpu;
	uint64_t va;
	uint64_t size;
};

static struct vaccel_device *open_dev(void)
{
	struct vaccel_device *dev;

	VT_ASSERT_OK(vaccel_device_open(0, &dev));
	return dev;
}

static struct buf buf_new(struct vaccel_device *dev, uint64_t size)
{
	struct buf b = { .size = size };

	VT_ASSERT_OK(vaccel_bo_alloc(dev, size, VACCEL_BO_GPU_NO_EXEC, &b.bo));
	VT_ASSERT_OK(vaccel_bo_map(b.bo, &b.cpu));
	b.va = vaccel_bo_va(b.bo);
	memset(b.cpu, 0, size);
	return b;
}

static struct vaccel_queue *compute_queue(struct vaccel_device *dev)
{
	struct vaccel_queue *q;

	VT_ASSERT_OK(vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COMPUTE,
					 VACCEL_PRIORITY_NORMAL, &q));
	return q;
}

static struct vaccel_module *load(struct vaccel_device *dev, const void *image,
				  size_t size)
{
	char msg[VACCEL_MODULE_MSG_SIZE];
	struct vaccel_module *mod;
	int ret;

	ret = vaccel_module_load(dev, image, size, &mod, msg, sizeof(msg));
	if (ret)
		vtest_fail(__FILE__, __LINE__, "load: %s: %s", strerror(-ret), msg);
	VT_ASSERT_EQ(msg[0], 0);
	return mod;
}

static struct vaccel_kernel *kernel(struct vaccel_module *mod, const char *name)
{
	struct vaccel_kernel *k;

	VT_ASSERT_OK(vaccel_kernel_get(mod, name, &k));
	return k;
}

/* Launches @name of @mod over a 1-D grid with struct tk_args and waits. */
static void run1(struct vaccel_queue *q, struct vaccel_module *mod, const char *name,
		 uint32_t items, uint32_t wg, const struct tk_args *args)
{
	const uint32_t grid[3] = { items, 1, 1 }, w[3] = { wg, 1, 1 };

	VT_ASSERT_OK(vaccel_launch(q, kernel(mod, name), grid, w, args, sizeof(*args)));
	VT_ASSERT_OK(vaccel_queue_finish(q));
}

/* --- vaccel_kernel.h --- */

/* A 3-D grid of 10 x 6 x 3 in workgroups of 4 x 4 x 2: partial at the edges. */
VTEST(work_item_functions)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = compute_queue(dev);
	struct vaccel_module *mod = load(dev, VT_MODULE(tk_module));
	const uint32_t grid[3] = { 10, 6, 3 }, wg[3] = { 4, 4, 2 };
	struct buf out = buf_new(dev, 10 * 6 * 3 * sizeof(struct tk_ids));
	struct tk_args args = { .out = out.va, .dim = 3 };
	struct tk_ids *ids = out.cpu;
	unsigned int x, y, z, d;

	VT_ASSERT_OK(vaccel_launch(q, kernel(mod, "tk_ids"), grid, wg, &args, sizeof(args)));
	VT_ASSERT_OK(vaccel_queue_finish(q));
	for (z = 0; z < 3; z++)
		for (y = 0; y < 6; y++)
			for (x = 0; x < 10; x++) {
				const struct tk_ids *o = &ids[(z * 6 + y) * 10 + x];
				unsigned int g[3] = { x, y, z };

				for (d = 0; d < 3; d++) {
					VT_ASSERT_EQ(o->global_id[d], g[d]);
					VT_ASSERT_EQ(o->local_id[d], g[d] % wg[d]);
					VT_ASSERT_EQ(o->group_id[d], g[d] / wg[d]);
					VT_ASSERT_EQ(o->local_size[d], wg[d]);
					VT_ASSERT_EQ(o->num_groups[d], (grid[d] + wg[d] - 1) / wg[d]);
					VT_ASSERT_EQ(o->global_size[d], grid[d]);
				}
				VT_ASSERT_EQ(o->flat_local_id, x % 4 + 4 * (y % 4) + 16 * (z % 2));
				VT_ASSERT_EQ(o->past_dims, 1);
			}
	vaccel_bo_free(out.bo);
	vaccel_module_destroy(mod);
	vaccel_queue_destroy(q);
	vaccel_device_close(dev);
}

/*
 * Local memory: the module's local objects are at the device's local
 * base, the launch gives the module's local size, and a barrier makes
 * every work-item's store visible to the others.
 */
VTEST(local_memory_and_barriers)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = compute_queue(dev);
	struct vaccel_module *mod = load(dev, VT_MODULE(tk_module));
	struct buf out = buf_new(dev, 1024 * 8 * 4);
	struct tk_args args = { .out = out.va };
	struct vaccel_device_info info;
	struct vaccel_module_info mi;
	struct tk_local_info li;
	uint32_t *o = out.cpu;
	unsigned int g, l;

	VT_ASSERT_OK(vaccel_device_get_info(dev, &info));
	VT_ASSERT_OK(vaccel_module_get_info(mod, &mi));
	VT_ASSERT(mi.local_size >= 1024 * 4 + sizeof(struct tk_atoms));
	run1(q, mod, "tk_local_info", 1, 1, &args);
	memcpy(&li, out.cpu, sizeof(li));
	VT_ASSERT_EQ(li.base, info.local_base);
	VT_ASSERT_EQ(li.size, mi.local_size);
	VT_ASSERT(li.mirror >= li.base && li.mirror + 4096 <= li.base + li.size);
	VT_ASSERT(li.atoms >= li.base &&
		  li.atoms + sizeof(struct tk_atoms) <= li.base + li.size);

	/* Workgroups of 1024, the most, and of 100. */
	run1(q, mod, "tk_mirror", 1024 * 8, 1024, &args);
	for (g = 0; g < 8; g++)
		for (l = 0; l < 1024; l++)
			VT_ASSERT_EQ(o[g * 1024 + l], (1023 - l) * 3 + g);
	run1(q, mod, "tk_mirror", 700, 100, &args);
	for (g = 0; g < 7; g++)
		for (l = 0; l < 100; l++)
			VT_ASSERT_EQ(o[g * 100 + l], (99 - l) * 3 + g);
	vaccel_bo_free(out.bo);
	vaccel_module_destroy(mod);
	vaccel_queue_destroy(q);
	vaccel_device_close(dev);
}

static void atoms_expect(struct tk_atoms *t, uint32_t first, uint32_t n)
{
	uint32_t i;

	memset(t, 0, sizeof(*t));
	t->and_ = ~0u;
	t->smin = INT32_MAX;
	t->smax = INT32_MIN;
	t->umin = UINT32_MAX;
	for (i = first; i < first + n; i++) {
		t->add += (int32_t)i;
		t->sub -= (int32_t)i;
		t->and_ &= ~(1u << (i % 32));
		t->or_ |= 1u << (i % 32);
		t->xor_ ^= i * 2654435761u;
		if ((int32_t)i - 500 < t->smin)
			t->smin = (int32_t)i - 500;
		if ((int32_t)(i * 7 % 1000) - 300 > t->smax)
			t->smax = (int32_t)(i * 7 % 1000) - 300;
		if (i * 3 + 5 < t->umin)
			t->umin = i * 3 + 5;
		if ((i ^ 0x5a5a) > t->umax)
			t->umax = i ^ 0x5a5a;
		t->cas++;
		t->fsum += 0.25f;
		t->add64 += (uint64_t)i << 32 | 1;
	}
}

static void atoms_check(const struct tk_atoms *got, uint32_t first, uint32_t n)
{
	struct tk_atoms want;

	atoms_expect(&want, first, n);
	VT_ASSERT_EQ(got->add, want.add);
	VT_ASSERT_EQ(got->sub, want.sub);
	VT_ASSERT_EQ(got->and_, want.and_);
	VT_ASSERT_EQ(got->or_, want.or_);
	VT_ASSERT_EQ(got->xor_, want.xor_);
	VT_ASSERT_EQ(got->smin, want.smin);
	VT_ASSERT_EQ(got->smax, want.smax);
	VT_ASSERT_EQ(got->umin, want.umin);
	VT_ASSERT_EQ(got->umax, want.umax);
	VT_ASSERT(got->xchg >= first + 1 && got->xchg <= first + n);
	VT_ASSERT_EQ(got->cas, want.cas);
	VT_ASSERT(got->fsum == want.fsum);
	VT_ASSERT(got->add64 == want.add64);
}

/* Every atomic, on global memory (all work-items) and local (per group). */
VTEST(atomics_global_and_local)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = compute_queue(dev);
	struct vaccel_module *mod = load(dev, VT_MODULE(tk_module));
	struct buf out = buf_new(dev, 4096), groups = buf_new(dev, 16 * sizeof(struct tk_atoms));
	struct tk_args args = { .out = out.va, .in = groups.va };
	struct tk_atoms *g = out.cpu;
	unsigned int i;

	atoms_expect(g, 0, 0);
	/* 1000 work-items in 8 workgroups of 128, the last partial. */
	run1(q, mod, "tk_atomics", 1000, 128, &args);
	atoms_check(g, 0, 1000);
	for (i = 0; i < 8; i++)
		atoms_check((struct tk_atoms *)groups.cpu + i, i * 128, i < 7 ? 128 : 1000 - 7 * 128);
	vaccel_bo_free(groups.bo);
	vaccel_bo_free(out.bo);
	vaccel_module_destroy(mod);
	vaccel_queue_destroy(q);
	vaccel_device_close(dev);
}

/* IEEE 754 arithmetic, bit for bit what the CPU computes. */
VTEST(floating_point_exact)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = compute_queue(dev);
	struct vaccel_module *mod = load(dev, VT_MODULE(tk_module));
	struct buf out = buf_new(dev, 512 * sizeof(struct tk_fp));
	struct tk_args args = { .out = out.va };
	struct tk_fp *f = out.cpu, w;
	unsigned int i;

	srand(11);
	for (i = 0; i < 512; i++) {
		f[i].a = (float)(rand() - RAND_MAX / 2) / 3e5f;
		f[i].b = (float)(rand() - RAND_MAX / 2) / 7e3f + (i == 7 ? 0 : 1e-3f);
		f[i].c = (float)rand() / 1e9f;
		f[i].da = (double)(rand() - RAND_MAX / 2) / 3.0e-2;
		f[i].db = (double)rand() / 7.0e5 - 1000.0;
	}
	f[3].a = 0.0f / 0.0f;		/* NaN */
	f[5].b = -0.0f;
	run1(q, mod, "tk_fp", 512, 64, &args);
	for (i = 0; i < 512; i++) {
		w = f[i];
		w.sum = w.a + w.b;
		w.diff = w.a - w.b;
		w.prod = w.a * w.b;
		w.quot = w.a / w.b;
		w.sqrt_a = sqrtf(fabsf(w.a));
		w.fma_abc = fmaf(w.a, w.b, w.c);
		w.min_ab = fminf(w.a, w.b);
		w.max_ab = fmaxf(w.a, w.b);
		w.dsum = w.da + w.db;
		w.dquot = w.da / w.db;
		w.dsqrt = sqrt(fabs(w.da));
		w.dfma = fma(w.da, w.db, (double)w.c);
		if (i != 3)
			w.a_to_int = (int32_t)(w.a * 1000.0f);
		w.int_to_d = (double)(int64_t)(w.da * 1e6);
		/* The canonical NaN of RISC-V differs from x86's: compare NaN-ness. */
		if (i == 3) {
			VT_ASSERT(isnan(f[i].sum) && isnan(f[i].quot) && isnan(f[i].fma_abc));
			continue;
		}
		if (memcmp(&w, &f[i], sizeof(w)))
			vtest_fail(__FILE__, __LINE__, "element %u differs from the CPU's", i);
	}
	vaccel_bo_free(out.bo);
	vaccel_module_destroy(mod);
	vaccel_queue_destroy(q);
	vaccel_device_close(dev);
}

/* --- the device runtime --- */

struct tk_block {
	unsigned char b[200];
};

VTEST(runtime_memory_functions)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = compute_queue(dev);
	struct vaccel_module *mod = load(dev, VT_MODULE(tk_module));
	struct buf out = buf_new(dev, 4096);
	struct tk_args args = { .out = out.va };
	unsigned char want[4096], *buf = want;
	int32_t *res = (int32_t *)(want + 4000);
	struct tk_block blk;
	unsigned int i;

	for (i = 0; i < 4096; i++)
		want[i] = ((unsigned char *)out.cpu)[i] = i * 13 + (i >> 8);
	run1(q, mod, "tk_runtime", 1, 1, &args);

	memset(buf + 100, 0xab, 200);
	memset(buf + 301, 0, 7);
	memcpy(buf + 1000, buf + 2001, 513);
	memcpy(buf + 2048, buf + 3072, 256);
	memmove(buf + 400, buf + 410, 100);
	memmove(buf + 610, buf + 600, 100);
	memmove(buf + 3504, buf + 3496, 64);
	memcpy(&blk, buf + 3200, sizeof(blk));
	blk.b[7] ^= 0xff;
	memcpy(buf + 3700, &blk, sizeof(blk));
	res[0] = memcmp(buf + 100, buf + 101, 199);
	res[1] = memcmp(buf + 100, buf + 300, 2) > 0;
	res[2] = memcmp(buf + 300, buf + 100, 2) < 0;
	res[3] = 0;
	VT_ASSERT_EQ(res[0], 0);
	VT_ASSERT_EQ(res[1] & res[2], 1);
	for (i = 0; i < 4096; i++)
		if (want[i] != ((unsigned char *)out.cpu)[i])
			vtest_fail(__FILE__, __LINE__, "byte %u: 0x%02x, not 0x%02x", i,
				   ((unsigned char *)out.cpu)[i], want[i]);
	vaccel_bo_free(out.bo);
	vaccel_module_destroy(mod);
	vaccel_queue_destroy(q);
	vaccel_device_close(dev);
}

VTEST(printf_read_back)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = compute_queue(dev);
	struct vaccel_module *mod = load(dev, VT_MODULE(tk_module));
	struct tk_args args = { .n = 6 };
	char text[4096], want[4096];
	struct vaccel_module_info mi;
	unsigned int i, len = 0;

	VT_ASSERT_OK(vaccel_module_get_info(mod, &mi));
	VT_ASSERT(mi.prints);
	/* One workgroup: work-items run in order, each to its end. */
	run1(q, mod, "tk_printf", 64, 64, &args);
	for (i = 0; i < 6; i++)
		len += snprintf(want + len, sizeof(want) - len,
				"work-item %u of 64: %d %x %.3f %s\n", i, -(int)i, i * 255,
				i / 8.0, i % 2 ? "odd" : "even");
	VT_ASSERT_EQ(vaccel_module_read_print(mod, text, sizeof(text)), len);
	if (strcmp(text, want))
		vtest_fail(__FILE__, __LINE__, "printed:\n%s\nnot:\n%s", text, want);
	VT_ASSERT_EQ(vaccel_module_read_print(mod, text, sizeof(text)), 0);

	/* Again: the buffer was emptied. */
	run1(q, mod, "tk_printf", 64, 64, &args);
	VT_ASSERT_EQ(vaccel_module_read_print(mod, text, sizeof(text)), len);
	vaccel_module_destroy(mod);
	vaccel_queue_destroy(q);
	vaccel_device_close(dev);
}

/* --- the loader --- */

/*
 * Code, read-only data and data pointers, relocated to where the module
 * is; two modules at once, each at its own address.
 */
VTEST(relocations_at_the_module_address)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = compute_queue(dev);
	struct vaccel_module *m1 = load(dev, VT_MODULE(tk_module));
	struct vaccel_module *m2 = load(dev, VT_MODULE(tk_module));
	struct buf out = buf_new(dev, 300 * 4);
	struct tk_args args = { .out = out.va, .n = 300 };
	static const char *const names[] = { "one", "two", "three" };
	struct vaccel_module_info i1, i2;
	int32_t *o = out.cpu;
	unsigned int i, m;

	VT_ASSERT_OK(vaccel_module_get_info(m1, &i1));
	VT_ASSERT_OK(vaccel_module_get_info(m2, &i2));
	VT_ASSERT(i1.va != i2.va);
	for (m = 0; m < 2; m++) {
		memset(out.cpu, 0, out.size);
		run1(q, m ? m2 : m1, "tk_relocs", 300, 64, &args);
		for (i = 0; i < 300; i++) {
			int x = i, f = i % 3 == 0 ? x + 1 : i % 3 == 1 ? x * 2 : x - 3;

			VT_ASSERT_EQ(o[i], f + names[i % 3][1] + 11);
		}
	}
	vaccel_bo_free(out.bo);
	vaccel_module_destroy(m2);
	vaccel_module_destroy(m1);
	vaccel_queue_destroy(q);
	vaccel_device_close(dev);
}

/* Each segment's pages with their permissions, as the VM maps them. */
VTEST(segments_mapped_with_their_permissions)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_module *mod = load(dev, VT_MODULE(tk_module));
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)tk_module;
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(tk_module + eh->e_phoff);
	struct vaccel_module_info mi;
	struct vt_mapping *maps;
	size_t n, i, k, seen = 0;

	VT_ASSERT_OK(vaccel_module_get_info(mod, &mi));
	n = vt_mappings(vaccel_device_fd(dev), &maps);
	for (i = 0; i < eh->e_phnum; i++) {
		const char *want = ph[i].p_flags & PF_X ? "r-x" :
				   ph[i].p_flags & PF_W ? "rw-" : "r--";
		uint64_t start = mi.va + (ph[i].p_vaddr & ~4095ull);

		if (ph[i].p_type != PT_LOAD)
			continue;
		for (k = 0; k < n && maps[k].start != start; k++)
			;
		VT_ASSERT(k < n);
		VT_ASSERT_EQ(maps[k].end, mi.va + ((ph[i].p_vaddr + ph[i].p_memsz + 4095) & ~4095ull));
		if (strcmp(maps[k].perm, want))
			vtest_fail(__FILE__, __LINE__, "segment %zu mapped %s, not %s", i,
				   maps[k].perm, want);
		seen++;
	}
	VT_ASSERT_EQ(seen, 3);
	free(maps);
	vaccel_module_destroy(mod);
	vaccel_device_close(dev);
}

/* Runs @name on a new queue: it must fault, and the queue says so. */
static void expect_kernel_fault(struct vaccel_device *dev, struct vaccel_module *mod,
				const char *name)
{
	struct vaccel_queue *q = compute_queue(dev);
	struct tk_args args = { .n = 1 };
	const uint32_t one[3] = { 1, 1, 1 };
	struct vaccel_queue_stats st;

	VT_ASSERT_OK(vaccel_launch(q, kernel(mod, name), one, one, &args, sizeof(args)));
	VT_ASSERT_EQ(vaccel_queue_finish(q), -EFAULT);
	VT_ASSERT_OK(vaccel_queue_get_stats(q, &st));
	VT_ASSERT_EQ(st.error, -EFAULT);
	VT_ASSERT_EQ(vaccel_launch(q, kernel(mod, name), one, one, &args, sizeof(args)),
		     -ECANCELED);
	vaccel_queue_destroy(q);
}

/* What the permissions forbid faults: the argument block and code are read-only, data is not code. */
VTEST(permissions_enforced)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_module *mod = load(dev, VT_MODULE(tk_module));
	struct vaccel_queue *q;
	struct buf out;

	expect_kernel_fault(dev, mod, "tk_write_args");
	expect_kernel_fault(dev, mod, "tk_write_code");
	expect_kernel_fault(dev, mod, "tk_exec_data");
	expect_kernel_fault(dev, mod, "tk_exec_rodata");

	/* The module is still good for others. */
	q = compute_queue(dev);
	out = buf_new(dev, 4096);
	{
		struct tk_args args = { .out = out.va, .n = 3 };

		run1(q, mod, "tk_relocs", 3, 3, &args);
		VT_ASSERT_EQ(((int32_t *)out.cpu)[2], -1 + 'h' + 11);
	}
	vaccel_bo_free(out.bo);
	vaccel_queue_destroy(q);
	vaccel_module_destroy(mod);
	vaccel_device_close(dev);
}

static long long bo_count(struct vaccel_device *dev)
{
	struct vt_dev_mem m;

	vt_dev_mem(vaccel_device_fd(dev), &m);
	return m.bo_count;
}

/* Modules the device cannot run are refused, and leave nothing behind. */
VTEST(refused_on_the_device)
{
	struct vaccel_device *dev = open_dev();
	size_t size = tk_module_end - tk_module;
	unsigned char *bad = malloc(size);
	char msg[VACCEL_MODULE_MSG_SIZE];
	struct vaccel_module *mod = NULL;
	Elf64_Phdr *ph;
	long long bos = bo_count(dev);
	unsigned int i;

	VT_ASSERT(bad);
	memcpy(bad, tk_module, size);
	((Elf64_Ehdr *)bad)->e_flags |= EF_RISCV_RVC;
	VT_ASSERT_EQ(vaccel_module_load(dev, bad, size, &mod, msg, sizeof(msg)), -ENOTSUP);
	VT_ASSERT(strstr(msg, "compressed instructions"));

	/* More local memory than the device's 64 KiB. */
	memcpy(bad, tk_module, size);
	ph = (Elf64_Phdr *)(bad + ((Elf64_Ehdr *)bad)->e_phoff);
	for (i = 0; ph[i].p_type != 0x60766c6d; i++)
		;
	ph[i].p_memsz = 65536 + 16;
	VT_ASSERT_EQ(vaccel_module_load(dev, bad, size, &mod, msg, sizeof(msg)), -E2BIG);
	VT_ASSERT(strstr(msg, "above the device's 65536"));

	/* Not a PIE; a truncated file; no file. */
	memcpy(bad, tk_module, size);
	((Elf64_Ehdr *)bad)->e_type = ET_EXEC;
	VT_ASSERT_EQ(vaccel_module_load(dev, bad, size, &mod, msg, sizeof(msg)), -ENOEXEC);
	VT_ASSERT(strstr(msg, "ET_EXEC"));
	VT_ASSERT_EQ(vaccel_module_load(dev, tk_module, 1000, &mod, msg, sizeof(msg)),
		     -EBADMSG);
	VT_ASSERT_EQ(vaccel_module_load_file(dev, "/nonexistent.elf", &mod, msg,
					     sizeof(msg)), -ENOENT);
	VT_ASSERT(strstr(msg, "/nonexistent.elf"));
	VT_ASSERT(mod == NULL);
	VT_ASSERT_EQ(bo_count(dev), bos);
	free(bad);
	vaccel_device_close(dev);
}

/* Many modules at once, then none: buffers and mappings all given back. */
VTEST(many_modules_leave_nothing)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = compute_queue(dev);
	struct vaccel_module *mods[24];
	struct buf out = buf_new(dev, 24 * 4);
	struct vaccel_vm_stats s0, s1;
	struct vaccel_module_info mi;
	long long bos;
	unsigned int i;

	for (i = 0; i < 24; i++) {
		struct tk_args args = { .out = out.va + i * 4, .n = 1 };

		mods[i] = load(dev, VT_MODULE(tk_module));
		VT_ASSERT_OK(vaccel_launch(q, kernel(mods[i], "tk_relocs"),
					   (uint32_t[3]){ 1, 1, 1 }, (uint32_t[3]){ 1, 1, 1 },
					   &args, sizeof(args)));
	}
	VT_ASSERT_OK(vaccel_queue_finish(q));
	for (i = 0; i < 24; i++)
		VT_ASSERT_EQ(((int32_t *)out.cpu)[i], 1 + 'n' + 11);

	/* Each: the image, three segments mapped, and the print buffer. */
	VT_ASSERT_OK(vaccel_module_get_info(mods[0], &mi));
	VT_ASSERT_OK(vaccel_device_vm_stats(dev, &s0));
	bos = bo_count(dev);
	for (i = 0; i < 24; i++)
		vaccel_module_destroy(mods[i]);
	VT_ASSERT_EQ(bo_count(dev), bos - 2 * 24);
	VT_ASSERT_OK(vaccel_device_vm_stats(dev, &s1));
	VT_ASSERT_EQ(s1.mappings, s0.mappings - 4 * 24);
	VT_ASSERT_EQ(s1.mapped_bytes, s0.mapped_bytes - 24 * (mi.size + VACCEL_MODULE_PRINT_SIZE));
	vaccel_bo_free(out.bo);
	vaccel_queue_destroy(q);
	vaccel_device_close(dev);
}

/* --- the launch --- */

/* Every argument error, refused before anything is recorded. */
VTEST(launch_argument_errors)
{
	struct vaccel_device *dev = open_dev(), *other = open_dev();
	struct vaccel_queue *q = compute_queue(dev), *copy, *oq = compute_queue(other);
	struct vaccel_module *mod = load(dev, VT_MODULE(tk_module));
	struct vaccel_kernel *k = kernel(mod, "tk_relocs");
	struct buf out = buf_new(dev, 4096);
	struct tk_args args = { .out = out.va, .n = 1 };
	unsigned char big[VACCEL_LAUNCH_MAX_ARGS + 1] = { 0 };
	uint32_t one[3] = { 1, 1, 1 }, g[3], w[3];
	unsigned int d;

	VT_ASSERT_OK(vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COPY,
					 VACCEL_PRIORITY_NORMAL, &copy));
	for (d = 0; d < 3; d++) {
		memcpy(g, one, sizeof(g));
		memcpy(w, one, sizeof(w));
		g[d] = 0;
		VT_ASSERT_EQ(vaccel_launch(q, k, g, one, &args, sizeof(args)), -EINVAL);
		w[d] = 0;
		VT_ASSERT_EQ(vaccel_launch(q, k, one, w, &args, sizeof(args)), -EINVAL);
		w[d] = 1025;
		VT_ASSERT_EQ(vaccel_launch(q, k, one, w, &args, sizeof(args)), -EINVAL);
	}
	w[0] = 64, w[1] = 32, w[2] = 1;
	VT_ASSERT_EQ(vaccel_launch(q, k, one, w, &args, sizeof(args)), -EINVAL);
	VT_ASSERT_EQ(vaccel_launch(q, k, one, one, big, sizeof(big)), -E2BIG);
	VT_ASSERT_EQ(vaccel_launch(q, k, one, one, NULL, 8), -EINVAL);
	VT_ASSERT_EQ(vaccel_launch(copy, k, one, one, &args, sizeof(args)), -EINVAL);
	VT_ASSERT_EQ(vaccel_launch(oq, k, one, one, &args, sizeof(args)), -EINVAL);
	/* 1024 work-items of 8 KiB of stack: 8 MiB, above the 4 MiB. */
	VT_ASSERT_OK(vaccel_kernel_set_stack_size(k, 8192));
	w[0] = 1024, w[1] = 1, w[2] = 1;
	VT_ASSERT_EQ(vaccel_launch(q, k, one, w, &args, sizeof(args)), -EINVAL);
	VT_ASSERT_EQ(vaccel_kernel_set_stack_size(k, 65536 + 16), -EINVAL);
	VT_ASSERT_EQ(vaccel_kernel_set_stack_size(k, 100), -EINVAL);
	VT_ASSERT_OK(vaccel_kernel_set_stack_size(k, VACCEL_DEFAULT_STACK_SIZE));
	VT_ASSERT_EQ(vaccel_queue_dispatch(q, 0, 0, one, one, 0, 64), -EINVAL);
	VT_ASSERT_EQ(vaccel_queue_dispatch(q, 0x10002, 0, one, one, 0, 64), -EINVAL);
	VT_ASSERT_EQ(vaccel_queue_dispatch(q, 0x10000, 0, one, one, 65537, 64), -EINVAL);

	/* Nothing was recorded: the queue still works. */
	VT_ASSERT_OK(vaccel_launch(q, k, one, one, &args, sizeof(args)));
	VT_ASSERT_OK(vaccel_queue_finish(q));
	VT_ASSERT_EQ(((int32_t *)out.cpu)[0], 1 + 'n' + 11);
	vaccel_bo_free(out.bo);
	vaccel_module_destroy(mod);
	vaccel_queue_destroy(copy);
	vaccel_queue_destroy(oq);
	vaccel_queue_destroy(q);
	vaccel_device_close(other);
	vaccel_device_close(dev);
}

/* The stack a work-item gets: 3000 bytes fit 4 KiB, not 1 KiB. */
VTEST(stack_size)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = compute_queue(dev);
	struct vaccel_module *mod = load(dev, VT_MODULE(tk_module));
	struct vaccel_kernel *k = kernel(mod, "tk_stack");
	struct buf out = buf_new(dev, 256 * 4);
	struct tk_args args = { .out = out.va };
	const uint32_t one[3] = { 1, 1, 1 };
	unsigned int i, j;

	run1(q, mod, "tk_stack", 256, 256, &args);
	for (i = 0; i < 256; i++) {
		uint32_t sum = 0;

		for (j = 0; j < 3000; j++)
			sum += (uint8_t)(j * 7 + i);
		VT_ASSERT_EQ(((uint32_t *)out.cpu)[i], sum);
	}
	VT_ASSERT_OK(vaccel_kernel_set_stack_size(k, 1024));
	VT_ASSERT_OK(vaccel_launch(q, k, one, one, &args, sizeof(args)));
	VT_ASSERT_EQ(vaccel_queue_finish(q), -EFAULT);
	vaccel_bo_free(out.bo);
	vaccel_module_destroy(mod);
	vaccel_queue_destroy(q);
	vaccel_device_close(dev);
}

struct launcher {
	struct vaccel_device *dev;
	struct vaccel_module *mod;
	struct buf out;
	unsigned int launches;
	int error;
};

/*
 * A thread's own queue: @launches launches of vadd, each with its own
 * argument block (another slice of the vectors), many DMA buffers long.
 */
static void *launcher(void *arg)
{
	struct launcher *l = arg;
	struct vaccel_queue *q;
	struct vaccel_kernel *k;
	const uint32_t grid[3] = { 64, 1, 1 }, wg[3] = { 64, 1, 1 };
	unsigned int i;

	l->error = vaccel_queue_create(l->dev, VACCEL_ENGINE_CLASS_COMPUTE,
				       VACCEL_PRIORITY_NORMAL, &q);
	if (l->error)
		return NULL;
	l->error = vaccel_kernel_get(l->mod, "vadd", &k);
	for (i = 0; !l->error && i < l->launches; i++) {
		struct vadd_args a = {
			.a = l->out.va + i * 256,
			.b = l->out.va + i * 256,
			.c = l->out.va + l->launches * 256 + i * 256,
			.n = 64,
		};

		l->error = vaccel_launch(q, k, grid, wg, &a, sizeof(a));
	}
	if (!l->error)
		l->error = vaccel_queue_finish(q);
	vaccel_queue_destroy(q);
	return NULL;
}

/* Two threads launching at once, on a module of both: every block its own. */
VTEST(launches_from_threads)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_module *mod = load(dev, VT_MODULE(vadd_module));
	struct launcher l[2];
	pthread_t t[2];
	unsigned int i, j, n = 800;

	for (i = 0; i < 2; i++) {
		float *f;

		l[i] = (struct launcher){ .dev = dev, .mod = mod, .launches = n };
		l[i].out = buf_new(dev, 2 * n * 256);
		f = l[i].out.cpu;
		for (j = 0; j < n * 64; j++)
			f[j] = (float)(j + i * 7);
		VT_ASSERT_EQ(pthread_create(&t[i], NULL, launcher, &l[i]), 0);
	}
	for (i = 0; i < 2; i++) {
		float *f = l[i].out.cpu;

		VT_ASSERT_EQ(pthread_join(t[i], NULL), 0);
		VT_ASSERT_OK(l[i].error);
		for (j = 0; j < n * 64; j++)
			VT_ASSERT(f[n * 64 + j] == 2.0f * (float)(j + i * 7));
		vaccel_bo_free(l[i].out.bo);
	}
	vaccel_module_destroy(mod);
	vaccel_device_close(dev);
}

/* --- the examples' kernels --- */

static float randf(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (float)((int)((*s >> 33) % 8192) - 4096) / 4096.0f;
}

/* vadd over 1000 floats: a partial last workgroup. */
VTEST(example_vadd)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = compute_queue(dev);
	struct vaccel_module *mod = load(dev, VT_MODULE(vadd_module));
	struct buf v = buf_new(dev, 3 * 4096);
	float *a = v.cpu, *b = a + 1024, *c = b + 1024;
	struct vadd_args args = { v.va, v.va + 4096, v.va + 8192, 1000 };
	const uint32_t grid[3] = { 1000, 1, 1 }, wg[3] = { 256, 1, 1 };
	uint64_t s = 5;
	unsigned int i;

	for (i = 0; i < 1024; i++) {
		a[i] = randf(&s) * 100.0f;
		b[i] = randf(&s) / 7.0f;
		c[i] = 42.0f;
	}
	VT_ASSERT_OK(vaccel_launch(q, kernel(mod, "vadd"), grid, wg, &args, sizeof(args)));
	VT_ASSERT_OK(vaccel_queue_finish(q));
	for (i = 0; i < 1024; i++)
		VT_ASSERT(c[i] == (i < 1000 ? a[i] + b[i] : 42.0f));
	vaccel_bo_free(v.bo);
	vaccel_module_destroy(mod);
	vaccel_queue_destroy(q);
	vaccel_device_close(dev);
}

/* saxpy with a grid smaller than the vectors: the stride loop. */
VTEST(example_saxpy)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = compute_queue(dev);
	struct vaccel_module *mod = load(dev, VT_MODULE(saxpy_module));
	struct buf v = buf_new(dev, 2 * 4 * 5000);
	float *x = v.cpu, *y = x + 5000, want[5000];
	struct saxpy_args args = { v.va, v.va + 4 * 5000, -1.25f, 5000 };
	const uint32_t grid[3] = { 384, 1, 1 }, wg[3] = { 128, 1, 1 };
	uint64_t s = 6;
	unsigned int i;

	for (i = 0; i < 5000; i++) {
		x[i] = randf(&s) * 3.0f;
		y[i] = randf(&s) * 1000.0f;
		want[i] = fmaf(-1.25f, x[i], y[i]);
	}
	VT_ASSERT_OK(vaccel_launch(q, kernel(mod, "saxpy"), grid, wg, &args, sizeof(args)));
	VT_ASSERT_OK(vaccel_queue_finish(q));
	VT_ASSERT(!memcmp(want, y, sizeof(want)));
	vaccel_bo_free(v.bo);
	vaccel_module_destroy(mod);
	vaccel_queue_destroy(q);
	vaccel_device_close(dev);
}

/* matmul of 40 x 40: not a whole number of tiles. */
VTEST(example_matmul)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = compute_queue(dev);
	struct vaccel_module *mod = load(dev, VT_MODULE(matmul_module));
	enum { N = 40 };
	struct buf m = buf_new(dev, 3 * N * N * 4);
	float *a = m.cpu, *b = a + N * N, *c = b + N * N;
	struct matmul_args args = { m.va, m.va + N * N * 4, m.va + 2 * N * N * 4, N };
	const uint32_t grid[3] = { 48, 48, 1 }, wg[3] = { 16, 16, 1 };
	uint64_t s = 7;
	unsigned int i, j, k;

	for (i = 0; i < N * N; i++) {
		a[i] = randf(&s);
		b[i] = randf(&s) * 5.0f;
	}
	VT_ASSERT_OK(vaccel_launch(q, kernel(mod, "matmul"), grid, wg, &args, sizeof(args)));
	VT_ASSERT_OK(vaccel_queue_finish(q));
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			float sum = 0.0f;

			for (k = 0; k < N; k++)
				sum += a[i * N + k] * b[k * N + j];
			VT_ASSERT(!memcmp(&sum, &c[i * N + j], 4));
		}
	vaccel_bo_free(m.bo);
	vaccel_module_destroy(mod);
	vaccel_queue_destroy(q);
	vaccel_device_close(dev);
}

/* reduce over 100000 integers in 5 workgroups. */
VTEST(example_reduce)
{
	struct vaccel_device *dev = open_dev();
	struct vaccel_queue *q = compute_queue(dev);
	struct vaccel_module *mod = load(dev, VT_MODULE(reduce_module));
	enum { N = 100000 };
	struct buf in = buf_new(dev, N * 4), out = buf_new(dev, 4096);
	struct reduce_result *r = out.cpu, want = { 0, UINT32_MAX, 0 };
	struct reduce_args args = { in.va, out.va, N, 0 };
	const uint32_t grid[3] = { 5 * REDUCE_WG, 1, 1 }, wg[3] = { REDUCE_WG, 1, 1 };
	uint32_t *v = in.cpu;
	uint64_t s = 8;
	unsigned int i;

	for (i = 0; i < N; i++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		v[i] = (uint32_t)(s >> 32);
		want.sum += v[i];
		want.min = v[i] < want.min ? v[i] : want.min;
		want.max = v[i] > want.max ? v[i] : want.max;
	}
	*r = (struct reduce_result){ 0, UINT32_MAX, 0 };
	VT_ASSERT_OK(vaccel_launch(q, kernel(mod, "reduce"), grid, wg, &args, sizeof(args)));
	VT_ASSERT_OK(vaccel_queue_finish(q));
	VT_ASSERT(r->sum == want.sum);
	VT_ASSERT_EQ(r->min, want.min);
	VT_ASSERT_EQ(r->max, want.max);
	vaccel_bo_free(out.bo);
	vaccel_bo_free(in.bo);
	vaccel_module_destroy(mod);
	vaccel_queue_destroy(q);
	vaccel_device_close(dev);
}

VTEST_MAIN()
