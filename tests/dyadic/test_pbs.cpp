// pbs-key-values (Zoology Alg. 10, eq 14–17) against eq (12) computed plainly, reproducing the
// brute-force facts of spec §13:
//   - Alg. 10 with the E1 fix: 0 wrong on every sorted instance with values 0..5, |q|, |k| <= 4
//     (repeated keys allowed);
//   - eq (17) as published: wrong in 6,445 of 11,704 cases (queries: sorted multisets, keys: sorted
//     and distinct, values 0..5, sizes 1..4), with the three counterexamples the spec lists;
//   - the "0 = dead" convention alone: wrong in 3,046 of the same 11,704.
#include <doctest/doctest.h>

#include <map>

#include "circuits/eval.h"
#include "circuits/gadgets_bits.h"
#include "constructions/mqar/dyadic_block.h"
#include "constructions/mqar/pbs.h"

using namespace cz;
using namespace cz::mqarc;
namespace g = cz::circuits::gadgets;

namespace {
constexpr std::size_t kW = 4;  // word width: values up to 15

// eq (12): C[i] = min{ j : q[i] <= k[j] }, or |k| when q[i] > every key.
std::vector<std::uint64_t> eq12(const std::vector<int>& q, const std::vector<int>& k) {
  std::vector<std::uint64_t> c;
  for (int x : q) {
    std::size_t j = 0;
    while (j < k.size() && k[j] < x) ++j;
    c.push_back(j);
  }
  return c;
}

// All non-decreasing (or strictly increasing) sequences of length L over 0..top.
void sequences(std::size_t L, int top, bool strict, std::vector<int>& cur, std::vector<std::vector<int>>& out) {
  if (cur.size() == L) {
    out.push_back(cur);
    return;
  }
  const int lo = cur.empty() ? 0 : cur.back() + (strict ? 1 : 0);
  for (int v = lo; v <= top; ++v) {
    cur.push_back(v);
    sequences(L, top, strict, cur, out);
    cur.pop_back();
  }
}

struct PbsCircuit {
  circuits::Circuit c;
  std::vector<std::size_t> widths;
};

// merge = true: the merge-based C of spec §7.5 (dyadic_block.h) instead of pbs.
PbsCircuit make(std::size_t nq, std::size_t nk, PbsVariant v, bool merge = false) {
  circuits::Builder b;
  std::vector<dy::Bits> Q, K;
  for (std::size_t i = 0; i < nq; ++i) Q.push_back(g::input_bits(b, std::string("q") + std::to_string(i), kW));
  for (std::size_t j = 0; j < nk; ++j) K.push_back(g::input_bits(b, std::string("k") + std::to_string(j), kW));
  PbsCircuit pc;
  for (const auto& w : merge ? merge_key_values(b, Q, K) : pbs_key_values(b, Q, K, v)) {
    pc.widths.push_back(w.size());
    for (auto x : w) b.output("C", x);
  }
  pc.c = std::move(b).finish();
  return pc;
}

std::vector<std::uint64_t> run(const PbsCircuit& pc, const std::vector<int>& q, const std::vector<int>& k) {
  std::vector<std::int64_t> in;
  for (int x : q)
    for (std::size_t t = 0; t < kW; ++t) in.push_back((x >> t) & 1);
  for (int x : k)
    for (std::size_t t = 0; t < kW; ++t) in.push_back((x >> t) & 1);
  auto out = circuits::eval_integer(pc.c, in);
  std::vector<std::uint64_t> C;
  std::size_t off = 0;
  for (std::size_t w : pc.widths) {
    std::uint64_t v = 0;
    for (std::size_t t = 0; t < w; ++t) {
      REQUIRE((out[off + t] == Int(0) || out[off + t] == Int(1)));
      if (out[off + t] == Int(1)) v |= std::uint64_t{1} << t;
    }
    off += w;
    C.push_back(v);
  }
  return C;
}

// (wrong, total) over queries = multisets of 1..4 values, keys = sorted 1..4 values (distinct or not).
std::pair<std::size_t, std::size_t> count_wrong(PbsVariant v, bool distinct_keys) {
  std::size_t wrong = 0, total = 0;
  for (std::size_t nq = 1; nq <= 4; ++nq)
    for (std::size_t nk = 1; nk <= 4; ++nk) {
      const PbsCircuit pc = make(nq, nk, v);
      std::vector<std::vector<int>> qs, ks;
      std::vector<int> cur;
      sequences(nq, 5, false, cur, qs);
      sequences(nk, 5, distinct_keys, cur, ks);
      for (const auto& k : ks)
        for (const auto& q : qs) {
          ++total;
          wrong += run(pc, q, k) != eq12(q, k);
        }
    }
  return {wrong, total};
}
}  // namespace

