// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: vaccel driver
 *
 * vaccel has no hardware to find, so it makes its own, the way vgem does:
 * at load, the module registers a platform driver and then one platform
 * device per virtual accelerator (``vaccel.0``, ``vaccel.1``, ...).  The
 * driver core binds each device to the driver, and probe registers a DRM
 * device with %DRIVER_COMPUTE_ACCEL, which the accel core exposes as
 * ``/dev/accel/accelN``.
 *
 * Going through the driver core rather than creating the DRM devices
 * directly gives every device a real &struct device with managed
 * resources, and makes unbinding a device through sysfs behave like a
 * hot-unplug: remove calls drm_dev_unplug(), after which every ioctl on a
 * file still open fails with ``-ENODEV``, and the memory goes when the last
 * file is closed.
 *
 * The DRM device offers GEM, PRIME, syncobjs and timeline syncobjs from the
 * core, and the vaccel ioctls listed in vaccel_drm_ioctls[].  Each open file
 * gets its own GPU address space (see "GPU address spaces and VM_BIND").
 *
 * A Single Use device (MCDM's name for a device with one address space)
 * admits one open file at a time; a second open fails with ``-EBUSY``
 * until the first file is closed.
 */

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/workqueue.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/vaccel_accel.h>

#include "vaccel_context.h"
#include "vaccel_coredump.h"
#include "vaccel_debugfs.h"
#include "vaccel_devmem.h"
#include "vaccel_drv.h"
#include "vaccel_engine.h"
#include "vaccel_file.h"
#include "vaccel_gem.h"
#include "vaccel_inject.h"
#include "vaccel_migrate.h"
#include "vaccel_query.h"
#include "vaccel_vm.h"

/*
 * vaccel_teardown_wq: where contexts and binds are torn down.  The last
 * reference to a context, or to an applied bind, may be dropped by
 * drm_sched's own work or by an engine; the teardown then runs here.
 * Module exit destroys the workqueue, which waits for a teardown that
 * dropped the module's last reference to return.  Created before any
 * device, destroyed after the last.
 */
struct workqueue_struct *vaccel_teardown_wq;

/*
 * References on the module let go by code that may run after the module's
 * last other user is gone (a fence released from any context): dropped
 * here, on vaccel_teardown_wq, whose destruction module exit waits for,
 * rather than as the last statement of a function that then returns into
 * the module's text.
 */
static atomic_t vaccel_module_puts;

static void vaccel_module_put_work(struct work_struct *work)
{
	int n = atomic_xchg(&vaccel_module_puts, 0);

	while (n--)
		module_put(THIS_MODULE);
}

static DECLARE_WORK(vaccel_module_put_worker, vaccel_module_put_work);

/**
 * vaccel_module_put_deferred() - drop a module reference, soon
 *
 * Context: Any context.
 */
void vaccel_module_put_deferred(void)
{
	atomic_inc(&vaccel_module_puts);
	queue_work(vaccel_teardown_wq, &vaccel_module_put_worker);
}

/*
 * The platform devices the module created, in index order.  Written only by
 * module init and exit, which the module loader serialises, so no lock.
 */
static struct platform_device *vaccel_pdevs[VACCEL_MAX_DEVICES];
static unsigned int vaccel_num_pdevs;

/* The validated topology shared by every device; set once at init. */
static struct vaccel_topology vaccel_topology;

static int vaccel_open(struct drm_device *drm, struct drm_file *file)
{
	struct vaccel_device *vdev = to_vaccel_device(drm);
	struct vaccel_file *vfile;

	if (VACCEL_IOCTL_DBG(vdev, vdev->topo.single_use &&
			     atomic_cmpxchg(&vdev->open_files, 0, 1)))
		return -EBUSY;

	vfile = vaccel_file_create(vdev, file);
	if (IS_ERR(vfile)) {
		if (vdev->topo.single_use)
			atomic_set(&vdev->open_files, 0);
		return PTR_ERR(vfile);
	}
	file->driver_priv = vfile;
	return 0;
}

/*
 * Called for every file whose vaccel_open() succeeded, including when a
 * later step of the open fails: on a Single Use device, that is the owner.
 */
static void vaccel_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct vaccel_device *vdev = to_vaccel_device(drm);

	vaccel_file_close(file->driver_priv);
	if (vdev->topo.single_use)
		atomic_set(&vdev->open_files, 0);
}

