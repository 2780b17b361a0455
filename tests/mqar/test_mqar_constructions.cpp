// mqar/attention and mqar/autocorrelation: verified on exhaustive triples domains (n = 3, c = 3)
// and on zoology's generator; their mutants (a wrong lag, a dropped smear, a visible own-triple
// key, no query mask) are caught; the paper's row stacking fails exactly where Errata E2 says;
// the sparse model path equals the Rat model path.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>

#include "constructions/mqar/solvers.h"
#include "tasks/mqar_reference.h"
#include "tasks/zoology.h"
#include "app/engine/byo/verify_npy.h"

using namespace cz;
using namespace cz::mqarc;

namespace {
// Number of failing instances (the engine's thread pool, identical for any thread count).
std::uint64_t failures(const mqar::Domain& d, const MqarSolver& s) { return run_domain(mqar_check(d, s), 2, "").failed; }

TaskShape triples(std::size_t n, std::size_t c) {
  TaskShape s;
  s.n = n;
  s.N = 3 * n;
  s.K = n;
  s.c = c;
  return s;
}
TaskShape zoo(std::size_t N, std::size_t K, std::size_t c) {
  TaskShape s;
  s.layout = mqar::Layout::Zoology;
  s.N = N;
  s.K = K;
  s.c = c;
  return s;
}
AutoConfig autocfg(const TaskShape& s) {
  AutoConfig c;
  c.shape = s;
  return c;
}
mqar::Domain zoo_domain(const TaskShape& s, std::uint64_t count) {
  return mqar::zoology_sampled(s.N, s.K, s.c, 0.01, count, 5);
}
}  // namespace

TEST_CASE("attention: verified exhaustively (n=3, c=3) and on zoology batches, mutants caught") {
  const TaskShape s = triples(3, 3);
  const mqar::Domain d = mqar::triples_exhaustive(3, 3);
  CHECK(failures(d, attention_solver(s)) == 0);
  CHECK(failures(d, attention_solver(s, AttnMutant::SameTriple)) > 0);   // strict j < i broken (E5)
  CHECK(failures(d, attention_solver(s, AttnMutant::NoQueryMask)) > 0);  // answers at value rows
  const TaskShape z = zoo(16, 4, 18);
  CHECK(failures(zoo_domain(z, 200), attention_solver(z)) == 0);
  Model m = to_model(attention_model(worst_case_instance(s)));
  CHECK(m.layers.size() == 3);  // two BaseConv layers, one LinearAttention
  CHECK(to_model(attention_model(worst_case_instance(z))).layers.size() == 2);
  CHECK(m.inner_d == 9);
}

TEST_CASE("autocorrelation fixed: verified (n=3, c=3 and zoology), a wrong lag and a dropped smear are caught") {
  const TaskShape s = triples(3, 3);
  const mqar::Domain d = mqar::triples_exhaustive(3, 3);
  AutoConfig cfg = autocfg(s);
  CHECK(failures(d, autocorr_solver(cfg)) == 0);
  cfg.mutant = Mutant::WrongLag;
  CHECK(failures(d, autocorr_solver(cfg)) > 0);
  cfg.mutant = Mutant::DropSmear;
  CHECK(failures(d, autocorr_solver(cfg)) > 0);
  const TaskShape z = zoo(16, 4, 18);
  CHECK(failures(zoo_domain(z, 200), autocorr_solver(autocfg(z))) == 0);
  // (N, 4, c, N, (2t+1)c) at the worst case, t = n - 1.
  LagChoice l;
  Model m = to_model(autocorr_model(autocfg(triples(4, 4)), worst_case_instance(triples(4, 4)), &l));
  CHECK(l.t == 3);
  CHECK(m.layers.size() == 4);
  CHECK(m.inner_N == 12);
  CHECK(m.inner_d == 7 * 4);
}

TEST_CASE("autocorrelation with too few lags fails exactly where a needed lag is missing") {
  AutoConfig cfg = autocfg(triples(3, 3));
  cfg.t = 1;
  const mqar::Domain d = mqar::triples_exhaustive(3, 3);
  std::uint64_t need_two = 0;
  for (std::uint64_t k = 0; k < d.count; ++k) need_two += choose_lags(d.instance(k), LagRule::QK, 0).needed.size() >= 2;
  CHECK(need_two > 0);
  CHECK(failures(d, autocorr_solver(cfg)) == need_two);
}

TEST_CASE("the paper's row stacking (E2): causal fails exactly on instances that need t >= 2 lags") {
  AutoConfig cfg = autocfg(triples(3, 3));
  cfg.paper = true;
  const mqar::Domain d = mqar::triples_exhaustive(3, 3);
  auto sol = autocorr_solver(cfg);
  Check c = mqar_check(d, sol);
  std::uint64_t mism = 0, need_two = 0;
  for (std::uint64_t k = 0; k < d.count; ++k) {
    const bool two = choose_lags(d.instance(k), LagRule::QK, 0).needed.size() >= 2;
    need_two += two;
    mism += c.run(k).has_value() != two;
  }
  CHECK(need_two > 0);
  CHECK(mism == 0);
  cfg.conv = ConvMode::Cyclic;  // the cyclic reading fails too (cross-block spill)
  CHECK(failures(d, autocorr_solver(cfg)) > 0);
  LagChoice l;
  Model m = to_model(autocorr_model(cfg, worst_case_instance(triples(3, 3)), &l));
  CHECK(m.inner_N == 9 * l.t);
  CHECK(m.inner_d == 9);
}

