#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# run.sh - the host tests: no module, no VM.  Builds libvaccel and the test
# programs, runs every check and prints a TAP stream (version 13, numbered
# by tap_stream of scripts/lib.sh), one line per check:
#
#	ok <N> - host.<name>
#	not ok <N> - host.<name> # <why>
#
# then the plan, `1..N`.
#
# usage: tests/host/run.sh [O=/abs/out] [UMD_O=/abs/umd-out] [ROOT=repo] [CC=cc]
#
# O receives the test programs (default $ROOT/.build/tests/host); UMD_O is
# where umd/Makefile builds libvaccel (default $O/umd).  Exits 1 if any
# check failed.
#
# Checks:
#   build_umd		libvaccel and vaccel-info build with $CC, -Werror
#   build_clang		the same with clang, when clang exists and CC is not it
#   uapi_layout		the uapi structures (both headers): same layout with
#			-m64 and -m32,
#			sizes multiples of 8, no implicit padding (gcc-multilib)
#   uapi_c99		the uapi headers alone: -std=c99 -pedantic -Werror
#   uapi_cxx		the uapi headers in C++ (g++ -fsyntax-only)
#   vaccel_h_c99	vaccel.h alone: -std=c99 -pedantic -Werror
#   vaccel_h_cxx	vaccel.h in C++: -std=c++11 -pedantic -Werror
#   va_alloc		the GPU VA allocator (umd/libvaccel/va.c compiled into
#			host_va.c): fixed cases, a randomized run against a
#			bitmap model, threads
#   symbols		vaccel.h, libvaccel.sym and libvaccel.so name the same
#			functions: nothing leaked, nothing missing
#   libvaccel_nodev	libvaccel without a vaccel device (host_libvaccel.c)
#   vaccel_info_nodev	vaccel-info without a device: the friendly message, exit 1
#   vaccel_info_usage	vaccel-info -h exits 0, a bad option 2, /dev/null 1
#   vaccel_info_fake	vaccel-info on a fake device (fake_vaccel.c, LD_PRELOAD),
#			the compute limits of uapi 1.4, the buffer, packet
#			and file limits of uapi 1.5, and the device memory and
#			cost model of uapi 1.7 included
#   vaccel_info_json	vaccel-info --json on the same fake devices: one
#			JSON object (python3's json) with the values of the
#			text; null for what an older uapi lacks; an error
#			object and exit 1 for a node that is no device, its
#			path escaped; --json in -h, an unknown option exits 2
#   libvaccel_mem_fake	libvaccel's buffers on the fake device: reference
#			counts, unwinding of failed steps, threads
#			(host_libvaccel_mem.c)
#   unified_fake	libvaccel's unified device on four fake devices:
#			opening, VACCEL_UNIFIED, the split of buffers, the
#			objects they cost, unwinding, bad input
#			(host_unified.c)
#   queue_fake		libvaccel's queues and events on the fake device,
#			which executes packets: results, splitting of long
#			recordings, the bounded pool of DMA buffers, events,
#			faults, unwinding of failed steps (host_queue.c)
#   defer_fake		libvaccel 1.9 on the fake device, under valgrind
#			(leaks): host events and deferred submission, pending
#			events, failures and their spread, a queue destroyed
#			with held work, another thread setting an event, waits
#			on many, command groups (host_defer.c)
#   vaccel_sample_fake	vaccel-sample on the fake device: exit 0, the timings,
#			with and without a copy engine; -f and the fault line
#			it prints; -h and bad options
#   vaccel_cc		vaccel-cc builds module_kernel.c into a module that is
#			what the loader wants (readelf: a static PIE, double
#			float, no compressed code, R_RISCV_RELATIVE only, the
#			local memory segment); -c then link; --cflags; its
#			errors: usage, an unknown option, a static or an
#			initialised VACCEL_LOCAL object, a kernel compiled
#			with -fPIE or for rv64gc, a call to a function
#			nobody defines
#   stack_needs		stack.c's needs of stack_kernel.c's kernels against
#			the frames llvm-readelf reports: the deepest chain of
#			calls, a call of the device runtime, a leaf; unknown
#			for recursion and a call through a pointer, and when
#			.stack_sizes is damaged or missing
#   elf_parse		the loader's parser (elf.c compiled into host_elf.c,
#			-fsanitize=address,undefined): the module accepted
#			and placed, every refusal with its errno and message,
#			then 50000 randomly mutated modules
#   device_printf	vaccel_printf() of the device runtime against the C
#			library's snprintf(), and its print buffer
#			(host_print.c, sanitizers on)
#   cl_printf_format	the host's formatter of OpenCL C's printf buffer
#			(umd/opencl/printf_format.c) on records built by
#			hand: every conversion, vectors, the dropped count,
#			malformed buffers refused, 20000 damaged ones
#			(host_cl_printf.c, sanitizers on)
#   module_fake		libvaccel's modules and launches on the fake device
#			(host_module.c): mappings, relocations, kernels,
#			refusals, the print buffer, DISPATCH packets and
#			argument blocks, argument errors, unwinding
#   kernel_log_rule	the rule by which the VM and KUnit runners fail a
#			run on its kernel log (scripts/lib.sh): each line of
#			data/kernel-log-bad.txt is caught, none of
#			data/kernel-log-clean.txt
#   coredump_decoder	vaccel-coredump: the text of a dump made by
#			host_coredump.c with every section, of one with
#			longer entries and an unknown section (a newer format)
#			and of one with shorter entries; its usage and errors;
#			pending dumps found in a fake devcoredump directory;
#			then the decoder compiled in with sanitizers on every
#			truncation of the dump (refused) and 50000 random
#			mutations (decoded or refused, never a crash)
#   fuzz_programs	vaccel-fuzz's programs (sanitizers on): 2000
#			generated and mutated programs print, parse and
#			print again the same; the regression corpus parses
#   trace_convert	vaccel-trace (sanitizers on) converts
#			data/trace-scenario.events: a JSON trace that
#			trace_check.py accepts, with the scenario's slices,
#			instants and flows; a PNG and an SVG picture
#   trace_bad_input	vaccel-trace refuses a missing file, a file of
#			another kind, truncated and malformed lines with a
#			message and status 1; 300 randomly mutated events
#			files never crash it, and what it writes is valid
#   top_model		vaccel-top's model (host_top.c with
#			umd/tools/top_model.c, sanitizers on): fdinfo parsing,
#			the utilisation arithmetic, the debugfs parsers, a
#			scan of a fake /proc, /sys and debugfs (as root, then
#			as nobody), views and frames from chosen samples
#   vaccel_top_batch	vaccel-top -b -n 2 prints two frames and exits 0;
#			-h exits 0, bad options 2; output to a pipe is batch
#
# The kernel toolchain beyond plain C modules (toolchain.sh):
#   vaccel_cc_modes	-E preprocesses, -S gives RV64IMAFD assembly, -c of
#			several sources gives RV64 objects, -x c, sources,
#			objects and assembly linked into one module,
#			-save-temps (cwd and obj) keeps .i .bc .s .o; usage
#			errors
#   vaccel_cc_cxx	a C++ kernel (namespace, templates, virtual calls,
#			local memory) links, its kernel unmangled, only
#			R_RISCV_RELATIVE, no compressed code; clang++ with
#			-fno-exceptions -fno-rtti; a global constructor and
#			operator new refused with their messages; an abstract
#			class gets the runtime's __cxa_pure_virtual
#   vaccel_cc_embed	--embed=NAME: an x86-64 object whose read-only,
#			64-byte aligned section holds the module's bytes and
#			whose NAME_size is their count; a C and a C++ host
#			program (vaccel_embed.h) see exactly the module; the
#			stack stays non-executable; a linked .elf wrapped as
#			it is; bad names and modes refused
#   vaccel_cc_int128	128-bit division, remainder, overflow checks,
#			conversions and powi link with the runtime's helpers,
#			without compressed code; a module that needs none
#			holds none (the runtime is an archive)
#   vaccel_cc_long_double	long double arithmetic refused with "long double
#			arithmetic is not supported on vaccel engines (use
#			double)", no module left
#   vaccel_cc_stack_sizes	the module's .stack_sizes is not allocated and
#			each entry's address is a function's (read from the
#			ELF file), with its frame size
#   device_builtins	the runtime's 128-bit helpers compiled for the host
#			(host_builtins.c, sanitizers on) against the host's
#			arithmetic and libgcc: edge values in every pair, then
#			200000 random pairs, conversions in the four rounding
#			modes, saturation out of range
#   math_cores		the cores of the device's math library
#			(tests/host/math_cores.c) against MPFR on every
#			4099th float and the special values: each result
#			correctly rounded, signed zeros and NaN included
#			(two processes, each half the functions)
#   math_double		the double cores (tests/host/math_double.c) against
#			MPFR on 100,000 inputs each, edges included: each
#			result within the ULP its design claims
#   math_tables		the math library's tables (math/tables.h) are what
#			math/gen_tables.py writes
#   vaccel_cc_opencl	an OpenCL C program (tests/vm/kernels/opencl.cl)
#			links: its kernels by name, its __local array in the
#			local aperture, only R_RISCV_RELATIVE, no compressed
#			code; -E, -S, -c, -x cl, -cl-std; a compile error, a
#			program without a kernel, a reserved name and a
#			missing builtin refused with their messages
#   vaccel_cc_opencl_library	tests/vm/kernels/opencl_lib.cl builds into a
#			module; a program calling every overload of the
#			device library's families (generated from opencl-c.h),
#			then one of what OpenCL C 3.0 adds (-cl-std=CL3.0),
#			links with opencl.bc, nothing left undefined
#   cl_lower_layout	the IR step on 40 generated kernels of random
#			parameter lists: each entry reads the argument block
#			only in the bytes of the documented layout's
#			parameters, and reads each of them
#   vaccel_cc_cmake	tests/host/cmake configured and built with cmake
#			against the build tree: vaccel_add_kernel() of a .elf
#			and of an EMBED object linked into a program that
#			checks it; a header change rebuilds the module
#   bench_json		make bench's JSON: scripts/guest/bench.sh runs two
#			stand-in benchmarks (host_bench.c with
#			tests/bench/bench.h: every kind of target, no target,
#			NaN, a benchmark that dies), and its results.json,
#			and the copy it exports to the host, parse with every
#			figure, verdict, count and escaped error
#   tap_streams		the TAP streams (tap_stream, tap_outer and tap_wrap of
#			scripts/lib.sh) parse with perl's TAP::Parser with the
#			right counts: a stand-in runner with odd lines, one
#			with no result (it bails out), streams numbered on as
#			check.sh does, and tests/isa/run-rv.sh at 1 % scale

