/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * warm.h - the warm compiler processes: what the ICD (warm.c), the
 * server preloaded into a tool (warm_preload.c) and the client that
 * stands in for the tool (vaccel-cl-warm.c) agree on.
 *
 * A warm directory, private to one process of the ICD (mode 0700), holds
 * for each tool NAME (clang, ld.lld, vaccel-cl-lower):
 *
 *	NAME.sock	the listening socket of the tool's server
 *	NAME		a link to vaccel-cl-warm, which vaccel-cc runs as
 *			the tool (VACCEL_CLANG, VACCEL_LLD, VACCEL_CL_LOWER)
 *	NAME.real	a link to the tool itself, which vaccel-cl-warm runs
 *			when the server does not answer
 *
 * A run is one request and one reply on a SOCK_SEQPACKET connection.  The
 * request carries the client's standard input, output and error
 * (SCM_RIGHTS) and, as NUL-terminated strings: VCW_MAGIC, the working
 * directory, the number of arguments, the arguments, the number of
 * environment strings and those.  The replies are VCW_STARTED (one byte)
 * when the tool's main is about to be called, then the run's wait status,
 * an int.  A client that does not see VCW_STARTED may run the tool
 * itself: it has not run.
 */
#ifndef VACCEL_CL_WARM_H
#define VACCEL_CL_WARM_H

#define VCW_MAGIC		"vaccel-cl-warm 1"
#define VCW_STARTED		"S"
/* The largest request; a larger one runs the tool cold. */
#define VCW_MAX_REQUEST		(128 * 1024)
/* The descriptors a server inherits: its socket and the ICD's pipe. */
#define VCW_LISTEN_FD		3
#define VCW_PARENT_FD		4
/* What a warm directory holds for each tool NAME: NAME and these suffixes. */
static const char *const vcw_file_suffix[] = { ".sock", "", ".real" };
#define VCW_FILES	3

/* The environment of a server: the directory and the tool's NAME. */
#define VCW_ENV_DIR		"VACCEL_CL_WARM_DIR"
#define VCW_ENV_NAME		"VACCEL_CL_WARM_NAME"

#endif
