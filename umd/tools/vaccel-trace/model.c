// SPDX-License-Identifier: MIT
/*
 * model.c - the timeline vaccel-trace draws, built from the events.
 *
 * One pass over the events in time order.  Tracks, per device:
 *
 * - an engine track: each run of a buffer on the engine as a slice, from
 *   vaccel_job_start to its preemption, hang or end (vaccel_job_done), the
 *   workgroups of a DISPATCH as slices nested in it; preemptions, faults,
 *   hangs and resets as instants;
 * - one track per slot of the engine's HW queue: which buffer sat in it,
 *   from vaccel_hw_queue, whose depth is also a counter;
 * - one track per context: the same runs, seen from the context, the
 *   submission of each buffer as a zero-length slice from which a flow
 *   goes to the buffer's first run, and the context's faults, bans and
 *   cancellations; its buffers in flight (submitted, not done) a counter;
 * - a memory track: VM_BIND operations and TLB invalidations.
 *
 * A buffer is known by its context and its finished fence's seqno, as
 * every vaccel event names it.  Events of contexts created before the
 * recording began still land on a track, named by the number alone.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <drm/vaccel_accel.h>

#include "trace.h"

#define VT_SLOTS	2

struct vt_mctx {
	uint32_t dev, id, engine;
	int64_t priority;
	int64_t pid;
	char comm[20];
	bool named;
	unsigned int track;
	int64_t inflight;
};

struct vt_mengine {
	uint32_t dev, index;
	char name[32];
	unsigned int track;
	unsigned int slot_track[VT_SLOTS];
	uint32_t slot_ctx[VT_SLOTS];
	uint64_t slot_seqno[VT_SLOTS];
	long slot_slice[VT_SLOTS];	/* open residency slice, or -1 */
};

struct vt_mdev {
	uint32_t dev;
	unsigned int memory_track;
};

struct vt_mjob {
	uint32_t dev, ctx;
	uint64_t seqno;
	bool used;
	bool started;		/* ran at least once */
	long run;		/* open run slice on the engine track, or -1 */
	long ctx_run;		/* the same on the context's track */
	long wg;		/* open workgroup slice, or -1 */
	uint64_t wg_index;
	uint64_t flow;
};

struct vt_model {
	struct vt_timeline *tl;
	struct vt_mctx *ctxs;
	size_t nctxs;
	struct vt_mengine *engines;
	size_t nengines;
	struct vt_mdev *devs;
	size_t ndevs;
	struct vt_mjob *jobs;	/* open addressing, @cap_jobs a power of 2 */
	size_t njobs, cap_jobs;
	uint64_t next_flow;
};

static void *vt_grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 256;
	p = realloc(p, *cap * size);
	if (!p) {
		fprintf(stderr, "vaccel-trace: out of memory\n");
		exit(2);
	}
	return p;
}

static unsigned int vt_track_new(struct vt_model *m, enum vt_track_kind kind,
				 uint32_t dev)
{
	struct vt_timeline *tl = m->tl;
	struct vt_track *t;

	tl->tracks = realloc(tl->tracks, (tl->ntracks + 1) * sizeof(*tl->tracks));
	if (!tl->tracks) {
		fprintf(stderr, "vaccel-trace: out of memory\n");
		exit(2);
	}
	t = &tl->tracks[tl->ntracks];
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->dev = dev;
	t->pid = (int)dev + 1;
	t->tid = (int)tl->ntracks + 1;
	return (unsigned int)tl->ntracks++;
}

static struct vt_mdev *vt_dev(struct vt_model *m, uint32_t dev)
{
	struct vt_mdev *d;
	size_t i;

	for (i = 0; i < m->ndevs; i++)
		if (m->devs[i].dev == dev)
			return &m->devs[i];
	m->devs = realloc(m->devs, (m->ndevs + 1) * sizeof(*m->devs));
	if (!m->devs)
		exit(2);
	d = &m->devs[m->ndevs++];
	d->dev = dev;
	d->memory_track = vt_track_new(m, VT_TRACK_MEMORY, dev);
	return d;
}

static struct vt_mengine *vt_engine(struct vt_model *m, uint32_t dev, uint32_t index)
{
	struct vt_mengine *e;
	size_t i;
	int s;

