#!/usr/bin/env bash
# Architecture layers in model-json (issue 28; docs/contract.md "Architecture layers") through the
# real binary: a "retnet" and an "rwkv" layer evaluate like an independent Python reading of the
# contract (fractions, the definitions' double sums), a "hyena" and an "h3" layer evaluate like the
# sim constructions' exported expansions, a wrong γ changes the output, and bad layers exit 2
# with `error: ... (FILE.layers[0]...)`. `export --model` writes each layer back as written and
# `verify --model FILE [--task arch]` checks each stored expansion against its architecture.
set -u
CZ="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
. "$(dirname "$0")/check_lib.sh"  # T, fails, check, err_has, out_has
cd "$T"

python3 - <<'PY'
import json, copy
N = 3
base = {"format": "circuitzoo.model/1", "N": N, "inner_N": N, "conv": "causal"}
ret = {"kind": "retnet", "heads": 1, "WQ": [[1, -1]], "WK": [[2, 1]], "WV": [[1, 3]], "WO": [[1], [-2]], "gamma": ["1/2"]}
json.dump(dict(base, ring="Q", d=1, inner_d=8, layers=[ret]), open("ret.json", "w"))
json.dump(dict(base, ring="Z", d=1, inner_d=8, layers=[ret]), open("ret_z.json", "w"))
json.dump(dict(base, ring="Q", d=1, inner_d=7, layers=[ret]), open("ret_narrow.json", "w"))
json.dump(dict(base, ring="Q", d=1, inner_d=8, conv="cyclic", layers=[ret]), open("ret_cyclic.json", "w"))
bad = copy.deepcopy(ret); bad["gamma"] = ["1/3"]
json.dump(dict(base, ring="Q", d=1, inner_d=8, layers=[bad]), open("ret_mutant.json", "w"))
short = copy.deepcopy(ret); short["gamma"] = []
json.dump(dict(base, ring="Q", d=1, inner_d=8, layers=[short]), open("ret_short.json", "w"))
rw = {"kind": "rwkv", "mu": ["1/4"], "WV": [[2]], "decay": ["1/2"], "bonus": ["3/2"]}
json.dump(dict(base, ring="Q", d=2, inner_d=2, layers=[rw]), open("rwkv.json", "w"))
json.dump({"input": [[1], [-2], [3]]}, open("in1.json", "w"))
json.dump({"input": [[2, 1], [1, -1], [3, 2]]}, open("in2.json", "w"))
PY

# Independent references (fractions; the contract's definitions as double sums).
python3 - <<'PY'
import json
from fractions import Fraction as F
u = [r[0] for r in json.load(open("in1.json"))["input"]]
g = F(1, 2)
q = [x * 1 for x in u], [x * -1 for x in u]; k = [x * 2 for x in u], [x * 1 for x in u]; v = [x * 1 for x in u], [x * 3 for x in u]
o = [[sum(g ** (n - m) * (q[0][n] * k[0][m] + q[1][n] * k[1][m]) * v[b][m] for m in range(n + 1)) for b in range(2)] for n in range(3)]
y = [[o[n][0] * 1 + o[n][1] * -2] for n in range(3)]
json.dump(y, open("want_ret.json", "w"), default=str)
E, x = [r[0] for r in json.load(open("in2.json"))["input"]], [r[1] for r in json.load(open("in2.json"))["input"]]
mu, W, lam, beta = F(1, 4), 2, F(1, 2), F(3, 2)
vv = [W * (mu * x[t] + (1 - mu) * (x[t - 1] if t else 0)) for t in range(3)]
num = [sum(lam ** (t - 1 - i) * E[i] * vv[i] for i in range(t)) + beta * E[t] * vv[t] for t in range(3)]
den = [sum(lam ** (t - 1 - i) * E[i] for i in range(t)) + beta * E[t] for t in range(3)]
json.dump([[num[t], den[t]] for t in range(3)], open("want_rwkv.json", "w"), default=str)
PY
same() {  # same NAME FILE: the last output equals FILE's matrix (entries compared as fractions)
  python3 - "$T/out" "$2" <<'PY' || { echo "FAIL $1: output differs from $2"; fails=$((fails+1)); }
import json, sys
from fractions import Fraction as F
got = json.load(open(sys.argv[1]))["output"]; want = json.load(open(sys.argv[2]))
assert [[F(str(e)) for e in r] for r in got] == [[F(str(e)) for e in r] for r in want], (got, want)
PY
}
check eval-retnet 0 "$CZ" eval --model ret.json --input in1.json --json -; same eval-retnet want_ret.json
check eval-rwkv 0 "$CZ" eval --model rwkv.json --input in2.json --json -; same eval-rwkv want_rwkv.json
check eval-retnet-mutant 0 "$CZ" eval --model ret_mutant.json --input in1.json --json -
python3 - "$T/out" <<'PY' || { echo "FAIL retnet-mutant: a wrong gamma left the output unchanged"; fails=$((fails+1)); }
import json, sys
from fractions import Fraction as F
got = json.load(open(sys.argv[1]))["output"]; want = json.load(open("want_ret.json"))
assert [[F(str(e)) for e in r] for r in got] != [[F(str(e)) for e in r] for r in want]
PY
# RetNet's rotation (issue 35): q, k of a 2-wide head rotated by nθ, (cos θ, sin θ) = (3/5, 4/5),
# against torchscale's theta_shift written here in fractions; a missing "form" on an h3 layer
# exits 2 naming the field (the pre-12-03 meaning is not read silently).
python3 - <<'PY'
import json
from fractions import Fraction as F
N = 3
ret = {"kind": "retnet", "heads": 1, "WQ": [[1, -1]], "WK": [[2, 1]], "WV": [[1]], "WO": [[1]], "gamma": ["1/2"],
       "rotation": [["3/5", "4/5"]]}
