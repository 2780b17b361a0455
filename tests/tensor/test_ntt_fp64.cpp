// The direct NTT over a 62-bit prime field (tensor/ntt_arith64.h, ntt64.h, conv_ntt_fp64.h):
// Shoup and Montgomery products within their stated ranges against 128-bit arithmetic; the
// primality test against FLINT's n_is_prime; the transforms against a naive DFT mod p; the
// convolution against FLINT (nmod_poly, conv_flint) and an O(N^2) reference written here, in all
// three modes; the dispatch of conv_ntt_fp; the prepared NttFilterFp (across threads, and inside
// a model over RingFp); and a wrong-twiddle mutant that these checks catch.
#include <doctest/doctest.h>

#include <stdexcept>
#include <thread>

#include "exact/thread_caches.h"
#include "model/eval.h"
#include "tensor/conv.h"
#include "tensor/conv_ntt_fp64.h"
#include "tensor/ntt.h"
#include "tensor/ntt64.h"
#include "tests/seed.h"

#include <flint/ulong_extras.h>  // last: FLINT 2.9 defines ulong/slong as macros

using namespace cz;

namespace {
using u128 = unsigned __int128;
constexpr ConvMode kModes[] = {ConvMode::Causal, ConvMode::Cyclic, ConvMode::Anticausal};

// NTT-friendly primes c·2^m + 1 (checked below by is_prime64 and FLINT), from 62 bits down to
// just above 2^30, each with the largest transform 2^m it supports.
struct FriendlyPrime {
  std::uint64_t p;
  unsigned m;
};
constexpr FriendlyPrime kPrimes[] = {
    {4179340454199820289ULL, 57},  // 29·2^57 + 1 (62 bits)
    {2053641430080946177ULL, 55},  // 57·2^55 + 1 (61 bits)
    {1945555039024054273ULL, 56},  // 27·2^56 + 1 (61 bits)
    {674309865473ULL, 32},         // 157·2^32 + 1 (40 bits)
    {52613349377ULL, 30},          // 49·2^30 + 1 (36 bits)
    {2013265921ULL, 27},           // 15·2^27 + 1 (just above 2^30)
    {1107296257ULL, 25},           // 33·2^25 + 1
};
constexpr std::uint64_t kP62 = 4179340454199820289ULL;
constexpr std::uint64_t kNotFriendly62 = 4611686018427387847ULL;  // 2^62 − 57: p − 1 = 2·odd
constexpr std::uint64_t kShallow62 = 2305843009213715201ULL;      // c·2^8 + 1, c odd: lengths ≤ 2^8 only

std::uint64_t mulmod_ref(std::uint64_t a, std::uint64_t b, std::uint64_t p) { return static_cast<std::uint64_t>(u128(a) * b % p); }

// (h*u) mod p by the definitions of conv_mode.h, O(N^2), with 128-bit accumulation.
Matrix<std::uint64_t> naive_fp(std::uint64_t p, const Matrix<std::uint64_t>& h, const Matrix<std::uint64_t>& u,
                               ConvMode mode) {
  const std::size_t n = u.rows(), d = u.cols();
  Matrix<std::uint64_t> y(n, d, 0);
  for (std::size_t j = 0; j < d; ++j)
    for (std::size_t i = 0; i < n; ++i) {
      u128 s = 0;
      for (std::size_t k = 0; k < n; ++k) {
        std::size_t src;
        if (mode == ConvMode::Causal) {
          if (k > i) break;
          src = i - k;
        } else if (mode == ConvMode::Cyclic) {
          src = (i + n - k) % n;
        } else {
          if (i + k >= n) break;
          src = i + k;
        }
        s = (s + u128(h(k, j) % p) * (u(src, j) % p)) % p;
      }
      y(i, j) = static_cast<std::uint64_t>(s);
    }
  return y;
}

Matrix<std::uint64_t> reduced(const Matrix<std::uint64_t>& x, std::uint64_t p) {
  return map_matrix(x, [p](std::uint64_t v) { return v % p; });
}

// Entries by kind: 0 uniform in [0, p); 1 at p − 1 and 0; 2 uniform below 2^64 (≥ p: reduced
// first by the convolution).
Matrix<std::uint64_t> rand_fp(std::mt19937_64& g, std::size_t n, std::size_t d, std::uint64_t p, int kind) {
  Matrix<std::uint64_t> m(n, d);
  for (auto& x : m.data()) x = kind == 0 ? g() % p : kind == 1 ? ((g() & 3) ? p - 1 : 0) : g();
  return m;
}

std::size_t rand_n(std::mt19937_64& g) {
  static const std::size_t special[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257};
  return g() % 3 ? special[g() % std::size(special)] : 1 + g() % 300;
}

std::size_t bitrev(std::size_t x, unsigned bits) {
  std::size_t r = 0;
  for (unsigned b = 0; b < bits; ++b) r |= ((x >> b) & 1) << (bits - 1 - b);
  return r;
}
}  // namespace

