// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/*
 * tcg_tlb_warm - every vCPU's TCG TLB sized alike before a benchmark
 * (tcg_tlb_warm.h says why and how).
 *
 *	tcg_tlb_warm [MS]	(default 300 ms)
 *
 * Exit status 0; 1 with a message if a process could not be made, pinned
 * or given its pages; 2 on a bad argument.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "tcg_tlb_warm.h"

int main(int argc, char **argv)
{
	long ms = 300;
	char *end;

	if (argc > 2 || (argc == 2 && ((ms = strtol(argv[1], &end, 10)) <= 0 || *end))) {
		fprintf(stderr, "usage: tcg_tlb_warm [MS]   (MS > 0, default 300)\n");
		return 2;
	}
	return tcg_tlb_warm(ms) ? 1 : 0;
}
