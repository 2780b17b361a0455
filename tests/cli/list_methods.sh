#!/usr/bin/env bash
# `list --json` says which methods each construction supports (issue 37): every construction lists
# "enumerate"; each one listing "algebra" is proved by `verify NAME --method algebra` at its
# defaults (exit 0), each one not listing it is refused (exit 2); the same for "sat" where the
# default proof is quick (the primitives, circuit/compare) and for the refusals. The list is
# computed from the built artifacts, so it cannot claim a method verify refuses.
set -u
CZ="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
. "$(dirname "$0")/check_lib.sh"  # T, fails, check, err_has, out_has
cd "$T"
check list-json 0 "$CZ" list --json methods.json
check list-text 0 "$CZ" list
out_has list-text "methods: enumerate"
python3 - methods.json > plan.txt <<'PY' || { echo "FAIL list-methods: bad list"; fails=$((fails+1)); }
import json, sys
L = json.load(open(sys.argv[1]))
assert len(L) >= 22 and all(c["methods"][0] == "enumerate" for c in L), L
for c in L:
    for m in ("algebra", "sat"):
        want = m in c["methods"]
        if m == "sat" and want and not (c["name"].startswith("primitive/") or c["name"] == "circuit/compare"):
            continue  # long default proofs: covered by the sat suites
        print(c["name"], m, 0 if want else 2)
PY
while read -r name method rc; do
  extra=(); [ "$method" = sat ] && extra=(--timeout 60)
  check "verify-$name-$method" "$rc" "$CZ" verify "$name" --method "$method" "${extra[@]}"
done < plan.txt
[ "$(wc -l < plan.txt)" -ge 30 ] || { echo "FAIL list-methods: only $(wc -l < plan.txt) rows"; fails=$((fails+1)); }
echo "list_methods: $fails failure(s)"
[ "$fails" = 0 ]
