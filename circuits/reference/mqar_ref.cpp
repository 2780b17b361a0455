#include "circuits/reference/mqar_ref.h"

#include <map>

#include "circuits/gadgets_bits.h"
#include "circuits/reference/parse_cell.h"
#include "util/error.h"

namespace cz::circuits::reference {

namespace g = gadgets;

namespace {

// [row == other], bit by bit (codewords of equal tokens are equal, and the encodings are injective).
Wire rows_equal(Builder& b, const g::Bits& x, const g::Bits& y) {
  std::vector<Wire> e;
  for (std::size_t k = 0; k < x.size(); ++k) e.push_back(g::xnor_(b, x[k], y[k]));
  return g::and_all(b, e);
}

// Exactly one of xs is 1: at least one, and no two (pairwise, the plainest statement).
Wire exactly_one(Builder& b, const std::vector<Wire>& xs) {
  std::vector<Wire> conds{g::or_all(b, xs)};
  for (std::size_t i = 0; i < xs.size(); ++i)
    for (std::size_t j = i + 1; j < xs.size(); ++j) conds.push_back(g::not_(b, g::and_(b, xs[i], xs[j])));
  return g::and_all(b, conds);
}

// [x < c] for the LSB-first word x and the constant c: from the top bit down, x < c at the first
// bit where they differ and c has the 1.
Wire below_const(Builder& b, const g::Bits& x, std::uint64_t c) {
  if (x.size() < 64 && c >= (std::uint64_t{1} << x.size())) return b.one();
  Wire lt = b.zero(), eq = b.one();
  for (std::size_t k = x.size(); k-- > 0;) {
    const bool cb = (c >> k) & 1;
    if (cb) {
      lt = g::or_(b, lt, g::and_(b, eq, g::not_(b, x[k])));
      eq = g::and_(b, eq, x[k]);
    } else {
      eq = g::and_(b, eq, g::not_(b, x[k]));
    }
  }
  return lt;
}

Wire valid_row(Builder& b, const MqarSpec& s, const g::Bits& row) {
  switch (s.code) {
    case TokenCode::Binary: return below_const(b, row, s.c);
    case TokenCode::OneHot: return exactly_one(b, row);
    case TokenCode::PHot: {
      std::vector<Wire> ok;
      for (std::size_t k = 0; k < s.p; ++k)
        ok.push_back(exactly_one(b, std::vector<Wire>(row.begin() + static_cast<long>(k * s.base),
                                                      row.begin() + static_cast<long>((k + 1) * s.base))));
      return g::and_all(b, ok);
    }
  }
  return b.zero();
}

}  // namespace

Checker mqar_checker(const MqarSpec& s, const std::vector<std::string>& outs, const std::string& where) {
  const std::size_t n = s.n, N = 3 * n, d = s.d;
  Builder b;
  std::vector<g::Bits> u(N);
  for (std::size_t r = 0; r < N; ++r)
    for (std::size_t j = 0; j < d; ++j)
      u[r].push_back(b.input("u[" + std::to_string(r) + "][" + std::to_string(j) + "]", Type::Bit));
  std::vector<std::pair<Cell, Wire>> got;
  for (const auto& name : outs) {
    const Cell cell = parse_cell(name, 'y', where);
    if (cell.r >= N || cell.c > d)
      throw InputError("output " + name + " lies outside the task's " + std::to_string(N) + " rows and " +
                           std::to_string(d) + " columns (+ a found column)",
                       where);
    got.push_back({cell, b.input("got:" + name, Type::Bit)});
  }
  Checker ch;
  ch.task_inputs = N * d;

  std::vector<Wire> dom;
  for (std::size_t r = 0; r < N; ++r) dom.push_back(valid_row(b, s, u[r]));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) dom.push_back(g::not_(b, rows_equal(b, u[3 * i], u[3 * j])));
  b.output("domain", g::and_all(b, dom));

  // Expected cell values: answer of query i at row 3i+2.
  std::map<std::pair<std::size_t, std::size_t>, Wire> expect;
  std::vector<std::vector<Wire>> matches(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<Wire>& match = matches[i];
    for (std::size_t j = 0; j < i; ++j) match.push_back(rows_equal(b, u[3 * i + 2], u[3 * j]));
    for (std::size_t col = 0; col < d; ++col) {
      std::vector<Wire> sel;
      for (std::size_t j = 0; j < i; ++j) sel.push_back(g::and_(b, match[j], u[3 * j + 1][col]));
      expect[{3 * i + 2, col}] = g::or_all(b, sel);
    }
    expect[{3 * i + 2, d}] = g::or_all(b, match);
  }
  // A cell the circuit does not output reads as 0 (as the enumerating check places outputs by
  // name into a zero matrix): it is right exactly when the expected bit is 0.
  // The found column d is judged as a whole when the circuit outputs any cell of it (tasks/mqar.h
  // expected_answer: the enumerating check then reads the output N×(d+1), cells left out as 0).
  std::map<std::pair<std::size_t, std::size_t>, bool> present;
  bool found_col = false;
  for (const auto& gc : got) {
    present[{gc.first.r, gc.first.c}] = true;
    found_col = found_col || gc.first.c == d;
  }
  for (std::size_t r = 0; r < N; ++r)
    for (std::size_t col = 0; col < d + (found_col ? 1 : 0); ++col)
      if (!present.count({r, col}))
        if (auto it = expect.find({r, col}); it != expect.end()) got.push_back({Cell{r, col}, b.zero()});
  for (const auto& [cell, w] : got) {
    auto it = expect.find({cell.r, cell.c});
    const Wire want = it == expect.end() ? b.zero() : it->second;
    ch.groups.push_back("query " + std::to_string(cell.r / 3) + " y[" + std::to_string(cell.r) + "][" + std::to_string(cell.c) + "]");
    ch.family.push_back("query " + std::to_string(cell.r / 3));
    b.output("ok:" + ch.groups.back(), g::xnor_(b, w, want));
  }
  // Cases of query i: q_i = k_j for each j < i (at most one holds on the domain), else none.
  std::size_t outputs = 1 + ch.groups.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < i; ++j) {
      b.output("case:query " + std::to_string(i) + ":" + std::to_string(j), matches[i][j]);
      ch.cases.push_back({"query " + std::to_string(i), outputs++});
    }
  ch.circuit = std::move(b).finish();
  return ch;
}

}  // namespace cz::circuits::reference
