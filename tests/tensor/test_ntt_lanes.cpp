// The lane-batched NTT convolution (tensor/ntt_lanes.h, conv_ntt_lanes.cpp): W channels per row
// through one fused recursion. Checked lane by lane against the scalar per-channel transform
// (bit for bit), and end to end against FLINT and the O(N^2) definitions on every ISA (the plain
// lane kernels are forced where the CPU has no AVX-512), at the fused fill's edge (entries of
// magnitude p_0 − 1 and p_0), with many primes, through prepared filters from several threads,
// and with two mutants (a dropped prime, a wrong twiddle) that these checks catch.
#include <doctest/doctest.h>

#include <random>
#include <thread>

#include "exact/rings.h"
#include "exact/thread_caches.h"
#include "tensor/conv.h"
#include "tensor/ntt.h"
#include "tensor/ntt_lanes.h"
#include "tests/seed.h"

using namespace cz;

namespace {
constexpr ConvMode kModes[] = {ConvMode::Causal, ConvMode::Cyclic, ConvMode::Anticausal};

// Restores the ISA, the forced lane path and the mutant switch.
struct Guard {
  NttIsa isa = ntt_isa();
  ~Guard() {
    ntt_set_isa(isa);
    detail::ntt_set_lane_policy(detail::LanePolicy::Auto);
    detail::ntt_set_mutant(0);
  }
};

// The lane kernel sets this CPU can run.
std::vector<const ntt_lanes::Kernels*> kernel_sets() {
  std::vector<const ntt_lanes::Kernels*> v{&ntt_lanes::kernels_scalar()};
  Guard g;
  ntt_set_isa(NttIsa::Avx512);
  if (ntt_isa() == NttIsa::Avx512) v.push_back(&ntt_lanes::kernels_avx512());
  return v;
}

// Every configuration under which int64 convolutions take the lane path: AVX-512 when present,
// and the plain lane kernels forced under the other ISAs.
template <class F>
void for_each_lane_config(F&& f) {
  Guard g;
  for (NttIsa isa : {NttIsa::Scalar, NttIsa::Avx2, NttIsa::Avx512}) {
    ntt_set_isa(isa);
    if (ntt_isa() != isa) continue;
    detail::ntt_set_lane_policy(isa == NttIsa::Avx512 ? detail::LanePolicy::Auto : detail::LanePolicy::Always);
    INFO("isa " << to_string(isa));
    f();
  }
}

Matrix<std::int64_t> rand_i64(std::mt19937_64& g, std::size_t n, std::size_t d, std::int64_t bound) {
  Matrix<std::int64_t> m(n, d);
  const std::uint64_t span = 2 * static_cast<std::uint64_t>(bound) + 1;  // 2^64 − 1 at INT64_MAX: no overflow
  // Unsigned subtraction, then the modular conversion (C++20): uniform in [−bound, bound], no signed overflow.
  for (auto& x : m.data()) x = static_cast<std::int64_t>(g() % span - static_cast<std::uint64_t>(bound));
  return m;
}
Matrix<Int> widen(const Matrix<std::int64_t>& m) { return map_matrix(m, [](std::int64_t x) { return Int(x); }); }
}  // namespace

TEST_CASE("lane kernels transform every lane as the scalar per-channel NTT does, bit for bit") {
  std::mt19937_64 g = test::rng(41);
  const std::uint32_t p = ntt_primes()[3];
  for (const ntt_lanes::Kernels* K : kernel_sets()) {
    // 16-18: above LaneConv::kL3Log the first pass takes 1, 2 or 3 stages (W = 16; W = 8 from 17)
    for (unsigned lg : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 16u, 17u, 18u}) {
      const NttTable& t = ntt_table(p, lg);
      const std::size_t L = std::size_t{1} << lg, W = K->W;
      for (bool half : {false, true}) {
        INFO("W = " << W << ", L = 2^" << lg << (half ? ", zero upper half" : ""));
        std::vector<std::uint32_t> rows(L * W, 0);
        for (std::size_t i = 0; i < (half ? L / 2 : L); ++i)
          for (std::size_t l = 0; l < W; ++l) rows[i * W + l] = static_cast<std::uint32_t>(g() % (2 * p));
        std::vector<std::vector<std::uint32_t>> chan(W, std::vector<std::uint32_t>(L));
        for (std::size_t l = 0; l < W; ++l)
          for (std::size_t i = 0; i < L; ++i) chan[l][i] = rows[i * W + l];
        K->forward(rows.data(), ntt_lanes::LaneArgs::of(t, half, false, L));
        bool same = true;
        for (std::size_t l = 0; l < W; ++l) {
          ntt::ntt_forward_scalar(chan[l].data(), lg, t.w.data(), t.wpre.data(), p, half);
          for (std::size_t i = 0; i < L; ++i) same = same && chan[l][i] == rows[i * W + l];
        }
        CHECK(same);
      }
    }
  }
}