set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
O=
UMD_O=
CC=${CC:-cc}
for arg in "$@"; do
	case "$arg" in
	O=*) O=${arg#O=} ;;
	UMD_O=*) UMD_O=${arg#UMD_O=} ;;
	ROOT=*) ROOT=${arg#ROOT=} ;;
	CC=*) CC=${arg#CC=} ;;
	*) echo "usage: $0 [O=dir] [UMD_O=dir] [ROOT=dir] [CC=cc]" >&2; exit 2 ;;
	esac
done
# shellcheck source=../../scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"
if tap_outer; then tap_wrap host bash "$0" "$@"; exit; fi
O=${O:-$ROOT/.build/tests/host}
UMD_O=${UMD_O:-$O/umd}
mkdir -p "$O/bin" "$O/log"
O=$(cd "$O" && pwd)
: >"$O/log/times"
TMP=$(mktemp -d "$O/tmp.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

DRM_CFLAGS=$(pkg-config --cflags-only-other libdrm)
DRM_INC=$(pkg-config --variable=includedir libdrm)/libdrm
CFLAGS="-O2 -g -Wall -Wextra -Werror"
UAPI_INC="-I$ROOT/uapi -isystem $DRM_INC $DRM_CFLAGS"

failed=0
ok() { echo "ok host.$1"; }
not_ok() {
	echo "not ok host.$1: $2"
	failed=1
}

# check NAME COMMAND...: passes when COMMAND succeeds; else shows its output.
# Each check's time goes to $O/log/times, for the timing table of testing.rst.
check() {
	local name=$1 out t0=$SECONDS
	shift
	if out=$("$@" 2>&1); then
		ok "$name"
	else
		not_ok "$name" "$(echo "$out" | tail -n 3 | tr '\n' ' ')"
	fi
	echo "$name $((SECONDS - t0)) s" >>"$O/log/times"
}

# --- builds ---

umd_ok=0
if make -s -C "$ROOT/umd" O="$UMD_O" ROOT="$ROOT" CC="$CC" >"$O/log/umd.log" 2>&1; then
	ok build_umd
	umd_ok=1
else
	not_ok build_umd "$(tail -n 3 "$O/log/umd.log" | tr '\n' ' ')"
fi

if command -v clang-14 >/dev/null && [ "$(basename "$CC")" != clang-14 ]; then
	check build_clang make -s -C "$ROOT/umd" O="$O/umd-clang" ROOT="$ROOT" CC=clang-14
fi

# --- uapi header ---

uapi_layout() {
	local m
	for m in 64 32; do
		if ! "$CC" -m$m -std=c11 $CFLAGS $UAPI_INC "$ROOT/tests/host/uapi_layout.c" \
			-o "$O/bin/uapi_layout$m" 2>"$O/log/layout$m.log"; then
			echo "cannot build with -m$m (-m32 needs gcc-multilib):"
			tail -n 2 "$O/log/layout$m.log"
			return 1
		fi
		# A host that runs no 32-bit program (ia32_emulation=0 on its
		# command line) runs it under qemu-user, which the project
		# installs for the ISA tests.
		if [ $m = 32 ] && ! "$O/bin/uapi_layout$m" >/dev/null 2>&1 &&
		   command -v qemu-i386 >/dev/null; then
			qemu-i386 "$O/bin/uapi_layout$m" >"$O/log/layout$m.txt" || return 1
		else
			"$O/bin/uapi_layout$m" >"$O/log/layout$m.txt" || return 1
		fi
	done
	diff -u "$O/log/layout64.txt" "$O/log/layout32.txt"
}
check uapi_layout uapi_layout

printf '#include <drm/vaccel_accel.h>\n#include <drm/vaccel_coredump.h>\n' >"$TMP/uapi.c"
cp "$TMP/uapi.c" "$TMP/uapi.cc"
check uapi_c99 "$CC" -std=c99 -pedantic $CFLAGS $UAPI_INC -c "$TMP/uapi.c" -o "$TMP/uapi.o"
# No -pedantic: a flexible array member is a GNU extension in C++.
check uapi_cxx g++ -fsyntax-only -Wall -Wextra -Werror $UAPI_INC "$TMP/uapi.cc"

printf '#include <vaccel.h>\n' >"$TMP/vaccel.c"
cp "$TMP/vaccel.c" "$TMP/vaccel.cc"
check vaccel_h_c99 "$CC" -std=c99 -pedantic $CFLAGS -I"$ROOT/umd/include" \
	-c "$TMP/vaccel.c" -o "$TMP/vaccel.o"
check vaccel_h_cxx g++ -std=c++11 -pedantic -fsyntax-only -Wall -Wextra -Werror \
	-I"$ROOT/umd/include" "$TMP/vaccel.cc"

# --- the VA allocator, compiled in directly ---

va_alloc() {
	local cc
	for cc in "$CC" ${CLANG:+"$CLANG"}; do
		"$cc" -std=gnu11 $CFLAGS -pthread -I"$ROOT/umd/libvaccel" \
			-I"$ROOT/umd/include" $UAPI_INC "$ROOT/tests/host/host_va.c" \
			"$ROOT/umd/libvaccel/va.c" -o "$O/bin/host_va" || return 1
		"$O/bin/host_va" || { echo "host_va built with $cc failed"; return 1; }
	done
}
CLANG=
if command -v clang-14 >/dev/null && [ "$(basename "$CC")" != clang-14 ]; then
	CLANG=clang-14
fi
check va_alloc va_alloc

# --- libvaccel and vaccel-info ---

if [ $umd_ok = 0 ]; then
	for t in symbols libvaccel_nodev vaccel_info_nodev vaccel_info_usage \
		vaccel_info_fake vaccel_info_json libvaccel_mem_fake unified_fake queue_fake \
		defer_fake vaccel_sample_fake \
		vaccel_cc elf_parse device_printf cl_printf_format module_fake coredump_decoder \
		vaccel_cc_modes vaccel_cc_cxx vaccel_cc_embed vaccel_cc_int128 \
		vaccel_cc_long_double vaccel_cc_stack_sizes device_builtins math_cores math_double \
		math_tables \
		vaccel_cc_cmake vaccel_cc_opencl vaccel_cc_opencl_library cl_lower_layout stack_needs; do
		not_ok $t "libvaccel did not build"
	done
	exit 1
fi
LIB=$UMD_O/lib
INFO=$UMD_O/bin/vaccel-info
SAMPLE=$UMD_O/bin/vaccel-sample

# The functions declared in vaccel.h, the names in libvaccel.sym and the
# dynamic symbols of libvaccel.so must be the same three lists; a name in
# two version nodes (a function whose result structure grew) is exported
# in both versions.
symbols() {
	local api sym dyn v
	api=$(grep -oE '^[a-z][^(]*[^a-z0-9_]vaccel_[a-z0-9_]+\(' \
		"$ROOT/umd/include/vaccel.h" | grep -oE 'vaccel_[a-z0-9_]+\($' |
		tr -d '(' | sort)
	sym=$(sed -e 's|/\*.*\*/||' "$ROOT/umd/libvaccel/libvaccel.sym" |
		grep -oE '^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*;' | tr -d ' \t;' |
		sort -u)
	dyn=$(nm -D --defined-only "$LIB/libvaccel.so" | awk '$2 != "A" { print $3 }' |
		sed -e 's/@.*//' | sort -u)
	# The versions programs built before libvaccel 1.5 call.
	for v in vaccel_device_get_info@VACCEL_1 vaccel_device_get_info@@VACCEL_1.5 \
		 vaccel_queue_get_stats@VACCEL_1.3 vaccel_queue_get_stats@@VACCEL_1.5; do
		nm -D --defined-only "$LIB/libvaccel.so" | grep -q " $v\$" ||
			{ echo "libvaccel.so does not export $v"; return 1; }
	done
	[ -n "$api" ] || { echo "no function found in vaccel.h"; return 1; }
	[ "$api" = "$sym" ] || {
		echo "vaccel.h and libvaccel.sym differ:"
		diff <(echo "$api") <(echo "$sym") | grep '^[<>]' |
			sed -e 's/^</ not in .sym:/' -e 's/^>/ not in vaccel.h:/'
		return 1
	}
	[ "$sym" = "$dyn" ] || {
		echo "libvaccel.so exports differ from libvaccel.sym:"
		diff <(echo "$sym") <(echo "$dyn") | grep '^[<>]' |
			sed -e 's/^</ missing:/' -e 's/^>/ leaked:/'
		return 1
	}
}
check symbols symbols

# A device directory with accel nodes of other drivers only.
mkdir -p "$TMP/other"
ln -s /dev/null "$TMP/other/accel0"
ln -s /dev/zero "$TMP/other/accel1"

libvaccel_nodev() {
	"$CC" -std=gnu11 $CFLAGS -I"$ROOT/umd/include" \
		"$ROOT/tests/host/host_libvaccel.c" -o "$O/bin/host_libvaccel" \
		-L"$LIB" -lvaccel -Wl,-rpath,"$LIB" || return 1
	"$O/bin/host_libvaccel" "$TMP/other"
}
check libvaccel_nodev libvaccel_nodev

vaccel_info_nodev() {
	local dir out rc
	for dir in /nonexistent "$TMP/other"; do
		out=$(VACCEL_DEVICE_DIR=$dir "$INFO" 2>&1)
		rc=$?
		[ $rc = 1 ] || { echo "VACCEL_DEVICE_DIR=$dir: exit $rc"; return 1; }
		case "$out" in
		*"no vaccel device found: is the module loaded? (insmod vaccel.ko)"*) ;;
		*) echo "VACCEL_DEVICE_DIR=$dir: unexpected output: $out"; return 1 ;;
		esac
	done
}
check vaccel_info_nodev vaccel_info_nodev

