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
[ "$(rc "$CZ" verify mqar/dyadic -p n=16 -p c=64 --method sat --timeout 0.05)" = 4 ] || fail "undecided exit"
[ "$(rc "$CZ" verify mqar/autocorrelation -p layout=zoology --method sat)" = 2 ] || fail "refusal exit"
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
# A user's circuit file against task mqar: the mqar/dyadic one-hot export has only the query rows;
# the cells it leaves out are read as 0 and still checked (issue 26 item 4), so it is proved, as the
# enumerating check verifies it.
"$CZ" export mqar/dyadic -p n=4 -p c=4 -p encoding=onehot --format aiger -o "$T/d.aag" >/dev/null 2>&1
[ "$(rc "$CZ" verify --circuit "$T/d.aag" --task mqar -p n=4 -p c=4 -p encoding=onehot --method sat)" = 0 ] || fail "dyadic export proved"
# ... and the same file against a task of another size is refused (exit 2), saying what it needs.
[ "$(rc "$CZ" verify --circuit "$T/d.aag" --task mqar -p n=3 -p c=4 -p encoding=onehot --method sat)" = 2 ] || fail "shape refused"
grep -q "needs 36 inputs u\[i\]\[j\] and at most 36 outputs" "$T/err" || fail "shape text"
# A file that is mqar/dyadic's own circuit (an export: binary, n = 8, c = 16) is recognised by
# structural hashing (sat.reference: every output the construction's node) and proved by the
# construction's stages (issue 38 item 4: the per-query miters of the n = 16, c = 64 export stall at
# query 8); with two answer bits swapped it is not matched (a note says so) and its own per-query
# miters refute it; --sat-strategy monolithic keeps the per-query miters.
"$CZ" export mqar/dyadic -p n=8 -p c=16 --format circuit-json -o "$T/d8.json" >/dev/null 2>&1
[ "$(rc "$CZ" verify --circuit "$T/d8.json" --task mqar -p n=8 -p c=16 -p encoding=binary --method sat --certify --json -)" = 0 ] || fail "dyadic file proved by stages"
python3 -c "
import json; j=json.load(open('$T/out')); s=j['sat']; r=s['reference']
assert j['verdict']=='proved' and s['strategy']=='stages' and s['method']=='dyadic stages', s
assert r['construction']=='mqar/dyadic' and r['same']==r['outputs']>0 and r['params']['n']==8 and r['params']['encoding']=='binary', r
assert s['certified']==s['miters_run']>0, s
assert any('up to structural hashing' in n for n in j['notes']), j['notes']" || fail "dyadic file stages json"
python3 - "$T/d8.json" "$T/d8m.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
outs = [o for o in j["outputs"] if o["name"].startswith("y[23][")]
outs[0]["gate"], outs[1]["gate"] = outs[1]["gate"], outs[0]["gate"]
json.dump(j, open(sys.argv[2], "w"))
PY
[ "$(rc "$CZ" verify --circuit "$T/d8m.json" --task mqar -p n=8 -p c=16 -p encoding=binary --method sat --json -)" = 1 ] || fail "swapped dyadic file refuted"
python3 -c "
import json; j=json.load(open('$T/out'))
assert j['verdict']=='refuted' and 'reference' not in j['sat'], j['sat']
assert any('not mqar/dyadic' in n and 'y[23][' in n for n in j['notes']), j['notes']" || fail "swapped dyadic file json"
[ "$(rc "$CZ" verify --circuit "$T/d8.json" --task mqar -p n=8 -p c=16 -p encoding=binary --method sat --sat-strategy monolithic --json -)" = 0 ] || fail "dyadic file monolithic"
python3 -c "import json; j=json.load(open('$T/out')); assert 'reference' not in j['sat'] and j['sat']['miters']==8, j['sat']" || fail "monolithic keeps per-query miters"
# The same function with other structure (every AND node rebuilt as a ∧ (a ∧ b): no output is the
# construction's node): SAT-swept against the construction, then proved by its stages, every
# sweep and stage miter certified; with the last two outputs swapped the sweep finds an output
# that differs and the file's own miters refute it.
"$CZ" export mqar/dyadic -p n=4 -p c=8 --format aiger -o "$T/d48.aag" >/dev/null 2>&1
python3 "$(dirname "$0")/double_aag.py" "$T/d48.aag" "$T/d48x.aag" || fail "double_aag"
[ "$(rc "$CZ" verify --circuit "$T/d48x.aag" --task mqar -p n=4 -p c=8 -p encoding=binary --method sat --certify --json -)" = 0 ] || fail "swept dyadic file proved"
python3 -c "
import json; j=json.load(open('$T/out')); s=j['sat']; r=s['reference']
assert j['verdict']=='proved' and s['strategy']=='stages' and r['same'] < r['outputs'], r
w=r['sweep']; assert w['equal'] and w['pairs'] > 0 and w['miters'] >= 1, w
assert s['certified'] > s['miters_run'] > 0, s
assert 'sweep_seconds' in j['timing'] and j['timing']['seconds'] >= j['timing']['sweep_seconds'], j['timing']
assert any('up to SAT sweeping' in n for n in j['notes']), j['notes']" || fail "swept dyadic file json"
[ "$(rc "$CZ" verify --circuit "$T/d48x.aag" --task mqar -p n=4 -p c=8 -p encoding=binary --method sat)" = 0 ] || fail "swept file, human"
tr -s ' \n' ' ' <"$T/out" | grep -q "the file is mqar/dyadic's circuit: [0-9]* of 16 outputs its very AIG nodes, the rest proved equal by SAT sweeping" \
  || fail "swept file: the human line"
