// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_kill.c - a process killed by SIGKILL with work in flight.
 *
 * The child opens the device, creates its contexts, submits work that
 * cannot finish by itself, exports the out-syncobjs of its jobs as named
 * sync_files (see vt_exec.h) and sends them, with its DRM client id, to the
 * parent over a unix socket (SCM_RIGHTS); then it blocks.  The parent
 * checks that the work is really pending or running, SIGKILLs the child,
 * and then expects, within a few seconds:
 *
 * - every job's sync_file signalled (poll), with an error status
 *   (SYNC_IOC_FILE_INFO status -ECANCELED, whatever point the job reached);
 * - the device's memory counters in debugfs (bo_count, bo_bytes, vms,
 *   pt_pages) back exactly to what they were before the child started;
 * - no context of the child's client in debugfs contexts, and each
 *   engine's context count as before;
 * - every engine idle in debugfs engines.
 *
 * killed_with_waiting_jobs: two contexts (COMPUTE 0 and COPY 0), each
 * running a WAIT_MEM on a value never written with jobs queued behind it,
 * a job of one context waiting for the other's last job, and an
 * asynchronous bind waiting for the first WAIT_MEM job.
 *
 * killed_during_copy_and_delay: a COPY context executing a long COPY
 * (16 MiB, 32 times over) and a COMPUTE context executing a 10 s DELAY,
 * with jobs queued behind each: the fences must signal long before the
 * DELAY could have ended.
 *
 * killed_while_submitting: a child submitting jobs and asynchronous binds
 * in a loop is killed after a varying number of submissions (counted in
 * shared memory, not guessed with sleeps), four times over.
 *
 * Needs root (debugfs); a topology with a COPY engine and the PAGING
 * engine (the default one).
 */
#include <signal.h>
#include <sys/socket.h>

#include "vt_exec.h"

#define COMPUTE	DRM_VACCEL_ENGINE_CLASS_COMPUTE
#define COPY	DRM_VACCEL_ENGINE_CLASS_COPY
#define PAGING	DRM_VACCEL_ENGINE_CLASS_PAGING

/* How long the fences and the device may take to settle after the kill. */
#define KILL_SETTLE_MS	5000
#define MAX_ENGINES	64
#define MAX_FDS		64

/* --- the device before and after --- */

struct baseline {
	char dir[VT_DIR_MAX];
	struct vt_dev_mem mem;
	unsigned int nengines;
	unsigned int engine_ctxs[MAX_ENGINES];
};

struct engine_state {
	char name[32];
	bool busy;
	unsigned int contexts;
};

/* Reads debugfs engines into @e; returns the number of engines. */
static unsigned int read_engines(const char *dir, struct engine_state *e)
{
	char path[PATH_MAX], *text, *line, *save = NULL;
	unsigned int n = 0;

	snprintf(path, sizeof(path), "%s/engines", dir);
	text = vt_read_file(path);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char state[16];
		unsigned long long ns;
		unsigned int idx;

		if (strncmp(line, "engine ", 7))
			continue;
		if (n >= MAX_ENGINES ||
		    sscanf(line, "engine %u: %31s %15s busy_ns %llu contexts %u", &idx,
			   e[n].name, state, &ns, &e[n].contexts) != 5 || idx != n)
			vtest_fail(__FILE__, __LINE__, "bad engines line '%s'", line);
		e[n].busy = !strcmp(state, "busy");
		n++;
	}
	free(text);
	return n;
}

/*
 * Whether engine @name is busy with a buffer of client @client, according
 * to the HW queue slots debugfs engines lists under it.
 */
static bool engine_runs_client(const char *dir, const char *name,
			       unsigned long long client)
{
	char path[PATH_MAX], head[64], key[64], *text, *p, *next;
	bool found = false;

	snprintf(path, sizeof(path), "%s/engines", dir);
	snprintf(key, sizeof(key), " client %llu ", client);
	text = vt_read_file(path);
	for (p = strstr(text, "engine "); p; p = next) {
		next = strstr(p + 1, "\nengine ");
		if (next) {
			*next = '\0';
			next++;
		}
		snprintf(head, sizeof(head), ": %s busy ", name);
		if (strstr(p, head) && strstr(p, key))
			found = true;
	}
	free(text);
	return found;
}

