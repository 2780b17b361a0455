#include "circuits/eval_batch.h"

#include <flint/ulong_extras.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <thread>

#include "circuits/slots.h"
#include "circuits/stats.h"
#include "exact/rings.h"
#include "exact/thread_caches.h"

namespace cz::circuits {

BatchFp::BatchFp(const Circuit& c, std::uint64_t p) : p_(p), n_inputs_(c.num_inputs()) {
  RingFp ring(p);  // validates p
  pinv_ = n_preinvert_limb(p);
  std::vector<std::uint8_t> live = live_gates(c);
  std::vector<std::uint32_t> node_of(c.size(), kNoSlot);
  std::vector<GateId> gates;
  std::vector<std::array<std::uint32_t, 3>> nodes;
  for (GateId i = 0; i < c.size(); ++i) {
    if (!live[i]) continue;
    const Gate& g = c.gate(i);
    node_of[i] = static_cast<std::uint32_t>(gates.size());
    gates.push_back(i);
    if (g.op == Op::Add || g.op == Op::Mul) nodes.push_back({node_of[g.a], node_of[g.b], kNoSlot});
    else nodes.push_back({kNoSlot, kNoSlot, kNoSlot});
  }
  std::vector<std::uint8_t> pinned(gates.size(), 0);
  for (const auto& o : c.outputs()) pinned[node_of[o.gate]] = 1;
  SlotPlan plan = allocate_slots(nodes, pinned);
  slots_ = plan.slots;
  for (std::size_t k = 0; k < gates.size(); ++k) {
    const Gate& g = c.gate(gates[k]);
    Instr in{K::Input, plan.slot[k], 0, 0, 0};
    switch (g.op) {
      case Op::Input: in.k = K::Input; in.a = g.a; break;
      case Op::Const: in.k = K::Const; in.c = ring.from_rat(c.constant(g.a)); break;
      case Op::Add: in.k = K::Add; in.a = plan.slot[nodes[k][0]]; in.b = plan.slot[nodes[k][1]]; break;
      case Op::Mul: in.k = K::Mul; in.a = plan.slot[nodes[k][0]]; in.b = plan.slot[nodes[k][1]]; break;
    }
    code_.push_back(in);
  }
  for (const auto& o : c.outputs()) out_slot_.push_back(plan.slot[node_of[o.gate]]);
}

void BatchFp::run_block(const std::uint64_t* in, std::uint64_t* out, std::vector<std::uint64_t>& work) const {
  constexpr std::size_t B = kBlock;
  work.resize(slots_ * B);
  std::uint64_t* w = work.data();
  const std::uint64_t p = p_, pinv = pinv_;
  for (const Instr& ins : code_) {
    std::uint64_t* d = w + std::size_t{ins.dst} * B;
    switch (ins.k) {
      case K::Input: std::copy(in + std::size_t{ins.a} * B, in + std::size_t{ins.a} * B + B, d); break;
      case K::Const: std::fill(d, d + B, ins.c); break;
      case K::Add: {
        const std::uint64_t *x = w + std::size_t{ins.a} * B, *y = w + std::size_t{ins.b} * B;
        for (std::size_t l = 0; l < B; ++l) {
          std::uint64_t s = x[l] + y[l];
          d[l] = s >= p ? s - p : s;
        }
        break;
      }
      case K::Mul: {
        const std::uint64_t *x = w + std::size_t{ins.a} * B, *y = w + std::size_t{ins.b} * B;
        for (std::size_t l = 0; l < B; ++l) d[l] = n_mulmod2_preinv(x[l], y[l], p, pinv);
        break;
      }
    }
  }
  for (std::size_t o = 0; o < out_slot_.size(); ++o)
    std::copy(w + std::size_t{out_slot_[o]} * B, w + std::size_t{out_slot_[o]} * B + B, out + o * B);
}

std::vector<std::uint64_t> BatchFp::run(const std::vector<std::uint64_t>& inputs, std::size_t instances,
                                        unsigned threads) const {
  if (inputs.size() != instances * n_inputs_) throw std::invalid_argument("BatchFp::run: inputs size != instances × inputs");
  const std::size_t O = out_slot_.size(), blocks = (instances + kBlock - 1) / kBlock;
  std::vector<std::uint64_t> result(instances * O);
  auto worker = [&](std::size_t b0, std::size_t b1) {
    std::vector<std::uint64_t> work, in(n_inputs_ * kBlock), out(O * kBlock);
    for (std::size_t blk = b0; blk < b1; ++blk) {
      const std::size_t base = blk * kBlock, lanes = std::min(kBlock, instances - base);
      std::fill(in.begin(), in.end(), 0);
      for (std::size_t l = 0; l < lanes; ++l)
        for (std::size_t i = 0; i < n_inputs_; ++i) in[i * kBlock + l] = inputs[(base + l) * n_inputs_ + i] % p_;
      run_block(in.data(), out.data(), work);
      for (std::size_t l = 0; l < lanes; ++l)
        for (std::size_t o = 0; o < O; ++o) result[(base + l) * O + o] = out[o * kBlock + l];
    }
  };
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(std::max<std::size_t>(blocks, 1))));
  if (threads == 1) {
    worker(0, blocks);
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&worker, b0 = blocks * t / threads, b1 = blocks * (t + 1) / threads] {
        worker(b0, b1);
        release_thread_caches();
      });
    for (auto& th : pool) th.join();
  }
  return result;
}

}  // namespace cz::circuits

