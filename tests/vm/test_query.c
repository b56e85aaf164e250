// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_query.c - DRM_IOCTL_VACCEL_QUERY with raw ioctls: the device node,
 * size negotiation of every query type, every field against the expected
 * topology, every documented error, drm core behaviour for unknown and
 * short ioctls, and concurrent queries from threads and processes.
 */
#include <pthread.h>
#include <sys/mman.h>

#include "vt_util.h"

#define SHORT_QUERY_SIZE	16	/* type, size, data: no flags or pad */

static long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* The node exists and DRM_IOCTL_VERSION names the driver and uapi version. */
VTEST(node_version)
{
	struct drm_version v;
	char name[64];
	int fd = vt_open_first();

	VT_ASSERT_EQ(vt_drm_version(fd, &v, name, sizeof(name)), 0);
	VT_ASSERT(!strcmp(name, "vaccel"));
	VT_ASSERT_EQ(v.version_major, DRM_VACCEL_UAPI_MAJOR);
	VT_ASSERT_EQ(v.version_minor, DRM_VACCEL_UAPI_MINOR);
}

/* Size 0 reports the answer size and does not look at data. */
VTEST(device_size_zero)
{
	int fd = vt_open_first();
	__u32 size = 0;

	VT_ASSERT_EQ(vt_query(fd, DRM_VACCEL_QUERY_DEVICE, NULL, &size), 0);
	VT_ASSERT_EQ(size, sizeof(struct drm_vaccel_device_info));

	size = 0;
	VT_ASSERT_EQ(vt_query(fd, DRM_VACCEL_QUERY_DEVICE, (void *)8, &size), 0);
	VT_ASSERT_EQ(size, sizeof(struct drm_vaccel_device_info));
}

/* An exact-size query fills every field with the expected topology. */
VTEST(device_fields)
{
	long long devices = vt_expect("VT_DEVICES", "devices");
	long long compute = vt_expect("VT_COMPUTE", "compute_engines");
	long long copy = vt_expect("VT_COPY", "copy_engines");
	long long va_bits = vt_expect("VT_VA_BITS", "va_bits");
	long long depth = vt_expect_def("VT_HW_QUEUE_DEPTH", "hw_queue_depth", 2,
					false);
	long long single = vt_expect_def("VT_SINGLE_USE", "single_use", 0, false);
	struct drm_vaccel_device_info info;
	int fd = vt_open_first();
	__u32 size = sizeof(info);

	memset(&info, 0xff, sizeof(info));
	VT_ASSERT_EQ(vt_query(fd, DRM_VACCEL_QUERY_DEVICE, &info, &size), 0);
	VT_ASSERT_EQ(size, sizeof(info));

	VT_ASSERT_EQ(info.uapi_major, DRM_VACCEL_UAPI_MAJOR);
	VT_ASSERT_EQ(info.uapi_minor, DRM_VACCEL_UAPI_MINOR);
	VT_ASSERT(info.device_index < devices);
	VT_ASSERT_EQ(info.flags, single ? DRM_VACCEL_DEVICE_SINGLE_USE : 0);
	VT_ASSERT_EQ(info.engine_count[DRM_VACCEL_ENGINE_CLASS_COMPUTE], compute);
	VT_ASSERT_EQ(info.engine_count[DRM_VACCEL_ENGINE_CLASS_COPY], copy);
	VT_ASSERT_EQ(info.engine_count[DRM_VACCEL_ENGINE_CLASS_PAGING], 1);
	VT_ASSERT_EQ(info.engine_count[3], 0);
	VT_ASSERT_EQ(info.engines_total, compute + copy + 1);
	VT_ASSERT_EQ(info.hw_queue_depth, depth);
	VT_ASSERT_EQ(info.va_bits, va_bits);
	VT_ASSERT_EQ(info.page_size, 4096);
	VT_ASSERT(info.va_start > 0);
	VT_ASSERT_EQ(info.va_start % info.page_size, 0);
	VT_ASSERT(info.va_start < info.va_end);
	VT_ASSERT(info.va_end == 1ull << va_bits);
	VT_ASSERT(info.max_bo_size > 0);
	VT_ASSERT_EQ(info.max_bo_size % info.page_size, 0);
	VT_ASSERT(info.max_bind_ops > 0);
	VT_ASSERT(info.max_bos_per_file > 0);
}

