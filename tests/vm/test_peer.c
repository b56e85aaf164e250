// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_peer.c - peer mappings between two devices: a BO in device 0's
 * segment, shared by dma-buf, mapped into a VM of device 1, whose engines
 * reach it as peer memory; moves by either side rewrite both sides' page
 * tables; eviction and the exporter's exit leave the importer's view whole;
 * the counters of bytes read and written per class of memory, in debugfs
 * and fdinfo; and, when the plan loads the module with cost_peer_ns
 * (VT_COST_PEER_NS), the engine time the cost model charges.
 *
 * The plan loads the module with devices=2 device_mem_mb=16.
 * Needs root (debugfs).
 */
#include <vaccel.h>

#include "vt_exec.h"
#include "vt_mem.h"
#include "vt_module.h"

#define SIZE	(64 * VT_PAGE)

/* Bytes an engine class moved in a class of memory, from fdinfo. */
static long long fdinfo_traffic(int fd, const char *dir, const char *memory,
				const char *engine_class)
{
	char key[64];

	snprintf(key, sizeof(key), "vaccel-%s-%s-%s", dir, memory, engine_class);
	return vt_fdinfo_kv(fd, key);
}

/* The engines' counters of device @fd, summed from debugfs engines. */
struct traffic {
	unsigned long long read[3];	/* local, system, peer */
	unsigned long long written[3];
};

static struct traffic engine_traffic(int fd)
{
	char *text = vt_debugfs_read(fd, "engines"), *line, *save = NULL;
	struct traffic t = { 0 };
	unsigned int engines = 0;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long r[3], w[3];
		int i;

		if (sscanf(line, "  memory: read local %llu system %llu peer %llu written local %llu system %llu peer %llu",
			   &r[0], &r[1], &r[2], &w[0], &w[1], &w[2]) != 6)
			continue;
		for (i = 0; i < 3; i++) {
			t.read[i] += r[i];
			t.written[i] += w[i];
		}
		engines++;
	}
	free(text);
	VT_ASSERT(engines > 0);
	return t;
}

/* Every entry of @pages pages at @va holds a device address in @info's segment. */
static void expect_ptes_in(int fd, __u64 va, size_t pages,
			   const struct drm_vaccel_device_info *info)
{
	struct vt_pte *t;
	size_t n = vt_page_table(fd, &t), i;

	for (i = 0; i < pages; i++) {
		__u64 pte = vt_pte_find(t, n, va + i * VT_PAGE);
		__u64 addr = pte & DRM_VACCEL_PTE_ADDR_MASK;

		VT_ASSERT(pte & DRM_VACCEL_PTE_VALID);
		VT_ASSERT(pte & DRM_VACCEL_PTE_DEVICE);
		VT_ASSERT(addr >= info->device_mem_base &&
			  addr < info->device_mem_base + info->device_mem_size);
	}
	free(t);
}

/* Reads @size bytes at @va of @fd's VM through its engines and compares. */
static void expect_gpu_reads(int fd, __u64 va, const void *want, __u64 size)
{
	unsigned char *buf = malloc(size);

	VT_ASSERT(buf);
	vt_gpu_read(fd, va, buf, size);
	VT_ASSERT(!memcmp(buf, want, size));
	free(buf);
}

/* Device 0 exports a BO of its segment, device 1 imports and maps it. */
struct peer {
	struct vt_dev a, b;
	__u32 ha, hb;
	unsigned char *cpu_a;
	__u64 va_a, va_b;
	int dmabuf;
};

static struct peer peer_open(__u32 flags)
{
	struct peer p;

