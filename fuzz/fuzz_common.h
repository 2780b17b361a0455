// Shared by the libFuzzer harnesses (issue 9). A harness feeds the bytes to one reader; a clean
// cz::InputError with a printable message is the expected way to refuse them. Anything else is a
// finding: another exception escaping (std::terminate -> abort), a sanitizer report, a leak, a
// run over -rss_limit_mb or -timeout (scripts/fuzz.sh), or an unprintable message (abort below).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "util/error.h"
#include "util/memory_budget.h"
#include "util/text.h"

namespace cz::fuzz {

// Messages reach a terminal: no control bytes, valid UTF-8 (util/text.h's printable()).
inline void check_message(const InputError& e) {
  for (const std::string& s : {std::string(e.what()), e.where}) {
    bool ok = is_utf8(s);
    for (char ch : s) ok = ok && static_cast<unsigned char>(ch) >= 0x20 && ch != 0x7f;
    if (!ok) {
      std::fprintf(stderr, "FINDING: InputError text is not printable: %s (%s)\n", printable(e.what(), 400).c_str(),
                   printable(e.where, 400).c_str());
      std::abort();
    }
  }
}

[[noreturn]] inline void finding(const char* what) {
  std::fprintf(stderr, "FINDING: %s\n", what);
  std::abort();
}

// The memory budget is what turns an oversized header into an InputError; keep it well under
// the 2 GB RSS limit the harnesses run with.
inline void init() { set_memory_budget(std::uint64_t(512) << 20); }

}  // namespace cz::fuzz

// Each harness defines fuzz_one(); this header (included once per harness program) defines the
// libFuzzer entry points around it.
void fuzz_one(const std::string& text);

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  cz::fuzz::init();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    fuzz_one(text);
  } catch (const cz::InputError& e) {
    cz::fuzz::check_message(e);
  }
  return 0;
}
