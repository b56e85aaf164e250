#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run-fp.sh - the soft-float library (vaccel_softfloat.c) against real RV64
# F and D instructions run under qemu-riscv64.
#
# usage: tests/isa/run-fp.sh [SEED=n] [COUNT=n]
#        tests/isa/run-fp.sh --regen
#
# Builds the library for the host (tests/isa/shim provides <linux/types.h>)
# and the freestanding RV64 oracles (clang, ld.lld), then prints one line
# per check, `ok isa.softfloat_<what>` or `not ok isa.softfloat_<what>:
# <why>`, as a TAP stream (`TAP version 13`, `ok <N> - <name>`, `not ok
# <N> - <name> # <why>`, the plan `1..N` last; tap_stream of
# scripts/lib.sh), and exits 1 if any failed:
#
#   softfloat_build	     the host build, -Wall -Wextra -Werror
#   softfloat_integer_only   the library includes <linux/types.h> and its
#			     header only, has no float or double, builds
#			     without FP registers (-mgeneral-regs-only on
#			     x86) and needs no symbol: no __udivti3, no libc
#   softfloat_oracle_build   fp_oracle and gen_fp_vectors for RV64
#   softfloat_vectors_current  tests/kunit/vaccel_softfloat_vectors.h is
#			     exactly what gen_fp_vectors prints
#   softfloat_vectors	     the host build passes those reference vectors
#   softfloat_paths_<op>_<fmt>  the fast path of add, sub, mul, div, sqrt
#			     and fma against the general path, on operands
#			     weighted toward close exponents, cancellations,
#			     thresholds and ties (softfloat_paths.c); and
#			     softfloat_paths_div_55, the binary64 quotient
#			     against an exact 128-bit division
#   softfloat_<op>	     for each of the 48 operations, COUNT random
#			     cases per rounding mode (default 100000: 18.8
#			     million cases in all, about 6 s idle) from
#			     SEED (default 1), results and fflags compared
#			     with fp_oracle's (softfloat_diff.c)
#
# --regen rewrites tests/kunit/vaccel_softfloat_vectors.h from the oracle.
# Outputs live in ${VACCEL_CACHE:-/var/cache/vaccel}/build/tests/isa-fp
# (FP_OUT= to change).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${FP_OUT:-${VACCEL_CACHE:-/var/cache/vaccel}/build/tests/isa-fp}
drv=$root/drivers/accel/vaccel
vectors=$root/tests/kunit/vaccel_softfloat_vectors.h
seed=1
count=100000
regen=0
for arg in "$@"; do
	case "$arg" in
	SEED=*) seed=${arg#SEED=} ;;
	COUNT=*) count=${arg#COUNT=} ;;
	--regen) regen=1 ;;
	*) echo "usage: $0 [SEED=n] [COUNT=n] | --regen" >&2; exit 2 ;;
	esac
done
# The checks' lines as a TAP stream (scripts/lib.sh); not --regen's.
# shellcheck source=../../scripts/lib.sh
. "$root/scripts/lib.sh"
if [ $regen = 0 ] && tap_outer; then tap_wrap isa-fp bash "$0" "$@"; exit; fi
mkdir -p "$out"

cc=${CC:-cc}
clang=${CLANG:-clang-14}
lld=${LLD:-ld.lld-14}
qemu=${QEMU:-qemu-riscv64}
failed=0

ok() { echo "ok isa.softfloat_$1"; }
not_ok() {
	echo "not ok isa.softfloat_$1: $2"
	failed=1
}
# Runs a command, its output in $out/<name>.log; the log's end on failure.
quiet() {
	local name=$1
	shift
	if "$@" >"$out/$name.log" 2>&1; then
		return 0
	fi
	sed 's/^/    /' "$out/$name.log" | tail -n 15 >&2
	return 1
}

rv_cflags=(--target=riscv64-unknown-elf -march=rv64imafd -mabi=lp64d -O2
	   -ffreestanding -nostdlib -mcmodel=medany -fno-pie -mno-relax
	   -Wall -Wextra -Werror)
# shellcheck disable=SC2317 # called through quiet
build_rv() {
	local prog=$1
	"$clang" "${rv_cflags[@]}" -c "$here/$prog.c" -o "$out/$prog.o" &&
	"$clang" "${rv_cflags[@]}" -c "$here/fp_oracle_start.S" \
		-o "$out/fp_oracle_start.o" &&
	"$lld" -m elf64lriscv --no-relax -static -e _start -o "$out/$prog" \
		"$out/$prog.o" "$out/fp_oracle_start.o"
}

