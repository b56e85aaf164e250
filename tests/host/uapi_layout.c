// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * uapi_layout.c - prints the layout of every structure of
 * <drm/vaccel_accel.h> and <drm/vaccel_coredump.h>: size, alignment, and
 * offset and size of each field.
 * run.sh builds it with -m64 and -m32 and requires identical output, so the
 * same structures serve 32-bit and 64-bit processes without compat code.
 *
 * Alignment is not printed: i386 aligns __u64 to 4 bytes, which is harmless
 * as long as sizes and offsets agree.
 *
 * It also exits 1 if a structure's size is not a multiple of 8 or if the
 * compiler inserted padding anywhere (every hole must be an explicit pad or
 * reserved field).  A new structure or field must be added to the tables.
 */
#include <stddef.h>
#include <stdio.h>

#include <drm/vaccel_accel.h>
#include <drm/vaccel_coredump.h>

struct field {
	const char *name;
	size_t offset;
	size_t size;
};

#define FIELD(s, f)	{ #f, offsetof(struct s, f), sizeof(((struct s *)0)->f) }
/* A flexible array member has no size of its own. */
#define FLEX(s, f)	{ #f "[]", offsetof(struct s, f), 0 }

static const struct field device_info[] = {
	FIELD(drm_vaccel_device_info, uapi_major),
	FIELD(drm_vaccel_device_info, uapi_minor),
	FIELD(drm_vaccel_device_info, device_index),
	FIELD(drm_vaccel_device_info, flags),
	FIELD(drm_vaccel_device_info, engine_count),
	FIELD(drm_vaccel_device_info, engines_total),
	FIELD(drm_vaccel_device_info, hw_queue_depth),
	FIELD(drm_vaccel_device_info, va_bits),
	FIELD(drm_vaccel_device_info, page_size),
	FIELD(drm_vaccel_device_info, va_start),
	FIELD(drm_vaccel_device_info, va_end),
	FIELD(drm_vaccel_device_info, max_bo_size),
	FIELD(drm_vaccel_device_info, max_bind_ops),
	FIELD(drm_vaccel_device_info, max_bos_per_file),
	FIELD(drm_vaccel_device_info, max_workgroup_items),
	FIELD(drm_vaccel_device_info, max_local_size),
	FIELD(drm_vaccel_device_info, max_stack_size),
	FIELD(drm_vaccel_device_info, max_private_size),
	FIELD(drm_vaccel_device_info, local_base),
	FIELD(drm_vaccel_device_info, private_base),
	FIELD(drm_vaccel_device_info, hang_timeout_ns),
	FIELD(drm_vaccel_device_info, time_limit_ns),
	FIELD(drm_vaccel_device_info, max_grid_items),
	FIELD(drm_vaccel_device_info, max_copy_size),
	FIELD(drm_vaccel_device_info, max_pt_bytes),
	FIELD(drm_vaccel_device_info, max_mappings),
	FIELD(drm_vaccel_device_info, max_jobs_per_file),
	FIELD(drm_vaccel_device_info, device_mem_size),
	FIELD(drm_vaccel_device_info, device_mem_free),
	FIELD(drm_vaccel_device_info, device_mem_base),
	FIELD(drm_vaccel_device_info, cost_system_ns),
	FIELD(drm_vaccel_device_info, cost_peer_ns),
	{ NULL, 0, 0 }
};

static const struct field engine_info[] = {
	FIELD(drm_vaccel_engine_info, engine_class),
	FIELD(drm_vaccel_engine_info, instance),
	FIELD(drm_vaccel_engine_info, hw_queue_depth),
	FIELD(drm_vaccel_engine_info, preempt_caps),
	FIELD(drm_vaccel_engine_info, preempt_granularity),
	FIELD(drm_vaccel_engine_info, compute_units),
	FIELD(drm_vaccel_engine_info, reserved32),
	FIELD(drm_vaccel_engine_info, reserved),
	{ NULL, 0, 0 }
};

static const struct field engine_list[] = {
	FIELD(drm_vaccel_engine_list, count),
	FIELD(drm_vaccel_engine_list, entry_size),
	FLEX(drm_vaccel_engine_list, engines),
	{ NULL, 0, 0 }
};

