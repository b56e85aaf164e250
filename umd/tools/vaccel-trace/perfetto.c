// SPDX-License-Identifier: MIT
/*
 * perfetto.c - the timeline as a JSON trace that the Perfetto UI (and
 * chrome://tracing) opens: the Trace Event Format.
 *
 * Each device is a process, each track a thread of it, named and ordered
 * by metadata events.  A buffer's run is a complete event ("X") on its
 * engine's thread and on its context's; a workgroup nests inside it.
 * Submissions are zero-length complete events on the context's thread,
 * with a flow ("s" then "f", bound to the enclosing slices) to the
 * buffer's first run.  Preemptions, faults, hangs, resets, bans, binds
 * and TLB invalidations are instant events ("i", thread scope); queue
 * depths are counters ("C").  Times are microseconds with nanosecond
 * decimals, from the first event.  The raw events of gpu_scheduler and
 * dma_fence go along as instant events on a thread of their own per CPU,
 * so nothing recorded is lost to the viewer.  The writer is the tools'
 * (json.h), in its compact layout: an event a line.
 */
#include <errno.h>
#include <string.h>

#include "../json.h"
#include "trace.h"

/* An event's common members: phase, name, category, process, thread, time. */
static void vt_event(struct json *j, const struct vt_timeline *tl, const char *ph,
		     const char *name, const char *cat, int pid, int tid, uint64_t ts)
{
	json_open(j, NULL, '{');
	json_str(j, "ph", ph);
	if (!strcmp(ph, "i"))
		json_str(j, "s", "t");
	if (name)
		json_str(j, "name", name);
	if (cat)
		json_str(j, "cat", cat);
	json_i64(j, "pid", pid);
	if (tid >= 0)
		json_i64(j, "tid", tid);
	json_ns_as_us(j, "ts", ts >= tl->t0 ? ts - tl->t0 : 0);
}

/* A metadata event: @what of the process @pid or its thread @tid. */
static void vt_meta(struct json *j, const char *what, int pid, int tid, const char *key,
		    const char *str, int num)
{
	json_open(j, NULL, '{');
	json_str(j, "ph", "M");
	json_str(j, "name", what);
	json_i64(j, "pid", pid);
	json_i64(j, "tid", tid);
	json_open(j, "args", '{');
	if (str)
		json_str(j, key, str);
	else
		json_i64(j, key, num);
	json_close(j, '}');
	json_close(j, '}');
}

static void vt_write_meta(struct json *j, const struct vt_timeline *tl)
{
	int last_pid = -1;
	char name[32];
	size_t i;

	for (i = 0; i < tl->ntracks; i++) {
		const struct vt_track *t = &tl->tracks[i];

		if (t->pid != last_pid) {
			snprintf(name, sizeof(name), "vaccel%u", t->dev);
			vt_meta(j, "process_name", t->pid, 0, "name", name, 0);
			last_pid = t->pid;
		}
		vt_meta(j, "thread_name", t->pid, t->tid, "name", t->name, 0);
		vt_meta(j, "thread_sort_index", t->pid, t->tid, "sort_index", NULL, t->sort);
	}
}

/* gpu_scheduler's and dma_fence's events, as instants per CPU. */
static void vt_write_raw(struct json *j, const struct vt_timeline *tl,
			 const struct vt_events *ev)
{
	uint32_t cpus_named[64] = {};
	char name[32];
	size_t i;
	unsigned int k;

	for (i = 0; i < ev->n; i++) {
		const struct vt_event *e = &ev->v[i];
		int tid = 1000000 + (int)e->cpu;

		if (!strncmp(e->name, "vaccel:", 7))
			continue;
		if (e->cpu < 64 * 32 && !(cpus_named[e->cpu / 32] & (1u << (e->cpu % 32)))) {
			cpus_named[e->cpu / 32] |= 1u << (e->cpu % 32);
			vt_meta(j, "process_name", 0, 0, "name",
				"kernel (gpu_scheduler, dma_fence)", 0);
			snprintf(name, sizeof(name), "cpu %u", e->cpu);
			vt_meta(j, "thread_name", 0, tid, "name", name, 0);
		}
		vt_event(j, tl, "i", strchr(e->name, ':') + 1, e->name, 0, tid, e->ts);
		json_open(j, "args", '{');
		json_i64(j, "pid", e->pid);
		for (k = 0; k < e->nfields; k++) {
			if (e->fields[k].str)
				json_str(j, e->fields[k].key, e->fields[k].str);
			else
				json_i64(j, e->fields[k].key, e->fields[k].num);
		}
		json_close(j, '}');
		json_close(j, '}');
	}
}

/* A flow's end at the start of slice @s: "s" leaves it, "f" arrives. */
static void vt_flow(struct json *j, const struct vt_timeline *tl, const char *ph,
		    uint64_t id, const struct vt_track *t, uint64_t ts)
{
	json_open(j, NULL, '{');
	json_str(j, "ph", ph);
	if (!strcmp(ph, "f"))
		json_str(j, "bp", "e");
	json_str(j, "name", "submit");
	json_str(j, "cat", "flow");
	json_u64(j, "id", id);
	json_i64(j, "pid", t->pid);
	json_i64(j, "tid", t->tid);
	json_ns_as_us(j, "ts", ts >= tl->t0 ? ts - tl->t0 : 0);
	json_close(j, '}');
}

/* The model's arguments of an event: JSON members it wrote as it read them. */
static void vt_args(struct json *j, const char *members)
{
	json_open(j, "args", '{');
	json_members(j, members);
	json_close(j, '}');
}

int vt_write_perfetto(const struct vt_timeline *tl, const struct vt_events *ev,
		      FILE *f)
{
	struct json j;
	size_t i;

	json_init(&j, f, true);
	json_open(&j, NULL, '{');
	json_str(&j, "displayTimeUnit", "ns");
	json_open(&j, "otherData", '{');
	json_str(&j, "generator", "vaccel-trace");
	json_u64(&j, "lost_events", ev->lost);
	json_close(&j, '}');
	json_open(&j, "traceEvents", '[');
	vt_write_meta(&j, tl);
	for (i = 0; i < tl->nslices; i++) {
		const struct vt_slice *s = &tl->slices[i];
		const struct vt_track *t = &tl->tracks[s->track];

		vt_event(&j, tl, "X", s->name, s->depth ? "workgroup" : "buffer", t->pid,
			 t->tid, s->start);
		json_ns_as_us(&j, "dur", s->end - s->start);
		vt_args(&j, s->args);
		json_close(&j, '}');
		if (s->flow_out)
			vt_flow(&j, tl, "s", s->flow_out, t, s->start);
		if (s->flow_in)
			vt_flow(&j, tl, "f", s->flow_in, t, s->start);
	}
	for (i = 0; i < tl->ninstants; i++) {
		const struct vt_instant *in = &tl->instants[i];
		const struct vt_track *t = &tl->tracks[in->track];

		vt_event(&j, tl, "i", in->name, vt_instant_kind_name(in->kind), t->pid, t->tid,
			 in->ts);
		vt_args(&j, in->args);
		json_close(&j, '}');
	}
	for (i = 0; i < tl->ncounters; i++) {
		const struct vt_counter *c = &tl->counters[i];

		vt_event(&j, tl, "C", c->name, NULL, tl->tracks[c->track].pid, -1, c->ts);
		json_open(&j, "args", '{');
		json_i64(&j, "value", c->value);
		json_close(&j, '}');
		json_close(&j, '}');
	}
	vt_write_raw(&j, tl, ev);
	json_close(&j, ']');
	json_close(&j, '}');
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}