	vt_expect("VT_DEVICES", "devices");
	vt_dev_init(&p.a, vt_open_index(0));
	vt_dev_init(&p.b, vt_open_index(1));
	VT_ASSERT(p.a.info.device_mem_size && p.b.info.device_mem_size);
	p.ha = vt_bo_create(p.a.fd, SIZE, flags);
	p.cpu_a = vt_bo_mmap(p.a.fd, p.ha, SIZE);
	vt_fill_pages(p.cpu_a, SIZE / VT_PAGE, 31);
	p.va_a = vt_va_alloc(&p.a, SIZE);
	vt_map(p.a.fd, p.ha, 0, p.va_a, SIZE, 0);
	p.dmabuf = vt_prime_export(p.a.fd, p.ha);
	p.hb = vt_prime_import(p.b.fd, p.dmabuf);
	p.va_b = vt_va_alloc(&p.b, SIZE);
	vt_map(p.b.fd, p.hb, 0, p.va_b, SIZE, 0);
	return p;
}

/*
 * The import is the exporter's BO: its region, its size, marked imported;
 * device 1's page tables point into device 0's segment; both CPUs and both
 * devices' engines see the same bytes.
 */
VTEST(peer_import_maps_the_exporters_memory)
{
	struct peer p = peer_open(DRM_VACCEL_BO_DEVICE);
	struct drm_vaccel_bo_info info;
	unsigned char *cpu_b;

	vt_bo_info(p.b.fd, p.hb, &info);
	VT_ASSERT_EQ(info.size, SIZE);
	VT_ASSERT_EQ(info.flags, DRM_VACCEL_BO_DEVICE | DRM_VACCEL_BO_IMPORTED);
	VT_ASSERT_EQ(info.region, DRM_VACCEL_REGION_DEVICE(p.a.info.device_index));
	VT_ASSERT_EQ(info.mappings, 1);
	expect_ptes_in(p.b.fd, p.va_b, SIZE / VT_PAGE, &p.a.info);
	expect_ptes_in(p.a.fd, p.va_a, SIZE / VT_PAGE, &p.a.info);

	expect_gpu_reads(p.b.fd, p.va_b, p.cpu_a, SIZE);
	cpu_b = vt_bo_mmap(p.b.fd, p.hb, SIZE);
	VT_ASSERT(!memcmp(cpu_b, p.cpu_a, SIZE));
	cpu_b[100] ^= 0x5a;
	VT_ASSERT_EQ(cpu_b[100], p.cpu_a[100]);
	expect_gpu_reads(p.a.fd, p.va_a, cpu_b, SIZE);

	/* Exported again by device 1, it is the same dma-buf: device 0's BO. */
	VT_ASSERT_EQ(vt_prime_import(p.a.fd, vt_prime_export(p.b.fd, p.hb)), p.ha);
	munmap(cpu_b, SIZE);
}

/*
 * Every byte an engine moves is counted in the class of memory it lands
 * in: device 1 reading the BO counts peer reads, device 0 local ones, and
 * both write their copies to system memory.
 */
VTEST(traffic_counted_by_class)
{
	struct peer p = peer_open(DRM_VACCEL_BO_DEVICE);
	struct traffic a0 = engine_traffic(p.a.fd), b0 = engine_traffic(p.b.fd);
	struct traffic a1, b1;
	long long peer_b = fdinfo_traffic(p.b.fd, "read", "peer", "compute");
	long long local_a = fdinfo_traffic(p.a.fd, "read", "local", "compute");
	long long sys_b = fdinfo_traffic(p.b.fd, "written", "system", "compute");

	expect_gpu_reads(p.b.fd, p.va_b, p.cpu_a, SIZE);
	expect_gpu_reads(p.a.fd, p.va_a, p.cpu_a, SIZE);
	a1 = engine_traffic(p.a.fd);
	b1 = engine_traffic(p.b.fd);

	VT_ASSERT_EQ(b1.read[2] - b0.read[2], SIZE);
	VT_ASSERT_EQ(b1.read[0] - b0.read[0], 0);
	VT_ASSERT_EQ(a1.read[0] - a0.read[0], SIZE);
	VT_ASSERT_EQ(a1.read[2] - a0.read[2], 0);
	/* The copies' destinations, and the DMA buffers read, are system memory. */
	VT_ASSERT_EQ(b1.written[1] - b0.written[1], SIZE);
	VT_ASSERT(b1.read[1] - b0.read[1] >= 32);

	VT_ASSERT_EQ(fdinfo_traffic(p.b.fd, "read", "peer", "compute") - peer_b, SIZE);
	VT_ASSERT_EQ(fdinfo_traffic(p.a.fd, "read", "local", "compute") - local_a, SIZE);
	VT_ASSERT_EQ(fdinfo_traffic(p.b.fd, "written", "system", "compute") - sys_b, SIZE);
	/* Another file of the same device is not charged. */
	{
		struct vt_dev other;

		vt_dev_init(&other, vt_open_index(1));
		VT_ASSERT_EQ(fdinfo_traffic(other.fd, "read", "peer", "compute"), 0);
		vt_dev_close(&other);
	}
}

