// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - vaccel-fuzz: the manager.
 *
 *   vaccel-fuzz run [--time S] [--seed N] [--procs P] [--corpus DIR]
 *                   [--findings DIR] [--no-feedback] [--dump] [--log-rule DIR]
 *   vaccel-fuzz replay [--runs N] [--trace] [--log-rule DIR] FILE...
 *   vaccel-fuzz gen [--seed N] [--count N]
 *   vaccel-fuzz parse FILE...
 *
 * run: a campaign of S seconds.  P executors at a time (2 by default), each
 * a fresh process running one program (exec.c).  Program i of the
 * campaign comes from the random stream (seed, i): a new program, or a
 * mutation of one of the corpus.  A program whose run reaches an edge no
 * earlier run reached joins the corpus (and DIR, if given).  After every
 * run the manager reads the kernel log; a report in it (the rule of
 * scripts/kernel-log/, which the runners use too, /vaccel/kernel-log in
 * the dev VM: WARNING, BUG, KASAN, UBSAN, lockdep, ODEBUG, kmemleak,
 * *ERROR*), an executor that SIGKILL cannot end, or a device that stops
 * doing simple work, is a finding; so is a program that leaves something
 * behind once its executor is gone: a fence of one of its syncobjs that
 * does not signal within 5 s of its end, or, after an executor that had
 * to be killed, memory that the devices' debugfs counters do not get
 * back within 5 s.  A finding's program is minimised (calls dropped one
 * at a time while the finding still reproduces) and saved.
 * Every ten seconds a line gives executions per second, edges covered (in
 * all, and in vaccel), the corpus and the findings.  Only stable coverage
 * counts: a program that reaches new edges runs again in its slot, and
 * keeps those the second run reaches too (execs count both runs, programs
 * the first; "reached" counts every edge of every run, stable or not).  --no-feedback makes
 * every program a new one from (seed, i): the same seed, the same
 * programs, whatever the coverage.  The last line is `ok fuzz.campaign` or
 * `not ok fuzz.campaign: ...`, for the test plans.
 *
 * replay: runs each program file N times (3) and prints `ok
 * fuzz.replay.NAME` or `not ok ...` per file: the regression corpus.
 * --trace prints each call's outcome (ok, or its errno), to check that a
 * program does what its comment says.
 *
 * gen: prints the programs a seed generates.
 *
 * parse: checks that program files parse, and prints them as the fuzzer
 * reads them (no device needed).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <drm/vaccel_accel.h>

#include "fuzz.h"

#define EXEC_TIMEOUT_MS		10000	/* then SIGKILL */
#define KILL_TIMEOUT_MS		30000	/* then the executor is unkillable */
#define LIVENESS_TIMEOUT_MS	5000	/* for fences and memory, after the end */
#define MAX_CORPUS		8192
#define MAX_PROCS		8

static struct fuzz_device dev;
static bool coverage;

/* CLOCK_MONOTONIC in milliseconds. */
static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

/* --- the device -------------------------------------------------------------- */

/* The vaccel devices the executors open: the first two that answer QUERY. */
static int find_device(void)
{
	char path[64];

	dev.files = 0;
	for (int i = 0; i < 8 && dev.files < FUZZ_DEVICE_FILES; i++) {
		struct drm_vaccel_device_info info = { 0 };
		struct drm_vaccel_query q = {
			.type = DRM_VACCEL_QUERY_DEVICE, .size = sizeof(info),
			.data = (uintptr_t)&info,
		};
		int fd;

		snprintf(path, sizeof(path), "/dev/accel/accel%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!ioctl(fd, DRM_IOCTL_VACCEL_QUERY, &q)) {
			if (!dev.files) {
				dev.va_start = info.va_start;
				dev.va_end = info.va_end;
				dev.compute_engines = info.engine_count[DRM_VACCEL_ENGINE_CLASS_COMPUTE];
				dev.copy_engines = info.engine_count[DRM_VACCEL_ENGINE_CLASS_COPY];
			}
			snprintf(dev.path[dev.files++], sizeof(dev.path[0]), "%s", path);
		}
		close(fd);
	}
	if (!dev.files) {
		fprintf(stderr, "vaccel-fuzz: no vaccel device in /dev/accel (is the module loaded?)\n");
		return -1;
	}
	if (dev.files == 1)
		memcpy(dev.path[1], dev.path[0], sizeof(dev.path[0]));
	return 0;
}

/*
 * The device still does simple work: a WRITE_IMM of a magic value lands
 * in a BO the CPU reads.  Run after findings and every few hundred runs.
 */
