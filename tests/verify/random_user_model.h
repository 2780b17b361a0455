// Random "user models" for the differential test of the engine paths (issue 24, D1): what
// `verify --model FILE --task T` may be handed. Drawn from one seed, so a failure names the seed
// that reproduces it (tests/verify/test_engine_paths.cpp, fuzz/fuzz_engine_paths.cpp).
//
// A fully random model fails every instance, and all paths then agree on "index 0" whatever they
// compute; so most draws start from a built-in model that passes (mqar/attention, a primitive),
// exported as a user would get it, and change a few things a user might: the conv mode (D1 was
// anticausal read as cyclic), the ring, one weight, an added layer of any kind, wider inner
// dimensions. Such models pass some instances and fail others, and the first failing index and
// the failure counts tell the paths apart.
#pragma once
#include <map>
#include <random>
#include <string>

#include "model/model.h"
#include "model/model_json.h"
#include "verify/construction.h"
#include "verify/params.h"

namespace cz::test {

struct DrawnCase {
  Model model;
  std::string task;                          // a task of verify/task.h
  std::map<std::string, std::string> given;  // its -p values
  DomainOptions opts;                        // the domain (default or sampled); paths set the rest
  std::string what;                          // one line: how it was drawn
};

namespace detail {

inline std::int64_t small_int(std::mt19937_64& g, int lo = -2, int hi = 2) {
  return std::uniform_int_distribution<int>(lo, hi)(g);
}
inline bool coin(std::mt19937_64& g, double p) { return std::bernoulli_distribution(p)(g); }

// Random entries: dense, or about one in five nonzero.
inline void fill(RatMatrix& m, std::mt19937_64& g, bool dense) {
  for (auto& e : m.data()) e = (dense || coin(g, 0.2)) ? Rat(small_int(g)) : Rat(0);
}
inline RatMatrix random_matrix(std::size_t r, std::size_t c, std::mt19937_64& g, bool dense) {
  RatMatrix m(r, c);
  fill(m, g, dense);
  return m;
}
inline RatMatrix identity(std::size_t n) {
  RatMatrix m(n, n);
  for (std::size_t i = 0; i < n; ++i) m(i, i) = Rat(1);
  return m;
}

// A layer of any kind on the inner shape; near the identity (W = I, h = e_0) half the time so that
// a correct model stays partly correct after it.
inline Layer random_layer(const Model& m, std::mt19937_64& g) {
  const std::size_t n = m.inner_N, d = m.inner_d;
  const bool dense = coin(g, 0.3);
  switch (std::uniform_int_distribution<int>(0, 4)(g)) {
    case 0:
    case 1: {
      BaseConvLayer L{random_matrix(d, d, g, dense), random_matrix(n, d, g, dense), random_matrix(n, d, g, dense),
                      random_matrix(n, d, g, dense)};
      if (coin(g, 0.5)) {  // near the identity: y = u ⊙ (u + small)
        L.W = identity(d);
        L.b1 = RatMatrix(n, d);
        for (std::size_t j = 0; j < d; ++j) L.h(0, j) = Rat(1);
      }
      return L;
    }
    case 2: {
      const std::size_t f = std::uniform_int_distribution<std::size_t>(1, d + 1)(g);
      return LinearAttentionLayer{random_matrix(d, f, g, dense), random_matrix(d, f, g, dense), random_matrix(d, d, g, dense)};
    }
    case 3:
      return MlpLayer{random_matrix(d, d, g, dense), random_matrix(n, d, g, dense), random_matrix(d, d, g, dense),
                      random_matrix(n, d, g, dense)};
    default: {  // a layer that keeps row 0 only: turns most answers to zero
      BaseConvLayer L{identity(d), RatMatrix(n, d), RatMatrix(n, d), RatMatrix(n, d)};
      for (std::size_t j = 0; j < d; ++j) L.h(0, j) = Rat(1);
      for (std::size_t j = 0; j < d; ++j) L.b1(0, j) = Rat(small_int(g));
      return L;
    }
  }
}

// Grows the inner dimensions (zeros in the new rows and columns), as a user's wider model would.
inline void widen(Model& m, std::size_t extra_N, std::size_t extra_d) {
  const std::size_t n = m.inner_N + extra_N, d = m.inner_d + extra_d;
  auto grow = [](const RatMatrix& a, std::size_t r, std::size_t c) {
    RatMatrix b(r, c);
    for (std::size_t i = 0; i < a.rows(); ++i)
      for (std::size_t j = 0; j < a.cols(); ++j) b(i, j) = a(i, j);
    return b;
  };
  for (Layer& l : m.layers) {
    if (auto* b = std::get_if<BaseConvLayer>(&l)) *b = {grow(b->W, d, d), grow(b->b1, n, d), grow(b->h, n, d), grow(b->b2, n, d)};
    else if (auto* p = std::get_if<MlpLayer>(&l)) *p = {grow(p->W1, d, d), grow(p->B1, n, d), grow(p->W2, d, d), grow(p->B2, n, d)};
    else if (auto* a = std::get_if<LinearAttentionLayer>(&l))
      *a = {grow(a->Wq, d, a->Wq.cols()), grow(a->Wk, d, a->Wk.cols()), grow(a->Wv, d, d)};
  }
  m.inner_N = n;
  m.inner_d = d;
}

// One weight of one layer set to a random small value.
inline void poke(Model& m, std::mt19937_64& g) {
  if (m.layers.empty()) return;
  Layer& l = m.layers[std::uniform_int_distribution<std::size_t>(0, m.layers.size() - 1)(g)];
  std::vector<RatMatrix*> ms;
  std::visit([&](auto& L) {
    using T = std::decay_t<decltype(L)>;
    if constexpr (std::is_same_v<T, BaseConvLayer>) ms = {&L.W, &L.b1, &L.h, &L.b2};
    else if constexpr (std::is_same_v<T, MlpLayer>) ms = {&L.W1, &L.B1, &L.W2, &L.B2};
    else ms = {&L.Wq, &L.Wk, &L.Wv};
  }, l);
  RatMatrix& x = *ms[std::uniform_int_distribution<std::size_t>(0, ms.size() - 1)(g)];
  if (x.data().empty()) return;
  x.data()[std::uniform_int_distribution<std::size_t>(0, x.data().size() - 1)(g)] = Rat(small_int(g));
}

}  // namespace detail

// `base(name, given)` builds the named construction's model (exported and read back as a file
// would be); the caller supplies it so that this header needs no registry.
template <class BaseFn>
DrawnCase draw_user_model(std::uint64_t seed, BaseFn&& base) {
  using namespace detail;
  std::mt19937_64 g(seed);
  DrawnCase c;
  std::string from;
  const int kind = std::uniform_int_distribution<int>(0, 9)(g);
  if (kind < 6) {  // MQAR, one-hot triples: mqar/attention at n = 2 (c = 2..4) or n = c = 3 (<= 4374 instances)
    const std::size_t n = coin(g, 0.5) ? 2 : 3, cc = n == 3 ? 3 : std::uniform_int_distribution<std::size_t>(2, 4)(g);
    c.task = "mqar";
    c.given = {{"n", std::to_string(n)}, {"c", std::to_string(cc)}};
    from = "mqar/attention";
  } else if (kind < 9) {  // a primitive
    static const char* prims[] = {"shift_down", "cumsum", "identity", "shift_up"};
    const std::string p = prims[std::uniform_int_distribution<int>(0, 3)(g)];
    c.task = p;
    c.given = {{"N", std::to_string(std::uniform_int_distribution<int>(3, 6)(g))}, {"d", coin(g, 0.5) ? "1" : "2"}};
    if (p == "shift_down" || p == "shift_up") c.given["s"] = "1";
    from = "primitive/" + p;
    if (p == "shift_up") c.given["conv"] = "cyclic";
  } else {  // MQAR with binary tokens: no built-in model; a random one (a zero-ish model passes null answers)
    const std::size_t n = 2, cc = std::uniform_int_distribution<std::size_t>(2, 4)(g);
    c.task = "mqar";
    c.given = {{"n", std::to_string(n)}, {"c", std::to_string(cc)}, {"encoding", "binary"}};
    Model m;
    m.N = 3 * n;
    m.d = cc <= 2 ? 1 : 2;
    m.inner_N = m.N + std::uniform_int_distribution<std::size_t>(0, 2)(g);
    m.inner_d = m.d + std::uniform_int_distribution<std::size_t>(0, 2)(g);
    m.conv = static_cast<ConvMode>(std::uniform_int_distribution<int>(0, 2)(g));
    const std::size_t L = std::uniform_int_distribution<std::size_t>(1, 3)(g);
    for (std::size_t l = 0; l < L; ++l) m.layers.push_back(random_layer(m, g));
    c.model = m;
    from = "random";
  }
  std::string what = "seed " + std::to_string(seed) + ": " + from + " " + c.task;
  for (const auto& [k, v] : c.given) what += " " + k + "=" + v;
  if (from != "random") {
    std::map<std::string, std::string> bp = c.given;
    c.model = base(from, bp);
    if (from.rfind("primitive/", 0) == 0 && c.task == "shift_up") c.given.erase("conv");  // tasks have no conv
    const int changes = std::uniform_int_distribution<int>(0, 3)(g);
    for (int k = 0; k < changes; ++k) {
      switch (std::uniform_int_distribution<int>(0, 5)(g)) {
        case 0:
          c.model.conv = static_cast<ConvMode>(std::uniform_int_distribution<int>(0, 2)(g));
          what += ", conv " + to_string(c.model.conv);
          break;
        case 1:
          poke(c.model, g);
          what += ", one weight";
          break;
        case 2:
          c.model.layers.push_back(random_layer(c.model, g));
          what += ", +layer";
          break;
        case 3:
          widen(c.model, std::uniform_int_distribution<std::size_t>(0, 2)(g), std::uniform_int_distribution<std::size_t>(0, 2)(g));
          what += ", wider";
          break;
        case 4:
          c.model.conv = ConvMode::Anticausal;  // the D1 case, drawn often
          what += ", conv anticausal";
          break;
        default: {
          const int r = std::uniform_int_distribution<int>(0, 3)(g);
          c.model.ring = r == 0 ? "Fp:7" : (r == 1 ? "Fp:2147483647" : "Q");
          if (r == 3 && coin(g, 0.3) && !c.model.layers.empty()) {  // a non-integral weight over Q
            if (auto* b = std::get_if<BaseConvLayer>(&c.model.layers[0])) b->W(0, 0) = Rat(1) / Rat(2);
          }
          what += ", ring " + c.model.ring;
        }
      }
    }
  }
  if (coin(g, 0.4)) {
    c.opts.samples = std::uniform_int_distribution<std::uint64_t>(50, 400)(g);
    c.opts.seed = g() % 1000 + 1;
    what += ", samples " + std::to_string(*c.opts.samples) + " seed " + std::to_string(c.opts.seed);
  }
  // Through the file format, as `verify --model` reads it (rings, conv names, shapes validated).
  c.model = model_from_json(model_to_json(c.model), "drawn.json");
  c.what = what;
  return c;
}

}  // namespace cz::test
