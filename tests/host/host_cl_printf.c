// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * host_cl_printf.c - the host's formatter of OpenCL C's printf buffer
 * (umd/opencl/printf_format.c, compiled in) on records built by hand as
 * the device library's printf() writes them (printf_buffer.h): every
 * conversion, flag, width, precision and length modifier, '*' arguments,
 * strings, pointers and vectors of every element size; records in
 * order; the dropped count; then malformed buffers, each refused with
 * -EINVAL after the good records before it, and randomly damaged ones
 * (with the sanitizers, nothing read out of bounds).
 *
 * Prints the first failed check on stderr and exits 1, else exits 0.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_check.h"
#include "lower.h"
#include "printf_buffer.h"
#include "printf_format.h"

_Static_assert(VACCEL_CL_PRINTF_HEADER_VA == VACCEL_CL_HEADER_PRINTF_VA,
	       "printf_buffer.h and lower.h disagree on the header");
_Static_assert(VACCEL_CL_PRINTF_HEADER_SIZE == VACCEL_CL_HEADER_PRINTF_SIZE,
	       "printf_buffer.h and lower.h disagree on the header");

/* A buffer being built: the header, then records. */
static union {
	struct vaccel_cl_printf_buffer h;
	unsigned char bytes[8192];
} buf;
static size_t rec;	/* offset of the record being built */
static size_t end;	/* offset of the next byte */

static void reset(void)
{
	memset(&buf, 0, sizeof(buf));
	end = sizeof(buf.h);
}

static void put(const void *p, size_t n)
{
	CHECK(end + n + 8 <= sizeof(buf.bytes));
	memcpy(buf.bytes + end, p, n);
	end += n;
	while (end % 8)
		buf.bytes[end++] = 0;
}

static void begin(const char *fmt)
{
	struct vaccel_cl_printf_record r = { 0, (uint32_t)strlen(fmt) };

	rec = end;
	put(&r, sizeof(r));
	put(fmt, strlen(fmt));
}

static void i64(int64_t v)
{
	put(&v, 8);
}

static void f64(double v)
{
	put(&v, 8);
}

static void str(const char *s)
{
	i64((int64_t)strlen(s));
	put(s, strlen(s));
}

/* Ends the record and counts it in the header. */
static void finish(void)
{
	uint32_t size = (uint32_t)(end - rec);

	memcpy(buf.bytes + rec, &size, 4);
	buf.h.used = (uint32_t)(end - sizeof(buf.h));
}

/* Formats the buffer's @size bytes; the text into @text. */
static int format(size_t size, char *text, size_t text_size)
{
	FILE *f = fmemopen(text, text_size, "w");
	int ret;

	CHECK(f);
	memset(text, 0, text_size);
	ret = vaccel_cl_printf_format(buf.bytes, size, f);
	fclose(f);
	return ret;
}

#define EXPECT(count, want)						\
	do {								\
		char _text[4096];					\
		int _ret = format(sizeof(buf.bytes), _text, sizeof(_text)); \
									\
		if (_ret != (count) || strcmp(_text, want)) {		\
			fprintf(stderr, "%s:%d: %d records \"%s\", expected %d \"%s\"\n", \
				__FILE__, __LINE__, _ret, _text, count, want); \
			exit(1);					\
		}							\
	} while (0)

/* Every scalar conversion, with flags, widths, precisions, modifiers. */
static void scalars(void)
{
	char want[512];

	reset();
	begin("%d %i %u %x %X %o %c|%5.2f|%-6d|%+d|% d|%05d|%#x|%#o\n");
	i64(-42);
	i64(7);
	i64(-1);	/* %u of the int -1 */
	i64(255);
	i64(0xabc);
	i64(8);
	i64('Z');
	f64(3.14159);
	i64(42);
	i64(5);
	i64(6);
	i64(-12);
	i64(255);
	i64(8);
	finish();
	EXPECT(1, "-42 7 4294967295 ff ABC 10 Z| 3.14|42    |+5| 6|-0012|0xff|010\n");

	reset();
	begin("%e|%E|%g|%G|%a|%A|%f|%.0f|%10.3e|%F|%lf\n");
	f64(12345.678);
	f64(-0.000123);
	f64(1e-5);
	f64(1e20);
	f64(1.0);
	f64(-0.5);
	f64(-0.0);
	f64(2.5);
	f64(6.02e23);
	f64(1.0 / 0.0);
	f64(0.125);
	finish();
	snprintf(want, sizeof(want), "%e|%E|%g|%G|%a|%A|%f|%.0f|%10.3e|%F|%lf\n",
		 12345.678, -0.000123, 1e-5, 1e20, 1.0, -0.5, -0.0, 2.5, 6.02e23,
		 1.0 / 0.0, 0.125);
	EXPECT(1, want);

	reset();
	begin("%hhd %hhu %hd %hu %ld %lu %lx %li|%*d|%-*d|%.*f|%*.*f|%%|%s|%-4s|%.2s|%c%c\n");
	i64(0x1ff);	/* a char argument, promoted: hh keeps its low byte */
	i64(-1);
	i64(0x12345);
	i64(-2);
	i64(INT64_MIN);
	i64(-1);
	i64(INT64_MIN);
	i64(INT64_MAX);
	i64(6);
	i64(42);
	i64(4);
	i64(7);
	i64(2);
	f64(1.23456);
	i64(8);
	i64(3);
	f64(-2.5);
	str("hello");
	str("ab");
	str("xyz");
	i64('o');
	i64('k');
	finish();
	EXPECT(1, "-1 255 9029 65534 -9223372036854775808 18446744073709551615 "
		  "8000000000000000 9223372036854775807|    42|7   |1.23|  -2.500|%|hello|ab  |xy|ok\n");

	reset();
	begin("%p|%s|no conversion\n");
	i64(0x1000);
	str("");
	finish();
	snprintf(want, sizeof(want), "%p||no conversion\n", (void *)0x1000);
	EXPECT(1, want);
}

