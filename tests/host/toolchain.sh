# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# toolchain.sh - the host checks of the kernel toolchain beyond plain C
# modules: sourced by tests/host/run.sh after its vaccel_cc check, with
# ROOT, O, TMP, CC, UMD_O, VACCEL_CC, READELF, OBJDUMP, SAN, check(),
# expect_fail() and expect_out() defined.  See run.sh's list of checks.

TC=$TMP/toolchain
mkdir -p "$TC"

# tc_kernel FILE LINE...: a kernel source of these lines.
tc_kernel() {
	local f=$1
	shift
	printf '%s\n' '#include <vaccel_kernel.h>' "$@" >"$f"
}

# no_compressed MODULE: every instruction of the module is 4 bytes long.
no_compressed() {
	"$OBJDUMP" -d --mattr=+m,+a,+f,+d "$1" |
		awk -F'\t' 'NF > 1 && sub(/^ *[0-9a-f]+: /, "", $1) && split($1, b, " ") != 4 {
			bad = 1 } END { exit bad }' ||
		{ echo "$1: an instruction that is not 4 bytes long"; return 1; }
}

# -E, -S, -c on several sources, -x, -save-temps, sources and objects
# linked into one module.
vaccel_cc_modes() {
	local d=$TC/modes out
	mkdir -p "$d/st" "$d/obj"
	tc_kernel "$d/a.c" '#define TC_TWICE(x) ((x) * 2)' \
		'VACCEL_KERNEL(tc_a, int *o) { o[0] = TC_TWICE(o[1]); }'
	tc_kernel "$d/b.c" 'VACCEL_KERNEL(tc_b, int *o) { o[0] = 7; }'
	printf '%s\n' '	.text' '	.globl tc_asm' 'tc_asm:' '	li a0, 3' '	ret' >"$d/c.S"
	# -E: preprocessed, to standard output or -o.
	out=$("$VACCEL_CC" -E "$d/a.c") || { echo "-E failed"; return 1; }
	echo "$out" | grep -q '((o\[1\]) \* 2)' || { echo "-E: the macro is not expanded"; return 1; }
	echo "$out" | grep -q 'TC_TWICE' && { echo "-E: TC_TWICE left"; return 1; }
	echo "$out" | grep -q '__asm__(".globl __vaccel_kernel_" "tc_a"' ||
		{ echo "-E: VACCEL_KERNEL not expanded"; return 1; }
	{ "$VACCEL_CC" -E -o "$d/a.i" "$d/a.c" && grep -q '((o\[1\]) \* 2)' "$d/a.i"; } ||
		{ echo "-E -o: no preprocessed file"; return 1; }
	# -S: RV64 assembly, no compressed instructions, the kernel symbol.
	(cd "$d" && "$VACCEL_CC" -S a.c) || { echo "-S failed"; return 1; }
	grep -q 'rv64i2p0_m2p0_a2p0_f2p0_d2p0"' "$d/a.s" ||
		{ echo "-S: a.s is not RV64IMAFD assembly"; return 1; }
	{ grep -qE '^tc_a:' "$d/a.s" && grep -q '__vaccel_kernel_tc_a' "$d/a.s"; } ||
		{ echo "-S: no kernel in a.s"; return 1; }
	grep -qE '\bc\.[a-z]' "$d/a.s" && { echo "-S: compressed instructions"; return 1; }
	# -c of several sources, without -o: one RV64 object each.
	(cd "$d/obj" && "$VACCEL_CC" -c ../a.c ../b.c ../c.S) || { echo "-c a.c b.c c.S failed"; return 1; }
	for o in a b c; do
		{ "$READELF" -h "$d/obj/$o.o" | grep -q 'Type: *REL' &&
			"$READELF" -h "$d/obj/$o.o" | grep -q 'Machine: *RISC-V'; } ||
			{ echo "-c: $o.o is not an RV64 object"; return 1; }
	done
	"$READELF" -h "$d/obj/a.o" | grep -q 'Flags: *0x4, double-float ABI$' ||
		{ echo "-c: a.o is not double-float without RVC"; return 1; }
	expect_fail "-c -o with two sources" "takes one source" \
		"$VACCEL_CC" -c -o "$d/x.o" "$d/a.c" "$d/b.c" || return 1
	# A source, an object and assembly in one module.
	"$VACCEL_CC" -o "$d/mix.elf" "$d/a.c" "$d/obj/b.o" "$d/c.S" ||
		{ echo "a.c b.o c.S did not link"; return 1; }
	for s in __vaccel_kernel_tc_a __vaccel_kernel_tc_b tc_asm; do
		"$READELF" -s "$d/mix.elf" | grep -q " $s\$" || { echo "mix.elf: no $s"; return 1; }
	done
	# -x c: a C source of another suffix.
	cp "$d/b.c" "$d/b.kern"
	"$VACCEL_CC" -c -x c -o "$d/bk.o" "$d/b.kern" || { echo "-x c failed"; return 1; }
	expect_fail "unknown suffix" "not a C, C++, OpenCL C, assembly" \
		"$VACCEL_CC" -c -o "$d/bk.o" "$d/b.kern" || return 1
	# -save-temps: the intermediate files in the current directory, and
	# next to the output with =obj.
	(cd "$d/st" && "$VACCEL_CC" -save-temps -o m.elf ../a.c ../b.c) ||
		{ echo "-save-temps failed"; return 1; }
	for f in a.i a.bc a.s a.o b.i b.o m.elf; do
		[ -s "$d/st/$f" ] || { echo "-save-temps: no $f"; return 1; }
	done
	"$VACCEL_CC" -save-temps=obj -o "$d/obj/t.elf" "$d/a.c" ||
		{ echo "-save-temps=obj failed"; return 1; }
	{ [ -s "$d/obj/a.i" ] && [ -s "$d/obj/a.s" ] && [ -s "$d/obj/a.o" ]; } ||
		{ echo "-save-temps=obj: no a.i, a.s or a.o next to the output"; return 1; }
	cmp -s <("$READELF" -s "$d/st/m.elf" | grep -c __vaccel_kernel) <(echo 2) ||
		{ echo "-save-temps: the module has not both kernels"; return 1; }
	expect_fail "-S with -E" "cannot be used together" \
		"$VACCEL_CC" -S -E "$d/a.c" || return 1
	expect_fail "-save-temps=x" "takes cwd or obj" \
		"$VACCEL_CC" -save-temps=x "$d/a.c"
}

