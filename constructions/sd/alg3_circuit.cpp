#include "constructions/sd/alg3_circuit.h"

#include "circuits/gadgets_bits.h"
#include "circuits/gadgets_compare.h"
#include "model/recurrent.h"

namespace cz::sdc {

namespace g = circuits::gadgets;
using circuits::Wire;

namespace {

std::string cell(const std::string& p, const char* letter, std::size_t r, std::size_t j) {
  return p + letter + "[" + std::to_string(r) + "][" + std::to_string(j) + "]";
}

struct Slot {
  Wire valid;
  g::Bits word;
};

// Z contains e (the bag before this row's step).
Wire contains(circuits::Builder& b, const std::vector<Slot>& bag, const g::Bits& e) {
  std::vector<Wire> hit;
  for (const auto& sl : bag) hit.push_back(g::and_(b, sl.valid, g::equal(b, sl.word, e)));
  return g::or_all(b, hit);
}

}  // namespace

std::vector<Wire> unroll_inputs(circuits::Builder& b, const UnrollSpec& s) {
  std::vector<Wire> u;
  for (std::size_t r = 0; r < s.N; ++r)
    for (unsigned j = 0; j <= s.n; ++j) u.push_back(b.input(cell(s.prefix, "u", r, j), circuits::Type::Bit));
  return u;
}

UnrolledWires unroll_alg3_wires(circuits::Builder& b, const UnrollSpec& s, const std::vector<Wire>& u) {
  const std::size_t N = s.N, rows = s.jrt ? 2 * N : N;
  std::vector<g::Bits> elem(N);
  std::vector<Wire> flag(N);
  for (std::size_t r = 0; r < N; ++r) {
    for (unsigned j = 0; j < s.n; ++j) elem[r].push_back(u.at(r * (s.n + 1) + j));
    flag[r] = u.at(r * (s.n + 1) + s.n);
  }
  std::vector<Slot> bag;
  std::vector<std::vector<Wire>> y(rows);
  // Registers (alg3.cpp init): isep = N on bits_for(N + 1) bits, smallFirst = 0; plain: after = 0.
  const std::size_t w = bits_for(N + 1);
  g::Bits isep = g::const_bits(b, N, w);
  Wire small = b.zero(), after = b.zero();
  for (std::size_t i = 0; i < rows; ++i) {
    const g::Bits& e = elem[i % N];
    const Wire f = flag[i % N];  // is_sep = flag_separator: column n is 1
    Wire ins = b.zero(), cmp = b.zero();
    if (s.jrt) {
      const Wire unseen = g::equal(b, isep, g::const_bits(b, N, w));
      const Wire seen = g::not_(b, unseen);
      // The windows of lines 16-27 on every value v < N of isep (v = N is `unseen`).
      std::vector<Wire> sa, cb, sb, ca;
      for (std::size_t v = 0; v < N; ++v) {
        const Wire at = g::equal(b, isep, g::const_bits(b, v, w));
        if (s.rules.store_a(i, N, v)) sa.push_back(at);
        if (s.rules.compare_b(i, N, v)) cb.push_back(at);
        if (s.rules.store_b(i, N, v)) sb.push_back(at);
        if (s.rules.compare_a(i, N, v)) ca.push_back(at);
      }
      const Wire store_a = g::or_all(b, sa), store_b = g::or_all(b, sb);
      const Wire compare_b = g::and_(b, g::not_(b, store_a), g::or_all(b, cb));  // else-if
      const Wire compare_a = g::and_(b, g::not_(b, store_b), g::or_all(b, ca));
      ins = g::and_(b, seen, g::mux(b, small, store_a, store_b));
      cmp = g::and_(b, seen, g::mux(b, small, compare_b, compare_a));
      if (i < N) {  // lines 5-9: the first separator sets isep = i and smallFirst (line 8)
        const Wire fire = g::and_(b, unseen, f);
        isep = g::mux_bits(b, fire, g::const_bits(b, i, w), isep);
        small = g::mux(b, fire, alg3_small_first(s.rules.threshold, i, N) ? b.one() : b.zero(), small);
      }
    } else {  // store_first_program: compare after the separator; before it insert, or set after
      cmp = after;
      ins = g::and_(b, g::not_(b, after), g::not_(b, f));
      after = g::or_(b, after, f);
    }
    const Wire has = contains(b, bag, e);
    for (unsigned j = 0; j < s.n; ++j) y[i].push_back(g::and_(b, cmp, e[j]));
    y[i].push_back(g::and_(b, cmp, has));
    const Rat* never = b.const_value(ins);
    if (!(never && never->is_zero())) bag.push_back({g::and_(b, ins, g::not_(b, has)), e});
  }
  UnrolledWires out;
  out.y = std::move(y);
  for (const auto& sl : bag) out.held.push_back(sl.valid);
  return out;
}

std::size_t unroll_alg3(circuits::Builder& b, const UnrollSpec& s, const std::vector<Wire>& u) {
  const UnrolledWires w = unroll_alg3_wires(b, s, u);
  for (std::size_t i = 0; i < w.y.size(); ++i)
    for (unsigned j = 0; j <= s.n; ++j) b.output(cell(s.prefix, "y", i, j), w.y[i][j]);
  for (std::size_t t = 0; t < w.held.size(); ++t) b.output(s.prefix + "held[" + std::to_string(t) + "]", w.held[t]);
  return w.held.size();
}

circuits::Circuit unrolled_alg3(const std::vector<UnrollSpec>& blocks, std::vector<std::size_t>* slots) {
  circuits::Builder b;
  // Inputs first (every block's), so the circuit's inputs are in block order.
  std::vector<std::vector<Wire>> u;
  for (const auto& s : blocks) u.push_back(unroll_inputs(b, s));
  if (slots) slots->clear();
  for (std::size_t bi = 0; bi < blocks.size(); ++bi) {
    const std::size_t k = unroll_alg3(b, blocks[bi], u[bi]);
    if (slots) slots->push_back(k);
  }
  return std::move(b).finish();
}

}  // namespace cz::sdc
