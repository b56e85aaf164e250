#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run.sh - the checks of `scripts/vm.sh exec` on the stock kernel: programs
# built on the host, outside the work tree, run in the dev VM.  Prints one
# line per check:
#
#	ok vm.exec.<name>
#	not ok vm.exec.<name>: <why>
#
# usage: tests/vm-exec/run.sh    (VACCEL_BUILD: the build outputs, as for
#                                 vm.sh; boots the VM three times)
#
# Checks:
#   usage               vm.sh exec without a command: the usage, exit 1
#   debug_refused       on a debug kernel without 9p: a clear refusal, no
#                       boot (skipped when there is no debug kernel)
#   exit_status         a plain program (status.c) exits 3: vm.sh exits 3
#   stdout, stderr      its arguments (quotes, spaces, $) come back on
#                       stdout byte for byte; its stderr on stderr
#   share_written       the file it wrote in the current directory (the
#                       share, a temporary directory in /tmp) is on the host
#   libvaccel_build     query.c builds with pkg-config against libvaccel
#                       installed by umd's `make install DESTDIR=` in that
#                       directory
#   libvaccel_query     run there with LD_LIBRARY_PATH, it finds its
#                       libraries, opens /dev/accel/accel0 and sees the
#                       parameters of VACCEL_ARGS (2 devices, 3 compute
#                       engines), exit 0
#   kernel_log_flagged  a program that puts a WARNING: line in the kernel log
#                       makes vm.sh exit 125 and name the line
# Exits 1 if any check failed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/scripts/lib.sh"
build=${VACCEL_BUILD:-$VACCEL_CACHE/build}
vm=$root/scripts/vm.sh
export VACCEL_BUILD=$build
failed=0

ok() { echo "ok vm.exec.$1"; }
not_ok() {
	echo "not ok vm.exec.$1: $2"
	failed=1
}

# show FILE: a failed check's output, indented.
show() { sed 's/^/    /' "$1" | tail -n 20; }

