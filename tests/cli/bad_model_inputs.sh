#!/usr/bin/env bash
# The bad-input matrix of issue 36 (input side): model files and standard input too large for their
# shape or their kind, duplicate keys and unknown fields, weights outside the ring, NaN numbers,
# and values echoed whole in error lines. Rows as in bad_inputs.sh (tests/cli/matrix_lib.sh states
# what every row must do: exit code, one short "error: <what> (<where>)" line, nothing written,
# 10 s, 1 GB of address space; '|' separates fields, so a pipe is written `< <(producer)`). Kept apart from bad_inputs.sh so that each stays short.
# Usage: bad_model_inputs.sh path/to/circuitzoo
set -u
CZ=$(realpath "$1")
T=$(mktemp -d)
cleanup() { rm -rf "$T"; }
trap cleanup EXIT
IN="$T/in"
mkdir -p "$IN"
LONG=$(head -c 100000 /dev/zero | tr '\0' x)  # a 100,000-character name (item 14)
export CZ IN LONG
source "$(dirname "$0")/matrix_lib.sh"  # run_row, run_matrix, $rows, $fails

# ---- fixtures ----------------------------------------------------------------------------------
"$CZ" export primitive/shift_down -p N=4 -p d=1 -p s=1 --format model-json -o "$IN/m.json" 2>/dev/null || { echo "FAIL fixture m.json"; exit 1; }
python3 - "$IN" <<'PY' || { echo "FAIL fixtures"; exit 1; }
import copy, json, sys
d = sys.argv[1]
def dump(name, obj):
    json.dump(obj, open(f"{d}/{name}", "w"))
