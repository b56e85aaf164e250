#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# vm.sh - the vaccel dev VM: boots a Debian 6.12 kernel under QEMU with an
# initramfs holding busybox, tmux, the DRM modules vaccel needs (resolved
# from `modinfo -F depends`) and vgem, our module, our binaries and the
# shared libraries they use.
#
# Three kernels (VACCEL_KERNEL):
#   debug   the sanitizer build of the same source (scripts/debug-kernel/:
#           KASAN, UBSAN, lockdep, DEBUG_OBJECTS, kmemleak, KCOV, fault
#           injection), everything built in; vaccel.ko built against it
#           ($VACCEL_BUILD/debug/vaccel.ko).  The default for `test` and
#           `fuzz`.
#   kcsan   its KCSAN variant (build.sh --variant kcsan): the data-race
#           detector instead of KASAN, the rest alike; vaccel.ko built
#           against it ($VACCEL_BUILD/kcsan/vaccel.ko, make module-kcsan).
#           Only when asked (`make kcsan`).
#   stock   the Debian kernel users load, with its DRM modules.  The
#           default for `run`, `bench`, `shell` and `exec`.
#
#   vm.sh test    run tests/vm/plan.sh (or the plan VACCEL_PLAN names);
#                 print a TAP stream (`ok N - name`, `not ok N - name #
#                 why`, the guest's other lines as `#` comments, the plan
#                 `1..N`; also in $VACCEL_CACHE/vm/<kernel>/test/
#                 results.tap) once the plan has ended (its lines come
#                 live on stderr if that is a terminal), then `vmtest: N
#                 passed, N failed`; exit 1 on any failure
#   vm.sh run     run the sample workload (scripts/guest/sample.sh)
#   vm.sh bench   run the benchmarks (scripts/guest/bench.sh), or those
#                 BENCH_ONLY names ("bench_migrate bench_rt"); their
#                 results as JSON in $VACCEL_CACHE/bench/results.json
#   vm.sh fuzz    run vaccel-fuzz for FUZZ_S seconds (scripts/guest/fuzz.sh)
#   vm.sh shell   an interactive shell with the module loaded
#                 (VACCEL_ARGS="devices=2 ..." sets its parameters)
#   vm.sh exec CMD [ARGS...]
#                 runs a program of the host in the VM, as root, with the
#                 module loaded (VACCEL_ARGS as for shell), in the current
#                 directory; streams its stdout and stderr back and exits
#                 with its exit status, or 125 when the VM failed: no boot,
#                 a timeout, or a kernel log that shows a problem (below)
#
# exec and shell share a host directory with the VM over virtio 9p: the
# current directory, or VACCEL_SHARE=DIR, read-write at the same path.  The
# host's root is mounted read-only at /vaccel/host, with the VM's own /proc,
# /sys, /dev, /tmp and /run over it and the share at its path; exec (and
# `hostrun` in the shell) runs the program chrooted there, so that it finds
# its shared libraries, interpreters and data where the host has them.
# The environment of the program: HOME, PATH (the host's usual one and the
# build's umd/bin), and the host's LD_LIBRARY_PATH and VACCEL_* variables.
# The debug kernels have no 9p: exec runs on the stock kernel by default.
#
# The kernel boots through its PVH entry (QEMU loads the uncompressed ELF
# vmlinux, extracted once from the vmlinuz and cached) when it has one, as
# Debian's does, else as a bzImage; VACCEL_VM_BOOT=bzimage forces the latter.
#
# VACCEL_VM_PLAN=smoke runs the plan's smoke subset instead of all of it;
# SOAK_S sets the length of the plan's soak (60 s by default).
#
# Besides the tests of the plan, a test run fails if the kernel log shows a
# WARNING, BUG, Oops, lockdep, KASAN, KCSAN ("BUG: KCSAN: data-race"), UBSAN
# or DEBUG_OBJECTS report, a drm *ERROR* line, or a taint other than O
# (out-of-tree module) and E (unsigned module), if kmemleak (debug and kcsan
# kernels) finds a leak in its scan at the end of the plan, or if the VM
# never reaches the end of the plan.
# TCG by default; KVM when /dev/kvm exists and a probe boot with it works
# (the result is cached).  VACCEL_VM_ACCEL=tcg|kvm forces.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib.sh"
load_kernel_env

mode=${1:-test}
[ $# -eq 0 ] || shift
# LD_LIBRARY_PATH is the program's (exec), not ldd's or QEMU's.
guest_ld_path=${LD_LIBRARY_PATH:-}
unset LD_LIBRARY_PATH
build=${VACCEL_BUILD:-$VACCEL_CACHE/build}
case "$mode" in
test|fuzz) kernel=${VACCEL_KERNEL:-debug} ;;
*) kernel=${VACCEL_KERNEL:-stock} ;;
esac
case "$kernel" in
stock)
	krel=$VACCEL_KREL
	moddir=$VACCEL_KIMAGE/lib/modules/$VACCEL_KREL
	vmlinuz=$VACCEL_KIMAGE/boot/vmlinuz-$VACCEL_KREL
	kconfig=$VACCEL_KIMAGE/boot/config-$VACCEL_KREL
	ko=$build/vaccel.ko
	timeout_s=${VACCEL_VM_TIMEOUT:-$((1200 + ${SOAK_S:-60}))}
	extra_args=
	[ -f "$vmlinuz" ] || die "no kernel image at $vmlinuz: run scripts/install-deps.sh"
	[ -f "$ko" ] || die "no $ko: run make first"
	;;
