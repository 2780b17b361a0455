#include "app/engine/run/shard.h"

#include <stdexcept>

#include "util/error.h"

namespace cz {

namespace {
bool parse_digits(const std::string& s, std::uint64_t& out) {
  if (s.empty() || s.size() > 19) return false;
  out = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return false;
    out = out * 10 + static_cast<std::uint64_t>(ch - '0');
  }
  return true;
}
}  // namespace

ShardSpec parse_shard(const std::string& text, const std::string& where) {
  const auto slash = text.find('/');
  ShardSpec s;
  if (slash == std::string::npos || !parse_digits(text.substr(0, slash), s.index) ||
      !parse_digits(text.substr(slash + 1), s.count) || s.count == 0 || s.count > (std::uint64_t{1} << 32) ||
      s.index >= s.count)
    throw InputError("want I/K with 0 <= I < K <= 2^32 (e.g. 0/4), got '" + text + "'", where);
  return s;
}

std::pair<std::uint64_t, std::uint64_t> shard_range(const ShardSpec& s, std::uint64_t total) {
  // Callers validate specs from users and files (parse_shard, part_report.cpp); a count of 0 here
  // would divide by zero (issue 25: SIGFPE), so it is a bug, not an input.
  if (s.count == 0 || s.index >= s.count)
    throw std::logic_error("shard_range: shard " + std::to_string(s.index) + "/" + std::to_string(s.count) + " (want index < count)");
  using u128 = unsigned __int128;
  auto at = [&](std::uint64_t i) { return static_cast<std::uint64_t>(u128{total} * i / s.count); };
  return {at(s.index), at(s.index + 1)};
}

}  // namespace cz
