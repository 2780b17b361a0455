#include "circuits/eval_bitslice.h"

#include <stdexcept>

#include "circuits/slots.h"

namespace cz::circuits {

namespace {

typedef std::uint64_t V __attribute__((vector_size(64), aligned(8)));  // 8 words, unaligned loads
static_assert(sizeof(V) == BitSliced::kWords * 8);

using K = BitSliced::K;

// The hot loop, cloned per ISA (GCC function multiversioning).
__attribute__((target_clones("avx512f", "avx2", "default"))) void run_program(const BitSliced::Instr* code, std::size_t n,
                                                                              const std::uint64_t* in, std::uint64_t* w) {
  constexpr std::size_t W = BitSliced::kWords;
  for (std::size_t k = 0; k < n; ++k) {
    const BitSliced::Instr& I = code[k];
    V* d = reinterpret_cast<V*>(w + std::size_t{I.dst} * W);
    const V* x = reinterpret_cast<const V*>(w + std::size_t{I.x} * W);
    const V* y = reinterpret_cast<const V*>(w + std::size_t{I.y} * W);
    const V* z = reinterpret_cast<const V*>(w + std::size_t{I.z} * W);
    switch (I.k) {
      case K::Input: *d = *reinterpret_cast<const V*>(in + std::size_t{I.x} * W); break;
      case K::Const0: *d = V{} ; break;
      case K::Const1: *d = ~V{}; break;
      case K::Not: *d = ~*x; break;
      case K::And: *d = *x & *y; break;
      case K::Or: *d = *x | *y; break;
      case K::Xor: *d = *x ^ *y; break;
      case K::Xnor: *d = ~(*x ^ *y); break;
      case K::Mux: *d = (*x & *y) | (~*x & *z); break;
    }
  }
}

}  // namespace

BitSliced::BitSliced(const Circuit& c) : n_inputs_(c.num_inputs()) {
  if (!c.all_outputs_bit())
    throw std::invalid_argument(
        "bit-sliced evaluation needs a circuit whose outputs are all Bit wires (evaluating an integer circuit mod 2 "
        "is unsound)");
  // The Boolean skeleton: Bit gates reachable from the outputs through BitDef operands.
  std::vector<std::uint8_t> need = boolean_skeleton(c);
  std::vector<std::uint32_t> node_of(c.size(), kNoSlot);
  std::vector<GateId> gates;
  std::vector<std::array<std::uint32_t, 3>> nodes;
  for (GateId i = 0; i < c.size(); ++i) {
    if (!need[i]) continue;
    const BitDef& d = c.bit_def(i);
    node_of[i] = static_cast<std::uint32_t>(gates.size());
    gates.push_back(i);
    auto nd = [&](GateId g) { return g == kNoGate ? kNoSlot : node_of[g]; };
    nodes.push_back({nd(d.x), nd(d.y), nd(d.z)});
  }
  std::vector<std::uint8_t> pinned(gates.size(), 0);
  for (const auto& o : c.outputs()) pinned[node_of[o.gate]] = 1;
  SlotPlan plan = allocate_slots(nodes, pinned);
  slots_ = plan.slots;
  for (std::size_t k = 0; k < gates.size(); ++k) {
    const BitDef& d = c.bit_def(gates[k]);
    auto sl = [&](std::size_t i) { return nodes[k][i] == kNoSlot ? 0u : plan.slot[nodes[k][i]]; };
    Instr in{K::Input, plan.slot[k], sl(0), sl(1), sl(2)};
    switch (d.op) {
      case BoolOp::Input: in.k = K::Input; in.x = c.gate(gates[k]).a; break;
      case BoolOp::Const0: in.k = K::Const0; break;
      case BoolOp::Const1: in.k = K::Const1; break;
      case BoolOp::Not: in.k = K::Not; break;
      case BoolOp::And: in.k = K::And; break;
      case BoolOp::Or: in.k = K::Or; break;
      case BoolOp::Xor: in.k = K::Xor; break;
      case BoolOp::Xnor: in.k = K::Xnor; break;
      case BoolOp::Mux: in.k = K::Mux; break;
    }
    code_.push_back(in);
  }
  for (const auto& o : c.outputs()) out_slot_.push_back(plan.slot[node_of[o.gate]]);
}

void BitSliced::run_block(const std::uint64_t* in, std::uint64_t* out, std::vector<std::uint64_t>& work) const {
  work.resize(std::max<std::size_t>(slots_, 1) * kWords);
  run_program(code_.data(), code_.size(), in, work.data());
  for (std::size_t o = 0; o < out_slot_.size(); ++o)
    for (std::size_t w = 0; w < kWords; ++w) out[o * kWords + w] = work[std::size_t{out_slot_[o]} * kWords + w];
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
