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
#   docs      the Sphinx build (HTML and man pages), warnings are errors;
#             the documentation checked against the tree (tests/docs)
#   packaging dkms add/build in scratch trees, the udev rule, make install
#             into a stage, a program built with the staged libvaccel.pc,
#             make uninstall, the man pages rendered by groff, libvaccel.so
#             against its ABI baseline (abidiff)
#   kunit     the KUnit suites under UML with lockdep
#   vm        the whole VM plan on the debug kernel (sanitizers, kmemleak,
#             fault injection, the fuzzer's regressions and a short
#             fixed-seed campaign), then the smoke subset on the stock
#             kernel users load, its results named stock.*, and the
#             documentation's sample outputs compared with its real ones
#             (tests/docs/samples.py), then programs built on the host
#             run by vm.sh exec (tests/vm-exec)
#   opencl    tests/opencl: each OpenCL program on PoCL on the host and on
#             vaccel in one dev VM boot, outputs compared; the ICD's
#             argument checks and event logic on the fake device; faults,
#             hangs, user events and threads in the VM
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

# phase NAME: a part of the run begins (NAME empty: the run ends).  Each
# part's time and number of checks go to $logs/phases, a line each
# ("NAME<TAB>seconds<TAB>checks"), to which the table of testing.rst,
# "How long it takes", is compared at the end.
phase_name= phase_t0= phase_n0=
run_t0=$(date +%s)
: >"$logs/phases"
phase() {
	local now
	now=$(date +%s)
	[ -z "$phase_name" ] ||
		printf '%s\t%s\t%s\n' "$phase_name" $((now - phase_t0)) \
			$((tap_n - phase_n0)) >>"$logs/phases"
	phase_name=$1 phase_t0=$now phase_n0=$tap_n
	[ -z "$1" ] || info "$1"
}

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

phase "build"
step build.module_w1 "$logs/module.log" make --no-print-directory module W=1
no_warnings build.module_w1_warnings "$logs/module.log"
step build.debug_kernel "$logs/debug-kernel.log" scripts/debug-kernel/build.sh
step build.module_debug_w1 "$logs/module-debug.log" make --no-print-directory module-debug W=1
no_warnings build.module_debug_w1_warnings "$logs/module-debug.log"
step build.umd "$logs/umd.log" make --no-print-directory umd
step build.vmtests "$logs/vmtests.log" make --no-print-directory vmtests

phase "static checks"
# sparse (one make job) and checkpatch (two files at a time) run at once.
make --no-print-directory sparse >"$logs/sparse.log" 2>&1 &
sparse_pid=$!

checkpatch=$VACCEL_CACHE/src/linux-source-6.12/scripts/checkpatch.pl
if [ ! -f "$checkpatch" ]; then
	mkdir -p "$VACCEL_CACHE/src"
	tar -xf "$VACCEL_KSRC_TAR" -C "$VACCEL_CACHE/src"
