#!/usr/bin/env bash
# README command 2: set up, build, run every test (ctest). Non-zero exit on any failure.
#   scripts/test.sh [CTEST_ARGS...]             Release build in build/
#   scripts/test.sh --sanitize [CTEST_ARGS...]  the same tests built with ASan + UBSan + LSan in
#                                               build-asan/ (-O1 -g; no benchmarks or examples)
#                                               (no Python module under ASan: it would need the
#                                               runtime preloaded into python3); the few large
#                                               differential sweeps run their small cases there
#                                               (tests/lean.h; CZ_TEST_FULL=1 runs every size);
#                                               tests labelled python run in the Release pass only
# Extra arguments go to ctest (e.g. -R mqar).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != --sanitize ]; then
  ./scripts/setup.sh
  cd build
  exec ctest --output-on-failure --no-tests=error -j "$(nproc)" "$@"
fi
shift
./scripts/setup.sh build-asan -DCMAKE_BUILD_TYPE=Debug -DCZ_SANITIZE=ON -DCZ_BUILD_EXTRAS=OFF -DCZ_PYTHON=OFF -DCZ_MPI=OFF -DCZ_CUDA=OFF
# Every sanitizer report also goes to a file: a report from a process whose exit status a test
# expects to be non-zero (the CLI scripts) still fails the run. exitcode=86 is no exit code the
# CLI uses; halt_on_error: the first finding stops the process.
logs=$PWD/build-asan/sanitizer-logs
rm -rf "$logs" && mkdir -p "$logs"
common="halt_on_error=1:exitcode=86:print_stacktrace=1:log_path=$logs/report"
# allocator_may_return_null: an allocation too large fails as in a normal build (std::bad_alloc).
export ASAN_OPTIONS="$common:detect_leaks=1:check_initialization_order=1:strict_init_order=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="$common"
export LSAN_OPTIONS="$common"
export CZ_SANITIZE=1  # lets a test script skip what cannot work under ASan (e.g. ulimit -v)
status=0
# -LE python: the Python tests drive the CLI from pytest (plots, exports; no module is built here)
# and take 136 s of CPU under ASan (2026-12-05) for CLI paths the CLI scripts already run under the
# sanitizers; the Release pass runs them all.
(cd build-asan && ctest --output-on-failure --no-tests=error -LE python -j "$(nproc)" "$@") || status=$?
if compgen -G "$logs/report*" >/dev/null; then
  echo "test.sh --sanitize: sanitizer reports (also in $logs):"
  cat "$logs"/report*
  status=1
fi
exit "$status"
