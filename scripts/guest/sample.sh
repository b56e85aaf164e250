# SPDX-License-Identifier: GPL-2.0-only
#
# The sample workload of `make run`, run inside the dev VM: loads the module
# and shows what the virtual accelerator offers: the device, queues on the
# copy and compute engines, and the examples' kernels (umd/examples), each
# checked against the CPU and timed by the engine.  vaccel-trace records
# it; the events go to the host (vm.sh), which draws the timeline.  Then,
# in a second VM, the OpenCL platform (sample.sh opencl, below).

# The OpenCL part, after the sample (`make run` starts it through vm.sh
# exec: clBuildProgram runs the host's clang, which the sample's initramfs
# has not): the platforms clinfo sees, a summary of vaccel's, and the vector
# add through OpenCL from C and from Python.  $2: the build tree's umd;
# OCL_ICD_VENDORS names its vendors directory, HOME is writable (the
# build cache of vaccel's ICD, pyopencl's).
if [ "$1" = opencl ]; then
	umd=$2
	echo "\$ clinfo -l"
	clinfo -l || echo "clinfo failed"
	echo
	echo "\$ clinfo | grep ... (a summary of the vaccel platform)"
	clinfo | grep -E '^  (Platform (Name|Version)|Device (Name|Version|OpenCL C Version)|Driver Version|Max compute units|Max work group size|(Global|Local) memory size) ' |
		awk '!seen[$0]++'
	echo
	echo "\$ example-cl-vadd"
	"$umd/bin/example-cl-vadd" || echo "example-cl-vadd failed"
	echo
	echo "\$ cl_vadd.py (pyopencl)"
	/usr/bin/python3 "$(dirname "$0")/../../umd/examples/cl_vadd.py" || echo "cl_vadd.py failed"
	exit 0
fi

if [ "$1" = workload ]; then
	echo "\$ vaccel-info"
	vaccel-info
	echo
	echo "\$ vaccel-sample"
	vaccel-sample || echo "vaccel-sample failed"
	echo
	for e in hello vadd saxpy matmul reduce; do
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