TEST_CASE("ntt64 arithmetic: Shoup and Montgomery products stay in their ranges and are right mod p") {
  INFO("seed " << test::seed());
  auto g = test::rng(101);
  for (const auto& fp : kPrimes) {
    const std::uint64_t p = fp.p, pneg = ntt64::mont_pneg(p);
    INFO("p=" << p);
    CHECK(p * (0 - pneg) == 1);  // −pneg = p^{-1} mod 2^64
    const std::uint64_t edges[] = {0, 1, 2, p - 1, p, p + 1, 2 * p - 1, 2 * p, 4 * p - 1, ~std::uint64_t{0}};
    // Edge value e (e < 10) reduced below `bound`, else a uniform one.
    auto pick = [&](int e, std::uint64_t bound) { return e < 10 ? edges[e] % bound : g() % bound; };
    for (int it = 0; it < 2000; ++it) {
      const std::uint64_t a = g(), b = g();
      CHECK(ntt64::mulhi64(a, b) == static_cast<std::uint64_t>((u128(a) * b) >> 64));
      // Shoup: any a < 2^64, w < p → [0, 2p).
      const std::uint64_t w = it < 10 ? edges[it] % p : g() % p, x = it < 10 ? edges[it] : g();
      const std::uint64_t r = ntt64::mul_shoup(x, w, ntt64::shoup_pre(w, p), p);
      REQUIRE(r < 2 * p);
      CHECK(r % p == mulmod_ref(x, w, p));
      // Montgomery: a ∈ [0, 4p), b ∈ [0, p) (a·b < p·2^64) → [0, 2p), r·2^64 ≡ a·b.
      const int e2 = it < 10 ? (it + 3) % 10 : 10, e3 = it < 10 ? (it + 5) % 10 : 10;
      const std::uint64_t ma = pick(it, 4 * p), mb = pick(e2, p);
      const std::uint64_t mr = ntt64::mul_mont(ma, mb, p, pneg);
      REQUIRE(mr < 2 * p);
      const std::uint64_t r64 = static_cast<std::uint64_t>((u128(1) << 64) % p);
      CHECK(mulmod_ref(mr, r64, p) == mulmod_ref(ma, mb, p));
      // The pointwise product's operands: both in [0, 2p).
      const std::uint64_t pa = pick(it, 2 * p), pb = pick(e3, 2 * p);
      const std::uint64_t pr = ntt64::mul_mont(pa, pb, p, pneg);
      REQUIRE(pr < 2 * p);
      CHECK(mulmod_ref(pr, r64, p) == mulmod_ref(pa, pb, p));
    }
    // One butterfly stage at its extreme inputs: forward [0, 2p) → [0, 2p); inverse [0, 4p) → [0, 4p).
    const NttTable64& t = ntt_table64(p, 3);
    std::uint64_t fa[8], ia[8], want[8];
    for (int it = 0; it < 200; ++it) {
      for (int i = 0; i < 8; ++i) {
        fa[i] = it < 2 ? (it ? 2 * p - 1 : 0) : (g() & 1) ? 2 * p - 1 - g() % 3 : g() % (2 * p);
        ia[i] = it < 2 ? (it ? 4 * p - 1 : 0) : (g() & 1) ? 4 * p - 1 - g() % 3 : g() % (4 * p);
        want[i] = ia[i] % p;
      }
      ntt64::fwd_stage(fa, 8, 4, t.w.data(), t.wpre.data(), p);
      ntt64::inv_stage(ia, 8, 2, t.iw.data(), t.iwpre.data(), p);
      for (int i = 0; i < 8; ++i) {
        CHECK(fa[i] < 2 * p);
        CHECK(ia[i] < 4 * p);
      }
      // inv_stage(h = 2) is the butterfly (x, y) → (x + w·y, x − w·y) on pairs two apart.
      for (int s = 0; s < 8; s += 4)
        for (int j = 0; j < 2; ++j) {
          const std::uint64_t x = want[s + j], y = mulmod_ref(want[s + j + 2], t.iw[2 + j], p);
          CHECK(ia[s + j] % p == (x + y) % p);
          CHECK(ia[s + j + 2] % p == (x + p - y) % p);
        }
    }
  }
}

