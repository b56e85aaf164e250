// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * rt_print.c - vaccel_printf(), the device runtime's print to the host.
 *
 * A message is formatted into a buffer on the work-item's stack
 * (RT_PRINT_MAX bytes; longer ones are cut), then appended to the module's
 * print buffer.  The print buffer starts with a header of two 32-bit
 * counters, the bytes used and the messages dropped; a compare-and-swap
 * on the first reserves a message's bytes, so that messages of work-items
 * and engines running at once never mix.  A message that does not fit is
 * dropped, counted in the second, and reserves nothing: the bytes used are
 * all text.
 *
 * The loader finds the descriptor __vaccel_print by its symbol, which only
 * modules that call vaccel_printf() have (vaccel-cc links the runtime as a
 * library: this object comes in only when called), allocates the print
 * buffer and stores its address and size there; vaccel_module_read_print()
 * reads it on the host.  The layout is shared with umd/libvaccel/module.c.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RT_EXPORT	__attribute__((visibility("default")))
#define RT_PRINT_MAX	256

RT_EXPORT int vaccel_printf(const char *fmt, ...);
RT_EXPORT void *memcpy(void *dst, const void *src, size_t n);

/* The print buffer's header, then its text. */
struct rt_print_header {
	uint32_t used;		/* bytes of text reserved */
	uint32_t dropped;	/* messages that did not fit */
};

/* Filled by the loader: where the print buffer is. */
struct {
	uint64_t va;		/* the buffer, header first */
	uint64_t size;		/* bytes of text after the header */
} __vaccel_print __attribute__((used, aligned(16)));

struct rt_out {
	char *buf;
	size_t len;
	size_t cap;
};

static void rt_putc(struct rt_out *o, char c)
{
	if (o->len < o->cap)
		o->buf[o->len] = c;
	o->len++;
}

static void rt_pad(struct rt_out *o, char c, int n)
{
	for (; n > 0; n--)
		rt_putc(o, c);
}

#define F_LEFT	1
#define F_ZERO	2
#define F_PLUS	4
#define F_SPACE	8
#define F_ALT	16

/*
 * Emits a number already in digits: @sign ("" or one character), @prefix
 * ("0x" and the like), @digits of length @n, padded to @width.
 */
static void rt_emit(struct rt_out *o, const char *sign, const char *prefix,
		    const char *digits, int n, int width, int flags)
{
	int len = n, i;
	const char *p;

	for (p = sign; *p; p++)
		len++;
	for (p = prefix; *p; p++)
		len++;
	if (!(flags & (F_LEFT | F_ZERO)))
		rt_pad(o, ' ', width - len);
	for (p = sign; *p; p++)
		rt_putc(o, *p);
	for (p = prefix; *p; p++)
		rt_putc(o, *p);
	if ((flags & (F_LEFT | F_ZERO)) == F_ZERO)
		rt_pad(o, '0', width - len);
	for (i = 0; i < n; i++)
		rt_putc(o, digits[i]);
	if (flags & F_LEFT)
		rt_pad(o, ' ', width - len);
}

static void rt_integer(struct rt_out *o, uint64_t v, bool negative, unsigned int base,
		       bool upper, int width, int prec, int flags)
{
	const char *xdigits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[64], digits[96];
	const char *sign = negative ? "-" : flags & F_PLUS ? "+" :
			   flags & F_SPACE ? " " : "";
	const char *prefix = "";
	int n = 0, d = 0;

	while (v) {
		tmp[n++] = xdigits[v % base];
		v /= base;
	}
	if (prec < 0)
		prec = 1;
	else
		flags &= ~F_ZERO;
	if (prec > 64)
		prec = 64;
	if (base == 8 && (flags & F_ALT) && prec <= n)
		prec = n + 1;
	if (base == 16 && (flags & F_ALT) && n)
		prefix = upper ? "0X" : "0x";
	while (d < prec - n)
		digits[d++] = '0';
	while (n)
		digits[d++] = tmp[--n];
	rt_emit(o, sign, prefix, digits, d, width, flags);
}

static const double rt_pow10[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17,
};

/*
 * Splits @x, 0 <= @x < 1.8e19, into its integer part and its fraction
 * rounded to @prec <= 17 digits, as an integer.  The fraction is exact
 * and a fused multiply-add gives the product's rounding error, so the
 * rounding is exact: to nearest, ties to even, as C libraries do.
 */