vaccel_info_usage() {
	local rc
	"$INFO" -h | grep -q '^usage: vaccel-info' || { echo "-h: no usage"; return 1; }
	"$INFO" -Z >/dev/null 2>&1; rc=$?
	[ $rc = 2 ] || { echo "bad option: exit $rc"; return 1; }
	"$INFO" /dev/null 2>"$TMP/err"; rc=$?
	[ $rc = 1 ] && grep -q 'not a vaccel device' "$TMP/err" ||
		{ echo "/dev/null: exit $rc, $(cat "$TMP/err")"; return 1; }
	"$INFO" /nonexistent 2>"$TMP/err"; rc=$?
	[ $rc = 1 ] && grep -q 'No such file or directory' "$TMP/err" ||
		{ echo "/nonexistent: exit $rc, $(cat "$TMP/err")"; return 1; }
}
check vaccel_info_usage vaccel_info_usage

# Fake devices at accel10 and accel2 (numeric order: accel2 first), with
# accel1 belonging to another driver.
expect_out() {
	echo "$out" | grep -q -- "$1" || { echo "no '$1' in: $out"; return 1; }
}
expect_count() {
	local n
	n=$(echo "$out" | grep -c -- "$1")
	[ "$n" = "$2" ] || { echo "$n lines with '$1', not $2, in: $out"; return 1; }
}
# build_fake: fake_vaccel.so, built once for every check that preloads it.
# Each check runs in a subshell, so the stamp is a file.
FAKE=$O/bin/fake_vaccel.so
build_fake() {
	[ -f "$TMP/fake.built" ] && return 0
	"$CC" -shared -fPIC $CFLAGS $UAPI_INC "$ROOT/tests/host/fake_vaccel.c" \
		-o "$FAKE" -ldl -pthread || { echo "fake_vaccel.so did not build"; return 1; }
	touch "$TMP/fake.built"
}

vaccel_info_fake() {
	local out
	build_fake || return 1
	mkdir -p "$TMP/fake"
	ln -s /dev/zero "$TMP/fake/accel10"
	ln -s /dev/null "$TMP/fake/accel1"
	ln -s /dev/zero "$TMP/fake/accel2"
	out=$(VACCEL_DEVICE_DIR=$TMP/fake LD_PRELOAD=$FAKE \
		VT_COMPUTE=3 VT_COPY=2 VT_VA_BITS=40 "$INFO" 2>&1) ||
		{ echo "exit $?: $out"; return 1; }
	expect_out "^$TMP/fake/accel2: vaccel 1\.[0-9]*\.0" || return 1
	expect_out "^$TMP/fake/accel10: vaccel" || return 1
	expect_count '^/' 2 || return 1
	expect_count '^  compute ' 6 || return 1
	expect_count '^  paging ' 2 || return 1
	expect_out 'engines *6 (compute 3, copy 2, paging 1)' || return 1
	expect_out 'va range *0x0000000000010000 - 0x0000010000000000' || return 1
	expect_out 'max bo size *4294967296 (4096 MiB)' || return 1
	expect_out 'max bind ops *1024' || return 1
	expect_out 'max bos/file *65536' || return 1
	expect_out 'workgroup *1024 work-items, 65536 bytes of local memory' || return 1
	expect_out 'stacks *65536 bytes per work-item, 4194304 per workgroup' || return 1
	expect_out 'apertures *local 0x0100000000000000, private 0x0200000000000000' || return 1
	expect_out 'buffer limits *hung after 2000 ms without progress, stopped after 30000 ms' ||
		return 1
	expect_out 'packet limits *4294967296 work-items a grid, 4096 MiB a COPY or FILL' ||
		return 1
	expect_out 'file limits *4096 jobs in flight, 65536 mappings, 64 MiB of page tables' ||
		return 1
	expect_count 'device memory *none' 2 || return 1
	expect_count 'cost model' 0 || return 1
	out=$(VACCEL_DEVICE_DIR=$TMP/fake LD_PRELOAD=$FAKE VT_DEVICE_MEM_MB=16 \
		VT_COST_PEER_NS=200 "$INFO" -d 0 2>&1) ||
		{ echo "device memory: exit $?: $out"; return 1; }
	expect_out 'device memory *16 MiB at 0x0000010000000000, 8 MiB free' || return 1
	expect_out 'cost model *0 ns per KiB of system memory, 200 of a peer.s' || return 1
	out=$(VACCEL_DEVICE_DIR=$TMP/fake LD_PRELOAD=$FAKE \
		VT_NO_COMPUTE=1 "$INFO" -d 0 2>&1) || { echo "uapi 1.3: exit $?: $out"; return 1; }
	expect_out 'kernels *not supported (uapi before 1.4)' || return 1
	expect_count 'limits' 0 || return 1
	out=$(VACCEL_DEVICE_DIR=$TMP/fake LD_PRELOAD=$FAKE \
		"$INFO" -d 1 2>&1) || { echo "-d 1: exit $?: $out"; return 1; }
	expect_out "^$TMP/fake/accel10:" || return 1
	expect_count '^/' 1
}
check vaccel_info_fake vaccel_info_fake

