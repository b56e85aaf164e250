#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run-rv.sh - the RV64 interpreter (vaccel_rv.c) against qemu-riscv64.
#
# usage: tests/isa/run-rv.sh [-s seed] [-n scale%] [-k] [group...]
#        tests/isa/run-rv.sh bench [-r reps] [-t tries] [int|fp|work|workfp...]
#
# Builds the interpreter and the soft-float for the host (tests/isa/shim
# provides the kernel headers they include) with -Wall -Wextra -Werror,
# then runs rv_diff, which prints one line per group of generated
# instruction sequences, `ok isa.rv_<group>` or `not ok isa.rv_<group>:
# <sequence, first instruction that differs, register, expected, got>`,
# as a TAP stream (`ok <N> - <name>`, `not ok <N> - <name> # <why>`, the
# plan last; tap_stream of scripts/lib.sh), and exits 1 if any failed.  -s seed (default fixed), -n scales the
# number of sequences (percent), -k keeps the generated programs.
#
# `bench` builds and runs rv_bench instead: C kernels compiled for RV64G
# and for the host, the interpreter's instructions per second and its
# slowdown against the native -O2 and scalar builds, built once with the
# host's flags and once as the kernel builds on x86 with retpolines (no
# jump tables, indirect branches through thunks; GCC only).
#
# Outputs live in ${VACCEL_CACHE:-/var/cache/vaccel}/build/tests/isa
# (RV_OUT= to change).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${RV_OUT:-${VACCEL_CACHE:-/var/cache/vaccel}/build/tests/isa}
drv=$root/drivers/accel/vaccel
cc=${CC:-cc}
mkdir -p "$out"
# The checks' lines as a TAP stream (scripts/lib.sh); not bench's tables.
# shellcheck source=../../scripts/lib.sh
. "$root/scripts/lib.sh"
if [ "${1:-}" != bench ] && tap_outer; then tap_wrap isa-rv bash "$0" "$@"; exit; fi

for t in "${CLANG:-clang-14}" "${LLD:-ld.lld-14}" "${QEMU:-qemu-riscv64}"; do
	if ! command -v "$t" >/dev/null; then
		echo "not ok isa.rv_tools: $t is missing"
		exit 1
	fi
done

cflags=(-O2 -g -Wall -Wextra -Werror -I "$here/shim" -I "$drv" -I "$here")
# The interpreter as the module's Makefile builds it with GCC: one jump per
# handler.
if $cc --version 2>/dev/null | grep -q 'Free Software Foundation'; then
	cflags+=(-fno-gcse --param=max-goto-duplication-insns=200)
fi
core=("$drv/vaccel_rv.c" "$drv/vaccel_softfloat.c")

if [ "${1:-}" = bench ]; then
	shift
	log=$out/bench-build.log
	{
		$cc -O2 -ffp-contract=off -fno-math-errno -Dbench_int=bench_int_o2 \
			-Dbench_fp=bench_fp_o2 -Dbench_work=bench_work_o2 \
			-Dbench_workfp=bench_workfp_o2 -c "$here/rv_bench_kern.c" \
			-o "$out/rv_bench_kern_o2.o" &&
		$cc -O2 -ffp-contract=off -fno-math-errno -fno-tree-vectorize \
			-Dbench_int=bench_int_scalar -Dbench_fp=bench_fp_scalar \
			-Dbench_work=bench_work_scalar -Dbench_workfp=bench_workfp_scalar \
			-c "$here/rv_bench_kern.c" -o "$out/rv_bench_kern_scalar.o" &&
		$cc "${cflags[@]}" -o "$out/rv_bench" "$here/rv_bench.c" \
			"${core[@]}" "$out/rv_bench_kern_o2.o" \
			"$out/rv_bench_kern_scalar.o"
	} >"$log" 2>&1 || { echo "not ok isa.rv_bench_build: see $log"; exit 1; }
	export RV_BENCH_SRC=$here
	"$out/rv_bench" -o "$out" "$@" || exit 1
	# As the kernel builds it on x86 with retpolines.
	if $cc "${cflags[@]}" -fno-jump-tables -mindirect-branch=thunk \
		-o "$out/rv_bench_kflags" "$here/rv_bench.c" "${core[@]}" \
		"$out/rv_bench_kern_o2.o" "$out/rv_bench_kern_scalar.o" \
		>>"$log" 2>&1; then
		exec "$out/rv_bench_kflags" -l " (kernel flags)" -o "$out" "$@"
	fi
	exit 0
fi

log=$out/build.log
if ! $cc "${cflags[@]}" -o "$out/rv_diff" "$here/rv_diff.c" "${core[@]}" \
	>"$log" 2>&1; then
	echo "not ok isa.rv_build: see $log"
	sed 's/^/    /' "$log" | head -n 20
	exit 1
fi
echo "ok isa.rv_build"
exec "$out/rv_diff" -o "$out" "$@"
