#!/usr/bin/env bash
# Hostile certificate directories and proof paths (issue 46 rows 7-12; contract.md "check-proof"):
#   7  an output that names an input: `check-proof P --json P/index.json` (or a proof file, a new
#      file in P, the same through a symbolic or hard link) and `verify --proof X --json X`: exit 2,
#      P unchanged, before any work;
#   8  a FIFO (or a directory) as the index, a CNF or a proof: exit 2 at once, never a hang (the
#      CLI and Python's check_proof);
#   9  mpirun -np 2 verify ... --proof P interrupted by SIGINT or SIGTERM to mpirun: no P.tmp-*, no P;
#  10  the index read with the limits of every reader: wrong types, unknown option values, a key
#      twice, deep nesting, 60 MB of '[', split variables that would wrap or round: exit 2 naming
#      the field;
#  11  sizes checked against the index before reading (a sparse 3 GB CNF is not read), a file named
#      by three entries read and kept once (it was read and kept three times), a 7-byte DRAT
#      naming variable 2^26 refused (past the CNF's variables and the proof's literals);
#  12  `--proof ''` refused; a certificate file that is a symbolic link (out of P) refused.
# Every row: under 10 s and 1 GB (matrix_lib.sh; no ulimit under a sanitizer).
# Usage: proof_dir_hostile.sh path/to/circuitzoo [HAVE_MPI] [PYTHON_MODULE_DIR]
set -u
CZ=$(realpath "$1")
HAVE_MPI="${2:-OFF}"
PYDIR="${3:-}"
[ -n "$PYDIR" ] && [ -d "$PYDIR" ] && PYDIR=$(realpath "$PYDIR")
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
cleanup() {
  jobs -p | xargs -r kill 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT
IN="$T/in"
mkdir -p "$IN"
C="circuit/compare -p d=2 --method sat"
"$CZ" verify $C --proof "$IN/cmp" >/dev/null || { echo "FAIL: the compare certificates were not written"; exit 1; }
"$CZ" verify $C --sat-cube-after 0 --sat-cube-bits 1 --proof "$IN/cubes" >/dev/null || { echo "FAIL: the cube certificates were not written"; exit 1; }
# ed DIR PYTHON: DIR/index.json after PYTHON (j: the index; fix(k, part, path): the size and hash of
# miters[k][part] made those of the file at path; a string `text` replaces the whole file).
cat >"$IN/ed.py" <<'PY'
import hashlib, json, os, sys
d, code = sys.argv[1], sys.argv[2]
ip = os.path.join(d, "index.json")
j = json.load(open(ip))
def fix(k, part, path):
    b = open(path, "rb").read()
    j["miters"][k][part]["bytes"] = len(b)
    j["miters"][k][part]["sha256"] = hashlib.sha256(b).hexdigest()
env = {"j": j, "text": None, "fix": fix, "d": d, "json": json}
exec(code, env)
open(ip, "w").write(env["text"] if env["text"] is not None else json.dumps(j, indent=1))
PY
ED="python3 $IN/ed.py"
export CZ IN C ED
source "$HERE/../cli/matrix_lib.sh"  # run_row, run_matrix, $rows, $fails

MATRIX=$(cat <<'ROWS'
# the fixture checks
honest               | 0 | cp -r $IN/cmp P | $CZ check-proof P --json r.json | grep -q '"verdict": "certified"' r.json
honest-cubes         | 0 | cp -r $IN/cubes P | $CZ check-proof P | grep -q 'certified' $OUTF
# row 7: an output that names an input (the index replaced by the report destroyed the certificate)
json-is-index        | 2 | cp -r $IN/cmp P | $CZ check-proof P --json P/index.json | grep -q 'into the certificate directory' $ERRF && cmp -s P/index.json $IN/cmp/index.json
json-is-proof        | 2 | cp -r $IN/cmp P | $CZ check-proof P --json P/miter-0.drat | cmp -s P/miter-0.drat $IN/cmp/miter-0.drat
json-is-cnf          | 2 | cp -r $IN/cmp P | $CZ check-proof P --json P/miter-0.cnf | cmp -s P/miter-0.cnf $IN/cmp/miter-0.cnf
json-new-in-dir      | 2 | cp -r $IN/cmp P | $CZ check-proof P --json P/r.json | [ ! -e P/r.json ]
json-dot-path        | 2 | cp -r $IN/cmp P && mkdir x | $CZ check-proof P --json x/../P/./index.json | cmp -s P/index.json $IN/cmp/index.json
json-symlink         | 2 | cp -r $IN/cmp P && ln -s P/index.json l.json | $CZ check-proof P --json l.json | cmp -s P/index.json $IN/cmp/index.json
json-dir-symlink     | 2 | cp -r $IN/cmp P && ln -s P Q | $CZ check-proof P --json Q/index.json | cmp -s P/index.json $IN/cmp/index.json
json-hardlink        | 2 | cp -r $IN/cmp P && ln P/miter-0.cnf h.cnf | $CZ check-proof P --json h.cnf | grep -q 'the same file under another name' $ERRF && cmp -s P/miter-0.cnf $IN/cmp/miter-0.cnf
json-shard-dir       | 2 | cp -r $IN/cmp P | $CZ check-proof $IN/cmp P --json P/index.json | cmp -s P/index.json $IN/cmp/index.json
verify-json-is-proof | 2 | | $CZ verify $C --proof X --json X | grep -q 'two outputs name the same file' $ERRF
# row 8: not a regular file: refused at once (a FIFO hung check-proof for ever)
fifo-index           | 2 | cp -r $IN/cmp P && rm P/index.json && mkfifo P/index.json | $CZ check-proof P | grep -q 'FIFO' $ERRF
fifo-cnf             | 2 | cp -r $IN/cmp P && rm P/miter-0.cnf && mkfifo P/miter-0.cnf | $CZ check-proof P | grep -q 'FIFO.*miter-0.cnf' $ERRF
fifo-proof           | 2 | cp -r $IN/cmp P && rm P/miter-1.drat && mkfifo P/miter-1.drat | $CZ check-proof P | grep -q 'FIFO.*miter-1.drat' $ERRF
dir-proof            | 2 | cp -r $IN/cmp P && rm P/miter-1.drat && mkdir P/miter-1.drat | $CZ check-proof P | grep -q 'is a directory' $ERRF
# row 10: one reader for the index: exit 2, the field named
cnf-number           | 2 | cp -r $IN/cmp P && $ED P 'j["miters"][1]["cnf"] = 5' | $CZ check-proof P | grep -q 'miters\[1\].cnf must be an object' $ERRF
cnf-null             | 2 | cp -r $IN/cmp P && $ED P 'j["miters"][0]["cnf"] = None' | $CZ check-proof P | grep -q 'miters\[0\].cnf must be an object' $ERRF
cnf-array            | 2 | cp -r $IN/cmp P && $ED P 'j["miters"][0]["cnf"] = [1]' | $CZ check-proof P | grep -q 'miters\[0\].cnf must be an object' $ERRF
file-number          | 2 | cp -r $IN/cmp P && $ED P 'j["miters"][0]["proof"]["file"] = 7' | $CZ check-proof P | grep -q 'miters\[0\].proof.file must be a string' $ERRF
bytes-string         | 2 | cp -r $IN/cmp P && $ED P 'j["miters"][0]["cnf"]["bytes"] = "124"' | $CZ check-proof P | grep -q 'miters\[0\].cnf.bytes must be a whole number' $ERRF
bytes-half           | 2 | cp -r $IN/cmp P && $ED P 'j["miters"][0]["cnf"]["bytes"] += 0.5' | $CZ check-proof P | grep -q 'miters\[0\].cnf.bytes' $ERRF
miter-string         | 2 | cp -r $IN/cmp P && $ED P 'j["miters"][0] = "x"' | $CZ check-proof P | grep -q 'miters\[0\] must be an object' $ERRF
params-number        | 2 | cp -r $IN/cmp P && $ED P 'j["run"]["params"]["d"] = 2' | $CZ check-proof P | grep -q 'run.params.d must be a string' $ERRF
strategy-bogus       | 2 | cp -r $IN/cmp P && $ED P 'j["run"]["options"]["strategy"] = "bogus"' | $CZ check-proof P | grep -q 'run.options.strategy must be one of' $ERRF
order-bogus          | 2 | cp -r $IN/cmp P && $ED P 'j["run"]["options"]["order"] = "bogus"' | $CZ check-proof P | grep -q 'run.options.order must be one of' $ERRF
zero-one-bogus       | 2 | cp -r $IN/cmp P && $ED P 'j["run"]["options"]["zero_one"] = "bogus"' | $CZ check-proof P | grep -q 'run.options.zero_one must be one of' $ERRF
split-bogus          | 2 | cp -r $IN/cmp P && $ED P 'j["run"]["options"]["split"] = "bogus"' | $CZ check-proof P | grep -q 'run.options.split must be one of' $ERRF
lemmas-string        | 2 | cp -r $IN/cmp P && $ED P 'j["run"]["options"]["lemmas"] = "no"' | $CZ check-proof P | grep -q 'run.options.lemmas must be true or false' $ERRF
key-twice            | 2 | cp -r $IN/cmp P && $ED P 'text = "{\"verdict\": \"x\", " + json.dumps(j)[1:]' | $CZ check-proof P | grep -q 'verdict' $ERRF
nest-300             | 2 | cp -r $IN/cmp P && $ED P 'j["x"] = json.loads("[" * 300 + "]" * 300)' | $CZ check-proof P | grep -q 'nested deeper' $ERRF
nest-100000          | 2 | cp -r $IN/cmp P && $ED P 'text = json.dumps(j)[:-1] + ", \"x\": " + "[" * 100000 + "]" * 100000 + "}"' | $CZ check-proof P | grep -q 'nested deeper' $ERRF
brackets-60MB        | 2 | mkdir P && python3 -c 'open("P/index.json", "w").write("[" * 60000000)' | $CZ check-proof P | grep -q 'nested deeper' $ERRF
split-var-wraps      | 2 | cp -r $IN/cubes P && $ED P 'j["splits"][0]["vars"][0] += 2**32' | $CZ check-proof P | grep -q 'splits\[0\].vars\[0\] must be a variable' $ERRF
split-var-half       | 2 | cp -r $IN/cubes P && $ED P 'j["splits"][0]["vars"][0] += 0.5' | $CZ check-proof P | grep -q 'splits\[0\].vars\[0\] must be a variable' $ERRF
split-cube-half      | 2 | cp -r $IN/cubes P && $ED P 'j["splits"][0]["cube"] = [1.5]' | $CZ check-proof P | grep -q 'splits\[0\].cube\[0\] must be a literal' $ERRF
split-cubes-number   | 2 | cp -r $IN/cubes P && $ED P 'j["splits"][0]["cubes"][0] = 3' | $CZ check-proof P | grep -q 'splits\[0\].cubes\[0\] must be a string' $ERRF
# row 11: sizes before reading (sparse files: no disk), each file one entry's, DRAT variables bounded
cnf-3GB-sparse       | 1 | cp -r $IN/cmp P && truncate -s 3G P/miter-0.cnf | $CZ check-proof P | grep -q 'do not match the sizes' $OUTF && [ $ELAPSED_MS -lt 5000 ]
bytes-over-4GiB      | 2 | cp -r $IN/cmp P && truncate -s 5G P/miter-0.cnf && $ED P 'j["miters"][0]["cnf"]["bytes"] = 5 << 30' | $CZ check-proof P | grep -q 'miters\[0\].cnf.bytes is .*over 4 GiB' $ERRF
one-file-thrice      | 2 | cp -r $IN/cmp P && truncate -s 380M P/z && $ED P 'import hashlib; h = hashlib.sha256(open("P/z", "rb").read()).hexdigest(); [j["miters"][k]["proof"].update(file="z", bytes=380 << 20, sha256=h) for k in range(3)]' | $CZ check-proof P | grep -q "binary DRAT: expected 'a' or 'd' at byte 0" $ERRF
drat-var-2^26        | 2 | cp -r $IN/cmp P && printf 'a\x80\x80\x80\x40\x00' >P/miter-0.drat && $ED P 'fix(0, "proof", "P/miter-0.drat")' | $CZ check-proof P | grep -q 'variable 67108864 is past the CNF' $ERRF
# row 12: --proof '' and a certificate file that is a symbolic link (out of DIR)
proof-empty          | 2 | | $CZ verify $C --proof '' | grep -q 'empty name' $ERRF
proof-link-out       | 2 | cp -r $IN/cmp P && mv P/miter-0.drat out.drat && ln -s ../out.drat P/miter-0.drat | $CZ check-proof P | grep -q 'symbolic link' $ERRF
index-link           | 2 | cp -r $IN/cmp P && mv P/index.json i.json && ln -s ../i.json P/index.json | $CZ check-proof P | grep -q 'symbolic link' $ERRF
ROWS
)
run_matrix "$MATRIX"

# ---- row 8 from Python: a FIFO in the directory is refused (check_proof hung, Ctrl-C ignored) ----
PY=/usr/bin/python3  # the interpreter the module is built for (python/circuitzoo/_build_info.py)
[ -x "$PY" ] || PY=python3
if [ -n "$PYDIR" ] && PYTHONPATH="$PYDIR" "$PY" -c 'import circuitzoo' >/dev/null 2>&1; then
  D="$T/py"
  mkdir -p "$D" && cp -r "$IN/cmp" "$D/P" && rm "$D/P/miter-0.drat" && mkfifo "$D/P/miter-0.drat"
  out=$(cd "$D" && PYTHONPATH="$PYDIR" timeout -k 2 20 "$PY" - "$D/P" 2>&1 <<'PY'
import sys
import circuitzoo as cz
try:
    cz.check_proof(sys.argv[1])
    print("no error")
except ValueError as e:
    print("refused:", e)
PY
)
  rows=$((rows + 1))
  case "$out" in
    *"refused:"*FIFO*) ;;
    *) echo "FAIL python-fifo: $out"; fails=$((fails + 1)) ;;
  esac