/* The VM statistics: size negotiation like the device answer, empty VM. */
VTEST(vm_stats_size)
{
	struct drm_vaccel_vm_stats s;
	unsigned char buf[sizeof(s) + 16];
	int fd = vt_open_first();
	__u32 size = 0, i;

	VT_ASSERT_EQ(vt_query(fd, DRM_VACCEL_QUERY_VM_STATS, NULL, &size), 0);
	VT_ASSERT_EQ(size, sizeof(s));
	for (i = 1; i < sizeof(s); i += 7) {
		size = i;
		VT_ASSERT_ERRNO(vt_query(fd, DRM_VACCEL_QUERY_VM_STATS, &s, &size), EINVAL);
	}
	memset(buf, 0xee, sizeof(buf));
	size = sizeof(buf);
	VT_ASSERT_EQ(vt_query(fd, DRM_VACCEL_QUERY_VM_STATS, buf, &size), 0);
	VT_ASSERT_EQ(size, sizeof(s));
	memcpy(&s, buf, sizeof(s));
	VT_ASSERT(s.mappings == 0 && s.mapped_bytes == 0);
	VT_ASSERT(s.pt_pages >= 1 && s.pt_bytes == s.pt_pages * 4096);
	for (i = sizeof(s); i < sizeof(buf); i++)
		VT_ASSERT_EQ(buf[i], 0);
	size = sizeof(s);
	VT_ASSERT_ERRNO(vt_query(fd, DRM_VACCEL_QUERY_VM_STATS, (void *)8, &size), EFAULT);
}

/* A bigger buffer gets the answer, a cleared tail and the full size. */
VTEST(device_bigger_buffer)
{
	struct drm_vaccel_device_info ref;
	unsigned char buf[sizeof(ref) + 64];
	int fd = vt_open_first();
	__u32 size = sizeof(buf);
	size_t i;

	vt_device_info(fd, &ref);
	memset(buf, 0xff, sizeof(buf));
	VT_ASSERT_EQ(vt_query(fd, DRM_VACCEL_QUERY_DEVICE, buf, &size), 0);
	VT_ASSERT_EQ(size, sizeof(ref));
	VT_ASSERT(!memcmp(buf, &ref, sizeof(ref)));
	for (i = sizeof(ref); i < sizeof(buf); i++)
		VT_ASSERT_EQ(buf[i], 0);
}

/* The first released size of the device answer (uapi 1.0). */
#define DEVICE_INFO_V1_SIZE	64

/* Below the first released size: -EINVAL, and size is left alone. */
VTEST(device_smaller_buffer)
{
	struct drm_vaccel_device_info info;
	static const __u32 sizes[] = { 1, 4, 8, DEVICE_INFO_V1_SIZE - 8,
				       DEVICE_INFO_V1_SIZE - 1 };
	int fd = vt_open_first();
	unsigned int i;
	__u32 size;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size = sizes[i];
		VT_ASSERT_ERRNO(vt_query(fd, DRM_VACCEL_QUERY_DEVICE, &info, &size),
				EINVAL);
		VT_ASSERT_EQ(size, sizes[i]);
	}
	size = sizeof(info);
	VT_ASSERT_EQ(vt_query(fd, DRM_VACCEL_QUERY_DEVICE, &info, &size), 0);
}

/*
 * From the first released size up: the prefix that fits, nothing written
 * past it, and the full size back; what programs built against an older
 * header see.
 */
VTEST(device_older_buffer)
{
	struct drm_vaccel_device_info ref;
	unsigned char buf[sizeof(ref) + 8];
	int fd = vt_open_first();
	__u32 n, size;

	vt_device_info(fd, &ref);
	for (n = DEVICE_INFO_V1_SIZE; n <= sizeof(ref); n += 4) {
		memset(buf, 0xee, sizeof(buf));
		size = n;
		VT_ASSERT_EQ(vt_query(fd, DRM_VACCEL_QUERY_DEVICE, buf, &size), 0);
		VT_ASSERT_EQ(size, sizeof(ref));
		VT_ASSERT(!memcmp(buf, &ref, n));
		VT_ASSERT_EQ(buf[n], 0xee);
	}
}

/* Size 0 reports header plus count entries of entry_size. */
VTEST(engines_size_zero)
{
	struct drm_vaccel_device_info info;
	struct drm_vaccel_engine_list *list;
	int fd = vt_open_first();
	__u32 size = 0, full;

	vt_device_info(fd, &info);
	VT_ASSERT_EQ(vt_query(fd, DRM_VACCEL_QUERY_ENGINES, (void *)8, &size), 0);
	full = size;

	list = vt_engine_list(fd, &size);
	VT_ASSERT_EQ(size, full);
	VT_ASSERT_EQ(list->count, info.engines_total);
	VT_ASSERT_EQ(list->entry_size, sizeof(struct drm_vaccel_engine_info));
	VT_ASSERT_EQ(full, sizeof(*list) + list->count * list->entry_size);
}

