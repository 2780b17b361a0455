#include "circuits/reference/eq_ref.h"

#include "circuits/gadgets_bits.h"

namespace cz::circuits::reference {

namespace g = gadgets;

unsigned token_width(std::uint64_t c) {
  unsigned w = 0;
  while (w < 64 && (std::uint64_t(1) << w) < c) ++w;
  return w == 0 ? 1 : w;
}

Wire below_const(Builder& b, const std::vector<Wire>& x, std::uint64_t c) {
  if (x.size() < 64 && c >= (std::uint64_t(1) << x.size())) return b.one();
  // x < c, scanning from the least significant bit: where the bits differ, the higher bit decides.
  Wire lt = b.zero();
  for (std::size_t k = 0; k < x.size(); ++k) {
    const Wire ck = (k < 64 && ((c >> k) & 1)) ? b.one() : b.zero();
    lt = g::mux(b, g::xnor_(b, x[k], ck), lt, ck);
  }
  return lt;
}

namespace {

struct Eq {
  g::Bits u1, u2;
  Wire domain, eq;
};

Eq inputs(Builder& b, std::uint64_t c) {
  Eq e;
  const unsigned w = token_width(c);
  for (unsigned k = 0; k < w; ++k) e.u1.push_back(b.input("u1[" + std::to_string(k) + "]", Type::Bit));
  for (unsigned k = 0; k < w; ++k) e.u2.push_back(b.input("u2[" + std::to_string(k) + "]", Type::Bit));
  return e;
}

// The task's meaning: both tokens below c; equal iff every bit agrees.
void semantics(Builder& b, std::uint64_t c, Eq& e) {
  const std::size_t w = e.u1.size();
  e.domain = g::and_(b, below_const(b, e.u1, c), below_const(b, e.u2, c));
  std::vector<Wire> same;
  for (std::size_t k = 0; k < w; ++k) same.push_back(g::xnor_(b, e.u1[k], e.u2[k]));
  e.eq = g::and_all(b, same);
}

}  // namespace

Circuit eq_reference_circuit(std::uint64_t c) {
  Builder b;
  Eq e = inputs(b, c);
  semantics(b, c, e);
  b.output("domain", e.domain);
  b.output("eq", e.eq);
  return std::move(b).finish();
}

Checker eq_checker(std::uint64_t c) {
  Builder b;
  Eq e = inputs(b, c);
  Checker ch;
  ch.task_inputs = b.peek().num_inputs();
  const Wire got = b.input("got:eq", Type::Bit);
  semantics(b, c, e);
  b.output("domain", e.domain);
  b.output("ok:eq", g::xnor_(b, got, e.eq));
  ch.groups = {"eq"};
  ch.family = {"eq"};
  ch.circuit = std::move(b).finish();
  return ch;
}

}  // namespace cz::circuits::reference
