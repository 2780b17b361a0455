#!/usr/bin/env bash
# Proves the discovery guard fails when it should. It runs the real doctest_discover_tests script
# (doctestAddTests.cmake) on probe.cpp's binary into a scratch ctest directory, then expects
#  - check_discovery.py to fail and name each defect ('one; two' split into entries 'one' and
#    ' two' that run zero cases, the case 'one; two' that no entry runs, the duplicate 'twin');
#  - the probe binary itself (tests/test_main.cpp) to fail a run whose filter matches nothing;
#  - ctest in the scratch directory to fail exactly the two split entries.
# usage: selftest.sh PROBE DOCTEST_ADD_TESTS_SCRIPT CHECK_DISCOVERY CMAKE CTEST
set -uo pipefail
probe=$1 discover=$2 guard=$3 cmake=$4 ctest=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "selftest FAILED: $*"; exit 1; }

"$cmake" -D "TEST_EXECUTABLE=$probe" -D "TEST_WORKING_DIR=$tmp" -D TEST_LIST=probe_TESTS \
  -D "CTEST_FILE=$tmp/probe_tests.cmake" -P "$discover" || fail "doctestAddTests.cmake failed"
echo "include(\"$tmp/probe_tests.cmake\")" >"$tmp/CTestTestfile.cmake"

out=$(python3 "$guard" --ctest "$ctest" --dir "$tmp" "$probe" 2>&1); rc=$?
echo "$out"
[ "$rc" = 1 ] || fail "guard exited $rc on the probe, expected 1"
for want in "entry 'one' runs zero test cases" "entry ' two' runs zero test cases" \
            "test case 'one; two' is run by no ctest entry" "ctest name 'twin' is used by 2 entries" \
            "entry 'twin' runs 2 cases"; do
  grep -qF -- "$want" <<<"$out" || fail "guard output lacks: $want"
done
grep -q "'fine'" <<<"$out" && fail "guard flagged the good case 'fine'"

"$probe" --test-case=fine >/dev/null || fail "probe --test-case=fine failed"
out=$("$probe" --test-case=one 2>&1) && fail "probe --test-case=one (matches nothing) passed"
grep -qF "no test case ran" <<<"$out" || fail "probe gave no reason: $out"

out=$(cd "$tmp" && "$ctest" 2>&1) && fail "ctest passed the split entries"
echo "$out" | grep -E 'Failed|tests failed'
failed=$(grep -cE '^\s+[0-9]+ - .*\(Failed\)' <<<"$out")
[ "$failed" = 2 ] || fail "expected 2 failed ctest entries, got $failed"
echo "selftest passed: the guard and the zero-case check fail on the defects"