	for (i = 0; i < m->nengines; i++)
		if (m->engines[i].dev == dev && m->engines[i].index == index)
			return &m->engines[i];
	vt_dev(m, dev);
	m->engines = realloc(m->engines, (m->nengines + 1) * sizeof(*m->engines));
	if (!m->engines)
		exit(2);
	e = &m->engines[m->nengines++];
	memset(e, 0, sizeof(*e));
	e->dev = dev;
	e->index = index;
	e->track = vt_track_new(m, VT_TRACK_ENGINE, dev);
	m->tl->tracks[e->track].engine = index;
	for (s = 0; s < VT_SLOTS; s++) {
		e->slot_track[s] = vt_track_new(m, VT_TRACK_SLOT, dev);
		m->tl->tracks[e->slot_track[s]].engine = index;
		m->tl->tracks[e->slot_track[s]].slot = s;
		e->slot_slice[s] = -1;
	}
	return e;
}

static struct vt_mctx *vt_ctx(struct vt_model *m, uint32_t dev, uint32_t id,
			      uint32_t engine)
{
	struct vt_mctx *c;
	size_t i;

	for (i = m->nctxs; i-- > 0;)
		if (m->ctxs[i].dev == dev && m->ctxs[i].id == id)
			return &m->ctxs[i];
	vt_engine(m, dev, engine);
	m->ctxs = realloc(m->ctxs, (m->nctxs + 1) * sizeof(*m->ctxs));
	if (!m->ctxs)
		exit(2);
	c = &m->ctxs[m->nctxs++];
	memset(c, 0, sizeof(*c));
	c->dev = dev;
	c->id = id;
	c->engine = engine;
	c->priority = -1;
	c->track = vt_track_new(m, VT_TRACK_CONTEXT, dev);
	m->tl->tracks[c->track].ctx = id;
	m->tl->tracks[c->track].engine = engine;
	return c;
}

static uint64_t vt_job_hash(uint32_t dev, uint32_t ctx, uint64_t seqno)
{
	uint64_t h = 1469598103934665603ULL;

	h = (h ^ dev) * 1099511628211ULL;
	h = (h ^ ctx) * 1099511628211ULL;
	h = (h ^ seqno) * 1099511628211ULL;
	return h ^ (h >> 29);
}

static struct vt_mjob *vt_job(struct vt_model *m, uint32_t dev, uint32_t ctx,
			      uint64_t seqno)
{
	size_t i;

	if (2 * (m->njobs + 1) > m->cap_jobs) {
		struct vt_mjob *old = m->jobs;
		size_t oldcap = m->cap_jobs, j;

		m->cap_jobs = oldcap ? 2 * oldcap : 1024;
		m->jobs = calloc(m->cap_jobs, sizeof(*m->jobs));
		if (!m->jobs)
			exit(2);
		m->njobs = 0;
		for (j = 0; j < oldcap; j++) {
			if (!old[j].used)
				continue;
			i = vt_job_hash(old[j].dev, old[j].ctx, old[j].seqno) & (m->cap_jobs - 1);
			while (m->jobs[i].used)
				i = (i + 1) & (m->cap_jobs - 1);
			m->jobs[i] = old[j];
			m->njobs++;
		}
		free(old);
	}
	i = vt_job_hash(dev, ctx, seqno) & (m->cap_jobs - 1);
	while (m->jobs[i].used) {
		struct vt_mjob *j = &m->jobs[i];

		if (j->dev == dev && j->ctx == ctx && j->seqno == seqno)
			return j;
		i = (i + 1) & (m->cap_jobs - 1);
	}
	m->jobs[i] = (struct vt_mjob){ .dev = dev, .ctx = ctx, .seqno = seqno,
				       .used = true, .run = -1, .ctx_run = -1,
				       .wg = -1 };
	m->njobs++;
	return &m->jobs[i];
}

static long vt_slice_open(struct vt_model *m, unsigned int track, unsigned int depth,
			  uint64_t ts, uint32_t ctx, const char *name)
{
	struct vt_timeline *tl = m->tl;
	struct vt_slice *s;

	tl->slices = vt_grow(tl->slices, &tl->cap_slices, tl->nslices, sizeof(*s));
	s = &tl->slices[tl->nslices];
	memset(s, 0, sizeof(*s));
	s->track = track;
	s->depth = depth;
	s->start = ts;
	s->end = UINT64_MAX;
	s->ctx = ctx;
	snprintf(s->name, sizeof(s->name), "%s", name);
	return (long)tl->nslices++;
}