TEST_CASE("lags: qk respects strict j < i, autocorrelation counts every coincidence") {
  // keys 0 1 2, values 1 1 1, queries 1 0 2: q_1 = k_0 (lag 5), q_2 = k_2 (own triple, lag 2: excluded)
  mqar::Instance x = mqar::make_triples(3, {0, 1, 2}, {1, 1, 1}, {1, 0, 2});
  auto qk = qk_scores(x);
  CHECK(qk == std::map<std::size_t, std::uint64_t>{{5, 1}});
  auto ac = autocorr_scores(x);
  for (std::size_t lag = 1; lag < 9; ++lag) {  // recount: positions whose token equals the one `lag` rows up
    std::uint64_t n = 0;
    for (std::size_t p = lag; p < 9; ++p) n += x.tokens[p] == x.tokens[p - lag];
    CHECK(ac[lag] == n);
  }
  CHECK(ac[2] == 3);  // includes the same-triple coincidence q_2 = k_2
  LagChoice l = choose_lags(x, LagRule::Autocorr, 1);
  CHECK(l.lags == std::vector<std::size_t>{1});  // ties (lags 1 and 2 score 3) go to the smaller lag
  CHECK(l.dropped == std::vector<std::size_t>{5});  // the needed lag scores 1
  AutoConfig cfg = autocfg(triples(3, 3));
  cfg.rule = LagRule::Autocorr;
  CHECK(failures(mqar::triples_exhaustive(3, 3), autocorr_solver(cfg)) > 0);
}

TEST_CASE("the sparse model path equals prepare() of the Rat model, and its evaluation") {
  const TaskShape s = triples(3, 3);
  const mqar::Domain d = mqar::triples_sampled(3, 3, 20, 3);
  for (std::uint64_t k = 0; k < d.count; ++k) {
    mqar::Instance x = d.instance(k);
    for (const SparseModel& sm : {autocorr_model(autocfg(s), x), attention_model(x)}) {
      Model m = to_model(sm);
      PreparedModel<RingI64> a = to_prepared_i64(sm), b = prepare(RingI64{}, m);
      REQUIRE(a.layers.size() == b.layers.size());
      for (std::size_t i = 0; i < a.layers.size(); ++i) {
        if (auto* p = std::get_if<PreparedModel<RingI64>::BaseConv>(&a.layers[i])) {
          auto& q = std::get<PreparedModel<RingI64>::BaseConv>(b.layers[i]);
          CHECK(p->W.m == q.W.m);
          CHECK(p->W.nz_rows == q.W.nz_rows);
          CHECK(p->b1 == q.b1);
          CHECK(p->h == q.h);
          CHECK(p->b2 == q.b2);
        } else {
          auto& p2 = std::get<PreparedModel<RingI64>::LinAttn>(a.layers[i]);
          auto& q2 = std::get<PreparedModel<RingI64>::LinAttn>(b.layers[i]);
          CHECK(p2.Wq.nz_rows == q2.Wq.nz_rows);
          CHECK(p2.Wk.nz_rows == q2.Wk.nz_rows);
          CHECK(p2.Wv.nz_rows == q2.Wv.nz_rows);
        }
      }
      auto u = mqar::encode(mqar::make_codec(mqar::Encoding::OneHot, 3), x);
      CHECK(eval_exact(sm, u) == IntegerEvaluator(m)(u));
      CHECK(eval_exact(sm, u) == eval_exact(sm, u));  // pooled buffers come back zeroed
    }
  }
}

TEST_CASE("registry: default verify passes with its binding claims, and on --from-npy batches") {
  for (const char* name : {"mqar/attention", "mqar/autocorrelation"}) {
    Report r = run_verify(find_construction(name), {}, DomainOptions{});
    CHECK(r.failed == 0);
    CHECK(r.instances == 4374);
    CHECK_FALSE(r.binding_claim_failed());
  }
  zoology::MqarConfig cfg;
  cfg.vocab_size = 18;
  cfg.num_examples = 30;
  cfg.input_seq_len = 16;
  cfg.num_kv_pairs = 4;
  cfg.seed = 9;
  zoology::Batch b = zoology::multiquery_ar(cfg);
  const auto dir = std::filesystem::temp_directory_path();
  const std::string in = (dir / "cz_mqar_in.npy").string(), lab = (dir / "cz_mqar_lab.npy").string();
  zoology::write_npy_pair(b, in, lab);
  for (const char* name : {"mqar/attention", "mqar/autocorrelation"}) {
    Report r = run_verify_npy(find_construction(name), {}, DomainOptions{}, in, lab);
    CHECK(r.instances == 30);
    CHECK(r.failed == 0);
    CHECK(r.metrics["batch_reference_label_disagreements"] == 0);
  }
  for (std::size_t p = 0; p < b.cols; ++p)
    if (b.labels[p] != -100) {
      b.labels[p] = b.labels[p] == 9 ? 10 : 9;  // a wrong label in example 0
      break;
    }
  zoology::write_npy_pair(b, in, lab);
  Report r = run_verify_npy(find_construction("mqar/attention"), {}, DomainOptions{}, in, lab);
  CHECK(r.failed == 1);
  CHECK(r.metrics["batch_reference_label_disagreements"] == 1);
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->message.find("reference disagrees") != std::string::npos);
  std::remove(in.c_str());
  std::remove(lab.c_str());
}
