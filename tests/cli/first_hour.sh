#!/usr/bin/env bash
# Issue 49 (a newcomer's first hour), the CLI rows: `list` says what a special default means and
# `list NAME [--json]` each parameter's meaning (item 9); a user's model on a zoology batch,
# `verify --model F --task mqar --from-npy` (item 13); mqar-data's config says why num_passes > 1
# is refused (item 16); user-facing text cites docs/theory.md, not documents the user lacks (item 8:
# shift_up's note, claims --help, mqar/dyadic's parameters).
set -u
BIN=$1
. "$(dirname "$0")/check_lib.sh"
PY=/usr/bin/python3

# ---- item 9: list, list NAME, list NAME --json ----
check list 0 "$BIN" list
out_has list-c0 "defaults: c=0: triples c = n, zoology c = N + 2"
out_has list-hint "circuitzoo list NAME"
check list-name 0 "$BIN" list mqar/dyadic
out_has list-name-head "^mqar/dyadic: Zoology Alg. 11"
out_has list-name-param "^    c=4 .*2..1048576; also vocab_size"
out_has list-name-help "vocabulary size (c >= n: keys are distinct)"
out_has list-name-when "p=2 .*only when encoding=phot"
check list-attention 0 "$BIN" list mqar/attention
out_has list-default-meaning "default c=0: triples c = n, zoology c = N + 2"
check list-name-json 0 "$BIN" list mqar/attention --json "$T/l.json"
json_eq list-name-json-keys "$T/l.json" \
  "j['name'] == 'mqar/attention' and [p['when'] for p in j['params'] if p['name'] == 'N'] == ['layout=zoology'] and all('help' in p and 'default' in p for p in j['params'])"
check list-unknown 2 "$BIN" list mqar/dyadc
err_has list-unknown-msg "^error: unknown construction 'mqar/dyadc' (see \`circuitzoo list\`); did you mean 'mqar/dyadic'?"

# ---- item 13: a user's model on a zoology batch ----
check data 0 "$BIN" mqar-data --vocab 16 --seq-len 8 --kv 2 --examples 20 --inputs "$T/i.npy" --labels "$T/l.npy"
check export-att 0 "$BIN" export mqar/attention -p layout=zoology -p N=8 -p c=16 -p kv=2 --format model-json -o "$T/att.json"
check byo-npy 0 "$BIN" verify --model "$T/att.json" --task mqar --from-npy "$T/i.npy" "$T/l.npy" --json "$T/r.json"
json_eq byo-npy-json "$T/r.json" \
  "j['verdict'] == 'verified' and j['domain'] == 'batch' and j['instances'] == 20 and j['task'] == 'mqar' and j['params']['layout'] == 'zoology' and j['params']['c'] == 16 and j['artifact']['from_npy'] == [sys.argv[1][:-6] + 'i.npy', sys.argv[1][:-6] + 'l.npy']"
# the same batch, the construction itself: the same count
check npy-builtin 0 "$BIN" verify mqar/attention --from-npy "$T/i.npy" "$T/l.npy" -p c=16 --json "$T/b.json"
json_eq npy-builtin-json "$T/b.json" "j['verdict'] == 'verified' and j['instances'] == 20"
# a broken model: refuted at a labelled position (exit 1, counterexample)
"$PY" -c "
import json, sys; m = json.load(open(sys.argv[1])); L = m['layers'][-1]
L['Wk'] = [[0] * len(r) for r in L['Wk']]; json.dump(m, open(sys.argv[2], 'w'))" "$T/att.json" "$T/bad.json"
check byo-npy-bad 1 "$BIN" verify --model "$T/bad.json" --task mqar --from-npy "$T/i.npy" "$T/l.npy"
err_has byo-npy-bad-msg "counterexample for .*bad.json (20 of 20 failed): position [0-9]*: label token [0-9]*, artifact answers"
# refusals, with the reason
check byo-npy-width 2 "$BIN" verify --model "$T/att.json" --task mqar --from-npy "$T/i.npy" "$T/l.npy" -p c=17
err_has byo-npy-width-msg "^error: the model takes 8×16 inputs; task mqar needs"
check byo-npy-task 2 "$BIN" verify --model "$T/att.json" --task shift_down --from-npy "$T/i.npy" "$T/l.npy"
err_has byo-npy-task-msg "^error: --from-npy checks a construction (verify NAME --from-npy) or a --model FILE against --task mqar"
check byo-npy-sat 2 "$BIN" verify --model "$T/att.json" --task mqar --from-npy "$T/i.npy" "$T/l.npy" --method sat
err_has byo-npy-sat-msg "^error: --from-npy checks the batch by exact evaluation, not --method sat (--method sat)"
check byo-npy-samples 2 "$BIN" verify --model "$T/att.json" --task mqar --from-npy "$T/i.npy" "$T/l.npy" --samples 5
err_has byo-npy-samples-msg "drop --exhaustive/--samples"

# ---- item 16: num_passes in a config file: refused, saying why ----
echo '{"vocab_size": 16, "input_seq_len": 8, "num_kv_pairs": 2, "num_examples": 2, "num_passes": 2}' >"$T/cfg.json"
check passes 2 "$BIN" mqar-data --config "$T/cfg.json" --inputs "$T/pi.npy" --labels "$T/pl.npy"
err_has passes-msg "only num_passes = 1 (zoology's default) is reproduced: zoology's multiquery_ar fails for num_passes > 1"

# ---- item 8: user-facing text cites docs/theory.md (which the user has), not the spec or issues ----
check shift-up-causal 1 "$BIN" verify primitive/shift_up -p conv=causal -p N=4 -p d=1 -p s=1
err_has shift-up-note "impossible under causal convolution (the causality lemma: docs/theory.md, \"Convolution modes\")"
if grep -q "spec §" "$T/out" "$T/err"; then echo "FAIL shift-up-spec: cites the spec"; fails=$((fails+1)); fi
check claims-help 0 "$BIN" claims --help
out_has claims-help-papers "every claim of the papers (Zoology, Based, JRT)"
if grep -q "spec §" "$T/out"; then echo "FAIL claims-help-spec: cites the spec"; fails=$((fails+1)); fi
check list-dyadic-cites 0 "$BIN" list mqar/dyadic
out_has list-dyadic-e1 "fixed (erratum E1, docs/theory.md)"
if grep -q "spec §\|(E1)" "$T/out"; then echo "FAIL list-dyadic-spec: cites the spec or a bare E1"; fails=$((fails+1)); fi

[ "$fails" = 0 ] && echo "first_hour: all passed" || { echo "first_hour: $fails failed"; exit 1; }