vaccel_info_json() {
	local dir=$TMP/fakejson rc bad minor
	build_fake || return 1
	mkdir -p "$dir"
	ln -sf /dev/zero "$dir/accel10"
	ln -sf /dev/null "$dir/accel1"
	ln -sf /dev/zero "$dir/accel2"
	VACCEL_DEVICE_DIR=$dir LD_PRELOAD=$FAKE VT_COMPUTE=3 VT_COPY=2 VT_VA_BITS=40 \
		"$INFO" --json >"$TMP/info.json" 2>"$TMP/info.err" ||
		{ echo "exit $?: $(cat "$TMP/info.err")"; return 1; }
	VACCEL_DEVICE_DIR=$dir LD_PRELOAD=$FAKE VT_DEVICE_MEM_MB=16 VT_COST_PEER_NS=200 \
		"$INFO" -j -d 0 >"$TMP/info-mem.json" || { echo "-j -d 0: exit $?"; return 1; }
	VACCEL_DEVICE_DIR=$dir LD_PRELOAD=$FAKE VT_NO_COMPUTE=1 \
		"$INFO" --json -d 0 >"$TMP/info-old.json" || { echo "uapi 1.3: exit $?"; return 1; }
	# A node that is no device, and a path that needs escaping.
	bad=$TMP/$'no"such\\\n\xff'
	VACCEL_DEVICE_DIR=$dir LD_PRELOAD=$FAKE \
		"$INFO" --json "$dir/accel2" /dev/null "$bad" >"$TMP/info-bad.json" 2>/dev/null
	rc=$?
	[ $rc = 1 ] || { echo "a bad node: exit $rc"; return 1; }
	# The uapi version the fake device reports: the header's.
	minor=$(sed -n 's/^#define[[:space:]]*DRM_VACCEL_UAPI_MINOR[[:space:]]*\([0-9]*\).*/\1/p' \
		"$ROOT/uapi/drm/vaccel_accel.h")
	python3 - "$TMP" "$dir" "$minor" <<'PY' || return 1
import json, sys
tmp, d, minor = sys.argv[1], sys.argv[2], int(sys.argv[3])
def load(name):
    try:
        return json.load(open('%s/%s' % (tmp, name), encoding='utf-8'))
    except ValueError as e:
        sys.exit('%s: not JSON: %s' % (name, e))
def want(what, got, exp):
    if got != exp:
        sys.exit('%s: %r, not %r' % (what, got, exp))
j = load('info.json')
want('format', j['format'], 'vaccel-info 1')
want('paths', [x['path'] for x in j['devices']], [d + '/accel2', d + '/accel10'])
x = j['devices'][0]
want('driver', x['driver']['name'], 'vaccel')
want('uapi', x['uapi'], {'major': 1, 'minor': minor})
want('engine_counts', x['engine_counts'], {'compute': 3, 'copy': 2, 'paging': 1})
want('engines_total', x['engines_total'], 6)
want('engine classes', [e['class'] for e in x['engines']],
     ['compute'] * 3 + ['copy'] * 2 + ['paging'])
want('supported', x['engines'][0]['supported'][:2], ['dma-buffer', 'packet'])
want('compute_units', [e['compute_units'] for e in x['engines']], [2] * 3 + [0] * 3)
want('va', (x['va_bits'], x['va_start'], x['va_end']),
     (40, '0x0000000000010000', '0x0000010000000000'))
want('max_bo_size', x['max_bo_size'], 4294967296)
want('max_bind_ops', x['max_bind_ops'], 1024)
want('max_bos_per_file', x['max_bos_per_file'], 65536)
want('kernels', x['kernels'], {'max_workgroup_items': 1024, 'max_local_size': 65536,
     'max_stack_size': 65536, 'max_private_size': 4194304,
     'local_base': '0x0100000000000000', 'private_base': '0x0200000000000000'})
want('buffer_limits', x['buffer_limits'], {'hang_timeout_ms': 2000, 'time_limit_ms': 30000})
want('packet_limits', x['packet_limits'],
     {'max_grid_items': 4294967296, 'max_copy_size': 4294967296})
want('file_limits', x['file_limits'],
     {'max_jobs': 4096, 'max_mappings': 65536, 'max_page_table_size': 64 << 20})
want('device_memory', x['device_memory']['size'], 0)
want('cost_model', x['cost_model'], {'system_ns_per_kib': 0, 'peer_ns_per_kib': 0})
x = load('info-mem.json')['devices']
want('-d 0', len(x), 1)
want('device_memory', x[0]['device_memory'],
     {'size': 16 << 20, 'base': '0x0000010000000000', 'free': 8 << 20})
want('cost_model', x[0]['cost_model'], {'system_ns_per_kib': 0, 'peer_ns_per_kib': 200})
x = load('info-old.json')['devices'][0]
for k in ('kernels', 'packet_limits', 'file_limits', 'device_memory', 'cost_model'):
    want('uapi 1.3 ' + k, x[k], None)
x = load('info-bad.json')['devices']
want('bad: devices', len(x), 3)
want('bad: the device', x[0]['path'], d + '/accel2')
want('bad: /dev/null', x[1], {'path': '/dev/null', 'error': 'not a vaccel device'})
want('bad: escaped path', x[2]['path'], tmp + '/no"such\\\n\ufffd')
want('bad: error', x[2]['error'], 'No such file or directory')
PY
	"$INFO" -h | grep -q -- '-j, --json' || { echo "-h: no --json"; return 1; }
	"$INFO" --bogus >/dev/null 2>"$TMP/err"; rc=$?
	[ $rc = 2 ] && grep -q "unrecognized option '--bogus'" "$TMP/err" ||
		{ echo "--bogus: exit $rc, $(cat "$TMP/err")"; return 1; }
}
check vaccel_info_json vaccel_info_json

libvaccel_mem_fake() {
	build_fake || return 1
	"$CC" -std=gnu11 $CFLAGS -pthread -I"$ROOT/umd/include" $UAPI_INC \
		"$ROOT/tests/host/host_libvaccel_mem.c" -o "$O/bin/host_libvaccel_mem" \
		-L"$LIB" -lvaccel -Wl,-rpath,"$LIB" -ldl || return 1
	mkdir -p "$TMP/fakemem"
	ln -sf /dev/zero "$TMP/fakemem/accel0"
	VACCEL_DEVICE_DIR=$TMP/fakemem LD_PRELOAD=$FAKE \
		"$O/bin/host_libvaccel_mem"
}
check libvaccel_mem_fake libvaccel_mem_fake

unified_fake() {
	local i
	build_fake || return 1
	"$CC" -std=gnu11 $CFLAGS -pthread -I"$ROOT/umd/include" $UAPI_INC \
		"$ROOT/tests/host/host_unified.c" -o "$O/bin/host_unified" \
		-L"$LIB" -lvaccel -Wl,-rpath,"$LIB" -ldl || return 1
	mkdir -p "$TMP/fakeunified"
	for i in 0 1 2 3; do
		ln -sf /dev/zero "$TMP/fakeunified/accel$i"
	done
	VACCEL_DEVICE_DIR=$TMP/fakeunified LD_PRELOAD=$FAKE \
		timeout 120 "$O/bin/host_unified"
}
check unified_fake unified_fake

queue_fake() {
	build_fake || return 1
	"$CC" -std=gnu11 $CFLAGS -pthread -I"$ROOT/umd/include" $UAPI_INC \
		"$ROOT/tests/host/host_queue.c" -o "$O/bin/host_queue" \
		-L"$LIB" -lvaccel -Wl,-rpath,"$LIB" -ldl || return 1
	mkdir -p "$TMP/fakequeue"
	ln -sf /dev/zero "$TMP/fakequeue/accel0"
	VACCEL_DEVICE_DIR=$TMP/fakequeue LD_PRELOAD=$FAKE \
		timeout 300 "$O/bin/host_queue"
}
check queue_fake queue_fake

defer_fake() {
	local vg=
	build_fake || return 1
	"$CC" -std=gnu11 $CFLAGS -pthread -I"$ROOT/umd/include" $UAPI_INC \
		"$ROOT/tests/host/host_defer.c" -o "$O/bin/host_defer" \
		-L"$LIB" -lvaccel -Wl,-rpath,"$LIB" -ldl || return 1
	mkdir -p "$TMP/fakedefer"
	ln -sf /dev/zero "$TMP/fakedefer/accel0"
	# The fake writes answers with process_vm_writev(), which valgrind
	# does not see: its reads of them are not errors.
	if command -v valgrind >/dev/null; then
		vg="valgrind -q --undef-value-errors=no --leak-check=full"
		vg="$vg --errors-for-leak-kinds=definite,indirect --error-exitcode=3"
	fi
	VACCEL_DEVICE_DIR=$TMP/fakedefer LD_PRELOAD=$FAKE \
		timeout 300 $vg "$O/bin/host_defer"
}
check defer_fake defer_fake