TEST_CASE("lane convolution equals FLINT and the naive definitions in all modes") {
  std::mt19937_64 g = test::rng(42);
  const std::size_t sizes[] = {1, 2, 3, 5, 8, 9, 16, 17, 63, 64, 65, 100, 255, 256, 257, 1000, 1024, 1500};
  for_each_lane_config([&] {
    for (int rep = 0; rep < 40; ++rep) {
      const std::size_t n = sizes[g() % std::size(sizes)], d = 4 + g() % 30;
      const std::int64_t bound = rep % 4 == 0 ? (std::int64_t{1} << 40) : rep % 4 == 1 ? 1000 : 9;
      const Matrix<std::int64_t> h = rand_i64(g, n, d, bound), u = rand_i64(g, n, d, bound);
      for (ConvMode m : kModes) {
        INFO("n = " << n << ", d = " << d << ", |entries| <= " << bound << ", mode " << to_string(m));
        NttConvPlan pl;
        const auto y = conv_ntt(h, u, m, &pl);
        REQUIRE(y);
        const Matrix<Int> want = conv_flint(RingZ{}, widen(h), widen(u), m);
        CHECK(*y == want);
        if (n <= 257 && rep % 8 == 1) CHECK(*y == conv_naive(RingZ{}, widen(h), widen(u), m));
        const NttConvPlan ref = plan_conv_ntt(h, u, m);  // the fused fill's plan is the separate passes' plan
        CHECK(pl.primes == ref.primes);
        CHECK(pl.bound_bits == ref.bound_bits);
        bool fits = true;
        for (const Int& x : want.data()) fits = fits && x.fits_int64();
        if (fits) CHECK(*conv_ntt_i64(h, u, m) == map_matrix(want, [](const Int& x) { return x.to_int64(); }));
      }
    }
  });
}

TEST_CASE("the fused fill's edge: entries of magnitude p0 - 1 take it, p0 falls back, both exact") {
  const std::int64_t p0 = ntt_primes()[0];
  std::mt19937_64 g = test::rng(43);
  for_each_lane_config([&] {
    for (std::int64_t edge : {p0 - 1, p0, -p0, -(p0 - 1), std::int64_t{1} << 40}) {
      for (bool in_h : {false, true}) {
        INFO("edge entry " << edge << (in_h ? " in h" : " in u"));
        Matrix<std::int64_t> h = rand_i64(g, 300, 16, 50), u = rand_i64(g, 300, 16, 50);
        (in_h ? h : u)(g() % 300, g() % 16) = edge;
        for (ConvMode m : kModes) {
          NttConvPlan pl;
          const auto y = conv_ntt(h, u, m, &pl);
          REQUIRE(y);
          CHECK(*y == conv_flint(RingZ{}, widen(h), widen(u), m));
          CHECK(pl.primes == plan_conv_ntt(h, u, m).primes);
        }
      }
    }
  });
}

TEST_CASE("lane convolution with many primes and int64 overflow") {
  std::mt19937_64 g = test::rng(44);
  for_each_lane_config([&] {
    Matrix<std::int64_t> h = rand_i64(g, 200, 12, INT64_MAX), u = rand_i64(g, 200, 12, INT64_MAX);
    u(7, 3) = INT64_MIN;
    NttConvPlan pl;
    const auto y = conv_ntt(h, u, ConvMode::Causal, &pl);
    REQUIRE(y);
    CHECK(pl.k >= 5);
    CHECK(*y == conv_flint(RingZ{}, widen(h), widen(u), ConvMode::Causal));
    CHECK_THROWS_AS(conv_ntt_i64(h, u, ConvMode::Causal), Overflow);
    // Channels whose bound is 0 (an all-zero filter column) give zeros.
    Matrix<std::int64_t> h2 = rand_i64(g, 64, 9, 100), u2 = rand_i64(g, 64, 9, 100);
    for (std::size_t i = 0; i < 64; ++i) h2(i, 4) = 0;
    CHECK(*conv_ntt_i64(h2, u2, ConvMode::Cyclic) ==
          map_matrix(conv_flint(RingZ{}, widen(h2), widen(u2), ConvMode::Cyclic), [](const Int& x) { return x.to_int64(); }));
  });
}

