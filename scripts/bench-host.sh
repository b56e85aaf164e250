#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench-host.sh - the part of `make bench` that runs on the host, outside
# the VM: the user-space build of the engines' interpreter core
# (tests/isa/run-rv.sh bench, rv_bench) on bench_compute's integer work,
# against the same C built for the host, scalar.  Target: within 4x.
# Beside it, the floor: bench_compute's bare interpreter (no checks,
# flat memory) built for the host and run on the same work
# ($VACCEL_BUILD/tests/bench/host/bare_host, from make benches), and the
# core's ratio to that floor.
#
# usage: scripts/bench-host.sh            measure, print the figures
#        scripts/bench-host.sh merge FILE add the last figures to the
#                                         results.json FILE of the VM run
#
# Prints `bench.rv_host.<figure> <value>[ PASS|FAIL]` lines as the VM
# benchmarks do, and keeps the figures, one JSON object a line (the format
# of tests/bench/bench.h), in $VACCEL_CACHE/bench/host.metrics, which
# `merge` adds to results.json as the benchmark "rv_host".
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
dir=$VACCEL_CACHE/bench
metrics=$dir/host.metrics
target=4.0

if [ "${1:-}" = merge ]; then
	[ -f "${2:-}" ] && [ -f "$metrics" ] || exit 0
	python3 - "$2" "$metrics" <<'PY'
import json, sys
path, metrics = sys.argv[1], sys.argv[2]
res = json.load(open(path, encoding='utf-8'))
figs = [json.loads(l) for l in open(metrics, encoding='utf-8') if l.strip()]
res['benchmarks'] = [b for b in res['benchmarks'] if b['name'] != 'rv_host']
res['benchmarks'].append({'name': 'rv_host', 'exit_status': 0, 'seconds': None,
                          'error': None, 'metrics': figs})
for f in figs:
    key = {True: 'passed', False: 'failed', None: 'untargeted'}[f['pass']]
    res[key] = res.get(key, 0) + 1
with open(path, 'w', encoding='utf-8') as out:
    json.dump(res, out, indent=2)
    out.write('\n')
PY
	exit
fi

mkdir -p "$dir"
: >"$metrics"
out=$("$root/tests/isa/run-rv.sh" bench work 2>&1)
line=$(grep -m 1 '^ok isa.rv_bench_work: ' <<<"$out")
# "... 575 M/s; 7.2x native -O2 (13.78 ms), 6.8x native scalar (14.40 ms)"
ratio=$(sed -n 's/.* \([0-9.]*\)x native scalar .*/\1/p' <<<"$line")
mips=$(sed -n 's/.* \([0-9.]*\) M\/s;.*/\1/p' <<<"$line")
if [ -z "$ratio" ] || [ -z "$mips" ]; then
	echo "not ok bench.rv_host: rv_bench gave no figure for the integer work"
	sed 's/^/    /' <<<"$out" | tail -n 20
	exit 1
fi
echo "$line"
verdict=$(awk -v r="$ratio" -v t="$target" 'BEGIN { print (r <= t) ? "PASS" : "FAIL" }')
pass=$([ "$verdict" = PASS ] && echo true || echo false)
echo "bench.rv_host.work_native_ratio $ratio $verdict"
echo "bench.rv_host.work_mips $mips"
printf '{"name": "bench.rv_host.work_native_ratio", "value": %s, "unit": "ratio", "target": {"op": "<=", "value": %s}, "pass": %s}\n' \
	"$ratio" "$target" "$pass" >>"$metrics"
printf '{"name": "bench.rv_host.work_mips", "value": %s, "unit": "mips", "target": null, "pass": null}\n' \
	"$mips" >>"$metrics"

bare=${VACCEL_BUILD:-$VACCEL_CACHE/build}/tests/bench/host/bare_host
if [ ! -x "$bare" ]; then
	echo "bench.rv_host: no $bare (make benches builds it): no floor reported"
	exit 0
fi
line=$("$bare" 2>&1)
echo "$line"
# "bare_host: 121.24 ms, native 19.69 ms: 6.16x"
floor=$(sed -n 's/^bare_host: .*: \([0-9.]*\)x$/\1/p' <<<"$line")
if [ -z "$floor" ]; then
	echo "not ok bench.rv_host.bare: $line"
	exit 1
fi
over=$(awk -v r="$ratio" -v f="$floor" 'BEGIN { printf "%.2f", r / f }')
echo "bench.rv_host.bare_native_ratio $floor"
echo "bench.rv_host.work_bare_ratio $over"
printf '{"name": "bench.rv_host.bare_native_ratio", "value": %s, "unit": "ratio", "target": null, "pass": null}\n' \
	"$floor" >>"$metrics"
printf '{"name": "bench.rv_host.work_bare_ratio", "value": %s, "unit": "ratio", "target": null, "pass": null}\n' \
	"$over" >>"$metrics"
