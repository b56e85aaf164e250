// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * host_top.c - vaccel-top's model (umd/tools/top_model.c, compiled in) on
 * canned input: no module, no device.
 *
 *	host_top
 *
 * - fdinfo as vaccel prints it, and the odd cases of drm-usage-stats.rst:
 *   units, a capacity before its engine, zero capacity, cycles keys that
 *   look like memory keys, keys with blanks, overlong lines, files of
 *   other drivers;
 * - the utilisation arithmetic: capacity, clamping, counters that go
 *   backwards (the previous value is kept), time that does not advance;
 * - the debugfs parsers on the driver's formats;
 * - a scan of a fake /proc, /sys and debugfs: the same file through two
 *   fds and two processes counted once, files of other drivers and
 *   non-device files skipped, devices of other drivers ignored, idle
 *   devices listed, a device without debugfs, a process that exits
 *   between two scans; run as root, the scan again as nobody, which must
 *   count the processes it cannot look at;
 * - views and frames built from samples with chosen times: a process
 *   keeping one of two compute engines busy shows 50 %, its engine 100 %,
 *   an idle one 0 %, memory, contexts and queues.
 *
 * Prints the first failed check on stderr and exits 1, else exits 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "top_model.h"

#include "host_check.h"

#define MS	1000000ull
#define S	1000000000ull

