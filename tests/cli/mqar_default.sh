#!/bin/bash
# random_non_queries has one default, false, in all three entry points (issue 39): `mqar-data` without
# the flag, `mqar-data --config` with a file that does not state it, and Python's `mqar_data()` give
# the same batch, which is zoology's multiquery_ar(random_non_queries=False) byte for byte
# (tests/tasks/test_npy_zoology.cpp). Stating true (flag, file or keyword) gives the noisy batch, whose
# labels are the same and whose inputs differ only at filler positions.
# usage: mqar_default.sh CIRCUITZOO PYTHON_MODULE_DIR    (exit 77 when the Python module is not built)
set -u
CZ=$1 PYDIR=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails+1)); }
A="--vocab 66 --seq-len 64 --kv 8 --examples 20 --seed 4"
"$CZ" mqar-data $A --inputs "$T/cli_i.npy" --labels "$T/cli_l.npy" >/dev/null || fail "cli"
"$CZ" mqar-data $A --random-non-queries --inputs "$T/noisy_i.npy" --labels "$T/noisy_l.npy" >/dev/null || fail "cli noisy"
echo "{\"vocab_size\": 66, \"input_seq_len\": 64, \"num_kv_pairs\": 8, \"num_examples\": 20, \"seed\": 4,
 \"inputs\": \"$T/cfg_i.npy\", \"labels\": \"$T/cfg_l.npy\"}" >"$T/c.json"
"$CZ" mqar-data --config "$T/c.json" >/dev/null || fail "config"
cmp -s "$T/cli_i.npy" "$T/cfg_i.npy" && cmp -s "$T/cli_l.npy" "$T/cfg_l.npy" || fail "--config's default differs from the command line's"
cmp -s "$T/cli_i.npy" "$T/noisy_i.npy" && fail "the noisy batch equals the default one (the comparison cannot tell them apart)"
if ! PYTHONPATH="$PYDIR" /usr/bin/python3 -c "import circuitzoo" 2>/dev/null; then
  echo "Python module not importable from $PYDIR: command line and --config agree ($fails failures); Python not checked"
  [ "$fails" = 0 ] && exit 77 || exit 1
fi
PYTHONPATH="$PYDIR" /usr/bin/python3 - "$T" <<'PY' || fail "python"
import inspect, sys
import numpy as np
import circuitzoo as cz
t = sys.argv[1]
cli_i, cli_l = np.load(f"{t}/cli_i.npy"), np.load(f"{t}/cli_l.npy")
noisy_i, noisy_l = np.load(f"{t}/noisy_i.npy"), np.load(f"{t}/noisy_l.npy")
i, l = cz.mqar_data(vocab_size=66, input_seq_len=64, num_kv_pairs=8, num_examples=20, seed=4)
assert np.array_equal(np.asarray(i), cli_i) and np.array_equal(np.asarray(l), cli_l), "Python's default differs from the CLI's"
ni, nl = cz.mqar_data(vocab_size=66, input_seq_len=64, num_kv_pairs=8, num_examples=20, seed=4, random_non_queries=True)
assert np.array_equal(np.asarray(ni), noisy_i) and np.array_equal(np.asarray(nl), noisy_l), "Python's True differs from the CLI's flag"
assert np.array_equal(noisy_l, cli_l), "labels must not depend on random_non_queries"
changed = noisy_i != cli_i
assert changed.any() and (cli_i[changed] == 0).all(), "noise must touch fillers (0 in the default batch) only"
print(f"python: default = CLI = --config ({cli_i.shape}), True = the noisy batch ({int(changed.sum())} fillers changed)")
PY
[ "$fails" = 0 ] && echo "mqar_default: all checks passed"
exit $((fails > 0))
