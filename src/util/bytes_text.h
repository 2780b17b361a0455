// Sizes in messages that must be told apart (issue 39): never "needs about 1.0 MB, above the
// memory budget of 1.0 MB". format_bytes (util/memory_budget.h) is the one-decimal form.
#pragma once
#include <cstdint>
#include <string>
#include <utility>

namespace cz {

// format_bytes with DECIMALS digits after the point in GB and MB ("1.02 MB"; bytes below 1 MiB).
std::string format_bytes_digits(std::uint64_t bytes, int decimals);
// A and B as text that tells them apart: one decimal, more while they read the same, then exact bytes.
std::pair<std::string, std::string> format_bytes_apart(std::uint64_t a, std::uint64_t b);

}  // namespace cz
