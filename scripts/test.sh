#!/usr/bin/env bash
# README command 2: set up, build, run every test (ctest). Non-zero exit on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cd build
ctest --output-on-failure --no-tests=error -j "$(nproc)" "$@"
