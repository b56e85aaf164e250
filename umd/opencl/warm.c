// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: The warm compiler processes
 *
 * A build runs four programs (vaccel-cc's front end, IR step, code
 * generator and linker), and under TCG each spends 0.5 to 0.8 s loading
 * LLVM before it does any work: more than half of a cold build.  At its
 * first build that the cache cannot answer, the ICD starts a server of
 * each tool it runs (clang, ld.lld, vaccel-cl-lower), which loads once and
 * then forks a child per run (warm_preload.c); vaccel-cc runs
 * vaccel-cl-warm in their place, which hands each run to its server.
 * The builds after that one load nothing, and the first overlaps the
 * loading of the three.
 *
 * What a build makes does not change: each run is a fresh process of the
 * same tool with the same arguments, environment and working directory,
 * and the output is the same byte for byte.  A crash is still the run's
 * alone.  When a server cannot be started or does not answer, the tool
 * runs as before.
 *
 * The servers live in a directory of their own (``$TMPDIR/vaccel-cl-warm.
 * XXXXXX``, mode 0700), hold a pipe whose other end only this process
 * has, and end with it (also when it calls exec).  They are started
 * through ``vaccel-cl-warm --detach``, so that none is a child of the
 * application: a program that waits for all its children does not wait
 * for them.  ``VACCEL_CL_WARM=0``
 * turns them off; set-user-ID programs never start them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler.h"
#include "warm.h"

extern char **environ;

/* The tools vaccel-cc runs, by the variable that names each to it. */
static const struct {
	const char *name;
	const char *var;
} vcw_tools[VCL_WARM_TOOLS] = {
	{ "clang", "VACCEL_CLANG" },
	{ "ld.lld", "VACCEL_LLD" },
	{ "vaccel-cl-lower", "VACCEL_CL_LOWER" },
};

static pthread_mutex_t vcw_lock = PTHREAD_MUTEX_INITIALIZER;
static bool vcw_tried;
static bool vcw_up[VCL_WARM_TOOLS];
static char vcw_dir[PATH_MAX - 64];

/* @fd moved to a descriptor above the ones a server's are made into. */
static int vcw_high(int fd)
{
	int high = fcntl(fd, F_DUPFD_CLOEXEC, 10);

	close(fd);
	return high;
}

/* Sets @var=@value in the NULL-terminated @env, replacing it if there. */
static int vcw_setenv(char **env, size_t *n, const char *var, const char *value)
{
	size_t len = strlen(var), i;
	char *s;

	if (asprintf(&s, "%s=%s", var, value) < 0)
		return -ENOMEM;
	for (i = 0; i < *n; i++) {
		if (!strncmp(env[i], var, len) && env[i][len] == '=') {
			free(env[i]);
			env[i] = s;
			return 0;
		}
	}
	env[(*n)++] = s;
	env[*n] = NULL;
	return 0;
}

