# The bad-input matrix runner shared by bad_inputs.sh, bad_programs.sh and bad_readback.sh (source
# it after setting CZ, IN and T, the scratch folder). One row of a matrix:
#
#   name | rc | setup | command | check
#
#  - setup and command run in a fresh, empty directory ($PWD) with its own empty $TMPDIR; inputs
#    are in $IN; the binary is $CZ. $'...' works in both (bash -c).
#  - rc 2 rows (errors) must: exit 2; write exactly one line on stderr, "error: <what> (<where>)",
#    printable ASCII only (raw bytes escaped), under 400 bytes (no value echoed whole); leave the
#    directory exactly as setup left it (no output, no temporary file).
#  - rc 0 rows must exit 0 and leave no temporary file (*.tmp.*) behind.
#  - every row: under 10 s (timeout 10; a matrix whose rows solve real work sets ROW_TIMEOUT, in
#    seconds, before sourcing this file: there the limit only catches a hang, and a loaded machine
#    must not trip it), under 1 GB of address space (ulimit -v; not for a sanitizer build, which
#    reserves terabytes of shadow memory), and nothing left in its $TMPDIR.
#  - check (optional): a shell test run afterwards in the same directory; $OUTF, $ERRF are the
#    row's stdout and stderr, $ELAPSED_MS its wall time.
# ROW_VERBOSE=1 prints an "ok" line with the time of each passing row.
rows=0
fails=${fails:-0}
ROW_TIMEOUT=${ROW_TIMEOUT:-10}
VLIMIT_KB=1048576
if grep -qa __asan_init "$CZ"; then VLIMIT_KB=unlimited; fi

run_row() {  # run_row NAME RC SETUP COMMAND CHECK
  local name=$1 want=$2 setup=$3 cmd=$4 check=$5
  rows=$((rows + 1))
  local dir="$T/run/$rows"
  mkdir -p "$dir/.tmp"
  export OUTF="$T/out.$rows" ERRF="$T/err.$rows"
  ( cd "$dir" && export TMPDIR="$dir/.tmp" && eval "$setup" ) >/dev/null 2>&1 || { echo "FAIL $name: setup failed: $setup"; fails=$((fails + 1)); return; }
  local before after rc t0
  before=$(cd "$dir" && ls -A | sort)
  t0=$(date +%s%N)
  ( cd "$dir" && export TMPDIR="$dir/.tmp" && ulimit -v "$VLIMIT_KB" 2>/dev/null; exec timeout -k 2 "$ROW_TIMEOUT" bash -c "$cmd" ) >"$OUTF" 2>"$ERRF" </dev/null
  rc=$?
  export ELAPSED_MS=$(( ($(date +%s%N) - t0) / 1000000 ))
  after=$(cd "$dir" && ls -A | sort)
  local bad=""
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then bad="timed out ($ROW_TIMEOUT s)"
  elif [ "$rc" != "$want" ]; then bad="exit $rc, want $want"
  fi
  if [ -z "$bad" ] && [ "$want" = 2 ]; then
    if [ "$(wc -l < "$ERRF")" != 1 ] || [ "$(head -c 7 "$ERRF")" != "error: " ]; then bad="stderr is not one 'error: ' line"
    elif ! grep -q '^error: .* (.*)$' "$ERRF"; then bad="the error line names no (where)"
    elif [ -n "$(LC_ALL=C tr -d '\n\40-\176' < "$ERRF")" ]; then bad="stderr has raw bytes"
    elif [ "$(wc -c < "$ERRF")" -ge 400 ]; then bad="error line of $(wc -c < "$ERRF") bytes (a value echoed whole?)"
    elif [ "$before" != "$after" ]; then bad="directory changed: [$before] -> [$after]"
    fi
  fi
  if [ -z "$bad" ] && [ "$want" = 0 ] && (cd "$dir" && ls -A | grep -q '\.tmp\.'); then bad="temporary file left: $after"; fi
  if [ -z "$bad" ] && [ -n "$(ls -A "$dir/.tmp")" ]; then bad="left in TMPDIR: $(ls -A "$dir/.tmp")"; fi
  if [ -z "$bad" ] && [ -n "$check" ] && ! (cd "$dir" && eval "$check") >/dev/null 2>&1; then bad="check failed: $check"; fi
  if [ -n "$bad" ]; then
    echo "FAIL $name: $bad"
    echo "  command: $cmd"
    head -c 600 "$ERRF" | sed 's/^/  stderr: /'
    fails=$((fails + 1))
  elif [ -n "${ROW_VERBOSE:-}" ]; then
    printf 'ok   %-22s %6d ms\n' "$name" "$ELAPSED_MS"
  fi
}

# run_matrix TEXT: every row of TEXT (lines "name | rc | setup | command | check"; '#' comments).
run_matrix() {
  local line name rc setup cmd check
  while IFS= read -r line; do
    case "$line" in '#'* | '') continue ;; esac
    IFS='|' read -r name rc setup cmd check <<<"$line"
    run_row "$(_row_trim "$name")" "$(_row_trim "$rc")" "$(_row_trim "$setup")" "$(_row_trim "$cmd")" "$(_row_trim "${check:-}")"
  done <<<"$1"
}
_row_trim() { local s=$1; s="${s#"${s%%[![:space:]]*}"}"; printf '%s' "${s%"${s##*[![:space:]]}"}"; }
