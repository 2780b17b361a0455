#!/usr/bin/env bash
# --method sat across MPI ranks, in cubes and in shards (issue 38), from the command line:
#   - mpirun -np 1 and 2: the report of one process, byte for byte apart from timing fields and
#     sat.schedule (ranks, solver runs), for a stage-wise proof, a monolithic proof with cubes and a
#     refutation (the same counterexample); rank 0 alone prints;
#   - --shard 0/2 + 1/2 + merge: the one-process report; bad, mixed and mismatched parts exit 2
#     (mqar/dyadic's parts record options.pbs_facts: without it they are rebuilt as before, exit 2)
#     with one error line and no report;
#   - a user's circuit file proved by cubes; --proof FILE.drat / --sat-lemmas with cubes refused (exit 2);
#   - --certify --proof DIR under mpirun -np 2 with cubes: rank 0's report counts every rank's
#     checked answers (the one-process counts) and writes the one-process directory, which checks.
#   sat_schedule_cli.sh CIRCUITZOO [HAVE_MPI]   (the MPI rows are skipped without the backend)
set -u
CZ="$1"
HAVE_MPI="${2:-OFF}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
fails=0
fail() { echo "FAIL $*"; fails=$((fails+1)); }
# Report checks are collected and made by one python3 at the end (its start costs seconds on a
# loaded machine): "same NAME A B" (equal without seconds, timing and sat.schedule), "ranks2 NAME
# F" (sat.schedule.ranks = 2), "cubes NAME F N" (every run split into N cubes), "anycubes NAME F N",
# "certified NAME A B" (the same --certify counts).
checks=()
same() { checks+=("same|$1|$2|$3"); }
case1=(mqar/dyadic -p n=4 -p c=5)                                    # by stages
case2=(mqar/dyadic -p n=4 -p c=4 --sat-strategy monolithic --sat-cube-after 0 --sat-cube-bits 2)
case3=(mqar/dyadic -p n=8 -p c=16 -p variant=paper --sat-strategy monolithic)  # refuted
"$CZ" verify "${case1[@]}" --method sat --json "$T/one1.json" >/dev/null 2>&1 || fail "case1 one process"
"$CZ" verify "${case2[@]}" --method sat --json "$T/one2.json" >/dev/null 2>"$T/err" || { fail "case2 one process"; cat "$T/err"; }
checks+=("cubes|case2|$T/one2.json|4")
"$CZ" verify "${case3[@]}" --method sat --json "$T/one3.json" >/dev/null 2>&1; [ $? = 1 ] || fail "case3 one process: want exit 1"

