#!/bin/bash
# readme_commands (issue 39): the README runs top to bottom. scripts/readme-commands.py --quick checks
# the whole README statically (every file a command reads is made by an earlier line; no command line
# left unrun: "0 skipped") and runs its fast rows in an empty folder, comparing the output and exit
# code each row's comment shows: the quick ones, and (issue 49 item 11) the rows of the slow kinds
# (--method sat/algebra, check-proof, claims, prove, sweep, mpirun, ...) whose comment says they take
# at most 10 s; at least one of each kind must have run. The full run (minutes) is
# `scripts/readme-commands.py` (README, "Developing"). Then the script must catch what it is for, on
# tests/cli/readme/fixture.md: a wrong shown output, a wrong exit, a file no line makes, a line it
# does not run; and --quick must pick its rows by the time in their comments.
# usage: readme_commands.sh SOURCE_DIR BUILD_DIR
set -u
SRC=$1 BUILD=$2
PY=/usr/bin/python3
fails=0
fail() { echo "FAIL $*"; fails=$((fails+1)); }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

# Each row's limit is a hang guard (rows state at most 10 s; a sanitized build on a slow CI machine
# takes many times that), never a speed check.
"$PY" "$SRC/scripts/readme-commands.py" --quick --build "$BUILD" --timeout 300 >"$T/readme.out" 2>&1
rc=$?
cat "$T/readme.out"
[ "$rc" = 0 ] || fail "README --quick: exit $rc"
grep -q "^0 skipped" "$T/readme.out" || fail "README: lines skipped"
grep -qE " [1-9][0-9]* ok, 0 failed, 0 timeout, 0 needs your file, 0 differs from comment, 0 output differs" "$T/readme.out" \
  || fail "README: not every row ok"
# the eval row's shown output was compared (it is in the fast subset)
grep -q 'eval --model shift.json --input in.json` | 0 ' "$T/readme.out" || fail "README: eval row not run"
# one row of each slow kind ran (its comment states a time of at most 10 s)
for kind in '--method sat' '--method algebra' 'check-proof' '`mpirun ' ' sweep ' ' claims ' ' prove ' '--exhaustive' \
            'circuit/to-model'; do
  grep -E '^\| [0-9]+ \| `' "$T/readme.out" | grep -qF -- "$kind" || fail "README --quick: no row of kind '$kind' ran"
done

# --quick's rule on a README of its own: a slow kind runs only with a time of at most 10 s in its
# comment; benchmarks never.
cat >"$T/times.md" <<'EOF'
```sh
build/circuitzoo sweep mqar/dyadic --vary n=4,8 -p c=16 --json -      # 0.2 s
build/circuitzoo sweep mqar/dyadic --vary n=4,8,16 -p c=16 --json -   # 30 s
build/circuitzoo sweep mqar/dyadic --vary n=4,8,16,32 -p c=16 --json -
build/circuitzoo verify mqar/dyadic -p n=8 -p c=16 --method sat       # proved, ~6 min on 2 cores
build/bench/bench_ntt                                                 # 0.1 s
build/circuitzoo stats mqar/dyadic -p n=4 -p c=4 --json -
```
EOF
"$PY" "$SRC/scripts/readme-commands.py" --readme "$T/times.md" --build "$BUILD" --list >"$T/times.out" 2>&1
want='quick,-,-,-,-,quick'
got=$(grep -E '^ +[0-9]+ line' "$T/times.out" | awk '{print ($5 == "quick") ? "quick" : "-"}' | paste -sd,)
[ "$got" = "$want" ] || { cat "$T/times.out"; fail "times: --quick picks $got, want $want"; }

"$PY" "$SRC/scripts/readme-commands.py" --readme "$SRC/tests/cli/readme/fixture.md" --build "$BUILD" --timeout 60 \
  >"$T/fix.out" 2>&1
rc=$?
cat "$T/fix.out"
[ "$rc" = 1 ] || fail "fixture: exit $rc, want 1"
grep -q "3 ok, 0 failed, 0 timeout, 1 needs your file, 1 differs from comment, 1 output differs" "$T/fix.out" \
  || fail "fixture: counts"
grep -q '⚠ comment shows {"output":\[\[0\],\[1\],\[2\],\[4\]\]}' "$T/fix.out" || fail "fixture: wrong output not shown"
grep -q "^2 skipped" "$T/fix.out" || fail "fixture: want 2 skipped (the missing file, the unrun line)"
"$PY" "$SRC/scripts/readme-commands.py" --readme "$SRC/tests/cli/readme/fixture.md" --build "$BUILD" --quick \
  >"$T/fixq.out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "fixture --quick: exit $rc, want 1"
# The README's table of tasks x artifact kinds x methods is generated from `tasks --json` (issue 47):
# a table that no longer matches fails the run.
sed 's/^| `sort` | \(.*\) | enumerate, sat | — | — |$/| `sort` | \1 | enumerate | — | — |/' "$SRC/README.md" > "$T/README.md"
cmp -s "$SRC/README.md" "$T/README.md" && fail "table: the sed did not change the sort row"
"$PY" "$SRC/scripts/readme-commands.py" --readme "$T/README.md" --build "$BUILD" --only 1 --timeout 60 >"$T/table.out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "table: a stale tasks table: exit $rc, want 1"
grep -q "tasks table: differs" "$T/table.out" || fail "table: not reported"
grep -q "tasks table: matches" "$T/readme.out" || fail "README: tasks table not checked"
[ "$fails" = 0 ] && echo "readme_commands: all checks passed"
exit $((fails > 0))