/* Entries ordered by class then instance, with consistent fields. */
VTEST(engines_entries)
{
	unsigned int per_class[DRM_VACCEL_ENGINE_CLASS_COUNT] = { 0 };
	long long depth = vt_expect_def("VT_HW_QUEUE_DEPTH", "hw_queue_depth", 2,
					false);
	struct drm_vaccel_device_info info;
	struct drm_vaccel_engine_list *list;
	int fd = vt_open_first();
	unsigned int i, prev_class = 0;
	long long units;
	__u32 size;

	/* compute_units=0 is the default: the online CPUs, at most 8. */
	units = vt_expect_def("VT_COMPUTE_UNITS", "compute_units", 0, true);
	if (!units)
		units = sysconf(_SC_NPROCESSORS_ONLN) < 8 ? sysconf(_SC_NPROCESSORS_ONLN) : 8;
	vt_device_info(fd, &info);
	list = vt_engine_list(fd, &size);
	for (i = 0; i < list->count; i++) {
		struct drm_vaccel_engine_info *e = vt_engine(list, i);

		VT_ASSERT(e->engine_class < DRM_VACCEL_ENGINE_CLASS_COUNT);
		VT_ASSERT(e->engine_class >= prev_class);
		prev_class = e->engine_class;
		VT_ASSERT_EQ(e->instance, per_class[e->engine_class]);
		per_class[e->engine_class]++;
		VT_ASSERT_EQ(e->hw_queue_depth, depth);
		VT_ASSERT(e->preempt_granularity <= DRM_VACCEL_PREEMPT_INSTRUCTION);
		VT_ASSERT(e->preempt_caps & (1u << e->preempt_granularity));
		VT_ASSERT_EQ(e->preempt_caps & ~0xfu, 0);
		VT_ASSERT_EQ(e->compute_units,
			     e->engine_class == DRM_VACCEL_ENGINE_CLASS_COMPUTE ? units : 0);
		VT_ASSERT_EQ(e->reserved32, 0);
		VT_ASSERT_EQ(e->reserved, 0);
	}
	for (i = 0; i < DRM_VACCEL_ENGINE_CLASS_COUNT; i++)
		VT_ASSERT_EQ(per_class[i], info.engine_count[i]);
	VT_ASSERT_EQ(per_class[DRM_VACCEL_ENGINE_CLASS_PAGING], 1);
}

/* A bigger buffer gets the list, a cleared tail and the full size. */
VTEST(engines_bigger_buffer)
{
	struct drm_vaccel_engine_list *ref;
	unsigned char *buf;
	int fd = vt_open_first();
	__u32 full, size;
	size_t i;

	ref = vt_engine_list(fd, &full);
	buf = malloc(full + 100);
	VT_ASSERT(buf);
	memset(buf, 0xff, full + 100);
	size = full + 100;
	VT_ASSERT_EQ(vt_query(fd, DRM_VACCEL_QUERY_ENGINES, buf, &size), 0);
	VT_ASSERT_EQ(size, full);
	VT_ASSERT(!memcmp(buf, ref, full));
	for (i = full; i < full + 100; i++)
		VT_ASSERT_EQ(buf[i], 0);
}

/* The engine list is never cut: any size below the full one is -EINVAL. */
VTEST(engines_too_small)
{
	struct drm_vaccel_engine_list *list;
	int fd = vt_open_first();
	__u32 full, size;
	unsigned int i;
	__u32 sizes[5];

	list = vt_engine_list(fd, &full);
	sizes[0] = 4;
	sizes[1] = sizeof(*list);
	sizes[2] = sizeof(*list) + list->entry_size;
	sizes[3] = full - list->entry_size;
	sizes[4] = full - 1;
	for (i = 0; i < 5; i++) {
		size = sizes[i];
		if (size >= full)
			continue;
		VT_ASSERT_ERRNO(vt_query(fd, DRM_VACCEL_QUERY_ENGINES, list, &size),
				EINVAL);
	}
}

