#!/usr/bin/env bash
# The --method sat frontier (issue 27): for each size, one `verify --method sat` run at a time with
# a 10-minute limit; prints size, verdict, instances, miters run and wall seconds, one line each.
#   bench/sat_frontier.sh BUILD_DIR [LIMIT_S] -- NAME:k=v,k=v ...
# e.g. bench/sat_frontier.sh build 600 -- mqar/dyadic:n=8,c=64 mqar/dyadic:n=16,c=16 circuit/sort:n=16,d=4
# A run that ends undecided (exit 4) prints which miter ran out of time. Run it alone: the times
# are wall clock and every solver process competes for the same cores.
# With no sizes: the circuit/sort rows of issue 27's stage-wise proof (0-1 principle, the default
# strategy there): 32x8 (the goal), 64x8, 64x16, 128x8, 100x8, 256x8, 512x8, both networks; then
# mqar/dyadic's circuit by stages (queries=sorted, the default) at n=16 c=64 (the goal; binary,
# one-hot, variant=merge), n=32 c=64 and n=32 c=1024; its compiled model (artifact=model,
# queries=each: per-layer bounds proved by SAT) at n=4 c=16 and n=8 c=16.
set -u
B=${1:?build dir}; LIMIT=${2:-600}
shift 2 || true
[ "${1:-}" = "--" ] && shift
if [ $# = 0 ]; then
  set --
  for nd in n=32,d=8 n=64,d=8 n=64,d=16 n=128,d=8 n=100,d=8 n=256,d=8 n=512,d=8; do
    for net in oddeven bitonic; do set -- "$@" "circuit/sort:$nd,network=$net"; done
  done
  for x in n=16,c=64 n=16,c=64,encoding=onehot n=16,c=64,variant=merge n=32,c=64 n=32,c=1024; do
    set -- "$@" "mqar/dyadic:$x"
  done
  for nc in n=4,c=16 n=8,c=16; do set -- "$@" "mqar/dyadic:artifact=model,queries=each,$nc"; done
fi
T=$(mktemp); trap 'rm -f "$T"' EXIT
for c in "$@"; do
  name=${c%%:*}; ps=${c#*:}; args=()
  [ "$ps" != "$c" ] && for kv in ${ps//,/ }; do args+=(-p "$kv"); done
  t0=$(date +%s.%N)
  "$B/circuitzoo" verify "$name" "${args[@]}" --method sat --timeout "$LIMIT" --json - >"$T" 2>/dev/null
  rc=$?
  t1=$(date +%s.%N)
  python3 - "$c" "$rc" "$t0" "$t1" "$T" <<'PY'
import json, sys
c, rc, t0, t1 = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
try:
    j = json.load(open(sys.argv[5]))
except Exception:
    print(f"{c:34} exit {rc}"); sys.exit()
s = j["sat"]
extra = (" — " + s["undecided"]) if "undecided" in s else ""
if s.get("method"):  # circuit/sort by stages: the 0-1 check's method and time
    z = s["stages"].get("zero_one", {})
    extra += f"  [{s['method']}: {s['stages']['comparators']} comparators, 0-1 {z.get('method')} {z.get('seconds', 0):.2f} s]"
print(f"{c:34} {j['verdict']:9} {str(j['instances']):>32} instances  {s['miters_run']}/{s['miters']} miters  "
      f"max {s['cnf']['max_clauses']} clauses  {t1 - t0:7.1f} s{extra}")
PY
done
