// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: debugfs
 *
 * What real hardware hides, vaccel shows, under
 * ``/sys/kernel/debug/accel/vaccel.N/``:
 *
 * ``memory``
 *   ``key value`` lines: ``bo_count`` and ``bo_bytes`` (every BO of the
 *   device, imported ones included), ``vms`` (open files) and ``pt_pages``
 *   (page-table pages of all VMs).  A test reads it before and after a
 *   workload to check that closing files gives everything back.  With
 *   device memory: ``device_mem_size``, ``device_mem_free``,
 *   ``device_mem_bos`` (BOs in the segment), ``device_mem_evictions`` and
 *   the bytes moved in and out (``device_mem_moved_in``, ``_out``), and
 *   the host memory the segment keeps for ranges to come
 *   (``device_mem_pooled``).
 *
 * ``vm<client-id>/``
 *   one directory per VM, named by the DRM client id that
 *   ``/proc/<pid>/fdinfo/<fd>`` shows as ``drm-client-id``:
 *
 *   ``mappings``: a line per mapping,
 *   ``0x<start>-0x<end> offset 0x<bo offset> <r><w|-><x|->``;
 *
 *   ``page_table``: a line per valid level-0 entry, ``0x<va> 0x<pte>``, the
 *   entry in the uapi page-table format, except that the page-frame field
 *   holds an identity of the page rather than its physical address: a
 *   keyed hash of the frame, random at each boot, so that two mappings of
 *   one page show the same value and nothing tells where the page is; an
 *   entry of device memory (%DRM_VACCEL_PTE_DEVICE) shows its device
 *   physical address, which says nothing about the host;
 *
 *   ``stats``: ``mappings``, ``mapped_bytes`` and ``pt_pages``.
 *
 * ``engines``
 *   a block per engine: its class and instance, whether it is busy and for
 *   how long in all, the contexts bound to it, the client whose address
 *   space its TLB is attached to, the TLB's hits, misses and invalidations,
 *   its HW queue: for each slot, the context, the buffer's VA and size
 *   and how far the engine got into it; and a ``memory:`` line, the bytes
 *   it read and wrote in local, system and peer memory (see "Memory
 *   traffic").
 *
 * ``contexts``
 *   a line per context: handle, client, engine, priority, state, buffers
 *   submitted and completed, buffers on its ring, engine time, preemptions,
 *   guilty and innocent resets, and its fault if any.
 *
 * ``arbiter``
 *   a block per engine: granularity, time slice, timeout, resets and hangs,
 *   preemptions by reason, the HW queue (context, buffer, offset and
 *   progress of each slot), the context boosted by the starvation guard,
 *   and per band its engine time and the contexts ready, in serving order,
 *   with the slice each has used; then ``device_resets``.
 *
 * ``force_preempt`` (write only)
 *   writing an engine index preempts that engine at its next check, as a
 *   test of save and resume: everything is requeued and resumes.
 *
 * ``force_reset`` (write only)
 *   writing an engine index resets that engine, ``device`` resets them
 *   all; the work in the HW queues is preempted as innocent and resumes.
 *
 * ``coredump``
 *   ``key value`` lines about the device's dumps (see "Device
 *   coredumps"): ``enabled`` (the module parameter ``coredump``),
 *   ``pending`` (1 while devcoredump holds a dump of the device),
 *   ``events`` (hangs, resets, faults and time limits so far),
 *   ``captured`` (dumps handed to devcoredump), and the events not dumped:
 *   ``dropped_busy`` (a dump was pending or being formatted),
 *   ``dropped_failed`` (no memory, devcoredump refused, the device going
 *   away) and ``dropped_disabled``.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/vaccel_accel.h>

#include "vaccel_context.h"
#include "vaccel_coredump.h"
#include "vaccel_debugfs.h"
#include "vaccel_drv.h"
#include "vaccel_devmem.h"
#include "vaccel_engine.h"
#include "vaccel_file.h"
#include "vaccel_vm.h"

static int vaccel_debugfs_memory_show(struct seq_file *m, void *unused)
{
	struct drm_debugfs_entry *entry = m->private;
	struct vaccel_device *vdev = to_vaccel_device(entry->dev);
	struct vaccel_vm *vm;
	u64 vms = 0, pt_pages = 0;

	mutex_lock(&vdev->vms_lock);
	list_for_each_entry(vm, &vdev->vms, link) {
		pt_pages += atomic_long_read(&vm->pt.pages);
		vms++;
	}
	mutex_unlock(&vdev->vms_lock);

	seq_printf(m, "bo_count %lld\n", atomic64_read(&vdev->bo_count));
	seq_printf(m, "bo_bytes %lld\n", atomic64_read(&vdev->bo_bytes));
	seq_printf(m, "vms %llu\n", vms);
	seq_printf(m, "pt_pages %llu\n", pt_pages);
	if (vdev->devmem) {
		struct vaccel_devmem *mem = vdev->devmem;
		u64 bos = 0;
		struct list_head *pos;

		mutex_lock(&mem->lock);
		list_for_each(pos, &mem->lru)
			bos++;
		mutex_unlock(&mem->lock);
		seq_printf(m, "device_mem_size %llu\n", mem->size);
		seq_printf(m, "device_mem_free %llu\n", vaccel_devmem_free_bytes(mem));
		seq_printf(m, "device_mem_bos %llu\n", bos);
		seq_printf(m, "device_mem_evictions %lld\n", atomic64_read(&mem->evictions));
		seq_printf(m, "device_mem_moved_in %lld\n", atomic64_read(&mem->moved_in));
		seq_printf(m, "device_mem_moved_out %lld\n", atomic64_read(&mem->moved_out));
		seq_printf(m, "device_mem_pooled %llu\n", vaccel_devmem_pooled_bytes(mem));
	}
	return 0;
}

static int vaccel_debugfs_engines_show(struct seq_file *m, void *unused)
{
	struct drm_debugfs_entry *entry = m->private;
	struct vaccel_device *vdev = to_vaccel_device(entry->dev);
	struct vaccel_traffic t;
	unsigned int i, s;

	for (i = 0; i < vdev->num_engines; i++) {
		struct vaccel_engine *e = &vdev->engines[i];
		u64 busy = vaccel_engine_busy_ns(e);

		spin_lock(&e->lock);
		seq_printf(m, "engine %u: %s%u %s busy_ns %llu contexts %u\n", i,
			   vaccel_engine_class_name(e->desc.engine_class),
			   e->desc.instance,
			   e->arbiter.slots_used ? "busy" : "idle", busy,
			   e->num_contexts);
		for (s = 0; s < e->arbiter.slots_used; s++) {
			struct vaccel_job *job = container_of(e->arbiter.slot[s],
							      struct vaccel_job, arb);

			seq_printf(m, "  slot %u: context %u client %llu va 0x%llx size %llu offset %llu\n",
				   s, job->ctx->handle, job->ctx->vm->client_id,
				   job->va, job->size, job->offset);
		}
		spin_unlock(&e->lock);

		mutex_lock(&e->tlb.lock);
		if (e->tlb.pt)
			seq_printf(m, "  tlb: client %llu",
				   container_of(e->tlb.pt, struct vaccel_vm, pt)->client_id);
		else
			seq_puts(m, "  tlb: detached");
		seq_printf(m, " hits %llu misses %llu invalidations %llu\n",
			   e->tlb.hits, e->tlb.misses, e->tlb.invalidations);
		mutex_unlock(&e->tlb.lock);

		vaccel_traffic_read(&e->tlb.traffic, &t);
		seq_printf(m, "  memory: read local %llu system %llu peer %llu written local %llu system %llu peer %llu\n",
			   t.bytes[VACCEL_MEM_LOCAL][0], t.bytes[VACCEL_MEM_SYSTEM][0],
			   t.bytes[VACCEL_MEM_PEER][0], t.bytes[VACCEL_MEM_LOCAL][1],
			   t.bytes[VACCEL_MEM_SYSTEM][1], t.bytes[VACCEL_MEM_PEER][1]);
	}
	return 0;
}

static const char *const vaccel_debugfs_priority[] = {
	[DRM_VACCEL_PRIORITY_LOW] = "low",
	[DRM_VACCEL_PRIORITY_NORMAL] = "normal",
	[DRM_VACCEL_PRIORITY_HIGH] = "high",
	[DRM_VACCEL_PRIORITY_REALTIME] = "realtime",
};

static int vaccel_debugfs_contexts_show(struct seq_file *m, void *unused)
{
	struct drm_debugfs_entry *entry = m->private;
	struct vaccel_device *vdev = to_vaccel_device(entry->dev);
	struct vaccel_context *ctx;

	mutex_lock(&vdev->contexts_lock);
	list_for_each_entry(ctx, &vdev->contexts, link) {
		struct vaccel_engine *e = ctx->engine;
		struct vaccel_job *job;
		unsigned int ring = 0;

		spin_lock(&e->lock);
		list_for_each_entry(job, &ctx->arb.ring, arb.link)
			ring++;
		seq_printf(m, "context %u client %llu engine %u priority %s %s submitted %lld completed %lld ring %u",
			   ctx->handle, ctx->vm->client_id, e->index,
			   vaccel_debugfs_priority[ctx->priority],
			   ctx->faulted ? "faulted" :
			   ctx->ban_reason == DRM_VACCEL_BAN_HANG ? "hung" :
			   ctx->cancelled ? "cancelled" : "active",
			   atomic64_read(&ctx->jobs_submitted),
			   atomic64_read(&ctx->jobs_completed), ring);
		seq_printf(m, " engine_ns %llu preemptions %llu guilty %u innocent %u",
			   vaccel_arbiter_entry_run_ns(&e->arbiter, &ctx->arb,
						       ktime_get_ns()),
			   ctx->arb.preemptions, ctx->guilty_resets,
			   ctx->innocent_resets);
		if (ctx->faulted)
			seq_printf(m, " fault va 0x%llx offset %llu reason %u access %u",
				   ctx->fault.va, ctx->fault_offset, ctx->fault.reason,
				   ctx->fault.access);
		seq_putc(m, '\n');
		spin_unlock(&e->lock);
	}
	mutex_unlock(&vdev->contexts_lock);
	return 0;
}

static int vaccel_debugfs_coredump_show(struct seq_file *m, void *unused)
{
	struct drm_debugfs_entry *entry = m->private;

	vaccel_coredump_show(to_vaccel_device(entry->dev), m);
	return 0;
}

static int vaccel_debugfs_arbiter_show(struct seq_file *m, void *unused)
{
	struct drm_debugfs_entry *entry = m->private;
	struct vaccel_device *vdev = to_vaccel_device(entry->dev);
	unsigned int i;

	for (i = 0; i < vdev->num_engines; i++)
		vaccel_engine_show(&vdev->engines[i], m);
	seq_printf(m, "device_resets %lld\n", atomic64_read(&vdev->device_resets));
	return 0;
}

/* Reads the engine index, or "device" when @device is allowed. */
static int vaccel_debugfs_parse_target(struct vaccel_device *vdev,
				       const char __user *ubuf, size_t len,
				       bool device, struct vaccel_engine **engine)
{
	char buf[16];
	unsigned int index;
	int ret;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	*engine = NULL;
	if (device && sysfs_streq(buf, "device"))
		return 0;
	ret = kstrtouint(buf, 0, &index);
	if (ret)
		return ret;
	if (index >= vdev->num_engines)
		return -ENODEV;
	*engine = &vdev->engines[index];
	return 0;
}

static ssize_t vaccel_debugfs_control(struct file *f, const char __user *ubuf,
				      size_t len, bool reset)
{
	struct vaccel_device *vdev = file_inode(f)->i_private;
	struct vaccel_engine *engine;
	int idx, ret;

	if (!drm_dev_enter(&vdev->drm, &idx))
		return -ENODEV;
	ret = vaccel_debugfs_parse_target(vdev, ubuf, len, reset, &engine);
	if (!ret) {
		if (!reset)
			vaccel_engine_force_preempt(engine);
		else if (engine)
			vaccel_engine_reset(engine);
		else
			vaccel_device_reset(vdev);
	}
	drm_dev_exit(idx);
	return ret ? ret : len;
}

static ssize_t vaccel_debugfs_force_preempt_write(struct file *f,
						  const char __user *ubuf,
						  size_t len, loff_t *pos)
{
	return vaccel_debugfs_control(f, ubuf, len, false);
}

static ssize_t vaccel_debugfs_force_reset_write(struct file *f,
						const char __user *ubuf,
						size_t len, loff_t *pos)
{
	return vaccel_debugfs_control(f, ubuf, len, true);
}

static const struct file_operations vaccel_debugfs_force_preempt_fops = {
	.owner = THIS_MODULE,
	.write = vaccel_debugfs_force_preempt_write,
};

static const struct file_operations vaccel_debugfs_force_reset_fops = {
	.owner = THIS_MODULE,
	.write = vaccel_debugfs_force_reset_write,
};

/* hold_moves, hold_switch, ...: see "Hold points". */
static ssize_t vaccel_debugfs_hold_read(struct file *f, char __user *ubuf,
					size_t len, loff_t *pos)
{
	struct vaccel_hold *hold = file_inode(f)->i_private;
	char buf[48];
	int n;

	n = scnprintf(buf, sizeof(buf), "held %d\nwaited %lld\n",
		      vaccel_hold_is_set(hold), atomic64_read(&hold->held));
	return simple_read_from_buffer(ubuf, len, pos, buf, n);
}

static ssize_t vaccel_debugfs_hold_write(struct file *f, const char __user *ubuf,
					 size_t len, loff_t *pos)
{
	struct vaccel_hold *hold = file_inode(f)->i_private;
	bool on;
	int ret;

	ret = kstrtobool_from_user(ubuf, len, &on);
	if (!ret)
		ret = vaccel_hold_set(hold, on);
	return ret ? ret : len;
}

static const struct file_operations vaccel_debugfs_hold_fops = {
	.owner = THIS_MODULE,
	.read = vaccel_debugfs_hold_read,
	.write = vaccel_debugfs_hold_write,
};

/**
 * vaccel_debugfs_init() - declare the device's debugfs files
 * @vdev: the device, before drm_dev_register()
 *
 * Context: Process context.
 */
void vaccel_debugfs_init(struct vaccel_device *vdev)
{
	drm_debugfs_add_file(&vdev->drm, "memory", vaccel_debugfs_memory_show,
			     NULL);
	drm_debugfs_add_file(&vdev->drm, "engines", vaccel_debugfs_engines_show,
			     NULL);
	drm_debugfs_add_file(&vdev->drm, "contexts", vaccel_debugfs_contexts_show,
			     NULL);
	drm_debugfs_add_file(&vdev->drm, "arbiter", vaccel_debugfs_arbiter_show,
			     NULL);
	drm_debugfs_add_file(&vdev->drm, "coredump", vaccel_debugfs_coredump_show,
			     NULL);
	/* The device's directory exists from drm_dev_init(), if debugfs does. */
	if (IS_ERR_OR_NULL(vdev->drm.debugfs_root))
		return;
	debugfs_create_file("force_preempt", 0200, vdev->drm.debugfs_root, vdev,
			    &vaccel_debugfs_force_preempt_fops);
	debugfs_create_file("force_reset", 0200, vdev->drm.debugfs_root, vdev,
			    &vaccel_debugfs_force_reset_fops);
	debugfs_create_file("hold_moves", 0600, vdev->drm.debugfs_root,
			    &vdev->hold_moves, &vaccel_debugfs_hold_fops);
	debugfs_create_file("hold_switch", 0600, vdev->drm.debugfs_root,
			    &vdev->hold_switch, &vaccel_debugfs_hold_fops);
	debugfs_create_file("hold_preempt", 0600, vdev->drm.debugfs_root,
			    &vdev->hold_preempt, &vaccel_debugfs_hold_fops);
	debugfs_create_file("hold_alloc", 0600, vdev->drm.debugfs_root,
			    &vdev->hold_alloc, &vaccel_debugfs_hold_fops);
	debugfs_create_file("hold_teardown", 0600, vdev->drm.debugfs_root,
			    &vdev->hold_teardown, &vaccel_debugfs_hold_fops);
}

static int vaccel_debugfs_mappings_show(struct seq_file *m, void *unused)
{
	struct vaccel_vm *vm = m->private;
	struct drm_gpuva *va;

	mutex_lock(&vm->lock);
	drm_gpuvm_for_each_va(va, &vm->base) {
		u32 flags = vaccel_vma_flags(va);

		seq_printf(m, "0x%016llx-0x%016llx offset 0x%llx r%c%c\n",
			   va->va.addr, va->va.addr + va->va.range,
			   va->gem.offset,
			   flags & DRM_VACCEL_VM_BIND_READ_ONLY ? '-' : 'w',
			   flags & DRM_VACCEL_VM_BIND_NO_EXEC ? '-' : 'x');
	}
	mutex_unlock(&vm->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vaccel_debugfs_mappings);

static void vaccel_debugfs_leaf(u64 va, u64 pte, void *data)
{
	seq_printf(data, "0x%016llx 0x%016llx\n", va, vaccel_pt_entry_identity(pte));
}

static int vaccel_debugfs_page_table_show(struct seq_file *m, void *unused)
{
	struct vaccel_vm *vm = m->private;

	mutex_lock(&vm->pt_lock);
	vaccel_pt_visit_leaves(&vm->pt, vaccel_debugfs_leaf, m);
	mutex_unlock(&vm->pt_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vaccel_debugfs_page_table);

static int vaccel_debugfs_stats_show(struct seq_file *m, void *unused)
{
	struct vaccel_vm *vm = m->private;
	struct drm_vaccel_vm_stats stats;

	vaccel_vm_stats(vm, &stats);
	seq_printf(m, "mappings %llu\n", stats.mappings);
	seq_printf(m, "mapped_bytes %llu\n", stats.mapped_bytes);
	seq_printf(m, "pt_pages %llu\n", stats.pt_pages);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vaccel_debugfs_stats);

/**
 * vaccel_debugfs_vm_add() - the debugfs directory of a new VM
 * @vm: the VM
 *
 * Context: Process context.
 */
void vaccel_debugfs_vm_add(struct vaccel_vm *vm)
{
	struct drm_device *drm = &vm->vdev->drm;
	char name[32];
	int idx;

	/* An unplugged device has no debugfs directory any more. */
	if (!drm_dev_enter(drm, &idx))
		return;
	if (IS_ERR_OR_NULL(drm->debugfs_root))
		goto out_exit;
	snprintf(name, sizeof(name), "vm%llu", vm->client_id);
	vm->debugfs = debugfs_create_dir(name, drm->debugfs_root);
	debugfs_create_file("mappings", 0444, vm->debugfs, vm,
			    &vaccel_debugfs_mappings_fops);
	debugfs_create_file("page_table", 0444, vm->debugfs, vm,
			    &vaccel_debugfs_page_table_fops);
	debugfs_create_file("stats", 0444, vm->debugfs, vm,
			    &vaccel_debugfs_stats_fops);
out_exit:
	drm_dev_exit(idx);
}

/**
 * vaccel_debugfs_vm_remove() - remove a VM's debugfs directory
 * @vm: the VM
 *
 * Waits for readers of its files to finish.  Unplugging the device removed
 * the whole device directory already, this one included: then there is
 * nothing left to remove, and the dentry must not be touched.
 *
 * Context: Process context.
 */
void vaccel_debugfs_vm_remove(struct vaccel_vm *vm)
{
	int idx;

	if (drm_dev_enter(&vm->vdev->drm, &idx)) {
		debugfs_remove_recursive(vm->debugfs);
		drm_dev_exit(idx);
	}
	vm->debugfs = NULL;
}
