#!/usr/bin/env bash
# MPI ranks (issue 13): `mpirun -np K circuitzoo verify ...` writes the report of one process
# (compared with --no-timing, apart from `ranks`), for K = 1, 2, 3, on a verified construction and
# on one with counterexamples; `sweep` under mpirun gives the one-process sweep; a rank that dies
# fails the run (non-zero, no report); --checkpoint under mpirun is refused.
#   mpi_ranks.sh CIRCUITZOO HAVE_MPI   (HAVE_MPI: ON when the binary has the MPI backend; else skip)
set -u
CZ="$1"
if [ "${2:-OFF}" != ON ] || ! command -v mpirun >/dev/null 2>&1; then
  echo "skipped: no MPI backend or no mpirun"; exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
MPI=(mpirun --oversubscribe -np)
fails=0
fail() { echo "FAIL $*"; fails=$((fails+1)); }
strip() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); [j.pop(k,None) for k in ("shards","ranks")]; print(json.dumps(j,sort_keys=True))' "$1"; }

ranks() {  # ranks NAME WANT_RC ARGS...
  local name=$1 want=$2; shift 2
  "$CZ" verify "$@" --no-timing --json "$T/one.json" >"$T/one.out" 2>/dev/null; local rc=$?
  [ "$rc" = "$want" ] || fail "$name one process: exit $rc, want $want"
  for np in 1 2 3; do
    rm -f "$T/mpi.json"
    timeout 120 "${MPI[@]}" "$np" "$CZ" verify "$@" --threads 1 --no-timing --json "$T/mpi.json" >"$T/out" 2>"$T/err"; rc=$?
    [ "$rc" = "$want" ] || { fail "$name np=$np: exit $rc, want $want"; head -5 "$T/err"; continue; }
    [ "$(strip "$T/one.json")" = "$(strip "$T/mpi.json")" ] || { fail "$name np=$np: report differs"; diff <(strip "$T/one.json") <(strip "$T/mpi.json") | head -5; }
    python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1])).get("ranks")==int(sys.argv[2]) else 1)' "$T/mpi.json" "$np" \
      || fail "$name np=$np: no ranks=$np field"
    # One table: no more lines than one process prints (its notes wrap to the width, issue 49 item 6).
    [ "$(grep -c . "$T/out")" -le "$(grep -c . "$T/one.out")" ] || fail "$name np=$np: more than one table printed"
  done
}
ranks dyadic 0 mqar/dyadic -p n=4 -p c=4 --samples 20000 --block-size 64
ranks dyadic-scalar 0 mqar/dyadic -p n=2 -p c=4 --exhaustive --scalar
ranks shift_up-causal 1 primitive/shift_up -p conv=causal -p N=6 -p range=2
ranks autocorr-paper 1 mqar/autocorrelation -p variant=paper --samples 300 --seed 5

# sweep: values dealt to the ranks, one table on rank 0.
"$CZ" sweep primitive/cumsum --vary N=4,8,16,32 --no-timing --json "$T/sweep1.json" >/dev/null 2>&1 || fail "sweep one process"
timeout 120 "${MPI[@]}" 3 "$CZ" sweep primitive/cumsum --vary N=4,8,16,32 --no-timing --json "$T/sweep3.json" >/dev/null 2>&1 \
  || fail "sweep np=3: non-zero exit"
cmp -s "$T/sweep1.json" "$T/sweep3.json" || fail "sweep np=3 differs from one process"
timeout 120 "${MPI[@]}" 2 "$CZ" sweep primitive/cumsum --vary N=4,0 >/dev/null 2>"$T/err"; rc=$?
[ "$rc" = 2 ] || fail "sweep np=2 with a bad value: exit $rc, want 2"
[ "$(grep -c '^error:' "$T/err")" = 1 ] || { fail "sweep np=2 bad value: want one error line"; cat "$T/err"; }

# Refused under mpirun: a checkpoint (kept by one process).
timeout 60 "${MPI[@]}" 2 "$CZ" verify mqar/dyadic -p n=2 -p c=4 --checkpoint "$T/ck.json" >/dev/null 2>"$T/err"; rc=$?
[ "$rc" = 2 ] || fail "checkpoint under mpirun: exit $rc, want 2"

# A rank that dies: the run fails loudly, and writes no report.
cat >"$T/die.sh" <<SH
#!/usr/bin/env bash
if [ "\${OMPI_COMM_WORLD_RANK:-0}" = 1 ]; then sleep 1; kill -9 \$\$; fi
exec "$CZ" verify mqar/dyadic -p n=4 -p c=5 --exhaustive --scalar --threads 1 --json "$T/dead.json"
SH
chmod +x "$T/die.sh"
timeout 120 "${MPI[@]}" 2 "$T/die.sh" >/dev/null 2>&1; rc=$?
[ "$rc" != 0 ] || fail "a dead rank: mpirun exit 0"
[ "$rc" != 124 ] || fail "a dead rank: the run hung"
[ -e "$T/dead.json" ] && fail "a dead rank: a report was written"

if [ $fails -gt 0 ]; then echo "$fails failure(s)"; exit 1; fi
echo "MPI ranks: all checks passed"
