#include "constructions/sd/g18.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "constructions/sd/kernels.h"

namespace cz::sdc {
namespace {

Model shell(std::size_t rows, std::size_t d, std::size_t D) {
  Model m;
  m.N = m.inner_N = rows;
  m.d = d;
  m.inner_d = D;
  m.conv = ConvMode::Causal;
  return m;
}

MlpLayer zero_mlp(const Model& m) {
  return MlpLayer{RatMatrix(m.inner_d, m.inner_d), RatMatrix(m.inner_N, m.inner_d), RatMatrix(m.inner_d, m.inner_d),
                  RatMatrix(m.inner_N, m.inner_d)};
}

// The MLP1 neurons: each is relu(sum_b wx[b] x_b + wm·m + bias - penalty(row)).
struct Neuron {
  std::vector<std::int64_t> wx;
  std::int64_t wm = 0, bias = 0;
  std::vector<std::pair<std::size_t, std::int64_t>> out;  // (output channel, weight)
};

// [x = a] on a key row (m = 0) or a query row (m = 2): sum_b (2a_b - 1) x_b = popcount(a) iff x = a.
Neuron onehot(std::uint32_t a, unsigned n, bool query) {
  Neuron z;
  for (unsigned b = 0; b < n; ++b) z.wx.push_back(((a >> b) & 1) ? 1 : -1);
  const std::int64_t pc = std::popcount(a);
  z.wm = query ? 1 : -1;
  z.bias = -pc + 1 - (query ? 2 : 0);
  return z;
}

}  // namespace

G18Model build_g18(unsigned n, std::size_t rows, std::size_t lo, std::size_t N, const KernelSpec& k,
                   const std::vector<std::uint32_t>& S, const StageMutator& mutate) {
  if (lo + N > rows) throw std::invalid_argument("build_g18: window outside the input");
  const std::size_t d = n + 1;
  const bool windowed = rows != N;
  auto outside = [&](std::size_t i) { return i < lo || i >= lo + N; };
  G18Model g;
  g.rows = rows;
  g.d = d;
  g.lo = lo;
  g.N = N;

  // MLP1 neurons and the feature dimension.
  std::vector<Neuron> neurons;
  if (k.kind == KernelKind::DataDependent) {
    g.f = S.size() + n;
    for (std::size_t p = 0; p < S.size(); ++p) {  // K = [e_pos(x) ; 0]
      Neuron z = onehot(S[p], n, false);
      z.out = {{p, 1}};
      neurons.push_back(z);
    }
    for (std::size_t p = 0; p < S.size(); ++p) {  // Q = [e_pos(x) ; bin(x) - sum_a a·[x=a]]
      Neuron z = onehot(S[p], n, true);
      z.out = {{g.f + p, 1}};
      for (unsigned b = 0; b < n; ++b)
        if ((S[p] >> b) & 1) z.out.push_back({g.f + S.size() + b, -1});
      neurons.push_back(z);
    }
    for (unsigned b = 0; b < n; ++b) {  // x_b on query rows: relu(x_b + m - 2)
      Neuron z;
      z.wx.assign(n, 0);
      z.wx[b] = 1;
      z.wm = 1;
      z.bias = -2;
      z.out = {{g.f + S.size() + b, 1}};
      neurons.push_back(z);
    }
    g.tau = 1;
  } else if (k.kind == KernelKind::Random) {
    // MLP1 emits role-gated one-hots of x over {0,1}^n; the projections Wk, Wq (JRT Def G.16's
    // "kernel projections", D x f) map the one-hot of x to r_x, so the width stays 2c + 1.
    g.f = k.f;
    const std::uint32_t c = std::uint32_t(1) << n;
    for (int query = 0; query < 2; ++query)
      for (std::uint32_t x = 0; x < c; ++x) {
        Neuron z = onehot(x, n, query);
        z.out = {{(query ? c : 0) + x, 1}};
        neurons.push_back(z);
      }
    g.tau = static_cast<std::int64_t>(g.f);
  }
  if (k.kind != KernelKind::Exponential) {  // V = [key row] = relu(1 - m)
    Neuron z;
    z.wx.assign(n, 0);
    z.wm = -1;
    z.bias = 1;
    z.out = {{k.kind == KernelKind::Random ? neurons.size() : 2 * g.f, 1}};
    g.value_channel = z.out[0].first;
    neurons.push_back(z);
  }
  g.D = k.kind == KernelKind::Exponential ? d
        : k.kind == KernelKind::Random    ? std::max(d, neurons.size())
                                          : std::max({d, neurons.size(), 2 * g.f + 1});

  Model pre = shell(rows, g.D, g.D);
  if (windowed) {  // mask: keep rows [lo, lo+N)
    BaseConvLayer L = zero_baseconv(pre);
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < d; ++j) L.b1(i, j) = outside(i) ? 0 : 1;
    for (std::size_t j = 0; j < d; ++j) L.h(0, j) = 1;
    pre.layers.push_back(std::move(L));
  }
  {  // mark: element bits pass; flag column -> flag + 2·(earlier flags)
    BaseConvLayer L = zero_baseconv(pre);
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < d; ++j) L.b1(i, j) = 1;
    for (std::size_t j = 0; j < d; ++j) L.h(0, j) = 1;
    for (std::size_t t = 1; t < rows; ++t) L.h(t, n) = 2;
    pre.layers.push_back(std::move(L));
  }
  if (k.kind != KernelKind::Exponential) {
    MlpLayer M = zero_mlp(pre);
    for (std::size_t c = 0; c < neurons.size(); ++c) {
      const Neuron& z = neurons[c];
      for (unsigned b = 0; b < n; ++b) M.W1(b, c) = z.wx[b];
      M.W1(n, c) = z.wm;
      for (std::size_t i = 0; i < rows; ++i) M.B1(i, c) = z.bias - (windowed && outside(i) ? 1 : 0);
      for (const auto& [ch, w] : z.out) M.W2(c, ch) = w;
    }
    pre.layers.push_back(std::move(M));
  }

  Model post = shell(rows, g.D, g.D);
  if (k.kind != KernelKind::Exponential) {
    LinearAttentionLayer A{RatMatrix(g.D, g.f), RatMatrix(g.D, g.f), RatMatrix(g.D, g.D)};
    g.kproj = Matrix<std::int64_t>(g.D, g.f, 0);
    if (k.kind == KernelKind::DataDependent) {  // features already in channels: select them
      for (std::size_t t = 0; t < g.f; ++t) {
        g.kproj(t, t) = 1;
        A.Wq(g.f + t, t) = 1;
      }
    } else {  // random: one-hot of x -> r_x
      const std::uint32_t c = std::uint32_t(1) << n;
      for (std::uint32_t x = 0; x < c; ++x) {
        std::vector<std::int64_t> r = random_phi(k.seed, g.f, x);
        for (std::size_t t = 0; t < g.f; ++t) {
          g.kproj(x, t) = r[t];
          A.Wq(c + x, t) = r[t];
        }
      }
    }
    for (std::size_t ch = 0; ch < g.D; ++ch)
      for (std::size_t t = 0; t < g.f; ++t) A.Wk(ch, t) = g.kproj(ch, t);
    A.Wv(g.value_channel, 0) = 1;
    post.layers.push_back(std::move(A));
    MlpLayer M = zero_mlp(post);
    M.W1(0, 0) = 2;
    for (std::size_t i = 0; i < rows; ++i) M.B1(i, 0) = -g.tau;
    M.W2(0, 0) = 1;
    post.layers.push_back(std::move(M));
  }

  if (mutate) {
    mutate("g18-pre", pre);
    mutate("g18-post", post);
  }
  g.pre_eval = std::make_shared<const IntegerEvaluator>(pre);
  if (!post.layers.empty()) g.post_eval = std::make_shared<const IntegerEvaluator>(post);
  g.pre = std::move(pre);
  g.post = std::move(post);
  return g;
}