static int health_check(char *why, size_t len)
{
	int fd = open(dev.path[0], O_RDWR | O_CLOEXEC), ret = -1;
	struct drm_vaccel_bo_create bo = { .size = 4096 };
	struct drm_vaccel_bo_mmap_offset mo = { 0 };
	struct drm_vaccel_context_create cc = {
		.engine_class = DRM_VACCEL_ENGINE_CLASS_COPY,
		.engine_instance = DRM_VACCEL_ENGINE_ANY,
		.priority = DRM_VACCEL_PRIORITY_NORMAL,
	};
	struct drm_syncobj_create sc = { 0 };
	uint64_t va = dev.va_start + (1ull << 20);
	volatile uint64_t *p = MAP_FAILED;

	if (fd < 0) {
		snprintf(why, len, "open %s: %s", dev.path[0], strerror(errno));
		return -1;
	}
	if (!dev.copy_engines)
		cc.engine_class = DRM_VACCEL_ENGINE_CLASS_COMPUTE;
	if (ioctl(fd, DRM_IOCTL_VACCEL_BO_CREATE, &bo) ||
	    (mo.handle = bo.handle, ioctl(fd, DRM_IOCTL_VACCEL_BO_MMAP_OFFSET, &mo))) {
		snprintf(why, len, "BO: %s", strerror(errno));
		goto out;
	}
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)mo.offset);
	if (p == MAP_FAILED) {
		snprintf(why, len, "mmap: %s", strerror(errno));
		goto out;
	}
	{
		struct drm_vaccel_vm_bind_op op = {
			.op = DRM_VACCEL_VM_BIND_OP_MAP, .handle = bo.handle, .va = va, .size = 4096,
		};
		struct drm_vaccel_vm_bind b = { .ops = { sizeof(op), 1, (uintptr_t)&op } };

		p[0] = DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_WRITE_IMM, DRM_VACCEL_PKT_F_64BIT, 3);
		p[1] = va + 2048;
		p[2] = 0x5afe5afe5afe5afeull;
		p[256] = 0;
		if (ioctl(fd, DRM_IOCTL_VACCEL_VM_BIND, &b) ||
		    ioctl(fd, DRM_IOCTL_VACCEL_CONTEXT_CREATE, &cc) ||
		    ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc)) {
			snprintf(why, len, "setup: %s", strerror(errno));
			goto out;
		}
	}
	{
		struct drm_vaccel_sync s = { .handle = sc.handle };
		struct drm_vaccel_submit sub = {
			.context = cc.handle, .buffer_va = va, .buffer_size = 24,
			.signals = { sizeof(s), 1, (uintptr_t)&s },
		};
		struct timespec ts;
		struct drm_syncobj_wait w = {
			.handles = (uintptr_t)&sc.handle, .count_handles = 1,
		};

		clock_gettime(CLOCK_MONOTONIC, &ts);
		w.timeout_nsec = (ts.tv_sec + 20) * 1000000000ll + ts.tv_nsec;
		if (ioctl(fd, DRM_IOCTL_VACCEL_SUBMIT, &sub)) {
			snprintf(why, len, "SUBMIT: %s", strerror(errno));
			goto out;
		}
		if (ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w)) {
			snprintf(why, len, "a WRITE_IMM did not complete in 20 s: %s", strerror(errno));
			goto out;
		}
		if (p[256] != 0x5afe5afe5afe5afeull) {
			snprintf(why, len, "a WRITE_IMM completed but wrote 0x%llx",
				 (unsigned long long)p[256]);
			goto out;
		}
	}
	ret = 0;
out:
	if (p != MAP_FAILED)
		munmap((void *)p, 4096);
	close(fd);
	return ret;
}

/* --- the kernel log ------------------------------------------------------------ */

static int kmsg = -1;

/*
 * The rule of scripts/kernel-log/ (the runners' kernel_log_problems()):
 * "problems" holds extended regular expressions, "allowed" fixed strings
 * that excuse a matching line.  The dev VM has it in /vaccel/kernel-log.
 */
#define MAX_RULES	64

static regex_t problems[MAX_RULES];
static char *allowed[MAX_RULES];
static unsigned int nproblems, nallowed;

static int load_lines(const char *dir, const char *name, bool regex)
{
	char path[4096], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "vaccel-fuzz: %s: %s (--log-rule names the directory)\n", path,
			strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		if (regex && nproblems < MAX_RULES) {
			if (regcomp(&problems[nproblems], line, REG_EXTENDED | REG_NOSUB)) {
				fprintf(stderr, "vaccel-fuzz: %s: bad pattern '%s'\n", path, line);
				fclose(f);
				return -1;
			}
			nproblems++;
		} else if (!regex && nallowed < MAX_RULES) {
			allowed[nallowed++] = strdup(line);
		}
	}
	fclose(f);
	return 0;
}

