// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * json.c - the JSON writer of the tools (json.h).
 */
#include <inttypes.h>
#include <stdlib.h>

#include "json.h"

/* Begins a document on @f; @compact: the compact layout. */
void json_init(struct json *j, FILE *f, bool compact)
{
	*j = (struct json){ .f = f, .depth = -1, .compact = compact };
}

/* Writes @s as a JSON string: escapes, and U+FFFD for bytes not UTF-8. */
void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		unsigned int n = 0, i;

		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
			continue;
		}
		if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
			continue;
		}
		if (*p < 0x80) {
			fputc(*p++, f);
			continue;
		}
		/* A UTF-8 sequence: lead byte, then n continuation bytes. */
		if (*p >= 0xc2 && *p <= 0xdf)
			n = 1;
		else if (*p >= 0xe0 && *p <= 0xef)
			n = 2;
		else if (*p >= 0xf0 && *p <= 0xf4)
			n = 3;
		for (i = 1; n && i <= n; i++)
			if ((p[i] & 0xc0) != 0x80)
				n = 0;
		if (!n) {
			fputs("\\ufffd", f);
			p++;
			continue;
		}
		fwrite(p, 1, n + 1, f);
		p += n + 1;
	}
	fputc('"', f);
}

/* A member of the outermost object, or an element of an array in it. */
static bool json_own_line(const struct json *j)
{
	return j->depth == 0 || (j->depth == 1 && j->kind[1] == '[');
}

/* Starts a member: the comma, the layout's space and "@key": (none in arrays). */
void json_member(struct json *j, const char *key)
{
	bool first;

	if (j->depth < 0)
		return;
	first = j->first[j->depth];
	if (!first)
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (!j->compact)
		fprintf(j->f, "\n%*s", 2 * (j->depth + 1), "");
	else if (json_own_line(j) && !(first && j->depth == 0))
		fputc('\n', j->f);
	else if (!first)
		fputc(' ', j->f);
	if (key) {
		json_string(j->f, key);
		fputs(": ", j->f);
	}
}

/* Opens an object ('{') or array ('['), as the member @key. */
void json_open(struct json *j, const char *key, char bracket)
{
	json_member(j, key);
	fputc(bracket, j->f);
	/* The tools nest a few levels: deeper is a bug of theirs. */
	if (j->depth + 1 >= JSON_MAX_DEPTH) {
		fprintf(stderr, "json: nested deeper than %d levels\n", JSON_MAX_DEPTH);
		abort();
	}
	j->depth++;
	j->first[j->depth] = true;
	j->kind[j->depth] = bracket;
}

/* Closes the innermost object ('}') or array (']'). */
void json_close(struct json *j, char bracket)
{
	bool empty = j->first[j->depth];

	if (!empty && (!j->compact || json_own_line(j)) && j->depth > 0)
		fprintf(j->f, "\n%*s", j->compact ? 0 : 2 * j->depth, "");
	else if (!empty && !j->compact)
		fputc('\n', j->f);
	j->depth--;
	fputc(bracket, j->f);
}

void json_str(struct json *j, const char *key, const char *v)
{
	json_member(j, key);
	json_string(j->f, v);
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	json_member(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void json_i64(struct json *j, const char *key, int64_t v)
{
	json_member(j, key);
	fprintf(j->f, "%" PRId64, v);
}

/* @v, or null when it is 0: a limit the module does not report. */
void json_u64_or_null(struct json *j, const char *key, uint64_t v)
{
	json_member(j, key);
	if (v)
		fprintf(j->f, "%" PRIu64, v);
	else
		fputs("null", j->f);
}

/* An address, as a string: JSON numbers are exact to 2^53 only. */
void json_addr(struct json *j, const char *key, uint64_t v)
{
	json_member(j, key);
	fprintf(j->f, "\"0x%016" PRIx64 "\"", v);
}

void json_bool(struct json *j, const char *key, bool v)
{
	json_member(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	json_member(j, key);
	fputs("null", j->f);
}

/* Nanoseconds @ns as microseconds with three decimals, exactly. */
void json_ns_as_us(struct json *j, const char *key, uint64_t ns)
{
	json_member(j, key);
	fprintf(j->f, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
}

/*
 * Members already written as JSON text, "key": value, ... (or nothing),
 * appended to the open object: a model that builds its events' arguments
 * as it reads them keeps them so.
 */
void json_members(struct json *j, const char *members)
{
	if (!*members)
		return;
	json_member(j, NULL);
	fputs(members, j->f);
}
