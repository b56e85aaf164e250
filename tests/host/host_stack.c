// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * host_stack.c - the stack needs of kernels (stack.c, with elf.c, compiled
 * into this program): checked against what llvm-readelf --stack-sizes and
 * the call graph of stack_kernel.c say, and against crafted damage to the
 * module's .stack_sizes.
 *
 *	host_stack MODULE NAME=EXPECT...
 *
 * EXPECT is "unknown" or the exact need in bytes.  Prints the first failed
 * check on stderr and exits 1, else exits 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vaccel_priv.h"
#include "host_check.h"

static unsigned char *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	CHECK(f);
	CHECK(!fseek(f, 0, SEEK_END));
	n = ftell(f);
	CHECK(n > 0);
	rewind(f);
	buf = malloc(n);
	CHECK(buf);
	CHECK_EQ(fread(buf, 1, n, f), (size_t)n);
	fclose(f);
	*size = n;
	return buf;
}

/* The need of kernel @name of @file, or a need not known. */
static struct vaccel_stack_need need_of(const unsigned char *file, size_t size,
					const char *name)
{
	struct vaccel_stack_need need = { false, 0 };
	struct vaccel_stack_graph *g;
	struct vaccel_elf_image img;
	uint64_t pos = 0, offset;
	const char *kname;
	char msg[256];

	CHECK_EQ(vaccel_elf_parse(file, size, &img, msg, sizeof(msg)), 0);
	CHECK_EQ(vaccel_stack_graph_build(&img, &g), 0);
	while (vaccel_elf_next_kernel(&img, &pos, &kname, &offset))
		if (!strcmp(kname, name))
			need = vaccel_stack_graph_need(g, offset);
	vaccel_stack_graph_free(g);
	return need;
}

int main(int argc, char **argv)
{
	struct vaccel_elf_image img;
	unsigned char *file, *copy;
	uint64_t off, len;
	size_t size;
	char msg[256];
	int i;

	CHECK(argc >= 3);
	file = read_file(argv[1], &size);
	for (i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		struct vaccel_stack_need n;

		CHECK(eq);
		*eq = '\0';
		n = need_of(file, size, argv[i]);
		if (!strcmp(eq + 1, "unknown")) {
			if (n.known) {
				fprintf(stderr, "%s: a need of %u, not unknown\n", argv[i], n.bytes);
				return 1;
			}
		} else if (!n.known || n.bytes != strtoul(eq + 1, NULL, 0)) {
			fprintf(stderr, "%s: %s %u, not %s\n", argv[i],
				n.known ? "a need of" : "unknown", n.bytes, eq + 1);
			return 1;
		}
	}

	/* Damage to .stack_sizes: every need becomes unknown, nothing breaks. */
	CHECK_EQ(vaccel_elf_parse(file, size, &img, msg, sizeof(msg)), 0);
	CHECK(vaccel_elf_find_section(&img, ".stack_sizes", &off, &len));
	copy = malloc(size);
	CHECK(copy);
	/* A truncated last entry (a ULEB128 that never ends). */
	memcpy(copy, file, size);
	memset(copy + off + len - 1, 0xff, 1);
	CHECK(!need_of(copy, size, "sk_leaf").known);
	/* No section of that name: no sizes, nothing known. */
	memcpy(copy, file, size);
	{
		char *name = memmem(copy, size, ".stack_sizes", 12);

		CHECK(name);
		name[1] = 'X';
		CHECK(!need_of(copy, size, "sk_leaf").known);
	}
	free(copy);
	free(file);
	return 0;
}
