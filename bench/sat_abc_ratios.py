#!/usr/bin/env python3
"""Our SAT proofs against ABC's, on the same files in the same run, with the ratios (issue 48 item 5).

  bench/sat_abc_ratios.py BUILD_DIR [--case KIND:NAME:k=v,k=v ...] [--timeout S] [--abc-timeout S]
                          [--repeat R] [--abc PATH] [--process]

Case kinds:
  pair:NAME:PARAMS   the construction exported as binary AIGER (A.aig) and ABC's restructuring of
                     it (`read_aiger A.aig; strash; dc2; write_aiger -s B.aig`, names kept). ABC:
                     `cec A.aig B.aig`. Ours: `circuit A.aig --equiv B.aig --method sat` (the same
                     question), and `verify --circuit B.aig --task T --method sat` where the
                     construction has a task (sort; mqar/dyadic as task mqar): B against the
                     task's checker (SAT-swept to the construction, then its stages).
  miter:NAME:PARAMS  the naive miter of issue 27: `verify NAME --method sat --sat-split whole
                     --sat-cnf DIR` writes DIR/miter-0.aig (the construction and the reference
                     checker as one AIG, output `bad`). ABC: `iprove` and `&cec -m` on it. Ours:
                     `verify NAME --method sat` as a user runs it (default strategy).
Every time is the wall clock of the whole process (reading files included, for ABC and for us),
best of --repeat, on this machine in this run; ratio = ABC's time / ours (>= 1: ours no slower).
A run past its limit prints ">LIMIT" and the ratio is a bound. --process: ours also with
CZ_SAT_INPROCESS=0 (CaDiCaL as one process per miter, as before issue 48), the same run.
Default cases: the issue's table rows (sort 16x8 and 32x8 after dc2, mqar/dyadic n=16 c=64 after
dc2, the naive miter of mqar/dyadic n=8 c=16: its ABC runs take minutes, hence --abc-timeout).
Not a test (ctest does not run it); it needs berkeley-abc (Debian) or --abc.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

DEFAULT_CASES = ["pair:circuit/sort:n=16,d=8", "pair:circuit/sort:n=32,d=8", "pair:mqar/dyadic:n=16,c=64",
                 "miter:mqar/dyadic:n=8,c=16"]


def timed(cmd, timeout, env=None):
    """(seconds or None past the limit, exit code, stdout)."""
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout, env=env)
        return time.monotonic() - t0, p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        return None, None, ""


def best(cmd, timeout, repeat, env=None):
    """Best of `repeat` runs: (seconds or None, exit code, stdout of the best)."""
    res = (None, None, "")
    for _ in range(repeat):
        s, rc, out = timed(cmd, timeout, env)
        if s is not None and (res[0] is None or s < res[0]):
            res = (s, rc, out)
        if s is None:
            break  # past the limit once: again would be too
    return res


def abc_verdict(out):
    if "NOT EQUIVALENT" in out or "SATISFIABLE" in out.replace("UNSATISFIABLE", ""):
        return "refuted"
    if "equivalent" in out or "UNSATISFIABLE" in out:
        return "proved"
    return "?"


def our_verdict(rc):
    return {0: "proved", 1: "refuted", 4: "undecided"}.get(rc, f"exit {rc}")


def fmt_s(s, limit):
    return f"{s:9.2f}" if s is not None else f"{'>' + str(int(limit)):>9}"


def ratio(abc_s, ours_s, abc_limit):
    if ours_s is None:
        return "      -"
    if abc_s is None:
        return f">{abc_limit / ours_s:.1f}x"
    return f"{abc_s / ours_s:6.2f}x"


def task_args(name, params):
    """verify --circuit B --task T ... for a construction that has a task, else None."""
    kv = dict(p.split("=", 1) for p in params)
    if name == "circuit/sort":
        return ["--task", "sort"]
    if name == "mqar/dyadic":
        return ["--task", "mqar", "-p", f"n={kv['n']}", "-p", f"c={kv['c']}", "-p", f"encoding={kv.get('encoding', 'binary')}"]
    return None


def row(label, what, abc_s, abc_v, ours_s, ours_v, a):
    print(f"{label:34} {what:30} {fmt_s(abc_s, a.abc_timeout)} {abc_v:>14} {fmt_s(ours_s, a.timeout)} {ours_v:>9} "
          f"{ratio(abc_s, ours_s, a.abc_timeout):>8}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("--case", action="append", help="pair:NAME:k=v,k=v or miter:NAME:k=v,k=v (repeatable)")
    ap.add_argument("--timeout", type=float, default=600, help="our runs' limit (s)")
    ap.add_argument("--abc-timeout", type=float, default=300, help="ABC's runs' limit (s)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--abc", default=shutil.which("berkeley-abc") or shutil.which("yosys-abc"))
    ap.add_argument("--process", action="store_true", help="ours also with CZ_SAT_INPROCESS=0 (a solver process per miter)")
    a = ap.parse_args()
    cz = os.path.abspath(os.path.join(a.build, "circuitzoo"))
    if not os.access(cz, os.X_OK):
        sys.exit(f"{cz}: not built")
    if not a.abc:
        sys.exit("ABC is not on PATH (Debian: apt-get install berkeley-abc) and --abc was not given")
    modes = [("", None)]
    if a.process:
        modes.append((" [process]", dict(os.environ, CZ_SAT_INPROCESS="0")))
    print(f"{'case':34} {'ours':30} {'ABC s':>9} {'ABC':>14} {'ours s':>9} {'verdict':>9} {'ABC/ours':>8}")
    for case in a.case or DEFAULT_CASES:
        kind, _, rest = case.partition(":")
        name, _, ps = rest.partition(":")
        params = [kv for kv in ps.split(",") if kv]
        pflags = sum((["-p", kv] for kv in params), [])
        label = f"{name} {' '.join(params)}"
        tmp = tempfile.mkdtemp(prefix="cz-satabc-")
        try:
            if kind == "pair":
                A, B = os.path.join(tmp, "a.aig"), os.path.join(tmp, "b.aig")
                subprocess.run([cz, "export", name, *pflags, "--format", "aiger-binary", "-o", A], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                subprocess.run([a.abc, "-c", f"read_aiger {A}; strash; dc2; write_aiger -s {B}"], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                abc_s, _, out = best([a.abc, "-c", f"cec {A} {B}"], a.abc_timeout, a.repeat)
                abc_v = abc_verdict(out) if abc_s is not None else "limit"
                label += " dc2"
                for tag, env in modes:
                    s, rc, _ = best([cz, "circuit", A, "--equiv", B, "--method", "sat", "--timeout", str(a.timeout)],
                                    a.timeout + 30, a.repeat, env)
                    row(label, "circuit --equiv" + tag, abc_s, "cec:" + abc_v, s, our_verdict(rc) if s is not None else "limit", a)
                    t = task_args(name, params)
                    if t:
                        s, rc, _ = best([cz, "verify", "--circuit", B, *t, "--method", "sat", "--timeout", str(a.timeout)],
                                        a.timeout + 30, a.repeat, env)
                        row(label, "verify --circuit B" + tag, abc_s, "cec:" + abc_v, s,
                            our_verdict(rc) if s is not None else "limit", a)
            elif kind == "miter":
                # The one-miter AIG (nothing is solved: --timeout 0.001 stops before the solver).
                subprocess.run([cz, "verify", name, *pflags, "--method", "sat", "--sat-split", "whole", "--sat-cnf", tmp,
                                "--timeout", "0.001"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                aig = os.path.join(tmp, "miter-0.aig")
                if not os.path.exists(aig):
                    print(f"{label:34} (no miter written)")
                    continue
                abc = []
                for cmd, tag in ((f"read_aiger {aig}; iprove", "iprove"), (f"&r {aig}; &cec -m", "&cec-m")):
                    s, _, out = best([a.abc, "-c", cmd], a.abc_timeout, a.repeat)
                    abc.append((tag, s, abc_verdict(out) if s is not None else "limit"))
                for tag, env in modes:
                    s, rc, _ = best([cz, "verify", name, *pflags, "--method", "sat", "--timeout", str(a.timeout)],
                                    a.timeout + 30, a.repeat, env)
                    for atag, abc_s, abc_v in abc:
                        row(label + " naive miter", "verify (default)" + tag, abc_s, f"{atag}:{abc_v}", s,
                            our_verdict(rc) if s is not None else "limit", a)
            else:
                sys.exit(f"--case {case}: the kind must be pair or miter")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
