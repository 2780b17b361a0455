// The ledger as JSON (contract.md: row, source, statement, status, domain, command,
// counterexample), Markdown and LaTeX tables a paper can include, and the errata list.
#include <array>
#include <map>
#include <sstream>

#include "proofs-checks/ledger/ledger.h"
#include "app/report/report_json.h"

namespace cz::ledger {
using json = nlohmann::json;

json to_json(const Entry& e) {
  json j = {{"row", e.row ? json(*e.row) : json(nullptr)}, {"id", e.id}, {"source", e.source}, {"statement", e.statement},
            {"status", e.status}, {"subject", e.subject}, {"domain", e.domain}, {"command", e.command}};
  if (!e.ours.empty()) j["ours"] = e.ours;
  if (!e.why.empty()) j["why"] = e.why;
  if (!e.counterexample.is_null()) j["counterexample"] = e.counterexample;
  else if (e.status == "refuted") j["counterexample"] = json::object();
  if (!e.data.is_null()) j["data"] = e.data;
  j["evidence"] = e.evidence;
  if (!e.note.empty()) j["note"] = e.note;
  return j;
}

json ledger_json(const std::vector<Entry>& ledger, bool fast) {
  json claims = json::array();
  std::map<std::string, int> rows, all;
  for (const auto& s : kStatuses) rows[s] = 0, all[s] = 0;
  for (const auto& e : ledger) {
    claims.push_back(to_json(e));
    ++all[e.status];
    if (e.row) ++rows[e.status];
  }
  return {{"tool", "circuitzoo"}, {"version", kVersion}, {"fast", fast}, {"statuses", kStatuses},
          {"counts_spec_rows", rows}, {"counts_all", all}, {"claims", claims}};
}

namespace {
std::string md_cell(std::string s) {
  std::string r;
  for (char c : s) {
    if (c == '|') r += "\\|";
    else if (c == '\n') r += ' ';
    else r += c;
  }
  return r;
}

std::string finding(const Entry& e) {
  std::string s = e.ours;
  if (!e.why.empty()) s += (s.empty() ? "" : "; ") + e.why;
  if (e.counterexample.is_object() && e.counterexample.contains("message"))
    s += (s.empty() ? "" : "; ") + std::string("counterexample: ") + e.counterexample["message"].get<std::string>();
  return s;
}

std::string tex(const std::string& s) {
  static const std::map<std::string, std::string> uni = {
      {"⊙", "$\\odot$"}, {"⊛", "$\\circledast$"}, {"≤", "$\\le$"}, {"≥", "$\\ge$"}, {"→", "$\\to$"}, {"↦", "$\\mapsto$"},
      {"Õ", "$\\tilde O$"}, {"Ω", "$\\Omega$"}, {"Θ", "$\\Theta$"}, {"ε", "$\\varepsilon$"}, {"Δ", "$\\Delta$"}, {"Σ", "$\\Sigma$"},
      {"−", "-"}, {"–", "--"}, {"·", "$\\cdot$"}, {"²", "$^2$"}, {"√", "$\\surd$"}, {"⌈", "$\\lceil$"}, {"⌉", "$\\rceil$"},
      {"⌊", "$\\lfloor$"}, {"⌋", "$\\rfloor$"}, {"ℓ", "$\\ell$"}, {"∩", "$\\cap$"}, {"∈", "$\\in$"}, {"§", "\\S{}"}, {"×", "$\\times$"},
      {"≠", "$\\ne$"}, {"∅", "$\\emptyset$"}, {"’", "'"}, {"'", "'"}};
  std::string r;
  for (std::size_t i = 0; i < s.size();) {
    bool done = false;
    for (const auto& [u, t] : uni)
      if (s.compare(i, u.size(), u) == 0) {
        r += t;
        i += u.size();
        done = true;
        break;
      }
    if (done) continue;
    const char c = s[i++];
    switch (c) {
      case '\\': r += "\\textbackslash{}"; break;
      case '&': case '%': case '$': case '#': case '_': case '{': case '}': r += '\\'; r += c; break;
      case '~': r += "\\textasciitilde{}"; break;
      case '^': r += "\\textasciicircum{}"; break;
      case '<': r += "$<$"; break;
      case '>': r += "$>$"; break;
      case '|': r += "$|$"; break;
      default:
        if (static_cast<unsigned char>(c) >= 0x80) {  // other non-ASCII: keep the byte sequence out of LaTeX
          while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
          r += "?";
        } else {
          r += c;
        }
    }
  }
  return r;
}
}  // namespace

std::string ledger_markdown(const std::vector<Entry>& ledger) {
  std::ostringstream os;
  // "About": whether the status is about our construction or about the paper's statement.
  os << "| # | Claim | Source | Status | About | Ours / finding | Reproduce |\n|---|---|---|---|---|---|---|\n";
  for (const auto& e : ledger) {
    os << "| " << (e.row ? std::to_string(*e.row) : md_cell(e.id)) << " | " << md_cell(e.statement) << " | " << md_cell(e.source)
       << " | **" << e.status << "** | " << e.subject << " | " << md_cell(finding(e)) << " | `" << md_cell(e.command) << "` |\n";
  }
  return os.str();
}

std::string ledger_latex(const std::vector<Entry>& ledger) {
  std::ostringstream os;
  os << "% circuitzoo claims ledger; needs \\usepackage{longtable} (and amssymb for \\circledast)\n"
     << "\\begin{longtable}{@{}r p{0.24\\linewidth} p{0.14\\linewidth} p{0.11\\linewidth} p{0.09\\linewidth} p{0.30\\linewidth}@{}}\n"
     << "\\# & Claim & Source & Status & About & Ours / finding \\\\\n\\hline\n\\endhead\n";
  for (const auto& e : ledger) {
    os << (e.row ? std::to_string(*e.row) : tex(e.id)) << " & " << tex(e.statement) << " & " << tex(e.source) << " & \\textbf{"
       << tex(e.status) << "} & " << tex(e.subject) << " & " << tex(finding(e)) << " \\\\\n";
  }
  os << "\\end{longtable}\n";
  return os.str();
}

std::vector<Erratum> errata(const std::vector<Entry>& ledger) {
  // Spec §11 E-items: the computed ones come from the ledger; the others are decisions recorded
  // in the spec and in the constructions' notes.
  std::map<std::string, const Entry*> computed;
  for (const auto& e : ledger)
    if (!e.row && e.id.size() <= 3 && e.id[0] == 'E') computed[e.id] = &e;
  const std::vector<std::array<std::string, 4>> items = {
      {"E1", "Zoology eq (17) multiplies by an index and uses 0 = dead branch", "", ""},
      {"E2", "Zoology H.8's row stacking is inconsistent with causal convolution (and typos)", "", ""},
      {"E3", "shift directions: X^s is shift_down under poly, shift_up under poly*; causal BaseConv cannot shift up",
       "every construction runs in an explicit conv mode; causal shift_up fails (row 11: circuitzoo verify primitive/shift_up -p conv=causal -p N=4 -p d=1 -p s=1); cyclic shift_up in 1 layer",
       "circuitzoo verify primitive/shift_up"},
      {"E4", "layer counts: shift_down claimed 3 (1 suffices), remember 8 at equal width (ours L_f+2 at width 2d), 'Prop C.5' not in arXiv numbering",
       "rows 10 and 13", "circuitzoo verify primitive/shift_down; circuitzoo verify primitive/remember"},
      {"E5", "MQAR with duplicate keys is undefined; strict j < i excludes the same triple", "domains use distinct keys; lags s >= 5",
       "circuitzoo verify mqar/autocorrelation"},
      {"E6", "dec reads x[0] as LSB; dyadic prefixes must be MSB-first", "", ""},
      {"E7", "Prop G.18's ε read as 1/(3|A|); threshold 1/2 ours", "row 28", "circuitzoo verify sd/based-jrt -p stage=g18"},
      {"E8", "JRT Alg. 3 line 8 threshold at |A| = ⌊N/2⌋", "", ""},
      {"E9", "[n] changes meaning between sections", "half-open [a,b) in code", "-"},
      {"E10", "JRT Prop G.8 as literally decoded fails", "", ""},
      {"E11", "JRT Lemma G.20 asks for h_shift[0] at row 0 (needs look-ahead)", "read the kernel at row N−1+j", "circuitzoo verify sd/based-jrt -p stage=g20"},
      {"E12", "Alg. 11 with sorted block queries has no causal BaseConv model", "", ""},
      {"E13", "Zoology H.8 under cyclic convolution: blocks spill into each other", "same computation as E2", "circuitzoo verify mqar/autocorrelation -p variant=paper -p conv=cyclic"},
      {"E14", "Zoology H.7.2's O(c²) params omit O(N·c) position masks", "row 17", "circuitzoo verify mqar/attention"},
      {"E15", "JRT G.3.2 random kernels: the ε ≤ 1/(3|A|) rule is very loose", "row 30", "circuitzoo verify sd/based-jrt -p kernel=random"}};
  std::vector<Erratum> out;
  for (const auto& it : items) {
    Erratum e;
    e.id = it[0];
    e.statement = it[1];
    auto c = computed.find(it[0]);
    if (c != computed.end()) {
      const Entry& x = *c->second;
      e.status = x.status;
      e.counterexample = x.counterexample;
      if (x.counterexample.is_object() && x.counterexample.contains("message")) e.counterexample_text = x.counterexample["message"].get<std::string>();
      e.command = x.command;
      e.fix = x.ours;
      e.fix_command = x.id == "E8" ? "circuitzoo verify sd/recurrent-jrt -p n=3" : x.id == "E10" ? "circuitzoo verify eq/via-mqar" :
                      x.id == "E12" ? "circuitzoo verify mqar/dyadic -p artifact=model -p queries=each -p n=2 -p c=2" :
                      x.id == "E2" ? "circuitzoo verify mqar/autocorrelation" : "circuitzoo verify mqar/dyadic";
    } else {
      e.status = "decision recorded";
      e.fix = it[2];
      e.fix_command = it[3];
    }
    out.push_back(e);
  }
  return out;
}

std::string errata_markdown(const std::vector<Erratum>& list) {
  std::ostringstream os;
  os << "# Errata with the tool's verdicts (docs/theory.md)\n\n";
  for (const auto& e : list) {
    os << "- **" << e.id << "** " << e.statement << " — **" << e.status << "**";
    if (!e.counterexample_text.empty())
      os << (e.command.find("--samples") == std::string::npos ? ". Smallest counterexample found: "
                                                              : ". Counterexample (sampled domain; the full ledger searches exhaustively): ")
         << e.counterexample_text;
    if (e.counterexample.is_object() && e.counterexample.contains("input")) os << " (input " << e.counterexample["input"].dump() << ")";
    if (!e.command.empty()) os << ". Reproduce: `" << e.command << "`";
    if (!e.fix.empty()) os << ". " << e.fix;
    if (!e.fix_command.empty() && e.fix_command != "-") os << " (holds: `" << e.fix_command << "`)";
    os << "\n";
  }
  return os.str();
}

}  // namespace cz::ledger
