#include "constructions/gar/sd_via_gar_circuit.h"

#include "circuits/builder.h"
#include "circuits/gadgets_bits.h"
#include "circuits/gadgets_compare.h"
#include "constructions/gar/via_sd.h"
#include "constructions/sd/alg3_circuit.h"

namespace cz::garc {

namespace g = circuits::gadgets;
using circuits::Wire;

circuits::Circuit sd_via_gar_unrolled(unsigned n, const sdc::Alg3Rules& rules, const std::vector<ViaGarBlock>& blocks) {
  const std::uint32_t c = std::uint32_t(1) << n;  // Prop G.25: tokens of {0,1}^n, c = 2^n
  const unsigned nt = token_bits(c), d = code_bits(c);
  // Prop G.26 with Alg. 3 calls on (Q, K_l); the values are Prop G.25's 0, so K_l is known here
  // (K_0 = the keys, K_l = ∅ for l > 0) and the queries (B) are distinct.
  GarAnsweredWires solver = [&](circuits::Builder& b, const std::vector<g::Bits>& A, const std::vector<g::Bits>&,
                                const std::vector<g::Bits>& Q) {
    std::vector<std::uint32_t> values(A.size(), 0);  // Prop G.25: every key's value is 0
    std::vector<Wire> answered(Q.size(), b.zero());
    for (unsigned l = 0; l < d; ++l) {
      // call l = (Q, K_l) on the JRT prompt, as sd::encode and sd::repeat_prompt lay it out
      std::vector<g::Bits> K;
      for (std::size_t j = 0; j < A.size(); ++j)
        if (((values[j] + 1) >> l) & 1) K.push_back(A[j]);
      std::vector<Wire> prompt;
      for (const auto& q : Q) {
        prompt.insert(prompt.end(), q.begin(), q.end());
        prompt.push_back(b.zero());
      }
      for (unsigned j = 0; j < nt; ++j) prompt.push_back(b.zero());
      prompt.push_back(b.one());  // the separator [0^n :: 1]
      for (const auto& x : K) {
        prompt.insert(prompt.end(), x.begin(), x.end());
        prompt.push_back(b.zero());
      }
      sdc::UnrollSpec s;
      s.n = nt;
      s.N = Q.size() + K.size() + 1;
      s.jrt = true;
      s.rules = rules;
      const sdc::UnrolledWires w = sdc::unroll_alg3_wires(b, s, prompt);
      // code bit l of query i: Q_i is among the call's flagged elements (decode_flags)
      for (std::size_t i = 0; i < Q.size(); ++i) {
        std::vector<Wire> hit;
        for (const auto& row : w.y)
          hit.push_back(g::and_(b, row[nt], g::equal(b, g::Bits(row.begin(), row.begin() + nt), Q[i])));
        answered[i] = g::or_(b, answered[i], g::or_all(b, hit));  // code != 0: not Null
      }
    }
    return answered;
  };
  return sd_via_gar_circuit(n, solver, blocks);
}

circuits::Circuit sd_via_gar_circuit(unsigned n, const GarAnsweredWires& solver, const std::vector<ViaGarBlock>& blocks) {
  circuits::Builder b;
  std::vector<std::vector<Wire>> u(blocks.size());
  for (std::size_t bi = 0; bi < blocks.size(); ++bi)
    for (std::size_t r = 0; r < blocks[bi].N; ++r)
      for (unsigned j = 0; j <= n; ++j)
        u[bi].push_back(b.input(blocks[bi].prefix + "u[" + std::to_string(r) + "][" + std::to_string(j) + "]", circuits::Type::Bit));
  for (std::size_t bi = 0; bi < blocks.size(); ++bi) {
    const ViaGarBlock& k = blocks[bi];
    auto elem = [&](std::size_t r) { return g::Bits(u[bi].begin() + static_cast<std::ptrdiff_t>(r * (n + 1)),
                                                    u[bi].begin() + static_cast<std::ptrdiff_t>(r * (n + 1) + n)); };
    auto flag = [&](std::size_t r) { return u[bi][r * (n + 1) + n]; };
    std::vector<std::vector<Wire>> answered_if(k.N);  // per row: (separator on a) ∧ answered
    for (std::size_t a : k.seps) {
      std::vector<g::Bits> A, Q;
      for (std::size_t r = 0; r < a; ++r) A.push_back(elem(r));
      for (std::size_t r = a + 1; r < k.N; ++r) Q.push_back(elem(r));  // queries = B; as a set: all of them
      const std::vector<g::Bits> values(A.size(), g::Bits(n, b.zero()));  // Prop G.25: every key's value is 0
      const std::vector<Wire> answered = solver(b, A, values, Q);
      for (std::size_t i = 0; i < Q.size(); ++i) answered_if[a + 1 + i].push_back(g::and_(b, flag(a), answered[i]));
    }
    for (std::size_t r = 0; r < k.N; ++r) {
      const g::Bits e = elem(r);
      for (unsigned j = 0; j < n; ++j) b.output(k.prefix + "y[" + std::to_string(r) + "][" + std::to_string(j) + "]", e[j]);
      b.output(k.prefix + "y[" + std::to_string(r) + "][" + std::to_string(n) + "]", g::or_all(b, answered_if[r]));
    }
  }
  return std::move(b).finish();
}

}  // namespace cz::garc
