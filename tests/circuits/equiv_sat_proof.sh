#!/usr/bin/env bash
# `circuit A --equiv B --method sat --proof DIR` and `check-proof DIR` (2026-12-07, issue 47 item 4):
# the certificates of an equivalence proved by SAT sweeping, re-checked offline from the two files.
#   - circuit/sort 8x8 exported, and a restructured copy (tests/sat/double_aag.py; ABC's `strash;
#     dc2` when ABC is here): proved, DIR written (index "run": both files by path, format, size
#     and SHA-256), check-proof DIR certified (the re-done run: proved), exit 0;
#   - one byte of a DRAT file changed (index as it was), or every lemma's first literal flipped
#     with the index's size and hash updated (only the DRAT checker can tell): rejected, exit 1;
#   - a file changed after the run: exit 2 naming it; moved: exit 2 naming it, and `--circuits
#     FIRST SECOND` says where the files are now (certified);
#   - the same file twice: proved by structural hashing alone, DIR without miters, certified;
#   - a one-gate mutant: refuted with a witness (checked on both files), no DIR written;
#   - bad input (exit 2): --proof without --equiv by SAT, an existing DIR, an empty name,
#     --circuits for a construction's directory;
#   - ports by position (ABC without -s) matched again the same way by check-proof;
#   - Python: circuit(..., method="sat", proof=DIR) and check_proof(DIR) (when the module is built).
# Every file is written inside the scratch folder $T.
# Usage: equiv_sat_proof.sh path/to/circuitzoo [PYTHON_MODULE_DIR]
set -u
BIN=$(realpath "$1")
PYDIR="${2:-}"
[ -n "$PYDIR" ] && [ -d "$PYDIR" ] && PYDIR=$(realpath "$PYDIR")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../cli/check_lib.sh"
PY=/usr/bin/python3
cd "$T" || exit 1  # relative names, as typed: the index records each path as given
check export 0 "$BIN" export circuit/sort -p n=8 -p d=8 --format aiger -o s.aag
"$PY" "$HERE/../sat/double_aag.py" s.aag sx.aag || { echo "FAIL double_aag"; fails=$((fails+1)); }
cp sx.aag sx.orig

# Proved, the directory written, checked.
check proved 0 "$BIN" circuit s.aag --equiv sx.aag --method sat --proof P --json p.json
out_has proved-human "certificates: P/index.json"
json_eq proved-json p.json "j['equiv']['verdict'] == 'proved' and j['equiv']['method'] == 'sat-sweep' and j['equiv']['sat']['certificates']['dir'] == 'P' and j['equiv']['sat']['certificates']['entries'] > 0"
json_eq proved-index P/index.json "j['format'] == 'circuitzoo-sat-certificates/1' and j['verdict'] == 'proved' and j['run']['what'] == 'circuit equivalence of files s.aag and sx.aag' and j['run']['equivalence']['first']['path'] == 's.aag' and j['run']['equivalence']['second']['format'] == 'aiger' and j['run']['equivalence']['second']['sha256'] == __import__('hashlib').sha256(open('sx.aag', 'rb').read()).hexdigest() and j['run']['equivalence']['first']['bytes'] == len(open('s.aag', 'rb').read()) and len(j['miters']) > 0 and all(m['answer'] in ('UNSAT', 'SAT') for m in j['miters'])"
check check-proof 0 "$BIN" check-proof P --json c.json
out_has check-proof-human "circuit equivalence of files s.aag and sx.aag  certified"
out_has check-proof-run "the re-encoded run: proved"
json_eq check-proof-json c.json "j['verdict'] == 'certified' and j['run_verdict'] == 'proved' and j['method'] == 'sat-sweep' and j['equivalence']['second']['path'] == 'sx.aag' and len(j['miters']) > 0 and all(m['verdict'] == 'certified' for m in j['miters'])"
check check-proof-threads 0 "$BIN" check-proof P --threads 2
# The same run writes the same bytes, whatever the threads.
check same-bytes 0 "$BIN" circuit s.aag --equiv sx.aag --method sat --threads 1 --proof P0
diff -r P P0 >/dev/null || { echo "FAIL same-bytes: P and P0 differ"; fails=$((fails+1)); }

