#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# docs.sh - build the vaccel documentation with Sphinx: HTML and man pages.
#
#   scripts/docs.sh            both
#   scripts/docs.sh html       the HTML documentation only
#   scripts/docs.sh man        the man pages only (Documentation/man/)
#
# Uses Debian's Sphinx (python3-sphinx) and the kernel-doc extension of the
# Linux 6.12 source tree, extracted into the cache if needed.  Any Sphinx or
# kernel-doc warning fails the build.
#
# Environment:
#   VACCEL_CACHE  the cache (default /var/cache/vaccel as root, else
#                 ${XDG_CACHE_HOME:-$HOME/.cache}/vaccel)
#   VACCEL_BUILD  the build outputs (default $VACCEL_CACHE/build; the
#                 Makefile sets it to its O)
#   VACCEL_KSRC   the extracted kernel tree
#                 (default $VACCEL_CACHE/src/linux-source-6.12)
#   KDOC_WERROR   1 (default): kernel-doc warnings are errors; 0: they are
#                 only printed
#
# Output: $VACCEL_BUILD/docs/html/index.html and $VACCEL_BUILD/docs/man/,
# the pages named in Documentation/conf.py's man_pages (vaccel-info.1, ...,
# libvaccel.3, vaccel.4), which `make install` installs.
set -euo pipefail

if [ -z "${VACCEL_CACHE:-}" ] && [ "$(id -u)" != 0 ]; then
	VACCEL_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/vaccel"
fi
. "$(dirname "$0")/lib.sh"

REPO=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=/usr/bin/python3
KSRC_NAME=linux-source-6.12
KSRC_TAR=${VACCEL_KSRC_TAR:-/usr/src/$KSRC_NAME.tar.xz}

have_kerneldoc() {
	[ -f "$1/Documentation/sphinx/kerneldoc.py" ] && [ -f "$1/scripts/kernel-doc" ]
}

# The kernel tree: $VACCEL_KSRC, else the cache's copy, else the system
# cache's copy (a non-root user can read it), else extract the tarball.
find_ksrc() {
	if [ -n "${VACCEL_KSRC:-}" ]; then
		have_kerneldoc "$VACCEL_KSRC" && return 0
		[ "$VACCEL_KSRC" = "$VACCEL_CACHE/src/$KSRC_NAME" ] ||
			die "VACCEL_KSRC=$VACCEL_KSRC has no Documentation/sphinx/kerneldoc.py"
	fi
	VACCEL_KSRC=$VACCEL_CACHE/src/$KSRC_NAME
	have_kerneldoc "$VACCEL_KSRC" && return 0
	if have_kerneldoc "/var/cache/vaccel/src/$KSRC_NAME"; then
		VACCEL_KSRC=/var/cache/vaccel/src/$KSRC_NAME
		return 0
	fi
	[ -f "$KSRC_TAR" ] ||
		die "no $KSRC_TAR: run scripts/install-deps.sh first"
	[ ! -e "$VACCEL_KSRC" ] ||
		die "$VACCEL_KSRC exists but is incomplete: remove it and retry"
	info "extracting $KSRC_TAR into $VACCEL_CACHE/src"
	mkdir -p "$VACCEL_CACHE/src"
	local tmp
	tmp=$(mktemp -d "$VACCEL_CACHE/src/.extract.XXXXXX")
	tar xf "$KSRC_TAR" -C "$tmp" ||
		{ rm -rf "$tmp"; die "cannot extract $KSRC_TAR"; }
	mv "$tmp/$KSRC_NAME" "$VACCEL_KSRC" 2>/dev/null || true
	rm -rf "$tmp"
	have_kerneldoc "$VACCEL_KSRC" || die "extracting $KSRC_TAR failed"
}

# build BUILDER OUTDIR WHAT: one Sphinx build.  -E: read every page every
# time, so that a page with a warning is never taken from the saved
# environment and the warning is never lost.
build() {
	local builder=$1 dir=$2 what=$3
	info "building $what (Sphinx $("$PYTHON" -c \
		'import sphinx; print(sphinx.__version__)'), kernel-doc from $VACCEL_KSRC)"
	"$PYTHON" -m sphinx -b "$builder" -E -W --keep-going -q \
		-d "$out/doctrees-$builder" "$REPO/Documentation" "$dir" ||
		die "$what: build failed (warnings are errors)"
}

main() {
	local html=0 man=0 arg
	[ $# -gt 0 ] || set -- html man
	for arg in "$@"; do
		case $arg in
		html) html=1 ;;
		man) man=1 ;;
		-h|--help)
			sed -n '3,9s/^# \{0,1\}//p' "$0"
			return 0 ;;
		*) die "unknown argument '$arg': expected html, man or nothing (both)" ;;
		esac
	done
	"$PYTHON" -c 'import sphinx' 2>/dev/null ||
		die "no Sphinx for $PYTHON: run scripts/install-deps.sh (python3-sphinx)"
	find_ksrc

	out=${VACCEL_BUILD:-$VACCEL_CACHE/build}/docs
	mkdir -p "$out"
	export VACCEL_CACHE VACCEL_KSRC
	export KDOC_WERROR=${KDOC_WERROR:-1}

	if [ "$html" = 1 ]; then
		build html "$out/html" "HTML documentation"
		info "HTML documentation: $out/html/index.html"
	fi
	if [ "$man" = 1 ]; then
		# Pages of names no longer in man_pages must not be installed.
		rm -rf "$out/man"
		build man "$out/man" "man pages"
		info "man pages: $out/man ($(cd "$out/man" && echo *.[0-9]))"
	fi
}

main "$@"