# A C++ kernel: templates, virtual calls, its plain name; what C++ cannot
# have on the device, refused with a message.
vaccel_cc_cxx() {
	local d=$TC/cxx
	mkdir -p "$d"
	cat >"$d/k.cpp" <<'EOF'
#include <vaccel_kernel.h>
namespace tc {
template <typename T> struct acc { T v; T add(T x) { v += x; return v; } };
struct op { virtual int f(int x) const = 0; };
struct triple : op { int f(int x) const override { return 3 * x; } };
static __attribute__((noinline)) int call(const op &o, int x) { return o.f(x); }
}
VACCEL_LOCAL int tc_tile[16];
VACCEL_KERNEL(tc_cxx, int *o)
{
	tc::acc<long> a{1};
	tc::triple t;
	tc_tile[0] = o[2];
	vaccel_barrier();
	o[0] = (int)a.add(o[1]) + tc::call(t, tc_tile[0]);
}
EOF
	"$VACCEL_CC" -Wall -Wextra -Werror -std=c++17 -o "$d/k.elf" "$d/k.cpp" ||
		{ echo "the C++ kernel did not build"; return 1; }
	"$READELF" -s "$d/k.elf" | grep -q ' FUNC .* tc_cxx$' ||
		{ echo "no plain tc_cxx function"; return 1; }
	"$READELF" -s "$d/k.elf" | grep -q ' __vaccel_kernel_tc_cxx$' ||
		{ echo "no __vaccel_kernel_tc_cxx"; return 1; }
	"$READELF" -s "$d/k.elf" | grep -q '_Z.*tc_cxx' && { echo "tc_cxx is mangled"; return 1; }
	"$READELF" -s "$d/k.elf" | grep -q ' _ZTVN2tc6tripleE$' ||
		{ echo "no virtual table (devirtualised?)"; return 1; }
	"$READELF" -r "$d/k.elf" | awk '/^0/ { print $3 }' | sort -u |
		grep -qvx R_RISCV_RELATIVE && { echo "relocations other than R_RISCV_RELATIVE"; return 1; }
	"$READELF" -l "$d/k.elf" | grep -q '0x60766c6d .*0x0100000000000000' ||
		{ echo "no local memory segment"; return 1; }
	no_compressed "$d/k.elf" || return 1
	"$VACCEL_CC" --cxxflags | grep -q -- '-march=rv64imafd .*-fno-exceptions -fno-rtti' ||
		{ echo "--cxxflags: $("$VACCEL_CC" --cxxflags)"; return 1; }
	# The compile command has the C++ flags.
	"$VACCEL_CC" -v -c -o "$d/k.o" "$d/k.cpp" 2>&1 | grep -q 'clang++.* -fno-exceptions -fno-rtti' ||
		{ echo "-v: clang++ without -fno-exceptions -fno-rtti"; return 1; }
	# Global constructors: refused by the linker script, explained.
	printf '%s\n' '#include <vaccel_kernel.h>' 'extern volatile int tc_seed;' \
		'struct S { int v; S() : v(tc_seed) {} };' 'volatile int tc_seed = 3;' 'static S s;' \
		'VACCEL_KERNEL(tc_c, int *o) { o[0] = s.v; }' >"$d/ctor.cpp"
	expect_fail "a global constructor" "global objects with constructors or destructors are not supported" \
		"$VACCEL_CC" -o "$d/ctor.elf" "$d/ctor.cpp" || return 1
	[ ! -e "$d/ctor.elf" ] || { echo "a refused module was left"; return 1; }
	printf '%s\n' '#include <vaccel_kernel.h>' \
		'VACCEL_KERNEL(tc_n, int *o) { int *p = new int(o[1]); o[0] = *p; }' >"$d/new.cpp"
	expect_fail "operator new" "no operator new or delete on the device" \
		"$VACCEL_CC" -o "$d/new.elf" "$d/new.cpp" || return 1
	# A pure virtual function: the runtime's __cxa_pure_virtual.
	printf '%s\n' '#include <vaccel_kernel.h>' \
		'struct B { B(); virtual int f() = 0; int g() { return f(); } };' \
		'struct D : B { int f() override { return 2; } };' 'B::B() {}' \
		'VACCEL_KERNEL(tc_p, int *o) { D d; o[0] = d.g(); }' >"$d/pure.cpp"
	"$VACCEL_CC" -O0 -o "$d/pure.elf" "$d/pure.cpp" ||
		{ echo "an abstract class did not link"; return 1; }
	"$READELF" -s "$d/pure.elf" | grep -q ' __cxa_pure_virtual$' ||
		{ echo "no __cxa_pure_virtual in the module"; return 1; }
}

# The embed mode: an x86-64 object with the module and its size, which a
# C and a C++ host program link through vaccel_embed.h.
vaccel_cc_embed() {
	local d=$TC/embed out sz
	mkdir -p "$d"
	tc_kernel "$d/k.c" 'VACCEL_KERNEL(tc_e, int *o) { o[0] = 1; }'
	"$VACCEL_CC" --embed=tc_demo -o "$d/k.o" "$d/k.c" || { echo "--embed failed"; return 1; }
	"$VACCEL_CC" -o "$d/k.elf" "$d/k.c" || return 1
	{ "$READELF" -h "$d/k.o" | grep -q 'Type: *REL' &&
		"$READELF" -h "$d/k.o" | grep -q 'Machine: *Advanced Micro Devices X86-64'; } ||
		{ echo "k.o is not an x86-64 object"; return 1; }
	out=$("$READELF" -sW "$d/k.o")
	echo "$out" | grep -qE ' OBJECT +GLOBAL +DEFAULT +[0-9]+ vaccel_embed_tc_demo$' ||
		{ echo "no global object vaccel_embed_tc_demo"; return 1; }
	echo "$out" | grep -qE ' 8 OBJECT +GLOBAL +DEFAULT +[0-9]+ vaccel_embed_tc_demo_size$' ||
		{ echo "no 8-byte vaccel_embed_tc_demo_size"; return 1; }
	sz=$(stat -c %s "$d/k.elf")
	echo "$out" | grep -qE " $sz OBJECT +GLOBAL .* vaccel_embed_tc_demo\$" ||
		{ echo "vaccel_embed_tc_demo is not of the module's $sz bytes"; return 1; }
	out=$("$READELF" -SW "$d/k.o")
	echo "$out" | grep -qE '\.rodata\.vaccel_embed_tc_demo +PROGBITS .* A +0 +0 +64$' ||
		{ echo "the module's section is not read-only and 64-byte aligned"; return 1; }
	echo "$out" | grep -q '\.note\.GNU-stack' || { echo "no .note.GNU-stack"; return 1; }
	echo "$out" | grep -E '\.rodata\.vaccel' | grep -qE ' [A-Z]*[WX][A-Z]* +[0-9]+ +[0-9]+ +[0-9]+$' &&
		{ echo "the module's section is writable or executable"; return 1; }
	# A C and a C++ program: the bytes are the module's.
	cat >"$d/main.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <vaccel_embed.h>
VACCEL_EMBED_DECLARE(tc_demo);
static int load(const void *image, size_t size)
{
	FILE *f = fopen(TC_ELF, "rb");
	static unsigned char buf[1 << 20];
	size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;

	return n == size && !memcmp(buf, image, size) && (size_t)image % 64 == 0 ? 0 : 1;
}
int main(void)
{
	return load(VACCEL_EMBED(tc_demo));
}
EOF
	cp "$d/main.c" "$d/main.cc"
	# shellcheck disable=SC2086 # CFLAGS are words
	"$CC" $CFLAGS -I"$ROOT/umd/include" -DTC_ELF="\"$d/k.elf\"" -o "$d/main" \
		"$d/main.c" "$d/k.o" || { echo "the C host program did not link"; return 1; }
	"$d/main" || { echo "the C host program sees other bytes"; return 1; }
	g++ -O2 -Wall -Wextra -Werror -I"$ROOT/umd/include" -DTC_ELF="\"$d/k.elf\"" \
		-o "$d/main++" "$d/main.cc" "$d/k.o" || { echo "the C++ host program did not link"; return 1; }
	"$d/main++" || { echo "the C++ host program sees other bytes"; return 1; }
	# The stack of a program linked with it stays non-executable.
	"$READELF" -lW "$d/main" | grep -qE 'GNU_STACK .* RW +0x' ||
		{ echo "the program's stack is executable"; return 1; }
	# A module already linked, wrapped as it is; the default output NAME.o.
	{ (cd "$d" && "$VACCEL_CC" --embed=tc_again k.elf) && [ -s "$d/tc_again.o" ]; } ||
		{ echo "--embed of k.elf failed"; return 1; }
	"$READELF" -sW "$d/tc_again.o" | grep -qE " $sz OBJECT +GLOBAL .* vaccel_embed_tc_again\$" ||
		{ echo "--embed of k.elf: not the module's bytes"; return 1; }
	# -save-temps keeps the module, the generated assembly and the RV64
	# object, which the host object's name does not overwrite.
	mkdir -p "$d/st"
	cp "$d/k.c" "$d/st/"
	(cd "$d/st" && "$VACCEL_CC" --embed=tc_kept -save-temps -o k.o k.c) ||
		{ echo "--embed -save-temps failed"; return 1; }
	{ "$READELF" -h "$d/st/k.o" | grep -q 'Machine: *Advanced Micro Devices X86-64' &&
		"$READELF" -h "$d/st/k.rv64.o" | grep -q 'Machine: *RISC-V' &&
		"$READELF" -s "$d/st/k.elf" | grep -q ' __vaccel_kernel_tc_e$' &&
		grep -q "\.incbin \"$d/st/k.elf\"" "$d/st/k.embed.S"; } ||
		{ echo "--embed -save-temps: not k.o, k.rv64.o, k.elf and k.embed.S"; return 1; }
	expect_fail "a bad name" "must be a C identifier" \
		"$VACCEL_CC" --embed=1x -o "$d/x.o" "$d/k.c" || return 1
	expect_fail "--embed with -c" "cannot be used together" \
		"$VACCEL_CC" -c --embed=x "$d/k.c" || return 1
	expect_fail "a module without --embed" "only taken alone, by --embed" \
		"$VACCEL_CC" -o "$d/y.elf" "$d/k.elf"
}

