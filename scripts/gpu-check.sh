#!/usr/bin/env bash
# Runs ON the lent device machine from the repository root (scripts/gpu-bundle.sh made .gpu/):
#   LD_LIBRARY_PATH=$PWD/.gpu/lib bash .gpu/gpu-check.sh
# Each step has its own time limit (all together under 8 minutes); results go to $OUT (JSON and
# logs) and a short summary to stdout. A step that fails is reported and the next one still runs.
set -u
G="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$G/out}"
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$G/lib:${LD_LIBRARY_PATH:-}"
CZ="$G/bin/circuitzoo"
summary="$OUT/summary.txt"
: >"$summary"
step() {  # step NAME SECONDS CMD... : stdout+stderr to $OUT/NAME.log
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s.%N)
  timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
  local rc=$? t1=$(date +%s.%N)
  printf '%-28s rc=%-3s %7.1f s\n' "$name" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" | tee -a "$summary"
}
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv >"$OUT/nvidia-smi.csv" 2>&1
step device 30 "$CZ" device --json "$OUT/device.json"
step test_gpu_device 90 "$G/bin/test_gpu_device"
step test_gpu_twin 90 "$G/bin/test_gpu"
step device_cli 120 bash "$G/tests/gpu_device_cli.sh" "$CZ"
if [ -x "$G/bin/bench_gpu" ]; then
  step bench_gpu 150 "$G/bin/bench_gpu" --benchmark_min_time=0.2 --benchmark_format=json --benchmark_out="$OUT/bench_gpu.json"
fi
if [ -f "$G/torch_fftconv.py" ]; then
  step torch_fftconv 60 sh -c "python3 '$G/torch_fftconv.py' --device cuda --batch 256 --logN 12 14 16 > '$OUT/torch_fftconv.jsonl'"
fi
# Frontier (issue 12): the whole dyadic domain; a measured shard of the attention domain gives its rate.
step frontier_dyadic 75 "$CZ" verify mqar/dyadic -p n=4 -p c=8 --exhaustive --device cuda --json "$OUT/frontier_dyadic.json"
step frontier_attention_shard 60 "$CZ" verify mqar/attention -p n=6 -p c=6 --exhaustive --device cuda \
  --shard 0/1000 --json "$OUT/frontier_attention_shard.json"
echo "results in $OUT"
