#!/usr/bin/env bash
# --method sat against broken solvers and hostile output paths (issue 36, items 2-4, 6-9, 13,
# 15-19): scripts named cadical / picosat put first on PATH (a bad `v` line, exit 20 with no
# answer, death by a signal, a flood of output, a wrapper whose child sleeps, a slow proof writer),
# a directory named cadical, --proof on /dev/full, a FIFO, "-", a full disk (a small tmpfs, as
# root), concurrent runs on one --proof, signals mid-run, and the --method sat flags without it.
#
# Rows are "name | rc | setup | command | check", run by tests/cli/matrix_lib.sh: exit code, one
# "error: <what> (<where>)" line for rc 2, the directory as setup left it, nothing in its own
# $TMPDIR, 10 s, 1 GB. $IN/<kind>/ holds the fake solvers; a fake that starts children appends
# their pids to $PWD/pids, and gone(FILE) says every one of them has ended.
# Usage: sat_fake_solvers.sh path/to/circuitzoo
set -u
CZ=$(realpath "$1")
T=$(mktemp -d)
MOUNTS=()
cleanup() {
  for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null; done
  cat "$T"/run/*/pids 2>/dev/null | xargs -r kill -9 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT
IN="$T/in"
mkdir -p "$IN"
# A small construction with several miters (circuit/compare d=2: lt, eq, min, max) and one whose
# published variant is refuted (mqar/dyadic variant=paper, 4 miters).
C="circuit/compare -p d=2 --method sat"
REFUTED="mqar/dyadic -p n=4 -p c=4 -p variant=paper --method sat"
export CZ IN C REFUTED
source "$(dirname "$0")/../cli/matrix_lib.sh"  # run_row, run_matrix, $rows, $fails

# ---- fake solvers ------------------------------------------------------------------------------
# fake KIND NAME BODY: $IN/KIND/NAME, a bash script (CaDiCaL's arguments: -q CNF [PROOF]).
fake() {
  mkdir -p "$IN/$1"
  printf '#!/usr/bin/env bash\n%s\n' "$3" >"$IN/$1/$2"
  chmod +x "$IN/$1/$2"
}
fake badv cadical 'echo "s SATISFIABLE"; echo "v -9223372036854775808 0"; exit 10'
fake bigv cadical 'echo "s SATISFIABLE"; echo "v 99999999 0"; exit 10'
fake silent20 cadical 'exit 20'
fake killself cadical 'kill -SEGV $$'
fake flood cadical 'yes "c a broken solver says this again and again" | head -c 60000000; exit 0'
fake wrapper cadical 'sleep 30 & echo $! >>"$PWD/pids"; sleep 30'
# Writes the proof slowly (100 lines "$FAKE_TAG i"), then answers UNSAT; FAKE_HANG=1: starts a
# child first (its pid in $PWD/pids as soon as the solver runs, so a row can wait for it instead of
# guessing how long a loaded machine takes), then hangs on it after the proof lines.
fake slowproof cadical '[ -n "${FAKE_HANG:-}" ] && { sleep 30 & echo $! >>"$PWD/pids"; }
exec 3>"$3"; for i in $(seq 100); do echo "${FAKE_TAG:-x} $i" >&3; sleep 0.005; done
[ -n "${FAKE_HANG:-}" ] && wait
echo "s UNSATISFIABLE"; exit 20'
# Records when it started (ns, one line per run) so a row can time the limit from the solver's start,
# not from the CLI's own start-up and encoding (which a loaded CI machine stretches).
fake hangpico picosat 'date +%s%N >>"$PWD/started"; exec sleep 30'
mkdir -p "$IN/dirpath/cadical"  # a directory named cadical, first on PATH
chmod 755 "$IN/dirpath/cadical"
export P_BADV="$IN/badv:$PATH" P_BIGV="$IN/bigv:$PATH" P_SILENT="$IN/silent20:$PATH" P_KILL="$IN/killself:$PATH" \
  P_FLOOD="$IN/flood:$PATH" P_WRAP="$IN/wrapper:$PATH" P_SLOW="$IN/slowproof:$PATH" P_HANGPICO="$IN/hangpico:$PATH" \
  P_DIR="$IN/dirpath:$PATH"
# The proofs the slow writer gives with FAKE_TAG=A and =B.
for i in $(seq 100); do echo "A $i"; done >"$IN/proof1"
for i in $(seq 100); do echo "B $i"; done >"$IN/proof2"
# gone FILE: every pid in FILE has ended (a zombie counts as ended: PID 1 may not reap here)
gone() {
  local p s
  for p in $(cat "$1" 2>/dev/null); do
    s=$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)
    [ -z "$s" ] || [ "$s" = Z ] || return 1
  done
}
export -f gone
# await FILE: wait (up to 8 s) until FILE is non-empty: a fake solver has started and recorded its
# child, so a signal sent now lands mid-run (a fixed "sleep 1" was too short on a loaded CI machine).
await() {
  local i
  for i in $(seq 80); do [ -s "$1" ] && return 0; sleep 0.1; done
}
export -f await

MATRIX=$(cat <<'ROWS'
# 3. a literal of LLONG_MIN (llabs overflow: SIGSEGV, temp files left), and one past the CNF's variables
v-llong-min        | 2 | | PATH=$P_BADV $CZ verify $C | grep -q 'literal.*broken solver' $ERRF && grep -q 'badv/cadical)$' $ERRF
v-past-vars        | 2 | | PATH=$P_BIGV $CZ verify $C | grep -q "literal '99999999'" $ERRF
# 18. broken solvers are an environment error naming the solver, not "(internal)"
exit20-silent      | 2 | | PATH=$P_SILENT $CZ verify $C | grep -q 'exited 20 but printed no answer.*silent20/cadical)$' $ERRF
dies-by-signal     | 2 | | PATH=$P_KILL $CZ verify $C | grep -q 'died (signal 11).*killself/cadical)$' $ERRF
output-flood       | 2 | | PATH=$P_FLOOD $CZ verify $C | grep -q 'printed more than' $ERRF
# 16. a directory named cadical earlier on PATH is skipped (the real one proves)
dir-on-path        | 0 | | PATH=$P_DIR $CZ verify $C |
# 17. --timeout kills the wrapper's whole process group, not only the wrapper
wrapper-timeout    | 4 | | PATH=$P_WRAP $CZ verify $C --timeout 1.5 | gone pids && [ -s pids ]
# 19. a fractional limit is honoured: a hanging picosat under --confirm --timeout 0.3 (was rounded up
# to 1 s: 1.2 s). Timed from the first picosat's start to the CLI's exit, which a limit rounded up to
# a whole second cannot meet; the whole run's wall time (start-up and CaDiCaL's solves included)
# failed on a loaded CI machine (> 900 ms) although the limit was kept.
confirm-0.3s       | 4 | | PATH=$P_HANGPICO $CZ verify $C --confirm --timeout 0.3; r=$?; date +%s%N >ended; exit $r | [ -s started ] && [ $(( ($(cat ended) - $(head -1 started)) / 1000000 )) -lt 900 ]
# 6, 9, 2. --proof must be a regular file or a new one: a FIFO (waited for the time limit), "-"
# (exit 3), /dev/full ("proved" with no proof), /dev/stdout; refused before any work
proof-fifo         | 2 | mkfifo p.fifo | $CZ verify $C --proof p.fifo --timeout 3 | grep -q 'FIFO' $ERRF && [ $ELAPSED_MS -lt 2000 ]
proof-dash         | 2 | | $CZ verify $C --proof - | grep -q 'not to standard output (--proof -)' $ERRF
proof-dev-full     | 2 | | $CZ verify $C --proof /dev/full | grep -q 'character device' $ERRF && [ -z "$(find /dev -maxdepth 1 -name 'full.*' -newer $IN/proof1)" ]
proof-dev-stdout   | 2 | | $CZ verify $C --proof /dev/stdout | grep -q '/dev/stdout' $ERRF
proof-dir          | 2 | mkdir d | $CZ verify $C --proof d | grep -q 'directory' $ERRF
# 7. a refuted or undecided run leaves existing proofs untouched (and no temporary file)
proof-refuted-kept | 1 | for k in 0 1 2 3; do echo old >p.drat.$k; done | $CZ verify $REFUTED --proof p.drat | for k in 0 1 2 3; do [ "$(cat p.drat.$k)" = old ] || exit 1; done && [ $(ls | wc -l) = 4 ]
proof-undecided-kept | 4 | echo old >p.drat | PATH=$P_SLOW FAKE_HANG=1 $CZ verify $C --sat-split whole --timeout 2 --proof p.drat | [ "$(cat p.drat)" = old ] && [ "$(echo $(ls))" = "p.drat pids" ] && gone pids
# 2. a proof is written whole: the proved run's file, nothing else beside it
proof-whole        | 0 | echo old >p.drat | PATH=$P_SLOW FAKE_TAG=A $CZ verify $C --sat-split whole --proof p.drat | cmp p.drat $IN/proof1 && [ "$(ls)" = p.drat ]
# 8. two runs on one --proof: the file is exactly one run's proof, never a mixture
proof-concurrent   | 0 | | (PATH=$P_SLOW FAKE_TAG=A $CZ verify $C --sat-split whole --proof p.drat & PATH=$P_SLOW FAKE_TAG=B $CZ verify $C --sat-split whole --proof p.drat; r=$?; wait $! && exit $r) | { cmp -s p.drat $IN/proof1 || cmp -s p.drat $IN/proof2; } && [ "$(ls)" = p.drat ]
# 4, 17. SIGTERM / SIGHUP / SIGINT mid-run: the solver's group ends, no temporary CNF in TMPDIR
# (checked by every row), no partial proof, no report (set -m: a background job keeps SIGINT)
sigterm-mid-run    | 143 | | set -m; PATH=$P_SLOW FAKE_HANG=1 $CZ verify $C --sat-split whole --proof p.drat --json r.json & await pids; kill -TERM $!; wait $! | [ "$(ls)" = pids ] && gone pids
sighup-mid-run     | 129 | | set -m; PATH=$P_SLOW FAKE_HANG=1 $CZ verify $C --sat-split whole --proof p.drat --json r.json & await pids; kill -HUP $!; wait $! | [ "$(ls)" = pids ] && gone pids
sigint-mid-run     | 130 | | set -m; PATH=$P_WRAP $CZ verify $C --json r.json & await pids; kill -INT $!; wait $! | [ "$(ls)" = pids ] && gone pids
# 15. the --method sat flags without it are refused, not ignored
proof-no-sat       | 2 | | $CZ verify circuit/compare -p d=2 --proof p.drat | grep -q '^error: --proof needs --method sat (--proof)$' $ERRF
timeout-no-sat     | 2 | | $CZ verify circuit/compare -p d=2 --timeout 5 | grep -q 'timeout needs --method sat' $ERRF
confirm-no-sat     | 2 | | $CZ verify circuit/compare -p d=2 --confirm | grep -q 'confirm needs --method sat' $ERRF
split-no-sat       | 2 | | $CZ verify circuit/compare -p d=2 --sat-split whole | grep -q 'sat-split needs --method sat' $ERRF
cnf-no-sat         | 2 | mkdir cnf | $CZ verify circuit/compare -p d=2 --sat-cnf cnf | grep -q 'sat-cnf needs --method sat' $ERRF
method-enumerate   | 2 | | $CZ verify circuit/compare -p d=2 --method enumerate --sat-cubes | grep -q 'sat-cubes needs --method sat' $ERRF
ROWS
)
run_matrix "$MATRIX"

# ---- a full disk (a 64 KiB tmpfs, filled): root only -------------------------------------------
# 2, 13. ENOSPC under --proof, --sat-cnf and TMPDIR: exit 2 naming the path or directory, nothing
# left there (was: "proved" with a 0-byte proof, six 0-byte CNF files, exit 3 or 4).
# TMPDIR holds the temporary CNF of a solver process only: CZ_SAT_INPROCESS=0 (the in-process
# CaDiCaL of issue 48 writes none).
FULL="$T/full"
mkdir -p "$FULL"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$FULL" 2>/dev/null; then
  MOUNTS+=("$FULL")
  dd if=/dev/zero of="$FULL/fill" bs=4k >/dev/null 2>&1
  export FULL
  run_matrix "$(cat <<'ROWS'
proof-enospc       | 2 | | $CZ verify $C --proof $FULL/p.drat | grep -q 'No space left on device (--proof .*full/p.drat' $ERRF && [ "$(ls $FULL)" = fill ]
cnf-enospc         | 2 | | $CZ verify $C --sat-cnf $FULL | grep -q 'No space left on device (--sat-cnf .*full/miter-' $ERRF && [ "$(ls $FULL)" = fill ]
tmpdir-enospc      | 2 | | TMPDIR=$FULL CZ_SAT_INPROCESS=0 $CZ verify $C | grep -q 'No space left on device (.*full (TMPDIR))$' $ERRF && [ "$(ls $FULL)" = fill ]
ROWS
)"
else
  echo "sat_fake_solvers: not root (or no tmpfs): the full-disk rows are skipped"
fi

echo "sat_fake_solvers: $rows rows, $fails failure(s)"
[ "$fails" = 0 ]
