#!/usr/bin/env bash
# Methods by artifact kind and task (issue 47 item 2): a user's model file against a polynomial-map
# task (the primitives) by --method algebra, as the built-ins are proved; `tasks --json` lists the
# method for model files from the same predicate verify dispatches on.
set -u
BIN=$1
. "$(dirname "$0")/check_lib.sh"
PY=/usr/bin/python3
check export 0 "$BIN" export primitive/shift_down -p N=8 -p d=2 -p s=3 --format model-json -o "$T/sd.json"
check proved 0 "$BIN" verify --model "$T/sd.json" --task shift_down -p s=3 --method algebra --json "$T/p.json"
"$PY" -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j['verdict']=='proved' and j['method']=='algebra' and j['params']['N']==8 and j['task']=='shift_down' else 1)" "$T/p.json" ||
  { echo "FAIL proved-json"; fails=$((fails+1)); }
# The same file against another shift, and against cumsum: refuted with a point checked exactly.
check refuted-shift 1 "$BIN" verify --model "$T/sd.json" --task shift_down -p s=2 --method algebra
err_has refuted-shift-cx "counterexample (confirmed by exact evaluation"
check refuted-task 1 "$BIN" verify --model "$T/sd.json" --task cumsum --method algebra
# Shapes from the file; a shape -p contradicts: exit 2. A task that is no polynomial map: exit 2.
check shape 2 "$BIN" verify --model "$T/sd.json" --task shift_down -p N=4 -p s=3 --method algebra
check not-a-map 2 "$BIN" verify --model "$T/sd.json" --task mqar --method algebra
check enumerating-flags 2 "$BIN" verify --model "$T/sd.json" --task shift_down -p s=3 --method algebra --samples 5
check tasks-json 0 "$BIN" tasks shift_down --json "$T/t.json"
"$PY" -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if 'algebra' in j['methods']['model'] else 1)" "$T/t.json" ||
  { echo "FAIL tasks-json: no algebra for model files"; fails=$((fails+1)); }
[ "$fails" = 0 ] && echo "methods_by_kind: all passed" || { echo "methods_by_kind: $fails failed"; exit 1; }
