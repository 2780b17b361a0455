#include "circuits/eval_bitslice.h"

#include <immintrin.h>

#include <array>
#include <stdexcept>

#include "circuits/lut3_map.h"
#include "circuits/slots.h"

namespace cz::circuits {

namespace {

typedef std::uint64_t V __attribute__((vector_size(64), aligned(8)));  // 8 words, unaligned loads
static_assert(sizeof(V) == BitSliced::kWords * 8);

using K = BitSliced::K;

bool cpu_has_avx512f() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f");
}

// K::Lut3 (lut3_map.h): the generic route never runs (tables are emitted only on AVX-512 CPUs) but
// stays exact: the sum of the table's minterms.
struct LutGeneric {
  static void run(V* d, const V* x, const V* y, const V* z, std::size_t nb, std::uint8_t t) {
    for (std::size_t j = 0; j < nb; ++j) {
      V r{};
      for (int m = 0; m < 8; ++m)
        if ((t >> m) & 1) r |= ((m & 4) ? x[j] : ~x[j]) & ((m & 2) ? y[j] : ~y[j]) & ((m & 1) ? z[j] : ~z[j]);
      d[j] = r;
    }
  }
};

// vpternlogq takes its table as an immediate: one case per table.
struct LutAvx512 {
  __attribute__((target("avx512f"))) static void run(V* d, const V* x, const V* y, const V* z, std::size_t nb,
                                                      std::uint8_t t) {
#define CZ_LUT(T)                                                                                                   \
  case T:                                                                                                           \
    for (std::size_t j = 0; j < nb; ++j)                                                                            \
      d[j] = reinterpret_cast<V>(_mm512_ternarylogic_epi64(reinterpret_cast<__m512i>(x[j]), reinterpret_cast<__m512i>(y[j]), \
                                                             reinterpret_cast<__m512i>(z[j]), T));                  \
    break;
#define CZ_LUT4(T) CZ_LUT(T) CZ_LUT(T + 1) CZ_LUT(T + 2) CZ_LUT(T + 3)
#define CZ_LUT16(T) CZ_LUT4(T) CZ_LUT4(T + 4) CZ_LUT4(T + 8) CZ_LUT4(T + 12)
#define CZ_LUT64(T) CZ_LUT16(T) CZ_LUT16(T + 16) CZ_LUT16(T + 32) CZ_LUT16(T + 48)
    switch (t) { CZ_LUT64(0) CZ_LUT64(64) CZ_LUT64(128) CZ_LUT64(192) }
#undef CZ_LUT64
#undef CZ_LUT16
#undef CZ_LUT4
#undef CZ_LUT
  }
};

// The hot loop, inlined into one function per ISA. nb blocks per instruction (the dispatch is paid
// once for all of them): slot s of block j is w[(s·nb + j)·W], input i of block j is in[(j·n_in + i)·W].
template <class Lut>
inline __attribute__((always_inline)) void run_ops(const BitSliced::Instr* code, std::size_t n, const std::uint64_t* in,
                                                   std::size_t n_in, std::uint64_t* w, std::size_t nb) {
  constexpr std::size_t W = BitSliced::kWords;
  const std::size_t S = nb * W;
  for (std::size_t k = 0; k < n; ++k) {
    const BitSliced::Instr& I = code[k];
    V* d = reinterpret_cast<V*>(w + std::size_t{I.dst} * S);
    const V* x = reinterpret_cast<const V*>(w + std::size_t{I.x} * S);
    const V* y = reinterpret_cast<const V*>(w + std::size_t{I.y} * S);
    const V* z = reinterpret_cast<const V*>(w + std::size_t{I.z} * S);
    switch (I.k) {
      case K::Input:
        for (std::size_t j = 0; j < nb; ++j) d[j] = *reinterpret_cast<const V*>(in + (j * n_in + I.x) * W);
        break;
      case K::Const0: for (std::size_t j = 0; j < nb; ++j) d[j] = V{}; break;
      case K::Const1: for (std::size_t j = 0; j < nb; ++j) d[j] = ~V{}; break;
      case K::Not: for (std::size_t j = 0; j < nb; ++j) d[j] = ~x[j]; break;
      case K::And: for (std::size_t j = 0; j < nb; ++j) d[j] = x[j] & y[j]; break;
      case K::Or: for (std::size_t j = 0; j < nb; ++j) d[j] = x[j] | y[j]; break;
      case K::Xor: for (std::size_t j = 0; j < nb; ++j) d[j] = x[j] ^ y[j]; break;
      case K::Xnor: for (std::size_t j = 0; j < nb; ++j) d[j] = ~(x[j] ^ y[j]); break;
      case K::Mux: for (std::size_t j = 0; j < nb; ++j) d[j] = (x[j] & y[j]) | (~x[j] & z[j]); break;
      case K::Lut3: Lut::run(d, x, y, z, nb, I.t); break;
      case K::AndC: {
        const std::uint64_t f = I.z;
        const V cx = V{} - static_cast<std::uint64_t>(f & 1), cy = V{} - static_cast<std::uint64_t>((f >> 1) & 1),
                cr = V{} - static_cast<std::uint64_t>(f >> 2);
        const V* xa = reinterpret_cast<const V*>(w + std::size_t{I.x} * S);
        for (std::size_t j = 0; j < nb; ++j) d[j] = ((xa[j] ^ cx) & (y[j] ^ cy)) ^ cr;
        break;
      }
    }
  }
}


__attribute__((target_clones("avx2", "default"))) void run_program(const BitSliced::Instr* code, std::size_t n,
                                                                   const std::uint64_t* in, std::size_t n_in,
                                                                   std::uint64_t* w, std::size_t nb) {
  run_ops<LutGeneric>(code, n, in, n_in, w, nb);
}

__attribute__((target("avx512f"))) void run_program_avx512(const BitSliced::Instr* code, std::size_t n,
                                                           const std::uint64_t* in, std::size_t n_in, std::uint64_t* w,
                                                           std::size_t nb) {
  run_ops<LutAvx512>(code, n, in, n_in, w, nb);
}

}  // namespace

