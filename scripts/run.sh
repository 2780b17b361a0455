#!/usr/bin/env bash
# README command 1: set up, build, then run the main job (default: verify every construction).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
if [ $# -eq 0 ]; then set -- verify --all; fi
exec ./build/circuitzoo "$@"
