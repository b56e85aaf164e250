// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_stress.c - many processes, many contexts, thousands of jobs.
 *
 * independent_jobs: 4 processes start together, each with 3 contexts
 * (two COMPUTE and one COPY, all DRM_VACCEL_ENGINE_ANY) and submits 400
 * jobs to each, interleaved, as fast as it can: each job writes a value
 * unique to process, context and job into its own slot (WRITE_IMM, or a
 * 4-byte FILL on the COPY context) and COPYs it to a second slot.  Some jobs signal an out-syncobj; each
 * process waits once per context, for its last job.  Then the CPU checks
 * every slot (and that nothing else of the result BOs was written), every
 * out-fence, and each context's state: jobs_submitted == jobs_completed,
 * not faulted.
 *
 * pipeline: the same 4 x 3 contexts, each job of the second context
 * waiting for a timeline point the first context's job signals and copying
 * its result, and the COPY context's job waiting for the second's; one
 * wait per process.
 *
 * After the processes exit, the device's memory counters in debugfs
 * (bo_count, bo_bytes, vms, pt_pages) come back exactly to what they were,
 * and so do the contexts listed and each engine's context count; every
 * engine is idle.
 *
 * Needs root (debugfs); a topology with a COPY engine (the default one).
 */
#include "vt_exec.h"

#define COMPUTE	DRM_VACCEL_ENGINE_CLASS_COMPUTE
#define COPY	DRM_VACCEL_ENGINE_CLASS_COPY

#define PROCS		4
#define CTXS		3
#define JOBS		400		/* per context, independent_jobs */
#define PIPE_JOBS	200		/* per context, pipeline */
#define SIGNAL_EVERY	25
/* The one wait of a context: all the processes' jobs may be ahead of it. */
#define STRESS_TIMEOUT_MS 45000
#define SETTLE_MS	5000
#define MAX_ENGINES	64

/* What the device looks like when nobody uses it. */
struct baseline {
	char dir[VT_DIR_MAX];
	struct vt_dev_mem mem;
	int contexts;			/* lines of debugfs contexts */
	unsigned int nengines;
	unsigned int engine_ctxs[MAX_ENGINES];
};

/* Reads debugfs engines: per engine, its context count and whether it is busy. */
static unsigned int read_engines(const char *dir, unsigned int *ctxs, bool *busy)
{
	char path[PATH_MAX], *text, *line, *save = NULL;
	unsigned int n = 0;

	snprintf(path, sizeof(path), "%s/engines", dir);
	text = vt_read_file(path);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[32], state[16];
		unsigned long long ns;
		unsigned int idx, c;

		if (strncmp(line, "engine ", 7))
			continue;
		if (sscanf(line, "engine %u: %31s %15s busy_ns %llu contexts %u", &idx, name,
			   state, &ns, &c) != 5 || idx != n || n >= MAX_ENGINES)
			vtest_fail(__FILE__, __LINE__, "bad engines line '%s'", line);
		ctxs[n] = c;
		busy[n] = !strcmp(state, "busy");
		n++;
	}
	free(text);
	return n;
}

static int count_contexts(const char *dir)
{
	char path[PATH_MAX], *text, *p;
	int n = 0;

	snprintf(path, sizeof(path), "%s/contexts", dir);
	text = vt_read_file(path);
	for (p = text; (p = strstr(p, "context ")); p++)
		if (p == text || p[-1] == '\n')
			n++;
	free(text);
	return n;
}

static void baseline_take(struct baseline *b)
{
	bool busy[MAX_ENGINES];
	unsigned int i;

	vt_debugfs_dir_index(0, b->dir, sizeof(b->dir));
	vt_dev_mem_dir(b->dir, &b->mem);
	b->contexts = count_contexts(b->dir);
	b->nengines = read_engines(b->dir, b->engine_ctxs, busy);
	VT_ASSERT(b->nengines > 0);
	for (i = 0; i < b->nengines; i++)
		if (busy[i])
			vtest_fail(__FILE__, __LINE__, "engine %u busy before the test", i);
}

