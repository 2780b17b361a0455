# Binary AIGER (combinational) -> the same with one latch (next state = constant 0) for ABC's &sim.
import sys
data = open(sys.argv[1], 'rb').read()
nl = data.index(b'\n'); hdr = data[:nl].split(); M, I, L, O, A = map(int, hdr[1:6]); assert L == 0
pos = nl + 1
outs = []
for _ in range(O):
    e = data.index(b'\n', pos); outs.append(int(data[pos:e])); pos = e + 1
def shift(lit):  # vars > I move up by one (the latch is var I+1)
    return lit + 2 if (lit >> 1) > I else lit
ands = []
def get():
    global pos
    x = 0; sh = 0
    while True:
        ch = data[pos]; pos += 1
        x |= (ch & 0x7f) << sh; sh += 7
        if not ch & 0x80: return x
for k in range(A):
    lhs = 2 * (I + 1 + k); d0 = get(); d1 = get(); r0 = lhs - d0; r1 = r0 - d1
    ands.append((shift(r0), shift(r1)))
out = bytearray(b'aig %d %d 1 %d %d\n' % (M + 1, I, O, A))
out += b'0\n'  # latch next state
for o in outs: out += b'%d\n' % shift(o)
def put(x):
    while x & ~0x7f:
        out.append((x & 0x7f) | 0x80); x >>= 7
    out.append(x)
for k, (r0, r1) in enumerate(ands):
    lhs = 2 * (I + 2 + k); put(lhs - r0); put(r0 - r1)
out += b'c\nlatch added for ABC &sim\n'
open(sys.argv[2], 'wb').write(out)
