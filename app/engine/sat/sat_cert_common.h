// What the --proof DIR writer (sat_certificates.cpp) and check-proof (sat_check_proof.cpp) share:
// the index's format tag, a CNF's DIMACS text (hashed and saved alike by both), and the scope that
// installs a solve hook for one run.
#pragma once
#include <sstream>
#include <string>

#include "circuits/sat/cnf.h"
#include "circuits/sat/solve_hook.h"

namespace cz::sat_cert {

inline constexpr const char* kFormat = "circuitzoo-sat-certificates/1";

inline std::string dimacs_of(const circuits::sat::Cnf& cnf) {
  std::ostringstream os;
  cnf.write_dimacs(os);
  return os.str();
}

struct HookScope {
  explicit HookScope(circuits::sat::SolveHook* h) { circuits::sat::set_solve_hook(h); }
  ~HookScope() { circuits::sat::set_solve_hook(nullptr); }
  HookScope(const HookScope&) = delete;
  HookScope& operator=(const HookScope&) = delete;
};

}  // namespace cz::sat_cert