/* Lines of debugfs contexts that belong to client @client. */
static int client_contexts(const char *dir, unsigned long long client)
{
	char path[PATH_MAX], key[64], *text, *p;
	int n = 0;

	snprintf(path, sizeof(path), "%s/contexts", dir);
	snprintf(key, sizeof(key), " client %llu ", client);
	text = vt_read_file(path);
	for (p = strstr(text, key); p; p = strstr(p + 1, key))
		n++;
	free(text);
	return n;
}

static void baseline_take(struct baseline *b)
{
	struct engine_state e[MAX_ENGINES];
	unsigned int i;

	vt_debugfs_dir_index(0, b->dir, sizeof(b->dir));
	vt_dev_mem_dir(b->dir, &b->mem);
	b->nengines = read_engines(b->dir, e);
	for (i = 0; i < b->nengines; i++) {
		if (e[i].busy)
			vtest_fail(__FILE__, __LINE__, "engine %s busy before the test",
				   e[i].name);
		b->engine_ctxs[i] = e[i].contexts;
	}
}

/*
 * Polls until the device is back to @b and client @client has no context
 * left, for up to @ms; fails the case with what differs.
 */
static void baseline_expect(const struct baseline *b, unsigned long long client,
			    unsigned int ms)
{
	struct engine_state e[MAX_ENGINES];
	struct vt_dev_mem m;
	unsigned int n, i;
	__u64 end = vt_now_ns() + ms * VT_MS;
	int c;
	bool same;

	for (;;) {
		vt_dev_mem_dir(b->dir, &m);
		c = client_contexts(b->dir, client);
		n = read_engines(b->dir, e);
		same = vt_dev_mem_equal(&m, &b->mem) && !c && n == b->nengines;
		for (i = 0; same && i < n; i++)
			same = !e[i].busy && e[i].contexts == b->engine_ctxs[i];
		if (same)
			return;
		if (vt_now_ns() > end)
			break;
		usleep(20000);
	}
	for (i = 0; i < n && i < b->nengines; i++)
		if (e[i].busy || e[i].contexts != b->engine_ctxs[i])
			fprintf(stderr, "engine %s: %s, %u contexts (was %u)\n", e[i].name,
				e[i].busy ? "busy" : "idle", e[i].contexts, b->engine_ctxs[i]);
	vtest_fail(__FILE__, __LINE__,
		   "%u ms after the kill: bo_count %lld (was %lld), bo_bytes %lld (%lld), "
		   "vms %lld (%lld), pt_pages %lld (%lld), %d contexts of client %llu",
		   ms, m.bo_count, b->mem.bo_count, m.bo_bytes, b->mem.bo_bytes, m.vms,
		   b->mem.vms, m.pt_pages, b->mem.pt_pages, c, client);
}

/* --- passing sync_files --- */

/* What the child tells the parent, with the descriptors. */
struct report {
	__u64 client;
	__u32 njobs;	/* job sync_files first */
	__u32 nbinds;	/* then bind sync_files */
};

static void send_report(int sock, const struct report *r, const int *fds)
{
	unsigned int n = r->njobs + r->nbinds;
	char cbuf[CMSG_SPACE(sizeof(int) * MAX_FDS)];
	struct iovec iov = { (void *)r, sizeof(*r) };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = CMSG_SPACE(sizeof(int) * n),
	};
	struct cmsghdr *c;

	VT_ASSERT(n > 0 && n <= MAX_FDS);
	memset(cbuf, 0, sizeof(cbuf));
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int) * n);
	memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
	VT_ASSERT_EQ(sendmsg(sock, &msg, 0), sizeof(*r));
}

/* Receives the child's report; fails the case if the child died first. */
static void recv_report(int sock, struct report *r, int *fds)
{
	char cbuf[CMSG_SPACE(sizeof(int) * MAX_FDS)];
	struct iovec iov = { r, sizeof(*r) };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;
	ssize_t got;
	unsigned int n;

	got = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	if (got == 0)
		vtest_fail(__FILE__, __LINE__, "the child died before reporting (see above)");
	VT_ASSERT_EQ(got, sizeof(*r));
	VT_ASSERT(!(msg.msg_flags & (MSG_CTRUNC | MSG_TRUNC)));
	n = r->njobs + r->nbinds;
	VT_ASSERT(n > 0 && n <= MAX_FDS);
	c = CMSG_FIRSTHDR(&msg);
	VT_ASSERT(c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS);
	VT_ASSERT_EQ(c->cmsg_len, CMSG_LEN(sizeof(int) * n));
	memcpy(fds, CMSG_DATA(c), sizeof(int) * n);
}

