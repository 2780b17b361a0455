// A DRAT proof checker of our own (issue 38 item 2; Debian packages none), written from the DRAT
// definition and sharing no code with the encoder (cnf.h) or the solver adapter (solver.h): it
// reads DIMACS and DRAT itself and knows nothing of circuits.
//
// The check is the one the published checkers (drat-trim) do:
//   - forward pass: the formula and every lemma are propagated at the top level (two watched
//     literals) until the first conflict; a proof without one is rejected ("no conflict");
//   - backward pass from that conflict: only lemmas in the core (clauses used by a later check or
//     by the final conflict) are checked, each against the formula as it was at its step
//     (earlier lemmas, deletions undone as the pass goes back), by RUP (unit propagation on its
//     negation reaches a conflict, core clauses first), else by RAT on its first literal as
//     written (every resolvent with a clause holding the negated pivot is RUP); the clauses a check
//     uses join the core.
//   - deletions are honoured, except a deletion of a clause that is unit at the top level (the
//     reason of a top-level assignment): it is ignored and counted, as drat-trim does by default
//     (ignoring a deletion keeps a clause, which never makes a wrong proof pass). A deletion of a
//     clause not in the formula is ignored and counted too.
// Duplicate literals are merged; a tautology is kept out of propagation (it is always satisfied).
#pragma once
#include <atomic>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cz::circuits::sat {

// A formula as the checker reads it: DIMACS literals, each clause terminated by 0.
struct DratFormula {
  int num_vars = 0;
  std::size_t num_clauses = 0;
  std::vector<int> lits;
};

// DIMACS CNF ("c" comment lines, one "p cnf V C" header, then exactly C clauses of literals in
// [-V, V], each ended by 0). Throws InputError(what, where) on anything else.
DratFormula read_dimacs(std::string_view text, const std::string& where);

struct DratProof {
  std::vector<int> lits;          // each step's literals, terminated by 0
  std::vector<char> deletion;     // per step: 1 = "d" (deletion), 0 = addition
  int max_var = 0;
  bool binary = false;            // which form it was read from
};

// Binary DRAT ('a' / 'd' then variable-length literals 2|l| + (l < 0), ended by a 0 byte) or text
// DRAT ("d" prefix for deletions, "c" comment lines): binary when the data holds a NUL byte or
// starts with 'a' (text never does). Throws InputError(what, where) on a malformed or truncated
// proof and on variables past kDratMaxVar.
DratProof read_drat(std::string_view bytes, const std::string& where);
inline constexpr int kDratMaxVar = 1 << 26;

struct DratResult {
  bool ok = false;
  std::string why;                     // when !ok: the step and what failed
  std::size_t lemmas = 0;              // additions in the proof
  std::size_t checked = 0;             // core lemmas checked (RUP or RAT)
  std::size_t rat = 0;                 // of them, by RAT
  std::size_t deletions = 0;           // deletions honoured
  std::size_t unit_deletions_ignored = 0;
  std::size_t missing_deletions = 0;   // deletions of clauses not in the formula (ignored)
  std::size_t steps_used = 0;          // steps up to the first top-level conflict
  double seconds = 0;
  bool cancelled = false;              // stopped by `cancel` (ok false, why "cancelled")
};

// Whether `proof` refutes `f` (f's variables may be fewer than the proof's: extension variables,
// each new in the proof, so at most V + (the proof's literals) of them in all: a variable past that
// is InputError, issue 46 row 11). InputError when the check's memory (about 64 bytes a variable)
// is over util/memory_budget.h's budget. `cancel`: when it becomes true the check stops within a
// few thousand steps (ok false, cancelled true).
DratResult check_drat(const DratFormula& f, const DratProof& proof, const std::atomic<bool>* cancel = nullptr);

}  // namespace cz::circuits::sat