debug)
	[ -f "$VACCEL_CACHE/debug-kernel.env" ] ||
		die "no debug kernel: run scripts/debug-kernel/build.sh (or VACCEL_KERNEL=stock)"
	# shellcheck disable=SC1091
	. "$VACCEL_CACHE/debug-kernel.env"
	krel=$VACCEL_DEBUG_KREL
	moddir=$VACCEL_DEBUG_KDIR
	vmlinuz=$VACCEL_DEBUG_IMAGE
	kconfig=$VACCEL_DEBUG_KDIR/.config
	ko=$build/debug/vaccel.ko
	# The whole plan takes some 15 min here; a long soak or fuzzing
	# session adds its own length.
	timeout_s=${VACCEL_VM_TIMEOUT:-$((3600 + ${SOAK_S:-60} + ${FUZZ_S:-0}))}
	# Every KASAN report, not only the first.
	extra_args="kasan_multi_shot"
	[ -f "$vmlinuz" ] || die "no debug kernel image at $vmlinuz: run scripts/debug-kernel/build.sh"
	[ -f "$ko" ] || die "no $ko: run make module-debug first"
	;;
kcsan)
	[ -f "$VACCEL_CACHE/debug-kernel-kcsan.env" ] ||
		die "no KCSAN kernel: run make kcsan (or scripts/debug-kernel/build.sh --variant kcsan)"
	# shellcheck disable=SC1091
	. "$VACCEL_CACHE/debug-kernel-kcsan.env"
	krel=$VACCEL_DEBUG_KREL
	moddir=$VACCEL_DEBUG_KDIR
	vmlinuz=$VACCEL_DEBUG_IMAGE
	kconfig=$VACCEL_DEBUG_KDIR/.config
	ko=$build/kcsan/vaccel.ko
	# Every memory access calls into KCSAN, and one in some thousands
	# waits up to 80 us on a watchpoint: slower than KASAN, so twice the
	# debug kernel's time.  No kasan_multi_shot: KCSAN reports every race
	# (once per CONFIG_KCSAN_REPORT_ONCE_IN_MS) as it is.
	timeout_s=${VACCEL_VM_TIMEOUT:-$((7200 + ${SOAK_S:-60} + ${FUZZ_S:-0}))}
	extra_args=
	[ -f "$vmlinuz" ] || die "no KCSAN kernel image at $vmlinuz: run make kcsan"
	[ -f "$ko" ] || die "no $ko: run make module-kcsan first"
	;;
*)
	die "VACCEL_KERNEL must be debug, kcsan or stock"
	;;
esac
# The VM's files (initramfs, console and output logs); VACCEL_VM_WORK names
# another directory, so that two VMs of one kernel and mode can run at once.
work=${VACCEL_VM_WORK:-$VACCEL_CACHE/vm/$kernel/$mode}
plan=${VACCEL_VM_PLAN:-full}

case "$mode" in
test|run|bench|fuzz|shell) ;;
exec)
	[ $# -gt 0 ] || die "usage: vm.sh exec CMD [ARGS...]"
	exec_argv=("$@")
	# A program may run for long; the VM is stopped after this.
	timeout_s=${VACCEL_VM_TIMEOUT:-3600}
	;;
*)
	die "usage: vm.sh test|run|bench|fuzz|shell|exec CMD [ARGS...]"
	;;
esac

# kernel_has SYMBOL: whether the kernel's configuration has CONFIG_SYMBOL
# built in or as a module.
kernel_has() {
	grep -Eq "^CONFIG_$1=[ym]$" "$kconfig" 2>/dev/null
}

# --- the shared directory (exec and shell) ---------------------------------

