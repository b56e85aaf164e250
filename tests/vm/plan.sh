# SPDX-License-Identifier: GPL-2.0-only
#
# plan.sh - the VM test plan, run by the dev VM's /init (busybox sh, root).
#
# Loads the module with several topologies and runs the test programs
# against each.  Every check prints one line, `ok <name>` or
# `not ok <name>: <why>`, which scripts/vm.sh counts and numbers into a TAP
# stream (tap_stream of scripts/lib.sh: the guest has no numbering of its
# own, so that a program's own lines and vt_ok's share one count); other
# lines become `#` comments there.  The test programs
# read the topology they should see from VT_DEVICES, VT_COMPUTE, VT_COPY
# and VT_VA_BITS, and the scheduling parameters from VT_TIMEOUT_MS,
# VT_TIMESLICE_MS and VT_GRANULARITY, which vt_load sets.

KO=/vaccel/vaccel.ko

vt_ok() { echo "ok $1"; }
vt_not_ok() { echo "not ok $1: $2"; }

# vt_check NAME COMMAND...: a test that passes when COMMAND succeeds.
vt_check() {
	name=$1
	shift
	if out=$("$@" 2>&1); then
		vt_ok "$name"
	else
		vt_not_ok "$name" "$(echo "$out" | tail -n 3 | tr '\n' ' ')"
	fi
}

# vt_load [PARAM=VALUE...]: load the module, export the expected topology.
# On the debug kernel (KASAN, KCOV) the engines run some ten to thirty
# times slower: a load that does not set them gets a hang timeout of 20 s
# instead of 2 s and a time limit of 5 min instead of 30 s, so that long
# workgroups and kernels are not taken for hangs.  The KCSAN kernel is
# slower still: four times those, and four times the tests' own waits for
# work that must complete (VT_SLOW).
vt_load() {
	VT_DEVICES=1 VT_COMPUTE=2 VT_COPY=1 VT_VA_BITS=48 VT_SINGLE_USE=0
	VT_TIMEOUT_MS=2000 VT_TIMESLICE_MS=10 VT_GRANULARITY=
	VT_DEVICE_MEM_MB=256 VT_COST_PEER_NS=0 VT_SLOW=1
	topo="$*"
	if [ -e /sys/kernel/debug/kcsan ]; then
		VT_SLOW=4
		set -- timeout_ms=80000 time_limit_ms=1200000 "$@"
	elif [ -e /sys/kernel/debug/kmemleak ]; then
		set -- timeout_ms=20000 time_limit_ms=300000 "$@"
	fi
	for p in "$@"; do
		case "$p" in
		devices=*) VT_DEVICES=${p#*=} ;;
		compute_engines=*) VT_COMPUTE=${p#*=} ;;
		copy_engines=*) VT_COPY=${p#*=} ;;
		va_bits=*) VT_VA_BITS=${p#*=} ;;
		single_use=*) VT_SINGLE_USE=${p#*=} ;;
		timeout_ms=*) VT_TIMEOUT_MS=${p#*=} ;;
		timeslice_ms=*) VT_TIMESLICE_MS=${p#*=} ;;
		preempt_granularity=*) VT_GRANULARITY=${p#*=} ;;
		device_mem_mb=*) VT_DEVICE_MEM_MB=${p#*=} ;;
		cost_peer_ns=*) VT_COST_PEER_NS=${p#*=} ;;
		esac
	done
	export VT_DEVICES VT_COMPUTE VT_COPY VT_VA_BITS VT_SINGLE_USE
	export VT_TIMEOUT_MS VT_TIMESLICE_MS VT_GRANULARITY VT_DEVICE_MEM_MB
	export VT_COST_PEER_NS VT_SLOW
	vt_check "plan.load(${topo:-defaults})" insmod $KO "$@"
}

# vt_load_fails PARAM=VALUE...: the module must refuse these parameters
# with EINVAL and leave nothing behind.
vt_load_refused() {
	if insmod $KO "$@" 2>/dev/null; then
		rmmod vaccel
		vt_not_ok "plan.refuse($*)" "insmod accepted invalid parameters"
	elif [ -e /sys/module/vaccel ] || [ -e /dev/accel/accel0 ]; then
		vt_not_ok "plan.refuse($*)" "a failed load left the module or a device behind"
	elif ! dmesg | tail -n 5 | grep -q "vaccel: invalid topology"; then
		vt_not_ok "plan.refuse($*)" "no message naming the parameter"
	else
		vt_ok "plan.refuse($*)"
	fi
}

