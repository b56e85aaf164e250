// SPDX-License-Identifier: MIT
/*
 * test_trace.c - vaccel's trace events and vaccel-trace, end to end.
 *
 * vaccel-trace records a known scenario, which this program runs when
 * called with --scenario, on compute engine 0 of a load with a short hang
 * timeout:
 *
 *   1. a LOW context runs a 200 ms DELAY; once it started, a HIGH context
 *      submits a buffer, which preempts it;
 *   2. a context writes to an unmapped VA: a fault, the context banned;
 *   3. a context waits for memory that never changes: a hang, an engine
 *      reset, the context banned;
 *   4. a new context runs a buffer: the engine recovered.
 *
 * The cases read the events file vaccel-trace wrote and check that the
 * events are there, name the contexts and their fences, come in the order
 * of the scenario with consistent times, and that gpu_scheduler's and
 * dma_fence's events name the same contexts; that the JSON trace has the
 * shape of one (the host validates it fully, tests/host/trace_check.py,
 * from the copy the plan exports); and that vaccel-trace refuses bad
 * arguments and bad files with a message.
 *
 * Needs root (tracefs), the module loaded with timeout_ms=300, and
 * /vaccel/bin/vaccel-trace.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>

#include "vtest.h"
#include "vt_exec.h"

#define TRACE_DIR	"/tmp/vaccel-trace-test"
#define EVENTS		TRACE_DIR "/scenario.events"
#define JSON		TRACE_DIR "/scenario.json"
#define FACTS		TRACE_DIR "/scenario.facts"
#define TOOL		"/vaccel/bin/vaccel-trace"

#define COMPUTE		DRM_VACCEL_ENGINE_CLASS_COMPUTE

/* --- the scenario, run under vaccel-trace --- */

static int wait_status(int fd, __u32 out)
{
	int r = vt_syncobj_wait_ms(fd, out, 60000);

	if (r)
		return r;
	return vt_fence_status(fd, out);
}

static int scenario(void)
{
	struct vt_dev d = vt_dev_open();
	struct vt_cmd c = vt_cmd_new(&d, 16 * VT_PAGE);
	struct vt_bo data = vt_bo_new(&d, VT_PAGE);
	__u32 low = vt_ctx_create_prio(d.fd, COMPUTE, 0, DRM_VACCEL_PRIORITY_LOW);
	__u32 high = vt_ctx_create_prio(d.fd, COMPUTE, 0, DRM_VACCEL_PRIORITY_HIGH);
	__u32 faulty = vt_ctx_create(d.fd, COMPUTE, 0);
	__u32 hung = vt_ctx_create(d.fd, COMPUTE, 0);
	__u32 ol = vt_syncobj(d.fd), oh = vt_syncobj(d.fd), of = vt_syncobj(d.fd);
	__u32 og = vt_syncobj(d.fd), orec = vt_syncobj(d.fd), rec;
	__u64 hole = vt_va_hole(&d);
	FILE *f;

	/* 1. LOW, preempted by HIGH. */
	vt_pkt_write32(&c, data.va, 1);
	vt_pkt_delay(&c, 200 * VT_MS);
	vt_submit(d.fd, low, &c, 0, ol);
	if (!vt_poll_u32(VT_U32P(&data, 0), 1, 60000))
		return 10;
	vt_pkt_write32(&c, data.va + 8, 2);
	vt_submit(d.fd, high, &c, 0, oh);
	if (wait_status(d.fd, oh) != 1 || wait_status(d.fd, ol) != 1)
		return 11;

	/* 2. A fault. */
	vt_pkt_write32(&c, hole, 3);
	vt_submit(d.fd, faulty, &c, 0, of);
	if (wait_status(d.fd, of) != -EFAULT)
		return 12;

	/* 3. A hang. */
	vt_pkt_wait_eq32(&c, data.va + 16, 1);
	vt_submit(d.fd, hung, &c, 0, og);
	if (wait_status(d.fd, og) != -ETIMEDOUT)
		return 13;

	/* 4. The engine serves a new context. */
	rec = vt_ctx_create(d.fd, COMPUTE, 0);
	vt_pkt_write32(&c, data.va + 24, 4);
	vt_submit(d.fd, rec, &c, 0, orec);
	if (wait_status(d.fd, orec) != 1 || VT_U32(&data, 24) != 4)
		return 14;

	f = fopen(FACTS, "w");
	if (!f)
		return 15;
	fprintf(f, "pid=%d hole=%llu\n", (int)getpid(), (unsigned long long)hole);
	fclose(f);
	vt_dev_close(&d);
	return 0;
}