if [ "$HAVE_MPI" = ON ] && command -v mpirun >/dev/null 2>&1; then
  for np in 1 2; do
    for k in 1 2 3; do
      [ $np = 1 ] && [ $k != 1 ] && continue  # one rank: the stage-wise case is enough (mpirun costs ~1 s a start)
      eval "args=(\"\${case$k[@]}\")"
      want=0; [ $k = 3 ] && want=1
      timeout 60 mpirun --oversubscribe -np $np "$CZ" verify "${args[@]}" --method sat --threads 1 --json "$T/mpi$k.json" >"$T/out" 2>"$T/err"; rc=$?
      [ $rc = $want ] || { fail "case$k np=$np: exit $rc, want $want"; head -5 "$T/err"; continue; }
      cp "$T/mpi$k.json" "$T/mpi$k.$np.json"
      same "case$k np=$np" "$T/one$k.json" "$T/mpi$k.$np.json"
      [ "$(grep -c '^mqar/dyadic ' "$T/out")" = 1 ] || fail "case$k np=$np: not one report line"
      if [ $np = 2 ]; then
        cp "$T/mpi$k.json" "$T/mpi$k.np2.json"
        checks+=("ranks2|case$k np=2|$T/mpi$k.np2.json")
      fi
    done
  done
  timeout 60 mpirun --oversubscribe -np 2 "$CZ" verify "${case1[@]}" --method sat --shard 0/2 --json "$T/x.json" >/dev/null 2>"$T/err"
  [ $? = 2 ] || fail "--shard under mpirun: want exit 2"
  # --certify and --proof DIR: every rank checks its own answers and rank 0 counts them all (the
  # one-process counts: CaDiCaL's proof of a CNF is the same on every rank); the other ranks send
  # their proofs to rank 0, which writes the one-process directory byte for byte; check-proof takes it.
  "$CZ" verify "${case2[@]}" --method sat --certify --proof "$T/op" --json "$T/c1.json" >/dev/null 2>&1 || fail "case2 --certify --proof one process"
  timeout 60 mpirun --oversubscribe -np 2 "$CZ" verify "${case2[@]}" --method sat --certify --threads 1 --proof "$T/mp" --json "$T/c2.json" >/dev/null 2>"$T/err" \
    || { fail "case2 --certify --proof np=2"; head -3 "$T/err"; }
  checks+=("certified|certify np=2|$T/c1.json|$T/c2.json")
  diff -r "$T/op" "$T/mp" >/dev/null || fail "--proof DIR under mpirun: not the one-process directory"
  "$CZ" check-proof "$T/mp" >/dev/null 2>&1 || fail "check-proof of the mpirun directory"
  # A file of other structure (tests/sat/double_aag.py): its sweep's miters spread over the ranks,
  # every rank given every answer; the report of one process.
  "$CZ" export mqar/dyadic -p n=4 -p c=8 --format aiger -o "$T/d48.aag" >/dev/null 2>&1 || fail "export d48"
  python3 "$(dirname "$0")/double_aag.py" "$T/d48.aag" "$T/d48x.aag" || fail "double_aag"
  "$CZ" verify --circuit "$T/d48x.aag" --task mqar -p n=4 -p c=8 -p encoding=binary --method sat --json "$T/sw1.json" >/dev/null 2>&1 || fail "swept file one process"
  timeout 60 mpirun --oversubscribe -np 2 "$CZ" verify --circuit "$T/d48x.aag" --task mqar -p n=4 -p c=8 -p encoding=binary --method sat --threads 1 \
    --json "$T/sw2.json" >/dev/null 2>"$T/err" || { fail "swept file np=2"; head -3 "$T/err"; }
  same "swept file np=2" "$T/sw1.json" "$T/sw2.json"
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
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
j = json.load(open(t + "/p1.1.json")); j["sat_part"]["calls"][0]["hashes"][0] = "0123456789abcdef"; json.dump(j, open(t + "/hash.json", "w"))
j = json.load(open(t + "/p2.1.json"))
r = next(iter(j["sat_part"]["calls"][0]["results"].values())); r["r"]["answer"] = "maybe"; json.dump(j, open(t + "/ans.json", "w"))
PY
bad "a tampered miter hash" "$T/p1.0.json" "$T/hash.json"
bad "an unknown answer" "$T/p2.0.json" "$T/ans.json"
"$CZ" verify mqar/dyadic -p n=2 -p c=4 --exhaustive --shard 0/2 --json "$T/e0.json" >/dev/null 2>&1
bad "an enumeration part among sat parts" "$T/p1.0.json" "$T/e0.json"
# mqar/dyadic's pbs call miters (n = 8: the top block call by call) record how they were written
# (options.pbs_facts, issue 48): parts merge; without the key they are rebuilt as before the order
# facts across queries, which are not these parts' miters (exit 2); an unknown value is exit 2.
for i in 0 1; do
  "$CZ" verify mqar/dyadic -p n=8 -p c=8 --method sat --shard $i/2 --json "$T/f$i.json" >/dev/null 2>&1 || fail "pbs parts: shard $i"
done
"$CZ" merge "$T/f0.json" "$T/f1.json" --json "$T/fm.json" >/dev/null 2>&1 || fail "pbs parts: merge"
grep -q '"verdict": "proved"' "$T/fm.json" || fail "pbs parts: merge does not prove"
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
for i in (0, 1):
    j = json.load(open(f"{t}/f{i}.json"))
    assert j["sat_part"]["options"]["pbs_facts"] == "across", "a part without pbs_facts"
    del j["sat_part"]["options"]["pbs_facts"]; json.dump(j, open(f"{t}/fo{i}.json", "w"))
    j["sat_part"]["options"]["pbs_facts"] = "sideways"; json.dump(j, open(f"{t}/fb{i}.json", "w"))
