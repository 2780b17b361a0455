#!/usr/bin/env bash
# K-matrix projections (issue 28; docs/contract.md "K-matrix projections") through the real
# binary: a W given by its butterfly factors evaluates like its dense expansion, `stats --model`
# reports both parameter counts, a wrong factor entry changes the output (the write-back of the
# form is tests/model/test_kmatrix_projection.cpp), and malformed forms exit 2 with `error: ... (FILE.layers[0].W...)`.
set -u
CZ="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
. "$(dirname "$0")/check_lib.sh"  # T, fails, check, err_has, out_has
cd "$T"
py() { python3 - "$@" || { echo "FAIL python check: $*"; fails=$((fails+1)); }; }

# N = d = 2; W = the swap [[0,1],[1,0]] as one BB* element: M1's only factor crosses, M2 = I.
# The layer is y = (u·W) ⊙ (δ0 * u) = (u·W) ⊙ u.
python3 - <<'PY'
import json, copy
W = {"kind": "kmatrix", "n": 2, "e": 1, "elements": [
    {"M1": [{"d1": [0], "d2": [1], "d3": [1], "d4": [0]}], "M2": [{"d1": [1], "d2": [0], "d3": [0], "d4": [1]}]}]}
layer = {"kind": "baseconv", "W": W, "b1": [[0, 0], [0, 0]], "h": [[1, 1], [0, 0]], "b2": [[0, 0], [0, 0]]}
m = {"format": "circuitzoo.model/1", "ring": "Z", "N": 2, "d": 2, "inner_N": 2, "inner_d": 2, "conv": "causal", "layers": [layer]}
json.dump(m, open("k.json", "w"))
dense = copy.deepcopy(m); dense["layers"][0]["W"] = [[0, 1], [1, 0]]; json.dump(dense, open("dense.json", "w"))
bad = copy.deepcopy(m); bad["layers"][0]["W"]["elements"][0]["M1"][0]["d2"] = [2]; json.dump(bad, open("mutant.json", "w"))
short = copy.deepcopy(m); short["layers"][0]["W"]["elements"][0]["M2"][0]["d3"] = []; json.dump(short, open("short.json", "w"))
wide = copy.deepcopy(m); wide["layers"][0]["W"]["n"] = 4; json.dump(wide, open("wide.json", "w"))
json.dump({"input": [[1, 2], [3, 4]]}, open("in.json", "w"))
PY
output_is() { python3 -c "import json,sys; o = json.load(open(sys.argv[1]))['output']; assert o == json.loads(sys.argv[2]), o" "$T/out" "$2" ||
  { echo "FAIL $1: output is not $2"; fails=$((fails+1)); }; }
check eval-k 0 "$CZ" eval --model k.json --input in.json --json -; output_is eval-k '[[2,2],[12,12]]'
check eval-dense 0 "$CZ" eval --model dense.json --input in.json --json -; output_is eval-dense '[[2,2],[12,12]]'
# The wrong entry (M1's d2 = 2) makes W[0][1] = 2: column 1 of u·W doubles.
check eval-mutant 0 "$CZ" eval --model mutant.json --input in.json --json -; output_is eval-mutant '[[2,4],[12,24]]'
check stats-k 0 "$CZ" stats --model k.json --json -
py "$T/out" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["model"]
assert m["params_dense"] == 16 and m["params_kmatrix"] == 12 + 8, m     # 3·N'·d' + 4·w·e·n·log2(en)
p, = m["kmatrix_projections"]
assert (p["layer"], p["n"], p["e"], p["w"], p["params"], p["params_formula"], p["dense_params"]) == (0, 2, 1, 1, 8, 8, 4), p
PY
check stats-dense 0 "$CZ" stats --model dense.json --json -
py "$T/out" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["model"]
assert m["params_kmatrix"] == m["params_dense"] == 16 and m["kmatrix_projections"] == [], m
PY
check stats-both 2 "$CZ" stats primitive/identity --model k.json; err_has stats-both "^error: give a construction NAME or --model FILE, not both"
check stats-none 2 "$CZ" stats; err_has stats-none "^error: stats needs a construction NAME or --model FILE"
check short 2 "$CZ" eval --model short.json --input in.json
err_has short "^error: expected a diagonal of e·n/2 = 1 entries (short.json.layers\[0\].W.elements\[0\].M2\[0\].d3)"
check wide 2 "$CZ" stats --model wide.json; err_has wide "(wide.json.layers\[0\].W.n)"
echo "kmatrix_projection: $fails failure(s)"
[ "$fails" = 0 ]
