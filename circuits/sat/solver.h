// Existing SAT solvers run as separate processes on a DIMACS file (issue 27: no home-made solver).
// CaDiCaL (`cadical`, Debian package cadical) is the main solver: it reads DIMACS, prints the
// model on SAT, and writes a DRAT proof on UNSAT when given a proof path. PicoSAT (`picosat`) and
// MiniSat (`minisat`) are independent second opinions for --confirm. The time limit is enforced
// here (the child is killed at the deadline), so every solver gets the same one.
#pragma once
#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "circuits/sat/cnf.h"

namespace cz::circuits::sat {

enum class Answer { Sat, Unsat, Unknown };
const char* to_string(Answer a);

struct SolveResult {
  Answer answer = Answer::Unknown;
  std::vector<signed char> model;  // Sat: model[v] = 1 / 0 for v in 1..num_vars (index 0 unused)
  double seconds = 0;              // wall clock of the solver process
  std::string why;                 // Unknown: "time limit", or what went wrong
};

struct SolverSpec {
  std::string name;     // "cadical" | "picosat" | "minisat"
  std::string binary;   // found on PATH
};

// The solver by name, found on PATH; nullopt when it is not installed (or not a name we know).
std::optional<SolverSpec> find_solver(const std::string& name);

// Solves cnf with a wall-clock limit (seconds, > 0). proof_path ("" none): CaDiCaL writes a DRAT
// proof there (binary DRAT; the file is complete only on UNSAT). Throws std::runtime_error when
// the solver cannot be run or its answer cannot be read.
// cancel (optional): when it turns true the solver is killed and the answer is Unknown ("cancelled").
SolveResult solve(const SolverSpec& s, const Cnf& cnf, double timeout_s, const std::string& proof_path = "",
                  const std::atomic<bool>* cancel = nullptr);

}  // namespace cz::circuits::sat
