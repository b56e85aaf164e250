// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: The warm compiler processes: the server in the tool
 *
 * libvaccel-cl-warm.so is preloaded (``LD_PRELOAD``) into clang, ld.lld
 * and vaccel-cl-lower when the ICD starts them as servers.  Loading one of
 * them costs more than most of its runs: clang and libLLVM bring some
 * 600,000 relocations and thousands of static constructors, which take
 * 0.5 to 0.8 s each time under TCG.  A server pays that once.
 *
 * The library replaces ``__libc_start_main``, through which the tool's
 * entry code calls its ``main``.  Without ``VACCEL_CL_WARM_DIR`` in the
 * environment it calls ``main`` as libc would, and the tool runs as if the
 * library were not there.  With it, the tool's libraries are loaded and
 * constructed, and instead of ``main`` the server runs: it accepts
 * connections on its socket (descriptor 3), and for each it forks a child
 * that takes the request (warm.h), makes the client's descriptors its
 * standard ones, its working directory and environment the client's, and
 * calls the tool's ``main`` with the client's arguments, then exits with
 * what ``main`` returns.  Each run is thus a fresh process, as isolated as
 * a cold one; only the loading is shared.  The server sends the child's
 * wait status back when it ends.
 *
 * The server ends when the ICD's process does (descriptor 4, a pipe whose
 * other end only that process holds, reads end of file), removing its
 * socket and links, and the directory with the last of them.  It accepts
 * connections from its own user only.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "warm.h"

typedef int (*vcw_main_fn)(int, char **, char **);
typedef int (*vcw_start_fn)(vcw_main_fn, int, char **, void (*)(void), void (*)(void),
			    void (*)(void), void *);

static vcw_main_fn vcw_tool_main;
static char *vcw_tool_path;

/* The runs in flight: a child's pid and the connection its status goes to. */
#define VCW_MAX_RUNS	256
static struct {
	pid_t pid;
	int conn;
} vcw_runs[VCW_MAX_RUNS];

/* The next NUL-terminated string of @p within @end, or NULL. */
static char *vcw_next(char **p, char *end)
{
	char *s = *p, *nul;

	if (s >= end)
		return NULL;
	nul = memchr(s, '\0', (size_t)(end - s));
	if (!nul)
		return NULL;
	*p = nul + 1;
	return s;
}

/* @count strings of @p into a new NULL-terminated array, or NULL. */
static char **vcw_strings(char **p, char *end, const char *count)
{
	char **v, *stop;
	long n, i;

	errno = 0;
	n = strtol(count, &stop, 10);
	if (errno || *stop || n < 0 || n > VCW_MAX_REQUEST / 2)
		return NULL;
	v = calloc((size_t)n + 1, sizeof(*v));
	for (i = 0; v && i < n; i++) {
		v[i] = vcw_next(p, end);
		if (!v[i]) {
			free(v);
			return NULL;
		}
	}
	return v;
}

/* In the child: takes the request on @conn and runs the tool; never returns. */
static void vcw_run(int conn)
{
	static char buf[VCW_MAX_REQUEST];
	char cbuf[CMSG_SPACE(3 * sizeof(int))];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	char *p = buf, *end, *magic, *cwd, *s, **argv, **envp;
	struct cmsghdr *c;
	int fds[3], i, argc;
	ssize_t n;

	n = recvmsg(conn, &mh, MSG_CMSG_CLOEXEC);
	c = n > 0 ? CMSG_FIRSTHDR(&mh) : NULL;
	if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(sizeof(fds)) || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)))
		_exit(126);
	memcpy(fds, CMSG_DATA(c), sizeof(fds));
	end = buf + n;
	magic = vcw_next(&p, end);
	cwd = vcw_next(&p, end);
	s = vcw_next(&p, end);
	argv = magic && !strcmp(magic, VCW_MAGIC) && cwd && s ? vcw_strings(&p, end, s) : NULL;
	s = argv ? vcw_next(&p, end) : NULL;
	envp = s ? vcw_strings(&p, end, s) : NULL;
	if (!envp || !argv[0] || chdir(cwd)) {
		dprintf(fds[2], "vaccel-cl-warm: %s: a request it cannot run\n",
			vcw_tool_path);
		_exit(126);
	}
	for (i = 0; i < 3; i++)
		if (dup2(fds[i], i) < 0)
			_exit(126);
	/* From here on the run is the tool's: the client must not run it again. */
	if (send(conn, VCW_STARTED, 1, MSG_NOSIGNAL) != 1)
		_exit(126);
	close(conn);
	for (argc = 0; argv[argc]; argc++)
		;
	/* The tool's own path: clang finds its installation from argv[0]. */
	argv[0] = vcw_tool_path;
	environ = envp;
	exit(vcw_tool_main(argc, argv, envp));
}

