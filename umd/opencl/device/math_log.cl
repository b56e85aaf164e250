// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_log.cl - log, log2, log10 and log1p for float and double
 * (6.12.2), and the half_ and native_ forms of the first three for float,
 * which are the same functions.  The cores are math/log.h's and
 * math/log_double.h's, which the host's accuracy tests compile too.
 */

#include "device/library.h"
#include "device/math/log.h"
#include "device/math/log_double.h"

#define LOG_FAMILY(f, core)						\
	float OVLD f(float x) { return core(x); }			\
	FOR_WIDTHS(V_1, float, f, float)
#define LOG_FAMILY_D(f, core)						\
	double OVLD f(double x) { return core(x); }			\
	FOR_WIDTHS(V_1, double, f, double)

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
LOG_FAMILY_D(log, vcl_log)
LOG_FAMILY_D(log2, vcl_log2)
LOG_FAMILY_D(log10, vcl_log10)
LOG_FAMILY_D(log1p, vcl_log1p)
