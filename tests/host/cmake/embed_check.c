// SPDX-License-Identifier: MIT
/*
 * embed_check.c - the host program of the CMake test: the module that
 * vaccel_add_kernel(tc_embedded EMBED ...) linked in is an RV64 ELF with
 * both kernels, C and C++, under their plain names; the module of
 * tc_scale is a file next to it.  Prints "embed_check: ok" and exits 0.
 */
#include <stdio.h>
#include <string.h>

#include <vaccel_embed.h>

VACCEL_EMBED_DECLARE(tc_embedded);

/* Whether @s is a whole string of the image (a name of its string table). */
static int has(const unsigned char *p, size_t n, const char *s)
{
	size_t len = strlen(s) + 1, i;

	for (i = 1; i + len <= n; i++)
		if (!p[i - 1] && !memcmp(p + i, s, len))
			return 1;
	return 0;
}

int main(void)
{
	const unsigned char *m = vaccel_embed_tc_embedded;
	size_t n = vaccel_embed_tc_embedded_size;
	unsigned char hdr[20];
	FILE *f;

	if (n < 64 || memcmp(m, "\177ELF\2\1", 6) || (m[18] | m[19] << 8) != 243) {
		fprintf(stderr, "embed_check: the embedded module is not an RV64 ELF\n");
		return 1;
	}
	if (!has(m, n, "__vaccel_kernel_tc_scale") || !has(m, n, "__vaccel_kernel_tc_poly") ||
	    !has(m, n, "tc_poly") || !has(m, n, "tc_scale")) {
		fprintf(stderr, "embed_check: a kernel is missing from the embedded module\n");
		return 1;
	}
	f = fopen(TC_SCALE_ELF, "rb");
	if (!f || fread(hdr, 1, sizeof(hdr), f) != sizeof(hdr) || memcmp(hdr, "\177ELF", 4)) {
		fprintf(stderr, "embed_check: %s is not an ELF file\n", TC_SCALE_ELF);
		return 1;
	}
	fclose(f);
	printf("embed_check: ok, %zu bytes embedded\n", n);
	return 0;
}
