#!/usr/bin/env bash
# Certificates of --method sat (issue 38): --proof DIR, --certify and check-proof.
#   - a run's certificates (stage miters included: mqar/dyadic's default strategy) check, inline
#     and offline; --proof DIR keeps the stage strategy (the old FILE form chose monolithic);
#   - tampered directories are rejected (exit 1): lemmas removed, literals flipped, a CNF clause
#     dropped, the index naming another miter's CNF, a file changed behind the index's hash;
#     malformed ones are input errors (exit 2);
#   - a lying solver (a fake cadical answering UNSAT to everything, with no proof or an empty-clause
#     "proof") ends in exit 2 under --certify, never "proved";
#   - an existing DIR, a parent that cannot be written, a full disk: exit 2, nothing left; a run
#     that does not prove leaves no directory;
#   - scheduled runs: --certify with cubes and in shards (merge sums the parts' counts; a lying
#     solver is exit 2 there too); --proof DIR with cubes (each cube an entry, the splits in the
#     index, same bytes each run; check-proof replays the splits: a cube's certificate taken out,
#     a split listing one cube less or taken out are rejected); --proof DIR per shard and
#     check-proof DIR_0 DIR_1 (a shard missing or given twice: exit 2);
#   - mqar/dyadic's pbs blocks call by call (--sat-blocks calls, the default) certified and
#     checked; an index without options.blocks (written before it) is re-encoded query by query:
#     a `--sat-blocks queries` directory checks, a `calls` one is rejected; a directory written
#     before the call miters' order facts across queries (issue 48; tests/sat/fixtures, made by the
#     build of 2026-12-07 before them) still checks, and one of today's without options.pbs_facts
#     is rebuilt as then and rejected.
# Rows are "name | rc | setup | command | check" (tests/cli/matrix_lib.sh).
# Usage: sat_certificates.sh path/to/circuitzoo
set -u
CZ=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
MOUNTS=()
cleanup() {
  for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null; done
  rm -rf "$T"
}
trap cleanup EXIT
IN="$T/in"
mkdir -p "$IN"
DY="mqar/dyadic -p n=4 -p c=4 --method sat"
C="circuit/compare -p d=4 --method sat"
REFUTED="mqar/dyadic -p n=4 -p c=4 -p variant=paper --method sat"
CUBES="--sat-cube-after 0 --sat-cube-bits 2"
TAMPER="python3 $HERE/cert_tamper.py"
FIXTURES="$HERE/fixtures"
export CZ IN DY C REFUTED TAMPER CUBES FIXTURES
# The directories the rows copy (made once).
"$CZ" verify $DY --proof "$IN/dy" >/dev/null || { echo "FAIL: the dyadic certificates were not written"; exit 1; }
"$CZ" verify $C --proof "$IN/cmp" >/dev/null || { echo "FAIL: the compare certificates were not written"; exit 1; }
"$CZ" verify $C $CUBES --proof "$IN/cubes" >/dev/null || { echo "FAIL: the certificates by cubes were not written"; exit 1; }
# n = 8: the top block's 4 queries go call by call (or query by query).
"$CZ" verify mqar/dyadic -p n=8 -p c=16 --method sat --proof "$IN/calls" >/dev/null || { echo "FAIL: the pbs call certificates were not written"; exit 1; }
"$CZ" verify mqar/dyadic -p n=8 -p c=16 --method sat --sat-blocks queries --proof "$IN/queries" >/dev/null || { echo "FAIL: the per-query certificates were not written"; exit 1; }
for i in 0 1; do
  "$CZ" verify $DY --shard $i/2 --json "$IN/part$i.json" --certify --proof "$IN/shard$i" >/dev/null || { echo "FAIL: shard $i's certificates were not written"; exit 1; }
