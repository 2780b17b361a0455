#!/usr/bin/env bash
# verify sd/recurrent-jrt --method sat from the command line (app/engine/sat/sat_sd.h): proved at n = 8
# with the exact instance count (exit 0), variant=paper proved with Errata E8's state bound refuted
# beside it, and domain=subsets beyond n = 4 refused (exit 2, error line).
set -euo pipefail
CZ=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
rc() { set +e; "$@" >"$T/out" 2>"$T/err"; echo $?; set -e; }

[ "$(rc "$CZ" verify sd/recurrent-jrt -p n=8 -p domain=orders -p kmax=3 --method sat --json -)" = 0 ] || fail "proof exit"
python3 -c "import json; j=json.load(open('$T/out')); assert j['verdict']=='proved' and j['instances']==277111189275649 and j['sat']['miters']==7, j" || fail "proof json"
[ "$(rc "$CZ" verify sd/recurrent-jrt -p n=8 -p domain=orders -p kmax=3 -p variant=paper --method sat --json -)" = 0 ] || fail "paper exit"
python3 -c "
import json; j=json.load(open('$T/out')); e=j['sat']['e8_state_bound']; i=e['counterexample']['instance']
assert j['verdict']=='proved' and e['verdict']=='refuted' and len(i['A'])==len(i['B'])+1 and i['from']=='the SAT model', j" || fail "paper json"
[ "$(rc "$CZ" verify sd/recurrent-jrt -p n=5 --method sat)" = 2 ] || fail "refusal exit"
grep -q "^error: domain=subsets unrolls every prompt length .* (-p n=5)$" "$T/err" || fail "refusal text"
# sd/via-gar: proved with solver=via-sd (the reduction's Alg. 3 calls unrolled); the map-lookup solver refused.
[ "$(rc "$CZ" verify sd/via-gar -p solver=via-sd -p n=8 -p domain=orders -p kmax=3 --method sat --json -)" = 0 ] || fail "via-gar exit"
python3 -c "import json; j=json.load(open('$T/out')); assert j['verdict']=='proved' and j['instances']==277111189275649, j" || fail "via-gar json"
# solver=reference (the default): Prop G.25's map around the GAR reference circuit, proved (issue 37).
[ "$(rc "$CZ" verify sd/via-gar --method sat --json -)" = 0 ] || fail "via-gar reference exit"
python3 -c "import json; j=json.load(open('$T/out')); assert j['verdict']=='proved' and j['instances']==256 and any('GAR reference circuit' in n for n in j['notes']), j" || fail "via-gar reference json"
# eq/via-mqar and gar/via-sd (app/engine/sat/sat_reductions.h): proved at defaults; decode=any refuted with
# a confirmed counterexample (exit 1); oracle=based refused (exit 2); list --json shows sat.
[ "$(rc "$CZ" verify eq/via-mqar --method sat --json -)" = 0 ] || fail "eq exit"
python3 -c "import json; j=json.load(open('$T/out')); assert j['verdict']=='proved' and j['instances']==64, j" || fail "eq json"
[ "$(rc "$CZ" verify eq/via-mqar -p decode=any --method sat --json -)" = 1 ] || fail "eq any exit"
python3 -c "import json; j=json.load(open('$T/out')); i=j['counterexample']['instance']; assert j['verdict']=='refuted' and i['from']=='the SAT model' and i['u1']!=i['u2'], j" || fail "eq any json"
[ "$(rc "$CZ" verify gar/via-sd -p c=64 --method sat --json -)" = 0 ] || fail "gar exit"
python3 -c "import json; j=json.load(open('$T/out')); assert j['verdict']=='proved' and j['instances']==67645734912, j" || fail "gar json"
[ "$(rc "$CZ" verify gar/via-sd -p oracle=based --method sat)" = 2 ] || fail "gar based exit"
grep -q "^error: gar/via-sd with oracle=based is not provable .* (-p oracle=based)$" "$T/err" || fail "gar based text"
[ "$(rc "$CZ" list --json)" = 0 ] || fail "list exit"
python3 -c "
import json; j=json.load(open('$T/out')); m={c['name']: c['methods'] for c in j}
assert all('sat' in m[n] for n in ('eq/via-mqar', 'gar/via-sd', 'sd/via-gar')), m" || fail "list methods"
# verify --program FILE --task sd --method sat (issue 37 item 2): the exported Alg. 3 file proved at n = 8;
# a register made too narrow refuted (exit 1) with a confirmed instance; a division by an input refused (exit 2).
"$CZ" export sd/recurrent-jrt -p n=8 --format program -o "$T/alg3.json" >/dev/null
[ "$(rc "$CZ" verify --program "$T/alg3.json" --task sd -p domain=orders -p kmax=3 --method sat --json -)" = 0 ] || fail "program exit"
python3 -c "import json; j=json.load(open('$T/out')); assert j['verdict']=='proved' and j['instances']==277111189275649, j" || fail "program json"
python3 -c "
import json; s=json.dumps(json.load(open('$T/alg3.json')), separators=(',', ':'), sort_keys=True)
open('$T/narrow.json','w').write(s.replace('\"name\":\"smallFirst\",\"width\":1', '\"name\":\"smallFirst\",\"width\":0', 1))
open('$T/div.json','w').write(s.replace('{\"set\":\"isep\",\"value\":\"i\"}', '{\"set\":\"isep\",\"value\":{\"div\":[\"i\",{\"col\":0}]}}', 1))"
[ "$(rc "$CZ" verify --program "$T/narrow.json" --task sd -p domain=orders -p kmax=3 --method sat --json -)" = 1 ] || fail "narrow exit"
python3 -c "import json; j=json.load(open('$T/out')); assert j['verdict']=='refuted' and j['counterexample']['instance']['from']=='the SAT model', j" || fail "narrow json"
[ "$(rc "$CZ" verify --program "$T/div.json" --task sd -p domain=orders --method sat)" = 2 ] || fail "div exit"
grep -q "^error: the program cannot be bit-blasted: division by a value that depends on the input" "$T/err" || fail "div text"
echo ok