/* Polls until the device is back to @b: memory, contexts, idle engines. */
static void baseline_expect(const struct baseline *b)
{
	unsigned int ctxs[MAX_ENGINES], n, i;
	bool busy[MAX_ENGINES], same;
	struct vt_dev_mem m;
	int waited, c;

	for (waited = 0;; waited += 20) {
		vt_dev_mem_dir(b->dir, &m);
		c = count_contexts(b->dir);
		n = read_engines(b->dir, ctxs, busy);
		same = vt_dev_mem_equal(&m, &b->mem) && c == b->contexts && n == b->nengines;
		for (i = 0; same && i < n; i++)
			same = ctxs[i] == b->engine_ctxs[i] && !busy[i];
		if (same)
			return;
		if (waited >= SETTLE_MS)
			break;
		usleep(20000);
	}
	for (i = 0; i < n && i < b->nengines; i++)
		if (ctxs[i] != b->engine_ctxs[i] || busy[i])
			fprintf(stderr, "engine %u: %s, %u contexts (was %u)\n", i,
				busy[i] ? "busy" : "idle", ctxs[i], b->engine_ctxs[i]);
	vtest_fail(__FILE__, __LINE__,
		   "after %d ms: bo_count %lld (was %lld), bo_bytes %lld (%lld), vms %lld "
		   "(%lld), pt_pages %lld (%lld), contexts %d (%d)", waited, m.bo_count,
		   b->mem.bo_count, m.bo_bytes, b->mem.bo_bytes, m.vms, b->mem.vms,
		   m.pt_pages, b->mem.pt_pages, c, b->contexts);
}

/* Waits for binary syncobj @h for up to STRESS_TIMEOUT_MS. */
static void stress_wait(int fd, __u32 h, const char *what, unsigned int n)
{
	int r = vt_syncobj_wait_ms(fd, h, STRESS_TIMEOUT_MS);

	if (r)
		vtest_fail(__FILE__, __LINE__, "%s %u: not signalled: %s", what, n,
			   strerror(-r));
}

static void expect_ctx_done(int fd, __u32 ctx, __u64 jobs)
{
	struct drm_vaccel_context_state s = vt_ctx_state(fd, ctx);

	if (s.jobs_submitted != jobs || s.jobs_completed != jobs)
		vtest_fail(__FILE__, __LINE__, "context %u: %llu submitted, %llu completed, "
			   "expected %llu", ctx, (unsigned long long)s.jobs_submitted,
			   (unsigned long long)s.jobs_completed, (unsigned long long)jobs);
	vt_expect_not_faulted(fd, ctx);
}

/* The value job @i of context @c of process @p writes. */
static __u32 value_of(unsigned int p, unsigned int c, unsigned int i)
{
	return 0x80000000u | (p << 24) | (c << 16) | i;
}

/* The words of [@from, @to) of @bo hold zero: nothing wrote there. */
static void expect_zero(const struct vt_bo *bo, __u64 from, __u64 to, unsigned int c)
{
	__u64 off;

	for (off = from; off < to; off += 4)
		if (VT_U32(bo, off))
			vtest_fail(__FILE__, __LINE__,
				   "context %u: stray 0x%08x at offset %llu of its results",
				   c, VT_U32(bo, off), (unsigned long long)off);
}

/*
 * Stores @value at @va: WRITE_IMM on a COMPUTE context, a 4-byte FILL on
 * the COPY one (the uapi promises COPY engines copy, fill and
 * synchronisation packets only).
 */
static void put32(struct vt_cmd *cmd, unsigned int c, __u64 va, __u32 value)
{
	if (c < 2)
		vt_pkt_write32(cmd, va, value);
	else
		vt_pkt_fill(cmd, va, 4, value);
}

static __u32 ctx_for(int fd, unsigned int c)
{
	return vt_ctx_create(fd, c < 2 ? COMPUTE : COPY, DRM_VACCEL_ENGINE_ANY);
}

/* Blocks until the parent closes the start pipe. */
static void wait_start(int go)
{
	char byte;

	VT_ASSERT_EQ(read(go, &byte, 1), 0);
}

