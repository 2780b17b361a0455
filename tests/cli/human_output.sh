#!/usr/bin/env bash
# Output people can read (issue 39): verify rows within 120 columns, only the parameters a
# construction uses, counts as 6.4e85 (the exact integer in the JSON), key=value lines instead of
# JSON blobs, `--json NAME` named as what happened, the kept checkpoint said. Seconds.
set -u
CZ="$1"
. "$(dirname "$0")/check_lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
no_not() { grep -q -- "$2" "$T/out" && { echo "FAIL $1: stdout has '$2'"; head -c 600 "$T/out"; fails=$((fails+1)); }; }
max_cols() { "$PY" -c 'import sys; print(max((len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")), default=0))' "$1"; }

# verify --all: every line within 120 columns; the rows say what they checked.
check all 0 "$CZ" verify --all --no-timing
[ "$(max_cols "$T/out")" -le 120 ] || { echo "FAIL all: a line of $(max_cols "$T/out") columns"; fails=$((fails+1)); }
out_has all-header "^construction  *params  *domain  *checked  *verdict  *achieved  *paper claims$"
out_has all-row "^mqar/attention  *n=3  *exhaustive  *4374  *verified"
out_has all-legend "wide"
no_not all-no-zoology-params "^mqar/attention .*kv="
no_not all-no-auto-c "c=0"
# --wide: the row as before, every applicable parameter and each claim.
check wide 0 "$CZ" verify --all --wide --no-timing
out_has wide-header "paper claims (claimed→ours)"
out_has wide-params "^mqar/attention  *layout=triples n=3 c=0 instance=-1 "
out_has wide-claims "layers O(1)→3"
no_not wide-no-zoology-params "^mqar/attention .*kv="
# The zoology layout shows its own parameters, not the triples' n; p only for phot.
check zoology 0 "$CZ" verify mqar/attention -p layout=zoology -p N=16 -p kv=2 --samples 20 --no-timing
out_has zoology-row "layout=zoology N=16 kv=2 "
no_not zoology-no-n " n=3"
out_has zoology-claim "^  claim: layers"
check dyadic-p 0 "$CZ" verify mqar/dyadic -p n=2 -p c=2 --wide --no-timing
no_not dyadic-no-p " p=2"
# Counts past 7 digits as 1.7e7 on the human line; the JSON keeps the exact integer.
check sat-count 0 "$CZ" verify circuit/compare -p d=12 --method sat --json "$T/sat.json"
out_has sat-short "on 1.7e7 instances"
no_not sat-no-json '{"d"'
"$PY" -c 'import json, sys; assert json.load(open(sys.argv[1]))["instances"] == 16777216' "$T/sat.json" \
  || { echo "FAIL sat-count: JSON instances not exact"; fails=$((fails+1)); }
# stats and circuit: key=value fields, no JSON objects.
check stats 0 "$CZ" stats mqar/attention
out_has stats-model "^  model:   N=9 L=3 d=3 inner_N=9 inner_d=9 params_dense=783 params_nonzero=129"
no_not stats-no-json '{"'
[ "$(max_cols "$T/out")" -le 120 ] || { echo "FAIL stats: a line of $(max_cols "$T/out") columns"; fails=$((fails+1)); }
check export-blif 0 "$CZ" export circuit/compare -p d=2 --format blif -o "$T/c.blif"
check circuit 0 "$CZ" circuit "$T/c.blif"
out_has circuit-fields "^  circuit: size=[0-9]* depth=[0-9]* width=[0-9]* inputs=4 outputs="
no_not circuit-no-json '{"'
# `--json NAME`: --json took NAME as its file name, and the message says so.
check json-name 2 "$CZ" verify --json primitive/cumsum
err_has json-name "^error: give one construction NAME or --all: --json took 'primitive/cumsum' as its file name"
check json-name-stats 2 "$CZ" stats --json mqar/dyadic
err_has json-name-stats "--json took 'mqar/dyadic' as its file name"
check no-name 2 "$CZ" verify
err_has no-name "^error: give one construction NAME or --all (verify)$"
# A finished run keeps its checkpoint and says why.
check checkpoint 0 "$CZ" verify primitive/cumsum -p N=4 -p d=1 --checkpoint "$T/ck.json"
out_has checkpoint-note "note: checkpoint .*ck.json kept, complete"
[ -f "$T/ck.json" ] || { echo "FAIL checkpoint: not kept"; fails=$((fails+1)); }
[ "$fails" = 0 ] && echo "human output: all checks passed"
exit $((fails > 0))
