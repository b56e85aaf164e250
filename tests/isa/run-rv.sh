#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run-rv.sh - the RV64 interpreter against qemu-riscv64.
#
# Builds tests/isa/rv_diff (the user-space build of vaccel_rv.c and
# vaccel_softfloat.c, with the kernel headers shimmed by tests/isa/shim)
# and rv_bench, then runs rv_diff: one `ok isa.rv_<group>` or
# `not ok isa.rv_<group>: ...` line per group.  Arguments go to rv_diff
# (-s seed, -n scale%, -k keep the programs, group names).
# `run-rv.sh bench [-r reps] [int|fp]` runs rv_bench instead: the
# interpreter's speed against the host build of the same C kernels.
# Outputs live in ${VACCEL_CACHE:-/var/cache/vaccel}/build/tests/isa.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${RV_OUT:-${VACCEL_CACHE:-/var/cache/vaccel}/build/tests/isa}
mkdir -p "$out"

for t in "${CLANG:-clang-14}" "${LLD:-ld.lld-14}" "${QEMU:-qemu-riscv64}"; do
	command -v "$t" >/dev/null || { echo "not ok isa.rv: $t is missing"; exit 1; }
done

drv=$root/drivers/accel/vaccel
cflags=(-O2 -g -Wall -Wextra -Wno-unused-function -I "$here/shim" -I "$drv" -I "$here")
cc=${CC:-cc}
$cc "${cflags[@]}" -o "$out/rv_diff" "$here/rv_diff.c" "$drv/vaccel_rv.c" \
	"$drv/vaccel_softfloat.c"
$cc -O2 -ffp-contract=off -Dbench_int=bench_int_o2 -Dbench_fp=bench_fp_o2 \
	-c "$here/rv_bench_kern.c" -o "$out/rv_bench_kern_o2.o"
$cc -O2 -ffp-contract=off -fno-tree-vectorize -Dbench_int=bench_int_scalar \
	-Dbench_fp=bench_fp_scalar -c "$here/rv_bench_kern.c" \
	-o "$out/rv_bench_kern_scalar.o"
$cc "${cflags[@]}" -o "$out/rv_bench" "$here/rv_bench.c" "$drv/vaccel_rv.c" \
	"$drv/vaccel_softfloat.c" "$out/rv_bench_kern_o2.o" \
	"$out/rv_bench_kern_scalar.o"
# As the kernel builds it on x86 with retpolines: no jump tables, indirect
# branches through thunks.
$cc "${cflags[@]}" -fno-jump-tables -mindirect-branch=thunk \
	-o "$out/rv_bench_kflags" "$here/rv_bench.c" "$drv/vaccel_rv.c" \
	"$drv/vaccel_softfloat.c" "$out/rv_bench_kern_o2.o" \
	"$out/rv_bench_kern_scalar.o"

if [ "${1:-}" = bench ]; then
	shift
	export RV_BENCH_SRC=$here
	"$out/rv_bench" -o "$out" "$@"
	exec "$out/rv_bench_kflags" -l " (kernel flags)" -o "$out" "$@"
fi
exec "$out/rv_diff" -o "$out" "$@"
