// SPDX-License-Identifier: MIT
/*
 * render.c - the timeline as a picture, PNG or SVG, through cairo.
 *
 * One row per track, in the order of the JSON trace: per device, each
 * engine then its HW queue slots, the memory track, then the contexts.
 * A buffer's run is a bar in its context's colour, labelled when it is
 * wide enough; workgroups are ticks along the bar's foot.  Instants are
 * marks above the bar, in the colour of their kind, which a legend
 * names; a context's buffers in flight are drawn as a step line in its
 * row.  The time axis is at the top, in the unit that fits the span.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <cairo-svg.h>

#include "trace.h"

#define VT_WIDTH	1600
#define VT_LABEL_W	300
#define VT_ROW_H	24
#define VT_TOP		56
#define VT_LEGEND_H	40
#define VT_PAD		12

struct vt_rgb {
	double r, g, b;
};

static const struct vt_rgb vt_instant_colors[VT_I_KINDS] = {
	[VT_I_SUBMIT] = { 0.35, 0.35, 0.35 },
	[VT_I_PREEMPT] = { 0.95, 0.55, 0.05 },
	[VT_I_FAULT] = { 0.85, 0.05, 0.05 },
	[VT_I_HANG] = { 0.45, 0.0, 0.45 },
	[VT_I_RESET] = { 0.45, 0.05, 0.05 },
	[VT_I_BAN] = { 0.0, 0.0, 0.0 },
	[VT_I_CANCEL] = { 0.6, 0.3, 0.3 },
	[VT_I_BIND] = { 0.1, 0.45, 0.75 },
	[VT_I_TLB] = { 0.1, 0.65, 0.65 },
};

/* A colour per context: hues spread by the golden ratio, never grey. */
static struct vt_rgb vt_ctx_color(uint32_t ctx)
{
	double h = fmod(ctx * 0.618033988749895, 1.0) * 6.0, s = 0.55, v = 0.85;
	double c = v * s, x = c * (1 - fabs(fmod(h, 2.0) - 1)), m = v - c;
	struct vt_rgb rgb;

	switch ((int)h) {
	case 0: rgb = (struct vt_rgb){ c, x, 0 }; break;
	case 1: rgb = (struct vt_rgb){ x, c, 0 }; break;
	case 2: rgb = (struct vt_rgb){ 0, c, x }; break;
	case 3: rgb = (struct vt_rgb){ 0, x, c }; break;
	case 4: rgb = (struct vt_rgb){ x, 0, c }; break;
	default: rgb = (struct vt_rgb){ c, 0, x }; break;
	}
	rgb.r += m;
	rgb.g += m;
	rgb.b += m;
	return rgb;
}

static int vt_cmp_sort(const void *a, const void *b, void *arg)
{
	const struct vt_track *t = arg;
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	if (t[x].pid != t[y].pid)
		return t[x].pid - t[y].pid;
	return (t[x].sort > t[y].sort) - (t[x].sort < t[y].sort);
}

