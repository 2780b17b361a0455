#!/usr/bin/env python3
"""Tampers with a `verify --method sat --proof DIR` directory (issue 38 tests): cert_tamper.py DIR MODE.
Modes (each on the UNSAT entry with the largest proof, and the index's size and SHA-256 updated
so that only the checker can notice, unless the mode ends in -nohash):
  drop-lemma   the second half of the DRAT proof's non-empty lemmas removed (one lemma alone may
               be redundant: tests/sat/test_drat_check.cpp removes them one at a time)
  flip         the first literal of every lemma negated
  drop-clause  the last clause of the CNF removed (header count fixed)
  swap-cnf     miters[0] names miters[1]'s CNF file (with its size and hash)
  flip-nohash  as flip, the index left as it was
  bad-drat     the proof replaced by bytes no DRAT reader takes
  drop-cube    (cubes) the first cube's entry taken out of the index, its files removed
  split-short  (cubes) the first split's list of cubes without its last cube
  unsplit      (cubes) the first split taken out of the index (its cubes' entries kept)
  no-blocks    run.options.blocks taken out (an index written before --sat-blocks)
  no-pbs-facts run.options.pbs_facts taken out (an index written before issue 48's order facts)"""
import hashlib, json, os, sys

d, mode = sys.argv[1], sys.argv[2]
ipath = os.path.join(d, "index.json")
idx = json.load(open(ipath))
if mode in ("drop-cube", "split-short", "unsplit", "no-blocks", "no-pbs-facts"):
    if mode == "no-blocks":
        del idx["run"]["options"]["blocks"]
    elif mode == "no-pbs-facts":
        del idx["run"]["options"]["pbs_facts"]
    elif mode == "drop-cube":
        c = next(m for m in idx["miters"] if "cube" in m)
        idx["miters"].remove(c)
        for k in ("cnf", "proof", "model"):
            if k in c: os.remove(os.path.join(d, c[k]["file"]))
    elif mode == "split-short":
        idx["splits"][0]["cubes"].pop()
    else:
        idx["splits"].pop(0)
    json.dump(idx, open(ipath, "w"), indent=2)
    sys.exit(0)
unsat = [m for m in idx["miters"] if m["answer"] == "UNSAT"]
e = max(unsat, key=lambda m: m["proof"]["bytes"])


def steps(b):  # binary DRAT -> [(kind, [lits])]
    out, i = [], 0
    while i < len(b):
        k, i, lits = chr(b[i]), i + 1, []
        while True:
            u = sh = 0
            while True:
                x = b[i]; i += 1
                u |= (x & 0x7F) << sh; sh += 7
                if not x & 0x80: break
            if u == 0: break
            lits.append(-(u >> 1) if u & 1 else u >> 1)
        out.append((k, lits))
    return out


def enc(st):
    b = bytearray()
    for k, lits in st:
        b += k.encode()
        for l in lits + [0]:
            u = 2 * abs(l) + (l < 0)
            while u >= 0x80:
                b.append(u & 0x7F | 0x80); u >>= 7
            b.append(u)
    return bytes(b)


def rewrite(entry, key, data, rehash=True):
    open(os.path.join(d, entry[key]["file"]), "wb").write(data)
    if rehash:
        entry[key]["bytes"] = len(data)
        entry[key]["sha256"] = hashlib.sha256(data).hexdigest()


proof = open(os.path.join(d, e["proof"]["file"]), "rb").read()
if mode in ("drop-lemma", "flip", "flip-nohash"):
    st = steps(proof)
    adds = [i for i, (k, l) in enumerate(st) if k == "a" and l]
    if mode == "drop-lemma":
        gone = set(adds[len(adds) // 2:])
        st = [x for i, x in enumerate(st) if i not in gone]
    else:
        for i in adds:
            st[i][1][0] = -st[i][1][0]
    rewrite(e, "proof", enc(st), mode != "flip-nohash")
elif mode == "drop-clause":
    lines = open(os.path.join(d, e["cnf"]["file"])).read().splitlines()
    head = [i for i, l in enumerate(lines) if l.startswith("p cnf")][0]
    _, _, v, c = lines[head].split()
    lines[head] = "p cnf %s %d" % (v, int(c) - 1)
    lines.pop()
    rewrite(e, "cnf", ("\n".join(lines) + "\n").encode())
elif mode == "swap-cnf":
    idx["miters"][0]["cnf"] = dict(idx["miters"][1]["cnf"])
elif mode == "bad-drat":
    rewrite(e, "proof", b"a\x02")
else:
    sys.exit("unknown mode " + mode)
json.dump(idx, open(ipath, "w"), indent=2)
