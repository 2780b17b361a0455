// The process-wide memory budget: work that would allocate more than it is refused up front with
// an InputError that states the estimate, instead of running into the OOM killer (issue 9).
// Default: half of physical RAM; the CLI's `--max-memory SIZE` changes it.
#pragma once
#include <cstdint>
#include <string>

namespace cz {

std::uint64_t memory_budget();
void set_memory_budget(std::uint64_t bytes);
// "4G", "512M", "100k", "123" (bytes; suffixes k/K, m/M, g/G, t/T, optional B/iB); InputError(where).
std::uint64_t parse_memory_size(const std::string& text, const std::string& where);
// "1.5 GB" style text for messages.
std::string format_bytes(std::uint64_t bytes);

// Throws InputError("<what> needs about X, above the memory budget of Y (--max-memory)", where)
// when `bytes` exceeds the budget.
void require_memory(std::uint64_t bytes, const std::string& what, const std::string& where);

// Saturating arithmetic for estimates (an estimate that overflows is "too much", never wraps).
inline std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
inline std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

}  // namespace cz
