#!/usr/bin/env bash
# The bad-input matrix (issue 9), through the real binary: crashes, hostile flags and files, and
# rows that must succeed (devices, FIFOs, symlinks, stdout); then signals during a write.
#
# Rows are "name | rc | setup | command | check", run by tests/cli/matrix_lib.sh, which states
# what every row must do (exit code, one "error: <what> (<where>)" line, nothing written, its own
# empty $TMPDIR, 10 s, 1 GB).
# Adding a row is adding one line. Usage: bad_inputs.sh path/to/circuitzoo
set -u
CZ=$(realpath "$1")
T=$(mktemp -d)
cleanup() { jobs -p | xargs -r kill 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
IN="$T/in"
mkdir -p "$IN"
export CZ IN
source "$(dirname "$0")/matrix_lib.sh"  # run_row, run_matrix, $rows, $fails

# ---- fixtures ----------------------------------------------------------------------------------
"$CZ" export primitive/shift_down -p N=4 -p d=1 -p s=1 --format model-json -o "$IN/m.json" 2>/dev/null || { echo "FAIL fixture m.json"; exit 1; }
echo '{"input": [[5],[-7],[3],[2]]}' > "$IN/in.json"
"$CZ" export primitive/identity -p N=2 -p d=1 --format circuit-json -o "$IN/c.json" 2>/dev/null || { echo "FAIL fixture c.json"; exit 1; }
"$CZ" mqar-data --examples 4 --inputs "$IN/i.npy" --labels "$IN/l.npy" 2>/dev/null || { echo "FAIL fixture npy"; exit 1; }
sed 's/"ring": *"Z"/"ring": "Fp:99999999999999999999999"/' "$IN/m.json" > "$IN/m_bigring.json"
grep -q 'Fp:9999' "$IN/m_bigring.json" || { echo "FAIL fixture m_bigring.json"; exit 1; }


# ---- the matrix --------------------------------------------------------------------------------
# name | rc | setup | command | check
MATRIX=$(cat <<'ROWS'
# crashes: mqar-data --power-a (wrote past a heap buffer), --threads (abort, division by zero)
power-a-500          | 2 | | $CZ mqar-data --power-a 500 --inputs i.npy --labels l.npy | grep -q -- '--power-a' $ERRF
power-a-inf          | 2 | | $CZ mqar-data --power-a inf --inputs i.npy --labels l.npy |
power-a-nan          | 2 | | $CZ mqar-data --power-a nan --inputs i.npy --labels l.npy |
power-a-1e308        | 2 | | $CZ mqar-data --power-a 1e308 --inputs i.npy --labels l.npy |
power-a-1e400        | 2 | | $CZ mqar-data --power-a 1e400 --inputs i.npy --labels l.npy |
power-a-negative     | 2 | | $CZ mqar-data --power-a -1 --inputs i.npy --labels l.npy |
power-a-zero         | 2 | | $CZ mqar-data --power-a 0 --inputs i.npy --labels l.npy |
power-a-text         | 2 | | $CZ mqar-data --power-a abc --inputs i.npy --labels l.npy |
power-a-2-ok         | 0 | | $CZ mqar-data --power-a 2 --examples 8 --inputs i.npy --labels l.npy | test -s i.npy && test -s l.npy
threads-100000       | 2 | | $CZ verify primitive/identity --threads 100000 | grep -q -- '--threads 100000' $ERRF
threads-2^32-1       | 2 | | $CZ verify primitive/identity --threads 4294967295 |
threads-2^26         | 2 | | $CZ verify primitive/identity --threads 67108864 |
threads-1025         | 2 | | $CZ verify primitive/identity --threads 1025 |
threads-negative     | 2 | | $CZ verify primitive/identity --threads -1 |
threads-text         | 2 | | $CZ verify primitive/identity --threads many |
threads-1024-ok      | 0 | | $CZ verify primitive/identity -p N=2 -p d=1 --threads 1024 |
threads-0-ok         | 0 | | $CZ verify primitive/identity -p N=2 -p d=1 --threads 0 |
circuit-threads-big  | 2 | | $CZ circuit $IN/c.json --equiv $IN/c.json --threads 100000 |
circuit-threads-neg  | 2 | | $CZ circuit $IN/c.json --equiv $IN/c.json --threads -3 |
circuit-threads-ok   | 0 | | $CZ circuit $IN/c.json --equiv $IN/c.json --threads 2 |
# output files: devices, FIFOs, symlinks, directories, same file as an input, two outputs
out-dev-null         | 0 | | $CZ export primitive/identity --format model-json -o /dev/null | test -c /dev/null
json-dev-null        | 0 | | $CZ verify primitive/identity --json /dev/null | test -c /dev/null
link-to-dev-null     | 0 | ln -s /dev/null out.json | $CZ stats primitive/identity --json out.json | test -L out.json && test -c /dev/null
out-dev-full         | 2 | | $CZ export primitive/identity --format model-json -o /dev/full | test -c /dev/full
json-dev-full        | 2 | | $CZ stats primitive/identity --json /dev/full | grep -q 'No space' $ERRF
out-new-under-dev    | 2 | | $CZ export primitive/identity --format model-json -o /dev/cz-no-such-node | test ! -e /dev/cz-no-such-node
json-dev-stdout      | 0 | | $CZ verify primitive/identity --json /dev/stdout | grep -q '"construction"' $OUTF
out-dash-stdout      | 0 | | $CZ export primitive/identity --format model-json -o - | grep -q circuitzoo.model $OUTF
circuit-out-dash     | 0 | | $CZ circuit $IN/c.json --to bristol -o - | test -s $OUTF
# --port-names (issue 26 item 4): a missing or unreadable names file, one of another shape, no --circuit
port-names-missing   | 2 | | $CZ verify --circuit $IN/c.json --port-names nope.json --task identity -p N=2 -p d=1 | grep -q 'nope.json' $ERRF
port-names-garbage   | 2 | printf '{"gates": 3' > g.json | $CZ verify --circuit $IN/c.json --port-names g.json --task identity -p N=2 -p d=1 | grep -q 'g.json' $ERRF
port-names-shape     | 2 | | $CZ verify --circuit $IN/c.json --port-names $IN/m.json --task identity -p N=2 -p d=1 |
port-names-no-circ   | 2 | | $CZ verify --model $IN/m.json --port-names $IN/c.json --task shift_down | grep -q -- '--port-names' $ERRF
port-names-ok        | 0 | | $CZ verify --circuit $IN/c.json --port-names $IN/c.json --task identity -p N=2 -p d=1 |
csv-dash-stdout      | 0 | | $CZ sweep primitive/cumsum --vary N=4,8 -p d=1 --csv - | grep -q '^N,' $OUTF
json-and-csv-stdout  | 2 | | $CZ sweep primitive/cumsum --vary N=4,8 -p d=1 --json - --csv - |
fifo-out             | 0 | mkfifo f; (timeout 10 cat f > got &) | $CZ stats primitive/identity --json f | test -p f
link-to-file         | 0 | echo old > target.json; ln -s target.json link.json | $CZ stats primitive/identity --json link.json | test -L link.json && grep -q '"construction"' target.json
link-dangling        | 2 | ln -s nowhere out.json | $CZ stats primitive/identity --json out.json | test -L out.json && test ! -e nowhere
json-directory       | 2 | mkdir d | $CZ verify primitive/identity --json d | grep -q 'is a directory' $ERRF
out-no-dir           | 2 | | $CZ export primitive/identity --format model-json -o no/such/dir/m.json |
json-empty           | 2 | | $CZ verify primitive/identity --json '' |
stats-json-empty     | 2 | | $CZ stats primitive/identity --json '' |
out-empty            | 2 | | $CZ export primitive/identity --format model-json -o '' |
csv-empty            | 2 | | $CZ sweep primitive/cumsum --vary N=4,8 --csv '' |
inputs-empty         | 2 | | $CZ mqar-data --inputs '' --labels l.npy |
eval-json-is-input   | 2 | cp $IN/m.json $IN/in.json . | $CZ eval --model m.json --input in.json --json ./in.json | cmp in.json $IN/in.json
eval-json-is-model   | 2 | cp $IN/m.json $IN/in.json . | $CZ eval --model m.json --input in.json --json $PWD/m.json | cmp m.json $IN/m.json
eval-json-link-input | 2 | cp $IN/m.json $IN/in.json .; ln -s in.json alias.json | $CZ eval --model m.json --input in.json --json alias.json | cmp in.json $IN/in.json
circuit-out-is-input | 2 | cp $IN/c.json . | $CZ circuit c.json --to circuit-json -o ./c.json | cmp c.json $IN/c.json
circuit-json-is-input| 2 | cp $IN/c.json . | $CZ circuit c.json --json c.json | cmp c.json $IN/c.json
circuit-out-is-json  | 2 | | $CZ circuit $IN/c.json --to bristol -o x.txt --json ./x.txt |
npy-json-is-input    | 2 | cp $IN/i.npy $IN/l.npy . | $CZ verify mqar/attention --from-npy i.npy l.npy --json i.npy | cmp i.npy $IN/i.npy
mqar-same-path       | 2 | | $CZ mqar-data --inputs x.npy --labels x.npy |
mqar-same-file       | 2 | | $CZ mqar-data --inputs x.npy --labels ./x.npy |
mqar-same-file-abs   | 2 | | $CZ mqar-data --inputs x.npy --labels $PWD/x.npy |
mqar-labels-no-dir   | 2 | | $CZ mqar-data --inputs ok.npy --labels no/dir/l.npy |
mqar-labels-is-dir   | 2 | mkdir d | $CZ mqar-data --inputs ok.npy --labels d |
mqar-inputs-dev-full | 2 | | $CZ mqar-data --inputs ok.npy --labels /dev/full |
sweep-csv-no-dir     | 2 | | $CZ sweep primitive/cumsum --vary N=4,8 -p d=1 --json ok.json --csv no/dir/x.csv |
sweep-same-file      | 2 | | $CZ sweep primitive/cumsum --vary N=4,8 -p d=1 --json s.out --csv ./s.out |
sweep-two-files-ok   | 0 | | $CZ sweep primitive/cumsum --vary N=4,8 -p d=1 --json s.json --csv s.csv | test -s s.json && test -s s.csv
# reading: devices, directories
eval-model-dev-zero  | 2 | | $CZ eval --model /dev/zero --input $IN/in.json | grep -q 'character device' $ERRF
eval-input-dev-zero  | 2 | | $CZ eval --model $IN/m.json --input /dev/zero |
circuit-dev-zero     | 2 | | $CZ circuit /dev/zero --from circuit-json |
npy-dev-zero         | 2 | | $CZ verify mqar/attention --from-npy /dev/zero /dev/zero |
eval-model-dir       | 2 | mkdir d | $CZ eval --model d --input $IN/in.json | grep -q 'is a directory' $ERRF
circuit-dir          | 2 | mkdir d.blif | $CZ circuit d.blif | grep -q 'is a directory' $ERRF
eval-model-missing   | 2 | | $CZ eval --model none.json --input $IN/in.json | grep -q 'cannot read' $ERRF
fifo-in              | 0 | cp $IN/c.json x; mkfifo f.json; (timeout 10 cp x f.json &) | $CZ circuit f.json | grep -q inputs $OUTF
# numbers: exit 2 with the flag and the value (was: exit 3, or wrapped, or accepted)
vocab-negative       | 2 | | $CZ mqar-data --vocab -1 --inputs i.npy --labels l.npy | grep -q -- '--vocab -1' $ERRF
vocab-2^64           | 2 | | $CZ mqar-data --vocab 18446744073709551616 --inputs i.npy --labels l.npy | grep -q -- '--vocab' $ERRF
vocab-huge           | 2 | | $CZ mqar-data --vocab 99999999999999999999999 --inputs i.npy --labels l.npy |
examples-negative    | 2 | | $CZ mqar-data --examples -5 --inputs i.npy --labels l.npy | grep -q -- '--examples -5' $ERRF
examples-zero        | 2 | | $CZ mqar-data --examples 0 --inputs i.npy --labels l.npy |
seq-len-negative     | 2 | | $CZ mqar-data --seq-len -2 --inputs i.npy --labels l.npy |
kv-text              | 2 | | $CZ mqar-data --kv 3x --inputs i.npy --labels l.npy |
mqar-seed-negative   | 2 | | $CZ mqar-data --seed -1 --inputs i.npy --labels l.npy |
mqar-seed-2^32       | 2 | | $CZ mqar-data --seed 4294967296 --inputs i.npy --labels l.npy |
samples-negative     | 2 | | $CZ verify primitive/identity --samples -1 | grep -q -- '--samples -1' $ERRF
samples-2^64         | 2 | | $CZ verify primitive/identity --samples 18446744073709551616 |
samples-zero         | 2 | | $CZ verify primitive/identity --samples 0 |
samples-float        | 2 | | $CZ verify primitive/identity --samples 1e3 |
seed-negative        | 2 | | $CZ verify primitive/identity --samples 5 --seed -1 | grep -q -- '--seed -1' $ERRF
seed-2^64            | 2 | | $CZ verify primitive/identity --samples 5 --seed 18446744073709551616 |
seed-max-ok          | 0 | | $CZ verify primitive/identity --samples 5 --seed 18446744073709551615 |
param-space          | 2 | | $CZ verify primitive/identity -p 'N= 4' | grep -q 'must be an integer' $ERRF
param-plus           | 2 | | $CZ verify primitive/identity -p N=+4 |
param-2^64           | 2 | | $CZ verify primitive/identity -p N=18446744073709551616 | grep -q 'must lie in' $ERRF
eval-ring-huge       | 2 | | $CZ eval --model $IN/m_bigring.json --input $IN/in.json | grep -q 'ring' $ERRF
# messages: the unknown subcommand named, raw bytes escaped, one line
unknown-subcommand   | 2 | | $CZ frobnicate | grep -q frobnicate $ERRF
unknown-subcmd-bytes | 2 | | $CZ $'fr\x01ob\xff' | grep -qF 'fr\x01ob\xff' $ERRF
name-bytes           | 2 | | $CZ verify $'prim\xff\xfe/x\x1b[31m' | grep -qF '\xff\xfe' $ERRF
name-newline         | 2 | | $CZ verify $'a\nb' | grep -qF 'a\x0ab' $ERRF
param-bytes          | 2 | | $CZ verify primitive/identity -p $'N=\xff\x00' |
flag-bytes           | 2 | | $CZ verify $'--\x01\xc3' |
model-bytes          | 2 | | $CZ eval --model $'\xff\x02.json' --input $IN/in.json | grep -qF '\xff\x02' $ERRF
# contract: --json with no value is stdout; a value after it is its PATH
list-json-novalue    | 0 | | $CZ list --json | test "$(head -c 1 $OUTF)" = '['
stats-json-novalue   | 0 | | $CZ stats primitive/identity --json | grep -q '"construction"' $OUTF
verify-json-novalue  | 0 | | $CZ verify primitive/identity --json | grep -q '"construction"' $OUTF
verify-json-last-opt | 0 | | $CZ verify primitive/identity --json --threads 2 | grep -q '"construction"' $OUTF
verify-json-dashdash | 0 | | $CZ verify --json -- primitive/identity | grep -q '"construction"' $OUTF
verify-json-eq-path  | 0 | | $CZ verify primitive/identity --json=r.json | grep -q '"construction"' r.json
verify-json-swallows | 2 | | $CZ verify --json primitive/identity | grep -q 'give one construction NAME' $ERRF
eval-json-novalue    | 0 | | $CZ eval --model $IN/m.json --input $IN/in.json --json | grep -q output $OUTF
ROWS
)

run_matrix "$MATRIX"

# ---- a signal during the write phase leaves no temporary file ---------------------------------
# sweep writes --json to its temporary file first, then opens the FIFO given to --csv, which
# blocks (no reader): the temporary file exists at that moment. The signal must remove it.
for sig in INT TERM; do
  rows=$((rows + 1))
  d="$T/sig.$sig"
  mkdir -p "$d"
  mkfifo "$d/f.csv"
  ( cd "$d" && exec "$CZ" sweep primitive/cumsum --vary N=4,8 -p d=1 --json s.json --csv f.csv ) >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 100); do ls "$d" | grep -q '\.tmp\.' && break; sleep 0.1; done
  ls "$d" | grep -q '\.tmp\.' || { echo "FAIL signal-$sig: no temporary file appeared"; fails=$((fails + 1)); kill "$pid"; wait "$pid"; continue; }
  kill -"$sig" "$pid"
  wait "$pid"
  rc=$?
  left=$(ls -A "$d" | grep -v '^f.csv$')
  if [ "$rc" -lt 128 ] || [ -n "$left" ]; then
    echo "FAIL signal-$sig: exit $rc (want death by signal), left behind: [$left]"
    fails=$((fails + 1))
  fi
done

echo "bad_inputs: $rows rows, $fails failure(s)"
[ "$fails" = 0 ]