static const struct field query[] = {
	FIELD(drm_vaccel_query, type),
	FIELD(drm_vaccel_query, size),
	FIELD(drm_vaccel_query, data),
	FIELD(drm_vaccel_query, flags),
	FIELD(drm_vaccel_query, pad),
	{ NULL, 0, 0 }
};

static const struct field obj_array[] = {
	FIELD(drm_vaccel_obj_array, stride),
	FIELD(drm_vaccel_obj_array, count),
	FIELD(drm_vaccel_obj_array, array),
	{ NULL, 0, 0 }
};

static const struct field vm_stats[] = {
	FIELD(drm_vaccel_vm_stats, mappings),
	FIELD(drm_vaccel_vm_stats, mapped_bytes),
	FIELD(drm_vaccel_vm_stats, pt_pages),
	FIELD(drm_vaccel_vm_stats, pt_bytes),
	{ NULL, 0, 0 }
};

static const struct field bo_create[] = {
	FIELD(drm_vaccel_bo_create, size),
	FIELD(drm_vaccel_bo_create, flags),
	FIELD(drm_vaccel_bo_create, handle),
	{ NULL, 0, 0 }
};

static const struct field bo_mmap_offset[] = {
	FIELD(drm_vaccel_bo_mmap_offset, handle),
	FIELD(drm_vaccel_bo_mmap_offset, pad),
	FIELD(drm_vaccel_bo_mmap_offset, offset),
	{ NULL, 0, 0 }
};

static const struct field bo_info[] = {
	FIELD(drm_vaccel_bo_info, handle),
	FIELD(drm_vaccel_bo_info, flags),
	FIELD(drm_vaccel_bo_info, size),
	FIELD(drm_vaccel_bo_info, mappings),
	FIELD(drm_vaccel_bo_info, pad),
	FIELD(drm_vaccel_bo_info, region),
	FIELD(drm_vaccel_bo_info, evictions),
	{ NULL, 0, 0 }
};

static const struct field bo_migrate[] = {
	FIELD(drm_vaccel_bo_migrate, handle),
	FIELD(drm_vaccel_bo_migrate, region),
	FIELD(drm_vaccel_bo_migrate, flags),
	FIELD(drm_vaccel_bo_migrate, pad),
	FIELD(drm_vaccel_bo_migrate, waits),
	FIELD(drm_vaccel_bo_migrate, signals),
	{ NULL, 0, 0 }
};

static const struct field vm_bind_op[] = {
	FIELD(drm_vaccel_vm_bind_op, op),
	FIELD(drm_vaccel_vm_bind_op, flags),
	FIELD(drm_vaccel_vm_bind_op, handle),
	FIELD(drm_vaccel_vm_bind_op, pad),
	FIELD(drm_vaccel_vm_bind_op, bo_offset),
	FIELD(drm_vaccel_vm_bind_op, va),
	FIELD(drm_vaccel_vm_bind_op, size),
	{ NULL, 0, 0 }
};

static const struct field vm_bind[] = {
	FIELD(drm_vaccel_vm_bind, flags),
	FIELD(drm_vaccel_vm_bind, pad),
	FIELD(drm_vaccel_vm_bind, ops),
	FIELD(drm_vaccel_vm_bind, waits),
	FIELD(drm_vaccel_vm_bind, signals),
	{ NULL, 0, 0 }
};

static const struct field context_create[] = {
	FIELD(drm_vaccel_context_create, engine_class),
	FIELD(drm_vaccel_context_create, engine_instance),
	FIELD(drm_vaccel_context_create, priority),
	FIELD(drm_vaccel_context_create, flags),
	FIELD(drm_vaccel_context_create, handle),
	FIELD(drm_vaccel_context_create, pad),
	{ NULL, 0, 0 }
};

static const struct field context_destroy[] = {
	FIELD(drm_vaccel_context_destroy, handle),
	FIELD(drm_vaccel_context_destroy, pad),
	{ NULL, 0, 0 }
};

