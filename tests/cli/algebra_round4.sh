#!/usr/bin/env bash
# Issue 46 (round four), the algebra rows: every verdict says exactly what was checked.
#   3  a model file mixing architecture layers with other layers is refused by --method algebra;
#      the arch route says its expansion is recompiled from the file's weights
#   4  seeded weights make every output depend on the input; reports count zero outputs
#   5  the human line names the ring of the proof (F_7 for a model over Fp:7)
#   13 budgets in closed form before anything is built (ulimit -v, no timing asserted)
#   14 model files: an architecture layer's coefficient bits bounded on reading
#   15 --algebra-* without --method algebra refused
set -u
CZ="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/check_lib.sh"  # T, fails, check, err_has, out_has
cd "$T"
jq_py() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
expect() { [ "$2" = "$3" ] || { echo "FAIL $1: got '$2', want '$3'"; fails=$((fails+1)); }; }

# ---- row 3: a hyena layer then a BaseConv layer computing 2x ----
cat > mixed.json <<'JSON'
{"format": "circuitzoo.model/1", "ring": "Q", "N": 3, "d": 1, "inner_N": 3, "inner_d": 2, "conv": "causal",
 "layers": [{"kind": "hyena", "order": 1, "W": [[1, 2]], "h_s": [[1, 1], [0, 0], [0, 0]], "filters": [[[1], [1], [0]]]},
            {"kind": "baseconv", "W": [[2, 0], [0, 2]], "b1": [[0, 0], [0, 0], [0, 0]], "h": [[0, 0], [0, 0], [0, 0]],
             "b2": [[1, 1], [1, 1], [1, 1]]}]}
JSON
check mixed 2 "$CZ" verify --model mixed.json --method algebra
err_has mixed "outside its architecture layers' expansions (the first is model layer 3)"
err_has mixed "(mixed.json.layers)"
python3 - <<'PY'
import json
m = json.load(open("mixed.json")); m["layers"] = m["layers"][:1]; json.dump(m, open("hyena_only.json", "w"))
PY
check arch-only 0 "$CZ" verify --model hyena_only.json --method algebra --json ho.json
out_has arch-only "recompiled from the file's weights"
grep -q "recompiled from the file's weights" ho.json || { echo "FAIL arch-only: domain_description"; fails=$((fails+1)); }

# ---- row 5: a model over Fp:7, the human line names F_7 ----
cat > fp.json <<'JSON'
{"format": "circuitzoo.model/1", "ring": "Fp:7", "N": 3, "d": 2, "inner_N": 3, "inner_d": 2, "conv": "causal",
 "layers": [{"kind": "rwkv", "mu": [3], "WV": [[5]], "decay": [4], "bonus": [6]}]}
JSON
check fp 0 "$CZ" verify --model fp.json --method algebra --json fp_out.json
out_has fp "on every state in F_7^(3×2)"
expect fp-field "$(jq_py fp_out.json 'j["field"]')" "F_7"

# ---- row 4: no vacuous outputs at the seeded weights; zero_outputs counted ----
check h3-d2 0 "$CZ" verify sim/h3 -p d=2 --method algebra --json h3.json
expect h3-d2-zero "$(jq_py h3.json 'j["algebra"]["zero_outputs"]')" "0"
check h3-stack 0 "$CZ" verify sim/h3 -p N=4 -p d=2 -p stack=2 --method algebra --json h3s.json
expect h3-stack-zero "$(jq_py h3s.json 'j["algebra"]["zero_outputs"]')" "0"
for s in 1 2 3 4 7; do
  check "hyena-wseed$s" 0 "$CZ" verify sim/hyena -p N=6 -p d=1 -p wrange=3 -p wseed=$s --method algebra --json hy$s.json
  expect "hyena-wseed$s-zero" "$(jq_py hy$s.json 'j["algebra"]["zero_outputs"]')" "0"
done
for c in hyena h3 retnet; do
  check "$c-d1-stack2" 0 "$CZ" verify sim/$c -p N=4 -p d=1 -p stack=2 --method algebra --json s2$c.json
  expect "$c-d1-stack2-zero" "$(jq_py s2$c.json 'j["algebra"]["zero_outputs"]')" "0"