/* Vectors: each element with the flags, width and precision, commas between. */
static void vectors(void)
{
	int32_t i4[4] = { 1, -2, 3, INT32_MIN };
	float f2[2] = { 1.5f, -0.25f };
	uint8_t c3[3] = { 0xff, 0, 0x7f };
	uint64_t l2[2] = { 0x123456789abcdef0ull, 1 };
	int16_t s2[2] = { -1, 0x7fff };
	uint16_t h4[4] = { 0x3c00, 0xc000, 0x7c00, 0x0001 };	/* 1, -2, inf, 2^-24 */
	double d3[3] = { 0.5, -1e300, 2.0 };
	int8_t c16[16];
	unsigned int i;

	for (i = 0; i < 16; i++)
		c16[i] = (int8_t)(i * 17 - 128);
	reset();
	begin("%v4hld|%v2hlf|%v3hhx|%v2lx|%#v2hx|%v4hf|%v3lg|%5.1v2hlf\n");
	put(i4, sizeof(i4));
	put(f2, sizeof(f2));
	put(c3, sizeof(c3));
	put(l2, sizeof(l2));
	put(s2, sizeof(s2));
	put(h4, sizeof(h4));
	put(d3, sizeof(d3));
	put(f2, sizeof(f2));
	finish();
	EXPECT(1, "1,-2,3,-2147483648|1.500000,-0.250000|ff,0,7f|123456789abcdef0,1|"
		  "0xffff,0x7fff|1.000000,-2.000000,inf,0.000000|0.5,-1e+300,2|  1.5, -0.2\n");

	reset();
	begin("%v16hhd\n");
	put(c16, sizeof(c16));
	finish();
	EXPECT(1, "-128,-111,-94,-77,-60,-43,-26,-9,8,25,42,59,76,93,110,127\n");

	reset();
	begin("%*v2hlu\n");
	i64(3);
	put(i4, 8);
	finish();
	EXPECT(1, "  1,4294967294\n");
}

/* Several records come out in order; the dropped count is the header's. */
static void records(void)
{
	int i;

	reset();
	for (i = 0; i < 3; i++) {
		begin("record %d of %s\n");
		i64(i);
		str("three");
		finish();
	}
	buf.h.dropped = 17;
	EXPECT(3, "record 0 of three\nrecord 1 of three\nrecord 2 of three\n");
	CHECK_EQ(vaccel_cl_printf_dropped(buf.bytes, sizeof(buf.bytes)), 17);
	CHECK_EQ(vaccel_cl_printf_dropped(buf.bytes, 4), 0);

	/* An empty buffer: no record. */
	reset();
	EXPECT(0, "");
}

/* A good record, then the bad one that @make builds: only the first is printed. */
static void refused(int line, void (*make)(void))
{
	char text[1024];
	int ret;

	reset();
	begin("good %d\n");
	i64(1);
	finish();
	make();
	ret = format(sizeof(buf.bytes), text, sizeof(text));
	if (ret != -EINVAL || strcmp(text, "good 1\n")) {
		fprintf(stderr, "%s:%d: %d \"%s\", expected -EINVAL after \"good 1\\n\"\n",
			__FILE__, line, ret, text);
		exit(1);
	}
}

static void bad_size_zero(void)
{
	begin("x");
	finish();
	memset(buf.bytes + rec, 0, 4);
}

static void bad_size_odd(void)
{
	begin("x");
	finish();
	buf.bytes[rec] = 12;
}

