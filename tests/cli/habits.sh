#!/usr/bin/env bash
# Issue 26 items 9 and 10 through the real binary: "did you mean" for unknown names, `-` (stdin)
# for inputs, zoology's parameter names and a --config file for verify/sweep/mqar-data, the
# sweep CSV's fixed parameters, and what `--resume` says it resumed from.
set -u
CZ="$1"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
check() {  # check NAME EXPECTED_RC CMD...
  local name=$1 want=$2; shift 2
  "$@" >"$T/out" 2>"$T/err"; local rc=$?
  if [ "$rc" != "$want" ]; then echo "FAIL $name: exit $rc, want $want"; cat "$T/err"; fails=$((fails+1)); fi
}
err_has() { grep -q -- "$2" "$T/err" || { echo "FAIL $1: stderr lacks '$2'"; cat "$T/err"; fails=$((fails+1)); }; }
out_has() { grep -q -- "$2" "$T/out" || { echo "FAIL $1: stdout lacks '$2'"; head -c 600 "$T/out"; fails=$((fails+1)); }; }
py() { /usr/bin/python3 - "$@" || { echo "FAIL python check: $*"; fails=$((fails+1)); }; }

# Did you mean (item 10).
check typo-construction 2 "$CZ" verify primitive/shift_dwon; err_has typo-construction "did you mean 'primitive/shift_down'"
check short-construction 2 "$CZ" stats shift_down; err_has short-construction "did you mean 'primitive/shift_down'"
check typo-param 2 "$CZ" stats primitive/shift_down -p NN=4; err_has typo-param "did you mean 'N'"
check far-param 2 "$CZ" stats primitive/shift_down -p zzzzzz=4; grep -q "did you mean" "$T/err" && { echo "FAIL far-param: suggested"; fails=$((fails+1)); }

# `--input -` (item 10): eval reads the input from standard input; two stdin inputs are refused.
check export 0 "$CZ" export primitive/shift_down -p N=4 -p d=1 -p s=1 --format model-json -o "$T/m.json"
echo '{"input": [[5],[-7],["123456789012345678901"],[2]]}' >"$T/in.json"
check eval-file 0 "$CZ" eval --model "$T/m.json" --input "$T/in.json"; cp "$T/out" "$T/eval-file.out"
"$CZ" eval --model "$T/m.json" --input - <"$T/in.json" >"$T/out" 2>"$T/err" || { echo "FAIL eval-stdin"; cat "$T/err"; fails=$((fails+1)); }
cmp -s "$T/out" "$T/eval-file.out" || { echo "FAIL eval-stdin: output differs from --input FILE"; fails=$((fails+1)); }
"$CZ" eval --model - --input - <"$T/m.json" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "standard input is already read" "$T/err" || { echo "FAIL two-stdin: exit $rc"; cat "$T/err"; fails=$((fails+1)); }

# zoology's names (item 9): -p vocab_size / num_kv_pairs / input_seq_len are ours c / n|kv / N.
check zoo-names 0 "$CZ" stats mqar/dyadic -p num_kv_pairs=8 -p vocab_size=16 --json "$T/zoo.json"
check our-names 0 "$CZ" stats mqar/dyadic -p n=8 -p c=16 --json "$T/ours.json" --no-timing
py "$T/zoo.json" "$T/ours.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["params"] == b["params"] and a["params"]["n"] == 8 and a["params"]["c"] == 16
PY
check zoo-both 2 "$CZ" stats mqar/dyadic -p c=16 -p vocab_size=16; err_has zoo-both "zoology's name for 'c'"
check zoo-task 0 "$CZ" verify mqar/attention -p layout=zoology -p input_seq_len=16 -p num_kv_pairs=2 -p vocab_size=20 --samples 20 --json "$T/att.json"
py "$T/att.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["params"]
assert (p["N"], p["kv"], p["c"]) == (16, 2, 20), p
PY

# mqar-data: zoology's flag names give the same files; --random-non-queries only touches fillers.
check md-ours 0 "$CZ" mqar-data --vocab 66 --seq-len 64 --kv 8 --examples 20 --seed 4 --inputs "$T/i1.npy" --labels "$T/l1.npy"
check md-zoo 0 "$CZ" mqar-data --vocab-size 66 --input-seq-len 64 --num-kv-pairs 8 --num-examples 20 --seed 4 --inputs "$T/i2.npy" --labels "$T/l2.npy"
cmp -s "$T/i1.npy" "$T/i2.npy" && cmp -s "$T/l1.npy" "$T/l2.npy" || { echo "FAIL md-zoo: files differ"; fails=$((fails+1)); }
check md-noise 0 "$CZ" mqar-data --vocab 66 --seq-len 64 --kv 8 --examples 20 --seed 4 --random-non-queries --inputs "$T/i3.npy" --labels "$T/l3.npy"
check md-noise-false 0 "$CZ" mqar-data --vocab 66 --seq-len 64 --kv 8 --examples 20 --seed 4 --random-non-queries false --inputs "$T/i4.npy" --labels "$T/l4.npy"
cmp -s "$T/i1.npy" "$T/i4.npy" || { echo "FAIL md-noise-false differs"; fails=$((fails+1)); }
check md-noise-bad 2 "$CZ" mqar-data --random-non-queries maybe --inputs "$T/x.npy" --labels "$T/y.npy"
py "$T/i1.npy" "$T/l1.npy" "$T/i3.npy" "$T/l3.npy" <<'PY'
import sys
import numpy as np
i1, l1, i3, l3 = (np.load(p) for p in sys.argv[1:])
assert (l1 == l3).all()
kept = i1 != 0
assert (i3[kept] == i1[kept]).all() and (i3 >= 0).all() and (i3 < 66).all()
assert (i3[~kept] != 0).mean() > 0.9
PY
check md-noise-verifies 0 "$CZ" verify mqar/attention --from-npy "$T/i3.npy" "$T/l3.npy"

