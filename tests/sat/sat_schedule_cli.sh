#!/usr/bin/env bash
# --method sat across MPI ranks, in cubes and in shards (issue 38), from the command line:
#   - mpirun -np 1 and 2: the report of one process, byte for byte apart from timing fields and
#     sat.schedule (ranks, solver runs), for a stage-wise proof, a monolithic proof with cubes and a
#     refutation (the same counterexample); rank 0 alone prints;
#   - --shard 0/2 + 1/2 + merge: the one-process report; bad, mixed and mismatched parts exit 2
#     with one error line and no report;
#   - a user's circuit file proved by cubes; --proof / --sat-lemmas with cubes refused (exit 2).
#   sat_schedule_cli.sh CIRCUITZOO [HAVE_MPI]   (the MPI rows are skipped without the backend)
set -u
CZ="$1"
HAVE_MPI="${2:-OFF}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
fails=0
fail() { echo "FAIL $*"; fails=$((fails+1)); }
# The report without what may differ between runs of one command: seconds, timing, sat.schedule.
strip() {
  python3 - "$1" <<'PY'
import json, sys
def drop(x):
    if isinstance(x, dict):
        return {k: drop(v) for k, v in x.items() if not k.endswith("seconds") and k not in ("timing", "schedule")}
    if isinstance(x, list):
        return [drop(v) for v in x]
    return x
print(json.dumps(drop(json.load(open(sys.argv[1]))), sort_keys=True))
PY
}
same() {  # same NAME A B
  [ "$(strip "$2")" = "$(strip "$3")" ] || { fail "$1: reports differ"; diff <(strip "$2") <(strip "$3") | head -6; }
}

case1=(mqar/dyadic -p n=4 -p c=5)                                    # by stages
case2=(mqar/dyadic -p n=4 -p c=4 --sat-strategy monolithic --sat-cube-after 0 --sat-cube-bits 2)
case3=(mqar/dyadic -p n=8 -p c=16 -p variant=paper --sat-strategy monolithic)  # refuted
"$CZ" verify "${case1[@]}" --method sat --json "$T/one1.json" >/dev/null 2>&1 || fail "case1 one process"
"$CZ" verify "${case2[@]}" --method sat --json "$T/one2.json" >/dev/null 2>"$T/err" || { fail "case2 one process"; cat "$T/err"; }
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["sat"]["runs"]; sys.exit(0 if r and all(x.get("cubes")==4 for x in r) else 1)' "$T/one2.json" \
  || fail "case2: runs do not say 4 cubes"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["sat"]["schedule"]; sys.exit(0 if s["cube_after"]==0 and len(s["split"])==4 else 1)' "$T/one2.json" \
  || fail "case2: sat.schedule does not list the 4 split miters"
"$CZ" verify "${case3[@]}" --method sat --json "$T/one3.json" >/dev/null 2>&1; [ $? = 1 ] || fail "case3 one process: want exit 1"

if [ "$HAVE_MPI" = ON ] && command -v mpirun >/dev/null 2>&1; then
  for np in 1 2; do
    for k in 1 2 3; do
      eval "args=(\"\${case$k[@]}\")"
      want=0; [ $k = 3 ] && want=1
      timeout 60 mpirun --oversubscribe -np $np "$CZ" verify "${args[@]}" --method sat --threads 1 --json "$T/mpi$k.json" >"$T/out" 2>"$T/err"; rc=$?
      [ $rc = $want ] || { fail "case$k np=$np: exit $rc, want $want"; head -5 "$T/err"; continue; }
      same "case$k np=$np" "$T/one$k.json" "$T/mpi$k.json"
      [ "$(grep -c '^mqar/dyadic ' "$T/out")" = 1 ] || fail "case$k np=$np: not one report line"
      if [ $np = 2 ]; then
        python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["sat"]["schedule"]["ranks"]==2 else 1)' "$T/mpi$k.json" \
          || fail "case$k np=2: sat.schedule.ranks is not 2"
      fi
    done
  done
  timeout 60 mpirun --oversubscribe -np 2 "$CZ" verify "${case1[@]}" --method sat --shard 0/2 --json "$T/x.json" >/dev/null 2>"$T/err"
  [ $? = 2 ] || fail "--shard under mpirun: want exit 2"