/* --- reading the events file --- */

struct ev {
	unsigned long long ts;
	int pid;
	char name[64];
	char *fields;		/* " key=value key=value ..." */
};

struct evs {
	struct ev *v;
	int n;
};

static void evs_read(struct evs *e, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	if (!f)
		vtest_fail(__FILE__, __LINE__, "%s: %s", path, strerror(errno));
	memset(e, 0, sizeof(*e));
	while ((len = getline(&line, &cap, f)) > 0) {
		struct ev *x;
		unsigned int cpu;
		int n = 0;

		if (line[0] == '#')
			continue;
		line[len - 1] = '\0';
		e->v = realloc(e->v, (e->n + 1) * sizeof(*e->v));
		VT_ASSERT(e->v);
		x = &e->v[e->n];
		if (sscanf(line, "%llu %u %d %63s%n", &x->ts, &cpu, &x->pid, x->name, &n) != 4)
			vtest_fail(__FILE__, __LINE__, "malformed event line '%s'", line);
		x->fields = strdup(line + n);
		e->n++;
	}
	free(line);
	fclose(f);
}

/* The number field @key of @x; fails the case if it has none. */
static long long num(const struct ev *x, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(x->fields, pat);
	if (!p)
		vtest_fail(__FILE__, __LINE__, "%s has no field %s: '%s'", x->name, key,
			   x->fields);
	return strtoll(p + strlen(pat), NULL, 10);
}

/* The string field @key of @x, undecoded (no event here needs escapes). */
static void str(const struct ev *x, const char *key, char *buf, size_t size)
{
	char pat[64];
	const char *p, *q;

	snprintf(pat, sizeof(pat), " %s=\"", key);
	p = strstr(x->fields, pat);
	if (!p)
		vtest_fail(__FILE__, __LINE__, "%s has no field %s", x->name, key);
	p += strlen(pat);
	q = strchr(p, '"');
	VT_ASSERT(q && (size_t)(q - p) < size);
	memcpy(buf, p, q - p);
	buf[q - p] = '\0';
}

/* Index of the first event named @name of context @ctx at or after @from. */
static int find(const struct evs *e, int from, const char *name, long long ctx)
{
	int i;

	for (i = from; i < e->n; i++)
		if (!strcmp(e->v[i].name, name) &&
		    (ctx < 0 || num(&e->v[i], "ctx") == ctx))
			return i;
	return -1;
}

#define FIND(e, from, name, ctx)					\
	({								\
		int _i = find(e, from, name, ctx);			\
		if (_i < 0)						\
			vtest_fail(__FILE__, __LINE__, "no %s of ctx %lld after event %d", \
				   name, (long long)(ctx), from);	\
		_i;							\
	})

/* --- recording --- */

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

struct rec {
	struct evs e;
	int pid;
	unsigned long long hole;
	long long ctx[5];	/* low, high, faulty, hung, recovery */
};

static struct rec *recorded(void)
{
	static struct rec r;
	static bool done;
	FILE *f;
	int i, n = 0;

	if (done)
		return &r;
	mkdir(TRACE_DIR, 0755);
	unlink(EVENTS);
	VT_ASSERT_EQ(run(TOOL " record -q -b 2048 --events " EVENTS " -o " JSON
			 " -- /vaccel/bin/test_trace --scenario"), 0);
	f = fopen(FACTS, "r");
	VT_ASSERT(f);
	VT_ASSERT_EQ(fscanf(f, "pid=%d hole=%llu", &r.pid, &r.hole), 2);
	fclose(f);
	evs_read(&r.e, EVENTS);
	for (i = 0; i < r.e.n && n < 5; i++)
		if (!strcmp(r.e.v[i].name, "vaccel:vaccel_context_create") &&
		    num(&r.e.v[i], "pid") == r.pid)
			r.ctx[n++] = num(&r.e.v[i], "ctx");
	if (n != 5)
		vtest_fail(__FILE__, __LINE__, "%d contexts of the scenario created, not 5", n);
	done = true;
	return &r;
}

