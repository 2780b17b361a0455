#!/usr/bin/env bash
# Issue 26, items 4 and 5: every circuit `export` writes reads back and verifies, and round trips
# through ABC and Yosys come back equivalent (checked by our own `circuit --equiv`).
#   * each circuit construction (small sizes) x each format (circuit-json, aiger, aiger-binary,
#     blif, bristol; aiger/blif only for all-Bit circuits): `verify --circuit F --task T` where the
#     construction has a task (mqar/dyadic -> mqar, to-model prefix-sum -> cumsum, a primitive's
#     compiled circuit -> its task; circuit/compare and circuit/sort -> tasks compare and sort under
#     --method sat; Bristol, which has no names, with --port-names from the circuit-json export),
#     and `circuit F --equiv` against the circuit-json export for all;
#   * ABC (strash; dc2; write_aiger -s, from binary AIGER and from BLIF) and Yosys (read_aiger; opt;
#     write_aiger -symbols / write_blif) for every all-Bit construction: equivalent, ports matched
#     by name (Yosys reorders bracketed inputs), and the dyadic circuit still verifies on mqar;
#   * mutants: an output literal flipped in a tool's result is NOT equivalent (exit 1), and a
#     dyadic export with a query cell flipped fails `verify --task mqar` (exit 1).
# ABC or Yosys missing: their part is skipped with a message (the rest still runs).
set -u
CZ="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
. "$(dirname "$0")/check_lib.sh"  # T, fails, check, err_has, out_has
cd "$T"
ABC=$(command -v berkeley-abc || command -v yosys-abc || true)
YOSYS=$(command -v yosys || true)
[ -n "$ABC" ] || echo "circuit_roundtrip: ABC (berkeley-abc) not installed: ABC round trips skipped"
[ -n "$YOSYS" ] || echo "circuit_roundtrip: Yosys not installed: Yosys round trips skipped"
tagof() { printf '%s' "$1" | tr -c 'A-Za-z0-9' '_'; }
ext() { case $1 in circuit-json) echo json;; aiger) echo aag;; aiger-binary) echo aig;; blif) echo blif;; bristol) echo bristol;; esac; }
# equiv NAME A B: `circuit A --equiv B` must say equivalent, inputs and outputs matched by name.
equiv() {
  check "$1" 0 "$CZ" circuit "$2" --equiv "$3" --json -
  python3 - "$T/out" "$1" <<'PY' || fails=$((fails+1))
import json, sys
e = json.load(open(sys.argv[1]))["equiv"]
ok = e["equivalent"] and e["ports"] == {"inputs": "by name", "outputs": "by name"}
if not ok: print(f"FAIL {sys.argv[2]}: {e}")
sys.exit(0 if ok else 1)
PY
}

