// The ledger, rows 27-38: set disjointness, GAR, the state lower bounds and EQ.
#include "proofs-checks/ledger/ledger_rows.h"

namespace cz::ledger::detail {

void rows_sd(Rows& r) {
  Ctx& cx = r.cx;
  [[maybe_unused]] const bool fast = r.fast;
  [[maybe_unused]] const std::optional<std::uint64_t>& fs = r.fs;
  auto add = [&](Entry e) { r.add(std::move(e)); };
  [[maybe_unused]] auto row = &Rows::row;
  // Beyond enumeration (issue 37): --fast keeps each proof near a second (add_sat_proof).
  auto with_sat = [&](Entry& e, const std::string& name, const PMap& satp) { add_sat_proof(e, name, satp); };
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
    // Enumeration reaches n = 3 (subsets); the unrolled program proved at n = 8 (--fast) or 16.
    with_sat(e, "sd/recurrent-jrt", fast ? PMap{{"n", "8"}, {"domain", "sized"}, {"a", "4"}, {"b", "4"}}
                                         : PMap{{"n", "16"}, {"domain", "orders"}, {"kmax", "4"}});
    add(e);
  }
  {
    Entry e = row(28, "JRT Prop G.18", "LinearAttention+MLP with an IP kernel, ε = 1/(3|A|), state O(df), solves SD when the smaller set comes first");
    PMap p = {{"stage", "g18"}};
    from_claims(e, cx.verify("sd/based-jrt", p), Ctx::cmd("sd/based-jrt", p), {{"eps", "1/(3|A|)"}, {"f", "|A|"}});
    // Beyond enumeration (issue 37): G.18's model and its data-dependent neurons as one circuit.
    with_sat(e, "sd/based-jrt", fast ? PMap{{"stage", "g18"}, {"n", "2"}, {"domain", "sized"}, {"a", "1"}, {"b", "1"}}
                                     : PMap{{"stage", "g18"}, {"n", "6"}, {"domain", "sized"}, {"a", "2"}, {"b", "2"}});
    add(e);
  }
  {
    Entry e = row(29, "JRT G.3.2 (eq 19)", "data-dependent IP kernel: f = |A| + log2 c, ε = 0");
    const Report& r = cx.verify("sd/based-jrt", {});
    from_claims(e, r, Ctx::cmd("sd/based-jrt", {}), {{"g18.f", "|A|"}});
    // eq 19 says epsilon = 0 exactly: the measured epsilon of the built kernel (metrics eps)
    e.evidence.push_back(claim_item("eps", r.metrics.value("eps", json(nullptr)), 0, "exact"));
    e.ours += "; eps " + r.metrics.value("eps", json(nullptr)).dump() + " measured on the built kernel (claimed 0)";
    // The whole pipeline (G.20, G.21, the kernel read off the instance, G.18) proved on the answer;
    // n = 6, a = b = 2 (4,064,256 instances) took 29 s on 2 loaded cores, so --fast keeps n = 3.
    with_sat(e, "sd/based-jrt", fast ? PMap{{"n", "3"}, {"domain", "sized"}, {"a", "1"}, {"b", "1"}}
                                     : PMap{{"n", "6"}, {"domain", "sized"}, {"a", "2"}, {"b", "2"}});
    add(e);
  }
  {
    Entry e = row(30, "JRT G.3.2 (eq 20)", "random kernel: f = Θ(min(|A|,|B|)² log c), t = O(√log c)");
    PMap p = {{"kernel", "random"}};
    from_claims(e, cx.verify("sd/based-jrt", p), Ctx::cmd("sd/based-jrt", p), {});
    e.ours = "verified with f from the ε ≤ 1/(3|A|) rule; the rule is loose (E15: at n = 3 it gives f = 4,630 where f = 70 suffices)";
    // The random kernel's G.18 bit-blasted: n = 4, a = b = 2 did not finish in 300 s (2.7 GB).
    with_sat(e, "sd/based-jrt", fast ? PMap{{"kernel", "random"}, {"n", "2"}, {"domain", "sized"}, {"a", "1"}, {"b", "1"}}
                                     : PMap{{"kernel", "random"}, {"n", "2"}, {"domain", "sized"}, {"a", "2"}, {"b", "2"}});
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
    const FitOut& fo = cx.fit(f);
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
    e.command = Ctx::cmd("gar/via-sd", {}) + "; " + e.command;
    e.domain = domain_of(r) + "; " + e.domain;
    // Enumeration reaches c = 16 (gar/via-sd) and n = 3 (sd/via-gar); proved as compositions: GAR
    // by Alg. 3 calls; SD through GAR with the GAR reference (the default solver) and with
    // gar/via-sd's Alg. 3 calls.
    with_sat(e, "gar/via-sd", fast ? PMap{{"c", "256"}} : PMap{{"c", "1024"}, {"nk", "3"}, {"m", "3"}});
    const PMap sdp = fast ? PMap{{"n", "8"}, {"domain", "orders"}, {"kmax", "3"}} : PMap{{"n", "16"}, {"domain", "orders"}, {"kmax", "4"}};
    with_sat(e, "sd/via-gar", sdp);
    PMap viasd = sdp;
    viasd["solver"] = "via-sd";
    with_sat(e, "sd/via-gar", viasd);
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
    // Enumeration reaches c = 128 in a second (c = 256 runs past 10 minutes); the model proved at 32 (--fast) or 128.
    with_sat(e, "eq/via-mqar", PMap{{"c", fast ? "32" : "128"}});
    add(e);
  }

}

}  // namespace cz::ledger::detail
