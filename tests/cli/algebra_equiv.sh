#!/usr/bin/env bash
# Model against model by --method algebra (issue 47 item 2): `verify --model A --equiv-model B`
# proves two model files compute the same polynomial map on every input (Q, or F_p for Fp:<p>), or
# refutes it at a point confirmed by exact evaluation of both; inputs, rings, flags and the budget
# are refused with exit 2.
set -u
CZ="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/check_lib.sh"  # T, fails, check, err_has, out_has, json_eq
cd "$T"
PY=/usr/bin/python3

# ---- the files: exports, and restructurings of them that compute the same map ----
check export-hyena 0 "$CZ" export sim/hyena -p N=4 -p d=1 --format model-json -o hy.json
check export-narrow 0 "$CZ" export sim/hyena -p N=4 -p d=1 -p layout=narrow --format model-json -o hy_narrow.json
check export-s1 0 "$CZ" export primitive/shift_down -p N=6 -p d=2 -p s=1 --format model-json -o s1.json
check export-s2 0 "$CZ" export primitive/shift_down -p N=6 -p d=2 -p s=2 --format model-json -o s2.json
"$PY" - <<'PY'
import json
from fractions import Fraction

def q(x):
    return x.numerator if x.denominator == 1 else f"{x.numerator}/{x.denominator}"

def scale(M, f):
    return [[q(Fraction(v) * f) for v in row] for row in M]

hy = json.load(open("hy.json"))
# Restructured: the last gate's left factor doubled and its right factor halved (rational weights,
# ring Q), and an identity layer (W = 0, b1 = 1, h = delta_0, b2 = 0) inserted before it.
re = json.loads(json.dumps(hy))
re["ring"] = "Q"
L = re["layers"][-1]
L["W"], L["b1"] = scale(L["W"], 2), scale(L["b1"], 2)
L["h"], L["b2"] = scale(L["h"], Fraction(1, 2)), scale(L["b2"], Fraction(1, 2))
n, d = re["inner_N"], re["inner_d"]
ident = {"kind": "baseconv", "W": [[0] * d for _ in range(d)], "b1": [[1] * d for _ in range(n)],
         "h": [[1] * d] + [[0] * d for _ in range(n - 1)], "b2": [[0] * d for _ in range(n)]}
re["layers"].insert(len(re["layers"]) - 1, ident)
json.dump(re, open("hy_restructured.json", "w"))
# A one-weight mutant: the first nonzero tap of the last layer's filter plus one.
mu = json.loads(json.dumps(hy))
row = next(r for r in mu["layers"][-1]["h"] if any(v != 0 for v in r))
j = next(j for j, v in enumerate(row) if v != 0)
row[j] += 1
json.dump(mu, open("hy_mutant.json", "w"))
# A layer split: shift by 2 as two shifts by 1.
s1 = json.load(open("s1.json"))
two = dict(s1, layers=s1["layers"] * 2)
json.dump(two, open("s1x2.json", "w"))
# Over F_7: a tap of 8 is a tap of 1 (same map mod 7), not over Q.
f7 = dict(s1, ring="Fp:7")
json.dump(f7, open("s1_f7.json", "w"))
f8 = json.loads(json.dumps(f7))
f8["layers"][0]["h"][1] = [8, 8]
json.dump(f8, open("s1_f7_8.json", "w"))
json.dump(dict(f8, ring="Q"), open("s1_q_8.json", "w"))
# An MLP layer: not a polynomial.
mlp = json.loads(json.dumps(s1))
mlp["layers"].append({"kind": "mlp", "W1": [[1, 0], [0, 1]], "B1": [[0, 0]] * 6, "W2": [[1, 0], [0, 1]], "B2": [[0, 0]] * 6})
json.dump(mlp, open("s1_mlp.json", "w"))
PY

