#!/usr/bin/env bash
# The circuit side of the CLI through the real binary: `export --format` for every circuit
# format (circuits and compiled models), `circuit FILE` (stats, --to, --equiv), `stats`/`verify`
# circuit fields, and bad input: exit 2, `error: <what> (<where>)`, no partial files.
set -u
CZ="$1"
. "$(dirname "$0")/../cli/check_lib.sh"  # T, fails, check, err_has, out_has
py() { python3 -c "$1" || { echo "FAIL $2"; fails=$((fails+1)); }; }

# every format of an all-Bit construction, read back and checked equal to the circuit-json export
check sort-json 0 "$CZ" export circuit/sort -p n=4 -p d=2 --format circuit-json -o "$T/s.json"
for f in dot:dot aiger:aag aiger-binary:aig blif:blif bristol:bristol; do
  fmt=${f%%:*}; ext=${f##*:}
  check "sort-$fmt" 0 "$CZ" export circuit/sort -p n=4 -p d=2 --format "$fmt" -o "$T/s.$ext"
  check "equiv-$fmt" 0 "$CZ" circuit "$T/s.$ext" --equiv "$T/s.json" --json -
  py "import json; j=json.load(open('$T/out')); assert j['equiv']['equivalent'] and j['equiv']['instances']==256, j['equiv']" "equiv-$fmt json"
done
check circuit-stats 0 "$CZ" circuit "$T/s.json" --json -
cp "$T/out" "$T/cs.json"
check stats-sort 0 "$CZ" stats circuit/sort -p n=4 -p d=2 --json -
py "import json; a=json.load(open('$T/cs.json'))['circuit']; b=json.load(open('$T/out'))['circuit']; assert a['size']==b['size'] and a['aig_ands']==b['aig_ands'], (a,b)" "stats of the file = stats of the construction"

# a model construction compiles to a circuit for stats and export
# y[0][0] := u[1][0]: the causal compiler cannot (exit 2, names output and input), the cyclic one can (issue 28)
check lookahead-causal 2 "$CZ" verify circuit/to-model -p source=lookahead
err_has lookahead-causal "^error: output y\[0\]\[0\] at row 0 uses input u\[1\]\[0\] of row 1"
check lookahead-cyclic 0 "$CZ" verify circuit/to-model -p source=lookahead -p compiler=cyclic --samples 200
check stats-model 0 "$CZ" stats primitive/cumsum -p N=4 -p d=1 --json -
py "import json; c=json.load(open('$T/out'))['circuit']; assert c['compiled_from']=='model' and c['inputs']==4 and c['size']>0, c" "stats compiled model"
check model-json 0 "$CZ" export primitive/cumsum -p N=4 -p d=1 --format circuit-json -o "$T/m.json"
check model-bristol 0 "$CZ" export primitive/cumsum -p N=4 -p d=1 --format bristol -o "$T/m.bristol"
check model-equiv 0 "$CZ" circuit "$T/m.bristol" --equiv "$T/m.json"
check model-to-dot 0 "$CZ" circuit "$T/m.json" --to dot -o "$T/m.dot"
grep -q "digraph" "$T/m.dot" || { echo "FAIL --to dot"; fails=$((fails+1)); }
check model-aiger 2 "$CZ" export primitive/cumsum --format aiger -o "$T/m.aag"; err_has model-aiger "^error: .*all Bit"
[ -e "$T/m.aag" ] && { echo "FAIL partial aiger file"; fails=$((fails+1)); }

# verify reports carry the circuit stats
check verify-sort 0 "$CZ" verify circuit/sort -p n=3 -p d=2 --json -
py "import json; r=json.load(open('$T/out')); assert r['circuit']['all_outputs_bit'] and r['instances']==64 and r['failed']==0, r" "verify circuit field"

# a circuit that differs: exit 1 with the smallest counterexample
check cmp 0 "$CZ" export circuit/compare -p d=2 --format circuit-json -o "$T/c.json"
python3 - "$T/c.json" "$T/c2.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["outputs"][0]["gate"] = j["outputs"][1]["gate"]   # lt := eq
json.dump(j, open(sys.argv[2], "w"))
PY
check not-equiv 1 "$CZ" circuit "$T/c.json" --equiv "$T/c2.json" --json -; err_has not-equiv "counterexample"
py "import json; e=json.load(open('$T/out'))['equiv']; assert not e['equivalent'] and e['counterexample']['instance']==0 and e['counterexample']['output']=='lt', e" "counterexample json"

# --samples/--seed: random simulation (bit-sliced 0/1 words for all-Bit, a random prime field otherwise)
check sample-bit 0 "$CZ" circuit "$T/s.aag" --equiv "$T/s.json" --samples 1000 --seed 3 --json -
py "import json; e=json.load(open('$T/out'))['equiv']; assert e['equivalent'] and e['method']=='sampled-bit-sliced' and e['samples']==1000 and e['seed']==3, e" "sampled bit-sliced json"
check sample-fp 0 "$CZ" circuit "$T/m.bristol" --equiv "$T/m.json" --samples 50 --seed 9 --json -
py "import json; e=json.load(open('$T/out'))['equiv']; assert e['equivalent'] and e['method']=='sampled-Fp' and 2**60 < e['prime'] < 2**61 and e['log10_error_bound'] < -500, e" "sampled Fp json"
cp "$T/out" "$T/fp1.json"
check sample-again 0 "$CZ" circuit "$T/m.bristol" --equiv "$T/m.json" --samples 50 --seed 9 --threads 1 --json -
py "import json; a=json.load(open('$T/out'))['equiv']; b=json.load(open('$T/fp1.json'))['equiv']; assert a==b, (a,b)" "same seed, same result"
check sample-differ 1 "$CZ" circuit "$T/c.json" --equiv "$T/c2.json" --samples 100 --json -; err_has sample-differ "counterexample"
py "import json; e=json.load(open('$T/out'))['equiv']; assert not e['equivalent'] and len(e['counterexample']['inputs'])==4, e" "sampled counterexample json"
echo '{"format":"circuitzoo.circuit/1","inputs":["a"],"gates":[{"op":"mul","a":0,"b":0}],"outputs":[{"name":"o","gate":1}]}' > "$T/sq.json"
echo '{"format":"circuitzoo.circuit/1","inputs":["a"],"gates":[],"outputs":[{"name":"o","gate":0}]}' > "$T/id.json"
check poly-only 1 "$CZ" circuit "$T/sq.json" --equiv "$T/id.json" --samples 10 --json -
py "import json; e=json.load(open('$T/out'))['equiv']; assert not e['equivalent'] and e['agree_on_01'] and 'agree on all 2 0/1 inputs' in e['note'] and len(e['counterexample']['field_inputs'])==1, e" "differ as polynomials, agree on 0/1"
check samples-zero 2 "$CZ" circuit "$T/s.json" --equiv "$T/s.aag" --samples 0; err_has samples-zero "samples"
check samples-junk 2 "$CZ" circuit "$T/s.json" --equiv "$T/s.aag" --samples ten; err_has samples-junk "samples"
check seed-neg 2 "$CZ" circuit "$T/s.json" --equiv "$T/s.aag" --samples 5 --seed -1; err_has seed-neg "seed"
check samples-alone 2 "$CZ" circuit "$T/s.json" --samples 5; err_has samples-alone "needs --equiv"

# bad input: exit 2, a clear message, no partial file
check bad-format 2 "$CZ" export circuit/sort --format png -o "$T/x.png"; err_has bad-format "unknown format"
[ -e "$T/x.png" ] && { echo "FAIL partial png"; fails=$((fails+1)); }
check unwritable 2 "$CZ" export circuit/sort --format blif -o "$T/no/dir/x.blif"; err_has unwritable "^error: cannot write"
echo '{"format":"circuitzoo.circuit/1","inputs":["a"' > "$T/bad.json"
check malformed 2 "$CZ" circuit "$T/bad.json"; err_has malformed "^error: malformed JSON"
echo '{"format":"circuitzoo.circuit/1","inputs":["a","b"],"input_types":["bit","bit"],"gates":[{"op":"add","a":0,"b":1,"bit":{"op":"xor","x":0,"y":1}}],"outputs":[{"name":"o","gate":2}]}' > "$T/lie.json"
check false-bit 2 "$CZ" circuit "$T/lie.json"; err_has false-bit "false Bit claim"
echo '{"format":"circuitzoo.circuit/1","inputs":["a"],"gates":[{"op":"mul","a":0,"b":5}],"outputs":[]}' > "$T/fwd.json"
check forward-ref 2 "$CZ" circuit "$T/fwd.json"; err_has forward-ref "gates\[0\].b"
check no-ext 2 "$CZ" circuit "$T/s"; err_has no-ext "use --from"
check to-no-out 2 "$CZ" circuit "$T/s.json" --to blif; err_has to-no-out "needs an output path"
check shape 2 "$CZ" circuit "$T/s.json" --equiv "$T/c.json"; err_has shape "differ in shape"
check missing 2 "$CZ" circuit "$T/none.json"; err_has missing "cannot read"

echo "cli_circuits: $fails failure(s)"
[ "$fails" = 0 ]
