// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * uapi_layout.c - prints the layout of every structure of
 * <drm/vaccel_accel.h>: size, alignment, and offset and size of each field.
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
	{ NULL, 0, 0 }
};

static const struct field engine_info[] = {
	FIELD(drm_vaccel_engine_info, engine_class),
	FIELD(drm_vaccel_engine_info, instance),
	FIELD(drm_vaccel_engine_info, hw_queue_depth),
	FIELD(drm_vaccel_engine_info, preempt_caps),
	FIELD(drm_vaccel_engine_info, preempt_granularity),
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
	printf("DRM_IOCTL_VACCEL_QUERY 0x%08lx\n", (unsigned long)DRM_IOCTL_VACCEL_QUERY);
	return bad;
}