/*
 * The keys of Documentation/gpu/drm-usage-stats.rst: busy time per engine
 * class, the number of engines of a class when more than one, and memory;
 * and vaccel's own, the memory traffic per engine class.  The engines say
 * how long they ran the file's buffers.
 */
static void vaccel_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct vaccel_device *vdev = to_vaccel_device(file->minor->dev);
	struct vaccel_traffic traffic[DRM_VACCEL_ENGINE_CLASS_COUNT] = {};
	u64 busy_ns[DRM_VACCEL_ENGINE_CLASS_COUNT] = {};
	struct vaccel_file *vfile = file->driver_priv;
	unsigned int i, c;

	for (i = 0; i < vdev->num_engines; i++) {
		struct vaccel_engine *engine = &vdev->engines[i];
		struct vaccel_traffic *sum = &traffic[engine->desc.engine_class];
		struct vaccel_traffic t;

		busy_ns[engine->desc.engine_class] +=
			vaccel_engine_file_busy_ns(engine, vfile);
		vaccel_traffic_read(&vfile->traffic[i], &t);
		for (c = 0; c < VACCEL_MEM_CLASSES; c++) {
			sum->bytes[c][0] += t.bytes[c][0];
			sum->bytes[c][1] += t.bytes[c][1];
		}
	}
	vaccel_file_show_fdinfo(vfile, busy_ns, traffic, p);
	vaccel_gem_show_region_stats(p, file);
}

static const struct drm_ioctl_desc vaccel_drm_ioctls[] = {
	DRM_IOCTL_DEF_DRV(VACCEL_QUERY, vaccel_ioctl_query, 0),
	DRM_IOCTL_DEF_DRV(VACCEL_BO_CREATE, vaccel_ioctl_bo_create, 0),
	DRM_IOCTL_DEF_DRV(VACCEL_BO_MMAP_OFFSET, vaccel_ioctl_bo_mmap_offset, 0),
	DRM_IOCTL_DEF_DRV(VACCEL_BO_INFO, vaccel_ioctl_bo_info, 0),
	DRM_IOCTL_DEF_DRV(VACCEL_VM_BIND, vaccel_ioctl_vm_bind, 0),
	DRM_IOCTL_DEF_DRV(VACCEL_CONTEXT_CREATE, vaccel_ioctl_context_create, 0),
	DRM_IOCTL_DEF_DRV(VACCEL_CONTEXT_DESTROY, vaccel_ioctl_context_destroy, 0),
	DRM_IOCTL_DEF_DRV(VACCEL_CONTEXT_STATE, vaccel_ioctl_context_state, 0),
	DRM_IOCTL_DEF_DRV(VACCEL_SUBMIT, vaccel_ioctl_submit, 0),
	DRM_IOCTL_DEF_DRV(VACCEL_BO_MIGRATE, vaccel_ioctl_bo_migrate, 0),
};

/*
 * DRM_ACCEL_FOPS has no .show_fdinfo in 6.12: spell the operations out so
 * that /proc/<pid>/fdinfo shows the DRM client keys.
 */
static const struct file_operations vaccel_fops = {
	.owner = THIS_MODULE,
	.open = accel_open,
	.release = drm_release,
	.unlocked_ioctl = drm_ioctl,
	.compat_ioctl = drm_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	.mmap = drm_gem_mmap,
	.show_fdinfo = drm_show_fdinfo,
	.fop_flags = FOP_UNSIGNED_OFFSET,
};

