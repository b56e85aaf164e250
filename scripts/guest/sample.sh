# SPDX-License-Identifier: GPL-2.0-only
#
# The sample workload of `make run`, run inside the dev VM: loads the module
# and shows what the virtual accelerator offers: the device, queues on the
# copy and compute engines, and the examples' kernels (umd/examples), each
# checked against the CPU and timed by the engine.

echo "\$ insmod vaccel.ko"
insmod /vaccel/vaccel.ko || exit 1
echo "\$ ls -l /dev/accel"
ls -l /dev/accel
echo
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
echo "\$ rmmod vaccel"
rmmod vaccel
