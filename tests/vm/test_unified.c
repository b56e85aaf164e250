// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_unified.c - the unified device of libvaccel (MGPUSim's
 * CreateUnifiedGPU) over 1, 2 and 4 vaccel devices, end to end:
 *
 * - opening: bad input, the members, what the device reports;
 * - buffers: the split (contiguous pages per member, in order), the same
 *   GPU address in every member's address space, each member reading the
 *   whole buffer, the contiguous CPU view, import and export;
 * - copies and fills split by page owner, an overlapping copy across
 *   members, and the queue's order across members;
 * - the four examples' kernels on unified devices of 1, 2 and 4 members,
 *   bit-identical to one device; a launch shared equally between the
 *   members (their engines' instruction counters); launches of workgroup
 *   ranges, on one device and on four members;
 * - events and waits across members, CPU signals, sync_files;
 * - remap: pages moved between members with their data, checked by the
 *   CPU and by kernels, and its bad input;
 * - a fault on one member: the queue's error and fault record.
 *
 * Load the module with devices=4.  Needs root (debugfs).
 */
#define _GNU_SOURCE
#include <math.h>
#include <poll.h>

#include <vaccel.h>

#include "vt_exec.h"
#include "../../umd/examples/matmul.h"
#include "../../umd/examples/reduce.h"
#include "../../umd/examples/saxpy.h"
#include "../../umd/examples/vadd.h"

VT_INCBIN(vadd_module, VT_EXAMPLES "/vadd.elf");
VT_INCBIN(saxpy_module, VT_EXAMPLES "/saxpy.elf");
VT_INCBIN(matmul_module, VT_EXAMPLES "/matmul.elf");
VT_INCBIN(reduce_module, VT_EXAMPLES "/reduce.elf");
VT_INCBIN(faults_module, VT_KERNELS "/faults.elf");

#define PAGE	4096u

static const unsigned int all4[] = { 0, 1, 2, 3 };

/* The member counts the tests try: 1, 2 and 4, as the devices allow. */
static const unsigned int sizes[] = { 1, 2, 4 };

static unsigned int devices(void)
{
	return vt_expect("VT_DEVICES", "devices");
}

static struct vaccel_device *open_unified(unsigned int n)
{
	struct vaccel_device *dev;

	VT_ASSERT_OK(vaccel_device_open_unified(all4, n, &dev));
	VT_ASSERT_EQ(vaccel_device_member_count(dev), n);
	return dev;
}

struct buf {
	struct vaccel_bo *bo;
	unsigned char *cpu;
	uint64_t va;
	uint64_t size;
};

static struct buf buf_new(struct vaccel_device *dev, uint64_t size)
{
	struct buf b = { .size = size };
	void *cpu;

	VT_ASSERT_OK(vaccel_bo_alloc(dev, size, VACCEL_BO_GPU_NO_EXEC, &b.bo));
	VT_ASSERT_OK(vaccel_bo_map(b.bo, &cpu));
	b.cpu = cpu;
	b.va = vaccel_bo_va(b.bo);
	return b;
}

static struct vaccel_queue *queue(struct vaccel_device *dev, unsigned int cls)
{
	struct vaccel_queue *q;

	VT_ASSERT_OK(vaccel_queue_create(dev, cls, VACCEL_PRIORITY_NORMAL, &q));
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
	return mod;
}

static struct vaccel_kernel *kernel(struct vaccel_module *mod, const char *name)
{
	struct vaccel_kernel *k;

	VT_ASSERT_OK(vaccel_kernel_get(mod, name, &k));
	return k;
}

static uint32_t pattern(uint64_t i, uint32_t salt)
{
	uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull ^ salt;

	return (uint32_t)(x >> 29);
}

/* --- opening --- */

VTEST(open_bad_input)
{
	unsigned int twice[] = { 0, 1, 0 }, missing[] = { 0, 7 }, many[9] = { 0 };
	struct vaccel_device *dev, *m;

	VT_ASSERT_EQ(devices(), 4);
	VT_ASSERT_EQ(vaccel_device_open_unified(NULL, 1, &dev), -EINVAL);
	VT_ASSERT_EQ(vaccel_device_open_unified(all4, 1, NULL), -EINVAL);
	VT_ASSERT_EQ(vaccel_device_open_unified(all4, 0, &dev), -EINVAL);
	VT_ASSERT_EQ(vaccel_device_open_unified(many, 9, &dev), -EINVAL);
	VT_ASSERT_EQ(vaccel_device_open_unified(twice, 3, &dev), -EINVAL);
	VT_ASSERT_EQ(vaccel_device_open_unified(missing, 2, &dev), -ENODEV);

	VT_ASSERT_OK(vaccel_device_open(0, &dev));
	VT_ASSERT_EQ(vaccel_device_member_count(dev), 0);
	VT_ASSERT_EQ(vaccel_device_get_member(dev, 0, &m), -EINVAL);
	vaccel_device_close(dev);
	VT_ASSERT_EQ(vaccel_device_member_count(NULL), -EINVAL);
}

/* The members, in order, and what the unified device says of itself. */
VTEST(members_and_info)
{
	struct vaccel_device *dev = open_unified(4), *m;
	struct vaccel_device_info info, mi;
	unsigned int i;

	VT_ASSERT_OK(vaccel_device_get_info(dev, &info));
	for (i = 0; i < 4; i++) {
		VT_ASSERT_OK(vaccel_device_get_member(dev, i, &m));
		VT_ASSERT_OK(vaccel_device_get_info(m, &mi));
		VT_ASSERT_EQ(mi.device_index, i);
		VT_ASSERT_EQ(vaccel_device_member_count(m), 0);
		VT_ASSERT(info.va_start >= mi.va_start && info.va_end <= mi.va_end);
	}
	VT_ASSERT_EQ(vaccel_device_get_member(dev, 4, &m), -ENOENT);
	VT_ASSERT(!strncmp(vaccel_device_path(dev), "unified:", 8));
	VT_ASSERT_EQ(vaccel_device_engine_count(dev), info.engines_total);
	VT_ASSERT(vaccel_device_fd(dev) >= 0);
	vaccel_device_close(dev);
}

/* --- buffers --- */

/*
 * 15 pages on n members: contiguous ranges in member order (4, 4, 4, 3 on
 * four), each part a buffer of its owner mapped in every member at the
 * same address: every member's copy engine reads the whole buffer as the
 * CPU wrote it through the contiguous view.
 */
VTEST(split_same_address_every_member_sees_all)
{
	unsigned int s, i, p;

	for (s = 0; s < 3; s++) {
		unsigned int n = sizes[s], per = (15 + n - 1) / n;
		struct vaccel_device *dev = open_unified(n);
		struct buf b = buf_new(dev, 15 * PAGE);
		struct vaccel_vm_stats st;

		for (p = 0; p < 15; p++)
			VT_ASSERT_EQ(vaccel_bo_owner(b.bo, p * PAGE + 100), p / per);
		VT_ASSERT_EQ(vaccel_bo_owner(b.bo, 15 * PAGE), -EINVAL);
		VT_ASSERT_EQ(vaccel_bo_handle(b.bo), 0);
		for (i = 0; i < 15 * PAGE / 4; i++)
			((uint32_t *)b.cpu)[i] = pattern(i, n);

		for (i = 0; i < n; i++) {
			struct vaccel_device *m;
			struct vaccel_bo *dst;
			struct vaccel_queue *q;
			void *cpu;

			VT_ASSERT_OK(vaccel_device_get_member(dev, i, &m));
			VT_ASSERT_OK(vaccel_bo_alloc(m, 15 * PAGE, 0, &dst));
			VT_ASSERT_OK(vaccel_bo_map(dst, &cpu));
			q = queue(m, VACCEL_ENGINE_CLASS_COPY);
			VT_ASSERT_OK(vaccel_queue_copy(q, vaccel_bo_va(dst), b.va,
						       15 * PAGE));
			VT_ASSERT_OK(vaccel_queue_finish(q));
			VT_ASSERT(!memcmp(cpu, b.cpu, 15 * PAGE));
			vaccel_queue_destroy(q);
			vaccel_bo_free(dst);
		}
		/* Every member maps all of it (and the DMA buffers). */
		VT_ASSERT_OK(vaccel_device_vm_stats(dev, &st));
		VT_ASSERT(st.mapped_bytes >= (uint64_t)n * 15 * PAGE);
		vaccel_bo_free(b.bo);
		vaccel_device_close(dev);
	}
}

/* A one-page buffer has one part, which exports and imports back. */
VTEST(export_import)
{
	struct vaccel_device *dev = open_unified(4), *plain;
	struct buf small = buf_new(dev, PAGE), big = buf_new(dev, 8 * PAGE);
	struct vaccel_bo *imp, *again;
	void *cpu;
	int fd;

	VT_ASSERT_EQ(vaccel_bo_export(big.bo, &fd), -EOPNOTSUPP);
	VT_ASSERT_OK(vaccel_bo_export(small.bo, &fd));
	small.cpu[10] = 0x5a;
	VT_ASSERT_OK(vaccel_device_open(1, &plain));
	VT_ASSERT_OK(vaccel_bo_import(plain, fd, &imp));
	VT_ASSERT_OK(vaccel_bo_map(imp, &cpu));
	VT_ASSERT_EQ(((unsigned char *)cpu)[10], 0x5a);
	vaccel_bo_free(imp);
	vaccel_device_close(plain);
	close(fd);

	/* A dma-buf imported into the unified device, twice: one buffer. */
	VT_ASSERT_OK(vaccel_device_open(2, &plain));
	VT_ASSERT_OK(vaccel_bo_alloc(plain, 2 * PAGE, 0, &imp));
	VT_ASSERT_OK(vaccel_bo_map(imp, &cpu));
	memset(cpu, 0x3c, 2 * PAGE);
	VT_ASSERT_OK(vaccel_bo_export(imp, &fd));
	{
		struct vaccel_bo *u1;
		struct vaccel_queue *q = queue(dev, VACCEL_ENGINE_CLASS_COPY);
		struct buf dst = buf_new(dev, 2 * PAGE);

		VT_ASSERT_OK(vaccel_bo_import(dev, fd, &u1));
		VT_ASSERT_OK(vaccel_bo_import(dev, fd, &again));
		VT_ASSERT(u1 == again);
		VT_ASSERT_OK(vaccel_queue_copy(q, dst.va, vaccel_bo_va(u1), 2 * PAGE));
		VT_ASSERT_OK(vaccel_queue_finish(q));
		VT_ASSERT_EQ(dst.cpu[2 * PAGE - 1], 0x3c);
		vaccel_bo_free(again);
		vaccel_bo_free(u1);
		vaccel_bo_free(dst.bo);
		vaccel_queue_destroy(q);
	}
	close(fd);
	vaccel_bo_free(imp);
	vaccel_device_close(plain);
	vaccel_bo_free(small.bo);
	vaccel_bo_free(big.bo);
	vaccel_device_close(dev);
}

/* --- copies and order --- */

/*
 * Fills and copies across the parts of four members, and an overlapping
 * copy forward by 1.5 pages across part boundaries: memmove's result.
 * A chain of commands on different members, each reading what the one
 * before wrote, sees the order of the queue.
 */
VTEST(copies_split_by_owner_in_order)
{
	unsigned int s, i;

	for (s = 0; s < 3; s++) {
		unsigned int n = sizes[s];
		struct vaccel_device *dev = open_unified(n);
		struct vaccel_queue *q = queue(dev, VACCEL_ENGINE_CLASS_COPY);
		struct buf a = buf_new(dev, 16 * PAGE), b = buf_new(dev, 16 * PAGE);
		unsigned char *want = malloc(16 * PAGE);

		VT_ASSERT(want);
		for (i = 0; i < 16 * PAGE / 4; i++)
			((uint32_t *)a.cpu)[i] = pattern(i, 7);
		VT_ASSERT_OK(vaccel_queue_fill(q, b.va, 16 * PAGE, 0x01020304));
		VT_ASSERT_OK(vaccel_queue_copy(q, b.va + 100, a.va + 4, 15 * PAGE));
		VT_ASSERT_OK(vaccel_queue_finish(q));
		for (i = 0; i < 16 * PAGE / 4; i++)
			((uint32_t *)want)[i] = 0x01020304;
		memcpy(want + 100, a.cpu + 4, 15 * PAGE);
		VT_ASSERT(!memcmp(b.cpu, want, 16 * PAGE));

		/* memmove forward, overlapping, across members */
		memcpy(want, a.cpu, 16 * PAGE);
		memmove(want + 6144, want, 10 * PAGE);
		VT_ASSERT_OK(vaccel_queue_copy(q, a.va + 6144, a.va, 10 * PAGE));
		VT_ASSERT_OK(vaccel_queue_finish(q));
		VT_ASSERT(!memcmp(a.cpu, want, 16 * PAGE));

		/* A chain through the pages of every member, 16 links. */
		memset(b.cpu, 0, 16 * PAGE);
		VT_ASSERT_OK(vaccel_queue_write(q, b.va, 0xabcd0000, 32));
		for (i = 1; i < 16; i++)
			VT_ASSERT_OK(vaccel_queue_copy(q, b.va + i * PAGE,
						       b.va + (i - 1) * PAGE, 4));
		VT_ASSERT_OK(vaccel_queue_finish(q));
		for (i = 0; i < 16; i++)
			VT_ASSERT_EQ(*(uint32_t *)(b.cpu + i * PAGE), 0xabcd0000);
		free(want);
		vaccel_bo_free(a.bo);
		vaccel_bo_free(b.bo);
		vaccel_queue_destroy(q);
		vaccel_device_close(dev);
	}
}

/* --- the examples' kernels --- */

static float randf(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (float)((int)((*s >> 33) % 8192) - 4096) / 4096.0f;
}

enum example { VADD, SAXPY, MATMUL, REDUCE, EXAMPLES };

static const char *const example_names[] = { "vadd", "saxpy", "matmul", "reduce" };

/*
 * Runs example @e's kernel on @dev at a size that gives every member of
 * four several workgroups; returns a copy of its output (@size bytes).
 */
static unsigned char *run_example(struct vaccel_device *dev, enum example e,
				  size_t *size)
{
	static const struct { const unsigned char *start, *end; } mods[] = {
		{ vadd_module, vadd_module_end }, { saxpy_module, saxpy_module_end },
		{ matmul_module, matmul_module_end }, { reduce_module, reduce_module_end },
	};
	struct vaccel_module *mod = load(dev, mods[e].start, mods[e].end - mods[e].start);
	struct vaccel_queue *q = queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct vaccel_kernel *k = kernel(mod, example_names[e]);
	unsigned char *out = NULL;
	uint64_t s = 11;
	struct buf b;
	unsigned int i;

	switch (e) {
	case VADD: {
		enum { N = 40000 };
		struct vadd_args args;
		const uint32_t grid[3] = { N, 1, 1 }, wg[3] = { 256, 1, 1 };
		float *x;

		b = buf_new(dev, 3 * N * 4);
		x = (float *)b.cpu;
		for (i = 0; i < 2 * N; i++)
			x[i] = randf(&s) * 100.0f / (i % 7 + 1);
		args = (struct vadd_args){ b.va, b.va + N * 4, b.va + 2 * N * 4, N };
		VT_ASSERT_OK(vaccel_launch(q, k, grid, wg, &args, sizeof(args)));
		*size = N * 4;
		break;
	}
	case SAXPY: {
		enum { N = 30000 };
		struct saxpy_args args;
		const uint32_t grid[3] = { 4096, 1, 1 }, wg[3] = { 128, 1, 1 };
		float *x;

		b = buf_new(dev, 2 * N * 4);
		x = (float *)b.cpu;
		for (i = 0; i < 2 * N; i++)
			x[i] = randf(&s) * 1000.0f / (i % 5 + 1);
		args = (struct saxpy_args){ b.va, b.va + N * 4, -1.25f, N };
		VT_ASSERT_OK(vaccel_launch(q, k, grid, wg, &args, sizeof(args)));
		*size = N * 4;
		break;
	}
	case MATMUL: {
		enum { N = 72 };
		struct matmul_args args;
		const uint32_t grid[3] = { 80, 80, 1 }, wg[3] = { 16, 16, 1 };
		float *x;

		b = buf_new(dev, 3 * N * N * 4);
		x = (float *)b.cpu;
		for (i = 0; i < 2 * N * N; i++)
			x[i] = randf(&s) * 3.0f;
		args = (struct matmul_args){ b.va, b.va + N * N * 4, b.va + 2 * N * N * 4, N };
		VT_ASSERT_OK(vaccel_launch(q, k, grid, wg, &args, sizeof(args)));
		*size = N * N * 4;
		break;
	}
	default: {
		enum { N = 200000 };
		struct reduce_args args;
		const uint32_t grid[3] = { 16 * REDUCE_WG, 1, 1 }, wg[3] = { REDUCE_WG, 1, 1 };
		uint32_t *v;

		b = buf_new(dev, N * 4 + PAGE);
		v = (uint32_t *)b.cpu;
		for (i = 0; i < N; i++) {
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			v[i] = (uint32_t)(s >> 32);
		}
		*(struct reduce_result *)(b.cpu + N * 4) =
			(struct reduce_result){ 0, UINT32_MAX, 0 };
		args = (struct reduce_args){ b.va, b.va + N * 4, N, 0 };
		VT_ASSERT_OK(vaccel_launch(q, k, grid, wg, &args, sizeof(args)));
		*size = sizeof(struct reduce_result);
		break;
	}
	}
	VT_ASSERT_OK(vaccel_queue_finish(q));
	out = malloc(*size);
	VT_ASSERT(out);
	memcpy(out, b.cpu + (e == REDUCE ? 200000 * 4 : e == VADD ? 2 * 40000 * 4 :
			     e == SAXPY ? 30000 * 4 : 2 * 72 * 72 * 4), *size);
	vaccel_bo_free(b.bo);
	vaccel_queue_destroy(q);
	vaccel_module_destroy(mod);
	return out;
}

/*
 * Every example's kernel on unified devices of 1, 2 and 4 members gives
 * the bytes one device gives.
 */
VTEST(examples_bit_identical)
{
	enum example e;
	unsigned int s;

	for (e = 0; e < EXAMPLES; e++) {
		struct vaccel_device *plain;
		unsigned char *want;
		size_t size, got_size;

		VT_ASSERT_OK(vaccel_device_open(0, &plain));
		want = run_example(plain, e, &size);
		vaccel_device_close(plain);
		for (s = 0; s < 3; s++) {
			struct vaccel_device *dev = open_unified(sizes[s]);
			unsigned char *got = run_example(dev, e, &got_size);

			VT_ASSERT_EQ(got_size, size);
			if (memcmp(got, want, size))
				vtest_fail(__FILE__, __LINE__, "%s on %u members differs",
					   example_names[e], sizes[s]);
			free(got);
			vaccel_device_close(dev);
		}
		free(want);
	}
}

/* Instructions all engines of member @i of @dev executed so far. */
static uint64_t member_instructions(struct vaccel_device *dev, unsigned int i)
{
	struct vaccel_device *m;
	struct vt_arbiter a;
	uint64_t sum = 0;
	unsigned int e;

	VT_ASSERT_OK(vaccel_device_get_member(dev, i, &m));
	vt_arbiter_read(vaccel_device_fd(m), &a);
	for (e = 0; e < a.count; e++)
		sum += a.e[e].instructions;
	return sum;
}

/*
 * A launch of 64 workgroups of identical work on four members: every
 * member's engines execute a quarter of the instructions, not more, not
 * less (the kernel is the same for each work-item but for its index).
 */
VTEST(launch_shared_between_members)
{
	struct vaccel_device *dev = open_unified(4);
	struct vaccel_module *mod = load(dev, VT_MODULE(vadd_module));
	struct vaccel_queue *q = queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	enum { N = 64 * 64 };
	const uint32_t grid[3] = { N, 1, 1 }, wg[3] = { 64, 1, 1 };
	struct buf b = buf_new(dev, 3 * N * 4);
	struct vadd_args args = { b.va, b.va + N * 4, b.va + 2 * N * 4, N };
	uint64_t before[4], got[4];
	unsigned int i;

	for (i = 0; i < 4; i++)
		before[i] = member_instructions(dev, i);
	VT_ASSERT_OK(vaccel_launch(q, kernel(mod, "vadd"), grid, wg, &args, sizeof(args)));
	VT_ASSERT_OK(vaccel_queue_finish(q));
	for (i = 0; i < 4; i++) {
		got[i] = member_instructions(dev, i) - before[i];
		printf("# member %u: %llu instructions\n", i, (unsigned long long)got[i]);
		VT_ASSERT(got[i] > 0);
		VT_ASSERT_EQ(got[i], got[0]);
	}
	vaccel_bo_free(b.bo);
	vaccel_queue_destroy(q);
	vaccel_module_destroy(mod);
	vaccel_device_close(dev);
}

/*
 * vaccel_launch_ex() with a workgroup range: on one device and on four
 * members, launches of three ranges that cover the grid compute what one
 * launch computes; bad options are refused.
 */
VTEST(launch_ranges)
{
	unsigned int s, i;

	for (s = 0; s < 2; s++) {
		struct vaccel_device *dev;
		struct vaccel_module *mod;
		struct vaccel_queue *q;
		struct vaccel_kernel *k;
		struct vaccel_launch_options o;
		enum { N = 5000 };
		const uint32_t grid[3] = { N, 1, 1 }, wg[3] = { 64, 1, 1 };
		struct vadd_args args;
		struct buf b;
		float *x;

		if (s)
			dev = open_unified(4);
		else
			VT_ASSERT_OK(vaccel_device_open(0, &dev));
		mod = load(dev, VT_MODULE(vadd_module));
		q = queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
		k = kernel(mod, "vadd");
		b = buf_new(dev, 3 * N * 4);
		x = (float *)b.cpu;
		for (i = 0; i < 2 * N; i++)
			x[i] = (float)i;
		memset(x + 2 * N, 0xff, N * 4);
		args = (struct vadd_args){ b.va, b.va + N * 4, b.va + 2 * N * 4, N };
		/* 79 groups: [0, 30), [30, 31), [31, 79) */
		memset(&o, 0, sizeof(o));
		o.first_group = 30;
		o.group_count = 1;
		VT_ASSERT_OK(vaccel_launch_ex(q, k, grid, wg, &args, sizeof(args), &o));
		VT_ASSERT_OK(vaccel_queue_finish(q));
		for (i = 0; i < N; i++) {
			if (i / 64 == 30)
				VT_ASSERT(x[2 * N + i] == (float)i + (float)(N + i));
			else
				VT_ASSERT_EQ(((uint32_t *)x)[2 * N + i], 0xffffffffu);
		}
		o.first_group = 0;
		o.group_count = 30;
		VT_ASSERT_OK(vaccel_launch_ex(q, k, grid, wg, &args, sizeof(args), &o));
		o.first_group = 31;
		o.group_count = 48;
		VT_ASSERT_OK(vaccel_launch_ex(q, k, grid, wg, &args, sizeof(args), &o));
		VT_ASSERT_OK(vaccel_queue_finish(q));
		for (i = 0; i < N; i++)
			VT_ASSERT(x[2 * N + i] == (float)i + (float)(N + i));

		o.first_group = 79;
		o.group_count = 1;
		VT_ASSERT_EQ(vaccel_launch_ex(q, k, grid, wg, &args, sizeof(args), &o), -EINVAL);
		o.first_group = 1;
		o.group_count = UINT64_MAX;
		VT_ASSERT_EQ(vaccel_launch_ex(q, k, grid, wg, &args, sizeof(args), &o), -EINVAL);
		o.first_group = 3;
		o.group_count = 0;
		VT_ASSERT_EQ(vaccel_launch_ex(q, k, grid, wg, &args, sizeof(args), &o), -EINVAL);
		o.first_group = 0;
		o.reserved[4] = 1;
		VT_ASSERT_EQ(vaccel_launch_ex(q, k, grid, wg, &args, sizeof(args), &o), -EINVAL);
		/* Nothing was recorded by the refusals. */
		VT_ASSERT_OK(vaccel_queue_finish(q));
		vaccel_bo_free(b.bo);
		vaccel_queue_destroy(q);
		vaccel_module_destroy(mod);
		vaccel_device_close(dev);
	}
}

/* --- events --- */

/*
 * A kernel on every member signals an event; a copy queue waits for it
 * and copies the results; the CPU waits for a second event; a sync_file
 * of the event polls readable; a CPU signal and a reset act on every
 * member.
 */
VTEST(events_across_members)
{
	struct vaccel_device *dev = open_unified(4);
	struct vaccel_module *mod = load(dev, VT_MODULE(vadd_module));
	struct vaccel_queue *cq = queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct vaccel_queue *xq = queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct vaccel_event *ev, *done;
	enum { N = 20000 };
	const uint32_t grid[3] = { N, 1, 1 }, wg[3] = { 128, 1, 1 };
	struct buf b = buf_new(dev, 3 * N * 4), out = buf_new(dev, N * 4);
	struct vadd_args args = { b.va, b.va + N * 4, b.va + 2 * N * 4, N };
	float *x = (float *)b.cpu;
	struct pollfd pfd;
	unsigned int i;
	int fd;

	for (i = 0; i < 2 * N; i++)
		x[i] = (float)(i % 1000) / 8.0f;
	VT_ASSERT_OK(vaccel_event_create(dev, &ev));
	VT_ASSERT_OK(vaccel_event_create(dev, &done));
	VT_ASSERT_EQ(vaccel_event_wait(ev, 0), -ETIME);
	VT_ASSERT_EQ(vaccel_queue_wait_event(xq, ev), -EINVAL);	/* no fence yet */

	VT_ASSERT_OK(vaccel_queue_delay(cq, 20 * 1000 * 1000));
	VT_ASSERT_OK(vaccel_launch(cq, kernel(mod, "vadd"), grid, wg, &args, sizeof(args)));
	VT_ASSERT_OK(vaccel_queue_signal(cq, ev));
	VT_ASSERT_OK(vaccel_queue_wait_event(xq, ev));
	VT_ASSERT_OK(vaccel_queue_copy(xq, out.va, b.va + 2 * N * 4, N * 4));
	VT_ASSERT_OK(vaccel_queue_signal(xq, done));
	VT_ASSERT_OK(vaccel_event_export_sync_file(done, &fd));
	VT_ASSERT_OK(vaccel_event_wait(done, -1));
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	VT_ASSERT_EQ(poll(&pfd, 1, 10000), 1);
	close(fd);
	VT_ASSERT_OK(vaccel_event_wait(ev, 0));
	for (i = 0; i < N; i++)
		VT_ASSERT(((float *)out.cpu)[i] == x[i] + x[N + i]);

	VT_ASSERT_OK(vaccel_event_reset(ev));
	VT_ASSERT_EQ(vaccel_event_wait(ev, 0), -ETIME);
	VT_ASSERT_OK(vaccel_event_signal(ev));
	VT_ASSERT_OK(vaccel_event_wait(ev, 0));
	VT_ASSERT_OK(vaccel_queue_wait_event(cq, ev));
	VT_ASSERT_OK(vaccel_queue_finish(cq));
	VT_ASSERT_OK(vaccel_queue_finish(xq));

	vaccel_event_destroy(ev);
	vaccel_event_destroy(done);
	vaccel_bo_free(b.bo);
	vaccel_bo_free(out.bo);
	vaccel_queue_destroy(xq);
	vaccel_queue_destroy(cq);
	vaccel_module_destroy(mod);
	vaccel_device_close(dev);
}

/* Events and queues of different devices do not mix. */
VTEST(events_of_other_devices_refused)
{
	struct vaccel_device *dev = open_unified(2), *plain;
	struct vaccel_queue *q = queue(dev, VACCEL_ENGINE_CLASS_COPY);
	struct vaccel_event *ev;

	VT_ASSERT_OK(vaccel_device_open(0, &plain));
	VT_ASSERT_OK(vaccel_event_create(plain, &ev));
	VT_ASSERT_EQ(vaccel_queue_signal(q, ev), -EINVAL);
	VT_ASSERT_EQ(vaccel_queue_wait_event(q, ev), -EINVAL);
	vaccel_event_destroy(ev);
	vaccel_device_close(plain);
	vaccel_queue_destroy(q);
	vaccel_device_close(dev);
}

/* --- remap --- */

/* Each member's copy engine reads @b whole: it must equal @want. */
static void check_from_every_member(struct vaccel_device *dev, const struct buf *b,
				    const unsigned char *want)
{
	unsigned int i, n = vaccel_device_member_count(dev);

	for (i = 0; i < n; i++) {
		struct vaccel_device *m;
		struct vaccel_bo *dst;
		struct vaccel_queue *q;
		void *cpu;

		VT_ASSERT_OK(vaccel_device_get_member(dev, i, &m));
		VT_ASSERT_OK(vaccel_bo_alloc(m, b->size, 0, &dst));
		VT_ASSERT_OK(vaccel_bo_map(dst, &cpu));
		q = queue(m, VACCEL_ENGINE_CLASS_COPY);
		VT_ASSERT_OK(vaccel_queue_copy(q, vaccel_bo_va(dst), b->va, b->size));
		VT_ASSERT_OK(vaccel_queue_finish(q));
		if (memcmp(cpu, want, b->size))
			vtest_fail(__FILE__, __LINE__, "member %u reads other data", i);
		vaccel_queue_destroy(q);
		vaccel_bo_free(dst);
	}
}

/*
 * 16 pages on four members (4 each): pages 2 to 9 to member 3, then pages
 * 0 to 15 to member 0, then page 15 to member 1: the owners follow, the
 * data stays, through the CPU view and as every member's engines read
 * it, and a kernel's results land where the remapped pages are.
 */
VTEST(remap_keeps_data)
{
	struct vaccel_device *dev = open_unified(4);
	struct buf b = buf_new(dev, 16 * PAGE);
	unsigned char *want = malloc(16 * PAGE);
	static const int owners1[16] = { 0, 0, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 3, 3, 3, 3 };
	unsigned int i;

	VT_ASSERT(want);
	for (i = 0; i < 16 * PAGE / 4; i++)
		((uint32_t *)b.cpu)[i] = pattern(i, 3);
	memcpy(want, b.cpu, 16 * PAGE);

	VT_ASSERT_OK(vaccel_bo_remap(b.bo, 2 * PAGE, 8 * PAGE, 3));
	for (i = 0; i < 16; i++)
		VT_ASSERT_EQ(vaccel_bo_owner(b.bo, i * PAGE), owners1[i]);
	VT_ASSERT(!memcmp(b.cpu, want, 16 * PAGE));
	check_from_every_member(dev, &b, want);

	/* The CPU view writes the new pages. */
	for (i = 0; i < 16 * PAGE / 4; i++)
		((uint32_t *)b.cpu)[i] ^= 0xffff;
	memcpy(want, b.cpu, 16 * PAGE);
	check_from_every_member(dev, &b, want);

	VT_ASSERT_OK(vaccel_bo_remap(b.bo, 0, 16 * PAGE, 0));
	for (i = 0; i < 16; i++)
		VT_ASSERT_EQ(vaccel_bo_owner(b.bo, i * PAGE), 0);
	VT_ASSERT_OK(vaccel_bo_remap(b.bo, 15 * PAGE, PAGE, 1));
	VT_ASSERT_EQ(vaccel_bo_owner(b.bo, 15 * PAGE), 1);
	VT_ASSERT_EQ(vaccel_bo_owner(b.bo, 14 * PAGE), 0);
	/* Already there: nothing to do. */
	VT_ASSERT_OK(vaccel_bo_remap(b.bo, 0, PAGE, 0));
	VT_ASSERT(!memcmp(b.cpu, want, 16 * PAGE));
	check_from_every_member(dev, &b, want);

	/* A fill through the queue after the remaps reaches every page. */
	{
		struct vaccel_queue *q = queue(dev, VACCEL_ENGINE_CLASS_COPY);

		VT_ASSERT_OK(vaccel_queue_fill(q, b.va, 16 * PAGE, 0x77777777));
		VT_ASSERT_OK(vaccel_queue_finish(q));
		for (i = 0; i < 16 * PAGE; i++)
			VT_ASSERT_EQ(b.cpu[i], 0x77);
		vaccel_queue_destroy(q);
	}
	free(want);
	vaccel_bo_free(b.bo);
	vaccel_device_close(dev);
}

/* A kernel computes into pages that were remapped before the data was set. */
VTEST(remap_then_launch)
{
	struct vaccel_device *dev = open_unified(4);
	struct vaccel_module *mod = load(dev, VT_MODULE(vadd_module));
	struct vaccel_queue *q = queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	enum { N = 12288 };
	const uint32_t grid[3] = { N, 1, 1 }, wg[3] = { 256, 1, 1 };
	struct buf b = buf_new(dev, 3 * N * 4);
	struct vadd_args args = { b.va, b.va + N * 4, b.va + 2 * N * 4, N };
	float *x = (float *)b.cpu;
	unsigned int i;

	/* Interleave: every other group of pages to member 1 or 2. */
	for (i = 0; i < 36; i += 2)
		VT_ASSERT_OK(vaccel_bo_remap(b.bo, (uint64_t)i * PAGE, PAGE, i % 4 ? 1 : 2));
	for (i = 0; i < 2 * N; i++)
		x[i] = (float)i * 0.5f;
	VT_ASSERT_OK(vaccel_launch(q, kernel(mod, "vadd"), grid, wg, &args, sizeof(args)));
	VT_ASSERT_OK(vaccel_queue_finish(q));
	for (i = 0; i < N; i++)
		VT_ASSERT(x[2 * N + i] == x[i] + x[N + i]);
	vaccel_bo_free(b.bo);
	vaccel_queue_destroy(q);
	vaccel_module_destroy(mod);
	vaccel_device_close(dev);
}

VTEST(remap_bad_input)
{
	struct vaccel_device *dev = open_unified(2), *plain;
	struct buf b = buf_new(dev, 4 * PAGE);
	struct vaccel_bo *pb;

	VT_ASSERT_EQ(vaccel_bo_remap(NULL, 0, PAGE, 0), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_remap(b.bo, 0, 0, 0), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_remap(b.bo, 100, PAGE, 0), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_remap(b.bo, 0, PAGE + 1, 0), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_remap(b.bo, 3 * PAGE, 2 * PAGE, 0), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_remap(b.bo, 4 * PAGE, PAGE, 0), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_remap(b.bo, PAGE, UINT64_MAX & ~4095ull, 0), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_remap(b.bo, 0, PAGE, 2), -EINVAL);
	VT_ASSERT_OK(vaccel_device_open(0, &plain));
	VT_ASSERT_OK(vaccel_bo_alloc(plain, PAGE, 0, &pb));
	VT_ASSERT_EQ(vaccel_bo_remap(pb, 0, PAGE, 0), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_owner(pb, 0), 0);
	vaccel_bo_free(pb);
	vaccel_device_close(plain);
	/* The refusals changed nothing. */
	VT_ASSERT_EQ(vaccel_bo_owner(b.bo, 0), 0);
	VT_ASSERT_EQ(vaccel_bo_owner(b.bo, 3 * PAGE), 1);
	vaccel_bo_free(b.bo);
	vaccel_device_close(dev);
}

/* --- faults --- */

/*
 * A kernel that faults on every member: the finish reports the fault, the
 * record names the kernel, and the queue then takes no more work.
 */
VTEST(fault_on_members)
{
	struct vaccel_device *dev = open_unified(4);
	struct vaccel_module *mod = load(dev, VT_MODULE(faults_module));
	struct vaccel_queue *q = queue(dev, VACCEL_ENGINE_CLASS_COMPUTE);
	struct vaccel_fault_info f;
	const uint32_t grid[3] = { 4, 1, 1 }, wg[3] = { 1, 1, 1 };
	uint64_t bad[2] = { 0x10, 0 };

	VT_ASSERT_OK(vaccel_launch(q, kernel(mod, "tf_load"), grid, wg, bad, sizeof(bad)));
	VT_ASSERT_EQ(vaccel_queue_finish(q), -EFAULT);
	VT_ASSERT_OK(vaccel_queue_get_fault(q, &f));
	VT_ASSERT_EQ(f.failure, VACCEL_FAILURE_FAULT);
	VT_ASSERT(f.kernel && !strcmp(f.kernel, "tf_load"));
	VT_ASSERT_EQ(vaccel_queue_delay(q, 1), -ECANCELED);
	VT_ASSERT_EQ(vaccel_queue_finish(q), -ECANCELED);
	vaccel_queue_destroy(q);
	vaccel_module_destroy(mod);
	vaccel_device_close(dev);
}

VTEST_MAIN()
