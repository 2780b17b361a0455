// The ledger, errata with a computed verdict: the paper's statement refuted, the fix beside.
#include "proofs-checks/ledger/ledger_rows.h"

namespace cz::ledger::detail {

void rows_errata(Rows& r) {
  Ctx& cx = r.cx;
  [[maybe_unused]] const bool fast = r.fast;
  [[maybe_unused]] const std::optional<std::uint64_t>& fs = r.fs;
  auto add = [&](Entry e) { r.add(std::move(e)); };
  [[maybe_unused]] auto row = &Rows::row;
  // --- Errata with a computed verdict (refuted paper statements; the fix beside).
  auto erratum = [&](std::string id, std::string source, std::string statement, const std::string& name, const PMap& p,
                     std::optional<std::uint64_t> samples, std::string fix) {
    Entry e;
    e.id = std::move(id);
    e.source = std::move(source);
    e.statement = std::move(statement);
    const Report& r = cx.verify(name, p, samples);
    e.command = Ctx::cmd(name, p, samples);
    e.domain = domain_of(r);
    e.evidence.push_back(counterexamples_item(r.failed, e.command));
    if (r.failed > 0) e.counterexample = failure_json(r, e.command);
    finish(e);
    e.ours = std::move(fix);
    add(e);
  };
  erratum("E1", "Zoology eq (17)", "pbs halves combined as ℓx·x + z_s·C1[i] and g_y·(y+1) + z_t·C2[i] (0 = dead branch)", "mqar/dyadic",
          {{"variant", "paper"}}, fs, "fix: liveness bits, ℓx·x + (1−ℓx)·C1[i] and g_y·(y+1) + (1−g_y)·C2[i] (variant=fixed, row 20)");
  erratum("E2", "Zoology H.8 (general t)", "row stacking of t kernel blocks (cyclic, printed offsets (ℓ−1)·N/3)", "mqar/autocorrelation",
          {{"variant", "paper"}, {"conv", "cyclic"}, {"n", "2"}}, std::nullopt, "fix: channel stacking, causal (N, 4, c, N, (2t+1)c) (variant=fixed, row 25)");
  erratum("E6", "Zoology Alg. 11 / dec", "dyadic prefixes of bin(i) read LSB-first (dec's convention)", "mqar/dyadic", {{"prefix", "lsb"}}, fs,
          "fix: MSB-first prefixes (prefix=msb)");
  {
    Entry e;
    e.id = "E8";
    e.source = "JRT Alg. 3 line 8";
    e.statement = "the threshold isep ≤ ⌊N/2⌋ stores the smaller set (state n·min(|A|,|B|))";
    PMap p = {{"variant", "paper"}, {"n", "1"}};
    const Report& r = cx.verify("sd/recurrent-jrt", p);
    e.command = Ctx::cmd("sd/recurrent-jrt", p);
    e.domain = domain_of(r);
    const long over = r.metrics.value("set_bits_minus_n_min", 0L);
    e.evidence.push_back(counterexamples_item(over > 0 ? static_cast<std::uint64_t>(r.metrics.value("instances_over_n_min", 1L)) : 0,
                                              "instances storing more than n·min bits"));
    finish(e);
    if (over > 0)
      e.counterexample = {{"instance", {{"n", 1}, {"A", json::array({0})}, {"B", json::array()}}},
                          {"message", "N = |A|+|B|+1 = 2, isep = 1 ≤ ⌊N/2⌋ = 1: Alg. 3 stores A (1 element) while min(|A|,|B|) = 0"},
                          {"instances_over_n_min", r.metrics.value("instances_over_n_min", json(nullptr))},
                          {"metric_instances", r.metrics.value("metric_instances", json(nullptr))}, {"command", e.command}};
    e.ours = "fix: smallFirst = (2·isep ≤ N−1), i.e. |A| ≤ |B| (variant=fixed): stored bits = n·min exactly (row 27)";
    add(e);
  }
  erratum("E10", "JRT Prop G.8 (as decoded)", "EQ(u1,u2) = 1 iff some query of the 4-triple JRT prompt finds a match", "eq/via-mqar",
          {{"decode", "any"}, {"c", "4"}}, std::nullopt, "fix: read the answer at query 1 (decode=q1, row 38)");
  {
    Entry e;
    e.id = "E12";
    e.source = "Zoology Alg. 11 + Remark H.29";
    e.statement = "Alg. 11 with each block's queries sorted compiles to a causal BaseConv";
    e.command = "circuitzoo stats mqar/dyadic -p artifact=model -p n=4 -p c=4 -p queries=sorted";
    e.domain = "n = 4, c = 4";
    std::uint64_t refusals = 0;
    try {
      proofs::build_construction("mqar/dyadic", {{"artifact", "model"}, {"n", "4"}, {"c", "4"}, {"queries", "sorted"}});
    } catch (const std::exception& ex) {
      refusals = 1;
      e.counterexample = {{"message", ex.what()}, {"command", e.command}};
    }
    e.evidence.push_back(counterexamples_item(refusals, "the compiler's causality refusal"));
    finish(e);
    e.ours = "fix: search each query alone (queries=each): verified (row 24)";
    add(e);
  }

}

}  // namespace cz::ledger::detail
