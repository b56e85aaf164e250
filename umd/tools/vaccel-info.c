// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * vaccel-info.c - print what libvaccel knows about vaccel devices: node,
 * driver, uapi version, address-space, memory and compute limits, device
 * memory and the cost model, and the engines.
 *
 *	vaccel-info		every vaccel device
 *	vaccel-info -d N	the device of index N
 *	vaccel-info PATH...	the given nodes
 *	vaccel-info --json	the same as one JSON object (see usage())
 *
 * Exits 0 when every device asked for was printed, 1 otherwise (no device,
 * an error), 2 on a usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm/vaccel_accel.h>
#include <vaccel.h>

#include "json.h"

#define PROG	"vaccel-info"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-h] [-j] [-d INDEX] [PATH...]\n"
		"Print the vaccel devices: node, driver, limits and engines.\n"
		"\n"
		"  -d INDEX     only the device of this index (0 = first vaccel node)\n"
		"  -j, --json   print one JSON object instead of text (below)\n"
		"  -h, --help   this help\n"
		"  PATH         only these device nodes, such as /dev/accel/accel0\n"
		"\n"
		"--json prints {\"format\": \"vaccel-info 1\", \"devices\": [...]}, one\n"
		"object per device asked for, with these keys (a later format only adds\n"
		"keys; addresses are strings \"0x\" and 16 hex digits, sizes in bytes):\n"
		"  path, driver {name, description, major, minor, patchlevel},\n"
		"  uapi {major, minor}, device_index, flags, single_use,\n"
		"  engines_total, engine_counts {compute, copy, paging},\n"
		"  hw_queue_depth, va_bits, page_size, va_start, va_end,\n"
		"  max_bo_size, max_bind_ops, max_bos_per_file (null: not reported),\n"
		"  kernels {max_workgroup_items, max_local_size, max_stack_size,\n"
		"    max_private_size, local_base, private_base} (null before uapi 1.4),\n"
		"  buffer_limits {hang_timeout_ms, time_limit_ms},\n"
		"  packet_limits {max_grid_items, max_copy_size},\n"
		"  file_limits {max_jobs, max_mappings, max_page_table_size}\n"
		"    (null before uapi 1.5),\n"
		"  device_memory {size, base, free} (size 0: none),\n"
		"  cost_model {system_ns_per_kib, peer_ns_per_kib} (0: off)\n"
		"    (null before uapi 1.7),\n"
		"  engines [{class, instance, hw_queue_depth, compute_units, preemption,\n"
		"    supported []}].\n"
		"A device that cannot be read is {path or index, error}.\n");
}

static void print_caps(uint32_t caps, struct json *j)
{
	const char *sep = "";
	unsigned int g;
	char buf[16];

	for (g = 0; g < 32; g++) {
		const char *name;

		if (!(caps & (1u << g)))
			continue;
		name = vaccel_preempt_granularity_name(g);
		if (!name) {
			snprintf(buf, sizeof(buf), "#%u", g);
			name = buf;
		}
		if (j)
			json_str(j, NULL, name);
		else
			printf("%s%s", sep, name);
		sep = ",";
	}
	if (!j && !*sep)
		printf("none");
}

static const char *class_name(unsigned int cls, char *buf, size_t len)
{
	const char *name = vaccel_engine_class_name(cls);

	if (name)
		return name;
	snprintf(buf, len, "class%u", cls);
	return buf;
}

/* Reads the raw device information; false if the query fails. */
static bool query_raw(const struct vaccel_device *dev, struct drm_vaccel_device_info *raw)
{
	uint32_t size = sizeof(*raw);

	memset(raw, 0, sizeof(*raw));
	return !vaccel_device_query((struct vaccel_device *)dev, DRM_VACCEL_QUERY_DEVICE,
				    raw, &size);
}

/*
 * The limits of uapi 1.5 and the device memory of 1.7 that libvaccel's
 * device information does not carry, from the raw query, as JSON: null for
 * an older module.
 */
