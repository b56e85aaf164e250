// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: printf of OpenCL C, the host's side
 *
 * The device library's printf() leaves one record per call in the
 * launch's printf buffer: the format string and the arguments' bytes
 * (printf_buffer.h).  After the launch, vaccel_cl_printf_format() walks
 * the records in order and formats each with the host's snprintf(), one
 * conversion at a time: the C library does %a, %g and the flags as C
 * specifies them, which OpenCL C's printf refers to.  A vector
 * conversion (%v4hld) formats each component with the same flags, width
 * and precision, joined by commas.
 *
 * The buffer is device memory that any kernel could have written: every
 * size and length in it is checked against the bytes that remain, a
 * width or precision above %PRINTF_MAX_WIDTH is refused, and nothing is
 * read past @size.  A record is written out only once all of it is
 * known to be well formed.  The grammar of conversions is the device's
 * own (vaccel_cl_printf_parse()).
 */

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "printf_buffer.h"
#include "printf_format.h"

/* The largest width or precision a record may ask for. */
#define PRINTF_MAX_WIDTH	65536

/* The text of one record, grown as it is formatted. */
struct text {
	char *buf;
	size_t len;
	size_t cap;
};

/* A record being read: its bytes and the offset of the next item. */
struct reader {
	const unsigned char *rec;
	uint32_t size;
	uint32_t off;
};

static int text_reserve(struct text *t, size_t n)
{
	size_t cap = t->cap ? t->cap : 256;
	char *p;

	if (t->len + n + 1 <= t->cap)
		return 0;
	while (cap < t->len + n + 1)
		cap *= 2;
	p = realloc(t->buf, cap);
	if (!p)
		return -ENOMEM;
	t->buf = p;
	t->cap = cap;
	return 0;
}

static int text_append(struct text *t, const char *s, size_t n)
{
	int ret = text_reserve(t, n);

	if (ret)
		return ret;
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
	return 0;
}

/* The next item of @n bytes (a multiple of 8 with padding), or NULL. */
static const unsigned char *read_item(struct reader *r, uint64_t n)
{
	uint64_t padded = (n + VACCEL_CL_PRINTF_ALIGN - 1) &
			  ~(uint64_t)(VACCEL_CL_PRINTF_ALIGN - 1);
	const unsigned char *p;

	if (padded < n || padded > r->size - r->off)
		return NULL;
	p = r->rec + r->off;
	r->off += (uint32_t)padded;
	return p;
}

static int read_u64(struct reader *r, uint64_t *v)
{
	const unsigned char *p = read_item(r, 8);

	if (!p)
		return -EINVAL;
	memcpy(v, p, 8);
	return 0;
}

/* A width or a precision given by '*': an int of a sane size. */
static int read_star(struct reader *r, int *v)
{
	uint64_t u;
	int64_t s;

	if (read_u64(r, &u))
		return -EINVAL;
	s = (int64_t)u;
	if (s < -PRINTF_MAX_WIDTH || s > PRINTF_MAX_WIDTH)
		return -EINVAL;
	*v = (int)s;
	return 0;
}

/* The digits in the flags, width and precision @opt: none too large. */
static int check_options(const char *opt, uint32_t n)
{
	uint32_t i = 0;

	while (i < n) {
		unsigned long v = 0;

		if (opt[i] < '1' || opt[i] > '9') {
			i++;
			continue;
		}
		while (i < n && opt[i] >= '0' && opt[i] <= '9') {
			v = v * 10 + (unsigned long)(opt[i] - '0');
			if (v > PRINTF_MAX_WIDTH)
				return -EINVAL;
			i++;
		}
	}
	return 0;
}

/* The value of half bits @h: a float's bits, or a multiple of 2^-24. */
static double half_to_double(uint16_t h)
{
	uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff, bits;
	float f;

	if (e == 0) {
		double v = (double)m / 16777216.0;

		return (h & 0x8000) ? -v : v;
	}
	bits = (uint32_t)(h & 0x8000) << 16 | m << 13 |
	       (e == 0x1f ? 0x7f800000u : (e + 112) << 23);
	memcpy(&f, &bits, 4);
	return f;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* Appends snprintf(@spec, the stars, @...) to @t. */
#define EMIT(t, spec, ...) ({						\
	int __n = snprintf(NULL, 0, spec, __VA_ARGS__), __ret = -EINVAL; \
									\
	if (__n >= 0) {							\
		__ret = text_reserve(t, (size_t)__n);			\
		if (!__ret) {						\
			snprintf((t)->buf + (t)->len, (size_t)__n + 1, spec, __VA_ARGS__); \
			(t)->len += (size_t)__n;			\
		}							\
	}								\
	__ret;								\
})

