#!/usr/bin/env python3
# Output mutants of an ASCII AIGER file, by output name (issue 46 items 1 and 2):
#   mutate_aag.py SRC DST flip NAME...   each named output negated (its literal XOR 1)
#   mutate_aag.py SRC DST dup NAME       a second output with the same name and the negated
#                                        literal, appended after the others
#   mutate_aag.py SRC DST dupfirst NAME  the same, the negated copy placed first
#   mutate_aag.py SRC DST gate K         AND gate K's first input negated (a one-gate mutant)
import sys

src, dst, op, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
L = open(src).read().split('\n')
M, I, Lt, O, A = map(int, L[0].split()[1:6])
ins, outs = L[1:1 + I + Lt], L[1 + I + Lt:1 + I + Lt + O]
ands, rest = L[1 + I + Lt:][O:O + A], L[1 + I + Lt + O + A:]
syms = [l for l in rest if l[:1] in ('i', 'l', 'o')]
tail = [l for l in rest if l[:1] not in ('i', 'l', 'o')]
oname = {}
for l in syms:
    if l[0] == 'o':
        k, nm = l[1:].split(' ', 1)
        oname[nm] = int(k)
for nm in names if op != 'gate' else []:
    assert nm in oname, f"no output named {nm}"
if op == 'gate':
    k = int(names[0]) % A
    lhs, r0, r1 = map(int, ands[k].split())
    ands[k] = f"{lhs} {r0 ^ 1} {r1}"
elif op == 'flip':
    for nm in names:
        k = oname[nm]
        outs[k] = str(int(outs[k]) ^ 1)
elif op in ('dup', 'dupfirst'):
    k = oname[names[0]]
    neg = str(int(outs[k]) ^ 1)
    osyms = [(int(l[1:].split(' ', 1)[0]), l[1:].split(' ', 1)[1]) for l in syms if l[0] == 'o']
    pairs = [(outs[i], dict(osyms).get(i)) for i in range(O)]
    pairs = pairs + [(neg, names[0])] if op == 'dup' else [(neg, names[0])] + pairs
    outs = [p[0] for p in pairs]
    syms = [l for l in syms if l[0] != 'o'] + [f"o{i} {p[1]}" for i, p in enumerate(pairs) if p[1] is not None]
    O += 1
else:
    sys.exit(f"unknown op {op}")
open(dst, 'w').write('\n'.join([f"aag {M} {I} {Lt} {O} {A}"] + ins + outs + ands + syms + tail))