vaccel_sample_fake() {
	local out rc
	build_fake || return 1
	mkdir -p "$TMP/fakesample"
	ln -sf /dev/zero "$TMP/fakesample/accel0"
	out=$(VACCEL_DEVICE_DIR=$TMP/fakesample LD_PRELOAD=$FAKE \
		timeout 60 "$SAMPLE" 2>&1) || { echo "exit $?: $out"; return 1; }
	expect_out 'fill 4 MiB on copy engine: .* ms (.* GB/s)' || return 1
	expect_out 'fill 4 MiB on compute engine: .* ms' || return 1
	expect_out 'copy 2 MiB on copy engine: .* ms' || return 1
	expect_out 'copy 4 MiB on compute engine: .* ms' || return 1
	expect_out '^result: OK' || return 1
	out=$(VACCEL_DEVICE_DIR=$TMP/fakesample LD_PRELOAD=$FAKE \
		VT_COPY=0 timeout 60 "$SAMPLE" -s 1 2>&1) ||
		{ echo "no copy engine: exit $?: $out"; return 1; }
	expect_out 'no copy engine' || return 1
	expect_out 'copy 512 KiB on compute engine' || return 1
	# -f: the copy into B faults, and the sample says which command.
	out=$(VACCEL_DEVICE_DIR=$TMP/fakesample LD_PRELOAD=$FAKE \
		timeout 60 "$SAMPLE" -f -s 1 2>&1); rc=$?
	[ $rc = 1 ] || { echo "-f: exit $rc: $out"; return 1; }
	expect_out '^vaccel-sample: copy queue: the work failed: Bad address$' || return 1
	expect_out '^vaccel-sample: fault: read of unmapped address 0x[0-9a-f]* by copy #5, submission 2, packet +0x10 of DMA buffer 0x[0-9a-f]*$' ||
		return 1
	"$SAMPLE" -h | grep -q '^usage: vaccel-sample' || { echo "-h: no usage"; return 1; }
	"$SAMPLE" -s 0 >/dev/null 2>&1; rc=$?
	[ $rc = 2 ] || { echo "-s 0: exit $rc"; return 1; }
	out=$(VACCEL_DEVICE_DIR=/nonexistent "$SAMPLE" 2>&1); rc=$?
	[ $rc = 1 ] || { echo "no device: exit $rc"; return 1; }
	expect_out 'no vaccel device found'
}
check vaccel_sample_fake vaccel_sample_fake

# --- compute kernels: vaccel-cc, the loader, the device runtime ---

VACCEL_CC=$UMD_O/bin/vaccel-cc
MODULE=$O/kernels/module_kernel.elf
READELF=$(command -v llvm-readelf-14 || command -v llvm-readelf || echo llvm-readelf-14)
OBJDUMP=$(command -v llvm-objdump-14 || command -v llvm-objdump || echo llvm-objdump-14)
LLVM_DIS=$(command -v llvm-dis-14 || command -v llvm-dis || echo llvm-dis-14)
OBJCOPY=$(command -v llvm-objcopy-14 || command -v llvm-objcopy || echo llvm-objcopy-14)
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"

# expect_fail WHAT PATTERN COMMAND...: COMMAND fails, saying PATTERN.
expect_fail() {
	local what=$1 pattern=$2 out
	shift 2
	if out=$("$@" 2>&1); then
		echo "$what: succeeded"
		return 1
	fi
	echo "$out" | grep -q -- "$pattern" ||
		{ echo "$what: no '$pattern' in: $(echo "$out" | tail -n 3)"; return 1; }
}

vaccel_cc() {
	local hdr rc
	mkdir -p "$O/kernels"
	"$VACCEL_CC" -Wall -Wextra -Werror -o "$MODULE" "$ROOT/tests/host/module_kernel.c" ||
		{ echo "vaccel-cc failed on module_kernel.c"; return 1; }
	hdr=$("$READELF" -h "$MODULE" 2>&1) || { echo "$hdr"; return 1; }
	echo "$hdr" | grep -q 'Type: *DYN' || { echo "not ET_DYN"; return 1; }
	echo "$hdr" | grep -q 'Machine: *RISC-V' || { echo "not RISC-V"; return 1; }
	echo "$hdr" | grep -q 'Flags: *0x4, double-float ABI$' ||
		{ echo "flags: $(echo "$hdr" | grep Flags)"; return 1; }
	"$READELF" -r "$MODULE" | awk '/^0/ { print $3 }' | sort -u |
		grep -qvx R_RISCV_RELATIVE && { echo "relocations other than R_RISCV_RELATIVE"; return 1; }
	"$READELF" -l "$MODULE" | grep -q '0x60766c6d .*0x0100000000000000' ||
		{ echo "no local memory segment at the aperture"; return 1; }
	"$READELF" -s "$MODULE" | grep -q ' __vaccel_kernel_mk_fill$' ||
		{ echo "no kernel symbol"; return 1; }
	# Every instruction is 4 bytes: no compressed code.
	"$OBJDUMP" -d --mattr=+m,+a,+f,+d "$MODULE" |
		awk -F'\t' 'NF > 1 && sub(/^ *[0-9a-f]+: /, "", $1) && split($1, b, " ") != 4 {
			bad = 1 } END { exit bad }' ||
		{ echo "an instruction that is not 4 bytes long"; return 1; }
	# -c, then the link of the object.
	"$VACCEL_CC" -c -o "$TMP/mk.o" "$ROOT/tests/host/module_kernel.c" &&
		"$VACCEL_CC" -o "$TMP/mk2.elf" "$TMP/mk.o" ||
		{ echo "-c then link failed"; return 1; }
	cmp -s "$MODULE" "$TMP/mk2.elf" || { echo "-c then link differs"; return 1; }
	"$VACCEL_CC" --cflags | grep -q -- '-march=rv64imafd' ||
		{ echo "--cflags: $("$VACCEL_CC" --cflags)"; return 1; }
	"$VACCEL_CC" -h | grep -q '^usage: vaccel-cc' || { echo "-h: no usage"; return 1; }
	"$VACCEL_CC" >/dev/null 2>&1; rc=$?
	[ $rc = 2 ] || { echo "no source: exit $rc"; return 1; }
	"$VACCEL_CC" -L/x k.c >/dev/null 2>&1; rc=$?
	[ $rc = 2 ] || { echo "-L: exit $rc"; return 1; }
	printf '%s\n' '#include <vaccel_kernel.h>' 'static VACCEL_LOCAL int s[4];' \
		'VACCEL_KERNEL(k, int *o) { s[o[0]] = 1; o[1] = s[o[2]]; }' >"$TMP/static.c"
	expect_fail "static local" "define local memory" \
		"$VACCEL_CC" -o "$TMP/static.elf" "$TMP/static.c" || return 1
	[ ! -e "$TMP/static.elf" ] || { echo "a failed link left its output"; return 1; }
	printf '%s\n' '#include <vaccel_kernel.h>' \
		'VACCEL_KERNEL(k, int *o) { o[0] = 1; }' >"$TMP/k.c"
	expect_fail "-fPIE" "compiled with -fPIC -fvisibility=hidden" \
		"$VACCEL_CC" -fPIE -o "$TMP/k.elf" "$TMP/k.c" || return 1
	expect_fail "rv64gc" "no compressed instructions" \
		"$VACCEL_CC" -march=rv64gc -o "$TMP/k.elf" "$TMP/k.c" || return 1
	printf '%s\n' '#include <vaccel_kernel.h>' 'void f(int *);' \
		'VACCEL_KERNEL(k, int *o) { f(o); }' >"$TMP/u.c"
	expect_fail "undefined" "undefined symbol: f" \
		"$VACCEL_CC" -o "$TMP/u.elf" "$TMP/u.c" || return 1
	printf '%s\n' '#include <vaccel_kernel.h>' 'VACCEL_LOCAL int x = 5;' \
		'VACCEL_KERNEL(k, int *o) { o[0] = x; }' >"$TMP/init.c"
	expect_fail "initialised local" "cannot have non-zero initializers" \
		"$VACCEL_CC" -o "$TMP/init.elf" "$TMP/init.c"
}
check vaccel_cc vaccel_cc

# The stack needs of stack_kernel.c's kernels, from the frames
# llvm-readelf reports: the deepest chain of calls, nothing through a
# pointer or a cycle, and what realigning the stack may take.
stack_needs() {
	local sk=$O/kernels/stack_kernel.elf sizes frame
	mkdir -p "$O/kernels" "$O/bin"
	"$VACCEL_CC" -Wall -Wextra -Werror -o "$sk" "$ROOT/tests/host/stack_kernel.c" ||
		return 1
	"$CC" -std=gnu11 $CFLAGS $SAN -I"$ROOT/umd/libvaccel" -I"$ROOT/umd/include" \
		$UAPI_INC "$ROOT/tests/host/host_stack.c" "$ROOT/umd/libvaccel/elf.c" \
		"$ROOT/umd/libvaccel/stack.c" -o "$O/bin/host_stack" || return 1
	sizes=$("$READELF" --stack-sizes "$sk") || return 1
	frame() { echo "$sizes" | awk -v f="$1" '{ n = split($0, a, /[ ,]+/);
		for (i = 3; i <= n; i++) if (a[i] == f) print a[2] }' | head -n 1; }
	local chain middle small big run mset leaf al al_leaf al_page
	chain=$(frame sk_chain) middle=$(frame sk_middle) small=$(frame sk_leaf_small)
	big=$(frame sk_leaf_big) run=$(frame sk_runtime) mset=$(frame memset)
	leaf=$(frame sk_leaf) al=$(frame sk_aligned) al_leaf=$(frame sk_aligned_leaf)
	al_page=$(frame sk_aligned_page)
	[ -n "$chain" ] && [ -n "$middle" ] && [ -n "$big" ] && [ -n "$mset" ] &&
		[ -n "$al" ] && [ -n "$al_leaf" ] && [ -n "$al_page" ] ||
		{ echo "no frame sizes in: $sizes"; return 1; }
	[ "$big" -gt "$small" ] || { echo "sk_leaf_big's frame is not the larger"; return 1; }
	"$O/bin/host_stack" "$sk" sk_chain=$((chain + middle + big)) \
		sk_runtime=$((run + mset)) sk_leaf="$leaf" sk_recurse=unknown \
		sk_indirect=unknown sk_aligned=$((al + al_leaf + 112)) \
		sk_aligned_page=$((al_page + 4080))
}
check stack_needs stack_needs

