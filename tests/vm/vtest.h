/* SPDX-License-Identifier: MIT */
/*
 * vtest.h - the tiny harness of the vaccel VM tests.
 *
 * A test program is a list of cases:
 *
 *	VTEST(query_device)
 *	{
 *		VT_ASSERT_EQ(x, 2);
 *	}
 *
 *	VTEST_MAIN()
 *
 * Each case runs in a child process, so a crash or a failed assertion ends
 * only that case.  A case reports one line on stdout, which the VM runner
 * counts:
 *
 *	ok <program>.<case>
 *	not ok <program>.<case>: <why>
 *
 * A case that takes VTEST_SLOW_S seconds or more also prints
 *
 *	# time: <program>.<case> <seconds> s
 *
 * so that the slowest cases of a plan can be found in its log.
 *
 * Arguments on the command line select cases by name; -NAME leaves one out.  A case declared
 * with VTEST_NAMED() instead of VTEST() runs only when named: it needs a
 * module load of its own, which the plan gives it.
 */
#ifndef VTEST_H
#define VTEST_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct vtest_case {
	const char *name;
	void (*fn)(void);
	int named_only;
};

#define VTEST_MAX_CASES 256
#define VTEST_SLOW_S	5
extern struct vtest_case vtest_cases[VTEST_MAX_CASES];
extern int vtest_ncases;

/* Report a failure from inside a case: prints the reason, ends the case. */
__attribute__((noreturn, format(printf, 3, 4)))
static inline void vtest_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	_exit(1);
}

#define VTEST_REGISTER(case_name, named)				\
	static void vtest_fn_##case_name(void);				\
	__attribute__((constructor)) static void vtest_reg_##case_name(void) \
	{								\
		if (vtest_ncases < VTEST_MAX_CASES)			\
			vtest_cases[vtest_ncases++] = (struct vtest_case) { \
				#case_name, vtest_fn_##case_name, named }; \
	}								\
	static void vtest_fn_##case_name(void)

#define VTEST(case_name)	VTEST_REGISTER(case_name, 0)
#define VTEST_NAMED(case_name)	VTEST_REGISTER(case_name, 1)

#define VT_ASSERT(cond)							\
	do {								\
		if (!(cond))						\
			vtest_fail(__FILE__, __LINE__, "assertion failed: %s", \
				   #cond);				\
	} while (0)

#define VT_ASSERT_EQ(a, b)						\
	do {								\
		long long _va = (long long)(a), _vb = (long long)(b);	\
		if (_va != _vb)						\
			vtest_fail(__FILE__, __LINE__,			\
				   "%s == %s: %lld != %lld", #a, #b, _va, _vb); \
	} while (0)

/* Asserts that an expression returning 0 or -errno returned 0. */
#define VT_ASSERT_OK(expr)						\
	do {								\
		long long _r = (long long)(expr);			\
		if (_r != 0)						\
			vtest_fail(__FILE__, __LINE__, "%s: %lld (%s)", #expr, \
				   _r, _r < 0 ? strerror((int)-_r) : "?"); \
	} while (0)

/* Asserts that a call failing with -1 and errno failed with @err. */
#define VT_ASSERT_ERRNO(expr, err)					\
	do {								\
		errno = 0;						\
		long long _r = (long long)(expr);			\
		if (_r != -1 || errno != (err))				\
			vtest_fail(__FILE__, __LINE__,			\
				   "%s: expected -1/%s, got %lld/%s", #expr, \
				   strerror(err), _r, strerror(errno));	\
	} while (0)

#define VTEST_MAIN()							\
	struct vtest_case vtest_cases[VTEST_MAX_CASES];			\
	int vtest_ncases;						\
	int main(int argc, char **argv)					\
	{								\
		return vtest_main(argc, argv);				\
	}

/*
 * Whether case @c runs: named, or, when no argument names a case, every
 * case not declared VTEST_NAMED(); in both, not one named -NAME.
 */
static inline int vtest_selected(const struct vtest_case *c, int argc,
				 char **argv)
{
	const char *name = c->name;
	int i, named = 0, chosen = 0;

	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-') {
			if (!strcmp(argv[i] + 1, name))
				return 0;
			continue;
		}
		named = 1;
		chosen |= !strcmp(argv[i], name);
	}
	return named ? chosen : !c->named_only;
}

static inline double vtest_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline int vtest_main(int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	int i, failed = 0;

	for (i = 0; i < vtest_ncases; i++) {
		struct vtest_case *c = &vtest_cases[i];
		double start = vtest_now(), took;
		int status;
		pid_t pid;

		if (!vtest_selected(c, argc, argv))
			continue;
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			c->fn();
			fflush(NULL);
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0) {
			printf("not ok %s.%s: fork/wait: %s\n", prog, c->name,
			       strerror(errno));
			failed++;
			continue;
		}
		took = vtest_now() - start;
		if (took >= VTEST_SLOW_S)
			printf("# time: %s.%s %.0f s\n", prog, c->name, took);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			printf("ok %s.%s\n", prog, c->name);
		} else {
			if (WIFSIGNALED(status))
				printf("not ok %s.%s: killed by signal %d\n",
				       prog, c->name, WTERMSIG(status));
			else
				printf("not ok %s.%s: exit %d\n", prog,
				       c->name, WEXITSTATUS(status));
			failed++;
		}
		fflush(stdout);
	}
	return failed ? 1 : 0;
}

#endif /* VTEST_H */
