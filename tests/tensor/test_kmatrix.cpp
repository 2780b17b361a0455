// K-matrices (Dao et al. 2020; spec §14.1): the parameter count 4·w·e·n·log2(en) against the built
// objects, Thm 2 (every permutation of size ≤ 8 in 𝓑𝓑*, all 40347 of them, product checked
// exactly), Thm 3 (random sparse matrices in (𝓑𝓑*)^{4⌈s/n⌉}_4 over Z, Q and Fp), and mutants: a
// wrong factor entry must change the product.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "tensor/kmatrix.h"
#include "tensor/kmatrix_route.h"
#include "tensor/kmatrix_sparse.h"
#include "tests/seed.h"

using namespace cz;

namespace {

template <Ring R>
Matrix<typename R::Elem> perm_matrix(const R& r, const std::vector<std::size_t>& pi) {
  Matrix<typename R::Elem> p(pi.size(), pi.size(), r.zero());
  for (std::size_t i = 0; i < pi.size(); ++i) p(i, pi[i]) = r.one();
  return p;
}

KMatrix<int> perm_kmatrix(const std::vector<std::size_t>& pi) {
  KMatrix<int> k;
  k.n = pi.size();
  k.e = 1;
  k.elements.push_back(kroute::permutation_bbstar(pi));
  return k;
}

// Every entry of every factor, for mutants.
std::vector<int*> entries(KMatrix<int>& k) {
  std::vector<int*> out;
  for (auto& el : k.elements)
    for (Butterfly<int>* b : {&el.M1, &el.M2})
      for (auto& f : b->factors)
        for (std::vector<int>* d : {&f.d1, &f.d2, &f.d3, &f.d4})
          for (int& x : *d) out.push_back(&x);
  return out;
}

template <Ring R>
Matrix<typename R::Elem> random_sparse(const R& r, std::mt19937_64& g, std::size_t n, std::size_t s) {
  Matrix<typename R::Elem> a(n, n, r.zero());
  std::vector<std::size_t> cells(n * n);
  std::iota(cells.begin(), cells.end(), 0);
  std::shuffle(cells.begin(), cells.end(), g);
  // Some cases pile the nonzeros into one row or one column (the widest classes).
  const int shape = static_cast<int>(g() % 3);
  if (shape > 0) std::stable_sort(cells.begin(), cells.end(), [&](std::size_t x, std::size_t y) {
      return shape == 1 ? x / n < y / n : x % n < y % n; });
  for (std::size_t t = 0; t < s; ++t) {
    std::int64_t v = static_cast<std::int64_t>(g() % 19) - 9;
    if (v == 0) v = 10;
    typename R::Elem e = r.from_int(v);
    if constexpr (std::is_same_v<typename R::Elem, Rat>) e = Rat(Int(v), Int(static_cast<std::int64_t>(1 + g() % 5)));
    a.data()[cells[t]] = e;
  }
  return a;
}

}  // namespace

TEST_CASE("butterfly and BB* parameter counts: 2n·log2 n per butterfly, 4·w·e·n·log2(en) per K-matrix") {
  RingZ Z;
  for (std::size_t n : {1, 2, 4, 8, 64}) {
    Butterfly<Int> b(n, Z.zero(), Z.one());
    CHECK(b.params() == 2 * n * log2_exact(n));
    // The identity butterfly is the identity.
    std::vector<Int> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = Int(static_cast<std::int64_t>(3 * i + 1));
    CHECK(apply(Z, b, v) == v);
    CHECK(apply_transposed(Z, b, v) == v);
  }
  CHECK(kmatrix_params_formula(1, 1, 8) == 4 * 8 * 3);
  CHECK_THROWS_AS(log2_exact(6), std::invalid_argument);
}

TEST_CASE("Dao Thm 2: every permutation of size 1, 2, 4, 8 is in BB* (all 40347, exact product over Z)") {
  RingZ Z;
  std::size_t checked = 0;
  for (std::size_t n : {1, 2, 4, 8}) {
    std::vector<std::size_t> pi(n);
    std::iota(pi.begin(), pi.end(), 0);
    do {
      const KMatrix<int> coded = perm_kmatrix(pi);
      coded.check_shape();
      const auto k = materialize(Z, coded);
      REQUIRE(kmatrix_params(k) == kmatrix_params_formula(1, 1, n));
      REQUIRE(dense(Z, k) == perm_matrix(Z, pi));
      ++checked;
    } while (std::next_permutation(pi.begin(), pi.end()));
  }
  CHECK(checked == 1 + 2 + 24 + 40320);
}

TEST_CASE("Dao Thm 2 over Q and Fp, and at sizes 16..256 on seeded permutations") {
  INFO("seed " << test::seed());
  auto g = test::rng(28);
  RingQ Q;
  RingFp F(1000003);
  RingZ Z;
  for (std::size_t n : {4, 16, 64, 256}) {
    for (int rep = 0; rep < 20; ++rep) {
      std::vector<std::size_t> pi(n);
      std::iota(pi.begin(), pi.end(), 0);
      std::shuffle(pi.begin(), pi.end(), g);
      const KMatrix<int> coded = perm_kmatrix(pi);
      if (n <= 64) {
        CHECK(dense(Q, materialize(Q, coded)) == perm_matrix(Q, pi));
        CHECK(dense(F, materialize(F, coded)) == perm_matrix(F, pi));
      }
      // Beside the exact product: the image of (0, 1, …, n−1) is pi itself.
      std::vector<Int> v(n);
      for (std::size_t i = 0; i < n; ++i) v[i] = Int(static_cast<std::int64_t>(i));
      const auto y = apply(Z, materialize(Z, coded), v);
      for (std::size_t i = 0; i < n; ++i) REQUIRE(y[i] == Int(static_cast<std::int64_t>(pi[i])));
      // The same permutation as "B-part first, then T-part" (used inside Thm 3).
      auto [B, T] = kroute::permutation_b_then_t(pi);
      const auto Bz = materialize(Z, KMatrix<int>{n, 1, {BBStar<int>{B, Butterfly<int>(n, 0, 1)}}});
      const auto Tz = materialize(Z, KMatrix<int>{n, 1, {BBStar<int>{Butterfly<int>(n, 0, 1), T}}});
      const auto y2 = apply(Z, Tz, apply(Z, Bz, v));
      for (std::size_t i = 0; i < n; ++i) REQUIRE(y2[i] == Int(static_cast<std::int64_t>(pi[i])));
    }
  }
}

