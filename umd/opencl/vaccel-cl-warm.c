// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * vaccel-cl-warm - a compiler tool run by a warm server (warm.h): what
 * vaccel-cc runs as clang, ld.lld or vaccel-cl-lower when the ICD has
 * servers of them.
 *
 * It is run through a link DIR/NAME of the ICD's warm directory.  It
 * sends its working directory, arguments, environment and standard
 * descriptors to the server of NAME (DIR/NAME.sock), waits until the run
 * ends, and exits as the run did: with its exit status, or with 128 and
 * the number of the signal that ended it.  When the server does not
 * start the run (the server is gone or died loading the tool, or the
 * request is too large), it runs the tool itself (DIR/NAME.real), so
 * that a build never fails for want of a server.
 *
 *	vaccel-cl-warm --detach PRELOAD TOOL
 *
 * is how the ICD starts a server: it runs TOOL with PRELOAD (the server)
 * as LD_PRELOAD in a child of its own and exits at once, so that the
 * server is no child of the application's (a program that waits for all
 * its children would wait for it forever).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "warm.h"

static char vcw_request[VCW_MAX_REQUEST];

/* Appends @s and its NUL to the request; -1 if it does not fit. */
static int vcw_put(size_t *len, const char *s)
{
	size_t n = strlen(s) + 1;

	if (n > sizeof(vcw_request) - *len)
		return -1;
	memcpy(vcw_request + *len, s, n);
	*len += n;
	return 0;
}

static int vcw_put_count(size_t *len, int count)
{
	char s[16];

	snprintf(s, sizeof(s), "%d", count);
	return vcw_put(len, s);
}

/* The request of this run; 0 or -1 if it does not fit. */
static int vcw_build(int argc, char **argv, size_t *len)
{
	char cwd[PATH_MAX];
	int i, envc;

	if (!getcwd(cwd, sizeof(cwd)))
		return -1;
	*len = 0;
	if (vcw_put(len, VCW_MAGIC) || vcw_put(len, cwd) || vcw_put_count(len, argc))
		return -1;
	for (i = 0; i < argc; i++)
		if (vcw_put(len, argv[i]))
			return -1;
	for (envc = 0; environ[envc]; envc++)
		;
	if (vcw_put_count(len, envc))
		return -1;
	for (i = 0; i < envc; i++)
		if (vcw_put(len, environ[i]))
			return -1;
	return 0;
}

/* The run's wait status from the server of @path, or -1 if it did not answer. */
static int vcw_remote(const char *path, int argc, char **argv)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char cbuf[CMSG_SPACE(3 * sizeof(int))] = { 0 };
	int fds[3] = { 0, 1, 2 }, fd, status;
	struct iovec iov = { vcw_request, 0 };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	ssize_t n;

	if (strlen(path) >= sizeof(addr.sun_path) || vcw_build(argc, argv, &iov.iov_len))
		return -1;
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		close(fd);
		return -1;
	}
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(c), fds, sizeof(fds));
	if (sendmsg(fd, &mh, MSG_NOSIGNAL) != (ssize_t)iov.iov_len) {
		close(fd);
		return -1;
	}
	/*
	 * Until the server says the tool started, nothing ran: a server that
	 * died loading the tool, or could not take the request, leaves the
	 * run to the client.
	 */
	do
		n = recv(fd, &status, sizeof(status), 0);
	while (n < 0 && errno == EINTR);
	if (n != 1 || memcmp(&status, VCW_STARTED, 1)) {
		close(fd);
		return -1;
	}
	do
		n = recv(fd, &status, sizeof(status), 0);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n != sizeof(status)) {
		fprintf(stderr, "vaccel-cl-warm: %s: the server ended during the run\n", path);
		return 127 << 8;
	}
	return status;
}

int main(int argc, char **argv)
{
	char path[PATH_MAX], real[PATH_MAX];
	ssize_t n;
	int status;

	if (argc == 4 && !strcmp(argv[1], "--detach")) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid > 0)
			return 0;
		if (!setenv("LD_PRELOAD", argv[2], 1))
			execv(argv[3], argv + 3);
		_exit(127);
	}
	if (argc < 1 || strlen(argv[0]) + 8 > sizeof(path)) {
		fprintf(stderr, "vaccel-cl-warm: run as DIR/TOOL by vaccel-cc\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s.sock", argv[0]);
	status = vcw_remote(path, argc, argv);
	if (status == -1) {
		/*
		 * The link names the tool by the name it answers to (ld.lld
		 * knows its flavour by it): one level, not resolved to the end.
		 */
		snprintf(path, sizeof(path), "%s.real", argv[0]);
		n = readlink(path, real, sizeof(real) - 1);
		if (n <= 0) {
			fprintf(stderr, "vaccel-cl-warm: %s: %s\n", path, strerror(errno));
			return 127;
		}
		real[n] = '\0';
		argv[0] = real;
		execv(real, argv);
		fprintf(stderr, "vaccel-cl-warm: %s: %s\n", real, strerror(errno));
		return 127;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
