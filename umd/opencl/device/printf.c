// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * printf.c - printf() of OpenCL C 1.2 (6.12.13), the device's side: each
 * call writes one record into the launch's printf buffer, which the host
 * formats after the launch with its own printf family (printf_format.c).
 * The record format is printf_buffer.h's.
 *
 * C, because OpenCL C has no variadic functions.  clang calls OpenCL's
 * printf by the plain name "printf", with the format in the constant
 * address space (2) and the arguments as C passes them: a float promoted
 * to double, char and short to int, a vector as an integer of its size
 * (two registers at most) or by reference.  va_arg of an integer vector
 * of the same size reads each the same way, so the elements' type only
 * needs their size.
 *
 * A call walks the format twice: once to measure the record, once to
 * write it into the space it reserved.  The format is copied into the
 * record, since the host cannot read the module's read-only data.  A
 * format printf_buffer.h does not describe, a launch without a buffer or
 * a record that does not fit make printf() return -1 (the last counted
 * in the buffer's dropped records); it returns 0 otherwise.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "printf_buffer.h"

/* OpenCL's __constant: the format and the string arguments' literals. */
#define CONSTANT __attribute__((address_space(2)))

#define ALIGN_UP(x)	(((x) + VACCEL_CL_PRINTF_ALIGN - 1) & ~(uint64_t)(VACCEL_CL_PRINTF_ALIGN - 1))

/* The record being written; @out NULL while measuring. */
struct writer {
	unsigned char *out;
	uint64_t off;
};

static void put_bytes(struct writer *w, const unsigned char *p, uint64_t n)
{
	uint64_t i, end = ALIGN_UP(n);

	if (w->out) {
		for (i = 0; i < n; i++)
			w->out[w->off + i] = p[i];
		for (; i < end; i++)
			w->out[w->off + i] = 0;
	}
	w->off += end;
}

static void put_u64(struct writer *w, uint64_t v)
{
	if (w->out)
		*(uint64_t *)(w->out + w->off) = v;
	w->off += 8;
}

static uint64_t length(const char *s)
{
	uint64_t n = 0;

	while (s[n])
		n++;
	return n;
}

/* A vector of @n elements of @T, read as the caller passed it. */
#define PUT_VECTOR(T, n)						\
	case n: {							\
		typedef T vec __attribute__((ext_vector_type(n)));	\
		vec v = va_arg(*ap, vec);				\
									\
		put_bytes(w, (const unsigned char *)&v, n * sizeof(T)); \
		break;							\
	}

#define PUT_VECTORS(T)							\
	switch (s->vector) {						\
	PUT_VECTOR(T, 2)						\
	PUT_VECTOR(T, 3)						\
	PUT_VECTOR(T, 4)						\
	PUT_VECTOR(T, 8)						\
	PUT_VECTOR(T, 16)						\
	}

static void put_vector(struct writer *w, const struct vaccel_cl_printf_spec *s,
		       va_list *ap)
{
	switch (vaccel_cl_printf_element(s)) {
	case 1:
		PUT_VECTORS(uint8_t)
		break;
	case 2:
		PUT_VECTORS(uint16_t)
		break;
	case 4:
		PUT_VECTORS(uint32_t)
		break;
	default:
		PUT_VECTORS(uint64_t)
		break;
	}
}

/*
 * Measures (w->out NULL) or writes the record of @fmt and @ap.
 * Return: 0, or -1 for a format printf() does not take.
 */
static int walk(struct writer *w, const char *fmt, va_list *ap)
{
	uint64_t n = length(fmt), i = 0;
	struct vaccel_cl_printf_spec s;

	if (n > UINT32_MAX)
		return -1;
	w->off = sizeof(struct vaccel_cl_printf_record);
	put_bytes(w, (const unsigned char *)fmt, n);
	while (i < n) {
		if (fmt[i] != '%') {
			i++;
			continue;
		}
		if (vaccel_cl_printf_parse(fmt + i, (uint32_t)(n - i), &s))
			return -1;
		i += s.length;
		if (s.conv == '%')
			continue;
		if (s.star_width)
			put_u64(w, (uint64_t)(int64_t)va_arg(*ap, int));
		if (s.star_precision)
			put_u64(w, (uint64_t)(int64_t)va_arg(*ap, int));
		if (s.vector) {
			put_vector(w, &s, ap);
		} else if (vaccel_cl_printf_is_float(s.conv)) {
			union { double d; uint64_t u; } v = { va_arg(*ap, double) };

			put_u64(w, v.u);
		} else if (s.conv == 's') {
			const CONSTANT char *str = va_arg(*ap, const CONSTANT char *);
			const char *p = str ? (const char *)(uintptr_t)str : "(null)";
			uint64_t len = length(p);

			put_u64(w, len);
			put_bytes(w, (const unsigned char *)p, len);
		} else if (s.conv == 'p') {
			put_u64(w, (uint64_t)(uintptr_t)va_arg(*ap, void *));
		} else if (s.mod == VACCEL_CL_PRINTF_MOD_L) {
			put_u64(w, (uint64_t)va_arg(*ap, long));
		} else {
			put_u64(w, (uint64_t)(int64_t)va_arg(*ap, int));
		}
	}
	if (w->out) {
		struct vaccel_cl_printf_record *r = (struct vaccel_cl_printf_record *)w->out;

		r->size = (uint32_t)w->off;
		r->format_size = (uint32_t)n;
	}
	return 0;
}

/* The hidden header's address: the IR step provides it (workitem.cl). */
uint64_t __vaccel_header_va(void) __attribute__((const));

/* The launch's printf buffer, from the hidden header, or NULL. */
static struct vaccel_cl_printf_buffer *buffer(uint32_t *size)
{
	const unsigned char *h = (const unsigned char *)(uintptr_t)__vaccel_header_va();
	uint64_t va;

	va = *(const uint64_t *)(h + VACCEL_CL_PRINTF_HEADER_VA);
	*size = *(const uint32_t *)(h + VACCEL_CL_PRINTF_HEADER_SIZE);
	if (!va || *size < sizeof(struct vaccel_cl_printf_buffer))
		return NULL;
	return (struct vaccel_cl_printf_buffer *)(uintptr_t)va;
}

int printf(const CONSTANT char *restrict format, ...)
{
	const char *fmt = (const char *)(uintptr_t)format;
	struct vaccel_cl_printf_buffer *b;
	struct writer w = { 0 };
	uint32_t size, cap, used;
	va_list ap;
	int ret;

	va_start(ap, format);
	ret = walk(&w, fmt, &ap);
	va_end(ap);
	if (ret)
		return -1;
	b = buffer(&size);
	if (!b)
		return -1;
	cap = (size - sizeof(*b)) & ~(uint32_t)(VACCEL_CL_PRINTF_ALIGN - 1);
	used = __atomic_load_n(&b->used, __ATOMIC_RELAXED);
	do {
		if (used > cap || w.off > cap - used) {
			__atomic_fetch_add(&b->dropped, 1, __ATOMIC_RELAXED);
			return -1;
		}
	} while (!__atomic_compare_exchange_n(&b->used, &used, used + (uint32_t)w.off,
					      true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	w.out = (unsigned char *)(b + 1) + used;
	va_start(ap, format);
	walk(&w, fmt, &ap);
	va_end(ap);
	return 0;
}
