#include "constructions/mqar/autocorrelation_circuit.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>

#include "circuits/gadgets_bits.h"

namespace cz::mqarc {

namespace sat = circuits::sat;
namespace g = circuits::gadgets;
using circuits::Wire;
using sat::Word;

namespace {

// [a < b] for exact words: the sign of a - b.
Wire less(sat::WordBuilder& wb, const Word& a, const Word& b) {
  circuits::Builder& B = wb.builder();
  const Word d = wb.sub(a, b);
  if (d.hi.sign() < 0) return B.one();
  if (d.lo.sign() >= 0) return B.zero();
  return d.bits.back();
}

Word count(sat::WordBuilder& wb, const std::vector<Wire>& bits) {
  Word acc = wb.constant(Int(0));
  for (Wire w : bits) acc = wb.sum(acc, wb.from_bit(w));
  return acc;
}

// [row p's token == row q's token]: the codewords equal bit by bit (one-hot is injective).
Wire same_token(circuits::Builder& b, const Matrix<Word>& u, std::size_t p, std::size_t q) {
  std::vector<Wire> e;
  for (std::size_t a = 0; a < u.cols(); ++a) e.push_back(g::xnor_(b, u(p, a).bits.at(0), u(q, a).bits.at(0)));
  return g::and_all(b, e);
}

// The lag choice of lags.h as bits: chosen[s], rank[s] (s in [1, N)), the block count T.
struct Lags {
  std::vector<Wire> chosen;
  std::vector<Word> rank;
  Word T;
  std::size_t T_max = 1;
};

Lags choose(sat::WordBuilder& wb, const AutoConfig& cfg, const Matrix<Word>& u) {
  circuits::Builder& b = wb.builder();
  const std::size_t n = cfg.shape.n, N = 3 * n;
  // qk_scores: query i meets key j < i (visible[i] = i for triples) at distance 3(i-j)+2.
  std::vector<std::vector<Wire>> qk(N), ac(N);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < i; ++j) qk[3 * i + 2 - 3 * j].push_back(same_token(b, u, 3 * i + 2, 3 * j));
  if (cfg.rule == LagRule::Autocorr)
    for (std::size_t s = 1; s < N; ++s)
      for (std::size_t p = s; p < N; ++p) ac[s].push_back(same_token(b, u, p, p - s));
  const auto& sc_bits = cfg.rule == LagRule::QK ? qk : ac;
  std::vector<Word> score(N);
  std::vector<Wire> pos(N, b.zero()), needed(N, b.zero());
  for (std::size_t s = 1; s < N; ++s) {
    score[s] = count(wb, sc_bits[s]);
    pos[s] = g::or_all(b, sc_bits[s]);
    needed[s] = g::or_all(b, qk[s]);
  }
  Lags L;
  L.T_max = cfg.t ? cfg.t : std::max<std::size_t>(1, n ? n - 1 : 0);
  if (cfg.t) {
    L.T = wb.constant(Int(static_cast<std::int64_t>(cfg.t)));
  } else {  // t = max(1, #needed)
    std::vector<Wire> nd(needed.begin() + 1, needed.end());
    L.T = wb.sum(count(wb, nd), wb.from_bit(g::not_(b, g::or_all(b, nd))));
  }
  // top_lags: positive scores, stable-sorted by score descending over lags ascending.
  L.chosen.assign(N, b.zero());
  L.rank.assign(N, wb.constant(Int(0)));
  for (std::size_t s = 1; s < N; ++s) {
    if (b.const_value(pos[s])) continue;  // never positive (e.g. qk lags not 2 mod 3)
    std::vector<Wire> before;
    for (std::size_t s2 = 1; s2 < N; ++s2) {
      if (s2 == s || b.const_value(pos[s2])) continue;
      Wire ahead = less(wb, score[s], score[s2]);
      if (s2 < s) ahead = g::or_(b, ahead, wb.equal(score[s2], score[s]));
      before.push_back(g::and_(b, pos[s2], ahead));
    }
    L.rank[s] = count(wb, before);
    L.chosen[s] = g::and_(b, pos[s], less(wb, L.rank[s], L.T));
  }
  return L;
}

// Row r - k of a column under the model's convolution (causal: dropped when negative; cyclic: mod rows).
std::optional<std::size_t> src(std::size_t r, std::size_t k, std::size_t rows, ConvMode conv) {
  if (conv == ConvMode::Cyclic) return (r + rows - k % rows) % rows;
  if (k > r) return std::nullopt;
  return r - k;
}

Matrix<Word> fixed_words(sat::WordBuilder& wb, const AutoConfig& cfg, const Matrix<Word>& u, const Lags& L) {
  circuits::Builder& b = wb.builder();
  const std::size_t n = cfg.shape.n, N = 3 * n, c = u.cols();
  const Word zero = wb.constant(Int(0));
  // Layer 1 (eq 20): Q = M_Q ⊙ u, K = M_K ⊙ u, V = M_V ⊙ u (triples: keys 3j, values 3j+1, queries 3i+2).
  auto masked = [&](std::size_t r, std::size_t a, std::size_t role) { return r % 3 == role ? u(r, a) : zero; };
  Matrix<Word> out(N, c, zero);
  // One block: kernels h^k = gate·X^sk, h^v = gate·X^sv (layers 2-3), added into out (layer 4).
  auto block = [&](Wire gate, std::size_t sk, std::size_t sv) {
    if (b.const_value(gate) && b.const_value(gate)->is_zero()) return;
    const Word gw = wb.from_bit(gate);
    for (std::size_t r = 0; r < N; ++r) {
      std::vector<Word> y(c), v(c);
      for (std::size_t a = 0; a < c; ++a) {
        const auto rk = src(r, sk, N, cfg.conv), rv = src(r, sv, N, cfg.conv);
        y[a] = wb.mul(masked(r, a, 2), rk ? wb.mul(gw, masked(*rk, a, 0)) : zero);  // Q ⊙ (h^k * K), eq 26
        v[a] = rv ? wb.mul(gw, masked(*rv, a, 1)) : zero;                            // h^v * V, eq 27
      }
      Word E = zero;  // smear (eq 23): the all-ones c×c block
      for (std::size_t a = 0; a < c; ++a) E = wb.sum(E, y[a]);
      for (std::size_t a = 0; a < c; ++a)
        out(r, a) = wb.sum(out(r, a), wb.mul(cfg.mutant == Mutant::DropSmear ? y[a] : E, v[a]));  // gate (eq 22), Linear_sum
    }
  };
  for (std::size_t s = 1; s < N; ++s) {
    if (cfg.mutant != Mutant::WrongLag) {
      block(L.chosen[s], s, s - 1);
      continue;
    }
    // build_fixed's WrongLag: block 0 (the best lag) uses s ± 3 instead.
    const Wire first = g::and_(b, L.chosen[s], wb.equal(L.rank[s], zero));
    std::size_t s2 = s;
    if (s + 3 < N) s2 = s + 3;
    else if (s > 3) s2 = s - 3;
    block(g::and_(b, L.chosen[s], g::not_(b, first)), s, s - 1);
    block(first, s2, s2 - 1);
  }
  return out;
}

// build_paper's model for T blocks (N' = N·T rows), its output rows [0, N).
Matrix<Word> paper_words_T(sat::WordBuilder& wb, const AutoConfig& cfg, const Matrix<Word>& u, const Lags& L, std::size_t T) {
  circuits::Builder& b = wb.builder();
  const std::size_t n = cfg.shape.n, N = 3 * n, c = u.cols(), NN = N * T;
  const Word zero = wb.constant(Int(0));
  const std::size_t off = cfg.offset == PaperOffset::Printed ? N / 3 : N;
  auto tap_at = [&](std::size_t k) -> std::optional<std::size_t> {  // build_paper's tap()
    if (k >= NN) {
      if (cfg.conv != ConvMode::Cyclic) return std::nullopt;
      k %= NN;
    }
    return k;
  };
  // Layer 3's kernels: h^K[k] = #{(s, l) : s at rank l, tap(s + l·off) = k}; h^V with s - 1.
  std::map<std::size_t, std::vector<Wire>> hk_bits, hv_bits;
  for (std::size_t s = 1; s < N; ++s) {
    if (b.const_value(L.chosen[s])) continue;
    for (std::size_t l = 0; l < T; ++l) {
      const Wire at = g::and_(b, L.chosen[s], wb.equal(L.rank[s], wb.constant(Int(static_cast<std::int64_t>(l)))));
      if (auto k = tap_at(s + l * off)) hk_bits[*k].push_back(at);
      if (auto k = tap_at(s - 1 + l * off)) hv_bits[*k].push_back(at);
    }
  }
  std::vector<std::pair<std::size_t, Word>> hK, hV;
  for (const auto& [k, bits] : hk_bits) hK.push_back({k, count(wb, bits)});
  for (const auto& [k, bits] : hv_bits) hV.push_back({k, count(wb, bits)});
  // Layers 1-2 (u replicated, zero-padded below row N): Q' = M_Q-stacked sum_b X^{bN} * u,
  // K' and V' = mask ⊙ (X^{(T-1)N} * u) in the last block.
  auto upad = [&](std::optional<std::size_t> r, std::size_t a) { return r && *r < N ? u(*r, a) : zero; };
  auto Qp = [&](std::size_t R, std::size_t a) {
    if (R % N % 3 != 2) return zero;
    Word acc = zero;
    for (std::size_t bb = 0; bb < T; ++bb)
      if (auto k = tap_at(bb * N)) acc = wb.sum(acc, upad(src(R, *k, NN, cfg.conv), a));
    return acc;
  };
  auto last = [&](std::size_t R, std::size_t a, std::size_t role) {
    if (R < (T - 1) * N || (R - (T - 1) * N) % 3 != role) return zero;
    return upad(src(R, (T - 1) * N, NN, cfg.conv), a);
  };
  // z' at row R (layers 3-4).
  std::map<std::size_t, std::vector<Word>> zmemo;
  auto z = [&](std::size_t R) -> const std::vector<Word>& {
    auto it = zmemo.find(R);
    if (it != zmemo.end()) return it->second;
    std::vector<Word> y(c), v(c, zero), out(c);
    for (std::size_t a = 0; a < c; ++a) {
      Word conv = zero, convv = zero;
      for (const auto& [k, w] : hK)
        if (auto r = src(R, k, NN, cfg.conv)) conv = wb.sum(conv, wb.mul(w, last(*r, a, 0)));
      for (const auto& [k, w] : hV)
        if (auto r = src(R, k, NN, cfg.conv)) convv = wb.sum(convv, wb.mul(w, last(*r, a, 1)));
      y[a] = wb.mul(Qp(R, a), conv);
      v[a] = convv;
    }
    Word E = zero;
    for (std::size_t a = 0; a < c; ++a) E = wb.sum(E, y[a]);
    for (std::size_t a = 0; a < c; ++a) out[a] = wb.mul(E, v[a]);
    return zmemo.emplace(R, std::move(out)).first->second;
  };
  // Layer 5: sum_b X^{bN} * z', read at the top block.
  Matrix<Word> res(N, c, zero);
  for (std::size_t r = 0; r < N; ++r)
    for (std::size_t bb = 0; bb < T; ++bb)
      if (auto k = tap_at(bb * N))
        if (auto R = src(r, *k, NN, cfg.conv)) {
          const std::vector<Word>& zr = z(*R);
          for (std::size_t a = 0; a < c; ++a) res(r, a) = wb.sum(res(r, a), zr[a]);
        }
  return res;
}

}  // namespace

