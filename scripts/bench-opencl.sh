#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench-opencl.sh - the OpenCL part of `make bench`: bench_opencl
# (tests/bench/opencl) in the dev VM, through `vm.sh exec`, since it needs
# what the benchmarks' initramfs has not: the host's clang-14 and LLVM,
# which vaccel's clBuildProgram runs, and PoCL, its reference.  Its figures:
# the four examples through OpenCL against libvaccel (target 1.1x), an
# empty kernel's round trip (1.5x), clBuildProgram, cold and cached,
# against PoCL's in the same boot (vaccel's cold build no slower), and the
# math library's instructions per call (exp, log, sin, cos and pow in
# float at most 150; exp, log, sin, cos and pow in double at most 400), and a
# kernel and a copy on an out-of-order queue against an in-order one
# (0.6x).
#
# usage: scripts/bench-opencl.sh            measure, print the figures
#        (BENCH_OPENCL_ONLY=math: the math library's costs only;
#        BENCH_OPENCL_ONLY=ooo: the out-of-order queue only)
#        scripts/bench-opencl.sh merge FILE add them to the results.json
#                                           FILE of the VM run
#
# The program sees a vendors directory with the build tree's vaccel.icd and
# Debian's pocl.icd, and empty caches for both compilers, all under
# $VACCEL_CACHE/bench/opencl (the VM's shared directory, the one it may
# write).  Its figures, one JSON object a line, are kept in
# $VACCEL_CACHE/bench/opencl.metrics, which
# `merge` adds to results.json as the benchmark "opencl".
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
dir=$VACCEL_CACHE/bench
metrics=$dir/opencl.metrics
build=${VACCEL_BUILD:-$VACCEL_CACHE/build}
work=$dir/opencl

if [ "${1:-}" = merge ]; then
	[ -f "${2:-}" ] && [ -f "$metrics" ] || exit 0
	python3 - "$2" "$metrics" "$dir/opencl.status" <<'PY'
import json, sys
path, metrics, status = sys.argv[1:4]
res = json.load(open(path, encoding='utf-8'))
figs = [json.loads(l) for l in open(metrics, encoding='utf-8') if l.strip().endswith('}')]
try:
    code = int(open(status, encoding='utf-8').read())
except (OSError, ValueError):
    code = None
res['benchmarks'] = [b for b in res['benchmarks'] if b['name'] != 'opencl']
res['benchmarks'].append({'name': 'opencl', 'exit_status': code, 'seconds': None,
                          'error': None if code == 0 else 'bench_opencl failed',
                          'metrics': figs})
for f in figs:
    key = {True: 'passed', False: 'failed', None: 'untargeted'}[f['pass']]
    res[key] = res.get(key, 0) + 1
with open(path, 'w', encoding='utf-8') as out:
    json.dump(res, out, indent=2)
    out.write('\n')
PY
	exit
fi

prog=$build/tests/bench/opencl/bench_opencl
if [ ! -x "$prog" ] || [ ! -x "$build/tests/bench/bin/tcg_tlb_warm" ] ||
   [ ! -f "$build/umd/share/OpenCL/vendors/vaccel.icd" ]; then
	echo "not ok bench.opencl: no $prog, tcg_tlb_warm or vaccel.icd (make benches and make -C umd opencl build them)"
	exit 1
fi
if [ ! -f /etc/OpenCL/vendors/pocl.icd ]; then
	echo "not ok bench.opencl: no PoCL (/etc/OpenCL/vendors/pocl.icd: apt-get install pocl-opencl-icd)"
	exit 1
fi
rm -rf "$work"
mkdir -p "$work/vendors" "$work/xdg-cache" "$work/pocl-cache" "$work/home" || exit 1
cp "$build/umd/share/OpenCL/vendors/vaccel.icd" /etc/OpenCL/vendors/pocl.icd "$work/vendors/"
: >"$metrics"
cd "$work" || exit 1
# tcg_tlb_warm first: each vCPU's TCG TLB sized alike (tests/bench/tcg_tlb_warm.h).
# shellcheck disable=SC2016 # the guest's shell expands $1 and $@
"$here/vm.sh" exec /bin/sh -c '"$1" || echo "bench-opencl.sh: tcg_tlb_warm failed"; shift; exec "$@"' \
	sh "$build/tests/bench/bin/tcg_tlb_warm" \
	/usr/bin/env OCL_ICD_VENDORS="$work/vendors" HOME="$work/home" \
	XDG_CACHE_HOME="$work/xdg-cache" POCL_CACHE_DIR="$work/pocl-cache" \
	BENCH_JSON="$work/opencl.metrics" ${BENCH_OPENCL_ONLY:+BENCH_OPENCL_ONLY="$BENCH_OPENCL_ONLY"} \
	"$prog" "$build/umd" "$build/tests/bench/bin/launch_kernel.elf"
status=$?
echo "$status" >"$dir/opencl.status"
cp "$work/opencl.metrics" "$metrics" 2>/dev/null
exit "$status"
