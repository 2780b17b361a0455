#include "model/model.h"

#include "exact/rings.h"
#include "util/error.h"
#include "util/text.h"

namespace cz {
namespace {

void check_shape(const RatMatrix& m, std::size_t r, std::size_t c, const std::string& where) {
  if (m.rows() != r || m.cols() != c)
    throw InputError("expected a " + std::to_string(r) + "x" + std::to_string(c) + " matrix, got " +
                         std::to_string(m.rows()) + "x" + std::to_string(m.cols()),
                     where);
}

void count(const RatMatrix& m, ParamCount& pc) {
  pc.dense += m.data().size();
  for (const auto& x : m.data()) pc.nonzero += !x.is_zero();
}

}  // namespace

void validate(const Model& m, const std::string& where) {
  if (m.N == 0 || m.d == 0) throw InputError("N and d must be positive", where);
  if (m.inner_N < m.N || m.inner_d < m.d)
    throw InputError("inner dimensions must be at least N x d (top-left embedding)", where);
  if (m.ring != "Z" && m.ring != "Q" && m.ring.rfind("Fp:", 0) != 0)
    throw InputError("unknown ring '" + quoted_value(m.ring) + "' (want Z, Q or Fp:<prime>)", where + ".ring");
  const std::uint64_t fp = check_ring_name(m.ring, where + ".ring");  // 0 for Z and Q
  const std::size_t n = m.inner_N, d = m.inner_d;
  for (std::size_t l = 0; l < m.layers.size(); ++l) {
    const std::string w = where + ".layers[" + std::to_string(l) + "]";
    if (auto* b = std::get_if<BaseConvLayer>(&m.layers[l])) {
      check_shape(b->W, d, d, w + ".W");
      check_shape(b->b1, n, d, w + ".b1");
      check_shape(b->h, n, d, w + ".h");
      check_shape(b->b2, n, d, w + ".b2");
    } else if (auto* p = std::get_if<MlpLayer>(&m.layers[l])) {
      check_shape(p->W1, d, d, w + ".W1");
      check_shape(p->B1, n, d, w + ".B1");
      check_shape(p->W2, d, d, w + ".W2");
      check_shape(p->B2, n, d, w + ".B2");
    } else if (auto* a = std::get_if<LinearAttentionLayer>(&m.layers[l])) {
      check_shape(a->Wq, d, a->Wq.cols(), w + ".Wq");
      check_shape(a->Wk, d, a->Wq.cols(), w + ".Wk");
      check_shape(a->Wv, d, d, w + ".Wv");
    }
    if (fp) {  // a weight with a denominator divisible by p has no value in F_p (issue 36 item 20)
      auto in_field = [&](const RatMatrix& x, const char* nm) {
        for (const auto& e : x.data())
          if (!e.is_integer() && e.den().mod_u64(fp) == 0)
            throw InputError("weight " + e.str() + " is not in the model's ring " + m.ring + " (its denominator is divisible by " +
                                 std::to_string(fp) + ")",
                             w + "." + nm);
      };
      std::visit([&](const auto& L) {
        using T = std::decay_t<decltype(L)>;
        if constexpr (std::is_same_v<T, BaseConvLayer>) { in_field(L.W, "W"); in_field(L.b1, "b1"); in_field(L.h, "h"); in_field(L.b2, "b2"); }
        else if constexpr (std::is_same_v<T, MlpLayer>) { in_field(L.W1, "W1"); in_field(L.B1, "B1"); in_field(L.W2, "W2"); in_field(L.B2, "B2"); }
        else { in_field(L.Wq, "Wq"); in_field(L.Wk, "Wk"); in_field(L.Wv, "Wv"); }
      }, m.layers[l]);
    }
    if (m.ring == "Z") {
      auto integral = [&](const RatMatrix& x, const char* nm) {
        for (const auto& e : x.data())
          if (!e.is_integer()) throw InputError("non-integer weight " + e.str() + " in a Z model", w + "." + nm);
      };
      std::visit([&](const auto& L) {
        using T = std::decay_t<decltype(L)>;
        if constexpr (std::is_same_v<T, BaseConvLayer>) { integral(L.W, "W"); integral(L.b1, "b1"); integral(L.h, "h"); integral(L.b2, "b2"); }
        else if constexpr (std::is_same_v<T, MlpLayer>) { integral(L.W1, "W1"); integral(L.B1, "B1"); integral(L.W2, "W2"); integral(L.B2, "B2"); }
        else { integral(L.Wq, "Wq"); integral(L.Wk, "Wk"); integral(L.Wv, "Wv"); }
      }, m.layers[l]);
    }
  }
}

ParamCount count_params(const Model& m) {
  ParamCount pc;
  for (const auto& layer : m.layers) {
    std::visit([&](const auto& L) {
      using T = std::decay_t<decltype(L)>;
      if constexpr (std::is_same_v<T, BaseConvLayer>) { count(L.W, pc); count(L.b1, pc); count(L.h, pc); count(L.b2, pc); }
      else if constexpr (std::is_same_v<T, MlpLayer>) { count(L.W1, pc); count(L.B1, pc); count(L.W2, pc); count(L.B2, pc); }
      else { count(L.Wq, pc); count(L.Wk, pc); count(L.Wv, pc); }
    }, layer);
  }
  return pc;
}

BaseConvLayer zero_baseconv(const Model& m) {
  return BaseConvLayer{RatMatrix(m.inner_d, m.inner_d), RatMatrix(m.inner_N, m.inner_d),
                       RatMatrix(m.inner_N, m.inner_d), RatMatrix(m.inner_N, m.inner_d)};
}

Model stack(const Model& a, const Model& b) {
  if (a.N != b.N || a.d != b.d || a.inner_N != b.inner_N || a.inner_d != b.inner_d || a.conv != b.conv)
    throw std::invalid_argument("stack: models differ in shape or conv mode");
  Model r = a;
  r.layers.insert(r.layers.end(), b.layers.begin(), b.layers.end());
  for (ArchOrigin o : b.arch) {  // b's architecture layers now start after a's layers
    o.first += a.layers.size();
    r.arch.push_back(std::move(o));
  }
  if (a.ring != b.ring) r.ring = "Q";
  return r;
}

}  // namespace cz