# vt_run PROGRAM [ARGS...]: run a test program; its lines are the results.
# A program that dies without reporting counts as a failure.
# Copies a file of the guest to the host: vm.sh writes it to
# $VACCEL_CACHE/vm/<kernel>/<mode>/files/NAME.
vt_export() {
	[ -f "$2" ] || return 0
	echo "=== vaccel: file begin $1"
	gzip -c "$2" | base64
	echo "=== vaccel: file end"
}

# Runs a test program; says how long it took, for testing.rst's table.
vt_run() {
	prog=$1
	shift
	t0=$(cut -d. -f1 /proc/uptime)
	if ! "/vaccel/bin/$prog" "$@"; then
		echo "# $prog exited with failures"
	fi
	echo "# time: $prog $* $(($(cut -d. -f1 /proc/uptime) - t0)) s"
}

# vt_unload: unload, and check nothing is left.
vt_unload() {
	if ! rmmod vaccel 2>/tmp/rmmod.err; then
		vt_not_ok "plan.unload(${topo:-defaults})" "rmmod: $(cat /tmp/rmmod.err)"
		return
	fi
	if [ -e /sys/module/vaccel ]; then
		vt_not_ok "plan.unload(${topo:-defaults})" "/sys/module/vaccel still exists"
	elif ls /dev/accel/accel* >/dev/null 2>&1; then
		vt_not_ok "plan.unload(${topo:-defaults})" "device nodes left: $(ls /dev/accel)"
	elif ls /sys/bus/platform/devices/ | grep -q '^vaccel'; then
		vt_not_ok "plan.unload(${topo:-defaults})" "platform devices left"
	else
		vt_ok "plan.unload(${topo:-defaults})"
	fi
}

run_all() {
	vt_run test_devices
	vt_run test_query "$@"
	vt_run test_libvaccel
}

# Execution: contexts, packets, submission.
run_execution() {
	vt_run test_context
	vt_run test_packets
	vt_run test_submit
	vt_run test_syncobj
	vt_run test_queue
	vt_run test_async_bind
	vt_run test_stress
	vt_run test_kill
}

# Scheduling with the default parameters: bands, preemption inside long
# packets, time slices, CAP_SYS_NICE, granularity, resets from debugfs.
run_scheduling() {
	vt_run test_sched params high_overtakes_low bands_in_strict_order \
		preempted_copy_fill_exact equal_contexts_share_fairly \
		priority_needs_cap_sys_nice granularity force_reset_engine \
		force_reset_device debugfs_control_errors \
		destroy_behind_completed_buffer destroy_during_forced_preemption \
		destroy_during_reset
}

# Compute: kernels run by DISPATCH, their faults, their preemption at
# instructions; the infinite loop is on the short-timeout load below.
# Then kernels in C through libvaccel: the toolchain, the loader, the
# launch and the examples' kernels, and the fault records of failed ones.
run_compute() {
	vt_run test_dispatch global_ids_partial_workgroups ids_in_three_dimensions \
		barrier_and_local_memory atomics_global_and_local \
		fused_multiply_add_double fault_illegal_instruction \
		fault_compressed_instruction fault_ecall \
		fault_unknown_and_read_only_csr fault_misaligned_atomic \
		fault_unmapped_store fault_fetch_from_no_exec \
		fault_spares_other_contexts malformed_dispatches \
		dispatch_refused_on_copy_engine \
		preempted_at_instructions_bit_identical instructions_counted \
		limits_reported group_range_runs_exactly_its_workgroups \
		group_ranges_compose_the_grid group_range_malformed \
		group_range_preempted_bit_identical
	vt_run test_cu
	vt_run test_kernels
	vt_run test_opencl_c
	vt_run test_opencl_lib
	vt_run test_api
	vt_run test_libvaccel_fault
	vt_run test_libvaccel_host_events
	vt_run test_toolchain
}

# Memory: buffers, VM_BIND, sharing, and nothing left behind.  Arguments
# go to test_bo (-handle_limit: the per-file limits have a load of their
# own, lowered, as 65536 BOs take minutes on the debug kernel).
run_memory() {
	vt_run test_bo "$@"
	vt_run test_vm_bind
	vt_run test_prime
	vt_run test_foreign
	vt_run test_libvaccel_mem
	vt_run test_mem_leak
}

