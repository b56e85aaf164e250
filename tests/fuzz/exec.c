// SPDX-License-Identifier: GPL-2.0-only
/*
 * exec.c - vaccel-fuzz: the executor, which runs one program in a fresh
 * process (a child of the manager) and reports the coverage it reached.
 *
 * The main thread asks KCOV for remote coverage under a common handle of
 * its own, then starts one thread per program thread; the threads inherit
 * the handle, so the jobs they submit carry it and the engine threads
 * report what they execute to it (vaccel_engine.c).  Each thread also
 * collects its own coverage: the ioctl paths.  Calls of the two threads
 * run at once and race; a fork call makes a child that runs the next
 * calls of its thread and exits, while the parent goes on without them.
 * The executor never cleans up: it exits with everything open, mapped,
 * submitted and bound, and the kernel's teardown paths do the rest.
 * Threads that have not finished after a second have their gates opened
 * for them: a thread can wait behind a gate that only its own later call
 * opens.  Before it exits the executor gives the manager the fences of
 * its syncobjs as sync_files, waits a little for them (the engines'
 * coverage reaches the executor as their buffers end), and collects the
 * remote coverage.
 *
 * Without KCOV (the stock kernel) the executor runs blind: no coverage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

/* From <linux/kcov.h>, spelled out so the tool builds on any headers. */
struct kcov_remote_arg {
	uint32_t trace_mode;
	uint32_t area_size;
	uint32_t num_handles;
	uint32_t pad;
	uint64_t common_handle;
	uint64_t handles[];
};

#define KCOV_INIT_TRACE		_IOR('c', 1, unsigned long)
#define KCOV_ENABLE		_IO('c', 100)
#define KCOV_DISABLE		_IO('c', 101)
#define KCOV_REMOTE_ENABLE	_IOW('c', 102, struct kcov_remote_arg)
#define KCOV_TRACE_PC		0
#define KCOV_PATH		"/sys/kernel/debug/kcov"
/*
 * PCs per area: a thread's calls, and the engines' whole program (the
 * interpreter reports every basic block), which a smaller area overflows.
 */
#define KCOV_WORDS		(1u << 18)
#define KCOV_REMOTE_WORDS	(1u << 20)

/* How long the program's threads may take before its gates open on their own. */
#define GATE_WATCHDOG_MS	1000

struct kcov {
	int fd;
	unsigned long *area;
	unsigned long words;
};

/* Whether this kernel has KCOV, and we may use it. */
bool fuzz_kcov_available(void)
{
	return access(KCOV_PATH, R_OK | W_OK) == 0;
}

/* Opens a KCOV of @words PCs and maps its area. */
static int kcov_open(struct kcov *k, unsigned long words)
{
	k->words = words;
	k->fd = open(KCOV_PATH, O_RDWR | O_CLOEXEC);
	if (k->fd < 0)
		return -1;
	if (ioctl(k->fd, KCOV_INIT_TRACE, words))
		goto fail;
	k->area = mmap(NULL, words * sizeof(unsigned long), PROT_READ | PROT_WRITE,
		       MAP_SHARED, k->fd, 0);
	if (k->area == MAP_FAILED)
		goto fail;
	return 0;
fail:
	close(k->fd);
	k->fd = -1;
	return -1;
}

/* Edge hashes go to the result once each; bit 31 marks an edge in vaccel. */
struct edge_set {
	uint8_t seen[1u << 17];	/* 2^20 bits */
	struct fuzz_result *out;
	uint64_t lo, hi;	/* vaccel's text, when known */
	pthread_mutex_t lock;
};

static struct edge_set edges;

/* A 64-bit finaliser (murmur3's), folded to 32 bits. */
static inline uint32_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return (uint32_t)x;
}

