/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: math_part - one process's share of the math tests' functions
 *
 * math_cores and math_double take ``--part=K/N``: they then check only
 * the functions whose index (in their tables, one count across the
 * tables of one and two arguments) is K modulo N, so that N processes,
 * one per CPU, share the work.  The default is the whole, 0/1.
 */
#ifndef MATH_PART_H
#define MATH_PART_H

#include <stdio.h>
#include <string.h>

struct math_part {
	unsigned int k, n;
};

/*
 * Reads @arg into @p if it is ``--part=K/N``.  Return: 1 if it was, 0 if
 * it is something else (a function's name), -1 if it is a malformed part.
 */
static inline int math_part_arg(const char *arg, struct math_part *p)
{
	unsigned int k, n;
	char end;

	if (strncmp(arg, "--part=", 7))
		return 0;
	if (sscanf(arg + 7, "%u/%u%c", &k, &n, &end) != 2 || !n || k >= n)
		return -1;
	p->k = k;
	p->n = n;
	return 1;
}

/* Whether the function of index @index is @p's to check. */
static inline int math_part_mine(const struct math_part *p, unsigned int index)
{
	return index % p->n == p->k;
}

#endif /* MATH_PART_H */
