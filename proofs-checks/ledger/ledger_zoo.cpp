// The ledger, rows 4, 15 and 16: K-matrices, Theorem H.21 (both compilers) and the gated-convolution zoo (issue 28).
#include "app/engine/algebra/algebra.h"
#include "app/report/report_json.h"
#include "proofs-checks/ledger/ledger_rows.h"
#include "util/error.h"

namespace cz::ledger::detail {

void row_kmatrix(Rows& r) {
  Ctx& cx = r.cx;
  [[maybe_unused]] const bool fast = r.fast;
  [[maybe_unused]] const std::optional<std::uint64_t>& fs = r.fs;
  auto add = [&](Entry e) { r.add(std::move(e)); };
  [[maybe_unused]] auto row = &Rows::row;
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
      auto fo = cx.fit(f);
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
}

void rows_zoo(Rows& r) {
  Ctx& cx = r.cx;
  [[maybe_unused]] const bool fast = r.fast;
  [[maybe_unused]] const std::optional<std::uint64_t>& fs = r.fs;
  auto add = [&](Entry e) { r.add(std::move(e)); };
  [[maybe_unused]] auto row = &Rows::row;
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
        auto fo = cx.fit(f);
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
    // Evidence (issues 28, 35): each architecture's BaseConv simulation verified exactly against
    // the architecture's own evaluation (constructions/sim/), RWKV's ratio claim (the WKV division
    // is not a polynomial, so only numerator and denominator are simulated), and per architecture
    // three fits: layers against Õ(L) with L architecture layers stacked (-p stack; L counts the
    // gates of all of them), inner width against the architecture's own d' (Hyena's projection
    // width (k+1)d, H3's and RWKV's channels d, RetNet's gated width H·dk·dv: not our width by
    // definition), and nonzero BaseConv parameters against the architecture's parameters over a
    // swept size (nonzero, not dense: the theorem's projections are K-matrices, Def H.3; dense W
    // would count d'² per layer).
    struct Arch {
      std::string name;
      PMap fixed;
      std::string vary;
      std::vector<std::string> values;
      std::string L_part, params_metric;
    };
    // Hyena in its narrow layout (u carried, each p^ℓ made before its gate: width 3d, Θ(N·d + d²)
    // weights per layer); the wide layout's nonzero weights grow like k² and are shown beside it.
    const std::vector<Arch> zoo = {{"sim/hyena", {{"d", "2"}, {"layout", "narrow"}}, "order", {"1", "2", "3", "4", "6", "8"}, "Õ(L)", "hyena_params"},
                                   {"sim/h3", {}, "d", {"1", "2", "3", "4", "6", "8"}, "Õ(L)", "h3_params"},
                                   {"sim/retnet", {}, "dv", {"1", "2", "4", "8", "16", "32"}, "Õ(L)", "retnet_params"},
                                   {"sim/rwkv", {{"ratio_degree", "8"}}, "d", {"1", "2", "3", "4", "6", "8"}, "Õ(L)", "rwkv_params"}};
    json data = json::object();
    std::string cmds, ours, algebra_cmds, algebra_text;
    for (const Arch& a : zoo) {
      const Report& r = cx.verify(a.name, {}, fs);
      const std::string vcmd = Ctx::cmd(a.name, {}, fs);
      e.evidence.push_back(verified_item(r.exit_code() == 0, vcmd));
      if (r.exit_code() != 0 && e.counterexample.is_null()) e.counterexample = failure_json(r, vcmd);
      for (const auto& c : r.claims)
        if (c.quantity == "ratio_polynomial_fits") e.evidence.push_back(claim_evidence(r, c));
      // Beyond enumeration (issue 37): the simulation proved equal to the architecture's own
      // evaluation on EVERY input of Q^{N×d} at N = 64, d = 2 (--fast: N = 16), as polynomial
      // identities (verify --method algebra; app/engine/algebra/algebra.h).
      const PMap ap = {{"N", fast ? "16" : "64"}, {"d", "2"}};
      const std::string acmd = "circuitzoo verify " + a.name + params_cmd(ap) + " --method algebra";
      std::string proof = "not proved";
      bool proved = false;
      try {
        const AlgebraOutcome ao = run_verify_algebra(find_construction(a.name), ap, AlgebraOptions{});
        proved = ao.verdict == "proved";
        proof = ao.verdict + " (" + ao.report["algebra"].value("route", std::string("?")) + ")";
        if (!proved && ao.counterexample && e.counterexample.is_null()) e.counterexample = {{"command", acmd}, {"counterexample", to_json(*ao.counterexample)}};
      } catch (const InputError& x) {
        proof = std::string("not proved: ") + x.what();
      }
      e.evidence.push_back(verified_item(proved, acmd));
      algebra_cmds += "; " + acmd;
      algebra_text += (algebra_text.empty() ? "" : ", ") + a.name.substr(4) + " " + proof;
      const FitSpec fl{a.name, a.fixed, "stack", {"1", "2", "3", "4", "6", "8"}, "layers", a.L_part, FitSpec::Upper, "", ""};
      const FitSpec fw{a.name, a.fixed, a.vary, a.values, "inner_d", "Õ(d')", FitSpec::Upper, "", ""};
      const FitSpec fp{a.name, a.fixed, a.vary, a.values, "", "", FitSpec::Upper, "baseconv_params_nonzero", a.params_metric};
      json ad = {{"verify", vcmd}, {"domain", domain_of(r)}};
      std::string line = a.name.substr(4) + ":";
      const std::vector<std::pair<std::string, const FitSpec*>> specs = {{"layers", &fl}, {"inner_d", &fw}, {"params_nonzero", &fp}};
      for (const auto& [what, f] : specs) {
        const FitOut& fo = cx.fit(*f);
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
    const FitOut& fwo = cx.fit(fwide);
    data["hyena_wide_params_nonzero"] = fwo.data;
    // RetNet's width against its projection width H·(2dk + dv) instead of the gated form's
    // H·dk·dv: shown, not decided (spec §3 reads RetNet as a gated convolution of width O(d²)).
    const FitSpec fr{"sim/retnet", {{"dk", "4"}}, "dv", {"1", "2", "4", "8", "16", "32"}, "", "", FitSpec::Upper, "gated_conv_width", "projection_width"};
    const FitOut& fro = cx.fit(fr);
    data["retnet_gated_width_vs_projection_width"] = fro.data;
    e.data = data;
    finish(e);
    e.ours = ours + ". RWKV: numerator and denominator only (exp(k) supplied; the ratio is not a polynomial: claim ratio_polynomial_fits). "
             "RetNet's gated width H·dk·dv against its projection width H·(2dk+dv), dv varies at dk = 4: slope " + slope_of(fro) +
             " (the O(d²) of the statement: Õ(d') holds only against the gated-convolution d'). Hyena's wide layout (k+2 layers, width (k+1)d): "
             "nonzero params against Hyena's, order varies: slope " + slope_of(fwo) + " (every p^ℓ carried through every gate)";
    e.ours += std::string(". Proved for every input in Q^{") + (fast ? "16" : "64") + "×2} (polynomial identities): " + algebra_text;
    e.command = "circuitzoo verify sim/hyena|sim/h3|sim/retnet|sim/rwkv" + std::string(fs ? " --samples " + std::to_string(*fs) : "") + algebra_cmds + cmds;
    e.domain = std::string("each simulation at its defaults against the architecture's own evaluation; proved for all inputs in Q^{") +
               (fast ? "16" : "64") + "×d} (d = 2; RWKV's input [E | x] is 2d wide) by --method algebra; fits over 6 sizes each";
    add(e);
  }
}

}  // namespace cz::ledger::detail
