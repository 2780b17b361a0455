#!/usr/bin/env python3
"""verify --method sat against the naive baseline of issue 27, in the same run, with the ratios.

  bench/sat_ratios.py BUILD_DIR [--case NAME:k=v,k=v ...] [--timeout S] [--repeat R] [-- extra verify flags]

The naive baseline (issue 27, "Benchmarks and targets"): the construction's exported AIGER joined
with a direct reference circuit into ONE miter (all outputs), Tseitin-encoded plainly (3 clauses
per AND, no folding beyond the AIG's own) and given to CaDiCaL. Here the one-miter AIG is what
`verify --method sat --sat-split whole --sat-cnf DIR` writes (DIR/miter-0.aig: the artifact's
AIG, the same cells `export --format aiger` writes, and the reference checker of circuits/reference/,
output `bad`); this script does the Tseitin encoding itself, so the baseline shares nothing with
our encoder. Ours: `verify NAME --method sat` as a user runs it (default flags, wall clock of the
whole process). Both are timed wall clock on the same machine in the same run, best of --repeat.
Default cases: mqar/dyadic n=8 c=16 (target: ours <= 5 s and >= 8x the baseline), and the two
published variants that must be refuted (variant=paper, erratum E1; prefix=lsb, E6).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

DEFAULT_CASES = ["mqar/dyadic:n=8,c=16", "mqar/dyadic:n=8,c=16,variant=paper", "mqar/dyadic:n=8,c=16,prefix=lsb"]


def read_aiger(path):
    """Binary AIGER (aig) or ASCII (aag): (maxvar, inputs, outputs, ands[(lhs, rhs0, rhs1)])."""
    data = open(path, "rb").read()
    nl = data.index(b"\n")
    hdr = data[:nl].split()
    kind = hdr[0].decode()
    M, I, L, O, A = (int(x) for x in hdr[1:6])
    if L:
        raise SystemExit(f"{path}: latches are not expected in a miter")
    pos = nl + 1
    lines = data[pos:].split(b"\n")
    if kind == "aag":
        ins = [int(lines[k]) for k in range(I)]
        outs = [int(lines[I + k]) for k in range(O)]
        ands = [tuple(int(t) for t in lines[I + O + k].split()) for k in range(A)]
        return M, ins, outs, ands
    ins = [2 * (k + 1) for k in range(I)]
    outs = []
    for _ in range(O):
        e = data.index(b"\n", pos)
        outs.append(int(data[pos:e]))
        pos = e + 1

    def num():
        nonlocal pos
        x, sh = 0, 0
        while True:
            b = data[pos]
            pos += 1
            x |= (b & 0x7F) << sh
            if b < 0x80:
                return x
            sh += 7

    ands = []
    for k in range(A):
        lhs = 2 * (I + L + k + 1)
        r0 = lhs - num()
        r1 = r0 - num()
        ands.append((lhs, r0, r1))
    return M, ins, outs, ands


def tseitin(aig, cnf_path):
    """Plain Tseitin of the AIG, asserting its single output ("bad") true."""
    M, ins, outs, ands = aig
    const_var = M + 1  # variable fixed false: AIGER literal 0 / 1

    def lit(a):
        v = a >> 1
        x = const_var if v == 0 else v
        return -x if a & 1 else x

    clauses = [f"{-const_var} 0"]
    for lhs, r0, r1 in ands:
        z, a, b = lhs >> 1, lit(r0), lit(r1)
        clauses += [f"{-z} {a} 0", f"{-z} {b} 0", f"{z} {-a} {-b} 0"]
    assert len(outs) == 1, "one miter output"
    clauses.append(f"{lit(outs[0])} 0")
    with open(cnf_path, "w") as f:
        f.write(f"p cnf {const_var} {len(clauses)}\n")
        f.write("\n".join(clauses) + "\n")
    return const_var, len(clauses)


def timed(cmd, timeout):
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
        return time.monotonic() - t0, p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        return None, None, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("--case", action="append", help="NAME:k=v,k=v (repeatable)")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("extra", nargs="*", help="after --: extra flags for our verify run")
    a = ap.parse_args()
    cz = os.path.join(a.build, "circuitzoo")
    cadical = shutil.which("cadical") or sys.exit("cadical is not on PATH")
    print(f"{'case':46} {'baseline s':>10} {'vars':>7} {'clauses':>8} {'ours s':>8} {'verdict':>9} {'ratio':>7}")
    for case in a.case or DEFAULT_CASES:
        name, _, ps = case.partition(":")
        params = sum((["-p", kv] for kv in ps.split(",") if kv), [])
        tmp = tempfile.mkdtemp(prefix="cz-satbench-")
        try:
            # The one-miter AIG (nothing is solved here: --timeout 0.001 stops before the solver).
            subprocess.run([cz, "verify", name, *params, "--method", "sat", "--sat-split", "whole", "--sat-cnf", tmp,
                            "--timeout", "0.001"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            aig = os.path.join(tmp, "miter-0.aig")
            if not os.path.exists(aig):
                print(f"{case:46} (no miter written)")
                continue
            nv, nc = tseitin(read_aiger(aig), os.path.join(tmp, "base.cnf"))
            base, ours, verdict = [], [], "?"
            for _ in range(a.repeat):
                s, rc, _ = timed([cadical, "-q", os.path.join(tmp, "base.cnf")], a.timeout)
                base.append(s)
                s, rc, out = timed([cz, "verify", name, *params, "--method", "sat", "--timeout", str(a.timeout), *a.extra],
                                   a.timeout + 30)
                ours.append(s)
                verdict = {0: "proved", 1: "refuted", 4: "undecided"}.get(rc, f"exit {rc}")
            b = min((x for x in base if x is not None), default=None)
            o = min((x for x in ours if x is not None), default=None)
            bs = f"{b:10.2f}" if b is not None else f"{'>' + str(int(a.timeout)):>10}"
            os_ = f"{o:8.2f}" if o is not None else f"{'>' + str(int(a.timeout)):>8}"
            ratio = f"{b / o:6.1f}x" if b and o else ("  >" + f"{a.timeout / o:.1f}x" if o else "      -")
            print(f"{case:46} {bs} {nv:7d} {nc:8d} {os_} {verdict:>9} {ratio:>7}", flush=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