fi
# checkpatch judges a file by its path in the kernel tree: the uapi header
# is checked where it lives there, include/uapi/drm/.  Each file's verdict
# goes to $kstage/verdicts/, then to the stream in the files' order.
kstage=$logs/checkpatch-tree
rm -rf "$kstage"
mkdir -p "$kstage/include/uapi/drm" "$kstage/drivers/accel/vaccel/tests" "$kstage/verdicts"
cp uapi/drm/*.h "$kstage/include/uapi/drm/"
cp drivers/accel/vaccel/*.[ch] "$kstage/drivers/accel/vaccel/"
cp tests/kunit/*.[ch] "$kstage/drivers/accel/vaccel/tests/"
cp_files=$(cd "$kstage" && ls drivers/accel/vaccel/*.[ch] \
	   drivers/accel/vaccel/tests/*.[ch] include/uapi/drm/*.h)
# shellcheck disable=SC2016 # $0 and $1 are the inner shell's
printf '%s\n' "$cp_files" | (cd "$kstage" && xargs -P 2 -I{} sh -c \
	'perl "$0" --strict --no-tree --terse --show-types -f "$1" >"verdicts/$(echo "$1" | tr / _)" 2>&1 ||
	 echo "ERROR: checkpatch.pl exit $?" >>"verdicts/$(echo "$1" | tr / _)"' "$checkpatch" {})
for f in $cp_files; do
	out=$(cat "$kstage/verdicts/$(echo "$f" | tr / _)" 2>/dev/null ||
		echo "ERROR: no verdict")
	if ! grep -q -E '(WARNING|ERROR|CHECK):' <<<"$out"; then
		report "ok static.checkpatch.$f"
	else
		report "not ok static.checkpatch.$f"
		grep -E '(WARNING|ERROR|CHECK):' <<<"$out" | head -n 10 | diag
	fi
done

wait "$sparse_pid"
if grep -q -E 'warning:|error:' "$logs/sparse.log"; then
	report "not ok static.sparse: see $logs/sparse.log"
	grep -E 'warning:|error:' "$logs/sparse.log" | head -n 20 | diag
elif ! grep -q ' CHECK ' "$logs/sparse.log"; then
	report "not ok static.sparse: sparse did not run, see $logs/sparse.log"
else
	report "ok static.sparse"
fi

phase "host tests"
tests/host/run.sh O="$build/host" UMD_O="$build/umd" >"$logs/host.log" 2>&1
collect "$logs/host.log"
grep -q -E '^(ok|not ok) ' "$logs/host.log" || report "not ok host.run: no result, see $logs/host.log"

phase "ISA tests"
for t in fp rv; do
	tests/isa/run-$t.sh >"$logs/isa-$t.log" 2>&1
	collect "$logs/isa-$t.log"
	grep -q -E '^(ok|not ok) ' "$logs/isa-$t.log" ||
		report "not ok isa.run_$t: no result, see $logs/isa-$t.log"
done

phase "documentation"
step docs.build "$logs/docs.log" scripts/docs.sh
# Checked against the tree: names, options, targets, versions.
tests/docs/run.sh "$build/umd" >"$logs/docs-tree.log" 2>&1
collect "$logs/docs-tree.log"
grep -q -E '^(ok|not ok) ' "$logs/docs-tree.log" ||
	report "not ok docs.run: no result, see $logs/docs-tree.log"

phase "packaging"
# Everything happens in scratch directories under $logs: the machine's
# /usr/src, /var/lib/dkms, /usr and udev are never touched.
pkg=$logs/packaging
rm -rf "$pkg"
mkdir -p "$pkg"

# dkms.conf's version is the uapi's MAJOR.MINOR.0, the DRM driver version.
pkg_dkms_version() {
	local major minor want have
	major=$(sed -n 's/^#define[[:space:]]*DRM_VACCEL_UAPI_MAJOR[[:space:]]*\([0-9]*\).*/\1/p' \
		uapi/drm/vaccel_accel.h)
	minor=$(sed -n 's/^#define[[:space:]]*DRM_VACCEL_UAPI_MINOR[[:space:]]*\([0-9]*\).*/\1/p' \
		uapi/drm/vaccel_accel.h)
	want=$major.$minor.0
	have=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
	echo "dkms.conf: $have, uapi: $want"
	[ -n "$major" ] && [ -n "$minor" ] && [ "$have" = "$want" ]
}