# ---- proved: a restructured stack, a layer split; the report ----
check proved-hyena 0 "$CZ" verify --model hy.json --equiv-model hy_restructured.json --method algebra --json p.json
out_has proved-hyena "proved  on all of Q^(4×1)"
json_eq proved-hyena-json p.json "j['verdict'] == 'proved' and j['method'] == 'algebra' and j['model_file'] == 'hy.json' and j['equiv_model_file'] == 'hy_restructured.json' and j['field'] == 'Q' and j['instances'] == 'all of Q^(4×1)' and j['algebra']['differing_outputs'] == 0 and j['equiv_model']['layers'] == j['model']['layers'] + 1 and j['algebra']['zero_outputs'] == 0 and j['counterexample'] is None"
check proved-split 0 "$CZ" verify --model s2.json --equiv-model s1x2.json --method algebra --json ps.json
json_eq proved-split-zero ps.json "j['algebra']['zero_outputs'] == 4 and j['algebra']['route'] == 'expansion'"
out_has proved-split "warning: 4 output entries are the zero polynomial in both models"
# two exports of one operator in different layouts: (N, k+2, d, N, (k+1)d) against (N, 2k+1, d, N, 3d)
check proved-layouts 0 "$CZ" verify --model hy.json --equiv-model hy_narrow.json --method algebra --json pl.json
json_eq proved-layouts-json pl.json "j['verdict'] == 'proved' and j['model']['layers'] == 4 and j['equiv_model']['layers'] == 5"
# either way round
check proved-swapped 0 "$CZ" verify --model s1x2.json --equiv-model s2.json --method algebra

# ---- refuted: a one-weight mutant, at a point both models are evaluated at exactly ----
check refuted-mutant 1 "$CZ" verify --model hy.json --equiv-model hy_mutant.json --method algebra --json r.json
err_has refuted-mutant "counterexample (confirmed by exact evaluation of both models over Q): hy.json and hy_mutant.json differ"
json_eq refuted-mutant-json r.json "j['verdict'] == 'refuted' and j['failed'] == 1 and j['counterexample']['got'] != j['counterexample']['expected'] and j['counterexample']['instance']['shrunk'] and 'exact evaluation of both models' in j['counterexample']['instance']['confirmed_by'] and j['algebra']['differing_outputs'] >= 1"
check split-vs-shift1 1 "$CZ" verify --model s1.json --equiv-model s1x2.json --method algebra

# ---- the ring: F_7 proves mod 7 only; Q refutes the same weights ----
check fp-proved 0 "$CZ" verify --model s1_f7.json --equiv-model s1_f7_8.json --method algebra --json f.json
json_eq fp-proved-json f.json "j['field'] == 'F_7' and j['instances'] == 'all of F_7^(6×2)' and j['algebra']['field'] == 'F_7'"
check q-refuted 1 "$CZ" verify --model s1.json --equiv-model s1_q_8.json --method algebra
"$PY" "$HERE/contract_keys.py" "$HERE/../../docs/contract.md" verify=p.json verify=r.json verify=f.json || fails=$((fails+1))

# ---- refusals (exit 2) ----
check shapes 2 "$CZ" verify --model s2.json --equiv-model hy.json --method algebra
err_has shapes "error: the models take different inputs: s2.json takes 6×2 inputs (N×d), hy.json takes 4×1"
err_has shapes "(hy.json)"
check rings 2 "$CZ" verify --model s1.json --equiv-model s1_f7.json --method algebra
err_has rings "the models are over different rings: s1.json is over Z, s1_f7.json over Fp:7"
err_has rings "(s1_f7.json.ring)"
check mlp 2 "$CZ" verify --model s1.json --equiv-model s1_mlp.json --method algebra
err_has mlp "(s1_mlp.json.layers\[1\])"
check budget 2 "$CZ" verify --model hy.json --equiv-model hy_restructured.json --method algebra --algebra-budget 1000
err_has budget "the expansion of both models would need about"
err_has budget "(--algebra-budget)"
check budget-floor 2 "$CZ" verify --model hy.json --equiv-model hy_restructured.json --method algebra --algebra-budget 10
err_has budget-floor "input symbols alone"
check no-method 2 "$CZ" verify --model hy.json --equiv-model hy_restructured.json
err_has no-method "needs --model FILE and --method algebra (--equiv-model)"
check no-model 2 "$CZ" verify --equiv-model hy.json --method algebra
err_has no-model "give the first as --model FILE"
check with-task 2 "$CZ" verify --model s1.json --equiv-model s1x2.json --task shift_down --method algebra
check with-samples 2 "$CZ" verify --model s1.json --equiv-model s1x2.json --method algebra --samples 5
check weights 2 "$CZ" verify --model hy.json --equiv-model hy.json --method algebra --algebra-symbols weights
check compositional 2 "$CZ" verify --model hy.json --equiv-model hy.json --method algebra --algebra-route compositional
check missing 2 "$CZ" verify --model hy.json --equiv-model nope.json --method algebra

[ "$fails" = 0 ] && echo "algebra_equiv: all passed" || { echo "algebra_equiv: $fails failed"; exit 1; }
