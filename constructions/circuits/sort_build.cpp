#include "constructions/circuits/sort_build.h"

#include <string>

#include "circuits/builder.h"

namespace cz::circ {

std::size_t sort_payload_bits(std::size_t n) {
  std::size_t l = 0;
  while ((std::size_t{1} << l) < n) ++l;
  return l ? l : 1;
}

circuits::Circuit build_sort_circuit(std::size_t n, std::size_t d, bool bitonic, circuits::gadgets::NetworkTrace* trace) {
  namespace g = circuits::gadgets;
  const std::size_t w = sort_payload_bits(n);
  circuits::Builder b;
  std::vector<g::Item> items;
  for (std::size_t i = 0; i < n; ++i) items.push_back({g::input_bits(b, "k" + std::to_string(i), d), g::const_bits(b, i, w)});
  auto out = bitonic ? g::bitonic_sort(b, std::move(items), trace) : g::odd_even_merge_sort(b, std::move(items), trace);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < d; ++k) b.output("key" + std::to_string(i) + "[" + std::to_string(k) + "]", out[i].key[k]);
    for (std::size_t k = 0; k < w; ++k) b.output("idx" + std::to_string(i) + "[" + std::to_string(k) + "]", out[i].payload[k]);
  }
  return std::move(b).finish();
}

}  // namespace cz::circ