# dkms add and build of the staged source tree against the 6.12 headers,
# with scratch trees and a scratch signing key (dkms would otherwise make
# one in /var/lib/dkms); a vaccel.ko for that kernel must come out.  A
# subshell, so that the exported variables go no further.
pkg_dkms_build() (
	local d=$pkg/dkms version ko vermagic
	local trees=(--dkmstree "$d/tree" --sourcetree "$d/src" --installtree "$d/install")
	mkdir -p "$d/tree" "$d/src" "$d/install"
	make --no-print-directory dkms-source DKMS_SOURCE_TREE="$d/src" || return 1
	version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
	export mok_signing_key=$d/mok.key mok_certificate=$d/mok.pub
	dkms add -m vaccel -v "$version" "${trees[@]}" || return 1
	dkms build -m vaccel -v "$version" -k "$VACCEL_KREL" "${trees[@]}" || {
		cat "$d/tree/vaccel/$version/build/make.log" 2>/dev/null
		return 1
	}
	ko=$(find "$d/tree/vaccel/$version/$VACCEL_KREL" -name 'vaccel.ko*' | head -n 1)
	[ -n "$ko" ] || { echo "no vaccel.ko in $d/tree"; return 1; }
	vermagic=$(modinfo -F vermagic "$ko")
	echo "$ko: vermagic $vermagic"
	[ "${vermagic%% *}" = "$VACCEL_KREL" ]
)

# udevadm reads the rule alone, in a private mount namespace whose /run
# and /dev are empty tmpfs: no rule is installed and no node is touched.
pkg_udev_rule() {
	local out
	# shellcheck disable=SC2016 # $1 is the inner shell's
	out=$(unshare -m sh -c 'mount -t tmpfs none /run && mount -t tmpfs none /dev &&
		mkdir -p /run/udev/rules.d && cp "$1" /run/udev/rules.d/ &&
		udevadm test /sys/class/mem/null 2>&1' sh \
		"$root/scripts/install/70-vaccel.rules") || { echo "$out"; return 1; }
	grep -F 'rules.d/70-vaccel.rules' <<<"$out"
	grep -q -F 'Reading rules file: /run/udev/rules.d/70-vaccel.rules' <<<"$out" ||
		{ echo "udevadm did not read the rule"; return 1; }
	! grep -q '^/run/udev/rules.d/70-vaccel.rules' <<<"$out"
}

stage=$pkg/stage
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)

# Every file the install is documented to put, and nothing outside /usr.
pkg_install_layout() {
	local f bad=0 lib=usr/lib/$multiarch
	for f in "$lib/libvaccel.so" "$lib/libvaccel.so.1" "$lib/libvaccel.a" \
		 "$lib/pkgconfig/libvaccel.pc" "$lib/vaccel/libvaccel-rt.a" \
		 "$lib/vaccel/vaccel-kernel.ld" "$lib/vaccel/opencl.bc" \
		 "$lib/vaccel/opencl-builtins.h" \
		 "$lib/cmake/vaccel/VaccelKernel.cmake" \
		 usr/include/vaccel/vaccel.h usr/include/vaccel/vaccel_kernel.h \
		 usr/include/vaccel/vaccel_embed.h \
		 usr/include/vaccel/drm/vaccel_accel.h \
		 usr/include/vaccel/drm/vaccel_coredump.h \
		 usr/lib/udev/rules.d/70-vaccel.rules \
		 usr/share/doc/vaccel/examples/modprobe.d/vaccel.conf \
		 usr/share/doc/vaccel/examples/modules-load.d/vaccel.conf \
		 usr/share/man/man3/libvaccel.3 usr/share/man/man4/vaccel.4 \
		 usr/share/man/man7/vaccel-opencl.7 "$lib/libvaccel-cl.so.1" \
		 etc/OpenCL/vendors/vaccel.icd; do
		[ -f "$stage/$f" ] || { echo "missing: /$f"; bad=1; }
	done
	for f in vaccel-info vaccel-sample vaccel-top vaccel-trace vaccel-coredump \
		 vaccel-cc; do
		[ -x "$stage/usr/bin/$f" ] || { echo "missing: /usr/bin/$f"; bad=1; }
		[ -f "$stage/usr/share/man/man1/$f.1" ] ||
			{ echo "missing: /usr/share/man/man1/$f.1"; bad=1; }
	done
	[ -x "$stage/$lib/vaccel/vaccel-cl-lower" ] ||
		{ echo "missing: /$lib/vaccel/vaccel-cl-lower"; bad=1; }
	# The ICD loader reads /etc/OpenCL/vendors only: the one file there.
	grep -qx "/$lib/libvaccel-cl.so.1" "$stage/etc/OpenCL/vendors/vaccel.icd" ||
		{ echo "vaccel.icd does not name /$lib/libvaccel-cl.so.1"; bad=1; }
	f=$(find "$stage" -mindepth 1 ! -path "$stage/usr" ! -path "$stage/usr/*" \
		! -path "$stage/etc" ! -path "$stage/etc/OpenCL" ! -path "$stage/etc/OpenCL/vendors" \
		! -path "$stage/etc/OpenCL/vendors/vaccel.icd")
	[ -z "$f" ] || { echo "outside /usr: $f"; bad=1; }
	return "$bad"
}

