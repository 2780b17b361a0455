#!/usr/bin/env bash
# verify --method algebra through the real binary (issue 37 item 1; contract.md "verify --method
# algebra"): a proof (exit 0) with its report keys documented, a refusal over budget (exit 2, one
# `error:` line with the estimate), constructions and flags it does not cover (exit 2).
set -u
CZ="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/check_lib.sh"  # T, fails, check, err_has, out_has
cd "$T"
check retnet 0 "$CZ" verify sim/retnet -p N=6 -p d=2 --method algebra --json ra.json
out_has retnet "proved"
grep -q '"route": "expansion"' ra.json || { echo "FAIL retnet: no route in the report"; fails=$((fails+1)); }
check hyena-comp 0 "$CZ" verify sim/hyena -p N=6 -p d=1 -p order=3 --method algebra --algebra-route compositional --json hc.json
out_has hyena-comp "step gate 3"
check prim 0 "$CZ" verify primitive/cumsum -p N=16 -p d=2 --method algebra --json pa.json
check shift-up-causal 1 "$CZ" verify primitive/shift_up -p N=4 -p d=1 -p conv=causal --method algebra --json su.json
err_has shift-up-causal "counterexample (confirmed by exact evaluation over Q)"
python3 "$HERE/contract_keys.py" "$HERE/../../docs/contract.md" verify=ra.json verify=hc.json verify=su.json || fails=$((fails+1))
check budget 2 "$CZ" verify sim/h3 -p N=16 -p d=2 --method algebra --algebra-budget 1000
err_has budget "error: the expansion would need about"
err_has budget "(--algebra-budget)"
[ "$(wc -l < "$T/err")" = 1 ] || { echo "FAIL budget: more than one line on stderr"; fails=$((fails+1)); }
check not-covered 2 "$CZ" verify mqar/attention --method algebra
err_has not-covered "is not provable by --method algebra"
check samples 2 "$CZ" verify sim/h3 --method algebra --samples 5
check route 2 "$CZ" verify sim/h3 --method algebra --algebra-route compositional
echo "algebra_cli: $fails failure(s)"
[ "$fails" = 0 ]
