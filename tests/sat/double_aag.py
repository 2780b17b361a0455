#!/usr/bin/env python3
import sys
# Every AND lhs = r0 & r1 of an ASCII AIGER file rebuilt as lhs = r0 & t, t = r0 & r1 (t a new
# variable, definitions renumbered in order): the same function, every AND another node of a
# strashed AIG. A third argument: the last two outputs swapped (another function).
src, dst = sys.argv[1], sys.argv[2]
L = open(src).read().split('\n')
M, I, Lt, O, A = map(int, L[0].split()[1:6])
assert Lt == 0
ins, outs = L[1:1 + I], L[1 + I:1 + I + O]
ands, rest = L[1 + I + O:1 + I + O + A], L[1 + I + O + A:]
var = {v: v for v in range(I + 1)}
lit = lambda l: 2 * var[l >> 1] + (l & 1)
new = []
for k, line in enumerate(ands):
    lhs, r0, r1 = map(int, line.split())
    t, v = I + 1 + 2 * k, I + 2 + 2 * k
    new += [f"{2 * t} {lit(r0)} {lit(r1)}", f"{2 * v} {lit(r0)} {2 * t}"]
    var[lhs >> 1] = v
outs = [str(lit(int(o))) for o in outs]
if len(sys.argv) > 3:
    outs[-1], outs[-2] = outs[-2], outs[-1]
open(dst, 'w').write('\n'.join([f"aag {I + 2 * A} {I} 0 {O} {2 * A}"] + ins + outs + new + rest))