static const struct field context_state[] = {
	FIELD(drm_vaccel_context_state, handle),
	FIELD(drm_vaccel_context_state, pad),
	FIELD(drm_vaccel_context_state, flags),
	FIELD(drm_vaccel_context_state, engine_index),
	FIELD(drm_vaccel_context_state, jobs_submitted),
	FIELD(drm_vaccel_context_state, jobs_completed),
	FIELD(drm_vaccel_context_state, fault_va),
	FIELD(drm_vaccel_context_state, fault_offset),
	FIELD(drm_vaccel_context_state, fault_reason),
	FIELD(drm_vaccel_context_state, fault_access),
	FIELD(drm_vaccel_context_state, ban_reason),
	FIELD(drm_vaccel_context_state, guilty_resets),
	FIELD(drm_vaccel_context_state, innocent_resets),
	FIELD(drm_vaccel_context_state, pad2),
	FIELD(drm_vaccel_context_state, preemptions),
	FIELD(drm_vaccel_context_state, engine_ns),
	FIELD(drm_vaccel_context_state, fault_pc),
	FIELD(drm_vaccel_context_state, ban_job),
	FIELD(drm_vaccel_context_state, ban_buffer_va),
	FIELD(drm_vaccel_context_state, ban_offset),
	{ NULL, 0, 0 }
};

static const struct field sync[] = {
	FIELD(drm_vaccel_sync, handle),
	FIELD(drm_vaccel_sync, flags),
	FIELD(drm_vaccel_sync, point),
	{ NULL, 0, 0 }
};

static const struct field submit[] = {
	FIELD(drm_vaccel_submit, context),
	FIELD(drm_vaccel_submit, flags),
	FIELD(drm_vaccel_submit, buffer_va),
	FIELD(drm_vaccel_submit, buffer_size),
	FIELD(drm_vaccel_submit, waits),
	FIELD(drm_vaccel_submit, signals),
	{ NULL, 0, 0 }
};

static const struct field coredump_header[] = {
	FIELD(drm_vaccel_coredump_header, magic),
	FIELD(drm_vaccel_coredump_header, version),
	FIELD(drm_vaccel_coredump_header, header_size),
	FIELD(drm_vaccel_coredump_header, total_size),
	FIELD(drm_vaccel_coredump_header, num_sections),
	FIELD(drm_vaccel_coredump_header, kind),
	FIELD(drm_vaccel_coredump_header, time_ns),
	FIELD(drm_vaccel_coredump_header, monotonic_ns),
	FIELD(drm_vaccel_coredump_header, device_index),
	FIELD(drm_vaccel_coredump_header, engine_index),
	FIELD(drm_vaccel_coredump_header, sequence),
	FIELD(drm_vaccel_coredump_header, dropped),
	{ NULL, 0, 0 }
};

static const struct field coredump_section[] = {
	FIELD(drm_vaccel_coredump_section, type),
	FIELD(drm_vaccel_coredump_section, size),
	FIELD(drm_vaccel_coredump_section, count),
	FIELD(drm_vaccel_coredump_section, entry_size),
	{ NULL, 0, 0 }
};

static const struct field coredump_device[] = {
	FIELD(drm_vaccel_coredump_device, device_index),
	FIELD(drm_vaccel_coredump_device, uapi_major),
	FIELD(drm_vaccel_coredump_device, uapi_minor),
	FIELD(drm_vaccel_coredump_device, num_engines),
	FIELD(drm_vaccel_coredump_device, engine_count),
	FIELD(drm_vaccel_coredump_device, va_bits),
	FIELD(drm_vaccel_coredump_device, flags),
	FIELD(drm_vaccel_coredump_device, va_start),
	FIELD(drm_vaccel_coredump_device, va_end),
	FIELD(drm_vaccel_coredump_device, timeout_ns),
	FIELD(drm_vaccel_coredump_device, time_limit_ns),
	FIELD(drm_vaccel_coredump_device, timeslice_ns),
	FIELD(drm_vaccel_coredump_device, dispatch_slice),
	FIELD(drm_vaccel_coredump_device, pad),
	FIELD(drm_vaccel_coredump_device, device_resets),
	FIELD(drm_vaccel_coredump_device, kernel_release),
	{ NULL, 0, 0 }
};

