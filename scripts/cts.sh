#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# cts.sh - `make cts`: the Khronos OpenCL-CTS on vaccel in the dev VM, and
# on PoCL on the host for reference.  The CTS is fetched by the user,
# outside the tree (a tag of early 2023: v2023-05-16-00 matches Debian 12's
# headers), and built here, under $CTS_DIR; nothing of it enters
# the tree.
#
# usage: CTS_SRC=DIR scripts/cts.sh [BINARY[:TEST,TEST...]]...
#
#   BINARY   a CTS binary without its test_ prefix (default: OpenCL I's
#            set, computeinfo api basic buffers events profiling compiler
#            atomics); :TEST,... runs only those tests of it, or passes
#            options (select:-w runs select in wimpy mode)
#   CTS_SRC  the OpenCL-CTS checkout
#   CTS_TIMEOUT   seconds a binary may run, each side (default 3600)
#   CTS_DIR       where the build, the snapshot and the logs go (default
#                 $VACCEL_CACHE/cts)
#   CTS_POCL=0    skip the PoCL runs
#   CTS_HOST_CC=1 the guest's builds run on the host (below)
#
# The ICD under test is a snapshot of the build tree's umd/ (bin, lib,
# share) in $CTS_DIR/umd, so that rebuilding the tree does not
# change it under a run.  With CTS_HOST_CC=1, the ICD in the VM runs
# scripts/guest/host-cc.c in place of vaccel-cc, which hands each build to
# scripts/host-cc-server.py: the same vaccel-cc of the snapshot, with the
# same arguments and inputs, run on the host, where a build takes 0.2 s
# instead of 3 under TCG.  Each binary's output goes to
# $CTS_DIR/run/vaccel/BINARY.log and .../pocl/BINARY.log; the
# last lines printed are the counts of each side, a line per binary.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
build=${VACCEL_BUILD:-$VACCEL_CACHE/build}
top=${CTS_DIR:-$VACCEL_CACHE/cts}
timeout_s=${CTS_TIMEOUT:-3600}

[ -n "${CTS_SRC:-}" ] ||
	die "make cts needs CTS_SRC=DIR, an OpenCL-CTS checkout (git clone -b v2023-05-16-00 https://github.com/KhronosGroup/OpenCL-CTS) outside the tree"
{ [ -f "$CTS_SRC/CMakeLists.txt" ] && [ -d "$CTS_SRC/test_conformance" ]; } ||
	die "CTS_SRC=$CTS_SRC is not an OpenCL-CTS checkout (no CMakeLists.txt and test_conformance/)"
[ -f "$build/umd/share/OpenCL/vendors/vaccel.icd" ] ||
	die "no $build/umd/share/OpenCL/vendors/vaccel.icd: build first (make)"
for tool in cmake make; do
	command -v "$tool" >/dev/null || die "no $tool (apt-get install cmake make)"
done
{ [ -f /usr/include/CL/cl.h ] && [ -f /usr/include/CL/opencl.hpp ]; } ||
	die "no OpenCL headers (apt-get install opencl-c-headers opencl-clhpp-headers ocl-icd-opencl-dev)"

sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(computeinfo api basic buffers events profiling compiler atomics)

# --- build ---------------------------------------------------------------------

mkdir -p "$top/build" || exit 1
info "building the CTS from $CTS_SRC in $top/build"
cmake -S "$CTS_SRC" -B "$top/build" -DCL_INCLUDE_DIR=/usr/include \
	-DCL_LIB_DIR=/usr/lib/x86_64-linux-gnu -DOPENCL_LIBRARIES=OpenCL \
	-DCMAKE_BUILD_TYPE=Release >"$top/cmake.log" 2>&1 ||
	die "cmake failed: $top/cmake.log"
targets=()
for s in "${sets[@]}"; do
	targets+=("test_${s%%:*}")
done
make -C "$top/build" -j"$(nproc)" "${targets[@]}" >"$top/make.log" 2>&1 ||
	die "building ${targets[*]} failed: $top/make.log"

# --- the ICD's snapshot ------------------------------------------------------------

snap=$top/umd
rm -rf "$snap" && mkdir -p "$snap" || exit 1
cp -a "$build/umd/bin" "$build/umd/lib" "$build/umd/share" "$snap/" || exit 1
sed -i "s|^LIB_DIR=.*|LIB_DIR='$snap/lib/vaccel'|" "$snap/bin/vaccel-cc"
run=$top/run
rm -rf "$run/vaccel" "$run/pocl" "$run/vendors"
mkdir -p "$run/vaccel" "$run/pocl" "$run/vendors" "$run/home" || exit 1
echo "$snap/lib/libvaccel-cl.so.1" >"$run/vendors/vaccel.icd"