TEST_CASE("lane path at N = 2^14 + 3 and 2^15 against FLINT") {
  std::mt19937_64 g = test::rng(45);
  for_each_lane_config([&] {
    for (std::size_t n : {std::size_t{16387}, std::size_t{32768}}) {
      const Matrix<std::int64_t> h = rand_i64(g, n, 16, 1000), u = rand_i64(g, n, 16, 1000);
      const ConvMode m = n == 32768 ? ConvMode::Cyclic : ConvMode::Anticausal;
      CHECK(*conv_ntt_i64(h, u, m) ==
            map_matrix(conv_flint(RingZ{}, widen(h), widen(u), m), [](const Int& x) { return x.to_int64(); }));
    }
  });
}

TEST_CASE("lane path at L = 2^17 and 2^18, where the first pass is not radix 8, equals the per-channel kernels") {
  std::mt19937_64 g = test::rng(48);
  for_each_lane_config([&] {
    const detail::LanePolicy lanes = detail::ntt_lane_policy();
    for (std::size_t n : {std::size_t{65536}, std::size_t{65543}}) {
      const ConvMode m = n == 65536 ? ConvMode::Causal : ConvMode::Anticausal;
      INFO("n = " << n << ", mode " << to_string(m));
      const Matrix<std::int64_t> h = rand_i64(g, n, 16, 1000), u = rand_i64(g, n, 16, 1000);
      NttConvPlan pl;
      const auto y = conv_ntt_i64(h, u, m, &pl);
      CHECK(pl.log_len == (n == 65536 ? 17u : 18u));
      detail::ntt_set_lane_policy(detail::LanePolicy::Never);
      const auto ref = conv_ntt_i64(h, u, m);
      detail::ntt_set_lane_policy(lanes);
      REQUIRE(y.has_value());
      REQUIRE(ref.has_value());
      CHECK(*y == *ref);
    }
  });
}

TEST_CASE("a prepared filter on the lane path equals the one-shot conv, from several threads") {
  std::mt19937_64 g = test::rng(46);
  for_each_lane_config([&] {
    for (ConvMode m : kModes) {
      const std::size_t n = 700, d = 20;
      const Matrix<std::int64_t> h = rand_i64(g, n, d, 1 << 20);
      std::vector<Matrix<std::int64_t>> us;
      for (int i = 0; i < 6; ++i) us.push_back(rand_i64(g, n, d, i == 5 ? (std::int64_t{1} << 45) : 1000));
      NttFilter f(h, m);
      std::vector<int> ok(us.size(), 0);
      const NttIsa isa = ntt_isa();
      std::vector<std::thread> ts;
      for (std::size_t i = 0; i < us.size(); ++i)
        ts.emplace_back([&, i] {
          ntt_set_isa(isa);
          ok[i] = *f.apply(us[i]) == conv_flint(RingZ{}, widen(h), widen(us[i]), m);
          release_thread_caches();
        });
      for (auto& t : ts) t.join();
      for (std::size_t i = 0; i < us.size(); ++i) CHECK(ok[i] == 1);
    }
  });
}

TEST_CASE("mutants on the lane path are caught: a dropped CRT prime and a wrong twiddle") {
  std::mt19937_64 g = test::rng(47);
  for_each_lane_config([&] {
    for (int mutant : {1, 2}) {
      const Matrix<std::int64_t> h = rand_i64(g, 200, 16, std::int64_t{1} << 30), u = rand_i64(g, 200, 16, std::int64_t{1} << 30);
      const Matrix<Int> want = conv_flint(RingZ{}, widen(h), widen(u), ConvMode::Causal);
      detail::ntt_set_mutant(mutant);
      const auto bad = conv_ntt(h, u, ConvMode::Causal);
      NttFilter f(h, ConvMode::Causal);
      const auto bad_prepared = f.apply(u);
      detail::ntt_set_mutant(0);
      INFO("mutant " << mutant);
      CHECK_FALSE(*bad == want);
      CHECK_FALSE(*bad_prepared == want);
      CHECK(*conv_ntt(h, u, ConvMode::Causal) == want);
    }
  });
}
