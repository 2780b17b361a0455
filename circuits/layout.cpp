#include "circuits/layout.h"

#include <algorithm>
#include <regex>
#include <stdexcept>

namespace cz::circuits {

bool parse_position(const std::string& s, char letter, std::size_t& i, std::size_t& j) {
  static const std::regex re(R"(([uy])\[(\d{1,9})\]\[(\d{1,9})\])");
  std::smatch m;
  if (!std::regex_match(s, m, re) || m[1].str()[0] != letter) return false;
  i = std::stoul(m[2]);
  j = std::stoul(m[3]);
  return true;
}

namespace {
bool named_positions(const Circuit& c, Layout& L) {
  for (std::size_t k = 0; k < c.num_inputs(); ++k) {
    std::size_t i, j;
    if (!parse_position(c.input_name(k), 'u', i, j)) return false;
    L.in_pos.emplace_back(i, j);
  }
  for (const auto& o : c.outputs()) {
    std::size_t i, j;
    if (!parse_position(o.name, 'y', i, j)) return false;
    L.out_pos.emplace_back(i, j);
  }
  return true;
}
}  // namespace

Layout default_layout(const Circuit& c) {
  Layout L;
  if (named_positions(c, L)) {
    for (const auto& v : {L.in_pos, L.out_pos})
      for (auto [i, j] : v) { L.N = std::max(L.N, i + 1); L.d = std::max(L.d, j + 1); }
    return L;
  }
  L = Layout{};
  L.d = std::max<std::size_t>({1, c.num_inputs(), c.outputs().size()});
  for (std::size_t k = 0; k < c.num_inputs(); ++k) L.in_pos.emplace_back(0, k);
  for (std::size_t k = 0; k < c.outputs().size(); ++k) L.out_pos.emplace_back(0, k);
  return L;
}

Layout layout_for(const Circuit& c, std::size_t N, std::size_t d) {
  Layout L;
  L.N = N;
  L.d = d;
  bool ok = named_positions(c, L);
  for (const auto& v : {L.in_pos, L.out_pos})
    for (auto [i, j] : v) ok = ok && i < N && j < d;
  if (ok) return L;
  if (c.num_inputs() > N * d || c.outputs().size() > N * d)
    throw std::invalid_argument("the circuit has " + std::to_string(c.num_inputs()) + " inputs and " +
                                std::to_string(c.outputs().size()) + " outputs; an " + std::to_string(N) + "×" +
                                std::to_string(d) + " matrix has " + std::to_string(N * d) + " places");
  L.in_pos.clear();
  L.out_pos.clear();
  for (std::size_t k = 0; k < c.num_inputs(); ++k) L.in_pos.emplace_back(k / d, k % d);
  for (std::size_t k = 0; k < c.outputs().size(); ++k) L.out_pos.emplace_back(k / d, k % d);
  return L;
}

}  // namespace cz::circuits