static int load_log_rule(const char *dir)
{
	if (load_lines(dir, "problems", true) || load_lines(dir, "allowed", false))
		return -1;
	if (!nproblems) {
		fprintf(stderr, "vaccel-fuzz: %s/problems has no pattern\n", dir);
		return -1;
	}
	return 0;
}

static bool log_line_is_problem(const char *msg)
{
	unsigned int i;

	for (i = 0; i < nallowed; i++)
		if (strstr(msg, allowed[i]))
			return false;
	for (i = 0; i < nproblems; i++)
		if (!regexec(&problems[i], msg, 0, NULL, 0))
			return true;
	return false;
}

static void kmsg_open(void)
{
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg >= 0)
		lseek(kmsg, 0, SEEK_END);
}

/* The first problem line logged since the last call, if any. */
static bool kmsg_problem(char *line, size_t len)
{
	char rec[2048];
	bool found = false;
	ssize_t n;

	if (kmsg < 0)
		return false;
	while ((n = read(kmsg, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		char *msg;

		if (n <= 0)
			continue;
		rec[n] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		if (strchr(msg, '\n'))
			*strchr(msg, '\n') = '\0';
		if (!found && log_line_is_problem(msg)) {
			snprintf(line, len, "%.400s", msg);
			found = true;
		}
	}
	return found;
}

/* --- the executors' memory cgroup --------------------------------------------------- */

/*
 * Executors run in a memory cgroup of their own, as syzkaller's do: a
 * program that makes a BO of gigabytes resident meets ENOMEM at the
 * cgroup's limit instead of pushing the whole VM into reclaim.
 */
#define FUZZ_CGROUP		"/sys/fs/cgroup/vaccel-fuzz"
#define FUZZ_CGROUP_MEMORY	"1073741824"

static bool cgroup_ready;

static bool write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok;
}

static void cgroup_setup(void)
{
	if (access("/sys/fs/cgroup/cgroup.controllers", F_OK) &&
	    mount("none", "/sys/fs/cgroup", "cgroup2", 0, NULL))
		goto fail;
	write_text("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
	if (mkdir(FUZZ_CGROUP, 0755) && errno != EEXIST)
		goto fail;
	if (!write_text(FUZZ_CGROUP "/memory.max", FUZZ_CGROUP_MEMORY))
		goto fail;
	write_text(FUZZ_CGROUP "/memory.swap.max", "0");
	cgroup_ready = true;
	return;
fail:
	printf("fuzz: no memory cgroup for the executors (%s): running without a limit\n",
	       strerror(errno));
}

static void cgroup_enter(void)
{
	char pid[32];

	if (!cgroup_ready)
		return;
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	write_text(FUZZ_CGROUP "/cgroup.procs", pid);
}

/* --- running programs ------------------------------------------------------------ */

struct slot {
	pid_t pid;
	int pidfd;
	int fence_sock[2];		/* the executor's fences come over it */
	uint64_t started;
	bool killed;
	bool verifying;			/* a re-run of a program that found new edges */
	struct fuzz_prog prog;
	struct fuzz_result *res;	/* shared with the child */
	uint32_t *fresh;		/* the new edges of the first run */
	unsigned int nfresh;
};

enum outcome { RAN, TIMED_OUT, UNKILLABLE };

/* Starts an executor for @p in slot @s. */
static int start(struct slot *s, const struct fuzz_prog *p)
{
	s->prog = *p;
	s->killed = false;
	s->res->nedges = 0;
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, s->fence_sock))
		s->fence_sock[0] = s->fence_sock[1] = -1;
	s->pid = fork();
	if (s->pid < 0) {
		close(s->fence_sock[0]);
		close(s->fence_sock[1]);
		s->fence_sock[0] = -1;
		return -1;
	}
	if (s->pid == 0) {
		setpgid(0, 0);
		cgroup_enter();
		close(s->fence_sock[0]);
		fuzz_exec(&s->prog, &dev, s->res, coverage, s->fence_sock[1]);
		_exit(0);
	}
	close(s->fence_sock[1]);
	setpgid(s->pid, s->pid);
	s->pidfd = (int)syscall(SYS_pidfd_open, s->pid, 0);
	s->started = now_ms();
	return 0;
}

/* Where every thread of an executor that SIGKILL does not end is stuck. */
static void print_stacks(pid_t pid)
{
	char path[384], line[256];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stack", (int)pid, e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		printf("fuzz: thread %s of the executor is stuck in:\n", e->d_name);
		while (fgets(line, sizeof(line), f))
			printf("fuzz:     %s", line);
		fclose(f);
	}
	closedir(d);
}

