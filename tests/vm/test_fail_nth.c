// SPDX-License-Identifier: MIT
/*
 * test_fail_nth.c - systematic fault injection, on the debug kernel.
 *
 * For each operation (every ioctl, mmap, the dma-buf and sync_file paths,
 * the teardown of a file with everything in it, moves both ways and an
 * eviction, and, on loads of their
 * own that the plan names, sysfs unbind with a job in flight and module
 * unload), the case fails the
 * 1st, then the 2nd, ... allocation or user copy the operation's own task
 * makes (/proc/thread-self/fail-nth, with failslab and fail_usercopy), until
 * the operation completes without reaching the fault.  After each
 * injected fault:
 *
 *  - the operation failed with a clean errno (ENOMEM, EFAULT, EINTR,
 *    EAGAIN) or succeeded regardless (a fallback);
 *  - the same operation succeeds right after, without injection;
 *  - for the operations that say so, a failed one left the device's
 *    memory counters (BOs, bytes, VMs, page-table pages, device memory)
 *    exactly as they were;
 *  - nothing leaks and nothing warns: the plan's kmemleak scan and kernel
 *    log rule judge the whole sweep at the end.
 *
 * Each case prints how many fault sites it reached, and the summary case
 * the total.  The kernel's page allocations are not failed (fail_page_alloc
 * would fail the whole task's, and the kernel's own failures print reports
 * by design), but the driver's are: its fault-injection point fail_page
 * is a site that fail-nth counts (see test_fail_points.c).
 *
 * Needs CONFIG_FAULT_INJECTION, FAILSLAB and FAULT_INJECTION_USERCOPY
 * with their debugfs knobs (the debug kernel): elsewhere every case fails
 * with that reason, so the plan runs this program on the debug kernel only.
 *
 * The probe (sysfs bind, module load) is not swept: Linux 6.12's
 * drm_dev_init() oopses when drm_sysfs_minor_alloc() fails, because
 * drm_minor_alloc_release() puts the ERR_PTR the failure left in
 * minor->kdev.  That is DRM core's bug, before vaccel's probe code runs;
 * a sweep of the probe finds it at its first steps.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "vtest.h"
#include "vt_exec.h"
#include "vt_mem.h"
#include "vt_module.h"

#define SITES_FILE	"/tmp/fail_nth_sites"
#define MAX_NTH		20000

/* What one operation works on; setup fills it, teardown empties it. */
struct fn {
	struct vt_dev d;
	int fd2;		/* another open file, or -1 */
	__u32 bo, bo2, ctx, so;
	int dmabuf;
	void *cpu;
	struct vt_cmd cmd;
	__u64 va;
	int newfd;		/* what the operation opened */
	__u32 out;		/* what the operation created */
};

struct fn_ops {
	void (*setup)(struct fn *f);
	int (*op)(struct fn *f);	/* 0, or -1 with errno */
	void (*undo)(struct fn *f);	/* after a successful op */
	int other_errno;		/* one more errno the core returns */
	bool no_device;			/* setup opens none: module load, unload */
	bool keeps_counters;		/* a failed op leaves the device's
					 * memory counters as they were */
};

static void write_knob(const char *path, const char *value)
{
	int ret = vt_write_str(path, value);

	if (ret)
		vtest_fail(__FILE__, __LINE__, "%s: %s (a kernel without fault injection?)",
			   path, strerror(-ret));
}

/* Fail what fail-nth names, whatever the allocation's flags; say nothing. */
static void configure(void)
{
	write_knob("/sys/kernel/debug/failslab/ignore-gfp-wait", "N");
	write_knob("/sys/kernel/debug/failslab/verbose", "0");
	write_knob("/sys/kernel/debug/fail_usercopy/verbose", "0");
	write_knob("/sys/kernel/debug/fail_page_alloc/verbose", "0");
}

static bool clean_errno(const struct fn_ops *ops, int e)
{
	return e == ENOMEM || e == EFAULT || e == EINTR || e == EAGAIN ||
	       (ops->other_errno && e == ops->other_errno);
}

/* fail-nth after the operation: true if the fault was injected. */
static bool injected(int nth_fd)
{
	char buf[32] = "";
	ssize_t n = pread(nth_fd, buf, sizeof(buf) - 1, 0);

	/* The read's own copy may be the fault: then the operation missed it. */
	if (n < 0 && errno == EFAULT)
		return false;
	VT_ASSERT(n > 0);
	/*
	 * The write's own copy may be the fault if the count had one to go:
	 * then the fault is spent, and the second write goes through.
	 */
	if (pwrite(nth_fd, "0", 1, 0) != 1)
		VT_ASSERT(pwrite(nth_fd, "0", 1, 0) == 1);
	return atoi(buf) == 0;
}

