// The multi-modular NTT convolution (tensor/ntt.h) against two independent routes, FLINT
// (conv_flint) and the O(N^2) definitions (conv_naive), on every ISA (AVX-512, AVX2 and the
// scalar code that a CUDA build shares; the vector kernels equal the scalar one bit for bit); the certified bound at its edge; Fp direct and via Z; Q; the
// prepared filter; and two mutants (a dropped prime, a wrong twiddle) that these checks catch.
#include <doctest/doctest.h>

#include <thread>

#include "exact/thread_caches.h"
#include "model/eval.h"
#include "tensor/conv.h"
#include "tensor/ntt.h"
#include "tests/seed.h"

using namespace cz;

namespace {
constexpr ConvMode kModes[] = {ConvMode::Causal, ConvMode::Cyclic, ConvMode::Anticausal};

// Every path this CPU supports (a request it lacks falls back, so it is not listed twice).
std::vector<NttIsa> isas() {
  std::vector<NttIsa> v{NttIsa::Scalar};
  for (NttIsa isa : {NttIsa::Avx2, NttIsa::Avx512}) {
    ntt_set_isa(isa);
    if (ntt_isa() == isa) v.push_back(isa);
  }
  return v;
}
struct IsaGuard {
  NttIsa saved = ntt_isa();
  ~IsaGuard() { ntt_set_isa(saved); }
};

// Entries of `bits` bits (sign random); bits ≤ 63.
Matrix<std::int64_t> rand_i64(std::mt19937_64& g, std::size_t n, std::size_t d, int bits) {
  Matrix<std::int64_t> m(n, d);
  for (auto& x : m.data()) {
    const std::int64_t v = bits >= 63 ? static_cast<std::int64_t>(g() >> 1) : static_cast<std::int64_t>(g() >> (64 - bits));
    x = (g() & 1) ? -v : v;
  }
  return m;
}
Matrix<Int> widen(const Matrix<std::int64_t>& m) { return map_matrix(m, [](std::int64_t x) { return Int(x); }); }

// Sizes that matter: 1, tiny, powers of two and their neighbours, odd lengths.
std::size_t rand_n(std::mt19937_64& g) {
  static const std::size_t special[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 100, 127, 128, 129, 255, 256, 257};
  return g() % 3 ? special[g() % std::size(special)] : 1 + g() % 300;
}
}  // namespace

TEST_CASE("NTT primes are prime, below 2^30, and support length 2^22") {
  const std::uint32_t* p = ntt_primes();
  for (unsigned i = 0; i < kNttMaxPrimes; ++i) {
    INFO("p" << i << " = " << p[i]);
    CHECK(p[i] < (1u << 30));
    CHECK(p[i] > (1u << 29));
    CHECK(ntt_friendly(p[i], kNttMaxLog));
    for (std::uint64_t q = 2; q * q <= p[i]; ++q) REQUIRE(p[i] % q != 0);
    if (i) CHECK(p[i] < p[i - 1]);
  }
  CHECK_FALSE(ntt_friendly(1000000007ULL, 2));  // p − 1 = 2·500000003
  CHECK(ntt_friendly(998244353ULL, 23));
  CHECK_FALSE(ntt_friendly(998244353ULL, 24));
}

TEST_CASE("forward NTT equals the DFT in bit-reversed order and the inverse undoes it on every ISA") {
  IsaGuard guard;
  INFO("seed " << test::seed());
  auto g = test::rng(11);
  for (NttIsa isa : isas()) {
    ntt_set_isa(isa);
    for (unsigned lg = 0; lg <= 13; ++lg) {
      INFO("isa=" << to_string(isa) << " log_len=" << lg);
      const std::uint32_t p = ntt_primes()[lg % kNttMaxPrimes];
      const NttTable& t = ntt_table(p, lg);
      const std::size_t L = std::size_t{1} << lg;
      std::vector<std::uint32_t> a(L), x(L);
      for (auto& v : a) v = static_cast<std::uint32_t>(g() % (2 * p));  // inputs anywhere in [0, 2p)
      x = a;
      ntt_forward(x.data(), t);
      for (auto v : x) REQUIRE(v < 2 * p);
      if (lg <= 9) {  // against the definition: X[bitrev(k)] = Σ_i a_i ω^{ik}
        const std::uint32_t omega = L >= 4 ? t.w[L / 2 + 1] : (L == 2 ? p - 1 : 1);  // ω_L
        for (std::size_t k = 0; k < L; ++k) {
          std::size_t r = 0;
          for (unsigned b = 0; b < lg; ++b) r |= ((k >> b) & 1) << (lg - 1 - b);
          std::uint64_t s = 0;
          for (std::size_t i = 0; i < L; ++i) s = (s + ntt::mulmod(a[i] % p, ntt::powmod(omega, i * k, p), p)) % p;
          REQUIRE(x[r] % p == s);
        }
      }
      ntt_inverse(x.data(), t);  // = L · a
      for (std::size_t i = 0; i < L; ++i) REQUIRE(x[i] == ntt::mulmod(a[i] % p, static_cast<std::uint32_t>(L % p), p));
    }
  }
}