TEST_CASE("is_prime64 agrees with FLINT and ntt_friendly64 checks the 2-power") {
  INFO("seed " << test::seed());
  auto g = test::rng(102);
  for (const auto& fp : kPrimes) {
    INFO("p=" << fp.p);
    CHECK(is_prime64(fp.p));
    CHECK(n_is_prime(fp.p));
    CHECK(fp.p > (1u << 30));
    CHECK(ntt_friendly64(fp.p, fp.m));
    CHECK_FALSE(ntt_friendly64(fp.p, fp.m + 1));
  }
  CHECK(is_prime64(kNotFriendly62));
  CHECK(ntt_friendly64(kNotFriendly62, 1));
  CHECK_FALSE(ntt_friendly64(kNotFriendly62, 2));
  CHECK(ntt_friendly64(kShallow62, 8));
  CHECK_FALSE(ntt_friendly64(kShallow62, 9));
  CHECK_FALSE(ntt_friendly64((std::uint64_t{1} << 62) + 1, 1));  // above 2^62, even where prime or not
  CHECK_FALSE(ntt_friendly64(2, 0));
  // Strong pseudoprimes to many small bases, Carmichael numbers, a square of a prime, edge values.
  for (std::uint64_t c : {1ULL, 0ULL, 561ULL, 3215031751ULL, 3825123056546413051ULL, 318665857834031151ULL,
                          1000000007ULL * 1000000007ULL, 4611686014132420609ULL /* (2^31−1)^2 */, ~0ULL})
    CHECK(is_prime64(c) == static_cast<bool>(n_is_prime(c)));
  for (int it = 0; it < 20000; ++it) {
    std::uint64_t n = g() >> (g() % 64);
    if (it % 4 == 0) n = ((g() >> 40) << (g() % 40)) + 1;  // c·2^m + 1 shapes
    INFO("n=" << n);
    REQUIRE(is_prime64(n) == static_cast<bool>(n_is_prime(n)));
  }
  CHECK_THROWS_AS(ntt_table64(kNotFriendly62, 4), std::invalid_argument);
  CHECK_THROWS_AS(ntt_table64(1000000007ULL * 3, 1), std::invalid_argument);
}