static void rt_split(double x, int prec, uint64_t *ip, uint64_t *fp)
{
	uint64_t scale = (uint64_t)rt_pow10[prec];
	double frac, prod, err, r;

	*ip = (uint64_t)x;
	frac = x - (double)*ip;
	prod = frac * rt_pow10[prec];
	err = __builtin_fma(frac, rt_pow10[prec], -prod);
	*fp = (uint64_t)prod;
	r = prod - (double)*fp;
	if (r > 0.5 || (r == 0.5 && (err > 0 || (err == 0 && ((prec ? *fp : *ip) & 1)))))
		(*fp)++;
	if (*fp >= scale) {
		*fp -= scale;
		(*ip)++;
	}
}

/* Decimal exponent of @x > 0, and @x / 10^exp in [1, 10) in *@x. */
static int rt_normalize(double *x)
{
	int e = 0;

	while (*x >= 1e16) {
		*x /= 1e16;
		e += 16;
	}
	while (*x >= 10.0) {
		*x /= 10.0;
		e++;
	}
	while (*x < 1e-16) {
		*x *= 1e16;
		e -= 16;
	}
	while (*x < 1.0) {
		*x *= 10.0;
		e--;
	}
	return e;
}

/* Decimal exponent of @x >= 0 once rounded to @prec digits after the first. */
static int rt_exponent(double x, int prec, double *mantissa)
{
	uint64_t ip, fp;
	int e;

	*mantissa = x;
	if (x == 0.0)
		return 0;
	e = rt_normalize(mantissa);
	rt_split(*mantissa, prec, &ip, &fp);
	return ip >= 10 ? e + 1 : e;
}

/*
 * %f, %e and %g of a finite @x >= 0, with up to 17 digits after the point
 * (the precision is cut there), in double arithmetic: right to the last
 * digit or two, which is what printing from a kernel needs.
 */
static void rt_float(struct rt_out *o, double x, bool negative, char conv,
		     int width, int prec, int flags)
{
	const char *sign = negative ? "-" : flags & F_PLUS ? "+" :
			   flags & F_SPACE ? " " : "";
	bool upper = conv < 'a', strip = false;
	char c = conv | 0x20, digits[64], tmp[24];
	int d = 0, n = 0, e = 0, lo = 0, i;
	uint64_t ip, fp;
	double m;

	if (prec < 0)
		prec = 6;
	if (prec > 17)
		prec = 17;
	if (c == 'g') {
		int p = prec ? prec : 1;

		e = rt_exponent(x, p - 1, &m);
		if (e < p && e >= -4) {
			c = 'f';
			prec = p - 1 - e > 17 ? 17 : p - 1 - e;
		} else {
			c = 'e';
			prec = p - 1;
		}
		strip = !(flags & F_ALT);
	}
	if (c == 'f' && x >= 1.8e19)
		c = 'e';
	if (c == 'e') {
		e = rt_exponent(x, prec, &m);
		rt_split(m, prec, &ip, &fp);
		if (ip >= 10) {
			/* Rounded up to 10.000...: 1.000... of the next power. */
			ip = 1;
			fp = 0;
		}
	} else {
		rt_split(x, prec, &ip, &fp);
	}

	do {
		tmp[n++] = '0' + ip % 10;
		ip /= 10;
	} while (ip);
	while (n)
		digits[d++] = tmp[--n];
	for (i = 0; i < prec; i++) {
		tmp[i] = '0' + fp % 10;
		fp /= 10;
	}
	if (strip)
		while (lo < prec && tmp[lo] == '0')
			lo++;
	if (prec > lo || (flags & F_ALT))
		digits[d++] = '.';
	for (i = prec - 1; i >= lo; i--)
		digits[d++] = tmp[i];
	if (c == 'e') {
		int ae = e < 0 ? -e : e;

		digits[d++] = upper ? 'E' : 'e';
		digits[d++] = e < 0 ? '-' : '+';
		if (ae >= 100)
			digits[d++] = '0' + ae / 100;
		digits[d++] = '0' + ae / 10 % 10;
		digits[d++] = '0' + ae % 10;
	}
	rt_emit(o, sign, "", digits, d, width, flags);
}

static void rt_string(struct rt_out *o, const char *s, int width, int prec, int flags)
{
	int n = 0;

	if (!s)
		s = "(null)";
	while (s[n] && (prec < 0 || n < prec))
		n++;
	if (!(flags & F_LEFT))
		rt_pad(o, ' ', width - n);
	for (int i = 0; i < n; i++)
		rt_putc(o, s[i]);
	if (flags & F_LEFT)
		rt_pad(o, ' ', width - n);
}