# vt_readme_load: the README's "Loading the module on a real machine" run
# as written (vm.sh copies its commands to /vaccel/readme-load.sh), after
# every module /init loaded is unloaded: its modprobe must find vaccel's
# dependencies through modules.dep, its insmod load the module with the
# parameters it gives, and vaccel-info list the devices.  Its `make` is
# the host's step; the build tree's paths it names are linked to the
# guest's copies.  /init's modules are loaded again at the end.
vt_readme_load() {
	name=docs.readme_load_module
	script=/vaccel/readme-load.sh
	ko=$(sed -n 's/^insmod \([^ ]*vaccel\.ko\).*/\1/p' $script)
	ndev=$(sed -n 's/^insmod .* devices=\([0-9]*\).*/\1/p' $script)
	if [ -z "$ko" ] || ! grep -q '^modprobe ' $script; then
		vt_not_ok $name "no modprobe and insmod lines in the README's section"
		return
	fi
	# umd/bin may be there already, made for the libraries' paths.
	mkdir -p "${ko%/*}/umd/bin"
	ln -sf $KO "$ko"
	for f in /vaccel/bin/*; do
		ln -sf "$f" "${ko%/*}/umd/bin/"
	done
	for m in $(sed '1!G;h;$!d' /vaccel/modules.order); do
		rmmod "$m" 2>/dev/null
	done
	left=
	for m in $(cat /vaccel/modules.order); do
		grep -q "^$m " /proc/modules && left="$left $m"
	done
	if [ -n "$left" ]; then
		vt_not_ok $name "could not unload$left before the commands"
	elif ! out=$(grep -v '^make' $script | sh -e 2>&1); then
		vt_not_ok $name "$(echo "$out" | tail -n 3 | tr '\n' ' ')"
	elif [ ! -e /sys/module/vaccel ]; then
		vt_not_ok $name "the commands succeeded but vaccel is not loaded"
	elif [ -n "$ndev" ] && [ "$(ls /dev/accel | grep -c '^accel')" != "$ndev" ]; then
		vt_not_ok $name "$(ls /dev/accel | tr '\n' ' ')where devices=$ndev"
	elif ! echo "$out" | grep -q accel0; then
		vt_not_ok $name "vaccel-info did not list accel0: $(echo "$out" | tail -n 2 | tr '\n' ' ')"
	else
		vt_ok $name
	fi
	rmmod vaccel 2>/dev/null
	for m in $(cat /vaccel/modules.order); do
		grep -q "^$m " /proc/modules || insmod "/vaccel/modules/$m.ko"
	done
}

# vt_samples: the commands whose output the README and Documentation show,
# run with the module loaded as `make run` loads it; their output goes to
# the log for tests/docs/samples.py, which compares the samples with it.
vt_samples() {
	for cmd in vaccel-info vaccel-sample example-hello example-vadd \
		   example-uapi example-share; do
		echo "sample: \$ $cmd"
		if out=$($cmd 2>&1); then
			vt_ok "sample.run($cmd)"
		else
			vt_not_ok "sample.run($cmd)" "exit status $?"
		fi
		echo "$out" | sed 's/^/sample| /'
	done
}

# The smoke subset (plan=smoke on the kernel command line, vm.sh's
# VACCEL_VM_PLAN=smoke): what `make check` runs on the stock kernel, which
# users load, after the whole plan ran on the debug kernel.  One load of
# each kind of work: queries, memory, submission, scheduling, compute and
# its fault records, drm.debug's explanations, teardown.
if [ "${plan:-full}" = smoke ]; then
	vt_load
	run_all
	vt_samples
	vt_run test_bo
	vt_run test_vm_bind
	vt_run test_prime
	vt_run test_foreign
	vt_run test_submit
	vt_run test_syncobj
	vt_run test_kill
	vt_run test_sched params high_overtakes_low preempted_copy_fill_exact
	vt_run test_dispatch global_ids_partial_workgroups barrier_and_local_memory \
		fault_unmapped_store preempted_at_instructions_bit_identical
	vt_run test_cu
	vt_run test_kernels
	vt_run test_api
	vt_run test_libvaccel_fault
	vt_run test_toolchain
	vt_run test_ioctl_dbg
	vt_run test_mem_leak
	vt_unload
	vt_load
	vt_run test_teardown
	vt_unload
	vt_load timeout_ms=300
	vt_run test_trace
	vt_unload
	vt_readme_load
	exit 0
fi

# The default topology: one device, 2 compute, 1 copy, 48-bit VA.
vt_load
run_all
run_memory -handle_limit
vt_run test_isolation
vt_run test_limits -mapping_limit
vt_run test_ioctl_dbg
run_execution
run_scheduling
run_compute
# vaccel-top: batch and under tmux, against a busy and an idle process.
vt_run test_top
vt_run test_unplug
vt_unload

# Device memory: a small segment, so that two processes oversubscribe it.
vt_load device_mem_mb=16
vt_run test_devmem
# Placement against execution, faults and exit, through the hold points.
vt_run test_placement
vt_unload
vt_load cost_system_ns=1000000 dispatch_slice=1048576 compute_units=1
vt_run test_placement cost_debt_stays_with_its_buffer
vt_unload

# Peer mappings between two devices; then the cost model's charges.
vt_load devices=2 device_mem_mb=16
vt_run test_peer
vt_unload
vt_load devices=2 device_mem_mb=16 cost_peer_ns=20000
vt_run test_peer cost_model_charges_peer_accesses traffic_counted_by_class
vt_unload

# Lifetimes: contexts, fences and devices that outlive their file, and the
# module's unload after each kind of teardown.  Every case unloads the
# module and loads it again with the defaults.
vt_load
vt_run test_teardown
vt_unload

# Robustness: 200 processes killed at random points, then the soak, SOAK_S
# seconds of mixed load from several processes (soak_s on the kernel
# command line, 60 by default), with faults and hangs detected quickly.
vt_load timeout_ms=300
vt_run test_soak abrupt_exit
export VT_SOAK_S=${soak_s:-60}
vt_run test_soak soak
vt_unload

# Hangs with a short timeout: detection, bans, recovery of the innocent,
# and time off the engine that never counts.
vt_load timeout_ms=300
vt_run test_sched params hang_detected_and_recovered time_off_engine_never_counts
vt_run test_dispatch infinite_loop_recovered
vt_run test_libvaccel_fault hang_in_kernel hang_in_wait_mem
vt_unload

# Device coredumps: every kind of event dumped and decoded, the bounds,
# the decoder on bad input; the time limit's dump; then the device unbound
# and the module unloaded with a dump pending.
vt_load timeout_ms=300
vt_run test_coredump
vt_unload

vt_load time_limit_ms=1000
vt_run test_coredump time_limit_dumped
vt_unload

vt_load
vt_run test_coredump unbind_with_dump_pending unload_with_dump_pending
vt_unload

# The time limit: buffers that progress for ever are stopped all the same.
vt_load time_limit_ms=1000
vt_run test_packets time_limit_stops_many_short_packets
vt_run test_dispatch time_limit_stops_endless_grid
vt_run test_libvaccel_fault time_limit_in_kernel
vt_unload

# The trace events and vaccel-trace: a known scenario (a preemption, a
# fault, a hang and its recovery) recorded and checked; the host checks
# the exported JSON trace against the format's rules and draws it.
vt_load timeout_ms=300
vt_run test_trace
vt_export trace-scenario.events /tmp/vaccel-trace-test/scenario.events
vt_export trace-scenario.json /tmp/vaccel-trace-test/scenario.json
vt_unload

# Escalation to a device reset, each rule on a load without earlier
# hangs: three hangs in 30 s, and a hang again before the engine recovered.
vt_load timeout_ms=300 timeslice_ms=5
vt_run test_sched params escalation_to_device_reset
vt_unload

vt_load timeout_ms=300
vt_run test_sched hang_again_before_recovery
vt_unload

# Preemption between DMA buffers only, on every engine or on some.
vt_load preempt_granularity=0
vt_run test_sched params granularity
vt_run test_dispatch group_range_preempted_bit_identical
vt_unload

vt_load preempt_granularity=0,1,1
vt_run test_sched granularity
vt_run test_dispatch group_range_preempted_bit_identical
vt_unload

# Compute units: the same results with one, two and four (more units
# than vCPUs), preempted at the workgroup granularity with units in flight.
for units in 1 2 4; do
	vt_load compute_units=$units
	vt_run test_cu
	vt_run test_dispatch preempted_at_instructions_bit_identical \
		group_range_preempted_bit_identical
	vt_unload
done
vt_load preempt_granularity=2 compute_units=2
vt_run test_cu preempted_bit_identical fault_with_units_in_flight
vt_unload

# The shortest dispatch slice: a check every 64 instructions.
vt_load dispatch_slice=64
vt_run test_dispatch barrier_and_local_memory atomics_global_and_local \
	preempted_at_instructions_bit_identical group_range_preempted_bit_identical
vt_unload

# Between workgroups: one value for all, copy engines take packets.
vt_load preempt_granularity=2
vt_run test_sched params granularity
vt_run test_dispatch barrier_and_local_memory group_range_preempted_bit_identical
vt_unload

# Two devices share buffers as dma-bufs; a small VA space still works.
vt_load devices=2 va_bits=36
run_memory -handle_limit
vt_unload

# The per-file limits, lowered: reaching 65536 BO handles or mappings
# takes minutes on the debug kernel, reaching 4096 seconds; the query
# must report the parameters.
vt_load max_bos_per_file=4096 max_mappings=4096
vt_run test_bo handle_limit
vt_run test_limits mapping_limit
vt_unload

# The unified device of libvaccel over four devices; then the examples,
# unchanged, on unified devices of 1, 2 and 4 members (VACCEL_UNIFIED).
vt_load devices=4
vt_run test_unified
for members in 0 0,1 0,1,2,3; do
	for e in vadd saxpy matmul reduce; do
		vt_check "unified.example_$e($members)" \
			env VACCEL_UNIFIED=$members example-$e
	done
done
# The examples without a kernel, on the first and the last device: a UMD
# on the raw uapi, and two processes sharing a dma-buf at two priorities;
# and hello, the first program, built as a user builds it.
for d in 0 3; do
	vt_check "example.uapi(-d $d)" example-uapi -d $d
	vt_check "example.share(-d $d)" example-share -d $d
	vt_check "example.hello($d)" sh -c "example-hello $d >/tmp/hello.out 2>&1 &&
		grep -qx 'hello from work-item 0 of 1000' /tmp/hello.out &&
		grep -qx 'hello: 1000 squares from /dev/accel/accel$d, all right' /tmp/hello.out ||
		{ cat /tmp/hello.out; exit 1; }"
done
vt_unload

# Non-default topologies, including the smallest and the largest; the
# queries from many processes at once once more, on the largest.
vt_load devices=3 compute_engines=4 copy_engines=0 va_bits=39
run_all -concurrent_processes
vt_run test_top devices_listed batch_busy_and_idle
vt_unload

vt_load devices=8 compute_engines=8 copy_engines=8 va_bits=32
run_all
vt_run test_top devices_listed
vt_unload

vt_load compute_engines=1 copy_engines=2 va_bits=40
run_all -concurrent_processes
vt_unload

# A Single Use device: one open file at a time.
vt_load single_use=1 devices=2
vt_run test_single_use
vt_run test_query
vt_unload

# Out-of-range parameters are refused.
vt_load_refused devices=0
vt_load_refused devices=9
vt_load_refused compute_engines=0
vt_load_refused compute_engines=9
vt_load_refused compute_units=9
vt_load_refused copy_engines=9
vt_load_refused va_bits=31
vt_load_refused va_bits=49
vt_load_refused timeslice_ms=0
vt_load_refused timeslice_ms=1001
vt_load_refused timeout_ms=9
vt_load_refused timeout_ms=600001
vt_load_refused preempt_granularity=4
vt_load_refused preempt_granularity=1,1
vt_load_refused preempt_granularity=3,3,2
vt_load_refused time_limit_ms=99
vt_load_refused time_limit_ms=86400001
vt_load_refused dispatch_slice=63
vt_load_refused dispatch_slice=1048577
vt_load_refused cost_system_ns=1000001
vt_load_refused cost_peer_ns=1000001
vt_load_refused max_bos_per_file=1023
vt_load_refused max_mappings=65537

# The debug kernel's own checks: systematic fault injection (failslab and
# fail_usercopy through fail-nth), then vaccel-fuzz: its regression corpus
# and a short campaign from a fixed seed, without feedback so that the
# programs are the same on every run.
if [ -d /sys/kernel/debug/failslab ]; then
	# A small segment, which the eviction case fills.
	vt_load device_mem_mb=8
	vt_run test_fail_nth
	vt_run test_fail_nth unbind_busy module_unload
	vt_run test_fail_nth summary
	vt_unload
fi
# The driver's fault-injection points: its pages, the allocations of the
# engines' threads and workers, and the probe's steps, which fail-nth on a
# test's task cannot reach.
if [ -d /sys/kernel/debug/vaccel/fail_page ]; then
	vt_load
	vt_run test_fail_points
	vt_run test_fail_points probe_steps
	vt_unload
fi
if [ -e /sys/kernel/debug/kcov ]; then
	vt_load devices=2 timeout_ms=200 time_limit_ms=1000
	if ls /vaccel/fuzz-regressions/*.prog >/dev/null 2>&1; then
		vaccel-fuzz replay /vaccel/fuzz-regressions/*.prog
	fi
	vaccel-fuzz run --time "${fuzz_check_s:-60}" --seed 1 --no-feedback
	vt_unload
fi

# Load and unload repeatedly: nothing may accumulate or leak.
i=0
reload_ok=1
while [ $i -lt 10 ]; do
	insmod $KO devices=2 || reload_ok=0
	rmmod vaccel || reload_ok=0
	i=$((i + 1))
done
if [ $reload_ok = 1 ] && [ ! -e /sys/module/vaccel ]; then
	vt_ok "plan.reload_10_times"
else
	vt_not_ok "plan.reload_10_times" "insmod or rmmod failed"
fi
