// SPDX-License-Identifier: MIT
/*
 * record.c - recording vaccel's trace events through tracefs.
 *
 * A tracefs instance of its own (so that other tracers are left alone),
 * with vaccel's events, gpu_scheduler's and, unless told otherwise,
 * dma_fence's, and a ring buffer large enough for the run; then the
 * command runs (or the duration passes, or SIGINT comes), tracing stops,
 * and the events are read raw and decoded with libtraceevent from their
 * own format files: no parsing of the text trace.  The instance is
 * removed on every way out.  Events the ring buffer dropped are counted
 * from each CPU's stats and reported.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "trace.h"

static volatile sig_atomic_t vt_interrupted;

static void vt_on_signal(int sig)
{
	vt_interrupted = 1;
}

/* Copies one decoded record into @ev, every field but the common ones. */
static int vt_record_event(struct tep_event *event, struct tep_record *record,
			   int cpu, void *data)
{
	struct vt_events *ev = data;
	struct tep_format_field **fields, *f;
	struct vt_event *e;
	char name[128];
	int i;

	snprintf(name, sizeof(name), "%s:%s", event->system, event->name);
	e = vt_events_add(ev, record->ts, cpu,
			  tep_data_pid(event->tep, record), name);
	fields = tep_event_fields(event);
	if (!fields)
		return 0;
	for (i = 0; (f = fields[i]); i++) {
		unsigned long long val;
		int len;
		void *raw;

		if (!strncmp(f->name, "common_", 7))
			continue;
		if (f->flags & TEP_FIELD_IS_STRING) {
			char buf[256];

			raw = tep_get_field_raw(NULL, event, f->name, record, &len, 0);
			if (!raw)
				continue;
			if (len < 0)
				len = 0;
			if ((size_t)len >= sizeof(buf))
				len = sizeof(buf) - 1;
			memcpy(buf, raw, len);
			buf[len] = '\0';
			vt_event_add_str(e, f->name, buf);
		} else if (f->flags & TEP_FIELD_IS_ARRAY) {
			int n = f->arraylen, size = n ? f->size / n : 0, j;

			if (size != 1 && size != 2 && size != 4 && size != 8)
				continue;
			for (j = 0; j < n; j++) {
				char key[96];

				val = tep_read_number(event->tep,
						      (char *)record->data + f->offset + j * size,
						      size);
				snprintf(key, sizeof(key), "%s[%d]", f->name, j);
				vt_event_add_num(e, key, (int64_t)val);
			}
		} else if (!tep_read_number_field(f, record->data, &val)) {
			int64_t v = (int64_t)val;

			/* Sign-extend the narrow signed fields: errnos stay negative. */
			if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8)
				v = (int64_t)(val << (64 - 8 * f->size)) >> (64 - 8 * f->size);
			vt_event_add_num(e, f->name, v);
		}
	}
	free(fields);
	return 0;
}

/* Events the ring buffer overwrote or dropped, from each CPU's stats. */
static uint64_t vt_lost_events(struct tracefs_instance *inst)
{
	uint64_t lost = 0;
	int cpu;

	for (cpu = 0; cpu < 4096; cpu++) {
		char file[64], *stats, *p;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		if (!tracefs_file_exists(inst, file))
			break;
		stats = tracefs_instance_file_read(inst, file, NULL);
		if (!stats)
			continue;
		p = strstr(stats, "overrun:");
		if (p)
			lost += strtoull(p + 8, NULL, 10);
		p = strstr(stats, "dropped events:");
		if (p)
			lost += strtoull(p + 15, NULL, 10);
		free(stats);
	}
	return lost;
}

static int vt_enable(struct tracefs_instance *inst, const char *system, bool required)
{
	if (!tracefs_event_enable(inst, system, NULL))
		return 0;
	if (required) {
		fprintf(stderr, "vaccel-trace: no %s trace events: is the vaccel module loaded, and tracefs mounted (as root)?\n",
			system);
		return -ENOENT;
	}
	fprintf(stderr, "vaccel-trace: note: no %s trace events, recording without them\n",
		system);
	return 0;
}

