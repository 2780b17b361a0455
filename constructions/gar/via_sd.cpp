#include "constructions/gar/via_sd.h"

#include <memory>
#include <set>
#include <stdexcept>

#include "constructions/sd/based_jrt.h"
#include "constructions/sd/recurrent_jrt.h"
#include "model/recurrent.h"

namespace cz::garc {

SdOracle reference_oracle() {
  return [](const sd::Instance& x) { return sd::intersection(x); };
}

SdOracle recurrent_oracle(unsigned n) { return recurrent_oracle(n, sdc::alg3_rules(sdc::Alg3Threshold::Fixed)); }

SdOracle recurrent_oracle(unsigned n, const sdc::Alg3Rules& rules) {
  auto art = std::make_shared<sdc::RecurrentArtifact>();
  art->n = n;
  art->rules = rules;
  art->program = sdc::alg3_program(n, rules);
  return [art](const sd::Instance& x) { return sdc::run_on(*art, x).got.common; };
}

SdOracle based_oracle(unsigned n) {
  sdc::PipelineConfig cfg;
  cfg.n = n;
  auto P = std::make_shared<const sdc::Pipeline>(cfg);
  return [P](const sd::Instance& x) { return sdc::run_pipeline(*P, x).common; };
}

unsigned token_bits(std::uint32_t c) { return std::max(1u, bits_for(c)); }
unsigned code_bits(std::uint32_t c) { return bits_for(std::uint64_t(c) + 1); }

ViaSd gar_via_sd(const gar::Instance& x, const SdOracle& oracle) {
  const unsigned n = token_bits(x.c), d = code_bits(x.c);
  std::vector<std::uint32_t> Q;  // the queries as a set (first occurrences, prompt order)
  std::set<std::uint32_t> seen;
  for (std::uint32_t q : x.queries)
    if (seen.insert(q).second) Q.push_back(q);
  ViaSd out;
  std::vector<std::uint32_t> code(std::size_t(1) << n, 0);  // per token: the bits recovered so far
  for (unsigned l = 0; l < d; ++l) {
    sd::Instance call{n, Q, {}};
    for (std::size_t j = 0; j < x.keys.size(); ++j)
      if (((x.values[j] + 1) >> l) & 1) call.B.push_back(x.keys[j]);  // K_l
    for (std::uint32_t q : oracle(call)) code.at(q) |= std::uint32_t(1) << l;
    out.calls.push_back(std::move(call));
  }
  for (std::uint32_t q : x.queries)
    out.answers.push_back(code[q] == 0 ? std::nullopt : std::optional<std::uint32_t>(code[q] - 1));
  return out;
}

SdViaGar sd_via_gar(const sd::Instance& x, const GarSolver& solver) {
  gar::Instance g{std::uint32_t(1) << x.n, x.A, std::vector<std::uint32_t>(x.A.size(), 0), x.B};
  auto ans = solver(g);
  SdViaGar out;
  std::set<std::uint32_t> common;
  for (std::size_t i = 0; i < ans.size(); ++i)
    if (ans[i]) common.insert(x.B[i]);
  out.common.assign(common.begin(), common.end());
  out.intersects = !out.common.empty();
  return out;
}

}  // namespace cz::garc