/* Adds the edges of @k's area to the result, and empties it. */
static void collect(struct kcov *k)
{
	unsigned long *area = k->area;
	unsigned long n = __atomic_load_n(&area[0], __ATOMIC_RELAXED), prev = 0;

	if (n > k->words - 1)
		n = k->words - 1;
	pthread_mutex_lock(&edges.lock);
	for (unsigned long i = 1; i <= n; i++) {
		unsigned long pc = area[i];
		uint32_t h = mix(pc ^ (prev << 1)) & 0x7fffffff, bit = h & ((1u << 20) - 1);

		prev = pc;
		if (edges.hi && pc >= edges.lo && pc < edges.hi)
			h |= 1u << 31;
		if (edges.seen[bit >> 3] & (1u << (bit & 7)))
			continue;
		edges.seen[bit >> 3] |= 1u << (bit & 7);
		if (edges.out->nedges < FUZZ_RESULT_EDGES)
			edges.out->edges[edges.out->nedges++] = h;
	}
	__atomic_store_n(&area[0], 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&edges.lock);
}

/* vaccel's text from /proc/modules: "vaccel SIZE REFS DEPS STATE ADDR". */
static void vaccel_text(uint64_t *lo, uint64_t *hi)
{
	FILE *f = fopen("/proc/modules", "r");
	char name[64];
	unsigned long long size, addr;

	*lo = *hi = 0;
	if (!f)
		return;
	while (fscanf(f, "%63s %llu %*s %*s %*s %llx%*[^\n]", name, &size, &addr) == 3) {
		if (!strcmp(name, "vaccel")) {
			*lo = addr;
			*hi = addr + size;
			break;
		}
	}
	fclose(f);
}

struct worker {
	struct fuzz_state *st;
	unsigned int thread;
	bool coverage;
	pthread_t tid;
	struct fuzz_result *out;
};

static int fork_id = -1;

bool fuzz_trace;

/* Runs the calls of one thread; a fork call hands the next ones to a child. */
static void run_thread(struct fuzz_state *st, unsigned int thread, unsigned int from,
		       struct kcov *k, struct fuzz_result *out, int skip_limit)
{
	const struct fuzz_prog *p = st->prog;
	int ran = 0;

	for (unsigned int i = from; i < p->ncalls; i++) {
		const struct fuzz_call *c = &p->call[i];

		if (c->thread != thread)
			continue;
		if (skip_limit >= 0 && ran++ >= skip_limit)
			break;
		if (c->id == fork_id) {
			unsigned int n = (unsigned int)(c->arg[0].v % 8), skipped = 0;
			pid_t pid = fork();

			if (pid == 0) {
				/* The child: the next n calls of this thread, then exit. */
				run_thread(st, thread, i + 1, NULL, out, (int)n);
				_exit(0);
			}
			/* The parent skips what the child runs. */
			while (skipped < n && ++i < p->ncalls)
				if (p->call[i].thread == thread)
					skipped++;
			continue;
		}
		if (k && k->area)
			__atomic_store_n(&k->area[0], 0, __ATOMIC_RELAXED);
		int ret = fuzz_run_call(st, i, thread);
		int err = errno;

		if (k && k->area)
			collect(k);
		if (fuzz_trace)
			fprintf(stderr, "fuzz: call %u %s: %s\n", i, fuzz_calls[c->id].name,
				ret ? strerror(err) : "ok");
		if (skip_limit < 0) {
			__atomic_fetch_add(&out->calls_done, 1, __ATOMIC_RELAXED);
			if (!ret)
				__atomic_fetch_add(&out->calls_ok, 1, __ATOMIC_RELAXED);
		}
	}
}

/* A program thread: its own KCOV around its calls. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct kcov k = { .fd = -1 };

	if (w->coverage && !kcov_open(&k, KCOV_WORDS) && ioctl(k.fd, KCOV_ENABLE, KCOV_TRACE_PC)) {
		munmap(k.area, KCOV_WORDS * sizeof(unsigned long));
		k.area = NULL;
	}
	run_thread(w->st, w->thread, 0, &k, w->out, -1);
	if (k.fd >= 0 && k.area)
		ioctl(k.fd, KCOV_DISABLE, 0);
	return NULL;
}

/*
 * Sends the fences of the program's syncobjs to the manager, in one
 * message, then waits up to 100 ms for them to signal: the engines report
 * a buffer's coverage when it ends.
 */
