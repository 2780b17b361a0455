#!/usr/bin/env bash
# The CLI's contract through the real binary: exit codes 0/1/2, `error: <what> (<where>)` on
# stderr, JSON on stdout with --json -, model export -> eval round trip, no partial files.
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
err_has() {  # err_has NAME PATTERN
  grep -q -- "$2" "$T/err" || { echo "FAIL $1: stderr lacks '$2'"; cat "$T/err"; fails=$((fails+1)); }
}
out_has() {
  grep -q -- "$2" "$T/out" || { echo "FAIL $1: stdout lacks '$2'"; head -c 600 "$T/out"; fails=$((fails+1)); }
}

check list 0 "$CZ" list; out_has list primitive/shift_down
check list-json 0 "$CZ" list --json -; python3 -c "import json,sys; d=json.load(open('$T/out')); assert any(c['name']=='primitive/remember' for c in d)" || { echo "FAIL list-json"; fails=$((fails+1)); }
check verify-ok 0 "$CZ" verify primitive/shift_down --threads 2
check verify-json 0 "$CZ" verify primitive/shift_down -p N=6 --json -
python3 - "$T/out" <<'PY' || { echo "FAIL verify-json schema"; fails=$((fails+1)); }
import json, sys
r = json.load(open(sys.argv[1]))
assert r["tool"] == "circuitzoo" and r["construction"] == "primitive/shift_down"
# 6x2 = 12 cells: every {0,1} matrix, then 10000 signed samples (docs/contract.md, issue 24 D2)
assert r["domain"] == "exhaustive+sampled" and r["instances"] == 2**12 + 10000 and r["passed"] == 2**12 + 10000 and r["failed"] == 0
assert r["domain_description"].startswith("all 4096 matrices in {0,1}^(6x2), then 10000 seeded random 6x2 matrices, entries in [-3, 3]")
assert r["counterexample"] is None and r["model"]["L"] == 1 and r["model"]["conv"] == "causal"
assert any(c["quantity"] == "layers" and c["claimed"] == "3" and c["achieved"] == 1 for c in r["claims"])
PY
check shift-up-causal 1 "$CZ" verify primitive/shift_up -p conv=causal
err_has shift-up-causal "impossible under causal"
err_has shift-up-causal "counterexample"
check shift-up-cyclic 0 "$CZ" verify primitive/shift_up -p conv=cyclic
check shift-up-anticausal 0 "$CZ" verify primitive/shift_up -p conv=anticausal
check unknown-construction 2 "$CZ" verify nope/none; err_has unknown-construction "^error: unknown construction"
check bad-param 2 "$CZ" verify primitive/shift_down -p s=abc; err_has bad-param "^error: .*(-p s=abc)"
check unknown-param 2 "$CZ" verify primitive/shift_down -p q=1; err_has unknown-param "^error: unknown parameter"
check param-no-eq 2 "$CZ" verify primitive/shift_down -p s; err_has param-no-eq "^error: expected KEY=VALUE"
check bad-flag 2 "$CZ" verify --bogus; err_has bad-flag "^error:"
check sampled 0 "$CZ" verify primitive/cumsum -p N=16 -p d=4 --samples 500 --seed 3 --json "$T/r.json"
python3 -c "import json; r=json.load(open('$T/r.json')); assert r['domain']=='sampled' and r['instances']==500 and r['seed']==3" || { echo "FAIL sampled json"; fails=$((fails+1)); }

# export -> eval round trip, and eval agrees with the semantics (shift_down by 1)
check export 0 "$CZ" export primitive/shift_down -p N=4 -p d=1 -p s=1 --format model-json -o "$T/m.json"
echo '{"input": [[5],[-7],["123456789012345678901"],[2]]}' > "$T/in.json"
check eval 0 "$CZ" eval --model "$T/m.json" --input "$T/in.json"
python3 -c "import json; o=json.load(open('$T/out'))['output']; assert o==[[0],[5],[-7],['123456789012345678901']], o" || { echo "FAIL eval output"; fails=$((fails+1)); }
check export-bad-format 2 "$CZ" export primitive/identity --format png -o "$T/x.png"; err_has export-bad-format "unknown format"
[ -e "$T/x.png" ] && { echo "FAIL partial file"; fails=$((fails+1)); }
check export-unwritable 2 "$CZ" export primitive/identity --format model-json -o "$T/no/such/dir/m.json"; err_has export-unwritable "^error: cannot write"
ls "$T/no" >/dev/null 2>&1 && { echo "FAIL created dir"; fails=$((fails+1)); }