BitSliced::BitSliced(const Circuit& c, bool fuse_not) : n_inputs_(c.num_inputs()) {
  if (!c.all_outputs_bit())
    throw std::invalid_argument(
        "bit-sliced evaluation needs a circuit whose outputs are all Bit wires (evaluating an integer circuit mod 2 "
        "is unsound)");
  // The Boolean skeleton: Bit gates reachable from the outputs through BitDef operands.
  std::vector<std::uint8_t> need = boolean_skeleton(c);
  std::vector<std::uint32_t> node_of(c.size(), kNoSlot);
  struct Node { BoolOp op; std::uint32_t input; std::array<std::uint32_t, 3> arg; std::array<bool, 2> neg; };
  std::vector<Node> nodes;
  for (GateId i = 0; i < c.size(); ++i) {
    if (!need[i]) continue;
    const BitDef& d = c.bit_def(i);
    node_of[i] = static_cast<std::uint32_t>(nodes.size());
    auto nd = [&](GateId g) { return g == kNoGate ? kNoSlot : node_of[g]; };
    nodes.push_back({d.op, d.op == BoolOp::Input ? c.gate(i).a : 0u, {nd(d.x), nd(d.y), nd(d.z)}, {false, false}});
  }
  if (fuse_not)
    for (Node& nd : nodes) {
      const bool two = nd.op == BoolOp::And || nd.op == BoolOp::Or || nd.op == BoolOp::Xor || nd.op == BoolOp::Xnor;
      for (int j = 0; j < (two ? 2 : nd.op == BoolOp::Mux ? 1 : 0); ++j)
        while (nodes[nd.arg[j]].op == BoolOp::Not) {
          nd.arg[j] = nodes[nd.arg[j]].arg[0];
          nd.neg[j] = !nd.neg[j];
        }
      if (nd.op == BoolOp::Mux && nd.neg[0]) {  // ~s ? a : c = s ? c : a
        std::swap(nd.arg[1], nd.arg[2]);
        nd.neg[0] = false;
      }
      if (nd.op == BoolOp::Xor || nd.op == BoolOp::Xnor) {  // a complement toggles XOR ↔ XNOR
        if (nd.neg[0] != nd.neg[1]) nd.op = nd.op == BoolOp::Xor ? BoolOp::Xnor : BoolOp::Xor;
        nd.neg = {false, false};
      }
    }
  // Nodes still read (NOTs absorbed by every reader drop out).
  std::vector<std::uint8_t> used(nodes.size(), 0), pinned(nodes.size(), 0);
  for (const auto& o : c.outputs()) used[node_of[o.gate]] = pinned[node_of[o.gate]] = 1;
  for (std::size_t k = nodes.size(); k-- > 0;)
    if (used[k])
      for (std::uint32_t a : nodes[k].arg)
        if (a != kNoSlot) used[a] = 1;
  // 3-input tables where vpternlogq runs them (lut3_map.h); a folded node is no longer evaluated.
  Lut3Map lut;
  const bool use_lut3 = fuse_not && cpu_has_avx512f();
  if (use_lut3) {
    std::vector<Lut3Node> ln(nodes.size());
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const Node& nd = nodes[k];
      Lut3Node& l = ln[k];
      switch (nd.op) {
        case BoolOp::Not: l.op = Lut3Node::Not; break;
        case BoolOp::And: l.op = Lut3Node::And; break;
        case BoolOp::Or: l.op = Lut3Node::Or; break;
        case BoolOp::Xor: l.op = Lut3Node::Xor; break;
        case BoolOp::Xnor: l.op = Lut3Node::Xnor; break;
        case BoolOp::Mux: l.op = Lut3Node::Mux; break;
        default: l.op = Lut3Node::Leaf; break;
      }
      l.arg = nd.arg;
      l.neg = nd.neg;
    }
    lut = map_lut3(ln, used, pinned);
    for (std::size_t k = 0; k < nodes.size(); ++k)
      if (lut.absorbed[k]) used[k] = 0;
  }
  std::vector<std::uint32_t> renum(nodes.size(), kNoSlot);
  std::vector<std::array<std::uint32_t, 3>> args;
  std::vector<std::uint8_t> pin;
  std::vector<std::size_t> kept;
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    if (!used[k]) continue;
    renum[k] = static_cast<std::uint32_t>(kept.size());
    kept.push_back(k);
    auto rn = [&](std::uint32_t a) { return a == kNoSlot ? kNoSlot : renum[a]; };
    const auto& a = use_lut3 && lut.mapped[k] ? lut.leaves[k] : nodes[k].arg;
    args.push_back({rn(a[0]), rn(a[1]), rn(a[2])});
    pin.push_back(pinned[k]);
  }
  SlotPlan plan = allocate_slots(args, pin);
  slots_ = plan.slots;
  for (std::size_t m = 0; m < kept.size(); ++m) {
    const Node& nd = nodes[kept[m]];
    auto sl = [&](std::size_t i) { return args[m][i] == kNoSlot ? 0u : plan.slot[args[m][i]]; };
    Instr in{K::Input, 0, plan.slot[m], sl(0), sl(1), sl(2)};
    const bool n0 = nd.neg[0], n1 = nd.neg[1];
    if (use_lut3 && lut.mapped[kept[m]]) {
      in.k = K::Lut3;
      in.t = lut.table[kept[m]];
      ++lut3_;
      code_.push_back(in);
      continue;
    }
    switch (nd.op) {
      case BoolOp::Input: in.k = K::Input; in.x = nd.input; break;
      case BoolOp::Const0: in.k = K::Const0; break;
      case BoolOp::Const1: in.k = K::Const1; break;
      case BoolOp::Not: in.k = K::Not; break;
      case BoolOp::And:
      case BoolOp::Or:
        if (!n0 && !n1) {
          in.k = nd.op == BoolOp::And ? K::And : K::Or;
        } else {  // x | y = ~(~x & ~y)
          const bool is_or = nd.op == BoolOp::Or;
          in.k = K::AndC;
          in.z = static_cast<std::uint32_t>((n0 != is_or) | (n1 != is_or) << 1 | is_or << 2);
        }
        break;
      case BoolOp::Xor: in.k = K::Xor; break;
      case BoolOp::Xnor: in.k = K::Xnor; break;
      case BoolOp::Mux: in.k = K::Mux; break;
    }
    code_.push_back(in);
  }
  for (const auto& o : c.outputs()) out_slot_.push_back(plan.slot[renum[node_of[o.gate]]]);
}

