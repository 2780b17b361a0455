#include "constructions/mqar/pbs.h"

#include <stdexcept>

#include "circuits/gadgets_arith.h"

namespace cz::mqarc {

namespace g = circuits::gadgets;
using dy::Bits;
using dy::Builder;
using dy::Wire;

namespace {

using OneHot = std::vector<Wire>;

struct Pbs {
  Builder& b;
  const std::vector<Bits>& Q;
  const std::vector<Bits>& K;
  PbsVariant v;
  std::size_t mk, B;  // number of keys; index width bits_for(mk)
  std::vector<Bits> C;
  PbsCount count;
  std::vector<PbsCallTrace>* calls;

  void traced(std::size_t s, std::size_t t, std::size_t mid, const OneHot& X, const OneHot& Y1) {
    if (calls) calls->push_back({s, t, mid, X, Y1, std::vector<Bits>(C.begin() + static_cast<long>(s), C.begin() + static_cast<long>(t))});
  }

  OneHot prefix_or(const OneHot& x) {
    return g::prefix_scan(b, x, [](Builder& bb, Wire p, Wire q) { return g::or_(bb, p, q); });
  }

  // Algorithm 10 on queries [s, t) (half-open) and the key range given by X (one-hot x) and
  // Y1 (one-hot y+1).
  void rec(std::size_t s, std::size_t t, const OneHot& X, const OneHot& Y1) {
    if (s >= t) return;
    ++count.calls;
    const std::size_t mid = s + (t - 1 - s) / 2;  // ⌊(s + t_incl)/2⌋
    std::vector<Wire> lt(mk);
    for (std::size_t j = 0; j < mk; ++j) lt[j] = g::less_than(b, K[j], Q[mid]);
    count.comparisons += mk;
    // eq (14)
    std::vector<Wire> lx_terms, gy_terms;
    for (std::size_t j = 0; j < mk; ++j) {
      lx_terms.push_back(g::and_(b, X[j], g::not_(b, lt[j])));
      gy_terms.push_back(g::and_(b, Y1[j + 1], lt[j]));
    }
    const Wire lx = g::or_all(b, lx_terms), gy = g::or_all(b, gy_terms);
    // bin-search over [x, y]: R_j = [x <= j] AND NOT [y+1 <= j]; z = the first j in R with ¬lt_j.
    const OneHot PX = prefix_or(X), PY = prefix_or(OneHot(Y1.begin(), Y1.begin() + static_cast<long>(mk)));
    OneHot Z(mk);
    for (std::size_t j = 0; j < mk; ++j) {
      Wire R = g::and_(b, PX[j], g::not_(b, PY[j]));
      Wire edge = j == 0 ? X[0] : g::or_(b, X[j], lt[j - 1]);
      Z[j] = g::and_(b, g::and_(b, R, g::not_(b, lt[j])), edge);
    }
    const Wire live = g::and_(b, g::not_(b, lx), g::not_(b, gy));
    // eq (15), (16): the right call's first key z_t and the left call's end z_s (= its y+1).
    OneHot Zt(mk), Zs(mk + 1), Cmid(mk + 1);
    for (std::size_t j = 0; j <= mk; ++j) {
      Wire zl = j < mk ? g::and_(b, live, Z[j]) : b.zero();
      Wire gyy = g::and_(b, gy, Y1[j]);
      if (j < mk) Zt[j] = g::or_(b, g::and_(b, lx, X[j]), zl);
      Zs[j] = g::or_(b, gyy, zl);
      Cmid[j] = j < mk ? g::or_(b, Zt[j], gyy) : gyy;
    }
    rec(s, mid, X, Zs);
    rec(mid + 1, t, Zt, Y1);
    // eq (17)
    const Bits binX = dy::onehot_to_binary(b, X, B), binY1 = dy::onehot_to_binary(b, Y1, B);
    if (v == PbsVariant::Paper) {
      const Bits binZ = dy::onehot_to_binary(b, Z, B);
      const Bits binZs = dy::onehot_to_binary(b, Zs, B), binZt = dy::onehot_to_binary(b, Zt, B);
      const Bits lxx = dy::and_word(b, lx, binX), gyy = dy::and_word(b, gy, binY1);
      C[mid] = dy::add_words(b, dy::add_words(b, lxx, dy::and_word(b, live, binZ)), gyy);
      for (std::size_t i = s; i < mid; ++i) C[i] = dy::add_words(b, lxx, dy::mul_words(b, binZs, C[i]));
      for (std::size_t i = mid + 1; i < t; ++i) C[i] = dy::add_words(b, gyy, dy::mul_words(b, binZt, C[i]));
      traced(s, t, mid, X, Y1);
      return;
    }
    // The three terms of C[mid] are exclusive on a live range (x <= y and sorted keys), so + is OR.
    C[mid] = dy::onehot_to_binary(b, Cmid, B);
    if (v == PbsVariant::Fixed) {
      for (std::size_t i = s; i < mid; ++i) C[i] = g::mux_bits(b, lx, binX, C[i]);
      for (std::size_t i = mid + 1; i < t; ++i) C[i] = g::mux_bits(b, gy, binY1, C[i]);
      traced(s, t, mid, X, Y1);
      return;
    }
    // DeadZero: liveness read off the index itself ("0 = dead"); ℓx·x and [z_s != 0]·C1 never
    // both hold on a live range, so + is OR.
    const Wire aliveS = g::or_all(b, OneHot(Zs.begin() + 1, Zs.end()));
    const Wire aliveT = g::or_all(b, OneHot(Zt.begin() + 1, Zt.end()));
    const Bits lxx = dy::and_word(b, lx, binX), gyy = dy::and_word(b, gy, binY1);
    for (std::size_t i = s; i < mid; ++i) C[i] = dy::or_words(b, lxx, dy::and_word(b, aliveS, C[i]));
    for (std::size_t i = mid + 1; i < t; ++i) C[i] = dy::or_words(b, gyy, dy::and_word(b, aliveT, C[i]));
    traced(s, t, mid, X, Y1);
  }
};

}  // namespace

std::vector<Bits> pbs_key_values(Builder& b, const std::vector<Bits>& Q, const std::vector<Bits>& K, PbsVariant v,
                                 PbsCount* count, std::vector<PbsCallTrace>* calls, std::size_t x0) {
  if (K.empty()) throw std::logic_error("pbs_key_values: no keys");
  if (x0 >= K.size()) throw std::logic_error("pbs_key_values: the first key lies past the keys");
  Pbs p{b, Q, K, v, K.size(), dy::bits_for(K.size()), std::vector<Bits>(Q.size()), {}, calls};
  OneHot X(p.mk, b.zero()), Y1(p.mk + 1, b.zero());
  X[x0] = b.one();   // x = 0 (x0 = 1: a mutant)
  Y1[p.mk] = b.one();  // y = mk − 1
  p.rec(0, Q.size(), X, Y1);
  if (count) {
    count->comparisons += p.count.comparisons;
    count->calls += p.count.calls;
  }
  return std::move(p.C);
}

}  // namespace cz::mqarc
