// The reference checkers (circuits/reference/) against src/tasks, by enumeration at small sizes:
//   - the MQAR checker's "domain" output is 1 on exactly the input bit patterns that decode (by
//     tasks/mqar.h) to a triples instance with distinct keys, so it accepts exactly as many
//     patterns as the exhaustive enumerator walks (triples_count);
//   - on every enumerated instance the checker accepts the answer of tasks/mqar_reference.h, and
//     rejects it, in the flipped cell's group only, when any one bit is flipped;
//   - compare and sort the same way against plain C++ comparison and std::sort.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "circuits/eval.h"
#include "circuits/reference/compare_ref.h"
#include "circuits/reference/mqar_ref.h"
#include "circuits/reference/sort_ref.h"
#include "tasks/mqar_domain.h"
#include "tasks/mqar_reference.h"

using namespace cz;
namespace ref = cz::circuits::reference;

namespace {

ref::MqarSpec spec_of(const mqar::Codec& k, std::size_t n) {
  ref::MqarSpec s;
  s.n = n, s.c = k.c, s.d = k.d, s.p = k.p, s.base = k.base;
  s.code = k.enc == mqar::Encoding::Binary ? ref::TokenCode::Binary
           : k.enc == mqar::Encoding::OneHot ? ref::TokenCode::OneHot
                                             : ref::TokenCode::PHot;
  return s;
}

// Every cell y[r][j] (j < d), plus the found column at query rows when `found`.
std::vector<std::string> mqar_outputs(std::size_t n, std::size_t d, bool found) {
  std::vector<std::string> v;
  for (std::size_t r = 0; r < 3 * n; ++r) {
    for (std::size_t j = 0; j < d; ++j) v.push_back("y[" + std::to_string(r) + "][" + std::to_string(j) + "]");
    if (found && r % 3 == 2) v.push_back("y[" + std::to_string(r) + "][" + std::to_string(d) + "]");
  }
  return v;
}

std::vector<Int> eval(const ref::Checker& ch, const std::vector<std::int64_t>& in) {
  return circuits::eval_integer(ch.circuit, in);
}

}  // namespace

TEST_CASE("sat reference: mqar checker: its domain is exactly the enumerator's (every bit pattern)") {
  struct Case {
    mqar::Encoding e;
    std::size_t c, p, n;
  };
  for (const Case& cs : {Case{mqar::Encoding::Binary, 3, 1, 2}, Case{mqar::Encoding::Binary, 4, 1, 2},
                         Case{mqar::Encoding::OneHot, 3, 1, 1}, Case{mqar::Encoding::PHot, 4, 2, 1}}) {
    const mqar::Codec k = mqar::make_codec(cs.e, cs.c, cs.p);
    INFO(mqar::to_string(cs.e) << " c=" << cs.c << " n=" << cs.n);
    const ref::Checker ch = ref::mqar_checker(spec_of(k, cs.n), {}, "test");
    const std::size_t bits = 3 * cs.n * k.d;
    REQUIRE(bits <= 16);
    std::uint64_t accepted = 0;
    for (std::uint64_t x = 0; x < (std::uint64_t{1} << bits); ++x) {
      std::vector<std::int64_t> in(bits);
      for (std::size_t b = 0; b < bits; ++b) in[b] = (x >> b) & 1;
      // src/tasks: every row a token's codeword, keys distinct.
      bool valid = true;
      std::vector<std::int64_t> keys;
      for (std::size_t r = 0; r < 3 * cs.n && valid; ++r) {
        std::vector<int> row(in.begin() + static_cast<long>(r * k.d), in.begin() + static_cast<long>((r + 1) * k.d));
        const mqar::Decoded dd = mqar::decode_bits(k, row);
        valid = dd.kind == mqar::Decoded::Token && dd.token < static_cast<std::int64_t>(k.c);
        if (valid && r % 3 == 0) keys.push_back(dd.token);
      }
      if (valid) {
        auto s = keys;
        std::sort(s.begin(), s.end());
        valid = std::adjacent_find(s.begin(), s.end()) == s.end();
      }
      const bool dom = eval(ch, in)[0] == Int(1);
      CHECK(dom == valid);
      accepted += dom;
    }
    CHECK(accepted == mqar::triples_count(cs.n, cs.c));
  }
}