Matrix<Word> autocorr_words(sat::WordBuilder& wb, const AutoConfig& cfg, const Matrix<Word>& u) {
  if (cfg.shape.layout != mqar::Layout::Triples) throw std::invalid_argument("autocorr_words: triples layout only");
  if (u.rows() != 3 * cfg.shape.n || u.cols() != cfg.shape.c) throw std::invalid_argument("autocorr_words: u is not N×c");
  const Lags L = choose(wb, cfg, u);
  if (!cfg.paper) return fixed_words(wb, cfg, u, L);
  if (cfg.mutant != Mutant::None) throw std::invalid_argument("autocorr_words: mutants are of variant=fixed");
  circuits::Builder& b = wb.builder();
  const std::size_t N = u.rows(), c = u.cols();
  if (cfg.t) return paper_words_T(wb, cfg, u, L, cfg.t);
  Matrix<Word> out(N, c, wb.constant(Int(0)));
  for (std::size_t T = 1; T <= L.T_max; ++T) {
    const Wire is_T = wb.equal(L.T, wb.constant(Int(static_cast<std::int64_t>(T))));
    if (b.const_value(is_T) && b.const_value(is_T)->is_zero()) continue;
    const Matrix<Word> yT = paper_words_T(wb, cfg, u, L, T);
    const Word gate = wb.from_bit(is_T);
    for (std::size_t r = 0; r < N; ++r)
      for (std::size_t a = 0; a < c; ++a) out(r, a) = wb.sum(out(r, a), wb.mul(gate, yT(r, a)));
  }
  return out;
}

}  // namespace cz::mqarc