elf_parse() {
	[ -f "$MODULE" ] || { echo "no module (vaccel_cc failed)"; return 1; }
	"$CC" -std=gnu11 -O1 -g $CFLAGS $SAN -I"$ROOT/umd/libvaccel" \
		-I"$ROOT/umd/include" $UAPI_INC "$ROOT/tests/host/host_elf.c" \
		"$ROOT/umd/libvaccel/elf.c" -o "$O/bin/host_elf" || return 1
	ASAN_OPTIONS=detect_leaks=1 "$O/bin/host_elf" "$MODULE" 50000
}
check elf_parse elf_parse

device_printf() {
	"$CC" -std=gnu11 -O2 -g $CFLAGS -Wno-format $SAN \
		"$ROOT/tests/host/host_print.c" "$ROOT/umd/kernel/rt_print.c" \
		-o "$O/bin/host_print" -lm || return 1
	"$O/bin/host_print"
}
check device_printf device_printf

cl_printf_format() {
	"$CC" -std=gnu11 -O1 -g $CFLAGS $SAN -I"$ROOT/umd/opencl" \
		-I/usr/lib/llvm-14/include "$ROOT/tests/host/host_cl_printf.c" \
		"$ROOT/umd/opencl/printf_format.c" -o "$O/bin/host_cl_printf" || return 1
	"$O/bin/host_cl_printf"
}
check cl_printf_format cl_printf_format

module_fake() {
	[ -f "$MODULE" ] || { echo "no module (vaccel_cc failed)"; return 1; }
	build_fake || return 1
	"$CC" -std=gnu11 $CFLAGS -pthread -I"$ROOT/umd/include" $UAPI_INC \
		"$ROOT/tests/host/host_module.c" -o "$O/bin/host_module" \
		-L"$LIB" -lvaccel -Wl,-rpath,"$LIB" -ldl || return 1
	mkdir -p "$TMP/fakemodule"
	ln -sf /dev/zero "$TMP/fakemodule/accel0"
	VACCEL_DEVICE_DIR=$TMP/fakemodule LD_PRELOAD=$FAKE \
		timeout 300 "$O/bin/host_module" "$MODULE"
}
check module_fake module_fake

kernel_log_rule() {
	local bad=$ROOT/tests/host/data/kernel-log-bad.txt
	local clean=$ROOT/tests/host/data/kernel-log-clean.txt
	local caught missed

	# shellcheck source=../../scripts/lib.sh
	. "$ROOT/scripts/lib.sh"
	caught=$(kernel_log_problems <"$bad")
	missed=$(grep -v -x -F -f <(printf '%s\n' "$caught") "$bad")
	if [ -n "$missed" ]; then
		echo "not caught: $missed"
		return 1
	fi
	caught=$(kernel_log_problems <"$clean")
	if [ -n "$caught" ]; then
		echo "a clean log caught: $caught"
		return 1
	fi
}
check kernel_log_rule kernel_log_rule

# vm.sh boots again only after QEMU's TCG race with code patching, never
# after an oops of a boot where vaccel was loaded or a test had reported;
# a test plan runs again after the race at any time, never after an oops
# in vaccel or one that follows another problem.
tcg_patch_race_rule() {
	local race=$ROOT/tests/host/data/console-tcg-int3.txt

	# shellcheck source=../../scripts/lib.sh
	. "$ROOT/scripts/lib.sh"
	tcg_patch_race_log "$race" /dev/null || { echo "the race's log not recognised"; return 1; }
	sed 's/Modules linked in:/Modules linked in: vaccel(OE) drm_shmem_helper/' "$race" >"$TMP/race-vaccel.txt"
	! tcg_patch_race_log "$TMP/race-vaccel.txt" /dev/null ||
		{ echo "an int3 oops with vaccel loaded taken for the race"; return 1; }
	echo "ok 1 - test_bo.create" >"$TMP/race-results.txt"
	! tcg_patch_race_log "$race" "$TMP/race-results.txt" ||
		{ echo "an int3 oops after a test result taken for the race"; return 1; }
	sed 's/ 66 <90> / cc <cc> /' "$race" >"$TMP/race-padding.txt"
	! tcg_patch_race_log "$TMP/race-padding.txt" /dev/null ||
		{ echo "a trap in int3 padding taken for the race"; return 1; }
	sed 's/Oops: int3/Oops: general protection fault/' "$race" >"$TMP/race-gp.txt"
	! tcg_patch_race_log "$TMP/race-gp.txt" /dev/null ||
		{ echo "another oops taken for the race"; return 1; }
	! tcg_patch_race_log "$ROOT/tests/host/data/kernel-log-clean.txt" /dev/null ||
		{ echo "a clean log taken for the race"; return 1; }

	# During a plan: vaccel loaded is no reason, a trap in vaccel or a
	# problem before the oops is.
	tcg_stale_int3 "$TMP/race-vaccel.txt" ||
		{ echo "the race with vaccel loaded not recognised"; return 1; }
	sed 's/RIP: 0010:sched_clock_idle_wakeup_event+0x5\/0x40/& [vaccel]/' \
		"$TMP/race-vaccel.txt" >"$TMP/race-in-vaccel.txt"
	cmp -s "$TMP/race-vaccel.txt" "$TMP/race-in-vaccel.txt" &&
		{ echo "the test's RIP edit did not apply"; return 1; }
	! tcg_stale_int3 "$TMP/race-in-vaccel.txt" ||
		{ echo "an int3 oops in vaccel taken for the race"; return 1; }
	{ echo "[    1.000000] WARNING: CPU: 0 PID: 1 at drivers/accel/vaccel/vaccel_job.c:10"
	  cat "$TMP/race-vaccel.txt"; } >"$TMP/race-after-warn.txt"
	! tcg_stale_int3 "$TMP/race-after-warn.txt" ||
		{ echo "an int3 oops after a WARNING taken for the race"; return 1; }
	! tcg_stale_int3 "$TMP/race-padding.txt" ||
		{ echo "a trap in int3 padding taken for the race during a plan"; return 1; }
}
check tcg_patch_race_rule tcg_patch_race_rule