/* Waits for slot s to end, killing it past its time; reaps it. */
static enum outcome finish(struct slot *s)
{
	for (;;) {
		uint64_t t = now_ms() - s->started;
		uint64_t limit = s->killed ? EXEC_TIMEOUT_MS + KILL_TIMEOUT_MS : EXEC_TIMEOUT_MS;
		struct pollfd pfd = { .fd = s->pidfd, .events = POLLIN };

		if (t >= limit) {
			if (s->killed) {
				print_stacks(s->pid);
				return UNKILLABLE;
			}
			kill(-s->pid, SIGKILL);
			s->killed = true;
			continue;
		}
		if (s->pidfd < 0 || poll(&pfd, 1, (int)(limit - t)) > 0) {
			waitpid(s->pid, NULL, 0);
			kill(-s->pid, SIGKILL);	/* the fork calls' stragglers */
			if (s->pidfd >= 0)
				close(s->pidfd);
			s->pid = 0;
			return s->killed ? TIMED_OUT : RAN;
		}
	}
}

/* --- liveness: what a program leaves behind --------------------------------------- */

/*
 * The fences the executor handed over, which must all signal once it is
 * gone and its files are closed; closes @s's socket.  Returns the number
 * that did not within LIVENESS_TIMEOUT_MS.
 */
static unsigned int unsignalled_fences(struct slot *s, unsigned int *total)
{
	int fds[FUZZ_MAX_CALLS];
	char data;
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	union {
		char buf[CMSG_SPACE(sizeof(fds))];
		struct cmsghdr align;
	} u;
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c;
	uint64_t deadline = now_ms() + LIVENESS_TIMEOUT_MS;
	unsigned int n = 0, late = 0;

	*total = 0;
	if (s->fence_sock[0] < 0)
		return 0;
	if (recvmsg(s->fence_sock[0], &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) == 1 &&
	    (c = CMSG_FIRSTHDR(&msg)) && c->cmsg_type == SCM_RIGHTS) {
		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		memcpy(fds, CMSG_DATA(c), n * sizeof(int));
	}
	close(s->fence_sock[0]);
	s->fence_sock[0] = -1;
	for (unsigned int i = 0; i < n; i++) {
		struct pollfd pfd = { .fd = fds[i], .events = POLLIN };
		uint64_t t = now_ms();

		if (poll(&pfd, 1, t < deadline ? (int)(deadline - t) : 0) != 1)
			late++;
		close(fds[i]);
	}
	*total = n;
	return late;
}

/*
 * The memory counters of every device's debugfs ``memory`` that a closed
 * file must give back, as text ("dir key value" lines): BOs, VMs,
 * page-table pages, device memory.  Empty without debugfs.
 */
static void memory_counters(char *buf, size_t len)
{
	static const char *const keys[] = {
		"bo_count ", "bo_bytes ", "vms ", "pt_pages ", "device_mem_free ",
		"device_mem_bos ",
	};
	const char *top = "/sys/kernel/debug/accel";
	DIR *d = opendir(top);
	struct dirent *e;
	size_t used = 0;

	buf[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[512], line[128];
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/memory", top, e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
				int n;

				if (strncmp(line, keys[k], strlen(keys[k])))
					continue;
				n = snprintf(buf + used, len - used, "%s %s", e->d_name, line);
				if (n > 0 && (size_t)n < len - used)
					used += n;
			}
		}
		fclose(f);
	}
	closedir(d);
}

/* The counters with no executor running, read when the campaign starts. */
static char idle_memory[4096];

/*
 * Polls the counters until they are back at their idle values; returns
 * false, with the first line that differs in @what, if they are not
 * within LIVENESS_TIMEOUT_MS.  Only when no executor runs.
 */