void BitSliced::run_block(const std::uint64_t* in, std::uint64_t* out, std::vector<std::uint64_t>& work) const {
  run_blocks(in, out, 1, work);
}

void BitSliced::run_blocks(const std::uint64_t* in, std::uint64_t* out, std::size_t nb,
                           std::vector<std::uint64_t>& work) const {
  const std::size_t S = nb * kWords;
  work.resize(std::max<std::size_t>(slots_, 1) * S);
  static const bool avx512 = cpu_has_avx512f();
  if (avx512) run_program_avx512(code_.data(), code_.size(), in, n_inputs_, work.data(), nb);
  else run_program(code_.data(), code_.size(), in, n_inputs_, work.data(), nb);
  const std::size_t O = out_slot_.size();
  for (std::size_t j = 0; j < nb; ++j)
    for (std::size_t o = 0; o < O; ++o)
      for (std::size_t w = 0; w < kWords; ++w) out[(j * O + o) * kWords + w] = work[std::size_t{out_slot_[o]} * S + j * kWords + w];
}

void BitSliced::exhaustive_inputs(std::uint64_t base, std::size_t n_inputs, std::uint64_t* in) {
  static constexpr std::uint64_t kPattern[6] = {0xAAAAAAAAAAAAAAAAULL, 0xCCCCCCCCCCCCCCCCULL, 0xF0F0F0F0F0F0F0F0ULL,
                                                0xFF00FF00FF00FF00ULL, 0xFFFF0000FFFF0000ULL, 0xFFFFFFFF00000000ULL};
  for (std::size_t i = 0; i < n_inputs; ++i)
    for (std::size_t w = 0; w < kWords; ++w) {
      std::uint64_t v;
      if (i < 6) v = kPattern[i];
      else if (i < 9) v = ((w >> (i - 6)) & 1) ? ~0ULL : 0ULL;
      else v = (i < 64 && ((base >> i) & 1)) ? ~0ULL : 0ULL;
      in[i * kWords + w] = v;
    }
}

}  // namespace cz::circuits