/* Starts the command, stopped until @go is written. */
static pid_t vt_spawn(char **argv, int *go)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		char c;

		close(fds[1]);
		/* The parent writes once tracing is on, or closes on failure. */
		if (read(fds[0], &c, 1) != 1)
			_exit(127);
		close(fds[0]);
		execvp(argv[0], argv);
		fprintf(stderr, "vaccel-trace: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[0]);
	*go = fds[1];
	return pid;
}

static void vt_wait_duration(double seconds)
{
	struct timespec ts;

	if (seconds <= 0) {
		while (!vt_interrupted)
			pause();
		return;
	}
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	while (!vt_interrupted && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static const char *const vt_systems[] = {
	"vaccel", "gpu_scheduler", "dma_fence", NULL
};

int vt_record(const struct vt_record_opts *o, struct vt_events *ev, int *cmd_status)
{
	struct sigaction sa = { .sa_handler = vt_on_signal }, old_int, old_term;
	struct tracefs_instance *inst;
	struct tep_handle *tep = NULL;
	char inst_name[64];
	pid_t child = -1;
	int go = -1, ret;

	*cmd_status = 0;
	snprintf(inst_name, sizeof(inst_name), "vaccel-trace-%d", (int)getpid());
	inst = tracefs_instance_create(inst_name);
	if (!inst) {
		fprintf(stderr, "vaccel-trace: cannot create a tracefs instance: %s (tracefs needs root and CONFIG_TRACING)\n",
			strerror(errno));
		return -errno ? -errno : -EIO;
	}
	ret = -EIO;
	if (tracefs_instance_set_buffer_size(inst, o->buffer_kb, -1) < 0) {
		fprintf(stderr, "vaccel-trace: cannot size the ring buffer to %u KiB\n",
			o->buffer_kb);
		goto out_destroy;
	}
	tracefs_trace_off(inst);
	ret = vt_enable(inst, "vaccel", true);
	if (!ret)
		ret = vt_enable(inst, "gpu_scheduler", false);
	if (!ret && o->fences)
		ret = vt_enable(inst, "dma_fence", false);
	if (ret)
		goto out_destroy;
	/* Only the formats of the systems recorded: all of them is slow. */
	tep = tracefs_local_events_system(NULL, vt_systems);
	if (!tep) {
		fprintf(stderr, "vaccel-trace: cannot read the events' formats from tracefs\n");
		ret = -EIO;
		goto out_destroy;
	}

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	if (o->argv) {
		child = vt_spawn(o->argv, &go);
		if (child < 0) {
			fprintf(stderr, "vaccel-trace: cannot start %s: %s\n",
				o->argv[0], strerror(errno));
			ret = -errno;
			goto out_signals;
		}
	}
	tracefs_instance_file_clear(inst, "trace");
	tracefs_trace_on(inst);
	if (child > 0) {
		int status;

		if (write(go, "g", 1) != 1)
			kill(child, SIGKILL);
		close(go);
		while (waitpid(child, &status, 0) < 0) {
			if (errno != EINTR)
				break;
			/* SIGINT reaches the command too; wait for it to end. */
		}
		*cmd_status = status;
	} else {
		vt_wait_duration(o->duration_s);
	}
	tracefs_trace_off(inst);

	tracefs_iterate_raw_events(tep, inst, NULL, 0, vt_record_event, ev);
	ev->lost = vt_lost_events(inst);
	vt_events_sort(ev);
	if (!o->quiet)
		fprintf(stderr, "vaccel-trace: %zu events recorded", ev->n);
	if (ev->lost)
		fprintf(stderr, "%s%llu events lost: the ring buffer was too small (--buffer-kb)",
			o->quiet ? "vaccel-trace: " : ", ", (unsigned long long)ev->lost);
	if (!o->quiet || ev->lost)
		fputc('\n', stderr);
	ret = 0;
out_signals:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
out_destroy:
	if (tep)
		tep_free(tep);
	tracefs_event_disable(inst, NULL, NULL);
	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
	return ret;
}