#define CHECK_NEAR(a, b)						\
	do {								\
		double _a = (a), _b = (b);				\
		if (fabs(_a - _b) > 0.05) {				\
			fprintf(stderr, "%s:%d: %s == %s: %f != %f\n",	\
				__FILE__, __LINE__, #a, #b, _a, _b);	\
			exit(1);					\
		}							\
	} while (0)

/* What vaccel 6.12 prints for a file with work on compute and 12 MiB. */
static const char vaccel_fdinfo[] =
	"pos:\t0\n"
	"flags:\t02100002\n"
	"mnt_id:\t24\n"
	"ino:\t1047\n"
	"drm-driver:\tvaccel\n"
	"drm-client-id:\t7\n"
	"drm-engine-compute:\t1500000000 ns\n"
	"drm-engine-capacity-compute:\t2\n"
	"drm-engine-copy:\t250 ns\n"
	"drm-engine-paging:\t0 ns\n"
	"drm-total-memory:\t12 MiB\n"
	"drm-shared-memory:\t0\n"
	"drm-active-memory:\t4096\n"
	"drm-resident-memory:\t8 MiB\n"
	"drm-purgeable-memory:\t0\n";

static const struct vtop_engine_key *key(const struct vtop_fdinfo *f, const char *name)
{
	unsigned int i;

	for (i = 0; i < f->nengines; i++)
		if (!strcmp(f->engine[i].name, name))
			return &f->engine[i];
	return NULL;
}

static void test_fdinfo(void)
{
	struct vtop_fdinfo f;
	char *big;

	CHECK_EQ(vtop_fdinfo_parse(vaccel_fdinfo, &f), 0);
	CHECK(!strcmp(f.driver, "vaccel"));
	CHECK(f.has_client_id);
	CHECK_EQ(f.client_id, 7);
	CHECK_EQ(f.nengines, 3);
	CHECK(!strcmp(f.engine[0].name, "compute"));
	CHECK_EQ(f.engine[0].busy_ns, 1500000000ull);
	CHECK_EQ(f.engine[0].capacity, 2);
	CHECK_EQ(key(&f, "copy")->busy_ns, 250);
	CHECK_EQ(key(&f, "copy")->capacity, 1);
	CHECK(key(&f, "paging")->has_busy);
	CHECK_EQ(f.mem[VTOP_MEM_TOTAL], 12ull << 20);
	CHECK_EQ(f.mem[VTOP_MEM_RESIDENT], 8ull << 20);
	CHECK_EQ(f.mem[VTOP_MEM_ACTIVE], 4096);
	CHECK_EQ(f.mem_has, (1u << VTOP_MEM_KINDS) - 1);

	/*
	 * The capacity before its engine; zero capacity (not allowed) keeps
	 * one; cycles keys are no memory region; a key with a blank, an
	 * unknown unit and an engine value in another unit are ignored;
	 * regions add up; KiB and GiB.
	 */
	CHECK_EQ(vtop_fdinfo_parse("drm-driver: vaccel\n"
				   "drm-engine-capacity-compute: 4\n"
				   "drm-engine-compute: 10 ns\n"
				   "drm-engine-capacity-copy: 0\n"
				   "drm-engine-copy: 20\n"
				   "drm-engine-odd: 30 us\n"
				   "drm-cycles-compute: 999\n"
				   "drm-total-cycles-compute: 12345\n"
				   "drm-total-memory: 1 KiB\n"
				   "drm-total-vram: 2 GiB\n"
				   "drm-resident-memory: 5 PiB\n"
				   "drm-engine bad: 7 ns\n", &f), 0);
	CHECK(!f.has_client_id);
	CHECK_EQ(key(&f, "compute")->capacity, 4);
	CHECK_EQ(key(&f, "compute")->busy_ns, 10);
	CHECK_EQ(key(&f, "copy")->capacity, 1);
	CHECK_EQ(key(&f, "copy")->busy_ns, 20);
	CHECK(!key(&f, "odd") || !key(&f, "odd")->has_busy);
	CHECK(!key(&f, "engine bad"));
	CHECK(!key(&f, "cycles-compute"));
	CHECK_EQ(f.mem[VTOP_MEM_TOTAL], 1024 + (2ull << 30));
	CHECK(!(f.mem_has & (1u << VTOP_MEM_RESIDENT)));

	/* More engines than a file may report: the rest are dropped. */
	CHECK_EQ(vtop_fdinfo_parse("drm-driver: x\ndrm-engine-a0: 1\ndrm-engine-a1: 1\n"
				   "drm-engine-a2: 1\ndrm-engine-a3: 1\ndrm-engine-a4: 1\n"
				   "drm-engine-a5: 1\ndrm-engine-a6: 1\ndrm-engine-a7: 1\n"
				   "drm-engine-a8: 1\n", &f), 0);
	CHECK_EQ(f.nengines, VTOP_MAX_CLASSES);

	/* No driver: not a DRM file.  An overlong line is skipped whole. */
	CHECK_EQ(vtop_fdinfo_parse("pos: 0\nflags: 0\n", &f), -ENODATA);
	CHECK_EQ(vtop_fdinfo_parse("", &f), -ENODATA);
	big = malloc(10000);
	CHECK(big);
	memset(big, 'x', 9000);
	strcpy(big + 9000, "\ndrm-driver:\tvaccel\ndrm-client-id: 3");
	CHECK_EQ(vtop_fdinfo_parse(big, &f), 0);
	CHECK_EQ(f.client_id, 3);
	free(big);
}

static void test_util(void)
{
	/* One of two engines busy the whole second: half the class. */
	CHECK_NEAR(vtop_util(0, S, 0, S, 2), 50.0);
	CHECK_NEAR(vtop_util(5 * S, 5 * S + 250 * MS, 10 * S, 11 * S, 1), 25.0);
	/* Capacity 0 is taken as 1; more than the time allows is clamped. */
	CHECK_NEAR(vtop_util(0, 100 * MS, 0, S, 0), 10.0);
	CHECK_NEAR(vtop_util(0, 2 * S, 0, S, 1), 100.0);
	/* Counters that did not grow, or went backwards: idle. */
	CHECK_NEAR(vtop_util(7, 7, 0, S, 1), 0.0);
	CHECK_NEAR(vtop_util(9, 3, 0, S, 1), 0.0);
	/* No time between the samples: unknown. */
	CHECK(vtop_util(0, 5, S, S, 1) < 0);
	CHECK(vtop_util(0, 5, 2 * S, S, 1) < 0);
}

static const char engines_text[] =
	"engine 0: compute0 busy busy_ns 4000000000 contexts 1\n"
	"  slot 0: context 1 client 7 va 0x1000000 size 64 offset 16\n"
	"  slot 1: context 1 client 7 va 0x1000040 size 64 offset 0\n"
	"  tlb: client 7 hits 10 misses 2 invalidations 1\n"
	"engine 1: compute1 idle busy_ns 0 contexts 1\n"
	"  tlb: detached hits 0 misses 0 invalidations 0\n"
	"engine 2: copy0 idle busy_ns 0 contexts 0\n"
	"  tlb: detached hits 0 misses 0 invalidations 0\n"
	"engine 3: paging0 idle busy_ns 500 contexts 1\n"
	"  tlb: detached hits 0 misses 0 invalidations 0\n";

static const char contexts_text[] =
	"context 1 client 7 engine 0 priority normal active submitted 10 completed 6 ring 2 engine_ns 4000000000 preemptions 0 guilty 0 innocent 0\n"
	"context 0 client 7 engine 3 priority high active submitted 1 completed 1 ring 0 engine_ns 500 preemptions 0 guilty 0 innocent 0\n"
	"context 2 client 9 engine 1 priority low faulted submitted 3 completed 3 ring 0 engine_ns 0 preemptions 0 guilty 1 innocent 0 fault va 0x0 offset 8 reason 1 access 2\n";

static const char arbiter_text[] =
	"engine 0: granularity 3 slice_ns 10000000 timeout_ns 2000000000 resets 2 hangs 1 instructions 0\n"
	"  preemptions: priority 0 slice 0 starvation 0 forced 0 reset 0\n"
	"  band low: busy_ns 0 ready:\n"
	"engine 3: granularity 1 slice_ns 10000000 timeout_ns 2000000000 resets 0 hangs 0 instructions 0\n"
	"device_resets 4\n";

static const char memory_text[] = "bo_count 3\nbo_bytes 13631488\nvms 2\npt_pages 9\n";

static void test_debugfs(void)
{
	struct vtop_device d;

	memset(&d, 0, sizeof(d));
	CHECK_EQ(vtop_parse_engines(engines_text, &d), 0);
	CHECK_EQ(d.nengines, 4);
	CHECK(!strcmp(d.engine[0].name, "compute0"));
	CHECK(!strcmp(d.engine[0].cls, "compute"));
	CHECK(d.engine[0].busy);
	CHECK_EQ(d.engine[0].busy_ns, 4000000000ull);
	CHECK_EQ(d.engine[0].slots, 2);
	CHECK_EQ(d.engine[0].contexts, 1);
	CHECK(!d.engine[1].busy);
	CHECK_EQ(d.engine[1].slots, 0);
	CHECK(!strcmp(d.engine[3].cls, "paging"));
	CHECK_EQ(d.engine[3].busy_ns, 500);

	CHECK_EQ(vtop_parse_contexts(contexts_text, &d), 0);
	CHECK_EQ(d.ncontexts, 3);
	CHECK_EQ(d.contexts[0].in_flight, 4);
	CHECK_EQ(d.contexts[0].ring, 2);
	CHECK(d.contexts[0].active);
	CHECK_EQ(d.contexts[1].handle, 0);
	CHECK(!d.contexts[2].active);
	CHECK_EQ(d.contexts[2].client, 9);
	CHECK_EQ(d.engine[0].ring, 2);

	vtop_parse_arbiter(arbiter_text, &d);
	CHECK_EQ(d.engine[0].resets, 2);
	CHECK_EQ(d.engine[0].hangs, 1);
	CHECK(d.has_resets);
	CHECK_EQ(d.device_resets, 4);

	vtop_parse_memory(memory_text, &d);
	CHECK(d.has_memory);
	CHECK_EQ(d.bo_count, 3);
	CHECK_EQ(d.bo_bytes, 13631488);
	CHECK_EQ(d.pt_pages, 9);
	free(d.contexts);

	/* Another format: refused rather than misread. */
	memset(&d, 0, sizeof(d));
	CHECK_EQ(vtop_parse_engines("engine zero is fine\n", &d), -EPROTO);
}

/* --- a fake /proc, /sys and debugfs --- */

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	CHECK(f);
	fputs(text, f);
	CHECK_EQ(fclose(f), 0);
}