TEST_CASE("ntt64 forward equals the DFT mod p in bit-reversed order and the inverse undoes it") {
  INFO("seed " << test::seed());
  auto g = test::rng(103);
  for (const auto& fp : kPrimes)
    for (unsigned lg = 0; lg <= 9; ++lg) {
      const std::uint64_t p = fp.p;
      INFO("p=" << p << " log_len=" << lg);
      const NttTable64& t = ntt_table64(p, lg);
      const std::size_t L = std::size_t{1} << lg;
      // ω_L = w[L/2 + 1] (layout w[h + j] = ω_{2h}^j, j < h); ω_2 = −1 has no entry of its own.
      const std::uint64_t omega = L >= 4 ? t.w[L / 2 + 1] : L == 2 ? p - 1 : 1;
      if (L >= 2) CHECK(ntt64::powmod(omega, L / 2, p) == p - 1);
      std::vector<std::uint64_t> a(L), x(L), hz(L);
      for (auto& v : a) v = g() % (2 * p);  // inputs anywhere in [0, 2p)
      x = a;
      ntt64_forward(x.data(), t);
      for (std::size_t k = 0; k < L; ++k) {
        std::uint64_t s = 0;
        for (std::size_t i = 0; i < L; ++i) s = (s + mulmod_ref(a[i] % p, ntt64::powmod(omega, i * k, p), p)) % p;
        REQUIRE(x[bitrev(k, lg)] < 2 * p);
        CHECK(x[bitrev(k, lg)] % p == s);
      }
      // half_zero: the same transform as explicit zeros, without reading the upper half.
      if (L >= 2) {
        std::vector<std::uint64_t> z = a;
        for (std::size_t i = L / 2; i < L; ++i) z[i] = 0, hz[i] = ~std::uint64_t{0};
        for (std::size_t i = 0; i < L / 2; ++i) hz[i] = a[i];
        ntt64_forward(z.data(), t);
        ntt64_forward(hz.data(), t, true);
        CHECK(z == hz);
      }
      // inverse ∘ forward = L·identity; the truncated inverse gives the same lower half.
      std::vector<std::uint64_t> y = x, lo = x;
      ntt64_inverse(y.data(), t, L);
      if (L >= 2) ntt64_inverse(lo.data(), t, L / 2);
      for (std::size_t i = 0; i < L; ++i) {
        REQUIRE(y[i] < p);
        CHECK(y[i] == mulmod_ref(a[i] % p, L % p, p));
        if (L >= 2 && i < L / 2) CHECK(lo[i] == y[i]);
      }
    }
  CHECK_THROWS_AS(ntt64_inverse(nullptr, ntt_table64(kP62, 2), 5), std::invalid_argument);
}

TEST_CASE("Fp 62-bit direct: conv_ntt_fp equals FLINT and the O(N^2) definition in all modes") {
  INFO("seed " << test::seed());
  auto g = test::rng(104);
  for (const auto& fp : kPrimes) {
    const std::uint64_t p = fp.p;
    RingFp F(p);
    for (int it = 0; it < 12; ++it) {
      const std::size_t n = it < 3 ? it + 1 : rand_n(g), d = it % 2 ? 5 : 1;
      const int hk = it % 3, uk = (it / 3) % 3;
      const Matrix<std::uint64_t> h = rand_fp(g, n, d, p, hk), u = rand_fp(g, n, d, p, uk);
      const Matrix<std::uint64_t> hr = reduced(h, p), ur = reduced(u, p);
      for (ConvMode m : kModes) {
        INFO("p=" << p << " n=" << n << " d=" << d << " kinds=" << hk << uk << " mode=" << to_string(m));
        NttConvPlan pl;
        auto y = conv_ntt_fp(p, h, u, m, &pl);
        REQUIRE(y.has_value());
        CHECK(pl.ntt);
        CHECK(pl.field == p);
        CHECK(pl.k == 1);
        CHECK(pl.log_len == ntt_log_len(n, m));
        CHECK(pl.str().find("direct in F_p") != std::string::npos);
        CHECK(*y == conv_flint(F, hr, ur, m));
        CHECK(*y == naive_fp(p, h, u, m));
        auto y64 = conv_ntt_fp64(p, h, u, m);
        REQUIRE(y64.has_value());
        CHECK(*y64 == *y);
      }
    }
  }
}

TEST_CASE("Fp 62-bit direct at N = 4097 and N = 2^12 against FLINT") {
  auto g = test::rng(105);
  for (std::size_t n : {std::size_t{4097}, std::size_t{4096}}) {
    const auto h = rand_fp(g, n, 2, kP62, 0), u = rand_fp(g, n, 2, kP62, 0);
    for (ConvMode m : kModes) {
      INFO("n=" << n << " mode=" << to_string(m));
      NttConvPlan pl;
      auto y = conv_ntt_fp(kP62, h, u, m, &pl);
      REQUIRE(y.has_value());
      CHECK(pl.field == kP62);
      CHECK(*y == conv_flint(RingFp(kP62), h, u, m));
    }
  }
}

