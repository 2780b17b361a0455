#include "circuits/builder.h"

#include <algorithm>
#include <array>

#include "util/error.h"
#include "util/bytes_text.h"
#include "util/memory_budget.h"

namespace cz::circuits {

namespace {
// A backstop behind the estimates constructions make before building (constructions/
// memory_estimate.h, issue 9): a build never grows past the gates the memory budget allows at
// this many bytes a gate (Gate, hash table slots, BitDefs, the callers' Wire vectors).
constexpr std::uint64_t kBytesPerGateBackstop = 48;
std::uint64_t gate_budget() { return std::min<std::uint64_t>(memory_budget() / kBytesPerGateBackstop, kNoGate); }

constexpr std::size_t kMaxCertifyCone = 256;  // gadgets are small; a bigger cone is a misuse
constexpr std::size_t kMaxCut = 10;           // Bit wires the check may enumerate (2^10 assignments)
constexpr int kMaxExpansions = 6;
}

Builder::Builder() {
  small_const_.fill(kNoGate);
  zero_ = constant(std::int64_t{0});
  one_ = constant(std::int64_t{1});
}

// The table grows a window at a time with the gate ids (GateTable): nothing to size up front.
void Builder::reserve(std::size_t gates) { (void)gates; }

std::size_t Builder::memory_bytes() const {
  // const_index_: a node (key string, id, next pointer) and a bucket pointer per constant.
  return c_.memory_bytes() + table_.bytes() +
         const_index_.size() * (sizeof(std::string) + sizeof(GateId) + 2 * sizeof(void*)) +
         const_index_.bucket_count() * sizeof(void*);
}

GateId Builder::push(const PackedGate& g) {
  if (c_.gates_.size() >= next_check_) return push_slow(g);
  return push_gate(c_.gates_, g);
}

GateId Builder::push_slow(const PackedGate& g) {
  const std::size_t n = c_.gates_.size();
  if (max_gates_ && n >= max_gates_) throw TooManyGates(max_gates_);
  const std::uint64_t cap = gate_budget();
  if (n >= cap)
    throw InputError("the circuit grows past " + std::to_string(cap) + " gates, about " +
                         format_bytes_apart(sat_mul(cap, kBytesPerGateBackstop), memory_budget()).first +
                         ", above the memory budget of " +
                         format_bytes_apart(sat_mul(cap, kBytesPerGateBackstop), memory_budget()).second + " (--max-memory)",
                     "circuit builder");
  // Next check: the nearest cap, or 2^16 gates on (the budget is re-read that often).
  std::size_t next = n + (std::size_t{1} << 16);
  if (max_gates_) next = std::min(next, max_gates_);
  next_check_ = static_cast<std::size_t>(std::min<std::uint64_t>(next, cap));
  return push_gate(c_.gates_, g);
}

GateId Builder::find_or_add(Op op, GateId a, GateId b) {
  if (a > b) std::swap(a, b);  // Add and Mul are commutative: canonical operand order
  GateTable::Spot spot;
  if (GateId id = table_.find(c_.gates_, op, a, b, spot); id != kNoGate) return id;
  GateId id = push(PackedGate::make(op, a, b));
  table_.insert(spot, op, a, b, id);
  return id;
}

const Rat* Builder::cval(GateId g) const {
  const PackedGate& x = c_.gates_[g];
  return x.op() == Op::Const ? &c_.consts_[x.a] : nullptr;
}

const Rat* Builder::const_value(Wire w) const { return cval(w.id); }

Wire Builder::input(std::string name, Type t) {
  GateId id = push(PackedGate::make(Op::Input, static_cast<GateId>(c_.input_gates_.size()), kNoGate));
  if (t == Type::Bit) c_.gates_[id].set_aux(c_.push_bit_def(BitDef{BoolOp::Input}));
  c_.input_gates_.push_back(id);
  c_.input_names_.push_back(std::move(name));
  return Wire{id};
}

Wire Builder::constant(std::int64_t v) {
  if (v >= -kSmallConst && v <= kSmallConst) {
    GateId& slot = small_const_[static_cast<std::size_t>(v + kSmallConst)];
    if (slot == kNoGate) slot = constant(Rat(v)).id;
    return Wire{slot};
  }
  return constant(Rat(v));
}

Wire Builder::constant(const Rat& v) {
  if (v.is_integer() && v.num().fits_int64()) {
    std::int64_t x = v.num().to_int64();
    if (x >= -kSmallConst && x <= kSmallConst && small_const_[static_cast<std::size_t>(x + kSmallConst)] != kNoGate)
      return Wire{small_const_[static_cast<std::size_t>(x + kSmallConst)]};
  }
  std::string key = v.str();
  auto it = const_index_.find(key);
  if (it != const_index_.end()) return Wire{it->second};
  GateId id = push(PackedGate::make(Op::Const, static_cast<GateId>(c_.consts_.size()), kNoGate));
  c_.consts_.push_back(v);
  if (v.is_zero() || v == Rat(1)) c_.gates_[id].set_aux(c_.push_bit_def(BitDef{v.is_zero() ? BoolOp::Const0 : BoolOp::Const1}));
  const_index_.emplace(std::move(key), id);
  return Wire{id};
}

Wire Builder::add(Wire a, Wire b) {
  const Rat *ca = cval(a.id), *cb = cval(b.id);
  if (ca && cb) return constant(*ca + *cb);
  if (ca && ca->is_zero()) return b;
  if (cb && cb->is_zero()) return a;
  // c1 + (c2 + x) -> (c1 + c2) + x, so chains of constant offsets stay one gate deep.
  if (ca || cb) {
    const Rat* c = ca ? ca : cb;
    Wire x = ca ? b : a;
    const Gate gx = c_.gate(x.id);
    if (gx.op == Op::Add && gx.type != Type::Bit) {  // never fold through a Bit wire (see header)
      const Rat *c1 = cval(gx.a), *c2 = cval(gx.b);
      if (c1) return add(constant(*c + *c1), Wire{gx.b});
      if (c2) return add(constant(*c + *c2), Wire{gx.a});
    }
  }
  return Wire{find_or_add(Op::Add, a.id, b.id)};
}

Wire Builder::mul(Wire a, Wire b) {
  const Rat *ca = cval(a.id), *cb = cval(b.id);
  if (ca && cb) return constant(*ca * *cb);
  if ((ca && ca->is_zero()) || (cb && cb->is_zero())) return zero_;
  if (ca && *ca == Rat(1)) return b;
  if (cb && *cb == Rat(1)) return a;
  // c1·(c2·x) -> (c1·c2)·x: scalar chains collapse to one scalar multiplication.
  if (ca || cb) {
    const Rat* c = ca ? ca : cb;
    Wire x = ca ? b : a;
    const Gate gx = c_.gate(x.id);
    if (gx.op == Op::Mul && gx.type != Type::Bit) {  // never fold through a Bit wire (see header)
      const Rat *c1 = cval(gx.a), *c2 = cval(gx.b);
      if (c1) return mul(constant(*c * *c1), Wire{gx.b});
      if (c2) return mul(constant(*c * *c2), Wire{gx.a});
    }
  }
  return Wire{find_or_add(Op::Mul, a.id, b.id)};
}

Wire Builder::sub(Wire a, Wire b) { return add(a, neg(b)); }
Wire Builder::neg(Wire a) { return mul(constant(std::int64_t{-1}), a); }
Wire Builder::scale(const Rat& c, Wire a) { return mul(constant(c), a); }
Wire Builder::add_const(Wire a, const Rat& c) { return add(a, constant(c)); }

void Builder::output(std::string name, Wire w) { c_.outputs_.push_back(Output{std::move(name), w.id}); }

namespace {

// Small fixed-capacity list (no heap traffic: certify_bit runs once per gadget).
template <class T, std::size_t Cap>
struct SmallVec {
  std::array<T, Cap> v;
  std::size_t n = 0;
  void push(T x) {
    if (n == Cap) throw std::logic_error("certify_bit: gadget cone too large");
    v[n++] = x;
  }
  bool contains(T x) const { return std::find(v.begin(), v.begin() + static_cast<long>(n), x) != v.begin() + static_cast<long>(n); }
  std::size_t index(T x) const { return static_cast<std::size_t>(std::find(v.begin(), v.begin() + static_cast<long>(n), x) - v.begin()); }
};

using Cone = SmallVec<GateId, kMaxCertifyCone>;

// Evaluates the cone (ascending ids; operands inside the cone or among `ops`) for one
// assignment of the operands; returns false on int64 overflow.
using Cut = SmallVec<GateId, kMaxCut>;

template <class E, class FromRat, class Add, class Mul>
bool cone_value(const Circuit& c, const Cone& cone, const Cut& ops, const E* opv, E* val, FromRat from,
                Add add, Mul mul) {
  auto get = [&](GateId g) -> const E& {
    if (ops.contains(g)) return opv[ops.index(g)];
    return val[cone.index(g)];
  };
  for (std::size_t k = 0; k < cone.n; ++k) {
    const Gate g = c.gate(cone.v[k]);
    if (g.op == Op::Const) {
      if (!from(c.constant(g.a), val[k])) return false;
    } else if (g.op == Op::Add) {
      if (!add(get(g.a), get(g.b), val[k])) return false;
    } else {
      if (!mul(get(g.a), get(g.b), val[k])) return false;
    }
  }
  return true;
}

// Empty when w's cone cut at `cut` computes def (see certify_bit); else why not.
std::string check_bit_cut(const Circuit& c_, Wire w, const BitDef& def, const Cut& cut) {
  // The cone of w cut at `cut` (DFS), then sorted: ids ascending = topological order.
  Cone cone;
  SmallVec<GateId, 2 * kMaxCertifyCone + 2> stack;
  stack.push(w.id);
  bool integral = true;
  try {
    while (stack.n) {
      GateId x = stack.v[--stack.n];
      if (cut.contains(x) || cone.contains(x)) continue;
      const Gate gx = c_.gate(x);
      if (gx.op == Op::Input) return "the cone reaches an input that is not an operand of the BitDef";
      cone.push(x);
      if (gx.op == Op::Const) {
        const Rat& q = c_.constant(gx.a);
        integral = integral && q.is_integer() && q.num().fits_int64();
      } else {
        stack.push(gx.a);
        stack.push(gx.b);
      }
    }
  } catch (const std::logic_error&) {
    return "gadget cone too large";
  }
  std::sort(cone.v.begin(), cone.v.begin() + static_cast<long>(cone.n));
  // Boolean value of a Bit wire from the cut assignment m, through BitDefs.
  struct BVal {
    const Circuit& c;
    const Cut& cut;
    bool operator()(GateId g, unsigned m) const {
      if (cut.contains(g)) return ((m >> cut.index(g)) & 1u) != 0;
      const BitDef d = c.bit_def(g);
      const int a = bool_arity(d.op);
      if (a == 0) {
        if (d.op == BoolOp::Input) throw std::logic_error("input outside the cut");
        return d.op == BoolOp::Const1;
      }
      return bool_apply(d.op, (*this)(d.x, m), a > 1 && (*this)(d.y, m), a > 2 && (*this)(d.z, m));
    }
  } bval{c_, cut};
  for (unsigned m = 0; m < (1u << cut.n); ++m) {
    // A constant in the cut (0 or 1) only takes its own value.
    bool consistent = true;
    for (std::size_t i = 0; i < cut.n; ++i)
      if (const Rat* q = c_.gate(cut.v[i]).op == Op::Const ? &c_.const_value(cut.v[i]) : nullptr) consistent = consistent && (q->is_zero() == (((m >> i) & 1u) == 0));
    if (!consistent) continue;
    bool want;
    try {
      const int ar = bool_arity(def.op);
      want = bool_apply(def.op, bval(def.x, m), ar > 1 && bval(def.y, m), ar > 2 && bval(def.z, m));
    } catch (const std::logic_error&) {
      return "an operand depends on an input outside the cut";
    }
    bool ok = false;
    if (integral) {
      std::array<std::int64_t, kMaxCut> opv{};
      std::array<std::int64_t, kMaxCertifyCone> val;  // uninitialised: written before read
      for (std::size_t i = 0; i < cut.n; ++i) opv[i] = (m >> i) & 1u;
      bool fits = cone_value(
          c_, cone, cut, opv.data(), val.data(), [](const Rat& q, std::int64_t& r) { r = q.num().to_int64(); return true; },
          [](std::int64_t x, std::int64_t y, std::int64_t& r) { return !__builtin_add_overflow(x, y, &r); },
          [](std::int64_t x, std::int64_t y, std::int64_t& r) { return !__builtin_mul_overflow(x, y, &r); });
      if (fits) ok = val[cone.n - 1] == (want ? 1 : 0);
      else integral = false;  // redo this assignment exactly
    }
    if (!integral) {
      std::vector<Rat> opv(kMaxCut), val(cone.n);
      for (std::size_t i = 0; i < cut.n; ++i) opv[i] = Rat(static_cast<std::int64_t>((m >> i) & 1u));
      cone_value(
          c_, cone, cut, opv.data(), val.data(), [](const Rat& q, Rat& r) { r = q; return true; },
          [](const Rat& x, const Rat& y, Rat& r) { r = x + y; return true; },
          [](const Rat& x, const Rat& y, Rat& r) { r = x * y; return true; });
      ok = val[cone.n - 1] == Rat(want ? 1 : 0);
    }
    if (!ok) return std::string("gate does not compute ") + bool_op_name(def.op);
  }
  return "";
}

}  // namespace

// The check: w's arithmetic cone, cut at a set S of Bit wires, must equal def on every 0/1
// assignment of S, where def's operands are evaluated from S through their own BitDefs. S starts
// as def's operands; when operands depend on each other (e.g. hash-consing made c − a equal to
// the select s = NOT a), the check fails spuriously, so the newest non-leaf wire of S is replaced
// by its BitDef operands and the check is repeated (a few times, |S| <= kMaxCut). Sound: every
// wire of S is 0/1 on 0/1 inputs and every Bit wire equals its BitDef (induction on gate order).
Wire Builder::certify_bit(Wire w, BitDef def) {
  if (c_.gates_[w.id].is_bit()) return w;  // already certified (hash-consing found an equal gadget)
  const int ar = bool_arity(def.op);
  if (ar == 0) throw std::logic_error("certify_bit: only inputs and constants 0/1 are Bit leaves");
  const std::array<GateId, 3> raw = {def.x, def.y, def.z};
  Cut cut;
  for (int i = 0; i < ar; ++i) {
    GateId o = raw[static_cast<std::size_t>(i)];
    if (o == kNoGate || o >= w.id || !c_.gates_[o].is_bit())
      throw std::logic_error(std::string("certify_bit: operand of ") + bool_op_name(def.op) + " is not an earlier Bit wire");
    if (!cut.contains(o)) cut.push(o);
  }
  std::string failure;
  for (int round = 0; round <= kMaxExpansions; ++round) {
    failure = check_bit_cut(c_, w, def, cut);
    if (failure.empty()) {
      c_.gates_[w.id].set_aux(c_.push_bit_def(def));
      return w;
    }
    // Expand the newest wire of the cut that has Bit operands.
    std::size_t pick = kMaxCut;
    for (std::size_t i = 0; i < cut.n; ++i)
      if (bool_arity(c_.bit_def(cut.v[i]).op) > 0 && (pick == kMaxCut || cut.v[i] > cut.v[pick])) pick = i;
    if (pick == kMaxCut) break;
    const BitDef d = c_.bit_def(cut.v[pick]);
    cut.v[pick] = cut.v[--cut.n];
    for (GateId o : {d.x, d.y, d.z})
      if (o != kNoGate && !cut.contains(o)) {
        if (cut.n == kMaxCut) { failure += " (cut too large)"; round = kMaxExpansions; break; }
        cut.push(o);
      }
  }
  throw std::logic_error(std::string("certify_bit(") + bool_op_name(def.op) + "): " + failure);
}

Circuit Builder::finish() && {
  c_.build_peak_bytes_ = memory_bytes();  // nothing shrank while building: now is the peak
  table_.release();
  const_index_.clear();
  return std::move(c_);
}

}  // namespace cz::circuits