static const struct field coredump_slot[] = {
	FIELD(drm_vaccel_coredump_slot, context),
	FIELD(drm_vaccel_coredump_slot, flags),
	FIELD(drm_vaccel_coredump_slot, client_id),
	FIELD(drm_vaccel_coredump_slot, buffer_va),
	FIELD(drm_vaccel_coredump_slot, buffer_size),
	FIELD(drm_vaccel_coredump_slot, offset),
	FIELD(drm_vaccel_coredump_slot, progress),
	FIELD(drm_vaccel_coredump_slot, priority),
	FIELD(drm_vaccel_coredump_slot, pad),
	{ NULL, 0, 0 }
};

static const struct field coredump_engine[] = {
	FIELD(drm_vaccel_coredump_engine, index),
	FIELD(drm_vaccel_coredump_engine, engine_class),
	FIELD(drm_vaccel_coredump_engine, instance),
	FIELD(drm_vaccel_coredump_engine, preempt_granularity),
	FIELD(drm_vaccel_coredump_engine, hw_queue_depth),
	FIELD(drm_vaccel_coredump_engine, slots_used),
	FIELD(drm_vaccel_coredump_engine, num_contexts),
	FIELD(drm_vaccel_coredump_engine, flags),
	FIELD(drm_vaccel_coredump_engine, resets),
	FIELD(drm_vaccel_coredump_engine, hangs),
	FIELD(drm_vaccel_coredump_engine, instructions),
	FIELD(drm_vaccel_coredump_engine, timeout_ns),
	FIELD(drm_vaccel_coredump_engine, time_limit_ns),
	FIELD(drm_vaccel_coredump_engine, slice_ns),
	FIELD(drm_vaccel_coredump_engine, running_ns),
	FIELD(drm_vaccel_coredump_engine, boosted_context),
	FIELD(drm_vaccel_coredump_engine, pad),
	FIELD(drm_vaccel_coredump_engine, band_ns),
	FIELD(drm_vaccel_coredump_engine, band_ready),
	FIELD(drm_vaccel_coredump_engine, preemptions),
	FIELD(drm_vaccel_coredump_engine, slot),
	{ NULL, 0, 0 }
};

static const struct field coredump_context[] = {
	FIELD(drm_vaccel_coredump_context, handle),
	FIELD(drm_vaccel_coredump_context, flags),
	FIELD(drm_vaccel_coredump_context, client_id),
	FIELD(drm_vaccel_coredump_context, pid),
	FIELD(drm_vaccel_coredump_context, engine_index),
	FIELD(drm_vaccel_coredump_context, comm),
	FIELD(drm_vaccel_coredump_context, priority),
	FIELD(drm_vaccel_coredump_context, ban_reason),
	FIELD(drm_vaccel_coredump_context, error),
	FIELD(drm_vaccel_coredump_context, guilty_resets),
	FIELD(drm_vaccel_coredump_context, innocent_resets),
	FIELD(drm_vaccel_coredump_context, pad),
	FIELD(drm_vaccel_coredump_context, jobs_submitted),
	FIELD(drm_vaccel_coredump_context, jobs_completed),
	FIELD(drm_vaccel_coredump_context, preemptions),
	FIELD(drm_vaccel_coredump_context, engine_ns),
	FIELD(drm_vaccel_coredump_context, fault_va),
	FIELD(drm_vaccel_coredump_context, fault_pc),
	FIELD(drm_vaccel_coredump_context, fault_offset),
	FIELD(drm_vaccel_coredump_context, fault_reason),
	FIELD(drm_vaccel_coredump_context, fault_access),
	{ NULL, 0, 0 }
};

static const struct field coredump_buffer[] = {
	FIELD(drm_vaccel_coredump_buffer, context),
	FIELD(drm_vaccel_coredump_buffer, pad),
	FIELD(drm_vaccel_coredump_buffer, buffer_va),
	FIELD(drm_vaccel_coredump_buffer, buffer_size),
	FIELD(drm_vaccel_coredump_buffer, offset),
	FIELD(drm_vaccel_coredump_buffer, progress),
	FIELD(drm_vaccel_coredump_buffer, stall_ns),
	FIELD(drm_vaccel_coredump_buffer, run_ns),
	FIELD(drm_vaccel_coredump_buffer, excerpt_offset),
	FIELD(drm_vaccel_coredump_buffer, excerpt_size),
	FIELD(drm_vaccel_coredump_buffer, pad2),
	FIELD(drm_vaccel_coredump_buffer, excerpt_valid),
	FIELD(drm_vaccel_coredump_buffer, excerpt),
	{ NULL, 0, 0 }
};