/*
 * The device's memory counters (debugfs memory): what a failed operation
 * must leave as it found, or it leaked or lost something on its error
 * path.
 */
struct counters {
	long long bo_count, bo_bytes, vms, pt_pages, free, bos;
};

static struct counters read_counters(int fd)
{
	char *text = vt_debugfs_read(fd, "memory");
	struct counters c = {
		.bo_count = vt_kv(text, "bo_count"),
		.bo_bytes = vt_kv(text, "bo_bytes"),
		.vms = vt_kv(text, "vms"),
		.pt_pages = vt_kv(text, "pt_pages"),
	};

	vt_kv_try(text, "device_mem_free", &c.free);
	vt_kv_try(text, "device_mem_bos", &c.bos);
	free(text);
	return c;
}

static void expect_counters(const char *name, int n, const struct counters *a,
			    const struct counters *b)
{
	if (memcmp(a, b, sizeof(*a)))
		vtest_fail(__FILE__, __LINE__,
			   "%s with fault %d injected: the counters moved: BOs %lld -> %lld, "
			   "bytes %lld -> %lld, VMs %lld -> %lld, page-table pages %lld -> %lld, "
			   "device memory free %lld -> %lld, in it %lld -> %lld BOs",
			   name, n, a->bo_count, b->bo_count, a->bo_bytes, b->bo_bytes,
			   a->vms, b->vms, a->pt_pages, b->pt_pages, a->free, b->free,
			   a->bos, b->bos);
}

static void teardown(struct fn *f)
{
	if (f->cpu)
		munmap(f->cpu, VT_PAGE);
	if (f->dmabuf >= 0)
		close(f->dmabuf);
	if (f->newfd >= 0)
		close(f->newfd);
	if (f->fd2 >= 0)
		close(f->fd2);
	if (f->d.fd >= 0) {
		if (f->cmd.bo.cpu)
			munmap(f->cmd.bo.cpu, f->cmd.bo.size);
		vt_dev_close(&f->d);
	}
}

static void sweep(const char *name, const struct fn_ops *ops)
{
	int nth_fd = open("/proc/thread-self/fail-nth", O_RDWR), n;
	FILE *sites;

	VT_ASSERT(nth_fd >= 0);
	configure();
	for (n = 1; n < MAX_NTH; n++) {
		struct fn f = { .d.fd = -1, .fd2 = -1, .dmabuf = -1, .newfd = -1 };
		struct counters before = {}, after;
		char num[16];
		int ret, err;

		if (!ops->no_device)
			f.d = vt_dev_open();
		ops->setup(&f);
		if (ops->keeps_counters)
			before = read_counters(f.d.fd);
		snprintf(num, sizeof(num), "%d", n);
		VT_ASSERT(pwrite(nth_fd, num, strlen(num), 0) == (ssize_t)strlen(num));
		ret = ops->op(&f);
		err = errno;
		if (!injected(nth_fd)) {
			if (ret)
				vtest_fail(__FILE__, __LINE__,
					   "%s failed without an injected fault: %s", name,
					   strerror(err));
			if (ops->undo)
				ops->undo(&f);
			teardown(&f);
			break;
		}
		if (ret) {
			if (!clean_errno(ops, err))
				vtest_fail(__FILE__, __LINE__,
					   "%s with fault %d injected: %s, not a clean errno",
					   name, n, strerror(err));
			/*
			 * DRM's ioctl wrapper copies the result out after the
			 * handler succeeded: an EFAULT may leave the object,
			 * for the file's close to take.
			 */
			if (ops->keeps_counters && err != EFAULT) {
				after = read_counters(f.d.fd);
				expect_counters(name, n, &before, &after);
			}
			/* The same operation, without injection, succeeds now. */
			if (ops->op(&f))
				vtest_fail(__FILE__, __LINE__,
					   "%s failed again after fault %d: %s", name, n,
					   strerror(errno));
		}
		if (ops->undo)
			ops->undo(&f);
		teardown(&f);
	}
	close(nth_fd);
	VT_ASSERT(n < MAX_NTH);
	printf("# fail_nth.%s: %d fault sites\n", name, n - 1);
	sites = fopen(SITES_FILE, "a");
	if (sites) {
		fprintf(sites, "%s %d\n", name, n - 1);
		fclose(sites);
	}
}