json.dump({"format": "circuitzoo.model/1", "ring": "Q", "N": N, "d": 1, "inner_N": N, "inner_d": 10, "conv": "causal",
           "layers": [ret]}, open("ret_rot.json", "w"))
u = [r[0] for r in json.load(open("in1.json"))["input"]]
c, s = F(3, 5), F(4, 5)
cs = [(F(1), F(0))]
for n in range(1, N):
    cs.append((cs[-1][0] * c - cs[-1][1] * s, cs[-1][1] * c + cs[-1][0] * s))
def rot(x0, x1, n):  # theta_shift: x*cos + rotate_every_two(x)*sin, rotate_every_two(x0, x1) = (-x1, x0)
    return (x0 * cs[n][0] - x1 * cs[n][1], x1 * cs[n][0] + x0 * cs[n][1])
q = [rot(u[n] * 1, u[n] * -1, n) for n in range(N)]
k = [rot(u[n] * 2, u[n] * 1, n) for n in range(N)]
y = [[sum(F(1, 2) ** (n - m) * (q[n][0] * k[m][0] + q[n][1] * k[m][1]) * u[m] for m in range(n + 1))] for n in range(N)]
json.dump(y, open("want_ret_rot.json", "w"), default=str)
h3 = {"kind": "h3", "WQ": [[1]], "WK": [[1]], "WV": [[1]], "shift": [{"B": [1], "C": [1], "D": 0}],
      "diag": [{"lambda": [1], "B": [1], "C": [1], "D": 0}]}
json.dump({"format": "circuitzoo.model/1", "ring": "Z", "N": N, "d": 1, "inner_N": N, "inner_d": 3, "conv": "causal",
           "layers": [h3]}, open("h3_noform.json", "w"))
PY
check eval-retnet-rotation 0 "$CZ" eval --model ret_rot.json --input in1.json --json -; same eval-retnet-rotation want_ret_rot.json
check verify-arch-algebra 0 "$CZ" verify --model ret_rot.json --method algebra; out_has verify-arch-algebra "proved"
check verify-arch-algebra-task 2 "$CZ" verify --model ret_rot.json --task shift_down --method algebra
check eval-h3-no-form 2 "$CZ" eval --model h3_noform.json --input in1.json
err_has eval-h3-no-form "h3_noform.json.layers.0..form"
# Hyena of order 1 (d = 1): x = h_s ∗ (u·W), y = p1 ⊙ (h1 ∗ v), against the same sums in Python.
python3 - <<'PY'
import json
N = 3
W, hs, h1 = [[2, -1]], [[1, 1], [2, 0], [0, -1]], [[1], [-1], [3]]
m = {"format": "circuitzoo.model/1", "ring": "Z", "N": N, "d": 1, "inner_N": N, "inner_d": 2, "conv": "causal",
     "layers": [{"kind": "hyena", "order": 1, "W": W, "h_s": hs, "filters": [h1]}]}
json.dump(m, open("hyena.json", "w"))
u = [r[0] for r in json.load(open("in1.json"))["input"]]
z = [[u[i] * W[0][c] for c in range(2)] for i in range(N)]
x = [[sum(hs[t][c] * z[i - t][c] for t in range(i + 1)) for c in range(2)] for i in range(N)]
y = [[x[i][1] * sum(h1[t][0] * x[i - t][0] for t in range(i + 1))] for i in range(N)]
json.dump(y, open("want_hyena.json", "w"))
PY
check eval-hyena 0 "$CZ" eval --model hyena.json --input in1.json --json -; same eval-hyena want_hyena.json
check stats-retnet 0 "$CZ" stats --model ret.json --json -
out_has stats-retnet '"L": 4'
check z-ring 2 "$CZ" eval --model ret_z.json --input in1.json
err_has z-ring "^error: non-integer weight 1/2 in the BaseConv simulation of this retnet layer in a Z model (use ring Q) (ret_z.json.layers\[0\])"
check narrow 2 "$CZ" eval --model ret_narrow.json --input in1.json
err_has narrow "needs inner_d >= 8 (its BaseConv simulation's width), got 7 (ret_narrow.json.layers\[0\])"
check cyclic 2 "$CZ" eval --model ret_cyclic.json --input in1.json; err_has cyclic "needs the causal conv mode"
check short 2 "$CZ" eval --model ret_short.json --input in1.json; err_has short "want one decay γ per head (ret_short.json.layers\[0\])"
# A tiny file whose expansion is huge (Hyena of order 3000 on N = d = 1: 3002 layers of 3001×3001
# weights) is refused by the memory budget before anything is built.
python3 - <<'PY'
import json
k = 3000
m = {"format": "circuitzoo.model/1", "ring": "Z", "N": 1, "d": 1, "inner_N": 1, "inner_d": k + 1, "conv": "causal",
     "layers": [{"kind": "hyena", "order": k, "W": [[1] * (k + 1)], "h_s": [[1] * (k + 1)], "filters": [[[1]]] * k}]}
