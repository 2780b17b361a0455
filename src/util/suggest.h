// "Did you mean" for unknown names (issue 26 item 10): the closest known name by edit distance
// (Levenshtein, case-insensitive), or the one name whose last path component is what was typed
// (`shift_down` -> `primitive/shift_down`).
#pragma once
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

namespace cz {

inline std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) == std::tolower(static_cast<unsigned char>(b[j - 1]));
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// The suggestion for `typed` among `known`, "" when nothing is close (at most a third of the
// longer name's letters edited, at least one allowed). Ties: the first in `known`.
inline std::string closest_name(const std::string& typed, const std::vector<std::string>& known) {
  if (typed.empty() || typed.size() > 256) return "";
  std::string by_tail;
  int tails = 0;
  for (const auto& k : known) {
    const auto slash = k.rfind('/');
    if (slash != std::string::npos && edit_distance(k.substr(slash + 1), typed) == 0) {
      by_tail = k;
      ++tails;
    }
  }
  if (tails == 1) return by_tail;
  std::string best;
  std::size_t best_d = SIZE_MAX;
  for (const auto& k : known) {
    const std::size_t d = edit_distance(typed, k);
    const std::size_t limit = std::max<std::size_t>(1, std::max(typed.size(), k.size()) / 3);
    if (d <= limit && d < best_d) {
      best = k;
      best_d = d;
    }
  }
  return best;
}

// " (did you mean 'X'?)" or "".
inline std::string did_you_mean(const std::string& typed, const std::vector<std::string>& known) {
  const std::string s = closest_name(typed, known);
  return s.empty() ? "" : "; did you mean '" + s + "'?";
}

}  // namespace cz
