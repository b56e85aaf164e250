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
