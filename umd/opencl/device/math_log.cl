// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_log.cl - log, log2, log10 and log1p for float (6.12.2), and the
 * half_ and native_ forms of the first three, which are the same
 * functions.  The cores are math/log.h's, which the host's accuracy test
 * compiles too.
 */

#include "device/library.h"
#include "device/math/log.h"

#define LOG_FAMILY(f, core)						\
	float OVLD f(float x) { return core(x); }			\
	FOR_WIDTHS(V_1, float, f, float)

LOG_FAMILY(log, vcl_logf)
LOG_FAMILY(log2, vcl_log2f)
LOG_FAMILY(log10, vcl_log10f)
LOG_FAMILY(log1p, vcl_log1pf)
LOG_FAMILY(half_log, vcl_logf)
LOG_FAMILY(half_log2, vcl_log2f)
LOG_FAMILY(half_log10, vcl_log10f)
LOG_FAMILY(native_log, vcl_logf)
LOG_FAMILY(native_log2, vcl_log2f)
LOG_FAMILY(native_log10, vcl_log10f)
