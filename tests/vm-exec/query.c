// SPDX-License-Identifier: GPL-2.0-only
/*
 * query.c - a libvaccel program for `vm.sh exec`, built outside the tree
 * with pkg-config: counts the devices, opens /dev/accel/accel0 and prints
 * what it is.  Exits 1 with a reason if libvaccel fails.
 */
#include <stdio.h>
#include <string.h>

#include <vaccel.h>

int main(void)
{
	struct vaccel_device_info info;
	struct vaccel_device *dev;
	int count, ret;

	count = vaccel_device_count();
	if (count < 0) {
		fprintf(stderr, "vaccel_device_count: %s\n", strerror(-count));
		return 1;
	}
	ret = vaccel_device_open(0, &dev);
	if (ret) {
		fprintf(stderr, "vaccel_device_open(0): %s\n", strerror(-ret));
		return 1;
	}
	ret = vaccel_device_get_info(dev, &info);
	if (ret) {
		fprintf(stderr, "vaccel_device_get_info: %s\n", strerror(-ret));
		vaccel_device_close(dev);
		return 1;
	}
	printf("devices %d\n", count);
	printf("%s: %s, uapi %u.%u, %u compute and %u copy engines\n",
	       vaccel_device_path(dev), info.driver_name, info.uapi_major,
	       info.uapi_minor, info.engine_count[VACCEL_ENGINE_CLASS_COMPUTE],
	       info.engine_count[VACCEL_ENGINE_CLASS_COPY]);
	vaccel_device_close(dev);
	return 0;
}
