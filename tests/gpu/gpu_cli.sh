#!/usr/bin/env bash
# verify --device (issue 12) through the real binary, on any machine: the flag's values and errors,
# `device --json`, and for every construction with a device path (at its defaults, plus the larger
# domains below) the CPU twin's report equal to the CPU engine's in every byte but how it ran
# (engine, device, timing). A shard run on the twin merges with one run on the CPU.
set -u
CZ="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
. "$(dirname "$0")/../cli/check_lib.sh"  # T, fails, check, err_has, out_has
cd "$T"
# same A.json B.json [KEYS...]: equal but for engine, device, timing and seconds (and KEYS: a merge
# also says how many shards it merged, as tests/scale/shards_checkpoints.sh strips)
same() {
  python3 - "$@" <<'PY' || { echo "FAIL reports differ: $1 $2"; fails=$((fails+1)); }
import json, sys
def strip(j):
    for k in ("engine", "device", "timing", "seconds", *sys.argv[3:]): j.pop(k, None)
    return j
a, b = (strip(json.load(open(p))) for p in sys.argv[1:3])
if a != b:
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k): print("  differs at", k, ":", json.dumps(a.get(k))[:300], "vs", json.dumps(b.get(k))[:300])
    sys.exit(1)
PY
}
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }

# --- the flag and `device` ---
check device-json 0 "$CZ" device --json dev.json
python3 - dev.json <<'PY' || { echo "FAIL device --json"; fails=$((fails+1)); }
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d["built_with_cuda"], bool) and isinstance(d["present"], bool)
assert d["present"] == ("device" in d) and d["present"] != ("why_not" in d)
for p in d["device_paths"]: assert p["construction"] and p["kind"]
PY
check device-text 0 "$CZ" device
check bogus 2 "$CZ" verify primitive/identity --device tpu; err_has bogus "^error: unknown device 'tpu'"
check twin-no-path 2 "$CZ" verify primitive/identity --device twin; err_has twin-no-path "has no device path"
check twin-scalar 2 "$CZ" verify circuit/compare --device twin --scalar; err_has twin-scalar "^error: .*--scalar"
check auto 0 "$CZ" verify primitive/identity --device auto --json auto.json
[ "$(field auto.json device)" = "cpu" ] || { echo "FAIL auto on a path-less construction ran on $(field auto.json device)"; fails=$((fails+1)); }
check cpu 0 "$CZ" verify primitive/identity --json cpu.json
[ "$(field cpu.json device)" = "cpu" ] || { echo "FAIL default device"; fails=$((fails+1)); }
if [ "$(python3 -c "import json; print(json.load(open('dev.json'))['present'])")" = "False" ]; then
  check cuda-none 2 "$CZ" verify primitive/identity --device cuda; err_has cuda-none "^error: .*CUDA"
fi
check byo-twin 2 "$CZ" verify --circuit nothing.aag --task identity --device twin; err_has byo-twin "checked on the CPU"

# --- every device path: the twin's verdict is the CPU engine's ---
paths=$(python3 -c "import json; print(' '.join(p['construction'] for p in json.load(open('dev.json'))['device_paths']))")
# Device paths do not depend on CUDA being built: an empty list would make the loop below test nothing.
[ -n "$paths" ] || { echo "FAIL device --json lists no device path"; fails=$((fails+1)); }
for name in $paths; do
  tag=$(echo "$name" | tr '/' '_')
  check "cpu-$name" 0 "$CZ" verify "$name" --json "$tag.cpu.json"
  check "twin-$name" 0 "$CZ" verify "$name" --device twin --json "$tag.twin.json"
  same "$tag.cpu.json" "$tag.twin.json"
  [ "$(field "$tag.twin.json" device)" = "cpu-twin" ] || { echo "FAIL $name: twin report device"; fails=$((fails+1)); }
done

# --- larger domains, and failing variants (the counterexample is rebuilt through run(k)) ---
if [ -n "$paths" ]; then
  while read -r want name args; do
    tag=$(echo "$name $args" | tr '/ =' '___')
    check "cpu-$tag" "$want" "$CZ" verify "$name" $args --json "$tag.cpu.json"
    check "twin-$tag" "$want" "$CZ" verify "$name" $args --device twin --json "$tag.twin.json"
    same "$tag.cpu.json" "$tag.twin.json"
  done <<'EOF2'
0 circuit/sort -p n=5 -p d=4 -p network=bitonic
0 circuit/compare -p d=10
0 mqar/dyadic -p n=2 -p c=3 -p encoding=onehot
1 mqar/dyadic -p n=4 -p prefix=lsb
1 mqar/dyadic -p n=4 -p variant=paper
EOF2
fi

# --- a shard on the twin merges with a shard on the CPU into the one-run report ---
first=$(echo $paths | cut -d' ' -f1)
if [ -n "$first" ]; then
  check shard0 0 "$CZ" verify "$first" --shard 0/2 --device twin --json p0.json
  check shard1 0 "$CZ" verify "$first" --shard 1/2 --json p1.json
  check merge 0 "$CZ" merge p0.json p1.json --json merged.json
  check whole 0 "$CZ" verify "$first" --json whole.json
  same merged.json whole.json shards
  [ "$(field merged.json shards)" = "2" ] || { echo "FAIL merged shards: $(field merged.json shards)"; fails=$((fails+1)); }
  [ "$(field merged.json device)" = "cpu + cpu-twin" ] || { echo "FAIL merged device: $(field merged.json device)"; fails=$((fails+1)); }
fi

[ "$fails" = 0 ] && echo "gpu_cli: all checks pass ($(echo $paths | wc -w) device paths)" || { echo "gpu_cli: $fails failures"; exit 1; }
