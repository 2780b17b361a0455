// A seeded random arithmetic circuit for differential tests of evaluators and writers.
#pragma once
#include <random>

#include "circuits/builder.h"

namespace cz::test {

inline circuits::Circuit random_circuit(std::mt19937_64& rng, std::size_t inputs, std::size_t gates, std::size_t outputs,
                                        bool rational = false) {
  using namespace circuits;
  Builder b;
  std::vector<Wire> w;
  for (std::size_t i = 0; i < inputs; ++i) w.push_back(b.input("x" + std::to_string(i)));
  for (std::size_t k = 0; k < gates; ++k) {
    std::size_t r = rng() % 10;
    Wire x = w[rng() % w.size()], y = w[rng() % w.size()];
    if (r < 4) w.push_back(b.add(x, y));
    else if (r < 7) w.push_back(b.mul(x, y));
    else if (r < 9) w.push_back(b.scale(Rat(static_cast<std::int64_t>(rng() % 7) - 3), x));
    else w.push_back(b.add_const(x, rational ? Rat(Int(static_cast<std::int64_t>(rng() % 5) + 1), Int(3))
                                             : Rat(static_cast<std::int64_t>(rng() % 9) - 4)));
  }
  for (std::size_t o = 0; o < outputs; ++o) b.output("y" + std::to_string(o), w[w.size() - 1 - (o * 7) % w.size()]);
  return std::move(b).finish();
}

}  // namespace cz::test
