// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * warm.c - builds through the ICD's warm compiler processes, on the fake
 * device (run.sh compares a run with them and one without):
 *
 *	warm MODE OUT
 *
 * builds a program, then another with clang's server replaced by one that
 * drops every request (MODE warm: the tool must then run cold), then a
 * program with an error,
 * and writes the binaries to OUT.1, OUT.2 and the error's build log to
 * OUT.log.  In MODE warm it checks that the first build started the three
 * servers ($TMPDIR/vaccel-cl-warm.*: a socket per tool), none of them a
 * child of this process; in MODE cold that it started none.  The build cache must be off (VACCEL_CL_CACHE=0).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clt.h"

static const char *const good[] = {
	"kernel void add(global int *a, int b)\n"
	"{\n"
	"\ta[get_global_id(0)] += b;\n"
	"}\n",
	"kernel void scale(global float *a, float s)\n"
	"{\n"
	"\tsize_t i = get_global_id(0);\n"
	"\ta[i] = fma(a[i], s, 1.0f);\n"
	"}\n",
};

static const char bad[] =
	"kernel void broken(global int *a)\n"
	"{\n"
	"\ta[0] = undeclared_name;\n"
	"}\n";

/* The warm directory in $TMPDIR, or "" if there is none. */
static void warm_dir(char *out, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	struct dirent *e;
	DIR *d;

	out[0] = '\0';
	EXPECT(tmp && (d = opendir(tmp)));
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "vaccel-cl-warm.", 15))
			snprintf(out, size, "%s/%s", tmp, e->d_name);
	closedir(d);
}

/* A server that takes each connection and closes it unanswered. */
static void *dropper(void *arg)
{
	int fd = (int)(intptr_t)arg, c;

	while ((c = accept(fd, NULL, NULL)) >= 0)
		close(c);
	return NULL;
}

static void dropper_start(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	pthread_t t;
	int fd;

	EXPECT(strlen(path) < sizeof(addr.sun_path));
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	EXPECT(fd >= 0 && !bind(fd, (struct sockaddr *)&addr, sizeof(addr)) && !listen(fd, 8));
	EXPECT(!pthread_create(&t, NULL, dropper, (void *)(intptr_t)fd));
	pthread_detach(t);
}

static void save(cl_program p, const char *out, int n)
{
	unsigned char *bin;
	char path[PATH_MAX];
	size_t size;
	FILE *f;

	CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL));
	bin = malloc(size);
	EXPECT(bin);
	CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL));
	snprintf(path, sizeof(path), "%s.%d", out, n);
	f = fopen(path, "w");
	EXPECT(f && fwrite(bin, 1, size, f) == size && !fclose(f));
	free(bin);
}

int main(int argc, char **argv)
{
	static const char *const tools[] = { "clang", "ld.lld", "vaccel-cl-lower" };
	char dir[PATH_MAX], path[PATH_MAX + 32], log[4096];
	const char *src = bad;
	struct clt t;
	cl_program p;
	unsigned int i;
	cl_int err;
	FILE *f;
	int warm;

	EXPECT(argc == 3);
	warm = !strcmp(argv[1], "warm");
	clt_init(&t);
	warm_dir(dir, sizeof(dir));
	EXPECT(!dir[0]);	/* nothing before the first build */

	p = clt_build(&t, good[0], "");
	save(p, argv[2], 1);
	clReleaseProgram(p);
	warm_dir(dir, sizeof(dir));
	if (!warm) {
		EXPECT(!dir[0]);
	} else {
		EXPECT(dir[0]);
		for (i = 0; i < 3; i++) {
			snprintf(path, sizeof(path), "%s/%s.sock", dir, tools[i]);
			EXPECT(!access(path, F_OK));
		}
		/* The servers are no children of ours: a wait for all ends. */
		EXPECT(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD);
		/*
		 * clang's server replaced by one that drops every request, as
		 * a server that died loading the tool would: clang runs cold,
		 * and the build still works.
		 */
		snprintf(path, sizeof(path), "%s/clang.sock", dir);
		EXPECT(!unlink(path));
		dropper_start(path);
	}
	p = clt_build(&t, good[1], "");
	save(p, argv[2], 2);
	clReleaseProgram(p);

	p = clCreateProgramWithSource(t.context, 1, &src, NULL, &err);
	CHECK(err);
	EXPECT(clBuildProgram(p, 1, &t.device, "", NULL, NULL) == CL_BUILD_PROGRAM_FAILURE);
	CHECK(clGetProgramBuildInfo(p, t.device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL));
	EXPECT(strstr(log, "program.cl:3:"));
	snprintf(path, sizeof(path), "%s.log", argv[2]);
	f = fopen(path, "w");
	EXPECT(f && fputs(log, f) >= 0 && !fclose(f));
	clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