/* A copy of the environment with room for @extra more; NULL on failure. */
static char **vcw_env_copy(size_t extra, size_t *n)
{
	char **env;
	size_t i;

	for (*n = 0; environ[*n]; (*n)++)
		;
	env = calloc(*n + extra + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (i = 0; i < *n; i++) {
		env[i] = strdup(environ[i]);
		if (!env[i]) {
			vcl_warm_env_free(env);
			return NULL;
		}
	}
	return env;
}

void vcl_warm_env_free(char **env)
{
	size_t i;

	for (i = 0; env && env[i]; i++)
		free(env[i]);
	free(env);
}

/*
 * The path to run the tool @real by: @name in @real's directory when it
 * is the same file (ld.lld resolves to lld, but knows its flavour by the
 * name it is run as), else @real.
 */
static int vcw_run_path(const char *real, const char *name, char *run, size_t size)
{
	char same[PATH_MAX];
	const char *slash = strrchr(real, '/');

	if ((size_t)snprintf(run, size, "%.*s/%s", (int)(slash - real), real, name) < size &&
	    realpath(run, same) && !strcmp(same, real))
		return 0;
	return (size_t)snprintf(run, size, "%s", real) < size ? 0 : -ENAMETOOLONG;
}

/*
 * Whether @path is an ELF program: only those have a __libc_start_main
 * to stand in for (a wrapper script's would be the shell's).
 */
static bool vcw_is_elf(const char *path)
{
	char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool elf;

	if (fd < 0)
		return false;
	elf = read(fd, magic, sizeof(magic)) == sizeof(magic) && !memcmp(magic, "\177ELF", 4);
	close(fd);
	return elf;
}

/* Removes what vcw_spawn() made for tool @k. */
static void vcw_unlink(unsigned int k)
{
	char path[PATH_MAX];
	unsigned int i;

	for (i = 0; i < VCW_FILES; i++) {
		snprintf(path, sizeof(path), "%s/%s%s", vcw_dir, vcw_tools[k].name, vcw_file_suffix[i]);
		unlink(path);
	}
}

/* Starts the server of tool @k, the program @real; 0 or -errno. */
static int vcw_spawn(unsigned int k, const char *real, const char *preload,
		     const char *client, int parent_fd)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	posix_spawn_file_actions_t fa;
	char path[PATH_MAX], **env;
	char *argv[] = { (char *)client, "--detach", (char *)preload, (char *)real, NULL };
	int fd, ret, status;
	size_t n;
	pid_t pid;

	if ((size_t)snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/%s.sock", vcw_dir,
			     vcw_tools[k].name) >= sizeof(addr.sun_path))
		return -ENAMETOOLONG;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	fd = vcw_high(fd);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) || listen(fd, 64)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	snprintf(path, sizeof(path), "%s/%s.real", vcw_dir, vcw_tools[k].name);
	if (symlink(real, path)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	env = vcw_env_copy(2, &n);
	if (!env || vcw_setenv(env, &n, VCW_ENV_DIR, vcw_dir) ||
	    vcw_setenv(env, &n, VCW_ENV_NAME, vcw_tools[k].name)) {
		vcl_warm_env_free(env);
		close(fd);
		return -ENOMEM;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	posix_spawn_file_actions_adddup2(&fa, fd, VCW_LISTEN_FD);
	posix_spawn_file_actions_adddup2(&fa, parent_fd, VCW_PARENT_FD);
	/* Through the client's --detach: the server is no child of ours. */
	ret = -posix_spawn(&pid, client, &fa, NULL, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	vcl_warm_env_free(env);
	close(fd);
	if (ret)
		return ret;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -ECHILD;
	/* vaccel-cc runs the client by this name; it finds the server by it. */
	snprintf(path, sizeof(path), "%s/%s", vcw_dir, vcw_tools[k].name);
	return symlink(client, path) ? -errno : 0;
}

void vcl_warm_start(const char *lib_dir, const char *const real[VCL_WARM_TOOLS])
{
	char preload[PATH_MAX], client[PATH_MAX], lower[PATH_MAX];
	const char *tmp = getenv("TMPDIR"), *env = getenv("VACCEL_CL_WARM");
	int pipefd[2] = { -1, -1 };
	unsigned int k;

	pthread_mutex_lock(&vcw_lock);
	if (vcw_tried)
		goto out;
	vcw_tried = true;
	if ((env && !strcmp(env, "0")) || getauxval(AT_SECURE) || !lib_dir || !lib_dir[0])
		goto out;
	snprintf(preload, sizeof(preload), "%s/libvaccel-cl-warm.so", lib_dir);
	snprintf(client, sizeof(client), "%s/vaccel-cl-warm", lib_dir);
	snprintf(lower, sizeof(lower), "%s/vaccel-cl-lower", lib_dir);
	if (access(preload, R_OK) || access(client, X_OK))
		goto out;
	snprintf(vcw_dir, sizeof(vcw_dir), "%s/vaccel-cl-warm.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(vcw_dir))
		goto out;
	/*
	 * The read end goes to each server; the write end stays here alone
	 * (close-on-exec, so that no child keeps the servers alive).
	 */
	if (pipe2(pipefd, O_CLOEXEC))
		goto fail;
	pipefd[0] = vcw_high(pipefd[0]);
	if (pipefd[0] < 0)
		goto fail;
	for (k = 0; k < VCL_WARM_TOOLS; k++) {
		const char *tool = k == VCL_WARM_TOOLS - 1 ? lower : real[k];
		char run[PATH_MAX];

		if (!tool || tool[0] != '/' || access(tool, X_OK) || !vcw_is_elf(tool) ||
		    vcw_run_path(tool, vcw_tools[k].name, run, sizeof(run)))
			continue;
		vcw_up[k] = !vcw_spawn(k, run, preload, client, pipefd[0]);
		if (!vcw_up[k])
			vcw_unlink(k);
	}
	close(pipefd[0]);
	for (k = 0; k < VCL_WARM_TOOLS && !vcw_up[k]; k++)
		;
	if (k < VCL_WARM_TOOLS)
		goto out;	/* the write end stays open until the process ends */
fail:
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	rmdir(vcw_dir);
out:
	pthread_mutex_unlock(&vcw_lock);
}

char **vcl_warm_env(void)
{
	char path[PATH_MAX], **env = NULL;
	unsigned int k;
	size_t n;

	pthread_mutex_lock(&vcw_lock);
	for (k = 0; k < VCL_WARM_TOOLS; k++) {
		if (!vcw_up[k])
			continue;
		/*
		 * A server that ended (the process closed its pipe, say) took
		 * its links with it: the tool runs cold from now on.
		 */
		snprintf(path, sizeof(path), "%s/%s", vcw_dir, vcw_tools[k].name);
		if (access(path, X_OK)) {
			vcw_up[k] = false;
			continue;
		}
		if (!env)
			env = vcw_env_copy(VCL_WARM_TOOLS, &n);
		if (!env)
			break;
		if (vcw_setenv(env, &n, vcw_tools[k].var, path)) {
			vcl_warm_env_free(env);
			env = NULL;
			break;
		}
	}
	pthread_mutex_unlock(&vcw_lock);
	return env;
}
