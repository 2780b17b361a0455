#!/usr/bin/env python3
"""ctest runner for the pytest files here: run.py --cli PATH [--module-dir DIR] [--needs MOD,...] [--peers 1] -- FILE...
Exits 77 (ctest: skipped) when numpy or pytest is missing, when --module-dir has no module, when a
module named by --needs does not import (torch, scipy), or, with --peers, when zoology's peer code is
missing (CZ_PEERS, else ../shared/peers beside the repository; its path is passed on in CZ_PEERS)."""
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
    if "--peers" in opts:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        peers = os.environ.get("CZ_PEERS") or os.path.join(os.path.dirname(root), "shared", "peers")
        if not os.path.isdir(os.path.join(peers, "zoology")) or not os.path.isdir(os.path.join(peers, "shims")):
            print(f"skipped: zoology's peer code is not at {peers} (set CZ_PEERS)", file=sys.stderr)
            return 77
        os.environ["CZ_PEERS"] = os.path.abspath(peers)
    for mod in filter(None, opts.get("--needs", "").split(",")):
        try:
            __import__(mod)
        except ImportError as e:
            print(f"skipped: {e}", file=sys.stderr)
            return 77
    here = os.path.dirname(os.path.abspath(__file__))
    return pytest.main(["-q", "-p", "no:cacheprovider", "--rootdir", here] + [os.path.join(here, f) for f in files])


if __name__ == "__main__":
    sys.exit(main())
