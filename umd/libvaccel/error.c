// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * error.c - the sentence behind an errno: vaccel_last_error_message().
 *
 * Some refusals cannot be told apart by their errno alone: a launch whose
 * stack does not fit the device and one whose workgroup is too large are
 * both -EINVAL or -E2BIG, an engine instance the class does not have is
 * -ENODEV like a class the device lacks.  The calls that refuse for such
 * reasons leave a sentence in a buffer of the calling thread, which the
 * program may print; the library itself never prints.  The public calls
 * that set it clear it first, so a message never outlives the next
 * refusal of the same kind.
 */
#include <stdarg.h>
#include <stdio.h>

#include "vaccel_priv.h"

/* Long enough for a sentence with two kernel names and a few numbers. */
#define VACCEL_ERROR_MAX	512

static __thread char vaccel_error_msg[VACCEL_ERROR_MAX];

/* Sets this thread's message; returns @err, for `return vaccel_error(...)`. */
int vaccel_error(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(vaccel_error_msg, sizeof(vaccel_error_msg), fmt, ap);
	va_end(ap);
	return err;
}

void vaccel_error_clear(void)
{
	vaccel_error_msg[0] = '\0';
}

VACCEL_EXPORT const char *vaccel_last_error_message(void)
{
	return vaccel_error_msg;
}