fi

# ---- row 9: mpirun -np 2 ... --proof P interrupted: nothing left ---------------------------------
# The event: P.tmp-<pid> appears (rank 0 made it); then the signal to mpirun, then its exit (polled,
# 30 s at most). A run of about a minute, so that it cannot end by itself first.
if [ "$HAVE_MPI" = ON ] && command -v mpirun >/dev/null 2>&1; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  for sig in INT TERM; do
    D="$T/mpi-$sig"
    mkdir -p "$D"
    rows=$((rows + 1))
    set -m  # the job its own process group, SIGINT not ignored (a background job's is, without job control)
    (cd "$D" && exec mpirun --oversubscribe -np 2 "$CZ" verify mqar/attention -p n=12 -p c=16 --method sat --threads 1 --proof "$D/P" >out 2>err) &
    pid=$!
    set +m
    for _ in $(seq 600); do
      compgen -G "$D/P.tmp-*" >/dev/null && break
      kill -0 $pid 2>/dev/null || break
      sleep 0.05
    done
    if ! compgen -G "$D/P.tmp-*" >/dev/null; then
      echo "FAIL mpi-$sig: P.tmp-* never appeared"; cat "$D/err"; fails=$((fails + 1)); kill -KILL -$pid 2>/dev/null; continue
    fi
    kill -$sig $pid
    for _ in $(seq 600); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
    if kill -0 $pid 2>/dev/null; then echo "FAIL mpi-$sig: mpirun still running 30 s after SIG$sig"; kill -KILL -$pid 2>/dev/null; fails=$((fails + 1)); fi
    wait $pid 2>/dev/null
    # the ranks end with mpirun or shortly after it: what they leave is final once none runs
    for _ in $(seq 200); do pgrep -f -- "--proof $D/P" >/dev/null || break; sleep 0.05; done
    left=$(cd "$D" && ls -A | grep -v -e '^out$' -e '^err$')
    [ -z "$left" ] || { echo "FAIL mpi-$sig: left behind after SIG$sig to mpirun: $left"; fails=$((fails + 1)); }
  done
else
  echo "proof_dir_hostile: the mpirun rows are skipped (no MPI backend or no mpirun)"
fi

echo "proof_dir_hostile: $rows rows, $fails failure(s)"
[ "$fails" = 0 ]
