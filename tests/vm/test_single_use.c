// SPDX-License-Identifier: MIT
/*
 * test_single_use.c - the MCDM Single Use device.
 *
 * Loaded with single_use=1, a device admits one open file at a time: a
 * second open, from this process or another, fails with EBUSY until the
 * first file is closed, and the device query reports the flag.
 */
#include <fcntl.h>
#include <sys/ioctl.h>

#include <drm/vaccel_accel.h>

#include "vaccel.h"
#include "vtest.h"

#define NODE "/dev/accel/accel0"

VTEST(flag_reported)
{
	struct drm_vaccel_device_info info = {};
	struct drm_vaccel_query q = {
		.type = DRM_VACCEL_QUERY_DEVICE,
		.size = sizeof(info),
		.data = (uintptr_t)&info,
	};
	int fd = open(NODE, O_RDWR);

	VT_ASSERT(fd >= 0);
	VT_ASSERT_EQ(ioctl(fd, DRM_IOCTL_VACCEL_QUERY, &q), 0);
	VT_ASSERT_EQ(info.flags, DRM_VACCEL_DEVICE_SINGLE_USE);
	close(fd);
}

VTEST(second_open_busy)
{
	int fd = open(NODE, O_RDWR), fd2, i;

	VT_ASSERT(fd >= 0);
	for (i = 0; i < 10; i++)
		VT_ASSERT_ERRNO(open(NODE, O_RDWR), EBUSY);
	close(fd);
	fd2 = open(NODE, O_RDWR);
	VT_ASSERT(fd2 >= 0);
	close(fd2);
}

VTEST(other_process_busy)
{
	int fd = open(NODE, O_RDWR), status;
	pid_t pid;

	VT_ASSERT(fd >= 0);
	pid = fork();
	if (pid == 0) {
		int fd2 = open(NODE, O_RDWR);

		_exit(fd2 < 0 && errno == EBUSY ? 0 : 1);
	}
	VT_ASSERT(pid > 0);
	VT_ASSERT_EQ(waitpid(pid, &status, 0), pid);
	VT_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(fd);
}

VTEST(libvaccel_reports_busy)
{
	struct vaccel_device *a, *b;

	VT_ASSERT_OK(vaccel_device_open(0, &a));
	VT_ASSERT_EQ(vaccel_device_open_path(NODE, &b), -EBUSY);
	vaccel_device_close(a);
	VT_ASSERT_OK(vaccel_device_open_path(NODE, &b));
	vaccel_device_close(b);
}

/*
 * Racing openers: four processes open at once and hold what they got
 * until all have tried; exactly one may hold the device.
 */
VTEST(racing_opens_one_winner)
{
	int round;

	for (round = 0; round < 20; round++) {
		int result[2], release[2], wins = 0, busy = 0, i, status;
		char c;

		VT_ASSERT_EQ(pipe(result), 0);
		VT_ASSERT_EQ(pipe(release), 0);
		for (i = 0; i < 4; i++) {
			if (fork() == 0) {
				int fd = open(NODE, O_RDWR);
				char r = fd >= 0 ? 'w' : errno == EBUSY ? 'b' : 'e';

				close(release[1]);
				if (write(result[1], &r, 1) != 1)
					_exit(1);
				/* Hold the file until the parent has counted. */
				while (read(release[0], &c, 1) > 0)
					;
				_exit(0);
			}
		}
		close(result[1]);
		close(release[0]);
		for (i = 0; i < 4; i++) {
			VT_ASSERT_EQ(read(result[0], &c, 1), 1);
			wins += c == 'w';
			busy += c == 'b';
		}
		close(release[1]);
		for (i = 0; i < 4; i++) {
			VT_ASSERT(wait(&status) > 0);
			VT_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		}
		close(result[0]);
		VT_ASSERT_EQ(wins, 1);
		VT_ASSERT_EQ(busy, 3);
	}
}

VTEST_MAIN()