coredump_decoder() {
	local bin=$O/bin/host_coredump dec=$UMD_O/bin/vaccel-coredump out rc d
	"$CC" -std=gnu11 -O1 -g $CFLAGS $SAN $UAPI_INC "$ROOT/tests/host/host_coredump.c" \
		-o "$bin" || return 1
	"$bin" write "$TMP/cd.bin" && "$bin" write "$TMP/cd-grown.bin" grown &&
		"$bin" write "$TMP/cd-shrunk.bin" shrunk || return 1
	out=$("$dec" "$TMP/cd.bin" 2>&1) || { echo "exit $?: $out"; return 1; }
	expect_out '^kind:        fault$' || return 1
	expect_out '^device:      1$' || return 1
	expect_out '^sequence:    5 (2 events not dumped before it)$' || return 1
	expect_out '^time:        2025-11-24 ' || return 1
	expect_out '^== engine 0 (compute0) ==$' || return 1
	expect_out '^== engine 1 (paging0) ==$' || return 1
	expect_out 'slot 1:      context 8 (client 9, normal) buffer 0x0000000002000000 size 8 offset 0x0 progress 0 started$' ||
		return 1
	expect_out 'preemptions: priority 0 slice 3 starvation 0 forced 0 reset 1$' || return 1
	expect_out 'creator:     pid 4321 (a-comm-of-16-ch!)$' || return 1
	expect_out 'fault:       unmapped write at 0x0000000003000000, packet at offset 0x18$' ||
		return 1
	expect_out 'packet:      DISPATCH, 11 words' || return 1
	expect_out 'entry       0x0000000004000000' || return 1
	expect_out 'grid x      (not in the excerpt)' || return 1
	expect_out '=>0x000018: 07 00 0b 00 00 00 00 00$' || return 1
	expect_out '  0x000030: ?? ?? ?? ?? ?? ?? ?? ??$' || return 1
	expect_out 'workgroup:   1 of 2 (1, 0, 0), 2 work-items live, 1 at the barrier$' ||
		return 1
	expect_out 'fcsr:        0x21 (frm rtz, fflags NX)$' || return 1
	expect_out 'x11 a1   0x0000000003000000' || return 1
	expect_out 'state:       at the barrier$' || return 1
	expect_out 'level 3 \[  0\]: 0x0000000000123001 valid, table' || return 1
	expect_out 'level 0 \[  0\]: 0x0000000000000000 not present$' || return 1
	expect_out 'result:      not mapped (no valid entry at level 0)$' || return 1
	out=$("$dec" "$TMP/cd-grown.bin" 2>&1) || { echo "grown: exit $?: $out"; return 1; }
	expect_out 'section 7 of unknown type 99, 2 entries: skipped' || return 1
	expect_out 'fault:       unmapped write at 0x0000000003000000' || return 1
	out=$("$dec" - <"$TMP/cd-shrunk.bin" 2>&1) || { echo "shrunk: exit $?: $out"; return 1; }
	expect_out 'kind:        fault' || return 1
	# Usage and errors.
	"$dec" -h | grep -q '^usage: vaccel-coredump' || { echo "-h: no usage"; return 1; }
	"$dec" -Z >/dev/null 2>&1; rc=$?
	[ $rc = 2 ] || { echo "bad option: exit $rc"; return 1; }
	"$dec" -c "$TMP/cd.bin" >/dev/null 2>&1; rc=$?
	[ $rc = 2 ] || { echo "-c with a file: exit $rc"; return 1; }
	expect_fail "a missing file" 'No such file or directory' "$dec" /nonexistent || return 1
	expect_fail "an empty file" 'truncated: 0 bytes' "$dec" /dev/null || return 1
	head -c 100 "$TMP/cd.bin" >"$TMP/cd-cut.bin"
	expect_fail "a cut dump" "truncated: the header says $(stat -c %s "$TMP/cd.bin") bytes, there are 100" \
		"$dec" "$TMP/cd-cut.bin" || return 1
	expect_fail "an ELF file" 'not a vaccel coredump' "$dec" "$dec" || return 1
	# Pending dumps: devcd3 is vaccel.1's, devcd4 another driver's.
	d=$TMP/devcd
	mkdir -p "$d/devcd3" "$d/devcd4" "$d/devices/vaccel.1" "$d/devices/other.0"
	cp "$TMP/cd.bin" "$d/devcd3/data"
	cp "$TMP/cd.bin" "$d/devcd4/data"
	ln -s ../devices/vaccel.1 "$d/devcd3/failing_device"
	ln -s ../devices/other.0 "$d/devcd4/failing_device"
	out=$(VACCEL_DEVCOREDUMP_DIR=$d "$dec" 2>&1) || { echo "pending: exit $?: $out"; return 1; }
	expect_count '^dump: ' 1 || return 1
	expect_out "^dump:        $d/devcd3/data (vaccel.1)$" || return 1
	out=$(VACCEL_DEVCOREDUMP_DIR=$d "$dec" -d 1 -s "$TMP/saved.bin" 2>&1) ||
		{ echo "-d 1: exit $?: $out"; return 1; }
	cmp -s "$TMP/saved.bin" "$TMP/cd.bin" || { echo "-s saved another dump"; return 1; }
	expect_fail "-d 0" 'no pending coredump of vaccel.0' \
		env VACCEL_DEVCOREDUMP_DIR="$d" "$dec" -d 0 || return 1
	expect_fail "no dump" 'no pending vaccel coredump' \
		env VACCEL_DEVCOREDUMP_DIR="$TMP/nonexistent" "$dec" || return 1
	# The decoder compiled in, with sanitizers: truncations and mutations.
	"$bin" fuzz 50000 1
}
check coredump_decoder coredump_decoder

