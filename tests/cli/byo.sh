#!/usr/bin/env bash
# Bring your own construction (issue 15) through the real binary: `tasks`, `verify --model/--circuit
# FILE --task`, `circuit FILE --eval/--equiv-model`. Every accepted file is checked with the
# built-in's instance counts; every mutant (one weight, one output literal, one cover, one wire)
# exits 1 with a counterexample; every shape that does not fit exits 2 with `error: ... (FILE)`.
set -u
README="$(cd "$(dirname "$0")/../.." && pwd)/README.md"
CZ="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"  # absolute: the test runs in its own folder
. "$(dirname "$0")/check_lib.sh"  # T, fails, check, err_has, out_has
cd "$T"
py() { python3 - "$@" || { echo "FAIL python check: $*"; fails=$((fails+1)); }; }
instances() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['instances'])" "$1"; }

# --- tasks ---
check tasks 0 "$CZ" tasks; out_has tasks "^mqar:"; out_has tasks "input:"
check tasks-json 0 "$CZ" tasks --json -
py "$T/out" <<'PY'
import json, sys
ts = {t["name"]: t for t in json.load(open(sys.argv[1]))}
for n in ["identity", "shift_down", "shift_up", "cumsum", "add", "hadamard", "remember", "mqar", "ar", "sd", "gar", "eq"]:
    t = ts[n]
    assert t["input_encoding"] and t["output_decoding"] and t["domains"] and t["reference"], n
assert ts["mqar"]["check_files"] and ts["sd"]["check_files"] and not ts["gar"]["check_files"] and ts["gar"]["check_files_note"]
assert any(p["name"] == "encoding" and p["choices"] == ["onehot", "binary", "phot"] for p in ts["mqar"]["params"])
PY
check tasks-one 0 "$CZ" tasks shift_down --json -; out_has tasks-one '"name": "shift_down"'
check tasks-unknown 2 "$CZ" tasks nope; err_has tasks-unknown "^error: unknown task 'nope'"

# --- a model: mqar/attention exported, verified, mutated (the issue's case) ---
check export-att 0 "$CZ" export mqar/attention --format model-json -o att.json
check builtin-att 0 "$CZ" verify mqar/attention --json builtin.json
check byo-att 0 "$CZ" verify --model att.json --task mqar --json byo.json
[ "$(instances byo.json)" = "$(instances builtin.json)" ] || { echo "FAIL byo-att: instance counts differ"; fails=$((fails+1)); }
py byo.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["verdict"] == "verified" and r["failed"] == 0 and r["task"] == "mqar"
assert r["artifact"] == {"kind": "model", "file": "att.json", "format": "model-json"}
assert r["model"]["L"] == 3 and r["model"]["inner_d"] == 9 and r["engine"]["path"] == "block"
assert r["claims"] and all(not c["binding"] for c in r["claims"]) and all(c["source"] == "Zoology H.7.2" for c in r["claims"])
PY
python3 -c "
import json; m = json.load(open('att.json')); assert m['layers'][0]['h'][3][2] == 1
m['layers'][0]['h'][3][2] = 0; json.dump(m, open('mut.json', 'w'))"
check byo-att-mutant 1 "$CZ" verify --model mut.json --task mqar --json mres.json
err_has byo-att-mutant "counterexample for mut.json"
py mres.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["verdict"] == "FAILED" and r["failed"] > 0 and r["counterexample"]["message"].startswith("row ")
assert r["counterexample"]["expected"] != r["counterexample"]["got"]
PY
check byo-att-sampled 0 "$CZ" verify --model att.json --task mqar --samples 50 --seed 3 --json s.json
[ "$(instances s.json)" = 50 ] || { echo "FAIL byo-att-sampled: want 50 instances"; fails=$((fails+1)); }
# The user's model runs on the built-ins' paths: the lane program (block engine), and the device
# path's CPU twin, each with the scalar path's counts and counterexample (issues 12, 15).
for f in att mut; do
  want=0; [ $f = mut ] && want=1
  check "byo-$f-scalar" $want "$CZ" verify --model $f.json --task mqar --scalar --json $f-scalar.json
  check "byo-$f-twin" $want "$CZ" verify --model $f.json --task mqar --device twin --json $f-twin.json
  check "byo-$f-twin-sampled" $want "$CZ" verify --model $f.json --task mqar --device twin --samples 400 --seed 9 --json $f-ts.json
  check "byo-$f-cpu-sampled" $want "$CZ" verify --model $f.json --task mqar --samples 400 --seed 9 --json $f-cs.json
  py $f-scalar.json $f-twin.json $f-ts.json $f-cs.json <<'PY'
