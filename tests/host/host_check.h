/* SPDX-License-Identifier: MIT */
/*
 * host_check.h - the checks of the host test programs.
 *
 * A failed check prints where and what on stderr and exits 1; run.sh turns
 * the exit status into the test's `ok`/`not ok` line.
 */
#ifndef HOST_CHECK_H
#define HOST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
			exit(1);					\
		}							\
	} while (0)

#define CHECK_EQ(a, b)							\
	do {								\
		long long _a = (long long)(a), _b = (long long)(b);	\
		if (_a != _b) {						\
			fprintf(stderr, "%s:%d: %s == %s: %lld (0x%llx) != %lld (0x%llx)\n", \
				__FILE__, __LINE__, #a, #b, _a, _a, _b, _b); \
			exit(1);					\
		}							\
	} while (0)

#endif /* HOST_CHECK_H */
