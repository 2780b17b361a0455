#include "circuits/sat/cnf.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace cz::circuits::sat {

void Cnf::add(std::initializer_list<int> clause) {
  lits.insert(lits.end(), clause.begin(), clause.end());
  lits.push_back(0);
  ++num_clauses;
}

int Cnf::true_lit() {
  if (!true_var_) {
    true_var_ = new_var();
    add({true_var_});
  }
  return true_var_;
}

void Cnf::write_dimacs(std::ostream& os) const {
  os << "p cnf " << num_vars << ' ' << num_clauses << '\n';
  std::string line;
  for (int l : lits) {
    line += std::to_string(l);
    if (l == 0) {
      line += '\n';
      os << line;
      line.clear();
    } else {
      line += ' ';
    }
  }
}

namespace {
enum : std::uint8_t { kAnd = 1, kXor = 2, kMux = 3 };
}

int Gates::node(std::uint8_t op, int a, int b, int c) {
  const Key k{op, a, b, c};
  if (auto it = table_.find(k); it != table_.end()) return it->second;
  const int z = cnf_.new_var();
  switch (op) {
    case kAnd:  // z <-> a & b
      cnf_.add({-z, a});
      cnf_.add({-z, b});
      cnf_.add({z, -a, -b});
      break;
    case kXor:  // z <-> a ^ b
      cnf_.add({-z, a, b});
      cnf_.add({-z, -a, -b});
      cnf_.add({z, -a, b});
      cnf_.add({z, a, -b});
      break;
    default:  // z <-> (a ? b : c), plus the two redundant clauses that help propagation
      cnf_.add({-a, -b, z});
      cnf_.add({-a, b, -z});
      cnf_.add({a, -c, z});
      cnf_.add({a, c, -z});
      cnf_.add({-b, -c, z});
      cnf_.add({b, c, -z});
      break;
  }
  table_.emplace(k, z);
  return z;
}

int Gates::and_(int a, int b) {
  const int T = t();
  if (a == -T || b == -T || a == -b) return -T;
  if (a == T) return b;
  if (b == T || a == b) return a;
  if (a > b) std::swap(a, b);
  return node(kAnd, a, b, 0);
}

int Gates::xor_(int a, int b) {
  const int T = t();
  if (a == T) return -b;
  if (a == -T) return b;
  if (b == T) return -a;
  if (b == -T) return a;
  if (a == b) return -T;
  if (a == -b) return T;
  // Normal form: both operands positive, the sign carried outside.
  bool neg = false;
  if (a < 0) a = -a, neg = !neg;
  if (b < 0) b = -b, neg = !neg;
  if (a > b) std::swap(a, b);
  const int z = node(kXor, a, b, 0);
  return neg ? -z : z;
}

int Gates::mux(int s, int a, int b) {
  const int T = t();
  if (s == T || a == b) return a;
  if (s == -T) return b;
  if (s < 0) s = -s, std::swap(a, b);
  if (a == T) return or_(s, b);
  if (a == -T) return and_(-s, b);
  if (b == T) return or_(-s, a);
  if (b == -T) return and_(s, a);
  if (a == -b) return xor_(s, b);  // s ? -b : b
  if (s == a) return or_(s, b);
  if (s == b) return and_(s, a);
  return node(kMux, s, a, b);
}

Tseitin::Tseitin(Gates& g, const Circuit& c, std::function<int(std::size_t)> input_lit)
    : g_(g), c_(c), input_lit_(std::move(input_lit)), lit_(c.size(), 0) {}

int bit_def_lit(Gates& g, const BitDef& d, const std::function<int(GateId)>& L) {
  switch (d.op) {
    case BoolOp::Input: throw std::logic_error("bit_def_lit: an Input gate's literal is the caller's");
    case BoolOp::Const0: return g.f();
    case BoolOp::Const1: return g.t();
    case BoolOp::Not: return -L(d.x);
    case BoolOp::And: return g.and_(L(d.x), L(d.y));
    case BoolOp::Or: return g.or_(L(d.x), L(d.y));
    case BoolOp::Xor: return g.xor_(L(d.x), L(d.y));
    case BoolOp::Xnor: return -g.xor_(L(d.x), L(d.y));
    case BoolOp::Mux: return g.mux(L(d.x), L(d.y), L(d.z));
  }
  throw std::logic_error("unknown BoolOp");
}

int Tseitin::combine(GateId id) {
  const BitDef d = c_.bit_def(id);
  if (d.op == BoolOp::Input) return input_lit_(c_.gate(id).a);
  return bit_def_lit(g_, d, [&](GateId x) { return lit_[x]; });
}

int Tseitin::lit(GateId root) {
  if (lit_[root]) return lit_[root];
  // Post-order walk over BitDef operands (operands precede their gate in the array, so the walk
  // terminates; an explicit stack keeps deep circuits off the call stack).
  std::vector<std::pair<GateId, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [id, expanded] = stack.back();
    stack.pop_back();
    if (lit_[id]) continue;
    if (!c_.is_bit(id))
      throw std::logic_error("gate " + std::to_string(id) + " is a Field wire: only all-Bit circuits are SAT-encoded");
    if (expanded) {
      lit_[id] = combine(id);
      ++encoded_;
      continue;
    }
    stack.push_back({id, true});
    const BitDef d = c_.bit_def(id);
    const int ar = bool_arity(d.op);
    const GateId ops[3] = {d.x, d.y, d.z};
    for (int k = 0; k < ar; ++k)
      if (!lit_[ops[k]]) stack.push_back({ops[k], false});
  }
  return lit_[root];
}

}  // namespace cz::circuits::sat