static void json_limits(const struct vaccel_device *dev, struct json *j)
{
	struct drm_vaccel_device_info raw;
	bool v15 = query_raw(dev, &raw) && raw.max_jobs_per_file;
	bool v17 = v15 && raw.uapi_minor >= 7;

	if (v15) {
		json_open(j, "packet_limits", '{');
		json_u64(j, "max_grid_items", raw.max_grid_items);
		json_u64(j, "max_copy_size", raw.max_copy_size);
		json_close(j, '}');
		json_open(j, "file_limits", '{');
		json_u64(j, "max_jobs", raw.max_jobs_per_file);
		json_u64(j, "max_mappings", raw.max_mappings);
		json_u64(j, "max_page_table_size", raw.max_pt_bytes);
		json_close(j, '}');
	} else {
		json_null(j, "packet_limits");
		json_null(j, "file_limits");
	}
	if (v17) {
		json_open(j, "device_memory", '{');
		json_u64(j, "size", raw.device_mem_size);
		json_addr(j, "base", raw.device_mem_base);
		json_u64(j, "free", raw.device_mem_free);
		json_close(j, '}');
		json_open(j, "cost_model", '{');
		json_u64(j, "system_ns_per_kib", raw.cost_system_ns);
		json_u64(j, "peer_ns_per_kib", raw.cost_peer_ns);
		json_close(j, '}');
	} else {
		json_null(j, "device_memory");
		json_null(j, "cost_model");
	}
}

/*
 * The limits of uapi 1.5 that libvaccel's device information does not
 * carry, from the raw query; nothing for an older module.
 */
static void print_limits(const struct vaccel_device *dev)
{
	struct drm_vaccel_device_info raw;

	if (!query_raw(dev, &raw) || !raw.max_jobs_per_file)
		return;
	printf("  packet limits   %" PRIu64 " work-items a grid, %" PRIu64
	       " MiB a COPY or FILL\n", (uint64_t)raw.max_grid_items,
	       (uint64_t)raw.max_copy_size >> 20);
	printf("  file limits     %" PRIu32 " jobs in flight, %" PRIu32
	       " mappings, %" PRIu64 " MiB of page tables\n", raw.max_jobs_per_file,
	       raw.max_mappings, (uint64_t)raw.max_pt_bytes >> 20);
	/* Device memory came with uapi 1.7. */
	if (raw.uapi_minor < 7)
		return;
	if (raw.device_mem_size)
		printf("  device memory   %" PRIu64 " MiB at 0x%016" PRIx64 ", %" PRIu64
		       " MiB free\n", (uint64_t)raw.device_mem_size >> 20,
		       (uint64_t)raw.device_mem_base, (uint64_t)raw.device_mem_free >> 20);
	else
		printf("  device memory   none\n");
	if (raw.cost_system_ns || raw.cost_peer_ns)
		printf("  cost model      %" PRIu32 " ns per KiB of system memory, %" PRIu32
		       " of a peer's\n", raw.cost_system_ns, raw.cost_peer_ns);
}

/* The device as one JSON object (the keys usage() lists). */
static int json_device(const struct vaccel_device *dev, struct json *j)
{
	struct vaccel_device_info info;
	struct vaccel_engine_info e;
	unsigned int cls;
	char buf[32];
	int i, n, ret;

	ret = vaccel_device_get_info(dev, &info);
	if (ret)
		return ret;
	n = vaccel_device_engine_count(dev);
	if (n < 0)
		return n;

	json_open(j, NULL, '{');
	json_str(j, "path", vaccel_device_path(dev));
	json_open(j, "driver", '{');
	json_str(j, "name", info.driver_name);
	json_str(j, "description", info.driver_desc);
	json_u64(j, "major", info.driver_major);
	json_u64(j, "minor", info.driver_minor);
	json_u64(j, "patchlevel", info.driver_patchlevel);
	json_close(j, '}');
	json_open(j, "uapi", '{');
	json_u64(j, "major", info.uapi_major);
	json_u64(j, "minor", info.uapi_minor);
	json_close(j, '}');
	json_u64(j, "device_index", info.device_index);
	json_u64(j, "flags", info.flags);
	json_bool(j, "single_use", info.single_use);
	json_u64(j, "engines_total", info.engines_total);
	json_open(j, "engine_counts", '{');
	for (cls = 0; cls < VACCEL_MAX_ENGINE_CLASSES; cls++) {
		if (cls >= 3 && !info.engine_count[cls])
			continue;
		json_u64(j, class_name(cls, buf, sizeof(buf)), info.engine_count[cls]);
	}
	json_close(j, '}');
	json_u64(j, "hw_queue_depth", info.hw_queue_depth);
	json_u64(j, "va_bits", info.va_bits);
	json_u64(j, "page_size", info.page_size);
	json_addr(j, "va_start", info.va_start);
	json_addr(j, "va_end", info.va_end);
	json_u64_or_null(j, "max_bo_size", info.max_bo_size);
	json_u64_or_null(j, "max_bind_ops", info.max_bind_ops);
	json_u64_or_null(j, "max_bos_per_file", info.max_bos_per_file);
	if (info.max_workgroup_items) {
		json_open(j, "kernels", '{');
		json_u64(j, "max_workgroup_items", info.max_workgroup_items);
		json_u64(j, "max_local_size", info.max_local_size);
		json_u64(j, "max_stack_size", info.max_stack_size);
		json_u64(j, "max_private_size", info.max_private_size);
		json_addr(j, "local_base", info.local_base);
		json_addr(j, "private_base", info.private_base);
		json_close(j, '}');
	} else {
		json_null(j, "kernels");
	}
	if (info.time_limit_ns) {
		json_open(j, "buffer_limits", '{');
		json_u64(j, "hang_timeout_ms", info.hang_timeout_ns / 1000000);
		json_u64(j, "time_limit_ms", info.time_limit_ns / 1000000);
		json_close(j, '}');
	} else {
		json_null(j, "buffer_limits");
	}
	json_limits(dev, j);

	json_open(j, "engines", '[');
	for (i = 0; i < n; i++) {
		const char *gran;

		ret = vaccel_device_get_engine(dev, i, &e);
		if (ret)
			break;
		gran = vaccel_preempt_granularity_name(e.preempt_granularity);
		json_open(j, NULL, '{');
		json_str(j, "class", class_name(e.engine_class, buf, sizeof(buf)));
		json_u64(j, "instance", e.instance);
		json_u64(j, "hw_queue_depth", e.hw_queue_depth);
		json_u64(j, "compute_units", e.compute_units);
		if (gran)
			json_str(j, "preemption", gran);
		else
			json_null(j, "preemption");
		json_open(j, "supported", '[');
		print_caps(e.preempt_caps, j);
		json_close(j, ']');
		json_close(j, '}');
	}
	json_close(j, ']');
	if (ret)
		json_str(j, "error", strerror(-ret));
	json_close(j, '}');
	return ret;
}

