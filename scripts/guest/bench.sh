# SPDX-License-Identifier: GPL-2.0-only
#
# The benchmarks of `make bench`, run inside the dev VM.  Each prints a
# table and closes with `bench.<name> <value>` lines; ratios are against a
# reference measured in the same boot, never against absolute times.
#
# Three devices: bench_sched spreads its hangs over them, two per device,
# since a third hang within 30 s on one device escalates to a device reset.
# The other benchmarks use the first device only.

insmod /vaccel/vaccel.ko devices=3 || exit 1
for b in /vaccel/bin/bench_*; do
	[ -x "$b" ] || continue
	echo "=== $(basename "$b")"
	case $b in
	# It reloads the module to compare dispatch slices.
	*/bench_compute) "$b" /vaccel/vaccel.ko devices=3 ;;
	*) "$b" ;;
	esac
	echo
done
rmmod vaccel