TEST_CASE("vector kernels equal the scalar transforms bit for bit, with zero upper halves and truncated inverses") {
  // Lengths cross every structural boundary of the kernels: register tails (16, 32 entries),
  // the 4096-entry cache block, and odd/even numbers of fused radix-2^2 passes above it.
  IsaGuard guard;
  INFO("seed " << test::seed());
  auto g = test::rng(20);
  for (unsigned lg = 1; lg <= 17; ++lg) {
    const std::uint32_t p = ntt_primes()[lg % kNttMaxPrimes];
    const NttTable& t = ntt_table(p, lg);
    const std::size_t L = std::size_t{1} << lg;
    std::vector<std::uint32_t> a(L), b(L);
    for (auto& v : a) v = static_cast<std::uint32_t>(g() % (2 * p));
    for (auto& v : b) v = static_cast<std::uint32_t>(g() % p);
    for (bool hz : {false, true}) {
      const std::size_t n_out = hz ? 1 + g() % (L / 2) : L;  // truncation only where a product allows it
      std::vector<std::uint32_t> ref;
      for (NttIsa isa : isas()) {
        INFO("isa=" << to_string(isa) << " log_len=" << lg << " half_zero=" << hz << " n_out=" << n_out);
        ntt_set_isa(isa);
        std::vector<std::uint32_t> x = a;
        if (hz) std::fill(x.begin() + static_cast<std::ptrdiff_t>(L / 2), x.end(), 0xdeadbeefu);  // must not be read
        ntt_forward(x.data(), t, hz);
        ntt_pointwise(x.data(), b.data(), L, p);
        std::vector<std::uint32_t> fwd = x;
        ntt_inverse(x.data(), t, n_out);
        fwd.insert(fwd.end(), x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n_out));
        for (std::size_t i = 0; i < n_out; ++i) REQUIRE(x[i] < p);
        if (ref.empty()) ref = fwd;
        else REQUIRE(fwd == ref);
      }
      if (hz) {  // and the zero upper half is the same transform as an explicit one
        ntt_set_isa(NttIsa::Scalar);
        std::vector<std::uint32_t> x = a;
        std::fill(x.begin() + static_cast<std::ptrdiff_t>(L / 2), x.end(), 0u);
        ntt_forward(x.data(), t);
        ntt_pointwise(x.data(), b.data(), L, p);
        CHECK(std::equal(x.begin(), x.end(), ref.begin()));
      }
    }
  }
}

TEST_CASE("conv_ntt equals FLINT and the naive definitions over Z in all modes on every ISA") {
  IsaGuard guard;
  INFO("seed " << test::seed());
  auto g = test::rng(12);
  for (NttIsa isa : isas()) {
    ntt_set_isa(isa);
    for (int it = 0; it < 80; ++it) {
      const std::size_t n = rand_n(g), d = 1 + g() % 3;
      static const int kBits[] = {1, 4, 8, 20, 31, 40, 63};
      const int hb = kBits[g() % 7], ub = kBits[g() % 7];
      auto h = rand_i64(g, n, d, hb), u = rand_i64(g, n, d, ub);
      if (it % 7 == 0) h(0, 0) = INT64_MIN, u(n - 1, d - 1) = INT64_MIN;  // the asymmetric extreme
      const Matrix<Int> hz = widen(h), uz = widen(u);
      for (ConvMode m : kModes) {
        INFO("isa=" << to_string(isa) << " n=" << n << " d=" << d << " bits=" << hb << "," << ub << " mode=" << to_string(m));
        NttConvPlan pl;
        auto y = conv_ntt(h, u, m, &pl);
        REQUIRE(y.has_value());
        INFO(pl.str());
        const Matrix<Int> want = conv_flint(RingZ{}, hz, uz, m);
        CHECK(*y == want);
        if (n <= 130) CHECK(*y == conv_naive(RingZ{}, hz, uz, m));
        CHECK(conv_fast(RingZ{}, hz, uz, m) == want);
        // int64 results: exact where they fit, Overflow where one does not.
        bool fits = true;
        for (const Int& x : want.data()) fits = fits && x.fits_int64();
        if (fits) CHECK(*conv_ntt_i64(h, u, m) == map_matrix(want, [](const Int& x) { return x.to_int64(); }));
        else CHECK_THROWS_AS(conv_ntt_i64(h, u, m), Overflow);
      }
    }
  }
}

