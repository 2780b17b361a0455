#include "util/memory_budget.h"

#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdio>

#include "util/bytes_text.h"
#include "util/error.h"

namespace cz {
namespace {

std::uint64_t physical_half() {
  long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return std::uint64_t(4) << 30;  // unknown: a conservative 4 GiB
  return sat_mul(static_cast<std::uint64_t>(pages), static_cast<std::uint64_t>(page)) / 2;
}

std::atomic<std::uint64_t>& budget() {
  static std::atomic<std::uint64_t> b{physical_half()};
  return b;
}

}  // namespace

std::uint64_t memory_budget() { return budget().load(std::memory_order_relaxed); }
void set_memory_budget(std::uint64_t bytes) { budget().store(bytes, std::memory_order_relaxed); }

std::uint64_t parse_memory_size(const std::string& text, const std::string& where) {
  std::size_t i = 0;
  std::uint64_t v = 0;
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])))
    throw InputError("expected a size such as 512M or 4G, got '" + text + "'", where);
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    std::uint64_t d = static_cast<std::uint64_t>(text[i] - '0');
    if (v > (UINT64_MAX - d) / 10) throw InputError("size too large: '" + text + "'", where);
    v = v * 10 + d;
  }
  std::string unit = text.substr(i);
  std::uint64_t mult = 1;
  if (!unit.empty()) {
    char u = static_cast<char>(std::toupper(static_cast<unsigned char>(unit[0])));
    std::string rest = unit.substr(1);
    if (u == 'B' && rest.empty()) mult = 1;
    else if (u == 'K' || u == 'M' || u == 'G' || u == 'T') {
      if (!(rest.empty() || rest == "B" || rest == "b" || rest == "iB" || rest == "ib"))
        throw InputError("unknown size unit '" + unit + "' (use k, M, G or T)", where);
      mult = u == 'K' ? (1ULL << 10) : u == 'M' ? (1ULL << 20) : u == 'G' ? (1ULL << 30) : (1ULL << 40);
    } else {
      throw InputError("unknown size unit '" + unit + "' (use k, M, G or T)", where);
    }
  }
  if (v != 0 && mult > UINT64_MAX / v) throw InputError("size too large: '" + text + "'", where);
  return v * mult;
}

std::string format_bytes(std::uint64_t bytes) { return format_bytes_digits(bytes, 1); }

std::string format_bytes_digits(std::uint64_t bytes, int decimals) {
  char buf[64];
  if (bytes == UINT64_MAX) return "more than 16 EB";
  if (bytes >= (1ULL << 30)) std::snprintf(buf, sizeof buf, "%.*f GB", decimals, static_cast<double>(bytes) / (1ULL << 30));
  else if (bytes >= (1ULL << 20)) std::snprintf(buf, sizeof buf, "%.*f MB", decimals, static_cast<double>(bytes) / (1ULL << 20));
  else std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
  return buf;
}

std::pair<std::string, std::string> format_bytes_apart(std::uint64_t a, std::uint64_t b) {
  for (int decimals = 1; decimals <= 3; ++decimals) {
    std::pair<std::string, std::string> p{format_bytes_digits(a, decimals), format_bytes_digits(b, decimals)};
    if (p.first != p.second || a == b) return p;
  }
  return {std::to_string(a) + " bytes", std::to_string(b) + " bytes"};
}

void require_memory(std::uint64_t bytes, const std::string& what, const std::string& where) {
  const std::uint64_t b = memory_budget();
  if (bytes <= b) return;
  const auto [need, budget] = format_bytes_apart(bytes, b);
  throw InputError(what + " needs about " + need + ", above the memory budget of " + budget + " (--max-memory)",
                   where);
}

}  // namespace cz