static void rt_format(struct rt_out *o, const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		int flags = 0, width = 0, prec = -1, lng = 0;
		uint64_t u;
		int64_t s;
		double f;
		char c;

		if (*fmt != '%') {
			rt_putc(o, *fmt);
			continue;
		}
		for (;; fmt++) {
			c = fmt[1];
			if (c == '-')
				flags |= F_LEFT;
			else if (c == '0')
				flags |= F_ZERO;
			else if (c == '+')
				flags |= F_PLUS;
			else if (c == ' ')
				flags |= F_SPACE;
			else if (c == '#')
				flags |= F_ALT;
			else
				break;
		}
		fmt++;
		if (*fmt == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				flags |= F_LEFT;
				width = -width;
			}
			fmt++;
		} else {
			while (*fmt >= '0' && *fmt <= '9' && width < 1000)
				width = width * 10 + *fmt++ - '0';
		}
		if (*fmt == '.') {
			fmt++;
			prec = 0;
			if (*fmt == '*') {
				prec = va_arg(ap, int);
				fmt++;
			} else {
				while (*fmt >= '0' && *fmt <= '9' && prec < 1000)
					prec = prec * 10 + *fmt++ - '0';
			}
		}
		if (width > RT_PRINT_MAX)
			width = RT_PRINT_MAX;
		for (;; fmt++) {
			if (*fmt == 'h')
				lng--;
			else if (*fmt == 'l' || *fmt == 'z' || *fmt == 't' || *fmt == 'j')
				lng++;
			else
				break;
		}
		switch (*fmt) {
		case 'd':
		case 'i':
			s = lng > 0 ? va_arg(ap, long) : va_arg(ap, int);
			if (lng == -1)
				s = (short)s;
			else if (lng < -1)
				s = (signed char)s;
			u = s < 0 ? -(uint64_t)s : (uint64_t)s;
			rt_integer(o, u, s < 0, 10, false, width, prec, flags);
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			u = lng > 0 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int);
			if (lng == -1)
				u = (unsigned short)u;
			else if (lng < -1)
				u = (unsigned char)u;
			rt_integer(o, u, false, *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16,
				   *fmt == 'X', width, prec, flags & ~(F_PLUS | F_SPACE));
			break;
		case 'p':
			u = (uintptr_t)va_arg(ap, void *);
			rt_integer(o, u, false, 16, false, width, prec, flags | F_ALT);
			break;
		case 'c':
			c = (char)va_arg(ap, int);
			if (!(flags & F_LEFT))
				rt_pad(o, ' ', width - 1);
			rt_putc(o, c);
			if (flags & F_LEFT)
				rt_pad(o, ' ', width - 1);
			break;
		case 's':
			rt_string(o, va_arg(ap, const char *), width, prec, flags);
			break;
		case 'f':
		case 'F':
		case 'e':
		case 'E':
		case 'g':
		case 'G':
			f = va_arg(ap, double);
			if (f != f) {
				rt_string(o, __builtin_signbit(f) ?
					  (*fmt >= 'a' ? "-nan" : "-NAN") :
					  (*fmt >= 'a' ? "nan" : "NAN"), width, -1,
					  flags & F_LEFT);
			} else if (f == __builtin_inf() || f == -__builtin_inf()) {
				rt_string(o, f < 0 ? (*fmt >= 'a' ? "-inf" : "-INF") :
					  (*fmt >= 'a' ? "inf" : "INF"), width, -1,
					  flags & F_LEFT);
			} else {
				rt_float(o, __builtin_signbit(f) ? -f : f,
					 __builtin_signbit(f), *fmt, width, prec, flags);
			}
			break;
		case '%':
			rt_putc(o, '%');
			break;
		case '\0':
			return;
		default:
			/* Not a conversion: shown as written. */
			rt_putc(o, '%');
			rt_putc(o, *fmt);
			break;
		}
	}
}

int vaccel_printf(const char *fmt, ...)
{
	char buf[RT_PRINT_MAX];
	struct rt_out o = { buf, 0, sizeof(buf) };
	struct rt_print_header *h;
	uint32_t at;
	va_list ap;

	va_start(ap, fmt);
	rt_format(&o, fmt, ap);
	va_end(ap);
	if (o.len > o.cap)
		o.len = o.cap;
	if (!__vaccel_print.va || !o.len)
		return o.len ? -1 : 0;

	/* Reserves the bytes only if the message fits: [0, used) is all text. */
	h = (struct rt_print_header *)(uintptr_t)__vaccel_print.va;
	at = __atomic_load_n(&h->used, __ATOMIC_RELAXED);
	do {
		if ((uint64_t)at + o.len > __vaccel_print.size) {
			__atomic_fetch_add(&h->dropped, 1, __ATOMIC_RELAXED);
			return -1;
		}
	} while (!__atomic_compare_exchange_n(&h->used, &at, at + (uint32_t)o.len,
					      true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	memcpy((char *)(h + 1) + at, buf, o.len);
	return (int)o.len;
}
