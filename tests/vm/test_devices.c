// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_devices.c - the module creates the expected number of devices: one
 * accel node each, distinct device indices 0..N-1, every node opens, and
 * libvaccel counts the same number.
 */
#include <vaccel.h>

#include "vt_util.h"

static char nodes[VT_MAX_NODES][PATH_MAX];

/* As many vaccel nodes as the plan asks for. */
VTEST(node_count)
{
	long long devices = vt_expect("VT_DEVICES", "devices");

	VT_ASSERT_EQ(vt_vaccel_nodes(nodes, VT_MAX_NODES), devices);
}

/* The nodes report distinct device indices covering 0..N-1. */
VTEST(distinct_index)
{
	bool seen[VT_MAX_NODES] = { false };
	struct drm_vaccel_device_info info;
	int i, n, fd;

	n = vt_vaccel_nodes(nodes, VT_MAX_NODES);
	VT_ASSERT(n > 0);
	for (i = 0; i < n; i++) {
		fd = open(nodes[i], O_RDWR | O_CLOEXEC);
		VT_ASSERT(fd >= 0);
		vt_device_info(fd, &info);
		VT_ASSERT(info.device_index < (unsigned int)n);
		VT_ASSERT(!seen[info.device_index]);
		seen[info.device_index] = true;
		close(fd);
	}
}

/* Every node opens, all of them at once, and each answers a query. */
VTEST(open_all)
{
	struct drm_vaccel_device_info info;
	int fds[VT_MAX_NODES];
	int i, n;

	n = vt_vaccel_nodes(nodes, VT_MAX_NODES);
	VT_ASSERT(n > 0);
	for (i = 0; i < n; i++) {
		fds[i] = open(nodes[i], O_RDWR | O_CLOEXEC);
		if (fds[i] < 0)
			vtest_fail(__FILE__, __LINE__, "open %s: %s", nodes[i],
				   strerror(errno));
	}
	for (i = 0; i < n; i++) {
		vt_device_info(fds[i], &info);
		close(fds[i]);
	}
}

/* libvaccel counts the same devices. */
VTEST(libvaccel_count)
{
	long long devices = vt_expect("VT_DEVICES", "devices");

	VT_ASSERT_EQ(vaccel_device_count(), devices);
}

VTEST_MAIN()