# A program built against the stage, as against a sysroot: the system's
# libdrm headers are linked in, where libdrm.pc's flags, prefixed by
# PKG_CONFIG_SYSROOT_DIR, look for them.  A subshell, as above.
pkg_pkgconfig() (
	local lib=$stage/usr/lib/$multiarch v val flags
	ln -s /usr/include/libdrm "$stage/usr/include/libdrm"
	export PKG_CONFIG_SYSROOT_DIR=$stage PKG_CONFIG_PATH=$lib/pkgconfig
	cat >"$pkg/prog.c" <<'PROG'
#include <stdio.h>
#include <vaccel.h>
#include <drm/vaccel_accel.h>

int main(void)
{
	int n = vaccel_device_count();

	printf("uapi %d.%d, %d devices\n", DRM_VACCEL_UAPI_MAJOR,
	       DRM_VACCEL_UAPI_MINOR, n);
	return n == 0 ? 0 : 1;
}
PROG
	flags=$(pkg-config --cflags --libs libvaccel) || return 1
	echo "flags: $flags"
	# shellcheck disable=SC2086
	gcc -Wall -Werror -o "$pkg/prog" "$pkg/prog.c" $flags || return 1
	mkdir -p "$pkg/no-devices"
	LD_LIBRARY_PATH=$lib VACCEL_DEVICE_DIR=$pkg/no-devices "$pkg/prog" || return 1
	LD_LIBRARY_PATH=$lib ldd "$pkg/prog" | grep -F "$lib/libvaccel.so.1" || return 1
	for v in vaccel_cc:usr/bin/vaccel-cc \
		 vaccel_kernel_includedir:usr/include/vaccel/vaccel_kernel.h \
		 vaccel_runtimedir:usr/lib/$multiarch/vaccel/libvaccel-rt.a \
		 vaccel_ldscript:usr/lib/$multiarch/vaccel/vaccel-kernel.ld; do
		val=$(pkg-config --variable="${v%%:*}" libvaccel)
		echo "${v%%:*}=$val"
		case ${v%%:*} in
		vaccel_kernel_includedir|vaccel_runtimedir) val=$val/${v##*/} ;;
		esac
		if [ "$val" != "$stage/${v#*:}" ] || [ ! -e "$val" ]; then
			echo "${v%%:*} does not name /${v#*:} in the stage"
			return 1
		fi
	done
	"$(pkg-config --variable=vaccel_cc libvaccel)" --version
)

# make uninstall leaves no file behind (the libdrm link is the check's).
pkg_uninstall() {
	local left
	rm -f "$stage/usr/include/libdrm"
	make --no-print-directory uninstall DESTDIR="$stage" PREFIX=/usr || return 1
	left=$(find "$stage" ! -type d)
	[ -z "$left" ] || { echo "left behind:"; echo "$left"; return 1; }
}

step packaging.dkms_version "$pkg/dkms-version.log" pkg_dkms_version
step packaging.dkms_build "$pkg/dkms.log" pkg_dkms_build
step packaging.udev_rule "$pkg/udev.log" pkg_udev_rule
step packaging.install "$pkg/install.log" \
	make --no-print-directory install DESTDIR="$stage" PREFIX=/usr
