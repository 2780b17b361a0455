#!/usr/bin/env bash
# Shared set-up for run.sh and test.sh: install missing Debian packages (when root),
# then configure and build Release into build/. Idempotent and quiet when nothing is missing.
# setup.sh DIR CMAKE_ARGS... configures DIR with those arguments instead (test.sh --sanitize).
set -euo pipefail
cd "$(dirname "$0")/.."
# python3-pandas and python3-tqdm: what the README's Python quick start imports (a DataFrame of a sweep; tqdm bars of
# long calls), issue 26 item 2.
# cadical (the SAT solver of verify --method sat) and picosat (its --confirm second opinion), issue 27.
# python3-dev: the headers the Python module is built against (CMake's Development.Module); python3-pybind11
# does not pull them in, and without them CZ_PYTHON quietly defaults to OFF (a fresh machine got no module and
# every Python test skipped).
# python3-torch, python3-scipy: circuitzoo.torch and the zoology import tests (issues 26, 28).
# berkeley-abc and yosys: tests round-trip AIGER/BLIF exports through ABC and Yosys (issue 26; yosys pulls
# xdot/GTK, accepted for that test). zlib1g-dev: zlib's crc32 for .npz exports.
# ccache (issue 49 item 2): rebuilds of the same sources (another checkout, CI on a machine that built them) are cache hits.
PKGS=(ccache cmake g++ ninja-build python3 libflint-dev libboost-dev nlohmann-json3-dev doctest-dev libcli11-dev libbenchmark-dev berkeley-abc yosys zlib1g-dev libssl-dev python3-dev python3-numpy python3-pybind11 python3-matplotlib python3-pytest python3-pandas python3-tqdm openmpi-bin libopenmpi-dev cadical libcadical-dev picosat python3-torch python3-scipy)
scripts/install-packages.sh setup "${PKGS[@]}"
GEN=()
command -v ninja >/dev/null 2>&1 && GEN=(-G Ninja)
# ccache (when present) makes rebuilds in other checkouts of the tree cheap; optional. The
# precompiled headers (cmake/pch) need these sloppiness settings for hits.
# Only with a cache directory it can write (a read-only home would fail every compile).
if command -v ccache >/dev/null 2>&1; then
  ccache_dir=$(ccache -k cache_dir 2>/dev/null || true)
  if [ -n "$ccache_dir" ] && mkdir -p "$ccache_dir" 2>/dev/null && [ -w "$ccache_dir" ]; then
    GEN+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
    # Paths below the checkout count relative, so another checkout of the same sources hits.
    export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
  fi
fi
BUILD=${1:-build}
if [ $# -gt 1 ]; then
  shift
  cmake -S . -B "$BUILD" "${GEN[@]}" "$@" >&2
elif [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S . -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release >&2
fi
# CZ_TARGETS (issue 49 item 1): build only these targets (run.sh: the CLI and the Python module);
# unset: everything (test.sh: every test, benchmark and kernel).
targets=()
for t in ${CZ_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$BUILD" -j "$(nproc)" "${targets[@]}" >&2