static const struct field coredump_dispatch[] = {
	FIELD(drm_vaccel_coredump_dispatch, entry),
	FIELD(drm_vaccel_coredump_dispatch, args),
	FIELD(drm_vaccel_coredump_dispatch, grid),
	FIELD(drm_vaccel_coredump_dispatch, wg),
	FIELD(drm_vaccel_coredump_dispatch, num_groups),
	FIELD(drm_vaccel_coredump_dispatch, local_size),
	FIELD(drm_vaccel_coredump_dispatch, stack_size),
	FIELD(drm_vaccel_coredump_dispatch, group_id),
	FIELD(drm_vaccel_coredump_dispatch, group),
	FIELD(drm_vaccel_coredump_dispatch, total_groups),
	FIELD(drm_vaccel_coredump_dispatch, live),
	FIELD(drm_vaccel_coredump_dispatch, waiting),
	FIELD(drm_vaccel_coredump_dispatch, current_item),
	FIELD(drm_vaccel_coredump_dispatch, pad),
	{ NULL, 0, 0 }
};

static const struct field coredump_workitem[] = {
	FIELD(drm_vaccel_coredump_workitem, flat_id),
	FIELD(drm_vaccel_coredump_workitem, state),
	FIELD(drm_vaccel_coredump_workitem, local_id),
	FIELD(drm_vaccel_coredump_workitem, fcsr),
	FIELD(drm_vaccel_coredump_workitem, global_id),
	FIELD(drm_vaccel_coredump_workitem, pc),
	FIELD(drm_vaccel_coredump_workitem, instret),
	FIELD(drm_vaccel_coredump_workitem, x),
	FIELD(drm_vaccel_coredump_workitem, f),
	{ NULL, 0, 0 }
};

static const struct field coredump_page_walk[] = {
	FIELD(drm_vaccel_coredump_page_walk, va),
	FIELD(drm_vaccel_coredump_page_walk, va_start),
	FIELD(drm_vaccel_coredump_page_walk, va_end),
	FIELD(drm_vaccel_coredump_page_walk, levels),
	FIELD(drm_vaccel_coredump_page_walk, flags),
	FIELD(drm_vaccel_coredump_page_walk, entry),
	{ NULL, 0, 0 }
};

static int check(const char *name, size_t size, const struct field *f)
{
	size_t end = 0;
	int bad = 0;

	printf("struct %s: size %zu\n", name, size);
	if (size % 8) {
		fprintf(stderr, "struct %s: size %zu is not a multiple of 8\n",
			name, size);
		bad = 1;
	}
	for (; f->name; f++) {
		printf("  %-20s offset %3zu size %3zu\n", f->name, f->offset, f->size);
		if (f->offset != end) {
			fprintf(stderr, "struct %s: %zu bytes of implicit padding before %s\n",
				name, f->offset - end, f->name);
			bad = 1;
		}
		end = f->offset + f->size;
	}
	if (end != size) {
		fprintf(stderr, "struct %s: %zu bytes of implicit padding at the end\n",
			name, size - end);
		bad = 1;
	}
	return bad;
}

#define CHECK(s, fields)	check(#s, sizeof(struct s), fields)

