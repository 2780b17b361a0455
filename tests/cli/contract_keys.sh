#!/usr/bin/env bash
# Every top-level key that `verify --json`, `stats --json` and `sweep --json` print is documented
# in docs/contract.md (issue 26, item 12; `claims --json`: tests/proofs/proofs_cli.sh, which runs
# the ledger anyway). Small, fast instances of each report kind: a model construction, a circuit
# construction, a user's circuit file against a task, a sweep, and `--help` pointing at the contract.
set -u
CZ="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/check_lib.sh"  # T, fails, check, err_has, out_has
cd "$T"
check verify-model 0 "$CZ" verify primitive/identity -p N=2 -p d=1 --json vm.json
check verify-circuit 0 "$CZ" verify mqar/dyadic -p n=2 -p c=4 --json vc.json
check export 0 "$CZ" export mqar/dyadic -p n=2 -p c=4 --format aiger -o dy.aag
check verify-file 0 "$CZ" verify --circuit dy.aag --task mqar -p n=2 -p c=4 -p encoding=binary --json vf.json
check stats-model 0 "$CZ" stats primitive/identity -p N=2 -p d=1 --json sm.json
check stats-circuit 0 "$CZ" stats mqar/dyadic -p n=2 -p c=4 --json sc.json
check sweep 0 "$CZ" sweep primitive/identity --vary N=2,4 -p d=1 --json sw.json
python3 "$HERE/contract_keys.py" "$HERE/../../docs/contract.md" verify=vm.json verify=vc.json verify-file=vf.json \
  stats=sm.json stats=sc.json sweep=sw.json || fails=$((fails+1))
# The contract is linked from --help.
check help 0 "$CZ" --help; out_has help "docs/contract.md"
# The checker can fail: a key the contract does not name is reported.
echo '{"tool": 1, "no_such_key_zz": 2}' > bad.json
python3 "$HERE/contract_keys.py" "$HERE/../../docs/contract.md" verify=bad.json > out 2>&1 && { echo "FAIL checker accepted an undocumented key"; fails=$((fails+1)); }
grep -q "no_such_key_zz" out || { echo "FAIL checker did not name the key"; fails=$((fails+1)); }
echo "contract_keys: $fails failure(s)"
[ "$fails" = 0 ]
