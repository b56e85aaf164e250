#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# install-deps.sh - install everything vaccel needs, from Debian packages only.
#
# Picks one Linux 6.12 version for the headers (module build), the source
# (KUnit under UML) and the unsigned image (dev VM kernel and the DRM modules
# it loads), installs what is missing, and writes the chosen version to
# $VACCEL_CACHE/kernel.env for the other scripts.  The image is not installed
# on the host: its .deb is downloaded into the cache and unpacked there.
#
# Idempotent: when everything is present it only checks and says so.
set -euo pipefail

. "$(dirname "$0")/lib.sh"

PACKAGES=(
	# module build, sparse, checkpatch, KUnit (UML) build
	build-essential bc bison flex gcc-multilib kmod libelf-dev libssl-dev perl
	python3
	sparse xz-utils
	# dev VM; tmux runs vaccel-top under a terminal in its tests
	qemu-system-x86 busybox-static cpio tmux
	# user-mode driver
	libdrm-dev pkg-config
	# vaccel-trace: tracefs and its events, the timeline's pictures
	libtracefs-dev libtraceevent-dev libcairo2-dev fonts-dejavu-core
	# compute kernels and the ISA oracle; cmake for vaccel_add_kernel()'s test;
	# the LLVM C API for the IR step of OpenCL C kernels
	clang-14 lld-14 lld llvm-14 llvm-14-dev qemu-user qemu-user-static cmake
	# the OpenCL platform: the ICD loader and headers it plugs into, clinfo,
	# PoCL as the oracle of the differential tests, pyopencl as a client,
	# MPFR for the device library's accuracy tests
	ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd
	clinfo python3-pyopencl libmpfr-dev
	# documentation, and the man pages rendered by make check
	python3-sphinx groff-base
	# packaging: DKMS, the udev rule's check (udevadm), the libabigail
	# tools (abidiff) of the ABI check
	dkms udev abigail-tools
)

missing_packages() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$p"
	done
}

apt_updated=0
apt_update_once() {
	if [ "$apt_updated" = 0 ]; then
		info "updating the package lists (apt-get update)"
		apt-get update -qq
		apt_updated=1
	fi
}

apt_install() {
	[ $# -gt 0 ] || return 0
	apt_update_once
	info "installing: $*"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "$@" >/dev/null
}

# The kernel version: the installed linux-source-6.12 if any, else the
# candidate.  Headers and image must be the very same Debian version.
kernel_version() {
	local v
	v=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || true)
	if [ -z "$v" ]; then
		v=$(apt-cache policy linux-source-6.12 2>/dev/null |
			awk '/Candidate:/ { print $2 }')
		if [ -z "$v" ] || [ "$v" = "(none)" ]; then
			apt_update_once
			v=$(apt-cache policy linux-source-6.12 |
				awk '/Candidate:/ { print $2 }')
		fi
	fi
	[ -n "$v" ] && [ "$v" != "(none)" ] ||
		die "no linux-source-6.12 package available from apt"
	echo "$v"
}

# 6.12.117-1~deb12u1 -> 6.12.117+deb12 (the Debian ABI name)
abi_name() {
	local upstream=${1%%-*}
	echo "${upstream}+deb12"
}

require_root() {
	[ "$(id -u)" = 0 ] || die "installing packages needs root (run as root or with sudo)"
}

main() {
	local missing kver abi hdr img deb

	mapfile -t missing < <(missing_packages "${PACKAGES[@]}" linux-source-6.12)
	if [ ${#missing[@]} -gt 0 ]; then
		require_root
		apt_install "${missing[@]}"
	fi

	kver=$(kernel_version)
	abi=$(abi_name "$kver")
	hdr="linux-headers-${abi}-amd64"
	img="linux-image-${abi}-amd64-unsigned"

	if [ -n "$(missing_packages "$hdr")" ]; then
		require_root
		apt_install "${hdr}=${kver}"
	fi
	local have
	have=$(dpkg-query -W -f='${Version}' "$hdr")
	[ "$have" = "$kver" ] ||
		die "$hdr is $have but linux-source-6.12 is $kver: they must match"

	mkdir -p "$VACCEL_CACHE/debs"
	deb=$(ls "$VACCEL_CACHE"/debs/"${img}"_*.deb 2>/dev/null | head -n1 || true)
	if [ -z "$deb" ]; then
		info "downloading $img $kver into $VACCEL_CACHE/debs"
		apt_update_once
		# apt downloads as the _apt user: give it a directory it may write.
		local dl
		dl=$(mktemp -d)
		chmod 755 "$dl"
		chown _apt "$dl" 2>/dev/null || true
		(cd "$dl" && apt-get download -qq "${img}=${kver}")
		mv "$dl"/*.deb "$VACCEL_CACHE/debs/"
		rmdir "$dl"
		deb=$(ls "$VACCEL_CACHE"/debs/"${img}"_*.deb | head -n1)
	fi
	if [ ! -f "$VACCEL_CACHE/image-$abi/.unpacked" ]; then
		info "unpacking $img into $VACCEL_CACHE/image-$abi"
		rm -rf "$VACCEL_CACHE/image-$abi"
		dpkg -x "$deb" "$VACCEL_CACHE/image-$abi"
		touch "$VACCEL_CACHE/image-$abi/.unpacked"
	fi

	cat >"$VACCEL_CACHE/kernel.env" <<ENV
VACCEL_KVER=$kver
VACCEL_KREL=${abi}-amd64
VACCEL_KDIR=/lib/modules/${abi}-amd64/build
VACCEL_KIMAGE=$VACCEL_CACHE/image-$abi
VACCEL_KSRC_TAR=/usr/src/linux-source-6.12.tar.xz
ENV
	info "dependencies ready: Linux $kver (${abi}-amd64), cache $VACCEL_CACHE"
}

main "$@"