/* Types beyond the enum are -EINVAL, with or without a buffer. */
VTEST(unknown_type)
{
	static const __u32 types[] = { DRM_VACCEL_QUERY_VM_STATS + 1, 0x100,
				       0x7fffffff, 0xffffffff };
	unsigned char buf[4096];
	int fd = vt_open_first();
	unsigned int i;
	__u32 size;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		size = 0;
		VT_ASSERT_ERRNO(vt_query(fd, types[i], NULL, &size), EINVAL);
		size = sizeof(buf);
		VT_ASSERT_ERRNO(vt_query(fd, types[i], buf, &size), EINVAL);
	}
}

/* Non-zero flags or pad are -EINVAL, whatever the type and size. */
VTEST(flags_pad_nonzero)
{
	static const __u32 bad[] = { 1, 2, 0x80000000, 0xffffffff };
	unsigned char buf[4096];
	unsigned int i, type;
	int fd = vt_open_first();
	__u32 size;

	for (type = 0; type <= DRM_VACCEL_QUERY_VM_STATS; type++) {
		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			size = 0;
			VT_ASSERT_ERRNO(vt_query_raw(fd, type, NULL, &size, bad[i], 0),
					EINVAL);
			size = sizeof(buf);
			VT_ASSERT_ERRNO(vt_query_raw(fd, type, buf, &size, bad[i], 0),
					EINVAL);
			size = 0;
			VT_ASSERT_ERRNO(vt_query_raw(fd, type, NULL, &size, 0, bad[i]),
					EINVAL);
			size = sizeof(buf);
			VT_ASSERT_ERRNO(vt_query_raw(fd, type, buf, &size, 0, bad[i]),
					EINVAL);
		}
	}
}

/* A NULL data pointer with a size is -EFAULT. */
VTEST(efault_null)
{
	int fd = vt_open_first();
	__u32 size, full;

	size = sizeof(struct drm_vaccel_device_info);
	VT_ASSERT_ERRNO(vt_query(fd, DRM_VACCEL_QUERY_DEVICE, NULL, &size), EFAULT);

	free(vt_engine_list(fd, &full));
	size = full;
	VT_ASSERT_ERRNO(vt_query(fd, DRM_VACCEL_QUERY_ENGINES, NULL, &size), EFAULT);
}

