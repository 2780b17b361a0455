// What `verify --method algebra` (app/engine/algebra/algebra.h) needs from a construction whose check
// compares a model with an architecture's own evaluation (sim/*): that evaluation as a generic
// function run on symbols (RingPolyQ), on the bound twin (RingBound, the estimate before anything
// is allocated) and on numbers (RingQ, to confirm a counterexample), plus the Hyena operator
// itself when the model is its wide simulation (the compositional route).
// A construction attaches it to its Built's state: attach_symbolic(state, make_symbolic_reference(
// [..](const auto& r, const auto& u) {...}, name)); symbolic_of(built) finds it. A side table keyed
// by the state (held weakly), so that Built (verify/construction.h), which every file includes,
// stays as it is; a field of Built would do the same.
#pragma once
#include <functional>
#include <memory>

#include "exact/poly.h"
#include "exact/poly_fp.h"
#include "exact/rings.h"
#include "model/arch_layer.h"
#include "model/hyena.h"
#include "tensor/matrix.h"
#include "verify/construction.h"
#include "verify/weight_symbolic.h"

namespace cz {

struct SymbolicReference {
  std::function<Matrix<PolyQ>(const RingPolyQ&, const Matrix<PolyQ>&)> poly;
  std::function<Matrix<PolyBound>(const RingBound&, const Matrix<PolyBound>&)> bound;
  std::function<Matrix<Rat>(const Matrix<Rat>&)> exact;
  // The same over F_p (models whose ring is Fp:<p>): on symbols in F_p[x], and on numbers in F_p.
  std::function<Matrix<PolyFp>(const RingPolyFp&, const Matrix<PolyFp>&)> poly_fp;
  std::function<Matrix<std::uint64_t>(const RingFp&, const Matrix<std::uint64_t>&)> exact_fp;
  std::string name;  // what the reference is, for the report
  // Set when the model is sim::hyena_to_baseconv(*hyena, short_conv) (wide layout).
  std::shared_ptr<const HyenaOperator> hyena;
  bool hyena_short_conv = true;
  // Set when the model is one operator's simulation (stack = 1): the weights-as-symbols proof.
  std::shared_ptr<const WeightSymbolic> weights;
  // Set when the model is one operator's simulation (stack = 1): that operator as a model-json
  // architecture layer (`export NAME --format operator`, the file `verify --task KIND --operator` reads).
  std::shared_ptr<const ArchLayer> arch;
};

template <class F>
std::shared_ptr<SymbolicReference> make_symbolic_reference(F f, std::string name) {
  auto s = std::make_shared<SymbolicReference>();
  s->poly = [f](const RingPolyQ& r, const Matrix<PolyQ>& u) { return f(r, u); };
  s->bound = [f](const RingBound& r, const Matrix<PolyBound>& u) { return f(r, u); };
  s->exact = [f](const Matrix<Rat>& u) { return f(RingQ{}, u); };
  s->poly_fp = [f](const RingPolyFp& r, const Matrix<PolyFp>& u) { return f(r, u); };
  s->exact_fp = [f](const RingFp& r, const Matrix<std::uint64_t>& u) { return f(r, u); };
  s->name = std::move(name);
  return s;
}

// Thread-safe; entries whose state has died are dropped.
void attach_symbolic(const std::shared_ptr<const void>& state, std::shared_ptr<const SymbolicReference> s);
std::shared_ptr<const SymbolicReference> symbolic_of(const Built& b);  // nullptr when none

}  // namespace cz