# malformed model files: clear error, exit 2
echo '{"format":"circuitzoo.model/1"' > "$T/bad1.json"
check eval-malformed-json 2 "$CZ" eval --model "$T/bad1.json" --input "$T/in.json"; err_has eval-malformed-json "malformed JSON"
python3 -c "
import json; m=json.load(open('$T/m.json')); m['layers'][0]['W']=[[1,2]]; json.dump(m,open('$T/bad2.json','w'))
m=json.load(open('$T/m.json')); m['layers'][0]['h'][0][0]=0.5; json.dump(m,open('$T/bad3.json','w'))
m=json.load(open('$T/m.json')); m['conv']='sideways'; json.dump(m,open('$T/bad4.json','w'))
m=json.load(open('$T/m.json')); m['ring']='Fp:10'; json.dump(m,open('$T/bad5.json','w'))"
check eval-bad-shape 2 "$CZ" eval --model "$T/bad2.json" --input "$T/in.json"; err_has eval-bad-shape "layers\[0\].W"
check eval-float 2 "$CZ" eval --model "$T/bad3.json" --input "$T/in.json"; err_has eval-float "floating-point"
check eval-conv 2 "$CZ" eval --model "$T/bad4.json" --input "$T/in.json"; err_has eval-conv "unknown conv mode"
check eval-nonprime 2 "$CZ" eval --model "$T/bad5.json" --input "$T/in.json"; err_has eval-nonprime "prime"
echo '{"input": [[1],[2]]}' > "$T/in2.json"
check eval-input-shape 2 "$CZ" eval --model "$T/m.json" --input "$T/in2.json"; err_has eval-input-shape "the model wants 4x1"
check eval-missing 2 "$CZ" eval --model "$T/none.json" --input "$T/in.json"; err_has eval-missing "cannot read"

check verify-all 0 "$CZ" verify --all --json "$T/all.json"
python3 -c "import json; a=json.load(open('$T/all.json')); assert isinstance(a,list) and len(a)>=7 and all(r['failed']==0 for r in a)" || { echo "FAIL verify --all json"; fails=$((fails+1)); }
check stats 0 "$CZ" stats primitive/remember --json -
out_has stats '"params_dense"'

# sweep: JSON with rows and fits, CSV with one row per value, bad --vary is an input error
check sweep 0 "$CZ" sweep primitive/cumsum --vary N=4,8,16,32 -p d=2 --json "$T/sw.json" --csv "$T/sw.csv"
python3 - "$T/sw.json" "$T/sw.csv" <<'PY' || { echo "FAIL sweep output"; fails=$((fails+1)); }
import json, sys
s = json.load(open(sys.argv[1]))
assert [r["value"] for r in s["rows"]] == [4, 8, 16, 32]
f = {x["quantity"]: x["fit"] for x in s["fits"] if "fit" in x and x.get("against") == "N"}
assert abs(f["model.params_dense"]["slope"] - 1) < 0.1 and abs(f["model.L"]["slope"]) < 1e-9
lines = open(sys.argv[2]).read().strip().split("\n")
assert len(lines) == 5 and lines[0].startswith("N,")
PY
check sweep-bad-vary 2 "$CZ" sweep primitive/cumsum --vary N; err_has sweep-bad-vary "^error: expected KEY=VALUE"
check sweep-bad-value 2 "$CZ" sweep primitive/cumsum --vary N=4,x; err_has sweep-bad-value "^error: 'N' must be an integer"

# Determinism (contract: timings under one `timing` key; --no-timing leaves everything else
# byte-identical for the same command and seed on any thread count).
same() {  # same NAME FILE1 FILE2
  cmp -s "$2" "$3" || { echo "FAIL $1: outputs differ"; diff "$2" "$3" | head -5; fails=$((fails+1)); }
}
check det-stats-a 0 "$CZ" stats mqar/dyadic -p n=4 -p c=4 --no-timing --json "$T/d1.json"
check det-stats-b 0 "$CZ" stats mqar/dyadic -p n=4 -p c=4 --no-timing --json "$T/d2.json"
same det-stats "$T/d1.json" "$T/d2.json"
grep -q '"timing"' "$T/d1.json" && { echo "FAIL det-stats: --no-timing left a timing key"; fails=$((fails+1)); }
check det-stats-timing 0 "$CZ" stats mqar/dyadic -p n=4 -p c=4 --json "$T/d3.json"
python3 -c "import json; j=json.load(open('$T/d3.json')); assert 'build_seconds' in j['timing'] and 'build_seconds' not in j['metrics']" || { echo "FAIL det-stats-timing: timings not under 'timing'"; fails=$((fails+1)); }
check det-verify-t1 0 "$CZ" verify mqar/dyadic -p n=2 -p c=3 --threads 1 --no-timing --json "$T/v1.json"
check det-verify-t2 0 "$CZ" verify mqar/dyadic -p n=2 -p c=3 --threads 2 --no-timing --json "$T/v2.json"
check det-verify-t3 0 "$CZ" verify mqar/dyadic -p n=2 -p c=3 --threads 3 --no-timing --json "$T/v3.json"
same det-verify-12 "$T/v1.json" "$T/v2.json"; same det-verify-13 "$T/v1.json" "$T/v3.json"
check det-fail-t1 1 "$CZ" verify primitive/shift_up -p conv=causal --threads 1 --no-timing --json "$T/f1.json"
check det-fail-t2 1 "$CZ" verify primitive/shift_up -p conv=causal --threads 2 --no-timing --json "$T/f2.json"
same det-fail "$T/f1.json" "$T/f2.json"
check det-sample-t1 0 "$CZ" verify primitive/cumsum -p N=64 -p d=4 --samples 3000 --seed 7 --threads 1 --no-timing --json "$T/s1.json"
check det-sample-t2 0 "$CZ" verify primitive/cumsum -p N=64 -p d=4 --samples 3000 --seed 7 --threads 2 --no-timing --json "$T/s2.json"
same det-sample "$T/s1.json" "$T/s2.json"
check det-sweep-a 0 "$CZ" sweep mqar/dyadic --vary n=2,4 -p c=8 --no-timing --csv "$T/c1.csv" --json "$T/j1.json"
check det-sweep-b 0 "$CZ" sweep mqar/dyadic --vary n=2,4 -p c=8 --no-timing --csv "$T/c2.csv" --json "$T/j2.json"
same det-sweep-csv "$T/c1.csv" "$T/c2.csv"; same det-sweep-json "$T/j1.json" "$T/j2.json"
check det-sweep-timing 0 "$CZ" sweep mqar/dyadic --vary n=2,4 -p c=8 --csv "$T/c3.csv"
head -1 "$T/c3.csv" | grep -q 'timing.build_seconds' || { echo "FAIL det-sweep-timing: CSV lacks timing columns"; fails=$((fails+1)); }