static const struct drm_driver vaccel_drm_driver = {
	.driver_features = DRIVER_COMPUTE_ACCEL | DRIVER_GEM | DRIVER_GEM_GPUVA |
			   DRIVER_SYNCOBJ | DRIVER_SYNCOBJ_TIMELINE,
	.open = vaccel_open,
	.postclose = vaccel_postclose,
	.show_fdinfo = vaccel_show_fdinfo,
	.gem_create_object = vaccel_gem_create_object,
	.gem_prime_import = vaccel_gem_prime_import,
	.gem_prime_import_sg_table = vaccel_gem_prime_import_sg_table,
	.ioctls = vaccel_drm_ioctls,
	.num_ioctls = ARRAY_SIZE(vaccel_drm_ioctls),
	.fops = &vaccel_fops,
	.name = VACCEL_DRIVER_NAME,
	.desc = VACCEL_DRIVER_DESC,
	.major = DRM_VACCEL_UAPI_MAJOR,
	.minor = DRM_VACCEL_UAPI_MINOR,
};

static void vaccel_holds_fini(struct drm_device *drm, void *unused)
{
	struct vaccel_device *vdev = to_vaccel_device(drm);

	vaccel_hold_fini(&vdev->hold_teardown);
	vaccel_hold_fini(&vdev->hold_alloc);
	vaccel_hold_fini(&vdev->hold_preempt);
	vaccel_hold_fini(&vdev->hold_switch);
	vaccel_hold_fini(&vdev->hold_moves);
}

static void vaccel_destroy_sched_wq(struct drm_device *drm, void *wq)
{
	destroy_workqueue(wq);
}

/**
 * vaccel_device_init() - bring up the virtual hardware of a device
 * @vdev: the device, its DRM device allocated, @vdev->index and
 *	@vdev->topo set
 *
 * Everything is managed by the DRM device and goes with its release.  KUnit
 * calls this on a DRM device of its own, which is never registered.  Its
 * steps (the device's own part, then vaccel_devmem_init(),
 * vaccel_coredump_init() and vaccel_engines_init()) are the fault-injection
 * point ``fail_probe``: the probe's error paths are tested through them,
 * past drm_dev_init(), whose own failure path oopses in Linux 6.12.
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int vaccel_device_init(struct vaccel_device *vdev)
{
	int ret;

	INIT_LIST_HEAD(&vdev->vms);
	ret = drmm_mutex_init(&vdev->drm, &vdev->vms_lock);
	if (ret)
		return ret;
	INIT_LIST_HEAD(&vdev->contexts);
	ret = drmm_mutex_init(&vdev->drm, &vdev->contexts_lock);
	if (ret)
		return ret;
	spin_lock_init(&vdev->reset_lock);

	init_waitqueue_head(&vdev->mem_wq);
	vaccel_hold_init(&vdev->hold_moves, "vaccel-hold-moves");
	vaccel_hold_init(&vdev->hold_switch, "vaccel-hold-switch");
	vaccel_hold_init(&vdev->hold_preempt, "vaccel-hold-preempt");
	vaccel_hold_init(&vdev->hold_alloc, "vaccel-hold-alloc");
	vaccel_hold_init(&vdev->hold_teardown, "vaccel-hold-teardown");
	ret = drmm_add_action_or_reset(&vdev->drm, vaccel_holds_fini, NULL);
	if (ret)
		return ret;
	vdev->sched_wq = alloc_workqueue("vaccel%u-sched", WQ_MEM_RECLAIM, 0,
					 vdev->index);
	if (!vdev->sched_wq)
		return -ENOMEM;
	ret = drmm_add_action_or_reset(&vdev->drm, vaccel_destroy_sched_wq,
				       vdev->sched_wq);
	if (ret)
		return ret;
	/* Each step may fail on purpose: see "Fault injection points". */
	if (vaccel_should_fail(VACCEL_FAIL_PROBE))
		return -ENOMEM;
	ret = vaccel_should_fail(VACCEL_FAIL_PROBE) ? -ENOMEM : vaccel_devmem_init(vdev);
	if (ret)
		return ret;
	/* Before the engines, which capture into it until they stop. */
	ret = vaccel_should_fail(VACCEL_FAIL_PROBE) ? -ENOMEM : vaccel_coredump_init(vdev);
	if (ret)
		return ret;
	return vaccel_should_fail(VACCEL_FAIL_PROBE) ? -ENOMEM : vaccel_engines_init(vdev);
}

