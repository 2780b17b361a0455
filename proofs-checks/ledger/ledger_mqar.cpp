// The ledger, rows 17-26: MQAR by attention, Alg. 9, the dyadic algorithm and its circuits (row 20 carries a SAT proof), data-dependent convolutions.
#include "proofs-checks/ledger/ledger_rows.h"

#include <cmath>

#include "circuits/circuit_to_model.h"
#include "circuits/layout.h"
#include "constructions/mqar/dyadic_circuit.h"

namespace cz::ledger::detail {

void rows_mqar(Rows& r) {
  Ctx& cx = r.cx;
  [[maybe_unused]] const bool fast = r.fast;
  [[maybe_unused]] const std::optional<std::uint64_t>& fs = r.fs;
  auto add = [&](Entry e) { r.add(std::move(e)); };
  [[maybe_unused]] auto row = &Rows::row;
  {
    Entry e = row(17, "Zoology H.7.2", "attention solves MQAR (one-hot, d = c): O(1) layers, O(c²) params, time O(N²c + Nc²)");
    const Report& r = cx.verify("mqar/attention", {});
    e.command = Ctx::cmd("mqar/attention", {});
    e.domain = domain_of(r);
    e.evidence.push_back(verified_item(r.exit_code() == 0, e.command));
    if (r.exit_code() != 0) e.counterexample = failure_json(r, e.command);
    // One claim, one rule: O(c^2) params holds iff params are flat in n at fixed c (slope <= tol)
    // and grow at most like c^2 at fixed n (slope <= 1 + tol against c^2); O(1) layers: flat in n.
    auto [fn, fc, fl] = attention_fits(cx);
    e.data = {{"params_dense_vs_n_at_fixed_c", fn.data}, {"params_dense_vs_c2_at_fixed_n", fc.data}, {"layers_vs_n", fl.data}};
    for (const FitOut* f : {&fn, &fc, &fl}) e.evidence.push_back(f->data);
    finish(e);
    e.ours = "layers against n: slope " + slope_of(fl) + " (O(1) says <= " + std::to_string(kTol).substr(0, 4) + "); params_dense against n at c = " +
             attention_fixed_c + ": slope " + slope_of(fn) + " (O(c^2) says 0: the position masks cost O(N·c), E14); against c² at n = " +
             attention_fixed_n + ": slope " + slope_of(fc) + " (O(c^2) says <= 1)";
    e.command += "; " + sweep_cmd(attention_spec_n("params_dense")) + "; " + sweep_cmd(attention_spec_c("params_dense"));
    add(e);
  }
  {
    Entry e = row(18, "Zoology Prop H.28", "Alg. 9 solves MQAR in O(dN log N) time");
    std::vector<std::pair<double, double>> pts;
    json runs = json::array();
    bool all_correct = true;
    for (unsigned k = 3; k <= (fast ? 8u : 11u); ++k) {
      const std::size_t n = std::size_t{1} << k;
      bool ok = true;
      json r = alg9_run(n, k + 1, 1000 + k, ok);
      all_correct = all_correct && ok;
      r["correct"] = ok;
      runs.push_back(r);
      pts.emplace_back(r["shape_dNlogN"].get<double>(), r["work"].get<double>());
    }
    auto fo = fit_points(pts, FitSpec::Upper, "d·N·log2 N", "comparisons × d");
    e.evidence.push_back(counterexamples_item(all_correct ? 0 : 1, "answers against a brute-force scan"));
    e.evidence.push_back(fo.data);
    finish(e);
    fo.data["runs"] = runs;
    e.ours = "answers equal a brute-force scan on every run; work = comparisons × d, fitted against d·N·log N: slope " + slope_of(fo);
    e.data = fo.data;
    e.domain = "random MQAR instances (distinct keys, c = 2n) with n = 8.." + std::to_string(std::size_t{1} << (fast ? 8 : 11)) + " triples";
    e.command = "circuitzoo claims" + std::string(fast ? " --fast" : "") + " --json - (row 18: an ordered map with counted comparisons)";
    add(e);
  }
  // 19-24: the dyadic algorithm and its circuits.
  const PMap dyn = {{"n", "4"}, {"c", "4"}};
  const std::vector<std::string> dyvals = fast ? std::vector<std::string>{"2", "4", "8", "16", "32"} : std::vector<std::string>{"2", "4", "8", "16", "32", "64"};
  auto dyfit = [&](const std::string& q, const std::string& part, FitSpec::Kind k) {
    FitSpec f{"mqar/dyadic", {{"c", dyvals.back()}}, "n", dyvals, q, part, k, "", ""};  // c fixed: d = log2 c constant
    auto fo = cx.fit(f);
    return std::make_pair(f, fo);
  };
  {
    Entry e = row(19, "Zoology H.7.4 citing Akl–Meijer", "pbs: work O(n log m), time O(log n·log m) (EREW)");
    const Report& r = cx.verify("mqar/dyadic", {}, fs);
    auto [f, fo] = dyfit("work", "O(m log m)", FitSpec::Upper);
    e.evidence = {verified_item(r.exit_code() == 0, Ctx::cmd("mqar/dyadic", {}, fs)), fo.data};
    finish(e);
    e.data = fo.data;
    e.ours = "our top-block pbs circuit's gates (d fixed) against m·log m (n = m = N/6): slope " + fo.data.value("slope", json(nullptr)).dump() +
             " — a fixed-topology circuit compares the mid query with all m keys per call (O(m·d) per probe), so it does O(n·m) comparisons, "
             "not PRAM pbs's O(n log m); the EREW time bound is about PRAM steps, not measured (our circuit depth: row 21)";
    e.command = sweep_cmd(f);
    e.domain = "mqar/dyadic circuits, n = " + dyvals.front() + ".." + dyvals.back();
    add(e);
  }
  {
    Entry e = row(20, "Zoology Prop H.30, eq (13)", "Alg. 11: work O(Nd log²N), time O(d log²N); lines 7–17 run Σ_k (N/3)/2^{k+1} times with n = m = 2^k");
    const Report& r = cx.verify("mqar/dyadic", {}, fs);
    const auto& h = cx.prove("complexity/h30-sums");
    auto [f, fo] = dyfit("size", "O(N d log^2 N)", FitSpec::Upper);
    e.data = {{"size_fit", fo.data}, {"blocks", h.details["dyadic_blocks"]}};
    e.evidence = {verified_item(r.exit_code() == 0, Ctx::cmd("mqar/dyadic", {}, fs)), proof_item(h.holds, "complexity/h30-sums"), fo.data};
    finish(e);
    if (r.exit_code()) e.counterexample = failure_json(r, Ctx::cmd("mqar/dyadic", {}, fs));
    else if (!h.holds) e.counterexample = h.verdict;
    // Beyond enumeration (which reaches n = 4 at c <= 8): the same circuit PROVED on every instance
    // of one larger size by --method sat (issue 27). --fast keeps to a proof of well under a second
    // (n = 8, c = 16: 9.6e27 instances, by stages); the full ledger proves n = 16, c = 64 (6.4e85,
    // about 1 s by stages; one miter per query stalls there).
    const PMap satp = fast ? PMap{{"n", "8"}, {"c", "16"}} : PMap{{"n", "16"}, {"c", "64"}};
    const std::string sat_cmd = "circuitzoo verify mqar/dyadic" + params_cmd(satp) + " --method sat";
    const SatProof sp = sat_proof("mqar/dyadic", satp, sat_cmd);
    e.evidence.push_back(verified_item(sp.proved, sat_cmd));
    finish(e);
    if (!r.exit_code() && h.holds && sp.counterexample.is_object()) e.counterexample = sp.counterexample;
    e.ours = "Alg. 11 with eq (17) fixed (E1) and MSB-first prefixes verified; " + sp.text + "; block counts = n − 1 exactly (" +
             cx.prove_cmd("complexity/h30-sums") + "); circuit size against N·d·log²N: slope " +
             fo.data.value("slope", json(nullptr)).dump() + ". As published (eq 17, LSB-first) it is refuted: entries E1, E6";
    e.command = Ctx::cmd("mqar/dyadic", {}, fs) + "; " + sat_cmd + "; " + sweep_cmd(f);
    e.domain = domain_of(r) + "; " + sp.domain;
    add(e);
  }
  {
    Entry e = row(21, "Zoology H.7.5 (Lemma H.35)", "largest pbs call n = m = N/6 gives depth d·log²(N/3); sorting N/6 d-bit values has depth d·Θ(log N)");
    const auto& h = cx.prove("complexity/h30-sums");
    auto [f, fo] = dyfit("depth", "O(d log^2 N)", FitSpec::Upper);
    // Sorting depth d·Θ(log N) (AKS): our sorting networks' comparator layers against log2 n.
    std::vector<std::pair<double, double>> sp;
    for (const auto& j : h.details["sorting_depth"])
      if (j["network"] == "oddeven") sp.emplace_back(j["aks_log2_n"].get<double>(), j["comparator_layers"].get<double>());
    auto so = fit_points(sp, FitSpec::Theta, "log2 n", "comparator layers (circuit/sort network=oddeven)");
    e.data = {{"depth_fit", fo.data}, {"sorting_fit", so.data}, {"sorting", h.details["sorting_depth"]}};
    e.evidence = {proof_item(h.holds, "complexity/h30-sums"), fo.data, so.data};
    finish(e);
    e.ours = "circuit depth against d·log²N: " + (fo.status.empty() ? std::string("not enough sizes") : fo.status) + " (slope " + slope_of(fo) +
             "); sorting: Batcher networks with lg(lg+1)/2 comparator layers, against log2 n: " +
             (so.status.empty() ? std::string("not enough sizes") : so.status) + " (slope " + slope_of(so) + ", measured up to n = " +
             h.details["sorting_depth"].back()["n"].dump() + "; Θ(log n) is AKS's, not built)";
    e.command = cx.prove_cmd("complexity/h30-sums") + "; " + sweep_cmd(f);
    e.domain = "circuit/sort n = 2..64, mqar/dyadic n = " + dyvals.front() + ".." + dyvals.back();
    add(e);
  }
  {
    Entry e = row(22, "Zoology Lemma H.32", "d-bit comparator: size O(d), width O(d), depth O(log d)");
    const Report& r = cx.verify("circuit/compare", {});
    std::vector<std::string> ds = {"4", "8", "16", "32", "64", "128"};
    FitSpec fsz{"circuit/compare", {}, "d", ds, "size", "O(d)", FitSpec::Upper, "", ""};
    FitSpec fw{"circuit/compare", {}, "d", ds, "width", "O(d)", FitSpec::Upper, "", ""};
    FitSpec fd{"circuit/compare", {}, "d", ds, "depth", "O(log d)", FitSpec::Upper, "", ""};
    auto a = cx.fit(fsz), b = cx.fit(fw), c = cx.fit(fd);
    e.data = {{"size", a.data}, {"width", b.data}, {"depth", c.data}};
    e.evidence = {verified_item(r.exit_code() == 0, Ctx::cmd("circuit/compare", {})), a.data, b.data, c.data};
    finish(e);
    e.ours = "slopes: size " + a.data.value("slope", json(nullptr)).dump() + ", width " + b.data.value("slope", json(nullptr)).dump() +
             ", depth vs log d " + c.data.value("slope", json(nullptr)).dump();
    e.command = Ctx::cmd("circuit/compare", {}) + "; " + sweep_cmd(fsz);
    e.domain = domain_of(r) + "; fits over d = 4..128";
    add(e);
  }
  {
    Entry e = row(23, "Zoology Prop H.33", "pbs circuit complexity");
    e.why = "the statement of Prop H.33 is not in the sources held ([X]); our pbs circuit's costs are measured instead (row 19, and mqar/dyadic's 'work' claim)";
    e.evidence.push_back(label_item("not checkable here", e.why));
    finish(e);
    e.command = "circuitzoo stats mqar/dyadic";
    e.domain = "-";
    add(e);
  }
  {
    Entry e = row(24, "Zoology H.7.2/H.7.6", "MQAR by a data-independent BaseConv with Õ(1) layers and Õ(Nd) params");
    json pts = json::array(), params = json::array(), layers = json::array();
    std::string last;
    for (const std::string& n : fast ? std::vector<std::string>{"2", "4"} : std::vector<std::string>{"2", "4", "8"}) {
      PMap p = {{"artifact", "model"}, {"queries", "each"}, {"n", n}, {"c", n == "2" ? "2" : n}};
      const Report& r = cx.verify("mqar/dyadic", p, fast ? std::optional<std::uint64_t>(512) : std::optional<std::uint64_t>(4096));
      e.evidence.push_back(verified_item(r.exit_code() == 0, Ctx::cmd("mqar/dyadic", p, fast ? std::optional<std::uint64_t>(512) : std::optional<std::uint64_t>(4096))));
      if (r.model) {
        const double Nd = r.model->value("N", 0.0) * r.model->value("d", 0.0);
        params.push_back({{"n", n}, {"x", Nd}, {"y", r.model->value("params_dense", 0.0)}});
        layers.push_back({{"n", n}, {"x", r.model->value("N", 0.0)}, {"y", r.model->value("L", 0.0)}});
      }
      pts.push_back({{"n", n}, {"verified", r.exit_code() == 0}, {"model", r.model ? *r.model : json(nullptr)}});
      last = Ctx::cmd("mqar/dyadic", p, fast ? std::optional<std::uint64_t>(512) : std::optional<std::uint64_t>(4096));
    }
    // Õ(Nd) params: dense params against N·d; Õ(1) layers: layers against N (polylog factors
    // within the tolerance). Each fit needs 5 sizes (status.h).
    // The same models with every W a K-matrix (Def H.3; count_params_all_kmatrix), at these n and
    // over c at n = 4 (N fixed, d = log2 c grows): built only, the n-sweep's models are verified.
    json kparams = json::array(), klayers = json::array();
    const std::vector<std::string> cs = {"4", "8", "16", "32", "64"};
    for (const std::string& c : cs) {  // every size, however slow the machine (fit_sizes)
      Built b = proofs::build_construction("mqar/dyadic", {{"artifact", "model"}, {"queries", "each"}, {"n", "4"}, {"c", c}});
      if (!b.model) continue;
      const AllKmatrixCount kc = count_params_all_kmatrix(*b.model);
      klayers.push_back({{"n", "4"}, {"c", c}, {"x", std::stod(c)}, {"y", static_cast<double>(b.model->layers.size())}});
      kparams.push_back({{"n", "4"}, {"c", c}, {"x", static_cast<double>(b.model->N * b.model->d)}, {"y", static_cast<double>(kc.total)},
                         {"params_dense", count_params(*b.model).dense}, {"structured_forms", kc.structured}, {"thm3_forms", kc.thm3}});
    }
    FitOut fk = summarise_fit({{"kind", "fit"}, {"shape", "upper"}, {"tolerance", kTol}, {"points", kparams}, {"x_is", "N·d (n = 4, c varies)"},
                               {"y_is", "params with every W a K-matrix (count_params_all_kmatrix)"}});
    e.evidence.push_back(fk.data);
    FitOut fkl = summarise_fit({{"kind", "fit"}, {"shape", "constant"}, {"tolerance", kTol}, {"points", klayers}, {"x_is", "c (n = 4)"}, {"y_is", "layers"}});
    e.evidence.push_back(fkl.data);
    FitOut fp = summarise_fit({{"kind", "fit"}, {"shape", "upper"}, {"tolerance", kTol}, {"points", params}, {"x_is", "N·d"}, {"y_is", "params_dense"}});
    FitOut fl = summarise_fit({{"kind", "fit"}, {"shape", "constant"}, {"tolerance", kTol}, {"points", layers}, {"x_is", "N"}, {"y_is", "layers"}});
    // The n-sweep's built models have fewer than 5 sizes (n = 16 does not compile in budget: a
    // dense model of ~10^8 rationals): data, not evidence. The sweep over n comes from the
    // compiler's plan instead (circuit_to_model's own analysis, no weight written; equal to the
    // built model's shape and dense count wherever both run, tests/circuits test_compile):
    // the same rules as the built sizes' fits (Õ(1) layers: slope against N <= tol; Õ(Nd) params
    // against N·d), plus the polylog degree k of layers ≈ log^k N (data: any finite k is Õ(1)).
    if (fp.data.contains("slope")) e.evidence.push_back(fp.data);
    if (fl.data.contains("slope")) e.evidence.push_back(fl.data);
    json plan_models = json::array(), plan_layers = json::array(), plan_params = json::array(), plan_degree = json::array();
    for (std::size_t n : fast ? std::vector<std::size_t>{2, 4, 8, 16, 32} : std::vector<std::size_t>{2, 4, 8, 16, 32, 64}) {
      mqarc::DyadicConfig cfg;
      cfg.n = n;
      cfg.codec = mqar::make_codec(mqar::Encoding::Binary, n);
      cfg.sort_queries = false;  // queries=each: the causal circuit artifact=model compiles
      cfg.found_output = false;
      const mqarc::DyadicCircuit dc = mqarc::build_dyadic(cfg);
      const circuits::ModelPlan pl = circuits::plan_circuit_to_model(*dc.circuit, circuits::layout_for(*dc.circuit, dc.N, dc.d));
      const double N = static_cast<double>(dc.N), lgN = std::log2(N);
      plan_models.push_back({{"n", std::to_string(n)}, {"c", std::to_string(n)}, {"N", dc.N}, {"d", dc.d}, {"L", pl.layers},
                             {"inner_N", pl.inner_N}, {"inner_d", pl.inner_d}, {"params_dense", pl.params_dense}});
      plan_layers.push_back({{"n", std::to_string(n)}, {"x", N}, {"y", static_cast<double>(pl.layers)}});
      plan_degree.push_back({{"n", std::to_string(n)}, {"x", lgN}, {"y", static_cast<double>(pl.layers)}});
      plan_params.push_back({{"n", std::to_string(n)}, {"x", N * static_cast<double>(dc.d)}, {"y", static_cast<double>(pl.params_dense)}});
    }
    FitOut fpl = summarise_fit({{"kind", "fit"}, {"shape", "constant"}, {"tolerance", kTol}, {"points", plan_layers},
                                {"x_is", "N (n = c varies, binary, queries=each)"}, {"y_is", "layers of the compiler's plan"}});
    FitOut fdeg = summarise_fit({{"kind", "fit"}, {"shape", "upper"}, {"tolerance", kTol}, {"points", plan_degree},
                                 {"x_is", "log2 N"}, {"y_is", "layers of the compiler's plan (slope: the polylog degree k)"}});
    FitOut fpp = summarise_fit({{"kind", "fit"}, {"shape", "upper"}, {"tolerance", kTol}, {"points", plan_params},
                                {"x_is", "N·d (n = c varies, binary, queries=each)"}, {"y_is", "dense params of the compiler's plan"}});
    // Data, not evidence: the status rests on built, verified models (the c-sweep above decides;
    // the plan's dense params are not the claim's K-matrix count, and a second failing fit would
    // leave the status unmovable by any one measurement, tests/proofs test_ledger).
    // The compiled model itself PROVED beyond enumeration by --method sat (issue 27; per-layer
    // bounds proved by SAT keep its words at a few bits): n = 4, c = 8 (2.8e10 instances) in
    // --fast, n = 4, c = 16 (1.9e14) in the full ledger.
    const PMap satp = {{"artifact", "model"}, {"queries", "each"}, {"n", "4"}, {"c", fast ? "8" : "16"}};
    const std::string sat_cmd = "circuitzoo verify mqar/dyadic" + params_cmd(satp) + " --method sat";
    const SatProof sp = sat_proof("mqar/dyadic", satp, sat_cmd);
    e.evidence.push_back(verified_item(sp.proved, sat_cmd));
    finish(e);
    if (sp.counterexample.is_object()) e.counterexample = sp.counterexample;
    e.data = {{"models", pts}, {"params_fit", fp.data}, {"layers_fit", fl.data}, {"kmatrix_params_fit", fk.data}, {"layers_fit_c", fkl.data},
              {"planned_models", plan_models}, {"planned_layers_fit", fpl.data}, {"planned_params_fit", fpp.data}, {"planned_polylog_degree", fdeg.data}, {"sat_proof", sp.text}};
    e.ours = "our compiled data-independent models are verified, with layers " + pts[0]["model"].value("L", json(nullptr)).dump() + " → " +
             pts.back()["model"].value("L", json(nullptr)).dump() + " and dense params " + pts[0]["model"].value("params_dense", json(nullptr)).dump() +
             " → " + pts.back()["model"].value("params_dense", json(nullptr)).dump() + "; " + std::to_string(params.size()) +
             " sizes verified (a fit needs " + std::to_string(kMinSizes) + "); every W as a K-matrix, c varies at n = 4: " +
             (fk.status.empty() ? std::string("no fit (") + std::to_string(kparams.size()) + " sizes)" : fk.status + " (slope " + fk.data.value("slope", json(nullptr)).dump() + ")") +
             "; layers against c at n = 4: " + (fkl.status.empty() ? std::string("no fit") : fkl.status + " (slope " + fkl.data.value("slope", json(nullptr)).dump() + ")");
    auto fit_text = [](const FitOut& f) {
      return f.status.empty() ? std::string("no fit") : f.status + " (slope " + f.data.value("slope", json(nullptr)).dump() + ")";
    };
    e.ours += "; the compiler's plan over n = 2.." + plan_models.back()["n"].get<std::string>() + " (layers " +
              plan_models[0]["L"].dump() + " → " + plan_models.back()["L"].dump() + ", d' " + plan_models[0]["inner_d"].dump() + " → " +
              plan_models.back()["inner_d"].dump() + "): layers against N " + fit_text(fpl) + " (layers ≈ log^k N with k = " +
              fdeg.data.value("slope", json(nullptr)).dump() + ", polylog), dense params against N·d " + fit_text(fpp);
    e.ours += "; the model " + sp.text;
    e.command = last + "; " + sat_cmd;
    e.domain = "mqar/dyadic artifact=model, n = 2.." + pts.back()["n"].get<std::string>() + " (sampled); " + sp.domain;
    add(e);
  }
  // 25-26: data-dependent convolutions.
  {
    Entry e = row(25, "Zoology H.8", "data-dependent BaseConv: O(1) layers, O(t·N·c) params, inner (N·t, c), solves MQAR for t interaction distances");
    from_claims(e, cx.verify("mqar/autocorrelation", {}), Ctx::cmd("mqar/autocorrelation", {}), {{"inner_N", "N*t"}, {"inner_d", "c"}});
    PMap pp = {{"variant", "paper"}, {"conv", "cyclic"}, {"n", "2"}};
    const Report& rp = cx.verify("mqar/autocorrelation", pp);
    e.ours += "; the paper's row stacking (cyclic, as it must be) fails " + std::to_string(rp.failed) + "/" + std::to_string(rp.instances) +
              " at n = 2 (entry E2); ours: (N, 4, c, N, (2t+1)c) verified";
    // Beyond enumeration (issue 37): instance → lags → kernels → model as one circuit, proved on
    // every triples instance (n = 5, c = 6 under --fast; n = 8, c = 16, the target, else).
    add_sat_proof(e, "mqar/autocorrelation", fast ? PMap{{"n", "5"}, {"c", "6"}} : PMap{{"n", "8"}, {"c", "16"}});
    add(e);
  }
  {
    Entry e = row(26, "Zoology eq (21)–(34)", "t = 1: y = Q ⊙ shift_down(K,s), z = E ⊙ shift_down(V,s−1), E = smear(y)");
    PMap p = {{"n", "2"}};
    from_claims(e, cx.verify("mqar/autocorrelation", p), Ctx::cmd("mqar/autocorrelation", p), {});
    if (e.status == "holds") e.ours = "every n = 2 instance needs t = 1 lag; the causal t = 1 program verified";
    // Proved beyond enumeration at n = 2 (where every instance needs one lag: for n >= 3 some need
    // two, and t = 1 is refuted there, as it should be): c = 16 (1.6e7 instances) under --fast, 64.
    add_sat_proof(e, "mqar/autocorrelation", fast ? PMap{{"n", "2"}, {"c", "16"}, {"t", "1"}} : PMap{{"n", "2"}, {"c", "64"}, {"t", "1"}});
    add(e);
  }
}

}  // namespace cz::ledger::detail