# share_paths_ok: refuses a share the VM cannot mount at its own path.
share_paths_ok() {
	case "$share" in
	/)
		die "VACCEL_SHARE=/: the VM already sees the host's root read-only; share a directory"
		;;
	/proc|/proc/*|/sys|/sys/*|/dev|/dev/*|/run|/run/*)
		die "VACCEL_SHARE=$share: the VM mounts its own /proc, /sys, /dev and /run; share another directory"
		;;
	esac
	[ "$mode" = exec ] || return 0
	# The program runs in the current directory: in the share, or
	# elsewhere in the host's root, read-only, but not where the VM has
	# file systems of its own.
	case "$cwd" in
	"$share"|"$share"/*) ;;
	/tmp|/tmp/*|/run|/run/*|/proc|/proc/*|/sys|/sys/*|/dev|/dev/*)
		die "the current directory $cwd is not in the share ($share), and the VM has its own /tmp, /run, /proc, /sys and /dev: run from the share or set VACCEL_SHARE"
		;;
	esac
}

share=
share_args=()
if [ "$mode" = exec ] || [ "$mode" = shell ]; then
	if kernel_has 9P_FS && kernel_has NET_9P_VIRTIO && kernel_has VIRTIO_PCI; then
		share=$(cd "${VACCEL_SHARE:-.}" 2>/dev/null && pwd -P) ||
			die "VACCEL_SHARE=${VACCEL_SHARE:-}: no such directory"
		cwd=$(pwd -P)
		share_paths_ok
	elif [ "$mode" = exec ]; then
		die "vm.sh exec shares files over virtio 9p, which the $kernel kernel does not have" \
		    "(CONFIG_9P_FS, CONFIG_NET_9P_VIRTIO, CONFIG_VIRTIO_PCI): run it with VACCEL_KERNEL=stock"
	else
		info "the $kernel kernel has no virtio 9p: no shared directory in this shell"
	fi
fi

# qemu_path PATH: a path as a QEMU option value (a comma is doubled).
qemu_path() {
	printf '%s' "${1//,/,,}"
}

# The three 9p exports: the share (read-write), the host's root
# (read-only; it spans several host file systems, whose inode numbers
# QEMU remaps so that they cannot collide) and, for exec, the directory
# where the guest writes the program's output, exit status and kernel log.
# shellcheck disable=SC2054 # the commas are QEMU's
set_share_args() {
	share_args=(
		-fsdev "local,id=vshare,path=$(qemu_path "$share"),security_model=none"
		-device virtio-9p-pci,fsdev=vshare,mount_tag=vaccel_share
		-fsdev "local,id=vhost,path=/,security_model=none,readonly=on,multidevs=remap"
		-device virtio-9p-pci,fsdev=vhost,mount_tag=vaccel_host
	)
	if [ "$mode" = exec ]; then
		share_args+=(
			-fsdev "local,id=vctl,path=$(qemu_path "$work/ctl"),security_model=none"
			-device virtio-9p-pci,fsdev=vctl,mount_tag=vaccel_ctl
		)
	fi
}

# --- the kernel image -----------------------------------------------------

# A kernel with a PVH entry point boots faster as an ELF vmlinux: QEMU
# loads it directly, with no real-mode setup and no decompression (see
# Documentation/testing.rst for the figures).  Debian's vmlinuz is
# unpacked once with the kernel source's extract-vmlinux and cached; the
# debug kernel's build tree has its vmlinux.  Any failure falls back to
# the bzImage.
pvh_note() {
	# XEN_ELFNOTE_PHYS32_ENTRY (18): the 32-bit PVH entry point.
	readelf -n "$1" 2>/dev/null | grep -q -E '^ +Xen .*(\(0x00000012\)|PHYS32_ENTRY)'
}

extract_vmlinux() {
	local out=$1 tool tmp
	for tool in "$VACCEL_CACHE/src/linux-source-6.12/scripts/extract-vmlinux" \
		    "$VACCEL_CACHE/debug-kernel/src-$VACCEL_KVER/scripts/extract-vmlinux"; do
		[ -f "$tool" ] && break
	done
	tmp=$(mktemp "$out.XXXXXX")
	if [ ! -f "$tool" ]; then
		tool=$work/extract-vmlinux
		tar -xOf "$VACCEL_KSRC_TAR" --wildcards '*/scripts/extract-vmlinux' >"$tool" 2>/dev/null ||
			{ rm -f "$tmp"; return 1; }
	fi
	if sh "$tool" "$vmlinuz" >"$tmp" 2>/dev/null && pvh_note "$tmp"; then
		chmod 644 "$tmp"
		mv "$tmp" "$out"
	else
		rm -f "$tmp"
		return 1
	fi
}

boot_image() {
	local elf
	boot=$vmlinuz
	boot_kind=bzImage
	case "${VACCEL_VM_BOOT:-pvh}" in
	bzimage) return 0 ;;
	pvh) ;;
	*) die "VACCEL_VM_BOOT must be pvh or bzimage" ;;
	esac
	kernel_has PVH || return 0
	case "$kernel" in
	stock)
		elf=$VACCEL_CACHE/vm/pvh/vmlinux-$krel
		if [ ! -f "$elf" ]; then
			mkdir -p "$(dirname "$elf")"
			extract_vmlinux "$elf" ||
				{ info "could not extract an ELF vmlinux from $vmlinuz: booting the bzImage"; return 0; }
		fi
		;;
	debug|kcsan)
		elf=$VACCEL_DEBUG_KDIR/vmlinux
		pvh_note "$elf" || return 0
		;;
	esac
	boot=$elf
	boot_kind=PVH
}

# --- initramfs ----------------------------------------------------------

declare -A modpath seen
modorder=()