static int vaccel_probe(struct platform_device *pdev)
{
	struct vaccel_device *vdev;
	int ret;

	vdev = devm_drm_dev_alloc(&pdev->dev, &vaccel_drm_driver,
				  struct vaccel_device, drm);
	if (IS_ERR(vdev))
		return PTR_ERR(vdev);

	vdev->index = pdev->id;
	vdev->topo = vaccel_topology;
	ret = vaccel_device_init(vdev);
	if (ret)
		return ret;

	/* dma-buf importers map our pages for this device: no IOMMU. */
	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;

	vaccel_debugfs_init(vdev);
	ret = drm_dev_register(&vdev->drm, 0);
	if (ret)
		return ret;

	platform_set_drvdata(pdev, vdev);
	drm_dbg_driver(&vdev->drm, "device %u: %u compute, %u copy engines, %u-bit VA\n",
		       vdev->index,
		       vdev->topo.engine_count[DRM_VACCEL_ENGINE_CLASS_COMPUTE],
		       vdev->topo.engine_count[DRM_VACCEL_ENGINE_CLASS_COPY],
		       vdev->topo.va_bits);
	return 0;
}

static void vaccel_remove(struct platform_device *pdev)
{
	struct vaccel_device *vdev = platform_get_drvdata(pdev);

	/* Open files keep the DRM device; their ioctls now get -ENODEV. */
	drm_dev_unplug(&vdev->drm);
	/* A dump is the binding's: it goes with it, and the module may too. */
	vaccel_coredump_unplug(vdev);
}

static struct platform_driver vaccel_platform_driver = {
	.probe = vaccel_probe,
	.remove = vaccel_remove,
	.driver = {
		.name = VACCEL_DRIVER_NAME,
	},
};

static void vaccel_destroy_devices(void)
{
	while (vaccel_num_pdevs)
		platform_device_unregister(vaccel_pdevs[--vaccel_num_pdevs]);
}

static int vaccel_create_devices(unsigned int count)
{
	struct platform_device *pdev;
	unsigned int i;

	for (i = 0; i < count; i++) {
		pdev = platform_device_register_simple(VACCEL_DRIVER_NAME, i,
						       NULL, 0);
		if (IS_ERR(pdev))
			return PTR_ERR(pdev);
		vaccel_pdevs[vaccel_num_pdevs++] = pdev;

		/* Probe runs synchronously; a device it left unbound failed. */
		if (!device_is_bound(&pdev->dev))
			return -ENODEV;
	}
	return 0;
}

static int __init vaccel_init(void)
{
	struct vaccel_topology_params params;
	const char *why = NULL;
	int ret;

	vaccel_topology_params_get(&params);
	ret = vaccel_topology_init(&vaccel_topology, &params, &why);
	if (ret) {
		pr_err("vaccel: invalid topology: %s\n", why);
		return ret;
	}

	vaccel_teardown_wq = alloc_workqueue("vaccel-teardown", WQ_UNBOUND, 0);
	if (!vaccel_teardown_wq)
		return -ENOMEM;
	/* Before any probe, which has points of its own. */
	vaccel_inject_init();

	ret = platform_driver_register(&vaccel_platform_driver);
	if (ret)
		goto err_destroy_wq;

	ret = vaccel_create_devices(params.devices);
	if (ret)
		goto err_destroy_devices;

	return 0;

err_destroy_devices:
	vaccel_destroy_devices();
	platform_driver_unregister(&vaccel_platform_driver);
	pr_err("vaccel: failed to create devices: %d\n", ret);
err_destroy_wq:
	vaccel_inject_fini();
	destroy_workqueue(vaccel_teardown_wq);
	return ret;
}

/*
 * Runs once nothing holds the module: no open file, no context draining,
 * no hardware fence.  What dropped the last reference may still be
 * returning, on vaccel_teardown_wq: destroying it waits for that.
 */
static void __exit vaccel_exit(void)
{
	vaccel_destroy_devices();
	platform_driver_unregister(&vaccel_platform_driver);
	vaccel_inject_fini();
	destroy_workqueue(vaccel_teardown_wq);
}

module_init(vaccel_init);
module_exit(vaccel_exit);

MODULE_DESCRIPTION(VACCEL_DRIVER_DESC);
MODULE_AUTHOR("The vaccel authors");
MODULE_LICENSE("GPL");
