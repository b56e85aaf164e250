# SPDX-License-Identifier: GPL-2.0-only
#
# The benchmarks of `make bench`, run inside the dev VM.  Each prints a
# table and closes with `bench.<name>.<figure> <value>[ PASS|FAIL]` lines;
# ratios are against a reference measured in the same boot, never against
# absolute times.
#
# Three devices: bench_sched spreads its hangs over them, two per device,
# since a third hang within 30 s on one device escalates to a device reset.
# The other benchmarks use the first device only.
#
# The results as JSON: each benchmark appends its figures to the file
# BENCH_JSON names (bench_report() of tests/bench/bench.h), one object a
# line; this script gathers them, with each benchmark's exit status, time
# and error and the context of the run (date, machine, kernel, module
# parameters), into results.json, and exports it between `=== vaccel:
# file` markers, which vm.sh decodes into $VACCEL_CACHE/bench/results.json.
# Documentation/testing.rst describes the format.
#
# The environment may set:
#   BENCH_ONLY  the benchmarks to run, such as "bench_migrate bench_rt"
#               (default: every /vaccel/bin/bench_*); vm.sh passes its
#               own BENCH_ONLY as bench_only on the kernel command line
#   BENCH_BIN   where the benchmarks are (default /vaccel/bin)
#   BENCH_KO    the module to load (default /vaccel/vaccel.ko; empty: load
#               nothing, the host test of the JSON does so)
#   BENCH_OUT   the directory of the results (default /tmp/bench)

only=${BENCH_ONLY:-${bench_only:-}}
bin=${BENCH_BIN:-/vaccel/bin}
ko=${BENCH_KO-/vaccel/vaccel.ko}
out=${BENCH_OUT:-/tmp/bench}
params="devices=3"

# json_str TEXT: TEXT as a JSON string; a tab becomes a space, other control
# characters are dropped.
json_str() {
	printf '"%s"' "$(printf '%s' "$1" | tr '\t' ' ' | tr -d '\000-\037' |
		sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"
}

# json_int TEXT: TEXT if it is a decimal integer, else null.
json_int() {
	case "$1" in
	'' | *[!0-9]*) printf 'null' ;;
	*) printf '%s' "$1" ;;
	esac
}

mkdir -p "$out" || exit 1
rm -f "$out"/*.metrics "$out"/*.log "$out"/*.status "$out"/*.time "$out/results.json"
if [ -n "$ko" ]; then
	insmod "$ko" $params || exit 1
fi

names=
for b in "$bin"/bench_*; do
	[ -x "$b" ] || continue
	name=$(basename "$b")
	if [ -n "$only" ]; then
		case " $only " in
		*" $name "*) ;;
		*) continue ;;
		esac
	fi
	names="$names $name"
	echo "=== $name"
	: >"$out/$name.metrics"
	# Each vCPU's TCG TLB sized alike, whatever ran before (tests/bench/tcg_tlb_warm.h).
	if [ -x "$bin/tcg_tlb_warm" ]; then
		"$bin/tcg_tlb_warm" || echo "bench.sh: tcg_tlb_warm failed; the figures may vary"
	fi
	t0=$(date +%s)
	{
		case $b in
		# They reload the module: dispatch slices, compute units.
		*/bench_compute | */bench_launch | */bench_unified)
			BENCH_JSON=$out/$name.metrics "$b" "$ko" $params 2>&1 ;;
		*) BENCH_JSON=$out/$name.metrics "$b" 2>&1 ;;
		esac
		echo $? >"$out/$name.status"
	} | tee "$out/$name.log"
	echo $(($(date +%s) - t0)) >"$out/$name.time"
	echo
done
if [ -n "$ko" ]; then
	rmmod vaccel
fi

# results.json: the context, then each benchmark with its figures.
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
{
	printf '{\n  "format": "vaccel-bench 1",\n'
	printf '  "date": %s,\n' "$(json_str "$(date -u +%Y-%m-%dT%H:%M:%SZ)")"
	printf '  "machine": {"arch": %s, "cpu": %s, "cpus": %s, "memory_kib": %s},\n' \
		"$(json_str "$(uname -m)")" "$(json_str "$cpu")" \
		"$(json_int "$(grep -c '^processor' /proc/cpuinfo)")" \
		"$(json_int "$(sed -n 's/^MemTotal: *\([0-9]*\) kB$/\1/p' /proc/meminfo)")"
	printf '  "kernel": {"release": %s, "version": %s},\n' \
		"$(json_str "$(uname -r)")" "$(json_str "$(uname -v)")"
	printf '  "module": {"path": %s, "parameters": %s},\n' \
		"$(json_str "$ko")" "$(json_str "$params")"
	printf '  "benchmarks": ['
	sep=
	for name in $names; do
		err=$(grep -m 1 '^not ok ' "$out/$name.log")
		printf '%s\n    {"name": %s, "exit_status": %s, "seconds": %s, "error": %s,\n' \
			"$sep" "$(json_str "$name")" \
			"$(json_int "$(cat "$out/$name.status" 2>/dev/null)")" \
			"$(json_int "$(cat "$out/$name.time")")" \
			"$(if [ -n "$err" ]; then json_str "$err"; else printf null; fi)"
		printf '     "metrics": ['
		# Whole lines only: a benchmark that died in the middle of
		# one leaves no half object.
		grep '^{.*}$' "$out/$name.metrics" |
			awk 'NR > 1 { printf "," } { printf "\n        %s", $0 }'
		printf ']}'
		sep=,
	done
	printf '\n  ],\n'
	printf '  "passed": %s, "failed": %s, "untargeted": %s\n}\n' \
		"$(cat "$out"/*.metrics 2>/dev/null | grep -c '"pass": true')" \
		"$(cat "$out"/*.metrics 2>/dev/null | grep -c '"pass": false')" \
		"$(cat "$out"/*.metrics 2>/dev/null | grep -c '"pass": null')"
} >"$out/results.json"

echo "=== vaccel: file begin results.json"
gzip -c "$out/results.json" | base64
echo "=== vaccel: file end"
