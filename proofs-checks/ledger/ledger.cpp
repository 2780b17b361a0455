// The ledger's rows (ledger.h). Each row names what it rests on (a construction's verification,
// a prove check, a fit over sizes) and turns that into a status; nothing here re-derives a
// construction's answer.
#include "proofs-checks/ledger/ledger.h"

#include "proofs-checks/ledger/ledger_rules.h"
#include "model/kmatrix_projection.h"

namespace cz::ledger {
using namespace detail;

std::vector<Entry> build_ledger(const Options& o) {
  Ctx cx{o, {}, {}, {}};
  const bool fast = o.fast;
  std::vector<Entry> L;
  auto add = [&](Entry e) {
    finish(e);  // the status is decide(evidence), whatever the row did before
    if (o.progress) *o.progress << "  " << e.id << ": " << e.status << "\n";
    L.push_back(std::move(e));
  };
  auto row = [](int n, std::string source, std::string statement) {
    Entry e;
    e.row = n;
    e.id = "row " + std::to_string(n);
    e.source = std::move(source);
    e.statement = std::move(statement);
    return e;
  };
  const std::optional<std::uint64_t> fs = fast ? std::optional<std::uint64_t>(4096) : std::nullopt;  // big domains in fast mode

  // 1-3: definitions.
  {
    Entry e = row(1, "JRT Def G.1 (cites Zoology); Zoology Alg. 7", "BaseConv y = (uW+b1) ⊙ (h*u+b2); conv along the sequence axis, per channel");
    from_proof(e, cx, "definitions/baseconv");
    add(e);
    e = row(2, "Zoology H.1.1", "* = linear/acyclic conv mod X^N (causal); ⊛ = cyclic mod X^N−1");
    from_proof(e, cx, "definitions/baseconv");
    const auto& c = cx.prove("causality/lemma");
    e.evidence.push_back(proof_item(c.holds, "causality/lemma"));
    if (!c.holds) e.counterexample = c.details.value("counterexample", json(c.verdict));
    e.ours += "; causality: " + c.verdict;
    finish(e);
    add(e);
    e = row(3, "Zoology Def H.2; JRT Def G.2", "5-tuple (N,L,d,N',d'); top-left embed/extract");
    from_proof(e, cx, "definitions/baseconv");
    add(e);
  }
  {
    // Def H.3 restricts the theory's projections to K-matrices: the forms exist (Dao Thm 2 and 3,
    // built and expanded exactly), a K-matrix on vec(u) is a BaseConv (the lemma, spec §14.2), and
    // the projections of the construction that realises Thm H.21 with K-matrices (the cyclic
    // compiler's routing maps) cost Õ(m): the largest map's stored entries against n̂·log2(2n̂)
    // over two sweeps. (Learned dense W's are not Õ(m) K-matrices: counting; Remark H.4.)
    Entry e = row(4, "Zoology Def H.3, Remark H.4", "theory projections are K-matrices with Õ(m) params; dense in experiments");
    std::string ours;
    for (const std::string chk : {"kmatrix/dao-thm2", "kmatrix/dao-thm3", "kmatrix/lemma"}) {
      const auto& r = cx.prove(chk);
      e.evidence.push_back(proof_item(r.holds, chk));
      if (!r.holds && e.counterexample.is_null()) e.counterexample = r.details.value("counterexample", json(r.verdict));
      ours += chk + ": " + r.verdict + "; ";
    }
    json fits = json::object();
    // --fast: small sizes only (the compiled cyclic models hold N'×d' rationals per layer).
    const std::vector<std::string> pp = fast ? std::vector<std::string>{"2", "3", "4", "5", "6"} : std::vector<std::string>{"2", "4", "6", "8", "12", "16"};
    for (const auto& [src, var, vals] : {std::tuple<std::string, std::string, std::vector<std::string>>{"prefix-product", "N", pp}}) {
      FitSpec f{"circuit/to-model", {{"compiler", "cyclic"}, {"source", src}}, var, vals, "", "", FitSpec::Upper, "largest_map_kmatrix_params", "largest_map_m_log_m"};
      auto fo = cx.fit(f, fast ? 4 : 30);
      fits[src] = fo.data;
      e.evidence.push_back(fo.data);
      ours += "routing K-matrix params vs n̂·log2(2n̂) (" + src + ", " + var + " varies): " + (fo.status.empty() ? std::string("no fit") : fo.status + " (slope " + slope_of(fo) + ")") + "; ";
    }
    e.data = {{"fits", fits}};
    finish(e);
    e.ours = ours + "constructions' structured W's get K-matrix forms in `stats` (params_kmatrix)";
    e.command = "circuitzoo prove kmatrix/lemma; circuitzoo sweep circuit/to-model --vary N=2,4,6,8,12,16 -p compiler=cyclic -p source=prefix-product";
    // (compare's routing maps are fitted by row 15's sweep; one sweep here keeps claims --fast short)
    e.domain = "Dao Thm 2/3 and the K-matrix lemma as proved; routing maps of the cyclic compiler at the swept sizes";
    add(e);
  }
  {
    Entry e = row(5, "Based Lemma 5.1 (via JRT)", "an L-layer BaseConv computes a polynomial of degree ≤ 2^L");
    from_proof(e, cx, "degree/lemma-5.1");
    add(e);
    e = row(6, "Based Lemma 5.2", "MQAR (binary, d = log2 c) polynomial has degree ≥ 2d");
    from_proof(e, cx, "degree/lower-bounds");
    add(e);
    e = row(7, "Based Thm F.5; JRT Thm G.7", "data-independent BaseConv needs log(2d) layers for MQAR, d = log2 c");
    from_proof(e, cx, "degree/lower-bounds");
    const auto& pr = cx.prove("degree/lower-bounds");
    e.ours = "lower bound ceil(log2(2d)) from degree 2d (rows 5, 6); our data-independent mqar/dyadic model (binary, c = 4, d = 2) uses " +
             pr.details["our_layers"][0]["layers"].dump() + " layers >= 2";
    add(e);
    e = row(8, "Based Thm F.6 / 'Prop F.5'; JRT Def G.10, Thm G.11", "p-hot MQAR needs ⌊log(2p)⌋ layers; EQ degree ≥ 2p; d = p·c^{1/p}");
    from_proof(e, cx, "degree/lower-bounds");
    e.ours = "minimal degree of p-hot EQ = 2p exactly (explicit product + dual certificate) for " +
             std::to_string(pr.details["eq_phot"].size()) + " (p, base) pairs; our p-hot dyadic model (p = 2) uses " +
             pr.details["our_layers"][1]["layers"].dump() + " layers >= 2";
    add(e);
  }
  {
    Entry e = row(9, "Based Thm F.4; JRT Thm G.6", "AR needs Ω(ε log log N) layers (log c ≤ d ≤ 2^{(log N)^{1−ε}}, c ≤ N, O(log N)-bit params)");
    e.why = "an asymptotic lower bound over all models with O(log N)-bit parameters: the proof's counting (coefficients up to (2^{O(log N)}·2^{Nd})^{2^L}) has unspecified constants and ε, so no finite N decides it; the degree facts it rests on hold (rows 5, 6)";
    e.evidence.push_back(label_item("not checkable here", e.why));
    finish(e);
    e.command = cx.prove_cmd("degree/lemma-5.1");
    e.domain = "-";
    add(e);
  }
  // 10-13: primitives.
  {
    Entry e = row(10, "Based Prop F.38 via JRT L.G.20", "shift_down: (N,3,d,N,d)-BaseConv");
    PMap p;
    from_claims(e, cx.verify("primitive/shift_down", p), Ctx::cmd("primitive/shift_down", p), {{"layers", "3"}, {"inner_N", "N"}, {"inner_d", "d"}});
    add(e);
  }
  {
    Entry e = row(11, "Zoology 'Prop C.5' via JRT P.G.21", "shift_up: 3 BaseConv layers (with the causal * of row 2)");
    PMap pc = {{"conv", "causal"}, {"N", "4"}, {"d", "1"}, {"s", "1"}};
    const Report& rc = cx.verify("primitive/shift_up", pc);
    const Report& ry = cx.verify("primitive/shift_up", {});
    e.command = Ctx::cmd("primitive/shift_up", pc);
    e.domain = domain_of(rc) + "; any depth: causality lemma";
    e.evidence.push_back(counterexamples_item(rc.failed, e.command));
    if (rc.failed > 0) {
      e.counterexample = failure_json(rc, e.command);
      e.ours = "no causal BaseConv of any depth shifts up (causality lemma, prove causality/lemma); cyclic/anticausal: 1 layer (" +
               std::string(ry.exit_code() == 0 ? "verified" : "FAILED") + ", " + Ctx::cmd("primitive/shift_up", {}) + ")";
    }
    finish(e);
    add(e);
  }
  {
    Entry e = row(12, "Based Prop F.41 via JRT", "cumulative sum: (N,O(1),d,N,d)");
    const Report& r = cx.verify("primitive/cumsum", {});
    from_claims(e, r, Ctx::cmd("primitive/cumsum", {}), {});
    if (e.status == "holds") e.ours = "1 layer, inner dims (N, d)";
    add(e);
  }
  {
    Entry e = row(13, "Based Def F.15/Prop F.13 via JRT L.G.20, P.G.21", "remember(u,s,t,f): 8 layers, inner = outer dims");
    from_claims(e, cx.verify("primitive/remember", {}), Ctx::cmd("primitive/remember", {}), {{"layers", "8"}, {"inner_N", "N"}, {"inner_d", "d"}});
    add(e);
  }
  {
    Entry e = row(14, "Based via JRT L.G.20", "stacking layers with equal inner dims adds the layer counts: (N,L1,d,N',d') then (N,L2,d,N',d') is an (N,L1+L2,d,N',d') model computing the composition");
    from_proof(e, cx, "stacking/layers-add");
    add(e);
  }
  {
    // Theorem H.21 is an existence claim: the cyclic compiler (K-matrix routing, d' = d) decides
    // the row; the causal compiler's d' is reported beside it (data, not evidence).
    Entry e = row(15, "Zoology Thm H.21", "arithmetic (nd,s,Δ,w)-circuit → (N, O(Δ log w), d, O(w), d)-BaseConv");
    // --fast verifies the one-gate lookahead circuit (sampled) and sweeps prefix-product only.
    const std::vector<std::string> pp = fast ? std::vector<std::string>{"2", "3", "4", "5", "6"} : std::vector<std::string>{"2", "4", "6", "8", "12", "16"};
    const PMap cyc = fast ? PMap{{"compiler", "cyclic"}, {"source", "lookahead"}} : PMap{{"compiler", "cyclic"}};
    const Report& rc = cx.verify("circuit/to-model", cyc, fast ? std::optional<std::uint64_t>(512) : std::nullopt);
    from_claims(e, rc, Ctx::cmd("circuit/to-model", cyc, fast ? std::optional<std::uint64_t>(512) : std::nullopt), {{"inner_d", "d"}});
    json fits = json::object();
    std::string fit_text;
    // Δ and w grow together along prefix-product N (Sklansky) and compare D (Lemma H.32).
    std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> sweeps = {{"prefix-product", "N", pp}};
    if (!fast) sweeps.push_back({"compare", "D", {"1", "2", "3", "4", "5"}});
    for (const auto& [src, var, vals] : sweeps) {
      for (const auto& [q, shape] : {std::pair<std::string, std::string>{"layers", "O(Δ"}, {"inner_N", "O(w)"}}) {
        FitSpec f{"circuit/to-model", {{"compiler", "cyclic"}, {"source", src}}, var, vals, q, shape, FitSpec::Upper, "", ""};
        auto fo = cx.fit(f, fast ? 8 : 60);
        fits[src + " " + q] = fo.data;
        e.evidence.push_back(fo.data);
        fit_text += "; " + q + " (" + src + ", " + var + " varies): " + (fo.status.empty() ? std::string("no fit") : fo.status + " (slope " + slope_of(fo) + ")");
      }
    }
    const Report& rk = cx.verify("circuit/to-model", {});
    auto dims = [](const Report& r) { return r.model ? json{{"d", r.model->value("d", json(nullptr))}, {"inner_d", r.model->value("inner_d", json(nullptr))}} : json(nullptr); };
    e.data = {{"fits", fits}, {"d_prime", {{"cyclic", dims(rc)}, {"causal", dims(rk)}}}, {"causal_command", Ctx::cmd("circuit/to-model", {})}};
    finish(e);
    e.ours += fit_text + "; d' against d: cyclic " + dims(rc).dump() + ", causal " + dims(rk).dump() +
              " (the causal compiler keeps wires in channels and cannot look ahead: source=lookahead is refused)";
    add(e);
  }
  {
    Entry e = row(16, "Zoology H.5–H.6; JRT §3.1", "Hyena/H3/RWKV/RetNet simulated by BaseConv with poly-log blowup in depth and params");
    // Evidence (issue 28): each architecture's BaseConv simulation verified exactly against the
    // architecture's own evaluation (constructions/sim/), RWKV's ratio claim (the WKV division is
    // not a polynomial, so only numerator and denominator are simulated), and per architecture
    // three fits over a swept size: layers against Õ(L) (Hyena varies L = k; the others have a
    // fixed L, so the layer count must stay constant), inner width against the gated
    // convolution's d', and nonzero BaseConv parameters against the architecture's parameters
    // (nonzero, not dense: the theorem's projections are K-matrices, Def H.3; dense W would
    // count d'² per layer).
    struct Arch {
      std::string name;
      PMap fixed;
      std::string vary;
      std::vector<std::string> values;
      std::string L_part, params_metric;
    };
    // Hyena in its narrow layout (u carried, each p^ℓ made before its gate: width 3d, Θ(N·d + d²)
    // weights per layer); the wide layout's nonzero weights grow like k² and are shown beside it.
    const std::vector<Arch> zoo = {{"sim/hyena", {{"d", "2"}, {"layout", "narrow"}}, "order", {"1", "2", "3", "4", "6", "8"}, "Õ(L), L = k", "hyena_params"},
                                   {"sim/h3", {}, "d", {"1", "2", "3", "4", "6", "8"}, "Õ(L)", "h3_params"},
                                   {"sim/retnet", {}, "dv", {"1", "2", "4", "8", "16", "32"}, "Õ(L)", "retnet_params"},
                                   {"sim/rwkv", {{"ratio_degree", "8"}}, "d", {"1", "2", "3", "4", "6", "8"}, "Õ(L)", "rwkv_params"}};
    json data = json::object();
    std::string cmds, ours;
    for (const Arch& a : zoo) {
      const Report& r = cx.verify(a.name, {}, fs);
      const std::string vcmd = Ctx::cmd(a.name, {}, fs);
      e.evidence.push_back(verified_item(r.exit_code() == 0, vcmd));
      if (r.exit_code() != 0 && e.counterexample.is_null()) e.counterexample = failure_json(r, vcmd);
      for (const auto& c : r.claims)
        if (c.quantity == "ratio_polynomial_fits") e.evidence.push_back(claim_evidence(r, c));
      const bool fixed_L = a.name != "sim/hyena";
      const FitSpec fl{a.name, a.fixed, a.vary, a.values, "layers", a.L_part, fixed_L ? FitSpec::Constant : FitSpec::Upper, "", ""};
      const FitSpec fw{a.name, a.fixed, a.vary, a.values, "inner_d", "Õ(d')", FitSpec::Upper, "", ""};
      const FitSpec fp{a.name, a.fixed, a.vary, a.values, "", "", FitSpec::Upper, "baseconv_params_nonzero", a.params_metric};
      json ad = {{"verify", vcmd}, {"domain", domain_of(r)}};
      std::string line = a.name.substr(4) + ":";
      const std::vector<std::pair<std::string, const FitSpec*>> specs = {{"layers", &fl}, {"inner_d", &fw}, {"params_nonzero", &fp}};
      for (const auto& [what, f] : specs) {
        const FitOut& fo = cx.fit(*f, fast ? 3 : 30);
        e.evidence.push_back(fo.data);
        ad[what] = fo.data;
        line += " " + what + " slope " + slope_of(fo) + (fo.status.empty() ? " (not enough sizes)" : "");
        cmds += "; " + sweep_cmd(*f);
      }
      if (r.model) line += " (tuple at defaults: L " + (*r.model)["L"].dump() + ", d' " + (*r.model)["inner_d"].dump() + ")";
      data[a.name] = ad;
      ours += (ours.empty() ? "" : "; ") + line;
    }
    const FitSpec fwide{"sim/hyena", {{"d", "2"}, {"layout", "wide"}}, "order", {"1", "2", "3", "4", "6", "8"}, "", "", FitSpec::Upper,
                        "baseconv_params_nonzero", "hyena_params"};
    const FitOut& fwo = cx.fit(fwide, fast ? 3 : 30);
    data["hyena_wide_params_nonzero"] = fwo.data;
    // RetNet's width against its projection width H·(2dk + dv) instead of the gated form's
    // H·dk·dv: shown, not decided (spec §3 reads RetNet as a gated convolution of width O(d²)).
    const FitSpec fr{"sim/retnet", {{"dk", "4"}}, "dv", {"1", "2", "4", "8", "16", "32"}, "", "", FitSpec::Upper, "gated_conv_width", "projection_width"};
    const FitOut& fro = cx.fit(fr, fast ? 3 : 30);
    data["retnet_gated_width_vs_projection_width"] = fro.data;
    e.data = data;
    finish(e);
    e.ours = ours + ". RWKV: numerator and denominator only (exp(k) supplied; the ratio is not a polynomial: claim ratio_polynomial_fits). "
             "RetNet's gated width H·dk·dv against its projection width H·(2dk+dv), dv varies at dk = 4: slope " + slope_of(fro) +
             " (the O(d²) of spec §3: Õ(d') holds only against the gated-convolution d'). Hyena's wide layout (k+2 layers, width (k+1)d): "
             "nonzero params against Hyena's, order varies: slope " + slope_of(fwo) + " (every p^ℓ carried through every gate)";
    e.command = "circuitzoo verify sim/hyena|sim/h3|sim/retnet|sim/rwkv" + std::string(fs ? " --samples " + std::to_string(*fs) : "") + cmds;
    e.domain = "each simulation at its defaults against the architecture's own evaluation; fits over 6 sizes each";
    add(e);
  }
  {
    Entry e = row(17, "Zoology H.7.2", "attention solves MQAR (one-hot, d = c): O(1) layers, O(c²) params, time O(N²c + Nc²)");
    const Report& r = cx.verify("mqar/attention", {});
    e.command = Ctx::cmd("mqar/attention", {});
    e.domain = domain_of(r);
    e.evidence.push_back(verified_item(r.exit_code() == 0, e.command));
    if (r.exit_code() != 0) e.counterexample = failure_json(r, e.command);
    // One claim, one rule: O(c^2) params holds iff params are flat in n at fixed c (slope <= tol)
    // and grow at most like c^2 at fixed n (slope <= 1 + tol against c^2); O(1) layers: flat in n.
    auto [fn, fc, fl] = attention_fits(cx, fast ? 3 : 30);
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
    auto fo = cx.fit(f, fast ? 4 : 60);
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
             " — a fixed-topology circuit compares the mid query with all m keys per call (spec §7.5: O(m·d) per probe), so it does O(n·m) comparisons, "
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
    // of one larger size by --method sat (issue 27). --fast keeps to a proof of about a second
    // (n = 4, c = 16: 1.9e14 instances); the full ledger proves n = 8, c = 16 (9.6e27).
    const PMap satp = fast ? PMap{{"n", "4"}, {"c", "16"}} : PMap{{"n", "8"}, {"c", "16"}};
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
    auto a = cx.fit(fsz, 10), b = cx.fit(fw, 10), c = cx.fit(fd, 10);
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
    const auto tk = std::chrono::steady_clock::now();
    for (const std::string& c : cs) {
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - tk).count() > (fast ? 4.0 : 60.0)) break;
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
    // The n-sweep's fits have fewer than 5 sizes (n = 16 does not compile): data, not evidence
    // (the c-sweep decides; a status never rests on a fit without its 5 sizes).
    if (fp.data.contains("slope")) e.evidence.push_back(fp.data);
    if (fl.data.contains("slope")) e.evidence.push_back(fl.data);
    finish(e);
    e.data = {{"models", pts}, {"params_fit", fp.data}, {"layers_fit", fl.data}, {"kmatrix_params_fit", fk.data}, {"layers_fit_c", fkl.data}};
    e.ours = "our compiled data-independent models are verified, with layers " + pts[0]["model"].value("L", json(nullptr)).dump() + " → " +
             pts.back()["model"].value("L", json(nullptr)).dump() + " and dense params " + pts[0]["model"].value("params_dense", json(nullptr)).dump() +
             " → " + pts.back()["model"].value("params_dense", json(nullptr)).dump() + "; " + std::to_string(params.size()) +
             " sizes compile within the budget (a fit needs " + std::to_string(kMinSizes) + "); every W as a K-matrix, c varies at n = 4: " +
             (fk.status.empty() ? std::string("no fit (") + std::to_string(kparams.size()) + " sizes)" : fk.status + " (slope " + fk.data.value("slope", json(nullptr)).dump() + ")") +
             "; layers against c at n = 4: " + (fkl.status.empty() ? std::string("no fit") : fkl.status + " (slope " + fkl.data.value("slope", json(nullptr)).dump() + ")");
    e.command = last;
    e.domain = "mqar/dyadic artifact=model, n = 2.." + pts.back()["n"].get<std::string>() + " (sampled)";
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
    add(e);
  }
  {
    Entry e = row(26, "Zoology eq (21)–(34)", "t = 1: y = Q ⊙ shift_down(K,s), z = E ⊙ shift_down(V,s−1), E = smear(y)");
    PMap p = {{"n", "2"}};
    from_claims(e, cx.verify("mqar/autocorrelation", p), Ctx::cmd("mqar/autocorrelation", p), {});
    if (e.status == "holds") e.ours = "every n = 2 instance needs t = 1 lag; the causal t = 1 program verified";
    add(e);
  }
  // 27-38: SD, GAR, lower bounds.
  {
    Entry e = row(27, "JRT Thm G.15, Alg. 3", "recurrent model solves SD on a JRT prompt with state O(n·min(|A|,|B|))");
    const Report& r = cx.verify("sd/recurrent-jrt", {{"n", "3"}});
    e.command = Ctx::cmd("sd/recurrent-jrt", {{"n", "3"}});
    e.domain = domain_of(r);
    // Stored set bits − n·min(|A|,|B|), maximised over the domain: exactly 0 is the claim.
    e.evidence = {verified_item(r.exit_code() == 0, e.command),
                  claim_item("set_bits_minus_n_min", r.metrics.value("set_bits_minus_n_min", json(nullptr)), 0, "exact")};
    finish(e);
    if (r.exit_code()) e.counterexample = failure_json(r, e.command);
    else {
      e.ours = "answers verified; stored set bits = n·min(|A|,|B|) exactly (+" + r.metrics.value("register_bits", json(nullptr)).dump() +
               " register bits) with the threshold |A| ≤ |B|; the published threshold stores one extra element (entry E8); lower bounds beside: prove state/sd-lower-bounds";
    }
    add(e);
  }
  {
    Entry e = row(28, "JRT Prop G.18", "LinearAttention+MLP with an IP kernel, ε = 1/(3|A|), state O(df), solves SD when the smaller set comes first");
    PMap p = {{"stage", "g18"}};
    from_claims(e, cx.verify("sd/based-jrt", p), Ctx::cmd("sd/based-jrt", p), {{"eps", "1/(3|A|)"}, {"f", "|A|"}});
    add(e);
  }
  {
    Entry e = row(29, "JRT G.3.2 (eq 19)", "data-dependent IP kernel: f = |A| + log2 c, ε = 0");
    const Report& r = cx.verify("sd/based-jrt", {});
    from_claims(e, r, Ctx::cmd("sd/based-jrt", {}), {{"g18.f", "|A|"}});
    // eq 19 says epsilon = 0 exactly: the measured epsilon of the built kernel (metrics eps)
    e.evidence.push_back(claim_item("eps", r.metrics.value("eps", json(nullptr)), 0, "exact"));
    e.ours += "; eps " + r.metrics.value("eps", json(nullptr)).dump() + " measured on the built kernel (claimed 0)";
    add(e);
  }
  {
    Entry e = row(30, "JRT G.3.2 (eq 20)", "random kernel: f = Θ(min(|A|,|B|)² log c), t = O(√log c)");
    PMap p = {{"kernel", "random"}};
    from_claims(e, cx.verify("sd/based-jrt", p), Ctx::cmd("sd/based-jrt", p), {});
    e.ours = "verified with f from the ε ≤ 1/(3|A|) rule; the rule is loose (E15: at n = 3 it gives f = 4,630 where f = 70 suffices)";
    add(e);
  }
  {
    Entry e = row(31, "JRT Lemma G.20", "h_shift via (2N, O(1), n+1, 2N+N/2, n+1)-BaseConv; h = X^0 or X^{|A|+1}");
    PMap p;
    from_claims(e, cx.verify("sd/based-jrt", p), Ctx::cmd("sd/based-jrt", p), {{"g20.inner_N", "2N"}, {"g20.inner_d", "n+1"}});
    e.note = "h_shift[j] is read at row N−1+j: no causal model writes h_shift[0] at row 0 (E11)";
    add(e);
  }
  {
    Entry e = row(32, "JRT Prop G.21", "O(1) input-dependent BaseConv layers put the smaller set first (8-layer remember + 3-layer shift_up)");
    PMap p;
    from_claims(e, cx.verify("sd/based-jrt", p), Ctx::cmd("sd/based-jrt", p), {{"g21.layers", "8+3"}});
    e.note = "needs conv=anticausal for the move up: f: (A,s) ↦ (s,A) has no causal BaseConv (causality lemma)";
    add(e);
  }
  {
    Entry e = row(33, "JRT Thm G.22, Remark G.23", "Based solves SD from a JRT prompt in space O(min(|A|,|B|)·n); random kernels give O(min²·n)");
    const Report& r = cx.verify("sd/based-jrt", {});
    e.command = Ctx::cmd("sd/based-jrt", {});
    e.domain = domain_of(r);
    const FitSpec f = sd_state_spec_min("sd/based-jrt");
    const FitOut& fo = cx.fit(f, fast ? 6 : 60);
    e.data = fo.data;
    e.evidence = {verified_item(r.exit_code() == 0, e.command), fo.data};
    finish(e);
    if (r.exit_code()) e.counterexample = failure_json(r, e.command);
    e.ours = "verified; state_bits against min·n (|A| = 1..6, |B| = 6, n = 3): slope " + slope_of(fo);
    e.command += "; " + sweep_cmd(f);
    add(e);
  }
  {
    Entry e = row(34, "JRT Props G.25, G.26", "SD → GAR; GAR by ⌈log2(c+1)⌉ SD calls (≤ 1 match per query)");
    from_proof(e, cx, "reductions/g8-g25-g26");
    const Report& r = cx.verify("gar/via-sd", {});
    const Claim* c = find_claim(r, "sd_calls", "ceil");
    e.evidence.push_back(verified_item(r.exit_code() == 0, Ctx::cmd("gar/via-sd", {})));
    e.evidence.push_back(c ? claim_evidence(r, *c) : claim_item("sd_calls", nullptr, nullptr, "exact"));
    finish(e);
    e.ours = "reductions verified (prove reductions/g8-g25-g26); sd_calls = " + (c ? ach(c->achieved) : std::string("?")) + " = ⌈log2(c+1)⌉ at c = 4";
    add(e);
  }
  {
    const auto& pr = cx.prove("state/sd-lower-bounds");
    std::vector<std::pair<double, double>> rk, pl;
    for (const auto& j : pr.details["jrp_prompt"]) rk.emplace_back(j["min"].get<double>(), static_cast<double>(proofs::ceil_log2(j["rank"].get<std::uint64_t>())));
    for (const auto& j : pr.details["plain_prompt"]) pl.emplace_back(j["max"].get<double>(), j["lower_bound_bits"].get<double>());
    Entry e = row(35, "JRT Prop G.29 / Prop 3.1", "recurrent GAR on a JR-p prompt needs Ω(min(|A|,|B|)/p) bits of state");
    auto fo = fit_points(rk, FitSpec::Lower, "min(|A|,|B|)", "ceil(log2 rank DISJ)");
    fo.data["per_size"] = pr.details["jrp_prompt"];
    e.data = fo.data;
    e.evidence = {proof_item(pr.holds, "state/sd-lower-bounds"), fo.data};
    finish(e);
    e.ours = "state ≥ rank^{1/(2p−1)}/2 states, rank = C(U,min) computed exactly for min = 1.." + std::to_string(rk.size()) +
             "; log2 rank against min: slope " + fo.data.value("slope", json(nullptr)).dump() + "; SD → GAR (row 34) carries it to GAR";
    e.command = cx.prove_cmd("state/sd-lower-bounds");
    e.domain = pr.domain;
    add(e);
    e = row(36, "Based Thm F.3 via JRT", "without repeats, recurrent models need Ω(max(|A|,|B|))");
    fo = fit_points(pl, FitSpec::Lower, "max(|A|,|B|)", "min state bits (plain prompt)");
    fo.data["per_size"] = pr.details["plain_prompt"];
    e.data = fo.data;
    e.evidence = {proof_item(pr.holds, "state/sd-lower-bounds"), fo.data};
    finish(e);
    e.ours = "exact prefix classes after the separator = C(U,max); min state bits against max: slope " + fo.data.value("slope", json(nullptr)).dump() +
             "; our plain-prompt algorithm stores " + pr.details["plain_prompt"].back()["ours_bits_plain"].dump() + " bits at max = " +
             pr.details["plain_prompt"].back()["max"].dump();
    e.command = cx.prove_cmd("state/sd-lower-bounds");
    e.domain = pr.domain;
    add(e);
    e = row(37, "JRT Thm G.27, Thm G.5", "SD communication complexity is Ω(min(|A|,|B|)); index problem one-way is Ω(n)");
    fo = fit_points(rk, FitSpec::Lower, "min(|A|,|B|)", "ceil(log2 rank DISJ) <= D(SD)");
    fo.data["index_one_way"] = pr.details["index_one_way"];
    e.data = fo.data;
    e.evidence = {proof_item(pr.holds, "state/sd-lower-bounds"), fo.data};
    finish(e);
    e.ours = "deterministic bound log2 rank against min: slope " + fo.data.value("slope", json(nullptr)).dump() +
             " (the randomized Ω(min) is not computed); INDEX one-way = n bits exactly for n = 1.." + std::to_string(pr.details["index_one_way"].size());
    e.command = cx.prove_cmd("state/sd-lower-bounds");
    e.domain = pr.domain;
    add(e);
  }
  {
    Entry e = row(38, "JRT Prop G.8, Cor G.9", "MQAR reduces EQ with the same number of layers (JRT prompt)");
    const Report& r = cx.verify("eq/via-mqar", {});
    from_claims(e, r, Ctx::cmd("eq/via-mqar", {}), {{"layers", "same as the MQAR solver"}});
    if (e.status == "holds") e.ours = "holds reading the answer at query 1 (" + std::to_string(r.model ? r.model->value("L", 0) : 0) +
                                      " layers, the MQAR solver's); the literal decoding ('some query matches') is refuted: entry E10";
    add(e);
  }

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

