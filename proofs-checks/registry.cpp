#include <algorithm>
#include <exception>

#include "proofs-checks/proof.h"
#include "util/error.h"

namespace cz::proofs {
namespace {
std::vector<ProofCheck>& reg() {
  static std::vector<ProofCheck> r;
  return r;
}
}  // namespace

bool register_proof(ProofCheck c) {
  auto& r = reg();
  auto at = std::lower_bound(r.begin(), r.end(), c.name, [](const ProofCheck& a, const std::string& n) { return a.name < n; });
  r.insert(at, std::move(c));
  return true;
}

const std::vector<ProofCheck>& proof_registry() { return reg(); }

const ProofCheck& find_proof(const std::string& name) {
  for (const auto& c : reg())
    if (c.name == name) return c;
  std::string names;
  for (const auto& c : reg()) names += (names.empty() ? "" : ", ") + c.name;
  throw InputError("unknown proof check '" + name + "' (known: " + names + ")", name);
}

ProofResult run_proof(const ProofCheck& c, const ProofOptions& o) {
  try {
    return c.run(o);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    ProofResult r;
    r.holds = false;
    r.verdict = std::string("the check itself failed: ") + e.what();
    return r;
  }
}

}  // namespace cz::proofs
