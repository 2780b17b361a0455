// sd/based-jrt (JRT Lemma G.20, Prop G.21, Prop G.18, Thm G.22): every stage verifies on its own
// and end to end, the MLP realises the kernels' definitions, and mutants are caught.
#include <doctest/doctest.h>

#include "constructions/sd/based_jrt.h"
#include "constructions/sd/kernels.h"
#include "tasks/sd_targets.h"
#include "app/engine/engine.h"

using namespace cz;

namespace {
Report verify(std::map<std::string, std::string> p, DomainOptions o = {}) {
  o.threads = 2;
  return run_verify(find_construction("sd/based-jrt"), p, o);
}

RunResult verify_mutant(const std::map<std::string, std::string>& given, sdc::StageMutator mutate) {
  const Construction& c = find_construction("sd/based-jrt");
  Params p = Params::parse(c.params, given);
  Built b = c.build(p);
  auto art = *std::static_pointer_cast<const sdc::BasedArtifact>(b.state);
  sdc::PipelineConfig cfg = art.pipeline->config();
  cfg.mutate = std::move(mutate);
  art.pipeline = std::make_shared<const sdc::Pipeline>(cfg);
  b.state = std::make_shared<const sdc::BasedArtifact>(art);
  return run_domain(c.check(p, b, DomainOptions{}), 2, "mutant");
}

BaseConvLayer& conv_layer(Model& m, std::size_t i) { return std::get<BaseConvLayer>(m.layers.at(i)); }
}  // namespace

TEST_CASE("each stage verifies exhaustively on its own and end to end (n <= 2)") {
  for (const char* n : {"1", "2"})
    for (const char* stage : {"g20", "g21", "g18", "all"})
      for (const char* conv : {"anticausal", "causal"}) {
        INFO("n=" << n << " stage=" << stage << " conv=" << conv);
        Report r = verify({{"n", n}, {"stage", stage}, {"conv", conv}});
        CHECK(r.domain == "exhaustive");
        CHECK(r.failed == 0);
        CHECK(r.exit_code() == 0);
      }
  Report r = verify({{"n", "2"}, {"domain", "orders"}});
  CHECK(r.instances == 1681);
  CHECK(r.failed == 0);
}

TEST_CASE("every kernel solves SD end to end, spot checks at n = 3") {
  for (const char* kernel : {"dd", "random", "exp"}) {
    INFO(kernel);
    CHECK(verify({{"n", "2"}, {"kernel", kernel}}).failed == 0);
    CHECK(verify({{"n", "2"}, {"kernel", kernel}, {"stage", "g18"}, {"domain", "orders"}}).failed == 0);
  }
  DomainOptions o;
  o.samples = 400;
  o.seed = 3;
  CHECK(verify({{"n", "3"}}, o).failed == 0);
  CHECK(verify({{"n", "3"}, {"conv", "causal"}, {"domain", "orders"}}, o).failed == 0);
  CHECK(verify({{"n", "3"}, {"kernel", "exp"}}, o).failed == 0);
  CHECK(verify({{"n", "3"}, {"kernel", "random"}, {"domain", "sized"}, {"a", "2"}, {"b", "3"}}, o).failed == 0);
}

TEST_CASE("Lemma G.20 target: no causal model can write h_shift[0] at row 0") {
  // Two JRT prompts equal in row 0 whose h_shift[0] differ: a causal model's row 0 sees row 0 only
  // (causality lemma, spec §2.1), so the kernel must be written at an offset (we use row N-1).
  bool found = false;
  for (std::uint64_t i = 0; i < 256 && !found; ++i)
    for (std::uint64_t j = 0; j < 256 && !found; ++j) {
      sd::Instance x = sd::subset_pair(2, i), y = sd::subset_pair(2, j);
      auto u = sd::encode(x), v = sd::encode(y);
      bool same_row0 = true;
      for (std::size_t c = 0; c < u.cols(); ++c) same_row0 = same_row0 && u(0, c) == v(0, c);
      found = same_row0 && sd::h_shift(x)[0] != sd::h_shift(y)[0];
    }
  CHECK(found);
}

TEST_CASE("the G.18 MLP realises the kernels' definitions (keys and queries)") {
  const unsigned n = 3;
  sd::Instance x{n, {6, 1, 3}, {3, 0, 7, 5}};
  auto u = sd::encode(x);
  const std::size_t N = u.rows();
  for (auto kind : {sdc::KernelKind::DataDependent, sdc::KernelKind::Random}) {
    sdc::KernelSpec k;
    k.kind = kind;
    k.f = 37;
    k.seed = 9;
    sdc::G18Model g = sdc::build_g18(n, N, 0, N, k, x.A);
    Matrix<std::int64_t> in(N, g.D, 0);
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j <= n; ++j) in(i, j) = u(i, j);
    Matrix<Int> X = (*g.pre_eval)(in);
    const auto& A = std::get<LinearAttentionLayer>(g.post.layers.at(0));
    for (std::size_t i = 0; i < N; ++i) {
      const bool key = i < x.A.size(), query = i > x.A.size();
      const std::uint32_t e = sd::row_element(u.row(i), n);
      const auto phi = kind == sdc::KernelKind::DataDependent ? sdc::dd_phi(x.A, n, e) : sdc::random_phi(9, 37, e);
      REQUIRE(phi.size() == g.f);
      for (std::size_t t = 0; t < g.f; ++t) {
        Rat q(0), kk(0);
        for (std::size_t ch = 0; ch < g.D; ++ch) {
          q += Rat(X(i, ch)) * A.Wq(ch, t);
          kk += Rat(X(i, ch)) * A.Wk(ch, t);
        }
        CHECK(q == Rat(query ? phi[t] : 0));
        CHECK(kk == Rat(key ? phi[t] : 0));
      }
    }
    // the one-model view equals the two-part evaluation
    Matrix<Int> full = IntegerEvaluator(g.full())(u);
    sdc::G18Run run = sdc::run_g18(g, k, n, u);
    for (std::size_t i = 0; i < N; ++i) CHECK((full(i, 0).sign() != 0) == run.flag[i]);
  }
}

