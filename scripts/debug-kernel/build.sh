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
#
# `--variant NAME` builds a variant instead: debug.config with the lines of
# NAME.config (next to this script) replacing those of the same symbols.
# Today's one is kcsan (KCSAN instead of KASAN, which exclude each other).
# The fragment so merged is written into the build as fragment.config and
# checked as debug.config is.  A variant's key also hashes its name and
# overlay; its builds live in $VACCEL_CACHE/debug-kernel-NAME/<key>, its
# file is $VACCEL_CACHE/debug-kernel-NAME.env (the same three variables),
# and a new build removes only the stale builds of its own variant.  All
# variants share the source tree and the lock: one build at a time.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
load_kernel_env

print_env=
variant=
while [ $# -gt 0 ]; do
	case "$1" in
	--print-env) print_env=1 ;;
	--variant)
		[ $# -ge 2 ] || die "build.sh: --variant needs a name"
		variant=$2
		shift
		;;
	--variant=*) variant=${1#--variant=} ;;
	*) die "usage: build.sh [--variant NAME] [--print-env]" ;;
	esac
	shift
done

top=$VACCEL_CACHE/debug-kernel
src=$top/src-$VACCEL_KVER
if [ -z "$variant" ] || [ "$variant" = kasan ]; then
	variant=
	label="debug kernel"
	key=$( { echo "$VACCEL_KVER"; cat "$here/debug.config" "$here/Kconfig"; } |
		sha256sum | cut -c1-16)
	builds=$top
	out=$top/$key
	env=$VACCEL_CACHE/debug-kernel.env
	fragment=$here/debug.config
	fragment_name=debug.config
else
	case "$variant" in
	*[!a-z0-9]*) die "build.sh: a variant is named in [a-z0-9]: $variant" ;;
	esac
	[ -f "$here/$variant.config" ] ||
		die "build.sh: no variant $variant (no $here/$variant.config)"
	label="debug kernel ($variant)"
	key=$( { echo "$VACCEL_KVER"; echo "variant $variant";
		 cat "$here/debug.config" "$here/$variant.config" "$here/Kconfig"; } |
		sha256sum | cut -c1-16)
	builds=$VACCEL_CACHE/debug-kernel-$variant
	out=$builds/$key
	env=$VACCEL_CACHE/debug-kernel-$variant.env
	fragment=$out/fragment.config
	fragment_name="debug.config + $variant.config"
fi

# merge_fragment BASE OVERLAY: BASE without its lines for the symbols that
# OVERLAY sets (CONFIG_X=... or "# CONFIG_X is not set"), then OVERLAY.
merge_fragment() {
	awk '
	function sym(line) {
		if (match(line, /^CONFIG_[A-Za-z0-9_]+=/))
			return substr(line, 1, RLENGTH - 1)
		if (match(line, /^# CONFIG_[A-Za-z0-9_]+ is not set$/))
			return substr(line, 3, RLENGTH - 13)
		return ""
	}
	FNR == NR { if ((s = sym($0)) != "") over[s] = 1; next }
	(s = sym($0)) != "" && s in over { next }
	{ print }' "$2" "$1"
	printf '\n# --- %s, over the lines above ---\n' "${2##*/}"
	cat "$2"
}

if [ -n "$print_env" ]; then
	[ -f "$out/.built" ] && [ -f "$env" ] && grep -q "$out" "$env" && echo "$env" && exit 0
	exit 1
fi

# One build at a time: a second caller waits, then finds it built.
mkdir -p "$top"
exec 9>"$top/.lock"
flock 9

if [ -f "$out/.built" ]; then
	info "$label: cached in $out ($(cat "$out/.built"))"
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
	[ -z "$variant" ] || merge_fragment "$here/debug.config" "$here/$variant.config" >"$fragment"
	info "$label: configuring in $out"
	make -s -C "$src" O="$out" KCONFIG_ALLCONFIG="$fragment" allnoconfig >/dev/null
	# Every line of the fragment must have survived Kconfig's rules.
	bad=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=n)
			sym=${line%=n}
			if grep -q "^$sym=" "$out/.config"; then
				echo "  $sym is set, $fragment_name says n" >&2
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
	done <"$fragment"
	[ "$bad" = 0 ] || die "$fragment_name does not hold after allnoconfig (see above)"

	info "$label: building with $(nproc) jobs (the first time takes a while)"
	make -s -C "$src" O="$out" -j"$(nproc)" >"$out/build.log" 2>&1 ||
		{ tail -n 30 "$out/build.log" >&2; die "the $label did not build: $out/build.log"; }
	echo "built in $(( $(date +%s) - start )) s on $(nproc) CPUs, $(date -u +%FT%TZ)" >"$out/.built"
	info "$label: $(cat "$out/.built")"
	# Builds of this variant for other inputs are stale now; each takes
	# gigabytes.  Another variant's builds are in a directory of their own.
	for d in "$builds"/*/; do
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