/* --- cases --- */

/*
 * The scenario's five contexts are named for their device, engine and
 * number, on the scheduler and the fences too, with their priority and
 * process; every event's time is within the recording, in order.
 */
VTEST(contexts_named_and_times_ordered)
{
	struct rec *r = recorded();
	char name[64], want[64], comm[32];
	int i;

	for (i = 0; i < 5; i++) {
		int c = FIND(&r->e, 0, "vaccel:vaccel_context_create", r->ctx[i]);

		str(&r->e.v[c], "name", name, sizeof(name));
		snprintf(want, sizeof(want), "vaccel0-compute0-c%lld", r->ctx[i]);
		if (strcmp(name, want))
			vtest_fail(__FILE__, __LINE__, "context named '%s', not '%s'", name, want);
		str(&r->e.v[c], "comm", comm, sizeof(comm));
		VT_ASSERT(!strcmp(comm, "test_trace"));
		VT_ASSERT(num(&r->e.v[c], "fctx") > 0);
	}
	VT_ASSERT_EQ(num(&r->e.v[FIND(&r->e, 0, "vaccel:vaccel_context_create", r->ctx[0])],
			 "priority"), DRM_VACCEL_PRIORITY_LOW);
	VT_ASSERT_EQ(num(&r->e.v[FIND(&r->e, 0, "vaccel:vaccel_context_create", r->ctx[1])],
			 "priority"), DRM_VACCEL_PRIORITY_HIGH);
	for (i = 1; i < r->e.n; i++)
		if (r->e.v[i].ts < r->e.v[i - 1].ts)
			vtest_fail(__FILE__, __LINE__, "event %d goes back in time", i);
}

/*
 * Each buffer's life in order: submitted, run (dependencies met), picked
 * into the HW queue, started, done; the same fence on each event.
 */
VTEST(buffer_life_in_order)
{
	struct rec *r = recorded();
	static const char *const life[] = {
		"vaccel:vaccel_job_submit", "vaccel:vaccel_job_run",
		"vaccel:vaccel_job_hw_queue", "vaccel:vaccel_job_start",
		"vaccel:vaccel_job_done",
	};
	int i, k;

	for (i = 0; i < 5; i++) {
		int at = FIND(&r->e, 0, life[0], r->ctx[i]);
		long long seqno = num(&r->e.v[at], "seqno"), fctx = num(&r->e.v[at], "fctx");

		VT_ASSERT(seqno >= 1);
		for (k = 1; k < 5; k++) {
			int next = FIND(&r->e, at, life[k], r->ctx[i]);

			VT_ASSERT_EQ(num(&r->e.v[next], "seqno"), seqno);
			VT_ASSERT_EQ(num(&r->e.v[next], "fctx"), fctx);
			VT_ASSERT(r->e.v[next].ts >= r->e.v[at].ts);
			at = next;
		}
	}
}

/*
 * LOW is preempted for priority once HIGH's buffer arrives, HIGH runs and
 * completes in between, and LOW resumes where it stopped and completes.
 */
VTEST(low_preempted_by_high)
{
	struct rec *r = recorded();
	int ls = FIND(&r->e, 0, "vaccel:vaccel_job_start", r->ctx[0]);
	int lp = FIND(&r->e, ls, "vaccel:vaccel_job_preempt", r->ctx[0]);
	int hs = FIND(&r->e, lp, "vaccel:vaccel_job_start", r->ctx[1]);
	int hd = FIND(&r->e, hs, "vaccel:vaccel_job_done", r->ctx[1]);
	int lr = FIND(&r->e, hd, "vaccel:vaccel_job_start", r->ctx[0]);
	int ld = FIND(&r->e, lr, "vaccel:vaccel_job_done", r->ctx[0]);

	VT_ASSERT_EQ(num(&r->e.v[lp], "reason"), 1);	/* priority */
	VT_ASSERT(num(&r->e.v[lp], "offset") > 0);	/* past the WRITE */
	VT_ASSERT_EQ(num(&r->e.v[ls], "resumed"), 0);
	VT_ASSERT_EQ(num(&r->e.v[lr], "resumed"), 1);
	VT_ASSERT_EQ(num(&r->e.v[lr], "offset"), num(&r->e.v[lp], "offset"));
	VT_ASSERT_EQ(num(&r->e.v[hd], "error"), 0);
	VT_ASSERT_EQ(num(&r->e.v[ld], "error"), 0);
	/* The DELAY's 200 ms of engine time, across the preemption. */
	VT_ASSERT(r->e.v[ld].ts - r->e.v[ls].ts >= 200ull * VT_MS);
}