TEST_CASE("Alg. 10 with the E1 fix computes eq (12) on every small sorted instance") {
  auto [wrong, total] = count_wrong(PbsVariant::Fixed, false);
  CHECK(total == 209u * 209u);  // multisets of sizes 1..4 over 6 values, for both sides
  CHECK(wrong == 0);
  auto [wrong_d, total_d] = count_wrong(PbsVariant::Fixed, true);
  CHECK(total_d == 11704);
  CHECK(wrong_d == 0);
}

TEST_CASE("eq (17) as published is wrong in 6,445 of 11,704 cases (spec §13)") {
  auto [wrong, total] = count_wrong(PbsVariant::Paper, true);
  CHECK(total == 11704);
  CHECK(wrong == 6445);
  // The spec's three defects.
  CHECK(run(make(2, 4, PbsVariant::Paper), {6, 9}, {1, 5, 8, 10}) == std::vector<std::uint64_t>{2, 6});  // × z_t
  CHECK(run(make(3, 2, PbsVariant::Paper), {3, 11, 12}, {1, 5}) == std::vector<std::uint64_t>{2, 2, 2});  // × z_s
  CHECK(run(make(2, 1, PbsVariant::Paper), {0, 1}, {0}) == std::vector<std::uint64_t>{0, 0});  // 0 = dead
  CHECK(run(make(2, 4, PbsVariant::Fixed), {6, 9}, {1, 5, 8, 10}) == std::vector<std::uint64_t>{2, 3});
  CHECK(run(make(3, 2, PbsVariant::Fixed), {3, 11, 12}, {1, 5}) == std::vector<std::uint64_t>{1, 2, 2});
  CHECK(run(make(2, 1, PbsVariant::Fixed), {0, 1}, {0}) == std::vector<std::uint64_t>{0, 1});
}

TEST_CASE("the '0 = dead branch' convention alone breaks 3,046 of the 11,704 cases") {
  auto [wrong, total] = count_wrong(PbsVariant::DeadZero, true);
  CHECK(total == 11704);
  CHECK(wrong == 3046);
  CHECK(run(make(2, 1, PbsVariant::DeadZero), {0, 1}, {0}) == std::vector<std::uint64_t>{0, 0});
}

TEST_CASE("the merge-based block computes the same C array as pbs (spec §7.5), distinct keys") {
  std::size_t cases = 0;
  for (std::size_t m = 1; m <= 4; m *= 2) {
    const PbsCircuit merge = make(m, m, PbsVariant::Fixed, true), pbs = make(m, m, PbsVariant::Fixed);
    std::vector<std::vector<int>> qs, ks;
    std::vector<int> cur;
    sequences(m, 7, false, cur, qs);
    sequences(m, 7, true, cur, ks);
    for (const auto& k : ks)
      for (const auto& q : qs) {
        const auto want = eq12(q, k);
        REQUIRE(run(merge, q, k) == want);
        REQUIRE(run(pbs, q, k) == want);
        ++cases;
      }
  }
  CHECK(cases == 8 * 8 + 36 * 28 + 330 * 70);
}