#define EMIT_STARS(t, spec, stars, nstars, value)			\
	((nstars) == 0 ? EMIT(t, spec, value) :				\
	 (nstars) == 1 ? EMIT(t, spec, (stars)[0], value) :		\
	 EMIT(t, spec, (stars)[0], (stars)[1], value))

/*
 * One value of conversion @s, @bytes wide (8 for a scalar, whose integers
 * were promoted), from @p; @spec is the host's specification without its
 * length modifier and conversion, which this adds.
 */
static int emit_value(struct text *t, const struct vaccel_cl_printf_spec *s,
		      char *spec, size_t speclen, const int *stars, int nstars,
		      const unsigned char *p, unsigned int bytes)
{
	bool is_signed = s->conv == 'd' || s->conv == 'i';
	uint64_t u = 0;
	int64_t v;
	size_t i = speclen;

	memcpy(&u, p, bytes);
	if (vaccel_cl_printf_is_float(s->conv)) {
		double d;
		float f;

		if (bytes == 2) {
			d = half_to_double((uint16_t)u);
		} else if (bytes == 4) {
			memcpy(&f, p, 4);
			d = f;
		} else {
			memcpy(&d, p, 8);
		}
		spec[i++] = s->conv;
		spec[i] = '\0';
		return EMIT_STARS(t, spec, stars, nstars, d);
	}
	/* The element's own size, or the promoted scalar's. */
	if (bytes < 8) {
		unsigned int shift = 64 - 8 * bytes;

		u = is_signed ? (uint64_t)((int64_t)(u << shift) >> shift) : u;
	}
	v = (int64_t)u;
	if (s->conv == 'c') {
		spec[i++] = 'c';
		spec[i] = '\0';
		return EMIT_STARS(t, spec, stars, nstars, (int)v);
	}
	if (bytes == 1 || (bytes == 8 && s->mod == VACCEL_CL_PRINTF_MOD_HH)) {
		spec[i++] = 'h';
		spec[i++] = 'h';
	} else if (bytes == 2 || (bytes == 8 && s->mod == VACCEL_CL_PRINTF_MOD_H)) {
		spec[i++] = 'h';
	} else if (bytes == 8 && s->mod == VACCEL_CL_PRINTF_MOD_L) {
		spec[i++] = 'l';
		spec[i++] = 'l';
		spec[i++] = s->conv;
		spec[i] = '\0';
		if (is_signed)
			return EMIT_STARS(t, spec, stars, nstars, (long long)v);
		return EMIT_STARS(t, spec, stars, nstars, (unsigned long long)u);
	}
	spec[i++] = s->conv;
	spec[i] = '\0';
	if (is_signed)
		return EMIT_STARS(t, spec, stars, nstars, (int)v);
	return EMIT_STARS(t, spec, stars, nstars, (unsigned int)u);
}

/* A string item: its length, then its bytes. */
static int emit_string(struct text *t, struct reader *r, char *spec, size_t speclen,
		       const int *stars, int nstars)
{
	const unsigned char *p;
	uint64_t len;
	char *str;
	int ret;

	if (read_u64(r, &len) || len > r->size - r->off)
		return -EINVAL;
	p = read_item(r, len);
	if (!p)
		return -EINVAL;
	str = strndup((const char *)p, (size_t)len);
	if (!str)
		return -ENOMEM;
	spec[speclen] = 's';
	spec[speclen + 1] = '\0';
	ret = EMIT_STARS(t, spec, stars, nstars, str);
	free(str);
	return ret;
}

static int emit_pointer(struct text *t, struct reader *r, char *spec, size_t speclen,
			const int *stars, int nstars)
{
	uint64_t v;

	if (read_u64(r, &v))
		return -EINVAL;
	spec[speclen] = 'p';
	spec[speclen + 1] = '\0';
	return EMIT_STARS(t, spec, stars, nstars, (void *)(uintptr_t)v);
}

#pragma GCC diagnostic pop

