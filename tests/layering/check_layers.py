#!/usr/bin/env python3
"""Layering guard (issue 10, item 6): no folder includes a header from a floor above it.

The build reads core (src/) -> circuits/ (-> gpu/) -> constructions/ -> engine (app/engine,
app/report) -> proofs-checks/ -> CLI (app/cli) and the Python module. Each folder below lists the
folders whose headers it may include; an #include "X/..." of any other project folder fails.
tests/, bench/, examples/ and fuzz/ stand outside the floors and are not checked.

  check_layers.py ROOT          check the tree at ROOT
  check_layers.py --self-test   show that the guard fails on an upward include
"""
import os
import re
import sys
import tempfile

CORE = ["util", "exact", "tensor", "model", "tasks", "verify"]
# folder (relative to the root) -> include prefixes it may use (its own included)
ALLOWED = {
    "src/util": ["util"],
    "src/exact": ["util", "exact"],
    "src/tensor": ["util", "exact", "tensor"],
    "src/model": ["util", "exact", "tensor", "model"],
    "src/tasks": ["util", "exact", "tensor", "model", "tasks"],
    "src/verify": CORE,
    "circuits": ["util", "exact", "tensor", "model", "circuits"],
    "gpu": CORE + ["circuits", "gpu"],  # kernels run core tasks and report BlockResults
    "constructions": CORE + ["circuits", "gpu", "constructions"],
    "app/engine": CORE + ["circuits", "gpu", "constructions", "app/engine"],
    "app/report": CORE + ["circuits", "gpu", "constructions", "app/engine", "app/report"],
    "proofs-checks": CORE + ["circuits", "gpu", "constructions", "app/engine", "app/report", "proofs-checks"],
    "app/cli": CORE + ["circuits", "gpu", "constructions", "app/engine", "app/report", "proofs-checks", "app/cli"],
    "python": CORE + ["circuits", "gpu", "constructions", "app/engine", "app/report", "proofs-checks", "app/cli", "python"],
}
# Every project folder an include can name, longest first ("app/engine" before "app").
PREFIXES = sorted({p for ps in ALLOWED.values() for p in ps} | {"app/cli"}, key=len, reverse=True)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE = (".h", ".hpp", ".cpp", ".cc", ".cu", ".cuh")


def prefix_of(path):
    for p in PREFIXES:
        if path.startswith(p + "/"):
            return p
    return None


def check(root):
    problems, files = [], 0
    for folder, allowed in ALLOWED.items():
        base = os.path.join(root, folder)
        if not os.path.isdir(base):
            continue
        for dirpath, _, names in os.walk(base):
            for name in sorted(names):
                if not name.endswith(SOURCE):
                    continue
                files += 1
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        p = prefix_of(m.group(1))
                        if p is not None and p not in allowed:
                            rel = os.path.relpath(path, root)
                            problems.append(f"{rel}:{lineno}: includes \"{m.group(1)}\" ({folder} may not reach {p})")
    problems += construction_names_in_app(root)
    return files, problems


# Issue 47 item 2: app/ chooses methods by artifact kind, task and the route ids a construction
# registers from its own folder; it never names a construction. A construction's name (the first
# string of its register_construction) as a whole string literal in app/ is a problem.
REGISTERED = re.compile(r'register_construction\(\{\s*"([^"]+)"')


def construction_names_in_app(root):
    names = set()
    for dirpath, _, files in os.walk(os.path.join(root, "constructions")):
        for name in files:
            if name.endswith(SOURCE):
                with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as f:
                    names |= set(REGISTERED.findall(f.read()))
    problems = []
    for dirpath, _, files in os.walk(os.path.join(root, "app")):
        for name in sorted(files):
            if not name.endswith(SOURCE):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    for n in names:
                        if '"' + n + '"' in line:
                            rel = os.path.relpath(path, root)
                            problems.append(f"{rel}:{lineno}: names the construction \"{n}\" (app/ goes by artifact kind, task and route ids)")
    return problems


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "src/tasks"))
        os.makedirs(os.path.join(root, "app/engine"))
        with open(os.path.join(root, "app/engine/engine.h"), "w") as f:
            f.write('#include "tasks/mqar.h"\n')  # downward: fine
        with open(os.path.join(root, "src/tasks/mqar.h"), "w") as f:
            f.write('#include "util/seeded.h"\n#include "app/engine/engine.h"\n')  # upward: must fail
        os.makedirs(os.path.join(root, "constructions/mqar"))
        with open(os.path.join(root, "constructions/mqar/dyadic.cpp"), "w") as f:
            f.write('const bool registered = register_construction({\n    "mqar/dyadic", "mqar",\n')
        with open(os.path.join(root, "app/engine/route.cpp"), "w") as f:
            f.write('bool f(const C& c) { return c.name == "mqar/dyadic"; }  // by name: must fail\n')
        files, problems = check(root)
        ok = files == 4 and len(problems) == 2 and "src/tasks/mqar.h:2" in problems[0] and "app/engine/route.cpp:1" in problems[1]
        print("self-test:", "ok" if ok else f"FAILED ({files} files, problems {problems})")
        return 0 if ok else 1


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    files, problems = check(sys.argv[1])
    for p in problems:
        print(p)
    if files == 0:
        print("error: no source files found (root " + sys.argv[1] + ")", file=sys.stderr)
        return 1
    print(f"{files} files checked, {len(problems)} problems (upward includes, construction names in app/)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
