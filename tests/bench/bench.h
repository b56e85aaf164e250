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

/**
 * struct bench_metric - one figure of a benchmark
 * @key: its name after "bench.<bench_name>."
 * @value: the figure
 * @decimals: digits after the point, in the line and in the JSON
 * @unit: what @value counts: "ratio", "us", "ms", "pct", "mips", "ioctls",
 *	"index" (a Jain fairness index)
 * @op: NULL for a figure shown without a target; else how @value must
 *	compare with @target: "<=", "<", ">=", ">", or "in" (from @target
 *	to @target_max, both included)
 * @target: the target
 * @target_max: the upper bound of "in"
 * @broken: the run behind the figure went wrong: FAIL whatever @value is
 */
struct bench_metric {
	const char *key;
	double value;
	int decimals;
	const char *unit;
	const char *op;
	double target, target_max;
	int broken;
};

/* Writes @s as a JSON string. */
static inline void bench_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Writes @v with @decimals digits, or null when it is not a number. */
static inline void bench_json_number(FILE *f, double v, int decimals)
{
	if (v != v || v - v != 0)	/* NaN or an infinity: JSON has neither */
		fputs("null", f);
	else
		fprintf(f, "%.*f", decimals, v);
}

/*
 * Prints the line `bench.<bench_name>.<key> <value>[ PASS|FAIL]` that
 * `make bench` shows; when the environment names a file in BENCH_JSON
 * (scripts/guest/bench.sh does), appends the figure there as one JSON
 * object on a line of its own:
 *
 *   {"name": "bench.migrate.throughput_ratio", "value": 1.688,
 *    "unit": "ratio", "target": {"op": ">=", "value": 0.8},
 *    "pass": true}
 *
 * with "target": null and "pass": null for a figure without a target, and
 * "value": null for a figure that is not a number.  Return: the verdict,
 * 1 for a figure without a target.
 */
static inline int bench_report(const struct bench_metric *m)
{
	const char *path = getenv("BENCH_JSON");
	double v = m->value, t = m->target;
	char name[128];
	int pass = 1;
	FILE *f;

	snprintf(name, sizeof(name), "bench.%s.%s", bench_name, m->key);
	if (m->op) {
		if (!strcmp(m->op, "<="))
			pass = v <= t;
		else if (!strcmp(m->op, "<"))
			pass = v < t;
		else if (!strcmp(m->op, ">="))
			pass = v >= t;
		else if (!strcmp(m->op, ">"))
			pass = v > t;
		else if (!strcmp(m->op, "in"))
			pass = v >= t && v <= m->target_max;
		else
			pass = 0;
		pass = pass && !m->broken;
	}
	printf("%s %.*f%s\n", name, m->decimals, v, m->op ? pass ? " PASS" : " FAIL" : "");
	fflush(stdout);
	if (!path || !*path)
		return pass;
	f = fopen(path, "a");
	if (!f)
		bench_die("BENCH_JSON %s: %s", path, strerror(errno));
	fputs("{\"name\": ", f);
	bench_json_string(f, name);
	fputs(", \"value\": ", f);
	bench_json_number(f, v, m->decimals);
	fputs(", \"unit\": ", f);
	bench_json_string(f, m->unit);
	if (m->op) {
		fputs(", \"target\": {\"op\": ", f);
		bench_json_string(f, m->op);
		if (!strcmp(m->op, "in")) {
			fputs(", \"min\": ", f);
			bench_json_number(f, t, m->decimals);
			fputs(", \"max\": ", f);
			bench_json_number(f, m->target_max, m->decimals);
		} else {
			fputs(", \"value\": ", f);
			bench_json_number(f, t, m->decimals);
		}
		fprintf(f, "}, \"pass\": %s}\n", pass ? "true" : "false");
	} else {
		fputs(", \"target\": null, \"pass\": null}\n", f);
	}
	if (fclose(f))
		bench_die("BENCH_JSON %s: %s", path, strerror(errno));
	return pass;
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

/*
 * bench_reload() - reload the module, for a benchmark that compares
 * parameters: @argv[1] is its file and @argv[2...] the parameters make
 * bench loaded it with (scripts/guest/bench.sh passes them), then the
 * parameters of @extra_fmt (NULL: none), which win.
 */
__attribute__((format(printf, 3, 4)))
static inline void bench_reload(int argc, char **argv, const char *extra_fmt, ...)
{
	char cmd[4096];
	size_t len;
	va_list ap;
	int i;

	len = snprintf(cmd, sizeof(cmd), "rmmod vaccel && insmod %s", argv[1]);
	for (i = 2; i < argc && len < sizeof(cmd); i++)
		len += snprintf(cmd + len, sizeof(cmd) - len, " %s", argv[i]);
	if (extra_fmt && len + 1 < sizeof(cmd)) {
		cmd[len++] = ' ';
		va_start(ap, extra_fmt);
		len += vsnprintf(cmd + len, sizeof(cmd) - len, extra_fmt, ap);
		va_end(ap);
	}
	if (len >= sizeof(cmd))
		bench_die("module parameters too long");
	if (system(cmd))
		bench_die("%s: failed", cmd);
}

#endif /* BENCH_H */
