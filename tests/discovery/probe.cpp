// A scratch doctest binary for selftest.sh: it has the defects check_discovery.py must catch.
// It is never discovered into the suite's ctest entries (that would fail the suite on purpose).
#include <doctest/doctest.h>

TEST_CASE("one; two") { CHECK(true); }  // doctest_discover_tests splits this at ';'
TEST_CASE("twin") { CHECK(true); }      // two cases share a name
TEST_CASE("twin") { CHECK(true); }
TEST_CASE("fine") { CHECK(true); }
