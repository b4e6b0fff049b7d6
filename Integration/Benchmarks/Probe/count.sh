#!/usr/bin/env bash
# Counts the instructions of one operation of the probe: callgrind at two counts, the difference divided
# by the difference of the counts, so start-up cancels. Needs `make probe` first.
# Usage: Integration/Benchmarks/Probe/count.sh MODE [SMALL LARGE]
set -euo pipefail
cd "$(dirname "$0")/../../.."
mode=$1; small=${2:-200}; large=${3:-2200}
probe=.build-probe/probe.stripped
bin=$(cd .build-probe && env -u RC_DEVELOPMENT swift build -c release --show-bin-path)/InstructionProbe
# valgrind 3.19 cannot read the toolchain's DWARF 5: count a copy without debug information (same code).
[ "$probe" -nt "$bin" ] || strip --strip-debug -o "$probe" "$bin"
# valgrind's sigsuspend wrapper writes into a mask libdispatch keeps read-only: a shim passes a copy.
shim=.build-probe/sigsuspend.so
if [ ! -f "$shim" ]; then
  printf '%s\n' '#define _GNU_SOURCE' '#include <signal.h>' '#include <sys/syscall.h>' '#include <unistd.h>' \
    'int sigsuspend(const sigset_t *mask) { sigset_t copy = *mask; return (int)syscall(SYS_rt_sigsuspend, &copy, 8); }' \
    > .build-probe/sigsuspend.c
  cc -shared -fPIC -o "$shim" .build-probe/sigsuspend.c
fi
count() {
  local out; out=$(mktemp)
  SWIFT_DETERMINISTIC_HASHING=1 LD_PRELOAD="$shim" valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$probe" "$mode" "$1" >/dev/null 2>&1 || true
  grep -m1 '^summary:' "$out" | awk '{print $2}'
  rm -f "$out"
}
a=$(count "$small"); b=$(count "$large")
echo "$mode: $(( (b - a) / (large - small) )) instructions per operation ($a at $small, $b at $large)"