oracle_ok=1
for t in "$clang" "$lld" "$qemu"; do
	if ! command -v "$t" >/dev/null; then
		not_ok oracle_build "$t is missing"
		oracle_ok=0
	fi
done
if [ $oracle_ok = 1 ]; then
	if quiet oracle_build build_rv fp_oracle &&
	   quiet oracle_build_gen build_rv gen_fp_vectors; then
		[ $regen = 1 ] || ok oracle_build
	else
		not_ok oracle_build "see $out/oracle_build*.log"
		oracle_ok=0
	fi
fi

if [ $regen = 1 ]; then
	[ $oracle_ok = 1 ] || exit 1
	"$qemu" "$out/gen_fp_vectors" >"$out/vectors.h" || exit 1
	cp "$out/vectors.h" "$vectors"
	echo "wrote $vectors: $(grep -c 'SF_V(' "$vectors") vectors"
	exit 0
fi

# The host build: the library alone, then the diff program with it.
host_ok=1
host_cflags=(-O2 -Wall -Wextra -Werror -Wshadow -I "$here/shim" -I "$drv")
if quiet build "$cc" "${host_cflags[@]}" -c "$drv/vaccel_softfloat.c" \
	-o "$out/vaccel_softfloat.o" &&
   quiet build_diff "$cc" "${host_cflags[@]}" -I "$here" \
	-I "$root/tests/kunit" -o "$out/softfloat_diff" \
	"$here/softfloat_diff.c" "$out/vaccel_softfloat.o"; then
	ok build
else
	not_ok build "see $out/build*.log"
	host_ok=0
fi

# Integer only, self-contained.
why=
includes=$(grep -E '^[[:space:]]*#[[:space:]]*include' "$drv/vaccel_softfloat.c" |
	   tr -s ' \t' ' ')
if [ "$includes" != "$(printf '#include <linux/types.h>\n#include "vaccel_softfloat.h"')" ]; then
	why="includes more than <linux/types.h> and vaccel_softfloat.h"
elif grep -n -E '\b(float|double|long double|_Float[0-9]+)\b' \
	"$drv/vaccel_softfloat.c" "$drv/vaccel_softfloat.h" |
     grep -v -E '^[^:]+:[0-9]+:[[:space:]]*(\*|/\*|//)' >"$out/fp_types.log"; then
	why="floating-point types: $(head -n 1 "$out/fp_types.log")"
else
	gr=
	[ "$(uname -m)" = x86_64 ] && gr=-mgeneral-regs-only
	if ! quiet integer_only "$cc" -O2 $gr -I "$here/shim" \
		-c "$drv/vaccel_softfloat.c" -o "$out/vaccel_softfloat_gr.o"; then
		why="does not build with $gr, see $out/integer_only.log"
	elif [ -n "$(nm -u "$out/vaccel_softfloat_gr.o")" ]; then
		why="needs symbols: $(nm -u "$out/vaccel_softfloat_gr.o" | awk '{print $2}' | tr '\n' ' ')"
	fi
fi
if [ -z "$why" ]; then ok integer_only; else not_ok integer_only "$why"; fi

if [ $oracle_ok = 1 ]; then
	if ! "$qemu" "$out/gen_fp_vectors" >"$out/vectors.h" 2>"$out/gen.log"; then
		not_ok vectors_current "gen_fp_vectors failed, see $out/gen.log"
	elif ! cmp -s "$out/vectors.h" "$vectors"; then
		not_ok vectors_current "differs from what gen_fp_vectors prints ($out/vectors.h); run $0 --regen"
	else
		ok vectors_current
	fi
fi

if [ $host_ok = 1 ] && ! "$out/softfloat_diff" vectors; then
	failed=1
fi

# The fast paths against the general path, on the cases where they could part.
if quiet build_paths "$cc" "${host_cflags[@]}" -o "$out/softfloat_paths" \
	"$here/softfloat_paths.c"; then
	"$out/softfloat_paths" || failed=1
else
	not_ok paths "does not build, see $out/build_paths.log"
fi

if [ $host_ok = 1 ] && [ $oracle_ok = 1 ]; then
	"$qemu" "$out/fp_oracle" "$seed" "$count" |
		"$out/softfloat_diff" random "$seed" "$count"
	rc=("${PIPESTATUS[@]}")
	if [ "${rc[0]}" != 0 ]; then
		not_ok oracle "fp_oracle exited ${rc[0]}"
	elif [ "${rc[1]}" != 0 ]; then
		failed=1
	fi
fi

exit $failed
