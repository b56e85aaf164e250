#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# abi.sh - the ABI of libvaccel.so against its stored baseline,
# umd/libvaccel/libvaccel.abi (abidw's XML of the public interface: the
# exported functions and the types of vaccel.h, private types dropped).
#
#   abi.sh check [LIB]      compare LIB (default: the build tree's
#                           libvaccel.so) with the baseline; exit 1 on an
#                           incompatible change (a function removed, a
#                           public structure or parameter changed in size
#                           or layout), 0 for none or compatible ones
#                           (functions added, reserved space used)
#   abi.sh baseline [LIB]   store LIB's ABI as the new baseline: done
#                           once per release, with the version bump
#
# VACCEL_ABI_BASELINE=FILE compares with another baseline (make check
# proves with one that lacks nothing but names a function the library
# does not have, that the check fails).
#
# abidiff's exit status is a bit field: 1 error, 2 usage error, 4 an ABI
# change, 8 an incompatible one.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib.sh"

build=${VACCEL_BUILD:-$VACCEL_CACHE/build}
baseline=${VACCEL_ABI_BASELINE:-$root/umd/libvaccel/libvaccel.abi}
mode=${1:-check}
lib=${2:-$build/umd/lib/libvaccel.so}

command -v abidw >/dev/null || die "no abidw: run scripts/install-deps.sh (abigail-tools)"
[ -f "$lib" ] || die "no $lib: run make umd first"

dump() {
	abidw --headers-dir "$root/umd/include" --drop-private-types \
		--no-corpus-path --out-file "$1" "$lib"
}

case "$mode" in
baseline)
	dump "$baseline"
	echo "baseline: $baseline ($(readlink -f "$lib"))"
	;;
check)
	[ -f "$baseline" ] || die "no baseline at $baseline: abi.sh baseline"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	dump "$tmp/current.abi"
	set +e
	abidiff --hd1 "$root/umd/include" --hd2 "$root/umd/include" \
		"$baseline" "$tmp/current.abi" >"$tmp/report"
	st=$?
	set -e
	cat "$tmp/report"
	if [ $((st & 3)) != 0 ]; then
		echo "abidiff failed (status $st)" >&2
		exit 1
	elif [ $((st & 8)) != 0 ]; then
		echo "an incompatible change of libvaccel's ABI: see above" >&2
		exit 1
	elif [ $((st & 4)) != 0 ]; then
		echo "compatible changes of libvaccel's ABI"
	else
		echo "libvaccel's ABI is the baseline's"
	fi
	;;
*)
	die "usage: abi.sh check|baseline [LIB]"
	;;
esac
