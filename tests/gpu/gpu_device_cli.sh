#!/usr/bin/env bash
# On a machine with a CUDA device only (exit 77 = skipped elsewhere): every device path's report
# under --device cuda equals the CPU engine's in every byte but how it ran, and --device auto
# picks the GPU.
set -u
CZ="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
"$CZ" device --json dev.json >/dev/null 2>&1 || { echo "device --json failed"; exit 1; }
present=$(python3 -c "import json; print(json.load(open('dev.json'))['present'])")
[ "$present" = "True" ] || { echo "skipped: no CUDA device"; exit 77; }
fails=0
paths=$(python3 -c "import json; print(' '.join(p['construction'] for p in json.load(open('dev.json'))['device_paths']))")
for name in $paths; do
  tag=$(echo "$name" | tr '/' '_')
  "$CZ" verify "$name" --json "$tag.cpu.json" >/dev/null 2>&1
  "$CZ" verify "$name" --device cuda --json "$tag.cuda.json" >/dev/null 2>"$tag.err" || { echo "FAIL $name on cuda"; cat "$tag.err"; fails=$((fails+1)); continue; }
  python3 - "$tag.cpu.json" "$tag.cuda.json" <<'PY' || { echo "FAIL $name: cuda report differs"; fails=$((fails+1)); }
import json, sys
def strip(j):
    for k in ("engine", "device", "timing", "seconds"): j.pop(k, None)
    return j
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert b["device"].startswith("cuda:"), b["device"]
assert strip(a) == strip(b)
PY
  "$CZ" verify "$name" --device auto --json "$tag.auto.json" >/dev/null 2>&1
  python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['device'].startswith('cuda:')" "$tag.auto.json" || { echo "FAIL $name: auto did not pick cuda"; fails=$((fails+1)); }
done
[ "$fails" = 0 ] && echo "gpu_device_cli: all checks pass ($(echo $paths | wc -w) device paths)" || exit 1
