#!/usr/bin/env bash
# Output for a terminal (issue 49 items 6 and 7): human output and --help fit $COLUMNS (else 80
# columns when stdout is not a terminal), a cut sweep table keeps the varied parameter, and long
# work (prove, claims, sweep) shows a status line on stderr only when stderr is a terminal
# (a pseudo-terminal here, with CIRCUITZOO_PROGRESS_AFTER_MS=0 so that quick work draws at once).
set -u
CZ="$1"
. "$(dirname "$0")/check_lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
unset COLUMNS CIRCUITZOO_PROGRESS_AFTER_MS
max_cols() { "$PY" -c 'import sys; print(max((len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")), default=0))' "$1"; }
within() {  # within NAME COLS FILE
  local m; m=$(max_cols "$3")
  [ "$m" -le "$2" ] || { echo "FAIL $1: a line of $m columns, want <= $2"; grep -n ".\{$(($2 + 1))\}" "$3" | head -3; fails=$((fails+1)); }
}

# --help: every line within the width (CLI11's descriptions wrapped), 80 when unknown. The Usage
# line holds the binary's path as it was called (its length is the caller's), so it is left out.
help_text() { grep -v '^Usage: ' "$T/out" > "$T/help"; }
check help-verify 0 "$CZ" verify --help; help_text; within help-verify 80 "$T/help"
out_has help-verify-flag "^  --wide "
check help-top 0 "$CZ" --help; help_text; within help-top 80 "$T/help"
out_has help-top-contract "docs/contract.md"
check help-60 0 env COLUMNS=60 "$CZ" verify --help; help_text; within help-60 60 "$T/help"
check help-wide 0 env COLUMNS=200 "$CZ" verify --help
[ "$(max_cols "$T/out")" -gt 80 ] || { echo "FAIL help-wide: COLUMNS=200 not used"; fails=$((fails+1)); }

# sweep: a table within the width, the varied parameter first and whole; the rest said.
check sweep-80 0 "$CZ" sweep mqar/dyadic --vary n=2,4,8 -p c=8 --no-timing; within sweep-80 80 "$T/out"
out_has sweep-80-header "^  n  *circuit.size  *circuit.depth"
out_has sweep-80-more "more quantities not shown within 80 columns"
check sweep-str 0 env COLUMNS=40 "$CZ" sweep circuit/to-model --vary source=prefix-product,compare --no-timing
within sweep-str 40 "$T/out"
out_has sweep-str-a "^  prefix-product  "
out_has sweep-str-b "^  compare  "
# prove: verdict lines wrapped to the width.
check prove-80 0 "$CZ" prove --all --fast; within prove-80 80 "$T/out"
check prove-50 0 env COLUMNS=50 "$CZ" prove causality/lemma --fast; within prove-50 50 "$T/out"
out_has prove-50-verdict "^holds   causality/lemma: "

# Progress: nothing on stderr when it is not a terminal, even with no delay.
check quiet-prove 0 env CIRCUITZOO_PROGRESS_AFTER_MS=0 "$CZ" prove causality/lemma --fast
[ -s "$T/err" ] && { echo "FAIL quiet-prove: stderr not empty:"; cat -v "$T/err" | head -3; fails=$((fails+1)); }
check quiet-sweep 0 env CIRCUITZOO_PROGRESS_AFTER_MS=0 "$CZ" sweep primitive/cumsum --vary N=4,8 -p d=1 --no-timing
[ -s "$T/err" ] && { echo "FAIL quiet-sweep: stderr not empty:"; cat -v "$T/err" | head -3; fails=$((fails+1)); }
# On a pseudo-terminal: the status line names the command and the step, and is cleared.
pty_run() {  # pty_run CMD...: all output of CMD run on a pseudo-terminal → $T/pty
  CIRCUITZOO_PROGRESS_AFTER_MS=0 "$PY" - "$@" >"$T/pty" <<'PY'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
out = b""
while True:
    try:
        b = os.read(fd, 65536)
    except OSError:
        break
    if not b:
        break
    out += b
os.waitpid(pid, 0)
sys.stdout.write(out.decode("utf-8", "replace"))
PY
}
pty_has() { grep -q -- "$2" "$T/pty" || { echo "FAIL $1: terminal output lacks '$2'"; cat -v "$T/pty" | head -5; fails=$((fails+1)); }; }
if "$PY" -c 'import pty' 2>/dev/null; then
  pty_run "$CZ" prove causality/lemma --fast
  pty_has pty-prove "prove  causality/lemma  [0-9]*s"
  pty_has pty-prove-verdict "holds   causality/lemma"
  pty_run "$CZ" sweep primitive/cumsum --vary N=4,8 -p d=1 --no-timing
  pty_has pty-sweep "sweep primitive/cumsum  N=8 (2 of 2)"
fi
[ "$fails" = 0 ] && echo "terminal output: all checks passed"
exit $((fails > 0))