# 128-bit arithmetic links with the runtime's helpers, without compressed
# code, and a module that does not need them holds none.
vaccel_cc_int128() {
	local d=$TC/int128 out
	mkdir -p "$d"
	tc_kernel "$d/k.c" \
		'VACCEL_KERNEL(tc_i, __int128 *o)' '{' \
		'	unsigned __int128 u = (unsigned __int128)o[1];' \
		'	__int128 p;' \
		'	o[0] = o[1] / o[2] + o[3] % o[4] + (__int128)(u / (unsigned __int128)o[2]);' \
		'	o[5] = (__int128)(u % 10) * o[6] + (o[7] << (int)o[8]) + (o[7] >> (int)o[8]);' \
		'	o[9] = __builtin_mul_overflow(o[1], o[2], &p) + (__int128)((double *)o)[20];' \
		'	((double *)o)[21] = (double)o[1] + (double)u;' \
		'	((float *)o)[50] = (float)o[1] + (float)u + __builtin_powif(2.0f, (int)o[3]);' \
		'	((double *)o)[26] = __builtin_powi(1.5, (int)o[3]) + (double)(unsigned __int128)((double *)o)[27];' \
		'}'
	"$VACCEL_CC" -Wall -Wextra -Werror -o "$d/k.elf" "$d/k.c" ||
		{ echo "a kernel of 128-bit arithmetic did not link"; return 1; }
	out=$("$READELF" -s "$d/k.elf")
	for s in __divti3 __modti3 __udivti3 __umodti3 __udivmodti4 __muloti4 __fixdfti \
		__fixunsdfti __floattidf __floatuntidf __floattisf __floatuntisf __powidf2 __powisf2; do
		echo "$out" | grep -q " $s\$" || { echo "no $s in the module"; return 1; }
	done
	no_compressed "$d/k.elf" || return 1
	tc_kernel "$d/plain.c" 'VACCEL_KERNEL(tc_p, long *o) { o[0] = o[1] / o[2]; }'
	"$VACCEL_CC" -o "$d/plain.elf" "$d/plain.c" || return 1
	"$READELF" -s "$d/plain.elf" | grep -qE ' (__divti3|__muloti4|__fixdfti|memcpy|vaccel_printf)$' &&
		{ echo "a module without 128-bit arithmetic holds runtime helpers"; return 1; }
	return 0
}

# long double: refused with the message, no module left.
vaccel_cc_long_double() {
	local d=$TC/ld
	mkdir -p "$d"
	tc_kernel "$d/k.c" \
		'VACCEL_KERNEL(tc_l, double *o) { long double x = o[1]; o[0] = (double)(x / 3 + o[2]); }'
	expect_fail "long double" "long double arithmetic is not supported on vaccel engines (use double)" \
		"$VACCEL_CC" -o "$d/k.elf" "$d/k.c" || return 1
	[ ! -e "$d/k.elf" ] || { echo "a refused module was left"; return 1; }
	# Doubles, and long double objects that are only stored, link.
	tc_kernel "$d/ok.c" 'VACCEL_KERNEL(tc_d, double *o) { o[0] = o[1] / 3 + o[2]; }'
	"$VACCEL_CC" -o "$d/ok.elf" "$d/ok.c" || { echo "double arithmetic refused"; return 1; }
}