namespace cz::circuits {

namespace {
// Integer value of a live constant: nullopt when it is outside int64 (then every lane is flagged).
std::optional<std::int64_t> small_const(const Rat& q) {
  if (!q.is_integer()) throw std::domain_error("non-integer constant " + q.str() + " in an integer batch");
  try {
    return RingI64{}.from_rat(q);
  } catch (const Overflow&) {
    return std::nullopt;
  }
}
}  // namespace

BatchI64::BatchI64(const Circuit& c) : n_inputs_(c.num_inputs()) {
  std::vector<std::uint8_t> live = live_gates(c);
  std::vector<std::optional<std::int64_t>> cval(c.size());
  // A constant operand becomes an immediate (AddC/MulC); it needs a slot of its own only as an
  // output, beside another constant, or when it does not fit int64.
  std::vector<std::uint8_t> const_node(c.size(), 0);
  for (GateId i = 0; i < c.size(); ++i) {
    if (!live[i]) continue;
    const Gate& g = c.gate(i);
    if (g.op == Op::Const) cval[i] = small_const(c.constant(g.a));
    if (g.op != Op::Add && g.op != Op::Mul) continue;
    const bool ca = c.gate(g.a).op == Op::Const && cval[g.a], cb = c.gate(g.b).op == Op::Const && cval[g.b];
    if (ca && cb) const_node[g.a] = const_node[g.b] = 1;
    if (c.gate(g.a).op == Op::Const && !ca) const_node[g.a] = 1;
    if (c.gate(g.b).op == Op::Const && !cb) const_node[g.b] = 1;
  }
  for (const auto& o : c.outputs()) const_node[o.gate] = 1;
  std::vector<std::uint32_t> node_of(c.size(), kNoSlot);
  std::vector<GateId> gates;
  std::vector<std::array<std::uint32_t, 3>> nodes;
  auto imm = [&](GateId g) { return c.gate(g).op == Op::Const && cval[g] && node_of[g] == kNoSlot; };
  for (GateId i = 0; i < c.size(); ++i) {
    if (!live[i]) continue;
    const Gate& g = c.gate(i);
    if (g.op == Op::Const && !const_node[i]) continue;
    node_of[i] = static_cast<std::uint32_t>(gates.size());
    gates.push_back(i);
    if (g.op == Op::Add || g.op == Op::Mul) {
      if (imm(g.a)) nodes.push_back({node_of[g.b], kNoSlot, kNoSlot});
      else if (imm(g.b)) nodes.push_back({node_of[g.a], kNoSlot, kNoSlot});
      else nodes.push_back({node_of[g.a], node_of[g.b], kNoSlot});
    } else {
      nodes.push_back({kNoSlot, kNoSlot, kNoSlot});
    }
  }
  std::vector<std::uint8_t> pinned(gates.size(), 0);
  for (const auto& o : c.outputs()) pinned[node_of[o.gate]] = 1;
  SlotPlan plan = allocate_slots(nodes, pinned);
  slots_ = plan.slot.empty() ? 0 : plan.slots;
  for (std::size_t k = 0; k < gates.size(); ++k) {
    const Gate& g = c.gate(gates[k]);
    Instr in{K::Input, plan.slot[k], 0, 0, 0};
    switch (g.op) {
      case Op::Input: in.a = g.a; break;
      case Op::Const:
        if (cval[gates[k]]) {
          in.k = K::Const;
          in.c = *cval[gates[k]];
        } else {
          in.k = K::Big;
        }
        break;
      case Op::Add:
      case Op::Mul: {
        const bool add = g.op == Op::Add;
        in.a = plan.slot[nodes[k][0]];
        if (nodes[k][1] != kNoSlot) {
          in.k = add ? K::Add : K::Mul;
          in.b = plan.slot[nodes[k][1]];
        } else {
          in.k = add ? K::AddC : K::MulC;
          in.c = *cval[imm(g.a) ? g.a : g.b];
        }
        break;
      }
    }
    code_.push_back(in);
  }
  for (const auto& o : c.outputs()) out_slot_.push_back(plan.slot[node_of[o.gate]]);
}

namespace {
using I64K = BatchI64::K;
// Wrapping int64 arithmetic with the overflow of each lane OR-ed into f (vectorisable for +;
// the 64×64 product goes through the flags of imul).
__attribute__((target_clones("avx512f", "avx2", "default"))) void run_i64(const BatchI64::Instr* code, std::size_t n,
                                                                          const std::int64_t* in, std::int64_t* w,
                                                                          std::uint64_t* f) {
  constexpr std::size_t B = BatchI64::kBlock;
  for (std::size_t l = 0; l < B; ++l) f[l] = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const BatchI64::Instr& ins = code[k];
    std::int64_t* d = w + std::size_t{ins.dst} * B;  // may be an operand's slot (its last reader)
    const std::int64_t* x = w + std::size_t{ins.a} * B;
    const std::int64_t* y = w + std::size_t{ins.b} * B;
    const std::int64_t c = ins.c;
    switch (ins.k) {
      case I64K::Input: std::copy(in + std::size_t{ins.a} * B, in + std::size_t{ins.a} * B + B, d); break;
      case I64K::Const: std::fill(d, d + B, c); break;
      case I64K::Big:
        std::fill(d, d + B, 0);
        for (std::size_t l = 0; l < B; ++l) f[l] = 1;
        break;
      case I64K::Add:
        for (std::size_t l = 0; l < B; ++l) {
          const std::uint64_t a = static_cast<std::uint64_t>(x[l]), b = static_cast<std::uint64_t>(y[l]), s = a + b;
          f[l] |= ((a ^ s) & (b ^ s)) >> 63;
          d[l] = static_cast<std::int64_t>(s);
        }
        break;
      case I64K::AddC: {
        const std::uint64_t b = static_cast<std::uint64_t>(c);
        for (std::size_t l = 0; l < B; ++l) {
          const std::uint64_t a = static_cast<std::uint64_t>(x[l]), s = a + b;
          f[l] |= ((a ^ s) & (b ^ s)) >> 63;
          d[l] = static_cast<std::int64_t>(s);
        }
        break;
      }
      case I64K::Mul: {
        // Vector 32×32→64 products when every operand fits int32 (decided first: d may alias
        // x or y), else the checked scalar product.
        std::uint64_t wide = 0;
        for (std::size_t l = 0; l < B; ++l)
          wide |= static_cast<std::uint64_t>(x[l] != static_cast<std::int32_t>(x[l])) |
                  static_cast<std::uint64_t>(y[l] != static_cast<std::int32_t>(y[l]));
        if (!wide) {
          for (std::size_t l = 0; l < B; ++l)
            d[l] = static_cast<std::int64_t>(static_cast<std::int32_t>(x[l])) * static_cast<std::int32_t>(y[l]);
        } else {
          for (std::size_t l = 0; l < B; ++l) {
            std::int64_t r;
            f[l] |= __builtin_mul_overflow(x[l], y[l], &r);
            d[l] = r;
          }
        }
        break;
      }
      case I64K::MulC: {
        std::uint64_t wide = c != static_cast<std::int32_t>(c);
        for (std::size_t l = 0; l < B; ++l) wide |= static_cast<std::uint64_t>(x[l] != static_cast<std::int32_t>(x[l]));
        if (!wide) {
          const std::int32_t cb = static_cast<std::int32_t>(c);
          for (std::size_t l = 0; l < B; ++l) d[l] = static_cast<std::int64_t>(static_cast<std::int32_t>(x[l])) * cb;
        } else {
          for (std::size_t l = 0; l < B; ++l) {
            std::int64_t r;
            f[l] |= __builtin_mul_overflow(x[l], c, &r);
            d[l] = r;
          }
        }
        break;
      }
    }
  }
}
}  // namespace

void BatchI64::run_block(const std::int64_t* in, std::int64_t* out, std::uint64_t* ovf, std::vector<std::int64_t>& work) const {
  constexpr std::size_t B = kBlock;
  work.resize(std::max<std::size_t>(slots_, 1) * B);
  run_i64(code_.data(), code_.size(), in, work.data(), ovf);
  for (std::size_t o = 0; o < out_slot_.size(); ++o)
    std::copy(work.data() + std::size_t{out_slot_[o]} * B, work.data() + std::size_t{out_slot_[o]} * B + B, out + o * B);
}

}  // namespace cz::circuits
