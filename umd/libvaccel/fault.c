// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * fault.c - fault records in words: the names of failures, fault reasons,
 * accesses and commands, and the one line of text that
 * vaccel_fault_info_format() makes of a record of vaccel_queue_get_fault()
 * (queue.c), so that every tool prints a failure the same way.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "vaccel_priv.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *const vaccel_failure_names[] = {
	[VACCEL_FAILURE_NONE] = "none",
	[VACCEL_FAILURE_FAULT] = "fault",
	[VACCEL_FAILURE_HANG] = "hang",
	[VACCEL_FAILURE_TIME_LIMIT] = "time-limit",
};

static const char *const vaccel_fault_reason_names[] = {
	[VACCEL_FAULT_NONE] = "none",
	[VACCEL_FAULT_UNMAPPED] = "unmapped",
	[VACCEL_FAULT_OUT_OF_RANGE] = "out-of-range",
	[VACCEL_FAULT_PERMISSION] = "permission",
	[VACCEL_FAULT_MALFORMED] = "malformed",
	[VACCEL_FAULT_ILLEGAL_INSTRUCTION] = "illegal-instruction",
	[VACCEL_FAULT_COMPRESSED] = "compressed-instruction",
	[VACCEL_FAULT_MISALIGNED] = "misaligned",
	[VACCEL_FAULT_CSR] = "csr",
	[VACCEL_FAULT_TRAP] = "trap",
};

static const char *const vaccel_access_names[] = {
	[VACCEL_ACCESS_READ] = "read",
	[VACCEL_ACCESS_WRITE] = "write",
	[VACCEL_ACCESS_EXEC] = "exec",
};

static const char *const vaccel_command_names[] = {
	[VACCEL_COMMAND_UNKNOWN] = "unknown",
	[VACCEL_COMMAND_COPY] = "copy",
	[VACCEL_COMMAND_FILL] = "fill",
	[VACCEL_COMMAND_WRITE] = "write",
	[VACCEL_COMMAND_TIMESTAMP] = "timestamp",
	[VACCEL_COMMAND_WAIT_MEM] = "wait-mem",
	[VACCEL_COMMAND_DELAY] = "delay",
	[VACCEL_COMMAND_DISPATCH] = "dispatch",
	[VACCEL_COMMAND_LAUNCH] = "launch",
};

#define NAME_OF(table, v)	((v) < ARRAY_SIZE(table) ? (table)[v] : NULL)

VACCEL_EXPORT const char *vaccel_failure_name(unsigned int failure)
{
	return NAME_OF(vaccel_failure_names, failure);
}

VACCEL_EXPORT const char *vaccel_fault_reason_name(unsigned int reason)
{
	return NAME_OF(vaccel_fault_reason_names, reason);
}

VACCEL_EXPORT const char *vaccel_access_name(unsigned int access)
{
	return NAME_OF(vaccel_access_names, access);
}

VACCEL_EXPORT const char *vaccel_command_name(unsigned int command)
{
	return NAME_OF(vaccel_command_names, command);
}

/* A line being written: snprintf()'s rules, over several calls. */
struct vaccel_line {
	char *buf;
	size_t size;
	size_t len;
};

__attribute__((format(printf, 2, 3)))
static void vaccel_line_add(struct vaccel_line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->len < l->size ? l->buf + l->len : NULL,
		      l->len < l->size ? l->size - l->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += n;
}

/* What the engine did when it faulted, in words. */
static void vaccel_line_fault(struct vaccel_line *l, const struct vaccel_fault_info *f)
{
	const char *access = vaccel_access_name(f->access);

	if (!access)
		access = "access";
	switch (f->reason) {
	case VACCEL_FAULT_UNMAPPED:
		vaccel_line_add(l, "%s of unmapped address 0x%" PRIx64, access, f->va);
		break;
	case VACCEL_FAULT_OUT_OF_RANGE:
		vaccel_line_add(l, "%s of address 0x%" PRIx64 " outside the address space",
				access, f->va);
		break;
	case VACCEL_FAULT_PERMISSION:
		vaccel_line_add(l, "%s of address 0x%" PRIx64 " not permitted (%s)",
				access, f->va,
				f->access == VACCEL_ACCESS_EXEC ? "not executable" : "read-only");
		break;
	case VACCEL_FAULT_MALFORMED:
		vaccel_line_add(l, "malformed packet");
		break;
	case VACCEL_FAULT_ILLEGAL_INSTRUCTION:
		vaccel_line_add(l, "illegal instruction 0x%08" PRIx64, f->va);
		break;
	case VACCEL_FAULT_COMPRESSED:
		vaccel_line_add(l, "compressed instruction");
		break;
	case VACCEL_FAULT_MISALIGNED:
		vaccel_line_add(l, "misaligned %s at 0x%" PRIx64,
				f->access == VACCEL_ACCESS_EXEC ? "jump" : "atomic", f->va);
		break;
	case VACCEL_FAULT_CSR:
		vaccel_line_add(l, "%s of CSR 0x%03" PRIx64 " not allowed", access, f->va);
		break;
	case VACCEL_FAULT_TRAP:
		vaccel_line_add(l, "ecall or ebreak");
		break;
	default:
		vaccel_line_add(l, "fault %u at 0x%" PRIx64, f->reason, f->va);
		break;
	}
}

VACCEL_EXPORT int vaccel_fault_info_format(const struct vaccel_fault_info *f,
					   char *buf, size_t size)
{
	struct vaccel_line l = { .buf = buf, .size = size };
	const char *command = vaccel_command_name(f ? f->command : 0);

	if (!f || (!buf && size))
		return -EINVAL;
	if (size)
		buf[0] = '\0';

	switch (f->failure) {
	case VACCEL_FAILURE_NONE:
		vaccel_line_add(&l, "no failure");
		return l.len;
	case VACCEL_FAILURE_FAULT:
		vaccel_line_add(&l, "fault: ");
		vaccel_line_fault(&l, f);
		vaccel_line_add(&l, " by");
		break;
	case VACCEL_FAILURE_HANG:
		vaccel_line_add(&l, "hang: no progress for the hang timeout in");
		break;
	case VACCEL_FAILURE_TIME_LIMIT:
		vaccel_line_add(&l, "time limit: engine time used up in");
		break;
	default:
		vaccel_line_add(&l, "failure %u: in", f->failure);
		break;
	}

	/* The command, its kernel and where its pc is. */
	if (f->command_index)
		vaccel_line_add(&l, " %s #%" PRIu64, command ? command : "command",
				f->command_index);
	else
		vaccel_line_add(&l, " an unknown command");
	if (f->kernel || f->pc) {
		const char *sep = " (";

		if (f->kernel) {
			vaccel_line_add(&l, "%skernel %s", sep, f->kernel);
			sep = ", ";
		}
		if (f->pc) {
			vaccel_line_add(&l, "%spc 0x%" PRIx64, sep, f->pc);
			if (f->function)
				vaccel_line_add(&l, " %s+0x%" PRIx64, f->function,
						f->function_offset);
			if (f->elf_pc)
				vaccel_line_add(&l, ", elf 0x%" PRIx64, f->elf_pc);
		}
		vaccel_line_add(&l, ")");
	}

	/* Where the kernel found it. */
	if (f->submission)
		vaccel_line_add(&l, ", submission %" PRIu64 ", packet +0x%" PRIx64
				" of DMA buffer 0x%" PRIx64, f->submission,
				f->packet_offset, f->buffer_va);
	else
		vaccel_line_add(&l, ", packet +0x%" PRIx64 " of its DMA buffer",
				f->packet_offset);
	return l.len;
}