/* The conversion @s at @fmt (its '%'), with its items from @r. */
static int emit_conversion(struct text *t, struct reader *r, const char *fmt,
			   const struct vaccel_cl_printf_spec *s)
{
	/* '%', the options, "ll", the conversion, NUL. */
	char spec[8 + 64];
	int stars[2], nstars = 0, ret = 0;
	size_t speclen;
	unsigned int i, bytes;
	const unsigned char *p;

	if (s->options > 64 || check_options(fmt + 1, s->options))
		return -EINVAL;
	spec[0] = '%';
	memcpy(spec + 1, fmt + 1, s->options);
	speclen = 1 + s->options;
	if (s->star_width && read_star(r, &stars[nstars++]))
		return -EINVAL;
	if (s->star_precision && read_star(r, &stars[nstars++]))
		return -EINVAL;
	if (s->conv == 's')
		return emit_string(t, r, spec, speclen, stars, nstars);
	if (s->conv == 'p')
		return emit_pointer(t, r, spec, speclen, stars, nstars);
	if (!s->vector) {
		p = read_item(r, 8);
		if (!p)
			return -EINVAL;
		return emit_value(t, s, spec, speclen, stars, nstars, p, 8);
	}
	bytes = vaccel_cl_printf_element(s);
	p = read_item(r, (uint64_t)s->vector * bytes);
	if (!p)
		return -EINVAL;
	for (i = 0; i < s->vector && !ret; i++) {
		if (i)
			ret = text_append(t, ",", 1);
		if (!ret)
			ret = emit_value(t, s, spec, speclen, stars, nstars, p + i * bytes, bytes);
	}
	return ret;
}

/* The text of record @rec of @size bytes, into @t. */
static int format_record(struct text *t, const unsigned char *rec, uint32_t size)
{
	struct vaccel_cl_printf_record h;
	struct reader r = { .rec = rec, .size = size };
	struct vaccel_cl_printf_spec s;
	const char *fmt;
	uint32_t i = 0, lit;
	int ret;

	memcpy(&h, rec, sizeof(h));
	r.off = sizeof(h);
	fmt = (const char *)read_item(&r, h.format_size);
	if (!fmt)
		return -EINVAL;
	while (i < h.format_size) {
		for (lit = i; i < h.format_size && fmt[i] != '%'; i++)
			;
		if (i > lit && (ret = text_append(t, fmt + lit, i - lit)))
			return ret;
		if (i == h.format_size)
			break;
		if (vaccel_cl_printf_parse(fmt + i, h.format_size - i, &s))
			return -EINVAL;
		if (s.conv == '%')
			ret = text_append(t, "%", 1);
		else
			ret = emit_conversion(t, &r, fmt + i, &s);
		if (ret)
			return ret;
		i += s.length;
	}
	/* Every byte of the record is an item of its format. */
	return r.off == size ? 0 : -EINVAL;
}

/**
 * vaccel_cl_printf_format() - format a launch's printf buffer
 * @buf: the buffer, as the launch left it (struct vaccel_cl_printf_buffer
 *	then the records)
 * @size: its size in bytes, as the launch's header gave it
 * @out: receives the text of each record, in order
 *
 * Formats each record with the host's printf family and writes its text
 * to @out, stopping at the first record that is not well formed: one
 * that is truncated, that claims more bytes than the buffer has, whose
 * format is not one the device takes, or whose items do not match its
 * format.
 *
 * Context: any; @buf is only read.
 * Return: the number of records written, -EINVAL if the buffer is not
 * well formed (after writing the well-formed records before the first
 * bad one), -ENOMEM, or -EIO if writing to @out failed.
 */
int vaccel_cl_printf_format(const void *buf, size_t size, FILE *out)
{
	struct vaccel_cl_printf_buffer h;
	const unsigned char *recs = (const unsigned char *)buf + sizeof(h);
	struct text t = { 0 };
	uint64_t used, off = 0;
	int count = 0, ret = 0;

	if (!buf || size < sizeof(h))
		return -EINVAL;
	memcpy(&h, buf, sizeof(h));
	used = h.used;
	if (used > size - sizeof(h))
		return -EINVAL;
	while (off < used) {
		struct vaccel_cl_printf_record rec;

		if (used - off < sizeof(rec)) {
			ret = -EINVAL;
			break;
		}
		memcpy(&rec, recs + off, sizeof(rec));
		if (rec.size < sizeof(rec) || rec.size % VACCEL_CL_PRINTF_ALIGN ||
		    rec.size > used - off) {
			ret = -EINVAL;
			break;
		}
		t.len = 0;
		ret = format_record(&t, recs + off, rec.size);
		if (ret)
			break;
		if (t.len && fwrite(t.buf, 1, t.len, out) != t.len) {
			ret = -EIO;
			break;
		}
		off += rec.size;
		count++;
	}
	free(t.buf);
	if (!ret && fflush(out))
		ret = -EIO;
	return ret ? ret : count;
}

/**
 * vaccel_cl_printf_dropped() - records that did not fit in a printf buffer
 * @buf: the buffer, as the launch left it
 * @size: its size in bytes
 *
 * Return: the number of printf() calls whose record found no room, 0 if
 * @buf is too small to tell.
 */
uint32_t vaccel_cl_printf_dropped(const void *buf, size_t size)
{
	struct vaccel_cl_printf_buffer h;

	if (!buf || size < sizeof(h))
		return 0;
	memcpy(&h, buf, sizeof(h));
	return h.dropped;
}
