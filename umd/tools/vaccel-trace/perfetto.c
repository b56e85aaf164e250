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
 * so nothing recorded is lost to the viewer.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "trace.h"

/* A JSON string body: escapes what JSON requires. */
static void vt_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void vt_ts(FILE *f, const struct vt_timeline *tl, uint64_t ts)
{
	uint64_t rel = ts >= tl->t0 ? ts - tl->t0 : 0;

	fprintf(f, "%" PRIu64 ".%03" PRIu64, rel / 1000, rel % 1000);
}

static void vt_sep(FILE *f, bool *first)
{
	if (!*first)
		fputs(",\n", f);
	*first = false;
}

static void vt_write_meta(FILE *f, const struct vt_timeline *tl, bool *first)
{
	int last_pid = -1;
	size_t i;

	for (i = 0; i < tl->ntracks; i++) {
		const struct vt_track *t = &tl->tracks[i];

		if (t->pid != last_pid) {
			vt_sep(f, first);
			fprintf(f, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %d, \"tid\": 0, \"args\": {\"name\": \"vaccel%u\"}}",
				t->pid, t->dev);
			last_pid = t->pid;
		}
		vt_sep(f, first);
		fprintf(f, "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %d, \"tid\": %d, \"args\": {\"name\": ",
			t->pid, t->tid);
		vt_json_str(f, t->name);
		fputs("}}", f);
		vt_sep(f, first);
		fprintf(f, "{\"ph\": \"M\", \"name\": \"thread_sort_index\", \"pid\": %d, \"tid\": %d, \"args\": {\"sort_index\": %d}}",
			t->pid, t->tid, t->sort);
	}
}

/* gpu_scheduler's and dma_fence's events, as instants per CPU. */
static void vt_write_raw(FILE *f, const struct vt_timeline *tl,
			 const struct vt_events *ev, bool *first)
{
	uint32_t cpus_named[64] = {};
	size_t i;
	unsigned int j;

	for (i = 0; i < ev->n; i++) {
		const struct vt_event *e = &ev->v[i];
		int tid = 1000000 + (int)e->cpu;

		if (!strncmp(e->name, "vaccel:", 7))
			continue;
		if (e->cpu < 64 * 32 && !(cpus_named[e->cpu / 32] & (1u << (e->cpu % 32)))) {
			cpus_named[e->cpu / 32] |= 1u << (e->cpu % 32);
			vt_sep(f, first);
			fprintf(f, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 0, \"tid\": 0, \"args\": {\"name\": \"kernel (gpu_scheduler, dma_fence)\"}}");
			vt_sep(f, first);
			fprintf(f, "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 0, \"tid\": %d, \"args\": {\"name\": \"cpu %u\"}}",
				tid, e->cpu);
		}
		vt_sep(f, first);
		fputs("{\"ph\": \"i\", \"s\": \"t\", \"name\": ", f);
		vt_json_str(f, strchr(e->name, ':') + 1);
		fprintf(f, ", \"cat\": ");
		vt_json_str(f, e->name);
		fprintf(f, ", \"pid\": 0, \"tid\": %d, \"ts\": ", tid);
		vt_ts(f, tl, e->ts);
		fprintf(f, ", \"args\": {\"pid\": %d", e->pid);
		for (j = 0; j < e->nfields; j++) {
			fputs(", ", f);
			vt_json_str(f, e->fields[j].key);
			fputs(": ", f);
			if (e->fields[j].str)
				vt_json_str(f, e->fields[j].str);
			else
				fprintf(f, "%" PRId64, e->fields[j].num);
		}
		fputs("}}", f);
	}
}

int vt_write_perfetto(const struct vt_timeline *tl, const struct vt_events *ev,
		      FILE *f)
{
	bool first = true;
	size_t i;

	fputs("{\"displayTimeUnit\": \"ns\",\n\"otherData\": {\"generator\": \"vaccel-trace\"",
	      f);
	fprintf(f, ", \"lost_events\": %" PRIu64 "},\n\"traceEvents\": [\n", ev->lost);
	vt_write_meta(f, tl, &first);
	for (i = 0; i < tl->nslices; i++) {
		const struct vt_slice *s = &tl->slices[i];
		const struct vt_track *t = &tl->tracks[s->track];
		uint64_t dur = s->end - s->start;

		vt_sep(f, &first);
		fputs("{\"ph\": \"X\", \"name\": ", f);
		vt_json_str(f, s->name);
		fprintf(f, ", \"cat\": \"%s\", \"pid\": %d, \"tid\": %d, \"ts\": ",
			s->depth ? "workgroup" : "buffer", t->pid, t->tid);
		vt_ts(f, tl, s->start);
		fprintf(f, ", \"dur\": %" PRIu64 ".%03" PRIu64 ", \"args\": {%s}}",
			dur / 1000, dur % 1000, s->args);
		if (s->flow_out) {
			vt_sep(f, &first);
			fprintf(f, "{\"ph\": \"s\", \"name\": \"submit\", \"cat\": \"flow\", \"id\": %" PRIu64
				", \"pid\": %d, \"tid\": %d, \"ts\": ", s->flow_out, t->pid, t->tid);
			vt_ts(f, tl, s->start);
			fputc('}', f);
		}
		if (s->flow_in) {
			vt_sep(f, &first);
			fprintf(f, "{\"ph\": \"f\", \"bp\": \"e\", \"name\": \"submit\", \"cat\": \"flow\", \"id\": %" PRIu64
				", \"pid\": %d, \"tid\": %d, \"ts\": ", s->flow_in, t->pid, t->tid);
			vt_ts(f, tl, s->start);
			fputc('}', f);
		}
	}
	for (i = 0; i < tl->ninstants; i++) {
		const struct vt_instant *in = &tl->instants[i];
		const struct vt_track *t = &tl->tracks[in->track];

		vt_sep(f, &first);
		fputs("{\"ph\": \"i\", \"s\": \"t\", \"name\": ", f);
		vt_json_str(f, in->name);
		fprintf(f, ", \"cat\": \"%s\", \"pid\": %d, \"tid\": %d, \"ts\": ",
			vt_instant_kind_name(in->kind), t->pid, t->tid);
		vt_ts(f, tl, in->ts);
		fprintf(f, ", \"args\": {%s}}", in->args);
	}
	for (i = 0; i < tl->ncounters; i++) {
		const struct vt_counter *c = &tl->counters[i];

		vt_sep(f, &first);
		fputs("{\"ph\": \"C\", \"name\": ", f);
		vt_json_str(f, c->name);
		fprintf(f, ", \"pid\": %d, \"ts\": ", tl->tracks[c->track].pid);
		vt_ts(f, tl, c->ts);
		fprintf(f, ", \"args\": {\"value\": %" PRId64 "}}", c->value);
	}
	vt_write_raw(f, tl, ev, &first);
	fputs("\n]}\n", f);
	return ferror(f) ? -EIO : 0;
}