/*
 * Either side may move the BO, to either segment or to system memory; each
 * move rewrites both VMs' entries, and what each side reads stays the same.
 */
VTEST(moves_by_either_side)
{
	struct peer p = peer_open(DRM_VACCEL_BO_DEVICE);
	__u32 dev_a = DRM_VACCEL_REGION_DEVICE(p.a.info.device_index);
	__u32 dev_b = DRM_VACCEL_REGION_DEVICE(p.b.info.device_index);
	struct traffic b0, b1;

	vt_migrate(p.b.fd, p.hb, dev_b);
	VT_ASSERT_EQ(vt_bo_region(p.a.fd, p.ha), dev_b);
	VT_ASSERT_EQ(vt_bo_region(p.b.fd, p.hb), dev_b);
	expect_ptes_in(p.a.fd, p.va_a, SIZE / VT_PAGE, &p.b.info);
	expect_ptes_in(p.b.fd, p.va_b, SIZE / VT_PAGE, &p.b.info);
	/* Now local to device 1. */
	b0 = engine_traffic(p.b.fd);
	expect_gpu_reads(p.b.fd, p.va_b, p.cpu_a, SIZE);
	b1 = engine_traffic(p.b.fd);
	VT_ASSERT_EQ(b1.read[0] - b0.read[0], SIZE);
	VT_ASSERT_EQ(b1.read[2] - b0.read[2], 0);
	expect_gpu_reads(p.a.fd, p.va_a, p.cpu_a, SIZE);

	p.cpu_a[7] = 0x77;
	vt_migrate(p.a.fd, p.ha, DRM_VACCEL_REGION_SYSTEM);
	VT_ASSERT_EQ(vt_bo_region(p.b.fd, p.hb), DRM_VACCEL_REGION_SYSTEM);
	expect_gpu_reads(p.b.fd, p.va_b, p.cpu_a, SIZE);
	vt_migrate(p.b.fd, p.hb, dev_a);
	expect_ptes_in(p.b.fd, p.va_b, SIZE / VT_PAGE, &p.a.info);
	expect_gpu_reads(p.b.fd, p.va_b, p.cpu_a, SIZE);
	VT_ASSERT_EQ(p.cpu_a[7], 0x77);
}

/*
 * A file moves a BO only to system memory, its own device's segment or
 * the segment of the BO's device: device 0's file cannot put a BO in
 * device 1's segment (-EACCES), which only device 1's users may fill and
 * evict, not even one device 1 shares.
 */
VTEST(migrate_to_a_foreign_segment_refused)
{
	struct peer p = peer_open(0);
	__u32 dev_b = DRM_VACCEL_REGION_DEVICE(p.b.info.device_index);
	__u32 own = vt_bo_create(p.a.fd, SIZE, 0);
	struct drm_vaccel_device_info before, after;

	vt_device_info(p.b.fd, &before);
	VT_ASSERT_ERRNO(vt_migrate_raw(p.a.fd, own, dev_b, 0), EACCES);
	VT_ASSERT_EQ(vt_bo_region(p.a.fd, own), DRM_VACCEL_REGION_SYSTEM);
	vt_device_info(p.b.fd, &after);
	VT_ASSERT_EQ(after.device_mem_free, before.device_mem_free);
	/* The shared BO too, but through device 1's handle. */
	VT_ASSERT_ERRNO(vt_migrate_raw(p.a.fd, p.ha, dev_b, 0), EACCES);
	vt_migrate(p.b.fd, p.hb, dev_b);
	VT_ASSERT_EQ(vt_bo_region(p.a.fd, p.ha), dev_b);
	vt_gem_close(p.a.fd, own);
}

