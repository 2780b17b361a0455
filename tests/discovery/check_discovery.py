#!/usr/bin/env python3
"""Guard: the ctest entries of the doctest binaries run exactly the suite's test cases.

usage: check_discovery.py [--ctest CTEST] [--dir DIR] BINARY...

Reads the ctest entries of DIR (default: the current directory) with `ctest --show-only=json-v1`
and each BINARY's cases with `BINARY --list-test-cases`, applies doctest's own filter rules
(--test-case=, comma-separated with '\\,' escapes, '*' and '?' wildcards, case-insensitive), and
fails (exit 1), naming each offender, when
  - a ctest entry of a doctest binary matches no test case (it would run zero cases and pass:
    doctest_discover_tests splits a name at ';', so "a; b" becomes entries "a" and " b");
  - a test case is run by no ctest entry;
  - a ctest entry matches several cases (duplicate or wildcard names: names must be unique);
  - two ctest entries share a name, or a ctest entry runs a doctest binary not named here;
  - a binary lists no test case at all.
"""
import argparse
import json
import os
import subprocess
import sys

SEPARATOR = "=" * 79


def list_cases(binary):
    out = subprocess.run([binary, "--list-test-cases"], check=True,
                         capture_output=True, text=True).stdout
    # The console reporter prints '[doctest] ...' header/footer lines and separators around the
    # names, one name per line (the same parsing as doctestAddTests.cmake, minus its ';' split).
    return [line for line in out.split("\n")
            if line and line != SEPARATOR and not line.startswith("[doctest] ")]


def parse_filters(value):
    """doctest's parseCommaSepArgs: split at ',' unless escaped as '\\,' ('\\\\' is a backslash)."""
    res, cur, i = [], [], 0
    while i < len(value):
        c = value[i]
        if c == "\\" and i + 1 < len(value) and value[i + 1] in ",\\":
            cur.append(value[i + 1])
            i += 2
            continue
        if c == ",":
            if cur:
                res.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    if cur:
        res.append("".join(cur))
    return res


def wildcmp(s, pattern, case_sensitive):
    """doctest's wildcmp: '*' any run, '?' any character, everything else literal."""
    if not case_sensitive:
        s, pattern = s.lower(), pattern.lower()
    # iterative glob match with backtracking on the last '*'
    si = pi = 0
    star, mark = -1, 0
    while si < len(s):
        if pi < len(pattern) and (pattern[pi] == "?" or pattern[pi] == s[si]):
            si, pi = si + 1, pi + 1
        elif pi < len(pattern) and pattern[pi] == "*":
            star, mark, pi = pi, si, pi + 1
        elif star >= 0:
            pi, mark = star + 1, mark + 1
            si = mark
        else:
            return False
    while pi < len(pattern) and pattern[pi] == "*":
        pi += 1
    return pi == len(pattern)


def option_value(args, names):
    """doctest's parseCommaSepArgs for each spelling in names ('test-case', 'tc'): the last non-empty
    '--name=value' / '-name=value' of each spelling, joined; None when no spelling is given."""
    vals = []
    for n in names:
        val = None
        for a in args:
            for prefix in ("--" + n + "=", "-" + n + "=", "--dt-" + n + "=", "-dt-" + n + "="):
                if a.startswith(prefix) and len(a) > len(prefix):
                    val = a[len(prefix):]
        if val is not None:
            vals.append(val)
    return ",".join(vals) if vals else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ctest", default="ctest")
    ap.add_argument("--dir", default=".")
    ap.add_argument("binaries", nargs="+")
    opt = ap.parse_args()

    listing = subprocess.run([opt.ctest, "--show-only=json-v1"], cwd=opt.dir, check=True,
                             capture_output=True, text=True).stdout
    entries = json.loads(listing)["tests"]
    problems = []

    seen = {}
    for e in entries:
        seen[e["name"]] = seen.get(e["name"], 0) + 1
    for name, n in sorted(seen.items()):
        if n > 1:
            problems.append(f"ctest name {name!r} is used by {n} entries (names must be unique)")

    binaries = {os.path.realpath(b): b for b in opt.binaries}
    by_binary = {b: [] for b in binaries}
    for e in entries:
        cmd = e.get("command") or []
        if not cmd:
            continue
        exe = os.path.realpath(cmd[0])
        if exe in by_binary:
            by_binary[exe].append(e)
        elif option_value(cmd[1:], ["test-case", "tc"]) is not None:
            problems.append(f"ctest entry {e['name']!r} runs doctest binary {cmd[0]} that this guard "
                            "was not given (add it to the guard's binaries)")

    total_cases = total_entries = 0
    for exe, shown in binaries.items():
        base = os.path.basename(shown)
        cases = list_cases(shown)
        total_cases += len(cases)
        total_entries += len(by_binary[exe])
        if not cases:
            problems.append(f"{base}: lists no test case")
        covered = {c: [] for c in cases}
        for e in by_binary[exe]:
            args = e["command"][1:]
            case_sensitive = any(a in ("--case-sensitive", "-cs", "--case-sensitive=true",
                                       "-cs=true") for a in args)
            raw = option_value(args, ["test-case", "tc"])
            filters = parse_filters(raw) if raw is not None else []
            excl = option_value(args, ["test-case-exclude", "tce"])
            excl = parse_filters(excl) if excl is not None else []
            matched = [c for c in cases
                       if (not filters or any(wildcmp(c, f, case_sensitive) for f in filters))
                       and not any(wildcmp(c, f, case_sensitive) for f in excl)]
            if not matched:
                problems.append(f"{base}: ctest entry {e['name']!r} runs zero test cases "
                                f"(filter {raw!r} matches no case; a ';' in a case name splits it)")
            elif filters and len(matched) > 1:
                problems.append(f"{base}: ctest entry {e['name']!r} runs {len(matched)} cases "
                                f"{matched!r} (case names must be unique)")
            for c in matched:
                covered[c].append(e["name"])
        for c, names in covered.items():
            if not names:
                problems.append(f"{base}: test case {c!r} is run by no ctest entry")

    for p in problems:
        print("error: " + p)
    if problems:
        print(f"check_discovery: {len(problems)} problem(s)")
        return 1
    print(f"check_discovery: {len(binaries)} binaries, {total_cases} test cases, "
          f"{total_entries} ctest entries: every case runs, every entry runs exactly one case")
    return 0


if __name__ == "__main__":
    sys.exit(main())
