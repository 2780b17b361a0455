#include "circuits/reference/sort_ref.h"

#include <cctype>

#include "circuits/gadgets_bits.h"
#include "util/error.h"

namespace cz::circuits::reference {

namespace g = gadgets;

namespace {

Wire equal_words(Builder& b, const g::Bits& x, const g::Bits& y) {
  std::vector<Wire> e;
  for (std::size_t k = 0; k < x.size(); ++k) e.push_back(g::xnor_(b, x[k], y[k]));
  return g::and_all(b, e);
}

// [x <= y], ripple from the LSB: a higher differing bit decides.
Wire less_equal(Builder& b, const g::Bits& x, const g::Bits& y) {
  Wire le = b.one();
  for (std::size_t k = 0; k < x.size(); ++k) le = g::mux(b, g::xnor_(b, x[k], y[k]), le, y[k]);
  return le;
}

Wire equals_const(Builder& b, const g::Bits& x, std::size_t v) {
  std::vector<Wire> e;
  for (std::size_t k = 0; k < x.size(); ++k) e.push_back(((v >> k) & 1) ? x[k] : g::not_(b, x[k]));
  return g::and_all(b, e);
}

}  // namespace

Checker sort_checker(std::size_t n, std::size_t d, const std::vector<std::string>& outs, const std::string& where) {
  std::size_t w = 0;
  while ((std::size_t{1} << w) < n) ++w;
  w = std::max<std::size_t>(1, w);
  Builder b;
  std::vector<g::Bits> k(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t = 0; t < d; ++t) k[i].push_back(b.input("k" + std::to_string(i) + "[" + std::to_string(t) + "]", Type::Bit));
  Checker ch;
  ch.task_inputs = n * d;
  // The answer words, from the circuit's outputs by name; a missing bit is an error (the
  // acceptance test reads every bit).
  std::vector<g::Bits> key(n, g::Bits(d)), idx(n, g::Bits(w));
  std::vector<std::vector<bool>> seen_k(n, std::vector<bool>(d)), seen_i(n, std::vector<bool>(w));
  for (const auto& name : outs) {
    std::size_t i = 0, t = 0;
    const Wire in = b.input("got:" + name, Type::Bit);
    // "<word><i>[<t>]" with i < n and t < width.
    auto parse = [&](const std::string& word, std::size_t width) {
      if (name.rfind(word, 0) != 0) return false;
      std::size_t pos = word.size(), v = 0, bit = 0;
      while (pos < name.size() && pos < word.size() + 9 && std::isdigit(static_cast<unsigned char>(name[pos])))
        v = 10 * v + static_cast<std::size_t>(name[pos++] - '0');
      if (pos == word.size() || v >= n || pos >= name.size() || name[pos] != '[') return false;
      std::size_t q = pos + 1;
      while (q < name.size() && q < pos + 10 && std::isdigit(static_cast<unsigned char>(name[q])))
        bit = 10 * bit + static_cast<std::size_t>(name[q++] - '0');
      if (q == pos + 1 || q + 1 != name.size() || name[q] != ']' || bit >= width) return false;
      i = v, t = bit;
      return true;
    };
    if (parse("key", d)) {
      key[i][t] = in, seen_k[i][t] = true;
    } else if (parse("idx", w)) {
      idx[i][t] = in, seen_i[i][t] = true;
    } else {
      throw InputError("output " + name + " is not an output of task sort (key<i>[b], idx<i>[b])", where);
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t t = 0; t < d; ++t)
      if (!seen_k[i][t]) throw InputError("the circuit has no output key" + std::to_string(i) + "[" + std::to_string(t) + "]", where);
    for (std::size_t t = 0; t < w; ++t)
      if (!seen_i[i][t]) throw InputError("the circuit has no output idx" + std::to_string(i) + "[" + std::to_string(t) + "]", where);
  }
  b.output("domain", b.one());
  std::vector<std::vector<Wire>> ok(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<Wire>& o = ok[i];
    if (i + 1 < n) o.push_back(less_equal(b, key[i], key[i + 1]));
    std::vector<Wire> in_range;
    for (std::size_t j = 0; j < n; ++j) {
      const Wire is_j = equals_const(b, idx[i], j);
      in_range.push_back(is_j);
      o.push_back(g::or_(b, g::not_(b, is_j), equal_words(b, key[i], k[j])));
    }
    o.push_back(g::or_all(b, in_range));
    for (std::size_t j = i + 1; j < n; ++j) o.push_back(g::not_(b, equal_words(b, idx[i], idx[j])));
  }
  for (std::size_t q = 0; q < ok.size(); ++q) {
    ch.groups.push_back("place " + std::to_string(q));
    ch.family.push_back(ch.groups.back());
    b.output("ok:" + ch.groups.back(), g::and_all(b, ok[q]));
  }
  ch.circuit = std::move(b).finish();
  return ch;
}

}  // namespace cz::circuits::reference
