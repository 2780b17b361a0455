#!/usr/bin/env bash
# Output people can read (issue 39): verify rows within 120 columns, only the parameters a
# construction uses, counts as 6.4e85 (the exact integer in the JSON), key=value lines instead of
# JSON blobs, `--json NAME` named as what happened, the kept checkpoint said. Seconds.
set -u
CZ="$1"
. "$(dirname "$0")/check_lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
no_not() { grep -q -- "$2" "$T/out" && { echo "FAIL $1: stdout has '$2'"; head -c 600 "$T/out"; fails=$((fails+1)); }; }
max_cols() { "$PY" -c 'import sys; print(max((len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")), default=0))' "$1"; }

# verify --all at COLUMNS=120 (issue 49 item 6: the width is the terminal's, $COLUMNS, else 80):
# every line within 120 columns; the rows say what they checked.
unset COLUMNS
check all 0 env COLUMNS=120 "$CZ" verify --all --no-timing
[ "$(max_cols "$T/out")" -le 120 ] || { echo "FAIL all: a line of $(max_cols "$T/out") columns"; fails=$((fails+1)); }
out_has all-header "^construction  *params  *domain  *checked  *verdict  *achieved  *paper claims$"
out_has all-row "^mqar/attention  *n=3  *exhaustive  *4374  *verified"
out_has all-legend "wide"
no_not all-no-zoology-params "^mqar/attention .*kv="
no_not all-no-auto-c "c=0"
# Not a terminal and no $COLUMNS: 80 columns, the domain column left out and said so.
check all-80 0 "$CZ" verify --all --no-timing
[ "$(max_cols "$T/out")" -le 80 ] || { echo "FAIL all-80: a line of $(max_cols "$T/out") columns"; fails=$((fails+1)); }
out_has all-80-header "^construction  *params  *checked  *verdict  *achieved  *paper claims$"
out_has all-80-row "^mqar/attention  *n=3  *4374  *verified"
out_has all-80-said "Left out to fit 80 columns: domain"
# --wide: the row as before, every applicable parameter and each claim.
check wide 0 "$CZ" verify --all --wide --no-timing
out_has wide-header "paper claims (claimed→ours)"
out_has wide-params "^mqar/attention  *layout=triples n=3 c=0 instance=-1 "
out_has wide-claims "layers O(1)→3"
no_not wide-no-zoology-params "^mqar/attention .*kv="
# The zoology layout shows its own parameters, not the triples' n; p only for phot.
check zoology 0 "$CZ" verify mqar/attention -p layout=zoology -p N=16 -p kv=2 --samples 20 --no-timing
out_has zoology-row "layout=zoology N=16 kv=2 "
no_not zoology-no-n " n=3"
out_has zoology-claim "^  claim: layers"
check dyadic-p 0 "$CZ" verify mqar/dyadic -p n=2 -p c=2 --wide --no-timing
no_not dyadic-no-p " p=2"
# Counts past 7 digits as 1.7e7 on the human line; the JSON keeps the exact integer.
check sat-count 0 "$CZ" verify circuit/compare -p d=12 --method sat --json "$T/sat.json"
out_has sat-short "on 1.7e7 instances"
no_not sat-no-json '{"d"'
"$PY" -c 'import json, sys; assert json.load(open(sys.argv[1]))["instances"] == 16777216' "$T/sat.json" \
  || { echo "FAIL sat-count: JSON instances not exact"; fails=$((fails+1)); }