TEST_CASE("entries beyond int64 go through Int residues and match FLINT") {
  IsaGuard guard;
  INFO("seed " << test::seed());
  auto g = test::rng(13);
  for (NttIsa isa : isas()) {
    ntt_set_isa(isa);
    for (int it = 0; it < 12; ++it) {
      const std::size_t n = rand_n(g), d = 1 + g() % 2;
      Matrix<Int> h = widen(rand_i64(g, n, d, 60)), u = widen(rand_i64(g, n, d, 60));
      const Int big = Int(static_cast<std::int64_t>(g() >> 2)) * Int(static_cast<std::int64_t>(g() >> 2));
      for (auto& x : h.data()) x *= big;  // ~180-bit taps
      for (ConvMode m : kModes) {
        NttConvPlan pl;
        auto y = conv_ntt(h, u, m, &pl);
        INFO(pl.str());
        REQUIRE(y.has_value());
        CHECK(pl.k >= 7);
        CHECK(*y == conv_flint(RingZ{}, h, u, m));
      }
    }
  }
}

TEST_CASE("the certified bound at its edge: 2B < M_k takes k primes, one more unit takes k+1 or FLINT") {
  IsaGuard guard;
  // M_k = p_0···p_{k−1}; the largest bound k primes certify is (M_k − 1)/2.
  Int M(1);
  for (unsigned k = 1; k <= kNttMaxPrimes; ++k) {
    M *= Int(static_cast<std::int64_t>(ntt_primes()[k - 1]));
    const Int half = Int::divexact(M - Int(1), Int(2));
    for (NttIsa isa : isas()) {
      ntt_set_isa(isa);
      for (ConvMode m : kModes) {
        INFO("k=" << k << " isa=" << to_string(isa) << " mode=" << to_string(m));
        // n = 3, h = e_0: y = u exactly, so outputs ±half sit on the edge.
        Matrix<Int> h(3, 1, Int(0)), u(3, 1, Int(0));
        h(0, 0) = Int(1);
        u(0, 0) = half;
        u(1, 0) = -half;
        u(2, 0) = half - Int(1);
        NttConvPlan pl;
        auto y = conv_ntt(h, u, m, &pl);
        REQUIRE(y.has_value());
        CHECK(pl.k == k);
        CHECK(*y == conv_flint(RingZ{}, h, u, m));
        u(2, 0) = half + Int(1);  // one more: 2B = M_k + 1 ≥ M_k
        auto y2 = conv_ntt(h, u, m, &pl);
        if (k < kNttMaxPrimes) {
          REQUIRE(y2.has_value());
          CHECK(pl.k == k + 1);
          CHECK(*y2 == conv_flint(RingZ{}, h, u, m));
        } else {
          CHECK_FALSE(y2.has_value());  // beyond the NTT: conv_fast takes FLINT
          CHECK_FALSE(pl.ntt);
          CHECK(conv_fast(RingZ{}, h, u, m) == conv_flint(RingZ{}, h, u, m));
        }
      }
    }
  }
}

TEST_CASE("int64 inputs whose outputs reach the bound exactly") {
  IsaGuard guard;
  // Causal, h ≡ a, u ≡ b: y[n−1] = n·a·b = B. Pick n·a·b just under and just over (M_k − 1)/2.
  for (NttIsa isa : isas()) {
    ntt_set_isa(isa);
    const std::size_t n = 64;
    for (unsigned k = 1; k <= 2; ++k) {  // b < 2^63 (k ≥ 3 edges: the Int test above)
      Int M(1);
      for (unsigned i = 0; i < k; ++i) M *= Int(static_cast<std::int64_t>(ntt_primes()[i]));
      const Int half = Int::divexact(M - Int(1), Int(2));
      // a = 1, b = floor(half / n): B ≤ half (k primes); b + 1 pushes past half when n·(b+1) > half.
      Int b = half;
      b = Int::divexact(b - Int(static_cast<std::int64_t>(half.mod_u64(n))), Int(static_cast<std::int64_t>(n)));
      for (int s : {-1, 1})
        for (int extra : {0, 1}) {
          const std::int64_t bb = s * (b.to_int64() + extra);
          Matrix<std::int64_t> h(n, 1, 1), u(n, 1, bb);
          NttConvPlan pl;
          auto y = conv_ntt(h, u, ConvMode::Causal, &pl);
          INFO("k=" << k << " extra=" << extra << " " << pl.str());
          REQUIRE(y.has_value());
          CHECK(pl.k == k + extra);
          CHECK((*y)(n - 1, 0) == Int(bb) * Int(static_cast<std::int64_t>(n)));
          CHECK(*y == conv_flint(RingZ{}, widen(h), widen(u), ConvMode::Causal));
        }
    }
  }
}

