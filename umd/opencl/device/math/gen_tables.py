#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# gen_tables.py - writes math/tables.h, the tables of the math library's
# cores, from exact integer arithmetic: nothing is copied from elsewhere,
# and `gen_tables.py --check` (make check's host.math_tables) proves that
# the header in the tree is what this script writes.
#
# - pi / 2 split for Cody and Waite's reduction: in four for double (three
#   heads of 33 bits, whose products with an integer of up to 19 bits are
#   exact, and a tail: 152 bits in all), in three for float (two heads of
#   28 bits, for integers of up to 25 bits, and a tail); pi / 2 as a
#   double-double, and 2 / pi; atan(1/2) and atan(3/2) (= pi/4 +
#   atan(1/5)) as double-doubles.
# - vcl_two_over_pi[]: the bits of 2/pi after the binary point, 32 to a
#   word, most significant first, for the reduction of large arguments of
#   the trigonometric functions (Payne and Hanek's method).  pi comes from
#   Machin's formula, pi = 16 atan(1/5) - 4 atan(1/239), each arctangent
#   summed as a series of exact integer terms with guard bits.
#
# usage: gen_tables.py [--check] [OUTPUT]   (default: tables.h beside it)
import os
import sys
from fractions import Fraction

WORDS = 40          # 1,280 bits: a double's largest exponent needs 1,150
GUARD = 64


def atan_inv(n, bits):
    """atan(1/n) * 2^bits, truncated; error below a few units."""
    one = 1 << bits
    term = one // n
    total, k, sign = term, 1, 1
    n2 = n * n
    while term:
        term //= n2
        k += 2
        sign = -sign
        total += sign * (term // k)
    return total


def pi_scaled(bits):
    """pi * 2^bits, exact to within a few units of the last place."""
    b = bits + GUARD
    return (16 * atan_inv(5, b) - 4 * atan_inv(239, b)) >> GUARD


def two_over_pi_words(words):
    bits = 32 * words
    # 2/pi * 2^bits = 2^(bits+1) / pi, with pi to bits + 2 * GUARD bits:
    # within one unit, which the caller's two extra words absorb.
    p = pi_scaled(bits + 2 * GUARD)
    q = (1 << (2 * bits + 1 + 2 * GUARD)) // p
    return [(q >> (32 * (words - 1 - i))) & 0xffffffff for i in range(words)]


def hexf(v):
    """A C literal of the double nearest the rational @v."""
    return float(v).hex()


def truncated(v, bits):
    """The rational @v cut to @bits significant bits (toward zero)."""
    e = 0
    while abs(v) >= 1:
        v /= 2
        e += 1
    while abs(v) < Fraction(1, 2):
        v *= 2
        e -= 1
    return Fraction(int(v * (1 << bits)), 1 << bits) * Fraction(2) ** e


def pi_constants():
    """pi / 2 split for Cody and Waite's reduction, and 2 / pi."""
    pio2 = Fraction(pi_scaled(400), 1 << 401)
    p1 = truncated(pio2, 33)
    p2 = truncated(pio2 - p1, 33)
    p3 = truncated(pio2 - p1 - p2, 33)
    p4 = pio2 - p1 - p2 - p3
    hi = Fraction(float(pio2))
    f1 = truncated(pio2, 28)
    f2 = truncated(pio2 - f1, 28)
    f3 = pio2 - f1 - f2
    return [
        ('VCL_PIO2_1', hexf(p1), 'pi / 2, its first 33 bits'),
        ('VCL_PIO2_2', hexf(p2), 'the next 33 bits'),
        ('VCL_PIO2_3', hexf(p3), 'the next 33 bits'),
        ('VCL_PIO2_4', hexf(p4), 'the rest, rounded'),
        ('VCL_PIO2F_1', hexf(f1), 'pi / 2, its first 28 bits'),
        ('VCL_PIO2F_2', hexf(f2), 'the next 28 bits'),
        ('VCL_PIO2F_3', hexf(f3), 'the rest, rounded'),
        ('VCL_PIO2_HI', hexf(hi), 'pi / 2 as a double-double'),
        ('VCL_PIO2_LO', hexf(pio2 - hi), ''),
        ('VCL_TWO_OVER_PI', hexf(1 / pio2), '2 / pi'),
    ] + atan_constants(pio2)


def atan_constants(pio2):
    """atan(1/2) and atan(3/2) = pi/4 + atan(1/5) as double-doubles."""
    half = Fraction(atan_inv(2, 400), 1 << 400)
    three_halves = pio2 / 2 + Fraction(atan_inv(5, 400), 1 << 400)
    out = []
    for name, v, what in (('VCL_ATAN_HALF', half, 'atan(1/2)'),
                          ('VCL_ATAN_3HALF', three_halves, 'atan(3/2)')):
        hi = Fraction(float(v))
        out += [(name + '_HI', hexf(hi), what + ' as a double-double'),
                (name + '_LO', hexf(v - hi), '')]
    return out


def header():
    w = two_over_pi_words(WORDS + 2)[:WORDS]
    lines = [
        '/* SPDX-License-Identifier: MIT */',
        '/*',
        ' * Copyright 2026 The vaccel authors',
        ' *',
        ' * math/tables.h - written by gen_tables.py from exact integer arithmetic;',
        ' * do not edit.  vcl_two_over_pi[i] holds bits 32i + 1 to 32i + 32 of 2/pi',
        ' * after the binary point, the first one most significant.',
        ' */',
        '#ifndef VACCEL_CL_MATH_TABLES_H',
        '#define VACCEL_CL_MATH_TABLES_H',
        '',
    ]
    for name, value, what in pi_constants():
        lines.append('#define %-19s%s%s' % (name, value, '\t/* %s */' % what if what else ''))
    lines += [
        '',
        '#define VCL_TWO_OVER_PI_WORDS %d' % WORDS,
        '',
        'VCL_TABLE unsigned int vcl_two_over_pi[VCL_TWO_OVER_PI_WORDS] = {',
    ]
    for i in range(0, WORDS, 4):
        lines.append('\t' + ', '.join('0x%08x' % x for x in w[i:i + 4]) + ',')
    lines += ['};', '', '#endif /* VACCEL_CL_MATH_TABLES_H */', '']
    return '\n'.join(lines)


def main(argv):
    check = '--check' in argv
    args = [a for a in argv if a != '--check']
    out = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                            'tables.h')
    text = header()
    if check:
        with open(out) as f:
            if f.read() != text:
                print('%s differs from what gen_tables.py writes' % out)
                return 1
        return 0
    with open(out, 'w') as f:
        f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
