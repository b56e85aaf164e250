// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: vaccel-top
 *
 * A top(1) of vaccel devices: per process and device, the utilisation of
 * each engine class, memory, contexts and queue depths; per device, the
 * state, utilisation and HW queue of each engine.  The numbers come from
 * the drm-usage-stats keys of ``/proc/<pid>/fdinfo`` and, for root, from
 * the device's debugfs (see top_model.c and Documentation/monitoring.rst).
 *
 *	vaccel-top [-b] [-d SECONDS] [-n FRAMES] [-p PID]...
 *
 * Interactive when standard input and output are terminals and -b is not
 * given: the screen is redrawn every interval in the terminal's alternate
 * screen, fitted to its size (and again when it is resized); ``q`` quits,
 * space refreshes at once.  The terminal is put back as it was on every
 * way out: ``q``, the last frame of -n, SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT (after which the program dies of the signal, as it would
 * have); SIGTSTP (Ctrl-Z) puts it back before stopping and takes it
 * again on SIGCONT.
 *
 * Batch (-b, or output not a terminal): a frame of plain text per
 * interval, each followed by an empty line, for scripts and logs.  The
 * first frame comes after one interval, since utilisation needs two
 * samples.
 *
 * Exits 0, 1 on an error (no /proc, no memory, output gone), 2 on a usage
 * error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "top_model.h"

#define PROG		"vaccel-top"
#define MAX_PIDS	64

static const struct vtop_paths paths = {
	.proc = "/proc",
	.sys = "/sys",
	.debugfs = "/sys/kernel/debug",
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-h] [-b] [-d SECONDS] [-n FRAMES] [-p PID]...\n"
		"Show what runs on vaccel devices: per process and device, engine\n"
		"utilisation, memory, contexts and queues; per engine, its state (root).\n"
		"\n"
		"  -b          batch: plain text frames, one per interval\n"
		"  -d SECONDS  interval between frames, 0.1 to 3600 (default 1)\n"
		"  -n FRAMES   stop after this many frames (default: never)\n"
		"  -p PID      only this process (may be repeated)\n"
		"  -h          this help\n"
		"\n"
		"Interactive keys: q quits, space refreshes now.\n");
}

/* --- the terminal --- */

static struct termios saved_tio;
static bool tty_active;
static volatile sig_atomic_t fatal_signal, resized, suspended;

static bool write_all(const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(STDOUT_FILENO, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		buf += n;
		len -= (size_t)n;
	}
	return true;
}

static bool write_str(const char *s)
{
	return write_all(s, strlen(s));
}

/* Keys one at a time, without echo; the alternate screen, no cursor. */
static void term_enter(void)
{
	struct termios raw = saved_tio;

	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	write_str("\033[?1049h\033[?25l\033[H\033[2J");
	tty_active = true;
}

static void term_leave(void)
{
	if (!tty_active)
		return;
	tty_active = false;
	write_str("\033[0m\033[?25h\033[?1049l");
	tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
}

static void on_signal(int sig)
{
	switch (sig) {
	case SIGWINCH:
		resized = 1;
		break;
	case SIGTSTP:
		suspended = 1;
		break;
	default:
		fatal_signal = sig;
		break;
	}
}

static const int handled_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP,
};

static void signals_setup(sigset_t *unblocked)
{
	struct sigaction sa;
	sigset_t block;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	for (i = 0; i < sizeof(handled_signals) / sizeof(handled_signals[0]); i++) {
		sigaction(handled_signals[i], &sa, NULL);
		sigaddset(&block, handled_signals[i]);
	}
	/* Delivered only inside ppoll(): no race with the flags' checks. */
	sigprocmask(SIG_BLOCK, &block, unblocked);
}

/* Restores the terminal, then dies of @sig as if nothing had caught it. */
static void die_of(int sig)
{
	sigset_t s;

	term_leave();
	signal(sig, SIG_DFL);
	sigemptyset(&s);
	sigaddset(&s, sig);
	raise(sig);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	_exit(128 + sig);
}

/* Ctrl-Z: the terminal back as it was while stopped. */
static void suspend(void)
{
	struct sigaction sa;
	sigset_t s;

	term_leave();
	signal(SIGTSTP, SIG_DFL);
	sigemptyset(&s);
	sigaddset(&s, SIGTSTP);
	raise(SIGTSTP);
	sigprocmask(SIG_UNBLOCK, &s, NULL);	/* stops here until SIGCONT */
	sigprocmask(SIG_BLOCK, &s, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTSTP, &sa, NULL);
	suspended = 0;
	term_enter();
}