/* --- the parent's side --- */

/*
 * Kills @pid, reaps it, then checks every sync_file: all signal within
 * KILL_SETTLE_MS of the kill, the jobs' with -ECANCELED, the binds' with
 * any status.  Returns the ms they took.
 */
static unsigned int kill_and_expect_fences(pid_t pid, const struct report *r,
					   const int *fds)
{
	__u64 start, end, now;
	unsigned int i;
	int status;

	start = vt_now_ns();
	end = start + KILL_SETTLE_MS * VT_MS;
	VT_ASSERT_EQ(kill(pid, SIGKILL), 0);
	VT_ASSERT_EQ(waitpid(pid, &status, 0), pid);
	VT_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

	for (i = 0; i < r->njobs + r->nbinds; i++) {
		int st;

		now = vt_now_ns();
		if (!vt_sync_file_wait(fds[i], now < end ? (end - now) / VT_MS + 1 : 0))
			vtest_fail(__FILE__, __LINE__,
				   "%s %u not signalled %u ms after the kill",
				   i < r->njobs ? "job" : "bind", i,
				   (unsigned int)KILL_SETTLE_MS);
		st = vt_sync_file_status(fds[i]);
		if (i < r->njobs && st != -ECANCELED)
			vtest_fail(__FILE__, __LINE__, "job %u: status %d (%s), expected "
				   "-ECANCELED", i, st, st < 0 ? strerror(-st) : "no error");
		if (i >= r->njobs)
			printf("# bind %u of the killed process: status %d\n", i - r->njobs, st);
	}
	return (vt_now_ns() - start) / VT_MS;
}

/* Forks the child @fn, which reports on @sock; the parent receives it. */
static pid_t start_child(void (*fn)(int sock), struct report *r, int *fds)
{
	int sv[2];
	pid_t pid;

	VT_ASSERT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		fn(sv[1]);
		for (;;)
			pause();
	}
	VT_ASSERT(pid > 0);
	close(sv[1]);
	recv_report(sv[0], r, fds);
	close(sv[0]);
	return pid;
}

/* Before the kill: the child's jobs are pending, its contexts listed. */
static void expect_pending(const struct baseline *b, const struct report *r,
			   const int *fds, int contexts)
{
	unsigned int i;

	for (i = 0; i < r->njobs + r->nbinds; i++)
		if (vt_sync_file_status(fds[i]) != 0)
			vtest_fail(__FILE__, __LINE__, "fence %u signalled before the kill", i);
	VT_ASSERT_EQ(client_contexts(b->dir, r->client), contexts);
}

/* --- the children --- */

#define QUEUED		6	/* jobs queued behind each blocked one */

/* The child's device, command BO and data BO. */
struct child {
	struct vt_dev d;
	struct vt_cmd c;
	struct vt_bo data;
	int fds[MAX_FDS];
	struct report r;
	__u32 outs[MAX_FDS];
};

static void child_open(struct child *ch)
{
	memset(&ch->r, 0, sizeof(ch->r));
	ch->d = vt_dev_open();
	VT_REQUIRE_ENGINES(&ch->d, COPY, 1);
	VT_REQUIRE_ENGINES(&ch->d, PAGING, 1);
	ch->c = vt_cmd_new(&ch->d, 64 * VT_KIB);
	ch->data = vt_bo_new(&ch->d, 64 * VT_KIB);
	ch->r.client = vt_client_id(ch->d.fd);
}

/*
 * Stores @value at @va: WRITE_IMM on a COMPUTE context, a 4-byte FILL on a
 * COPY one (the uapi promises COPY engines copy, fill and synchronisation
 * packets only).
 */
static void put32(struct vt_cmd *c, bool copy_class, __u64 va, __u32 value)
{
	if (copy_class)
		vt_pkt_fill(c, va, 4, value);
	else
		vt_pkt_write32(c, va, value);
}

/* Submits the buffer recorded in ch->c on @ctx, waiting for @in; records its out-syncobj. */
static void child_submit(struct child *ch, __u32 ctx, __u32 in)
{
	__u32 out = vt_syncobj(ch->d.fd);

	VT_ASSERT(ch->r.njobs < MAX_FDS);
	vt_submit(ch->d.fd, ctx, &ch->c, in, out);
	ch->outs[ch->r.njobs++] = out;
}

