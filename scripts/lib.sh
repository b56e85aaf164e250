# SPDX-License-Identifier: GPL-2.0-only
# lib.sh - helpers shared by the vaccel scripts (sourced, not run).

: "${VACCEL_CACHE:=/var/cache/vaccel}"
export VACCEL_CACHE

info() { printf '\033[1m[vaccel]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[vaccel] error:\033[0m %s\n' "$*" >&2; exit 1; }

# Load the kernel version chosen by install-deps.sh.
load_kernel_env() {
	[ -f "$VACCEL_CACHE/kernel.env" ] ||
		die "run scripts/install-deps.sh first (no $VACCEL_CACHE/kernel.env)"
	# shellcheck disable=SC1091
	. "$VACCEL_CACHE/kernel.env"
}

# kernel_log_problems: prints the lines of a kernel log (stdin) that a clean
# run never shows: warnings and oopses, lock, memory and object sanitizer
# reports (lockdep, KASAN, UBSAN, DEBUG_OBJECTS' ODEBUG, kmemleak), stalls,
# and the errors DRM prints with drm_err() ("[drm] *ERROR* ...", such as
# drm_sched's push to a killed entity).  Prints nothing when clean.  The
# patterns live in scripts/kernel-log/, which vaccel-fuzz reads too.
kernel_log_problems() {
	local rule
	rule=$(dirname "${BASH_SOURCE[0]}")/kernel-log
	grep -E -f "$rule/problems" | grep -v -F -f "$rule/allowed" || true
}