/* Runs PROCS children of @fn, started together; each must exit 0. */
static void run_procs(void (*fn)(unsigned int p, int go), const char *what,
		      unsigned int jobs)
{
	pid_t pid[PROCS];
	int go[2];
	unsigned int p;
	__u64 t;

	VT_ASSERT_EQ(pipe(go), 0);
	for (p = 0; p < PROCS; p++) {
		pid[p] = fork();
		if (pid[p] == 0) {
			close(go[1]);
			fn(p, go[0]);
			_exit(0);
		}
		VT_ASSERT(pid[p] > 0);
	}
	close(go[0]);
	t = vt_now_ns();
	close(go[1]);		/* all start */
	for (p = 0; p < PROCS; p++)
		vt_wait_child(pid[p]);
	t = vt_now_ns() - t;
	printf("# %s: %u jobs in %llu ms\n", what, jobs, (unsigned long long)(t / VT_MS));
}

/* --- independent jobs --- */

#define SLOT_B		VT_PAGE		/* second slot of job i: SLOT_B + 4 * i */
#define RES_SIZE	(2 * VT_PAGE)

static void independent_child(unsigned int p, int go)
{
	struct vt_dev d = vt_dev_open();
	struct vt_cmd cmd = vt_cmd_new(&d, 128 * VT_KIB);
	struct vt_bo res[CTXS];
	__u32 ctx[CTXS], outs[CTXS][JOBS / SIGNAL_EVERY + 1];
	unsigned int nouts[CTXS] = { 0 }, c, i, k;
	int fd = d.fd;

	VT_REQUIRE_ENGINES(&d, COPY, 1);
	VT_ASSERT(4 * JOBS <= SLOT_B);
	for (c = 0; c < CTXS; c++) {
		res[c] = vt_bo_new(&d, RES_SIZE);
		ctx[c] = ctx_for(fd, c);
		for (k = 0; k < ARRAY_SIZE(outs[c]); k++)
			outs[c][k] = vt_syncobj(fd);
	}
	wait_start(go);

	for (i = 0; i < JOBS; i++) {
		for (c = 0; c < CTXS; c++) {
			bool sig = i % SIGNAL_EVERY == SIGNAL_EVERY - 1 || i == JOBS - 1;
			__u32 out = 0;

			put32(&cmd, c, res[c].va + 4 * i, value_of(p, c, i));
			vt_pkt_copy(&cmd, res[c].va + 4 * i, res[c].va + SLOT_B + 4 * i, 4);
			if (sig) {
				VT_ASSERT(nouts[c] < ARRAY_SIZE(outs[c]));
				out = outs[c][nouts[c]++];
			}
			vt_submit(fd, ctx[c], &cmd, 0, out);
		}
	}
	for (c = 0; c < CTXS; c++)
		stress_wait(fd, outs[c][nouts[c] - 1], "last job of context", c);

	for (c = 0; c < CTXS; c++) {
		for (k = 0; k < nouts[c]; k++) {
			int st = vt_fence_status(fd, outs[c][k]);

			if (st != 1)
				vtest_fail(__FILE__, __LINE__,
					   "process %u context %u out-fence %u: status %d",
					   p, c, k, st);
		}
		for (i = 0; i < JOBS; i++) {
			__u32 want = value_of(p, c, i);

			if (VT_U32(&res[c], 4 * i) != want ||
			    VT_U32(&res[c], SLOT_B + 4 * i) != want)
				vtest_fail(__FILE__, __LINE__,
					   "process %u context %u job %u: 0x%08x and 0x%08x, "
					   "expected 0x%08x", p, c, i, VT_U32(&res[c], 4 * i),
					   VT_U32(&res[c], SLOT_B + 4 * i), want);
		}
		expect_zero(&res[c], 4 * JOBS, SLOT_B, c);
		expect_zero(&res[c], SLOT_B + 4 * JOBS, RES_SIZE, c);
		expect_ctx_done(fd, ctx[c], JOBS);
	}
}

VTEST(independent_jobs)
{
	struct baseline b;

	baseline_take(&b);
	run_procs(independent_child, "independent_jobs", PROCS * CTXS * JOBS);
	baseline_expect(&b);
}