step packaging.install_layout "$pkg/layout.log" pkg_install_layout
step packaging.pkgconfig "$pkg/pkgconfig.log" pkg_pkgconfig
step packaging.uninstall "$pkg/uninstall.log" pkg_uninstall
# Each man page renders without a warning (-ww: all of groff's warnings).
for page in "$build"/docs/man/*.[0-9]; do
	[ -f "$page" ] || { report "not ok packaging.man: no man pages in $build/docs/man"; break; }
	name=$(basename "$page")
	if out=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1) && [ -z "$out" ]; then
		report "ok packaging.man.$name"
	else
		report "not ok packaging.man.$name: $(head -n 1 <<<"$out")"
	fi
done

# libvaccel's ABI against its stored baseline; and the check itself fails
# on a baseline naming a function the library lacks (one "removed").
step packaging.abi "$pkg/abi.log" scripts/abi.sh check
abi_detects_removal() {
	sed 's/vaccel_queue_get_info/vaccel_queue_get_gone/g' \
		umd/libvaccel/libvaccel.abi >"$pkg/abi-removed.abi"
	! VACCEL_ABI_BASELINE=$pkg/abi-removed.abi scripts/abi.sh check
}
step packaging.abi_detects_removal "$pkg/abi-removed.log" abi_detects_removal

phase "KUnit"
scripts/kunit.sh >"$logs/kunit.log" 2>&1
collect "$logs/kunit.log" "" 60
# KUnit's own KTAP, as the kernel printed it, for tools that read KTAP.
rm -f "$logs/kunit.ktap"
if [ -f "$VACCEL_CACHE/kunit-build/test.log" ]; then
	python3 "$VACCEL_CACHE/src/linux-source-6.12/tools/testing/kunit/kunit.py" parse \
		--raw_output=kunit <"$VACCEL_CACHE/kunit-build/test.log" \
		>"$logs/kunit.ktap" 2>/dev/null || rm -f "$logs/kunit.ktap"
fi

phase "VM tests on the debug kernel"
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

phase "VM smoke tests on the stock kernel"
VACCEL_KERNEL=stock VACCEL_VM_PLAN=smoke scripts/vm.sh test >"$logs/vm-stock.log" 2>&1
collect "$logs/vm-stock.log" stock. 40
# The documentation's sample outputs against the smoke plan's real ones.
python3 tests/docs/samples.py "$logs/vm-stock.log" README.md \
	Documentation/*.rst Documentation/man/*.rst >"$logs/docs-samples.log" 2>&1
collect "$logs/docs-samples.log"
grep -q -E '^(ok|not ok) ' "$logs/docs-samples.log" ||
	report "not ok docs.samples: no result, see $logs/docs-samples.log"

phase "programs of the host in the dev VM (vm.sh exec)"
tests/vm-exec/run.sh >"$logs/vm-exec.log" 2>&1
collect "$logs/vm-exec.log" "" 40
grep -q -E '^(ok|not ok) ' "$logs/vm-exec.log" ||
	report "not ok vm.exec.run: no result, see $logs/vm-exec.log"

phase "OpenCL: PoCL and vaccel compared, the ICD on the fake device"
tests/opencl/run.sh O="$build/opencl" UMD_O="$build/umd" >"$logs/opencl.log" 2>&1
collect "$logs/opencl.log" "" 40
grep -q -E '^(ok|not ok) ' "$logs/opencl.log" ||
	report "not ok opencl.run: no result, see $logs/opencl.log"

# The run's parts, their times and counts, against the documented ones.
phase ""
printf '%s\t%s\t%s\n' "make check" $(($(date +%s) - run_t0)) "$tap_n" >>"$logs/phases"
awk -F'\t' '{ printf "# %-62s %5d s %5d checks\n", $1, $2, $3 }' "$logs/phases" | emit
python3 tests/docs/phases.py Documentation/testing.rst "$logs/phases" \
	>"$logs/docs-phases.log" 2>&1
collect "$logs/docs-phases.log"
grep -q -E '^(ok|not ok) ' "$logs/docs-phases.log" ||
	report "not ok docs.check_phases: no result, see $logs/docs-phases.log"

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