Model G18Model::full() const {
  Model m = shell(rows, d, D);
  m.layers = pre.layers;
  m.layers.insert(m.layers.end(), post.layers.begin(), post.layers.end());
  return m;
}

G18Run run_g18(const G18Model& g, const KernelSpec& k, unsigned n, const Matrix<std::int64_t>& u) {
  Matrix<std::int64_t> x(g.rows, g.D, 0);  // zero-padded to the inner width (the embedding)
  for (std::size_t i = 0; i < g.rows; ++i)
    for (std::size_t j = 0; j <= n; ++j) x(i, j) = u(i, j);
  // The checked int64 path; Z (and every entry read must then fit int64) only on overflow.
  std::optional<Matrix<std::int64_t>> X64o = g.pre_eval->try_i64(x);
  Matrix<Int> X;
  if (!X64o) X = (*g.pre_eval)(x);
  auto small = [](const Int& v) {
    if (!v.fits_int64()) throw std::overflow_error("G.18 intermediate does not fit int64");
    return v.to_int64();
  };
  auto at = [&](std::size_t i, std::size_t j) { return X64o ? (*X64o)(i, j) : small(X(i, j)); };
  G18Run run;
  run.flag.assign(g.rows, false);
  if (k.kind == KernelKind::Exponential) {
    // Kernel sum z_i = sum over key rows j of e^{-2r·ham(x_i, x_j)}, enclosed in [lo, hi].
    std::vector<RatInterval> kappa;
    for (unsigned h = 0; h <= n; ++h) kappa.push_back(h == 0 ? RatInterval{Rat(1), Rat(1)} : exp_neg(2 * k.r * h));
    std::vector<std::uint32_t> keys;
    const Rat half = Rat(Int(1), Int(2));
    for (std::size_t i = g.lo; i < g.lo + g.N; ++i) {
      std::uint32_t e = 0;
      for (unsigned b = 0; b < n; ++b)
        if (at(i, b)) e |= std::uint32_t(1) << b;
      const std::int64_t m = at(i, n);
      if (m == 0) keys.push_back(e);
      if (m != 2) continue;
      Rat lo(0), hi(0);
      for (std::uint32_t a : keys) {
        const auto& kv = kappa[std::popcount(a ^ e)];
        lo += kv.lo;
        hi += kv.hi;
      }
      if (lo > half) run.flag[i] = true;
      else if (!(hi < half)) run.certified = false;
    }
    return run;
  }
  Matrix<std::int64_t> X64 = X64o ? std::move(*X64o) : map_matrix(X, small);
  // The attention state S_i = sum_{j<=i} K[j]^T V[j] with K = X·Wk; V is nonzero in one column.
  // Checked int64 (RingI64 throws Overflow, an overflow_error: never silent).
  const RingI64 r;
  std::vector<std::int64_t> S(g.f, 0);
  for (std::size_t i = 0; i < g.rows; ++i) {
    const std::int64_t v = X64(i, g.value_channel);
    if (v == 0) continue;
    for (std::size_t t = 0; t < g.f; ++t) {
      std::int64_t kt = 0;
      for (std::size_t ch = 0; ch < g.D; ++ch)
        if (X64(i, ch) != 0 && g.kproj(ch, t) != 0) r.addmul(kt, X64(i, ch), g.kproj(ch, t));
      r.addmul(S[t], kt, v);
      run.state_max_abs = std::max(run.state_max_abs, S[t] < 0 ? r.neg(S[t]) : S[t]);
      run.state_negative = run.state_negative || S[t] < 0;
    }
  }
  if (auto out = g.post_eval->try_i64(X64)) {
    for (std::size_t i = 0; i < g.rows; ++i) run.flag[i] = (*out)(i, 0) != 0;
  } else {
    Matrix<Int> outz = (*g.post_eval)(X64);
    for (std::size_t i = 0; i < g.rows; ++i) run.flag[i] = outz(i, 0).sign() != 0;
  }
  return run;
}

