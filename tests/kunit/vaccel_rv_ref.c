// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * The reference interpreter of the vaccel_rv suite: vaccel_rv.c built
 * again with VACCEL_RV_REFERENCE, which shares the semantics of every
 * instruction (the handlers' code) but none of the machinery: each
 * instruction is fetched and decoded afresh, dispatched by a switch and
 * charged to the budget one at a time, without decoded pages, pairs or
 * basic blocks.  Only vaccel_rv_ref_run() is defined.
 */

#define VACCEL_RV_REFERENCE
#include "../vaccel_rv.c"