TEST_CASE("conv_ntt_fp dispatch: 32-bit direct, 62-bit direct, or through Z when p is not friendly for the length") {
  auto g = test::rng(106);
  struct Case {
    std::uint64_t p;
    std::size_t n;
    std::uint64_t field;  // expected plan.field (0: through Z)
  };
  const Case cases[] = {{998244353ULL, 100, 998244353ULL}, {kP62, 100, kP62}, {kNotFriendly62, 100, 0},
                        {kShallow62, 100, kShallow62} /* L = 2^8 */, {kShallow62, 200, 0} /* L = 2^9 */,
                        {1000000007ULL, 64, 0}};
  for (const Case& c : cases) {
    const auto h = rand_fp(g, c.n, 3, c.p, 0), u = rand_fp(g, c.n, 3, c.p, 0);
    INFO("p=" << c.p << " n=" << c.n);
    NttConvPlan pl;
    auto y = conv_ntt_fp(c.p, h, u, ConvMode::Causal, &pl);
    REQUIRE(y.has_value());
    CHECK(pl.field == c.field);
    if (!c.field) CHECK(pl.k >= 2);
    CHECK(*y == conv_flint(RingFp(c.p), h, u, ConvMode::Causal));
    CHECK(conv_ntt_fp64(c.p, h, u, ConvMode::Causal).has_value() == (c.field >= (1u << 30)));
    CHECK(ntt_fp_direct_bits(c.p, c.n, ConvMode::Causal) == (c.field == 0 ? 0u : c.field < (1u << 30) ? 32u : 64u));
  }
  CHECK_THROWS_AS(conv_ntt_fp(kP62, Matrix<std::uint64_t>(4, 2), Matrix<std::uint64_t>(4, 3), ConvMode::Causal),
                  std::invalid_argument);
  CHECK(conv_ntt_fp(kP62, Matrix<std::uint64_t>(0, 2), Matrix<std::uint64_t>(0, 2), ConvMode::Cyclic)->rows() == 0);
}

TEST_CASE("NttFilterFp equals conv_ntt_fp over several inputs and from several threads") {
  INFO("seed " << test::seed());
  auto g = test::rng(107);
  for (std::uint64_t p : {std::uint64_t{998244353}, kP62, std::uint64_t{674309865473}, kNotFriendly62})
    for (ConvMode m : kModes) {
      const std::size_t n = 150 + g() % 150, d = 4;
      const auto h = rand_fp(g, n, d, p, 0);
      NttFilterFp f(p, h, m);
      CHECK(f.prime() == p);
      CHECK(f.rows() == n);
      CHECK(f.cols() == d);
      CHECK(f.direct_bits() == ntt_fp_direct_bits(p, n, m));
      std::vector<Matrix<std::uint64_t>> us;
      for (int b = 0; b < 6; ++b) us.push_back(rand_fp(g, n, d, p, b % 3));
      std::vector<std::optional<Matrix<std::uint64_t>>> got(us.size());
      std::vector<std::thread> th;
      for (std::size_t b = 0; b < us.size(); ++b) th.emplace_back([&, b] {
        got[b] = f.apply(us[b]);
        release_thread_caches();
      });
      for (auto& t : th) t.join();
      for (std::size_t b = 0; b < us.size(); ++b) {
        INFO("p=" << p << " mode=" << to_string(m) << " instance " << b);
        if (p == kNotFriendly62) {
          CHECK_FALSE(got[b].has_value());  // no direct route: the caller goes through conv_fast
          continue;
        }
        REQUIRE(got[b].has_value());
        NttConvPlan pl;
        CHECK(*got[b] == *conv_ntt_fp(p, h, us[b], m));
        CHECK(*f.apply(us[b], &pl) == *got[b]);  // again, on this thread
        CHECK(pl.field == p);
      }
      CHECK_THROWS_AS(f.apply(Matrix<std::uint64_t>(n + 1, d)), std::invalid_argument);
    }
  CHECK_THROWS_AS(NttFilterFp((std::uint64_t{1} << 62) + 1, Matrix<std::uint64_t>(2, 2), ConvMode::Causal),
                  std::invalid_argument);
  CHECK_THROWS_AS(NttFilterFp(1, Matrix<std::uint64_t>(2, 2), ConvMode::Causal), std::invalid_argument);
}