TEST_CASE("Fp: direct for an NTT-friendly prime, through Z for other primes up to 2^62") {
  IsaGuard guard;
  INFO("seed " << test::seed());
  auto g = test::rng(14);
  const std::uint64_t primes[] = {998244353ULL, 7340033ULL /* 7·2^20+1 */, 1000000007ULL, 2305843009213693951ULL /* 2^61−1 */,
                                  4611686018427387847ULL /* 2^62 − 57 */, 3ULL,
                                  1004535809ULL /* 479·2^21+1 < 2^30: direct */,
                                  4179340454199820289ULL /* 29·2^57+1: direct in 64-bit words (test_ntt_fp64.cpp) */};
  for (NttIsa isa : isas()) {
    ntt_set_isa(isa);
    for (std::uint64_t p : primes) {
      RingFp F(p);
      for (int it = 0; it < 10; ++it) {
        const std::size_t n = rand_n(g), d = 1 + g() % 3;
        Matrix<std::uint64_t> h(n, d), u(n, d);
        for (auto& x : h.data()) x = g() % p;
        for (auto& x : u.data()) x = (it % 2) ? p - 1 - g() % 2 : g() % p;  // includes the top residues
        for (ConvMode m : kModes) {
          INFO("p=" << p << " n=" << n << " d=" << d << " mode=" << to_string(m));
          NttConvPlan pl;
          auto y = conv_ntt_fp(p, h, u, m, &pl);
          REQUIRE(y.has_value());
          // Word-size p through Z: the bound n·(p−1)^2 < 2^145 needs at most 5 primes, never FLINT.
          CHECK(pl.ntt);
          CHECK(pl.k <= 5);
          if (p >= (1u << 30) && pl.field == 0) CHECK(pl.k >= 2);
          if (p == 4179340454199820289ULL) CHECK(pl.field == p);
          CHECK(*y == conv_flint(F, h, u, m));
          if (n <= 130) CHECK(*y == conv_naive(F, h, u, m));
        }
      }
    }
  }
}

TEST_CASE("Q through cleared denominators and conv() above the naive cutoff") {
  INFO("seed " << test::seed());
  auto g = test::rng(15);
  RingQ Q;
  for (int it = 0; it < 10; ++it) {
    const std::size_t n = 49 + g() % 150, d = 1 + g() % 2;
    Matrix<Rat> h(n, d), u(n, d);
    for (auto& x : h.data()) x = Rat(Int(static_cast<std::int64_t>(g() % 2001) - 1000), Int(1 + static_cast<std::int64_t>(g() % 9)));
    for (auto& x : u.data()) x = Rat(Int(static_cast<std::int64_t>(g() % 21) - 10), Int(1 + static_cast<std::int64_t>(g() % 4)));
    for (ConvMode m : kModes) CHECK(conv(Q, h, u, m) == conv_naive(Q, h, u, m));
  }
}

TEST_CASE("a prepared NttFilter reused over a batch and across threads equals the one-shot conv") {
  INFO("seed " << test::seed());
  auto g = test::rng(16);
  for (ConvMode m : kModes) {
    const std::size_t n = 200, d = 4;
    auto h = rand_i64(g, n, d, 12);
    NttFilter f(h, m);
    std::vector<Matrix<std::int64_t>> us;
    for (int b = 0; b < 6; ++b) us.push_back(rand_i64(g, n, d, b % 2 ? 62 : 9));  // 1 and 4 primes
    std::vector<std::optional<Matrix<Int>>> got(us.size());
    std::vector<std::thread> th;
    for (std::size_t b = 0; b < us.size(); ++b) th.emplace_back([&, b] {
      got[b] = f.apply(us[b]);
      release_thread_caches();
    });
    for (auto& t : th) t.join();
    auto batch = f.apply_batch(us);
    for (std::size_t b = 0; b < us.size(); ++b) {
      INFO("mode=" << to_string(m) << " instance " << b);
      REQUIRE(got[b].has_value());
      const auto want = conv_flint(RingZ{}, widen(h), widen(us[b]), m);
      CHECK(*got[b] == want);
      CHECK(*batch[b] == want);
    }
    auto y64 = f.apply_i64(us[0]);
    CHECK(*y64 == *conv_ntt_i64(h, us[0], m));
  }
}

