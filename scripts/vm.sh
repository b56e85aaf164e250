#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# vm.sh - the vaccel dev VM: boots a Debian 6.12 kernel under QEMU with an
# initramfs holding busybox, tmux, the DRM modules vaccel needs (resolved
# from `modinfo -F depends`) and vgem, our module, our binaries and the
# shared libraries they use.
#
# Two kernels (VACCEL_KERNEL):
#   debug   the sanitizer build of the same source (scripts/debug-kernel/:
#           KASAN, UBSAN, lockdep, DEBUG_OBJECTS, kmemleak, KCOV, fault
#           injection), everything built in; vaccel.ko built against it
#           ($VACCEL_BUILD/debug/vaccel.ko).  The default for `test` and
#           `fuzz`.
#   stock   the Debian kernel users load, with its DRM modules.  The
#           default for `run`, `bench` and `shell`.
#
#   vm.sh test    run tests/vm/plan.sh (or the plan VACCEL_PLAN names);
#                 print a TAP stream (`ok N - name`, `not ok N - name #
#                 why`, the guest's other lines as `#` comments, the plan
#                 `1..N`; also in $VACCEL_CACHE/vm/<kernel>/test/
#                 results.tap), then `vmtest: N passed, N failed`; exit 1
#                 on any failure
#   vm.sh run     run the sample workload (scripts/guest/sample.sh)
#   vm.sh bench   run the benchmarks (scripts/guest/bench.sh), or those
#                 BENCH_ONLY names ("bench_migrate bench_rt"); their
#                 results as JSON in $VACCEL_CACHE/bench/results.json
#   vm.sh fuzz    run vaccel-fuzz for FUZZ_S seconds (scripts/guest/fuzz.sh)
#   vm.sh shell   an interactive shell with the module loaded
#                 (VACCEL_ARGS="devices=2 ..." sets its parameters)
#
# VACCEL_VM_PLAN=smoke runs the plan's smoke subset instead of all of it;
# SOAK_S sets the length of the plan's soak (60 s by default).
#
# Besides the tests of the plan, a test run fails if the kernel log shows a
# WARNING, BUG, Oops, lockdep, KASAN, UBSAN or DEBUG_OBJECTS report, a drm
# *ERROR* line, or a taint other than O (out-of-tree module) and E
# (unsigned module), if kmemleak (debug kernel) finds a leak in its scan at
# the end of the plan, or if the VM never reaches the end of the plan.
# TCG by default; KVM when /dev/kvm exists and a probe boot with it works
# (the result is cached).  VACCEL_VM_ACCEL=tcg|kvm forces.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib.sh"
load_kernel_env

mode=${1:-test}
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
	ko=$build/debug/vaccel.ko
	# The whole plan takes some 15 min here; a long soak or fuzzing
	# session adds its own length.
	timeout_s=${VACCEL_VM_TIMEOUT:-$((3600 + ${SOAK_S:-60} + ${FUZZ_S:-0}))}
	# Every KASAN report, not only the first.
	extra_args="kasan_multi_shot"
	[ -f "$vmlinuz" ] || die "no debug kernel image at $vmlinuz: run scripts/debug-kernel/build.sh"
	[ -f "$ko" ] || die "no $ko: run make module-debug first"
	;;
*)
	die "VACCEL_KERNEL must be debug or stock"
	;;
esac
work=$VACCEL_CACHE/vm/$kernel/$mode
plan=${VACCEL_VM_PLAN:-full}

# --- initramfs ----------------------------------------------------------

declare -A modpath seen
modorder=()

