// The ledger, every claim the registered constructions declare (at their defaults), with fits for asymptotic ones.
#include "proofs-checks/ledger/ledger_rows.h"

namespace cz::ledger::detail {

void rows_declared(Rows& r) {
  Ctx& cx = r.cx;
  [[maybe_unused]] const bool fast = r.fast;
  [[maybe_unused]] const std::optional<std::uint64_t>& fs = r.fs;
  auto add = [&](Entry e) { r.add(std::move(e)); };
  [[maybe_unused]] auto row = &Rows::row;
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
        // The gated-convolution simulations (issue 35): each Õ claim over its own size — layers
        // over the number of stacked architecture layers, N' over N, d' over the width the
        // architecture's d' grows with (RetNet's d' = H·dk·dv: dv).
        static const std::map<std::string, std::pair<std::string, std::vector<std::string>>> sim_knob = {
            {"layers", {"stack", {"1", "2", "3", "4", "6", "8"}}}, {"inner_N", {"N", {"4", "8", "16", "32", "64", "128"}}},
            {"inner_d", {"d", {"1", "2", "3", "4", "6", "8"}}}};
        const bool sim = c.name.rfind("sim/", 0) == 0 && sim_knob.count(cl.quantity);
        auto it = sim ? sim_knob.find(cl.quantity) : knob.find(c.name);
        std::vector<std::pair<FitSpec, FitOut>> fits;
        if (!cl.shape_value && cl.claimed != "O(1)") {
          e.evidence.push_back(label_item("not checkable here", "no numeric shape (" + cl.claimed + ")"));
        } else if (c.name == "mqar/attention" && cl.quantity.rfind("params", 0) == 0) {
          // O(c^2): n at fixed c and c at fixed n (one claim, one rule: both fits consistent)
          for (const FitSpec& f : {attention_spec_n(cl.quantity), attention_spec_c(cl.quantity)}) fits.push_back({f, cx.fit(f)});
        } else if ((c.name == "sd/based-jrt" || c.name == "sd/recurrent-jrt") && cl.quantity == "state_bits") {
          // O(n·min(|A|,|B|)): min varies at fixed n, n varies at fixed min (both fits consistent)
          for (const FitSpec& f : {sd_state_spec_min(c.name), sd_state_spec_n(c.name)}) fits.push_back({f, cx.fit(f)});
        } else if (!sim && it == knob.end()) {
          e.evidence.push_back(label_item("not checkable here", "no size parameter to sweep"));
        } else {
          FitSpec f{c.name, {}, it->second.first, it->second.second, cl.quantity, cl.claimed,
                    cl.claimed == "O(1)" ? FitSpec::Constant : cl.claimed.rfind("Θ", 0) == 0 ? FitSpec::Theta : FitSpec::Upper, "", ""};
          if (c.name == "sd/based-jrt" || c.name == "sd/recurrent-jrt") f.fixed = {{"domain", "sized"}, {"a", "1"}, {"b", "1"}};
          if (sim && c.name == "sim/retnet" && cl.quantity == "inner_d") f.vary = "dv";
          if (c.name == "mqar/dyadic") {
            if (cl.claimed == "O(d)" || cl.claimed == "O(log d)") f.vary = "c", f.values = {"4", "16", "64", "256", "1024"}, f.fixed = {{"n", "4"}};
            else if (cl.claimed.rfind("Θ(log m)", 0) == 0)  // n = 2 has log m = 0: sizes to n = 128 (c >= n) give 6 usable points
              f.fixed = {{"c", "128"}}, f.values = {"2", "4", "8", "16", "32", "64", "128"};
            else f.fixed = {{"c", "32"}};
          }
          fits.push_back({f, cx.fit(f)});
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
}

}  // namespace cz::ledger::detail