static bool memory_back(char *what, size_t len)
{
	uint64_t deadline = now_ms() + LIVENESS_TIMEOUT_MS;
	char now[sizeof(idle_memory)];
	const char *a, *b;

	for (;;) {
		memory_counters(now, sizeof(now));
		if (!strcmp(now, idle_memory))
			return true;
		if (now_ms() >= deadline)
			break;
		usleep(50000);
	}
	for (a = now, b = idle_memory; *a && *a == *b; a++, b++)
		;
	while (a > now && a[-1] != '\n')
		a--, b--;
	snprintf(what, len, "liveness: the devices' memory did not come back within %d s of a killed executor: %.*s, idle %.*s",
		 LIVENESS_TIMEOUT_MS / 1000, (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
	return false;
}

/*
 * After slot @s's run: its fences all signalled, and, if it was killed
 * (then it handed over none), the devices' memory came back.  @alone says
 * that no other executor runs.  Returns true, with @what, on a violation.
 */
static bool liveness_violated(struct slot *s, enum outcome o, bool alone, char *what,
			      size_t len)
{
	unsigned int total, late = unsignalled_fences(s, &total);

	if (late) {
		snprintf(what, len, "liveness: %u of the %u fences of the program's syncobjs did not signal within %d s of its end",
			 late, total, LIVENESS_TIMEOUT_MS / 1000);
		return true;
	}
	return o == TIMED_OUT && alone && !memory_back(what, len);
}

/* Runs one program alone, for replay and minimisation. */
static enum outcome run_one(struct slot *s, const struct fuzz_prog *p)
{
	if (start(s, p))
		return RAN;
	return finish(s);
}

/* --- coverage ---------------------------------------------------------------------- */

static uint8_t *cover;		/* 2^24 bits: the stable edges */
static uint64_t edges_total, edges_vaccel;
static uint8_t *reached;	/* 2^24 bits: every edge any run reached */
static uint64_t reached_total, reached_vaccel;

/* Adds the edges of @r to those reached, stable or not (for the figures). */
static void note_reached(const struct fuzz_result *r)
{
	for (uint32_t i = 0; i < r->nedges && i < FUZZ_RESULT_EDGES; i++) {
		uint32_t h = r->edges[i], bit = h & ((1u << 24) - 1);

		if (reached[bit >> 3] & (1u << (bit & 7)))
			continue;
		reached[bit >> 3] |= 1u << (bit & 7);
		reached_total++;
		if (h >> 31)
			reached_vaccel++;
	}
}

/* The edges of @r that no earlier run covered, into @fresh; returns how many. */
static unsigned int fresh_edges(const struct fuzz_result *r, uint32_t *fresh)
{
	unsigned int n = 0;

	for (uint32_t i = 0; i < r->nedges && i < FUZZ_RESULT_EDGES; i++) {
		uint32_t bit = r->edges[i] & ((1u << 24) - 1);

		if (!(cover[bit >> 3] & (1u << (bit & 7))))
			fresh[n++] = r->edges[i];
	}
	return n;
}

/* qsort() and bsearch() order of edge hashes. */
static int cmp_edge(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Covers the @n edges of @fresh that the re-run @again reached too (all of
 * them if @again is NULL); returns how many were new.  @again's edges are
 * sorted.
 */
static unsigned int merge(const uint32_t *fresh, unsigned int n, struct fuzz_result *again)
{
	unsigned int merged = 0;

	if (again)
		qsort(again->edges, again->nedges, sizeof(again->edges[0]), cmp_edge);
	for (unsigned int i = 0; i < n; i++) {
		uint32_t h = fresh[i], bit = h & ((1u << 24) - 1);

		if (again && !bsearch(&h, again->edges, again->nedges, sizeof(h), cmp_edge))
			continue;
		if (cover[bit >> 3] & (1u << (bit & 7)))
			continue;
		cover[bit >> 3] |= 1u << (bit & 7);
		merged++;
		edges_total++;
		if (h >> 31)
			edges_vaccel++;
	}
	return merged;
}

/* --- corpus and findings ------------------------------------------------------------ */

static struct fuzz_prog *corpus;
static unsigned int ncorpus;

static uint64_t prog_hash(const struct fuzz_prog *p)
{
	uint64_t h = 1469598103934665603ull;
	const uint8_t *b = (const uint8_t *)p->call;

	for (size_t i = 0; i < p->ncalls * sizeof(p->call[0]); i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

static void save(const char *dir, const char *prefix, const struct fuzz_prog *p,
		 const char *comment, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s%016llx.prog", dir, prefix, (unsigned long long)prog_hash(p));
	f = fopen(path, "w");
	if (!f)
		return;
	if (comment)
		fprintf(f, "# %s\n", comment);
	fuzz_print(f, p);
	fclose(f);
}

static int load_file(const char *path, struct fuzz_prog *p)
{
	char text[16384], err[128];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	if (fuzz_parse(text, p, err, sizeof(err))) {
		fprintf(stderr, "vaccel-fuzz: %s: %s\n", path, err);
		return -1;
	}
	return 0;
}

static void load_corpus(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];

	if (!d)
		return;
	while ((e = readdir(d)) && ncorpus < MAX_CORPUS) {
		if (!strstr(e->d_name, ".prog"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!load_file(path, &corpus[ncorpus]))
			ncorpus++;
	}
	closedir(d);
}

/* Does the program still produce a finding?  Tries a few times: races. */
static bool reproduces(struct slot *s, const struct fuzz_prog *p, int tries, char *what,
		       size_t len)
{
	char why[256];

	while (tries--) {
		enum outcome o = run_one(s, p);

		if (o == UNKILLABLE) {
			snprintf(what, len, "an executor SIGKILL did not end in %d s",
				 KILL_TIMEOUT_MS / 1000);
			return true;
		}
		if (kmsg_problem(what, len) || liveness_violated(s, o, true, what, len))
			return true;
		if (health_check(why, sizeof(why))) {
			snprintf(what, len, "the device stopped working: %s", why);
			return true;
		}
	}
	return false;
}

/* Drops calls, last first, while the finding still reproduces. */
static void minimise(struct slot *s, struct fuzz_prog *p)
{
	char what[512];

	for (int i = (int)p->ncalls - 1; i >= 0; i--) {
		struct fuzz_prog q = *p;

		fuzz_remove_call(&q, (unsigned int)i);
		if (reproduces(s, &q, 3, what, sizeof(what)))
			*p = q;
	}
}

static unsigned int nfindings;

static void report_finding(struct slot *s, const struct fuzz_prog *p, const char *what,
			   const char *dir)
{
	struct fuzz_prog m = *p;
	char path[4096] = "";

	nfindings++;
	printf("fuzz: finding %u: %s\n", nfindings, what);
	printf("fuzz: minimising a program of %u calls\n", m.ncalls);
	fflush(stdout);
	if (reproduces(s, &m, 3, (char[512]){ 0 }, 512))
		minimise(s, &m);
	else
		printf("fuzz: the finding did not reproduce alone; the whole program follows\n");
	if (dir)
		save(dir, "finding-", &m, what, path, sizeof(path));
	printf("=== vaccel: finding begin %s\n# %s\n", path[0] ? strrchr(path, '/') + 1 : "-", what);
	fuzz_print(stdout, &m);
	printf("=== vaccel: finding end\n");
	fflush(stdout);
	kmsg_problem((char[512]){ 0 }, 512);	/* what the minimisation logged */
}

/* --- the commands ---------------------------------------------------------------------- */

static struct fuzz_result *shared_result(void)
{
	void *p = mmap(NULL, FUZZ_RESULT_BYTES, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("vaccel-fuzz: mmap");
		exit(2);
	}
	return p;
}

static int cmd_run(uint64_t seconds, uint64_t seed, unsigned int procs, const char *corpus_dir,
		   const char *findings_dir, bool feedback, bool dump)
{
	struct slot slots[MAX_PROCS] = { 0 };
	uint64_t start_ms = now_ms(), next_report = start_ms + 10000, iter = 0, execs = 0;
	uint64_t timeouts = 0, calls_done = 0, calls_ok = 0, programs = 0;
	unsigned int running = 0;
	char what[512], why[256];
	bool stop = false;

	cover = calloc(1, 1u << 21);
	reached = calloc(1, 1u << 21);
	corpus = calloc(MAX_CORPUS, sizeof(*corpus));
	if (!cover || !reached || !corpus)
		return 2;
	memory_counters(idle_memory, sizeof(idle_memory));
	if (corpus_dir) {
		mkdir(corpus_dir, 0755);
		if (feedback)
			load_corpus(corpus_dir);
	}
	if (findings_dir)
		mkdir(findings_dir, 0755);
	for (unsigned int i = 0; i < procs; i++) {
		slots[i].res = shared_result();
		slots[i].fresh = calloc(FUZZ_RESULT_EDGES, sizeof(*slots[i].fresh));
		if (!slots[i].fresh)
			return 2;
	}
	kmsg_open();
	printf("fuzz: seed %llu, %llu s, %u executors, %s, %u corpus programs, devices %s%s%s\n",
	       (unsigned long long)seed, (unsigned long long)seconds, procs,
	       coverage ? "KCOV coverage" : "no coverage (no KCOV: blind)", ncorpus,
	       dev.path[0], dev.files > 1 ? " " : "", dev.files > 1 ? dev.path[1] : "");
	fflush(stdout);

	while (!stop || running) {
		/* Fill the free slots. */
		for (unsigned int i = 0; i < procs && !stop; i++) {
			struct fuzz_prog p;
			struct fuzz_rng r;

			if (slots[i].pid)
				continue;
			fuzz_seed(&r, seed, iter++);
			if (feedback && ncorpus && fuzz_chance(&r, 70)) {
				p = corpus[fuzz_below(&r, ncorpus)];
				fuzz_mutate(&p, &r);
			} else {
				fuzz_generate(&p, &r);
			}
			if (!start(&slots[i], &p))
				running++;
		}
		/* Wait for the oldest. */
		for (unsigned int i = 0; i < procs; i++) {
			struct slot *s = &slots[i], *culprit = s;
			bool problem = false;
			unsigned int nfresh = 0;
			enum outcome o;

			if (!s->pid)
				continue;
			o = finish(s);
			running--;
			execs++;
			calls_done += s->res->calls_done;
			calls_ok += s->res->calls_ok;
			if (o == TIMED_OUT) {
				timeouts++;
				/* The memory check needs the devices to themselves. */
				for (unsigned int j = 0; j < procs; j++) {
					if (!slots[j].pid || finish(&slots[j]) == UNKILLABLE)
						continue;
					running--;
					execs++;
					slots[j].verifying = false;
					if (!problem && liveness_violated(&slots[j], RAN, false, what,
									  sizeof(what))) {
						problem = true;
						culprit = &slots[j];
					}
				}
			}
			if (!problem && o != UNKILLABLE)
				problem = liveness_violated(s, o, running == 0, what, sizeof(what));
			else if (o != UNKILLABLE)
				unsignalled_fences(s, &(unsigned int){ 0 });
			if (o != UNKILLABLE)
				note_reached(s->res);
			if (s->verifying) {
				/* The re-run: the first run's new edges that it reached too. */
				s->verifying = false;
				if (o != UNKILLABLE)
					nfresh = merge(s->fresh, s->nfresh, s->res);
			} else if (o != UNKILLABLE) {
				programs++;
				nfresh = fresh_edges(s->res, s->fresh);
				if (nfresh && feedback && !problem && !stop) {
					/* New edges count if a second run reaches them too. */
					s->nfresh = nfresh;
					s->verifying = !start(s, &s->prog);
					running += s->verifying;
					nfresh = 0;
				} else if (nfresh) {
					nfresh = merge(s->fresh, nfresh, NULL);
				}
			}
			if (nfresh && feedback && ncorpus < MAX_CORPUS) {
				corpus[ncorpus++] = s->prog;
				if (corpus_dir) {
					char path[4096];

					save(corpus_dir, "", &s->prog, NULL, path, sizeof(path));
				}
			}
			if (o == UNKILLABLE) {
				snprintf(what, sizeof(what), "an executor SIGKILL did not end in %d s",
					 KILL_TIMEOUT_MS / 1000);
				nfindings++;
				printf("fuzz: finding %u: %s; the program:\n", nfindings, what);
				fuzz_print(stdout, &s->prog);
				stop = true;
				break;
			}
			if (problem || kmsg_problem(what, sizeof(what)) ||
			    (execs % 200 == 0 && health_check(why, sizeof(why)) &&
			     snprintf(what, sizeof(what), "the device stopped working: %s", why))) {
				/* Let the others end, then minimise alone. */
				for (unsigned int j = 0; j < procs; j++) {
					slots[j].verifying = false;
					if (slots[j].pid && finish(&slots[j]) != UNKILLABLE)
						unsignalled_fences(&slots[j], &(unsigned int){ 0 });
				}
				running = 0;
				report_finding(culprit, &culprit->prog, what, findings_dir);
				if (nfindings >= 3)
					stop = true;
				break;
			}
		}
		if (now_ms() >= next_report || (stop && !running)) {
			uint64_t t = now_ms() - start_ms;

			printf("fuzz: %4llu s  %7llu execs  %6.1f/s  %llu programs  edges %llu (vaccel %llu)  reached %llu (vaccel %llu)  corpus %u  calls ok %llu/%llu  timeouts %llu  findings %u\n",
			       (unsigned long long)(t / 1000), (unsigned long long)execs,
			       t ? execs * 1000.0 / t : 0.0, (unsigned long long)programs,
			       (unsigned long long)edges_total, (unsigned long long)edges_vaccel,
			       (unsigned long long)reached_total, (unsigned long long)reached_vaccel,
			       ncorpus,
			       (unsigned long long)calls_ok, (unsigned long long)calls_done,
			       (unsigned long long)timeouts, nfindings);
			fflush(stdout);
			next_report = now_ms() + 10000;
		}
		if (now_ms() - start_ms >= seconds * 1000)
			stop = true;
	}
	if (!nfindings && health_check(why, sizeof(why))) {
		nfindings++;
		printf("fuzz: finding %u: the device stopped working: %s\n", nfindings, why);
	}
	if (dump) {
		printf("=== vaccel: corpus begin\n");
		for (unsigned int i = 0; i < ncorpus; i++) {
			printf("=== vaccel: corpus program %016llx\n",
			       (unsigned long long)prog_hash(&corpus[i]));
			fuzz_print(stdout, &corpus[i]);
		}
		printf("=== vaccel: corpus end\n");
	}
	if (nfindings)
		printf("not ok fuzz.campaign: %u findings in %llu executions\n", nfindings,
		       (unsigned long long)execs);
	else
		printf("ok fuzz.campaign\n");
	return nfindings ? 1 : 0;
}

static int cmd_replay(int argc, char **argv, int runs)
{
	struct slot s = { .res = shared_result() };
	int failed = 0;

	kmsg_open();
	memory_counters(idle_memory, sizeof(idle_memory));
	for (int i = 0; i < argc; i++) {
		const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
		struct fuzz_prog p;
		char what[512];

		if (load_file(argv[i], &p)) {
			printf("not ok fuzz.replay.%s: cannot read or parse it\n", name);
			failed++;
			continue;
		}
		if (reproduces(&s, &p, runs, what, sizeof(what))) {
			printf("not ok fuzz.replay.%s: %s\n", name, what);
			failed++;
		} else {
			printf("ok fuzz.replay.%s\n", name);
		}
		fflush(stdout);
	}
	return failed ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: vaccel-fuzz run [--time S] [--seed N] [--procs P] [--corpus DIR]\n"
		"                       [--findings DIR] [--no-feedback] [--dump] [--log-rule DIR]\n"
		"       vaccel-fuzz replay [--runs N] [--trace] [--log-rule DIR] FILE...\n"
		"       vaccel-fuzz gen [--seed N] [--count N]\n"
		"       vaccel-fuzz parse FILE...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "time", required_argument, NULL, 't' },
		{ "seed", required_argument, NULL, 's' },
		{ "procs", required_argument, NULL, 'p' },
		{ "corpus", required_argument, NULL, 'c' },
		{ "findings", required_argument, NULL, 'f' },
		{ "no-feedback", no_argument, NULL, 'n' },
		{ "dump", no_argument, NULL, 'd' },
		{ "runs", required_argument, NULL, 'r' },
		{ "trace", no_argument, NULL, 'T' },
		{ "count", required_argument, NULL, 'k' },
		{ "log-rule", required_argument, NULL, 'l' },
		{ 0 },
	};
	uint64_t seconds = 60, seed = 0, count = 10;
	unsigned int procs = 2;
	const char *corpus_dir = NULL, *findings_dir = NULL, *cmd;
	const char *log_rule = "/vaccel/kernel-log";
	bool feedback = true, dump = false;
	int runs = 3, o;

	if (argc < 2)
		usage();
	cmd = argv[1];
	optind = 2;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 't': seconds = strtoull(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'p': procs = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'c': corpus_dir = optarg; break;
		case 'f': findings_dir = optarg; break;
		case 'n': feedback = false; break;
		case 'd': dump = true; break;
		case 'r': runs = atoi(optarg); break;
		case 'T': fuzz_trace = true; break;
		case 'k': count = strtoull(optarg, NULL, 0); break;
		case 'l': log_rule = optarg; break;
		default: usage();
		}
	}
	if (procs < 1 || procs > MAX_PROCS) {
		fprintf(stderr, "vaccel-fuzz: --procs must be 1 to %d\n", MAX_PROCS);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (!strcmp(cmd, "gen")) {
		for (uint64_t i = 0; i < count; i++) {
			struct fuzz_prog p;
			struct fuzz_rng r;

			fuzz_seed(&r, seed, i);
			fuzz_generate(&p, &r);
			printf("# seed %llu, program %llu\n", (unsigned long long)seed,
			       (unsigned long long)i);
			fuzz_print(stdout, &p);
		}
		return 0;
	}
	if (!strcmp(cmd, "parse")) {
		int bad = 0;

		for (int i = optind; i < argc; i++) {
			struct fuzz_prog p;

			if (load_file(argv[i], &p)) {
				bad = 1;
				continue;
			}
			printf("# %s\n", argv[i]);
			fuzz_print(stdout, &p);
		}
		return bad;
	}
	if (load_log_rule(log_rule) || find_device())
		return 2;
	coverage = fuzz_kcov_available();
	cgroup_setup();
	if (!strcmp(cmd, "run"))
		return cmd_run(seconds, seed, procs, corpus_dir, findings_dir, feedback, dump);
	if (!strcmp(cmd, "replay"))
		return cmd_replay(argc - optind, argv + optind, runs);
	usage();
	return 2;
}