/* Exports every job's and bind's out-syncobj (in ch->outs) and reports. */
static void child_report(struct child *ch, int sock)
{
	unsigned int i;

	for (i = 0; i < ch->r.njobs + ch->r.nbinds; i++)
		ch->fds[i] = vt_sync_file_named(ch->d.fd, ch->outs[i]);
	send_report(sock, &ch->r, ch->fds);
}

/*
 * Two contexts, each running a WAIT_MEM on a word nobody writes (after a
 * marker that tells it started) with QUEUED jobs behind; a job of the COPY
 * context waiting for the COMPUTE context's last one; a bind waiting for
 * the COMPUTE context's blocked job.
 */
static void child_waiting(int sock)
{
	struct child ch;
	__u32 ctx[2], first_out, last_out, ob, xh;
	unsigned int k, j;
	__u64 xva;

	child_open(&ch);
	ctx[0] = vt_ctx_create(ch.d.fd, COMPUTE, 0);
	ctx[1] = vt_ctx_create(ch.d.fd, COPY, 0);
	for (k = 0; k < 2; k++) {
		put32(&ch.c, k, ch.data.va + 256 + 4 * k, 1);
		vt_pkt_wait_eq32(&ch.c, ch.data.va, 0xdead);	/* never */
		child_submit(&ch, ctx[k], 0);
		for (j = 0; j < QUEUED; j++) {
			put32(&ch.c, k, ch.data.va + 1024 + 64 * k + 4 * j, 1);
			child_submit(&ch, ctx[k], 0);
		}
	}
	first_out = ch.outs[0];
	last_out = ch.outs[QUEUED];
	put32(&ch.c, true, ch.data.va + 2048, 1);
	child_submit(&ch, ctx[1], last_out);

	xh = vt_bo_create(ch.d.fd, 64 * VT_KIB, 0);
	xva = vt_va_alloc(&ch.d, 64 * VT_KIB);
	ob = vt_syncobj(ch.d.fd);
	{
		struct drm_vaccel_vm_bind_op op = vt_op_map(xh, 0, xva, 64 * VT_KIB, 0);
		struct drm_vaccel_sync w = { .handle = first_out }, s = { .handle = ob };
		struct drm_vaccel_vm_bind b = {
			.ops = DRM_VACCEL_OBJ_ARRAY(1, &op),
			.waits = DRM_VACCEL_OBJ_ARRAY(1, &w),
			.signals = DRM_VACCEL_OBJ_ARRAY(1, &s),
		};

		if (ioctl(ch.d.fd, DRM_IOCTL_VACCEL_VM_BIND, &b))
			vtest_fail(__FILE__, __LINE__, "asynchronous VM_BIND: %s",
				   strerror(errno));
	}
	ch.outs[ch.r.njobs + ch.r.nbinds++] = ob;

	/* Both blocked jobs are executing their WAIT_MEM. */
	for (k = 0; k < 2; k++)
		if (!vt_poll_u32(VT_U32P(&ch.data, 256 + 4 * k), 1, VT_TIMEOUT_MS))
			vtest_fail(__FILE__, __LINE__, "context %u never started", k);
	child_report(&ch, sock);
}

VTEST(killed_with_waiting_jobs)
{
	struct baseline b;
	struct report r;
	int fds[MAX_FDS];
	unsigned int i, ms;
	pid_t pid;

	baseline_take(&b);
	pid = start_child(child_waiting, &r, fds);
	VT_ASSERT_EQ(r.njobs, 2 * (1 + QUEUED) + 1);
	VT_ASSERT_EQ(r.nbinds, 1);
	/* Two contexts and the paging one. */
	expect_pending(&b, &r, fds, 3);
	VT_ASSERT(engine_runs_client(b.dir, "compute0", r.client));
	VT_ASSERT(engine_runs_client(b.dir, "copy0", r.client));

	ms = kill_and_expect_fences(pid, &r, fds);
	printf("# killed_with_waiting_jobs: fences signalled %u ms after the kill\n", ms);
	baseline_expect(&b, r.client, KILL_SETTLE_MS);
	for (i = 0; i < r.njobs + r.nbinds; i++)
		close(fds[i]);
}

#define BIG		(16 * VT_MIB)
#define BIG_COPIES	32
#define DELAY_NS	(10000 * VT_MS)

/*
 * A COPY context executing 32 COPYs of 16 MiB and a COMPUTE context
 * executing a 10 s DELAY, each behind a marker and with QUEUED jobs
 * queued after it.
 */
