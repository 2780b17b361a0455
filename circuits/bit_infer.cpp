#include "circuits/bit_infer.h"

#include <algorithm>
#include <array>
#include <optional>
#include <type_traits>

#include "circuits/builder.h"
#include "circuits/gadgets_bits.h"
#include "circuits/stats.h"

namespace cz::circuits {

namespace {

constexpr std::size_t kMaxCone = 48;

struct BitInfo {
  std::uint8_t k = 0;                      // leaves
  std::array<GateId, kMaxLeaves> leaf{};   // ascending ids
  std::uint64_t tt = 0;                    // bit m = value when leaf j = bit j of m
  bool is_bit = false;
};

// Truth table of t over leaves ls → wire (Shannon on the last leaf; AND/OR/XOR/NOT shortcuts).
Wire synth(Builder& b, std::uint64_t tt, unsigned k, const std::vector<Wire>& ls) {
  const unsigned rows = 1u << k;
  const std::uint64_t all = rows == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << rows) - 1;
  tt &= all;
  if (tt == 0) return b.zero();
  if (tt == all) return b.one();
  const unsigned h = rows / 2, v = k - 1;
  const std::uint64_t mh = (std::uint64_t{1} << h) - 1;
  const std::uint64_t f0 = tt & mh, f1 = (tt >> h) & mh;
  if (f0 == f1) return synth(b, f0, v, ls);
  const Wire x = ls[v];
  if (f0 == 0 && f1 == mh) return x;
  if (f0 == mh && f1 == 0) return gadgets::not_(b, x);
  if (f0 == 0) return gadgets::and_(b, x, synth(b, f1, v, ls));
  if (f1 == 0) return gadgets::and_(b, gadgets::not_(b, x), synth(b, f0, v, ls));
  if (f1 == mh) return gadgets::or_(b, x, synth(b, f0, v, ls));
  if (f0 == mh) return gadgets::or_(b, gadgets::not_(b, x), synth(b, f1, v, ls));
  if ((f0 ^ f1) == mh) return gadgets::xor_(b, x, synth(b, f0, v, ls));
  return gadgets::mux(b, x, synth(b, f1, v, ls), synth(b, f0, v, ls));
}

class Inferer {
 public:
  explicit Inferer(const Circuit& c) : c_(c), info_(c.size()) {}

  // Tries to certify gate g (Add/Mul) as Bit over a small cut; fills info_[g].
  void infer(GateId g) {
    // Leaves: the Bit frontier of g's cone; expanded: Bit wires evaluated through their tables.
    std::vector<GateId> cone, leaves, expanded;
    if (!frontier(g, cone, leaves)) return;
    for (int attempt = 0; attempt < 12; ++attempt) {
      if (leaves.size() <= kMaxLeaves) {
        std::optional<std::uint64_t> tt = table(cone, leaves, expanded);
        if (tt) {
          BitInfo& in = info_[g];
          in.is_bit = true;
          in.k = static_cast<std::uint8_t>(leaves.size());
          std::copy(leaves.begin(), leaves.end(), in.leaf.begin());
          in.tt = *tt;
          return;
        }
      }
      // Expand a derived Bit leaf through its own leaves (dependent leaves make assignments
      // unreachable): the one leaving the fewest leaves, the newest on ties.
      std::size_t best = leaves.size(), best_n = SIZE_MAX;
      for (std::size_t q = leaves.size(); q-- > 0;) {
        const GateId t = leaves[q];
        if (c_.gate(t).op == Op::Input) continue;
        std::size_t add = 0;
        for (unsigned j = 0; j < info_[t].k; ++j) {
          const GateId l = info_[t].leaf[j];
          add += std::find(leaves.begin(), leaves.end(), l) == leaves.end() &&
                 std::find(expanded.begin(), expanded.end(), l) == expanded.end();
        }
        if (add < best_n) best_n = add, best = q;
      }
      if (best == leaves.size()) return;
      const GateId t = leaves[best];
      leaves.erase(leaves.begin() + static_cast<long>(best));
      expanded.push_back(t);
      for (unsigned j = 0; j < info_[t].k; ++j) {
        const GateId l = info_[t].leaf[j];
        if (std::find(leaves.begin(), leaves.end(), l) == leaves.end() &&
            std::find(expanded.begin(), expanded.end(), l) == expanded.end())
          leaves.push_back(l);
      }
      std::sort(leaves.begin(), leaves.end());
    }
  }
  const BitInfo& info(GateId g) const { return info_[g]; }
  void set_leaf(GateId g) { info_[g].is_bit = true; }  // inputs, constants 0/1: their own leaf (k = 0)

 private:
  bool frontier(GateId g, std::vector<GateId>& cone, std::vector<GateId>& leaves) const {
    std::vector<GateId> stack{c_.gate(g).a, c_.gate(g).b};
    cone.push_back(g);
    while (!stack.empty()) {
      const GateId x = stack.back();
      stack.pop_back();
      if (std::find(cone.begin(), cone.end(), x) != cone.end() || std::find(leaves.begin(), leaves.end(), x) != leaves.end())
        continue;
      const Gate& gx = c_.gate(x);
      if (info_[x].is_bit && gx.op != Op::Const) {
        leaves.push_back(x);
        if (leaves.size() > 2 * kMaxLeaves) return false;
        continue;
      }
      cone.push_back(x);
      if (cone.size() > kMaxCone) return false;
      if (gx.op == Op::Add || gx.op == Op::Mul) {
        stack.push_back(gx.a);
        stack.push_back(gx.b);
      } else if (gx.op != Op::Const) {
        return false;  // an input that is not Bit cannot happen (inputs are leaves)
      }
    }
    std::sort(cone.begin(), cone.end());
    std::sort(leaves.begin(), leaves.end());
    return true;
  }

