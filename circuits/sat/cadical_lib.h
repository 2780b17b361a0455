// CaDiCaL as a library in this process (issue 48 item 1): Debian's libcadical-dev (1.5.3, the same
// solver as the `cadical` binary of Debian's cadical package), linked when the build finds it
// (CMake: CZ_HAVE_CADICAL_LIB). solve() (solver.h) calls it for a SolverSpec with in_process set,
// so the callers see one interface for both paths.
//
// When the library is used (find_solver("cadical") sets SolverSpec::in_process), CZ_SAT_INPROCESS:
//   "1"          the library (InputError when this build has none);
//   "0"          the `cadical` found on PATH, as a process;
//   unset or ""  the library when the `cadical` found on PATH is Debian's own binary (its real
//                path is that of /usr/bin/cadical) or when none is on PATH; any other `cadical`
//                (a wrapper, another build, the fake solvers of tests/sat/*.sh) runs as a process,
//                so a solver a user or a test puts first on PATH is never bypassed.
// Anything else is InputError. Without the library in the build: the process path, always.
//
// The in-process run keeps the process path's meaning: the wall-clock limit and `cancel` through
// CaDiCaL's Terminator (polled by the solver between conflicts and decisions: it stops within
// milliseconds), the DRAT proof (binary, CaDiCaL's default format, byte for byte what the binary
// writes) streamed to the ProofSink through a stdio cookie (a sink that throws stops the solver and
// the exception propagates), a SAT model checked to satisfy the CNF (a model that does not is an
// InputError naming the library: a broken solver, never a verdict).
#pragma once
#include <atomic>
#include <optional>
#include <string>

#include "circuits/sat/solver.h"

namespace cz::circuits::sat {

// Whether this build links CaDiCaL; its version ("1.5.3"), "" without it.
bool cadical_library_linked();
std::string cadical_library_version();

// The rule above: whether `cadical` runs in-process, given the binary found on PATH ("" when none).
// Throws InputError on a CZ_SAT_INPROCESS value it does not know or "1" without the library.
bool cadical_in_process(const std::string& found_binary);

// Solves cnf in this process (solve()'s meaning: timeout_s > 0 here; Unknown "time limit (T s)" or
// "cancelled"). proof: receives the binary DRAT proof. where: the spec's binary, for messages.
// by_goals: incremental.h solve_by_goals' way (the last clause's literals refuted one at a time).
SolveResult solve_cadical_in_process(const Cnf& cnf, double timeout_s, const ProofSink* proof,
                                     const std::atomic<bool>* cancel, const std::string& where, bool by_goals = false);

}  // namespace cz::circuits::sat
