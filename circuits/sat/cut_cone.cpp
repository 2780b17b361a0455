#include "circuits/sat/cut_cone.h"

#include <stdexcept>

namespace cz::circuits::sat {

namespace {
// 0 / 1 for a constant gate of that value, -1 for any other constant, -2 for a non-constant.
int const_kind(const Circuit& c, GateId id) {
  if (c.gate(id).op != Op::Const) return -2;
  const Rat& v = c.const_value(id);
  return v == Rat(0) ? 0 : v == Rat(1) ? 1 : -1;
}
}  // namespace

int CutCone::leaf(GateId id) {
  const int k = const_kind(c_, id);
  if (k == 0 || k == 1) return k == 1 ? g_.t() : g_.f();
  if (k == -1) {
    why_ = "constant gate " + std::to_string(id) + " is not 0/1";
    return 0;
  }
  ++free_inputs_;
  return g_.cnf().new_var();
}

void CutCone::cut(GateId id, int lit) {
  const int k = const_kind(c_, id);
  lit_[id] = k == 0 ? g_.f() : k == 1 ? g_.t() : lit;
}

std::vector<int> CutCone::free(const std::vector<Wire>& ws) {
  std::vector<int> out;
  for (Wire w : ws) {
    if (!lit_.count(w.id)) cut(w.id, g_.cnf().new_var());
    out.push_back(lit_.at(w.id));
  }
  return out;
}

int CutCone::lit(GateId root) {
  if (!why_.empty()) return 0;
  if (root >= c_.size()) {
    why_ = "wire " + std::to_string(root) + " is not in the circuit";
    return 0;
  }
  std::vector<std::pair<GateId, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [id, expanded] = stack.back();
    stack.pop_back();
    if (lit_.count(id)) continue;
    const Gate gt = c_.gate(id);
    if (gt.op == Op::Const || gt.op == Op::Input) {
      const int l = leaf(id);
      if (!l) return 0;
      lit_.emplace(id, l);
      continue;
    }
    if (!c_.is_bit(id)) {
      why_ = "gate " + std::to_string(id) + " in the cone is a Field wire";
      return 0;
    }
    const BitDef d = c_.bit_def(id);
    if (expanded) {
      lit_.emplace(id, bit_def_lit(g_, d, [&](GateId x) { return lit_.at(x); }));
      if (++encoded_ > cap_) {
        why_ = "a cone is not cut within " + std::to_string(cap_) + " gates";
        return 0;
      }
      continue;
    }
    stack.push_back({id, true});
    const GateId ops[3] = {d.x, d.y, d.z};
    for (int k = 0; k < bool_arity(d.op); ++k)
      if (!lit_.count(ops[k])) stack.push_back({ops[k], false});
  }
  return lit_.at(root);
}

std::vector<int> CutCone::lits(const std::vector<Wire>& ws) {
  std::vector<int> out;
  for (Wire w : ws) {
    const int l = lit(w.id);
    if (!l) return {};
    out.push_back(l);
  }
  return out;
}

int lits_equal(Gates& g, const std::vector<int>& x, const std::vector<int>& y) {
  if (x.size() != y.size()) throw std::logic_error("lits_equal: widths differ");
  int r = g.t();
  for (std::size_t k = 0; k < x.size(); ++k) r = g.and_(r, -g.xor_(x[k], y[k]));
  return r;
}

int lits_less(Gates& g, const std::vector<int>& x, const std::vector<int>& y) {
  if (x.size() != y.size()) throw std::logic_error("lits_less: widths differ");
  int lt = g.f();  // from the least significant bit up: where they differ, the higher bit decides
  for (std::size_t k = 0; k < x.size(); ++k) lt = g.mux(g.xor_(x[k], y[k]), y[k], lt);
  return lt;
}

int lits_less_gadget(Gates& g, const std::vector<int>& x, const std::vector<int>& y) {
  if (x.size() != y.size()) throw std::logic_error("lits_less_gadget: widths differ");
  if (x.empty()) return g.f();
  std::vector<std::pair<int, int>> v;  // (equal so far, less so far), MSB first
  for (std::size_t k = x.size(); k-- > 0;) v.emplace_back(-g.xor_(x[k], y[k]), g.and_(-x[k], y[k]));
  while (v.size() > 1) {
    std::vector<std::pair<int, int>> next;
    for (std::size_t i = 0; i + 1 < v.size(); i += 2)
      next.emplace_back(g.and_(v[i].first, v[i + 1].first), g.or_(v[i].second, g.and_(v[i].first, v[i + 1].second)));
    if (v.size() % 2) next.push_back(v.back());
    v.swap(next);
  }
  return v[0].second;
}

std::vector<int> lits_mux(Gates& g, int s, const std::vector<int>& x, const std::vector<int>& y) {
  if (x.size() != y.size()) throw std::logic_error("lits_mux: widths differ");
  std::vector<int> r;
  for (std::size_t k = 0; k < x.size(); ++k) r.push_back(g.mux(s, x[k], y[k]));
  return r;
}

}  // namespace cz::circuits::sat
