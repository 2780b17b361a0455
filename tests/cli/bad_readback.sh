#!/usr/bin/env bash
# The bad-input matrix for the files the tool reads back (issue 25): merge parts, checkpoints,
# JSON nesting under every reader, and the flags and output paths around them. Fixtures are in
# $IN (parts p0..p2 of $V = `verify $V --shard I/3`, ck.json a finished checkpoint of $V, and
# edited copies); $ELAPSED_MS is a row's wall time (rows that must refuse before any work).
#
# Rows are "name | rc | setup | command | check", run by tests/cli/matrix_lib.sh, which states
# what every row must do (exit code, one "error: <what> (<where>)" line, nothing written, its own
# empty $TMPDIR, 10 s, 1 GB).
# Usage: bad_readback.sh path/to/circuitzoo
set -u
CZ=$(realpath "$1")
T=$(mktemp -d)
cleanup() { jobs -p | xargs -r kill 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
IN="$T/in"
mkdir -p "$IN"
V="primitive/shift_down -p N=8 -p d=2 -p s=3"
export CZ IN V
source "$(dirname "$0")/matrix_lib.sh"  # run_row, run_matrix, $rows, $fails

# ---- fixtures ----------------------------------------------------------------------------------
for i in 0 1 2; do
  "$CZ" verify $V --shard "$i/3" --json "$IN/p$i.json" >/dev/null 2>&1 || { echo "FAIL fixture p$i.json"; exit 1; }
done
"$CZ" verify $V --checkpoint "$IN/ck.json" >/dev/null 2>&1 || { echo "FAIL fixture ck.json"; exit 1; }
"$CZ" export primitive/shift_down -p N=4 -p d=1 -p s=1 --format model-json -o "$IN/m.json" 2>/dev/null || { echo "FAIL fixture m.json"; exit 1; }
# edit SRC DST PYTHON: DST is SRC's JSON after PYTHON (j: the object, s: its `shard`; a string
# result `text` replaces the whole file).
python3 - "$IN" <<'PY' || { echo "FAIL fixtures (python)"; exit 1; }
import json, os, sys
IN = sys.argv[1]
deep = "[" * 200000 + "]" * 200000
def edit(src, dst, code):
    j = json.load(open(os.path.join(IN, src)))
    env = {"j": j, "s": j.get("shard"), "text": None, "json": json, "deep": deep}
    exec(code, env)
    open(os.path.join(IN, dst), "w").write(env["text"] if env["text"] is not None else json.dumps(j))
B = json.load(open(os.path.join(IN, "p1.json")))["shard"]["domain_instances"]  # instances of $V
edit("p1.json", "count0.json", 's["count"] = 0')
edit("p1.json", "first_passes.json", 'j["failed"] = 1; j["passed"] = j["instances"] - 1; s["first_failure"] = s["begin"] + 7')
edit("p2.json", "idx5.json", f's["index"] = 5; s["begin"] = 5 * {B} // 3; s["end"] = 6 * {B} // 3')
edit("p2.json", "shifted.json", 's["begin"] -= 1; j["instances"] += 1; j["passed"] += 1')
edit("p1.json", "count4.json", f's["count"] = 4; s["begin"] = {B} // 4; s["end"] = {B} // 2; j["instances"] = j["passed"] = {B} // 4')
edit("p1.json", "domain_other.json", 's["domain_instances"] = 3 * 7; s["begin"] = 7; s["end"] = 14; j["instances"] = j["passed"] = 7')
edit("p1.json", "failed_2e64.json", 'j["failed"] = "@"; text = json.dumps(j).replace(\'"@"\', "18446744073709551616")')
edit("p1.json", "failed_half.json", 'j["failed"] = 0.5')
edit("p1.json", "failed_neg.json", 'j["failed"] = -1')
edit("p1.json", "first_half.json", 'j["failed"] = 1; s["first_failure"] = s["begin"] + 0.5')
edit("p1.json", "begin_float.json", 's["begin"] = float(s["begin"])')
edit("p1.json", "instances_float.json", 's["identity"]["instances"] = float(s["identity"]["instances"])')
edit("p1.json", "seed_half.json", 's["options"]["seed"] = 1.5')
edit("p1.json", "deep_top.json", 'text = json.dumps(j)[:-1] + \', "x": \' + deep + "}"')
edit("p1.json", "deep_identity.json", 's["identity"]["params"]["x"] = "@"; text = json.dumps(j).replace(\'"@"\', deep)')
edit("p1.json", "name_1k.json", 's["identity"]["construction"] = "x" * 1000')
edit("p1.json", "name_10m.json", 's["identity"]["construction"] = "x" * (10 << 20)')
edit("p1.json", "name_100m.json", 's["identity"]["construction"] = "x" * (100 << 20)')
edit("p1.json", "device_10m.json", 'j["device"] = "x" * (10 << 20)')
edit("p1.json", "device_1k.json", 'j["device"] = "x" * 1000')
edit("p1.json", "device_ctrl.json", 'j["device"] = "cpu\\u001b[2J"')
edit("ck.json", "ck_first_passes.json", 'j["failed"] = 1; j["first_failure"] = 3')
edit("ck.json", "ck_done_half.json", 'j["done_until"] = 1.5')
edit("ck.json", "ck_done_2e64.json", 'j["done_until"] = "@"; text = json.dumps(j).replace(\'"@"\', "18446744073709551616")')
edit("ck.json", "ck_failed_half.json", 'j["failed"] = 0.5')
edit("ck.json", "ck_version_float.json", 'j["version"] = 1.0')
edit("ck.json", "ck_format_number.json", 'j["format"] = 7')
edit("ck.json", "ck_deep.json", 'j["identity"]["params"]["x"] = "@"; text = json.dumps(j).replace(\'"@"\', deep)')
edit("ck.json", "ck_name_10m.json", 'j["identity"]["construction"] = "x" * (10 << 20)')
open(os.path.join(IN, "model_deep.json"), "w").write('{"format": "circuitzoo.model/1", "layers": ' + deep + "}")
open(os.path.join(IN, "input_deep.json"), "w").write('{"input": ' + deep + "}")
open(os.path.join(IN, "program_deep.json"), "w").write('{"format": "circuitzoo.program/1", "step": ' + deep + "}")
PY
grep -q '"failed": 18446744073709551616' "$IN/failed_2e64.json" || { echo "FAIL fixture failed_2e64.json"; exit 1; }
grep -q '"done_until": 18446744073709551616' "$IN/ck_done_2e64.json" || { echo "FAIL fixture ck_done_2e64.json"; exit 1; }


# ---- the matrix --------------------------------------------------------------------------------
# name | rc | setup | command | check
MATRIX=$(cat <<'ROWS'
# 1. shard count 0 (SIGFPE in shard_range)
part-count-0           | 2 | | $CZ merge $IN/p0.json $IN/count0.json $IN/p2.json | grep -q 'shard 1/0' $ERRF
part-count-0-alone     | 2 | | $CZ merge $IN/count0.json |
# 2. a recorded first failure that passes (the shrinker crashed on an empty failure)
part-first-passes      | 2 | | $CZ merge $IN/p0.json $IN/first_passes.json $IN/p2.json | grep -q 'passes when checked again' $ERRF
ck-first-passes        | 2 | cp $IN/ck_first_passes.json ck.json | $CZ verify $V --checkpoint ck.json --resume --json r.json | cmp ck.json $IN/ck_first_passes.json
# 3. 200,000 levels of nesting, in every JSON reader
part-deep-top          | 2 | | $CZ merge $IN/p0.json $IN/deep_top.json $IN/p2.json | grep -q 'nested deeper' $ERRF
part-deep-identity     | 2 | | $CZ merge $IN/p0.json $IN/deep_identity.json $IN/p2.json | grep -q 'nested deeper' $ERRF
ck-deep                | 2 | cp $IN/ck_deep.json ck.json | $CZ verify $V --checkpoint ck.json --resume | grep -q 'nested deeper' $ERRF
model-deep             | 2 | | $CZ verify --model $IN/model_deep.json --task shift_down | grep -q 'nested deeper' $ERRF
eval-model-deep        | 2 | | $CZ eval --model $IN/model_deep.json --input $IN/input_deep.json | grep -q 'nested deeper' $ERRF
eval-input-deep        | 2 | | $CZ eval --model $IN/m.json --input $IN/input_deep.json | grep -q 'nested deeper' $ERRF
circuit-json-deep      | 2 | | $CZ circuit $IN/model_deep.json | grep -q 'nested deeper' $ERRF
program-deep           | 2 | | $CZ verify --program $IN/program_deep.json --task sd | grep -q 'nested deeper' $ERRF
# 8, 14. long strings: refused, and never echoed whole
part-name-1k           | 2 | | $CZ merge $IN/p0.json $IN/name_1k.json $IN/p2.json | grep -q 'construction is longer than' $ERRF
part-name-10m          | 2 | | $CZ merge $IN/p0.json $IN/name_10m.json $IN/p2.json | grep -q 'string longer than' $ERRF
part-name-100m         | 2 | | $CZ merge $IN/p0.json $IN/name_100m.json $IN/p2.json |
part-device-10m        | 2 | | $CZ merge $IN/p0.json $IN/device_10m.json $IN/p2.json --json r.json |
part-device-1k         | 2 | | $CZ merge $IN/p0.json $IN/device_1k.json $IN/p2.json --json r.json | grep -q 'device is longer than' $ERRF
part-device-control    | 2 | | $CZ merge $IN/p0.json $IN/device_ctrl.json $IN/p2.json --json r.json | grep -q 'control bytes' $ERRF
ck-name-10m            | 2 | cp $IN/ck_name_10m.json ck.json | $CZ verify $V --checkpoint ck.json --resume |
# 9, 18. checkpoints that are not regular files: refused before anything is opened or said
ck-fifo-resume         | 2 | mkfifo ck | $CZ verify $V --checkpoint ck --resume | grep -q 'FIFO' $ERRF
ck-fifo                | 2 | mkfifo ck | $CZ verify $V --checkpoint ck | grep -q 'FIFO' $ERRF
ck-devnull             | 2 | | $CZ verify $V --checkpoint /dev/null | grep -q 'character device' $ERRF
ck-devnull-resume      | 2 | | $CZ verify $V --checkpoint /dev/null --resume | grep -q 'character device' $ERRF
ck-directory           | 2 | mkdir ck | $CZ verify $V --checkpoint ck --resume | grep -q 'is a directory' $ERRF
# 10. outputs in a directory that does not exist: refused before any work
out-dir-prove          | 2 | | $CZ prove --all --json no/d.json | [ $ELAPSED_MS -lt 3000 ]
out-dir-claims-plot    | 2 | | $CZ claims --fast --plot no/x.svg | [ $ELAPSED_MS -lt 3000 ]
out-dir-verify         | 2 | | $CZ verify primitive/shift_down -p N=11 -p d=2 -p s=3 --json no/r.json | [ $ELAPSED_MS -lt 3000 ]
out-dir-checkpoint     | 2 | | $CZ verify primitive/shift_down -p N=11 -p d=2 -p s=3 --checkpoint no/ck.json | [ $ELAPSED_MS -lt 3000 ]
out-dir-export         | 2 | | $CZ export $V --format model-json -o no/m.json | grep -q 'does not exist' $ERRF
out-dir-sweep-csv      | 2 | | $CZ sweep primitive/cumsum --vary N=4,8 -p d=1 --csv no/x.csv | grep -q 'does not exist' $ERRF
out-dir-merge          | 2 | | $CZ merge $IN/p0.json $IN/p1.json $IN/p2.json --json no/r.json | grep -q 'does not exist' $ERRF
out-under-a-file       | 2 | touch f | $CZ verify $V --json f/r.json | grep -q 'Not a directory' $ERRF
# 12. the parts must tile [0, instances) exactly
part-index-5-of-3      | 2 | | $CZ merge $IN/p0.json $IN/p1.json $IN/idx5.json | grep -q 'shard 5/3' $ERRF
part-index-5-extra     | 2 | | $CZ merge $IN/p0.json $IN/p1.json $IN/p2.json $IN/idx5.json | grep -q 'shard 5/3' $ERRF
part-range-shifted     | 2 | | $CZ merge $IN/p0.json $IN/p1.json $IN/shifted.json | grep -q 'not that of shard 2/3' $ERRF
part-count-differs     | 2 | | $CZ merge $IN/p0.json $IN/count4.json $IN/p2.json | grep -q 'shards among parts of' $ERRF
part-domain-differs    | 2 | | $CZ merge $IN/p0.json $IN/domain_other.json $IN/p2.json |
part-duplicate         | 2 | | $CZ merge $IN/p0.json $IN/p1.json $IN/p1.json $IN/p2.json | grep -q 'given twice' $ERRF
part-missing           | 2 | | $CZ merge $IN/p0.json $IN/p2.json | grep -q 'shard 1/3 is missing' $ERRF
# 13. counts are exact unsigned integers within range
part-failed-2^64       | 2 | | $CZ merge $IN/p0.json $IN/failed_2e64.json $IN/p2.json | grep -q 'failed must be a whole number' $ERRF
part-failed-0.5        | 2 | | $CZ merge $IN/p0.json $IN/failed_half.json $IN/p2.json | grep -q 'failed must be a whole number' $ERRF
part-failed-negative   | 2 | | $CZ merge $IN/p0.json $IN/failed_neg.json $IN/p2.json | grep -q 'failed must be a whole number' $ERRF
part-first-0.5         | 2 | | $CZ merge $IN/p0.json $IN/first_half.json $IN/p2.json | grep -q 'first_failure must be a whole number' $ERRF
part-begin-float       | 2 | | $CZ merge $IN/p0.json $IN/begin_float.json $IN/p2.json | grep -q 'begin must be a whole number' $ERRF
part-instances-float   | 2 | | $CZ merge $IN/p0.json $IN/instances_float.json $IN/p2.json | grep -q 'instances must be a whole number' $ERRF
part-seed-1.5          | 2 | | $CZ merge $IN/p0.json $IN/seed_half.json $IN/p2.json |
ck-done-1.5            | 2 | cp $IN/ck_done_half.json ck.json | $CZ verify $V --checkpoint ck.json --resume | grep -q 'done_until must be a whole number' $ERRF
ck-done-2^64           | 2 | cp $IN/ck_done_2e64.json ck.json | $CZ verify $V --checkpoint ck.json --resume | grep -q 'done_until must be a whole number' $ERRF
ck-failed-0.5          | 2 | cp $IN/ck_failed_half.json ck.json | $CZ verify $V --checkpoint ck.json --resume | grep -q 'failed must be a whole number' $ERRF
ck-version-1.0         | 2 | cp $IN/ck_version_float.json ck.json | $CZ verify $V --checkpoint ck.json --resume | grep -q 'format/version' $ERRF
ck-format-number       | 2 | cp $IN/ck_format_number.json ck.json | $CZ verify $V --checkpoint ck.json --resume | grep -q 'format/version' $ERRF
# 15. flags ignored instead of refused
shard-empty            | 2 | | $CZ verify $V --shard '' | grep -q -- '--shard' $ERRF
checkpoint-every-alone | 2 | | $CZ verify $V --checkpoint-every 5 | grep -q 'needs --checkpoint' $ERRF
model-resume           | 2 | | $CZ verify --model $IN/m.json --task shift_down -p s=1 --resume | grep -q 'needs --checkpoint' $ERRF
model-checkpoint-every | 2 | | $CZ verify --model $IN/m.json --task shift_down -p s=1 --checkpoint-every 5 | grep -q 'needs --checkpoint' $ERRF
model-checkpoint       | 2 | | $CZ verify --model $IN/m.json --task shift_down -p s=1 --checkpoint ck.json --resume |
# kept: good parts merge, a finished checkpoint resumes to the same report
merge-ok               | 0 | | $CZ merge $IN/p0.json $IN/p1.json $IN/p2.json --json r.json | grep -q '"failed": 0' r.json && grep -q '"shards": 3' r.json
resume-ok              | 0 | cp $IN/ck.json ck.json | $CZ verify $V --checkpoint ck.json --resume --json r.json | grep -q '"failed": 0' r.json && cmp ck.json $IN/ck.json
checkpoint-every-ok    | 0 | | $CZ verify $V --checkpoint ck.json --checkpoint-every 5 | cmp ck.json $IN/ck.json
ROWS
)

run_matrix "$MATRIX"

echo "bad_readback: $rows rows, $fails failure(s)"
[ "$fails" = 0 ]
