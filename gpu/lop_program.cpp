#include "gpu/lop_program.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "circuits/slots.h"

namespace cz::gpu {

namespace {

using circuits::BoolOp;
using circuits::GateId;

constexpr std::uint32_t kConst = 0xffffffffu;
constexpr std::uint8_t kVar[3] = {kLopA, kLopB, kLopC};

// A gate's value: node `node` (complemented when neg), or the constant `neg` when node == kConst.
struct Ref {
  std::uint32_t node = kConst;
  bool neg = false;
};

// A program node: an input (tt unused, arg all kConst) or an op over up to three earlier nodes.
struct Node {
  bool input = false;
  std::uint8_t tt = 0;
  std::array<std::uint32_t, 3> arg{kConst, kConst, kConst};
};

// Table of a gate over the 8-bit operand patterns p (immLut convention).
std::uint8_t gate_table(BoolOp op, const std::array<std::uint8_t, 3>& p) {
  switch (op) {
    case BoolOp::And: return p[0] & p[1];
    case BoolOp::Or: return p[0] | p[1];
    case BoolOp::Xor: return p[0] ^ p[1];
    case BoolOp::Xnor: return static_cast<std::uint8_t>(~(p[0] ^ p[1]));
    case BoolOp::Mux: return static_cast<std::uint8_t>((p[0] & p[1]) | (~p[0] & p[2]));
    default: break;
  }
  throw std::logic_error("lop program: not a gate op");
}

// Whether table tt depends on variable v (0 = a, 1 = b, 2 = c).
bool depends(std::uint8_t tt, int v) {
  static constexpr int shift[3] = {4, 2, 1};
  static constexpr std::uint8_t low[3] = {0x0F, 0x33, 0x55};
  return ((tt >> shift[v]) & low[v]) != (tt & low[v]);
}

// Folds a gate over operand refs into a ref: constants and complements enter the table, repeated
// operands share a variable, and variables the table ignores are dropped.
Ref fold(BoolOp op, const std::array<Ref, 3>& r, int arity, std::vector<Node>& nodes) {
  std::array<std::uint32_t, 3> uniq{kConst, kConst, kConst};
  int m = 0;
  std::array<int, 3> var{-1, -1, -1};
  for (int j = 0; j < arity; ++j) {
    if (r[j].node == kConst) continue;
    int v = 0;
    while (v < m && uniq[v] != r[j].node) ++v;
    if (v == m) uniq[m++] = r[j].node;
    var[j] = v;
  }
  // The table with unique node u bound to pattern pat[u] (0 for a dropped node).
  auto table = [&](const std::array<std::uint8_t, 3>& pat) {
    std::array<std::uint8_t, 3> p{0, 0, 0};
    for (int j = 0; j < arity; ++j) {
      const std::uint8_t base = var[j] < 0 ? 0 : pat[var[j]];
      p[j] = r[j].neg ? static_cast<std::uint8_t>(~base) : base;
    }
    return gate_table(op, p);
  };
  const std::uint8_t tt = table({kVar[0], kVar[1], kVar[2]});
  std::array<std::uint8_t, 3> pat{0, 0, 0};
  std::array<std::uint32_t, 3> keep{kConst, kConst, kConst};
  int k = 0;
  for (int v = 0; v < m; ++v)
    if (depends(tt, v)) {
      pat[v] = kVar[k];
      keep[k++] = uniq[v];
    }
  const std::uint8_t t2 = k == m ? tt : table(pat);
  if (k == 0) return Ref{kConst, t2 == 0xFF};
  if (k == 1) return Ref{keep[0], t2 == static_cast<std::uint8_t>(~kLopA)};  // t2 is a or ~a
  Node nd;
  nd.tt = t2;
  nd.arg = keep;
  nodes.push_back(nd);
  return Ref{static_cast<std::uint32_t>(nodes.size() - 1), false};
}

}  // namespace

LopProgram::LopProgram(const circuits::Circuit& c) {
  if (!c.all_outputs_bit())
    throw std::invalid_argument(
        "bit-sliced evaluation needs a circuit whose outputs are all Bit wires (evaluating an integer circuit mod 2 "
        "is unsound)");
  const std::vector<std::uint8_t> need = circuits::boolean_skeleton(c);
  // Nodes 0 .. n_in-1 are the inputs (preloaded, so all live from the start); ops follow.
  std::vector<Node> nodes(c.num_inputs());
  for (Node& nd : nodes) nd.input = true;
  std::vector<Ref> ref(c.size());
  for (GateId g = 0; g < c.size(); ++g) {
    if (!need[g]) continue;
    const circuits::BitDef d = c.bit_def(g);
    switch (d.op) {
      case BoolOp::Input: ref[g] = Ref{c.gate(g).a, false}; break;
      case BoolOp::Const0:
      case BoolOp::Const1: ref[g] = Ref{kConst, d.op == BoolOp::Const1}; break;
      case BoolOp::Not: ref[g] = Ref{ref[d.x].node, !ref[d.x].neg}; break;
      default: {
        const int arity = circuits::bool_arity(d.op);
        std::array<Ref, 3> r;
        const GateId opnd[3] = {d.x, d.y, d.z};
        for (int j = 0; j < arity; ++j) r[j] = ref[opnd[j]];
        ref[g] = fold(d.op, r, arity, nodes);
      }
    }
  }
  // Outputs: a constant or complemented value gets an op of its own (the slot must hold it).
  std::vector<std::uint32_t> out_node;
  for (const auto& o : c.outputs()) {
    const Ref r = ref[o.gate];
    if (r.node != kConst && !r.neg) {
      out_node.push_back(r.node);
      continue;
    }
    Node nd;
    nd.tt = r.node == kConst ? (r.neg ? 0xFF : 0x00) : static_cast<std::uint8_t>(~kLopA);
    nd.arg = {r.node, kConst, kConst};
    nodes.push_back(nd);
    out_node.push_back(static_cast<std::uint32_t>(nodes.size() - 1));
  }
  // Keep what the outputs reach (folding leaves ops that no reader kept).
  std::vector<std::uint8_t> used(nodes.size(), 0), pinned(nodes.size(), 0);
  for (std::uint32_t o : out_node) used[o] = pinned[o] = 1;
  for (std::size_t k = nodes.size(); k-- > 0;)
    if (used[k])
      for (std::uint32_t a : nodes[k].arg)
        if (a != kConst) used[a] = 1;
  std::vector<std::uint32_t> renum(nodes.size(), kConst);
  std::vector<std::array<std::uint32_t, 3>> args;
  std::vector<std::uint8_t> pin;
  std::vector<std::uint32_t> kept, level;
  for (std::uint32_t k = 0; k < nodes.size(); ++k) {
    if (!used[k]) continue;
    renum[k] = static_cast<std::uint32_t>(kept.size());
    kept.push_back(k);
    std::array<std::uint32_t, 3> a{};
    std::uint32_t lv = 0;
    for (int j = 0; j < 3; ++j) {
      a[j] = nodes[k].arg[j] == kConst ? circuits::kNoSlot : renum[nodes[k].arg[j]];
      if (a[j] != circuits::kNoSlot) lv = std::max(lv, level[a[j]] + 1);
    }
    if (!nodes[k].input) lv = std::max<std::uint32_t>(lv, 1);
    args.push_back(a);
    pin.push_back(pinned[k]);
    level.push_back(lv);
    levels_ = std::max(levels_, lv);
  }
  const circuits::SlotPlan plan = circuits::allocate_slots(args, pin);
  slots_ = plan.slots;
  in_slot_.assign(c.num_inputs(), kNoLopSlot);
  for (std::size_t m = 0; m < kept.size(); ++m) {
    const Node& nd = nodes[kept[m]];
    const std::uint32_t dst = plan.slot[m];
    if (nd.input) {
      in_slot_[kept[m]] = dst;
      continue;
    }
    // An unused operand position reads some valid slot (the table ignores it).
    auto sl = [&](int j) { return args[m][j] == circuits::kNoSlot ? (args[m][0] == circuits::kNoSlot ? dst : plan.slot[args[m][0]]) : plan.slot[args[m][j]]; };
    ops_.push_back(LopOp{nd.tt, dst, sl(0), sl(1), sl(2)});
  }
  for (std::uint32_t o : out_node) out_slot_.push_back(plan.slot[renum[o]]);
}

LopView LopProgram::view() const {
  return LopView{ops_.data(), static_cast<std::uint32_t>(ops_.size()), in_slot_.data(),
                 static_cast<std::uint32_t>(in_slot_.size()), out_slot_.data(), static_cast<std::uint32_t>(out_slot_.size())};
}

}  // namespace cz::gpu