static void hand_over_fences(struct fuzz_state *st, int sock)
{
	int fds[FUZZ_MAX_CALLS];
	unsigned int n = fuzz_export_fences(st, fds, FUZZ_MAX_CALLS), i;
	char data = 'f';
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	union {
		char buf[CMSG_SPACE(sizeof(fds))];
		struct cmsghdr align;
	} u;
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = CMSG_SPACE(n * sizeof(int)),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	struct pollfd pfd[FUZZ_MAX_CALLS];
	int waited = 0;

	if (!n)
		return;
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(c), fds, n * sizeof(int));
	if (sock >= 0)
		sendmsg(sock, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
	for (i = 0; i < n; i++)
		pfd[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	for (i = 0; i < n && waited < 100; i++) {
		while (waited < 100 && poll(&pfd[i], 1, 10) == 0)
			waited += 10;
	}
}

/*
 * fuzz_exec() - run @p against @dev, report to @out
 *
 * Called in a fresh child of the manager, which kills it if it takes too
 * long.  Returns when the threads are done; the caller exits at once.
 */
void fuzz_exec(const struct fuzz_prog *p, const struct fuzz_device *dev,
	       struct fuzz_result *out, bool coverage, int fence_sock)
{
	static struct fuzz_state st;
	struct worker w[FUZZ_THREADS];
	struct kcov remote = { .fd = -1 };
	struct timespec until;
	unsigned int t;

	fork_id = fuzz_call_by_name("fork");
	memset(&st, 0, sizeof(st));
	st.dev = dev;
	st.prog = p;
	for (t = 0; t < FUZZ_DEVICE_FILES; t++)
		st.devfd[t] = open(dev->path[t % dev->files], O_RDWR | O_CLOEXEC);
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, st.sock))
		st.sock[0] = st.sock[1] = -1;
	signal(SIGPIPE, SIG_IGN);

	pthread_mutex_init(&edges.lock, NULL);
	edges.out = out;
	out->nedges = out->calls_done = out->calls_ok = 0;
	if (coverage) {
		vaccel_text(&edges.lo, &edges.hi);
		if (!kcov_open(&remote, KCOV_REMOTE_WORDS)) {
			struct kcov_remote_arg arg = {
				.trace_mode = KCOV_TRACE_PC,
				.area_size = KCOV_REMOTE_WORDS,
				/* Common handles: subsystem 0, a non-zero instance. */
				.common_handle = (uint64_t)getpid(),
			};

			if (ioctl(remote.fd, KCOV_REMOTE_ENABLE, &arg)) {
				munmap(remote.area, KCOV_REMOTE_WORDS * sizeof(unsigned long));
				remote.area = NULL;
			}
		}
	}

	for (t = 0; t < FUZZ_THREADS; t++) {
		w[t] = (struct worker){ .st = &st, .thread = t, .coverage = coverage, .out = out };
		if (pthread_create(&w[t].tid, NULL, worker_main, &w[t]))
			w[t].tid = 0;
	}
	/* A thread stuck behind a gate for GATE_WATCHDOG_MS: every gate opens. */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += GATE_WATCHDOG_MS / 1000;
	for (t = 0; t < FUZZ_THREADS; t++) {
		if (!w[t].tid)
			continue;
		if (pthread_timedjoin_np(w[t].tid, NULL, &until) == ETIMEDOUT) {
			fuzz_open_gates(&st);
			pthread_join(w[t].tid, NULL);
		}
	}

	/* The engines may still be running what was submitted: give them a moment. */
	hand_over_fences(&st, fence_sock);
	if (remote.area) {
		usleep(10000);
		collect(&remote);
	}
	/*
	 * Children of fork calls: a short while to finish; the manager kills
	 * the executor's process group, stragglers included, afterwards.
	 */
	for (int tries = 0; tries < 100; tries++) {
		pid_t pid = waitpid(-1, NULL, WNOHANG);

		if (pid < 0 && errno == ECHILD)
			break;
		if (pid == 0)
			usleep(10000);
	}
}
