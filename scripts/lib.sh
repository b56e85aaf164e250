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
