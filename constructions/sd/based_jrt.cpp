// sd/based-jrt: the Based pipeline of JRT Thm G.22 on the JRT prompt, each stage checkable on
// its own (stage=g20 | g21 | g18) and end to end (stage=all): Lemma G.20 (kernel h_shift),
// Prop G.21 (smaller set first), Prop G.18 (LinearAttention + MLP with an IP kernel:
// data-dependent, seeded random, or exponential with certified bounds). Spec §10.2-§10.3.
#include "constructions/sd/based_jrt.h"

#include "constructions/sd/kernels.h"
#include "tasks/sd_targets.h"
#include "util/error.h"

namespace cz::sdc {

std::size_t first_set_size(const sd::Instance& x, Stage stage) {
  if (stage == Stage::G18) return x.A.size();
  return sd::a_first(x) ? x.A.size() : x.B.size();
}

namespace {

nlohmann::json rows_json(const Matrix<std::int64_t>& m) {
  nlohmann::json j = nlohmann::json::array();
  for (std::size_t i = 0; i < m.rows(); ++i) j.push_back(std::vector<std::int64_t>(m.row(i), m.row(i) + m.cols()));
  return j;
}

std::optional<Failure> fail(std::string msg, const Matrix<std::int64_t>& input, nlohmann::json want, nlohmann::json got) {
  Failure f;
  f.message = std::move(msg);
  f.input = rows_json(input);
  f.expected = std::move(want);
  f.got = std::move(got);
  return f;
}

// The answer, the state's allocation and the certification, shared by stage g18 and all.
std::optional<Failure> check_answer(const sd::Instance& x, const G18Run& run, const std::vector<std::uint32_t>& common,
                                    std::size_t s, KernelKind kind, const Matrix<std::int64_t>& input) {
  const auto want = sd::intersection(x);
  if (!run.certified)
    return fail("exponential kernel: a decision is not certified by the bounds on e", input, want, common);
  if (common != want)
    return fail(common.empty() == want.empty() ? std::string("wrong intersection")
                                               : std::string("answer ") + (common.empty() ? "disjoint" : "intersect") +
                                                     ", want " + (want.empty() ? "disjoint" : "intersect"),
                input, {{"common", want}}, {{"common", common}});
  // Allocation: data-dependent entries are 0/1 counts; random ones lie in [-|S|, |S|].
  const std::int64_t cap = kind == KernelKind::Random ? static_cast<std::int64_t>(s) : 1;
  if (kind != KernelKind::Exponential && (run.state_max_abs > cap || (kind == KernelKind::DataDependent && run.state_negative)))
    return fail("attention state entry " + std::to_string(run.state_max_abs) + " exceeds its allocated range", input,
                {{"state_max_abs", cap}}, {{"state_max_abs", run.state_max_abs}});
  return std::nullopt;
}

}  // namespace

namespace {
// The verdict of one instance (the scalar check below, minus the Failure): `cache` null on the
// scalar path, on the block path the PipelineCache shared by the check's threads.
std::optional<Failure> based_verdict(const Pipeline& P, Stage stage, const sd::Instance& x, PipelineCache* cache) {
  const KernelKind kind = P.config().kernel.kind;
  if (stage == Stage::G18) {
    G18Outcome o = run_g18_alone(P, x, cache);
    return check_answer(x, o.run, o.common, x.A.size(), kind, o.u);
  }
  PipelineOutcome o = run_pipeline(P, x, stage == Stage::G20 ? 1 : stage == Stage::G21 ? 2 : 3, cache);
  const auto h = sd::h_shift(x);
  if (o.kernel != h || !o.g20_clean)
    return fail(std::string("Lemma G.20: wrong kernel h_shift") + (o.g20_clean ? "" : " (stray nonzero output)"), o.v,
                h, o.kernel);
  if (stage == Stage::G20) return std::nullopt;
  const auto want = sd::rearranged(x);
  if (!(o.window == want)) return fail("Prop G.21: wrong rearranged copy", o.v, rows_json(want), rows_json(o.window));
  if (stage == Stage::G21) return std::nullopt;
  return check_answer(x, o.run, o.common, o.S.size(), kind, o.v);
}
}  // namespace

std::optional<Failure> based_failure(const BasedArtifact& art, const sd::Instance& x) {
  return based_verdict(*art.pipeline, art.stage, x, nullptr);
}

Check based_check(const BasedArtifact& art, const SdDomain& dom) {
  auto P = art.pipeline;
  const Stage stage = art.stage;
  auto cache = std::make_shared<PipelineCache>();  // one per check: each model is built once, not once per thread
  Check c = instance_check(
      dom, [P, stage](const sd::Instance& x) { return based_verdict(*P, stage, x, nullptr); },
      [P, stage, cache]() -> SdFails {
        return [P, stage, cache](const sd::Instance& x) { return based_verdict(*P, stage, x, cache.get()).has_value(); };
      });
  c.block_kind = "shared model caches (G.21 shift per kernel, G.18 per first set), checked int64";
  return c;
}

namespace {

Built build(const Params& p) {
  const unsigned n = static_cast<unsigned>(p.u("n"));
  PipelineConfig cfg;
  cfg.n = n;
  cfg.layout = p.s("conv") == "anticausal" ? Layout::Top : Layout::Bottom;
  const std::string& kn = p.s("kernel");
  cfg.kernel.kind = kn == "dd" ? KernelKind::DataDependent : kn == "random" ? KernelKind::Random : KernelKind::Exponential;
  cfg.kernel.seed = static_cast<std::uint64_t>(p.i("kseed"));
  BasedArtifact art;
  const std::string& st = p.s("stage");
  art.stage = st == "all" ? Stage::All : st == "g20" ? Stage::G20 : st == "g21" ? Stage::G21 : Stage::G18;
  cfg.g18_alone = art.stage == Stage::G18;
  if (cfg.kernel.kind == KernelKind::Random && n > 8)
    throw InputError("the random kernel enumerates {0,1}^n; use n <= 8", "-p n=" + p.s("n"));

  // The largest first set on the default domain fixes the auto-tuned f (random) and r (exp).
  SdDomain dom = metric_domain(p);
  std::size_t s_max = 0;
  for (std::uint64_t k = 0; k < dom.count; ++k) s_max = std::max(s_max, first_set_size(dom.instance(k), art.stage));
  if (cfg.kernel.kind == KernelKind::Random) {
    cfg.kernel.f = p.u("f");
    if (cfg.kernel.f == 0) {
      auto f = random_f_for_eps(cfg.kernel.seed, n, std::max<std::size_t>(s_max, 1), std::size_t(1) << 16);
      if (!f) throw InputError("no f <= 65536 reaches epsilon <= 1/(3|A|); give -p f=...", "-p f=0");
      cfg.kernel.f = *f;
    }
  }
  if (cfg.kernel.kind == KernelKind::Exponential) {
    cfg.kernel.r = p.u("r") ? p.u("r") : exp_r_for_eps(std::max<std::size_t>(s_max, 1));
  }
  art.pipeline = std::make_shared<const Pipeline>(cfg);
  Built b;
  based_measure(p, art, b);
  b.state = std::make_shared<const BasedArtifact>(art);
  return b;
}

// --method sat: the proof routes this artifact takes (app/engine/sat/sat_routes.h).
const bool routes_registered = register_routes("sd/based-jrt", {"sat:based-circuit"});
const bool registered = register_construction({
    "sd/based-jrt", "sd",
    "JRT Thm G.22: Based (BaseConv + MLP + LinearAttention + MLP) solves SD on the JRT prompt; stages G.20/G.21/G.18",
    [] {
      auto p = sd_domain_params(2, "subsets");
      p.push_back(choice_param("stage", "all", {"all", "g20", "g21", "g18"},
                               "all: end to end; g20: kernel h_shift; g21: rearranged copy; g18: attention on u (A first)"));
      p.push_back(choice_param("kernel", "dd", {"dd", "random", "exp"},
                               "G.18 IP kernel: data-dependent (eq 19), seeded random +-1 (eq 20), exponential"));
      p.push_back(choice_param("conv", "anticausal", {"anticausal", "causal"},
                               "G.21 shift: anticausal puts the smaller set on top (paper); causal puts it in rows [N,2N)"));
      p.push_back(int_param("f", 0, 0, 1 << 16, "random kernel: feature dimension (0: smallest with epsilon <= 1/(3|A|))"));
      p.push_back(int_param("kseed", 1, 0, 1 << 30, "random kernel: seed"));
      p.push_back(int_param("r", 0, 0, 64, "exponential kernel: code repetitions (0: smallest with e^-2r <= 1/(3|A|))"));
      return p;
    }(),
    build,
    [](const Params& p, const Built& b, const DomainOptions& o) {
      return based_check(*std::static_pointer_cast<const BasedArtifact>(b.state), make_sd_domain(p, o));
    }});

}  // namespace
}  // namespace cz::sdc
