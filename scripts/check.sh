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
# The output is one TAP stream (version 13, https://testanything.org),
# every check of every runner numbered in it: `ok <N> - <name>` or `not ok
# <N> - <name> # <why>`, details as `# ` comments, the plan `1..N` after
# the last check; the stream is also written to $VACCEL_CACHE/check/
# results.tap (the result lines alone to results), KUnit's own KTAP to
# kunit.ktap there.  The last line, after the plan, is `N passed, N
# failed`, and the exit status is 1 if anything failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib.sh"
load_kernel_env

build=${VACCEL_BUILD:-$VACCEL_CACHE/build}
logs=$VACCEL_CACHE/check
results=$logs/results
tap=$logs/results.tap
mkdir -p "$logs"
: >"$results"

# The stream goes to the terminal and to $tap; tap_n counts its results.
emit() { tee -a "$tap"; }
echo "TAP version 13" >"$tap"
echo "TAP version 13"
tap_n=0

# report LINE: one result, `ok <name>` or `not ok <name>: <why>`.
report() {
	printf '%s\n' "$1" | tap_stream -s "$tap_n" -c "$logs/tap.count" | emit
	tap_n=$(cat "$logs/tap.count")
}

# diag: its input as `#` comments of the stream, indented.
diag() { sed 's/^/#     /' | emit; }

# step NAME LOGFILE COMMAND...: one check from a command's exit status.
step() {
	local name=$1 log=$2
	shift 2
	if "$@" >"$log" 2>&1; then
		report "ok $name"
	else
		report "not ok $name: see $log"
		tail -n 30 "$log" | diag
	fi
}

# no_warnings NAME LOGFILE: a check that a build log has no warning.
no_warnings() {
	local name=$1 log=$2
	if grep -q -E 'warning:|error:' "$log"; then
		report "not ok $name: $(grep -c -E 'warning:|error:' "$log") warnings, see $log"
		grep -E 'warning:|error:' "$log" | head -n 20 | diag
	else
		report "ok $name"
	fi
}

# collect LOG [PREFIX [TAIL]]: the results a sub-runner printed in LOG,
# numbered on in the stream (their names prefixed with PREFIX), then the
# last TAIL (default 30) of its other lines, the `[vaccel]` messages
# excepted, as comments.
collect() {
	local log=$1 prefix=${2:-} tail=${3:-30}
	grep -a -E '^(ok|not ok) ' "$log" |
		tap_stream -s "$tap_n" -c "$logs/tap.count" -x "$prefix" | emit
	tap_n=$(cat "$logs/tap.count")
	grep -a -v -E '^(ok|not ok) |^(TAP|KTAP) version |^1\.\.[0-9]+|^.{0,12}\[vaccel\]' \
		"$log" | tail -n "$tail" | diag
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
	grep -E 'warning:|error:' "$logs/sparse.log" | head -n 20 | diag
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
		grep -E '(WARNING|ERROR|CHECK):' <<<"$out" | head -n 10 | diag
	fi
done

info "host tests"
tests/host/run.sh O="$build/host" UMD_O="$build/umd" >"$logs/host.log" 2>&1
collect "$logs/host.log"
grep -q -E '^(ok|not ok) ' "$logs/host.log" || report "not ok host.run: no result, see $logs/host.log"

info "ISA tests"
for t in fp rv; do
	tests/isa/run-$t.sh >"$logs/isa-$t.log" 2>&1
	collect "$logs/isa-$t.log"
	grep -q -E '^(ok|not ok) ' "$logs/isa-$t.log" ||
		report "not ok isa.run_$t: no result, see $logs/isa-$t.log"
done

info "documentation"
step docs.build "$logs/docs.log" scripts/docs.sh

info "KUnit"
scripts/kunit.sh >"$logs/kunit.log" 2>&1
collect "$logs/kunit.log" "" 60
# KUnit's own KTAP, as the kernel printed it, for tools that read KTAP.
rm -f "$logs/kunit.ktap"
if [ -f "$VACCEL_CACHE/kunit-build/test.log" ]; then
	python3 "$VACCEL_CACHE/src/linux-source-6.12/tools/testing/kunit/kunit.py" parse \
		--raw_output=kunit <"$VACCEL_CACHE/kunit-build/test.log" \
		>"$logs/kunit.ktap" 2>/dev/null || rm -f "$logs/kunit.ktap"
fi

info "VM tests on the debug kernel"
VACCEL_KERNEL=debug scripts/vm.sh test >"$logs/vm.log" 2>&1
collect "$logs/vm.log" "" 80

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
collect "$logs/vm-stock.log" stock. 40

# The plan, what failed, where the stream is, and the line CI reads.
grep -a -E '^(ok|not ok) ' "$tap" >"$results"
passed=$(grep -c '^ok ' "$results")
failed=$(grep -c '^not ok ' "$results")
if [ "$tap_n" -gt 0 ]; then
	echo "1..$tap_n" | emit
else
	echo "Bail out! check: no result" | emit
fi
grep '^not ok ' "$results" | sed 's/^/# FAILED: /' | emit
echo "# the TAP stream: $tap"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