fuzz_programs() {
	local f=$ROOT/tests/fuzz bin=$O/bin/vaccel-fuzz-host a b
	"$CC" -std=gnu11 -O1 -g $CFLAGS -Wno-unused-parameter \
		-Wno-missing-field-initializers $SAN -pthread -I"$f" $UAPI_INC \
		"$f"/main.c "$f"/prog.c "$f"/calls.c "$f"/content.c "$f"/exec.c \
		-o "$bin" || return 1
	a=$TMP/fuzz-gen.prog
	b=$TMP/fuzz-parsed.prog
	"$bin" gen --seed 7 --count 2000 >"$a" || return 1
	# Program by program: what was printed parses back to the same text.
	awk -v d="$TMP/fuzz-one" '/^# seed/ { n++ } { print > (d "-" n ".prog") }' "$a"
	for p in "$TMP"/fuzz-one-*.prog; do
		"$bin" parse "$p" | sed 1d >"$b" || { echo "does not parse: $p"; return 1; }
		if ! diff -q <(grep -v '^#' "$p") "$b" >/dev/null; then
			echo "printed, parsed and printed differs: $p"
			return 1
		fi
	done
	"$bin" parse "$ROOT"/tests/fuzz/regressions/*.prog >/dev/null
}
check fuzz_programs fuzz_programs

# vaccel-trace, built with the sanitizers from its sources.
trace_build() {
	local t=$ROOT/umd/tools/vaccel-trace
	[ -x "$O/bin/vaccel-trace-san" ] && [ "$O/bin/vaccel-trace-san" -nt "$t/model.c" ] &&
		return 0
	# shellcheck disable=SC2046
	"$CC" -std=gnu11 -O1 -g $CFLAGS -Wno-unused-parameter $SAN $UAPI_INC \
		$(pkg-config --cflags libtracefs libtraceevent cairo) "$t"/*.c "$t/../json.c" \
		-o "$O/bin/vaccel-trace-san" \
		$(pkg-config --libs libtracefs libtraceevent cairo) -lm
}

trace_convert() {
	local bin=$O/bin/vaccel-trace-san d=$ROOT/tests/host/data
	trace_build || return 1
	LSAN_OPTIONS=suppressions=$d/lsan-fontconfig.supp \
		"$bin" convert -q -o "$TMP/t.json" --png "$TMP/t.png" --svg "$TMP/t.svg" \
		"$d/trace-scenario.events" || return 1
	python3 "$ROOT/tests/host/trace_check.py" "$TMP/t.json" \
		--expect "c1 #1" --expect "c2 #2" --expect "workgroup 0" \
		--expect "workgroup 1 (resumed)" --expect "preempt c1 #1 (priority)" \
		--expect "fault c1 #1 (unmapped)" --expect "hang c2 #2" \
		--expect "engine reset (hang)" --expect "c2 banned (hang)" \
		--expect "map sync" --expect "TLB invalidate" \
		--expect "dma_fence_signaled" || return 1
	grep -q '"name": "c1 compute0 app low\[100\] low"' "$TMP/t.json" ||
		{ echo "the context's track is not named"; return 1; }
	[ "$(head -c 8 "$TMP/t.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		{ echo "not a PNG"; return 1; }
	python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$TMP/t.svg" ||
		{ echo "the SVG does not parse"; return 1; }
}
check trace_convert trace_convert

trace_bad_input() {
	local bin=$O/bin/vaccel-trace-san d=$ROOT/tests/host/data i st out
	trace_build || return 1
	expect_status() {
		local want=$1 msg=$2 out
		shift 2
		out=$("$@" 2>&1)
		st=$?
		[ "$st" = "$want" ] && grep -q -- "$msg" <<<"$out" && return 0
		echo "$*: status $st, output: $out"
		return 1
	}
	expect_status 1 "No such file" "$bin" convert -o "$TMP/x.json" "$TMP/missing" || return 1
	expect_status 1 "not a vaccel-trace events file" "$bin" convert -o "$TMP/x.json" \
		"$ROOT/README.md" || return 1
	head -n 5 "$d/trace-scenario.events" | head -c 300 >"$TMP/trunc.events"
	expect_status 1 "malformed event" "$bin" convert -o "$TMP/x.json" \
		"$TMP/trunc.events" || return 1
	printf '# vaccel-trace events 1\n1 0 1 vaccel:vaccel_job_start ctx=\n' >"$TMP/bad.events"
	expect_status 1 "malformed event" "$bin" convert -o "$TMP/x.json" \
		"$TMP/bad.events" || return 1
	expect_status 2 "needs -o" "$bin" convert "$d/trace-scenario.events" || return 1
	# Mutations of a few bytes or a cut, in some lines: never a crash or
	# a sanitizer report, and every trace written is valid.
	python3 - "$d/trace-scenario.events" "$TMP/m" <<'PY' || return 1
import random, sys
base = open(sys.argv[1], 'rb').read().split(b'\n')
for i in range(300):
    random.seed(i)
    lines = list(base)
    for _ in range(random.randint(1, 4)):
        n = random.randrange(2, len(lines))
        b = bytearray(lines[n])
        if b:
            k = random.randrange(len(b))
            b[k] = random.choice(b'0123456789 -="%:=abcxyz[]\xff')
        if random.random() < 0.2:
            b = b[:random.randrange(len(b) + 1)]
        lines[n] = bytes(b)
    open('%s-%d.events' % (sys.argv[2], i), 'wb').write(b'\n'.join(lines))
PY
	for i in $(seq 0 299); do
		"$bin" convert -q -o "$TMP/m-$i.json" "$TMP/m-$i.events" >/dev/null 2>"$TMP/m.err"
		st=$?
		if [ "$st" -gt 1 ]; then
			echo "mutation $i: status $st"
			cat "$TMP/m.err"
			return 1
		fi
	done
	if ! out=$(python3 "$ROOT/tests/host/trace_check.py" "$TMP"/m-*.json 2>&1); then
		tail -n 2 <<<"$out"
		return 1
	fi
}
check trace_bad_input trace_bad_input
top_model() {
	"$CC" -std=gnu11 -O1 -g $CFLAGS $SAN -I"$ROOT/umd/tools" \
		"$ROOT/tests/host/host_top.c" "$ROOT/umd/tools/top_model.c" \
		-o "$O/bin/host_top" -lm || return 1
	"$O/bin/host_top"
}
check top_model top_model

vaccel_top_batch() {
	local top=$UMD_O/bin/vaccel-top out rc
	out=$(timeout 20 "$top" -b -n 2 -d 0.1 2>&1) || { echo "exit $?: $out"; return 1; }
	expect_count '^vaccel-top: .* interval 0\.[0-9]* s$' 2 || return 1
	expect_count '^    PID DEV     FILES' 2 || return 1
	# Not a terminal: batch without -b.
	out=$(timeout 20 "$top" -n 1 -d 0.1 </dev/null 2>&1) || { echo "no -b: exit $?"; return 1; }
	expect_count '^vaccel-top: ' 1 || return 1
	"$top" -h | grep -q '^usage: vaccel-top' || { echo "-h: no usage"; return 1; }
	for bad in "-d 0" "-d 0.01" "-d x" "-n 0" "-n -1" "-p 0" "-p x" "-Z" "extra"; do
		# shellcheck disable=SC2086
		"$top" $bad >/dev/null 2>&1; rc=$?
		[ $rc = 2 ] || { echo "$bad: exit $rc"; return 1; }
	done
}
check vaccel_top_batch vaccel_top_batch

# shellcheck source=toolchain.sh
. "$ROOT/tests/host/toolchain.sh"
# make bench's JSON, from stand-in benchmarks run by the guest's script.
bench_json() {
	local bin=$TMP/benchbin out=$TMP/benchout
	mkdir -p "$bin"
	"$CC" -std=gnu11 $CFLAGS -Wno-missing-field-initializers -I"$ROOT/tests/bench" \
		$UAPI_INC "$ROOT/tests/host/host_bench.c" -o "$bin/bench_fake" -lm || return 1
	ln -sf bench_fake "$bin/bench_fake_dies"
	BENCH_BIN=$bin BENCH_KO='' BENCH_OUT=$out sh "$ROOT/scripts/guest/bench.sh" \
		>"$TMP/bench.log" 2>&1 || { echo "bench.sh: exit $?"; tail -n 3 "$TMP/bench.log"; return 1; }
	grep -q '^bench.fake.le_ratio 1.250 PASS$' "$TMP/bench.log" &&
		grep -q '^bench.fake.plain_mips 123.46$' "$TMP/bench.log" ||
		{ echo "the text lines changed: $(grep '^bench' "$TMP/bench.log")"; return 1; }
	# What vm.sh decodes is the same file.
	sed -n '/^=== vaccel: file begin results.json$/,/^=== vaccel: file end$/p' \
		"$TMP/bench.log" | sed '1d;$d' | base64 -d | gunzip >"$TMP/exported.json" ||
		{ echo "the export does not decode"; return 1; }
	cmp -s "$TMP/exported.json" "$out/results.json" ||
		{ echo "the export differs from results.json"; return 1; }
	jq -e . "$out/results.json" >/dev/null || { echo "jq: not JSON"; return 1; }
	python3 - "$out/results.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
def want(what, got, exp):
    if got != exp:
        sys.exit('%s: %r, not %r' % (what, got, exp))
want('format', j['format'], 'vaccel-bench 1')
for k in ('date', 'machine', 'kernel', 'module'):
    if not j.get(k):
        sys.exit('no ' + k)
want('cpus', type(j['machine']['cpus']), int)
b = {x['name']: x for x in j['benchmarks']}
want('benchmarks', sorted(b), ['bench_fake', 'bench_fake_dies'])
m = {x['name'].split('.')[-1]: x for x in b['bench_fake']['metrics']}
want('figures', len(m), 10)
want('le_ratio', m['le_ratio'], {'name': 'bench.fake.le_ratio', 'value': 1.25,
     'unit': 'ratio', 'target': {'op': '<=', 'value': 2.0}, 'pass': True})
want('verdicts', {k: v['pass'] for k, v in m.items()},
     {'le_ratio': True, 'lt_us': True, 'ge_index': True, 'gt_ratio': False,
      'in_pct': True, 'out_pct': False, 'broken_ratio': False, 'plain_mips': None,
      'nan_ratio': False, 'inf_ratio': None})
want('in_pct target', m['in_pct']['target'], {'op': 'in', 'min': 0.5, 'max': 2.0})
want('plain_mips', (m['plain_mips']['value'], m['plain_mips']['target']), (123.46, None))
want('nan_ratio value', m['nan_ratio']['value'], None)
want('bench_fake', (b['bench_fake']['exit_status'], b['bench_fake']['error']), (0, None))
d = b['bench_fake_dies']
want('dies: status', d['exit_status'], 1)
want('dies: error', d['error'], 'not ok bench.fake: the "device" is gone \\ 7')
want('dies: figures', [x['name'] for x in d['metrics']], ['bench.fake.before_dying'])
want('counts', (j['passed'], j['failed'], j['untargeted']), (4, 4, 3))
PY
}
check bench_json bench_json

# The TAP streams of the runners, read by perl's TAP::Parser.
tap_streams() {
	local runner=$TMP/runner.sh st
	# shellcheck source=../../scripts/lib.sh
	. "$ROOT/scripts/lib.sh"
	# A runner whose lines come from its own functions and from programs,
	# with lines that are not results and reasons that look like
	# directives, which fails.
	cat >"$runner" <<-EOF
	#!/usr/bin/env bash
	. "$ROOT/scripts/lib.sh"
	if tap_outer; then tap_wrap fake bash "\$0" "\$@"; exit; fi
	echo "ok fake.one"
	echo "some output"
	echo "not ok fake.two: skipped a step"
	printf 'ok fake.three: todo list # done\nnot ok fake.four#x: why\n\n' | cat
	echo "to stderr" >&2
	echo "ok fake.five"
	exit 1
	EOF
	bash "$runner" >"$TMP/fake.tap"
	st=$?
	[ $st = 1 ] || { echo "the runner's status is lost: $st"; return 1; }
	perl "$ROOT/tests/host/tap_check.pl" "$TMP/fake.tap" 3 2 || return 1
	grep -q '^not ok 4 - fake.four\\#x # why$' "$TMP/fake.tap" ||
		{ echo "no escaped name: $(cat "$TMP/fake.tap")"; return 1; }
	grep -q '^# to stderr$' "$TMP/fake.tap" || { echo "stderr is lost"; return 1; }
	# No result at all: it bails out, an empty plan would pass.
	# shellcheck disable=SC2016 # $0 and $@ are the stand-in's
	printf '%s\n' '#!/usr/bin/env bash' ". '$ROOT/scripts/lib.sh'" \
		'if tap_outer; then tap_wrap empty bash "$0" "$@"; exit; fi' 'echo nothing' >"$runner"
	bash "$runner" >"$TMP/empty.tap"
	perl "$ROOT/tests/host/tap_check.pl" "$TMP/empty.tap" 0 0 bail || return 1
	# Streams numbered on, prefixed, as check.sh collects them.
	{
		echo "TAP version 13"
		tap_stream -c "$TMP/n" <"$TMP/fake.tap"
		tap_stream -s "$(cat "$TMP/n")" -x stock. -c "$TMP/n" <"$TMP/fake.tap"
		echo "1..$(cat "$TMP/n")"
	} >"$TMP/check.tap"
	perl "$ROOT/tests/host/tap_check.pl" "$TMP/check.tap" 6 4 || return 1
	grep -q '^ok 10 - stock.fake.five$' "$TMP/check.tap" ||
		{ echo "not numbered on: $(tail -n 3 "$TMP/check.tap")"; return 1; }
	# A real runner.
	RV_OUT=$O/isa-rv "$ROOT/tests/isa/run-rv.sh" -n 1 >"$TMP/rv.tap" ||
		{ echo "run-rv.sh: exit $?"; grep '^not ok' "$TMP/rv.tap"; return 1; }
	perl "$ROOT/tests/host/tap_check.pl" "$TMP/rv.tap" "$(grep -c '^ok ' "$TMP/rv.tap")" 0
}
check tap_streams tap_streams

exit $failed
