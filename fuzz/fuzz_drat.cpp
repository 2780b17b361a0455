// libFuzzer harness: the DRAT checker's readers and the checker itself (circuits/sat/drat_check.h,
// issue 38). The input is a DIMACS formula, a line "%%", then a DRAT proof (text or binary).
// Oracle: a proof the checker accepts must be of an unsatisfiable formula; with at most 14
// variables every assignment is tried.
#include <algorithm>
#include <string_view>

#include "circuits/sat/drat_check.h"
#include "fuzz/fuzz_common.h"

void fuzz_one(const std::string& text) {
  namespace sat = cz::circuits::sat;
  const std::size_t cut = text.find("\n%%\n");
  const std::string_view all(text);
  const std::string_view cnf = cut == std::string::npos ? std::string_view("p cnf 3 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n") : all.substr(0, cut);
  const std::string_view drat = cut == std::string::npos ? all : all.substr(cut + 4);
  const sat::DratFormula f = sat::read_dimacs(cnf, "fuzz.cnf");
  const sat::DratProof p = sat::read_drat(drat, "fuzz.drat");
  if (f.lits.size() + p.lits.size() > 20000) return;  // the checker is not linear: keep runs short
  const sat::DratResult r = sat::check_drat(f, p);
  if (!r.ok || f.num_vars > 14) return;
  for (std::uint32_t a = 0; a < (1u << f.num_vars); ++a) {
    bool all_sat = true, clause = false;
    for (int l : f.lits) {
      if (l == 0) {
        all_sat = all_sat && clause;
        clause = false;
        continue;
      }
      const bool v = (a >> ((l < 0 ? -l : l) - 1)) & 1;
      clause = clause || (l > 0 ? v : !v);
    }
    if (all_sat) cz::fuzz::finding("the DRAT checker accepted a proof of a satisfiable formula");
  }
}
