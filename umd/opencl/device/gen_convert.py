#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright 2026 The vaccel authors
"""gen_convert.py - writes convert.cl, every explicit conversion of
OpenCL C 1.2 (6.2.3) for the device library.

    convert_<dst>[n][_sat][_rte|_rtz|_rtp|_rtn](<src>[n] x)

for every pair of the ten scalar types (char ... ulong, float, double),
every width (1, 2, 3, 4, 8, 16), and every modifier the specification
allows (_sat only to an integer type): 5,400 functions.

How each scalar conversion is made, from the engine's exact ones:

=================  ===================================================
integer to integer the low bits (a C cast); _sat clamps to the range.
                   The rounding modes change nothing.
float or double to fcvt.l or fcvt.lu with a static rounding mode (rtz
integer            by default), which gives the value rounded and
                   clamped to a 64-bit range, then the low bits, or
                   for _sat the value clamped to the destination's range
                   (and 0 for a NaN).  Never a C cast, whose result out
                   of range is undefined in the IR.
integer or double  a C cast for the default and _rte (to nearest even);
to float or double fcvt.s.l, fcvt.s.lu, fcvt.d.l, fcvt.d.lu or fcvt.s.d
                   with the static mode for the others, when the result
                   can be inexact.  Widening (float to double, an int or
                   narrower to double) is exact in every mode.
=================  ===================================================

A vector form applies the scalar form to each component.  The scalar
forms are always_inline, the vector forms left to the inliner.

usage: gen_convert.py OUT
"""

import sys

# name: (bits, signed, min, max)
INTEGERS = {
    "char": (8, True, "CHAR_MIN", "CHAR_MAX"),
    "uchar": (8, False, "0", "UCHAR_MAX"),
    "short": (16, True, "SHRT_MIN", "SHRT_MAX"),
    "ushort": (16, False, "0", "USHRT_MAX"),
    "int": (32, True, "INT_MIN", "INT_MAX"),
    "uint": (32, False, "0", "UINT_MAX"),
    "long": (64, True, "LONG_MIN", "LONG_MAX"),
    "ulong": (64, False, "0", "ULONG_MAX"),
}
FLOATS = {"float": ("s", 24), "double": ("d", 53)}
TYPES = list(INTEGERS) + list(FLOATS)
WIDTHS = (2, 3, 4, 8, 16)
# OpenCL's rounding suffix: the RISC-V static rounding mode.
ROUNDINGS = {"_rte": "rne", "_rtz": "rtz", "_rtp": "rup", "_rtn": "rdn"}


def to_integer(dst, src, sat, mode):
    """The body of a conversion to integer type dst."""
    bits, signed, lo, hi = INTEGERS[dst]
    if src in INTEGERS:
        sbits, ssigned, slo, shi = INTEGERS[src]
        if not sat:
            return [f"return ({dst})x;"]
        checks = []
        # Below the range: only a signed source goes below 0.
        if ssigned and (not signed or sbits > bits):
            checks.append(f"if (x < ({src}){lo})\n\t\treturn ({dst}){lo};")
        # Above it: compared in the wider of the two, as unsigned when
        # the source is, and only when the source reaches it.
        if (ssigned and signed and sbits > bits) or \
           (not ssigned and (sbits > bits or (sbits == bits and signed))) or \
           (ssigned and not signed and sbits > bits + 1):
            cmp = "ulong" if not ssigned else "long"
            checks.append(f"if (({cmp})x > ({cmp}){hi})\n\t\treturn ({dst}){hi};")
        return checks + [f"return ({dst})x;"]
    f = FLOATS[src][0]
    rm = ROUNDINGS.get(mode, "rtz")
    if dst == "ulong":
        body = ["ulong i;", "",
                f'__asm__("fcvt.lu.{f} %0, %1, {rm}" : "=r"(i) : "f"(x));']
    else:
        body = ["long i;", "",
                f'__asm__("fcvt.l.{f} %0, %1, {rm}" : "=r"(i) : "f"(x));']
    if sat:
        body.append("if (x != x)\n\t\treturn 0;")
        if bits < 64:
            body.append(f"if (i < (long){lo})\n\t\treturn ({dst}){lo};")
            body.append(f"if (i > (long){hi})\n\t\treturn ({dst}){hi};")
    body.append(f"return ({dst})i;")
    return body


def to_float(dst, src, mode):
    """The body of a conversion to float or double."""
    d, dmant = FLOATS[dst]
    if src in INTEGERS:
        sbits, ssigned = INTEGERS[src][:2]
        exact = sbits - (1 if ssigned else 0) <= dmant
    else:
        exact = FLOATS[src][1] <= dmant
    if exact or mode in ("", "_rte"):
        return [f"return ({dst})x;"]
    rm = ROUNDINGS[mode]
    if src in INTEGERS:
        wide, insn = ("long", "l") if INTEGERS[src][1] else ("ulong", "lu")
        return [f"{dst} r;", "",
                f'__asm__("fcvt.{d}.{insn} %0, %1, {rm}" : "=f"(r) : "r"(({wide})x));',
                "return r;"]
    return [f"{dst} r;", "",
            f'__asm__("fcvt.{d}.{FLOATS[src][0]} %0, %1, {rm}" : "=f"(r) : "f"(x));',
            "return r;"]


def functions():
    """Yields each conversion's name suffix, destination, source and body."""
    for dst in TYPES:
        for src in TYPES:
            for sat in ((False, True) if dst in INTEGERS else (False,)):
                for mode in ("",) + tuple(ROUNDINGS):
                    name = ("_sat" if sat else "") + mode
                    if dst in INTEGERS:
                        body = to_integer(dst, src, sat, mode)
                    else:
                        body = to_float(dst, src, mode)
                    yield name, dst, src, body


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen_convert.py OUT")
    out = [
        "// SPDX-License-Identifier: MIT",
        "/*",
        " * Copyright 2026 The vaccel authors",
        " *",
        " * convert.cl - written by gen_convert.py: every explicit conversion of",
        " * OpenCL C 1.2 (6.2.3).  Do not edit; see the script.",
        " */",
        "",
        '#include "device/library.h"',
        "",
    ]
    count = 0
    for name, dst, src, body in functions():
        out.append(f"{dst} OVERLOAD convert_{dst}{name}({src} x)")
        out.append("{")
        out.extend("\t" + line if line else "" for line in body)
        out.append("}")
        count += 1
        for n in WIDTHS:
            out.append(f"{dst}{n} OVLD convert_{dst}{n}{name}({src}{n} x)")
            out.append("{")
            out.append(f"\t{dst}{n} r;")
            out.append("")
            out.append(f"\tfor (int i = 0; i < {n}; i++)")
            out.append(f"\t\tr[i] = convert_{dst}{name}(x[i]);")
            out.append("\treturn r;")
            out.append("}")
            count += 1
        out.append("")
    out.append(f"/* {count} functions. */")
    with open(sys.argv[1], "w", encoding="ascii") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