/* The fault: its VA, reason and access, the ban, and the fence's error. */
VTEST(fault_recorded)
{
	struct rec *r = recorded();
	int fs = FIND(&r->e, 0, "vaccel:vaccel_job_start", r->ctx[2]);
	int ff = FIND(&r->e, fs, "vaccel:vaccel_job_fault", r->ctx[2]);
	int fb = FIND(&r->e, ff, "vaccel:vaccel_context_ban", r->ctx[2]);
	int fd = FIND(&r->e, fb, "vaccel:vaccel_job_done", r->ctx[2]);

	VT_ASSERT_EQ((unsigned long long)num(&r->e.v[ff], "va"), r->hole);
	VT_ASSERT_EQ(num(&r->e.v[ff], "reason"), DRM_VACCEL_FAULT_UNMAPPED);
	VT_ASSERT_EQ(num(&r->e.v[ff], "access"), DRM_VACCEL_ACCESS_WRITE);
	VT_ASSERT_EQ(num(&r->e.v[fb], "reason"), DRM_VACCEL_BAN_FAULT);
	VT_ASSERT_EQ(num(&r->e.v[fd], "error"), -EFAULT);
}

/*
 * The hang: detected after the timeout, the engine reset with the guilty
 * context named, the ban, -ETIMEDOUT; then the recovery context's buffer
 * runs on the same engine and completes.
 */
VTEST(hang_reset_and_recovery)
{
	struct rec *r = recorded();
	int hs = FIND(&r->e, 0, "vaccel:vaccel_job_start", r->ctx[3]);
	int hh = FIND(&r->e, hs, "vaccel:vaccel_job_hang", r->ctx[3]);
	int hr = FIND(&r->e, hh, "vaccel:vaccel_engine_reset", -1);
	int hd = FIND(&r->e, hh, "vaccel:vaccel_job_done", r->ctx[3]);
	int rs = FIND(&r->e, hr, "vaccel:vaccel_job_start", r->ctx[4]);
	int rd = FIND(&r->e, rs, "vaccel:vaccel_job_done", r->ctx[4]);

	VT_ASSERT(num(&r->e.v[hh], "stalled_ns") >= (long long)(300 * VT_MS));
	VT_ASSERT_EQ(num(&r->e.v[hr], "ctx"), r->ctx[3]);
	VT_ASSERT_EQ(num(&r->e.v[hr], "hang"), 1);
	VT_ASSERT_EQ(num(&r->e.v[hr], "engine"), num(&r->e.v[hs], "engine"));
	VT_ASSERT_EQ(num(&r->e.v[FIND(&r->e, hh, "vaccel:vaccel_context_ban", r->ctx[3])],
			 "reason"), DRM_VACCEL_BAN_HANG);
	VT_ASSERT_EQ(num(&r->e.v[hd], "error"), -ETIMEDOUT);
	VT_ASSERT_EQ(num(&r->e.v[rs], "engine"), num(&r->e.v[hs], "engine"));
	VT_ASSERT_EQ(num(&r->e.v[rd], "error"), 0);
}

/*
 * The HW queue's events: depth within the queue's, an empty slot 0 only
 * in an empty queue; every buffer of the scenario entered it.
 */
VTEST(hw_queue_events_consistent)
{
	struct rec *r = recorded();
	int i, snapshots = 0, entries = 0;

	for (i = 0; i < r->e.n; i++) {
		const struct ev *x = &r->e.v[i];

		if (!strcmp(x->name, "vaccel:vaccel_hw_queue")) {
			long long used = num(x, "used");

			VT_ASSERT(used >= 0 && used <= 2);
			if (used == 0)
				VT_ASSERT_EQ(num(x, "ctx[0]"), 0);
			else
				VT_ASSERT(num(x, "ctx[0]") > 0);
			snapshots++;
		} else if (!strcmp(x->name, "vaccel:vaccel_job_hw_queue")) {
			VT_ASSERT(num(x, "slot") < 2);
			entries++;
		}
	}
	/* Five buffers, each entering the HW queue once: LOW stays in it. */
	VT_ASSERT(snapshots >= 5);
	VT_ASSERT(entries >= 5);
}

