/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * printf_buffer.h - the printf buffer of an OpenCL C launch: what the
 * device library's printf() writes (device/printf.c) and the host's
 * formatter reads (printf_format.c).  C, for both sides; no OpenCL C.
 *
 * The argument block's hidden header gives the buffer's GPU address (64
 * bits at VACCEL_CL_PRINTF_HEADER_VA, 0 for none) and its size in bytes
 * (32 bits at VACCEL_CL_PRINTF_HEADER_SIZE), the offsets of lower.h.  The
 * host zeroes the buffer's first 8 bytes before the launch.
 *
 * The buffer: struct vaccel_cl_printf_buffer, then the records, packed,
 * in the order their space was reserved.  A work-item reserves a record's
 * bytes with a compare-and-swap on @used, only when they fit; a record
 * that does not fit is counted in @dropped and printf returns -1.
 *
 * A record: struct vaccel_cl_printf_record, then the format string's
 * bytes (format_size of them, no NUL), up to a multiple of 8 bytes, then
 * one item per argument that the format converts, in order.  Every item
 * is a multiple of 8 bytes, little-endian:
 *
 * - a width or precision given by '*': the int, as an int64_t;
 * - d, i, o, u, x, X, c: the argument as an int64_t (an int, as C's
 *   promotion made it, sign-extended; a long with the l modifier);
 * - a, A, e, E, f, F, g, G: a double (a float argument was promoted);
 * - p: the address, a uint64_t;
 * - s: the length n as a uint64_t, then the n bytes, no NUL, up to a
 *   multiple of 8 (a null pointer is copied as "(null)");
 * - a vector (%vN with hh, h, hl or l): its N elements packed, of 1, 2,
 *   4 or 8 bytes each as the modifier says (floats stay floats, halves
 *   their bits), up to a multiple of 8.
 *
 * The formats that printf() takes: '%', the flags "-+ #0", a width (digits
 * or '*'), a precision ('.' then digits or '*'), an optional vector
 * specifier v2, v3, v4, v8 or v16, an optional length modifier (hh, h, l;
 * hl for vectors only, and a vector needs one), and one of "diouxXcsp"
 * and "aAeEfFgG"; or "%%".  A vector takes no c, s or p.  printf() of any
 * other format writes nothing and returns -1.
 */
#ifndef VACCEL_CL_PRINTF_BUFFER_H
#define VACCEL_CL_PRINTF_BUFFER_H

#include <stdint.h>

/* Offsets of the printf buffer's address and size in the hidden header (lower.h). */
#define VACCEL_CL_PRINTF_HEADER_VA	32
#define VACCEL_CL_PRINTF_HEADER_SIZE	40

/**
 * struct vaccel_cl_printf_buffer - the start of the printf buffer
 * @used: bytes of records after this structure
 * @dropped: records that did not fit
 */
struct vaccel_cl_printf_buffer {
	uint32_t used;
	uint32_t dropped;
};

/**
 * struct vaccel_cl_printf_record - the start of a record
 * @size: bytes of the record, this structure included; a multiple of 8
 * @format_size: bytes of the format string that follows, without a NUL
 */
struct vaccel_cl_printf_record {
	uint32_t size;
	uint32_t format_size;
};

/* Every record and every item is a multiple of this many bytes. */
#define VACCEL_CL_PRINTF_ALIGN		8

/* Length modifiers. */
enum vaccel_cl_printf_mod {
	VACCEL_CL_PRINTF_MOD_NONE,
	VACCEL_CL_PRINTF_MOD_HH,
	VACCEL_CL_PRINTF_MOD_H,
	VACCEL_CL_PRINTF_MOD_HL,
	VACCEL_CL_PRINTF_MOD_L,
};

/**
 * struct vaccel_cl_printf_spec - a conversion specification, parsed
 * @length: its characters, from the '%' to the conversion
 * @options: characters of the flags, width and precision, after the '%'
 * @conv: the conversion character; '%' for "%%"
 * @vector: components of a vector, 0 for a scalar
 * @mod: the length modifier, enum vaccel_cl_printf_mod
 * @star_width: the width is an argument
 * @star_precision: the precision is an argument
 */
struct vaccel_cl_printf_spec {
	uint32_t length;
	uint32_t options;
	char conv;
	uint8_t vector;
	uint8_t mod;
	uint8_t star_width;
	uint8_t star_precision;
};

static inline int vaccel_cl_printf_is_float(char c)
{
	return c == 'a' || c == 'A' || c == 'e' || c == 'E' || c == 'f' ||
	       c == 'F' || c == 'g' || c == 'G';
}