done
check hyena-comp 0 "$CZ" verify sim/hyena -p N=6 -p d=1 -p order=3 --method algebra --algebra-route compositional --json hc.json
expect hyena-comp-zero "$(jq_py hc.json 'j["algebra"]["zero_outputs"]')" "0"
# shift_down's row 0 is 0 on both sides: counted and warned about (true, and vacuous)
check shift-zero 0 "$CZ" verify primitive/shift_down -p N=4 -p d=1 -p s=1 --method algebra --json sd.json
expect shift-zero-count "$(jq_py sd.json 'j["algebra"]["zero_outputs"]')" "1"
out_has shift-zero "warning: 1 of 4 output entries are the zero polynomial on both sides"
python3 "$HERE/contract_keys.py" "$HERE/../../docs/contract.md" verify=h3.json verify=hc.json verify=fp_out.json verify=ho.json || fails=$((fails+1))

# ---- row 13: closed-form budgets, refused fast and small at any N ----
lim() { if [ "${CZ_SANITIZE:-0}" = 1 ]; then "$@"; else (ulimit -v 1048576; "$@"); fi; }
check big-shift 2 lim "$CZ" verify primitive/shift_down -p N=65536 -p d=4 --method algebra
err_has big-shift "bytes or more (its 262144 input symbols alone"
err_has big-shift "(--algebra-budget)"
check big-identity 2 lim "$CZ" verify primitive/identity -p N=65536 -p d=1 --method algebra
err_has big-identity "bytes or more (its 65536 input symbols alone"
check big-cumsum 2 lim "$CZ" verify primitive/cumsum -p N=8192 --method algebra
err_has big-cumsum "too large to estimate before it runs"
check comp-budget 2 lim "$CZ" verify sim/hyena -p N=64 -p d=2 -p order=3 --method algebra --algebra-budget 100000
err_has comp-budget "the compositional route would need about"
check comp-budget-forced 2 lim "$CZ" verify sim/hyena -p N=512 -p order=3 --method algebra --algebra-route compositional --algebra-budget 100000000
err_has comp-budget-forced "the compositional route would need about"
# coefficient bits count: a retnet gamma of 300 digits over 300 digits
python3 - <<'PY'
import json
g = "1" + "0" * 299 + "/" + "3" * 300
m = {"format": "circuitzoo.model/1", "ring": "Q", "N": 3, "d": 1, "inner_N": 3, "inner_d": 8, "conv": "causal",
     "layers": [{"kind": "retnet", "heads": 1, "WQ": [[1, -1]], "WK": [[2, 1]], "WV": [[1, 3]], "WO": [[1], [-2]], "gamma": [g]}]}
json.dump(m, open("ret_bigq.json", "w"))
m["layers"][0]["gamma"] = ["1" + "0" * 199999 + "/" + "3" * 200000]
json.dump(m, open("ret_hugeq.json", "w"))
PY
check coef-bits 2 "$CZ" verify --model ret_bigq.json --method algebra --algebra-budget 50000
err_has coef-bits "coefficients of up to"

# ---- row 14: coefficient bits bounded on reading a model file ----
check huge-gamma 2 lim "$CZ" verify --model ret_hugeq.json
err_has huge-gamma "would hold coefficients of about"
err_has huge-gamma "(ret_hugeq.json.layers\[0\])"
check huge-gamma-alg 2 lim "$CZ" verify --model ret_hugeq.json --method algebra
err_has huge-gamma-alg "over the limit of 1048576 bits"

# ---- row 15: --algebra-* without --method algebra ----
check alg-flag 2 "$CZ" verify primitive/identity -p N=2 --algebra-budget 1000
err_has alg-flag "error: --algebra-budget needs --method algebra (--algebra-budget)"
check alg-route 2 "$CZ" verify primitive/identity -p N=2 --method sat --algebra-route expansion
err_has alg-route "--algebra-route needs --method algebra"
check claims-nodir 2 "$CZ" claims --fast --markdown "$T/no/such/dir/a.md"
err_has claims-nodir "does not exist"
# a directory access() calls writable where no file can be created (root on sysfs): refused before the ledger
if [ -d /sys/kernel ] && [ "$(id -u)" = 0 ]; then
  check claims-sysfs 2 "$CZ" claims --fast --markdown /sys/kernel/cz-a.md
  err_has claims-sysfs "cannot create a file in the directory /sys/kernel"
  if grep -q "claims ledger" "$T/err"; then echo "FAIL claims-sysfs: the ledger ran before the refusal"; fails=$((fails+1)); fi
fi

echo "algebra_round4: $fails failure(s)"
[ "$fails" = 0 ]