import json, sys
scalar, twin, ts, cs = (json.load(open(p)) for p in sys.argv[1:5])
assert twin["device"] == "cpu-twin" and twin["engine"]["kind"].startswith("cpu twin of the device path: modular")
for a, b in ((scalar, twin), (cs, ts)):
    for k in ("instances", "passed", "failed", "counterexample", "verdict"):
        assert a[k] == b[k], (k, a[k], b[k])
PY
done
py byo.json <<'PY'
import json, sys
assert json.load(open(sys.argv[1]))["engine"]["kind"].startswith("lane program of your model")
PY
check byo-circuit-twin 2 "$CZ" verify --circuit nothing.aag --task mqar --device twin; err_has byo-circuit-twin "checked on the CPU"
check byo-model-twin-nopath 2 "$CZ" verify --model att.json --task identity --device twin

# --- every primitive: the exported model verifies with the built-in's counts ---
for row in "identity:" "shift_down:-p s=2" "shift_up:-p s=1 -p conv=cyclic" "cumsum:" "add:" "hadamard:" "remember:"; do
  t=${row%%:*}; ps=${row#*:}
  check "export-$t" 0 "$CZ" export primitive/$t $ps --format model-json -o $t.json
  check "builtin-$t" 0 "$CZ" verify primitive/$t $ps --json b-$t.json
  tp=$(echo "$ps" | sed 's/-p conv=[a-z]*//')
  check "byo-$t" 0 "$CZ" verify --model $t.json --task $t $tp --json r-$t.json
  [ "$(instances r-$t.json)" = "$(instances b-$t.json)" ] || { echo "FAIL byo-$t: instance counts differ"; fails=$((fails+1)); }
done
python3 -c "
import json; m = json.load(open('shift_down.json')); m['layers'][0]['h'][2][1] = 0; json.dump(m, open('sdmut.json', 'w'))"
check byo-shift-mutant 1 "$CZ" verify --model sdmut.json --task shift_down -p s=2; err_has byo-shift-mutant "counterexample"

# --- a circuit in each format: verified with the built-in's counts, mutants caught ---
check export-sd-cj 0 "$CZ" export primitive/shift_down -p N=4 -p d=2 -p s=1 --format circuit-json -o sd.json
check export-sd-br 0 "$CZ" export primitive/shift_down -p N=4 -p d=2 -p s=1 --format bristol -o sd.bristol
check builtin-sd4 0 "$CZ" verify primitive/shift_down -p N=4 -p d=2 -p s=1 --json b-sd4.json
# AIGER and BLIF by hand (a shift is wires; the export of a model has Field outputs): y[0] = 0, y[i] = u[i-1].
{ echo "aag 8 8 0 8 0"; for k in 1 2 3 4 5 6 7 8; do echo $((2*k)); done; echo 0; echo 0
  for k in 1 2 3 4 5 6; do echo $((2*k)); done
  k=0; for i in 0 1 2 3; do for j in 0 1; do echo "i$k u[$i][$j]"; k=$((k+1)); done; done
  k=0; for i in 0 1 2 3; do for j in 0 1; do echo "o$k y[$i][$j]"; k=$((k+1)); done; done; } > sd.aag
{ echo ".model shift"; printf ".inputs"; for i in 0 1 2 3; do for j in 0 1; do printf " u[$i][$j]"; done; done; echo
  printf ".outputs"; for i in 0 1 2 3; do for j in 0 1; do printf " y[$i][$j]"; done; done; echo
  echo ".names y[0][0]"; echo ".names y[0][1]"
  for i in 1 2 3; do for j in 0 1; do echo ".names u[$((i-1))][$j] y[$i][$j]"; echo "1 1"; done; done; echo ".end"; } > sd.blif
for f in sd.json sd.bristol sd.aag sd.blif; do
  check "byo-circuit-$f" 0 "$CZ" verify --circuit $f --task shift_down -p N=4 -p d=2 -p s=1 --json r-$f.json
  [ "$(instances r-$f.json)" = "$(instances b-sd4.json)" ] || { echo "FAIL byo-circuit-$f: instance counts differ"; fails=$((fails+1)); }
  py r-$f.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["artifact"]["kind"] == "circuit" and "size" in r["circuit"] and "depth" in r["circuit"] and r["failed"] == 0
PY
done
# Mutants: circuit-json output 3 reads another gate; bristol copies another wire; AIGER output 2 negated; BLIF cover inverted.
python3 -c "
import json; c = json.load(open('sd.json')); o = c['outputs']; o[3]['gate'] = o[2]['gate']; json.dump(c, open('m-sd.json', 'w'))"
python3 -c "
lines = open('sd.bristol').read().split('\n'); i = max(k for k, l in enumerate(lines) if l.endswith('EQW'))
p = lines[i].split(); p[2] = '0' if p[2] != '0' else '1'; lines[i] = ' '.join(p); open('m-sd.bristol', 'w').write('\n'.join(lines))"
sed '12s/^2$/3/' sd.aag > m-sd.aag
sed '0,/^1 1$/s//0 1/' sd.blif > m-sd.blif
for f in m-sd.json m-sd.bristol m-sd.aag m-sd.blif; do
  check "byo-circuit-mutant-$f" 1 "$CZ" verify --circuit $f --task shift_down -p N=4 -p d=2 -p s=1; err_has "byo-circuit-mutant-$f" "counterexample for $f"
done

# --- shapes and usage: exit 2, `error: <what> (<where>)`, no report written ---
check shape-model 2 "$CZ" verify --model att.json --task mqar -p n=4 --json no.json
err_has shape-model "^error: the model takes 9×3 inputs; task mqar needs input and output N×d = 12×4.*(att.json)"
[ ! -e no.json ] || { echo "FAIL shape-model: report written"; fails=$((fails+1)); }
check shape-model-prim 2 "$CZ" verify --model att.json --task shift_down -p N=8; err_has shape-model-prim "needs input and output N×d = 8×3"
check shape-circuit 2 "$CZ" verify --circuit sd.aag --task mqar; err_has shape-circuit "^error: the circuit has 8 inputs and 8 outputs; task mqar needs 27 inputs.*(sd.aag)"
check shape-unnamed 2 "$CZ" verify --circuit sd.bristol --task shift_down -p s=1; err_has shape-unnamed "no u\[i\]\[j\] names: give -p N and -p d"
check task-unsupported 2 "$CZ" verify --model att.json --task gar; err_has task-unsupported "^error: task 'gar' cannot check a file yet"
# --- SD from a circuit file (sized domains; output read as Alg. 3's flags) ---
# n = 1, |A| = |B| = 1, plain prompt: rows [x::0], [0::1], [y::0]; row 2 answers [y :: x == y]
# (XNOR = 1 - x - y + 2xy); a mutant flags x·y instead (misses x = y = 0).
python3 - <<'PY'
import json
names = [f"u[{i}][{j}]" for i in range(3) for j in range(2)]
g = [{"op": "const", "value": v} for v in ("1", "-1", "2", "0")]          # 6 7 8 9
g += [{"op": "mul", "a": 7, "b": 0}, {"op": "mul", "a": 7, "b": 4},         # 10: -x  11: -y
      {"op": "mul", "a": 0, "b": 4}, {"op": "mul", "a": 8, "b": 12},        # 12: xy  13: 2xy
      {"op": "add", "a": 6, "b": 10}, {"op": "add", "a": 14, "b": 11}, {"op": "add", "a": 15, "b": 13}]  # 16: xnor
def circuit(flag):
    outs = [9, 9, 9, 9, 4, flag]
    return {"format": "circuitzoo.circuit/1", "ring": "Z", "inputs": names, "gates": g,
            "outputs": [{"name": f"y[{i}][{j}]", "gate": outs[2 * i + j]} for i in range(3) for j in range(2)]}
json.dump(circuit(16), open("sd-xnor.json", "w"))
json.dump(circuit(12), open("sd-and.json", "w"))
PY
check sd-file 0 "$CZ" verify --circuit sd-xnor.json --task sd -p a=1 -p b=1 -p prompt=plain --json sdf.json
py sdf.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["task"] == "sd" and r["instances"] == 4 and r["failed"] == 0 and r["params"]["domain"] == "sized" and r["params"]["n"] == 1
PY
check sd-file-mutant 1 "$CZ" verify --circuit sd-and.json --task sd -p a=1 -p b=1 -p prompt=plain --json sdm.json
py sdm.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
cx = r["counterexample"]
assert r["failed"] == 1 and cx["instance"]["A"] == [0] == cx["instance"]["B"] and cx["expected"]["common"] == [0] and cx["got"]["common"] == []
PY
check sd-file-subsets 2 "$CZ" verify --circuit sd-xnor.json --task sd -p domain=subsets -p prompt=plain; err_has sd-file-subsets "one input length: give -p domain=sized"
check sd-file-jrt 2 "$CZ" verify --circuit sd-xnor.json --task sd -p a=1 -p b=1; err_has sd-file-jrt "input and output N×d = 6×2 (N = 2·(a + b + 1)"
check task-unknown 2 "$CZ" verify --model att.json --task nope; err_has task-unknown "^error: unknown task 'nope'.*(--task)"
check task-missing 2 "$CZ" verify --model att.json; err_has task-missing "need --task"
check both-files 2 "$CZ" verify --model att.json --circuit sd.aag --task mqar; err_has both-files "one of --model FILE, --circuit FILE or --program FILE"
check name-and-model 2 "$CZ" verify mqar/attention --model att.json --task mqar; err_has name-and-model "drop the construction NAME"
check model-missing 2 "$CZ" verify --model nofile.json --task mqar; err_has model-missing "^error: "
python3 -c "
import json; m = json.load(open('att.json')); m['ring'] = 'Fp:7'; json.dump(m, open('fp.json', 'w'))"
check model-fp 2 "$CZ" verify --model fp.json --task mqar; err_has model-fp "computes modulo p"

# --- circuit --eval and --equiv-model ---
check export-sd-model 0 "$CZ" export primitive/shift_down -p N=4 -p d=2 -p s=1 --format model-json -o sdm.json
echo '{"input": [[5, "123456789012345678901"], [-7, 2], [1, 1], ["1/2", 0]]}' > in.json
check circuit-eval 0 "$CZ" circuit sd.json --eval in.json
py "$T/out" <<'PY'
import json, sys
assert json.load(open(sys.argv[1])) == {"output": [[0, 0], [5, "123456789012345678901"], [-7, 2], [1, 1]]}
PY
check circuit-eval-json 0 "$CZ" circuit sd.bristol --eval in.json --json -
py "$T/out" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["eval"]
assert [o["value"] for o in e["outputs"]] == [0, 0, 5, "123456789012345678901", -7, 2, 1, 1]
PY
echo '{"input": [1, 2]}' > short.json
check circuit-eval-count 2 "$CZ" circuit sd.aag --eval short.json; err_has circuit-eval-count "^error: the circuit has 8 inputs; the file gives 2 values (short.json)"
check circuit-equiv-model 0 "$CZ" circuit sd.aag --equiv-model sdm.json --json -
py "$T/out" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["equiv_model"]
assert e["equivalent"] and e["instances"] == 256
PY
check circuit-equiv-model-mutant 1 "$CZ" circuit m-sd.aag --equiv-model sdm.json; err_has circuit-equiv-model-mutant "counterexample"
check circuit-equiv-model-shape 2 "$CZ" circuit sd.aag --equiv-model att.json; err_has circuit-equiv-model-shape "^error: the model maps 9×3 inputs"

# --- export --format models: data-dependent constructions as their stage models for one instance ---
for st in g21 all; do
  check "models-based-$st" 0 "$CZ" export sd/based-jrt -p stage=$st -p instance=37 --format models -o based-$st.json
  # Run the stages in order with `eval` (each reads what the file says) and check the result against
  # the instance: g21 -> the rearranged copy (smaller set first, Prop G.21); all -> the flags = A ∩ B.
  python3 - based-$st.json "$CZ" "$st" <<'PY' || { echo "FAIL models-based-$st: the exported stages do not compute the pipeline"; fails=$((fails+1)); }
import json, subprocess, sys
f, cz, st = sys.argv[1], sys.argv[2], sys.argv[3]
d = json.load(open(f))
assert d["format"] == "circuitzoo.models/1" and d["instance"]["index"] == 37
names = [s["name"] for s in d["stages"]]
assert names == (["g20", "g21-insert", "g21-shift"] + (["g18"] if st == "all" else [])), names
L = {s["name"]: len(s["model"]["layers"]) for s in d["stages"]}
assert L["g21-insert"] + L["g21-shift"] == 4, L          # Prop G.21: insert (3 layers) + the data-dependent shift (1)
assert [s["data_dependent"] for s in d["stages"]][:3] == [False, False, True]
def run(stage, u):
    json.dump(stage["model"], open("stage.json", "w")); json.dump({"input": u}, open("stage_in.json", "w"))
    out = subprocess.run([cz, "eval", "--model", "stage.json", "--input", "stage_in.json", "--json", "-"], capture_output=True, text=True, check=True)
    return [[int(x) for x in row] for row in json.loads(out.stdout)["output"]]
v = d["input"]
w = run(d["stages"][1], v)
z = run(d["stages"][2], w)
A, B, n = d["instance"]["A"], d["instance"]["B"], d["params"]["n"]
row = lambda e: [(e >> b) & 1 for b in range(n)] + [0]
first, second = (A, B) if len(A) < len(B) else (B, A)
N = len(A) + len(B) + 1
lo = 0 if d["params"]["conv"] == "anticausal" else N
assert z[lo:lo + N] == [row(e) for e in first] + [[0] * n + [1]] + [row(e) for e in second], (z, first, second)
if st == "all":
    y = run(d["stages"][3], z)
    flagged = sorted({sum(r[b] << b for b in range(n)) for i, r in enumerate(z[lo:lo + N]) if y[lo + i][0] != 0})
    assert flagged == sorted(set(A) & set(B)), (flagged, A, B)
PY
done
check models-beyond 2 "$CZ" export sd/based-jrt -p instance=99999999 --format models -o no.json; err_has models-beyond "beyond the default domain"
check models-one 0 "$CZ" export primitive/cumsum --format models -o cs.json
py cs.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [s["name"] for s in d["stages"]] == ["model"] and d["stages"][0]["model"]["format"] == "circuitzoo.model/1"
PY

# --- export --format program: JRT Alg. 3 as a program file, checked with verify --program ---
for v in fixed paper; do for pr in jrt plain; do
  check "program-export-$v-$pr" 0 "$CZ" export sd/recurrent-jrt -p variant=$v -p prompt=$pr --format program -o prog-$v-$pr.json
  check "program-builtin-$v-$pr" 0 "$CZ" verify sd/recurrent-jrt -p variant=$v -p prompt=$pr --json pb.json
  check "program-verify-$v-$pr" 0 "$CZ" verify --program prog-$v-$pr.json --task sd --json pr.json
  python3 - pb.json pr.json <<'PY' || { echo "FAIL program-$v-$pr: counts or state differ from the built-in"; fails=$((fails+1)); }
import json, sys
b, r = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert r["instances"] == b["instances"] and r["failed"] == 0 and r["artifact"]["kind"] == "program"
assert r["metrics"]["state_bits"] == b["metrics"]["state_bits"]
assert r["metrics"]["set_bits_minus_n_min"] == b["metrics"]["set_bits_minus_n_min"]   # Errata E8 shows in the paper variant
PY
done; done
check program-orders 0 "$CZ" verify --program prog-fixed-jrt.json --task sd -p domain=orders --json po.json
check program-orders-builtin 0 "$CZ" verify sd/recurrent-jrt -p domain=orders --json pob.json
[ "$(instances po.json)" = "$(instances pob.json)" ] || { echo "FAIL program-orders: counts differ"; fails=$((fails+1)); }
# Mutant: the first insert (lines 16-17) writes a register instead: the stored set stays empty.
python3 -c "
import json; s = json.dumps(json.load(open('prog-fixed-jrt.json'))).replace('\"insert\": \"Z\"', '\"set\": \"smallFirst\"', 1)
open('prog-mut.json', 'w').write(s)"
check program-mutant 1 "$CZ" verify --program prog-mut.json --task sd; err_has program-mutant "counterexample for prog-mut.json"
# --device twin (issue 12): the file compiled to the device's bytecode gives the CPU engine's
# report (but for how it ran), for the exported file on two domains and for the mutant.
for f in prog-fixed-jrt prog-paper-jrt prog-mut; do
  want=0; [ $f = prog-mut ] && want=1
  for dom in subsets orders; do
    check "program-cpu-$f-$dom" $want "$CZ" verify --program $f.json --task sd -p domain=$dom --json dc.json
    check "program-twin-$f-$dom" $want "$CZ" verify --program $f.json --task sd -p domain=$dom --device twin --json dt.json
    python3 - dc.json dt.json <<'PY' || { echo "FAIL program-twin-$f-$dom: twin report differs from the CPU's"; fails=$((fails+1)); }
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert b["device"] == "cpu-twin" and a["device"] == "cpu", (a["device"], b["device"])
for k in ("engine", "device", "timing", "seconds"): a.pop(k, None); b.pop(k, None)
assert a == b, [k for k in a if a.get(k) != b.get(k)]
PY
  done
done
check program-circuit-twin 2 "$CZ" verify --circuit nothing.aag --task sd --device twin; err_has program-circuit-twin "checked on the CPU"
check program-n 2 "$CZ" verify --program prog-fixed-jrt.json --task sd -p n=3; err_has program-n "^error: the program reads elements of n = 2 bits"
check program-task 2 "$CZ" verify --program prog-fixed-jrt.json --task mqar; err_has program-task "checked against task sd"
echo '{"format": "circuitzoo.program/1", "n": 2, "out_width": 3, "step": [{"if": {"foo": 1}}]}' > prog-bad.json
check program-bad 2 "$CZ" verify --program prog-bad.json --task sd; err_has program-bad "^error: unknown operator 'foo' (prog-bad.json: step\[0\].if)"
check program-none 2 "$CZ" export primitive/cumsum --format program -o no.json; err_has program-none "is not a recurrent program"

# --- every construction exports something (a model, a circuit or a list of models) ---
for name in $("$CZ" list --json - | python3 -c "import json,sys; [print(c['name']) for c in json.load(sys.stdin)]"); do
  ok=0
  for f in model-json circuit-json models program reduction; do "$CZ" export "$name" --format $f -o any.out >/dev/null 2>&1 && ok=1 && break; done
  [ $ok = 1 ] || { echo "FAIL export-every: $name exports nothing"; fails=$((fails+1)); }
done

# --- composite reductions as their parts: the exported trace is re-read independently ---
check red-gar 0 "$CZ" export gar/via-sd -p c=5 -p nk=3 -p m=3 --format reduction -p instance=777 -o red-gar.json
py red-gar.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["format"] == "circuitzoo.reduction/1" and r["source"] == "JRT Prop G.26"
assert r["parts"][0]["construction"] == "sd/recurrent-jrt"
x = r["instance"]["gar"]; calls = r["instance"]["calls"]
assert len(calls) == r["map"]["calls"] == 3          # ceil(log2(5 + 1))
keys, vals, qs = x["keys"], x["values"], x["queries"]
for l, call in enumerate(calls):                     # the map, recomputed from the GAR instance
    assert call["A"] == list(dict.fromkeys(qs))
    assert call["B"] == [k for k, v in zip(keys, vals) if ((v + 1) >> l) & 1]
    assert call["answered"] == sorted(set(call["A"]) & set(call["B"]))   # the oracle answered A ∩ B
def decode(q):
    code = sum(1 << l for l, call in enumerate(calls) if q in call["answered"])
    return code - 1 if code else None
lookup = dict(zip(keys, vals))
assert r["instance"]["answers"] == [decode(q) for q in qs] == [lookup.get(q) for q in qs] == r["instance"]["reference"]
PY
check red-sd 0 "$CZ" export sd/via-gar -p n=3 -p solver=via-sd --format reduction -p instance=4321 -o red-sd.json
py red-sd.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
x, call = r["instance"]["sd"], r["instance"]["call"]
assert r["source"] == "JRT Prop G.25" and r["parts"][0]["construction"] == "gar/via-sd"
assert call["keys"] == x["A"] and call["queries"] == x["B"] and set(call["values"]) <= {0}
common = sorted({q for q, a in zip(call["queries"], r["instance"]["answered"]) if a is not None})
assert common == sorted(set(x["A"]) & set(x["B"])) == r["instance"]["got"]["common"] == r["instance"]["reference"]["common"]
PY
check red-out 2 "$CZ" export sd/via-gar --format reduction -p instance=99999999 -o no.json; err_has red-out "outside the default domain"
check red-none 2 "$CZ" export primitive/cumsum --format reduction -o no.json; err_has red-none "is not a reduction"
check red-hint 2 "$CZ" export gar/via-sd --format models -o no.json; err_has red-hint "use --format reduction"

# --- README "Check your own construction": its Python writes the model it verifies ---
python3 - "$README" <<'PY' || { echo "FAIL readme-example: the README's Python did not run"; fails=$((fails+1)); }
import re, sys
text = open(sys.argv[1]).read()
sec = text[text.index("## Check your own construction"):]
exec(re.search(r"```python\n(.*?)```", sec, re.S).group(1))
PY
check readme-verified 0 "$CZ" verify --model my_shift.json --task shift_down -p s=2 --json readme.json
[ "$(instances readme.json)" = 14096 ] || { echo "FAIL readme-verified: want 4096 + 10000 instances (the 0/1 box, then signed samples)"; fails=$((fails+1)); }
check readme-failed 1 "$CZ" verify --model my_shift.json --task shift_down -p s=1; err_has readme-failed "counterexample for my_shift.json"

echo "byo: $fails failure(s)"
[ "$fails" = 0 ]
