// SPDX-License-Identifier: MIT
/*
 * events.c - the events vaccel-trace works on, and their file.
 *
 * An event is what tracefs gave: its time, CPU, pid, "system:event" name
 * and its fields, numbers or strings.  The file (--events) keeps them as
 * text, so that a trace recorded on one machine can be converted into a
 * timeline on another (`vaccel-trace convert`), and read by scripts:
 *
 *	# vaccel-trace events 1
 *	# lost 0
 *	<ts_ns> <cpu> <pid> <system:event> key=value key=value ...
 *
 * A value is a decimal number, or a string in double quotes whose bytes
 * outside printable ASCII, and '"', '%' and ' ', are written %XX.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

void vt_events_init(struct vt_events *ev)
{
	memset(ev, 0, sizeof(*ev));
}

void vt_events_free(struct vt_events *ev)
{
	size_t i;
	unsigned int j;

	for (i = 0; i < ev->n; i++) {
		struct vt_event *e = &ev->v[i];

		for (j = 0; j < e->nfields; j++) {
			free(e->fields[j].key);
			free(e->fields[j].str);
		}
		free(e->fields);
		free(e->name);
	}
	free(ev->v);
	vt_events_init(ev);
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		fprintf(stderr, "vaccel-trace: out of memory\n");
		exit(2);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d) {
		fprintf(stderr, "vaccel-trace: out of memory\n");
		exit(2);
	}
	return d;
}

struct vt_event *vt_events_add(struct vt_events *ev, uint64_t ts, uint32_t cpu,
			       int32_t pid, const char *name)
{
	struct vt_event *e;

	if (ev->n == ev->cap) {
		ev->cap = ev->cap ? 2 * ev->cap : 4096;
		ev->v = xrealloc(ev->v, ev->cap * sizeof(*ev->v));
	}
	e = &ev->v[ev->n++];
	memset(e, 0, sizeof(*e));
	e->ts = ts;
	e->seq = ev->n - 1;
	e->cpu = cpu;
	e->pid = pid;
	e->name = xstrdup(name);
	return e;
}

static struct vt_field *vt_event_field_new(struct vt_event *e, const char *key)
{
	struct vt_field *f;

	e->fields = xrealloc(e->fields, (e->nfields + 1) * sizeof(*e->fields));
	f = &e->fields[e->nfields++];
	f->key = xstrdup(key);
	f->str = NULL;
	f->num = 0;
	return f;
}

void vt_event_add_num(struct vt_event *e, const char *key, int64_t num)
{
	vt_event_field_new(e, key)->num = num;
}

void vt_event_add_str(struct vt_event *e, const char *key, const char *str)
{
	vt_event_field_new(e, key)->str = xstrdup(str);
}

static const struct vt_field *vt_field(const struct vt_event *e, const char *key)
{
	unsigned int i;

	for (i = 0; i < e->nfields; i++)
		if (!strcmp(e->fields[i].key, key))
			return &e->fields[i];
	return NULL;
}

bool vt_num(const struct vt_event *e, const char *key, int64_t *out)
{
	const struct vt_field *f = vt_field(e, key);

	if (!f || f->str)
		return false;
	*out = f->num;
	return true;
}

/* A number field, 0 when the event lacks it. */
int64_t vt_get(const struct vt_event *e, const char *key)
{
	int64_t v = 0;

	vt_num(e, key, &v);
	return v;
}

/* A string field, "" when the event lacks it. */
const char *vt_str(const struct vt_event *e, const char *key)
{
	const struct vt_field *f = vt_field(e, key);

	return f && f->str ? f->str : "";
}