# name | export params | task args ('-' = no task) | all-Bit (aiger/blif)
while IFS='|' read -r name params task bits; do
  [ -z "$name" ] && continue
  tag=$(tagof "$name$params")
  formats="circuit-json bristol"; [ "$bits" = yes ] && formats="circuit-json aiger aiger-binary blif bristol"
  for f in $formats; do
    x="$tag.$(ext $f)"
    # shellcheck disable=SC2086
    check "export-$tag-$f" 0 "$CZ" export $name $params --format $f -o "$x"
    [ "$f" = circuit-json ] && continue
    # Bristol has no names: compared by position with the circuit-json export.
    if [ "$f" = bristol ]; then
      check "readback-$tag-$f" 0 "$CZ" circuit "$x" --equiv "$tag.json"; out_has "readback-$tag-$f" ": yes"
    else
      equiv "readback-$tag-$f" "$tag.json" "$x"
    fi
  done
  [ "$task" = "-" ] && continue
  for f in $formats; do
    x="$tag.$(ext $f)"
    # Bristol carries no names (nor Bit types): --port-names gives it the circuit-json export's
    # names by position (mqar/dyadic outputs only its query rows; compare/sort are read by their
    # port names), and --method sat certifies its wires as bits (circuits/bit_infer.h).
    names=""; [ "$f" = bristol ] && names="--port-names $tag.json"
    # shellcheck disable=SC2086
    check "verify-$tag-$f" 0 "$CZ" verify --circuit "$x" $names $task --json r.json
    # compare and sort are tasks of --method sat only (a proof over every input: verdict 'proved').
    python3 -c "import json,sys; r=json.load(open('r.json')); sys.exit(0 if (r['verdict']=='verified' and r['failed']==0 or r['verdict']=='proved') and int(r['instances'])>0 else 1)" \
      || { echo "FAIL verify-$tag-$f: not verified"; fails=$((fails+1)); }
  done
  [ "$bits" = yes ] || continue
  if [ -n "$ABC" ]; then
    "$ABC" -c "read_aiger $tag.aig; strash; dc2; write_aiger -s abc-$tag.aig" >abc.log 2>&1 || { echo "FAIL abc-$tag"; cat abc.log; fails=$((fails+1)); }
    "$ABC" -c "read_blif $tag.blif; strash; dc2; write_aiger -s abcb-$tag.aig" >abc.log 2>&1 || { echo "FAIL abcb-$tag"; cat abc.log; fails=$((fails+1)); }
    equiv "abc-aiger-$tag" "$tag.json" "abc-$tag.aig"
    equiv "abc-blif-$tag" "$tag.json" "abcb-$tag.aig"
    # shellcheck disable=SC2086
    [ "$task" = "-" ] || check "abc-verify-$tag" 0 "$CZ" verify --circuit "abc-$tag.aig" $task
  fi
  if [ -n "$YOSYS" ]; then
    "$YOSYS" -q -p "read_aiger $tag.aag; opt; write_aiger -symbols ys-$tag.aig" >ys.log 2>&1 || { echo "FAIL yosys-aiger-$tag"; cat ys.log; fails=$((fails+1)); }
    "$YOSYS" -q -p "read_aiger $tag.aag; opt; write_blif ys-$tag.blif" >ys.log 2>&1 || { echo "FAIL yosys-blif-$tag"; cat ys.log; fails=$((fails+1)); }
    equiv "yosys-aiger-$tag" "$tag.json" "ys-$tag.aig"
    equiv "yosys-blif-$tag" "$tag.json" "ys-$tag.blif"
    # shellcheck disable=SC2086
    [ "$task" = "-" ] || check "yosys-verify-$tag" 0 "$CZ" verify --circuit "ys-$tag.blif" $task
  fi
done <<'LIST'
mqar/dyadic|-p n=2 -p c=4|--task mqar -p n=2 -p c=4 -p encoding=binary|yes
mqar/dyadic|-p n=2 -p c=3 -p encoding=onehot|--task mqar -p n=2 -p c=3 -p encoding=onehot|yes
circuit/compare|-p d=3|--task compare -p d=3 --method sat|yes
circuit/sort|-p n=3 -p d=2|--task sort --method sat|yes
circuit/to-model|-p source=prefix-sum -p N=4|--task cumsum -p N=4 -p d=1|no
primitive/shift_down|-p N=4 -p d=1 -p s=1|--task shift_down -p N=4 -p d=1 -p s=1|no
LIST

# Mutants: the checks above can fail.
dy=$(tagof "mqar/dyadic-p n=2 -p c=4")
# A round trip's output literal flipped (ASCII AIGER: the first output line after the inputs).
awk 'NR==1{split($0,h," "); I=h[3]} NR==I+2{ $1 = ($1 % 2 ? $1 - 1 : $1 + 1) } {print}' "$dy.aag" > m-$dy.aag
check mutant-equiv 1 "$CZ" circuit "$dy.json" --equiv "m-$dy.aag"; err_has mutant-equiv "counterexample"
check mutant-verify 1 "$CZ" verify --circuit "m-$dy.aag" --task mqar -p n=2 -p c=4 -p encoding=binary; err_has mutant-verify "counterexample"
# --port-names from a file of another shape is refused (exit 2, one error line).
check port-names-shape 2 "$CZ" verify --circuit "$dy.bristol" --port-names "$(tagof "circuit/compare-p d=3").json" --task mqar -p n=2 -p c=4 -p encoding=binary
err_has port-names-shape "names are given by position"
echo "circuit_roundtrip: $fails failure(s)"
[ "$fails" = 0 ]