TEST_CASE("data-dependent kernel: epsilon = 0 on pairs touching S, for every S at n = 3") {
  for (std::uint64_t mask = 0; mask < 256; mask += 5) {
    std::vector<std::uint32_t> S;
    for (std::uint32_t e = 0; e < 8; ++e)
      if ((mask >> e) & 1) S.push_back(e);
    for (std::uint32_t a : S)
      for (std::uint32_t y = 0; y < 8; ++y) {
        auto pa = sdc::dd_phi(S, 3, a), py = sdc::dd_phi(S, 3, y);
        std::int64_t ip = 0;
        for (std::size_t t = 0; t < pa.size(); ++t) ip += pa[t] * py[t];
        CHECK(ip == (a == y ? 1 : 0));
      }
  }
}

TEST_CASE("certified bounds on e^-t enclose the value and shrink") {
  sdc::RatInterval e1 = sdc::exp_neg(1);
  CHECK(e1.lo < e1.hi);
  CHECK(e1.lo > Rat(Int(367879), Int(1000000)));  // e^-1 = 0.3678794...
  CHECK(e1.hi < Rat(Int(367880), Int(1000000)));
  CHECK(sdc::exp_r_for_eps(1) == 1);  // e^-2 <= 1/3
  CHECK(sdc::exp_r_for_eps(4) == 2);  // e^-2 > 1/12 >= e^-4
}

TEST_CASE("based: mutants are caught") {
  SUBCASE("G.20 mask keeps a wrong row") {
    auto r = verify_mutant({{"stage", "g20"}}, [](const std::string& s, Model& m) {
      if (s == "g20" && m.N >= 6) conv_layer(m, m.layers.size() - 1).b1(m.N / 2 - 2, m.d - 1) = 1;
    });
    CHECK(r.failed > 0);
  }
  SUBCASE("G.20 shift_down by one too few") {
    auto r = verify_mutant({{"stage", "g20"}}, [](const std::string& s, Model& m) {
      if (s != "g20" || m.layers.size() < 5) return;
      auto& L = conv_layer(m, 2);  // remember: split, cumsum, shift_down, sum, then the mask
      for (std::size_t k = 1; k < L.h.rows(); ++k)
        for (std::size_t j = 0; j < m.d; ++j)
          if (L.h(k, j) == Rat(1)) { L.h(k, j) = 0; L.h(k - 1, j) = 1; }
    });
    CHECK(r.failed > 0);
  }
  SUBCASE("G.21 insert without the separator bias") {
    auto r = verify_mutant({{"stage", "g21"}}, [](const std::string& s, Model& m) {
      if (s == "g21-insert") conv_layer(m, m.layers.size() - 1).b1(m.N / 2, m.d - 1) = 0;
    });
    CHECK(r.failed > 0);
  }
  SUBCASE("G.21 shift with the kernel read the wrong way") {
    auto r = verify_mutant({{"stage", "g21"}}, [](const std::string& s, Model& m) {
      if (s == "g21-shift") m.conv = m.conv == ConvMode::Anticausal ? ConvMode::Causal : ConvMode::Anticausal;
    });
    CHECK(r.failed > 0);
  }
  SUBCASE("G.18 separator test on the wrong column (mark layer reads an element bit)") {
    for (const char* kernel : {"dd", "random", "exp"}) {
      auto r = verify_mutant({{"stage", "all"}, {"kernel", kernel}}, [](const std::string& s, Model& m) {
        if (s != "g18-pre") return;
        auto& L = conv_layer(m, 1);  // mask, mark: count element bit n-1 instead of the flag
        for (std::size_t k = 1; k < L.h.rows(); ++k)
          for (std::size_t j = 0; j + 1 < L.h.cols(); ++j)
            if (L.h(k, j + 1) == Rat(2)) { L.h(k, j) = 2; L.h(k, j + 1) = 0; }
      });
      INFO(kernel);
      CHECK(r.failed > 0);
    }
  }
  SUBCASE("G.18 query neuron with its role bias off by one") {
    auto r = verify_mutant({{"stage", "g18"}}, [](const std::string& s, Model& m) {
      if (s != "g18-pre") return;
      auto& M = std::get<MlpLayer>(m.layers.back());
      for (std::size_t i = 0; i < M.B1.rows(); ++i)
        for (std::size_t c = 0; c < M.B1.cols(); ++c) M.B1(i, c) += 1;
    });
    CHECK(r.failed > 0);
  }
}

TEST_CASE("random kernel: f below the smallest working f is caught, f at it passes") {
  const Construction& c = find_construction("sd/based-jrt");
  Built b = c.build(Params::parse(c.params, {{"kernel", "random"}}));
  REQUIRE(b.metrics["f_min_domain"].is_number());
  const std::size_t fmin = b.metrics["f_min_domain"].get<std::size_t>();
  REQUIRE(fmin > 1);
  CHECK(verify({{"kernel", "random"}, {"f", std::to_string(fmin)}}).failed == 0);
  Report small = verify({{"kernel", "random"}, {"f", std::to_string(fmin - 1)}});
  CHECK(small.failed > 0);
  CHECK(small.exit_code() == 1);
  CHECK(verify({{"kernel", "random"}, {"f", "1"}}).failed > 0);
}