static void child_copy_and_delay(int sock)
{
	struct child ch;
	struct vt_bo src, dst;
	__u32 cctx, dctx;
	unsigned int k, j;

	child_open(&ch);
	src = vt_bo_new(&ch.d, BIG);
	dst = vt_bo_new(&ch.d, BIG);
	memset(src.cpu, 0x5a, BIG);
	cctx = vt_ctx_create(ch.d.fd, COPY, 0);
	dctx = vt_ctx_create(ch.d.fd, COMPUTE, 0);

	put32(&ch.c, true, ch.data.va + 256, 1);
	for (k = 0; k < BIG_COPIES; k++)
		vt_pkt_copy(&ch.c, src.va, dst.va, BIG);
	child_submit(&ch, cctx, 0);
	for (j = 0; j < QUEUED; j++) {
		put32(&ch.c, true, ch.data.va + 1024 + 4 * j, 1);
		child_submit(&ch, cctx, 0);
	}

	vt_pkt_write32(&ch.c, ch.data.va + 260, 1);
	vt_pkt_delay(&ch.c, DELAY_NS);
	child_submit(&ch, dctx, 0);
	for (j = 0; j < QUEUED; j++) {
		vt_pkt_write32(&ch.c, ch.data.va + 1088 + 4 * j, 1);
		child_submit(&ch, dctx, 0);
	}

	for (k = 0; k < 2; k++)
		if (!vt_poll_u32(VT_U32P(&ch.data, 256 + 4 * k), 1, VT_TIMEOUT_MS))
			vtest_fail(__FILE__, __LINE__, "%s never started",
				   k ? "the DELAY" : "the COPY");
	child_report(&ch, sock);
}

VTEST(killed_during_copy_and_delay)
{
	struct baseline b;
	struct report r;
	int fds[MAX_FDS];
	unsigned int i, ms;
	pid_t pid;

	baseline_take(&b);
	pid = start_child(child_copy_and_delay, &r, fds);
	VT_ASSERT_EQ(r.njobs, 2 * (1 + QUEUED));
	expect_pending(&b, &r, fds, 2);
	/* Both long packets are executing now. */
	if (!engine_runs_client(b.dir, "copy0", r.client))
		vtest_fail(__FILE__, __LINE__, "the %u MiB of COPY already ended",
			   (unsigned int)(BIG_COPIES * (BIG / VT_MIB)));
	VT_ASSERT(engine_runs_client(b.dir, "compute0", r.client));

	ms = kill_and_expect_fences(pid, &r, fds);
	printf("# killed_during_copy_and_delay: fences signalled %u ms after the kill\n",
	       ms);
	VT_ASSERT(ms < DELAY_NS / VT_MS);
	baseline_expect(&b, r.client, KILL_SETTLE_MS);
	for (i = 0; i < r.njobs + r.nbinds; i++)
		close(fds[i]);
}

/* --- killed at a random point of a submission loop --- */

#define LOOP_THROTTLE	32	/* jobs in flight per context at most */

/* Shared between the submitting child and the parent. */
struct progress {
	unsigned int count;		/* submissions so far */
	unsigned long long client;	/* the child's DRM client id */
};

/*
 * Submits, forever, jobs alternating between a COMPUTE and a COPY context
 * (a store, a COPY, and on COMPUTE a short DELAY), and after every 4th job an
 * asynchronous map or unmap that waits for it; counts submissions in
 * @prog.
 */
