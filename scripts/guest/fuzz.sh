#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fuzz.sh - the dev VM's fuzzing session (vm.sh fuzz, `make fuzz`): loads
# vaccel with two devices, short hang and time limits and a segment of
# device memory of 8 MiB each, which the programs' device BOs (of up to
# 3 MiB) fill, so that they evict each other; then runs
# vaccel-fuzz for fuzz_s seconds from seed fuzz_seed (the kernel command
# line sets both), with the corpus the host kept from earlier sessions.
# vaccel-fuzz prints its own ok/not ok line, its figures and its findings.

insmod /vaccel/vaccel.ko devices=2 timeout_ms=200 time_limit_ms=1000 device_mem_mb=8 || {
	echo "not ok fuzz.load: insmod failed"
	exit 0
}
mkdir -p /tmp/corpus /tmp/findings
[ -d /vaccel/fuzz-corpus ] && cp /vaccel/fuzz-corpus/*.prog /tmp/corpus/ 2>/dev/null
# shellcheck disable=SC2086
vaccel-fuzz run --time "${fuzz_s:-60}" --seed "${fuzz_seed:-0}" \
	--corpus /tmp/corpus --findings /tmp/findings --dump $fuzz_args
rmmod vaccel || echo "not ok fuzz.unload: rmmod failed"