/* --- the operations --- */

static void none(struct fn *f)
{
}

static int op_open(struct fn *f)
{
	f->newfd = open("/dev/accel/accel0", O_RDWR | O_CLOEXEC);
	return f->newfd < 0 ? -1 : 0;
}

static void undo_close(struct fn *f)
{
	close(f->newfd);
	f->newfd = -1;
}

static int op_query(struct fn *f)
{
	struct drm_vaccel_device_info info;
	__u32 size = sizeof(info);

	if (vt_query_raw(f->d.fd, DRM_VACCEL_QUERY_DEVICE, &info, &size, 0, 0))
		return -1;
	size = f->d.engines_size;
	return vt_query_raw(f->d.fd, DRM_VACCEL_QUERY_ENGINES, f->d.engines, &size, 0, 0);
}

static int op_bo_create(struct fn *f)
{
	return vt_bo_create_raw(f->d.fd, 64 * VT_KIB, 0, &f->out, NULL);
}

static int op_bo_info(struct fn *f)
{
	struct drm_vaccel_bo_info info;

	return vt_bo_info_raw(f->d.fd, f->bo, &info);
}

static void undo_gem_close(struct fn *f)
{
	vt_gem_close(f->d.fd, f->out);
}

static void setup_bo(struct fn *f)
{
	f->bo = vt_bo_create(f->d.fd, 64 * VT_KIB, 0);
	f->va = vt_va_alloc(&f->d, 64 * VT_KIB);
}

static int op_mmap(struct fn *f)
{
	__u64 offset;

	if (vt_bo_mmap_offset_raw(f->d.fd, f->bo, &offset))
		return -1;
	f->cpu = mmap(NULL, VT_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, f->d.fd,
		      (off_t)offset);
	if (f->cpu == MAP_FAILED) {
		f->cpu = NULL;
		return -1;
	}
	return 0;
}

static void undo_munmap(struct fn *f)
{
	munmap(f->cpu, VT_PAGE);
	f->cpu = NULL;
}

static int op_map(struct fn *f)
{
	return vt_map_raw(f->d.fd, f->bo, 0, f->va, 64 * VT_KIB, 0);
}

static void undo_unmap(struct fn *f)
{
	vt_unmap(f->d.fd, f->va, 64 * VT_KIB);
}

static void setup_mapped(struct fn *f)
{
	setup_bo(f);
	vt_map(f->d.fd, f->bo, 0, f->va, 64 * VT_KIB, 0);
}

/* Unmapping the middle splits the mapping: two new VMAs. */
static int op_unmap_split(struct fn *f)
{
	struct drm_vaccel_vm_bind_op op = vt_op_unmap(f->va + 4 * VT_PAGE, VT_PAGE);

	return vt_vm_bind_raw(f->d.fd, &op, 1);
}

static void undo_remap_middle(struct fn *f)
{
	vt_map(f->d.fd, f->bo, 4 * VT_PAGE, f->va + 4 * VT_PAGE, VT_PAGE, 0);
}

static void setup_async(struct fn *f)
{
	setup_bo(f);
	f->so = vt_syncobj(f->d.fd);
}

static int op_map_async(struct fn *f)
{
	struct drm_vaccel_vm_bind_op op = vt_op_map(f->bo, 0, f->va, 64 * VT_KIB, 0);
	struct drm_vaccel_sync s = { .handle = f->so };
	struct drm_vaccel_vm_bind b = {
		.ops = DRM_VACCEL_OBJ_ARRAY(1, &op),
		.signals = DRM_VACCEL_OBJ_ARRAY(1, &s),
	};

	return ioctl(f->d.fd, DRM_IOCTL_VACCEL_VM_BIND, &b);
}

static void undo_async(struct fn *f)
{
	VT_ASSERT_OK(vt_syncobj_wait_ms(f->d.fd, f->so, 20000));
	undo_unmap(f);
}

static int op_ctx_create(struct fn *f)
{
	return vt_ctx_create_raw(f->d.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE,
				 DRM_VACCEL_ENGINE_ANY, DRM_VACCEL_PRIORITY_NORMAL, 0, 0,
				 &f->out);
}

/* --- placement: moves and evictions --- */

static __u32 dev_region(const struct fn *f)
{
	return DRM_VACCEL_REGION_DEVICE(f->d.info.device_index);
}