static int print_device(const struct vaccel_device *dev)
{
	struct vaccel_device_info info;
	struct vaccel_engine_info e;
	unsigned int cls;
	char buf[32];
	int i, n, ret;

	ret = vaccel_device_get_info(dev, &info);
	if (ret)
		return ret;

	printf("%s: %s %d.%d.%d, %s\n", vaccel_device_path(dev),
	       info.driver_name, info.driver_major, info.driver_minor,
	       info.driver_patchlevel, info.driver_desc);
	printf("  uapi version    %u.%u\n", info.uapi_major, info.uapi_minor);
	printf("  device index    %u\n", info.device_index);
	printf("  flags           0x%" PRIx32 "%s\n", info.flags,
	       info.single_use ? " (single use)" : "");
	printf("  engines         %u (", info.engines_total);
	for (cls = 0; cls < VACCEL_MAX_ENGINE_CLASSES; cls++) {
		if (cls >= 3 && !info.engine_count[cls])
			continue;
		printf("%s%s %u", cls ? ", " : "", class_name(cls, buf, sizeof(buf)),
		       info.engine_count[cls]);
	}
	printf(")\n");
	printf("  hw queue depth  %u\n", info.hw_queue_depth);
	printf("  va bits         %u\n", info.va_bits);
	printf("  page size       %" PRIu32 "\n", info.page_size);
	printf("  va range        0x%016" PRIx64 " - 0x%016" PRIx64 "\n",
	       info.va_start, info.va_end);
	/* A uapi 1.0 module does not report these: zero. */
	if (info.max_bo_size)
		printf("  max bo size     %" PRIu64 " (%" PRIu64 " MiB)\n",
		       info.max_bo_size, info.max_bo_size >> 20);
	else
		printf("  max bo size     unknown\n");
	if (info.max_bind_ops)
		printf("  max bind ops    %u\n", info.max_bind_ops);
	else
		printf("  max bind ops    unknown\n");
	if (info.max_bos_per_file)
		printf("  max bos/file    %u\n", info.max_bos_per_file);
	else
		printf("  max bos/file    unknown\n");
	/* Kernels came with uapi 1.4. */
	if (info.max_workgroup_items) {
		printf("  workgroup       %" PRIu32 " work-items, %" PRIu32
		       " bytes of local memory\n", info.max_workgroup_items,
		       info.max_local_size);
		printf("  stacks          %" PRIu32 " bytes per work-item, %" PRIu32
		       " per workgroup\n", info.max_stack_size, info.max_private_size);
		printf("  apertures       local 0x%016" PRIx64 ", private 0x%016" PRIx64 "\n",
		       info.local_base, info.private_base);
	} else {
		printf("  kernels         not supported (uapi before 1.4)\n");
	}
	/* Timeouts came with uapi 1.5. */
	if (info.time_limit_ns)
		printf("  buffer limits   hung after %" PRIu64 " ms without progress, "
		       "stopped after %" PRIu64 " ms\n", info.hang_timeout_ns / 1000000,
		       info.time_limit_ns / 1000000);
	print_limits(dev);

	n = vaccel_device_engine_count(dev);
	if (n < 0)
		return n;
	printf("  %-8s %-8s %-5s %-5s %-12s %s\n", "engine", "instance", "hwq",
	       "units", "preemption", "supported");
	for (i = 0; i < n; i++) {
		const char *gran;

		ret = vaccel_device_get_engine(dev, i, &e);
		if (ret)
			return ret;
		gran = vaccel_preempt_granularity_name(e.preempt_granularity);
		printf("  %-8s %-8u %-5u %-5u %-12s ",
		       class_name(e.engine_class, buf, sizeof(buf)), e.instance,
		       e.hw_queue_depth, e.compute_units, gran ? gran : "?");
		print_caps(e.preempt_caps, NULL);
		printf("\n");
	}
	return 0;
}

