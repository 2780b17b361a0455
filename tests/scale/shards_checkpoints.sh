#!/usr/bin/env bash
# Shards, merge and checkpoints (issue 13), through the real binary:
#  - `verify --shard I/K` parts, joined by `merge`, give the single-run report (compared with
#    --no-timing, apart from the `shards` field), for K = 1, 3 and 7, on a verified construction and
#    on one with counterexamples;
#  - merge refuses a missing, duplicated, foreign or tampered part (exit 2, nothing written);
#  - a run SIGKILLed midway and resumed from its --checkpoint gives the uninterrupted report;
#    a checkpoint of other parameters is refused, and an existing one is not overwritten.
set -u
CZ="$1"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails+1)); }
# The report without the fields that differ by design (timing is off; shards/ranks name the split).
strip() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); [j.pop(k,None) for k in ("shards","ranks","shard")]; print(json.dumps(j,sort_keys=True))' "$1"; }

shard_merge() {  # shard_merge NAME K WANT_RC ARGS...
  local name=$1 K=$2 want=$3; shift 3
  "$CZ" verify "$@" --no-timing --json "$T/single.json" >/dev/null 2>&1; local rc=$?
  [ "$rc" = "$want" ] || fail "$name single: exit $rc, want $want"
  rm -f "$T"/part-*.json
  for ((i = 0; i < K; i++)); do
    "$CZ" verify "$@" --no-timing --shard "$i/$K" --json "$T/part-$i.json" >/dev/null 2>&1
    local prc=$?
    [ "$prc" -le 1 ] || fail "$name shard $i/$K: exit $prc"
  done
  "$CZ" merge "$T"/part-*.json --no-timing --json "$T/merged.json" >/dev/null 2>&1; rc=$?
  [ "$rc" = "$want" ] || fail "$name merge of $K: exit $rc, want $want"
  [ "$(strip "$T/single.json")" = "$(strip "$T/merged.json")" ] || { fail "$name merge of $K differs from one run"; diff <(strip "$T/single.json") <(strip "$T/merged.json") | head -5; }
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j.get("shards")==int(sys.argv[2]) else 1)' "$T/merged.json" "$K" \
    || fail "$name merge of $K: no shards=$K field"
}
shard_merge dyadic 1 0 mqar/dyadic -p n=2 -p c=4 --exhaustive
shard_merge dyadic 3 0 mqar/dyadic -p n=2 -p c=4 --exhaustive
shard_merge dyadic-scalar 7 0 mqar/dyadic -p n=2 -p c=4 --exhaustive --scalar
# With counterexamples: the smallest failing index is in the first part, or (with an offset
# domain: sampled instances) anywhere; the merged counterexample must be the single run's.
shard_merge shift_up-causal 3 1 primitive/shift_up -p conv=causal -p N=6 -p range=2
shard_merge autocorr-paper 7 1 mqar/autocorrelation -p variant=paper --samples 300 --seed 5
# More shards than instances: empty parts are fine.
shard_merge tiny 7 0 primitive/identity -p N=2 -p d=1 -p range=1

# Merge refusals: exit 2, one error line, no output file.
refuse() {  # refuse NAME PATTERN PARTS...
  local name=$1 pat=$2; shift 2
  rm -f "$T/out.json"
  "$CZ" merge "$@" --json "$T/out.json" >/dev/null 2>"$T/err"; local rc=$?
  [ "$rc" = 2 ] || fail "merge $name: exit $rc, want 2"
  grep -q -- "$pat" "$T/err" || { fail "merge $name: stderr lacks '$pat'"; cat "$T/err"; }
  [ -e "$T/out.json" ] && fail "merge $name: output written"
}
A=(mqar/dyadic -p n=2 -p c=4 --exhaustive)
for i in 0 1 2; do "$CZ" verify "${A[@]}" --shard "$i/3" --json "$T/p$i.json" >/dev/null 2>&1; done
"$CZ" verify mqar/dyadic -p n=2 -p c=5 --exhaustive --shard 1/3 --json "$T/other1.json" >/dev/null 2>&1
"$CZ" verify "${A[@]}" --json "$T/whole.json" >/dev/null 2>&1
refuse missing "shard 1/3 is missing" "$T/p0.json" "$T/p2.json"
refuse duplicate "given twice" "$T/p0.json" "$T/p1.json" "$T/p1.json" "$T/p2.json"
refuse foreign "a part of another run" "$T/p0.json" "$T/other1.json" "$T/p2.json"
refuse not-a-shard "not a shard report" "$T/whole.json"
python3 - "$T/p1.json" "$T/bad1.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); j["failed"] = j["instances"] + 1; json.dump(j, open(sys.argv[2], "w"))
PY
refuse tampered "inconsistent shard report" "$T/p0.json" "$T/bad1.json" "$T/p2.json"
refuse none "error:" 
"$CZ" verify "${A[@]}" --shard 3/3 >/dev/null 2>"$T/err"; [ $? = 2 ] && grep -q "want I/K" "$T/err" || fail "--shard 3/3 accepted"
"$CZ" verify --all --shard 0/2 >/dev/null 2>"$T/err"; [ $? = 2 ] || fail "--all --shard accepted"

