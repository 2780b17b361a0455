#!/usr/bin/env python3
"""ctest runner for the pytest files here: run.py --cli PATH [--module-dir DIR] -- FILE...
Exits 77 (ctest: skipped) when numpy or pytest is missing, or when --module-dir has no module."""
import glob
import os
import sys


def main():
    args = sys.argv[1:]
    files = args[args.index("--") + 1:]
    opts = dict(zip(args[:args.index("--")][::2], args[:args.index("--")][1::2]))
    try:
        import numpy  # noqa: F401
        import pytest
    except ImportError as e:
        print(f"skipped: {e}", file=sys.stderr)
        return 77
    os.environ["CZ_CLI"] = os.path.abspath(opts["--cli"])
    if "--module-dir" in opts:
        d = opts["--module-dir"]
        if not glob.glob(os.path.join(d, "circuitzoo", "_core*.so")):
            print(f"skipped: the Python module was not built (no {d}/circuitzoo/_core*.so; CZ_PYTHON=OFF)", file=sys.stderr)
            return 77
        sys.path.insert(0, os.path.abspath(d))
        os.environ["PYTHONPATH"] = os.path.abspath(d) + os.pathsep + os.environ.get("PYTHONPATH", "")
    here = os.path.dirname(os.path.abspath(__file__))
    return pytest.main(["-q", "-p", "no:cacheprovider", "--rootdir", here] + [os.path.join(here, f) for f in files])


if __name__ == "__main__":
    sys.exit(main())