# stats and circuit: key=value fields, no JSON objects.
check stats 0 env COLUMNS=120 "$CZ" stats mqar/attention
out_has stats-model "^  model:   N=9 L=3 d=3 inner_N=9 inner_d=9 params_dense=783 params_nonzero=129"
no_not stats-no-json '{"'
[ "$(max_cols "$T/out")" -le 120 ] || { echo "FAIL stats: a line of $(max_cols "$T/out") columns"; fails=$((fails+1)); }
check export-blif 0 "$CZ" export circuit/compare -p d=2 --format blif -o "$T/c.blif"
check circuit 0 "$CZ" circuit "$T/c.blif"
out_has circuit-fields "^  circuit: size=[0-9]* depth=[0-9]* width=[0-9]* inputs=4 outputs="
no_not circuit-no-json '{"'
# `--json NAME`: --json took NAME as its file name, and the message says so.
check json-name 2 "$CZ" verify --json primitive/cumsum
err_has json-name "^error: give one construction NAME or --all: --json took 'primitive/cumsum' as its file name"
check json-name-stats 2 "$CZ" stats --json mqar/dyadic
err_has json-name-stats "--json took 'mqar/dyadic' as its file name"
check no-name 2 "$CZ" verify
err_has no-name "^error: give one construction NAME or --all (verify)$"
# A finished run keeps its checkpoint and says why.
check checkpoint 0 "$CZ" verify primitive/cumsum -p N=4 -p d=1 --checkpoint "$T/ck.json"
out_has checkpoint-note "note: checkpoint .*ck.json kept, complete"
[ -f "$T/ck.json" ] || { echo "FAIL checkpoint: not kept"; fails=$((fails+1)); }
# Issue 49 item 10: a value that fails gets a row saying why, the sweep goes on, exit 1 at the end;
# the JSON and CSV rows say so and the fits use the built rows only.
check sweep-fail 1 "$CZ" sweep mqar/dyadic --vary n=2,16,4,8 -p c=8 --no-timing --json "$T/sf.json" --csv "$T/sf.csv"
out_has sweep-fail-row "^  16  *FAILED: distinct keys need c >= n"
out_has sweep-fail-said "1 of 4 values FAILED"
"$PY" - "$T/sf.json" "$T/sf.csv" <<'PY' || { echo "FAIL sweep-fail: JSON/CSV"; fails=$((fails+1)); }
import csv, json, sys
s = json.load(open(sys.argv[1]))
assert [r["value"] for r in s["rows"]] == [2, 16, 4, 8], s["rows"]
assert [r["verdict"] for r in s["rows"]] == ["built", "FAILED", "built", "built"]
bad = s["rows"][1]
assert "c >= n" in bad["error"] and bad["params"]["n"] == 16 and "model" not in bad and "circuit" not in bad, bad
assert s["failed"] == 1 and s["failed_values"] == [16]
size = [f for f in s["fits"] if f["quantity"] == "circuit.size"][0]
assert size["points_used"] == 3 and size["sweep_points"] == 3 and [p[0] for p in size["fit"]["points"]] == [2, 4, 8], size
rows = list(csv.DictReader(open(sys.argv[2])))
assert [r["n"] for r in rows] == ["2", "16", "4", "8"] and "c >= n" in rows[1]["error"] and rows[0]["error"] == "", rows
assert rows[1]["circuit.size"] == "" and rows[0]["circuit.size"] != ""
PY
# Bad input is still refused before any work (exit 2), wherever the bad value stands.
check sweep-bad-late 2 "$CZ" sweep mqar/dyadic --vary n=2,4,x -p c=8
err_has sweep-bad-late "^error: 'n' must be an integer"
# Issue 49 item 4: every fit entry has `fit` (null with `fit_reason` where there is no line: an
# O(1)-like shape whose value never changes) and says apart the varied parameter (`variable`) and
# the claimed shape (`claim_shape`, null for a quantity's fit); `against` is kept.
check sweep-fits 0 "$CZ" sweep mqar/dyadic --vary n=2,4,8,16,32 -p c=64 --no-timing --json "$T/fits.json"
"$PY" - "$T/fits.json" <<'PY' || { echo "FAIL sweep-fits: fit entries"; fails=$((fails+1)); }
import json, sys
s = json.load(open(sys.argv[1]))
assert all("fit" in f and "variable" in f and "claim_shape" in f for f in s["fits"]), [f for f in s["fits"] if "fit" not in f]
nulls = [f for f in s["fits"] if f["fit"] is None]
assert nulls and all(f["fit_reason"] and f["claim_shape"] for f in nulls), nulls
for f in s["fits"]:
    assert f["variable"] == "n"
    if "achieved_over_shape" in f:
        assert f["claim_shape"] == f["against"] and f["claim_shape"].startswith(("O(", "Θ(", "Ω(")), f
    else:
        assert f["claim_shape"] is None and f["against"] == "n", f
PY
# Issue 49 item 5: numbers for people in human output (3 significant digits, integers as
# integers), full precision in the JSON; no slope from fewer than 5 points.
check sweep-few 0 "$CZ" sweep mqar/dyadic --vary n=2,4,8 -p c=8 --no-timing
out_has sweep-few-no-slope "fewer than 5 points: no slope"
no_not sweep-few-no-exponent "~ n^"
no_not sweep-few-no-long-ratio "[0-9]\.[0-9]\{4,\}"
out_has sweep-few-ratio "ratios \[[0-9.]*, "
out_has sweep-few-int "^  2  *64 "
check sweep-many 0 "$CZ" sweep mqar/dyadic --vary n=2,4,8,16,32 -p c=64 --no-timing
out_has sweep-many-slope "fit circuit.size ~ n^[0-9.]* (r2 [0-9.]*, 5 points)"
no_not sweep-many-no-long "[0-9]\.[0-9]\{4,\}"
"$PY" - "$T/fits.json" <<'PY' || { echo "FAIL sweep-fits: JSON lost precision"; fails=$((fails+1)); }
import json, sys
s = json.load(open(sys.argv[1]))
assert any(len(repr(f["fit"]["slope"])) > 8 for f in s["fits"] if f["fit"]), "slopes rounded in the JSON"
PY
check stats-timing 0 "$CZ" stats mqar/dyadic -p n=4 -p c=4
out_has stats-timing-short "gates_per_second=[0-9.]*\(e[0-9]*\)\? "
no_not stats-timing-no-long "gates_per_second=[0-9]*\.[0-9]\{4,\}"
no_not stats-timing-no-float-int "[0-9]\.0 "
[ "$fails" = 0 ] && echo "human output: all checks passed"
exit $((fails > 0))
