// --method algebra's closed-form budget (issue 46 item 13): from the shapes and the weights' bits,
// before anything is built or allocated, the least an expansion holds, the bound twin's own work,
// and Hyena's compositional steps; refusals name the estimate and the budget.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "exact/rational.h"
#include "model/model.h"

namespace cz::algebra_budget {

// Bits of a rational as stored (numerator and denominator).
double rat_bits(const Rat& q);
// Bits a term's coefficient may reach: the sum over the layers of their largest weight's bits.
double coefficient_bits(const Model& m);
double coefficient_bytes(double bits);
// Bytes a term takes with nvars symbols and coefficients of `bits` bits.
double term_bytes(std::size_t nvars, double bits);
// The least the expansion holds whatever the model: the N·d input symbols and the model's copy.
double expansion_floor(std::size_t N, std::size_t d, std::size_t nvars, double bits);
// Above this many word operations the bound twin's estimate is not run.
inline constexpr double kTwinWork = 4e8;
double twin_work(const Model& m, std::size_t nvars);
// Hyena's compositional route (wide simulation, order k): its largest step.
struct StepEstimate {
  double bytes = 0, terms = 0;
  std::size_t symbols = 0;
};
StepEstimate compositional_estimate(std::size_t N, std::size_t d, std::size_t k, std::size_t nweights, double bits);
std::string floor_message(std::size_t N, std::size_t d, std::size_t nvars, double bits, std::uint64_t budget);
std::string compositional_message(const StepEstimate& c, std::uint64_t budget);

}  // namespace cz::algebra_budget