static void term_size(unsigned int *rows, unsigned int *cols)
{
	struct winsize ws;

	*rows = 24;
	*cols = 80;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

/* Appends @s, at most @cols columns of it (the text is ASCII). */
static bool append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t ncap = (*len + n + 1) * 2;
		char *p = realloc(*buf, ncap);

		if (!p)
			return false;
		*buf = p;
		*cap = ncap;
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = '\0';
	return true;
}

#define APPEND(s, n)	do { if (!append(&buf, &len, &cap, (s), (n))) goto err; } while (0)
#define APPEND_STR(s)	APPEND((s), strlen(s))

/*
 * Draws @f over the whole screen in one write: as many lines as fit, each
 * cut to the width, the table's header in reverse video, and a status line
 * at the bottom.
 */
static bool draw(const struct vtop_frame *f, const char *status)
{
	unsigned int rows, cols, i, shown;
	size_t len = 0, cap = 0;
	char *buf = NULL;
	bool ok;

	term_size(&rows, &cols);
	shown = rows > 1 ? rows - 1 : 0;
	if (shown > f->nlines)
		shown = (unsigned int)f->nlines;
	APPEND_STR("\033[H");
	for (i = 0; i < shown; i++) {
		const char *line = f->lines[i];
		size_t n = strlen(line);

		if (n > cols)
			n = cols;
		if ((long)i == f->header_line)
			APPEND_STR("\033[7m");
		APPEND(line, n);
		if ((long)i == f->header_line) {
			for (; n < cols; n++)
				APPEND(" ", 1);
			APPEND_STR("\033[0m");
		}
		APPEND_STR("\033[K\r\n");
	}
	APPEND_STR("\033[J");
	/* The last row, without a line end that would scroll the screen. */
	APPEND_STR("\033[");
	{
		char pos[32];

		snprintf(pos, sizeof(pos), "%u;1H", rows);
		APPEND_STR(pos);
	}
	APPEND(status, strlen(status) > cols ? cols : strlen(status));
	APPEND_STR("\033[K");
	ok = write_all(buf, len);
	free(buf);
	return ok;

err:
	free(buf);
	return false;
}

/* --- sampling --- */

struct top {
	double interval_s;
	unsigned long frames;		/* 0: no end */
	int pids[MAX_PIDS];
	size_t npids;
	struct vtop_sample prev, cur;
	bool have_prev;
	struct vtop_frame frame;
};

/* A new sample, and the frame of it against the previous one. */
static int top_step(struct top *t)
{
	struct vtop_view v;
	int ret;

	ret = vtop_scan(&paths, &t->cur);
	if (ret) {
		vtop_sample_free(&t->cur);
		return ret;
	}
	ret = vtop_view_build(t->have_prev ? &t->prev : NULL, &t->cur, t->pids,
			      t->npids, &v);
	if (!ret) {
		vtop_frame_free(&t->frame);
		ret = vtop_render(&v, &t->frame);
		vtop_view_free(&v);
	}
	vtop_sample_free(&t->prev);
	t->prev = t->cur;
	memset(&t->cur, 0, sizeof(t->cur));
	t->have_prev = true;
	return ret;
}

static uint64_t interval_ns(const struct top *t)
{
	return (uint64_t)(t->interval_s * 1e9);
}

static void sleep_until(uint64_t deadline)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline / 1000000000ull),
		.tv_nsec = (long)(deadline % 1000000000ull),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int run_batch(struct top *t)
{
	uint64_t next;
	unsigned long n;
	int ret;

	ret = top_step(t);
	if (ret)
		return ret;
	next = vtop_now_ns();
	for (n = 0; !t->frames || n < t->frames; n++) {
		size_t i;

		next += interval_ns(t);
		sleep_until(next);
		ret = top_step(t);
		if (ret)
			return ret;
		for (i = 0; i < t->frame.nlines; i++)
			printf("%s\n", t->frame.lines[i]);
		printf("\n");
		if (fflush(stdout))
			return -EIO;
	}
	return 0;
}

enum wait_result { WAIT_TIMEOUT, WAIT_NOW, WAIT_QUIT, WAIT_ERROR };

