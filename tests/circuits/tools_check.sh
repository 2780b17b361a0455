#!/usr/bin/env bash
# AIGER and BLIF exports are accepted by the standard tools with the same numbers of inputs,
# outputs, AND nodes and AND levels that `circuitzoo stats` reports (aig_ands, aig_levels).
#   ABC:   read_aiger (binary AIGER; the Debian 2022 ABC's ASCII reader asserts) and read_blif + strash
#   Yosys: read_aiger (ASCII AIGER) and read_blif, counted with select -assert-count
# Exit 77 (ctest SKIP) when neither tool is installed.
set -u
CZ="$1"
ABC=$(command -v berkeley-abc || command -v yosys-abc || command -v abc || true)
YOSYS=$(command -v yosys || true)
if [ -z "$ABC" ] && [ -z "$YOSYS" ]; then echo "tools_check: neither ABC nor Yosys installed: skipped"; exit 77; fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails+1)); }
while read -r name args; do
  [ -z "$name" ] && continue
  # shellcheck disable=SC2086
  "$CZ" stats "$name" $args --json "$T/s.json" >/dev/null 2>&1 || { fail "$name $args: stats"; continue; }
  read -r I O A L < <(python3 -c "import json; c=json.load(open('$T/s.json'))['circuit']; print(c['inputs'], c['outputs'], c['aig_ands'], c['aig_levels'])")
  for f in aiger aiger-binary blif; do
    # shellcheck disable=SC2086
    "$CZ" export "$name" $args --format "$f" -o "$T/x.$f" 2>/dev/null || fail "$name $args: export $f"
  done
  if [ -n "$ABC" ]; then
    for cmd in "read_aiger $T/x.aiger-binary; print_stats" "read_blif $T/x.blif; strash; print_stats"; do
      out=$("$ABC" -c "$cmd" 2>&1 | tr -d '\033' | sed 's/\[[0-9;]*m//g' | grep "i/o")
      want="i/o = *$I/ *$O .* and = *$A .* lev = *$L\$"
      echo "$out" | grep -Eq "$want" || fail "$name $args: ABC '$cmd' gave '$out', want i/o=$I/$O and=$A lev=$L"
    done
  fi
  if [ -n "$YOSYS" ]; then
    "$YOSYS" -q -p "read_aiger $T/x.aiger; select -assert-count $I i:*; select -assert-count $O o:*; select -assert-count $A t:\$_AND_" \
      >"$T/y.log" 2>&1 || { fail "$name $args: Yosys read_aiger counts"; tail -3 "$T/y.log"; }
    "$YOSYS" -q -p "read_blif $T/x.blif; hierarchy -top circuitzoo; select -assert-count $I i:*; select -assert-count $O o:*" \
      >"$T/y.log" 2>&1 || { fail "$name $args: Yosys read_blif ports"; tail -3 "$T/y.log"; }
  fi
  echo "ok   $name $args: i/o=$I/$O and=$A lev=$L"
done <<'LIST'
circuit/sort -p n=8 -p d=3
circuit/sort -p n=6 -p d=2 -p network=bitonic
circuit/sort -p n=1 -p d=1
circuit/compare -p d=8
circuit/compare -p d=1
LIST
echo "tools_check: $fails failure(s)"
[ "$fails" = 0 ]