# --config FILE (item 9): the file's settings, the command line's flags win, unknown keys refused.
cat >"$T/v.json" <<'JSON'
{"construction": "primitive/shift_down", "params": {"N": 6, "s": 2}, "samples": 50, "seed": 9}
JSON
check cfg-verify 0 "$CZ" verify --config "$T/v.json" --json "$T/cv.json" --no-timing
check cli-verify 0 "$CZ" verify primitive/shift_down -p N=6 -p s=2 --samples 50 --seed 9 --json "$T/lv.json" --no-timing
cmp -s "$T/cv.json" "$T/lv.json" || { echo "FAIL cfg-verify: report differs from the flags'"; fails=$((fails+1)); }
check cfg-override 0 "$CZ" verify --config "$T/v.json" --seed 10 -p s=1 --json "$T/co.json"
py "$T/co.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["seed"] == 10 and r["params"]["s"] == 1 and r["params"]["N"] == 6 and r["instances"] == 50, r["params"]
PY
echo '{"construction": "primitive/shift_down", "sample": 5}' >"$T/bad.json"
check cfg-unknown 2 "$CZ" verify --config "$T/bad.json"; err_has cfg-unknown "did you mean 'samples'"
echo '[1, 2]' >"$T/arr.json"
check cfg-not-object 2 "$CZ" verify --config "$T/arr.json"; err_has cfg-not-object "JSON object"
echo '{"construction": "primitive/cumsum", "params": {"d": 2}, "vary": {"N": [4, 8]}}' >"$T/s.json"
check cfg-sweep 0 "$CZ" sweep --config "$T/s.json" --csv "$T/s.csv"
head -1 "$T/s.csv" | grep -q "^N,.*param.d" || { echo "FAIL cfg-sweep: CSV header $(head -1 "$T/s.csv")"; fails=$((fails+1)); }
check sweep-needs-vary 2 "$CZ" sweep primitive/cumsum; err_has sweep-needs-vary "vary"
# a zoology MQARConfig dump states random_non_queries (zoology's default True): it is kept; a file
# without the key gets the default false, as the command line and Python do (issue 39)
cat >"$T/z.json" <<JSON
{"name": "multiquery_ar", "vocab_size": 66, "input_seq_len": 64, "num_kv_pairs": 8, "num_examples": 20, "seed": 4,
 "power_a": 0.01, "random_non_queries": true, "include_slices": true, "inputs": "$T/i5.npy", "labels": "$T/l5.npy"}
JSON
check cfg-mqar 0 "$CZ" mqar-data --config "$T/z.json"
cmp -s "$T/i3.npy" "$T/i5.npy" && cmp -s "$T/l3.npy" "$T/l5.npy" || { echo "FAIL cfg-mqar: not the random_non_queries batch"; fails=$((fails+1)); }
check cfg-mqar-off 0 "$CZ" mqar-data --config "$T/z.json" --random-non-queries false --inputs "$T/i6.npy" --labels "$T/l6.npy"
cmp -s "$T/i1.npy" "$T/i6.npy" || { echo "FAIL cfg-mqar-off: flag did not win"; fails=$((fails+1)); }
sed "s|\"random_non_queries\": true, ||; s|i5.npy|i7.npy|; s|l5.npy|l7.npy|" "$T/z.json" >"$T/z2.json"
check cfg-mqar-default 0 "$CZ" mqar-data --config "$T/z2.json"
cmp -s "$T/i1.npy" "$T/i7.npy" && cmp -s "$T/l1.npy" "$T/l7.npy" || { echo "FAIL cfg-mqar-default: not the command line's default batch"; fails=$((fails+1)); }
check md-needs-paths 2 "$CZ" mqar-data --vocab 66; err_has md-needs-paths "required"

# The sweep CSV carries the fixed parameters (item 10), given or default, as param.KEY columns.
check sweep-csv 0 "$CZ" sweep primitive/cumsum --vary N=4,8 -p d=2 --csv "$T/c.csv" --no-timing
py "$T/c.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["N"] for r in rows] == ["4", "8"] and all(r["param.d"] == "2" for r in rows), rows
assert "param.N" not in rows[0] and any(k.startswith("param.") and k != "param.d" for k in rows[0])
PY

# --resume says where it resumed (item 10): a checkpoint of a finished run resumes at its end.
check ckpt 0 "$CZ" verify mqar/attention -p n=2 -p c=3 --exhaustive --checkpoint "$T/r.ckpt" --threads 1
if [ -f "$T/r.ckpt" ]; then
  check resume 0 "$CZ" verify mqar/attention -p n=2 -p c=3 --exhaustive --checkpoint "$T/r.ckpt" --resume --threads 1
  err_has resume "note: resumed from $T/r.ckpt at instance [0-9]* of \[0, [0-9]*): [0-9]* done (100.0%), 0 failed so far"
else
  echo "FAIL ckpt: no checkpoint file left to resume from"; fails=$((fails+1))
fi
check resume-fresh 0 "$CZ" verify mqar/attention -p n=2 -p c=3 --exhaustive --checkpoint "$T/new.ckpt" --resume --threads 1
err_has resume-fresh "starting from the beginning"

[ "$fails" = 0 ] && echo "habits: all passed" || { echo "habits: $fails failed"; exit 1; }
