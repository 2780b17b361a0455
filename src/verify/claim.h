// A paper's claim about a construction's cost, and what we achieved beside it.
//   kind exact       : achieved must equal the claimed value
//   kind upper_bound : achieved must be at most the claimed value
//   kind asymptotic  : an O(.) shape; checked by `sweep` fits, never by one size (holds = null)
// `binding` claims are asserted by our own construction: a failure exits 1. Non-binding claims
// are the paper's numbers for the paper's (possibly different) construction: we show whether our
// artifact meets them ("met"/"missed"), which is a finding, not a counterexample.
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace cz {

struct Claim {
  std::string quantity;      // layers, inner_N, inner_d, params_dense, ..., state_bits, work
  std::string claimed;       // as displayed: "3", "N", "O(1)", "O(t*N*c)"
  std::string kind;          // exact | upper_bound | asymptotic
  std::string source;        // e.g. "Based Prop F.38 (via JRT Lemma G.20)"
  std::optional<long long> claimed_value;  // the claimed value at these parameters, when numeric
  // For asymptotic claims: the O(.) shape evaluated at these parameters (e.g. t*N*c), so that
  // `sweep` can fit log(achieved) against log(shape) and show achieved/shape ratios.
  std::optional<double> shape_value;
  nlohmann::json achieved;   // a number, or null when not measured
  std::optional<bool> holds;
  bool binding = false;
  std::string note;
};

// Fills `holds` from kind, claimed_value and achieved.
Claim evaluate(Claim c);
Claim paper_claim(std::string quantity, std::string claimed, std::optional<long long> value, std::string kind,
                  std::string source, nlohmann::json achieved, std::string note = "");
Claim our_claim(std::string quantity, long long value, std::string kind, std::string source,
                nlohmann::json achieved, std::string note = "");
// An asymptotic paper claim with its shape evaluated at these parameters.
Claim shape_claim(std::string quantity, std::string claimed, double shape_value, std::string source,
                  nlohmann::json achieved, std::string note = "");
nlohmann::json to_json(const Claim& c);

}  // namespace cz