base = {"format": "circuitzoo.model/1", "N": 3, "inner_N": 3, "conv": "causal", "ring": "Q", "d": 1, "inner_d": 8}
ret = {"kind": "retnet", "heads": 1, "WQ": [[1, -1]], "WK": [[2, 1]], "WV": [[1, 3]], "WO": [[1], [-2]], "gamma": ["1/2"]}
dump("ret.json", dict(base, layers=[ret]))
dump("in3.json", {"input": [[1], [-2], [3]]})
dump("in4.json", {"input": [[5], [-7], [3], [2]]})
# item 1: 10,485,760 gammas (73 MB), and 700,000 (5 MB: under the size limit, refused by length)
text = json.dumps(dict(base, layers=[dict(ret, gamma=["@"])]))
open(f"{d}/ret_73mb.json", "w").write(text.replace('["@"]', "[" + ", ".join(['"1/2"'] * 10485760) + "]"))
open(f"{d}/ret_long.json", "w").write(text.replace('["@"]', "[" + ",".join(['"1/2"'] * 700000) + "]"))
# more values than a model file may hold (4Mi), in 10 MB of text
open(f"{d}/many_values.json", "w").write(text.replace('["@"]', "[" + ",".join(["0"] * 4300000) + "]"))
# item 20: a weight outside F_7; item 21: N != inner_N
dump("ret_fp7.json", dict(base, ring="Fp:7", layers=[dict(ret, gamma=["1/7"])]))
dump("ret_fp7_ok.json", dict(base, ring="Fp:7", layers=[dict(ret, gamma=["1/2"])]))
dump("ret_n3_inner4.json", dict(base, N=3, inner_N=4, layers=[ret]))
dump("bc_fp7.json", dict(json.load(open(f"{d}/m.json")), ring="Fp:7"))
m = json.load(open(f"{d}/bc_fp7.json")); m["layers"][0]["b2"][0][0] = "1/14"
dump("bc_fp7.json", m)
# item 22: unknown fields, duplicate keys (written as text: a dict holds a key once)
dump("ret_junk.json", dict(base, layers=[dict(ret, gama=["1/3"])]))
dump("bc_junk.json", dict(json.load(open(f"{d}/m.json")), layers=[dict(json.load(open(f"{d}/m.json"))["layers"][0], b3=[[0]])]))
t = json.dumps(dict(base, layers=[ret]))
open(f"{d}/dup_gamma.json", "w").write(t.replace('"gamma": ["1/2"]', '"gamma": ["1/2"], "gamma": ["1/3"]'))
open(f"{d}/dup_ring.json", "w").write(t.replace('"ring": "Q"', '"ring": "Q", "ring": "Z"'))
open(f"{d}/dup_config.json", "w").write('{"construction": "primitive/identity", "construction": "primitive/cumsum"}')
open(f"{d}/dup_input.json", "w").write('{"input": [[1], [2], [3], [4]], "input": [[0], [0], [0], [0]]}')
# item 12: K-matrix widths: 17 > 4n at n = 4, and 200,000 factors (50 MB)
def kmat(w, n=4):
    f = lambda: {"d1": [1] * (n // 2), "d2": [0] * (n // 2), "d3": [0] * (n // 2), "d4": [1] * (n // 2)}
    el = {"M1": [f(), f()], "M2": [f(), f()]}
    return {"kind": "kmatrix", "n": n, "e": 1, "elements": [el] * w}
km = {"format": "circuitzoo.model/1", "ring": "Q", "N": 2, "d": 4, "inner_N": 2, "inner_d": 4, "conv": "causal",
      "layers": [{"kind": "baseconv", "W": "@", "b1": [[0] * 4] * 2, "h": [[1] * 4] * 2, "b2": [[0] * 4] * 2}]}
t = json.dumps(km)
open(f"{d}/km_w16.json", "w").write(t.replace('"@"', json.dumps(kmat(16))))
open(f"{d}/km_w17.json", "w").write(t.replace('"@"', json.dumps(kmat(17))))
one = json.dumps(kmat(1)["elements"][0])
open(f"{d}/km_200k.json", "w").write(t.replace('"@"', json.dumps(kmat(1)).replace("[" + one + "]", "[" + ",".join([one] * 200000) + "]")))
# item 14: a 100,000-digit entry exported to npz; a --config construction of 100,000 characters
m = json.load(open(f"{d}/m.json")); m["layers"][0]["b2"][0][0] = "1" + "0" * 100000
dump("m_bigentry.json", m)
dump("long_config.json", {"construction": "y" * 100000})
# item 24: a NUL inside a --config string
dump("nul_config.json", {"construction": "prim\u0000itive/identity"})
PY
[ "$(stat -c %s "$IN/ret_73mb.json")" -gt 70000000 ] || { echo "FAIL fixture ret_73mb.json"; exit 1; }

# ---- the matrix --------------------------------------------------------------------------------
# name | rc | setup | command | check
MATRIX=$(cat <<'ROWS'
# item 1: a 73 MB model refused by its size (was: bad_alloc, SIGABRT after 11-20 s at 798 MB)
model-73mb-eval      | 2 | | $CZ eval --model $IN/ret_73mb.json --input $IN/in3.json | grep -q 'the limit for a model-json file' $ERRF
model-73mb-stats     | 2 | | $CZ stats --model $IN/ret_73mb.json | grep -q 'ret_73mb.json)$' $ERRF
model-73mb-export    | 2 | | $CZ export --model $IN/ret_73mb.json --format model-json -o x.json |
model-gamma-long     | 2 | | $CZ stats --model $IN/ret_long.json | grep -q 'expected 1 entries (one per head), got 700000 (.*layers\[0\]\.gamma)$' $ERRF
model-many-values    | 2 | | $CZ eval --model $IN/many_values.json --input $IN/in3.json | grep -q 'more than 4194304 JSON values' $ERRF
model-ok             | 0 | | $CZ eval --model $IN/ret.json --input $IN/in3.json | grep -q output $OUTF
# item 10: standard input as large as a file may be (was: exit 3, bad_alloc after 9-12 s at 535 MB)
stdin-yes-model      | 2 | | $CZ eval --model - --input $IN/in3.json < <(yes) | grep -q "cannot start with 'y' (-)" $ERRF
stdin-yes-input      | 2 | | $CZ eval --model $IN/m.json --input - < <(yes) | grep -q 'not an input file' $ERRF
stdin-yes-config     | 2 | | $CZ verify --config - < <(yes) | grep -q 'not a config file' $ERRF
stdin-yes-stats      | 2 | | $CZ stats --model - < <(yes) |
stdin-endless-array  | 2 | | $CZ stats --model - < <(printf '{"layers": ['; yes '1,') | grep -q 'more than 64.0 MB, the limit for a model-json file (-)' $ERRF
stdin-endless-config | 2 | | $CZ verify --config - < <(printf '{"params": {"a": "'; yes) | grep -q 'the limit for a config file' $ERRF
stdin-model-ok       | 0 | | $CZ eval --model - --input $IN/in3.json < $IN/ret.json | grep -q output $OUTF
# item 23: /dev/null and /dev/zero on standard input (was: "standard input is a terminal")
stdin-dev-null       | 2 | | $CZ stats --model - < /dev/null | grep -q 'empty input: not a model-json file (-)' $ERRF
stdin-dev-zero       | 2 | | $CZ eval --model $IN/m.json --input - < /dev/zero | grep -q 'NUL byte at offset 0: binary data, not an input file' $ERRF
stdin-blank          | 2 | | $CZ verify --config - < <(printf '  \n') | grep -q 'blank input' $ERRF
file-empty           | 2 | touch e.json | $CZ stats --model e.json | grep -q 'empty input' $ERRF
# item 5: NaN, inf and negative numbers (--timeout nan meant no limit)
timeout-nan          | 2 | | $CZ verify circuit/compare -p d=2 --method sat --timeout nan | grep -q 'finite' $ERRF
timeout-inf          | 2 | | $CZ verify circuit/compare -p d=2 --method sat --timeout inf |
timeout-negative     | 2 | | $CZ verify circuit/compare -p d=2 --method sat --timeout -1 |
timeout-hex          | 2 | | $CZ verify circuit/compare -p d=2 --method sat --timeout 0x10 |
power-a-nan-text     | 2 | | $CZ mqar-data --power-a NaN --inputs i.npy --labels l.npy | grep -q 'finite' $ERRF
# item 12: K-matrix width bounded (200,000 factors took 45 s and 969 MB, exit 0)
kmatrix-w16-ok       | 0 | | $CZ stats --model $IN/km_w16.json --json - | grep -q '"w": 16' $OUTF
kmatrix-w17          | 2 | | $CZ stats --model $IN/km_w17.json | grep -q 'width w = 17 (.* entries, about .*), above 4n = 16' $ERRF
kmatrix-w200000      | 2 | | $CZ stats --model $IN/km_200k.json |
# item 14: values quoted whole in error lines (50-200 KB); the matrix refuses lines of 400 bytes
long-construction    | 2 | | $CZ verify "$LONG" | grep -q 'unknown construction' $ERRF
long-stats           | 2 | | $CZ stats "$LONG" |
long-tasks           | 2 | | $CZ tasks "$LONG" | grep -q 'unknown task' $ERRF
long-task            | 2 | | $CZ verify --model $IN/m.json --task "$LONG" | grep -q 'unknown task' $ERRF
long-format          | 2 | | $CZ export primitive/identity --format "$LONG" -o x.json | grep -q 'unknown format' $ERRF
long-circuit-format  | 2 | | $CZ circuit $IN/m.json --from "$LONG" |
long-config-name     | 2 | | $CZ verify --config $IN/long_config.json | grep -q 'unknown construction' $ERRF
long-npz-entry       | 2 | | $CZ export --model $IN/m_bigentry.json --format npz -o x.npz | grep -q 'does not fit int64' $ERRF
long-param           | 2 | | $CZ verify primitive/identity -p "N=$LONG" |
long-max-memory      | 2 | | $CZ stats primitive/identity --max-memory "1$LONG" |
# item 20: a weight outside F_p refused on reading, naming the field (was: stats/export exit 0)
fp7-gamma-stats      | 2 | | $CZ stats --model $IN/ret_fp7.json | grep -q 'not in the model.s ring Fp:7 .*(.*ret_fp7.json.layers\[0\]\.gamma\[0\])$' $ERRF
fp7-gamma-export     | 2 | | $CZ export --model $IN/ret_fp7.json --format model-json -o x.json |
fp7-gamma-eval       | 2 | | $CZ eval --model $IN/ret_fp7.json --input $IN/in3.json | grep -q 'ret_fp7.json' $ERRF
fp7-baseconv-b2      | 2 | | $CZ stats --model $IN/bc_fp7.json | grep -q 'layers\[0\]\.b2)$' $ERRF
fp7-ok               | 0 | | $CZ eval --model $IN/ret_fp7_ok.json --input $IN/in3.json | grep -q output $OUTF
# item 21: an architecture layer needs N = inner_N
arch-n-inner-n       | 2 | | $CZ stats --model $IN/ret_n3_inner4.json | grep -q 'needs N = inner_N' $ERRF
# item 22: unknown fields and duplicate keys (was: accepted, last wins)
layer-unknown-field  | 2 | | $CZ stats --model $IN/ret_junk.json | grep -q "unknown field \"gama\" in a retnet layer .*did you mean 'gamma'" $ERRF
bc-unknown-field     | 2 | | $CZ eval --model $IN/bc_junk.json --input $IN/in4.json | grep -q 'unknown field "b3"' $ERRF
dup-gamma            | 2 | | $CZ stats --model $IN/dup_gamma.json | grep -q 'duplicate key "gamma" .*(.*dup_gamma.json.layers\[0\])$' $ERRF
dup-ring             | 2 | | $CZ eval --model $IN/dup_ring.json --input $IN/in3.json | grep -q 'duplicate key "ring"' $ERRF
dup-config           | 2 | | $CZ verify --config $IN/dup_config.json | grep -q 'duplicate key "construction"' $ERRF
dup-input            | 2 | | $CZ eval --model $IN/m.json --input $IN/dup_input.json | grep -q 'duplicate key "input"' $ERRF
# item 24: a NUL inside a --config string is shown escaped, not cut
config-nul           | 2 | | $CZ verify --config $IN/nul_config.json | grep -qF "unknown construction 'prim\\x00itive/identity'" $ERRF
ROWS
)

run_matrix "$MATRIX"
echo "bad_model_inputs: $rows rows, $fails failure(s)"
[ "$fails" = 0 ]