# tcg_stale_int3 CONSOLE: whether the first problem CONSOLE, the console
# log of a boot of the dev VM under TCG, shows is the kernel oopsing on a
# stale int3 outside vaccel.  QEMU before 8.1 (Debian 12 has 7.2) can,
# under multi-threaded TCG, keep running a translation of kernel code that
# another vCPU is patching (a static key, through an int3): the vCPU
# executes an int3 the kernel has already taken out, and the kernel oopses
# in code that vaccel never touched.  The sign of the race: the oops's
# code bytes show no int3 (cc) just before the trapping address, since the
# patch was done by then; a jump into a function's int3 padding shows
# "cc <cc>".  The oops must not be in vaccel's code, and no other problem
# (kernel_log_problems) may come before it.
tcg_stale_int3() {
	local console=$1 first before
	[ -f "$console" ] || return 1
	first=$(tr -d '\r' <"$console" | kernel_log_problems | head -n 1)
	[[ $first == *"Oops: int3"* ]] || return 1
	before=$(tr -d '\r' <"$console" | awk '/Oops: int3/ { seen = 1 }
		seen && /RIP: / && rip == "" { rip = $0 }
		seen && /Code: / { sub(/ <.*/, ""); print (rip ~ /\[vaccel\]/ ? "vaccel" : $NF); exit }')
	[ -n "$before" ] && [ "$before" != cc ] && [ "$before" != vaccel ]
}

# tcg_patch_race_log CONSOLE [RESULTS]: whether CONSOLE shows the race of
# tcg_stale_int3 before vaccel was loaded ("Modules linked in:" without
# vaccel) and RESULTS, the guest's result lines, has no test result yet:
# a boot that nothing can have depended on.
tcg_patch_race_log() {
	local console=$1 results=${2:-/dev/null}
	tcg_stale_int3 "$console" || return 1
	! grep -a 'Modules linked in:' "$console" | grep -qw vaccel || return 1
	! grep -aqE '^(ok|not ok) ' "$results" 2>/dev/null
}

# --- TAP ----------------------------------------------------------------
#
# Every runner prints TAP version 13 (https://testanything.org) that CI
# systems parse, built from the one line per check the tests print:
#
#	ok <name>[: <detail>]		->  ok <N> - <name>[ # <detail>]
#	not ok <name>: <why>		->  not ok <N> - <name> # <why>
#
# Lines already numbered (the stream of another runner) are numbered
# again; a stream's own `TAP version` and `1..N` lines are dropped;
# `#` comments and `Bail out!` pass; blank lines are dropped; any other
# line becomes a `# ` comment.  A `#` in a name is escaped as `\#`; a
# reason or detail that starts with "skip" or "todo" is written "reason:
# ..." so that no parser takes it for a SKIP or TODO directive (only an
# `ok` line that already carries ` # SKIP` keeps it).
#
# tap_stream [-h] [-p] [-s START] [-c FILE] [-x PREFIX] [-n NAME]
#	-h	print `TAP version 13` first
#	-p	print the plan `1..N` last; with no result at all, `Bail out!`
#		instead (an empty plan would pass)
#	-s N	number from N + 1 (a stream continued)
#	-c FILE	write the number of the last result to FILE
#	-x P	prefix every name with P (`stock.`)
#	-n NAME	the runner's name, for the `Bail out!` line
# The filter flushes every line: the stream of a long run is seen live.
tap_stream() {
	local opt header=0 plan=0 start=0 count='' prefix='' name=tests OPTIND=1
	while getopts 'hps:c:x:n:' opt; do
		case $opt in
		h) header=1 ;;
		p) plan=1 ;;
		s) start=$OPTARG ;;
		c) count=$OPTARG ;;
		x) prefix=$OPTARG ;;
		n) name=$OPTARG ;;
		*) return 2 ;;
		esac
	done
	awk -v header="$header" -v plan="$plan" -v start="$start" -v count="$count" \
	    -v prefix="$prefix" -v name="$name" '
	function emit(s) { print s; fflush() }
	BEGIN { n = start; if (header) emit("TAP version 13") }
	/^(TAP|KTAP) version [0-9]/ || /^1\.\.[0-9]+/ { next }
	/^(ok|not ok) / {
		fail = substr($0, 1, 6) == "not ok"
		desc = substr($0, fail ? 8 : 4)
		if (desc ~ /^[0-9]+ - /)
			sub(/^[0-9]+ - /, "", desc)
		else if (desc ~ /^[0-9]+$/)
			desc = ""
		why = ""
		directive = 0
		if ((i = index(desc, " # ")) > 0) {
			why = substr(desc, i + 3)
			directive = !fail
			desc = substr(desc, 1, i - 1)
		} else if ((i = index(desc, ": ")) > 0) {
			why = substr(desc, i + 2)
			desc = substr(desc, 1, i - 1)
		}
		gsub(/\\#/, "#", desc)
		gsub(/#/, "\\#", desc)
		line = (fail ? "not ok " : "ok ") ++n " - " prefix desc
		if (!directive && tolower(why) ~ /^[ \t]*(skip|todo)/)
			why = "reason: " why
		if (why != "")
			line = line " # " why
		emit(line)
		next
	}
	/^#/ || /^Bail out!/ { emit($0); next }
	/^[ \t\r]*$/ { next }
	{ emit("# " $0) }
	END {
		if (plan)
			emit(n > 0 ? "1.." n : "Bail out! " name ": no test result")
		if (count != "")
			print n >count
	}'
}

# A runner makes its output a TAP stream by running itself again through
# tap_stream, its first lines being
#
#	if tap_outer; then tap_wrap NAME bash "$0" "$@"; exit; fi
#
# tap_outer is true in the first run; in the second (VACCEL_TAP_INNER set,
# and unset for what that run starts in turn) it is false.
tap_outer() {
	if [ -n "${VACCEL_TAP_INNER:-}" ]; then
		unset VACCEL_TAP_INNER
		return 1
	fi
	return 0
}

# tap_wrap NAME COMMAND...: COMMAND as the second run, its output and
# errors through `tap_stream -h -p -n NAME`; returns COMMAND's status.
tap_wrap() {
	local name=$1
	shift
	VACCEL_TAP_INNER=1 "$@" 2>&1 | tap_stream -h -p -n "$name"
	return "${PIPESTATUS[0]}"
}
