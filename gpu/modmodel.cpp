#include "gpu/modmodel.h"

#include <algorithm>
#include <stdexcept>
#include <variant>

#include "tensor/ntt.h"

namespace cz::gpu {

namespace {

const Int& integer(const Rat& q) {
  if (!q.is_integer()) throw std::invalid_argument("modular evaluation needs integer weights (got " + q.str() + ")");
  return q.num();
}
Int col_absmax(const RatMatrix& M, std::size_t j) {
  Int m(0);
  for (std::size_t i = 0; i < M.rows(); ++i) m = std::max(m, integer(M(i, j)).abs());
  return m;
}
Int col_l1(const RatMatrix& M, std::size_t j) {
  Int s(0);
  for (std::size_t i = 0; i < M.rows(); ++i) s += integer(M(i, j)).abs();
  return s;
}
// Bound on |(x·W)[·][j]| when |x[·][k]| <= X[k]: Σ_k X[k]·|W[k][j]|.
Int proj_bound(const std::vector<Int>& X, const RatMatrix& W, std::size_t j) {
  Int s(0);
  for (std::size_t k = 0; k < W.rows(); ++k) s.addmul(X[k], integer(W(k, j)).abs());
  return s;
}

void check_model(const Model& m) {
  if (m.ring != "Z" && m.ring != "Q") throw std::invalid_argument("modular evaluation is over Z (model ring " + m.ring + ")");
  if (m.layers.empty() || m.layers.size() > static_cast<std::size_t>(kModMaxLayers))
    throw std::invalid_argument("modular evaluation takes 1.." + std::to_string(kModMaxLayers) + " layers");
  for (const Layer& l : m.layers)
    if (std::holds_alternative<MlpLayer>(l)) throw std::invalid_argument("modular evaluation refuses MLP layers (ReLU is not a ring map)");
}

std::uint32_t residue(const Rat& q, std::uint32_t p) { return static_cast<std::uint32_t>(integer(q).mod_u64(p)); }

}  // namespace

// Interval propagation by channel: X[j] bounds column j of the activation (every row), exactly.
// BaseConv: |u·W + b1| <= Σ_k X_k |W_kj| + max|b1_·j|; |h * u| <= X_j·Σ_i |h_ij| in every mode
// (each tap is used at most once per output, conv_mode.h); the gate multiplies the two bounds.
// Attention: |Q|, |K|, |V| as projections; |S_ab| <= N'·K_a·V_b; |z_b| <= Σ_a Q_a·N'·K_a·V_b.
Int mod_model_bound(const Model& m, std::int64_t input_bound) {
  check_model(m);
  if (input_bound < 0) throw std::invalid_argument("input bound must be >= 0");
  std::vector<Int> X(m.inner_d, Int(0));
  for (std::size_t j = 0; j < m.d && j < m.inner_d; ++j) X[j] = Int(input_bound);
  Int B(input_bound);
  const Int Np(static_cast<std::int64_t>(m.inner_N));
  for (const Layer& layer : m.layers) {
    std::vector<Int> Y(m.inner_d);
    if (const auto* b = std::get_if<BaseConvLayer>(&layer)) {
      for (std::size_t j = 0; j < m.inner_d; ++j) {
        const Int a = proj_bound(X, b->W, j) + col_absmax(b->b1, j);
        const Int conv = X[j] * col_l1(b->h, j);
        const Int c = conv + col_absmax(b->b2, j);
        Y[j] = a * c;
        B = std::max({B, a, conv, c, Y[j]});
      }
    } else {
      const auto& at = std::get<LinearAttentionLayer>(layer);
      const std::size_t f = at.Wq.cols();
      std::vector<Int> Q(f), K(f);
      for (std::size_t a = 0; a < f; ++a) {
        Q[a] = proj_bound(X, at.Wq, a);
        K[a] = proj_bound(X, at.Wk, a);
        B = std::max({B, Q[a], K[a]});
      }
      for (std::size_t b = 0; b < m.inner_d; ++b) {
        const Int V = proj_bound(X, at.Wv, b);
        Int z(0);
        for (std::size_t a = 0; a < f; ++a) {
          const Int S = Np * K[a] * V;
          z.addmul(Q[a], S);
          B = std::max(B, S);
        }
        Y[b] = z;
        B = std::max({B, V, z});
      }
    }
    X = std::move(Y);
  }
  return B;
}

ModModel::ModModel(const Model& m, std::int64_t input_bound, int max_primes) : input_bound_(input_bound) {
  try {
    validate(m);
  } catch (const std::runtime_error& e) {  // InputError: a malformed model is one this path refuses
    throw std::invalid_argument(std::string("model: ") + e.what());
  }
  bound_ = std::max(mod_model_bound(m, input_bound), Int(1));  // >= 1: the compare needs 2B >= B + |e|, e in {0, 1}
  max_primes = std::min(max_primes, kModMaxPrimes);
  const std::uint32_t* P = ntt_primes();
  modulus_ = Int(1);
  int k = 0;
  while (k < max_primes && !(modulus_ > bound_ * Int(2))) modulus_ *= Int(static_cast<std::int64_t>(P[k++]));
  if (!(modulus_ > bound_ * Int(2)))
    throw std::invalid_argument("certified bound 2^" + std::to_string(bound_.bits()) + " needs more than " +
                                std::to_string(max_primes) + " primes");
  const unsigned log_len = ntt_log_len(m.inner_N, m.conv);
  if (log_len > kNttMaxLog || m.inner_N > (std::size_t{1} << 24) || m.inner_d > 4096)
    throw std::invalid_argument("model too large for the modular device path");
  ModModelView& v = base_;
  v.N = static_cast<std::int32_t>(m.N);
  v.d = static_cast<std::int32_t>(m.d);
  v.Np = static_cast<std::int32_t>(m.inner_N);
  v.dp = static_cast<std::int32_t>(m.inner_d);
  v.conv = m.conv == ConvMode::Causal ? kModCausal : (m.conv == ConvMode::Cyclic ? kModCyclic : kModAnticausal);
  v.log_len = static_cast<std::int32_t>(log_len);
  v.primes = k;
  v.layers = static_cast<std::int32_t>(m.layers.size());
  for (const Layer& l : m.layers)
    if (const auto* a = std::get_if<LinearAttentionLayer>(&l)) v.fmax = std::max<std::int32_t>(v.fmax, static_cast<std::int32_t>(a->Wq.cols()));
  v.scratch_words = mod_scratch_words(v.Np, v.dp, v.log_len, v.fmax);
  const std::size_t L = std::size_t{1} << log_len;
  auto put = [&](const std::vector<std::uint32_t>& words) {
    const std::uint64_t at = arena_.size();
    arena_.insert(arena_.end(), words.begin(), words.end());
    return at;
  };
  auto put_matrix = [&](const RatMatrix& M, std::uint32_t p) {
    std::vector<std::uint32_t> w(M.rows() * M.cols());
    for (std::size_t i = 0; i < M.rows(); ++i)
      for (std::size_t j = 0; j < M.cols(); ++j) w[i * M.cols() + j] = residue(M(i, j), p);
    return put(w);
  };
  for (int q = 0; q < k; ++q) {
    const std::uint32_t p = P[q];
    const NttTable& t = ntt_table(p, log_len);
    v.p[q] = p;
    v.pneg[q] = t.pneg;
    for (int j = 0; j < q; ++j) v.garner[j][q] = ntt::powmod(P[j] % p, p - 2, p);
    v.w[q] = put(t.w);
    v.wpre[q] = put(t.wpre);
    v.iw[q] = put(t.iw);
    v.iwpre[q] = put(t.iwpre);
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
      ModLayerOff& o = v.layer[l][q];
      if (const auto* b = std::get_if<BaseConvLayer>(&m.layers[l])) {
        o.kind = kModBaseConv;
        o.W = put_matrix(b->W, p);
        o.b1 = put_matrix(b->b1, p);
        o.b2 = put_matrix(b->b2, p);
        // ĥ_j · L^{-1}·2^32 mod p per channel (NttTable::filt_scale), in [0, p): the Montgomery
        // pointwise product then leaves exactly ĥ·û/L, and the inverse's factor L restores h*u.
        std::vector<std::uint32_t> hh(static_cast<std::size_t>(v.dp) * L, 0), nz(m.inner_d, 0);
        for (std::size_t j = 0; j < m.inner_d; ++j) {
          std::uint32_t* col = hh.data() + j * L;
          for (std::size_t i = 0; i < m.inner_N; ++i) nz[j] |= col[i] = residue(b->h(i, j), p);
          ntt::ntt_forward_scalar(col, log_len, t.w.data(), t.wpre.data(), p);
          for (std::size_t i = 0; i < L; ++i)
            col[i] = ntt::red_once(ntt::mul_shoup(ntt::red_once(col[i], p), t.filt_scale, t.filt_scale_pre, p), p);
        }
        o.hhat = put(hh);
        for (auto& e : nz) e = e != 0;
        o.hnz = put(nz);
      } else {
        const auto& a = std::get<LinearAttentionLayer>(m.layers[l]);
        o.kind = kModLinAttn;
        o.f = static_cast<std::int32_t>(a.Wq.cols());
        o.Wq = put_matrix(a.Wq, p);
        o.Wk = put_matrix(a.Wk, p);
        o.Wv = put_matrix(a.Wv, p);
      }
    }
  }
}

