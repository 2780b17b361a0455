#!/usr/bin/env bash
# verify --method sat from the command line: exit codes (0 proved, 1 refuted, 4 undecided, 2
# refused), pure JSON on stdout with --json -, the DRAT proof file, and a user's circuit file.
set -euo pipefail
CZ=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
rc() { set +e; "$@" >"$T/out" 2>"$T/err"; echo $?; set -e; }

[ "$(rc "$CZ" verify mqar/dyadic -p n=4 -p c=4 --method sat --json - --proof "$T/p.drat")" = 0 ] || fail "proof exit"
python3 -c "import json,sys; j=json.load(open('$T/out')); assert j['verdict']=='proved' and j['instances']==1572864, j" || fail "proof json"
[ -s "$T/p.drat.3" ] || fail "no DRAT proof written"
[ "$(rc "$CZ" verify mqar/dyadic -p n=4 -p c=4 -p variant=paper --method sat --json -)" = 1 ] || fail "refutation exit"
python3 -c "import json; j=json.load(open('$T/out')); assert j['verdict']=='refuted' and j['counterexample']['instance']['tokens'], j" || fail "refutation json"
grep -q "confirmed by the enumerating engine" "$T/err" || fail "refutation text"
[ "$(rc "$CZ" verify mqar/dyadic -p n=8 -p c=16 --method sat --timeout 0.05)" = 4 ] || fail "undecided exit"
[ "$(rc "$CZ" verify mqar/autocorrelation --method sat)" = 2 ] || fail "refusal exit"
grep -q "^error: mqar/autocorrelation is not provable by --method sat: .* (--method sat)$" "$T/err" || fail "refusal text"
# Integer models (sat_model_path.h): a built-in primitive and a user's model-json against a task.
[ "$(rc "$CZ" verify primitive/cumsum -p N=4 -p d=1 --method sat --json -)" = 0 ] || fail "integer proof exit"
python3 -c "import json; j=json.load(open('$T/out')); assert j['verdict']=='proved' and j['instances']==2401 and j['model']['ring']=='Z', j" || fail "integer proof json"
"$CZ" export primitive/shift_down -p N=4 -p d=1 -p s=1 --format model-json -o "$T/m.json" >/dev/null 2>&1
[ "$(rc "$CZ" verify --model "$T/m.json" --task shift_down -p s=1 --method sat)" = 0 ] || fail "model file proof"
[ "$(rc "$CZ" verify --model "$T/m.json" --task shift_down -p s=2 --method sat --json -)" = 1 ] || fail "model file refutation"
python3 -c "import json; j=json.load(open('$T/out')); assert j['verdict']=='refuted' and j['counterexample']['instance']['shrunk'], j" || fail "model refutation json"
[ "$(rc "$CZ" verify circuit/compare --method sat --samples 5)" = 2 ] || fail "--samples refused"
[ "$(rc "$CZ" verify circuit/compare --method nope)" = 2 ] || fail "bad --method"
# A user's circuit file against task mqar: the mqar/dyadic one-hot export has only the query rows,
# so the task's shape rule refuses it as the enumerating check does (exit 2, the same message).
"$CZ" export mqar/dyadic -p n=4 -p c=4 -p encoding=onehot --format aiger -o "$T/d.aag" >/dev/null 2>&1
[ "$(rc "$CZ" verify --circuit "$T/d.aag" --task mqar -p n=4 -p c=4 -p encoding=onehot --method sat)" = 2 ] || fail "shape refused"
grep -q "needs 48 inputs u\[i\]\[j\] and 48 outputs" "$T/err" || fail "shape text"
echo "sat_cli: ok"
