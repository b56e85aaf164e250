#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/docs/run.sh - the documentation checked against the tree, so that
# a reader never meets a stale number or a missing name.  One line a
# check, "ok docs.NAME" or "not ok docs.NAME: why", for make check:
#
#   docs.layout_driver       every file of drivers/accel/vaccel/ is named
#                            in the README's layout and in driver.rst
#   docs.readme_pages        every page of Documentation/ is in the
#                            README's "Where to go next"
#   docs.module_parameters   every module parameter is in building.rst's
#                            table and in vaccel(4)
#   docs.man_page.TOOL       every tool has a man page in Documentation/man
#   docs.man_options.TOOL    the options TOOL --help prints are those its
#                            man page describes, both ways
#   docs.make_targets        every target of the Makefile's .PHONY is in
#                            the Makefile's help and in building.rst
#   docs.pictures            the pictures shown exist; the SVGs are
#                            well-formed
#   docs.versions            the versions in the samples (code blocks) of
#                            the README and Documentation are the tree's:
#                            the uapi's (uapi/drm/vaccel_accel.h), the
#                            driver's (MAJOR.MINOR.0) and libvaccel's
#                            (umd/Makefile); a version in the text is
#                            never newer than the tree's
#
# usage: tests/docs/run.sh UMD_BUILD   (the build tree's umd, for the tools)
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
umd=${1:?usage: tests/docs/run.sh UMD_BUILD}
cd "$root" || exit 1

ok() { echo "ok docs.$1"; }
not_ok() { echo "not ok docs.$1: $2"; }

