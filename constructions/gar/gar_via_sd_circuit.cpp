#include "constructions/gar/gar_via_sd_circuit.h"

#include "circuits/gadgets_compare.h"
#include "constructions/gar/via_sd.h"
#include "constructions/sd/alg3_circuit.h"

namespace cz::garc {

namespace g = circuits::gadgets;
using circuits::Wire;

SdOracleWires alg3_oracle_wires(const sdc::Alg3Rules& rules) {
  return [rules](circuits::Builder& b, unsigned n, const std::vector<g::Bits>& A, const std::vector<g::Bits>& B) {
    std::vector<Wire> prompt;  // as sd::encode writes (A, B): A's rows, the separator [0^n :: 1], B's rows
    for (const auto& x : A) {
      prompt.insert(prompt.end(), x.begin(), x.end());
      prompt.push_back(b.zero());
    }
    for (unsigned j = 0; j < n; ++j) prompt.push_back(b.zero());
    prompt.push_back(b.one());
    for (const auto& x : B) {
      prompt.insert(prompt.end(), x.begin(), x.end());
      prompt.push_back(b.zero());
    }
    sdc::UnrollSpec s;
    s.n = n;
    s.N = A.size() + B.size() + 1;
    s.jrt = true;
    s.rules = rules;
    return sdc::unroll_alg3_wires(b, s, prompt).y;
  };
}

SdOracleWires reference_oracle_wires() {
  return [](circuits::Builder& b, unsigned, const std::vector<g::Bits>& A, const std::vector<g::Bits>& B) {
    std::vector<std::vector<Wire>> rows;
    for (const auto& x : A) {
      std::vector<Wire> in;
      for (const auto& y : B) in.push_back(g::equal(b, x, y));
      std::vector<Wire> row = x;
      row.push_back(g::or_all(b, in));
      rows.push_back(row);
    }
    return rows;
  };
}

std::uint64_t gar_via_sd_calls(std::uint32_t c, std::size_t nk, std::size_t m) {
  if (nk >= 40 || m >= 40) return ~std::uint64_t(0);
  return std::uint64_t(code_bits(c)) << (nk + (m ? m - 1 : 0));
}

circuits::Circuit gar_via_sd_circuit(std::uint32_t c, std::size_t nk, std::size_t m, const SdOracleWires& oracle) {
  circuits::Builder b;
  const unsigned nt = token_bits(c), d = code_bits(c);
  auto word = [&](const std::string& name, std::size_t j) {
    g::Bits v;
    for (unsigned k = 0; k < nt; ++k) v.push_back(b.input(name + "[" + std::to_string(j) + "][" + std::to_string(k) + "]", circuits::Type::Bit));
    return v;
  };
  std::vector<g::Bits> keys, values, queries;
  for (std::size_t j = 0; j < nk; ++j) keys.push_back(word("k", j));
  for (std::size_t j = 0; j < nk; ++j) values.push_back(word("v", j));
  for (std::size_t i = 0; i < m; ++i) queries.push_back(word("q", i));
  // code(v_j) = v_j + 1 on d bits (d >= nt, and v + 1 <= c < 2^d on the domain).
  std::vector<g::Bits> code(nk);
  for (std::size_t j = 0; j < nk; ++j) {
    Wire carry = b.one();
    for (unsigned t = 0; t < d; ++t) {
      const Wire x = t < nt ? values[j][t] : b.zero();
      code[j].push_back(g::xor_(b, x, carry));
      carry = g::and_(b, x, carry);
    }
  }
  // The queries' first-occurrence patterns: F has query 0 (when m > 0); query i is in F iff no
  // earlier query equals it.
  std::vector<std::vector<Wire>> same(m, std::vector<Wire>(m));
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < i; ++j) same[i][j] = g::equal(b, queries[i], queries[j]);
  std::vector<std::pair<std::vector<std::size_t>, Wire>> patterns;  // (F in prompt order, [the pattern is F])
  const std::uint64_t nF = m ? std::uint64_t(1) << (m - 1) : 1;
  for (std::uint64_t f = 0; f < nF; ++f) {
    std::vector<std::size_t> F;
    std::vector<Wire> cond;
    for (std::size_t i = 0; i < m; ++i) {
      const bool first = i == 0 || ((f >> (i - 1)) & 1);
      std::vector<Wire> earlier(same[i].begin(), same[i].begin() + static_cast<std::ptrdiff_t>(i));
      const Wire repeat = g::or_all(b, earlier);
      cond.push_back(first ? g::not_(b, repeat) : repeat);
      if (first) F.push_back(i);
    }
    patterns.push_back({F, g::and_all(b, cond)});
  }
  std::vector<g::Bits> qcode(m, g::Bits(d, b.zero()));
  for (unsigned l = 0; l < d; ++l)
    for (std::uint64_t s = 0; s < (std::uint64_t(1) << nk); ++s) {
      std::vector<g::Bits> K;  // K_l = S, in key order
      std::vector<Wire> cond;
      for (std::size_t j = 0; j < nk; ++j) {
        const bool in = (s >> j) & 1;
        cond.push_back(in ? code[j][l] : g::not_(b, code[j][l]));
        if (in) K.push_back(keys[j]);
      }
      const Wire inS = g::and_all(b, cond);
      for (const auto& [F, inF] : patterns) {
        std::vector<g::Bits> Q;
        for (std::size_t i : F) Q.push_back(queries[i]);
        const auto rows = oracle(b, nt, Q, K);
        const Wire sel = g::and_(b, inS, inF);
        for (std::size_t i = 0; i < m; ++i) {
          std::vector<Wire> hit;
          for (const auto& row : rows)
            hit.push_back(g::and_(b, row[nt], g::equal(b, g::Bits(row.begin(), row.begin() + nt), queries[i])));
          qcode[i][l] = g::or_(b, qcode[i][l], g::and_(b, sel, g::or_all(b, hit)));
        }
      }
    }
  for (std::size_t i = 0; i < m; ++i) b.output("found[" + std::to_string(i) + "]", g::or_all(b, qcode[i]));
  for (std::size_t i = 0; i < m; ++i) {
    Wire borrow = b.one();  // code − 1
    for (unsigned t = 0; t < d; ++t) {
      b.output("a[" + std::to_string(i) + "][" + std::to_string(t) + "]", g::xor_(b, qcode[i][t], borrow));
      borrow = g::and_(b, g::not_(b, qcode[i][t]), borrow);
    }
  }
  return std::move(b).finish();
}

}  // namespace cz::garc
