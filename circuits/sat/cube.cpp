#include "circuits/sat/cube.h"

#include <algorithm>
#include <stdexcept>

namespace cz::circuits::sat {

std::vector<int> cube_variables(const Cnf& cnf, const std::vector<int>& prefer) {
  std::vector<std::size_t> occ(static_cast<std::size_t>(cnf.num_vars) + 1, 0);
  std::vector<char> unit(occ.size(), 0);
  std::size_t len = 0;
  for (std::size_t k = 0; k < cnf.lits.size(); ++k) {
    const int l = cnf.lits[k];
    if (l == 0) {
      if (len == 1) unit[static_cast<std::size_t>(std::abs(cnf.lits[k - 1]))] = 1;
      len = 0;
      continue;
    }
    ++len;
    ++occ[static_cast<std::size_t>(std::abs(l))];
  }
  std::vector<int> vars;
  if (prefer.empty())
    for (int v = 1; v <= cnf.num_vars; ++v) vars.push_back(v);
  else
    for (int v : prefer)
      if (v >= 1 && v <= cnf.num_vars && std::find(vars.begin(), vars.end(), v) == vars.end()) vars.push_back(v);
  std::erase_if(vars, [&](int v) { return unit[static_cast<std::size_t>(v)] || occ[static_cast<std::size_t>(v)] == 0; });
  std::stable_sort(vars.begin(), vars.end(), [&](int a, int b) {
    return occ[static_cast<std::size_t>(a)] > occ[static_cast<std::size_t>(b)];
  });
  return vars;
}

Cnf with_cube(const Cnf& cnf, const std::vector<int>& cube) {
  Cnf out = cnf;
  for (int l : cube) {
    if (l == 0 || std::abs(l) > cnf.num_vars) throw std::logic_error("with_cube: literal " + std::to_string(l) + " not of the CNF");
    out.add({l});
  }
  return out;
}

std::vector<std::vector<int>> split_cube(const std::vector<int>& parent, const std::vector<int>& vars) {
  if (vars.size() > 20) throw std::logic_error("split_cube: more than 2^20 cubes");
  std::vector<std::vector<int>> out;
  for (std::uint32_t b = 0; b < (1u << vars.size()); ++b) {
    std::vector<int> c = parent;
    for (std::size_t i = 0; i < vars.size(); ++i) c.push_back((b >> i) & 1u ? vars[i] : -vars[i]);
    out.push_back(std::move(c));
  }
  return out;
}

std::uint64_t cnf_hash(const Cnf& cnf) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&](std::uint32_t x) {
    for (int k = 0; k < 4; ++k) h = (h ^ ((x >> (8 * k)) & 0xffu)) * 0x100000001b3ull;
  };
  mix(static_cast<std::uint32_t>(cnf.num_vars));
  for (int l : cnf.lits) mix(static_cast<std::uint32_t>(l));
  return h;
}

}  // namespace cz::circuits::sat
