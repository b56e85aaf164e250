#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tests/docs/phases.py - testing.rst's table of make check's parts checked
against the run that just happened.

scripts/check.sh writes a line per part of the run to its phases file,
"NAME<TAB>seconds<TAB>checks", and a last one named "make check" for the
whole.  testing.rst's section "How long it takes" has a simple table whose
rows begin with those names, then a time and a number of checks.  Every
part must have its row, and each row's number of checks must be within a
tenth (or 3) of the run's: a part that gained or lost tests is a table to
update.  The times are not compared: they depend on the machine and on
what the cache held; the table gives them for a warm cache.

One line, "ok docs.check_phases" or "not ok docs.check_phases: why".

usage: phases.py TESTING_RST PHASES
"""

import re
import sys


def table_rows(path):
    """The rows {first cell: last cell} of the section's first table."""
    lines = open(path).read().split("\n")
    try:
        start = lines.index("How long it takes")
    except ValueError:
        return None
    borders = [i for i in range(start, len(lines))
               if re.fullmatch(r"=+( +=+)+", lines[i])]
    if len(borders) < 3:
        return None
    spans = [(m.start(), m.end()) for m in re.finditer(r"=+", lines[borders[0]])]
    rows = {}
    for line in lines[borders[1] + 1:borders[2]]:
        if not line.strip():
            continue
        cells = [line[a:b if k < len(spans) - 1 else None].strip()
                 for k, (a, b) in enumerate(spans)]
        if cells[0]:
            rows[cells[0].strip("`")] = cells[-1]
    return rows


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().split("\n")[-1], file=sys.stderr)
        return 2
    rows = table_rows(sys.argv[1])
    if rows is None:
        print("not ok docs.check_phases: no table in %s's "
              "\"How long it takes\"" % sys.argv[1])
        return 1
    wrong = []
    parts = 0
    for line in open(sys.argv[2]):
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 3:
            continue
        name, checks = fields[0], int(fields[2])
        parts += 1
        if name not in rows:
            wrong.append("%s: no row" % name)
            continue
        m = re.search(r"\d+", rows[name])
        if not m:
            wrong.append("%s: no number of checks in %r" % (name, rows[name]))
            continue
        doc = int(m.group())
        if abs(doc - checks) > max(3, checks // 10):
            wrong.append("%s: %d checks in the table, %d in this run"
                         % (name, doc, checks))
    if not parts:
        print("not ok docs.check_phases: no part in %s" % sys.argv[2])
        return 1
    if wrong:
        print("not ok docs.check_phases: %s (update %s from %s)"
              % ("; ".join(wrong), sys.argv[1], sys.argv[2]))
        return 1
    print("ok docs.check_phases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
