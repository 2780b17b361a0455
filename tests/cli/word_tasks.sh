#!/usr/bin/env bash
# Tasks sort and compare (issue 47 item 1): registered tasks (`tasks`, `tasks --json` with their
# methods per artifact kind), a circuit file checked by enumeration (no --method) and by --method
# sat against them, a one-output mutant refuted by both (exit 1, a counterexample), and the port
# rule shared by both methods: a file without one of the task's outputs is refused (exit 2).
set -u
BIN=$1
. "$(dirname "$0")/check_lib.sh"
MUT="$(dirname "$0")/../sat/mutate_aag.py"
PY=/usr/bin/python3

# ---- the registry ----
check tasks 0 "$BIN" tasks
out_has tasks-sort "^sort: "
out_has tasks-compare "^compare: "
check tasks-json 0 "$BIN" tasks --json "$T/tasks.json"
json_eq tasks-json-words "$T/tasks.json" \
  "[t['methods'] for t in j if t['name'] in ('sort', 'compare')] == [{'circuit': ['enumerate', 'sat'], 'model': [], 'program': []}] * 2"
json_eq tasks-json-kinds "$T/tasks.json" "all(set(t['methods']) == {'circuit', 'model', 'program'} for t in j)"
json_eq tasks-json-mqar "$T/tasks.json" "[t['methods'] for t in j if t['name'] == 'mqar'][0]['circuit'] == ['enumerate', 'sat']"

# ---- files: circuit/sort and circuit/compare exported ----
check export-sort 0 "$BIN" export circuit/sort -p n=4 -p d=3 --format aiger -o "$T/s.aag"
check export-compare 0 "$BIN" export circuit/compare -p d=5 --format aiger -o "$T/c.aag"
check sort-enum 0 "$BIN" verify --circuit "$T/s.aag" --task sort --json "$T/se.json"
json_eq sort-enum-json "$T/se.json" \
  "j['verdict'] == 'verified' and j['domain'] == 'exhaustive' and j['instances'] == 4096 and j['task'] == 'sort' and j['params'] == {'n': 4, 'd': 3}"
check sort-sat 0 "$BIN" verify --circuit "$T/s.aag" --task sort --method sat --threads 1
check compare-enum 0 "$BIN" verify --circuit "$T/c.aag" --task compare --json "$T/ce.json"
json_eq compare-enum-json "$T/ce.json" "j['verdict'] == 'verified' and j['instances'] == 1024 and j['params'] == {'d': 5}"
check compare-sat 0 "$BIN" verify --circuit "$T/c.aag" --task compare --method sat --threads 1
# --samples K: a seeded sampled domain (the default beyond 2^21 inputs)
check compare-samples 0 "$BIN" verify --circuit "$T/c.aag" --task compare --samples 50 --json "$T/cs.json"
json_eq compare-samples-json "$T/cs.json" "j['domain'] == 'sampled' and j['instances'] == 50"

# ---- one-output mutants: refuted by both methods with a counterexample ----
"$PY" "$MUT" "$T/s.aag" "$T/sm.aag" flip 'key2[1]' || { echo "FAIL mutate sort"; fails=$((fails+1)); }
check sort-mutant-enum 1 "$BIN" verify --circuit "$T/sm.aag" --task sort --json "$T/sme.json"
err_has sort-mutant-enum-cex "counterexample"
json_eq sort-mutant-enum-json "$T/sme.json" "j['verdict'] == 'FAILED' and j['counterexample']['instance']['keys'] and 'place' in j['counterexample']['message']"
check sort-mutant-sat 1 "$BIN" verify --circuit "$T/sm.aag" --task sort --method sat --threads 1 --json "$T/sms.json"
json_eq sort-mutant-sat-json "$T/sms.json" "j['verdict'] == 'refuted' and 'place' in j['counterexample']['message']"
"$PY" "$MUT" "$T/c.aag" "$T/cm.aag" flip 'eq' || { echo "FAIL mutate compare"; fails=$((fails+1)); }
check compare-mutant-enum 1 "$BIN" verify --circuit "$T/cm.aag" --task compare --json "$T/cme.json"
err_has compare-mutant-enum-cex "counterexample"
json_eq compare-mutant-enum-json "$T/cme.json" "j['verdict'] == 'FAILED' and j['failed'] == 1024 and 'eq = ' in j['counterexample']['message']"
check compare-mutant-sat 1 "$BIN" verify --circuit "$T/cm.aag" --task compare --method sat --threads 1 --json "$T/cms.json"
json_eq compare-mutant-sat-json "$T/cms.json" "j['verdict'] == 'refuted' and 'eq = ' in j['counterexample']['message']"

# ---- a port the file lacks: refused by both methods (exit 2) ----
"$PY" - "$T/c.aag" "$T/c-noeq.aag" <<'PY' || { echo "FAIL drop eq"; fails=$((fails+1)); }
import sys
L = open(sys.argv[1]).read().split('\n')
M, I, Lt, O, A = map(int, L[0].split()[1:6])
outs = L[1 + I + Lt:1 + I + Lt + O]
syms = [l for l in L[1 + I + Lt + O + A:] if l[:1] in ('i', 'l', 'o')]
names = {int(l[1:].split(' ', 1)[0]): l.split(' ', 1)[1] for l in syms if l[0] == 'o'}
keep = [k for k in range(O) if names[k] != 'eq']
body = L[1:1 + I + Lt] + [outs[k] for k in keep] + L[1 + I + Lt + O:1 + I + Lt + O + A]
osy = ["o%d %s" % (i, names[k]) for i, k in enumerate(keep)]
open(sys.argv[2], 'w').write('\n'.join([' '.join(['aag', str(M), str(I), str(Lt), str(len(keep)), str(A)])] + body +
                                       [l for l in syms if l[0] != 'o'] + osy) + '\n')
PY
for m in enumerate sat; do
  check "compare-noeq-$m" 2 "$BIN" verify --circuit "$T/c-noeq.aag" --task compare --method $m
  err_has "compare-noeq-$m-msg" "^error: the circuit has 10 inputs and 11 outputs; task compare needs .*the file has no output eq"
done
# another task's file, and a kind the task does not check
check sort-as-compare 2 "$BIN" verify --circuit "$T/s.aag" --task compare
err_has sort-as-compare-msg "^error: the circuit has 12 inputs and 20 outputs; task compare needs"
check export-model 0 "$BIN" export primitive/identity --format model-json -o "$T/m.json"
check model-on-sort 2 "$BIN" verify --model "$T/m.json" --task sort
err_has model-on-sort-msg "^error: task 'sort' checks no model file: a model file is checked against task identity, .*mqar"
# a method the task does not list for the kind (tasks --json "methods"): refused before dispatching
check sat-on-identity-circuit 2 "$BIN" verify --circuit "$T/c.aag" --task identity --method sat
err_has sat-on-identity-circuit-msg "^error: --method sat does not check a circuit file against task identity (a circuit file: enumerate;"

[ "$fails" = 0 ] && echo "word_tasks: all passed" || { echo "word_tasks: $fails failed"; exit 1; }
