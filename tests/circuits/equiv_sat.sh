#!/usr/bin/env bash
# `circuit A --equiv B` beyond enumeration (issue 47 item 4): two files of circuit/sort 8×8 (64
# inputs: past the 32-input cap of enumeration), one restructured (every AND rebuilt through a new
# node: tests/sat/double_aag.py; and ABC's `strash; dc2` when ABC is installed), proved equal by
# one strashed AIG and SAT sweeping, --certify checking every UNSAT answer's DRAT proof; a one-gate
# mutant refuted with a witness that `circuit --eval` confirms on both files.
set -u
BIN=$1
. "$(dirname "$0")/../cli/check_lib.sh"
HERE=$(dirname "$0")
PY=/usr/bin/python3
check export 0 "$BIN" export circuit/sort -p n=8 -p d=8 --format aiger -o "$T/s.aag"
"$PY" "$HERE/../sat/double_aag.py" "$T/s.aag" "$T/sx.aag" || { echo "FAIL double_aag"; fails=$((fails+1)); }
check proved 0 "$BIN" circuit "$T/s.aag" --equiv "$T/sx.aag" --json "$T/p.json"
json_eq proved-json "$T/p.json" "j['equiv']['verdict'] == 'proved' and j['equiv']['equivalent'] is True and j['equiv']['method'] == 'sat-sweep' and j['equiv']['instances'] == str(2**64) and j['equiv']['sat']['sweep']['miters'] > 0"
check certified 0 "$BIN" circuit "$T/s.aag" --equiv "$T/sx.aag" --certify --json "$T/c.json"
json_eq certified-json "$T/c.json" "j['equiv']['verdict'] == 'proved' and j['equiv']['sat']['certified'] > 0"
out_has certified-human "certified: "
# The same file: one strashed AIG proves it without a solver.
check strash 0 "$BIN" circuit "$T/s.aag" --equiv "$T/s.aag" --method sat --json "$T/h.json"
json_eq strash-json "$T/h.json" "j['equiv']['method'] == 'strash' and j['equiv']['verdict'] == 'proved'"
# A one-gate mutant of the restructured file: refuted, the witness checked on both files here too.
"$PY" "$HERE/../sat/mutate_aag.py" "$T/sx.aag" "$T/m.aag" gate 700 || { echo "FAIL mutate"; fails=$((fails+1)); }
check refuted 1 "$BIN" circuit "$T/s.aag" --equiv "$T/m.aag" --json "$T/r.json"
json_eq refuted-json "$T/r.json" "j['equiv']['verdict'] == 'refuted' and j['equiv']['counterexample']['first'] != j['equiv']['counterexample']['second']"
"$PY" - "$T/r.json" "$T/in.json" <<'PYEOF'
import json, sys
cx = json.load(open(sys.argv[1]))['equiv']['counterexample']
json.dump({"input": cx["inputs"]}, open(sys.argv[2], "w"))
PYEOF
check eval-first 0 "$BIN" circuit "$T/s.aag" --eval "$T/in.json" --json "$T/e1.json"
check eval-second 0 "$BIN" circuit "$T/m.aag" --eval "$T/in.json" --json "$T/e2.json"
"$PY" - "$T/r.json" "$T/e1.json" "$T/e2.json" <<'PYEOF' || { echo "FAIL witness: the files agree on it"; fails=$((fails+1)); }
import json, sys
out = json.load(open(sys.argv[1]))['equiv']['counterexample']['output']
val = lambda f: [o['value'] for o in json.load(open(f))['eval']['outputs'] if o['name'] == out]
a, b = val(sys.argv[2]), val(sys.argv[3])
assert len(a) == 1 and len(b) == 1
sys.exit(0 if a != b else 1)
PYEOF
# Flags: enumeration stops at 32 inputs; --certify and --timeout are the SAT route's.
check enumerate-cap 2 "$BIN" circuit "$T/s.aag" --equiv "$T/sx.aag" --method enumerate
err_has enumerate-cap-msg "cap of 32"
check certify-samples 2 "$BIN" circuit "$T/s.aag" --equiv "$T/sx.aag" --samples 10 --certify
check method-alone 2 "$BIN" circuit "$T/s.aag" --method sat
# ABC's own restructuring, when ABC is here.
ABC=$(command -v berkeley-abc || command -v yosys-abc || true)
if [ -n "$ABC" ]; then
  check export-bin 0 "$BIN" export circuit/sort -p n=8 -p d=8 --format aiger-binary -o "$T/s.aig"
  (cd "$T" && "$ABC" -c "read_aiger s.aig; strash; dc2; write_aiger -s s2.aig" >/dev/null 2>&1) || { echo "FAIL abc"; fails=$((fails+1)); }
  check abc-proved 0 "$BIN" circuit "$T/s.aig" --equiv "$T/s2.aig" --certify --json "$T/a.json"
  json_eq abc-proved-json "$T/a.json" "j['equiv']['verdict'] == 'proved' and j['equiv']['sat']['certified'] > 0"
fi
[ "$fails" = 0 ] && echo "equiv_sat: all passed" || { echo "equiv_sat: $fails failed"; exit 1; }
