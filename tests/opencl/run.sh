#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# run.sh - the OpenCL tests: differential programs on PoCL and on vaccel,
# the ICD's argument checks and event logic on the fake device, and
# scenarios in the dev VM.  Prints one line per check, for check.sh's
# collect():
#
#	ok opencl.<name>
#	not ok opencl.<name>: <why>
#
# usage: tests/opencl/run.sh [O=/abs/out] [UMD_O=/abs/umd-out] [VM=0]
#
# O receives the programs and their outputs (default $VACCEL_BUILD/opencl);
# UMD_O is where umd/Makefile built libvaccel and the ICD (default
# $VACCEL_BUILD/umd), whose share/OpenCL/vendors names the ICD.  VM=0 skips
# the dev VM (the PoCL runs and the fake device only).  One VM boot runs
# every vaccel-side program and scenario, with the module's time limit
# lowered so that the hang scenario ends in seconds.
#
# Checks:
#   diff.<program>	each program of PROGRAMS below, built with -lOpenCL
#			against the system's headers (or a Python script of
#			pyopencl's operations, pyopencl_ops.py), runs on PoCL (exit 0),
#			then on vaccel in the VM (exit 0), and the two
#			outputs are identical (sorted for printf, whose
#			work-items' lines come in any order)
#   api.<case>		api.c on the fake device (tests/host/fake_vaccel.c):
#			one check per case it prints
#   api.build_cache	the build cache: a second run compiles nothing, a
#			changed clang invalidates it
#   api.warm_compilers	warm.c: the same modules and logs with the warm
#			compiler processes as without, a tool whose server
#			drops the request runs cold, the servers end with
#			the process
#   vm.<scenario>	scenarios.c in the VM, one check per scenario:
#			exit 0 within its alarm
# Exits 1 if any check failed.
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/scripts/lib.sh"
build=${VACCEL_BUILD:-$VACCEL_CACHE/build}
O=$build/opencl
UMD_O=$build/umd
VM=1
for arg in "$@"; do
	case "$arg" in
	O=*) O=${arg#O=} ;;
	UMD_O=*) UMD_O=${arg#UMD_O=} ;;
	VM=*) VM=${arg#VM=} ;;
	*) echo "usage: $0 [O=dir] [UMD_O=dir] [VM=0]" >&2; exit 2 ;;
	esac
done
here=$ROOT/tests/opencl
failed=0

# The longest first (in the VM: math, math_double, convert_all,
# pyopencl_ops' builds, math_exact, shuffle): the VM's two lanes take
# the programs in this order, each the next one left when it is free.
PROGRAMS="math math_double convert_all pyopencl_ops math_exact shuffle vecadd ndrange
	  slabs local parts atomics opencl_c30 integer common vload convert args
	  buffers events kinfo binary link buildlog printf"
SCENARIOS="fault hang user_late user_never release_in_flight threads_queues threads_shared out_of_order"

ok() { echo "ok opencl.$1"; }
not_ok() {
	echo "not ok opencl.$1: $2"
	failed=1
}
# show FILE: the end of a failed check's output, indented.
show() { [ -f "$1" ] && tail -n 15 "$1" | sed 's/^/    /'; }

vendors=$UMD_O/share/OpenCL/vendors
if [ ! -f "$vendors/vaccel.icd" ]; then
	not_ok build "no $vendors/vaccel.icd: build umd first (make umd)"
	exit 1
fi