/* --- a pipeline across contexts --- */

/* Job i's slots: A (written), B (copied by context 1), C (by context 2). */
#define PIPE_A		0
#define PIPE_B		VT_PAGE
#define PIPE_C		(2 * VT_PAGE)
#define PIPE_SIZE	(3 * VT_PAGE)

static void pipeline_child(unsigned int p, int go)
{
	struct vt_dev d = vt_dev_open();
	struct vt_cmd cmd = vt_cmd_new(&d, 128 * VT_KIB);
	struct vt_bo res = vt_bo_new(&d, PIPE_SIZE);
	__u32 ctx[CTXS], tl[2], out;
	unsigned int c, i;
	int fd = d.fd, st;

	VT_REQUIRE_ENGINES(&d, COPY, 1);
	VT_ASSERT(4 * PIPE_JOBS <= VT_PAGE);
	for (c = 0; c < CTXS; c++)
		ctx[c] = ctx_for(fd, c);
	tl[0] = vt_syncobj(fd);
	tl[1] = vt_syncobj(fd);
	out = vt_syncobj(fd);
	wait_start(go);

	for (i = 0; i < PIPE_JOBS; i++) {
		struct drm_vaccel_sync s0 = { .handle = tl[0], .point = i + 1 };
		struct drm_vaccel_sync s1 = { .handle = tl[1], .point = i + 1 };
		struct drm_vaccel_sync so = { .handle = out };

		vt_pkt_write32(&cmd, res.va + PIPE_A + 4 * i, value_of(p, 0, i));
		vt_submit_syncs(fd, ctx[0], &cmd, NULL, 0, &s0, 1);
		vt_pkt_copy(&cmd, res.va + PIPE_A + 4 * i, res.va + PIPE_B + 4 * i, 4);
		vt_submit_syncs(fd, ctx[1], &cmd, &s0, 1, &s1, 1);
		vt_pkt_copy(&cmd, res.va + PIPE_B + 4 * i, res.va + PIPE_C + 4 * i, 4);
		vt_submit_syncs(fd, ctx[2], &cmd, &s1, 1, &so, i == PIPE_JOBS - 1 ? 1 : 0);
	}
	stress_wait(fd, out, "last job of process", p);

	st = vt_fence_status(fd, out);
	if (st != 1)
		vtest_fail(__FILE__, __LINE__, "process %u: last job status %d", p, st);
	/* The last job of the last context waited, through them, for all the others. */
	VT_ASSERT_EQ(vt_timeline_point(fd, tl[0]), PIPE_JOBS);
	VT_ASSERT_EQ(vt_timeline_point(fd, tl[1]), PIPE_JOBS);
	for (i = 0; i < PIPE_JOBS; i++) {
		__u32 want = value_of(p, 0, i);

		if (VT_U32(&res, PIPE_A + 4 * i) != want ||
		    VT_U32(&res, PIPE_B + 4 * i) != want ||
		    VT_U32(&res, PIPE_C + 4 * i) != want)
			vtest_fail(__FILE__, __LINE__,
				   "process %u job %u: 0x%08x, 0x%08x, 0x%08x; expected 0x%08x",
				   p, i, VT_U32(&res, PIPE_A + 4 * i),
				   VT_U32(&res, PIPE_B + 4 * i), VT_U32(&res, PIPE_C + 4 * i),
				   want);
	}
	expect_zero(&res, PIPE_A + 4 * PIPE_JOBS, PIPE_B, 0);
	expect_zero(&res, PIPE_B + 4 * PIPE_JOBS, PIPE_C, 1);
	expect_zero(&res, PIPE_C + 4 * PIPE_JOBS, PIPE_SIZE, 2);
	for (c = 0; c < CTXS; c++)
		expect_ctx_done(fd, ctx[c], PIPE_JOBS);
}

VTEST(pipeline)
{
	struct baseline b;

	baseline_take(&b);
	run_procs(pipeline_child, "pipeline", PROCS * CTXS * PIPE_JOBS);
	baseline_expect(&b);
}

VTEST_MAIN()