# --- the runs ------------------------------------------------------------------------

# The guest's runner: each binary in turn, its tests given, under a limit.
cat >"$run/run.sh" <<'RUNNER'
#!/bin/sh
# Written by scripts/cts.sh: run.sh SIDE BUILD TIMEOUT SET...
side=$1 b=$2 limit=$3
shift 3
cd "$(dirname "$0")" || exit 1
for s in "$@"; do
	name=${s%%:*} tests=
	[ "$name" != "$s" ] && tests=$(echo "${s#*:}" | tr ',' ' ')
	bin=$(find "$b/test_conformance" -name "test_$name" -type f | head -n 1)
	if [ -z "$bin" ]; then
		echo "no test_$name" >"$side/$name.log"
	else
		# shellcheck disable=SC2086 # the tests are words
		timeout "$limit" "$bin" $tests >"$side/$name.log" 2>&1
		echo "exit $?" >>"$side/$name.log"
	fi
done
RUNNER
chmod +x "$run/run.sh"

# The builds on the host: the guest's build directories (TMPDIR) and the
# requests are in the share, which the host sees at the same path.
host_cc=() server=
if [ "${CTS_HOST_CC:-0}" = 1 ]; then
	rm -rf "$run/spool" "$run/tmp"
	mkdir -p "$run/spool" "$run/tmp" || exit 1
	gcc -O2 -Wall -o "$run/host-cc" "$here/guest/host-cc.c" ||
		die "cannot build scripts/guest/host-cc.c"
	python3 "$here/host-cc-server.py" "$run/spool" "$snap/bin/vaccel-cc" &
	server=$!
	host_cc=(VACCEL_CL_CC="$run/host-cc" VACCEL_CL_WARM=0 HOST_CC_SPOOL="$run/spool"
		TMPDIR="$run/tmp")
	info "the VM's builds run on the host (CTS_HOST_CC=1)"
fi

info "vaccel in the dev VM: ${sets[*]} (each up to $timeout_s s)"
(cd "$run" && VACCEL_VM_WORK=$top/vm VACCEL_VM_TIMEOUT=$((timeout_s * ${#sets[@]} + 600)) \
	VACCEL_ARGS="timeout_ms=60000 time_limit_ms=600000" \
	"$here/vm.sh" exec /usr/bin/env OCL_ICD_VENDORS="$run/vendors" HOME="$run/home" \
	XDG_CACHE_HOME="$run/home/cache" CL_DEVICE_TYPE=CL_DEVICE_TYPE_ACCELERATOR \
	"${host_cc[@]}" "$run/run.sh" vaccel "$top/build" "$timeout_s" "${sets[@]}") \
	>"$run/vm.log" 2>&1 || info "vm.sh exec: exit $? (see $run/vm.log)"
if [ -n "$server" ]; then
	touch "$run/spool/stop"
	wait "$server"
fi

if [ "${CTS_POCL:-1}" != 0 ]; then
	if [ -f /usr/lib/x86_64-linux-gnu/libpocl.so.2 ]; then
		info "PoCL on the host: ${sets[*]}"
		mkdir -p "$run/pocl-cache"
		OCL_ICD_FILENAMES=libpocl.so.2 POCL_CACHE_DIR=$run/pocl-cache \
			CL_DEVICE_TYPE=CL_DEVICE_TYPE_CPU "$run/run.sh" pocl "$top/build" \
			"$timeout_s" "${sets[@]}"
	else
		info "no PoCL (apt-get install pocl-opencl-icd): its runs are skipped"
	fi
fi

# --- the counts ------------------------------------------------------------------------

# result LOG: the binary's verdict, or how it ended.
result() {
	local v
	[ -f "$1" ] || { echo "not run"; return; }
	v=$(grep -E '^(PASSED|FAILED) ([0-9]+ of [0-9]+ tests|test)\.$' "$1" | tail -n 1)
	case "$(tail -n 1 "$1")" in
	"exit 0") echo "${v:-no verdict}" ;;
	"exit 124") echo "${v:+$v, }stopped at the time limit" ;;
	"exit "*) echo "${v:-no verdict}, $(tail -n 1 "$1")" ;;
	*) echo "${v:-no verdict}" ;;
	esac
}
printf '%-12s  %-44s  %s\n' binary vaccel PoCL
for s in "${sets[@]}"; do
	name=${s%%:*}
	printf '%-12s  %-44s  %s\n' "$name" "$(result "$run/vaccel/$name.log")" \
		"$(result "$run/pocl/$name.log")"
done
