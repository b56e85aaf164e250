# SPDX-License-Identifier: GPL-2.0-only
#
# The sample workload of `make run`, run inside the dev VM: loads the module
# and shows what the virtual accelerator offers: the device, queues on the
# copy and compute engines, and the examples' kernels (umd/examples), each
# checked against the CPU and timed by the engine.  vaccel-trace records
# it; the events go to the host (vm.sh), which draws the timeline.

if [ "$1" = workload ]; then
	echo "\$ vaccel-info"
	vaccel-info
	echo
	echo "\$ vaccel-sample"
	vaccel-sample || echo "vaccel-sample failed"
	echo
	for e in vadd saxpy matmul reduce; do
		echo "\$ example-$e"
		example-$e || echo "example-$e failed"
		echo
	done
	exit 0
fi

echo "\$ insmod vaccel.ko"
insmod /vaccel/vaccel.ko || exit 1
echo "\$ ls -l /dev/accel"
ls -l /dev/accel
echo
echo "\$ vaccel-trace record --events /tmp/sample.events -- (the workload below)"
echo
vaccel-trace record -q --no-fences --events /tmp/sample.events -- \
	sh /vaccel/sample.sh workload || echo "vaccel-trace failed"
if [ -f /tmp/sample.events ]; then
	echo "=== vaccel: file begin sample.events"
	gzip -c /tmp/sample.events | base64
	echo "=== vaccel: file end"
fi
echo "\$ rmmod vaccel"
rmmod vaccel
