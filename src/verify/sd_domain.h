// The instance domains of SD (JRT App. G): every pair of subsets of {0,1}^n (increasing order),
// every pair of ordered sequences of at most kmax distinct elements, or sets of fixed sizes a and
// b (increasing order, sampled ones too); exhaustive when small enough, else seeded samples (tasks/sd.h does the enumeration; this file
// only picks exhaustive vs sampled from the CLI options). Shared by the SD constructions
// (constructions/sd/domain.h) and the sd task (verify/task_others.cpp), so their counts agree.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tasks/sd.h"
#include "verify/construction.h"

namespace cz::sdc {

struct SdDomain {
  enum Kind { Subsets, Orders, Sized } kind = Subsets;
  unsigned n = 2;
  std::size_t kmax = 3, a = 1, b = 1;
  bool exhaustive = true;
  std::uint64_t count = 0, seed = 1;

  sd::Instance instance(std::uint64_t k) const;
  std::string describe() const;
};

// The parameters every SD construction shares: n, domain, kmax, a, b.
std::vector<ParamSpec> sd_domain_params(std::int64_t n_default, const std::string& domain_default);
// Exhaustive when the count is at most 2^22 (or --exhaustive up to 2^32), else `samples`
// (default 20,000) seeded draws. Throws InputError on impossible sizes.
SdDomain make_sd_domain(const Params& p, const DomainOptions& o);

}  // namespace cz::sdc
