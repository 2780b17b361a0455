// util/memory_budget.h, util/bytes_text.h: sizes in messages.
#include <doctest/doctest.h>

#include "util/bytes_text.h"
#include "util/memory_budget.h"

using namespace cz;

// issue 39: "needs about 1.0 MB, above the memory budget of 1.0 MB" told the reader nothing.
TEST_CASE("memory budget: an estimate and the budget never read the same") {
  CHECK(format_bytes(3u << 20) == "3.0 MB");
  CHECK(format_bytes_apart(3u << 20, 1u << 30) == std::pair<std::string, std::string>{"3.0 MB", "1.0 GB"});
  CHECK(format_bytes_apart((1u << 20) + 20000, 1u << 20) == std::pair<std::string, std::string>{"1.02 MB", "1.00 MB"});
  CHECK(format_bytes_apart((1u << 20) + 100, 1u << 20) == std::pair<std::string, std::string>{"1048676 bytes", "1048576 bytes"});
  CHECK(format_bytes_apart(700, 600) == std::pair<std::string, std::string>{"700 bytes", "600 bytes"});
  CHECK(format_bytes_apart(UINT64_MAX, 1u << 20).first == "more than 16 EB");
}