/*
 * A mapped BO of 64 KiB with data, in system memory, and a syncobj; and a
 * BO of 64 KiB in device memory, so that the segment's buddy allocator
 * has a free block of that size and the move needs no split.  A failed
 * split corrupts the allocator's free tree in Linux 6.12 (gpu_buddy's
 * alloc_from_freetree() frees, on its error path, a block it left in the
 * tree: a use-after-free, then BUG): that is the kernel's to fix, not a
 * path of vaccel's.
 */
static void setup_placed(struct fn *f)
{
	f->bo2 = vt_bo_create(f->d.fd, 64 * VT_KIB, DRM_VACCEL_BO_DEVICE);
	setup_mapped(f);
	f->cpu = vt_bo_mmap(f->d.fd, f->bo, VT_PAGE);
	memset(f->cpu, 0x5a, VT_PAGE);
	f->so = vt_syncobj(f->d.fd);
}

static int op_migrate(struct fn *f, __u32 region)
{
	return vt_migrate_raw(f->d.fd, f->bo, region, f->so);
}

static int op_migrate_device(struct fn *f)
{
	return op_migrate(f, dev_region(f));
}

static int op_migrate_system(struct fn *f)
{
	return op_migrate(f, DRM_VACCEL_REGION_SYSTEM);
}

/* The move completed, and the data is where it went. */
static void undo_migrate_wait(struct fn *f)
{
	VT_ASSERT_OK(vt_syncobj_wait_ms(f->d.fd, f->so, 20000));
	VT_ASSERT_EQ(vt_fence_status(f->d.fd, f->so), 1);
	VT_ASSERT_EQ(((unsigned char *)f->cpu)[VT_PAGE - 1], 0x5a);
}

/* The same BO, in device memory. */
static void setup_placed_device(struct fn *f)
{
	setup_placed(f);
	vt_migrate(f->d.fd, f->bo, dev_region(f));
}

#define EVICT_BO	VT_MIB

/*
 * The segment full of 1 MiB BOs, the least recently used one mapped and
 * holding data: a new device BO of 1 MiB evicts it and takes its block
 * (no split: see setup_placed()).
 */
static void setup_segment_full(struct fn *f)
{
	__u64 n = f->d.info.device_mem_size / EVICT_BO, i;

	VT_ASSERT(n >= 2);
	f->bo = vt_bo_create(f->d.fd, EVICT_BO, DRM_VACCEL_BO_DEVICE);
	f->va = vt_va_alloc(&f->d, EVICT_BO);
	vt_map(f->d.fd, f->bo, 0, f->va, EVICT_BO, 0);
	f->cpu = vt_bo_mmap(f->d.fd, f->bo, VT_PAGE);
	memset(f->cpu, 0x5a, VT_PAGE);
	for (i = 1; i < n; i++)
		vt_bo_create(f->d.fd, EVICT_BO, DRM_VACCEL_BO_DEVICE);
}

static int op_evict(struct fn *f)
{
	return vt_bo_create_raw(f->d.fd, EVICT_BO, DRM_VACCEL_BO_DEVICE, &f->out, NULL);
}

/* The victim went to system memory, whole. */
static void undo_evict(struct fn *f)
{
	VT_ASSERT_EQ(vt_bo_region(f->d.fd, f->bo), DRM_VACCEL_REGION_SYSTEM);
	VT_ASSERT_EQ(((unsigned char *)f->cpu)[VT_PAGE - 1], 0x5a);
	vt_gem_close(f->d.fd, f->out);
}

static void undo_ctx_destroy(struct fn *f)
{
	vt_ctx_destroy(f->d.fd, f->out);
}

/* A context with a buffer on its engine and one behind it. */
static void setup_busy_ctx(struct fn *f)
{
	f->cmd = vt_cmd_new(&f->d, 64 * VT_KIB);
	f->ctx = vt_ctx_create(f->d.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE, DRM_VACCEL_ENGINE_ANY);
	vt_pkt_delay(&f->cmd, 20 * 1000 * 1000);
	vt_submit(f->d.fd, f->ctx, &f->cmd, 0, 0);
	vt_pkt_nop(&f->cmd, 1);
	vt_submit(f->d.fd, f->ctx, &f->cmd, 0, 0);
}

static int op_ctx_state(struct fn *f)
{
	struct drm_vaccel_context_state st;

	return vt_ctx_state_raw(f->d.fd, f->ctx, 0, &st);
}