std::int64_t g18_kernel(const G18Model& g, unsigned n, std::uint32_t x, std::uint32_t y) {
  if (g.post.layers.empty()) throw std::invalid_argument("g18_kernel: the exponential kernel has no feature map");
  if (g.N < 3) throw std::invalid_argument("g18_kernel: the window needs 3 rows (key, separator, query)");
  Matrix<std::int64_t> u(g.rows, g.D, 0);
  for (unsigned b = 0; b < n; ++b) {
    u(g.lo, b) = (x >> b) & 1;
    u(g.lo + 2, b) = (y >> b) & 1;
  }
  u(g.lo + 1, n) = 1;  // the separator's flag
  const Matrix<Int> X = (*g.pre_eval)(u);
  const auto& A = std::get<LinearAttentionLayer>(g.post.layers[0]);
  Rat k(0);
  for (std::size_t t = 0; t < g.f; ++t) {
    Rat q(0), kk(0);
    for (std::size_t ch = 0; ch < g.D; ++ch) {
      q += Rat(X(g.lo + 2, ch)) * A.Wq(ch, t);
      kk += Rat(X(g.lo, ch)) * A.Wk(ch, t);
    }
    k += q * kk;
  }
  if (!k.is_integer() || !k.num().fits_int64()) throw std::overflow_error("g18_kernel: kernel value is not a small integer");
  return k.num().to_int64();
}

KernelEps g18_kernel_eps(const G18Model& g, const KernelSpec& k, unsigned n, const std::vector<std::uint32_t>& S) {
  const std::int64_t k0 = k.kind == KernelKind::Random ? static_cast<std::int64_t>(g.f) : 1;
  KernelEps e;
  std::int64_t worst = -1;
  for (std::uint32_t x : S)
    for (std::uint32_t y = 0; y < (std::uint32_t(1) << n); ++y) {
      const std::int64_t dev = g18_kernel(g, n, x, y) - (x == y ? k0 : 0);
      const std::int64_t a = dev < 0 ? -dev : dev;
      if (a > worst) worst = a, e.x = x, e.y = y;
    }
  e.eps = Rat(Int(std::max<std::int64_t>(worst, 0)), Int(k0));
  return e;
}

}  // namespace cz::sdc