# Claims: a paper claim on an artifact that failed verification is never "met"; a non-binding
# paper claim that our artifact misses shows "missed" and does not change the exit code.
python3 - "$T/f1.json" <<'PY' || { echo "FAIL claims-on-failed: a claim shows met"; fails=$((fails+1)); }
import json, sys
r = json.load(open(sys.argv[1]))
assert r["verdict"] == "FAILED" and r["failed"] > 0
assert all(c["status"] != "met" for c in r["claims"]), r["claims"]
assert any(c["status"] == "unverified" for c in r["claims"])
PY
check remember-missed 0 "$CZ" verify primitive/remember --no-timing --json "$T/rm.json"
python3 - "$T/rm.json" <<'PY' || { echo "FAIL remember-missed"; fails=$((fails+1)); }
import json, sys
r = json.load(open(sys.argv[1]))
bad = [c for c in r["claims"] if c["holds"] is False]
assert bad and all(not c["binding"] and c["status"] == "missed" for c in bad), bad
PY

# The block engine and the scalar reference path give the same report (apart from `engine`),
# on a passing and on a failing construction, for several block sizes.
for extra in "-p n=2 -p c=3" "-p n=4 -p c=4 -p variant=paper"; do
  tag=$(echo "$extra" | tr -dc 'a-z0-9')
  "$CZ" verify mqar/dyadic $extra --no-timing --scalar --json "$T/sc-$tag.json" >/dev/null 2>&1
  for bs in 1 7 4096; do
    "$CZ" verify mqar/dyadic $extra --no-timing --block-size $bs --threads 2 --json "$T/bl-$tag-$bs.json" >/dev/null 2>&1
    python3 - "$T/sc-$tag.json" "$T/bl-$tag-$bs.json" <<'PY' || { echo "FAIL block-vs-scalar $extra block-size $bs"; fails=$((fails+1)); }
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert a["engine"]["path"] == "scalar" and b["engine"]["path"] == "block", (a["engine"], b["engine"])
a.pop("engine"); b.pop("engine")
assert a == b
PY
  done
done
python3 -c "import json; r=json.load(open('$T/sc-pn4pc4pvariantpaper.json')); assert r['failed'] > 0" || { echo "FAIL block-vs-scalar: the paper variant should fail at n=4 c=4"; fails=$((fails+1)); }

# Fits say which points they used: AIG statistics stop above 200k gates, so aig_ands is fitted over
# fewer values than the sweep has, and the fit says so; full series carry no note.
check sweep-capped 0 "$CZ" sweep mqar/dyadic --vary n=4,8,16,32,64 -p c=1024 -p variant=merge --no-timing --json "$T/cap.json"
python3 - "$T/cap.json" <<'PY' || { echo "FAIL sweep-capped: fit points not reported"; fails=$((fails+1)); }
import json, sys
s = json.load(open(sys.argv[1]))
f = {x["quantity"]: x for x in s["fits"] if x.get("against") == "n"}
a = f["circuit.aig_ands"]
assert a["points_used"] == 4 and a["sweep_points"] == 5 and "4 of 5" in a["note"], a
z = f["circuit.size"]
assert z["points_used"] == 5 and "note" not in z, z
assert not any(x["quantity"].startswith("timing.") for x in s["fits"])
PY

echo "cli_contract: $fails failure(s)"
[ "$fails" = 0 ]
