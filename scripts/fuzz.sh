#!/usr/bin/env bash
# libFuzzer over every reader (issue 9): builds fuzz/ into build-fuzz/ with clang
# (-fsanitize=fuzzer,address,undefined) and runs each harness on its seed corpus tests/fuzz/<name>/.
#   scripts/fuzz.sh [SECONDS] [--each] [--only NAME[,NAME...]]
# SECONDS (default 60) is the total, divided among the harnesses; with --each every harness runs
# SECONDS. Limits per input: -rss_limit_mb=2048 -timeout=10. Exits 1 on any finding (crash,
# sanitizer report, leak, uncaught exception, timeout, out-of-memory); the reproducer is kept in
# build-fuzz/findings/. Prints each harness's executions and peak RSS.
# New inputs libFuzzer finds go to build-fuzz/corpus/<name>/ (tests/fuzz/ is never written).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_TOTAL=60
EACH=0
ONLY=""
while [ $# -gt 0 ]; do
  case "$1" in
    --each) EACH=1 ;;
    --only) ONLY="$2"; shift ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) [[ "$1" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: bad argument '$1' (want SECONDS, --each, --only NAMES)" >&2; exit 2; }
       SECONDS_TOTAL="$1" ;;
  esac
  shift
done

PKGS=(cmake ninja-build clang libclang-rt-14-dev libflint-dev libboost-dev nlohmann-json3-dev doctest-dev libcli11-dev zlib1g-dev libssl-dev)
scripts/install-packages.sh fuzz "${PKGS[@]}"
CXX_BIN=$(command -v clang++ || command -v clang++-14 || true)
[ -n "$CXX_BIN" ] || { echo "fuzz: clang++ not found" >&2; exit 2; }

HARNESSES=(model_json circuit_json aiger_ascii aiger_binary blif bristol dot npy params program engine_paths part checkpoint drat)
if [ -n "$ONLY" ]; then IFS=, read -r -a HARNESSES <<< "$ONLY"; fi

GEN=()
command -v ninja >/dev/null 2>&1 && GEN=(-G Ninja)
command -v ccache >/dev/null 2>&1 && GEN+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ ! -f build-fuzz/CMakeCache.txt ]; then
  cmake -S . -B build-fuzz "${GEN[@]}" -DCZ_FUZZ=ON -DCMAKE_CXX_COMPILER="$CXX_BIN" -DCMAKE_BUILD_TYPE=Debug >&2
fi
targets=()
for h in "${HARNESSES[@]}"; do targets+=("fuzz_$h"); done
cmake --build build-fuzz -j "${CZ_FUZZ_JOBS:-$(nproc)}" --target "${targets[@]}" >&2

n=${#HARNESSES[@]}
if [ "$EACH" = 1 ]; then per=$SECONDS_TOTAL; else per=$(( SECONDS_TOTAL / n )); fi
[ "$per" -ge 1 ] || per=1
mkdir -p build-fuzz/findings build-fuzz/logs
status=0
printf '%-14s %8s %12s %10s %8s\n' harness seconds execs peak_rss_mb result
for h in "${HARNESSES[@]}"; do
  mkdir -p "build-fuzz/corpus/$h"
  seeds="tests/fuzz/$h"
  [ -d "$seeds" ] || { echo "fuzz: no seed corpus $seeds" >&2; exit 2; }
  dict=()
  [ -f "fuzz/$h.dict" ] && dict=(-dict="fuzz/$h.dict")
  log="build-fuzz/logs/$h.log"
  rc=0
  "build-fuzz/fuzz_$h" -max_total_time="$per" -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="build-fuzz/findings/$h-" "${dict[@]}" \
    "build-fuzz/corpus/$h" "$seeds" > "$log" 2>&1 || rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
  rss=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
  result=ok
  if [ "$rc" != 0 ]; then
    result="FINDING(rc=$rc)"
    status=1
  fi
  printf '%-14s %8s %12s %10s %8s\n' "$h" "$per" "${execs:-?}" "${rss:-?}" "$result"
  if [ "$rc" != 0 ]; then
    echo "--- $h: last lines of $log (reproducers in build-fuzz/findings/$h-*) ---" >&2
    tail -n 40 "$log" >&2
  fi
done
exit $status
