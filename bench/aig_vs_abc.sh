#!/usr/bin/env bash
# Bit-sliced simulation of an ABC-written AIGER against ABC's &sim on the same file, same run.
#   bench/aig_vs_abc.sh BUILD_DIR [n d]     (default circuit/sort n=64 d=16)
# ABC's &sim refuses a combinational AIG, so ABC gets a copy with one latch (next state 0,
# bench/aiger_add_latch.py); we read the file ABC wrote. Patterns: &sim -F 100 -W 64 =
# 100·64·64 = 409,600, the same count as BM_aig_sim's argument. ABC's "Time =" is process CPU time;
# ours is thread CPU time of the simulation loop (random inputs drawn per block included).
set -eu
B=${1:?build dir}; n=${2:-64}; d=${3:-16}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$B/circuitzoo" export circuit/sort -p n="$n" -p d="$d" --format aiger-binary -o "$T/s.aig" 2>/dev/null
berkeley-abc -c "read $T/s.aig; &get; &st; write_aiger $T/g.aig" >/dev/null
python3 "$(dirname "$0")/aiger_add_latch.py" "$T/g.aig" "$T/gl.aig"
abc_out=$(berkeley-abc -c "read $T/gl.aig; &get; &sim -F 100 -W 64" 2>&1)
abc_s=$(echo "$abc_out" | grep -o 'No bug detected.*Time = *[0-9.]*' | grep -o '[0-9.]*$')
abc_read=$( { /usr/bin/time -f "%U" berkeley-abc -c "read $T/g.aig" >/dev/null; } 2>&1 | tail -1)
ours=$(CZ_BENCH_AIG="$T/g.aig" "$B/bench/bench_circuits" --benchmark_filter=BM_aig_sim/409600/8/ 2>&1 | tail -1)
sim=$(echo "$ours" | tr ' ' '\n' | grep '^s_sim=' | cut -d= -f2)
read_s=$(echo "$ours" | tr ' ' '\n' | grep '^s_read=' | cut -d= -f2)
echo "$ours"
python3 -c "print(f'ABC &sim {float(\"$abc_s\"):.3f} s, ours {float(\"$sim\"):.3f} s: ours/ABC speed = {float(\"$abc_s\")/float(\"$sim\"):.2f}x; read: ours {float(\"$read_s\"):.3f} s, ABC process (read only) {float(\"$abc_read\"):.2f} s user')"