# verdict NAME WHY: ok NAME if missing[] is empty, else not ok, WHY and them.
verdict() {
	if [ ${#missing[@]} -eq 0 ]; then
		ok "$1"
	else
		not_ok "$1" "$2: ${missing[*]}"
	fi
}

# --- the driver's files ------------------------------------------------------

missing=()
readme_layout=$(sed -n '/^## Layout/,/^## /p' README.md)
for f in drivers/accel/vaccel/*.c; do
	b=$(basename "$f" .c)
	grep -q -w -- "$b" <<<"$readme_layout" || missing+=("$b (README.md, Layout)")
	grep -q -w -- "$b" Documentation/driver.rst || missing+=("$b (Documentation/driver.rst)")
done
verdict layout_driver "not named"

# --- the README's map of the documentation -----------------------------------

missing=()
next_steps=$(sed -n '/^## Where to go next/,/^## /p' README.md)
for f in Documentation/*.rst; do
	b=$(basename "$f")
	[ "$b" = index.rst ] && continue
	grep -q -F -- "$b" <<<"$next_steps" || missing+=("$b")
done
verdict readme_pages "not in the README's \"Where to go next\""

# --- module parameters ---------------------------------------------------------

missing=()
# shellcheck disable=SC2013 # the names are words
for p in $(grep -h -o -E 'module_param[a-z_]*\([a-z_0-9]+' drivers/accel/vaccel/*.c |
	   sed 's/.*(//' | sort -u); do
	grep -q -F "\`\`$p\`\`" Documentation/building.rst || missing+=("$p (building.rst)")
	grep -q -F -- "$p" Documentation/man/vaccel.rst || missing+=("$p (vaccel(4))")
done
verdict module_parameters "not documented"

# --- the tools and their man pages -------------------------------------------

# The options a text names: -x, --long (without =VALUE), once each.
options() {
	grep -o -E '(^|[][ ,|`(*])--?[a-zA-Z][-a-zA-Z0-9]*' | sed -E 's/^[][ ,|`(*]//' | sort -u
}

# The lines of a usage that list options: the synopsis, and those that
# begin with one (not the prose that may name clang's).
option_lines() {
	grep -E '^(usage:|[[:space:]]+[a-z][-a-z]* (-|\[))|^[[:space:]]+-'
}

for tool in vaccel-info vaccel-sample vaccel-top vaccel-trace vaccel-coredump vaccel-cc; do
	man=Documentation/man/$tool.rst
	if [ ! -f "$man" ]; then
		not_ok "man_page.$tool" "no $man"
		continue
	fi
	ok "man_page.$tool"
	if [ ! -x "$umd/bin/$tool" ]; then
		not_ok "man_options.$tool" "no $umd/bin/$tool (build first)"
		continue
	fi
	help=$("$umd/bin/$tool" --help 2>&1 | option_lines | options)
	# The man page's OPTIONS section, up to the next section title.
	page=$(awk '/^OPTIONS$|^Options$/ { on = 1; next }
		    on && /^[A-Z][A-Za-z ]+$/ { getline u; if (u ~ /^[=~-]+$/) exit; print; print u; next }
		    on' "$man" | options)
	only_help=$(comm -23 <(echo "$help") <(echo "$page") | tr '\n' ' ')
	only_page=$(comm -13 <(echo "$help") <(echo "$page") | tr '\n' ' ')
	if [ -z "$page" ]; then
		not_ok "man_options.$tool" "$man has no OPTIONS section"
	elif [ -n "${only_help// /}" ] || [ -n "${only_page// /}" ]; then
		not_ok "man_options.$tool" "--help and $man differ: only in --help: ${only_help:-none}; only in the page: ${only_page:-none}"
	else
		ok "man_options.$tool"
	fi
done

# --- make targets ------------------------------------------------------------

missing=()
help=$(sed -n '1,/^[^#]/p' Makefile)
# shellcheck disable=SC2013 # the targets are words
for t in $(sed -n '/^\.PHONY:/,/[^\\]$/p' Makefile | sed -e 's/^\.PHONY://' -e 's/\\//g'); do
	[ "$t" = all ] && continue	# plain make
	grep -q -E "make $t([^-a-z]|$)" <<<"$help" || missing+=("$t (Makefile's help)")
	grep -q -E "make $t([^-a-z]|$)" Documentation/building.rst || missing+=("$t (building.rst)")
done
verdict make_targets "not documented"

# --- pictures ------------------------------------------------------------------

# Every picture the README and the pages show exists, and every SVG of
# Documentation/images is well-formed XML (the forge and Sphinx show it).
out=$(python3 - README.md Documentation/*.rst <<'PY'
import glob, os, re, sys
import xml.dom.minidom

bad = []
for path in sys.argv[1:]:
    text = open(path, encoding='utf-8').read()
    if path.endswith('.md'):
        refs = re.findall(r'!\[[^\]]*\]\(([^)\s]+)\)', text)
    else:
        refs = re.findall(r'^\s*\.\. (?:image|figure):: (\S+)', text, re.M)
    for ref in refs:
        if '://' in ref:
            continue
        if not os.path.isfile(os.path.join(os.path.dirname(path), ref)):
            bad.append(f'{path}: {ref} does not exist')
for svg in glob.glob('Documentation/images/*.svg'):
    try:
        xml.dom.minidom.parse(svg)
    except Exception as e:
        bad.append(f'{svg}: not well-formed: {e}')
print('\n'.join(bad))
PY
)
if [ -z "$out" ]; then
	ok pictures
else
	not_ok pictures "$(echo "$out" | head -n 5 | tr '\n' ';')"
fi

# --- versions -----------------------------------------------------------------

uapi_major=$(sed -n 's/^#define DRM_VACCEL_UAPI_MAJOR[[:space:]]*\([0-9]*\).*/\1/p' uapi/drm/vaccel_accel.h)
uapi_minor=$(sed -n 's/^#define DRM_VACCEL_UAPI_MINOR[[:space:]]*\([0-9]*\).*/\1/p' uapi/drm/vaccel_accel.h)
lib_version=$(sed -n 's/^VERSION := \([0-9.]*\)$/\1/p' umd/Makefile)
out=$(python3 - "$uapi_major.$uapi_minor" "$lib_version" README.md Documentation/*.rst \
	Documentation/man/*.rst <<'PY'
import re, sys

uapi, lib = sys.argv[1], sys.argv[2]
def key(v):
    return tuple(int(x) for x in v.split('.'))

# In a sample: the uapi as the tools print it ("before uapi 1.4" is a
# note, not a sample), the driver's version, and libvaccel's.
SAMPLE = [
    (re.compile(r'(?<!before )(?<!since )\buapi(?: version)?[:,]?\s+(\d+\.\d+)\b'), uapi),
    (re.compile(r'\bvaccel (\d+\.\d+\.\d+)\b'), uapi + '.0'),
    (re.compile(r'\blibvaccel (\d+\.\d+(?:\.\d+)?)\b'), None),
]
# In the text: "uapi 1.7", "libvaccel 1.7": since when; never newer.
TEXT = [(re.compile(r'\buapi (\d+\.\d+)\b'), uapi),
        (re.compile(r'\blibvaccel (\d+\.\d+)\b'), lib)]

def blocks(path, lines):
    """Yields (line number, line, in a code block)."""
    md = path.endswith('.md')
    inside = False
    indent = None
    for n, line in enumerate(lines, 1):
        if md:
            if line.lstrip().startswith('```'):
                inside = not inside
                continue
            yield n, line, inside
            continue
        stripped = line.strip()
        if inside:
            if stripped and indent is not None and len(line) - len(line.lstrip()) <= indent:
                inside = False
            else:
                yield n, line, True
                continue
        if stripped.endswith('::') or stripped.startswith('.. code-block::'):
            inside = True
            indent = len(line) - len(line.lstrip())
            yield n, line, False
            continue
        yield n, line, False

bad = []
for path in sys.argv[3:]:
    lines = open(path, encoding='utf-8').read().splitlines()
    for n, line, sample in blocks(path, lines):
        if sample:
            for rx, want in SAMPLE:
                for v in rx.findall(line):
                    # libvaccel's as written: 1.9 or 1.9.0.
                    w = want or '.'.join(lib.split('.')[:v.count('.') + 1])
                    if v != w:
                        bad.append(f'{path}:{n}: {v} in a sample, the tree has {w}')
        else:
            for rx, want in TEXT:
                for v in rx.findall(line):
                    if key(v) > key('.'.join(want.split('.')[:2])):
                        bad.append(f'{path}:{n}: {v} is newer than the tree ({want})')
print('\n'.join(bad))
PY
)
if [ -z "$out" ]; then
	ok versions
else
	not_ok versions "$(echo "$out" | wc -l) stale: $(echo "$out" | head -n 8 | tr '\n' ';')"
fi
exit 0
