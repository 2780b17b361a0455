#include "circuits/reference/gar_ref.h"

#include "circuits/reference/eq_ref.h"

namespace cz::circuits::reference {

namespace g = gadgets;

namespace {

Wire eq_word(Builder& b, const g::Bits& x, const g::Bits& y) {
  std::vector<Wire> same;
  for (std::size_t k = 0; k < x.size(); ++k) same.push_back(g::xnor_(b, x[k], y[k]));
  return g::and_all(b, same);
}

struct Gar {
  std::vector<g::Bits> keys, values, queries;
  Wire domain;
  GarAnswers ans;
};

Gar inputs(Builder& b, const GarSpec& s) {
  Gar x;
  const unsigned w = token_width(s.c);
  auto word = [&](const std::string& name, std::size_t j) {
    g::Bits v;
    for (unsigned k = 0; k < w; ++k) v.push_back(b.input(name + "[" + std::to_string(j) + "][" + std::to_string(k) + "]", Type::Bit));
    return v;
  };
  for (std::size_t j = 0; j < s.nk; ++j) x.keys.push_back(word("k", j));
  for (std::size_t j = 0; j < s.nk; ++j) x.values.push_back(word("v", j));
  for (std::size_t i = 0; i < s.m; ++i) x.queries.push_back(word("q", i));
  return x;
}

void semantics(Builder& b, const GarSpec& s, Gar& x) {
  std::vector<Wire> dom;
  for (const auto* group : {&x.keys, &x.values, &x.queries})
    for (const auto& t : *group) dom.push_back(below_const(b, t, s.c));
  for (std::size_t j = 0; j < s.nk; ++j)
    for (std::size_t t = j + 1; t < s.nk; ++t) dom.push_back(g::not_(b, eq_word(b, x.keys[j], x.keys[t])));
  x.domain = g::and_all(b, dom);
  x.ans = gar_answers(b, x.keys, x.values, x.queries);
}

}  // namespace

GarAnswers gar_answers(Builder& b, const std::vector<g::Bits>& keys, const std::vector<g::Bits>& values,
                       const std::vector<g::Bits>& queries) {
  GarAnswers a;
  const std::size_t w = values.empty() ? (queries.empty() ? 0 : queries[0].size()) : values[0].size();
  for (const auto& q : queries) {
    std::vector<Wire> hit;
    for (const auto& k : keys) hit.push_back(eq_word(b, q, k));
    a.found.push_back(g::or_all(b, hit));
    g::Bits v;
    for (std::size_t t = 0; t < w; ++t) {
      std::vector<Wire> bit;
      for (std::size_t j = 0; j < keys.size(); ++j) bit.push_back(g::and_(b, hit[j], values[j][t]));
      v.push_back(g::or_all(b, bit));
    }
    a.value.push_back(v);
  }
  return a;
}

Circuit gar_reference_circuit(const GarSpec& s) {
  Builder b;
  Gar x = inputs(b, s);
  semantics(b, s, x);
  b.output("domain", x.domain);
  for (std::size_t i = 0; i < s.m; ++i) b.output("found[" + std::to_string(i) + "]", x.ans.found[i]);
  for (std::size_t i = 0; i < s.m; ++i)
    for (std::size_t t = 0; t < x.ans.value[i].size(); ++t)
      b.output("a[" + std::to_string(i) + "][" + std::to_string(t) + "]", x.ans.value[i][t]);
  return std::move(b).finish();
}

Checker gar_checker(const GarSpec& s, std::size_t value_width) {
  Builder b;
  Gar x = inputs(b, s);
  Checker ch;
  ch.task_inputs = b.peek().num_inputs();
  std::vector<Wire> got_found;
  std::vector<g::Bits> got_value(s.m);
  for (std::size_t i = 0; i < s.m; ++i) got_found.push_back(b.input("got:found[" + std::to_string(i) + "]", Type::Bit));
  for (std::size_t i = 0; i < s.m; ++i)
    for (std::size_t t = 0; t < value_width; ++t)
      got_value[i].push_back(b.input("got:a[" + std::to_string(i) + "][" + std::to_string(t) + "]", Type::Bit));
  semantics(b, s, x);
  b.output("domain", x.domain);
  for (std::size_t i = 0; i < s.m; ++i) {
    // The value as an unsigned word of value_width bits against the key's value zero-extended.
    std::vector<Wire> same;
    const g::Bits& want = x.ans.value[i];
    for (std::size_t t = 0; t < std::max(value_width, want.size()); ++t) {
      const Wire gt = t < value_width ? got_value[i][t] : b.zero();
      const Wire wt = t < want.size() ? want[t] : b.zero();
      same.push_back(g::xnor_(b, gt, wt));
    }
    const Wire value_ok = g::or_(b, g::not_(b, x.ans.found[i]), g::and_all(b, same));
    const std::string q = "query " + std::to_string(i);
    b.output("ok:" + q, g::and_(b, g::xnor_(b, got_found[i], x.ans.found[i]), value_ok));
    ch.groups.push_back(q);
    ch.family.push_back(q);
  }
  ch.circuit = std::move(b).finish();
  return ch;
}

}  // namespace cz::circuits::reference
