#!/usr/bin/env bash
# README command 1: set up, build, then run the main job (default: verify every construction).
set -euo pipefail
cd "$(dirname "$0")/.."
# The main job needs the CLI, and a Python user the module: nothing else is built here (issue 49
# item 1; ./scripts/test.sh builds every test, benchmark and kernel). CZ_TARGETS overrides.
if [ -n "${CZ_TARGETS:-}" ]; then
  ./scripts/setup.sh
else
  CZ_TARGETS=circuitzoo ./scripts/setup.sh
  # The module when the configure step turned it on (python3-dev and pybind11 found).
  if grep -q '^CZ_PYTHON:BOOL=ON' build/CMakeCache.txt 2>/dev/null; then CZ_TARGETS=cz_python ./scripts/setup.sh; fi
fi
if [ $# -eq 0 ]; then set -- verify --all; fi
exec ./build/circuitzoo "$@"