static void vt_slice_close(struct vt_model *m, long *idx, uint64_t ts)
{
	if (*idx < 0)
		return;
	m->tl->slices[*idx].end = ts;
	*idx = -1;
}

static void vt_instant(struct vt_model *m, unsigned int track,
		       enum vt_instant_kind kind, uint64_t ts, const char *args,
		       const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void vt_instant(struct vt_model *m, unsigned int track,
		       enum vt_instant_kind kind, uint64_t ts, const char *args,
		       const char *fmt, ...)
{
	struct vt_timeline *tl = m->tl;
	struct vt_instant *in;
	va_list ap;

	tl->instants = vt_grow(tl->instants, &tl->cap_instants, tl->ninstants,
			       sizeof(*in));
	in = &tl->instants[tl->ninstants++];
	memset(in, 0, sizeof(*in));
	in->track = track;
	in->kind = kind;
	in->ts = ts;
	snprintf(in->args, sizeof(in->args), "%s", args ? args : "");
	va_start(ap, fmt);
	vsnprintf(in->name, sizeof(in->name), fmt, ap);
	va_end(ap);
}

static void vt_counter(struct vt_model *m, unsigned int track, uint64_t ts,
		       int64_t value, const char *name)
{
	struct vt_timeline *tl = m->tl;
	struct vt_counter *c;

	tl->counters = vt_grow(tl->counters, &tl->cap_counters, tl->ncounters,
			       sizeof(*c));
	c = &tl->counters[tl->ncounters++];
	c->track = track;
	c->ts = ts;
	c->value = value;
	snprintf(c->name, sizeof(c->name), "%s", name);
}

static const char *const vt_preempt_reasons[] = {
	"none", "priority", "slice", "starvation", "forced", "reset",
};

static const char *const vt_granularities[] = {
	"dma-buffer", "packet", "workgroup", "instruction",
};

static const char *const vt_fault_reasons[] = {
	"none", "unmapped", "out-of-range", "permission", "malformed",
	"illegal-instruction", "compressed", "misaligned", "csr", "trap",
};

static const char *const vt_accesses[] = { "read", "write", "exec" };

static const char *const vt_ban_reasons[] = {
	"none", "fault", "hang", "time-limit",
};

#define VT_NAME(table, i)						\
	((uint64_t)(i) < sizeof(table) / sizeof((table)[0]) ? (table)[i] : "unknown")

/* Job identity of a vaccel event: dev, ctx, engine, seqno. */
struct vt_jid {
	uint32_t dev, ctx, engine;
	uint64_t seqno;
};

static struct vt_jid vt_jid(const struct vt_event *e)
{
	return (struct vt_jid){
		.dev = (uint32_t)vt_get(e, "dev"),
		.ctx = (uint32_t)vt_get(e, "ctx"),
		.engine = (uint32_t)vt_get(e, "engine"),
		.seqno = (uint64_t)vt_get(e, "seqno"),
	};
}

static void vt_on_context_create(struct vt_model *m, const struct vt_event *e)
{
	struct vt_jid id = vt_jid(e);
	struct vt_mctx *c = vt_ctx(m, id.dev, id.ctx, id.engine);
	struct vt_mengine *eng = vt_engine(m, id.dev, id.engine);
	const char *name = vt_str(e, "name"), *p;

	c->priority = vt_get(e, "priority");
	c->pid = vt_get(e, "pid");
	snprintf(c->comm, sizeof(c->comm), "%s", vt_str(e, "comm"));
	c->named = true;
	/* "vaccel<dev>-<engine>-c<id>": the engine's name is in the middle. */
	p = strchr(name, '-');
	if (p && !eng->name[0]) {
		const char *q = strrchr(p + 1, '-');
		size_t len = q ? (size_t)(q - p - 1) : strlen(p + 1);

		if (len >= sizeof(eng->name))
			len = sizeof(eng->name) - 1;
		memcpy(eng->name, p + 1, len);
		eng->name[len] = '\0';
	}
}

/* Appends a member to a JSON object's members. */
static void vt_args_add(char *args, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void vt_args_add(char *args, size_t size, const char *fmt, ...)
{
	size_t len = strlen(args);
	va_list ap;

	if (len && len + 2 < size) {
		memcpy(args + len, ", ", 3);
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(args + len, size - len, fmt, ap);
	va_end(ap);
}

static void vt_job_name(char *buf, size_t size, const struct vt_jid *id)
{
	snprintf(buf, size, "c%u #%" PRIu64, id->ctx, id->seqno);
}

static void vt_job_args(char *buf, size_t size, const struct vt_jid *id,
			const struct vt_event *e)
{
	snprintf(buf, size,
		 "\"ctx\": %u, \"seqno\": %" PRIu64 ", \"fence_context\": %" PRId64
		 ", \"start_offset\": %" PRId64 ", \"resumed\": %" PRId64,
		 id->ctx, id->seqno, vt_get(e, "fctx"), vt_get(e, "offset"),
		 vt_get(e, "resumed"));
}

static void vt_end_run(struct vt_model *m, struct vt_mjob *j, uint64_t ts,
		       const char *how)
{
	if (j->wg >= 0)
		vt_slice_close(m, &j->wg, ts);
	if (j->run >= 0) {
		struct vt_slice *s = &m->tl->slices[j->run];

		vt_args_add(s->args, sizeof(s->args), "\"ended\": \"%s\"", how);
		memcpy(m->tl->slices[j->ctx_run].args, s->args, sizeof(s->args));
	}
	vt_slice_close(m, &j->run, ts);
	vt_slice_close(m, &j->ctx_run, ts);
}

static void vt_on_job(struct vt_model *m, const struct vt_event *e, const char *ev)
{
	struct vt_timeline *tl = m->tl;
	struct vt_jid id = vt_jid(e);
	struct vt_mctx *c = vt_ctx(m, id.dev, id.ctx, id.engine);
	struct vt_mengine *eng = vt_engine(m, id.dev, id.engine);
	struct vt_mjob *j = vt_job(m, id.dev, id.ctx, id.seqno);
	char name[64], args[256];

	vt_job_name(name, sizeof(name), &id);
	if (!strcmp(ev, "job_submit")) {
		long s;

		s = vt_slice_open(m, c->track, 0, e->ts, id.ctx, "submit");
		snprintf(tl->slices[s].name, sizeof(tl->slices[s].name),
			 "submit c%u #%" PRIu64, id.ctx, id.seqno);
		snprintf(tl->slices[s].args, sizeof(tl->slices[s].args),
			 "\"ctx\": %u, \"seqno\": %" PRIu64 ", \"buffer_va\": %" PRId64
			 ", \"size\": %" PRId64 ", \"bind\": %" PRId64,
			 id.ctx, id.seqno, vt_get(e, "va"), vt_get(e, "size"),
			 vt_get(e, "bind"));
		tl->slices[s].end = e->ts;
		j->flow = tl->slices[s].flow_out = ++m->next_flow;
		c->inflight++;
		snprintf(name, sizeof(name), "c%u in flight", id.ctx);
		vt_counter(m, c->track, e->ts, c->inflight, name);
		tl->jobs++;
	} else if (!strcmp(ev, "job_start")) {
		vt_job_args(args, sizeof(args), &id, e);
		j->run = vt_slice_open(m, eng->track, 0, e->ts, id.ctx, name);
		j->ctx_run = vt_slice_open(m, c->track, 0, e->ts, id.ctx, name);
		snprintf(tl->slices[j->run].args, sizeof(tl->slices[j->run].args), "%s", args);
		snprintf(tl->slices[j->ctx_run].args, sizeof(tl->slices[j->ctx_run].args),
			 "%s", args);
		if (!j->started && j->flow)
			tl->slices[j->run].flow_in = j->flow;
		j->started = true;
		/* A workgroup stopped by a preemption goes on in this run. */
		if (j->wg_index) {
			j->wg = vt_slice_open(m, eng->track, 1, e->ts, id.ctx, "");
			snprintf(tl->slices[j->wg].name, sizeof(tl->slices[j->wg].name),
				 "workgroup %" PRIu64 " (resumed)", j->wg_index - 1);
			snprintf(tl->slices[j->wg].args, sizeof(tl->slices[j->wg].args),
				 "\"ctx\": %u, \"seqno\": %" PRIu64 ", \"workgroup\": %" PRIu64,
				 id.ctx, id.seqno, j->wg_index - 1);
		}
	} else if (!strcmp(ev, "job_preempt")) {
		int64_t reason = vt_get(e, "reason"), gran = vt_get(e, "granularity");

		snprintf(args, sizeof(args),
			 "\"ctx\": %u, \"seqno\": %" PRIu64 ", \"reason\": \"%s\", \"granularity\": \"%s\", \"resume_offset\": %" PRId64
			 ", \"progress\": %" PRId64 ", \"workgroup\": %" PRId64,
			 id.ctx, id.seqno, VT_NAME(vt_preempt_reasons, reason),
			 VT_NAME(vt_granularities, gran), vt_get(e, "offset"),
			 vt_get(e, "progress"), vt_get(e, "group"));
		vt_instant(m, eng->track, VT_I_PREEMPT, e->ts, args, "preempt %s (%s)",
			   name, VT_NAME(vt_preempt_reasons, reason));
		vt_end_run(m, j, e->ts, "preempted");
		tl->preemptions++;
	} else if (!strcmp(ev, "job_done")) {
		int64_t err = vt_get(e, "error");

		vt_end_run(m, j, e->ts, err ? "error" : "completed");
		if (err) {
			snprintf(args, sizeof(args), "\"ctx\": %u, \"seqno\": %" PRIu64
				 ", \"error\": %" PRId64, id.ctx, id.seqno, err);
			vt_instant(m, c->track, VT_I_CANCEL, e->ts, args, "%s error %" PRId64,
				   name, err);
		}
		if (c->inflight > 0)
			c->inflight--;
		snprintf(name, sizeof(name), "c%u in flight", id.ctx);
		vt_counter(m, c->track, e->ts, c->inflight, name);
	} else if (!strcmp(ev, "job_fault")) {
		int64_t reason = vt_get(e, "reason"), access = vt_get(e, "access");

		snprintf(args, sizeof(args),
			 "\"ctx\": %u, \"seqno\": %" PRIu64 ", \"reason\": \"%s\", \"access\": \"%s\", \"va\": \"0x%" PRIx64
			 "\", \"pc\": \"0x%" PRIx64 "\", \"offset\": %" PRId64,
			 id.ctx, id.seqno, VT_NAME(vt_fault_reasons, reason),
			 VT_NAME(vt_accesses, access), (uint64_t)vt_get(e, "va"),
			 (uint64_t)vt_get(e, "pc"), vt_get(e, "offset"));
		vt_instant(m, eng->track, VT_I_FAULT, e->ts, args, "fault %s (%s)", name,
			   VT_NAME(vt_fault_reasons, reason));
		vt_instant(m, c->track, VT_I_FAULT, e->ts, args, "fault %s (%s)", name,
			   VT_NAME(vt_fault_reasons, reason));
		tl->faults++;
	} else if (!strcmp(ev, "job_hang")) {
		snprintf(args, sizeof(args), "\"ctx\": %u, \"seqno\": %" PRIu64
			 ", \"offset\": %" PRId64 ", \"stalled_ns\": %" PRId64,
			 id.ctx, id.seqno, vt_get(e, "offset"), vt_get(e, "stalled_ns"));
		vt_instant(m, eng->track, VT_I_HANG, e->ts, args, "hang %s", name);
		tl->hangs++;
	} else if (!strcmp(ev, "dispatch_group")) {
		uint64_t g = (uint64_t)vt_get(e, "group");

		if (!vt_get(e, "finished")) {
			if (j->run >= 0) {
				vt_slice_close(m, &j->wg, e->ts);
				j->wg = vt_slice_open(m, eng->track, 1, e->ts, id.ctx, "");
				snprintf(tl->slices[j->wg].name, sizeof(tl->slices[j->wg].name),
					 "workgroup %" PRIu64, g);
				snprintf(tl->slices[j->wg].args, sizeof(tl->slices[j->wg].args),
					 "\"ctx\": %u, \"seqno\": %" PRIu64 ", \"workgroup\": %" PRIu64
					 ", \"workgroups\": %" PRId64, id.ctx, id.seqno, g,
					 vt_get(e, "groups"));
			}
			j->wg_index = g + 1;
		} else {
			if (j->wg >= 0)
				vt_args_add(tl->slices[j->wg].args,
					    sizeof(tl->slices[j->wg].args),
					    "\"slices\": %" PRId64, vt_get(e, "slices"));
			vt_slice_close(m, &j->wg, e->ts);
			j->wg_index = 0;
		}
	}
}

static void vt_on_hw_queue(struct vt_model *m, const struct vt_event *e)
{
	struct vt_jid id = vt_jid(e);
	struct vt_mengine *eng = vt_engine(m, id.dev, id.engine);
	char key[32], name[64];
	int s;

	for (s = 0; s < VT_SLOTS; s++) {
		uint32_t ctx;
		uint64_t seqno;

		snprintf(key, sizeof(key), "ctx[%d]", s);
		ctx = (uint32_t)vt_get(e, key);
		snprintf(key, sizeof(key), "seqno[%d]", s);
		seqno = (uint64_t)vt_get(e, key);
		if (ctx == eng->slot_ctx[s] && seqno == eng->slot_seqno[s])
			continue;
		vt_slice_close(m, &eng->slot_slice[s], e->ts);
		eng->slot_ctx[s] = ctx;
		eng->slot_seqno[s] = seqno;
		if (ctx) {
			snprintf(name, sizeof(name), "c%u #%" PRIu64, ctx, seqno);
			eng->slot_slice[s] = vt_slice_open(m, eng->slot_track[s], 0, e->ts,
							   ctx, name);
			snprintf(m->tl->slices[eng->slot_slice[s]].args,
				 sizeof(m->tl->slices[0].args),
				 "\"ctx\": %u, \"seqno\": %" PRIu64 ", \"slot\": %d",
				 ctx, seqno, s);
		}
	}
	snprintf(name, sizeof(name), "engine %u HW queue depth", id.engine);
	vt_counter(m, eng->track, e->ts, vt_get(e, "used"), name);
}

static void vt_on_event(struct vt_model *m, const struct vt_event *e)
{
	const char *ev;
	char args[256];

	if (strncmp(e->name, "vaccel:vaccel_", 14))
		return;
	ev = e->name + 14;
	if (!strcmp(ev, "context_create")) {
		vt_on_context_create(m, e);
	} else if (!strncmp(ev, "job_", 4) || !strcmp(ev, "dispatch_group")) {
		if (strcmp(ev, "job_run") && strcmp(ev, "job_hw_queue"))
			vt_on_job(m, e, ev);
		else
			vt_ctx(m, vt_jid(e).dev, vt_jid(e).ctx, vt_jid(e).engine);
	} else if (!strcmp(ev, "hw_queue")) {
		vt_on_hw_queue(m, e);
	} else if (!strcmp(ev, "context_ban")) {
		struct vt_jid id = vt_jid(e);
		struct vt_mctx *c = vt_ctx(m, id.dev, id.ctx, id.engine);
		int64_t reason = vt_get(e, "reason");

		snprintf(args, sizeof(args), "\"ctx\": %u, \"reason\": \"%s\"", id.ctx,
			 VT_NAME(vt_ban_reasons, reason));
		vt_instant(m, c->track, VT_I_BAN, e->ts, args, "c%u banned (%s)", id.ctx,
			   VT_NAME(vt_ban_reasons, reason));
	} else if (!strcmp(ev, "engine_reset")) {
		struct vt_jid id = vt_jid(e);
		struct vt_mengine *eng = vt_engine(m, id.dev, id.engine);

		snprintf(args, sizeof(args), "\"guilty_ctx\": %u, \"hang\": %" PRId64
			 ", \"resets\": %" PRId64, id.ctx, vt_get(e, "hang"),
			 vt_get(e, "resets"));
		vt_instant(m, eng->track, VT_I_RESET, e->ts, args, "engine reset%s",
			   vt_get(e, "hang") ? " (hang)" : "");
		m->tl->resets++;
	} else if (!strcmp(ev, "device_reset")) {
		struct vt_mdev *d = vt_dev(m, (uint32_t)vt_get(e, "dev"));

		snprintf(args, sizeof(args), "\"device_resets\": %" PRId64,
			 vt_get(e, "resets"));
		vt_instant(m, d->memory_track, VT_I_RESET, e->ts, args, "device reset");
	} else if (!strcmp(ev, "vm_bind")) {
		struct vt_mdev *d = vt_dev(m, (uint32_t)vt_get(e, "dev"));
		bool map = vt_get(e, "op") == DRM_VACCEL_VM_BIND_OP_MAP;

		snprintf(args, sizeof(args),
			 "\"client\": %" PRId64 ", \"va\": \"0x%" PRIx64 "\", \"size\": \"0x%" PRIx64
			 "\", \"paging_ctx\": %" PRId64 ", \"paging_seqno\": %" PRId64,
			 vt_get(e, "client"), (uint64_t)vt_get(e, "va"),
			 (uint64_t)vt_get(e, "size"), vt_get(e, "ctx"), vt_get(e, "seqno"));
		vt_instant(m, d->memory_track, VT_I_BIND, e->ts, args, "%s %s",
			   map ? "map" : "unmap", vt_get(e, "fctx") ? "async" : "sync");
	} else if (!strcmp(ev, "tlb_invalidate")) {
		struct vt_mdev *d = vt_dev(m, (uint32_t)vt_get(e, "dev"));

		snprintf(args, sizeof(args),
			 "\"client\": %" PRId64 ", \"va\": \"0x%" PRIx64 "\", \"size\": \"0x%" PRIx64
			 "\", \"tlbs\": %" PRId64, vt_get(e, "client"), (uint64_t)vt_get(e, "va"),
			 (uint64_t)vt_get(e, "size"), vt_get(e, "tlbs"));
		vt_instant(m, d->memory_track, VT_I_TLB, e->ts, args, "TLB invalidate");
	}
}

static const char *const vt_priorities[] = { "low", "normal", "high", "realtime" };

/* Names and orders the tracks, once every event is in. */
static void vt_finish_tracks(struct vt_model *m)
{
	struct vt_timeline *tl = m->tl;
	size_t i;
	int s;

	for (i = 0; i < m->nengines; i++) {
		struct vt_mengine *e = &m->engines[i];
		struct vt_track *t = &tl->tracks[e->track];

		if (!e->name[0])
			snprintf(e->name, sizeof(e->name), "engine %u", e->index);
		snprintf(t->name, sizeof(t->name), "%s", e->name);
		t->sort = (int)(e->dev * 1000000 + e->index * 100);
		for (s = 0; s < VT_SLOTS; s++) {
			t = &tl->tracks[e->slot_track[s]];
			snprintf(t->name, sizeof(t->name), "%s HW queue slot %d", e->name, s);
			t->sort = (int)(e->dev * 1000000 + e->index * 100 + 1 + s);
		}
	}
	for (i = 0; i < m->ndevs; i++) {
		struct vt_track *t = &tl->tracks[m->devs[i].memory_track];

		snprintf(t->name, sizeof(t->name), "memory (VM_BIND, TLB)");
		t->sort = (int)(m->devs[i].dev * 1000000 + 90000);
	}
	for (i = 0; i < m->nctxs; i++) {
		struct vt_mctx *c = &m->ctxs[i];
		struct vt_track *t = &tl->tracks[c->track];
		struct vt_mengine *e = vt_engine(m, c->dev, c->engine);

		if (c->named)
			snprintf(t->name, sizeof(t->name), "c%u %s %s[%" PRId64 "] %s",
				 c->id, e->name, c->comm, c->pid,
				 VT_NAME(vt_priorities, c->priority));
		else
			snprintf(t->name, sizeof(t->name), "c%u %s", c->id, e->name);
		t->sort = (int)(c->dev * 1000000 + 100000 + c->id);
	}
}

int vt_timeline_build(struct vt_timeline *tl, const struct vt_events *ev)
{
	struct vt_model m = { .tl = tl };
	size_t i;

	memset(tl, 0, sizeof(*tl));
	if (ev->n) {
		tl->t0 = ev->v[0].ts;
		tl->t1 = ev->v[ev->n - 1].ts;
	}
	for (i = 0; i < ev->n; i++)
		vt_on_event(&m, &ev->v[i]);
	/* What is still open at the end ends with the trace. */
	for (i = 0; i < tl->nslices; i++)
		if (tl->slices[i].end == UINT64_MAX)
			tl->slices[i].end = tl->t1;
	vt_finish_tracks(&m);
	free(m.ctxs);
	free(m.engines);
	free(m.devs);
	free(m.jobs);
	return 0;
}

void vt_timeline_free(struct vt_timeline *tl)
{
	free(tl->tracks);
	free(tl->slices);
	free(tl->instants);
	free(tl->counters);
	memset(tl, 0, sizeof(*tl));
}

const char *vt_instant_kind_name(enum vt_instant_kind kind)
{
	static const char *const names[VT_I_KINDS] = {
		[VT_I_SUBMIT] = "submit", [VT_I_PREEMPT] = "preemption",
		[VT_I_FAULT] = "fault", [VT_I_HANG] = "hang",
		[VT_I_RESET] = "reset", [VT_I_BAN] = "ban",
		[VT_I_CANCEL] = "error", [VT_I_BIND] = "bind",
		[VT_I_TLB] = "TLB invalidation",
	};

	return kind < VT_I_KINDS ? names[kind] : "unknown";
}