/* Removes the server's socket and links, and the directory with the last. */
static void vcw_cleanup(const char *dir, const char *name)
{
	char path[PATH_MAX];
	unsigned int i;

	for (i = 0; i < VCW_FILES; i++) {
		snprintf(path, sizeof(path), "%s/%s%s", dir, name, vcw_file_suffix[i]);
		unlink(path);
	}
	rmdir(dir);
}

static void vcw_reap(void)
{
	unsigned int i;
	int status;
	ssize_t n;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (i = 0; i < VCW_MAX_RUNS; i++) {
			if (vcw_runs[i].pid != pid)
				continue;
			/* A client that is gone has nobody to tell. */
			n = write(vcw_runs[i].conn, &status, sizeof(status));
			(void)n;
			close(vcw_runs[i].conn);
			vcw_runs[i].pid = 0;
			break;
		}
	}
}

static void vcw_accept(int lfd, int pfd, int sfd, const sigset_t *mask)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	unsigned int i;
	pid_t pid;
	int conn;

	conn = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (conn < 0)
		return;
	for (i = 0; i < VCW_MAX_RUNS && vcw_runs[i].pid; i++)
		;
	/* Another user's, or too many at once: the client runs the tool cold. */
	if (i == VCW_MAX_RUNS || getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &len) ||
	    cred.uid != getuid()) {
		close(conn);
		return;
	}
	pid = fork();
	if (pid == 0) {
		sigprocmask(SIG_UNBLOCK, mask, NULL);
		close(lfd);
		close(pfd);
		close(sfd);
		vcw_run(conn);
	}
	if (pid < 0) {
		close(conn);
		return;
	}
	vcw_runs[i].pid = pid;
	vcw_runs[i].conn = conn;
}

/* Runs in the tool's place, its libraries loaded and constructed. */
static int vcw_serve(int argc, char **argv, char **envp)
{
	char *dir = getenv(VCW_ENV_DIR), *name = getenv(VCW_ENV_NAME);
	sigset_t mask;
	int sfd;

	(void)argc;
	(void)envp;
	vcw_tool_path = argv[0];
	dir = dir ? strdup(dir) : NULL;
	name = name ? strdup(name) : NULL;
	unsetenv(VCW_ENV_DIR);
	unsetenv(VCW_ENV_NAME);
	unsetenv("LD_PRELOAD");
	if (!dir || !name)
		return 127;
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sfd < 0) {
		vcw_cleanup(dir, name);
		return 127;
	}
	for (;;) {
		struct pollfd pf[3] = {
			{ .fd = VCW_LISTEN_FD, .events = POLLIN },
			{ .fd = VCW_PARENT_FD, .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};

		if (poll(pf, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[1].revents)
			break;
		if (pf[2].revents) {
			struct signalfd_siginfo si;

			if (read(sfd, &si, sizeof(si)) < 0 && errno != EAGAIN)
				break;
			vcw_reap();
		}
		if (pf[0].revents & POLLIN)
			vcw_accept(VCW_LISTEN_FD, VCW_PARENT_FD, sfd, &mask);
		else if (pf[0].revents)
			break;
	}
	vcw_cleanup(dir, name);
	return 0;
}

/* What the tool's entry code calls: exported over libc's (preloaded). */
__attribute__((visibility("default")))
int __libc_start_main(vcw_main_fn main, int argc, char **argv, void (*init)(void),
		      void (*fini)(void), void (*rtld_fini)(void), void *stack_end);

int __libc_start_main(vcw_main_fn main, int argc, char **argv, void (*init)(void),
		      void (*fini)(void), void (*rtld_fini)(void), void *stack_end)
{
	vcw_start_fn start = (vcw_start_fn)dlsym(RTLD_NEXT, "__libc_start_main");

	if (!start)
		abort();
	if (!getenv(VCW_ENV_DIR))
		return start(main, argc, argv, init, fini, rtld_fini, stack_end);
	vcw_tool_main = main;
	return start(vcw_serve, argc, argv, init, fini, rtld_fini, stack_end);
}
