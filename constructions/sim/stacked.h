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
#include <stdexcept>
#include <string>
#include <vector>

#include "exact/rings.h"
#include "model/model.h"
#include "tensor/matrix.h"
#include "util/seeded.h"
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

// Issue 46 item 4: seeded weights must make every output depend on the input. Whether every
// output entry of the composed operators is a nonzero polynomial of the input, decided one way:
// the composition evaluated exactly in F_p (p = 2^61 − 1) at one seeded input; a nonzero value
// there is a nonzero polynomial. A zero (an identically zero entry, or rarely a root) says no.
template <class Op, class Eval>
bool every_output_nonzero(const std::vector<Op>& ops, Eval eval, std::size_t N, std::size_t width) {
  const RingFp f(2305843009213693951ULL);
  std::uint64_t s = 0x6e6f6e7a65726fULL;
  Matrix<std::uint64_t> u(N, width, 0);
  for (auto& x : u.data()) x = splitmix64(s++) % f.prime();
  try {
    const auto y = composed(ops, eval)(f, u);
    for (const auto v : y.data())
      if (v == 0) return false;
  } catch (const std::domain_error&) {  // a weight whose denominator p divides
    return false;
  }
  return true;
}

// The S operators of stacked_ops, redrawn while an output entry is identically zero (draw r > 0
// uses seeds wseed + i + r·2^32; draw 0 is stacked_ops' own, so weights that already made every
// output depend on the input are unchanged). `redraws` says how many draws were refused.
template <class MakeOp, class Eval>
auto nonvacuous_ops(const Params& p, MakeOp op, Eval eval, std::size_t N, std::size_t width, std::size_t& redraws) {
  for (redraws = 0;; ++redraws) {
    std::vector<decltype(op(std::uint64_t{0}))> ops;
    for (std::size_t i = 0; i < p.u("stack"); ++i) ops.push_back(op(p.u("wseed") + i + (static_cast<std::uint64_t>(redraws) << 32)));
    if (redraws == 64 || every_output_nonzero(ops, eval, N, width)) return ops;
  }
}

inline std::string redraw_note(std::size_t redraws) {
  return "weights redrawn " + std::to_string(redraws) + " time(s) (seeds wseed + i + r·2^32): the seeded draw left an output entry "
         "identically zero, which no check could tell from a wrong one";
}

}  // namespace cz::sim
