// Exact evaluation of a Circuit over any Ring (exact/rings.h: Z, Q, Fp, checked int64), written
// once. Constants are converted into the ring once per Evaluator; evaluation is one forward pass
// over the gate array into a preallocated value array (no allocation per gate).
//   Evaluator<RingQ> ev(RingQ{}, c);  std::vector<Rat> y = ev(x);   // x: one value per input
// eval_integer() is the checked fast path: int64 first, and on Overflow the whole evaluation is
// redone in Z (FLINT), so the result is always exact. A constant that is not in the ring (a
// rational over Z, or a denominator divisible by p) throws std::domain_error.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "circuits/circuit.h"
#include "exact/rings.h"

namespace cz::circuits {

template <Ring R>
class Evaluator {
 public:
  using E = typename R::Elem;
  // Only live gates (those an output needs) are evaluated, so a dead constant that is not in the
  // ring, or a dead gate that would overflow, does not matter.
  Evaluator(R ring, const Circuit& c) : ring_(std::move(ring)), c_(c), consts_(c.num_constants(), ring_.zero()) {
    live_.assign(c.size(), 0);
    for (const auto& o : c.outputs()) live_[o.gate] = 1;
    for (GateId i = static_cast<GateId>(c.size()); i-- > 0;) {
      const Gate& g = c.gate(i);
      if (!live_[i]) continue;
      if (g.op == Op::Add || g.op == Op::Mul) live_[g.a] = live_[g.b] = 1;
      if (g.op == Op::Const) consts_[g.a] = ring_.from_rat(c.constant(g.a));
    }
  }

  // Values of every live gate (index = gate id; dead gates hold zero).
  void eval_all(const std::vector<E>& inputs, std::vector<E>& v) const {
    if (inputs.size() != c_.num_inputs())
      throw std::invalid_argument("circuit has " + std::to_string(c_.num_inputs()) + " inputs, got " +
                                  std::to_string(inputs.size()));
    const std::size_t n = c_.size();
    v.assign(n, ring_.zero());
    for (GateId i = 0; i < n; ++i) {
      if (!live_[i]) continue;
      const Gate& g = c_.gate(i);
      switch (g.op) {
        case Op::Input: v[i] = inputs[g.a]; break;
        case Op::Const: v[i] = consts_[g.a]; break;
        case Op::Add: v[i] = ring_.add(v[g.a], v[g.b]); break;
        case Op::Mul: v[i] = ring_.mul(v[g.a], v[g.b]); break;
      }
    }
  }

  std::vector<E> operator()(const std::vector<E>& inputs) const {
    std::vector<E> v;
    eval_all(inputs, v);
    std::vector<E> out;
    out.reserve(c_.outputs().size());
    for (const auto& o : c_.outputs()) out.push_back(v[o.gate]);
    return out;
  }

  const R& ring() const { return ring_; }

 private:
  R ring_;
  const Circuit& c_;
  std::vector<E> consts_;
  std::vector<std::uint8_t> live_;
};

// Exact integer outputs (int64 fast path, Z on overflow). Precondition: integral constants.
std::vector<Int> eval_integer(const Circuit& c, const std::vector<std::int64_t>& inputs);

}  // namespace cz::circuits