/* The tick step: 1, 2 or 5 times a power of ten, about @n ticks in @span. */
static double vt_tick_step(double span, int n)
{
	double raw = span / n, p = pow(10, floor(log10(raw))), f = raw / p;

	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

static void vt_time_label(char *buf, size_t size, double ns, double step)
{
	if (step >= 1e6)
		snprintf(buf, size, "%.*f ms", step >= 1e7 ? 0 : 1, ns / 1e6);
	else if (step >= 1e3)
		snprintf(buf, size, "%.*f us", step >= 1e4 ? 0 : 1, ns / 1e3);
	else
		snprintf(buf, size, "%.0f ns", ns);
}

struct vt_canvas {
	cairo_t *cr;
	const struct vt_timeline *tl;
	unsigned int *row;	/* row of each track */
	double x0, w;		/* the plot's left edge and width */
	double span;		/* ns */
};

static double vt_x(const struct vt_canvas *c, uint64_t ts)
{
	double rel = ts > c->tl->t0 ? (double)(ts - c->tl->t0) : 0;

	return c->x0 + rel / c->span * c->w;
}

static double vt_y(const struct vt_canvas *c, unsigned int track)
{
	return VT_TOP + c->row[track] * VT_ROW_H;
}

static void vt_draw_axis(struct vt_canvas *c, double height)
{
	cairo_t *cr = c->cr;
	double step = vt_tick_step(c->span, 10), t;
	char label[32];

	cairo_set_font_size(cr, 11);
	for (t = 0; t <= c->span + step / 2; t += step) {
		double x = c->x0 + t / c->span * c->w;

		cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
		cairo_move_to(cr, x, VT_TOP - 6);
		cairo_line_to(cr, x, height);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		vt_time_label(label, sizeof(label), t, step);
		cairo_move_to(cr, x + 2, VT_TOP - 10);
		cairo_show_text(cr, label);
	}
}

static void vt_draw_rows(struct vt_canvas *c, const unsigned int *order, size_t n)
{
	cairo_t *cr = c->cr;
	size_t i;

	cairo_set_font_size(cr, 11);
	for (i = 0; i < n; i++) {
		const struct vt_track *t = &c->tl->tracks[order[i]];
		double y = vt_y(c, order[i]);

		if (i % 2) {
			cairo_set_source_rgb(cr, 0.965, 0.965, 0.975);
			cairo_rectangle(cr, 0, y, VT_WIDTH, VT_ROW_H);
			cairo_fill(cr);
		}
		cairo_set_source_rgb(cr, t->kind == VT_TRACK_CONTEXT ? 0.25 : 0.0,
				     0.0, t->kind == VT_TRACK_CONTEXT ? 0.35 : 0.0);
		cairo_move_to(cr, VT_PAD + (t->kind == VT_TRACK_SLOT ? 14 : 0),
			      y + VT_ROW_H - 8);
		cairo_show_text(cr, t->name);
	}
}

static void vt_draw_slices(struct vt_canvas *c)
{
	cairo_t *cr = c->cr;
	size_t i;

	cairo_set_font_size(cr, 10);
	for (i = 0; i < c->tl->nslices; i++) {
		const struct vt_slice *s = &c->tl->slices[i];
		struct vt_rgb rgb = vt_ctx_color(s->ctx);
		double x = vt_x(c, s->start), x1 = vt_x(c, s->end);
		double y = vt_y(c, s->track), w = x1 - x;
		cairo_text_extents_t ext;

		if (s->start == s->end && s->flow_out) {
			/* A submission: a small tick. */
			cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
			cairo_move_to(cr, x, y + 4);
			cairo_line_to(cr, x, y + VT_ROW_H - 4);
			cairo_stroke(cr);
			continue;
		}
		if (w < 1)
			w = 1;
		if (s->depth) {
			cairo_set_source_rgb(cr, rgb.r * 0.6, rgb.g * 0.6, rgb.b * 0.6);
			cairo_rectangle(cr, x, y + VT_ROW_H - 7, w, 3);
			cairo_fill(cr);
			continue;
		}
		cairo_set_source_rgb(cr, rgb.r, rgb.g, rgb.b);
		cairo_rectangle(cr, x, y + 5, w, VT_ROW_H - 10);
		cairo_fill(cr);
		cairo_text_extents(cr, s->name, &ext);
		if (ext.width + 4 < w) {
			cairo_set_source_rgb(cr, 0, 0, 0);
			cairo_move_to(cr, x + 2, y + VT_ROW_H - 9);
			cairo_show_text(cr, s->name);
		}
	}
}

static void vt_draw_instants(struct vt_canvas *c)
{
	cairo_t *cr = c->cr;
	size_t i;

	for (i = 0; i < c->tl->ninstants; i++) {
		const struct vt_instant *in = &c->tl->instants[i];
		const struct vt_rgb *rgb = &vt_instant_colors[in->kind];
		double x = vt_x(c, in->ts), y = vt_y(c, in->track);

		cairo_set_source_rgb(cr, rgb->r, rgb->g, rgb->b);
		cairo_move_to(cr, x - 4, y + 1);
		cairo_line_to(cr, x + 4, y + 1);
		cairo_line_to(cr, x, y + 8);
		cairo_close_path(cr);
		cairo_fill(cr);
	}
}

/* Each context's buffers in flight, a step line scaled to its maximum. */
static void vt_draw_counters(struct vt_canvas *c)
{
	const struct vt_timeline *tl = c->tl;
	cairo_t *cr = c->cr;
	size_t t, i;

	for (t = 0; t < tl->ntracks; t++) {
		int64_t max = 0, last = 0;
		double lastx = c->x0, y0;

		if (tl->tracks[t].kind != VT_TRACK_CONTEXT)
			continue;
		for (i = 0; i < tl->ncounters; i++)
			if (tl->counters[i].track == t && tl->counters[i].value > max)
				max = tl->counters[i].value;
		if (!max)
			continue;
		y0 = vt_y(c, (unsigned int)t) + VT_ROW_H - 2;
		cairo_set_source_rgba(cr, 0.2, 0.2, 0.6, 0.7);
		cairo_set_line_width(cr, 1);
		cairo_move_to(cr, lastx, y0);
		for (i = 0; i < tl->ncounters; i++) {
			const struct vt_counter *k = &tl->counters[i];
			double x;

			if (k->track != t)
				continue;
			x = vt_x(c, k->ts);
			cairo_line_to(cr, x, y0 - (double)last / max * (VT_ROW_H - 6));
			cairo_line_to(cr, x, y0 - (double)k->value / max * (VT_ROW_H - 6));
			last = k->value;
			lastx = x;
		}
		cairo_line_to(cr, c->x0 + c->w, y0 - (double)last / max * (VT_ROW_H - 6));
		cairo_stroke(cr);
	}
}

static void vt_draw_legend(struct vt_canvas *c, double y, const char *title)
{
	cairo_t *cr = c->cr;
	double x = VT_PAD;
	int k;

	cairo_set_font_size(cr, 11);
	for (k = VT_I_PREEMPT; k < VT_I_KINDS; k++) {
		const struct vt_rgb *rgb = &vt_instant_colors[k];
		cairo_text_extents_t ext;

		cairo_set_source_rgb(cr, rgb->r, rgb->g, rgb->b);
		cairo_move_to(cr, x, y + 8);
		cairo_line_to(cr, x + 8, y + 8);
		cairo_line_to(cr, x + 4, y + 15);
		cairo_close_path(cr);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		cairo_move_to(cr, x + 12, y + 16);
		cairo_show_text(cr, vt_instant_kind_name(k));
		cairo_text_extents(cr, vt_instant_kind_name(k), &ext);
		x += ext.x_advance + 30;
	}
	cairo_move_to(cr, x + 10, y + 16);
	cairo_show_text(cr, "bars: a buffer's runs, coloured by context; line: buffers in flight");
	cairo_set_font_size(cr, 14);
	cairo_move_to(cr, VT_PAD, 20);
	cairo_show_text(cr, title);
}

int vt_render(const struct vt_timeline *tl, const char *path, bool svg,
	      const char *title)
{
	struct vt_canvas c = { .tl = tl };
	unsigned int *order;
	cairo_surface_t *surface;
	cairo_status_t st;
	double height;
	size_t i;

	order = calloc(tl->ntracks + 1, sizeof(*order));
	c.row = calloc(tl->ntracks + 1, sizeof(*c.row));
	if (!order || !c.row) {
		free(order);
		free(c.row);
		return -ENOMEM;
	}
	for (i = 0; i < tl->ntracks; i++)
		order[i] = (unsigned int)i;
	qsort_r(order, tl->ntracks, sizeof(*order), vt_cmp_sort, tl->tracks);
	for (i = 0; i < tl->ntracks; i++)
		c.row[order[i]] = (unsigned int)i;
	height = VT_TOP + tl->ntracks * VT_ROW_H + VT_LEGEND_H;

	if (svg)
		surface = cairo_svg_surface_create(path, VT_WIDTH, height);
	else
		surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, VT_WIDTH,
						     (int)height);
	c.cr = cairo_create(surface);
	c.x0 = VT_LABEL_W;
	c.w = VT_WIDTH - VT_LABEL_W - VT_PAD;
	c.span = tl->t1 > tl->t0 ? (double)(tl->t1 - tl->t0) : 1;

	cairo_set_source_rgb(c.cr, 1, 1, 1);
	cairo_paint(c.cr);
	cairo_select_font_face(c.cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_line_width(c.cr, 1);
	vt_draw_rows(&c, order, tl->ntracks);
	vt_draw_axis(&c, height - VT_LEGEND_H);
	vt_draw_slices(&c);
	vt_draw_counters(&c);
	vt_draw_instants(&c);
	vt_draw_legend(&c, height - VT_LEGEND_H + 8, title);

	cairo_destroy(c.cr);
	if (!svg)
		st = cairo_surface_write_to_png(surface, path);
	else
		st = CAIRO_STATUS_SUCCESS;
	cairo_surface_finish(surface);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(surface);
	cairo_surface_destroy(surface);
	free(order);
	free(c.row);
	if (st != CAIRO_STATUS_SUCCESS) {
		fprintf(stderr, "vaccel-trace: %s: %s\n", path, cairo_status_to_string(st));
		return -EIO;
	}
	return 0;
}