TEST_CASE("sat reference: mqar checker: accepts the reference's answers and rejects every one-bit change") {
  struct Case {
    mqar::Encoding e;
    std::size_t c, p, n;
  };
  for (const Case& cs : {Case{mqar::Encoding::Binary, 3, 1, 3}, Case{mqar::Encoding::OneHot, 3, 1, 2},
                         Case{mqar::Encoding::PHot, 4, 2, 2}}) {
    const mqar::Codec k = mqar::make_codec(cs.e, cs.c, cs.p);
    const bool found = cs.e == mqar::Encoding::Binary;
    INFO(mqar::to_string(cs.e) << " c=" << cs.c << " n=" << cs.n);
    const auto outs = mqar_outputs(cs.n, k.d, found);
    const ref::Checker ch = ref::mqar_checker(spec_of(k, cs.n), outs, "test");
    REQUIRE(ch.groups.size() == outs.size());
    const mqar::Domain dom = mqar::triples_exhaustive(cs.n, cs.c);
    std::uint64_t flips_caught = 0, flips = 0;
    for (std::uint64_t i = 0; i < dom.count; ++i) {
      const mqar::Instance x = dom.instance(i);
      const auto u = mqar::encode(k, x);
      const auto want = mqar::expected_output(k, x, mqar::reference_answers(x));
      const auto ans = mqar::reference_answers(x);
      std::vector<std::int64_t> in(u.data().begin(), u.data().end());
      const std::size_t task = in.size();
      for (std::size_t r = 0; r < 3 * cs.n; ++r) {
        for (std::size_t j = 0; j < k.d; ++j) in.push_back(want(r, j));
        if (found && r % 3 == 2) in.push_back(ans[r / 3].has_value());
      }
      std::vector<Int> v = eval(ch, in);
      REQUIRE(v[0] == Int(1));
      const std::size_t oks = 1 + ch.groups.size();  // then the case outputs (q_i = k_j)
      for (std::size_t g = 1; g < oks; ++g) REQUIRE(v[g] == Int(1));
      std::size_t c = oks;  // case outputs: q_i = k_j for i in order, j < i
      for (std::size_t qi = 0; qi < cs.n; ++qi)
        for (std::size_t kj = 0; kj < qi; ++kj) REQUIRE(v[c++] == Int(x.query(qi) == x.key(kj)));
      REQUIRE(c == v.size());
      if (i % 7 != 0) continue;  // flips on a seventh of the instances keep the test fast
      for (std::size_t m = task; m < in.size(); ++m) {
        in[m] ^= 1;
        v = eval(ch, in);
        ++flips;
        bool only_that = v[1 + (m - task)] == Int(0);
        for (std::size_t g = 1; g < oks; ++g)
          if (g != 1 + (m - task)) only_that = only_that && v[g] == Int(1);
        flips_caught += only_that;
        in[m] ^= 1;
      }
    }
    CHECK(flips > 0);
    CHECK(flips_caught == flips);
  }
}

TEST_CASE("sat reference: compare checker: plain comparison on every input, every one-bit change caught") {
  const std::size_t d = 3;
  std::vector<std::string> outs{"lt", "eq"};
  for (const char* w : {"min", "max"})
    for (std::size_t k = 0; k < d; ++k) outs.push_back(std::string(w) + "[" + std::to_string(k) + "]");
  const ref::Checker ch = ref::compare_checker(d, outs, "test");
  for (std::uint64_t x = 0; x < 8; ++x)
    for (std::uint64_t y = 0; y < 8; ++y) {
      std::vector<std::int64_t> in;
      for (std::size_t k = 0; k < d; ++k) in.push_back((x >> k) & 1);
      for (std::size_t k = 0; k < d; ++k) in.push_back((y >> k) & 1);
      in.push_back(x < y);
      in.push_back(x == y);
      for (std::size_t k = 0; k < d; ++k) in.push_back((std::min(x, y) >> k) & 1);
      for (std::size_t k = 0; k < d; ++k) in.push_back((std::max(x, y) >> k) & 1);
      auto v = eval(ch, in);
      for (const auto& e : v) CHECK(e == Int(1));
      for (std::size_t m = 2 * d; m < in.size(); ++m) {
        in[m] ^= 1;
        v = eval(ch, in);
        CHECK(v[1 + m - 2 * d] == Int(0));
        in[m] ^= 1;
      }
    }
}

TEST_CASE("sat reference: sort checker: std::sort accepted (ties in any order), wrong keys or indices rejected") {
  const std::size_t n = 3, d = 2, w = 2;
  std::vector<std::string> outs;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t b = 0; b < d; ++b) outs.push_back("key" + std::to_string(i) + "[" + std::to_string(b) + "]");
    for (std::size_t b = 0; b < w; ++b) outs.push_back("idx" + std::to_string(i) + "[" + std::to_string(b) + "]");
  }
  const ref::Checker ch = ref::sort_checker(n, d, outs, "test");
  std::uint64_t ok_answers = 0, tie_orders = 0;
  for (std::uint64_t x = 0; x < 64; ++x) {
    std::vector<std::uint64_t> key(n);
    std::vector<std::int64_t> in;
    for (std::size_t i = 0; i < n; ++i) {
      key[i] = (x >> (i * d)) & 3;
      for (std::size_t b = 0; b < d; ++b) in.push_back((key[i] >> b) & 1);
    }
    // Every answer (keys and indices) with keys < 4 and indices < 4: accepted exactly when it
    // is the sorted keys with a permutation of indices carrying them.
    std::vector<std::uint64_t> sorted = key;
    std::sort(sorted.begin(), sorted.end());
    for (std::uint64_t perm = 0; perm < 64; ++perm) {
      std::vector<std::uint64_t> idx{perm & 3, (perm >> 2) & 3, (perm >> 4) & 3};
      for (int bad = 0; bad < 2; ++bad) {
        std::vector<std::uint64_t> ok_keys = sorted;
        if (bad) ok_keys[perm % n] ^= 1;
        std::vector<std::int64_t> all = in;
        for (std::size_t i = 0; i < n; ++i) {
          for (std::size_t b = 0; b < d; ++b) all.push_back((ok_keys[i] >> b) & 1);
          for (std::size_t b = 0; b < w; ++b) all.push_back((idx[i] >> b) & 1);
        }
        bool want = true;
        std::vector<bool> seen(n, false);
        for (std::size_t i = 0; i < n; ++i) {
          if (ok_keys[i] != sorted[i] || idx[i] >= n || seen[idx[i]] || key[idx[i]] != ok_keys[i]) want = false;
          if (idx[i] < n) seen[idx[i]] = true;
        }
        const auto v = eval(ch, all);
        bool got = true;
        for (std::size_t g = 1; g < v.size(); ++g) got = got && v[g] == Int(1);
        CHECK(got == want);
        ok_answers += want;
        tie_orders += want && !bad && idx != std::vector<std::uint64_t>{0, 1, 2};
      }
    }
  }
  CHECK(ok_answers >= 64);  // at least one accepted answer per input
  CHECK(tie_orders > 0);    // and some with ties in a non-identity order
}