static int vt_event_cmp(const void *a, const void *b)
{
	const struct vt_event *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	/* Same time: the order they were read in, which qsort may not keep. */
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * tracefs gives each CPU's events in order, one CPU after another: one
 * stable order by time for all.  The order of reading breaks ties, so
 * each CPU's own order holds.
 */
void vt_events_sort(struct vt_events *ev)
{
	if (ev->n > 1)
		qsort(ev->v, ev->n, sizeof(*ev->v), vt_event_cmp);
}

static void vt_write_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c <= ' ' || c >= 0x7f || c == '"' || c == '%')
			fprintf(f, "%%%02X", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

int vt_events_write(const struct vt_events *ev, FILE *f)
{
	size_t i;
	unsigned int j;

	fprintf(f, "# vaccel-trace events 1\n# lost %" PRIu64 "\n", ev->lost);
	for (i = 0; i < ev->n; i++) {
		const struct vt_event *e = &ev->v[i];

		fprintf(f, "%" PRIu64 " %u %d %s", e->ts, e->cpu, e->pid, e->name);
		for (j = 0; j < e->nfields; j++) {
			fprintf(f, " %s=", e->fields[j].key);
			if (e->fields[j].str)
				vt_write_str(f, e->fields[j].str);
			else
				fprintf(f, "%" PRId64, e->fields[j].num);
		}
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Decodes a quoted string in place; returns its end past the quote, or NULL. */
static char *vt_read_str(char *s, char **out)
{
	char *d;

	if (*s != '"')
		return NULL;
	*out = d = ++s;
	while (*s && *s != '"') {
		if (*s == '%') {
			int h = hexval(s[1]), l = h < 0 ? -1 : hexval(s[2]);

			if (h < 0 || l < 0)
				return NULL;
			*d++ = (char)(h << 4 | l);
			s += 3;
		} else {
			*d++ = *s++;
		}
	}
	if (*s != '"')
		return NULL;
	*d = '\0';
	return s + 1;
}

static int vt_parse_line(struct vt_events *ev, char *line)
{
	unsigned long long ts;
	unsigned int cpu;
	int pid, n = 0;
	char name[128];
	struct vt_event *e;
	char *p;

	if (sscanf(line, "%llu %u %d %127s %n", &ts, &cpu, &pid, name, &n) != 4 || !n)
		return -EINVAL;
	if (!strchr(name, ':'))
		return -EINVAL;
	e = vt_events_add(ev, ts, cpu, pid, name);
	p = line + n;
	while (*p) {
		char *key = p, *eq = strchr(p, '='), *end;

		if (!eq || eq == key)
			return -EINVAL;
		*eq = '\0';
		p = eq + 1;
		if (*p == '"') {
			char *str;

			end = vt_read_str(p, &str);
			if (!end)
				return -EINVAL;
			vt_event_add_str(e, key, str);
			p = end;
		} else {
			long long v;

			errno = 0;
			v = strtoll(p, &end, 10);
			if (end == p || errno)
				return -EINVAL;
			vt_event_add_num(e, key, v);
			p = end;
		}
		if (*p == ' ')
			p++;
		else if (*p)
			return -EINVAL;
	}
	return 0;
}

int vt_events_read(struct vt_events *ev, FILE *f, const char *path)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	ssize_t len;
	int ret = 0;

	while ((len = getline(&line, &cap, f)) >= 0) {
		unsigned long long lost;

		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (lineno == 1 && strcmp(line, "# vaccel-trace events 1")) {
			fprintf(stderr, "vaccel-trace: %s: not a vaccel-trace events file\n",
				path);
			ret = -EINVAL;
			break;
		}
		if (sscanf(line, "# lost %llu", &lost) == 1)
			ev->lost = lost;
		if (!len || line[0] == '#')
			continue;
		if (vt_parse_line(ev, line)) {
			fprintf(stderr, "vaccel-trace: %s:%lu: malformed event\n",
				path, lineno);
			ret = -EINVAL;
			break;
		}
	}
	if (!ret && lineno == 0) {
		fprintf(stderr, "vaccel-trace: %s: empty file\n", path);
		ret = -EINVAL;
	}
	free(line);
	return ret;
}