TEST_CASE("longer sequences: N = 2^13 + 5 and N = 2^14 against FLINT") {
  auto g = test::rng(17);
  for (std::size_t n : {std::size_t{8197}, std::size_t{16384}}) {
    auto h = rand_i64(g, n, 2, 9), u = rand_i64(g, n, 2, 40);
    for (ConvMode m : kModes) CHECK(*conv_ntt(h, u, m) == conv_flint(RingZ{}, widen(h), widen(u), m));
  }
}

TEST_CASE("mutants are caught: a dropped CRT prime and a wrong twiddle") {
  IsaGuard guard;
  auto g = test::rng(18);
  for (int mutant : {1, 2}) {
    int caught = 0;
    for (int it = 0; it < 10; ++it) {
      const std::size_t n = 33 + g() % 60;
      auto h = rand_i64(g, n, 2, 40), u = rand_i64(g, n, 2, 40);  // bound ≈ 2^87: 3 primes
      const auto want = conv_flint(RingZ{}, widen(h), widen(u), ConvMode::Causal);
      detail::ntt_set_mutant(mutant);
      auto y = conv_ntt(h, u, ConvMode::Causal);
      detail::ntt_set_mutant(0);
      caught += !(y && *y == want);
    }
    INFO("mutant " << mutant);
    CHECK(caught == 10);
  }
  // And with the switch off again, the same route is exact.
  auto h = rand_i64(g, 50, 2, 40), u = rand_i64(g, 50, 2, 40);
  CHECK(*conv_ntt(h, u, ConvMode::Causal) == conv_flint(RingZ{}, widen(h), widen(u), ConvMode::Causal));
}

TEST_CASE("BaseConv layers through the prepared NTT filter equal the naive formula over int64 and Z") {
  INFO("seed " << test::seed());
  auto g = test::rng(19);
  for (ConvMode mode : kModes)
    for (int wbits : {4, 40}) {  // 40-bit weights overflow int64: IntegerEvaluator redoes it in Z
      const std::size_t N = 64 + g() % 100, d = 3;
      Model m;
      m.N = m.inner_N = N;
      m.d = m.inner_d = d;
      m.conv = mode;
      BaseConvLayer layer = zero_baseconv(m);
      for (auto* x : {&layer.W, &layer.b1, &layer.h, &layer.b2})
        for (auto& e : x->data()) e = Rat(Int(static_cast<std::int64_t>(g() >> (64 - wbits)) - (std::int64_t{1} << (wbits - 1))));
      m.layers.push_back(layer);
      Matrix<std::int64_t> u = rand_i64(g, N, d, 8);
      // The formula, independently: (u·W + b1) ⊙ (h*u + b2) with conv_naive over Z.
      RingZ Z;
      auto toZ = [](const RatMatrix& x) { return map_matrix(x, [](const Rat& q) { return q.num(); }); };
      const Matrix<Int> uz = widen(u), W = toZ(layer.W), b1 = toZ(layer.b1), hz = toZ(layer.h), b2 = toZ(layer.b2);
      const Matrix<Int> c = conv_naive(Z, hz, uz, mode);
      Matrix<Int> want(N, d);
      for (std::size_t i = 0; i < N; ++i)
        for (std::size_t j = 0; j < d; ++j) {
          Int a = b1(i, j);
          for (std::size_t k = 0; k < d; ++k) a.addmul(uz(i, k), W(k, j));
          want(i, j) = a * (c(i, j) + b2(i, j));
        }
      INFO("mode=" << to_string(mode) << " N=" << N << " weight bits=" << wbits);
      const auto pz = prepare(Z, m);
      const auto& L = std::get<PreparedModel<RingZ>::BaseConv>(pz.layers[0]);
      CHECK(L.ntt != nullptr);  // dense filter, N above the naive cutoff
      CHECK(eval(pz, uz) == want);
      IntegerEvaluator ev(m);
      CHECK(ev(u) == want);
      CHECK(ev(uz) == want);
    }
}
