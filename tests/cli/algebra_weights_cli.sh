#!/usr/bin/env bash
# verify --method algebra --algebra-symbols weights, and models over Fp, through the real binary
# (issue 37 item 1; contract.md "verify --method algebra"): a proof for every weight (exit 0) with
# its report keys documented, refusals (exit 2), a model-json over Fp:7 proved in F_7[x].
set -u
CZ="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/check_lib.sh"  # T, fails, check, err_has, out_has
cd "$T"
check rwkv-w 0 "$CZ" verify sim/rwkv -p N=4 --method algebra --algebra-symbols weights --json rw.json
out_has rwkv-w "weights)"
grep -q '"symbols_of": "inputs+weights"' rw.json || { echo "FAIL rwkv-w: no symbols_of in the report"; fails=$((fails+1)); }
check h3-w 0 "$CZ" verify sim/h3 -p N=4 --method algebra --algebra-symbols weights
check prim-w 2 "$CZ" verify primitive/identity --method algebra --algebra-symbols weights
err_has prim-w "(--algebra-symbols)"
check stack-w 2 "$CZ" verify sim/hyena -p stack=2 --method algebra --algebra-symbols weights
check comp-w 0 "$CZ" verify sim/hyena -p N=16 -p d=2 -p order=3 --method algebra --algebra-symbols weights --algebra-route compositional --json hw.json
out_has comp-w "step gate 3"
check comp-h3-w 2 "$CZ" verify sim/h3 --method algebra --algebra-symbols weights --algebra-route compositional
check budget-w 2 "$CZ" verify sim/retnet -p N=8 --method algebra --algebra-symbols weights --algebra-budget 1000
err_has budget-w "with the weights as symbols would need about"
check bad-symbols 2 "$CZ" verify sim/rwkv --method algebra --algebra-symbols outputs
# A model over Fp:7 with an architecture layer: proved in F_7[x].
cat > fp.json <<'JSON'
{"format": "circuitzoo.model/1", "ring": "Fp:7", "N": 3, "d": 2, "inner_N": 3, "inner_d": 2, "conv": "causal",
 "layers": [{"kind": "rwkv", "mu": [3], "WV": [[5]], "decay": [4], "bonus": [6]}]}
JSON
check fp 0 "$CZ" verify --model fp.json --method algebra --json fp_out.json
grep -q '"instances": "all of F_7^(3×2)"' fp_out.json || { echo "FAIL fp: instances not over F_7"; fails=$((fails+1)); }
python3 "$HERE/contract_keys.py" "$HERE/../../docs/contract.md" verify=rw.json verify=hw.json verify=fp_out.json || fails=$((fails+1))
echo "algebra_weights_cli: $fails failure(s)"
[ "$fails" = 0 ]
