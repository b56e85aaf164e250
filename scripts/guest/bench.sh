# SPDX-License-Identifier: GPL-2.0-only
#
# The benchmarks of `make bench`, run inside the dev VM.  Each prints a
# table and closes with `bench.<name> <value>` lines; ratios are against a
# reference measured in the same boot, never against absolute times.

insmod /vaccel/vaccel.ko || exit 1
for b in /vaccel/bin/bench_*; do
	[ -x "$b" ] || continue
	echo "=== $(basename "$b")"
	"$b"
	echo
done
rmmod vaccel
