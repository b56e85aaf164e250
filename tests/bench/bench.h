/* SPDX-License-Identifier: MIT */
/*
 * bench.h - what every benchmark of tests/bench needs: a clock, the device,
 * and a way to give up with a line `make bench` shows.
 */
#ifndef BENCH_H
#define BENCH_H

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <linux/types.h>

/* Each benchmark sets its name, for its `not ok bench.<name>` line. */
static const char *bench_name;

__attribute__((noreturn, format(printf, 1, 2)))
static inline void bench_die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	printf("not ok bench.%s: ", bench_name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(1);
}

/* CLOCK_MONOTONIC in ns: the clock of the engines' TIMESTAMP packets. */
static inline __u64 bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Opens the node @path if it is a vaccel device; -1 with errno otherwise. */
static inline int bench_open_vaccel(const char *path)
{
	char name[64];
	struct drm_version v;
	int f = open(path, O_RDWR | O_CLOEXEC);

	if (f < 0)
		return -1;
	memset(&v, 0, sizeof(v));
	memset(name, 0, sizeof(name));
	v.name = name;
	v.name_len = sizeof(name) - 1;
	if (ioctl(f, DRM_IOCTL_VERSION, &v) || strcmp(name, "vaccel")) {
		close(f);
		errno = ENODEV;
		return -1;
	}
	return f;
}

/* Opens @path, or the lowest /dev/accel/accelN that is vaccel. */
static inline int bench_open_device(const char *path)
{
	char buf[PATH_MAX];
	unsigned int n;
	int f = -1;

	if (path)
		return open(path, O_RDWR | O_CLOEXEC);
	for (n = 0; n < 64 && f < 0; n++) {
		snprintf(buf, sizeof(buf), "/dev/accel/accel%u", n);
		f = bench_open_vaccel(buf);
	}
	if (f < 0)
		errno = ENODEV;
	return f;
}

static inline int bench_cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/* Sorts @v and returns its @pct-th percentile. */
static inline double bench_percentile(__u64 *v, size_t n, double pct)
{
	size_t i;

	qsort(v, n, sizeof(*v), bench_cmp_u64);
	i = (size_t)(pct / 100.0 * (n - 1) + 0.5);
	return v[i];
}

/*
 * The kernel instructions every engine of every vaccel device has executed,
 * from the "instructions" counters of debugfs arbiter.
 */
static inline __u64 bench_engine_instructions(void)
{
	__u64 total = 0;
	glob_t g;
	size_t i;

	if (glob("/sys/kernel/debug/accel/*/arbiter", 0, NULL, &g))
		bench_die("no debugfs arbiter view (is debugfs mounted?)");
	for (i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");
		char line[512];

		if (!f)
			bench_die("%s: %s", g.gl_pathv[i], strerror(errno));
		while (fgets(line, sizeof(line), f)) {
			const char *p = strstr(line, " instructions ");

			if (!strncmp(line, "engine ", 7) && p)
				total += strtoull(p + strlen(" instructions "), NULL, 10);
		}
		fclose(f);
	}
	globfree(&g);
	return total;
}

#endif /* BENCH_H */
