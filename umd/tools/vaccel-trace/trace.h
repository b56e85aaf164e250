/* SPDX-License-Identifier: MIT */
/*
 * trace.h - vaccel-trace's shared types: the events it records or reads,
 * and the timeline it builds from them for its writers.
 *
 * events.c   the events: storage, the text file format, sorting
 * record.c   recording them through tracefs (libtracefs, libtraceevent)
 * model.c    the timeline: tracks, slices, instants, counters, flows
 * perfetto.c the timeline as Chrome JSON trace events (the Perfetto UI)
 * render.c   the timeline as a picture (cairo: PNG and SVG)
 * main.c     the command line
 */
#ifndef VACCEL_TRACE_H
#define VACCEL_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One field of an event: a number (sign-extended when signed) or a string. */
struct vt_field {
	char *key;
	char *str;		/* NULL for a number */
	int64_t num;
};

/* One trace event, named "system:event", its time in ns of the trace clock. */
struct vt_event {
	uint64_t ts;
	uint64_t seq;		/* the order it was read in */
	uint32_t cpu;
	int32_t pid;
	char *name;
	unsigned int nfields;
	struct vt_field *fields;
};

struct vt_events {
	struct vt_event *v;
	size_t n, cap;
	uint64_t lost;		/* events the ring buffer dropped */
};

void vt_events_init(struct vt_events *ev);
void vt_events_free(struct vt_events *ev);
struct vt_event *vt_events_add(struct vt_events *ev, uint64_t ts, uint32_t cpu,
			       int32_t pid, const char *name);
void vt_event_add_num(struct vt_event *e, const char *key, int64_t num);
void vt_event_add_str(struct vt_event *e, const char *key, const char *str);
void vt_events_sort(struct vt_events *ev);
int vt_events_write(const struct vt_events *ev, FILE *f);
int vt_events_read(struct vt_events *ev, FILE *f, const char *path);

bool vt_num(const struct vt_event *e, const char *key, int64_t *out);
int64_t vt_get(const struct vt_event *e, const char *key);
const char *vt_str(const struct vt_event *e, const char *key);

/* Recording. */
struct vt_record_opts {
	double duration_s;	/* 0: until the command ends, or SIGINT */
	char **argv;		/* the command, or NULL */
	unsigned int buffer_kb;	/* per CPU */
	bool fences;		/* dma_fence's events too */
	bool quiet;
};

int vt_record(const struct vt_record_opts *o, struct vt_events *ev, int *cmd_status);

/* The timeline. */
enum vt_track_kind {
	VT_TRACK_ENGINE,	/* what an engine runs */
	VT_TRACK_SLOT,		/* one slot of an engine's HW queue */
	VT_TRACK_CONTEXT,	/* one context: its buffers' runs and events */
	VT_TRACK_MEMORY,	/* a device's binds and TLB invalidations */
};

struct vt_track {
	enum vt_track_kind kind;
	uint32_t dev;
	uint32_t engine;
	uint32_t slot;
	uint32_t ctx;
	int pid;		/* the JSON process: the device */
	int tid;		/* the JSON thread: the track */
	int sort;
	char name[128];
};

enum vt_instant_kind {
	VT_I_SUBMIT,
	VT_I_PREEMPT,
	VT_I_FAULT,
	VT_I_HANG,
	VT_I_RESET,
	VT_I_BAN,
	VT_I_CANCEL,
	VT_I_BIND,
	VT_I_TLB,
	VT_I_KINDS,
};

struct vt_slice {
	unsigned int track;
	unsigned int depth;	/* 0: a buffer's run; 1: a workgroup in it */
	uint64_t start, end;
	uint32_t ctx;		/* for its colour */
	uint64_t flow_in;	/* a flow ends here, or 0 */
	uint64_t flow_out;	/* a flow starts here, or 0 */
	char name[64];
	char args[256];		/* JSON object members, without braces */
};

struct vt_instant {
	unsigned int track;
	enum vt_instant_kind kind;
	uint64_t ts;
	char name[64];
	char args[256];
};

struct vt_counter {
	unsigned int track;	/* the track whose process it belongs to */
	uint64_t ts;
	int64_t value;
	char name[64];
};

struct vt_timeline {
	struct vt_track *tracks;
	size_t ntracks;
	struct vt_slice *slices;
	size_t nslices, cap_slices;
	struct vt_instant *instants;
	size_t ninstants, cap_instants;
	struct vt_counter *counters;
	size_t ncounters, cap_counters;
	uint64_t t0, t1;	/* the span of the events */
	uint64_t jobs, preemptions, faults, hangs, resets;
};

int vt_timeline_build(struct vt_timeline *tl, const struct vt_events *ev);
void vt_timeline_free(struct vt_timeline *tl);
const char *vt_instant_kind_name(enum vt_instant_kind kind);

int vt_write_perfetto(const struct vt_timeline *tl, const struct vt_events *ev,
		      FILE *f);
int vt_render(const struct vt_timeline *tl, const char *path, bool svg,
	      const char *title);

#endif /* VACCEL_TRACE_H */