/* A read-only buffer is -EFAULT. */
VTEST(efault_readonly)
{
	int fd = vt_open_first();
	__u32 size, full;
	void *ro;

	ro = mmap(NULL, page_size(), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	VT_ASSERT(ro != MAP_FAILED);

	size = sizeof(struct drm_vaccel_device_info);
	VT_ASSERT_ERRNO(vt_query(fd, DRM_VACCEL_QUERY_DEVICE, ro, &size), EFAULT);

	free(vt_engine_list(fd, &full));
	VT_ASSERT(full <= page_size());
	size = full;
	VT_ASSERT_ERRNO(vt_query(fd, DRM_VACCEL_QUERY_ENGINES, ro, &size), EFAULT);
}

/* A buffer that runs past the end of a mapping is -EFAULT. */
VTEST(efault_straddle)
{
	long ps = page_size();
	int fd = vt_open_first();
	__u32 size, full;
	char *map;

	map = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	VT_ASSERT(map != MAP_FAILED);
	VT_ASSERT_EQ(munmap(map + ps, ps), 0);

	size = sizeof(struct drm_vaccel_device_info);
	VT_ASSERT_ERRNO(vt_query(fd, DRM_VACCEL_QUERY_DEVICE, map + ps - 8, &size),
			EFAULT);

	free(vt_engine_list(fd, &full));
	size = full;
	VT_ASSERT_ERRNO(vt_query(fd, DRM_VACCEL_QUERY_ENGINES, map + ps - 8, &size),
			EFAULT);

	/* The same buffer entirely inside the mapping works. */
	size = sizeof(struct drm_vaccel_device_info);
	VT_ASSERT_EQ(vt_query(fd, DRM_VACCEL_QUERY_DEVICE, map, &size), 0);
}

/* An ioctl number the driver does not have is -EINVAL (drm core). */
VTEST(unknown_ioctl)
{
	struct drm_vaccel_query q = { 0 };
	int fd = vt_open_first();

	VT_ASSERT_ERRNO(ioctl(fd, DRM_IOWR(DRM_COMMAND_BASE + 0x3f,
					   struct drm_vaccel_query), &q), EINVAL);
}

/*
 * An ioctl encoded with a shorter structure (no flags, no pad) still works:
 * drm core zero-extends the argument and copies back only that prefix.
 */
VTEST(short_struct)
{
	struct drm_vaccel_device_info ref, info;
	unsigned long cmd = _IOC(_IOC_READ | _IOC_WRITE, DRM_IOCTL_BASE,
				    DRM_COMMAND_BASE + DRM_VACCEL_QUERY,
				    SHORT_QUERY_SIZE);
	struct {
		struct drm_vaccel_query q;
		__u64 canary;
	} arg;
	int fd = vt_open_first();

	vt_device_info(fd, &ref);

	memset(&arg, 0, sizeof(arg));
	arg.q.type = DRM_VACCEL_QUERY_DEVICE;
	arg.q.flags = 0xdeadbeef;	/* beyond the 16 bytes: not read */
	arg.q.pad = 0xdeadbeef;
	arg.canary = 0x1122334455667788ull;
	VT_ASSERT_EQ(ioctl(fd, cmd, &arg), 0);
	VT_ASSERT_EQ(arg.q.size, sizeof(info));
	VT_ASSERT_EQ(arg.q.flags, 0xdeadbeef);	/* not written back either */

	memset(&info, 0, sizeof(info));
	arg.q.size = sizeof(info);
	arg.q.data = (uintptr_t)&info;
	VT_ASSERT_EQ(ioctl(fd, cmd, &arg), 0);
	VT_ASSERT(!memcmp(&info, &ref, sizeof(info)));
	VT_ASSERT_EQ(arg.canary, 0x1122334455667788ull);
}

/* 4 workers of 300 loops: 2,400 queries, 30 s and more on the debug kernel. */
#define HAMMER_LOOPS	300
#define HAMMER_WORKERS	4

struct hammer {
	int fd;
	struct drm_vaccel_device_info ref;
	struct drm_vaccel_engine_list *ref_list;
	__u32 ref_size;
	int failures;
};

/* Queries both types HAMMER_LOOPS times; returns the number of mismatches. */
static int hammer_run(struct hammer *h)
{
	struct drm_vaccel_device_info info;
	int i, bad = 0;
	void *list;
	__u32 size;

	list = malloc(h->ref_size);
	if (!list)
		return HAMMER_LOOPS;
	for (i = 0; i < HAMMER_LOOPS; i++) {
		size = sizeof(info);
		if (vt_query(h->fd, DRM_VACCEL_QUERY_DEVICE, &info, &size) ||
		    size != sizeof(info) || memcmp(&info, &h->ref, sizeof(info)))
			bad++;
		size = h->ref_size;
		if (vt_query(h->fd, DRM_VACCEL_QUERY_ENGINES, list, &size) ||
		    size != h->ref_size || memcmp(list, h->ref_list, size))
			bad++;
	}
	free(list);
	return bad;
}

static void *hammer_thread(void *arg)
{
	struct hammer *h = arg;

	__atomic_add_fetch(&h->failures, hammer_run(h), __ATOMIC_RELAXED);
	return NULL;
}

/* Threads sharing one file get identical answers. */
VTEST(concurrent_threads)
{
	pthread_t t[HAMMER_WORKERS];
	struct hammer h = { 0 };
	int i;

	h.fd = vt_open_first();
	vt_device_info(h.fd, &h.ref);
	h.ref_list = vt_engine_list(h.fd, &h.ref_size);
	for (i = 0; i < HAMMER_WORKERS; i++)
		VT_ASSERT_EQ(pthread_create(&t[i], NULL, hammer_thread, &h), 0);
	for (i = 0; i < HAMMER_WORKERS; i++)
		VT_ASSERT_EQ(pthread_join(t[i], NULL), 0);
	VT_ASSERT_EQ(h.failures, 0);
}

/* Processes, half sharing the parent's file, half with their own, agree. */
VTEST(concurrent_processes)
{
	long long single = vt_expect_def("VT_SINGLE_USE", "single_use", 0, false);
	pid_t pids[HAMMER_WORKERS];
	struct hammer h = { 0 };
	int i, status;

	h.fd = vt_open_first();
	vt_device_info(h.fd, &h.ref);
	h.ref_list = vt_engine_list(h.fd, &h.ref_size);
	for (i = 0; i < HAMMER_WORKERS; i++) {
		pids[i] = fork();
		VT_ASSERT(pids[i] >= 0);
		if (!pids[i]) {
			if (i & 1 && !single)
				h.fd = vt_open_first();
			_exit(hammer_run(&h) ? 1 : 0);
		}
	}
	for (i = 0; i < HAMMER_WORKERS; i++) {
		VT_ASSERT_EQ(waitpid(pids[i], &status, 0), pids[i]);
		VT_ASSERT(WIFEXITED(status));
		VT_ASSERT_EQ(WEXITSTATUS(status), 0);
	}
}

VTEST_MAIN()