PY
bad "pbs parts without options.pbs_facts (rebuilt as before)" "$T/fo0.json" "$T/fo1.json"
grep -q "not this build's miters" "$T/err" || fail "pbs parts without pbs_facts: want the miters named"
bad "pbs parts with an unknown pbs_facts" "$T/fb0.json" "$T/fb1.json"
grep -q "pbs_facts" "$T/err" || fail "pbs parts with an unknown pbs_facts: want the key named"

# A user's circuit's per-query miters by cubes (monolithic: the file is an export of mqar/dyadic,
# which the default strategy recognises and proves by the construction's stages); refusals.
"$CZ" export mqar/dyadic -p n=4 -p c=4 -p encoding=onehot --format aiger -o "$T/d.aag" >/dev/null 2>&1 || fail "export"
"$CZ" verify --circuit "$T/d.aag" --task mqar -p n=4 -p c=4 -p encoding=onehot --method sat --sat-strategy monolithic --sat-cube-after 0 --json "$T/u.json" >/dev/null 2>"$T/err" \
  || { fail "user circuit by cubes"; cat "$T/err"; }
checks+=("anycubes|user circuit|$T/u.json|16")
# --proof DIR and --certify work with cubes since issue 38 (tests/sat/sat_certificates.sh); the old
# single-file form and --sat-lemmas stay one-process only.
"$CZ" verify "${case1[@]}" --method sat --sat-cube-after 1 --proof "$T/pf.drat" >/dev/null 2>&1; [ $? = 2 ] || fail "--proof FILE.drat with cubes: want exit 2"
"$CZ" verify "${case1[@]}" --method sat --sat-cube-after 1 --sat-lemmas >/dev/null 2>&1; [ $? = 2 ] || fail "--sat-lemmas with cubes: want exit 2"
"$CZ" verify "${case1[@]}" --method sat --shard 0/2 >/dev/null 2>&1; [ $? = 2 ] || fail "--shard without --json: want exit 2"
"$CZ" verify "${case1[@]}" --sat-cube-after 1 >/dev/null 2>&1; [ $? = 2 ] || fail "--sat-cube-after without --method sat: want exit 2"
python3 - "${checks[@]}" <<'PY' || fails=$((fails+1))
import json, sys
def drop(x):
    if isinstance(x, dict):
        return {k: drop(v) for k, v in x.items() if not k.endswith("seconds") and k not in ("timing", "schedule")}
    if isinstance(x, list):
        return [drop(v) for v in x]
    return x
bad = 0
for c in sys.argv[1:]:
    kind, name, f, *rest = c.split("|")
    try:
        j = json.load(open(f))
        if kind == "same":
            ok = json.dumps(drop(j), sort_keys=True) == json.dumps(drop(json.load(open(rest[0]))), sort_keys=True)
        elif kind == "certified":
            k = json.load(open(rest[0]))
            ok = j["sat"]["certified"] > 0 and drop(j["sat"]["certify"]) == drop(k["sat"]["certify"]) and j["sat"]["certified"] == k["sat"]["certified"]
        elif kind == "ranks2":
            ok = j["sat"]["schedule"]["ranks"] == 2
        elif kind == "cubes":
            runs, s = j["sat"]["runs"], j["sat"]["schedule"]
            ok = runs and all(r.get("cubes") == int(rest[0]) for r in runs) and len(s["split"]) == len(runs) and s["cube_after"] == 0
        else:
            ok = any(r.get("cubes") == int(rest[0]) for r in j["sat"]["runs"])
    except Exception as e:
        ok = False
        print("  ", name, repr(e))
    if not ok:
        print("FAIL", kind, name)
        bad += 1
sys.exit(bad > 0)
PY
[ $fails = 0 ] && echo "all passed"
exit $((fails > 0))