static int op_ctx_destroy(struct fn *f)
{
	return vt_ctx_destroy_raw(f->d.fd, f->ctx, 0);
}

static void setup_submit(struct fn *f)
{
	f->cmd = vt_cmd_new(&f->d, 64 * VT_KIB);
	f->ctx = vt_ctx_create(f->d.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE, DRM_VACCEL_ENGINE_ANY);
	f->so = vt_syncobj(f->d.fd);
	f->bo2 = vt_syncobj_flags(f->d.fd, DRM_SYNCOBJ_CREATE_SIGNALED);
	vt_pkt_write32(&f->cmd, f->cmd.bo.va + 32 * VT_KIB, 1);
}

static int op_submit(struct fn *f)
{
	struct drm_vaccel_sync w = { .handle = f->bo2 };
	struct drm_vaccel_sync s[2] = { { .handle = f->so }, { .handle = f->so } };

	/* A binary signal and the same syncobj again: two signal slots. */
	return vt_submit_raw(f->d.fd, f->ctx, vt_cmd_va(&f->cmd), vt_cmd_size(&f->cmd),
			     &w, 1, s, 2);
}

static void undo_submit_wait(struct fn *f)
{
	VT_ASSERT_OK(vt_syncobj_wait_ms(f->d.fd, f->so, 20000));
}

static int op_prime_export(struct fn *f)
{
	struct drm_prime_handle p = { .handle = f->bo, .flags = DRM_CLOEXEC | DRM_RDWR, .fd = -1 };

	if (ioctl(f->d.fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p))
		return -1;
	f->newfd = p.fd;
	return 0;
}

static void setup_exported(struct fn *f)
{
	setup_bo(f);
	f->dmabuf = vt_prime_export(f->d.fd, f->bo);
	f->fd2 = open("/dev/accel/accel0", O_RDWR | O_CLOEXEC);
	VT_ASSERT(f->fd2 >= 0);
}

/* Import into another file of the device: a new handle for the same BO. */
static int op_prime_import(struct fn *f)
{
	return vt_prime_import_raw(f->fd2, f->dmabuf, &f->out);
}

static void undo_import(struct fn *f)
{
	vt_gem_close(f->fd2, f->out);
}

static int op_dmabuf_mmap(struct fn *f)
{
	f->cpu = mmap(NULL, VT_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, f->dmabuf, 0);
	if (f->cpu == MAP_FAILED) {
		f->cpu = NULL;
		return -1;
	}
	return 0;
}

/* A syncobj holding a vaccel fence, exported as a sync_file. */
static void setup_fenced(struct fn *f)
{
	f->cmd = vt_cmd_new(&f->d, 64 * VT_KIB);
	f->ctx = vt_ctx_create(f->d.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE, DRM_VACCEL_ENGINE_ANY);
	f->so = vt_syncobj(f->d.fd);
	vt_pkt_delay(&f->cmd, 1000 * 1000);
	vt_submit(f->d.fd, f->ctx, &f->cmd, 0, f->so);
}

static int op_sync_file(struct fn *f)
{
	f->newfd = vt_sync_file_raw(f->d.fd, f->so);
	return f->newfd < 0 ? -1 : 0;
}

/* The last close of a file with everything in it. */
static void setup_full_file(struct fn *f)
{
	f->fd2 = open("/dev/accel/accel0", O_RDWR | O_CLOEXEC);
	VT_ASSERT(f->fd2 >= 0);
	{
		struct vt_dev d2;
		struct vt_cmd c;
		__u32 ctx, so;

		vt_dev_init(&d2, f->fd2);
		c = vt_cmd_new(&d2, 64 * VT_KIB);
		ctx = vt_ctx_create(f->fd2, DRM_VACCEL_ENGINE_CLASS_COMPUTE, DRM_VACCEL_ENGINE_ANY);
		so = vt_syncobj(f->fd2);
		vt_pkt_delay(&c, 20 * 1000 * 1000);
		vt_submit(f->fd2, ctx, &c, 0, so);
		vt_pkt_nop(&c, 1);
		vt_submit(f->fd2, ctx, &c, so, 0);
		munmap(c.bo.cpu, c.bo.size);
		free(d2.engines);
	}
}

static int op_close_full(struct fn *f)
{
	int ret = close(f->fd2);

	f->fd2 = -1;
	return ret;
}

