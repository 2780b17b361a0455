#!/bin/sh
# CLI behaviour of the MQAR additions through the real binary: `mqar-data` writes zoology's batch
# as two .npy files (nothing on bad input), and `verify NAME --from-npy INPUTS LABELS` checks an
# MQAR construction on it (exit 0 verified, 1 counterexample, 2 usage/input error).
set -u
CZ="$1"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() {  # expect CODE CMD...: runs CMD, checks its exit code
  want=$1; shift
  "$@" > "$T/out" 2> "$T/err"
  got=$?
  [ "$got" = "$want" ] || { cat "$T/out" "$T/err"; fail "exit $got, want $want: $*"; }
}

expect 0 "$CZ" mqar-data --vocab 34 --seq-len 32 --kv 4 --examples 40 --seed 3 --inputs "$T/in.npy" --labels "$T/lab.npy"
[ -s "$T/in.npy" ] && [ -s "$T/lab.npy" ] || fail "mqar-data wrote no files"
expect 0 "$CZ" verify mqar/attention --from-npy "$T/in.npy" "$T/lab.npy"
grep -q "batch" "$T/out" || fail "no batch domain in the table"
expect 0 "$CZ" verify mqar/autocorrelation --from-npy "$T/in.npy" "$T/lab.npy" --json "$T/r.json"
grep -q '"batch_reference_label_disagreements": 0' "$T/r.json" || fail "report lacks the reference/label count"
# the paper's row stacking loses answers under causal convolution (Errata E2): a counterexample
expect 1 "$CZ" verify mqar/autocorrelation -p variant=paper --from-npy "$T/in.npy" "$T/lab.npy"
# usage and input errors: exit 2, `error: what (where)`
expect 2 "$CZ" verify mqar/attention --from-npy "$T/in.npy"
expect 2 "$CZ" verify mqar/attention --from-npy "$T/in.npy" "$T/missing.npy"
grep -q "^error: .*(.*missing.npy)" "$T/err" || fail "missing file not named"
expect 2 "$CZ" verify mqar/attention --from-npy "$T/in.npy" "$T/lab.npy" -p N=30
expect 2 "$CZ" verify mqar/attention --from-npy "$T/in.npy" "$T/lab.npy" -p c=10
expect 2 "$CZ" verify primitive/identity --from-npy "$T/in.npy" "$T/lab.npy"
expect 2 "$CZ" verify mqar/attention --from-npy "$T/in.npy" "$T/in.npy" --samples 3
printf 'not numpy' > "$T/bad.npy"
expect 2 "$CZ" verify mqar/attention --from-npy "$T/bad.npy" "$T/lab.npy"
expect 2 "$CZ" mqar-data --vocab 32 --seq-len 32 --inputs "$T/x.npy" --labels "$T/y.npy"   # zoology: vocab > N
[ ! -e "$T/x.npy" ] && [ ! -e "$T/y.npy" ] || fail "files written on bad input"
expect 2 "$CZ" verify mqar/autocorrelation -p layout=zoology --exhaustive
# zoology's own vocabulary (8192) would make a one-hot model 3c = 24576 channels wide: refused, not OOM
expect 0 "$CZ" mqar-data --examples 2 --inputs "$T/big_in.npy" --labels "$T/big_lab.npy"
expect 2 "$CZ" verify mqar/attention --from-npy "$T/big_in.npy" "$T/big_lab.npy"
grep -q "channels wide" "$T/err" || fail "no width message"
echo "mqar cli: ok"
