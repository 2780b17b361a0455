// The SD sized domain is pairs of sets with |A| = a, |B| = b, each set's elements in increasing
// order (tasks/sd.h sized_pair, --method sat's blocks in app/engine/sat/sat_sd.cpp). Its seeded
// samples (sd::sample_sized_pair, used past 2^22 pairs) must lie in that domain too, so that
// `--method enumerate` on a sampled sized domain and `--method sat` judge the same instances
// (2026-12-07, soundness: the samples came in random order before).
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/engine/sat/sat_sd.h"
#include "tasks/sd.h"
#include "verify/sd_domain.h"
#include "verify/task.h"

using namespace cz;

namespace {

bool increasing(const std::vector<std::uint32_t>& v) {
  return std::adjacent_find(v.begin(), v.end(), std::greater_equal<>()) == v.end();
}

Params sized(unsigned n, std::size_t a, std::size_t b) {
  return Params::parse(find_task("sd").params,
                       {{"n", std::to_string(n)}, {"domain", "sized"}, {"a", std::to_string(a)}, {"b", std::to_string(b)}});
}

DomainOptions sampled(std::uint64_t samples, std::uint64_t seed) {
  DomainOptions o;
  o.threads = 1;
  o.samples = samples;
  o.seed = seed;
  return o;
}

// The instance --method sat's decoder reads off these input bits (u's rows, row-major, as a SAT
// model gives them), or nullopt when the bits lie outside the blocks' domain.
std::optional<sd::Instance> sat_reads(const SdSpec& spec, const sd::Instance& x) {
  const Matrix<std::int64_t> u = sd::encode(x);
  std::vector<int> bits;
  for (std::size_t r = 0; r < u.rows(); ++r)
    for (std::size_t j = 0; j < u.cols(); ++j) bits.push_back(static_cast<int>(u(r, j)));
  std::optional<sd::Instance> seen;
  auto fails = [&seen](const sd::Instance& y) -> std::optional<Failure> {
    seen = y;
    return std::nullopt;
  };
  (void)confirm_by(spec.blocks, fails)(bits);
  return seen;
}

}  // namespace

TEST_CASE("sd sized domain: every seeded sample lies in the domain --method sat covers (increasing sets)") {
  struct Case {
    unsigned n;
    std::size_t a, b;
    std::uint64_t samples;
  };
  // n = 5, a = b = 3: C(32,3)^2 > 2^22, sampled by default (rejection draws); n = 3 a = 6 b = 5:
  // dense draws (a shuffle of the universe), sampled when asked.
  for (const Case& c : {Case{5, 3, 3, 0}, Case{6, 5, 7, 300}, Case{3, 6, 5, 300}, Case{4, 1, 9, 300}}) {
    const Params p = sized(c.n, c.a, c.b);
    const sdc::SdDomain dom = sdc::make_sd_domain(p, c.samples ? sampled(c.samples, 7) : DomainOptions{});
    REQUIRE_FALSE(dom.exhaustive);
    const SdSpec spec = sd_spec(p, /*jrt=*/true, /*state=*/false, 2);
    REQUIRE(spec.blocks.size() == 1);
    CHECK(dom.describe().find("increasing order") != std::string::npos);
    CHECK(spec.text.find("increasing order") != std::string::npos);
    std::uint64_t intersecting = 0, outside = 0;
    const std::uint64_t count = std::min<std::uint64_t>(dom.count, 2000);
    for (std::uint64_t k = 0; k < count; ++k) {
      const sd::Instance x = dom.instance(k);
      INFO("n=" << c.n << " a=" << c.a << " b=" << c.b << " k=" << k << " " << sd::to_json(x).dump());
      REQUIRE(x.A.size() == c.a);
      REQUIRE(x.B.size() == c.b);
      const std::optional<sd::Instance> s = sat_reads(spec, x);
      if (!increasing(x.A) || !increasing(x.B) || !s || s->A != x.A || s->B != x.B) ++outside;
      intersecting += !sd::disjoint(x);
    }
    CHECK(outside == 0);
    CHECK(intersecting >= count / 2);  // odd k are planted
  }
}

TEST_CASE("sd sized domain: every sample is an instance of the exhaustive enumeration of the same domain") {
  std::uint64_t state = 12345;
  std::uint64_t found = 0, unordered = 0;
  sd::Below below = [&state](std::uint64_t m) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % m;
  };
  std::vector<sd::Instance> all;
  for (std::uint64_t k = 0; k < *sd::count_sized_pairs(3, 2, 3); ++k) all.push_back(sd::sized_pair(3, 2, 3, k));
  for (int t = 0; t < 300; ++t) {
    const sd::Instance x = sd::sample_sized_pair(3, 2, 3, /*plant=*/t % 2 == 1, below);
    unordered += !increasing(x.A) || !increasing(x.B);
    found += std::any_of(all.begin(), all.end(), [&](const sd::Instance& y) { return y.A == x.A && y.B == x.B; });
  }
  CHECK(unordered == 0);
  CHECK(found == 300);
}

TEST_CASE("sd sized domain: a file right only on increasing sets is judged as --method sat's domain says") {
  // The answer of Alg. 3 (flag column n, the common elements flagged at B's rows of the last copy)
  // when both sets of the prompt are increasing; else the flags say "disjoint". Right on every
  // instance of the sized domain, so the sampled enumerating check must find no failure, as the
  // exhaustive one does on a small sized domain (and as a SAT proof over increasing sets would).
  const unsigned n = 5;
  TaskArtifact art;
  art.where = "test";
  art.eval = [n](const Matrix<std::int64_t>& u) {
    const std::size_t N = u.rows() / 2;  // the JRT prompt [u; u]
    sd::Instance x{n, {}, {}};
    bool second = false;
    for (std::size_t r = 0; r < N; ++r) {
      if (u(r, n)) {
        second = true;
        continue;
      }
      (second ? x.B : x.A).push_back(sd::row_element(u.row(r), n));
    }
    Matrix<Int> y(u.rows(), n + 1, Int(0));
    if (!increasing(x.A) || !increasing(x.B)) return y;  // the order it was not meant for
    const std::vector<std::uint32_t> common = sd::intersection(x);
    for (std::size_t i = 0; i < x.B.size(); ++i)
      if (std::count(common.begin(), common.end(), x.B[i])) {
        const std::size_t row = N + x.A.size() + 1 + i;
        for (unsigned b = 0; b < n; ++b) y(row, b) = Int((x.B[i] >> b) & 1);
        y(row, n) = Int(1);
      }
    return y;
  };
  const Task& tk = find_task("sd");
  auto failures = [&](const Params& p, const DomainOptions& o, bool want_exhaustive) {
    const Check c = tk.check(p, art, o);
    CHECK((c.domain == "exhaustive") == want_exhaustive);
    CHECK(c.description.find("increasing order") != std::string::npos);
    std::uint64_t failed = 0;
    for (std::uint64_t k = 0; k < c.instances; ++k) failed += c.run(k).has_value();
    return failed;
  };
  CHECK(failures(sized(n, 1, 2), DomainOptions{}, true) == 0);  // 32·C(32,2) = 15,872: every instance
  CHECK(failures(sized(n, 3, 4), sampled(400, 3), false) == 0);
  CHECK(failures(sized(n, 3, 3), sampled(400, 1), false) == 0);  // past 2^22 pairs: sampled anyway
}
