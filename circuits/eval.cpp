#include "circuits/eval.h"

namespace cz::circuits {

std::vector<Int> eval_integer(const Circuit& c, const std::vector<std::int64_t>& inputs) {
  std::vector<Int> out;
  try {
    Evaluator<RingI64> ev(RingI64{}, c);
    for (std::int64_t x : ev(inputs)) out.emplace_back(x);
    return out;
  } catch (const Overflow&) {
    out.clear();
  }
  Evaluator<RingZ> ev(RingZ{}, c);
  std::vector<Int> in(inputs.begin(), inputs.end());
  return ev(in);
}

}  // namespace cz::circuits
