// JRT Prop G.18's epsilon measured on the built kernel (issue 24): read off the model's features,
// 0 for the data-dependent kernel (eq 19), caught on a mutant kernel, equal to the definition for
// the random one (eq 20); sd/based-jrt's eps claim is that measurement.
#include <doctest/doctest.h>

#include "constructions/sd/based_jrt.h"
#include "constructions/sd/kernels.h"

using namespace cz;

TEST_CASE("G.18 epsilon is measured on the built kernel: 0 for eq 19, caught on a mutant kernel") {
  const unsigned n = 3;
  const std::vector<std::uint32_t> S = {6, 1, 3};
  sdc::KernelSpec k;
  const sdc::G18Model g = sdc::build_g18(n, 8, 0, 8, k, S);
  const sdc::KernelEps e = sdc::g18_kernel_eps(g, k, n, S);
  CHECK(e.eps == Rat(0));
  // Mutant: the query feature of S[0] also lights the key channel of S[1] (k(S[1], S[0]) = 1).
  const sdc::G18Model bad = sdc::build_g18(n, 8, 0, 8, k, S, [&](const std::string& stage, Model& m) {
    if (stage != "g18-pre") return;
    auto& M = std::get<MlpLayer>(m.layers.back());
    M.W2(S.size(), g.f + 1) = Rat(1);  // neuron S.size() is the query one-hot of S[0]; channel f + 1 is Q's slot of S[1]
  });
  const sdc::KernelEps eb = sdc::g18_kernel_eps(bad, k, n, S);
  CHECK(eb.eps == Rat(1));
  CHECK(eb.x == S[1]);
  CHECK(eb.y == S[0]);
  // The random kernel through the same measurement: |<r_x, r_y>|/f over the first set's keys.
  sdc::KernelSpec r;
  r.kind = sdc::KernelKind::Random;
  r.f = 64;
  r.seed = 3;
  const sdc::G18Model gr = sdc::build_g18(n, 8, 0, 8, r, S);
  const sdc::KernelEps er = sdc::g18_kernel_eps(gr, r, n, S);
  std::int64_t worst = 0;
  for (std::uint32_t x : S)
    for (std::uint32_t y = 0; y < 8; ++y) {
      if (x == y) continue;
      auto a = sdc::random_phi(3, 64, x), b = sdc::random_phi(3, 64, y);
      std::int64_t ip = 0;
      for (std::size_t t = 0; t < 64; ++t) ip += a[t] * b[t];
      worst = std::max(worst, ip < 0 ? -ip : ip);
    }
  CHECK(er.eps == Rat(Int(worst), Int(64)));
}

TEST_CASE("sd/based-jrt kernel=dd: the eps claim is the measured value") {
  const Construction& c = find_construction("sd/based-jrt");
  const Built b = c.build(Params::parse(c.params, {{"n", "2"}}));
  const Claim* eps = nullptr;
  for (const auto& cl : b.claims)
    if (cl.quantity == "eps") eps = &cl;
  REQUIRE(eps);
  CHECK(eps->achieved == "0");
  CHECK(b.metrics["eps"] == "0");
  CHECK(b.metrics.contains("eps_worst_pair"));
  REQUIRE(eps->holds);
  CHECK(*eps->holds);
}