#define SWEEP_ERRNO(name, setup_fn, op_fn, undo_fn, other)		\
	VTEST(name)							\
	{								\
		static const struct fn_ops ops = { setup_fn, op_fn, undo_fn, other }; \
		sweep(#name, &ops);					\
	}

#define SWEEP(name, setup_fn, op_fn, undo_fn)				\
	SWEEP_ERRNO(name, setup_fn, op_fn, undo_fn, 0)

/* The same, and a failed op leaves the memory counters as they were. */
#define SWEEP_KEEPS(name, setup_fn, op_fn, undo_fn)			\
	VTEST(name)							\
	{								\
		static const struct fn_ops ops = {			\
			setup_fn, op_fn, undo_fn, 0, false, true	\
		};							\
		sweep(#name, &ops);					\
	}

SWEEP(open, none, op_open, undo_close)
SWEEP(query, none, op_query, NULL)
SWEEP_KEEPS(bo_create, none, op_bo_create, undo_gem_close)
SWEEP(bo_info, setup_bo, op_bo_info, NULL)
SWEEP(bo_mmap, setup_bo, op_mmap, undo_munmap)
SWEEP_KEEPS(vm_bind_map, setup_bo, op_map, undo_unmap)
SWEEP(vm_bind_unmap_split, setup_mapped, op_unmap_split, undo_remap_middle)
SWEEP(vm_bind_async, setup_async, op_map_async, undo_async)
SWEEP(context_create, none, op_ctx_create, undo_ctx_destroy)
SWEEP(context_state, setup_busy_ctx, op_ctx_state, NULL)
SWEEP(context_destroy_busy, setup_busy_ctx, op_ctx_destroy, NULL)
SWEEP(submit, setup_submit, op_submit, undo_submit_wait)
SWEEP(prime_export, setup_bo, op_prime_export, undo_close)
SWEEP(prime_import, setup_exported, op_prime_import, undo_import)
SWEEP(dmabuf_mmap, setup_exported, op_dmabuf_mmap, undo_munmap)
/* drm_syncobj_export_sync_file() reports a failed sync_file_create() as -EINVAL. */
SWEEP_ERRNO(sync_file_export, setup_fenced, op_sync_file, undo_close, EINVAL)
SWEEP(close_full_file, setup_full_file, op_close_full, NULL)
SWEEP_KEEPS(migrate_to_device, setup_placed, op_migrate_device, undo_migrate_wait)
SWEEP_KEEPS(migrate_to_system, setup_placed_device, op_migrate_system,
	    undo_migrate_wait)
SWEEP(evict, setup_segment_full, op_evict, undo_evict)

/*
 * The device's and the module's own teardown, each on a load of its own
 * (the plan names these): unbind with a job in flight, then rebind; module
 * unload, then load.  Each ends with the module loaded and device 0 bound.
 */
static int errno_of(int ret)
{
	if (!ret)
		return 0;
	errno = -ret;
	return -1;
}

static int op_unbind(struct fn *f)
{
	return errno_of(vt_unbind(0));
}

static void undo_bind(struct fn *f)
{
	VT_ASSERT_OK(vt_bind(0));
}

static void setup_loaded(struct fn *f)
{
	int ret = vt_module_load("");

	VT_ASSERT(ret == 0 || ret == -EEXIST);
}

static int op_unload(struct fn *f)
{
	return errno_of(vt_module_unload());
}

static void undo_load(struct fn *f)
{
	VT_ASSERT_OK(vt_module_load(""));
}

#define SWEEP_NAMED(name, setup_fn, op_fn, undo_fn, nodev)		\
	VTEST_NAMED(name)						\
	{								\
		static const struct fn_ops ops = {			\
			setup_fn, op_fn, undo_fn, 0, nodev		\
		};							\
		sweep(#name, &ops);					\
	}

SWEEP_NAMED(unbind_busy, setup_busy_ctx, op_unbind, undo_bind, false)
SWEEP_NAMED(module_unload, setup_loaded, op_unload, undo_load, true)

/* Runs last (the plan names it): the total over the cases above. */
VTEST_NAMED(summary)
{
	FILE *f = fopen(SITES_FILE, "r");
	char name[64];
	int n, total = 0, cases = 0;

	VT_ASSERT(f);
	while (fscanf(f, "%63s %d", name, &n) == 2) {
		total += n;
		cases++;
	}
	fclose(f);
	printf("# fail_nth: %d fault sites reached in %d operations\n", total, cases);
	VT_ASSERT(cases > 0 && total > 0);
}

VTEST_MAIN()