int main(void)
{
	int bad = 0;

	bad |= CHECK(drm_vaccel_device_info, device_info);
	bad |= CHECK(drm_vaccel_engine_info, engine_info);
	bad |= CHECK(drm_vaccel_engine_list, engine_list);
	bad |= CHECK(drm_vaccel_query, query);
	bad |= CHECK(drm_vaccel_obj_array, obj_array);
	bad |= CHECK(drm_vaccel_vm_stats, vm_stats);
	bad |= CHECK(drm_vaccel_bo_create, bo_create);
	bad |= CHECK(drm_vaccel_bo_mmap_offset, bo_mmap_offset);
	bad |= CHECK(drm_vaccel_bo_info, bo_info);
	bad |= CHECK(drm_vaccel_bo_migrate, bo_migrate);
	bad |= CHECK(drm_vaccel_vm_bind_op, vm_bind_op);
	bad |= CHECK(drm_vaccel_vm_bind, vm_bind);
	bad |= CHECK(drm_vaccel_context_create, context_create);
	bad |= CHECK(drm_vaccel_context_destroy, context_destroy);
	bad |= CHECK(drm_vaccel_context_state, context_state);
	bad |= CHECK(drm_vaccel_sync, sync);
	bad |= CHECK(drm_vaccel_submit, submit);
	bad |= CHECK(drm_vaccel_coredump_header, coredump_header);
	bad |= CHECK(drm_vaccel_coredump_section, coredump_section);
	bad |= CHECK(drm_vaccel_coredump_device, coredump_device);
	bad |= CHECK(drm_vaccel_coredump_slot, coredump_slot);
	bad |= CHECK(drm_vaccel_coredump_engine, coredump_engine);
	bad |= CHECK(drm_vaccel_coredump_context, coredump_context);
	bad |= CHECK(drm_vaccel_coredump_buffer, coredump_buffer);
	bad |= CHECK(drm_vaccel_coredump_dispatch, coredump_dispatch);
	bad |= CHECK(drm_vaccel_coredump_workitem, coredump_workitem);
	bad |= CHECK(drm_vaccel_coredump_page_walk, coredump_page_walk);
	/* uapi 1.3 grew the context state; what 1.2 had stays where it was. */
	if (offsetof(struct drm_vaccel_context_state, ban_reason) != 56) {
		fprintf(stderr, "uapi 1.2 part of drm_vaccel_context_state is not 56 bytes\n");
		bad = 1;
	}
	/* uapi 1.6 appended the ban record to the 96 bytes of 1.4. */
	if (offsetof(struct drm_vaccel_context_state, ban_job) != 96) {
		fprintf(stderr, "uapi 1.4 part of drm_vaccel_context_state is not 96 bytes\n");
		bad = 1;
	}
	/* The first released size of the device answer stays the minimum. */
	if (offsetof(struct drm_vaccel_device_info, max_bo_size) != 64) {
		fprintf(stderr, "uapi 1.0 part of drm_vaccel_device_info is not 64 bytes\n");
		bad = 1;
	}
	printf("DRM_IOCTL_VACCEL_QUERY 0x%08lx\n", (unsigned long)DRM_IOCTL_VACCEL_QUERY);
	printf("DRM_IOCTL_VACCEL_BO_CREATE 0x%08lx\n", (unsigned long)DRM_IOCTL_VACCEL_BO_CREATE);
	printf("DRM_IOCTL_VACCEL_BO_MMAP_OFFSET 0x%08lx\n",
	       (unsigned long)DRM_IOCTL_VACCEL_BO_MMAP_OFFSET);
	printf("DRM_IOCTL_VACCEL_BO_INFO 0x%08lx\n", (unsigned long)DRM_IOCTL_VACCEL_BO_INFO);
	printf("DRM_IOCTL_VACCEL_VM_BIND 0x%08lx\n", (unsigned long)DRM_IOCTL_VACCEL_VM_BIND);
	printf("DRM_IOCTL_VACCEL_CONTEXT_CREATE 0x%08lx\n",
	       (unsigned long)DRM_IOCTL_VACCEL_CONTEXT_CREATE);
	printf("DRM_IOCTL_VACCEL_CONTEXT_DESTROY 0x%08lx\n",
	       (unsigned long)DRM_IOCTL_VACCEL_CONTEXT_DESTROY);
	printf("DRM_IOCTL_VACCEL_CONTEXT_STATE 0x%08lx\n",
	       (unsigned long)DRM_IOCTL_VACCEL_CONTEXT_STATE);
	printf("DRM_IOCTL_VACCEL_SUBMIT 0x%08lx\n", (unsigned long)DRM_IOCTL_VACCEL_SUBMIT);
	return bad;
}
