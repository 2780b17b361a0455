#!/usr/bin/env bash
# Runs ON the lent device machine from the repository root (scripts/gpu-bundle.sh made .gpu/):
#   bash .gpu/gpu-check.sh            (bash .gpu/gpu-check.sh --dry-run: the steps and limits only)
# Each step has its own time limit; the limits add up to at most 450 s (issue 29 item 8: the whole
# device budget is 15 minutes with start-up, one rerun must fit, and one call is capped at 600 s).
# Results go to $OUT (JSON and logs), a short summary to stdout. A step that fails is reported and
# the next one still runs.
# Libraries (issue 29 item 9): the bundle's Debian libraries (.gpu/lib, with libstdc++/libgcc_s)
# are given to OUR binaries only, through wrappers; python3/torch run with the machine's own
# environment (a torch built with a newer GCC fails to import against Debian's libstdc++).
set -u
G="$(cd "$(dirname "$0")" && pwd)"
DRY=0
[ "${1:-}" = "--dry-run" ] && DRY=1
OUT="${OUT:-$G/out}"
# The caller's LD_LIBRARY_PATH without the bundle's lib (the old recipe exported it for everything).
BASE_LD=$(printf '%s' "${LD_LIBRARY_PATH:-}" | tr ':' '\n' | grep -vxF "$G/lib" | grep -v '^$' | paste -sd: -)
if [ -n "$BASE_LD" ]; then export LD_LIBRARY_PATH="$BASE_LD"; else unset LD_LIBRARY_PATH; fi
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
for b in "$G"/bin/*; do  # $W/NAME runs .gpu/bin/NAME with the bundle's libraries first
  [ -e "$b" ] || continue
  printf '#!/bin/sh\nLD_LIBRARY_PATH="%s/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "%s" "$@"\n' "$G" "$b" >"$W/$(basename "$b")"
  chmod +x "$W/$(basename "$b")"
done
CZ="$W/circuitzoo"
[ "$DRY" = 1 ] || mkdir -p "$OUT"
summary="$OUT/summary.txt"
[ "$DRY" = 1 ] || : >"$summary"
total=0
step() {  # step NAME SECONDS CMD... : stdout+stderr to $OUT/NAME.log
  local name=$1 limit=$2; shift 2
  total=$((total + limit))
  if [ "$DRY" = 1 ]; then
    printf '%-28s limit %4s s  (sum %4s s)  %s\n' "$name" "$limit" "$total" "$*"
    return
  fi
  local t0=$(date +%s.%N)
  timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
  local rc=$? t1=$(date +%s.%N)
  printf '%-28s rc=%-3s %7.1f s (limit %s)\n' "$name" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" "$limit" | tee -a "$summary"
}
# First, what the machine is: its C library and the GPU (a failed step below is read against these).
step ldd_version 5 ldd --version
step nvidia_smi 10 sh -c "nvidia-smi; nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv > '$OUT/nvidia-smi.csv'"
step device 15 "$CZ" device --json "$OUT/device.json"
step test_gpu_device 60 "$W/test_gpu_device"
# The CPU twin suite (CI runs it whole) less its four slowest engine comparisons (18-30 s each on
# CI's 2 cores; the rest ~10 s): here it only shows the bundle's binaries load and agree on this machine.
step test_gpu_twin 30 "$W/test_gpu" --duration=true --test-case-exclude='mutants: twin and CPU engine fail*,mqar/dyadic: the LOP3 twin agrees*,every encoding: a query-mask model*,mqar/attention twin equals the CPU engine on seeded*'
step device_cli 90 bash "$G/tests/gpu_device_cli.sh" "$CZ"
if [ "$DRY" = 1 ] || [ -e "$W/bench_gpu" ]; then  # the CUDA cases only (BM_*_cuda_*, BM_*Cuda): the twins are measured in CI
  step bench_gpu 60 "$W/bench_gpu" --benchmark_filter='[Cc]uda' --benchmark_min_time=0.2 --benchmark_format=json \
    --benchmark_out="$OUT/bench_gpu.json"
fi
if [ "$DRY" = 1 ] || [ -f "$G/torch_fftconv.py" ]; then
  step torch_fftconv 45 sh -c "python3 '$G/torch_fftconv.py' --device cuda --batch 256 --logN 12 14 16 > '$OUT/torch_fftconv.jsonl'"
fi
# Frontier (issue 12): the whole dyadic domain (target < 60 s); shards of the attention domain
# (1.57e12 instances) give its rate: 1/10^6 first (1.57e6 instances: written even at 10^5/s),
# then 1/10^5 (1.57e7) for a steadier figure.
step frontier_dyadic 75 "$CZ" verify mqar/dyadic -p n=4 -p c=8 --exhaustive --device cuda --json "$OUT/frontier_dyadic.json"
step frontier_attention_1e6 20 "$CZ" verify mqar/attention -p n=6 -p c=6 --exhaustive --device cuda \
  --shard 0/1000000 --json "$OUT/frontier_attention_1e6.json"
step frontier_attention_1e5 40 "$CZ" verify mqar/attention -p n=6 -p c=6 --exhaustive --device cuda \
  --shard 1/100000 --json "$OUT/frontier_attention_1e5.json"
if [ "$DRY" = 1 ]; then
  echo "sum of limits: $total s (at most 450)"
  [ "$total" -le 450 ] || { echo "error: step limits add to $total s, over 450 (gpu-check)" >&2; exit 2; }
else
  echo "results in $OUT (limits added to $total s)"
fi
