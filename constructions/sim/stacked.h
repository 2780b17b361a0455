// `-p stack=S` for the sim/* constructions (issue 35): S architecture layers, each with its own
// seeded weights (seed wseed + i, so S = 1 is the single layer as before), simulated one after
// another. The model is the S simulations stacked (model/model.h stack: every simulation leaves
// its state zero beyond its output width, as the architecture layers of model-json rely on); the
// reference is the S architecture evaluations composed. The stack gives row 16's "layers Õ(L)" a
// size to sweep: the gated convolution's L grows as S times one layer's.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "model/model.h"
#include "verify/params.h"

namespace cz::sim {

inline ParamSpec stack_param() {
  return int_param("stack", 1, 1, 64, "number of architecture layers stacked (each with its own weights, seed wseed + i)");
}

// The S operators, op(i) drawing layer i's weights.
template <class MakeOp>
auto stacked_ops(const Params& p, MakeOp op) {
  std::vector<decltype(op(std::uint64_t{0}))> ops;
  for (std::size_t i = 0; i < p.u("stack"); ++i) ops.push_back(op(p.u("wseed") + i));
  return ops;
}

// The simulations of the S operators, stacked.
template <class Op, class Compile>
Model stacked_model(const std::vector<Op>& ops, Compile compile) {
  Model m = compile(ops.front());
  for (std::size_t i = 1; i < ops.size(); ++i) m = stack(m, compile(ops[i]));
  return m;
}

// The reference: the S architecture evaluations composed (layer 0 first). It holds its own copy
// of the operators: a check may run it after the caller's state is gone.
template <class Op, class Eval>
auto composed(const std::vector<Op>& ops, Eval eval) {
  auto held = std::make_shared<const std::vector<Op>>(ops);
  return [held, eval](const auto& r, const auto& u) {
    auto x = eval(r, held->front(), u);
    for (std::size_t i = 1; i < held->size(); ++i) x = eval(r, (*held)[i], x);
    return x;
  };
}

}  // namespace cz::sim