static void submit_loop(struct progress *prog)
{
	struct vt_dev d = vt_dev_open();
	struct vt_cmd c = vt_cmd_new(&d, 16 * VT_KIB);
	struct vt_bo data = vt_bo_new(&d, 64 * VT_KIB);
	__u32 ctx[2], outs[2 * LOOP_THROTTLE], bo, ob;
	__u64 job_va[2], job_size[2], va;
	unsigned int n, k;

	VT_REQUIRE_ENGINES(&d, COPY, 1);
	VT_REQUIRE_ENGINES(&d, PAGING, 1);
	ctx[0] = vt_ctx_create(d.fd, COMPUTE, DRM_VACCEL_ENGINE_ANY);
	ctx[1] = vt_ctx_create(d.fd, COPY, DRM_VACCEL_ENGINE_ANY);
	for (k = 0; k < 2; k++) {
		put32(&c, k, data.va + 4 * k, 0x100 + k);
		vt_pkt_copy(&c, data.va + 4 * k, data.va + 4096 + 4096 * k, 4096);
		if (!k)
			vt_pkt_delay(&c, 100000);
		job_va[k] = vt_cmd_va(&c);
		job_size[k] = vt_cmd_size(&c);
		vt_cmd_next(&c);
	}
	for (k = 0; k < ARRAY_SIZE(outs); k++)
		outs[k] = vt_syncobj(d.fd);
	ob = vt_syncobj(d.fd);
	bo = vt_bo_create(d.fd, 64 * VT_KIB, 0);
	va = vt_va_alloc(&d, 64 * VT_KIB);
	__atomic_store_n(&prog->client, vt_client_id(d.fd), __ATOMIC_SEQ_CST);

	for (n = 0;; n++) {
		unsigned int which = n % 2, slot = n % ARRAY_SIZE(outs);
		struct drm_vaccel_sync s = { .handle = outs[slot] };

		/* At most ARRAY_SIZE(outs) jobs in flight. */
		if (n >= ARRAY_SIZE(outs))
			vt_syncobj_wait(d.fd, outs[slot]);
		if (vt_submit_raw(d.fd, ctx[which], job_va[which], job_size[which], NULL, 0,
				  &s, 1))
			vtest_fail(__FILE__, __LINE__, "submit %u: %s", n, strerror(errno));
		if (n % 4 == 3) {
			struct drm_vaccel_vm_bind_op op = n % 8 == 3 ?
				vt_op_map(bo, 0, va, 64 * VT_KIB, 0) :
				vt_op_unmap(va, 64 * VT_KIB);
			struct drm_vaccel_sync w = { .handle = outs[slot] };
			struct drm_vaccel_sync so = { .handle = ob };
			struct drm_vaccel_vm_bind b = {
				.ops = DRM_VACCEL_OBJ_ARRAY(1, &op),
				.waits = DRM_VACCEL_OBJ_ARRAY(1, &w),
				.signals = DRM_VACCEL_OBJ_ARRAY(1, &so),
			};

			if (ioctl(d.fd, DRM_IOCTL_VACCEL_VM_BIND, &b))
				vtest_fail(__FILE__, __LINE__, "bind %u: %s", n,
					   strerror(errno));
		}
		__atomic_store_n(&prog->count, n + 1, __ATOMIC_SEQ_CST);
	}
}

VTEST(killed_while_submitting)
{
	static const unsigned int after[] = { 1, 37, 150, 400 };
	struct progress *prog;
	struct baseline b;
	unsigned int it;

	prog = mmap(NULL, VT_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		    -1, 0);
	VT_ASSERT(prog != MAP_FAILED);
	baseline_take(&b);
	for (it = 0; it < ARRAY_SIZE(after); it++) {
		__u64 end = vt_now_ns() + 2 * VT_TIMEOUT_MS * VT_MS;
		unsigned long long client;
		int status;
		pid_t pid;

		__atomic_store_n(&prog->count, 0, __ATOMIC_SEQ_CST);
		__atomic_store_n(&prog->client, ~0ull, __ATOMIC_SEQ_CST);
		pid = fork();
		if (pid == 0) {
			submit_loop(prog);
			_exit(0);
		}
		VT_ASSERT(pid > 0);
		while (__atomic_load_n(&prog->count, __ATOMIC_SEQ_CST) < after[it]) {
			if (waitpid(pid, &status, WNOHANG) == pid)
				vtest_fail(__FILE__, __LINE__,
					   "iteration %u: the child ended after %u submissions",
					   it, prog->count);
			if (vt_now_ns() > end) {
				kill(pid, SIGKILL);
				waitpid(pid, &status, 0);
				vtest_fail(__FILE__, __LINE__,
					   "iteration %u: only %u submissions", it, prog->count);
			}
			usleep(200);
		}
		client = __atomic_load_n(&prog->client, __ATOMIC_SEQ_CST);
		VT_ASSERT(client != ~0ull);
		VT_ASSERT(client_contexts(b.dir, client) >= 2);
		VT_ASSERT_EQ(kill(pid, SIGKILL), 0);
		VT_ASSERT_EQ(waitpid(pid, &status, 0), pid);
		VT_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
		baseline_expect(&b, client, KILL_SETTLE_MS);
	}
	munmap(prog, VT_PAGE);
}

VTEST_MAIN()
