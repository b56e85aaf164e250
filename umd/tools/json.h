/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * json.h - the JSON writer of the tools: vaccel-info --json and
 * vaccel-trace's Perfetto timeline.
 *
 * Strings are escaped as JSON requires, and a byte that is not part of
 * valid UTF-8 becomes U+FFFD, so that any name a device or the kernel
 * gives makes valid JSON.  Objects and arrays get their commas.  Two
 * layouts:
 *
 * - pretty: a member or element a line, indented by two spaces a level
 *   (vaccel-info);
 * - compact: an object's members on one line, ", " apart, but the members
 *   of the outermost object and the elements of an array inside it each
 *   on a line of their own (a timeline of many events stays one event a
 *   line, for grep and diff).
 *
 * Numbers above 2^53 lose precision in most readers: addresses are
 * written as strings (json_addr()).
 */
#ifndef VACCEL_TOOLS_JSON_H
#define VACCEL_TOOLS_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH	16

/**
 * struct json - a JSON document being written
 * @f: where it goes
 * @depth: the level of the innermost open object or array, -1 before the
 *	first
 * @compact: the compact layout, not the pretty one
 * @first: per level, no member written yet
 * @kind: per level, '{' or '['
 */
struct json {
	FILE *f;
	int depth;
	bool compact;
	bool first[JSON_MAX_DEPTH];
	char kind[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *f, bool compact);
void json_string(FILE *f, const char *s);
void json_member(struct json *j, const char *key);
void json_open(struct json *j, const char *key, char bracket);
void json_close(struct json *j, char bracket);
void json_str(struct json *j, const char *key, const char *v);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_i64(struct json *j, const char *key, int64_t v);
void json_u64_or_null(struct json *j, const char *key, uint64_t v);
void json_addr(struct json *j, const char *key, uint64_t v);
void json_bool(struct json *j, const char *key, bool v);
void json_null(struct json *j, const char *key);
void json_ns_as_us(struct json *j, const char *key, uint64_t ns);
void json_members(struct json *j, const char *members);

#endif /* VACCEL_TOOLS_JSON_H */
