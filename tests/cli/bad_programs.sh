#!/usr/bin/env bash
# Hostile program files and plots (issue 25, items 4-7, 11, 16), through the real binary; the
# programs are in $IN.
#
# Rows are "name | rc | setup | command | check", run by tests/cli/matrix_lib.sh, which states
# what every row must do (exit code, one "error: <what> (<where>)" line, nothing written, its own
# empty $TMPDIR, 10 s, 1 GB).
# Then: SIGTERM/SIGINT during `sweep --plot` ends plot.py and leaves no $TMPDIR/circuitzoo-plot-*.
# Usage: bad_programs.sh path/to/circuitzoo
set -u
CZ=$(realpath "$1")
source "$(dirname "$0")/check_lib.sh"  # $T (removed on exit), $fails
IN="$T/in"
mkdir -p "$IN"
export CZ IN
ROW_VERBOSE=1
source "$(dirname "$0")/matrix_lib.sh"  # run_row, run_matrix, $rows, $fails

# ---- fixtures: the exported Alg. 3 program, and hostile variants of it ---------------------------
"$CZ" export sd/recurrent-jrt --format program -o "$IN/base.json" 2>/dev/null || { echo "FAIL fixture base.json"; exit 1; }
python3 - "$IN" <<'PY' || { echo "FAIL fixtures"; exit 1; }
import copy, json, sys
d = sys.argv[1]
base = json.load(open(f"{d}/base.json"))
def write(name, text): open(f"{d}/{name}.json", "w").write(text)
def prog(**kw):
    p = copy.deepcopy(base); p.update(kw); return json.dumps(p)
# Text built directly: json.dumps recurses too deeply for these.
def nest(depth, open_, inner, close):
    return open_ * depth + inner + close * depth
def with_key(key, text):
    p = {k: v for k, v in base.items() if k != key}
    return json.dumps(p)[:-1] + f', "{key}": ' + text + "}"
# item 4: 200k nested statements (SIGSEGV in Parser::stmts); a 20k-deep `not` chain (22 s, 1 GB,
# then a stack overflow in gpu::compile_program even on --device cpu)
write("stmts_200k", with_key("step", nest(200000, '[{"if": 1, "then": ', "[]", "}]")))
write("not_20k", with_key("out_width", nest(20000, '{"not": ', "3", "}")))
# item 5: a 200k-deep expression (bad_alloc, memory quadratic in the depth)
write("expr_200k", with_key("out_width", nest(200000, '{"add": [0, ', "3", "]}")))
# item 6: nested if, depth 3000 (15 s, 1.56 GB: the parser copied the subtree at every level)
write("if_3000", with_key("step", nest(3000, '[{"if": 1, "else": ', "[]", "}]")))
# item 7: out_width 1048576 (262 s)
write("out_width_1m", prog(out_width=1048576))
write("output_2000", prog(step=base["step"] + [{"output": [0] * 2000}]))
# the limits, exactly: out_width nested 100 deep is read (and verifies); 101 is refused
write("depth_100", with_key("out_width", nest(99, '{"add": [0, ', json.dumps(base["out_width"]), "]}")))
write("depth_101", with_key("out_width", nest(100, '{"add": [0, ', json.dumps(base["out_width"]), "]}")))
write("nodes_70k", prog(step=[{"set": base["registers"][0]["name"], "value": 0}] * 70000 + base["step"]))
# a deep JSON value where the reader copied it before looking (register init), and a wrong type
write("init_deep", with_key("registers", json.dumps(base["registers"])[:-2] + ', "init": ' + nest(200000, "[", "", "]") + "}]"))
write("task_number", prog(task=7))
PY


# A plot script that exits 0 and draws nothing (item 16), and one that hangs until killed (item 11).
cat > "$IN/plot_nothing.py" <<'PY'
import sys
sys.exit(0)
PY
cat > "$IN/plot_hang.py" <<'PY'
import os, sys, time
if sys.argv[1] == "--check":
    sys.exit(0)
open(os.environ["CZ_TEST_PIDFILE"], "w").write(str(os.getpid()))
time.sleep(60)
PY

