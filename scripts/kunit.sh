#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kunit.sh - run the vaccel KUnit suites under UML with lockdep.
#
# Overlays drivers/accel/vaccel (with tests/kunit as its tests/ directory)
# and the uapi header onto the linux-source-6.12 tree extracted in the cache,
# hooks the driver's Kconfig and Makefile into drivers/accel, and runs
# `kunit.py run --arch=um` with tests/kunit/.kunitconfig.  The same driver
# sources build out of tree as vaccel.ko.
#
# Prints one `ok kunit.<suite>.<case>` or `not ok ...` line per case, then
# `kunit: N passed, N failed`; exits 1 if any case failed or none ran.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib.sh"
load_kernel_env

src=$VACCEL_CACHE/src/linux-source-6.12
build=$VACCEL_CACHE/kunit-build
out=$VACCEL_CACHE/kunit
mkdir -p "$out"

if [ ! -f "$src/Makefile" ]; then
	info "extracting $VACCEL_KSRC_TAR into $VACCEL_CACHE/src"
	mkdir -p "$VACCEL_CACHE/src"
	tar -xf "$VACCEL_KSRC_TAR" -C "$VACCEL_CACHE/src"
fi

# The overlay: cp -a keeps the timestamps, so unchanged files do not rebuild.
drv=$src/drivers/accel/vaccel
rm -rf "$drv"
cp -a "$root/drivers/accel/vaccel" "$drv"
mkdir -p "$drv/tests"
cp -a "$root"/tests/kunit/*.[ch] "$drv/tests/"
cp -a "$root"/uapi/drm/vaccel_*.h "$src/include/uapi/drm/"
grep -q 'drivers/accel/vaccel/Kconfig' "$src/drivers/accel/Kconfig" ||
	sed -i 's|^source "drivers/accel/qaic/Kconfig"|&\nsource "drivers/accel/vaccel/Kconfig"|' \
		"$src/drivers/accel/Kconfig"
grep -q 'vaccel/' "$src/drivers/accel/Makefile" ||
	echo 'obj-$(CONFIG_DRM_ACCEL_VACCEL)		+= vaccel/' >>"$src/drivers/accel/Makefile"

info "KUnit under UML (lockdep on): building in $build"
rc=0
(cd "$src" && python3 tools/testing/kunit/kunit.py run --arch=um \
	--kunitconfig="$root/tests/kunit/.kunitconfig" \
	--build_dir="$build" --jobs="$(nproc)" \
	--json="$out/results.json" "$@") >"$out/kunit.log" 2>&1 || rc=$?

# One line per case from the JSON report.
python3 - "$out/results.json" >"$out/results" <<'PY' || true
import json, sys
try:
    data = json.load(open(sys.argv[1]))
except Exception:
    sys.exit(0)
def walk(node, prefix):
    for s in node.get("sub_groups", []):
        walk(s, prefix + [s["name"]] if s.get("name") else prefix)
    for c in node.get("test_cases", []):
        name = ".".join(["kunit"] + prefix + [c["name"]])
        st = c.get("status", "")
        if st == "PASS":
            print("ok " + name)
        elif st == "SKIP":
            print("# skip " + name)
        else:
            print("not ok %s: %s" % (name, st))
walk(data.get("tests", data), [])
PY

# The UML kernel's own log must be free of warnings and lock reports.
if [ -f "$build/test.log" ]; then
	bad=$(kernel_log_problems <"$build/test.log")
	if [ -z "$bad" ]; then
		echo "ok kunit.kernel_log_clean" >>"$out/results"
	else
		echo "not ok kunit.kernel_log_clean: see $build/test.log" >>"$out/results"
		sed 's/^/    /' <<<"$bad" | head -n 20
	fi
fi

cat "$out/results"
passed=$(grep -c '^ok ' "$out/results" || true)
failed=$(grep -c '^not ok ' "$out/results" || true)
if [ "$rc" -ne 0 ] || [ "$passed" -eq 0 ]; then
	echo "not ok kunit.run: kunit.py exited $rc; the end of its log:"
	tail -n 40 "$out/kunit.log" | sed 's/^/    /'
	failed=$((failed + 1))
	echo "not ok kunit.run" >>"$out/results"
fi
echo "kunit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