/*
 * Opens by @path, or by @index when @path is NULL; prints, as text or, with
 * @j, as an element of the JSON array of devices.  Return: 0 or 1.
 */
static int show(const char *path, unsigned int index, int first, struct json *j)
{
	struct vaccel_device *dev;
	const char *why;
	int ret;

	if (path)
		ret = vaccel_device_open_path(path, &dev);
	else
		ret = vaccel_device_open(index, &dev);
	if (ret) {
		why = ret == -ENODEV ? "not a vaccel device" : strerror(-ret);
		if (path)
			fprintf(stderr, PROG ": %s: %s\n", path, why);
		else if (ret == -ENODEV)
			fprintf(stderr, PROG ": no vaccel device of index %u\n", index);
		else
			fprintf(stderr, PROG ": device %u: %s\n", index, why);
		if (j) {
			json_open(j, NULL, '{');
			if (path)
				json_str(j, "path", path);
			else
				json_u64(j, "index", index);
			json_str(j, "error", why);
			json_close(j, '}');
		}
		return 1;
	}

	if (j) {
		ret = json_device(dev, j);
	} else {
		if (!first)
			printf("\n");
		ret = print_device(dev);
	}
	if (ret)
		fprintf(stderr, PROG ": %s: %s\n", vaccel_device_path(dev),
			strerror(-ret));
	vaccel_device_close(dev);
	return ret ? 1 : 0;
}

/* Every device asked for; the status of main(). */
static int show_all(int argc, char **argv, bool by_index, unsigned long index,
		    struct json *j)
{
	int i, n, status = 0;

	if (optind < argc) {
		for (i = optind; i < argc; i++)
			status |= show(argv[i], 0, i == optind, j);
		return status;
	}
	if (by_index)
		return show(NULL, index, 1, j);

	n = vaccel_device_count();
	if (n < 0) {
		fprintf(stderr, PROG ": cannot list the devices: %s\n", strerror(-n));
		return 1;
	}
	if (!n) {
		fprintf(stderr,
			"no vaccel device found: is the module loaded? (insmod vaccel.ko)\n");
		return 1;
	}
	for (i = 0; i < n; i++)
		status |= show(NULL, i, !i, j);
	return status;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct json json;
	unsigned long index = 0;
	bool by_index = false, as_json = false;
	int opt, status;
	char *end;

	while ((opt = getopt_long(argc, argv, "hjd:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			usage(stdout);
			return 0;
		case 'j':
			as_json = true;
			break;
		case 'd':
			errno = 0;
			index = strtoul(optarg, &end, 0);
			if (errno || *end || !*optarg || optarg[0] == '-' ||
			    index > UINT_MAX) {
				fprintf(stderr, PROG ": bad device index '%s'\n", optarg);
				return 2;
			}
			by_index = true;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (by_index && optind < argc) {
		fprintf(stderr, PROG ": -d and PATH exclude each other\n");
		return 2;
	}

	if (!as_json)
		return show_all(argc, argv, by_index, index, NULL);

	json_init(&json, stdout, false);
	json_open(&json, NULL, '{');
	json_str(&json, "format", "vaccel-info 1");
	json_open(&json, "devices", '[');
	status = show_all(argc, argv, by_index, index, &json);
	json_close(&json, ']');
	json_close(&json, '}');
	printf("\n");
	return status;
}
