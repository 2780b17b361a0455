#!/usr/bin/env bash
# Issue 46 items 1, 2, 6: every method judges the same task cells of a user's circuit, each task
# port is given once, and a report on a user's file states the parameters that were checked.
#   1: MQAR's found column (tasks/mqar.h expected_answer): a circuit wrong only in a found bit, or
#      in a found bit and an answer bit, is refuted by the enumerating check AND by --method sat
#      with a confirmed counterexample (exit 1); was "verified" and exit 3.
#   2: an output name given twice (the second copy negated, or the first) is refused (exit 2) by
#      --task sort, compare and mqar, enumerating and SAT; was "proved" for sort and compare.
#   6: `params` of a report on a user's file = what was checked (was the built-in's defaults).
# Permanent mutants (issue 46: keep them): found-only, mixed, duplicate output.
set -u
BIN=$1
. "$(dirname "$0")/check_lib.sh"
MUT="$(dirname "$0")/../sat/mutate_aag.py"
PY=/usr/bin/python3
P=(--task mqar -p n=4 -p c=8 -p encoding=binary)

# ---- item 1: the found column, one meaning for every method ----
check export-dyadic 0 "$BIN" export mqar/dyadic -p n=4 -p c=8 --format aiger -o "$T/d.aag"
check control-samples 0 "$BIN" verify --circuit "$T/d.aag" "${P[@]}" --samples 300
check control-sat 0 "$BIN" verify --circuit "$T/d.aag" "${P[@]}" --method sat --threads 1
# found-only: query 1's found bit (row 5, column d = 3) negated.
"$PY" "$MUT" "$T/d.aag" "$T/f.aag" flip 'y[5][3]' || { echo "FAIL mutate found"; fails=$((fails+1)); }
check found-only-samples 1 "$BIN" verify --circuit "$T/f.aag" "${P[@]}" --samples 300 --json "$T/fs.json"
json_eq found-only-samples-verdict "$T/fs.json" "j['verdict'] == 'FAILED' and j['failed'] == 300 and 'found bit' in j['counterexample']['message']"
check found-only-sat 1 "$BIN" verify --circuit "$T/f.aag" "${P[@]}" --method sat --threads 1 --json "$T/ft.json"
json_eq found-only-sat-verdict "$T/ft.json" "j['verdict'] == 'refuted' and 'found bit' in j['counterexample']['message']"
# mixed: the same found bit and an answer bit of a later query (row 11 = query 3, column 0).
"$PY" "$MUT" "$T/d.aag" "$T/m.aag" flip 'y[5][3]' 'y[11][0]' || { echo "FAIL mutate mixed"; fails=$((fails+1)); }
check mixed-samples 1 "$BIN" verify --circuit "$T/m.aag" "${P[@]}" --samples 300
check mixed-sat 1 "$BIN" verify --circuit "$T/m.aag" "${P[@]}" --method sat --threads 1
# an answer bit alone (the found column right): both methods refute it too.
"$PY" "$MUT" "$T/d.aag" "$T/a.aag" flip 'y[11][0]' || { echo "FAIL mutate answer"; fails=$((fails+1)); }
check answer-samples 1 "$BIN" verify --circuit "$T/a.aag" "${P[@]}" --samples 300
check answer-sat 1 "$BIN" verify --circuit "$T/a.aag" "${P[@]}" --method sat --threads 1

# ---- item 2: each task port once ----
"$PY" "$MUT" "$T/d.aag" "$T/dd.aag" dup 'y[5][0]' || { echo "FAIL mutate dup"; fails=$((fails+1)); }
check dup-mqar-samples 2 "$BIN" verify --circuit "$T/dd.aag" "${P[@]}" --samples 10
err_has dup-mqar-samples-msg "given twice"
check dup-mqar-sat 2 "$BIN" verify --circuit "$T/dd.aag" "${P[@]}" --method sat
err_has dup-mqar-sat-msg "given twice"
check export-sort 0 "$BIN" export circuit/sort -p n=2 -p d=2 --format aiger -o "$T/s.aag"
check sort-control 0 "$BIN" verify --circuit "$T/s.aag" --task sort --method sat
for op in dup dupfirst; do
  "$PY" "$MUT" "$T/s.aag" "$T/s-$op.aag" "$op" 'key0[0]' || { echo "FAIL mutate sort $op"; fails=$((fails+1)); }
  check "dup-sort-$op" 2 "$BIN" verify --circuit "$T/s-$op.aag" --task sort --method sat
  err_has "dup-sort-$op-msg" "output name 'key0\[0\]' is given twice"
done
check export-compare 0 "$BIN" export circuit/compare -p d=2 --format aiger -o "$T/c.aag"
for op in dup dupfirst; do
  "$PY" "$MUT" "$T/c.aag" "$T/c-$op.aag" "$op" lt || { echo "FAIL mutate compare $op"; fails=$((fails+1)); }
  check "dup-compare-$op" 2 "$BIN" verify --circuit "$T/c-$op.aag" --task compare --method sat
  err_has "dup-compare-$op-msg" "given twice"
done

# ---- item 6: params = what was checked ----
check export-att 0 "$BIN" export mqar/attention -p n=3 --format model-json -o "$T/att.json"
check params-model 0 "$BIN" verify --model "$T/att.json" --task mqar -p n=3 --json "$T/pm.json"
json_eq params-model-json "$T/pm.json" "j['params'] == {'layout': 'triples', 'n': 3, 'c': 3, 'encoding': 'onehot'}"
check params-circuit 0 "$BIN" verify --circuit "$T/d.aag" "${P[@]}" --samples 10 --json "$T/pc.json"
json_eq params-circuit-json "$T/pc.json" "j['params'] == {'layout': 'triples', 'n': 4, 'c': 8, 'encoding': 'binary'}"
check params-circuit-sat 0 "$BIN" verify --circuit "$T/d.aag" "${P[@]}" --method sat --json "$T/pt.json"
json_eq params-circuit-sat-json "$T/pt.json" "j['params'] == {'layout': 'triples', 'n': 4, 'c': 8, 'encoding': 'binary'}"

[ "$fails" = 0 ] && echo "round4_tasks: all passed" || { echo "round4_tasks: $fails failed"; exit 1; }