done
fake() {
  mkdir -p "$IN/$1"
  printf '#!/usr/bin/env bash\n%s\n' "$3" >"$IN/$1/$2"
  chmod +x "$IN/$1/$2"
}
fake liar cadical 'echo "s UNSATISFIABLE"; exit 20'
fake liar_empty cadical '[ -n "${3:-}" ] && printf "a\0" >"$3"; echo "s UNSATISFIABLE"; exit 20'
export P_LIAR="$IN/liar:$PATH" P_LIAR_EMPTY="$IN/liar_empty:$PATH"
# The rows solve, certify and check real miters (timer-splits starts 60 solver processes, same-bytes
# runs two n=8 verifies): the row limit is a hang guard, generous so that a loaded machine (ctest -j,
# a sanitizer build) does not trip it. No row asserts how fast it runs.
ROW_TIMEOUT=120
source "$HERE/../cli/matrix_lib.sh"

MATRIX=$(cat <<'ROWS'
# inline and offline checks of honest runs
certify-compare    | 0 | | $CZ verify $C --certify --json r.json | grep -q '"certified": 4' r.json
certify-stages     | 0 | | $CZ verify $DY --certify --proof P --json r.json | grep -q '"strategy": "stages"' r.json && grep -q '"certified": 5' r.json && [ -f P/index.json ] && [ "$(echo $(ls))" = "P r.json" ]
check-dyadic       | 0 | cp -r $IN/dy d | $CZ check-proof d --json j.json | grep -q '"verdict": "certified"' j.json && [ $(grep -c '"verdict": "certified"' j.json) = 6 ]
check-pbs-calls    | 0 | cp -r $IN/calls d | $CZ check-proof d --json j.json | grep -q '"blocks": "calls"' d/index.json && grep -q 'pbs call \[0,4) query 0' j.json && grep -q 'order lemmas' j.json && ! grep -q REJECTED $OUTF
old-index-queries  | 0 | cp -r $IN/queries d && $TAMPER d no-blocks | $CZ check-proof d | ! grep -q 'pbs call' $OUTF && grep -q certified $OUTF
old-index-calls    | 1 | cp -r $IN/calls d && $TAMPER d no-blocks | $CZ check-proof d | grep -q 'REJECTED' $OUTF
old-pbs-facts      | 0 | mkdir d && tar -xzf $FIXTURES/dyadic-n8-c8-before-pbs-facts.tgz -C d | $CZ check-proof d | ! grep -q pbs_facts d/index.json && grep -q 'pbs call \[0,4) query 0' $OUTF && ! grep -q REJECTED $OUTF && grep -q 'certified  (27 certificates' $OUTF
no-pbs-facts       | 1 | cp -r $IN/calls d && $TAMPER d no-pbs-facts | $CZ check-proof d | grep -q '"pbs_facts": "across"' $IN/calls/index.json && grep -q 'REJECTED' $OUTF
check-sort         | 0 | | $CZ verify circuit/sort -p n=4 -p d=2 --method sat --sat-zero-one sat --proof P >/dev/null && $CZ check-proof P | grep -q 'the 0-1 miter' $OUTF
# same run, same bytes: the solving threads finish in any order, the directory is the same
same-bytes         | 0 | | $CZ verify mqar/dyadic -p n=8 -p c=8 --method sat --proof A && $CZ verify mqar/dyadic -p n=8 -p c=8 --method sat --threads 1 --proof B | diff -r A B && [ -f A/miter-17.drat ]
old-file-form      | 0 | | $CZ verify $C --proof p.drat --certify | [ "$(echo $(ls))" = "p.drat.0 p.drat.1 p.drat.2 p.drat.3" ] && grep -q 'certified: 4' $OUTF
# tampered: rejected, exit 1
drop-lemmas        | 1 | cp -r $IN/dy d && $TAMPER d drop-lemma | $CZ check-proof d | grep -q 'REJECTED.*not implied' $OUTF
flip-literals      | 1 | cp -r $IN/dy d && $TAMPER d flip | $CZ check-proof d | grep -q 'REJECTED.*neither RUP nor RAT' $OUTF
drop-cnf-clause    | 1 | cp -r $IN/dy d && $TAMPER d drop-clause | $CZ check-proof d | grep -q 'never asked for this CNF' $OUTF && grep -q 'no certificate for this CNF' $OUTF
swap-cnf           | 1 | cp -r $IN/cmp d && $TAMPER d swap-cnf | $CZ check-proof d | grep -q 'REJECTED' $OUTF && grep -q 'rejected' $OUTF
hash-mismatch      | 1 | cp -r $IN/dy d && $TAMPER d flip-nohash | $CZ check-proof d | grep -q 'do not match the sizes and SHA-256' $OUTF
# scheduled runs: cubes and shards (issue 38)
certify-cubes      | 0 | | $CZ verify $C $CUBES --certify --json r.json | grep -q '"certified": 16' r.json && grep -q '"cubes": 4' r.json
check-cubes        | 0 | cp -r $IN/cubes d | $CZ check-proof d --json j.json | grep -q '"verdict": "certified"' j.json && grep -q 'cube 3 of 4' j.json && grep -q '"splits"' d/index.json && grep -q '"literals"' d/index.json
cubes-same-bytes   | 0 | | $CZ verify $C $CUBES --threads 1 --proof A | diff -r A $IN/cubes
# a 1 ms timer splits a miter: the solver process (CZ_SAT_INPROCESS=0) never answers within 1 ms, the in-process one may
timer-splits       | 0 | | CZ_SAT_INPROCESS=0 $CZ verify mqar/dyadic -p n=4 -p c=4 --method sat --sat-strategy monolithic --sat-cube-after 0.001 --sat-cube-bits 1 --proof P && $CZ check-proof P | grep -q 'certified  (.* splits into cubes; the re-encoded run: proved)' $OUTF
cube-dropped       | 1 | cp -r $IN/cubes d && $TAMPER d drop-cube | $CZ check-proof d | grep -q 'REJECTED' $OUTF && grep -q 'no certificate for this CNF' $OUTF
split-short        | 1 | cp -r $IN/cubes d && $TAMPER d split-short | $CZ check-proof d | grep -q 'REJECTED   split of .*lists 3 cubes, not the 4' $OUTF
split-dropped      | 1 | cp -r $IN/cubes d && $TAMPER d unsplit | $CZ check-proof d | grep -q 'never asked for this CNF' $OUTF
check-shards       | 0 | | $CZ check-proof $IN/shard1 $IN/shard0 --json j.json | grep -q '"run_verdict": "proved"' j.json && grep -q '"dirs"' j.json
merge-certified    | 0 | | $CZ merge $IN/part0.json $IN/part1.json --json m.json | grep -q '"certified": 5' m.json && grep -q '"shards": 2' m.json
merge-uncertified  | 0 | $CZ verify $DY --shard 1/2 --json p1.json | $CZ merge $IN/part0.json p1.json --json m.json | ! grep -q '"certified"' m.json && grep -q 'not_certified' m.json
shard-missing      | 2 | | $CZ check-proof $IN/shard0 | grep -q 'shard 1/2 is missing' $ERRF
shard-twice        | 2 | | $CZ check-proof $IN/shard0 $IN/shard0 | grep -q 'shard 0/2 given twice' $ERRF
shard-other-run    | 2 | | $CZ check-proof $IN/shard0 $IN/cmp | grep -q 'names no shard' $ERRF
liar-cubes         | 2 | | PATH=$P_LIAR $CZ verify $C $CUBES --certify | grep -q 'does not check.*a broken solver' $ERRF
liar-shard         | 2 | | PATH=$P_LIAR $CZ verify $C --shard 0/2 --json p.json --certify | grep -q 'does not check.*a broken solver' $ERRF
proof-old-cubes    | 2 | | $CZ verify $C $CUBES --proof p.drat | grep -q 'old form.*use --proof DIR' $ERRF
lemmas-cubes       | 2 | | $CZ verify $C $CUBES --sat-lemmas | grep -q 'each miter assumes' $ERRF
# malformed: exit 2
bad-drat           | 2 | cp -r $IN/dy d && $TAMPER d bad-drat | $CZ check-proof d | grep -q 'binary DRAT: truncated' $ERRF
no-dir             | 2 | | $CZ check-proof nothing | grep -q 'nothing/index.json' $ERRF
index-not-json     | 2 | mkdir d && echo '{"format":' >d/index.json | $CZ check-proof d | grep -q 'not JSON' $ERRF
index-other        | 2 | mkdir d && echo '{"format": "x"}' >d/index.json | $CZ check-proof d | grep -q 'not a certificate index' $ERRF
file-outside       | 2 | cp -r $IN/cmp d && sed -i 's/"miter-0.cnf"/"..\/x.cnf"/' d/index.json | $CZ check-proof d | grep -q 'not a plain name' $ERRF
file-missing       | 2 | cp -r $IN/cmp d && rm d/miter-1.drat | $CZ check-proof d | grep -q 'miter-1.drat' $ERRF
# a lying solver: never "proved" under --certify
liar-certify       | 2 | | PATH=$P_LIAR $CZ verify $C --certify | grep -q 'does not check.*a broken solver' $ERRF
liar-empty-certify | 2 | | PATH=$P_LIAR_EMPTY $CZ verify $REFUTED --certify | grep -q 'does not check.*not implied' $ERRF
liar-stages        | 2 | | PATH=$P_LIAR_EMPTY $CZ verify $DY --certify --proof P | grep -q 'does not check' $ERRF
# without --certify the lie gets through ("proved"), and check-proof rejects what it wrote
liar-uncertified   | 0 | | PATH=$P_LIAR $CZ verify $C --proof P | grep -q 'proved' $OUTF && { $CZ check-proof P >o 2>&1 </dev/null; [ $? = 1 ]; } && grep -q 'REJECTED.*no conflict' o
# where the directory goes
dir-exists         | 2 | mkdir P | $CZ verify $C --proof P | grep -q 'exists already' $ERRF
parent-not-dir     | 2 | echo x >f | $CZ verify $C --proof f/P | grep -q 'cannot create the certificate directory' $ERRF
refuted-no-dir     | 1 | | $CZ verify $REFUTED --proof P | [ -z "$(ls)" ]
undecided-no-dir   | 4 | | $CZ verify $DY --sat-strategy monolithic --timeout 0.001 --proof P | [ -z "$(ls)" ]
certify-no-sat     | 2 | | $CZ verify circuit/compare -p d=4 --certify | grep -q 'certify needs --method sat' $ERRF
ROWS
)
run_matrix "$MATRIX"

# ---- a read-only parent and a full disk (tmpfs): root only ---------------------------------------
RO="$T/ro" FULL="$T/full"
mkdir -p "$RO" "$FULL"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k,ro tmpfs "$RO" 2>/dev/null && mount -t tmpfs -o size=64k tmpfs "$FULL" 2>/dev/null; then
  MOUNTS+=("$RO" "$FULL")
  dd if=/dev/zero of="$FULL/fill" bs=4k >/dev/null 2>&1
  export RO FULL
  run_matrix "$(cat <<'ROWS'
read-only          | 2 | | $CZ verify $C --proof $RO/P | grep -q 'Read-only file system' $ERRF && [ -z "$(ls $RO)" ]
enospc             | 2 | | $CZ verify $C --proof $FULL/P | grep -q 'No space left on device' $ERRF && [ "$(ls $FULL)" = fill ]
ROWS
)"
else
  echo "sat_certificates: not root (or no tmpfs): the read-only and full-disk rows are skipped"
fi
echo "sat_certificates: $rows rows, $fails failure(s)"
[ "$fails" = 0 ]