/*
 * gpu_scheduler's and dma_fence's events name the same contexts: the
 * scheduler's name and the fences' timeline are the context's name.
 */
VTEST(scheduler_and_fence_events_join)
{
	struct rec *r = recorded();
	char want[64], got[64];
	int i, runs = 0, fences = 0;

	snprintf(want, sizeof(want), "vaccel0-compute0-c%lld", r->ctx[0]);
	for (i = 0; i < r->e.n; i++) {
		const struct ev *x = &r->e.v[i];

		if (!strcmp(x->name, "gpu_scheduler:drm_run_job")) {
			str(x, "name", got, sizeof(got));
			runs += !strcmp(got, want);
		} else if (!strcmp(x->name, "dma_fence:dma_fence_init")) {
			str(x, "timeline", got, sizeof(got));
			fences += !strcmp(got, want);
		}
	}
	if (!runs || !fences)
		vtest_fail(__FILE__, __LINE__, "%d drm_run_job and %d dma_fence_init name %s",
			   runs, fences, want);
}

/* The JSON trace: one object with its traceEvents, and the scenario in it. */
VTEST(json_trace_written)
{
	struct rec *r = recorded();
	char *text = vt_read_file(JSON), want[64];
	size_t len;

	VT_ASSERT(text);
	len = strlen(text);
	VT_ASSERT(len > 100);
	VT_ASSERT(!strncmp(text, "{\"displayTimeUnit\"", 18));
	VT_ASSERT(strstr(text, "\"traceEvents\": ["));
	VT_ASSERT(!strcmp(text + len - 3, "]}\n"));
	snprintf(want, sizeof(want), "\"c%lld #1\"", r->ctx[0]);
	VT_ASSERT(strstr(text, want));
	VT_ASSERT(strstr(text, "\"preempt c"));
	VT_ASSERT(strstr(text, "\"fault c"));
	VT_ASSERT(strstr(text, "\"hang c"));
	VT_ASSERT(strstr(text, "\"engine reset (hang)\""));
	free(text);
}

/* Recording for a duration, with nothing to run, works and is empty of jobs. */
VTEST(record_for_a_duration)
{
	VT_ASSERT_EQ(run(TOOL " record -q -b 256 -d 0.2 --no-fences --events " TRACE_DIR
			 "/idle.events -o " TRACE_DIR "/idle.json"), 0);
	VT_ASSERT_EQ(access(TRACE_DIR "/idle.json", R_OK), 0);
}

/* Bad arguments and bad files: a message and a failing status, no crash. */
VTEST(bad_input_refused)
{
	int fd;

	VT_ASSERT_EQ(run(TOOL " record --buffer-kb 1 -- true 2>/dev/null"), 2);
	VT_ASSERT_EQ(run(TOOL " record -d 1 -- true 2>/dev/null"), 2);
	VT_ASSERT_EQ(run(TOOL " frobnicate 2>/dev/null"), 2);
	VT_ASSERT_EQ(run(TOOL " convert /nonexistent -o /tmp/x.json 2>/dev/null"), 1);
	fd = open(TRACE_DIR "/garbage.events", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	VT_ASSERT(fd >= 0);
	VT_ASSERT(write(fd, "# vaccel-trace events 1\n12 0 1 x:y a=\"%zz\n", 40) == 40);
	close(fd);
	VT_ASSERT_EQ(run(TOOL " convert " TRACE_DIR "/garbage.events -o /tmp/x.json 2>/dev/null"),
		     1);
	/* The recorded command's own status comes back. */
	VT_ASSERT_EQ(run(TOOL " record -q -b 256 --no-fences -o /tmp/x.json -- sh -c 'exit 7'"), 7);
}

struct vtest_case vtest_cases[VTEST_MAX_CASES];
int vtest_ncases;

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--scenario"))
		return scenario();
	return vtest_main(argc, argv);
}