static void dir(const char *rel)
{
	char path[512], *slash;

	snprintf(path, sizeof(path), "%s/%s/", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
}

static void link_to(const char *target, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	CHECK_EQ(symlink(target, path), 0);
}

/* A vaccel fdinfo with @id and @busy ns of compute. */
static char *fdinfo(unsigned int id, unsigned long long busy, const char *mem)
{
	char *s;

	CHECK(asprintf(&s, "pos:\t0\ndrm-driver:\tvaccel\ndrm-client-id:\t%u\n"
		       "drm-engine-compute:\t%llu ns\ndrm-engine-capacity-compute:\t2\n"
		       "drm-engine-copy:\t0 ns\ndrm-engine-paging:\t0 ns\n"
		       "drm-total-memory:\t%s\n", id, busy, mem) > 0);
	return s;
}

/*
 * Devices: accel3 (vaccel.0, with debugfs) and accel5 (vaccel.1, none)
 * of vaccel, accel7 of another driver.  Files reach their device through
 * /dev/null (char 1:3) and /dev/zero (1:5): the scan goes by minor.
 * Process 100 holds client 7 on accel3 through fds 3 and 4, a file of
 * another DRM driver (fd 5), a regular file (fd 6); process 101 (its
 * child) shares client 7; process 200 has client 8 on accel5.
 */
static void make_tree(void)
{
	char *s;

	dir("sys/devices/platform/vaccel.0/accel/accel3");
	dir("sys/devices/platform/vaccel.1/accel/accel5");
	dir("sys/devices/platform/other.0/accel/accel7");
	dir("sys/bus/platform/drivers/vaccel");
	dir("sys/bus/platform/drivers/other");
	dir("sys/class/accel");
	link_to("../../../bus/platform/drivers/vaccel", "sys/devices/platform/vaccel.0/driver");
	link_to("../../../bus/platform/drivers/vaccel", "sys/devices/platform/vaccel.1/driver");
	link_to("../../../bus/platform/drivers/other", "sys/devices/platform/other.0/driver");
	link_to("../../../vaccel.0", "sys/devices/platform/vaccel.0/accel/accel3/device");
	link_to("../../../vaccel.1", "sys/devices/platform/vaccel.1/accel/accel5/device");
	link_to("../../../other.0", "sys/devices/platform/other.0/accel/accel7/device");
	link_to("../../devices/platform/vaccel.0/accel/accel3", "sys/class/accel/accel3");
	link_to("../../devices/platform/vaccel.1/accel/accel5", "sys/class/accel/accel5");
	link_to("../../devices/platform/other.0/accel/accel7", "sys/class/accel/accel7");

	put("debug/accel/vaccel.0/engines", engines_text);
	put("debug/accel/vaccel.0/contexts", contexts_text);
	put("debug/accel/vaccel.0/arbiter", arbiter_text);
	put("debug/accel/vaccel.0/memory", memory_text);

	put("proc/100/comm", "busy\n");
	dir("proc/100/fd");
	link_to("/dev/null", "proc/100/fd/3");
	link_to("/dev/null", "proc/100/fd/4");
	link_to("/dev/zero", "proc/100/fd/5");
	link_to("/etc/hostname", "proc/100/fd/6");
	s = fdinfo(7, S, "12 MiB");
	put("proc/100/fdinfo/3", s);
	put("proc/100/fdinfo/4", s);
	free(s);
	put("proc/100/fdinfo/5", "drm-driver:\ti915\ndrm-client-id:\t7\n");
	put("proc/100/fdinfo/6", "pos:\t0\n");

	put("proc/101/comm", "child\n");
	dir("proc/101/fd");
	link_to("/dev/null", "proc/101/fd/3");
	s = fdinfo(7, S, "12 MiB");
	put("proc/101/fdinfo/3", s);
	free(s);

	put("proc/200/comm", "idle\n");
	dir("proc/200/fd");
	link_to("/dev/zero", "proc/200/fd/9");
	s = fdinfo(8, 0, "4096");
	put("proc/200/fdinfo/9", s);
	free(s);

	/* Not a process; and a process with no files at all. */
	put("proc/meminfo", "MemTotal: 1 kB\n");
	dir("proc/300/fd");
	dir("proc/300/fdinfo");
}

static struct vtop_paths fake_paths(char *p, char *s, char *d, size_t len)
{
	snprintf(p, len, "%s/proc", root);
	snprintf(s, len, "%s/sys", root);
	snprintf(d, len, "%s/debug", root);
	return (struct vtop_paths){ .proc = p, .sys = s, .debugfs = d };
}

static const struct vtop_client *client(const struct vtop_sample *s, uint64_t id)
{
	size_t i;

	for (i = 0; i < s->nclients; i++)
		if (s->clients[i].info.client_id == id)
			return &s->clients[i];
	return NULL;
}

static void test_scan(void)
{
	char p[128], sy[128], d[128], path[512];
	struct vtop_paths paths = fake_paths(p, sy, d, sizeof(p));
	struct vtop_sample s;
	const struct vtop_client *c;

	CHECK_EQ(vtop_scan(&paths, &s), 0);
	CHECK_EQ(s.ndevices, 2);
	CHECK_EQ(s.devices[0].minor, 3);
	CHECK(!strcmp(s.devices[0].name, "vaccel.0"));
	CHECK_EQ(s.devices[0].debugfs_err, 0);
	CHECK_EQ(s.devices[0].nengines, 4);
	CHECK_EQ(s.devices[0].ncontexts, 3);
	CHECK(s.devices[0].has_memory);
	CHECK_EQ(s.devices[1].minor, 5);
	CHECK(!strcmp(s.devices[1].name, "vaccel.1"));
	CHECK_EQ(s.devices[1].debugfs_err, ENOENT);
	/* Client 7 once (fds 3 and 4 of 100, fd 3 of 101), client 8. */
	CHECK_EQ(s.nclients, 2);
	c = client(&s, 7);
	CHECK(c);
	CHECK_EQ(c->pid, 100);
	CHECK_EQ(c->minor, 3);
	CHECK(!strcmp(c->comm, "busy"));
	CHECK_EQ(c->info.mem[VTOP_MEM_TOTAL], 12ull << 20);
	c = client(&s, 8);
	CHECK(c);
	CHECK_EQ(c->pid, 200);
	CHECK_EQ(c->minor, 5);
	CHECK_EQ(s.hidden_pids, 0);
	vtop_sample_free(&s);

	/* Process 200 exits, its files with it: the next scan goes on. */
	snprintf(path, sizeof(path), "rm -rf %s/proc/200", root);
	CHECK_EQ(system(path), 0);
	CHECK_EQ(vtop_scan(&paths, &s), 0);
	CHECK_EQ(s.nclients, 1);
	CHECK_EQ(s.ndevices, 2);
	vtop_sample_free(&s);

	/* No /proc at all. */
	paths.proc = "/nonexistent";
	CHECK_EQ(vtop_scan(&paths, &s), -ENOENT);
	vtop_sample_free(&s);
}

/*
 * As nobody: process 100's fd directory is root's and closed; process 101's
 * fdinfo is closed.  Both count as hidden; debugfs is not readable.
 */
static void test_scan_unprivileged(void)
{
	char p[128], sy[128], d[128], path[512];
	struct vtop_paths paths = fake_paths(p, sy, d, sizeof(p));
	struct vtop_sample s;
	int status;
	pid_t pid;

	if (geteuid() != 0)
		return;
	snprintf(path, sizeof(path), "%s/proc/100/fd", root);
	CHECK_EQ(chmod(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/proc/101/fdinfo", root);
	CHECK_EQ(chmod(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/debug", root);
	CHECK_EQ(chmod(path, 0700), 0);
	pid = fork();
	CHECK(pid >= 0);
	if (!pid) {
		if (setgid(65534) || setuid(65534))
			_exit(3);
		CHECK_EQ(vtop_scan(&paths, &s), 0);
		CHECK_EQ(s.nclients, 0);
		CHECK_EQ(s.hidden_pids, 2);
		CHECK_EQ(s.ndevices, 2);
		CHECK_EQ(s.devices[0].debugfs_err, EACCES);
		vtop_sample_free(&s);
		_exit(0);
	}
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* --- views and frames --- */

static void add_client(struct vtop_sample *s, int pid, const char *comm,
		       unsigned int minor, uint64_t id, uint64_t t,
		       uint64_t compute_ns, uint64_t mem)
{
	struct vtop_client *c;

	s->clients = realloc(s->clients, (s->nclients + 1) * sizeof(*c));
	CHECK(s->clients);
	c = &s->clients[s->nclients++];
	memset(c, 0, sizeof(*c));
	c->pid = pid;
	c->minor = minor;
	c->t_ns = t;
	snprintf(c->comm, sizeof(c->comm), "%s", comm);
	c->info.has_client_id = true;
	c->info.client_id = id;
	snprintf(c->info.driver, sizeof(c->info.driver), "vaccel");
	c->info.nengines = 2;
	snprintf(c->info.engine[0].name, VTOP_NAME_MAX, "compute");
	c->info.engine[0].busy_ns = compute_ns;
	c->info.engine[0].capacity = 2;
	c->info.engine[0].has_busy = true;
	snprintf(c->info.engine[1].name, VTOP_NAME_MAX, "copy");
	c->info.engine[1].capacity = 1;
	c->info.engine[1].has_busy = true;
	c->info.mem[VTOP_MEM_TOTAL] = mem;
	c->info.mem_has = 1u << VTOP_MEM_TOTAL;
}

/* Device accel0 with the canned debugfs, compute0 at @busy ns, read at @t. */
static void add_device(struct vtop_sample *s, uint64_t t, uint64_t busy)
{
	struct vtop_device *d;

	s->devices = calloc(1, sizeof(*d));
	CHECK(s->devices);
	s->ndevices = 1;
	d = &s->devices[0];
	snprintf(d->name, sizeof(d->name), "vaccel.0");
	CHECK_EQ(vtop_parse_engines(engines_text, d), 0);
	CHECK_EQ(vtop_parse_contexts(contexts_text, d), 0);
	vtop_parse_arbiter(arbiter_text, d);
	vtop_parse_memory(memory_text, d);
	d->engine[0].busy_ns = busy;
	d->t_ns = t;
}

static bool frame_has(const struct vtop_frame *f, const char *needle)
{
	size_t i;

	for (i = 0; i < f->nlines; i++)
		if (strstr(f->lines[i], needle))
			return true;
	return false;
}

static const char *frame_line(const struct vtop_frame *f, const char *needle)
{
	size_t i;

	for (i = 0; i < f->nlines; i++)
		if (strstr(f->lines[i], needle))
			return f->lines[i];
	return "";
}

static void dump(const struct vtop_frame *f)
{
	size_t i;

	for (i = 0; i < f->nlines; i++)
		fprintf(stderr, "| %s\n", f->lines[i]);
}

#define CHECK_FRAME(f, needle)						\
	do {								\
		if (!frame_has(f, needle)) {				\
			dump(f);					\
			fprintf(stderr, "%s:%d: no '%s' in the frame\n", \
				__FILE__, __LINE__, needle);		\
			exit(1);					\
		}							\
	} while (0)

static void test_view(void)
{
	struct vtop_sample a = { .t_ns = 10 * S }, b = { .t_ns = 11 * S };
	struct vtop_frame f;
	struct vtop_view v;
	const char *busy, *idle;
	int only = 200;

	/*
	 * Process 100 (client 7) keeps compute0 busy for the whole second
	 * (one of the two compute engines); process 200 (client 9) is idle;
	 * process 300 appears only in the second sample.
	 */
	add_client(&a, 100, "busy", 0, 7, 10 * S, 5 * S, 12ull << 20);
	add_client(&a, 200, "idle", 0, 9, 10 * S, 3 * S, 4096);
	add_client(&b, 100, "busy", 0, 7, 11 * S, 6 * S, 12ull << 20);
	add_client(&b, 200, "idle", 0, 9, 11 * S, 3 * S, 4096);
	add_client(&b, 300, "new", 0, 11, 11 * S, 0, 0);
	add_device(&a, 10 * S, 3 * S);
	add_device(&b, 11 * S, 4 * S);

	CHECK_EQ(vtop_view_build(&a, &b, NULL, 0, &v), 0);
	CHECK_NEAR(v.interval_s, 1.0);
	CHECK_EQ(v.nclasses, 3);	/* compute, copy; paging from debugfs */
	CHECK_EQ(v.nrows, 3);
	CHECK_EQ(v.rows[0].pid, 100);
	CHECK_NEAR(v.rows[0].util[0], 50.0);
	CHECK_NEAR(v.rows[0].util[1], 0.0);
	CHECK_EQ(v.rows[0].contexts, 1);
	CHECK_EQ(v.rows[0].in_flight, 4);
	CHECK_EQ(v.rows[0].ring, 2);
	CHECK_EQ(v.rows[1].pid, 200);
	CHECK_NEAR(v.rows[1].util[0], 0.0);
	CHECK_EQ(v.rows[1].bad_contexts, 1);
	CHECK_EQ(v.rows[2].pid, 300);
	CHECK(v.rows[2].util[0] < 0);	/* no previous sample of it */
	CHECK_NEAR(v.devices[0].engine_util[0], 100.0);
	CHECK_NEAR(v.devices[0].engine_util[1], 0.0);
	CHECK(v.devices[0].class_from_debugfs);
	CHECK_NEAR(v.devices[0].class_util[0], 50.0);
	CHECK_EQ(v.devices[0].class_capacity[0], 2);

	CHECK_EQ(vtop_render(&v, &f), 0);
	CHECK_FRAME(&f, "vaccel-top: 1 device, 3 processes, 3 files; interval 1.00 s");
	busy = frame_line(&f, "    2 busy");
	idle = frame_line(&f, "0 idle [faulted/hung]");
	if (!strstr(busy, "  50.0%    0.0%") || !strstr(busy, "12.0 MiB") ||
	    !strstr(idle, "   0.0%") || !strstr(idle, "4.0 KiB")) {
		dump(&f);
		CHECK(!"rows");
	}
	CHECK_FRAME(&f, "accel0 vaccel.0, 3 files:  compute   50.0% of 2  copy    0.0% of 1");
	CHECK_FRAME(&f, "  compute0   busy   100.0%    2     2     1      2      1");
	CHECK_FRAME(&f, "  compute1   idle     0.0%    0     0     1      0      0");
	CHECK_FRAME(&f, "memory: 3 BOs, 13.0 MiB; 9 page-table pages; device resets 4");
	CHECK_FRAME(&f, "    PID DEV     FILES COMPUTE    COPY  PAGING    MEMORY  RESIDENT CTXS INFL RING COMMAND");
	CHECK_FRAME(&f, "    300 accel0      1       -       -       -       0 B         -");
	CHECK(f.header_line >= 0);
	CHECK(strstr(f.lines[f.header_line], "COMMAND"));
	vtop_frame_free(&f);
	vtop_view_free(&v);

	/* -p: only process 200. */
	CHECK_EQ(vtop_view_build(&a, &b, &only, 1, &v), 0);
	CHECK_EQ(v.nrows, 1);
	CHECK_EQ(v.rows[0].pid, 200);
	vtop_view_free(&v);

	/*
	 * The counter of client 7 goes back below the previous sample: it
	 * stays at the previous value (idle), and the next sample counts
	 * from there.
	 */
	b.clients[0].info.engine[0].busy_ns = 4 * S;
	CHECK_EQ(vtop_view_build(&a, &b, NULL, 0, &v), 0);
	CHECK_EQ(b.clients[0].info.engine[0].busy_ns, 5 * S);
	CHECK_NEAR(v.rows[v.rows[0].pid == 100 ? 0 : 1].util[0], 0.0);
	vtop_view_free(&v);

	/* Without debugfs: the device's classes are its visible files'. */
	b.devices[0].debugfs_err = EACCES;
	b.clients[0].info.engine[0].busy_ns = 5 * S + 500 * MS;
	CHECK_EQ(vtop_view_build(&a, &b, NULL, 0, &v), 0);
	CHECK(!v.devices[0].class_from_debugfs);
	CHECK_NEAR(v.devices[0].class_util[0], 25.0);
	CHECK_EQ(v.devices[0].class_capacity[0], 2);
	CHECK_EQ(v.rows[0].contexts, -1);
	CHECK_EQ(vtop_render(&v, &f), 0);
	CHECK_FRAME(&f, "compute   25.0% of 2");
	CHECK_FRAME(&f, "(visible files only)");
	CHECK_FRAME(&f, "debugfs not readable (needs root): no per-engine state");
	CHECK_FRAME(&f, "    -    -    - busy");
	vtop_frame_free(&f);
	vtop_view_free(&v);

	/* One process on two devices: two rows, one process. */
	{
		struct vtop_sample c = { .t_ns = S };

		add_client(&c, 42, "two", 0, 1, S, 0, 0);
		add_client(&c, 42, "two", 1, 2, S, 0, 0);
		CHECK_EQ(vtop_view_build(NULL, &c, NULL, 0, &v), 0);
		CHECK_EQ(v.nrows, 2);
		CHECK_EQ(vtop_render(&v, &f), 0);
		CHECK_FRAME(&f, "vaccel-top: 0 devices, 1 process, 2 files; interval 0.00 s");
		CHECK_FRAME(&f, "     42 accel1      1");
		vtop_frame_free(&f);
		vtop_view_free(&v);
		vtop_sample_free(&c);
	}

	/* The first frame: no previous sample, no utilisation. */
	CHECK_EQ(vtop_view_build(NULL, &a, NULL, 0, &v), 0);
	CHECK(v.rows[0].util[0] < 0);
	CHECK(v.devices[0].engine_util[0] < 0);
	vtop_view_free(&v);

	vtop_sample_free(&a);
	vtop_sample_free(&b);
}

static void test_bytes(void)
{
	char buf[32];

	vtop_format_bytes(0, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0 B"));
	vtop_format_bytes(1023, buf, sizeof(buf));
	CHECK(!strcmp(buf, "1023 B"));
	vtop_format_bytes(1536, buf, sizeof(buf));
	CHECK(!strcmp(buf, "1.5 KiB"));
	vtop_format_bytes(3ull << 30, buf, sizeof(buf));
	CHECK(!strcmp(buf, "3.0 GiB"));
}

int main(void)
{
	char cmd[128];
	int ret;

	test_fdinfo();
	test_util();
	test_debugfs();
	test_bytes();
	test_view();

	snprintf(root, sizeof(root), "/tmp/host_top.XXXXXX");
	CHECK(mkdtemp(root));
	CHECK_EQ(chmod(root, 0755), 0);
	make_tree();
	test_scan();
	test_scan_unprivileged();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	ret = system(cmd);
	return ret ? 1 : 0;
}
