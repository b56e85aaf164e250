#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check.sh - everything `make check` runs, in order, each step counted:
#
#   build     the debug kernel (once per machine, cached), the module with
#             W=1 against the stock headers and against the debug kernel
#             (no warning allowed), libvaccel, tools, VM tests, vaccel-fuzz
#   static    sparse on the module, checkpatch --strict on every kernel file
#   host      tests/host: uapi layout on 32 and 64 bit, exported symbols, ...
#   isa       tests/isa: soft-float and the RV64 interpreter against
#             qemu-riscv64
#   docs      the Sphinx build, warnings are errors
#   kunit     the KUnit suites under UML with lockdep
#   vm        the whole VM plan on the debug kernel (sanitizers, kmemleak,
#             fault injection, the fuzzer's regressions and a short
#             fixed-seed campaign), then the smoke subset on the stock
#             kernel users load, its results named stock.*
#
# Every check prints `ok <name>` or `not ok <name>: <why>`; the last line is
# `N passed, N failed`, and the exit status is 1 if anything failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib.sh"
load_kernel_env

build=${VACCEL_BUILD:-$VACCEL_CACHE/build}
logs=$VACCEL_CACHE/check
results=$logs/results
mkdir -p "$logs"
: >"$results"

report() { echo "$1" | tee -a "$results"; }

# step NAME LOGFILE COMMAND...: one check from a command's exit status.
step() {
	local name=$1 log=$2
	shift 2
	if "$@" >"$log" 2>&1; then
		report "ok $name"
	else
		report "not ok $name: see $log"
		tail -n 30 "$log" | sed 's/^/    /'
	fi
}

# no_warnings NAME LOGFILE: a check that a build log has no warning.
no_warnings() {
	local name=$1 log=$2
	if grep -q -E 'warning:|error:' "$log"; then
		report "not ok $name: $(grep -c -E 'warning:|error:' "$log") warnings, see $log"
		grep -E 'warning:|error:' "$log" | head -n 20 | sed 's/^/    /'
	else
		report "ok $name"
	fi
}

# Collects the ok/not ok lines a sub-runner printed.
collect() {
	grep -a -E '^(ok|not ok) ' "$1" >>"$results" || true
}

cd "$root" || exit 1

info "build"
step build.module_w1 "$logs/module.log" make --no-print-directory module W=1
no_warnings build.module_w1_warnings "$logs/module.log"
step build.debug_kernel "$logs/debug-kernel.log" scripts/debug-kernel/build.sh
step build.module_debug_w1 "$logs/module-debug.log" make --no-print-directory module-debug W=1
no_warnings build.module_debug_w1_warnings "$logs/module-debug.log"
step build.umd "$logs/umd.log" make --no-print-directory umd
step build.vmtests "$logs/vmtests.log" make --no-print-directory vmtests

info "static checks"
make --no-print-directory sparse >"$logs/sparse.log" 2>&1
if grep -q -E 'warning:|error:' "$logs/sparse.log"; then
	report "not ok static.sparse: see $logs/sparse.log"
	grep -E 'warning:|error:' "$logs/sparse.log" | head -n 20 | sed 's/^/    /'
elif ! grep -q ' CHECK ' "$logs/sparse.log"; then
	report "not ok static.sparse: sparse did not run, see $logs/sparse.log"
else
	report "ok static.sparse"
fi

checkpatch=$VACCEL_CACHE/src/linux-source-6.12/scripts/checkpatch.pl
if [ ! -f "$checkpatch" ]; then
	mkdir -p "$VACCEL_CACHE/src"
	tar -xf "$VACCEL_KSRC_TAR" -C "$VACCEL_CACHE/src"
fi
# checkpatch judges a file by its path in the kernel tree: the uapi header
# is checked where it lives there, include/uapi/drm/.
kstage=$logs/checkpatch-tree
rm -rf "$kstage"
mkdir -p "$kstage/include/uapi/drm" "$kstage/drivers/accel/vaccel/tests"
cp uapi/drm/*.h "$kstage/include/uapi/drm/"
cp drivers/accel/vaccel/*.[ch] "$kstage/drivers/accel/vaccel/"
cp tests/kunit/*.[ch] "$kstage/drivers/accel/vaccel/tests/"
for f in $(cd "$kstage" && ls drivers/accel/vaccel/*.[ch] \
	   drivers/accel/vaccel/tests/*.[ch] include/uapi/drm/*.h); do
	if out=$(cd "$kstage" && perl "$checkpatch" --strict --no-tree --terse \
		 --show-types -f "$f" 2>&1) &&
	   ! grep -q -E '(WARNING|ERROR|CHECK):' <<<"$out"; then
		report "ok static.checkpatch.$f"
	else
		report "not ok static.checkpatch.$f"
		grep -E '(WARNING|ERROR|CHECK):' <<<"$out" | head -n 10 | sed 's/^/    /'
	fi
done

info "host tests"
tests/host/run.sh O="$build/host" UMD_O="$build/umd" >"$logs/host.log" 2>&1
cat "$logs/host.log"
collect "$logs/host.log"
grep -q -E '^(ok|not ok) ' "$logs/host.log" || report "not ok host.run: no result, see $logs/host.log"

info "ISA tests"
for t in fp rv; do
	tests/isa/run-$t.sh >"$logs/isa-$t.log" 2>&1
	grep -v '^ok ' "$logs/isa-$t.log" | tail -n 30
	collect "$logs/isa-$t.log"
	grep -q -E '^(ok|not ok) ' "$logs/isa-$t.log" ||
		report "not ok isa.run_$t: no result, see $logs/isa-$t.log"
done

info "documentation"
step docs.build "$logs/docs.log" scripts/docs.sh

info "KUnit"
scripts/kunit.sh >"$logs/kunit.log" 2>&1
grep -v '^ok ' "$logs/kunit.log" | tail -n 60
collect "$logs/kunit.log"

info "VM tests on the debug kernel"
VACCEL_KERNEL=debug scripts/vm.sh test >"$logs/vm.log" 2>&1
grep -v -E '^ok |^\[' "$logs/vm.log" | tail -n 80
collect "$logs/vm.log"

# The trace test_trace recorded and the plan exported: valid by the
# format's rules, and drawn.
trace_files=$VACCEL_CACHE/vm/debug/test/files
if out=$(python3 tests/host/trace_check.py "$trace_files/trace-scenario.json" \
		--expect "engine reset (hang)" 2>&1); then
	report "ok vm.trace_json_valid"
else
	report "not ok vm.trace_json_valid: $out"
fi
if "$build/umd/bin/vaccel-trace" convert -q -o "$logs/trace-scenario.json" \
		--png "$logs/trace-scenario.png" --svg "$logs/trace-scenario.svg" \
		"$trace_files/trace-scenario.events" >"$logs/trace-draw.log" 2>&1; then
	report "ok vm.trace_drawn"
else
	report "not ok vm.trace_drawn: see $logs/trace-draw.log"
fi

info "VM smoke tests on the stock kernel"
VACCEL_KERNEL=stock VACCEL_VM_PLAN=smoke scripts/vm.sh test >"$logs/vm-stock.log" 2>&1
sed -E 's/^(ok|not ok) /\1 stock./' "$logs/vm-stock.log" >"$logs/vm-stock.results"
grep -v -E '^ok |^\[' "$logs/vm-stock.results" | tail -n 40
collect "$logs/vm-stock.results"

passed=$(grep -c '^ok ' "$results")
failed=$(grep -c '^not ok ' "$results")
echo
grep '^not ok ' "$results" | sed 's/^/FAILED: /'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