# The outputs of a previous run go; the build caches (PoCL's, and the
# ICD's in home/cache) stay: they are keyed on the source and compiler.
rm -rf "${O:?}/bin" "$O/pocl" "$O/vaccel" "$O/pocl-vendors" "$O/fake" "$O"/*.log "$O"/*.diff \
	"$O"/*.out "$O"/*.err
mkdir -p "$O/bin" "$O/pocl" "$O/vaccel" "$O/pocl-vendors" "$O/pocl-cache" "$O/home"

# --- packages -----------------------------------------------------------------

missing=
for pkg in ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo \
	   python3-pyopencl libmpfr-dev; do
	dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $pkg"
done
if [ -z "$missing" ]; then
	ok packages
else
	not_ok packages "missing:$missing (run scripts/install-deps.sh)"
fi
# math.c includes the math library's cores (umd/opencl/device/math), built
# as the device library is, without contraction, and links MPFR.
CFLAGS=(-O2 -g -Wall -Wextra -Wno-unused-parameter -Werror -std=gnu11 -ffp-contract=off
	-I"$ROOT/umd/opencl")

# --- build ----------------------------------------------------------------

built=
for p in $PROGRAMS; do
	if [ -f "$here/$p.py" ]; then	# a Python program: pyopencl's
		install -m 755 "$here/$p.py" "$O/bin/$p" && built="$built $p"
	elif cc "${CFLAGS[@]}" -o "$O/bin/$p" "$here/$p.c" -lOpenCL -lmpfr -lgmp -lm -pthread \
		>"$O/$p.build.log" 2>&1; then
		built="$built $p"
	else
		not_ok "diff.$p" "does not build"
		show "$O/$p.build.log"
	fi
done
for p in api scenarios warm; do
	cc "${CFLAGS[@]}" -o "$O/bin/$p" "$here/$p.c" -lOpenCL -lm -pthread \
		>"$O/$p.build.log" 2>&1 || { echo "# $p does not build"; show "$O/$p.build.log"; }
done

# --- PoCL on the host ---------------------------------------------------------

pocl_icd=$(grep -l -s 'libpocl' /etc/OpenCL/vendors/*.icd | head -n 1)
[ -n "$pocl_icd" ] && cp "$pocl_icd" "$O/pocl-vendors/"
for p in $built; do
	OCL_ICD_VENDORS=$O/pocl-vendors POCL_CACHE_DIR=$O/pocl-cache \
		VT_CL_PLATFORM="Portable Computing Language" \
		timeout 300 "$O/bin/$p" >"$O/pocl/$p.out" 2>"$O/pocl/$p.err"
	echo $? >"$O/pocl/$p.rc"
done

# --- the ICD on the fake device ------------------------------------------------

if [ -x "$O/bin/api" ]; then
	mkdir -p "$O/fake"
	ln -sf /dev/zero "$O/fake/accel0"
	# shellcheck disable=SC2046 # pkg-config's words
	if cc -shared -fPIC -O2 -I"$ROOT/uapi" -isystem "$(pkg-config --variable=includedir libdrm)/libdrm" \
		$(pkg-config --cflags-only-other libdrm) "$ROOT/tests/host/fake_vaccel.c" \
		-o "$O/bin/fake_vaccel.so" -ldl -pthread >"$O/fake.build.log" 2>&1; then
		VACCEL_DEVICE_DIR=$O/fake LD_PRELOAD=$O/bin/fake_vaccel.so \
			OCL_ICD_VENDORS=$vendors VT_CL_PLATFORM=vaccel HOME=$O/home \
			XDG_CACHE_HOME=$O/home/cache timeout 300 "$O/bin/api" \
			>"$O/api.out" 2>"$O/api.err"
		rc=$?
		grep -E '^(ok|not ok) ' "$O/api.out" | sed -E 's/^(ok|not ok) /\1 opencl.api./'
		grep -q '^not ok ' "$O/api.out" && failed=1
		if [ "$rc" != 0 ] && ! grep -q '^not ok ' "$O/api.out"; then
			not_ok api.run "exit $rc"
			show "$O/api.err"
		fi
	else
		not_ok api.run "fake_vaccel.so does not build"
		show "$O/fake.build.log"
	fi
else
	not_ok api.run "api.c does not build"
	show "$O/api.build.log"
fi

# --- the build cache, on the fake device ------------------------------------------

# api's program case, three times, in a cache of its own, through a
# vaccel-cc and a clang that log their compiles: the first run compiles,
# the second finds every module in the cache, the third compiles again
# because clang's file changed (the key holds the toolchain's identity).
cache_runs() {
	local d=$O/cache-check n
	rm -rf "$d" && mkdir -p "$d/cache"
	# shellcheck disable=SC2016 # the wrappers' own $1 and $@
	printf '#!/bin/sh\ncase "$1" in --libs|--tools) ;; *) echo cc >>"%s/log" ;; esac\nexec "%s" "$@"\n' \
		"$d" "$UMD_O/bin/vaccel-cc" >"$d/vaccel-cc"
	printf '#!/bin/sh\nexec "%s" "$@"\n' "$(command -v clang-14 || command -v clang)" >"$d/clang"
	chmod +x "$d/vaccel-cc" "$d/clang"
	for n in 1 2 3; do
		[ "$n" = 3 ] && touch -d '+1 minute' "$d/clang"
		: >"$d/log"
		VACCEL_CL_CC=$d/vaccel-cc VACCEL_CLANG=$d/clang VACCEL_DEVICE_DIR=$O/fake \
			LD_PRELOAD=$O/bin/fake_vaccel.so OCL_ICD_VENDORS=$vendors VT_CL_PLATFORM=vaccel \
			HOME=$O/home XDG_CACHE_HOME=$d/cache timeout 300 "$O/bin/api" program \
			>"$d/run$n.out" 2>&1 || { echo "run $n: api program failed"; return 1; }
		wc -l <"$d/log" >"$d/count$n"
	done
	[ "$(cat "$d/count1")" -gt 0 ] || { echo "the first build compiled nothing"; return 1; }
	[ "$(cat "$d/count2")" = 0 ] ||
		{ echo "the same source again: $(cat "$d/count2") compiles, not the cache"; return 1; }
	[ "$(cat "$d/count3")" -gt 0 ] ||
		{ echo "clang changed: the cache still served the old module"; return 1; }
}
if [ -x "$O/bin/api" ] && [ -f "$O/bin/fake_vaccel.so" ]; then
	if why=$(cache_runs); then ok api.build_cache; else not_ok api.build_cache "$why"; fi
fi

# --- the warm compiler processes, on the fake device --------------------------------

# warm.c with the servers and without (VACCEL_CL_WARM=0), the cache off,
# each with a TMPDIR of its own: the modules are the same but for their
# debug information (which names the build's temporary directory), so are
# the build logs; and when the process has ended, its servers have too
# and taken their directory with them.
warm_runs() {
	local d=$O/warm-check mode i
	rm -rf "$d" && mkdir -p "$d/tmp-cold" "$d/tmp-warm"
	for mode in cold warm; do
		env $([ $mode = cold ] && echo VACCEL_CL_WARM=0) TMPDIR="$d/tmp-$mode" \
			VACCEL_CL_CACHE=0 VACCEL_DEVICE_DIR="$O/fake" LD_PRELOAD="$O/bin/fake_vaccel.so" \
			OCL_ICD_VENDORS="$vendors" VT_CL_PLATFORM=vaccel HOME="$O/home" \
			timeout 300 "$O/bin/warm" $mode "$d/$mode" >"$d/$mode.out" 2>&1 ||
			{ echo "$mode: $(tail -n 2 "$d/$mode.out" | tr '\n' ' ')"; return 1; }
	done
	for i in 1 2; do
		llvm-objcopy-14 --strip-debug "$d/cold.$i" "$d/cold.$i.s" &&
			llvm-objcopy-14 --strip-debug "$d/warm.$i" "$d/warm.$i.s" ||
			{ echo "module $i: llvm-objcopy-14 failed"; return 1; }
		cmp -s "$d/cold.$i.s" "$d/warm.$i.s" ||
			{ echo "module $i differs from the one built without servers"; return 1; }
	done
	cmp -s "$d/cold.log" "$d/warm.log" ||
		{ echo "the build logs differ: $(diff "$d/cold.log" "$d/warm.log" | head -n 3 | tr '\n' ' ')"; return 1; }
	for i in $(seq 50); do
		[ -z "$(ls -A "$d/tmp-warm")" ] && return 0
		sleep 0.1
	done
	echo "5 s after the process: $(ls "$d/tmp-warm"/* | tr '\n' ' ')left"
	return 1
}
if [ -x "$O/bin/warm" ] && [ -f "$O/bin/fake_vaccel.so" ]; then
	if why=$(warm_runs); then ok api.warm_compilers; else not_ok api.warm_compilers "$why"; fi
else
	not_ok api.warm_compilers "warm.c or fake_vaccel.so did not build"
fi

# --- vaccel in one VM boot --------------------------------------------------------

# The guest gets VACCEL_* and LD_LIBRARY_PATH only: the driver sets the
# rest.  HOME is read-only there; the build cache goes to the share, and
# stays between runs.  It is keyed on the source and on the compiler's
# files as the VM sees them, inode numbers included, so a cache filled on
# the host would not serve the VM: a cold cache costs some 20-40 s of TCG
# per program, hence two lanes of programs, one per vCPU.  A lane takes
# the next program nobody has taken (mkdir is the lock), so that the
# lanes end together whatever each program costs.  A program may take
# 600 s: math took 300 on a machine loaded beside the VM.
cat >"$O/driver.sh" <<DRIVER
#!/bin/sh
# Written by tests/opencl/run.sh: runs in the dev VM.
export OCL_ICD_VENDORS='$vendors' VT_CL_PLATFORM=vaccel HOME='$O/home' XDG_CACHE_HOME='$O/home/cache'
cd '$O'
# lane: the programs left, in turn, their output, status and times kept.
lane() {
	for p in $built; do
		mkdir vaccel/\$p.taken 2>/dev/null || continue
		t0=\$(date +%s.%N)
		timeout 600 ./bin/\$p >vaccel/\$p.out 2>vaccel/\$p.err
		echo \$? >vaccel/\$p.rc
		echo "\$p \$t0 \$(date +%s.%N)" >>vaccel/times
	done
}
lane &
lane
wait
for s in $SCENARIOS; do
	t0=\$(date +%s.%N)
	timeout 120 ./bin/scenarios \$s >vaccel/scenario.\$s.out 2>&1
	echo \$? >vaccel/scenario.\$s.rc
	echo "scenario.\$s \$t0 \$(date +%s.%N)" >>vaccel/times
done
echo done >vaccel/driver.done
DRIVER
chmod +x "$O/driver.sh"
if [ "$VM" != 0 ]; then
	start=$(date +%s)
	# A work directory of its own: another vm.sh exec may be running.
	(cd "$O" && VACCEL_KERNEL=stock VACCEL_SHARE=$O VACCEL_VM_TIMEOUT=1500 \
		VACCEL_VM_WORK=$O/vm-work \
		VACCEL_ARGS="timeout_ms=1000 time_limit_ms=4000" \
		"$ROOT/scripts/vm.sh" exec "$O/driver.sh") >"$O/vm.log" 2>&1
	rc=$?
	echo "# the VM: exit $rc, $(($(date +%s) - start)) s"
	[ -f "$O/vaccel/times" ] && awk '{ printf "#   %s: %.1f s\n", $1, $3 - $2 }' "$O/vaccel/times"
	[ -f "$O/vaccel/driver.done" ] || { echo "# the VM did not finish the driver:"; show "$O/vm.log" | sed 's/^/#/'; }
	if [ "$rc" = 125 ]; then
		not_ok vm.boot "vm.sh exec: exit 125 (no boot, a timeout, or the kernel log)"
		show "$O/vm.log"
	fi
fi

# --- results -----------------------------------------------------------------------

# norm PROGRAM FILE: the output to compare (printf's sorted).
norm() {
	if [ "$1" = printf ]; then LC_ALL=C sort "$2"; else cat "$2"; fi
}
for p in $built; do
	if [ "$(cat "$O/pocl/$p.rc")" != 0 ]; then
		not_ok "diff.$p" "exit $(cat "$O/pocl/$p.rc") on PoCL"
		show "$O/pocl/$p.err"
	elif grep -q -E 'WRONG|BAD' "$O/pocl/$p.out"; then
		not_ok "diff.$p" "a check failed on PoCL"
		grep -E 'WRONG|BAD' "$O/pocl/$p.out" | head -n 5 | sed 's/^/    /'
	elif [ "$VM" = 0 ]; then
		echo "# diff.$p: PoCL only (VM=0)"
	elif [ ! -f "$O/vaccel/$p.rc" ]; then
		not_ok "diff.$p" "did not run in the VM"
	elif [ "$(cat "$O/vaccel/$p.rc")" != 0 ]; then
		not_ok "diff.$p" "exit $(cat "$O/vaccel/$p.rc") on vaccel"
		show "$O/vaccel/$p.err"
	elif ! diff <(norm "$p" "$O/pocl/$p.out") <(norm "$p" "$O/vaccel/$p.out") \
		>"$O/$p.diff"; then
		not_ok "diff.$p" "vaccel's output differs from PoCL's: $(grep -c '^[<>]' "$O/$p.diff") lines"
		head -n 10 "$O/$p.diff" | sed 's/^/    /'
	else
		ok "diff.$p"
	fi
done
if [ "$VM" != 0 ]; then
	for s in $SCENARIOS; do
		rc=$(cat "$O/vaccel/scenario.$s.rc" 2>/dev/null || echo none)
		if [ "$rc" = 0 ]; then
			ok "vm.$s"
		else
			not_ok "vm.$s" "exit $rc"
			show "$O/vaccel/scenario.$s.out"
		fi
	done
fi
exit "$failed"
