// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * rt_mem.c - the memory functions of the device runtime: memcpy(),
 * memmove(), memset() and memcmp(), which clang calls by itself for
 * structure copies and initialisations, even with -ffreestanding.
 *
 * vaccel-cc links the runtime's objects between --start-lib and --end-lib,
 * so a module only holds what its kernels use.  Built like the kernels
 * (-fPIC -fvisibility=hidden, freestanding, hence without the loop idioms
 * that would turn these loops into calls of themselves).  Eight bytes at a
 * time when both addresses allow it: the engine's cost is per instruction.
 */
#include <stddef.h>
#include <stdint.h>

#define RT_EXPORT	__attribute__((visibility("default")))

RT_EXPORT void *memcpy(void *dst, const void *src, size_t n);
RT_EXPORT void *memmove(void *dst, const void *src, size_t n);
RT_EXPORT void *memset(void *dst, int c, size_t n);
RT_EXPORT int memcmp(const void *a, const void *b, size_t n);

typedef uint64_t __attribute__((may_alias)) rt_word;

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (!(((uintptr_t)d | (uintptr_t)s) & 7)) {
		for (; n >= 32; n -= 32, d += 32, s += 32) {
			((rt_word *)d)[0] = ((const rt_word *)s)[0];
			((rt_word *)d)[1] = ((const rt_word *)s)[1];
			((rt_word *)d)[2] = ((const rt_word *)s)[2];
			((rt_word *)d)[3] = ((const rt_word *)s)[3];
		}
		for (; n >= 8; n -= 8, d += 8, s += 8)
			*(rt_word *)d = *(const rt_word *)s;
	}
	for (; n; n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	/* Overlapping, destination above: backwards. */
	d += n;
	s += n;
	if (!(((uintptr_t)d | (uintptr_t)s) & 7))
		for (; n >= 8; n -= 8) {
			d -= 8;
			s -= 8;
			*(rt_word *)d = *(const rt_word *)s;
		}
	while (n--)
		*--d = *--s;
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	uint64_t w = (unsigned char)c * 0x0101010101010101ull;

	for (; n && ((uintptr_t)d & 7); n--)
		*d++ = (unsigned char)c;
	for (; n >= 32; n -= 32, d += 32) {
		((rt_word *)d)[0] = w;
		((rt_word *)d)[1] = w;
		((rt_word *)d)[2] = w;
		((rt_word *)d)[3] = w;
	}
	for (; n >= 8; n -= 8, d += 8)
		*(rt_word *)d = w;
	for (; n; n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x < *y ? -1 : 1;
	return 0;
}