ModModelView ModModel::view() const {
  ModModelView v = base_;
  v.arena = arena_.data();
  return v;
}

std::string ModModel::kind() const {
  int convs = 0, attns = 0;
  for (int l = 0; l < base_.layers; ++l) (base_.layer[l][0].kind == kModBaseConv ? convs : attns) += 1;
  std::string layers = "modular BaseConv x" + std::to_string(convs) + (attns ? " + linear attention x" + std::to_string(attns) : "");
  return layers + ", " + std::to_string(base_.primes) + " NTT prime" + (base_.primes == 1 ? "" : "s") +
         " (< 2^30), NTT conv of length 2^" + std::to_string(base_.log_len) + ", CRT lift under a certified bound of " +
         std::to_string(bound_.bits()) + " bits";
}

Int ModModel::lift(const std::uint32_t* residues) const {
  const ModModelView v = view();
  std::uint32_t dig[kModMaxPrimes];
  mod_garner(v, residues, dig);
  Int y(0), radix(1);
  for (int i = 0; i < v.primes; ++i) {
    y.addmul(Int(static_cast<std::int64_t>(dig[i])), radix);
    radix *= Int(static_cast<std::int64_t>(v.p[i]));
  }
  if (y * Int(2) > modulus_) y -= modulus_;  // the representative in (−P/2, P/2)
  return y;
}

}  // namespace cz::gpu