index_modules() {
	local f n
	while read -r f; do
		n=$(basename "$f")
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
		die "module $n, needed by vaccel, is not in $moddir"
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

build_initramfs() {
	local n f
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
	cp "$here/guest/init" "$stage/init"
	chmod +x "$stage/init"
	cp "${VACCEL_PLAN:-$root/tests/vm/plan.sh}" "$stage/vaccel/plan.sh"
	cp "$here/guest/sample.sh" "$here/guest/bench.sh" "$here/guest/fuzz.sh" "$stage/vaccel/"
	cp "$ko" "$stage/vaccel/vaccel.ko"

	index_modules
	# vgem is no dependency of vaccel, but the tests need a foreign
	# dma-buf exporter and fences they can signal when they choose.
	for n in $(modinfo -F depends "$ko" | tr , ' ') vgem; do
		visit_module "$n"
	done
	for n in "${modorder[@]}"; do
		copy_module "${modpath[$n]}" "$stage/vaccel/modules/$n.ko"
	done
	printf '%s\n' "${modorder[@]}" >"$stage/vaccel/modules.order"

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

	(cd "$stage" && find . | cpio -o -H newc --quiet) >"$work/initramfs.cpio"
}

# --- QEMU ---------------------------------------------------------------

qemu_accel_args() {
	local want=${VACCEL_VM_ACCEL:-auto} cache=$VACCEL_CACHE/vm/kvm-probe.$krel

	if [ "$want" = auto ]; then
		want=tcg
		if [ -w /dev/kvm ]; then
			if [ ! -f "$cache" ]; then
				info "probing KVM with a test boot"
				: >"$work/out.log"
				if run_qemu probe "-accel kvm -cpu host" 60 &&
				   grep -q '=== vaccel: probe ok' "$work/out.log"; then
					echo kvm >"$cache"
				else
					echo tcg >"$cache"
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
# ttyS1 (results) to out.log.
run_qemu() {
	local vmmode=$1 accel=$2 t=$3
	rm -f "$work/console.log"
	# shellcheck disable=SC2086
	timeout "$t" qemu-system-x86_64 $accel \
		-m "${VACCEL_VM_MEM:-3G}" -smp 2 -display none -no-reboot -nodefaults \
		-kernel "$vmlinuz" -initrd "$work/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 loglevel=7 $extra_args vmmode=$vmmode plan=$plan soak_s=${SOAK_S:-60} fuzz_s=${FUZZ_S:-60} fuzz_seed=${FUZZ_SEED:-0} fuzz_args=\"${FUZZ_ARGS:-}\" bench_only=\"${BENCH_ONLY:-}\"" \
		-serial "file:$work/console.log" -serial "file:$work/out.log" \
		</dev/null
}

# Runs QEMU in the background and streams out.log until it exits, without
# the carriage returns of the serial line and without the final kernel log.
run_and_stream() {
	local vmmode=$1 accel=$2 rc=0 qpid
	: >"$work/out.log"
	run_qemu "$vmmode" "$accel" "$timeout_s" &
	qpid=$!
	tail -n +1 --pid="$qpid" -F "$work/out.log" 2>/dev/null | tr -d '\r' |
		sed -u -e '/^=== vaccel: \(kmemleak\|dmesg\) begin/,$d' \
			-e '/^=== vaccel: file begin/,/^=== vaccel: file end/d' -e '/^=== vaccel: /d'
	wait "$qpid" || rc=$?
	return $rc
}

# --- checks after a run ---------------------------------------------------


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

	if [ "$kernel" = debug ]; then
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

	# Allowed taints: O (bit 12, out-of-tree) and E (bit 13, unsigned).
	taint=$(sed -n 's/^=== vaccel: tainted \([0-9]*\)$/\1/p' "$work/out.clean")
	if [ -n "$taint" ] && [ $((taint & ~((1 << 12) | (1 << 13)))) -eq 0 ]; then
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
accel=$(qemu_accel_args)
info "booting Linux $krel ($kernel) under QEMU (${accel%% -cpu*}), mode $mode"

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
	# shellcheck disable=SC2086
	qemu-system-x86_64 $accel -m "${VACCEL_VM_MEM:-3G}" -smp 2 -display none -no-reboot \
		-nodefaults -kernel "$vmlinuz" -initrd "$work/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 $extra_args vmmode=shell vaccel_args=\"${VACCEL_ARGS:-}\"" \
		-serial mon:stdio
	;;
*)
	die "usage: vm.sh test|run|bench|fuzz|shell"
	;;
esac
