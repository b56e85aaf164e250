#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build.sh - build the dev VM's debug kernel, once per machine.
#
# The kernel is Debian's linux-source-6.12, the version of the stock kernel,
# configured as allnoconfig plus debug.config (KASAN, UBSAN, lockdep,
# DEBUG_OBJECTS, kmemleak, KCOV, fault injection; see that file).  The only
# change to the source is one Kconfig entry (Kconfig, next to this script)
# that builds in the DRM helpers vaccel.ko links against.
#
# The build lives in $VACCEL_CACHE/debug-kernel/<key>, where the key hashes
# the source version, debug.config and Kconfig: the same inputs
# never build twice.  $VACCEL_CACHE/debug-kernel.env then names it:
#   VACCEL_DEBUG_KDIR     the build tree (KDIR for `make module`)
#   VACCEL_DEBUG_KREL     its kernelrelease
#   VACCEL_DEBUG_IMAGE    the bzImage the dev VM boots
# Prints the build's duration; `build.sh --print-env` only prints the file's
# path when the build for the current inputs exists (exit 1 otherwise).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
load_kernel_env

key=$( { echo "$VACCEL_KVER"; cat "$here/debug.config" "$here/Kconfig"; } |
	sha256sum | cut -c1-16)
top=$VACCEL_CACHE/debug-kernel
out=$top/$key
src=$top/src-$VACCEL_KVER
env=$VACCEL_CACHE/debug-kernel.env

if [ "${1:-}" = --print-env ]; then
	[ -f "$out/.built" ] && [ -f "$env" ] && grep -q "$out" "$env" && echo "$env" && exit 0
	exit 1
fi

# One build at a time: a second caller waits, then finds it built.
mkdir -p "$top"
exec 9>"$top/.lock"
flock 9

if [ -f "$out/.built" ]; then
	info "debug kernel: cached in $out ($(cat "$out/.built"))"
else
	start=$(date +%s)
	mkdir -p "$top"
	if [ ! -f "$src/.extracted" ]; then
		info "debug kernel: extracting $VACCEL_KSRC_TAR"
		rm -rf "$src" "$src.tmp"
		mkdir -p "$src.tmp"
		tar -xf "$VACCEL_KSRC_TAR" -C "$src.tmp" --strip-components=1
		mv "$src.tmp" "$src"
		touch "$src/.extracted"
	fi
	cp "$here/Kconfig" "$src/drivers/accel/Kconfig.vaccel-debug-kernel"
	grep -q 'Kconfig.vaccel-debug-kernel' "$src/drivers/accel/Kconfig" ||
		sed -i 's|^source "drivers/accel/qaic/Kconfig"|&\nsource "drivers/accel/Kconfig.vaccel-debug-kernel"|' \
			"$src/drivers/accel/Kconfig"
	grep -q 'Kconfig.vaccel-debug-kernel' "$src/drivers/accel/Kconfig" ||
		die "could not hook the helpers' Kconfig into $src/drivers/accel/Kconfig"

	mkdir -p "$out"
	info "debug kernel: configuring in $out"
	make -s -C "$src" O="$out" KCONFIG_ALLCONFIG="$here/debug.config" allnoconfig >/dev/null
	# Every line of the fragment must have survived Kconfig's rules.
	bad=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=n)
			sym=${line%=n}
			if grep -q "^$sym=" "$out/.config"; then
				echo "  $sym is set, debug.config says n" >&2
				bad=1
			fi
			;;
		CONFIG_*=*)
			if ! grep -qx "$line" "$out/.config"; then
				echo "  $line: Kconfig has $(grep "^${line%%=*}=" "$out/.config" || echo 'it unset')" >&2
				bad=1
			fi
			;;
		esac
	done <"$here/debug.config"
	[ "$bad" = 0 ] || die "debug.config does not hold after allnoconfig (see above)"

	info "debug kernel: building with $(nproc) jobs (the first time takes a while)"
	make -s -C "$src" O="$out" -j"$(nproc)" >"$out/build.log" 2>&1 ||
		{ tail -n 30 "$out/build.log" >&2; die "the debug kernel did not build: $out/build.log"; }
	echo "built in $(( $(date +%s) - start )) s on $(nproc) CPUs, $(date -u +%FT%TZ)" >"$out/.built"
	info "debug kernel: $(cat "$out/.built")"
	# Builds for other inputs are stale now; each takes gigabytes.
	for d in "$top"/*/; do
		d=${d%/}
		[ "$d" = "$out" ] || [ "$d" = "$src" ] || rm -rf "$d"
	done
fi

krel=$(make -s -C "$src" O="$out" kernelrelease 2>/dev/null | tail -n1)
cat >"$env" <<ENV
VACCEL_DEBUG_KDIR=$out
VACCEL_DEBUG_KREL=$krel
VACCEL_DEBUG_IMAGE=$out/arch/x86/boot/bzImage
ENV