/*
 * Device 0 fills its segment: the BO device 1 maps is evicted, device 1
 * still reads it whole (in system memory), and its next buffer brings it
 * back to device 0's segment.
 */
VTEST(eviction_of_a_peer_mapped_bo)
{
	struct peer p = peer_open(DRM_VACCEL_BO_DEVICE);
	__u64 big = p.a.info.device_mem_size - SIZE / 2;
	struct drm_vaccel_bo_info info;
	unsigned char *cpu;
	__u32 h;

	h = vt_bo_create(p.a.fd, big, DRM_VACCEL_BO_DEVICE);
	vt_bo_info(p.b.fd, p.hb, &info);
	VT_ASSERT_EQ(info.region, DRM_VACCEL_REGION_SYSTEM);
	VT_ASSERT_EQ(info.evictions, 1);
	cpu = vt_bo_mmap(p.b.fd, p.hb, SIZE);
	VT_ASSERT(!memcmp(cpu, p.cpu_a, SIZE));
	/* Device 1's buffer brings it home, evicting device 0's big BO. */
	expect_gpu_reads(p.b.fd, p.va_b, p.cpu_a, SIZE);
	VT_ASSERT_EQ(vt_bo_region(p.b.fd, p.hb),
		     DRM_VACCEL_REGION_DEVICE(p.a.info.device_index));
	VT_ASSERT_EQ(vt_bo_region(p.a.fd, h), DRM_VACCEL_REGION_SYSTEM);
	expect_ptes_in(p.b.fd, p.va_b, SIZE / VT_PAGE, &p.a.info);
	VT_ASSERT(!memcmp(cpu, p.cpu_a, SIZE));
	munmap(cpu, SIZE);
}

/*
 * The exporter lets go of everything, its file included: the importer's
 * mapping keeps the BO, in device 0's segment, and device 0 counts it
 * until device 1 lets go too.
 */
VTEST(exporter_exits_first)
{
	struct peer p = peer_open(DRM_VACCEL_BO_DEVICE);
	unsigned char *want = malloc(SIZE);
	struct vt_dev_mem before, after;
	char dir[VT_DIR_MAX];

	VT_ASSERT(want);
	memcpy(want, p.cpu_a, SIZE);
	vt_debugfs_dir_index(0, dir, sizeof(dir));
	close(p.dmabuf);
	munmap(p.cpu_a, SIZE);
	vt_dev_close(&p.a);
	vt_dev_mem_dir(dir, &before);
	VT_ASSERT(before.bo_count >= 1);

	expect_gpu_reads(p.b.fd, p.va_b, want, SIZE);
	expect_ptes_in(p.b.fd, p.va_b, SIZE / VT_PAGE, &p.a.info);
	vt_unmap(p.b.fd, p.va_b, SIZE);
	vt_gem_close(p.b.fd, p.hb);
	vt_dev_mem_dir(dir, &after);
	VT_ASSERT_EQ(after.bo_count, before.bo_count - 1);
	VT_ASSERT_EQ(after.bo_bytes, before.bo_bytes - (long long)SIZE);
	free(want);
}

/*
 * The exporter's device is unbound while its segment holds a BO that the
 * importer's VM maps, and while the importer's move of that BO to system
 * memory waits (device 1's hold_moves).  The move completes, from the
 * segment of a device that is gone; the importer's engines and CPU read
 * the data, first in system memory, then in its own segment.  The gone
 * segment refuses new BOs (-ENODEV); once everyone lets go, device 0
 * binds again, its segment empty.
 */
