// K-matrix forms of structured projections (tensor/kmatrix_forms.h, issue 28): identities,
// monomials (permutations, shifts, masks, diagonals, partial matchings) and sparse matrices of
// every size 1..12 (powers of two and not; the corner of a size-2^⌈log2 n⌉ K-matrix) expand exactly to the matrix over Z, Q and Fp; the
// parameter count is 4·w·e·n̂·log2(e·n̂); a wrong factor entry changes the expansion (mutant).
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "tensor/kmatrix_forms.h"
#include "tests/seed.h"

using namespace cz;

namespace {

// The top-left n×n corner of the K-matrix's expansion.
template <Ring R>
Matrix<typename R::Elem> corner(const R& r, const KMatrix<typename R::Elem>& k, std::size_t n) {
  const auto full = dense(r, k);
  Matrix<typename R::Elem> c(n, n, r.zero());
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) c(i, j) = full(i, j);
  return c;
}

// A random matrix with at most one nonzero per row and column (k of them), or (sparse) s cells.
template <Ring R>
Matrix<typename R::Elem> random_matrix(const R& r, std::mt19937_64& g, std::size_t n, bool monomial, std::size_t s) {
  Matrix<typename R::Elem> a(n, n, r.zero());
  auto val = [&] {
    std::int64_t v = static_cast<std::int64_t>(g() % 7) - 3;
    if (v == 0) v = 1;
    if constexpr (std::is_same_v<typename R::Elem, Rat>) return Rat(Int(v), Int(static_cast<std::int64_t>(1 + g() % 3)));
    else return r.from_int(v);
  };
  if (monomial) {
    std::vector<std::size_t> pi(n), rows(n);
    std::iota(pi.begin(), pi.end(), 0);
    std::iota(rows.begin(), rows.end(), 0);
    std::shuffle(pi.begin(), pi.end(), g);
    std::shuffle(rows.begin(), rows.end(), g);
    for (std::size_t t = 0; t < std::min(s, n); ++t) a(rows[t], pi[rows[t]]) = val();
    return a;
  }
  std::vector<std::size_t> cells(n * n);
  std::iota(cells.begin(), cells.end(), 0);
  std::shuffle(cells.begin(), cells.end(), g);
  for (std::size_t t = 0; t < std::min(s, n * n); ++t) a.data()[cells[t]] = val();
  return a;
}

template <Ring R>
void check_forms(const R& r, std::uint64_t salt) {
  auto g = test::rng(salt);
  INFO("seed " << test::seed() << " ring " << r.name());
  for (std::size_t n = 1; n <= 12; ++n) {
    Matrix<typename R::Elem> id(n, n, r.zero());
    for (std::size_t i = 0; i < n; ++i) id(i, i) = r.one();
    auto fi = kmatrix_form_of(r, id);
    REQUIRE(fi);
    CHECK(fi->kind == "identity");
    CHECK(fi->k.width() == 0);
    CHECK(corner(r, fi->k, n) == id);
    CHECK(fi->k.n == pad_pow2(n));
    for (int rep = 0; rep < 6; ++rep) {
      const auto a = random_matrix(r, g, n, true, rep == 0 ? n : g() % (n + 1));
      auto f = kmatrix_form_of(r, a);
      REQUIRE(f);
      INFO("n " << n << " kind " << f->kind);
      CHECK((f->kind == "monomial" || f->kind == "identity"));
      CHECK(corner(r, f->k, n) == a);
      CHECK(kmatrix_params(f->k) == kmatrix_params_formula(f->k.width(), f->k.e, f->k.n));
      if (f->kind == "monomial") CHECK(kmatrix_params(f->k) == 4 * f->k.inner() * log2_exact(f->k.inner()));
    }
    for (int rep = 0; rep < 3; ++rep) {
      const std::size_t s = n + 1 + g() % (n + 1);
      const auto a = random_matrix(r, g, n, false, s);
      auto f = kmatrix_form_of(r, a);
      if (!f) {  // no form only when Thm 3's count is not below dense (small n)
        const std::size_t nh = pad_pow2(n);
        CHECK(kmatrix_params_formula(sparse_plan_width(s, nh), 4, nh) >= n * n);
        continue;
      }
      CHECK(corner(r, f->k, n) == a);
      if (f->kind == "sparse") CHECK(kmatrix_params(f->k) < n * n);  // (n = 1: one cell, a monomial)
    }
  }
}

}  // namespace

TEST_CASE("K-matrix forms of identities, monomials and sparse matrices expand exactly over Z, Q and Fp") {
  check_forms(RingZ{}, 1);
  check_forms(RingQ{}, 2);
  check_forms(RingFp(1000003), 3);
}

TEST_CASE("a channel shift of size 6 gets a monomial K-matrix form, and a wrong factor entry is caught (mutant)") {
  RingZ Z;
  Matrix<Int> shift(6, 6, Int(0));  // u·W moves channel j to j + 1 (the last one dropped)
  for (std::size_t j = 0; j + 1 < 6; ++j) shift(j, j + 1) = Int(1);
  auto f = kmatrix_form_of(Z, shift);
  REQUIRE(f);
  CHECK(f->kind == "monomial");
  CHECK(f->k.inner() == 8);
  CHECK(kmatrix_params(f->k) == 4 * 8 * 3);
  CHECK(corner(Z, f->k, 6) == shift);
  std::size_t caught = 0, total = 0;
  for (auto& el : f->k.elements)
    for (Butterfly<Int>* b : {&el.M1, &el.M2})
      for (auto& F : b->factors)
        for (std::vector<Int>* d : {&F.d1, &F.d2, &F.d3, &F.d4})
          for (Int& x : *d) {
            const Int keep = x;
            x = x + Int(2);
            ++total;
            // Entries on paths into padded rows 6, 7 can only reach the corner through routes
            // that carry data, so most (not all) single changes show.
            if (!(corner(Z, f->k, 6) == shift)) ++caught;
            x = keep;
          }
  INFO(caught << " of " << total);
  CHECK(caught * 2 > total);
  CHECK(corner(Z, f->k, 6) == shift);
}
