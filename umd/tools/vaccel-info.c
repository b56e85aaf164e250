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
 *
 * Exits 0 when every device asked for was printed, 1 otherwise (no device,
 * an error), 2 on a usage error.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm/vaccel_accel.h>
#include <vaccel.h>

#define PROG	"vaccel-info"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-h] [-d INDEX] [PATH...]\n"
		"Print the vaccel devices: node, driver, limits and engines.\n"
		"\n"
		"  -d INDEX  only the device of this index (0 = first vaccel node)\n"
		"  -h        this help\n"
		"  PATH      only these device nodes, such as /dev/accel/accel0\n");
}

static void print_caps(uint32_t caps)
{
	const char *sep = "";
	unsigned int g;

	for (g = 0; g < 32; g++) {
		const char *name;

		if (!(caps & (1u << g)))
			continue;
		name = vaccel_preempt_granularity_name(g);
		if (name)
			printf("%s%s", sep, name);
		else
			printf("%s#%u", sep, g);
		sep = ",";
	}
	if (!*sep)
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

/*
 * The limits of uapi 1.5 that libvaccel's device information does not
 * carry, from the raw query; nothing for an older module.
 */
static void print_limits(const struct vaccel_device *dev)
{
	struct drm_vaccel_device_info raw;
	uint32_t size = sizeof(raw);

	if (vaccel_device_query((struct vaccel_device *)dev, DRM_VACCEL_QUERY_DEVICE,
				&raw, &size) || !raw.max_jobs_per_file)
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
	printf("  %-8s %-8s %-5s %-12s %s\n", "engine", "instance", "hwq",
	       "preemption", "supported");
	for (i = 0; i < n; i++) {
		const char *gran;

		ret = vaccel_device_get_engine(dev, i, &e);
		if (ret)
			return ret;
		gran = vaccel_preempt_granularity_name(e.preempt_granularity);
		printf("  %-8s %-8u %-5u %-12s ",
		       class_name(e.engine_class, buf, sizeof(buf)), e.instance,
		       e.hw_queue_depth, gran ? gran : "?");
		print_caps(e.preempt_caps);
		printf("\n");
	}
	return 0;
}

/* Opens by @path, or by @index when @path is NULL; prints. Return: 0 or 1. */
static int show(const char *path, unsigned int index, int first)
{
	struct vaccel_device *dev;
	int ret;

	if (path)
		ret = vaccel_device_open_path(path, &dev);
	else
		ret = vaccel_device_open(index, &dev);
	if (ret) {
		if (path && ret == -ENODEV)
			fprintf(stderr, PROG ": %s: not a vaccel device\n", path);
		else if (path)
			fprintf(stderr, PROG ": %s: %s\n", path, strerror(-ret));
		else if (ret == -ENODEV)
			fprintf(stderr, PROG ": no vaccel device of index %u\n", index);
		else
			fprintf(stderr, PROG ": device %u: %s\n", index, strerror(-ret));
		return 1;
	}

	if (!first)
		printf("\n");
	ret = print_device(dev);
	if (ret)
		fprintf(stderr, PROG ": %s: %s\n", vaccel_device_path(dev),
			strerror(-ret));
	vaccel_device_close(dev);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long index = 0;
	int opt, i, n, status = 0;
	bool by_index = false;
	char *end;

	while ((opt = getopt(argc, argv, "hd:")) != -1) {
		switch (opt) {
		case 'h':
			usage(stdout);
			return 0;
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

	if (optind < argc) {
		for (i = optind; i < argc; i++)
			status |= show(argv[i], 0, i == optind);
		return status;
	}
	if (by_index)
		return show(NULL, index, 1);

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
		status |= show(NULL, i, !i);
	return status;
}