# .stack_sizes: in the module, not loaded, an entry per function whose
# address is the function's (read here from the file) and the frame size.
vaccel_cc_stack_sizes() {
	local d=$TC/stack
	mkdir -p "$d"
	tc_kernel "$d/k.c" \
		'static __attribute__((noinline)) int tc_deep(volatile int *p)' \
		'{ int a[100]; for (int i = 0; i < 100; i++) a[i] = p[i]; return a[p[0]]; }' \
		'VACCEL_KERNEL(tc_s, int *o) { o[0] = tc_deep(o); vaccel_printf("%d\n", o[0]); }' \
		'VACCEL_KERNEL(tc_t, int *o) { o[1] = 2; }'
	"$VACCEL_CC" -o "$d/k.elf" "$d/k.c" || return 1
	"$READELF" -SW "$d/k.elf" | grep -qE '\.stack_sizes +PROGBITS +0+ [0-9a-f]+ [0-9a-f]+ 00 +L ' ||
		{ echo "no non-allocated .stack_sizes: $("$READELF" -SW "$d/k.elf" | grep stack)"; return 1; }
	python3 - "$d/k.elf" <<'PY'
import struct, sys
f = open(sys.argv[1], 'rb').read()
shoff, = struct.unpack_from('<Q', f, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', f, 0x3a)
secs = [struct.unpack_from('<IIQQQQIIQQ', f, shoff + i * shentsize) for i in range(shnum)]
strtab = secs[shstrndx]
def name(off, tab):
    s = tab[4] + off
    return f[s:f.index(b'\0', s)].decode()
by = {name(s[0], strtab): s for s in secs}
symtab, sstr = by['.symtab'], secs[by['.symtab'][6]]
funcs = {}
for i in range(symtab[5] // 24):
    st_name, info, other, shndx, value, size = struct.unpack_from('<IBBHQQ', f, symtab[4] + i * 24)
    if info & 0xf == 2:
        funcs.setdefault(value, []).append(name(st_name, sstr))
ss = by['.stack_sizes']
if ss[2] & 2:
    sys.exit('.stack_sizes is allocated')
p, end, sizes = ss[4], ss[4] + ss[5], {}
while p < end:
    addr, = struct.unpack_from('<Q', f, p)
    p += 8
    size = shift = 0
    while True:
        b = f[p]
        p += 1
        size |= (b & 0x7f) << shift
        shift += 7
        if not b & 0x80:
            break
    if addr not in funcs:
        sys.exit('an entry at 0x%x, where no function is' % addr)
    for n in funcs[addr]:
        sizes[n] = size
for n in ('tc_s', 'tc_t', 'tc_deep', 'vaccel_printf'):
    if n not in sizes:
        sys.exit('no entry for ' + n)
if sizes['tc_deep'] < 400 or sizes['tc_t'] != 0:
    sys.exit('frame sizes: tc_deep %d, tc_t %d' % (sizes['tc_deep'], sizes['tc_t']))
PY
}

# The runtime's 128-bit helpers compiled for the host, against the
# host's arithmetic.
device_builtins() {
	local k=$ROOT/umd/kernel
	# shellcheck disable=SC2086 # CFLAGS and SAN are words
	"$CC" -std=gnu11 -O2 -g $CFLAGS $SAN -frounding-math -D'RT_NAME(n)=host_##n' \
		-I"$k" "$ROOT/tests/host/host_builtins.c" "$k/rt_divti.c" "$k/rt_multi.c" \
		"$k/rt_shiftti.c" "$k/rt_bitsti.c" "$k/rt_fixti.c" "$k/rt_floatti.c" \
		"$k/rt_powi.c" -o "$O/bin/host_builtins" -lm || return 1
	"$O/bin/host_builtins" 200000
}

# in_two_parts PROGRAM ARG: PROGRAM ARG --part=0/2 and --part=1/2 at once,
# one per CPU (math_part.h); their outputs in turn, and failure if either
# fails.
in_two_parts() {
	local out=$O/log/$(basename "$1") pid rc=0
	"$@" --part=0/2 >"$out.0" 2>&1 &
	pid=$!
	"$@" --part=1/2 >"$out.1" 2>&1 || rc=1
	wait "$pid" || rc=1
	cat "$out.0" "$out.1"
	return $rc
}

# The math library's cores (umd/opencl/device/math/) compiled for the host,
# without contraction as the device library is, against MPFR on every
# 4099th float and the special values: every result correctly rounded.
math_cores() {
	# shellcheck disable=SC2086 # CFLAGS and SAN are words
	"$CC" -std=gnu11 -O2 -g $CFLAGS $SAN -ffp-contract=off -I"$ROOT/umd/opencl" \
		"$ROOT/tests/host/math_cores.c" -o "$O/bin/math_cores" -lmpfr -lgmp -lm || return 1
	in_two_parts "$O/bin/math_cores" 4099
}

# The double cores (math/*_double.h) against MPFR on 100,000 inputs per
# function: every result within the bound its design claims.
math_double() {
	# shellcheck disable=SC2086 # CFLAGS and SAN are words
	"$CC" -std=gnu11 -O2 -g $CFLAGS $SAN -ffp-contract=off -I"$ROOT/umd/opencl" \
		"$ROOT/tests/host/math_double.c" -o "$O/bin/math_double" -lmpfr -lgmp -lm || return 1
	in_two_parts "$O/bin/math_double" 100000
}

# vaccel_add_kernel(): a CMake project configured and built against the
# build tree, a header change rebuilding the module.
vaccel_cc_cmake() {
	local d=$TC/cmake out
	command -v cmake >/dev/null || { echo "no cmake (scripts/install-deps.sh)"; return 1; }
	cp -r "$ROOT/tests/host/cmake" "$d-src"
	cmake -S "$d-src" -B "$d" -DCMAKE_MODULE_PATH="$UMD_O/lib/cmake/vaccel" \
		-DCMAKE_C_COMPILER="$CC" >"$d.log" 2>&1 || { tail -n 3 "$d.log"; return 1; }
	grep -q "^VACCEL_CC:FILEPATH=$UMD_O/bin/vaccel-cc\$" "$d/CMakeCache.txt" ||
		{ echo "vaccel-cc not found next to VaccelKernel.cmake: $(grep VACCEL_CC "$d/CMakeCache.txt")"; return 1; }
	cmake --build "$d" -j 2 >>"$d.log" 2>&1 || { tail -n 3 "$d.log"; return 1; }
	[ -s "$d/tc_scale.elf" ] || { echo "no tc_scale.elf"; return 1; }
	"$READELF" -s "$d/tc_scale.elf" | grep -q ' __vaccel_kernel_tc_scale$' ||
		{ echo "tc_scale.elf has no kernel"; return 1; }
	out=$("$d/embed_check") || { echo "embed_check: $out"; return 1; }
	touch -d '+2 seconds' "$d-src/include/tc_cmake.h"
	out=$(cmake --build "$d" 2>&1) || { echo "$out" | tail -n 3; return 1; }
	echo "$out" | grep -q 'vaccel-cc tc_scale' ||
		{ echo "a header change did not rebuild tc_scale.elf"; return 1; }
}

# cl_refused BASE SOURCE WHAT PATTERN: vaccel-cc refuses BASE.cl of the line
# SOURCE with a message matching PATTERN, and leaves no BASE.elf.
cl_refused() {
	printf '%s\n' "$2" >"$1.cl"
	expect_fail "$3" "$4" "$VACCEL_CC" -o "$1.elf" "$1.cl" || return 1
	[ ! -e "$1.elf" ] || { echo "$3: a refused module was left"; return 1; }
}

# OpenCL C: a program of kernels links into a module; the modes; the
# errors of the front end, of the IR step and of the link, each with its
# message and no module left.
vaccel_cc_opencl() {
	local d=$TC/cl out
	mkdir -p "$d"
	cp "$ROOT/tests/vm/kernels/opencl.cl" "$d/k.cl"
	"$VACCEL_CC" -Wall -Wextra -Werror -o "$d/k.elf" "$d/k.cl" || return 1
	for k in vadd_local args ids twice; do
		"$READELF" -s "$d/k.elf" | grep -q " __vaccel_kernel_$k\$" ||
			{ echo "no kernel $k in the module"; return 1; }
	done
	# The kernel-scope __local array, in the local aperture, by the GOT.
	"$READELF" -s "$d/k.elf" | grep -qE '^ *[0-9]+: 0100000000000000 +256 OBJECT +GLOBAL +DEFAULT .* __vaccel_cl_local\.0\.vadd_local\.tile$' ||
		{ echo "the __local array is not in the local aperture"; return 1; }
	"$READELF" -rW "$d/k.elf" | awk '/^0/ { print $3 }' | sort -u |
		grep -qvx R_RISCV_RELATIVE && { echo "relocations other than R_RISCV_RELATIVE"; return 1; }
	no_compressed "$d/k.elf" || return 1
	# -E, -S, -c; -x cl for another suffix; -cl-std.
	out=$("$VACCEL_CC" -E -DTC_N=3 "$d/k.cl") || { echo "-E failed"; return 1; }
	echo "$out" | grep -q 'get_global_id' || { echo "-E: no source"; return 1; }
	# The device's OpenCL version, the language's, for each -cl-std.
	printf 'ocl __OPENCL_VERSION__ c __OPENCL_C_VERSION__\n' >"$d/ver.cl"
	out=$("$VACCEL_CC" -E "$d/ver.cl" | grep '^ocl') || { echo "-E ver.cl failed"; return 1; }
	[ "$out" = "ocl 300 c 120" ] || { echo "versions: $out, not ocl 300 c 120"; return 1; }
	out=$("$VACCEL_CC" -E -cl-std=CL3.0 "$d/ver.cl" | grep '^ocl')
	[ "$out" = "ocl 300 c 300" ] || { echo "-cl-std=CL3.0: $out, not ocl 300 c 300"; return 1; }
	(cd "$d" && "$VACCEL_CC" -S k.cl) || { echo "-S failed"; return 1; }
	grep -q '__vaccel_kernel_ids' "$d/k.s" || { echo "-S: no kernel in k.s"; return 1; }
	cp "$d/k.cl" "$d/k.txt"
	"$VACCEL_CC" -c -x cl -cl-std=CL1.1 -o "$d/k.o" "$d/k.txt" ||
		{ echo "-c -x cl -cl-std=CL1.1 failed"; return 1; }
	"$READELF" -h "$d/k.o" | grep -q 'Type: *REL' || { echo "-c: no object"; return 1; }
	# Refusals: a compile error, no kernel, a reserved name, a missing
	# builtin; each with its message, and no module left.
	cl_refused "$d/e1" '__kernel void k(__global int *o) { o[0] = tc_x; }' \
		"a compile error" "e1.cl:1:.*error: use of undeclared identifier 'tc_x'" || return 1
	cl_refused "$d/e2" 'int f(int x) { return x; }' \
		"no kernel" "e2.cl: error: the program has no kernel" || return 1
	cl_refused "$d/e3" '__kernel void __vaccel_k(__global int *o) { o[0] = 1; }' \
		"a reserved name" "names starting with __vaccel are reserved" || return 1
	cl_refused "$d/e4" '__kernel void k(__global int *o, read_only image2d_t im) {
o[0] = get_image_width(im); }' \
		"a missing builtin" "builtin that vaccel's device library does not have yet" ||
		return 1
	cl_refused "$d/e5" 'ulong __vaccel_header_va(void) { return 0; }
__kernel void k(__global ulong *o) { o[0] = get_global_id(0); }' \
		"the library's header function" "__vaccel_header_va is reserved" || return 1
	# A program of 100 compiled sources links (clLinkProgram of the CTS's
	# compiler multiple_files links 128), and every extension the device
	# reports has its macro (compiler_defines_for_extensions).
	mkdir -p "$d/many"
	local i objs=()
	for i in $(seq 1 99); do
		printf 'int f%d(int x) { return x + %d; }\n' "$i" "$i" >"$d/many/f$i.cl"
		"$VACCEL_CC" -c -emit-llvm -o "$d/many/f$i.bc" "$d/many/f$i.cl" || return 1
		objs+=("$d/many/f$i.bc")
	done
	printf '%s\n' 'int f99(int);' '#ifndef cl_khr_byte_addressable_store' \
		'#error no cl_khr_byte_addressable_store' '#endif' \
		'__kernel void k(__global int *o) { o[0] = f99(1); }' >"$d/many/k.cl"
	"$VACCEL_CC" -c -emit-llvm -o "$d/many/k.bc" "$d/many/k.cl" || return 1
	"$VACCEL_CC" -o "$d/many/all.elf" "$d/many/k.bc" "${objs[@]}" ||
		{ echo "100 sources do not link"; return 1; }
	# The header: read through the entry's own block pointer once the
	# builtins are inlined (no tp at all); through tp, which the entry
	# then sets first, from a function that is not inlined.
	printf '%s\n' '__kernel void k(__global ulong *o) { o[0] = get_global_id(0) + get_work_dim(); }' \
		>"$d/hdr.cl"
	"$VACCEL_CC" -o "$d/hdr.elf" "$d/hdr.cl" || return 1
	"$OBJDUMP" -d --mattr=+m,+a,+f,+d "$d/hdr.elf" >"$d/hdr.dis"
	# tp as an operand of an instruction: the file's path, in the
	# disassembly's first lines, may hold the letters too.
	grep -qE '^ *[0-9a-f]+:.*\btp\b' "$d/hdr.dis" &&
		{ echo "an inlined header read uses tp"; return 1; }
	grep -q '__vaccel_header_va' "$d/hdr.dis" && { echo "__vaccel_header_va left"; return 1; }
	printf '%s\n' '__attribute__((noinline)) ulong f(void) { return get_global_offset(0); }' \
		'__kernel void k(__global ulong *o) { o[0] = f(); }' >"$d/hdr_call.cl"
	"$VACCEL_CC" -o "$d/hdr_call.elf" "$d/hdr_call.cl" || return 1
	"$OBJDUMP" -d --mattr=+m,+a,+f,+d "$d/hdr_call.elf" >"$d/hdr_call.dis"
	awk '/<__vaccel_kernel_k>:/ { e = 1; next } e && /^$/ { exit } e && /mv\ttp, a0/ { found = 1 }
	     END { exit !found }' "$d/hdr_call.dis" || { echo "the entry does not set tp"; return 1; }
	awk '/<__vaccel_header_va>:/ { e = 1; next } e && /^$/ { exit } e && /mv\ta0, tp/ { found = 1 }
	     END { exit !found }' "$d/hdr_call.dis" ||
		{ echo "__vaccel_header_va does not read tp"; return 1; }
}

# The device library: the VM test's kernels, which call every family,
# build into a module; then a program generated from opencl-c.h's
# declarations, one call of every overload of the library's families
# (with the extensions vaccel-cc enables) and printf, links with opencl.bc
# leaving no function undefined; and the same for OpenCL C 3.0's
# additions.
vaccel_cc_opencl_library() {
	local d=$TC/cl-lib lib=$UMD_O/lib/vaccel k n link nm
	link=$(command -v llvm-link-14 || command -v llvm-link) || { echo "no llvm-link"; return 1; }
	nm=$(command -v llvm-nm-14 || command -v llvm-nm) || { echo "no llvm-nm"; return 1; }
	mkdir -p "$d"
	"$VACCEL_CC" -Wall -Wextra -Werror -o "$d/lib.elf" "$ROOT/tests/vm/kernels/opencl_lib.cl" ||
		return 1
	for k in atomics integer_char integer_ulong upsamples floats doubles geometric vloads \
		 halves halves_spaces async converts prints; do
		"$READELF" -s "$d/lib.elf" | grep -q " __vaccel_kernel_$k\$" ||
			{ echo "no kernel $k in the module"; return 1; }
	done
	"$READELF" -rW "$d/lib.elf" | awk '/^0/ { print $3 }' | sort -u |
		grep -qvx R_RISCV_RELATIVE && { echo "relocations other than R_RISCV_RELATIVE"; return 1; }
	printf '__kernel void k(void) { }\n' >"$d/cmd.cl"
	"$VACCEL_CC" -v -c -o "$d/cmd.o" "$d/cmd.cl" 2>"$d/cmds" || { echo "vaccel-cc -v failed"; return 1; }
	# Every overload of OpenCL C 1.2, then of what OpenCL C 3.0 adds
	# without its optional features (opencl_c30.cl), each in its mode.
	local std min
	for std in CL1.2:8000 CL3.0:300; do
		min=${std#*:} std=${std%:*}
		vaccel_cc_opencl_every "$d" "$std" "$min" "$link" "$nm" "$lib" || return 1
	done
}

# vaccel_cc_opencl_every DIR STD MIN LINK NM LIB: a program that calls every
# overload that opencl-c.h declares in -cl-std=STD of the library's
# functions (at least MIN), built as vaccel-cc builds it, links with
# opencl.bc leaving nothing undefined.
vaccel_cc_opencl_every() {
	local d=$1 std=$2 min=$3 link=$4 nm=$5 lib=$6 n
	python3 - "$d/every.cl" "$(grep -m1 -- ' -emit-llvm' "$d/cmds")" "$std" <<'PY' || return 1
import re, shlex, subprocess, sys
out, cmd, std = sys.argv[1], shlex.split(sys.argv[2]), sys.argv[3]
# The front end's flags, without the source and the output.
flags = [a for i, a in enumerate(cmd[1:], 1)
         if a not in ('-c', '-o') and cmd[i - 1] != '-o' and not a.endswith('.cl')]
flags.append('-cl-std=' + std)
names = set("""atomic_add atomic_sub atomic_xchg atomic_inc atomic_dec atomic_cmpxchg
atomic_min atomic_max atomic_and atomic_or atomic_xor abs abs_diff add_sat sub_sat hadd
rhadd clamp clz mad_hi mad_sat max min mul_hi rotate upsample popcount mad24 mul24
degrees mix radians step smoothstep sign cross dot distance length normalize
fast_distance fast_length fast_normalize isequal isnotequal isgreater isgreaterequal
isless islessequal islessgreater isfinite isinf isnan isnormal isordered isunordered
signbit any all bitselect select sqrt fma mad fabs fmin fmax floor ceil trunc round rint nextafter
copysign native_sqrt half_sqrt fmod remainder remquo fdim maxmag minmag ldexp ilogb logb
frexp fract modf nan exp exp2 exp10 expm1 log log2 log10 log1p half_exp half_exp2
half_exp10 half_log half_log2 half_log10 native_exp native_exp2 native_exp10 native_log
native_log2 native_log10 sin cos tan sincos sinpi cospi tanpi half_sin half_cos half_tan
native_sin native_cos native_tan sinh cosh tanh asinh acosh atanh rsqrt cbrt half_rsqrt
atan asin acos atanpi asinpi acospi pow powr pown rootn atan2 atan2pi hypot half_powr
native_powr half_divide native_divide half_recip native_recip erf erfc tgamma lgamma
lgamma_r
native_rsqrt async_work_group_copy async_work_group_strided_copy
wait_group_events prefetch vload_half shuffle shuffle2""".split())
for op in 'add sub xchg inc dec cmpxchg min max and or xor'.split():
    names.add('atom_' + op)
for n in ['', '2', '3', '4', '8', '16']:
    if n:
        names |= {'vload' + n, 'vstore' + n, 'vload_half' + n, 'vloada_half' + n}
    for m in ['', '_rte', '_rtz', '_rtp', '_rtn']:
        names.add('vstore_half' + n + m)
        if n:
            names.add('vstorea_half' + n + m)
    for t in 'char uchar short ushort int uint long ulong float double'.split():
        for r in ['', '_rte', '_rtz', '_rtp', '_rtn']:
            names.add('convert_' + t + n + r)
            if t not in ('float', 'double'):
                names.add('convert_' + t + n + '_sat' + r)
if std == 'CL3.0':
    names = set("""get_global_linear_id get_local_linear_id get_enqueued_local_size ctz
work_group_barrier atomic_work_item_fence atomic_init atomic_store_explicit
atomic_load_explicit atomic_exchange_explicit atomic_compare_exchange_strong_explicit
atomic_compare_exchange_weak_explicit atomic_fetch_add_explicit atomic_fetch_sub_explicit
atomic_fetch_or_explicit atomic_fetch_xor_explicit atomic_fetch_and_explicit
atomic_fetch_min_explicit atomic_fetch_max_explicit atomic_flag_test_and_set_explicit
atomic_flag_clear_explicit""".split())
# The declarations are opencl-c.h's: vaccel-cc declares the builtins from
# clang's table instead (-fdeclare-opencl-builtins), which -E does not show,
# so the overloads come from the header, and the program is compiled with
# the table: the mangled names of both must be the library's.
i = flags.index('-fdeclare-opencl-builtins')
pp_flags = flags[:i - 1] + flags[i + 1:]
pp = subprocess.run([cmd[0]] + pp_flags + ['-E', '-P', '-'], input='', capture_output=True,
                    text=True, check=True).stdout
text = re.sub(r'\s+', ' ', re.sub(r'#pragma[^\n]*', ';', pp))
calls, seen = [], set()
for d in text.split(';'):
    m = re.match(r'^(.*?)\b([A-Za-z_]\w*)\s*\(([^()]*)\)\s*$', d.strip())
    if not m or m.group(2) not in names or '...' in d:
        continue
    seen.add(m.group(2))
    args = []
    for p in [p.strip() for p in m.group(3).split(',') if p.strip() not in ('', 'void')]:
        tok = p.split()
        if '*' in p:
            t = p[:p.rindex('*') + 1]
        elif len(tok) >= 2 and tok[-1] not in ('int', 'char', 'short', 'long', 'float', 'double'):
            t = ' '.join(tok[:-1])
        else:
            t = p
        args.append('(%s)0' % t)
    calls.append('\t(void)%s(%s);' % (m.group(2), ', '.join(args)))
if seen != names:
    print('opencl-c.h does not declare', sorted(names - seen))
    sys.exit(1)
with open(out, 'w') as f:
    f.write('__kernel void every_builtin(void)\n{\n%s\n\tprintf("%%d\\n", 1);\n}\n'
            % '\n'.join(calls))
PY
	n=$(grep -c '(void)' "$d/every.cl")
	[ "$n" -gt "$min" ] || { echo "$std: only $n overloads generated"; return 1; }
	# The front end's command, on every.cl: its source and output replaced.
	# In 3.0, opencl-c.h declares more than clang's table (the atomics
	# without a scope): the program is built with the header, whose
	# mangled names are the table's, so that the library has both.
	eval "set -- $(grep -m1 -- ' -emit-llvm' "$d/cmds")"
	local cmd=() skip=0 a
	for a in "$@"; do
		if [ $skip = 1 ]; then
			skip=0
		elif [ "$a" = -o ]; then
			skip=1
		elif [ "$std" = CL3.0 ] && [ "$a" = -fdeclare-opencl-builtins ]; then
			unset 'cmd[-1]'	# and its -Xclang
		elif [ "$a" != "$d/cmd.cl" ]; then
			cmd+=("$a")
		fi
	done
	"${cmd[@]}" "-cl-std=$std" -O0 -w -o "$d/every.bc" "$d/every.cl" ||
		{ echo "$std: the front end failed"; return 1; }
	"$link" -o "$d/linked.bc" "$d/every.bc" "$lib/opencl.bc" ||
		{ echo "llvm-link failed"; return 1; }
	# The header's address is the one the IR step provides (cl_abi.h).
	"$nm" --undefined-only "$d/linked.bc" | grep -vw __vaccel_header_va >"$d/undefined"
	if [ -s "$d/undefined" ]; then
		echo "$std: not in the device library: $(head -n 5 "$d/undefined" | tr '\n' ' ')"
		return 1
	fi
}

# The IR step on generated programs: kernels of random parameter lists,
# each parameter used; the entry of each reads the argument block at the
# offsets of the documented layout (a 64-byte header, then each parameter
# at its natural alignment).
cl_lower_layout() {
	local d=$TC/cl-layout lib=$UMD_O/lib/vaccel
	mkdir -p "$d"
	python3 - "$d" 40 <<'PY' || return 1
import random, sys
d, count = sys.argv[1], int(sys.argv[2])
# type: (size, alignment) in the block
types = {
    'char': (1, 1), 'uchar': (1, 1), 'short': (2, 2), 'ushort': (2, 2),
    'int': (4, 4), 'uint': (4, 4), 'long': (8, 8), 'ulong': (8, 8),
    'float': (4, 4), 'double': (8, 8), 'float2': (8, 8), 'float3': (16, 16),
    'float4': (16, 16), 'int8': (32, 32), 'double2': (16, 16), 'S': (32, 4),
    '__global int *': (8, 8), '__constant int *': (8, 8), '__local int *': (8, 8),
}
def use(t, name):
    if t.endswith('*'):
        return '(double)%s[0]' % name
    if t == 'S':
        return '(double)%s.b[6]' % name
    if t[-1].isdigit():
        return '(double)%s.s0' % name
    return '(double)%s' % name
rng = random.Random(20261128)
src = ['typedef struct { float a; int b[7]; } S;']
expect = []
for k in range(count):
    params = [rng.choice(list(types)) for _ in range(rng.randint(1, 12))]
    # The first parameter is the output buffer, at 64 after the header.
    off, offs = 64 + 8, ['64:8']
    for t in params:
        size, align = types[t]
        off = (off + align - 1) // align * align
        offs.append('%d:%d' % (off, size))
        off += size
    args = ', '.join('%s p%d' % (t, i) for i, t in enumerate(params))
    body = ' + '.join(use(t, 'p%d' % i) for i, t in enumerate(params))
    src.append('__kernel void k%d(__global double *out, %s) { out[0] = %s; }' % (k, args, body))
    expect.append('k%d %s' % (k, ' '.join(str(o) for o in offs)))
open(d + '/gen.cl', 'w').write('\n'.join(src) + '\n')
open(d + '/expect', 'w').write('\n'.join(expect) + '\n')
PY
	# The front end as vaccel-cc runs it (-v prints the command).
	"$VACCEL_CC" -v -c -o "$d/gen.o" "$d/gen.cl" 2>"$d/cmds" ||
		{ echo "vaccel-cc failed on the generated program"; return 1; }
	eval "set -- $(grep -m1 -- ' -emit-llvm' "$d/cmds")"
	"$@" -o "$d/gen.bc" 2>/dev/null || true
	[ -s "$d/gen.bc" ] || { echo "no front-end bitcode"; return 1; }
	"$lib/vaccel-cl-lower" -o "$d/low.bc" "$d/gen.bc" "$lib/opencl.bc" ||
		{ echo "the IR step failed"; return 1; }
	"$LLVM_DIS" -o "$d/low.ll" "$d/low.bc" || { echo "llvm-dis failed"; return 1; }
	python3 - "$d" <<'PY'
import re, sys
d = sys.argv[1]
ir = open(d + '/low.ll').read()
bad = 0
for line in open(d + '/expect'):
    name, *want = line.split()
    m = re.search(r'define void @__vaccel_cl_%s\(i8\* [^)]*%%0\)[^{]*\{(.*?)\n\}' % name, ir, re.S)
    if not m:
        print('no entry for', name); bad = 1; continue
    got = {int(x) for x in re.findall(r'getelementptr (?:inbounds )?i8, i8\* %0, i64 (\d+)', m.group(1))}
    # The kernel is inlined into its entry, which reads only what the
    # kernel uses (a struct's field, a vector's element): every read must
    # fall in a parameter's bytes, and every parameter must be read.
    spans = [tuple(int(v) for v in w.split(':')) for w in want]
    stray = sorted(o for o in got if not any(a <= o < a + n for a, n in spans))
    unread = [a for a, n in spans if not any(a <= o < a + n for o in got)]
    if stray or unread:
        print('%s: the entry reads %s, outside the layout %s: %s; unread: %s'
              % (name, sorted(got), want, stray, unread))
        bad = 1
sys.exit(bad)
PY
}

# cl_source FILE.c OUT.cl: the OpenCL C of a test program, its string src.
cl_source() {
	python3 - "$1" "$2" <<'PY'
import ast, re, sys
s = open(sys.argv[1]).read()
body = s[s.index('static const char *src ='):]
body = body[:body.index(';\n')]
pieces = re.findall(r'"((?:[^"\\]|\\.)*)"', body)
open(sys.argv[2], 'w').write(''.join(ast.literal_eval('"%s"' % p) for p in pieces))
PY
}

# A program in parts (split.c): tests/opencl/parts.c's source, lowered in
# one part and in two, and linked by vaccel-cc with VACCEL_CL_JOBS=1 and
# =2.  The parts keep disjoint entries that together are the whole's, the
# local variables and the kernels' metadata are defined once, in part 0;
# the two modules export the same kernels and local variables and carry
# the same metadata.  A program of one kernel stays one part.
cl_lower_parts() {
	local d=$TC/cl-parts lib=$UMD_O/lib/vaccel
	rm -rf "$d" && mkdir -p "$d"
	cl_source "$ROOT/tests/opencl/parts.c" "$d/parts.cl" || return 1
	"$VACCEL_CC" -v -c -o "$d/gen.o" "$d/parts.cl" 2>"$d/cmds" ||
		{ echo "vaccel-cc failed on parts.cl"; return 1; }
	eval "set -- $(grep -m1 -- ' -emit-llvm' "$d/cmds")"
	"$@" -o "$d/gen.bc" 2>/dev/null || true
	[ -s "$d/gen.bc" ] || { echo "no front-end bitcode"; return 1; }
	"$lib/vaccel-cl-lower" --parts 1 -o "$d/one.bc" "$d/gen.bc" "$lib/opencl.bc" &&
		"$lib/vaccel-cl-lower" --parts 2 -o "$d/two.bc" "$d/gen.bc" "$lib/opencl.bc" ||
		{ echo "the IR step failed"; return 1; }
	[ -f "$d/two.1.bc" ] || { echo "parts.cl was not split in two (no two.1.bc)"; return 1; }
	[ -e "$d/two.2.bc" ] && { echo "--parts 2 wrote a third part"; return 1; }
	[ -e "$d/one.1.bc" ] && { echo "--parts 1 wrote a second part"; return 1; }
	local f
	for f in one two two.1; do
		"$LLVM_DIS" -o "$d/$f.ll" "$d/$f.bc" || { echo "llvm-dis $f.bc failed"; return 1; }
	done
	python3 - "$d" <<'PY' || return 1
import re, sys
d = sys.argv[1]
def read(name):
    ir = open('%s/%s.ll' % (d, name)).read()
    entries = set(re.findall(r'^define void @(__vaccel_cl_\w+)\(', ir, re.M))
    names = set(re.findall(r'^@(__vaccel_kernel_\w+) = alias', ir, re.M))
    locals_def = set(re.findall(r'^@(\S+) = (?!external )[^=]*addrspace\(3\) global .*section "\.bss\.vaccel\.local"', ir, re.M))
    locals_decl = set(re.findall(r'^@(\S+) = external [^=]*addrspace\(3\) global', ir, re.M))
    asm = 'module asm' in ir
    return entries, names, locals_def, locals_decl, asm
one, p0, p1 = read('one'), read('two'), read('two.1')
bad = []
if len(one[0]) != 7:
    bad.append('the whole has %d entries, not 7' % len(one[0]))
if p0[0] & p1[0] or p0[0] | p1[0] != one[0] or not p0[0] or not p1[0]:
    bad.append('the parts\' entries %s and %s are not a partition of %s'
               % (sorted(p0[0]), sorted(p1[0]), sorted(one[0])))
for e, n in ((p0[0], p0[1]), (p1[0], p1[1])):
    want = {x.replace('__vaccel_cl_', '__vaccel_kernel_') for x in e}
    if n != want:
        bad.append('a part names kernels %s for entries %s' % (sorted(n), sorted(e)))
if p0[2] != one[2] or p1[2]:
    bad.append('local variables defined %s and %s, not once as %s'
               % (sorted(p0[2]), sorted(p1[2]), sorted(one[2])))
if not p1[3] or not p1[3] <= one[2]:
    bad.append('part 1 declares local variables %s' % sorted(p1[3]))
if not p0[4] or p1[4]:
    bad.append('the metadata is not in part 0 alone')
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY
	VACCEL_CL_JOBS=1 "$VACCEL_CC" -v -o "$d/one.elf" "$d/parts.cl" 2>"$d/one.cmds" &&
		VACCEL_CL_JOBS=2 "$VACCEL_CC" -v -o "$d/two.elf" "$d/parts.cl" 2>"$d/two.cmds" ||
		{ echo "vaccel-cc failed to link parts.cl"; return 1; }
	[ "$(grep -c -- '-disable-llvm-optzns' "$d/two.cmds")" = 2 ] ||
		{ echo "VACCEL_CL_JOBS=2: not two code generator runs"; return 1; }
	[ "$(grep -c -- '-disable-llvm-optzns' "$d/one.cmds")" = 1 ] ||
		{ echo "VACCEL_CL_JOBS=1: not one code generator run"; return 1; }
	for f in one two; do
		"$READELF" -sW "$d/$f.elf" | awk '$5 == "GLOBAL" && $7 != "UND" &&
			$8 ~ /^__vaccel_(kernel|cl_local)/ { print $8 }' | sort >"$d/$f.syms"
		"$OBJCOPY" --dump-section .vaccel.cl.kernels="$d/$f.meta" "$d/$f.elf" "$d/$f.tmp" ||
			{ echo "$f.elf: no .vaccel.cl.kernels"; return 1; }
	done
	[ "$(wc -l <"$d/one.syms")" -ge 10 ] || { echo "one.elf: few symbols"; return 1; }
	cmp -s "$d/one.syms" "$d/two.syms" ||
		{ echo "the modules export different symbols:"; diff "$d/one.syms" "$d/two.syms"; return 1; }
	cmp -s "$d/one.meta" "$d/two.meta" || { echo "the modules' metadata differ"; return 1; }
	printf '__kernel void k(__global int *o) { o[0] = 1; }\n' >"$d/single.cl"
	VACCEL_CL_JOBS=4 "$VACCEL_CC" -v -o "$d/single.elf" "$d/single.cl" 2>"$d/single.cmds" ||
		{ echo "vaccel-cc failed on one kernel"; return 1; }
	[ "$(grep -c -- '-disable-llvm-optzns' "$d/single.cmds")" = 1 ] ||
		{ echo "a program of one kernel was split"; return 1; }
	# The fault scenario's program: bad, the faulting kernel, in part 1.
	cl_source "$ROOT/tests/opencl/scenarios.c" "$d/scenarios.cl" &&
		"$VACCEL_CC" -v -c -o "$d/scenarios.o" "$d/scenarios.cl" 2>"$d/scenarios.cmds" ||
		{ echo "vaccel-cc failed on the scenarios' program"; return 1; }
	eval "set -- $(grep -m1 -- ' -emit-llvm' "$d/scenarios.cmds")"
	"$@" -o "$d/scenarios.bc" 2>/dev/null || true
	"$lib/vaccel-cl-lower" --parts 2 -o "$d/scen.bc" "$d/scenarios.bc" "$lib/opencl.bc" &&
		"$LLVM_DIS" -o "$d/scen.1.ll" "$d/scen.1.bc" ||
		{ echo "the scenarios' program is not built in two parts"; return 1; }
	grep -q '^define void @__vaccel_cl_bad(' "$d/scen.1.ll" ||
		{ echo "the scenarios' faulting kernel is not in part 1"; return 1; }
	VACCEL_CL_JOBS=two "$VACCEL_CC" -o "$d/bad.elf" "$d/single.cl" 2>"$d/bad.err"
	[ $? = 2 ] && grep -q 'VACCEL_CL_JOBS=two: not a number' "$d/bad.err" ||
		{ echo "VACCEL_CL_JOBS=two: not a usage error"; return 1; }
}

check vaccel_cc_modes vaccel_cc_modes
check vaccel_cc_cxx vaccel_cc_cxx
check vaccel_cc_embed vaccel_cc_embed
check vaccel_cc_int128 vaccel_cc_int128
check vaccel_cc_long_double vaccel_cc_long_double
check vaccel_cc_stack_sizes vaccel_cc_stack_sizes
check device_builtins device_builtins
check math_cores math_cores
check math_double math_double
check math_tables python3 "$ROOT/umd/opencl/device/math/gen_tables.py" --check
check vaccel_cc_cmake vaccel_cc_cmake
check vaccel_cc_opencl vaccel_cc_opencl
check vaccel_cc_opencl_library vaccel_cc_opencl_library
check cl_lower_layout cl_lower_layout
check cl_lower_parts cl_lower_parts
