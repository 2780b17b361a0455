// What `verify NAME --method algebra --algebra-symbols weights` (issue 37; app/engine/algebra/algebra.h)
// needs from a sim/* construction: its compiler and the architecture's own evaluation, both run
// with the operator's WEIGHTS as symbols beside the input's. Variables: x_0..x_{N·d−1} are the
// input u (row-major), x_{N·d + k} is weight k in map_weights' order (model/weight_map.h).
//   poly / bound: the compiled model's layers (sim::ModelShell over RingScalar<R>: every BaseConv
//                 weight a polynomial in the weight symbols, made by the SAME template the shipped
//                 Rat model comes from, model/zoo_compile.h) and the reference's output on u.
//   exact:        at a point of the weights (rationals, same order), the shipped Rat compiler's
//                 Model and the reference's output on a rational u: confirms a counterexample.
// make_weight_symbolic() builds all three from one operator, a compile function and an eval
// function (generic lambdas), so the symbols, the bound and the point cannot drift apart.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "exact/poly.h"
#include "exact/ring_scalar.h"
#include "model/weight_map.h"
#include "model/zoo_compile.h"

namespace cz {

struct WeightSymbolic {
  std::size_t N = 0, d = 0;              // the input's shape
  std::vector<std::string> names;        // the weight symbols, in order
  std::vector<Rat> seeded;               // their values in the construction's operator
  std::string operator_name;             // "hyena", "h3", "retnet", "rwkv"
  std::string note;                      // what "every weight" covers (e.g. the rotation, off the circle too)
  std::function<std::pair<sim::ModelShell<RingScalar<RingPolyQ>>, Matrix<PolyQ>>(const RingPolyQ&, const Matrix<PolyQ>&)> poly;
  std::function<std::pair<sim::ModelShell<RingScalar<RingBound>>, Matrix<PolyBound>>(const RingBound&, const Matrix<PolyBound>&)> bound;
  std::function<std::pair<Model, Matrix<Rat>>(const std::vector<Rat>&, const Matrix<Rat>&)> exact;
};

// op: the operator over Rat; compile(op_S) -> sim::ModelShell<S> for S = Rat and RingScalar<R>;
// eval(r, op_S, u) -> the reference's output in ring r.
template <class Op, class Compile, class Eval>
std::shared_ptr<WeightSymbolic> make_weight_symbolic(const Op& op, std::size_t N, std::size_t d, std::string operator_name,
                                                     std::string note, Compile compile, Eval eval) {
  auto w = std::make_shared<WeightSymbolic>();
  w->N = N, w->d = d, w->operator_name = std::move(operator_name), w->note = std::move(note);
  map_weights<Rat>(op, [&](const std::string& n, const Rat& q) {
    w->names.push_back(n);
    w->seeded.push_back(q);
    return q;
  });
  auto symbolic = [op, compile, eval, N, d](const auto& r, const auto& u) {
    using R = std::decay_t<decltype(r)>;
    std::size_t k = N * d;
    const auto sop = map_weights<RingScalar<R>>(op, [&](const std::string&, const Rat&) { return RingScalar<R>(r, r.var(k++)); });
    return std::make_pair(compile(sop), eval(r, sop, u));
  };
  w->poly = symbolic;
  w->bound = symbolic;
  w->exact = [op, compile, eval](const std::vector<Rat>& x, const Matrix<Rat>& u) {
    std::size_t k = 0;
    const Op at = map_weights<Rat>(op, [&](const std::string&, const Rat&) { return x.at(k++); });
    return std::make_pair(sim::to_model(compile(at), "Q"), eval(RingQ{}, at, u));
  };
  return w;
}

}  // namespace cz