python3 "$(dirname "$0")/double_aag.py" "$T/d48.aag" "$T/d48s.aag" swap || fail "double_aag swap"
[ "$(rc "$CZ" verify --circuit "$T/d48s.aag" --task mqar -p n=4 -p c=8 -p encoding=binary --method sat --json -)" = 1 ] || fail "swept swapped file refuted"
python3 -c "
import json; j=json.load(open('$T/out'))
assert j['verdict']=='refuted' and 'reference' not in j['sat'], j['sat']
assert any('SAT sweeping: an output differs' in n for n in j['notes']), j['notes']" || fail "swept swapped file json"
# Tasks compare and sort for a user's circuit file (named as circuit/compare and circuit/sort name
# theirs): the exported circuits are proved; a file with two outputs swapped is refuted (exit 1);
# a file of the wrong shape is refused (exit 2).
swap() {  # swap(IN OUT A B): the gates of outputs A and B exchanged (circuit-json)
  python3 - "$@" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
o = {x["name"]: x for x in j["outputs"]}
o[sys.argv[3]]["gate"], o[sys.argv[4]]["gate"] = o[sys.argv[4]]["gate"], o[sys.argv[3]]["gate"]
json.dump(j, open(sys.argv[2], "w"))
PY
}
"$CZ" export circuit/compare -p d=6 --format circuit-json -o "$T/c.json" >/dev/null 2>&1
[ "$(rc "$CZ" verify --circuit "$T/c.json" --task compare --method sat --json -)" = 0 ] || fail "compare file proof"
python3 -c "import json; j=json.load(open('$T/out')); assert j['verdict']=='proved' and j['instances']==4096 and j['task']=='compare' and j['params']=={'d':6}, j" || fail "compare file json"
swap "$T/c.json" "$T/cm.json" "min[2]" "max[2]"
[ "$(rc "$CZ" verify --circuit "$T/cm.json" --task compare --method sat --json -)" = 1 ] || fail "compare mutant exit"
python3 -c "import json; j=json.load(open('$T/out')); assert j['verdict']=='refuted' and j['counterexample']['instance']['input_bits'], j" || fail "compare mutant json"
"$CZ" export circuit/sort -p n=4 -p d=3 --format circuit-json -o "$T/s.json" >/dev/null 2>&1
[ "$(rc "$CZ" verify --circuit "$T/s.json" --task sort --method sat --json -)" = 0 ] || fail "sort file proof"
# An export of circuit/sort is recognised by structural hashing and proved by the construction's
# stages (sat.reference; the bitonic network too); the swapped file is not matched and its own
# miters refute it.
python3 -c "import json; j=json.load(open('$T/out')); r=j['sat']['reference']; assert j['sat']['method']=='0-1 principle' and r['same']==r['outputs']==20 and r['params']['network']=='oddeven', j['sat']" || fail "sort file by stages"
"$CZ" export circuit/sort -p n=5 -p d=3 -p network=bitonic --format blif -o "$T/sb.blif" >/dev/null 2>&1
[ "$(rc "$CZ" verify --circuit "$T/sb.blif" --task sort --method sat --json -)" = 0 ] || fail "bitonic sort file proof"
python3 -c "import json; j=json.load(open('$T/out')); assert j['sat']['reference']['params']['network']=='bitonic', j['sat']" || fail "bitonic sort file by stages"
swap "$T/s.json" "$T/sm.json" "key1[0]" "key2[0]"
[ "$(rc "$CZ" verify --circuit "$T/sm.json" --task sort --method sat --json -)" = 1 ] || fail "sort mutant exit"
python3 -c "
import json; j=json.load(open('$T/out'))
assert 'reference' not in j['sat'] and any('not circuit/sort' in n and 'key' in n for n in j['notes']), j" || fail "sort mutant note"
[ "$(rc "$CZ" verify --circuit "$T/s.json" --task compare --method sat)" = 2 ] || fail "sort file as compare refused"
grep -q "^error: the circuit has 12 inputs and 20 outputs; task compare needs" "$T/err" || fail "shape text (compare)"
[ "$(rc "$CZ" verify --circuit "$T/s.json" --task sort -p n=3 --method sat)" = 2 ] || fail "sort shape refused"
# circuit/sort by stages (the 0-1 principle; app/engine/sat/sat_stages.h): 32 keys x 8 bits, where the
# monolithic miter stalls, is proved; --sat-strategy monolithic (or a whole-circuit option such as
# --sat-split whole) gives the per-place miters; a bad strategy is refused.
[ "$(rc "$CZ" verify circuit/sort -p n=32 -p d=8 --method sat --json -)" = 0 ] || fail "sort stages exit"
python3 -c "import json; j=json.load(open('$T/out')); s=j['sat']; assert j['verdict']=='proved' and j['instances']==str(2**256) and s['strategy']=='stages' and s['method']=='0-1 principle' and s['stages']['comparators']==191 and s['stages']['local_miters']==191 and s['stages']['zero_one']['vectors']=='2^32', j" || fail "sort stages json"
[ "$(rc "$CZ" verify circuit/sort -p n=6 -p d=5 -p network=bitonic --method sat)" = 0 ] || fail "sort stages bitonic exit"
grep -q "by the 0-1 principle: 24 comparators" "$T/out" || fail "sort stages text"
for opt in "--sat-strategy monolithic" "--sat-split whole"; do
  [ "$(rc "$CZ" verify circuit/sort -p n=4 -p d=2 --method sat $opt --json -)" = 0 ] || fail "sort $opt exit"
  python3 -c "import json; j=json.load(open('$T/out')); assert j['verdict']=='proved' and j['sat']['strategy']=='monolithic', j" || fail "sort $opt json"