# One byte of a DRAT file changed, the index left as it was: rejected, exit 1.
cp -r P P1
"$PY" - P1 <<'PYEOF' || { echo "FAIL byte"; fails=$((fails+1)); }
import json, os, sys
d = sys.argv[1]
idx = json.load(open(os.path.join(d, "index.json")))
e = max((m for m in idx["miters"] if m["answer"] == "UNSAT"), key=lambda m: m["proof"]["bytes"])
p = os.path.join(d, e["proof"]["file"])
b = bytearray(open(p, "rb").read())
b[len(b) // 2] ^= 0x01
open(p, "wb").write(bytes(b))
PYEOF
check drat-byte 1 "$BIN" check-proof P1
out_has drat-byte-rejected "REJECTED"
out_has drat-byte-verdict "  rejected  "
# Every lemma's first literal flipped, the index's size and hash made the new file's: only our DRAT
# checker can tell, and does.
cp -r P P2
"$PY" "$HERE/../sat/cert_tamper.py" P2 flip || { echo "FAIL tamper"; fails=$((fails+1)); }
check drat-flip 1 "$BIN" check-proof P2 --json f.json
json_eq drat-flip-json f.json "j['verdict'] == 'rejected' and any(m['verdict'].startswith('rejected') for m in j['miters'])"

# A file changed after the run: exit 2 naming it (the certificates are of the file as it was).
printf 'c\nchanged after the run\n' >>sx.aag
check changed 2 "$BIN" check-proof P
err_has changed-msg "changed since the run"
err_has changed-names "(sx.aag)"
cp sx.orig sx.aag
# Moved: exit 2 naming the recorded path; --circuits says where the files are now.
mkdir moved && mv s.aag moved/s.aag && cp sx.orig moved/other.aag
check moved 2 "$BIN" check-proof P
err_has moved-names "(s.aag)"
err_has moved-hint "--circuits"
check moved-circuits 0 "$BIN" check-proof P --circuits moved/s.aag moved/other.aag --json mv.json
json_eq moved-json mv.json "j['verdict'] == 'certified' and j['equivalence']['first']['read_from'] == 'moved/s.aag' and j['equivalence']['first']['path'] == 's.aag'"
check moved-swapped 2 "$BIN" check-proof P --circuits moved/other.aag moved/s.aag
err_has moved-swapped-msg "changed since the run"
check moved-one 2 "$BIN" check-proof P --circuits moved/s.aag
cp moved/s.aag s.aag

# The same file twice: one strashed AIG proves it, no solver answer to keep; still certified.
check strash 0 "$BIN" circuit s.aag --equiv s.aag --method sat --proof H --json h.json
json_eq strash-json h.json "j['equiv']['method'] == 'strash' and j['equiv']['sat']['certificates']['dir'] == 'H'"
json_eq strash-index H/index.json "j['miters'] == []"
check strash-check 0 "$BIN" check-proof H
out_has strash-check-human "certified  (0 certificates; the re-encoded run: proved)"

# A one-gate mutant: refuted with a witness both files were evaluated on; no directory (its
# certificate is the counterexample in the report).
"$PY" "$HERE/../sat/mutate_aag.py" sx.aag m.aag gate 700 || { echo "FAIL mutate"; fails=$((fails+1)); }
check refuted 1 "$BIN" circuit s.aag --equiv m.aag --method sat --proof R --json r.json
json_eq refuted-json r.json "j['equiv']['verdict'] == 'refuted' and j['equiv']['counterexample']['first'] != j['equiv']['counterexample']['second'] and j['equiv']['sat']['certificates'] == {'dir': None, 'entries': 0}"
[ ! -e R ] && [ -z "$(ls -d R.tmp-* 2>/dev/null)" ] || { echo "FAIL refuted-no-dir: $(ls -d R*)"; fails=$((fails+1)); }

# Bad input: exit 2, one error line, nothing written.
check no-equiv 2 "$BIN" circuit s.aag --proof B1
err_has no-equiv-msg "error: --proof DIR keeps the certificates of --equiv FILE by SAT"
check enumerate 2 "$BIN" circuit s.aag --equiv sx.aag --method enumerate --proof B2
check samples 2 "$BIN" circuit s.aag --equiv sx.aag --samples 5 --proof B3
check exists 2 "$BIN" circuit s.aag --equiv sx.aag --method sat --proof P
err_has exists-msg "exists already"
check empty 2 "$BIN" circuit s.aag --equiv sx.aag --method sat --proof ''
check stdout 2 "$BIN" circuit s.aag --equiv sx.aag --method sat --proof -
check json-is-dir 2 "$BIN" circuit s.aag --equiv sx.aag --method sat --proof B4 --json B4
[ -z "$(ls -d B1 B2 B3 B4 B4.tmp-* 2>/dev/null)" ] || { echo "FAIL bad input left files"; fails=$((fails+1)); }
# The index's file entries are read like every field of an index: typed, never waited on.
cp -r P P3
"$PY" -c "import json; p = 'P3/index.json'; j = json.load(open(p)); j['run']['equivalence']['first']['format'] = 'zip'; json.dump(j, open(p, 'w'))"
check index-format 2 "$BIN" check-proof P3
err_has index-format-msg "run.equivalence.first.format must be one of"
cp -r P P4 && mkfifo fifo
"$PY" -c "import json; p = 'P4/index.json'; j = json.load(open(p)); j['run']['equivalence']['second']['path'] = 'fifo'; json.dump(j, open(p, 'w'))"
check index-fifo 2 timeout -k 2 20 "$BIN" check-proof P4
err_has index-fifo-msg "not a regular file"
# The recorded sweep (index "sweeps", issue 48): check-proof rebuilds the final round from its pairs.
# Without it the re-run counts the sweep as not equal (a directory of before sweeps ran under
# --proof DIR): nothing certifies the equivalence. A pair outside the files: exit 2. A pair that
# does not hold: its miter has no certificate in the directory: rejected.
json_eq sweeps-recorded P/index.json "len(j['sweeps']) == 1 and j['sweeps'][0]['equal'] and len(j['sweeps'][0]['pairs']) > 0 and len(j['sweeps'][0]['names']) == len(j['miters'])"
cp -r P P5
"$PY" -c "import json; p = 'P5/index.json'; j = json.load(open(p)); del j['sweeps']; json.dump(j, open(p, 'w'))"
check sweeps-removed 1 "$BIN" check-proof P5
cp -r P P6
"$PY" -c "import json; p = 'P6/index.json'; j = json.load(open(p)); w = j['sweeps'][0]; w['pairs'].append([w['first_b'] - 1, 0]); json.dump(j, open(p, 'w'))"
check sweeps-outside 2 "$BIN" check-proof P6
err_has sweeps-outside-msg "is not one of the second circuit's"
cp -r P P7
"$PY" -c "import json; p = 'P7/index.json'; j = json.load(open(p)); w = j['sweeps'][0]; w['pairs'][0][1] ^= 1; json.dump(j, open(p, 'w'))"
check sweeps-wrong-pair 1 "$BIN" check-proof P7
check construction-dir 0 "$BIN" verify circuit/compare -p d=2 --method sat --proof C
check circuits-on-construction 2 "$BIN" check-proof C --circuits s.aag sx.aag
err_has circuits-on-construction-msg "a circuit equivalence run"

# ABC's own restructuring, when ABC is here (binary AIGER both sides).
ABC=$(command -v berkeley-abc || command -v yosys-abc || true)
if [ -n "$ABC" ]; then
  check export-bin 0 "$BIN" export circuit/sort -p n=8 -p d=8 --format aiger-binary -o s.aig
  "$ABC" -c "read_aiger s.aig; strash; dc2; write_aiger -s s2.aig" >/dev/null 2>&1 || { echo "FAIL abc"; fails=$((fails+1)); }
  check abc-proved 0 "$BIN" circuit s.aig --equiv s2.aig --method sat --proof A
  check abc-check 0 "$BIN" check-proof A --json a.json
  json_eq abc-check-json a.json "j['verdict'] == 'certified' and j['equivalence']['first']['format'] == 'aiger-binary'"
  # Without -s ABC drops the names: ports by position, and check-proof matches them the same way.
  "$ABC" -c "read_aiger s.aig; strash; dc2; write_aiger s3.aig" >/dev/null 2>&1 || { echo "FAIL abc nameless"; fails=$((fails+1)); }
  check abc-position 0 "$BIN" circuit s.aig --equiv s3.aig --method sat --proof AP --json ap.json
  json_eq abc-position-json ap.json "j['equiv']['ports'] == {'inputs': 'by position', 'outputs': 'by position'}"
  check abc-position-check 0 "$BIN" check-proof AP
fi

# Python: the same through circuit(..., proof=DIR) and check_proof(DIR).
if [ -n "$PYDIR" ] && PYTHONPATH="$PYDIR" "$PY" -c 'import circuitzoo' >/dev/null 2>&1; then
  PYTHONPATH="$PYDIR" "$PY" - <<'PYEOF' || { echo "FAIL python"; fails=$((fails+1)); }
import os
import circuitzoo as cz
r = cz.circuit("s.aag", equiv="sx.aag", method="sat", proof="PP")
assert r["equiv"]["verdict"] == "proved" and r["equiv"]["sat"]["certificates"]["dir"] == "PP", r["equiv"]
c = cz.check_proof("PP")
assert c["verdict"] == "certified" and c["run_verdict"] == "proved", c
c = cz.check_proof("PP", circuits=("moved/s.aag", "moved/other.aag"))
assert c["verdict"] == "certified", c
r = cz.circuit("s.aag", equiv="m.aag", method="sat", proof="PR")
assert r["equiv"]["verdict"] == "refuted" and not os.path.exists("PR"), r["equiv"]
try:
    cz.circuit("s.aag", equiv="sx.aag", method="sat", proof="")
    raise SystemExit("proof='' was taken")
except ValueError:
    pass
PYEOF
fi
[ "$fails" = 0 ] && echo "equiv_sat_proof: all passed" || { echo "equiv_sat_proof: $fails failed"; exit 1; }