tmp=$(mktemp -d /tmp/vaccel-exec.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# --- without a boot ---------------------------------------------------------

rc=0
VACCEL_KERNEL=stock "$vm" exec >/dev/null 2>"$tmp/usage.err" || rc=$?
if [ "$rc" = 1 ] && grep -q 'usage: vm.sh exec CMD' "$tmp/usage.err"; then
	ok usage
else
	not_ok usage "exit $rc, expected 1 with the usage"
	show "$tmp/usage.err"
fi

if [ -f "$VACCEL_CACHE/debug-kernel.env" ] && [ -f "$build/debug/vaccel.ko" ]; then
	# shellcheck disable=SC1091
	. "$VACCEL_CACHE/debug-kernel.env"
	if grep -q '^CONFIG_NET_9P_VIRTIO=y' "$VACCEL_DEBUG_KDIR/.config"; then
		echo "# the debug kernel has virtio 9p: debug_refused does not apply"
	else
		rc=0
		VACCEL_KERNEL=debug "$vm" exec true >/dev/null 2>"$tmp/debug.err" || rc=$?
		if [ "$rc" = 1 ] && grep -q 'VACCEL_KERNEL=stock' "$tmp/debug.err"; then
			ok debug_refused
		else
			not_ok debug_refused "exit $rc, expected 1 and a message naming VACCEL_KERNEL=stock"
			show "$tmp/debug.err"
		fi
	fi
else
	echo "# no debug kernel or no $build/debug/vaccel.ko: debug_refused skipped"
fi

# --- a plain program: exit status, output, the share --------------------------

mkdir -p "$tmp/plain"
cc -O2 -Wall -Werror -o "$tmp/plain/status" "$here/status.c"
rc=0
(cd "$tmp/plain" && VACCEL_KERNEL=stock "$vm" exec ./status 3 out.txt "two  words" "it's \$HOME" \
	>"$tmp/plain.out" 2>"$tmp/plain.err") || rc=$?
if [ "$rc" = 3 ]; then
	ok exit_status
else
	not_ok exit_status "exit $rc, expected 3"
	show "$tmp/plain.err"
fi
printf '%s\n' "word 1: [two  words]" "word 2: [it's \$HOME]" >"$tmp/plain.expected"
if cmp -s "$tmp/plain.out" "$tmp/plain.expected"; then
	ok stdout
else
	not_ok stdout "not what the program printed; diff:"
	diff "$tmp/plain.expected" "$tmp/plain.out" | sed 's/^/    /' | head -n 20 || true
fi
if grep -q '^status: exiting with 3$' "$tmp/plain.err"; then
	ok stderr
else
	not_ok stderr "the program's line is not on stderr"
	show "$tmp/plain.err"
fi
if [ "$(cat "$tmp/plain/out.txt" 2>/dev/null)" = "written in the VM" ]; then
	ok share_written
else
	not_ok share_written "$tmp/plain/out.txt is missing or wrong"
fi

# --- a libvaccel program built with pkg-config ------------------------------------

stage=$tmp/stage
mkdir -p "$tmp/app"
# The libraries and the program are in the share, the whole temporary
# directory (the VM has a /tmp of its own), and the program runs in a
# subdirectory of it.
# libvaccel goes to the multiarch libdir: libdir is where the .pc is.
build_query() {
	local flags pc
	make -C "$root/umd" --no-print-directory O="$build/umd" ROOT="$root" install \
		DESTDIR="$stage" PREFIX=/usr/local >"$tmp/install.log" 2>&1 || return 1
	pc=$(find "$stage" -name libvaccel.pc -print -quit)
	[ -n "$pc" ] || { echo "no libvaccel.pc in $stage" >>"$tmp/install.log"; return 1; }
	pc=$(dirname "$pc")
	libdir=$(dirname "$pc")
	flags=$(PKG_CONFIG_PATH=$pc PKG_CONFIG_SYSROOT_DIR=$stage \
		pkg-config --cflags --libs libvaccel) || return 1
	# shellcheck disable=SC2086 # flags are words
	cc -O2 -Wall -Werror -o "$tmp/app/query" "$here/query.c" $flags >>"$tmp/install.log" 2>&1
}
if build_query; then
	ok libvaccel_build
	rc=0
	(cd "$tmp/app" && VACCEL_KERNEL=stock VACCEL_SHARE=$tmp VACCEL_ARGS="devices=2 compute_engines=3" \
		LD_LIBRARY_PATH="$libdir" "$vm" exec ./query \
		>"$tmp/query.out" 2>"$tmp/query.err") || rc=$?
	if [ "$rc" != 0 ]; then
		not_ok libvaccel_query "exit $rc, expected 0"
		show "$tmp/query.err"
	elif ! grep -q '^devices 2$' "$tmp/query.out" ||
	     ! grep -q -E '^/dev/accel/accel0: vaccel, uapi 1\.[0-9]+, 3 compute and 1 copy engines$' \
			"$tmp/query.out"; then
		not_ok libvaccel_query "not the device VACCEL_ARGS asked for:"
		show "$tmp/query.out"
	else
		ok libvaccel_query
	fi
else
	not_ok libvaccel_build "see below"
	show "$tmp/install.log"
fi

# --- the kernel log ------------------------------------------------------------

rc=0
(cd "$tmp/plain" && VACCEL_KERNEL=stock "$vm" exec sh -c \
	'echo "WARNING: injected by tests/vm-exec" >/dev/kmsg' >/dev/null 2>"$tmp/klog.err") || rc=$?
if [ "$rc" = 125 ] && grep -q 'WARNING: injected by tests/vm-exec' "$tmp/klog.err" &&
   grep -q 'the kernel log shows' "$tmp/klog.err"; then
	ok kernel_log_flagged
else
	not_ok kernel_log_flagged "exit $rc, expected 125 and the injected line"
	show "$tmp/klog.err"
fi

exit "$failed"