VTEST(exporter_unbound_while_mapped)
{
	struct peer p = peer_open(DRM_VACCEL_BO_DEVICE);
	unsigned char *want = malloc(SIZE), *cpu;
	long long held = vt_hold_waited(p.b.fd, "hold_moves");
	struct drm_vaccel_device_info info;
	__u32 moved = vt_syncobj(p.b.fd), size = sizeof(info);
	char path[PATH_MAX];
	struct vt_dev_mem m;

	VT_ASSERT(want);
	memcpy(want, p.cpu_a, SIZE);
	munmap(p.cpu_a, SIZE);
	close(p.dmabuf);

	vt_hold(p.b.fd, "hold_moves", true);
	VT_ASSERT_OK(vt_migrate_raw(p.b.fd, p.hb, DRM_VACCEL_REGION_SYSTEM, moved));
	VT_ASSERT(vt_hold_waited(p.b.fd, "hold_moves") > held);
	VT_ASSERT_OK(vt_unbind(0));
	VT_ASSERT_ERRNO(vt_query_raw(p.a.fd, DRM_VACCEL_QUERY_DEVICE, &info, &size, 0, 0),
			ENODEV);
	VT_ASSERT(!vt_syncobj_signalled(p.b.fd, moved));
	vt_hold(p.b.fd, "hold_moves", false);
	VT_ASSERT_EQ(vt_wait_status(p.b.fd, moved), 1);

	VT_ASSERT_EQ(vt_bo_region(p.b.fd, p.hb), DRM_VACCEL_REGION_SYSTEM);
	expect_gpu_reads(p.b.fd, p.va_b, want, SIZE);
	cpu = vt_bo_mmap(p.b.fd, p.hb, SIZE);
	VT_ASSERT(!memcmp(cpu, want, SIZE));
	munmap(cpu, SIZE);
	VT_ASSERT_ERRNO(vt_migrate_raw(p.b.fd, p.hb, DRM_VACCEL_REGION_DEVICE(0), 0),
			ENODEV);
	vt_migrate(p.b.fd, p.hb, DRM_VACCEL_REGION_DEVICE(p.b.info.device_index));
	expect_ptes_in(p.b.fd, p.va_b, SIZE / VT_PAGE, &p.b.info);
	expect_gpu_reads(p.b.fd, p.va_b, want, SIZE);

	vt_dev_close(&p.b);
	vt_dev_close(&p.a);
	VT_ASSERT_OK(vt_bind(0));
	VT_ASSERT_OK(vt_node_of(0, path, sizeof(path)));
	vt_dev_init(&p.a, open(path, O_RDWR | O_CLOEXEC));
	VT_ASSERT_EQ(p.a.info.device_index, 0);
	vt_dev_mem(p.a.fd, &m);
	VT_ASSERT_EQ(m.bo_count, 0);
	vt_dev_close(&p.a);
	free(want);
}

/*
 * With the cost model on, the engine time of a copy from peer memory grows
 * by at least what the model charges; the query reports the costs.
 */
VTEST(cost_model_charges_peer_accesses)
{
	long long cost = vt_env_num("VT_COST_PEER_NS", 0);
	struct peer p;
	long long busy0, busy1, charged;

	if (!cost) {
		fprintf(stderr, "cost_model: VT_COST_PEER_NS unset, nothing to check\n");
		return;
	}
	p = peer_open(DRM_VACCEL_BO_DEVICE);
	VT_ASSERT_EQ(p.b.info.cost_peer_ns, cost);
	busy0 = vt_fdinfo_kv(p.b.fd, "drm-engine-compute");
	expect_gpu_reads(p.b.fd, p.va_b, p.cpu_a, SIZE);
	busy1 = vt_fdinfo_kv(p.b.fd, "drm-engine-compute");
	charged = (long long)(SIZE / 1024) * cost;
	fprintf(stderr, "cost_model: %lld ns of engine time, %lld ns charged\n",
		busy1 - busy0, charged);
	VT_ASSERT(busy1 - busy0 >= charged);
}

VTEST_MAIN()
