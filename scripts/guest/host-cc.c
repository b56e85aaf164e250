// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * host-cc.c - a vaccel-cc for the dev VM that has the host run the real
 * one.  `make cts CTS_HOST_CC=1` names it to the ICD (VACCEL_CL_CC): under
 * TCG a program's build costs some 3 s in the guest and 0.2 s on the
 * host, and the CTS builds tens of thousands of programs.
 *
 * The guest and the host share $HOST_CC_SPOOL at the same path (vm.sh's
 * 9p share), and so the ICD's build directories, which TMPDIR puts there.
 * A run is a request file: the working directory, the arguments and the
 * VACCEL_* environment, each string ending in a NUL, written aside and
 * renamed to ID.req.  scripts/host-cc-server.py runs vaccel-cc with them
 * (the snapshot the guest's ICD would run, at the same path) and writes
 * ID.out, ID.err and, last, ID.status, the exit status.  This program
 * copies the two outputs to its own and exits with that status: to the
 * ICD, a run of vaccel-cc.  What the build makes is the same file: the
 * same tools, arguments and inputs.
 *
 * No answer within HOST_CC_TIMEOUT seconds (600) is a failed build, with
 * a message saying so.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char *spool;
static char id[64];

static void path_of(char *buf, size_t size, const char *suffix)
{
	snprintf(buf, size, "%s/%s.%s", spool, id, suffix);
}

static int put(FILE *f, const char *s)
{
	return fwrite(s, 1, strlen(s) + 1, f) == strlen(s) + 1 ? 0 : -1;
}

/* Copies the file @suffix of the run to @fd, then removes it. */
static void relay(const char *suffix, int fd)
{
	char path[4096], buf[65536];
	ssize_t n;
	int in;

	path_of(path, sizeof(path), suffix);
	in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n)
			break;
	close(in);
	unlink(path);
}

int main(int argc, char **argv)
{
	char req[4096], part[4096], status[4096], cwd[4096];
	const char *limit_env = getenv("HOST_CC_TIMEOUT");
	struct timespec tick = { 0, 2000000 }, t0, t;
	long limit = limit_env ? atol(limit_env) : 600;
	char **e;
	FILE *f;
	int i, code;

	spool = getenv("HOST_CC_SPOOL");
	if (!spool || !*spool) {
		fprintf(stderr, "host-cc: HOST_CC_SPOOL is not set\n");
		return 1;
	}
	if (!getcwd(cwd, sizeof(cwd))) {
		perror("host-cc: getcwd");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* A process makes one request: its pid and the time name it. */
	snprintf(id, sizeof(id), "%d-%ld%09ld", (int)getpid(), (long)t0.tv_sec, t0.tv_nsec);
	path_of(part, sizeof(part), "part");
	path_of(req, sizeof(req), "req");
	path_of(status, sizeof(status), "status");
	f = fopen(part, "we");
	if (!f) {
		fprintf(stderr, "host-cc: %s: %s\n", part, strerror(errno));
		return 1;
	}
	code = put(f, cwd);
	for (i = 1; i < argc; i++)
		code |= put(f, argv[i]);
	code |= put(f, "");	/* the end of the arguments */
	for (e = environ; *e; e++)
		if (!strncmp(*e, "VACCEL_", 7) && strncmp(*e, "VACCEL_CL_CC=", 13))
			code |= put(f, *e);
	if (fclose(f) || code || rename(part, req)) {
		fprintf(stderr, "host-cc: cannot write the request %s\n", req);
		unlink(part);
		return 1;
	}
	while (access(status, F_OK)) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > limit) {
			fprintf(stderr, "host-cc: no answer from the host's compiler in %ld s "
				"(is scripts/host-cc-server.py running on %s?)\n", limit, spool);
			unlink(req);
			return 1;
		}
		nanosleep(&tick, NULL);
	}
	relay("out", 1);
	relay("err", 2);
	f = fopen(status, "re");
	if (!f || fscanf(f, "%d", &code) != 1)
		code = 1;
	if (f)
		fclose(f);
	unlink(status);
	return code;
}