else
  echo "skipped: the MPI rows (no MPI backend or no mpirun)"
fi

# Shards and merge.
for k in 1 2 3; do
  eval "args=(\"\${case$k[@]}\")"
  for i in 0 1; do
    "$CZ" verify "${args[@]}" --method sat --shard $i/2 --json "$T/p$k.$i.json" >/dev/null 2>"$T/err"; rc=$?
    [ $rc -le 1 ] || { fail "case$k shard $i: exit $rc"; cat "$T/err"; }
  done
  want=0; [ $k = 3 ] && want=1
  "$CZ" merge "$T/p$k.0.json" "$T/p$k.1.json" --json "$T/m$k.json" >/dev/null 2>"$T/err"; rc=$?
  [ $rc = $want ] || { fail "case$k merge: exit $rc, want $want"; cat "$T/err"; continue; }
  same "case$k merge" "$T/one$k.json" "$T/m$k.json"
done
bad() {  # bad NAME PARTS...: exit 2, one error line, no report
  local name=$1; shift
  rm -f "$T/bad.json"
  "$CZ" merge "$@" --json "$T/bad.json" >/dev/null 2>"$T/err"; local rc=$?
  [ $rc = 2 ] || fail "merge $name: exit $rc, want 2"
  [ "$(grep -c '^error:' "$T/err")" = 1 ] || { fail "merge $name: want one error line"; cat "$T/err"; }
  [ ! -e "$T/bad.json" ] || fail "merge $name: a report was written"
}
bad "one shard missing" "$T/p1.0.json"
bad "a shard twice" "$T/p1.0.json" "$T/p1.0.json"
bad "parts of two runs" "$T/p1.0.json" "$T/p2.1.json"
head -c 200 "$T/p1.1.json" >"$T/trunc.json"; bad "a truncated part" "$T/p1.0.json" "$T/trunc.json"
python3 - "$T/p1.1.json" "$T/hash.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); j["sat_part"]["calls"][0]["hashes"][0] = "0123456789abcdef"; json.dump(j, open(sys.argv[2], "w"))
PY
bad "a tampered miter hash" "$T/p1.0.json" "$T/hash.json"
python3 - "$T/p2.1.json" "$T/ans.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
r = next(iter(j["sat_part"]["calls"][0]["results"].values())); r["r"]["answer"] = "maybe"; json.dump(j, open(sys.argv[2], "w"))
PY
bad "an unknown answer" "$T/p2.0.json" "$T/ans.json"
"$CZ" verify mqar/dyadic -p n=2 -p c=4 --exhaustive --shard 0/2 --json "$T/e0.json" >/dev/null 2>&1
bad "an enumeration part among sat parts" "$T/p1.0.json" "$T/e0.json"

# A user's circuit by cubes; refusals.
"$CZ" export mqar/dyadic -p n=4 -p c=4 -p encoding=onehot --format aiger -o "$T/d.aag" >/dev/null 2>&1 || fail "export"
"$CZ" verify --circuit "$T/d.aag" --task mqar -p n=4 -p c=4 -p encoding=onehot --method sat --sat-cube-after 0 --json "$T/u.json" >/dev/null 2>"$T/err" \
  || { fail "user circuit by cubes"; cat "$T/err"; }
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["sat"]["runs"]; sys.exit(0 if any(x.get("cubes")==16 for x in r) else 1)' "$T/u.json" \
  || fail "user circuit: no miter split into 16 cubes"
"$CZ" verify "${case1[@]}" --method sat --sat-cube-after 1 --proof "$T/pf" >/dev/null 2>&1; [ $? = 2 ] || fail "--proof with cubes: want exit 2"
"$CZ" verify "${case1[@]}" --method sat --shard 0/2 >/dev/null 2>&1; [ $? = 2 ] || fail "--shard without --json: want exit 2"
"$CZ" verify "${case1[@]}" --sat-cube-after 1 >/dev/null 2>&1; [ $? = 2 ] || fail "--sat-cube-after without --method sat: want exit 2"
[ $fails = 0 ] && echo "all passed"
exit $((fails > 0))