index_modules() {
	local f n
	while read -r f; do
		n=${f##*/}
		n=${n%%.ko*}
		modpath[${n//-/_}]=$f
	done < <([ -d "$moddir/kernel" ] && find "$moddir/kernel" -name '*.ko*')
}

# Depth-first over `modinfo -F depends`: dependencies come first.
visit_module() {
	local n=${1//-/_} f d
	[ -z "${seen[$n]:-}" ] || return 0
	seen[$n]=1
	f=${modpath[$n]:-}
	if [ -z "$f" ]; then
		grep -q "/${n//_/[-_]}\.ko" "$moddir/modules.builtin" 2>/dev/null && return 0
		die "module $n, needed by vaccel or the VM, is not in $moddir"
	fi
	for d in $(modinfo -F depends "$f" | tr , ' '); do
		visit_module "$d"
	done
	modorder+=("$n")
}

copy_module() {
	local src=$1 dst=$2
	case "$src" in
	*.ko.xz) xz -dc "$src" >"$dst" ;;
	*.ko.zst) zstd -qdc "$src" >"$dst" ;;
	*.ko.gz) gzip -dc "$src" >"$dst" ;;
	*) cp "$src" "$dst" ;;
	esac
}

# The modules in a /lib/modules tree of their own, indexed by the host's
# depmod, so that modprobe works in the guest as on a real machine (the
# plan runs the README's loading commands); /init insmods them in
# dependency order through /vaccel/modules.
stage_modules() {
	local n rel kmods=$stage/lib/modules/$krel f
	mkdir -p "$kmods"
	: >"$kmods/modules.order"
	for n in "${modorder[@]}"; do
		rel=${modpath[$n]#"$moddir"/}
		rel=${rel%.ko*}.ko
		mkdir -p "$kmods/${rel%/*}"
		copy_module "${modpath[$n]}" "$kmods/$rel"
		ln -s "/lib/modules/$krel/$rel" "$stage/vaccel/modules/$n.ko"
		echo "$rel" >>"$kmods/modules.order"
	done
	printf '%s\n' "${modorder[@]}" >"$stage/vaccel/modules.order"
	for f in modules.builtin modules.builtin.modinfo; do
		[ ! -f "$moddir/$f" ] || cp "$moddir/$f" "$kmods/"
	done
	depmod -b "$stage" "$krel" ||
		die "depmod -b $stage $krel failed"
}

# Copies a binary's shared libraries (and the dynamic loader) to the
# same paths inside the initramfs.
copy_libs() {
	local lib
	for lib in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*'); do
		[ -e "$stage$lib" ] && continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}

# The tools, the tests, the plan and the scripts of the other modes, and
# what they need in the initramfs.
stage_tools() {
	local f

	# tmux runs vaccel-top under a terminal in the tests (and is at hand
	# in `make shell`); its panes' TERM (screen) needs terminfo, and tmux
	# itself a UTF-8 locale (it falls back to C.UTF-8 when none is set).
	if [ -x /usr/bin/tmux ]; then
		cp /usr/bin/tmux "$stage/bin/tmux"
		copy_libs /usr/bin/tmux
		mkdir -p "$stage/lib" "$stage/usr/lib/locale"
		cp -a /lib/terminfo "$stage/lib/"
		cp -a /usr/lib/locale/C.utf8 "$stage/usr/lib/locale/"
	fi
	cp "${VACCEL_PLAN:-$root/tests/vm/plan.sh}" "$stage/vaccel/plan.sh"
	# The README's commands that load the module on a real machine: the
	# plan runs them as written.
	sed -n '/^## Loading the module on a real machine/,/^## [^L]/p' "$root/README.md" |
		sed -n '/^```sh$/,/^```$/{/^```/d;p}' >"$stage/vaccel/readme-load.sh"
	cp "$here/guest/sample.sh" "$here/guest/bench.sh" "$here/guest/fuzz.sh" "$stage/vaccel/"

	for f in "$build"/umd/bin/* "$build"/tests/vm/bin/* \
		 "$build"/tests/bench/bin/* "$build"/tests/fuzz/bin/*; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		cp "$f" "$stage/vaccel/bin/"
		copy_libs "$f"
	done
	[ -d "$build/umd/lib" ] && cp -a "$build"/umd/lib/libvaccel.so* "$stage/lib/" 2>/dev/null || true
	# The examples' kernel modules, where example-NAME looks for them
	# (../share/vaccel/kernels next to /vaccel/bin).
	if [ -d "$build/umd/share/vaccel/kernels" ]; then
		mkdir -p "$stage/vaccel/share/vaccel"
		cp -a "$build/umd/share/vaccel/kernels" "$stage/vaccel/share/vaccel/"
	fi

	# vaccel-fuzz's kernel-log rule, its regression corpus, the findings
	# of earlier sessions (to replay them in `make shell`), and the corpus
	# those sessions kept (vm.sh fuzz saves both).
	cp -r "$here/kernel-log" "$stage/vaccel/kernel-log"
	mkdir -p "$stage/vaccel/fuzz-regressions" "$stage/vaccel/fuzz-findings" \
		"$stage/vaccel/fuzz-corpus"
	cp "$root"/tests/fuzz/regressions/*.prog "$stage/vaccel/fuzz-regressions/" 2>/dev/null || true
	cp "$VACCEL_CACHE"/fuzz/findings/*.prog "$stage/vaccel/fuzz-findings/" 2>/dev/null || true
	if [ "$mode" = fuzz ] && [ -d "$VACCEL_CACHE/fuzz/corpus" ]; then
		cp "$VACCEL_CACHE"/fuzz/corpus/*.prog "$stage/vaccel/fuzz-corpus/" 2>/dev/null || true
	fi
}

build_initramfs() {
	local n
	stage=$work/stage
	rm -rf "$stage"
	mkdir -p "$stage"/{bin,sbin,dev,proc,sys,tmp,etc,root} \
		"$stage"/vaccel/{bin,modules}

	cp /bin/busybox "$stage/bin/busybox"
	# bench_compute compares with qemu-riscv64 (static: no libraries);
	# VACCEL_WITH_QEMU=1 brings it into other modes too.
	if { [ "$mode" = bench ] || [ -n "${VACCEL_WITH_QEMU:-}" ]; } &&
	   [ -x /usr/bin/qemu-riscv64-static ]; then
		cp /usr/bin/qemu-riscv64-static "$stage/bin/"
	fi
	cp "$here/guest/init" "$stage/init"
	chmod +x "$stage/init"
	cp "$ko" "$stage/vaccel/vaccel.ko"

	index_modules
	# vgem is no dependency of vaccel, but the tests need a foreign
	# dma-buf exporter and fences they can signal when they choose.
	# The share needs 9p over virtio (modules of the stock kernel).
	for n in $(modinfo -F depends "$ko" | tr , ' ') vgem \
		 ${share:+virtio_pci 9pnet_virtio 9p}; do
		visit_module "$n"
	done
	stage_modules

	# exec runs a program of the host, in the host's root: the tools, the
	# tests and what they need would only slow its boot down.
	[ "$mode" = exec ] || stage_tools

	[ -z "$share" ] || stage_share

	(cd "$stage" && find . | cpio -o -H newc --quiet) >"$work/initramfs.cpio"
}

# shq STRING: STRING quoted for the guest's shell.
shq() {
	local q="'\\''"
	printf "'%s'" "${1//\'/$q}"
}

# What the guest needs to mount the share and run a host program: where
# the share goes (it must not hide a file of the initramfs), hostrun, and
# for exec the command with its directory and environment.
stage_share() {
	local v
	if [ -e "$stage$share" ] && { [ ! -d "$stage$share" ] ||
	   [ -n "$(find "$stage$share" -mindepth 1 -print -quit)" ]; }; then
		die "VACCEL_SHARE=$share would hide the VM's own $share; share another directory"
	fi
	cp "$here/guest/hostrun" "$stage/vaccel/bin/hostrun"
	chmod +x "$stage/vaccel/bin/hostrun"
	{
		echo "share_dir=$(shq "$share")"
		echo "host_bin=$(shq "$build/umd/bin")"
	} >"$stage/vaccel/share.env"
	[ "$mode" = exec ] || return 0
	{
		printf 'set --'
		printf ' %s' "$(shq HOME=/root)"
		[ -z "$guest_ld_path" ] || printf ' %s' "$(shq "LD_LIBRARY_PATH=$guest_ld_path")"
		for v in $(compgen -e | grep -E '^VACCEL_[A-Za-z0-9_]*$'); do
			printf ' %s' "$(shq "$v=${!v}")"
		done
		printf ' /vaccel/bin/hostrun -C %s' "$(shq "$cwd")"
		for v in "${exec_argv[@]}"; do
			printf ' %s' "$(shq "$v")"
		done
		echo
	} >"$stage/vaccel/exec.cmd"
}

# --- QEMU ---------------------------------------------------------------

# probe_reason LOG: why the KVM probe boot failed, in a few words.
probe_reason() {
	local line
	line=$(grep -a -m1 -i -E 'assert|error|fail|unsupported|not supported' "$1" 2>/dev/null |
		sed -e 's/^qemu-system-x86_64: //' | cut -c1-120)
	echo "${line:-the probe boot did not finish}"
}

qemu_accel_args() {
	local want=${VACCEL_VM_ACCEL:-auto} cache=$VACCEL_CACHE/vm/kvm-probe.$krel

	if [ "$want" = auto ]; then
		want=tcg
		if [ -w /dev/kvm ]; then
			if [ ! -f "$cache" ]; then
				info "probing KVM with a test boot"
				: >"$work/out.log"
				# QEMU's complaints stay in probe.log: a KVM that
				# cannot run the guest is a reason for TCG, not an
				# error of the user's.
				if run_qemu probe "-accel kvm -cpu host" 60 \
					>"$work/probe.log" 2>&1 &&
				   grep -q '=== vaccel: probe ok' "$work/out.log"; then
					echo kvm >"$cache"
				else
					echo tcg >"$cache"
					info "KVM cannot boot the guest here: $(probe_reason "$work/probe.log"); using TCG (slower; QEMU's words in $work/probe.log)"
				fi
			fi
			want=$(cat "$cache")
		fi
	fi
	case "$want" in
	kvm) echo "-accel kvm -cpu host" ;;
	tcg) echo "-accel tcg,thread=multi -cpu max" ;;
	*) die "VACCEL_VM_ACCEL must be auto, tcg or kvm" ;;
	esac
}

# run_qemu VMMODE ACCEL_ARGS TIMEOUT: ttyS0 (console) to console.log,
# ttyS1 (results) to out.log.  With qemu_exec=exec, a run_qemu in the
# background becomes timeout(1) itself, so that $! can stop it.
run_qemu() {
	local vmmode=$1 accel=$2 t=$3
	rm -f "$work/console.log"
	# shellcheck disable=SC2086
	${qemu_exec:-} timeout "$t" qemu-system-x86_64 $accel \
		-m "${VACCEL_VM_MEM:-3G}" -smp 2 -display none -no-reboot -nodefaults \
		-kernel "$boot" -initrd "$work/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 loglevel=7 $extra_args vmmode=$vmmode plan=$plan soak_s=${SOAK_S:-60} fuzz_s=${FUZZ_S:-60} fuzz_seed=${FUZZ_SEED:-0} fuzz_args=\"${FUZZ_ARGS:-}\" bench_only=\"${BENCH_ONLY:-}\" vaccel_args=\"${VACCEL_ARGS:-}\"" \
		-serial "file:$work/console.log" -serial "file:$work/out.log" \
		"${share_args[@]}" </dev/null
}

# Whether the last boot died of QEMU's race with the kernel's code patching
# (tcg_stale_int3() of lib.sh says how it is told) before vaccel was loaded
# or anything ran.  Seen once in some eighty boots of one day, at the late
# initcall that makes sched_clock stable; such a boot runs again, once.
tcg_patch_race() {
	[[ $accel == *tcg* ]] && tcg_patch_race_log "$work/console.log" "$work/out.log"
}

# The same race at any time of a test plan, vaccel loaded (seen once, in
# __schedule(), while a test turned trace events on): the plan runs again,
# once, from the start, its first results set aside.  Only a plan's results
# can be held back until the boot ends; the other modes stream theirs.
tcg_patch_race_in_plan() {
	[[ $accel == *tcg* ]] && tcg_stale_int3 "$work/console.log"
}

tcg_patch_race_note() {
	info "the guest kernel oopsed on a stale int3 $1: QEMU's TCG race with code" \
	     "patching (fixed in QEMU 8.1); booting again (its console log:" \
	     "$work/console.race.log${2:+, its results: $2})"
	cp "$work/console.log" "$work/console.race.log"
}

# The guest's lines of out.log, without the carriage returns of the serial
# line, the final kernel log and the exported files.
guest_lines() {
	tr -d '\r' | sed -u -e '/^=== vaccel: \(kmemleak\|dmesg\) begin/,$d' \
		-e '/^=== vaccel: file begin/,/^=== vaccel: file end/d' -e '/^=== vaccel: /d'
}

# Runs QEMU in the background and streams the guest's lines until it
# exits.  A boot that tcg_patch_race() recognises runs again, once.  A
# test plan's lines are held in $work/plan.out until the boot ends (and
# shown as they come on stderr if it is a terminal), so that a plan that
# tcg_patch_race_in_plan() recognises runs again without its first
# results counting.
run_and_stream() {
	local vmmode=$1 accel=$2 rc qpid try
	local held=$work/plan.out
	rm -f "$work/console.race.log" "$work/plan.race.out"
	for try in 1 2; do
		rc=0
		: >"$work/out.log"
		run_qemu "$vmmode" "$accel" "$timeout_s" &
		qpid=$!
		tail -n +1 --pid="$qpid" -F "$work/out.log" 2>/dev/null | guest_lines |
			if [ "$vmmode" != test ]; then
				cat
			elif [ -t 2 ]; then
				tee "$held" >&2
			else
				cat >"$held"
			fi
		wait "$qpid" || rc=$?
		[ "$try" = 1 ] || break
		if tcg_patch_race; then
			tcg_patch_race_note "while booting, before vaccel was loaded" >&2
		elif [ "$vmmode" = test ] && tcg_patch_race_in_plan; then
			mv "$held" "$work/plan.race.out"
			tcg_patch_race_note "during the plan" "$work/plan.race.out" >&2
		else
			break
		fi
	done
	[ "$vmmode" != test ] || cat "$held"
	return $rc
}

# exec_fail MESSAGE...: the VM, not the program, failed: exit 125.
exec_fail() {
	printf '\033[1;31m[vaccel] exec:\033[0m %s\n' "$*" >&2
	exit 125
}

# vm.sh exec: runs the VM with the program's output streamed from the ctl
# directory as the guest writes it, then judges the run like check_run
# and passes the program's exit status on.
run_exec() {
	local ctl=$work/ctl qpid status bad taint try
	set_share_args
	rm -f "$work/console.race.log"
	for try in 1 2; do
		rm -rf "$ctl"
		mkdir -p "$ctl"
		: >"$ctl/stdout"
		: >"$ctl/stderr"
		: >"$work/out.log"
		qemu_exec="exec" run_qemu exec "$accel" "$timeout_s" 2>"$work/qemu.log" &
		qpid=$!
		# timeout(1) runs QEMU in a process group of its own, which a ^C
		# on the terminal does not reach: pass it on (timeout stops QEMU).
		trap 'kill -TERM "$qpid" 2>/dev/null; exit 130' INT TERM
		tail -c +1 -s 0.2 --pid="$qpid" -F "$ctl/stdout" 2>/dev/null &
		tail -c +1 -s 0.2 --pid="$qpid" -F "$ctl/stderr" >&2 2>/dev/null &
		wait "$qpid" || true
		wait
		trap - INT TERM
		# Only if the program had not started: nothing it did is repeated.
		if [ "$try" = 2 ] || [ -f "$ctl/status" ] || [ -s "$ctl/stdout" ] ||
		   [ -s "$ctl/stderr" ] || ! tcg_patch_race; then
			break
		fi
		tcg_patch_race_note "while booting, before vaccel was loaded" >&2
	done

	if [ ! -f "$ctl/status" ]; then
		if [ -s "$ctl/setup" ]; then
			sed 's/^/    /' "$ctl/setup" >&2
			exec_fail "the VM could not run the program (logs in $work)"
		fi
		tr -d '\r' <"$work/out.log" | grep -a '^=== vaccel: ' | sed 's/^/    /' >&2 || true
		sed 's/^/    /' "$work/qemu.log" >&2
		tail -n 40 "$work/console.log" | tr -d '\r' | sed 's/^/    /' >&2
		exec_fail "the VM stopped before the program ended (timeout of ${timeout_s} s, VACCEL_VM_TIMEOUT, or a panic: console tail above)"
	fi
	status=$(cat "$ctl/status")
	if [ -s "$ctl/rmmod" ]; then
		info "exec: the module could not be unloaded after the program: $(head -n 1 "$ctl/rmmod")"
	fi
	bad=$(kernel_log_problems <"$ctl/dmesg")
	if [ -n "$bad" ]; then
		sed 's/^/    /' <<<"$bad" | head -n 40 >&2
		exec_fail "the program exited with $status, but the kernel log shows the problems above (all of it in $ctl/dmesg)"
	fi
	taint=$(cat "$ctl/tainted" 2>/dev/null || true)
	taint_ok "$taint" ||
		exec_fail "the program exited with $status, but the kernel is tainted ${taint:-unknown} (only O and E are allowed; see $ctl/dmesg)"
	exit "$status"
}

# --- checks after a run ---------------------------------------------------


# taint_ok TAINT: whether the kernel's taint flags are allowed ones: O
# (bit 12, out-of-tree module) and E (bit 13, unsigned module).
taint_ok() {
	[ -n "$1" ] && [ $(($1 & ~((1 << 12) | (1 << 13)))) -eq 0 ]
}

# Prints ok/not ok lines for what the host checks, appends them to results.
check_run() {
	local done_marker=$1 log=$work/out.log dmesg taint bad

	tr -d '\r' <"$log" >"$work/out.clean"
	grep -E '^(ok|not ok) ' "$work/out.clean" >"$work/results" || true

	if grep -q "^=== vaccel: $done_marker" "$work/out.clean"; then
		echo "ok vm.completed" | tee -a "$work/results"
	else
		echo "not ok vm.completed: the VM stopped before the end (timeout or panic); console tail:" |
			tee -a "$work/results"
		tail -n 40 "$work/console.log" | tr -d '\r' | sed 's/^/    /'
		return
	fi

	dmesg=$(sed -n '/^=== vaccel: dmesg begin/,/^=== vaccel: dmesg end/p' "$work/out.clean")
	bad=$(kernel_log_problems <<<"$dmesg")
	if [ -z "$bad" ]; then
		echo "ok vm.kernel_log_clean" | tee -a "$work/results"
	else
		echo "not ok vm.kernel_log_clean: the kernel log shows:" | tee -a "$work/results"
		sed 's/^/    /' <<<"$bad" | head -n 40
	fi

	if [ "$kernel" != stock ]; then
		if ! grep -q '^=== vaccel: kmemleak end' "$work/out.clean"; then
			echo "not ok vm.kmemleak_clean: no kmemleak scan at the end of the run" |
				tee -a "$work/results"
		elif bad=$(sed -n '/^=== vaccel: kmemleak begin/,/^=== vaccel: kmemleak end/p' \
				"$work/out.clean" | grep -v '^=== vaccel: ') && [ -n "$bad" ]; then
			echo "not ok vm.kmemleak_clean: $(grep -c '^unreferenced object' <<<"$bad") leaks; the first:" |
				tee -a "$work/results"
			head -n 40 <<<"$bad" | sed 's/^/    /'
		else
			echo "ok vm.kmemleak_clean" | tee -a "$work/results"
		fi
	fi

	taint=$(sed -n 's/^=== vaccel: tainted \([0-9]*\)$/\1/p' "$work/out.clean")
	if taint_ok "$taint"; then
		echo "ok vm.taint" | tee -a "$work/results"
	else
		echo "not ok vm.taint: tainted=${taint:-unknown} (only O and E are allowed)" |
			tee -a "$work/results"
	fi
}

# After a fuzzing session: the corpus it printed replaces the kept one,
# each finding becomes a file in $VACCEL_CACHE/fuzz/findings.
save_fuzz_outputs() {
	local dir=$VACCEL_CACHE/fuzz
	mkdir -p "$dir/corpus" "$dir/findings"
	if grep -q '^=== vaccel: corpus end' "$work/out.clean"; then
		rm -f "$dir"/corpus/*.prog
		awk -v d="$dir/corpus" '
			/^=== vaccel: corpus program / { f = d "/" $5 ".prog"; next }
			/^=== vaccel: corpus (begin|end)/ { f = ""; next }
			f != "" { print > f }' "$work/out.clean"
	fi
	awk -v d="$dir/findings" -v t="$(date +%Y%m%d-%H%M%S)" '
		/^=== vaccel: finding begin / { n++; f = d "/" t "-" n ".prog"; next }
		/^=== vaccel: finding end/ { if (f != "") print "[vaccel] finding saved in " f > "/dev/stderr"; f = ""; next }
		f != "" { print > f }' "$work/out.clean"
	info "fuzz corpus: $(ls "$dir/corpus" | wc -l) programs in $dir/corpus"
}

# The files the guest exported (vt_export: gzip, base64, between markers)
# into $work/files, under the names it gave.
save_files() {
	local dir=$work/files f
	rm -rf "$dir"
	mkdir -p "$dir"
	awk -v d="$dir" '
		/^=== vaccel: file begin [A-Za-z0-9._-]+$/ { f = d "/" $5 ".gz.b64"; next }
		/^=== vaccel: file end/ { f = ""; next }
		f != "" { print > f }' "$work/out.clean"
	for f in "$dir"/*.gz.b64; do
		[ -e "$f" ] || continue
		if base64 -d "$f" | gunzip >"${f%.gz.b64}"; then
			rm -f "$f"
		else
			info "warning: could not decode the exported file ${f%.gz.b64}"
			rm -f "$f" "${f%.gz.b64}"
		fi
	done
}

# The timeline of `make run`'s sample workload, drawn on the host from the
# events the guest recorded, next to the build outputs.
save_timeline() {
	local events=$work/files/sample.events out=$build/timeline
	local tool=$build/umd/bin/vaccel-trace
	[ -f "$events" ] && [ -x "$tool" ] || return 0
	mkdir -p "$out"
	cp "$events" "$out/sample.events"
	if "$tool" convert -q -t "vaccel: the sample workload of make run" \
		-o "$out/sample.json" --png "$out/sample.png" --svg "$out/sample.svg" \
		"$out/sample.events"; then
		info "timeline of the sample workload: $out/sample.png (and .svg);" \
			"open $out/sample.json in https://ui.perfetto.dev"
	else
		info "warning: vaccel-trace could not draw the sample's timeline"
	fi
}

# The JSON results of the benchmarks (scripts/guest/bench.sh), exported by
# the guest, to $VACCEL_CACHE/bench/results.json, once they parse.
save_bench_results() {
	local json=$work/files/results.json dir=$VACCEL_CACHE/bench err
	if [ ! -f "$json" ]; then
		info "warning: the benchmarks exported no results.json (logs in $work)"
		return 0
	fi
	if ! err=$(python3 -m json.tool "$json" 2>&1 >/dev/null); then
		info "warning: the benchmarks' results.json does not parse: $err"
		return 0
	fi
	mkdir -p "$dir"
	cp "$json" "$dir/results.json"
	info "benchmark results as JSON: $dir/results.json"
}

summarise() {
	local passed failed
	passed=$(grep -c '^ok ' "$work/results" || true)
	failed=$(grep -c '^not ok ' "$work/results" || true)
	echo "vmtest: $passed passed, $failed failed"
	[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
}

mkdir -p "$work"
build_initramfs
boot_image
accel=$(qemu_accel_args)
info "booting Linux $krel ($kernel, $boot_kind) under QEMU (${accel%% -cpu*}), mode $mode${share:+, sharing $share}"

case "$mode" in
test)
	# One TAP stream: the plan's lines as they come, then the host's.
	{
		run_and_stream test "$accel" || true
		check_run "plan done"
	} | tap_stream -h -p -n vm | tee "$work/results.tap"
	save_files
	summarise
	;;
bench)
	run_and_stream bench "$accel" || true
	check_run "bench done" >/dev/null
	save_files
	save_bench_results
	if grep -q '^not ok' "$work/results"; then
		grep '^not ok' "$work/results"
		die "the benchmark run failed (logs in $work)"
	fi
	;;
run)
	run_and_stream run "$accel" || true
	check_run "sample done" >/dev/null
	save_files
	save_timeline
	if grep -q '^not ok' "$work/results"; then
		grep '^not ok' "$work/results"
		die "the dev VM run failed (logs in $work)"
	fi
	info "the sample ran in the dev VM; the kernel log is clean (logs in $work)"
	;;
fuzz)
	run_and_stream fuzz "$accel" || true
	check_run "fuzz done"
	save_fuzz_outputs
	summarise
	;;
shell)
	[ -z "$share" ] || set_share_args
	# shellcheck disable=SC2086
	qemu-system-x86_64 $accel -m "${VACCEL_VM_MEM:-3G}" -smp 2 -display none -no-reboot \
		-nodefaults -kernel "$boot" -initrd "$work/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 $extra_args vmmode=shell vaccel_args=\"${VACCEL_ARGS:-}\"" \
		-serial mon:stdio "${share_args[@]}"
	;;
exec)
	run_exec
	;;
esac
