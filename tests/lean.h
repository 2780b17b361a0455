// The sanitizer pass (scripts/test.sh --sanitize, in CI after the Release pass) runs every test
// case, but a differential sweep that repeats one code path over ever larger domains runs only its
// small cases there: ASan/UBSan find memory errors and undefined behaviour per code path, which the
// small cases reach, while the Release pass runs every size (the verdicts). CZ_TEST_FULL=1 runs
// the full sizes under the sanitizers too. Use only to drop a case that is a larger copy of a
// smaller case in the same test; never to drop a mutant or a code path.
#pragma once
#include <cstdlib>

namespace cz::test {

inline bool lean() {
#if defined(__SANITIZE_ADDRESS__)
  return std::getenv("CZ_TEST_FULL") == nullptr;
#else
  return false;
#endif
}

}  // namespace cz::test
