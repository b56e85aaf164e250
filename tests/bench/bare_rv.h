/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * bare_rv.h - the bare RV64IM interpreter of bench_compute (bare_rv.c).
 */
#ifndef BARE_RV_H
#define BARE_RV_H

#include <stddef.h>
#include <stdint.h>

/* Where the function's stack is, how big, and the return address it gets. */
#define BARE_STACK_VA	0x80000000ull
#define BARE_STACK_SIZE	0x10000u
#define BARE_EXIT_VA	0xe0000000ull

/* Decodes the function of @words instructions at @code, placed at @va. */
void bare_rv_prepare(const uint32_t *code, size_t words, uint64_t va);

/*
 * Calls it with @a0 and @a1, on an empty stack: its a0 on return.  The
 * instructions it executed are added to *@executed.
 */
uint64_t bare_rv_call(uint64_t a0, uint64_t a1, uint64_t *executed);

#endif /* BARE_RV_H */