static inline int vaccel_cl_printf_is_int(char c)
{
	return c == 'd' || c == 'i' || c == 'o' || c == 'u' || c == 'x' ||
	       c == 'X' || c == 'c';
}

/*
 * vaccel_cl_printf_element() - bytes of one component of vector @s: 1, 2,
 * 4 or 8
 */
static inline unsigned int
vaccel_cl_printf_element(const struct vaccel_cl_printf_spec *s)
{
	static const unsigned char bytes[] = { 0, 1, 2, 4, 8 };

	return bytes[s->mod];
}

/**
 * vaccel_cl_printf_parse() - parse the conversion specification at @p
 * @p: a '%'
 * @avail: characters readable from @p, at least 1
 * @s: receives the specification
 *
 * The grammar is the one above, which the device and the host share.
 *
 * Return: 0, or -1 if the specification is not one printf() takes.
 */
static inline int vaccel_cl_printf_parse(const char *p, uint32_t avail,
					 struct vaccel_cl_printf_spec *s)
{
	uint32_t i = 1;

	*s = (struct vaccel_cl_printf_spec){ 0 };
#define VACCEL_CL_PRINTF_AT(k) ((k) < avail ? p[k] : '\0')
	while (VACCEL_CL_PRINTF_AT(i) == '-' || VACCEL_CL_PRINTF_AT(i) == '+' ||
	       VACCEL_CL_PRINTF_AT(i) == ' ' || VACCEL_CL_PRINTF_AT(i) == '#' ||
	       VACCEL_CL_PRINTF_AT(i) == '0')
		i++;
	if (VACCEL_CL_PRINTF_AT(i) == '*') {
		s->star_width = 1;
		i++;
	} else {
		while (VACCEL_CL_PRINTF_AT(i) >= '0' && VACCEL_CL_PRINTF_AT(i) <= '9')
			i++;
	}
	if (VACCEL_CL_PRINTF_AT(i) == '.') {
		i++;
		if (VACCEL_CL_PRINTF_AT(i) == '*') {
			s->star_precision = 1;
			i++;
		} else {
			while (VACCEL_CL_PRINTF_AT(i) >= '0' && VACCEL_CL_PRINTF_AT(i) <= '9')
				i++;
		}
	}
	s->options = i - 1;
	if (VACCEL_CL_PRINTF_AT(i) == 'v') {
		char c = VACCEL_CL_PRINTF_AT(i + 1);

		if (c == '2' || c == '3' || c == '4' || c == '8') {
			s->vector = (uint8_t)(c - '0');
			i += 2;
		} else if (c == '1' && VACCEL_CL_PRINTF_AT(i + 2) == '6') {
			s->vector = 16;
			i += 3;
		} else {
			return -1;
		}
	}
	if (VACCEL_CL_PRINTF_AT(i) == 'h') {
		i++;
		if (VACCEL_CL_PRINTF_AT(i) == 'h') {
			s->mod = VACCEL_CL_PRINTF_MOD_HH;
			i++;
		} else if (VACCEL_CL_PRINTF_AT(i) == 'l') {
			s->mod = VACCEL_CL_PRINTF_MOD_HL;
			i++;
		} else {
			s->mod = VACCEL_CL_PRINTF_MOD_H;
		}
	} else if (VACCEL_CL_PRINTF_AT(i) == 'l') {
		s->mod = VACCEL_CL_PRINTF_MOD_L;
		i++;
	}
	s->conv = VACCEL_CL_PRINTF_AT(i);
	s->length = i + 1;
#undef VACCEL_CL_PRINTF_AT
	if (s->conv == '%')
		return s->length == 2 ? 0 : -1;
	if (s->vector)
		return s->mod != VACCEL_CL_PRINTF_MOD_NONE &&
		       ((vaccel_cl_printf_is_int(s->conv) && s->conv != 'c') ||
			vaccel_cl_printf_is_float(s->conv)) ? 0 : -1;
	if (s->mod == VACCEL_CL_PRINTF_MOD_HL)
		return -1;
	if (vaccel_cl_printf_is_float(s->conv))
		return s->mod == VACCEL_CL_PRINTF_MOD_NONE || s->mod == VACCEL_CL_PRINTF_MOD_L ? 0 : -1;
	if (s->conv == 's' || s->conv == 'p' || s->conv == 'c')
		return s->mod == VACCEL_CL_PRINTF_MOD_NONE ? 0 : -1;
	return vaccel_cl_printf_is_int(s->conv) ? 0 : -1;
}

#endif /* VACCEL_CL_PRINTF_BUFFER_H */
