// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * host_print.c - vaccel_printf() of the device runtime
 * (umd/kernel/rt_print.c, compiled in for the host) against the C
 * library's snprintf(): every conversion, flag, width, precision and
 * length modifier it supports, then the print buffer: messages appended
 * whole, cut at 255 bytes, dropped and counted once the buffer is full.
 *
 * Prints the first failed check on stderr and exits 1, else exits 0.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "host_check.h"

int vaccel_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

extern struct {
	uint64_t va;
	uint64_t size;
} __vaccel_print;

/* The print buffer: used, dropped, then the text. */
static struct {
	uint32_t used;
	uint32_t dropped;
	char text[4096];
} pb;

static unsigned int checks;

/* vaccel_printf() must print what snprintf() does. */
#define SAME(...)							\
	do {								\
		char _want[512];					\
		int _n = snprintf(_want, sizeof(_want), __VA_ARGS__);	\
		uint32_t _at = pb.used;					\
		int _got = vaccel_printf(__VA_ARGS__);			\
		if (_got != _n || pb.used != _at + (uint32_t)_n ||	\
		    memcmp(pb.text + _at, _want, _n)) {			\
			fprintf(stderr, "%s:%d: printf(%s): \"%.*s\" (%d), not \"%s\" (%d)\n", \
				__FILE__, __LINE__, #__VA_ARGS__,	\
				_got > 0 ? _got : 0, pb.text + _at, _got, _want, _n); \
			return 1;					\
		}							\
		checks++;						\
		if (pb.used > sizeof(pb.text) / 2)			\
			pb.used = 0;					\
	} while (0)

int main(void)
{
	char big[400];
	int i;

	__vaccel_print.va = (uintptr_t)&pb;
	__vaccel_print.size = sizeof(pb.text);

	SAME("plain text\n");
	SAME("%d %i %u", 42, -42, 42u);
	SAME("%d %d", 0, -2147483647 - 1);
	SAME("%u %x %X %o", 4294967295u, 0xdeadbeefu, 0xcafeu, 0777u);
	SAME("%ld %lu %lx", -1234567890123l, 18446744073709551615ul, 0x123456789abcdeful);
	SAME("%lld %llu", -9223372036854775807ll - 1, 12345678901234567890ull);
	SAME("%zu %zd %td %jd", (size_t)12345, (ssize_t)-5, (ptrdiff_t)-7, (intmax_t)99);
	SAME("%hd %hu %hhd %hhu %hx", (short)-3, (unsigned short)65535, (signed char)-5,
	     (unsigned char)250, (unsigned short)0xabcd);
	SAME("%5d|%-5d|%05d|%+d|% d|%+5d|%-+5d|", 42, 42, 42, 42, 42, -42, 42);
	SAME("%.3d|%8.3d|%-8.3d|%08.3d|%.0d|%.0d", 7, 7, -7, 7, 0, 1);
	SAME("%#x %#X %#o %#o %#x", 255u, 255u, 8u, 0u, 0u);
	SAME("%*d|%-*d|%.*d|%*.*d", 6, 1, 6, 2, 4, 3, 7, 3, 4);
	SAME("%*d|", -6, 5);
	SAME("%c%c%c|%3c|%-3c|", 'a', 'b', 'c', 'x', 'y');
	SAME("%s|%10s|%-10s|%.2s|%10.2s|%.0s|", "hello", "hi", "hi", "hello", "hello", "x");
	SAME("%s", (char *)NULL);
	SAME("%p %p", (void *)0x1234, (void *)0xffffffffffff);
	SAME("100%% %d%%", 5);
	SAME("%f %f %f %f", 0.0, 1.0, -1.5, 3.14159265358979);
	SAME("%.2f %.0f %.1f %.10f", 2.345, 2.7, -0.05, 1.0 / 3);
	SAME("%.0f %.0f %.0f %.0f %.1f", 0.5, 1.5, 2.5, 3.5, 0.25);
	SAME("%10.3f|%-10.3f|%010.3f|%+.2f|% .2f|%#.0f", 3.14159, 3.14159, -3.14159, 1.0, 1.0, 5.0);
	SAME("%f %f", 123456789.125, 1e15);
	SAME("%e %E %.3e %.0e %e", 1.0, 12345.678, 0.000123456, 5e10, -2.5e-300);
	SAME("%e %e %e", 1e100, 9.9999999e99, 0.0);
	SAME("%g %g %g %g %g %g", 1.0, 100000.0, 1000000.0, 0.0001, 0.00001, 123.456);
	SAME("%g %G %.3g %.10g %#g %g", 1e-10, 1e20, 3.14159, 2.0 / 3, 1.5, 0.0);
	SAME("%g %g", 99999.95, 0.00009999995);
	SAME("%f %F %e %g %f", 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, -1.0 / 0.0, -0.0);
	SAME("%8.3g|%-8.3g|%08.3g|", 3.14159, 3.14159, -3.14159);
	SAME("%d %s %f %c %x", 1, "two", 3.0, '4', 5u);

	/* Not a conversion (undefined in C): shown as written. */
	pb.used = 0;
	CHECK_EQ(vaccel_printf("%q %y|%"), 6);
	CHECK(!memcmp(pb.text, "%q %y|", 6));

	/* Longer than a message: cut at 256 bytes. */
	pb.used = 0;
	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CHECK_EQ(vaccel_printf("%s", big), 256);
	CHECK_EQ(pb.used, 256);
	CHECK(!memcmp(pb.text, big, 256));
	CHECK_EQ(vaccel_printf("%s", ""), 0);
	CHECK_EQ(pb.used, 256);

	/* Full: messages are dropped whole, counted, and reserve nothing. */
	pb.used = 0;
	pb.dropped = 0;
	for (i = 0; i < 1000; i++)
		vaccel_printf("message %04d\n", i);
	CHECK_EQ(pb.used, 4096 / 13 * 13);
	CHECK_EQ(pb.dropped, 1000 - 4096 / 13);
	CHECK(!memcmp(pb.text, "message 0000\nmessage 0001\n", 26));
	CHECK_EQ(vaccel_printf("%s", "a"), 1);
	CHECK_EQ(pb.used, 4096);
	CHECK_EQ(vaccel_printf("%s", "abcdefg"), -1);
	CHECK_EQ(pb.dropped, 1000 - 4096 / 13 + 1);

	/* No print buffer (the loader did not set one): nothing, -1. */
	__vaccel_print.va = 0;
	CHECK_EQ(vaccel_printf("x"), -1);
	CHECK_EQ(vaccel_printf("%s", ""), 0);
	printf("# %u formats printed as snprintf() does\n", checks);
	return 0;
}