static void bad_size_past_used(void)
{
	begin("x");
	finish();
	buf.bytes[rec] = 64;
}

static void bad_header_cut(void)
{
	buf.h.used += 4;
}

static void bad_format_size(void)
{
	begin("%d");
	i64(1);
	finish();
	buf.bytes[rec + 4] = 40;
}

static void bad_missing_item(void)
{
	begin("%d %d");
	i64(1);
	finish();
}

static void bad_extra_item(void)
{
	begin("%d");
	i64(1);
	i64(2);
	finish();
}

static void bad_string_length(void)
{
	begin("%s");
	i64(INT64_MAX);
	finish();
}

static void bad_string_past_record(void)
{
	begin("%s");
	i64(9);
	put("abcdefgh", 8);
	finish();
}

static void bad_conversion(void)
{
	begin("%q");
	finish();
}

static void bad_vector_width(void)
{
	begin("%v5hld");
	i64(0);
	i64(0);
	i64(0);
	finish();
}

static void bad_vector_modifier(void)
{
	begin("%v4d");
	i64(0);
	i64(0);
	finish();
}

static void bad_vector_string(void)
{
	begin("%v2hls");
	i64(0);
	finish();
}

static void bad_scalar_hl(void)
{
	begin("%hlf");
	f64(1.0);
	finish();
}

static void bad_percent_at_end(void)
{
	begin("50%");
	finish();
}

static void bad_star(void)
{
	begin("%*d");
	i64(1 << 30);
	i64(1);
	finish();
}

static void bad_width(void)
{
	begin("%99999999d");
	i64(1);
	finish();
}

static void malformed(void)
{
	char text[64];

	refused(__LINE__, bad_size_zero);
	refused(__LINE__, bad_size_odd);
	refused(__LINE__, bad_size_past_used);
	refused(__LINE__, bad_header_cut);
	refused(__LINE__, bad_format_size);
	refused(__LINE__, bad_missing_item);
	refused(__LINE__, bad_extra_item);
	refused(__LINE__, bad_string_length);
	refused(__LINE__, bad_string_past_record);
	refused(__LINE__, bad_conversion);
	refused(__LINE__, bad_vector_width);
	refused(__LINE__, bad_vector_modifier);
	refused(__LINE__, bad_vector_string);
	refused(__LINE__, bad_scalar_hl);
	refused(__LINE__, bad_percent_at_end);
	refused(__LINE__, bad_star);
	refused(__LINE__, bad_width);

	/* used past the buffer's size: nothing at all. */
	reset();
	begin("x\n");
	finish();
	CHECK_EQ(format(end - 1, text, sizeof(text)), -EINVAL);
	CHECK_EQ(text[0], 0);
	CHECK_EQ(format(end, text, sizeof(text)), 1);
	CHECK_EQ(vaccel_cl_printf_format(buf.bytes, 7, stdout), -EINVAL);
	CHECK_EQ(vaccel_cl_printf_format(NULL, 64, stdout), -EINVAL);
}

/*
 * Random damage to a buffer of every kind of record, formatted from a
 * copy of exactly its size (the sanitizers catch any read past it): a
 * count of records or -EINVAL, nothing else.
 */
static void damaged(unsigned int rounds)
{
	uint32_t seed = 20261128;
	unsigned char *copy;
	size_t size;
	unsigned int r, k;

	reset();
	begin("%d %s %v4hld %*.*f %p %c %lx %v2hhx %%\n");
	i64(1);
	str("damaged");
	put((int32_t[4]){ 1, 2, 3, 4 }, 16);
	i64(4);
	i64(2);
	f64(1.5);
	i64(0x40);
	i64('c');
	i64(-1);
	put((uint8_t[2]){ 1, 2 }, 2);
	finish();
	begin("%v16lf\n");
	for (k = 0; k < 16; k++)
		f64(k);
	finish();
	size = end;
	copy = malloc(size);
	CHECK(copy);
	for (r = 0; r < rounds; r++) {
		FILE *null = fopen("/dev/null", "w");
		unsigned int n = 1 + r % 4;
		int ret;

		CHECK(null);
		memcpy(copy, buf.bytes, size);
		for (k = 0; k < n; k++) {
			seed = seed * 1664525u + 1013904223u;
			copy[(seed >> 8) % size] ^= (unsigned char)(1u << (seed >> 28 & 7));
		}
		seed = seed * 1664525u + 1013904223u;
		ret = vaccel_cl_printf_format(copy, size - (seed >> 16) % 3 * (r & 1), null);
		fclose(null);
		CHECK(ret == -EINVAL || (ret >= 0 && ret <= 2));
	}
	free(copy);
}

int main(void)
{
	scalars();
	vectors();
	records();
	malformed();
	damaged(20000);
	return 0;
}