# ---- the matrix --------------------------------------------------------------------------------
# The 200k-deep rows accept any message about depth: a JSON depth limit at parse time may answer
# before the program reader's own (kProgramMaxDepth, checked exactly by depth-101).
MATRIX=$(cat <<'ROWS'
stmts-200k       | 2 | | $CZ verify --program $IN/stmts_200k.json --task sd       | grep -qi -e deep -e depth -e nest $ERRF
not-chain-20k    | 2 | | $CZ verify --program $IN/not_20k.json --task sd          | grep -qi -e deep -e depth -e nest $ERRF
not-chain-twin   | 2 | | $CZ verify --program $IN/not_20k.json --task sd --device twin | grep -qi -e deep -e depth -e nest $ERRF
expr-200k        | 2 | | $CZ verify --program $IN/expr_200k.json --task sd        | grep -qi -e deep -e depth -e nest $ERRF
if-3000          | 2 | | $CZ verify --program $IN/if_3000.json --task sd          | grep -qi -e deep -e depth -e nest $ERRF
out-width-1m     | 2 | | $CZ verify --program $IN/out_width_1m.json --task sd     | grep -q 'from 0 to 1024' $ERRF
output-2000      | 2 | | $CZ verify --program $IN/output_2000.json --task sd      | grep -q 'more than 1024' $ERRF
depth-101        | 2 | | $CZ verify --program $IN/depth_101.json --task sd        | grep -q 'nests deeper than 100' $ERRF
depth-100-ok     | 0 | | $CZ verify --program $IN/depth_100.json --task sd --samples 200 |
nodes-70k        | 2 | | $CZ verify --program $IN/nodes_70k.json --task sd        | grep -q 'more than 65536' $ERRF
init-deep-json   | 2 | | $CZ verify --program $IN/init_deep.json --task sd        | grep -qi -e init -e deep -e depth -e nest $ERRF
task-not-string  | 2 | | $CZ verify --program $IN/task_number.json --task sd      | grep -q "'task' must be a string" $ERRF
plot-draws-none  | 2 | | CZ_PLOT_SCRIPT=$IN/plot_nothing.py $CZ sweep primitive/cumsum --vary N=4,8 -p d=1 --plot x.svg | grep -q 'wrote no picture' $ERRF
ROWS
)
run_matrix "$MATRIX"

# ---- a signal while plot.py runs: the child ends, no $TMPDIR/circuitzoo-plot-* stays (item 11) ----
set -m  # background jobs keep SIGINT (without job control bash starts them with SIGINT ignored)
for sig in TERM INT; do
  rows=$((rows + 1))
  d="$T/plot.$sig"
  mkdir -p "$d/tmp"
  ( cd "$d" && TMPDIR="$d/tmp" CZ_TEST_PIDFILE="$d/child.pid" CZ_PLOT_SCRIPT="$IN/plot_hang.py" \
      exec "$CZ" sweep primitive/cumsum --vary N=4,8 -p d=1 --plot x.svg ) >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 100); do [ -s "$d/child.pid" ] && break; sleep 0.1; done
  if [ ! -s "$d/child.pid" ]; then
    echo "FAIL plot-signal-$sig: plot.py never started"; fails=$((fails + 1)); kill -KILL "$pid"; wait "$pid"; continue
  fi
  child=$(cat "$d/child.pid")
  kill -"$sig" "$pid"
  wait "$pid"
  rc=$?
  sleep 0.2
  bad=""
  [ "$rc" -ge 128 ] || bad="exit $rc (want death by signal)"
  [ -z "$(ls -A "$d/tmp")" ] || bad="$bad; left in TMPDIR: $(ls -A "$d/tmp")"
  [ ! -e "$d/x.svg" ] || bad="$bad; x.svg written"
  if kill -0 "$child" 2>/dev/null; then bad="$bad; plot.py ($child) still running"; kill -KILL "$child"; fi
  if [ -n "$bad" ]; then echo "FAIL plot-signal-$sig: $bad"; fails=$((fails + 1)); else echo "ok   plot-signal-$sig"; fi
done

echo "bad_programs: $rows rows, $fails failure(s)"
[ "$fails" = 0 ]