  // --- Every claim the registered constructions declare (at their defaults).
  for (const auto& c : registry()) {
    const Report& r = cx.verify(c.name, {}, (fast && c.name == "mqar/dyadic") ? fs : std::nullopt);
    const std::string cmd = Ctx::cmd(c.name, {}, (fast && c.name == "mqar/dyadic") ? fs : std::nullopt);
    for (const auto& cl : r.claims) {
      Entry e;
      e.id = c.name + ": " + cl.quantity + " " + cl.claimed;
      e.source = cl.source;
      e.statement = c.name + " " + cl.quantity + (cl.kind == "exact" ? " = " : cl.kind == "upper_bound" ? " ≤ " : " ∈ ") + cl.claimed +
                    (cl.binding ? " (ours)" : "");
      e.command = cmd;
      e.domain = domain_of(r);
      e.ours = cl.quantity + " = " + ach(cl.achieved);
      if (!cl.note.empty()) e.note = cl.note;
      e.evidence.push_back(verified_item(r.failed == 0, cmd));
      if (cl.kind != "asymptotic") {
        e.evidence.push_back(claim_evidence(r, cl));
        if (cl.binding && cl.holds && !*cl.holds) e.counterexample = {{"achieved", cl.achieved}, {"claimed", cl.claimed}, {"command", cmd}};
      } else {
        // Asymptotic: fits over sizes of the construction's size parameters.
        static const std::map<std::string, std::pair<std::string, std::vector<std::string>>> knob = {
            {"primitive/identity", {"N", {"4", "5", "6", "8", "10", "12"}}}, {"primitive/cumsum", {"N", {"4", "5", "6", "8", "10", "12"}}},
            {"primitive/remember", {"N", {"6", "8", "10", "12", "14", "16"}}}, {"mqar/attention", {"n", {"3", "4", "5", "6", "8", "10"}}},
            {"mqar/autocorrelation", {"n", {"2", "3", "4", "5", "6", "8"}}}, {"mqar/dyadic", {"n", {"2", "4", "8", "16", "32"}}},
            {"circuit/compare", {"d", {"4", "8", "16", "32", "64"}}}, {"circuit/sort", {"n", {"4", "8", "16", "32", "64"}}},
            {"circuit/to-model", {"D", {"2", "3", "4", "5", "6"}}}, {"sd/recurrent-jrt", {"n", {"1", "2", "3", "4", "5"}}},
            {"sd/based-jrt", {"n", {"1", "2", "3", "4", "5"}}}, {"eq/via-mqar", {"c", {"2", "4", "8", "16", "32"}}}};
        auto it = knob.find(c.name);
        const double budget = fast ? 2 : 30;
        std::vector<std::pair<FitSpec, FitOut>> fits;
        if (!cl.shape_value && cl.claimed != "O(1)") {
          e.evidence.push_back(label_item("not checkable here", "no numeric shape (" + cl.claimed + ")"));
        } else if (c.name == "mqar/attention" && cl.quantity.rfind("params", 0) == 0) {
          // O(c^2): n at fixed c and c at fixed n (one claim, one rule: both fits consistent)
          for (const FitSpec& f : {attention_spec_n(cl.quantity), attention_spec_c(cl.quantity)}) fits.push_back({f, cx.fit(f, fast ? 3 : 30)});
        } else if ((c.name == "sd/based-jrt" || c.name == "sd/recurrent-jrt") && cl.quantity == "state_bits") {
          // O(n·min(|A|,|B|)): min varies at fixed n, n varies at fixed min (both fits consistent)
          for (const FitSpec& f : {sd_state_spec_min(c.name), sd_state_spec_n(c.name)}) fits.push_back({f, cx.fit(f, fast ? 6 : 60)});
        } else if (it == knob.end()) {
          e.evidence.push_back(label_item("not checkable here", "no size parameter to sweep"));
        } else {
          FitSpec f{c.name, {}, it->second.first, it->second.second, cl.quantity, cl.claimed,
                    cl.claimed == "O(1)" ? FitSpec::Constant : cl.claimed.rfind("Θ", 0) == 0 ? FitSpec::Theta : FitSpec::Upper, "", ""};
          if (c.name == "sd/based-jrt" || c.name == "sd/recurrent-jrt") f.fixed = {{"domain", "sized"}, {"a", "1"}, {"b", "1"}};
          if (c.name == "mqar/dyadic") {
            if (cl.claimed == "O(d)" || cl.claimed == "O(log d)") f.vary = "c", f.values = {"4", "16", "64", "256", "1024"}, f.fixed = {{"n", "4"}};
            else f.fixed = {{"c", "32"}};
          }
          fits.push_back({f, cx.fit(f, budget)});
        }
        json fd = json::array();
        std::string cmds;
        for (const auto& [f, fo] : fits) {
          e.evidence.push_back(fo.data);
          fd.push_back(fo.data);
          cmds += (cmds.empty() ? "" : "; ") + sweep_cmd(f);
          e.ours += "; " + f.vary + " varies" + (f.fixed.empty() ? "" : " at" + params_cmd(f.fixed)) + ": slope " + slope_of(fo);
        }
        if (fits.size() == 1) e.data = fd[0];
        else if (!fits.empty()) e.data = {{"fits", fd}, {"rule", "consistent iff every fit is"}};
        if (!cmds.empty()) e.command = cmds;
      }
      finish(e);
      add(e);
    }
  }
  return L;
}

}  // namespace cz::ledger