# Checkpoints: kill -9 midway, resume, compare with an uninterrupted run.
# Under the sanitizers (CZ_SANITIZE, ~10x slower) an eighth of the samples still runs for seconds,
# long enough to be killed midway (tests/lean.h: the Release pass runs the full size).
SAMPLES=4000000
[ -n "${CZ_SANITIZE:-}" ] && [ -z "${CZ_TEST_FULL:-}" ] && SAMPLES=500000
C=(mqar/dyadic -p n=4 -p c=4 --samples "$SAMPLES" --threads 1 --block-size 4096 --scalar)
"$CZ" verify "${C[@]}" --no-timing --json "$T/full.json" >/dev/null 2>&1 || fail "checkpoint: uninterrupted run failed"
"$CZ" verify "${C[@]}" --no-timing --checkpoint "$T/ck.json" --checkpoint-every 1 --json "$T/resumed.json" >/dev/null 2>&1 &
pid=$!
done_until=0
for _ in $(seq 1 200); do  # until a checkpoint with progress exists (at most ~20 s)
  sleep 0.1
  done_until=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["done_until"])' "$T/ck.json" 2>/dev/null || echo 0)
  [ "$done_until" -gt 0 ] && break
done
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
total=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["instances"])' "$T/full.json")
if [ "$done_until" -le 0 ] || [ "$done_until" -ge "$total" ]; then
  fail "checkpoint: no midway checkpoint (done_until=$done_until of $total)"
fi
[ -e "$T/resumed.json" ] && fail "checkpoint: the killed run wrote its report"
"$CZ" verify "${C[@]}" --no-timing --checkpoint "$T/ck.json" --json "$T/resumed.json" >/dev/null 2>"$T/err"
[ $? = 2 ] && grep -q "add --resume" "$T/err" || fail "checkpoint: an existing checkpoint was not protected"
cp "$T/ck.json" "$T/ck-copy.json"
"$CZ" verify "${C[@]}" --no-timing --checkpoint "$T/ck.json" --resume --json "$T/resumed.json" >/dev/null 2>&1 \
  || fail "checkpoint: resumed run failed"
[ "$(strip "$T/full.json")" = "$(strip "$T/resumed.json")" ] || fail "checkpoint: resumed report differs"
"$CZ" verify mqar/dyadic -p n=4 -p c=5 --samples "$SAMPLES" --checkpoint "$T/ck-copy.json" --resume >/dev/null 2>"$T/err"
[ $? = 2 ] && grep -q "belongs to another run" "$T/err" || { fail "checkpoint: another run's checkpoint accepted"; cat "$T/err"; }
"$CZ" verify "${A[@]}" --resume >/dev/null 2>"$T/err"; [ $? = 2 ] || fail "--resume without --checkpoint accepted"
# A failing construction through a checkpoint: same counterexample.
F=(primitive/shift_up -p conv=causal -p N=6 -p range=2)
"$CZ" verify "${F[@]}" --no-timing --json "$T/f1.json" >/dev/null 2>&1
"$CZ" verify "${F[@]}" --no-timing --checkpoint "$T/fck.json" --json "$T/f2.json" >/dev/null 2>&1
[ "$(strip "$T/f1.json")" = "$(strip "$T/f2.json")" ] || fail "checkpoint: failing construction's report differs"

if [ $fails -gt 0 ]; then echo "$fails failure(s)"; exit 1; fi
echo "shards, merge and checkpoints: all checks passed"