TEST_CASE("Thm 2 mutants: every single wrong factor entry of a routed permutation changes the product") {
  RingZ Z;
  for (const std::vector<std::size_t>& pi : {std::vector<std::size_t>{3, 7, 0, 4, 6, 1, 5, 2}, std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7}}) {
    KMatrix<int> coded = perm_kmatrix(pi);
    const auto want = perm_matrix(Z, pi);
    std::size_t mutants = 0, caught = 0;
    for (int* x : entries(coded)) {
      const int keep = *x;
      *x = keep == 0 ? 1 : 0;  // a switch entry flipped
      ++mutants;
      caught += dense(Z, materialize(Z, coded)) == want ? 0 : 1;
      *x = keep;
    }
    CHECK(mutants == 2 * 3 * 4 * 4);  // 2 butterflies × log2 8 factors × 4 diagonals × 4 entries
    CHECK(caught == mutants);
  }
  CHECK_THROWS_AS(kroute::permutation_bbstar({0, 0, 1, 2}), std::invalid_argument);
  CHECK_THROWS_AS(kroute::permutation_bbstar({0, 1, 2}), std::invalid_argument);
}

TEST_CASE("Dao Thm 3: random sparse matrices lie in (BB*)^{4ceil(s/n)}_4, exact over Z, Q and Fp") {
  INFO("seed " << test::seed());
  auto g = test::rng(2803);
  RingZ Z;
  RingQ Q;
  RingFp F(1000003);
  std::size_t cases = 0;
  for (std::size_t n : {1, 2, 4, 8, 16}) {
    std::vector<std::size_t> ss = {0, 1, n / 2, n - 1, n, n + 1, 2 * n, 3 * n + 1, n * n / 2, n * n};
    for (std::size_t s : ss) {
      if (s > n * n) continue;
      for (int rep = 0; rep < 3; ++rep) {
        INFO("n = " << n << ", s = " << s << ", rep " << rep);
        const auto a = random_sparse(Z, g, n, s);
        const auto k = sparse_to_kmatrix(Z, a);
        k.check_shape();
        CHECK(k.e == 4);
        CHECK(k.width() == sparse_plan_width(s, n));
        if (s > 0) CHECK(k.width() <= dao_thm3_width(s, n));
        CHECK(kmatrix_params(k) == kmatrix_params_formula(k.width(), 4, n));
        REQUIRE(dense(Z, k) == a);
        const auto aq = random_sparse(Q, g, n, s);
        REQUIRE(dense(Q, sparse_to_kmatrix(Q, aq)) == aq);
        const auto af = random_sparse(F, g, n, s);
        REQUIRE(dense(F, sparse_to_kmatrix(F, af)) == af);
        ++cases;
      }
    }
  }
  CHECK(cases >= 100);
}

TEST_CASE("Thm 3 mutants: a wrong weight or a wrong switch in the sparse construction changes the product") {
  INFO("seed " << test::seed());
  auto g = test::rng(2804);
  RingZ Z;
  const std::size_t n = 8;
  const auto a = random_sparse(Z, g, n, 13);
  std::vector<std::pair<std::size_t, std::size_t>> at;
  std::vector<Int> v;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (!a(i, j).is_zero()) at.emplace_back(i, j), v.push_back(a(i, j));
  SparsePlan plan = sparse_plan(n, at);
  REQUIRE(dense(Z, materialize(Z, plan.coded, v)) == a);
  // A wrong value: every weight code once replaced by its neighbour's.
  std::size_t weights = 0, caught = 0;
  for (int* x : entries(plan.coded))
    if (*x >= 2) {
      const int keep = *x;
      *x = keep == 2 ? 3 : 2;
      ++weights;
      caught += dense(Z, materialize(Z, plan.coded, v)) == a ? 0 : 1;
      *x = keep;
    }
  CHECK(weights == at.size());
  CHECK(caught == weights);
  // A wrong switch: seeded flips of 0/1 entries; most lie on live paths and must be caught.
  auto all = entries(plan.coded);
  std::size_t flips = 0, flip_caught = 0;
  for (int rep = 0; rep < 200; ++rep) {
    int* x = all[g() % all.size()];
    if (*x >= 2) continue;
    const int keep = *x;
    *x = 1 - keep;
    ++flips;
    flip_caught += dense(Z, materialize(Z, plan.coded, v)) == a ? 0 : 1;
    *x = keep;
  }
  MESSAGE("sparse mutants: " << flip_caught << " of " << flips << " switch flips change the product");
  CHECK(flip_caught > 0);
  CHECK_THROWS_AS(sparse_plan(6, {}), std::invalid_argument);
  CHECK_THROWS_AS(sparse_plan(4, {{0, 4}}), std::invalid_argument);
}