/*
 * Waits for @deadline, redrawing on a resize and suspending on Ctrl-Z;
 * returns early for q or space.
 */
static enum wait_result wait_keys(const struct top *t, uint64_t deadline,
				  const sigset_t *unblocked, const char *status)
{
	for (;;) {
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		uint64_t now = vtop_now_ns();
		struct timespec ts;
		char keys[64];
		ssize_t n, i;
		int ret;

		if (fatal_signal)
			die_of(fatal_signal);
		if (suspended) {
			suspend();
			if (!draw(&t->frame, status))
				return WAIT_ERROR;
		}
		if (resized) {
			resized = 0;
			if (!draw(&t->frame, status))
				return WAIT_ERROR;
		}
		if (now >= deadline)
			return WAIT_TIMEOUT;
		ts.tv_sec = (time_t)((deadline - now) / 1000000000ull);
		ts.tv_nsec = (long)((deadline - now) % 1000000000ull);
		ret = ppoll(&pfd, 1, &ts, unblocked);
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			return WAIT_ERROR;
		}
		if (!ret)
			continue;
		if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))
			return WAIT_QUIT;
		n = read(STDIN_FILENO, keys, sizeof(keys));
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			return WAIT_ERROR;
		for (i = 0; i < n; i++) {
			if (keys[i] == 'q' || keys[i] == 'Q')
				return WAIT_QUIT;
			if (keys[i] == ' ')
				return WAIT_NOW;
			if (keys[i] == '\f' && !draw(&t->frame, status))
				return WAIT_ERROR;
		}
	}
}

static int run_interactive(struct top *t)
{
	sigset_t unblocked;
	char status[128];
	uint64_t next;
	unsigned long n = 0;
	int ret;

	if (tcgetattr(STDIN_FILENO, &saved_tio))
		return -errno;
	atexit(term_leave);
	signals_setup(&unblocked);
	term_enter();
	snprintf(status, sizeof(status), PROG ": q quits, space refreshes; every %.2f s",
		 t->interval_s);

	/* The first frame at once: devices and memory, no utilisation yet. */
	ret = top_step(t);
	if (ret)
		return ret;
	if (!draw(&t->frame, status))
		return -EIO;
	next = vtop_now_ns() + interval_ns(t);
	while (!t->frames || n < t->frames) {
		switch (wait_keys(t, next, &unblocked, status)) {
		case WAIT_QUIT:
			return 0;
		case WAIT_ERROR:
			return -EIO;
		case WAIT_NOW:
		case WAIT_TIMEOUT:
			break;
		}
		ret = top_step(t);
		if (ret)
			return ret;
		if (!draw(&t->frame, status))
			return -EIO;
		n++;
		next = vtop_now_ns() + interval_ns(t);
	}
	return 0;
}

static bool parse_ulong(const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return !errno && end != s && !*end && *s != '-';
}

int main(int argc, char **argv)
{
	struct top t = { .interval_s = 1.0 };
	bool batch = false;
	unsigned long v;
	char *end;
	int opt, ret;

	while ((opt = getopt(argc, argv, "hbd:n:p:")) != -1) {
		switch (opt) {
		case 'h':
			usage(stdout);
			return 0;
		case 'b':
			batch = true;
			break;
		case 'd':
			errno = 0;
			t.interval_s = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(t.interval_s >= 0.1) ||
			    t.interval_s > 3600) {
				fprintf(stderr, PROG ": -d wants 0.1 to 3600 seconds, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'n':
			if (!parse_ulong(optarg, &t.frames) || !t.frames) {
				fprintf(stderr, PROG ": -n wants a number of frames, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'p':
			if (!parse_ulong(optarg, &v) || !v || v > INT32_MAX) {
				fprintf(stderr, PROG ": -p wants a process id, not '%s'\n", optarg);
				return 2;
			}
			if (t.npids == MAX_PIDS) {
				fprintf(stderr, PROG ": at most %d -p\n", MAX_PIDS);
				return 2;
			}
			t.pids[t.npids++] = (int)v;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}

	if (!batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
		batch = true;
	ret = batch ? run_batch(&t) : run_interactive(&t);
	term_leave();
	vtop_sample_free(&t.prev);
	vtop_frame_free(&t.frame);
	if (ret) {
		fprintf(stderr, PROG ": %s\n", ret == -ENOENT ? "cannot read /proc" :
			strerror(-ret));
		return 1;
	}
	return 0;
}