  // The table of cone's top (its last gate) over `leaves`, or nullopt when a value is not 0/1:
  // checked int64 first, exact Q when a constant is not a small integer or a value overflows.
  std::optional<std::uint64_t> table(const std::vector<GateId>& cone, const std::vector<GateId>& leaves,
                                     std::vector<GateId> expanded) const {
    std::sort(expanded.begin(), expanded.end());
    bool unsure = false;
    auto r = table_as<std::int64_t>(cone, leaves, expanded, unsure);
    if (!unsure) return r;
    return table_as<Rat>(cone, leaves, expanded, unsure);
  }

  template <class V>
  std::optional<std::uint64_t> table_as(const std::vector<GateId>& cone, const std::vector<GateId>& leaves,
                                        const std::vector<GateId>& expanded, bool& unsure) const {
    // Evaluation order: cone gates and expanded Bit wires, ascending ids.
    std::vector<GateId> order(cone);
    order.insert(order.end(), expanded.begin(), expanded.end());
    std::sort(order.begin(), order.end());
    std::vector<GateId> ids(leaves);
    ids.insert(ids.end(), order.begin(), order.end());
    std::vector<V> val(ids.size());
    auto idx = [&](GateId x) { return static_cast<std::size_t>(std::find(ids.begin(), ids.end(), x) - ids.begin()); };
    // Operand positions resolved once (npos: not available → not certifiable over this cut).
    const std::size_t L = leaves.size(), npos = ids.size();
    std::vector<std::array<std::size_t, kMaxLeaves>> pos(order.size());
    for (std::size_t q = 0; q < order.size(); ++q) {
      const GateId x = order[q];
      const Gate& gx = c_.gate(x);
      if (std::binary_search(expanded.begin(), expanded.end(), x)) {
        for (unsigned j = 0; j < info_[x].k; ++j)
          if ((pos[q][j] = idx(info_[x].leaf[j])) == npos) return std::nullopt;
      } else if (gx.op == Op::Add || gx.op == Op::Mul) {
        if ((pos[q][0] = idx(gx.a)) == npos || (pos[q][1] = idx(gx.b)) == npos) return std::nullopt;
      }
    }
    const std::size_t top = idx(cone.back());
    std::uint64_t tt = 0;
    for (unsigned m = 0; m < (1u << L); ++m) {
      for (std::size_t j = 0; j < L; ++j) val[j] = V(static_cast<std::int64_t>((m >> j) & 1));
      for (std::size_t q = 0; q < order.size(); ++q) {
        const GateId x = order[q];
        const Gate& gx = c_.gate(x);
        V& out = val[L + q];
        if (std::binary_search(expanded.begin(), expanded.end(), x)) {
          const BitInfo& in = info_[x];
          unsigned row = 0;
          for (unsigned j = 0; j < in.k; ++j) row |= static_cast<unsigned>(val[pos[q][j]] == V(std::int64_t{1})) << j;
          out = V(static_cast<std::int64_t>((in.tt >> row) & 1));
        } else if (gx.op == Op::Const) {
          const Rat& k = c_.constant(gx.a);
          if constexpr (std::is_same_v<V, Rat>) {
            out = k;
          } else {
            if (!k.is_integer() || !k.num().fits_int64()) return unsure = true, std::nullopt;
            out = k.num().to_int64();
          }
        } else if constexpr (std::is_same_v<V, Rat>) {
          out = gx.op == Op::Add ? val[pos[q][0]] + val[pos[q][1]] : val[pos[q][0]] * val[pos[q][1]];
        } else {
          const bool ovf = gx.op == Op::Add ? __builtin_add_overflow(val[pos[q][0]], val[pos[q][1]], &out)
                                            : __builtin_mul_overflow(val[pos[q][0]], val[pos[q][1]], &out);
          if (ovf) return unsure = true, std::nullopt;
        }
      }
      if (val[top] == V(std::int64_t{1})) tt |= std::uint64_t{1} << m;
      else if (!(val[top] == V(std::int64_t{0}))) return std::nullopt;
    }
    return tt;
  }

  const Circuit& c_;
  std::vector<BitInfo> info_;
};

}  // namespace

Circuit infer_bits(const Circuit& c) {
  const std::vector<std::uint8_t> live = live_gates(c);
  Inferer inf(c);
  Builder b;
  b.set_ring(c.ring());
  std::vector<Wire> w(c.size());
  for (std::size_t k = 0; k < c.num_inputs(); ++k) {
    w[c.input_gate(k)] = b.input(c.input_name(k), Type::Bit);
    inf.set_leaf(c.input_gate(k));
  }
  for (GateId i = 0; i < c.size(); ++i) {
    if (!live[i]) continue;
    const Gate& g = c.gate(i);
    switch (g.op) {
      case Op::Input: break;
      case Op::Const: {
        const Rat& q = c.constant(g.a);
        w[i] = b.constant(q);
        if (q == Rat(0) || q == Rat(1)) inf.set_leaf(i);
        break;
      }
      case Op::Add:
      case Op::Mul: {
        inf.infer(i);
        const BitInfo& in = inf.info(i);
        if (in.is_bit) {
          std::vector<Wire> ls;
          for (unsigned j = 0; j < in.k; ++j) ls.push_back(w[in.leaf[j]]);
          w[i] = synth(b, in.tt, in.k, ls);
        } else {
          w[i] = g.op == Op::Add ? b.add(w[g.a], w[g.b]) : b.mul(w[g.a], w[g.b]);
        }
        break;
      }
    }
  }
  for (const auto& o : c.outputs()) b.output(o.name, w[o.gate]);
  return std::move(b).finish();
}

}  // namespace cz::circuits