json.dump(m, open("huge.json", "w"))
PY
check huge 2 timeout 20 "$CZ" eval --model huge.json --input in1.json; err_has huge "the BaseConv simulation of a hyena layer (3002 layers at inner 1 x 3001)"
# Written back (export --model): each architecture layer as written, stable, evaluating the same;
# tensor formats hold the expansion; bad combinations exit 2.
python3 - <<'PY'
import json
json.dump({"format": "circuitzoo.model/1", "ring": "Z", "N": 3, "d": 1, "inner_N": 3, "inner_d": 1, "conv": "causal",
           "layers": [{"kind": "baseconv", "W": [[1]], "b1": [[1], [1], [1]], "h": [[1], [0], [0]], "b2": [[0], [0], [0]]}]},
          open("plain.json", "w"))
PY
same_file() {  # same_file NAME A B: the two model-json files are the same JSON value
  python3 - "$2" "$3" <<'PY' || { echo "FAIL $1: $2 and $3 differ"; fails=$((fails+1)); }
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert a == b, (a["layers"][0].get("kind"), b["layers"][0].get("kind"), len(a["layers"]), len(b["layers"]))
PY
}
for f in hyena ret rwkv; do
  check "export-$f" 0 "$CZ" export --model $f.json --format model-json -o ${f}_back.json; same_file "export-$f" $f.json ${f}_back.json
  check "export-again-$f" 0 "$CZ" export --model ${f}_back.json --format model-json -o ${f}_back2.json
  cmp -s ${f}_back.json ${f}_back2.json || { echo "FAIL export-again-$f: a second write differs"; fails=$((fails+1)); }
done
check eval-back 0 "$CZ" eval --model hyena_back.json --input in1.json --json -; same eval-back want_hyena.json
check export-npz 0 "$CZ" export --model hyena.json --format npz -o hyena.npz
python3 - <<'PY' || { echo "FAIL export-npz: not the 3-layer expansion"; fails=$((fails+1)); }
import zipfile
names = zipfile.ZipFile("hyena.npz").namelist()
assert sorted({n.split(".")[1] for n in names if n.startswith("layers.")}) == ["0", "1", "2"], names
PY
check export-dot 2 "$CZ" export --model ret.json --format dot -o x.dot; err_has export-dot "export --model writes model-json, npz or safetensors"
check export-both 2 "$CZ" export sim/hyena --model ret.json --format model-json -o x.json; err_has export-both "not both"
check export-none 2 "$CZ" export --format model-json -o x.json; err_has export-none "needs a construction NAME or --model FILE"

# verify --model FILE [--task arch]: each stored expansion against the architecture's own evaluation.
report() {  # report NAME PYTHON-ASSERTION: on the last --json - report (as r)
  python3 - "$T/out" "$2" <<'PY' || { echo "FAIL $1: report lacks $2"; fails=$((fails+1)); }
import json, sys
r = json.load(open(sys.argv[1]))
assert eval(sys.argv[2]), {k: r.get(k) for k in ("task", "verdict", "domain", "domain_description", "instances", "failed")}
PY
}
check verify-hyena 0 "$CZ" verify --model hyena.json --json -
report verify-hyena 'r["task"] == "arch" and r["verdict"] == "verified" and r["failed"] == 0 and r["domain"] == "exhaustive+sampled" and r["instances"] == 27 + 1000 and r["artifact"]["format"] == "model-json"'
check verify-ret 0 "$CZ" verify --model ret.json --task arch --samples 300 --seed 5 --json -
report verify-ret 'r["domain"] == "sampled" and r["instances"] == 300 and "seed 5" in r["domain_description"] and "over Q" in r["domain_description"]'
check verify-rwkv 0 "$CZ" verify --model rwkv.json --task arch --exhaustive --json -
report verify-rwkv 'r["domain"] == "exhaustive" and r["instances"] == 3 ** 6'
check verify-plain 2 "$CZ" verify --model plain.json --task arch; err_has verify-plain "no architecture layers"
check verify-plain-notask 2 "$CZ" verify --model plain.json; err_has verify-plain-notask "need --task"
check verify-arch-sat 2 "$CZ" verify --model ret.json --task arch --method sat; err_has verify-arch-sat "not --method sat"
check verify-arch-circuit 2 "$CZ" verify --circuit plain.json --task arch; err_has verify-arch-circuit "one --model FILE"
check verify-arch-p 2 "$CZ" verify --model ret.json --task arch -p N=3; err_has verify-arch-p "takes no -p"
echo "arch_layers: $fails failure(s)"
[ "$fails" = 0 ]
