// Shared helpers of the SAT tests (tests/sat/): a model checked against its CNF, a DRAT proof
// checked by the in-tree checker, an AIG evaluated on one input, and a circuit rebuilt with each
// AND node doubled. (app/engine/sat/sat_check_proof.cpp's model_satisfies is file-local, so it
// cannot be reused here.)
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "circuits/aig.h"
#include "circuits/builder.h"
#include "circuits/sat/cnf.h"
#include "circuits/sat/drat_check.h"

namespace cz::test_sat {

// Whether model m (m[v] = 1 / 0 for v in 1..num_vars, as solvers return it) satisfies every clause
// of c. A variable beyond the model throws (std::out_of_range): a short model is a failure.
inline bool satisfies(const circuits::sat::Cnf& c, const std::vector<signed char>& m) {
  bool ok = false;
  for (int l : c.lits) {
    if (l == 0) {
      if (!ok) return false;
      ok = false;
      continue;
    }
    const signed char v = m.at(static_cast<std::size_t>(l > 0 ? l : -l));
    ok = ok || (l > 0 ? v == 1 : v == 0);
  }
  return true;
}

// A DRAT proof of c's unsatisfiability checked by the in-tree checker, c and the proof read back
// from the bytes a solver would see (c as DIMACS).
inline circuits::sat::DratResult check(const circuits::sat::Cnf& c, const std::string& proof) {
  namespace sat = circuits::sat;
  std::ostringstream d;
  c.write_dimacs(d);
  return sat::check_drat(sat::read_dimacs(d.str(), "cnf"), sat::read_drat(proof, "proof"));
}

// The outputs of c on one input (bits[k]: input k), by name.
inline std::map<std::string, int> eval_at(const circuits::Circuit& c, const std::vector<std::uint32_t>& bits) {
  const circuits::Aig a = circuits::to_aig(c);
  REQUIRE(bits.size() == a.num_inputs);
  std::vector<std::uint64_t> in(a.num_inputs);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = bits[i] ? ~std::uint64_t{0} : 0;
  const std::vector<std::uint64_t> out = a.eval64(in);
  std::map<std::string, int> r;
  for (std::size_t k = 0; k < out.size(); ++k) r[a.output_names[k]] = static_cast<int>(out[k] & 1);
  return r;
}

// c with every AND node n = a ∧ b rebuilt as a ∧ (a ∧ b): the same function, each node another
// (a sweep must find its pairs; none is shared structurally). swap_first_outputs: the first output
// swapped with the first later output that is a different literal (a mutant of the file).
inline circuits::Circuit doubled(const circuits::Circuit& c, bool swap_first_outputs = false) {
  const circuits::Aig a = circuits::to_aig(c);
  circuits::Aig d;
  d.num_inputs = a.num_inputs;
  d.input_names = a.input_names;
  d.output_names = a.output_names;
  std::vector<std::uint32_t> map(1 + a.num_inputs + a.ands.size());
  for (std::uint32_t i = 0; i <= a.num_inputs; ++i) map[i] = 2 * i;
  auto through = [&](std::uint32_t l) { return map[l >> 1] ^ (l & 1); };
  auto push = [&](std::uint32_t x, std::uint32_t y) {
    d.ands.emplace_back(std::max(x, y), std::min(x, y));
    return static_cast<std::uint32_t>(2 * (d.num_inputs + d.ands.size()));
  };
  for (std::size_t k = 0; k < a.ands.size(); ++k) {
    const std::uint32_t x = through(a.ands[k].first), y = through(a.ands[k].second);
    map[1 + a.num_inputs + k] = push(x, push(x, y));
  }
  for (std::uint32_t o : a.outputs) d.outputs.push_back(through(o));
  if (swap_first_outputs) {  // two outputs that are not the same function
    for (std::size_t k = 1; k < d.outputs.size(); ++k)
      if (d.outputs[k] != d.outputs[0]) {
        std::swap(d.outputs[0], d.outputs[k]);
        break;
      }
  }
  return circuits::from_aig(d);
}

}  // namespace cz::test_sat