TEST_CASE("a BaseConv model over RingFp evaluates the same with and without the prepared Fp filter") {
  INFO("seed " << test::seed());
  auto g = test::rng(108);
  for (std::uint64_t p : {kP62, std::uint64_t{998244353}, std::uint64_t{52613349377}, kNotFriendly62})
    for (ConvMode mode : kModes) {
      const std::size_t N = 64 + g() % 100, d = 3;
      Model m;
      m.N = m.inner_N = N;
      m.d = m.inner_d = d;
      m.conv = mode;
      for (int l = 0; l < 2; ++l) {  // two layers: the second convolves the first's output
        BaseConvLayer layer = zero_baseconv(m);
        for (auto* x : {&layer.W, &layer.b1, &layer.h, &layer.b2})
          for (auto& e : x->data()) e = Rat(Int(static_cast<std::int64_t>(g() >> 2) - (std::int64_t{1} << 61)));
        m.layers.push_back(layer);
      }
      RingFp F(p);
      const auto with = prepare(F, m);
      auto without = with;
      for (auto& layer : without.layers) std::get<PreparedModel<RingFp>::BaseConv>(layer).ntt_fp = nullptr;
      const bool direct = p != kNotFriendly62;
      INFO("p=" << p << " mode=" << to_string(mode) << " N=" << N);
      CHECK((std::get<PreparedModel<RingFp>::BaseConv>(with.layers[0]).ntt_fp != nullptr) == direct);
      for (int it = 0; it < 3; ++it) {
        const auto u = rand_fp(g, N, d, p, it % 2);
        const auto y = eval(with, u);
        CHECK(y == eval(without, u));
        // And layer by layer against the formula with conv_naive (independent of both routes).
        Matrix<std::uint64_t> x = u;
        for (const auto& layer : with.layers) {
          const auto& L = std::get<PreparedModel<RingFp>::BaseConv>(layer);
          const auto c = conv_naive(F, L.h, x, mode);
          Matrix<std::uint64_t> next(N, d);
          for (std::size_t i = 0; i < N; ++i)
            for (std::size_t j = 0; j < d; ++j) {
              std::uint64_t a = L.b1(i, j);
              for (std::size_t k = 0; k < d; ++k) F.addmul(a, x(i, k), L.W.m(k, j));
              next(i, j) = F.mul(a, F.add(c(i, j), L.b2(i, j)));
            }
          x = std::move(next);
        }
        CHECK(y == x);
      }
    }
}

TEST_CASE("mutant 3 (a wrong twiddle in the 62-bit transform) is caught by FLINT, and off again is exact") {
  auto g = test::rng(109);
  RingFp F(kP62);
  int caught = 0, caught_filter = 0;
  for (int it = 0; it < 10; ++it) {
    const std::size_t n = 33 + g() % 60;
    const auto h = rand_fp(g, n, 2, kP62, 0), u = rand_fp(g, n, 2, kP62, 0);
    const auto want = conv_flint(F, h, u, ConvMode::Causal);
    detail::ntt_set_mutant(3);
    auto y = conv_ntt_fp(kP62, h, u, ConvMode::Causal);
    NttFilterFp f(kP62, h, ConvMode::Causal);
    auto yf = f.apply(u);
    detail::ntt_set_mutant(0);
    caught += !(y && *y == want);
    caught_filter += !(yf && *yf == want);
  }
  CHECK(caught == 10);
  CHECK(caught_filter == 10);
  const auto h = rand_fp(g, 50, 2, kP62, 0), u = rand_fp(g, 50, 2, kP62, 0);
  CHECK(*conv_ntt_fp(kP62, h, u, ConvMode::Causal) == conv_flint(F, h, u, ConvMode::Causal));
}
