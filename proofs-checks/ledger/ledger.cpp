// The ledger's rows (ledger.h). Each row names what it rests on (a construction's verification,
// a prove check, a fit over sizes) and turns that into a status; nothing here re-derives a
// construction's answer. The rows live in ledger_basics/zoo/mqar/sd/errata/declared.cpp.
#include "proofs-checks/ledger/ledger.h"

#include <set>

#include "proofs-checks/ledger/ledger_rows.h"

namespace cz::ledger {
using namespace detail;

std::string row_subject(int n) {
  // Definitions (1-3), lemmas and lower bounds checked as stated (5-9, 14, 23, 35-37), the causal
  // shift_up claim (11, refuted by the causality lemma) and H.8's explicit formulas (26).
  static const std::set<int> paper = {1, 2, 3, 5, 6, 7, 8, 9, 11, 14, 23, 26, 35, 36, 37};
  return paper.count(n) ? "the paper" : "our construction";
}

void detail::Rows::add(Entry e) {
  finish(e);  // the status is decide(evidence), whatever the row did before
  if (e.subject.empty())  // E-items check the paper's statements; declared claims are ours
    e.subject = e.row ? row_subject(*e.row) : (e.id.size() <= 3 && e.id[0] == 'E') ? "the paper" : "our construction";
  // What the row claims, inline (issue 49 item 8: "row 11: refuted" alone sent readers to a table
  // they do not have): its source and the start of its statement.
  std::string what = e.statement;
  if (what.size() > 90) {
    std::size_t cut = 87;
    while (cut > 0 && (static_cast<unsigned char>(what[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
    what = what.substr(0, cut) + "...";
  }
  const std::string line = "  " + e.id + ": " + e.status + (what.empty() ? "" : "  (" + e.source + ": " + what + ")");
  out.push_back(std::move(e));
  if (cx.opt.on_row) cx.opt.on_row(line, out.size());
  else if (cx.opt.progress) *cx.opt.progress << line << "\n";
}

Entry detail::Rows::row(int n, std::string source, std::string statement) {
  Entry e;
  e.row = n;
  e.id = "row " + std::to_string(n);
  e.source = std::move(source);
  e.statement = std::move(statement);
  return e;
}

std::vector<Entry> build_ledger(const Options& o) {
  Ctx cx{o, {}, {}, {}};
  std::vector<Entry> L;
  Rows r{cx, o.fast, o.fast ? std::optional<std::uint64_t>(4096) : std::nullopt, L};  // big domains sampled in fast mode
  rows_definitions(r);  // 1-3
  row_kmatrix(r);       // 4
  rows_basics(r);       // 5-14
  rows_zoo(r);          // 15, 16
  rows_mqar(r);         // 17-26
  rows_sd(r);           // 27-38
  rows_errata(r);
  rows_declared(r);
  return L;
}

}  // namespace cz::ledger