done
[ "$(rc "$CZ" verify circuit/sort -p n=4 -p d=2 --method sat --sat-strategy stages --sat-zero-one sat --json -)" = 0 ] || fail "sort zero-one sat"
python3 -c "import json; j=json.load(open('$T/out')); assert j['sat']['stages']['zero_one']['method']=='sat', j" || fail "sort zero-one json"
[ "$(rc "$CZ" verify circuit/sort --method sat --sat-strategy nope)" = 2 ] || fail "bad --sat-strategy"
[ "$(rc "$CZ" verify circuit/sort --method sat --sat-strategy stages --sat-split whole)" = 2 ] || fail "stages with a whole-circuit option"
grep -q "^error: --sat-strategy stages takes none of --proof" "$T/err" || fail "stages refusal text"
if command -v picosat >/dev/null || command -v minisat >/dev/null; then
  [ "$(rc "$CZ" verify circuit/sort -p n=24 -p d=4 --method sat --confirm --json -)" = 0 ] || fail "stages --confirm exit"
  python3 -c "import json; j=json.load(open('$T/out')); s=j['sat']; assert s['strategy']=='stages' and s['confirm_solver'] and s['stages']['confirmed']==s['miters_run'], j" || fail "stages --confirm json"
fi
# Progress (item 5): on a terminal stderr gets a "sat: ..." line (wiped at the end); stdout is the
# same bytes with and without it, and a redirected stderr gets none.
"$CZ" verify mqar/dyadic -p n=4 -p c=4 --method sat >"$T/plain.out" 2>"$T/plain.err"
script -qec "'$CZ' verify mqar/dyadic -p n=4 -p c=4 --method sat >'$T/tty.out'" /dev/null >"$T/tty.err" </dev/null
cmp -s "$T/plain.out" "$T/tty.out" || fail "stdout differs on a terminal"
grep -q "sat: " "$T/tty.err" || fail "no progress on a terminal"
! grep -q "sat: " "$T/plain.err" || fail "progress without a terminal"
echo "sat_cli: ok"
