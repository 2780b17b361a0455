#include "verify/sd_domain.h"

#include "util/error.h"
#include "util/seeded.h"
#include "verify/matrix_domain.h"

namespace cz::sdc {

sd::Instance SdDomain::instance(std::uint64_t k) const {
  if (exhaustive) {
    if (kind == Subsets) return sd::subset_pair(n, k);
    if (kind == Orders) return sd::order_pair(n, kmax, k);
    return sd::sized_pair(n, a, b, k);
  }
  InstanceRng rng(seed, k);
  sd::Below below = [&rng](std::uint64_t m) { return rng.below(m); };
  if (kind == Subsets) return sd::sample_subset_pair(n, below);
  if (kind == Orders) return sd::sample_order_pair(n, kmax, below);
  return sd::sample_sized_pair(n, a, b, /*plant=*/k % 2 == 1, below);
}

std::string SdDomain::describe() const {
  const std::string U = "{0,1}^" + std::to_string(n);
  std::string what;
  if (kind == Subsets) what = "pairs of subsets of " + U + " (elements in increasing order)";
  else if (kind == Orders) what = "pairs of sequences of at most " + std::to_string(kmax) + " distinct elements of " + U + " (every order)";
  else what = "pairs of sets of " + U + " with |A|=" + std::to_string(a) + ", |B|=" + std::to_string(b) + " (elements in increasing order)";
  if (exhaustive) return "all " + std::to_string(count) + " " + what;
  std::string s = std::to_string(count) + " seeded random " + what + ", seed " + std::to_string(seed);
  if (kind == Sized) s += "; odd-indexed samples get a planted common element";
  return s;
}

std::vector<ParamSpec> sd_domain_params(std::int64_t n_default, const std::string& domain_default) {
  return {int_param("n", n_default, 1, 20, "element width: A, B are subsets of {0,1}^n"),
          choice_param("domain", domain_default, {"subsets", "orders", "sized"},
                       "subsets: all subset pairs; orders: every order of sets of <= kmax elements; sized: |A|=a, |B|=b, elements in "
                       "increasing order"),
          int_param("kmax", 3, 0, 64, "domain=orders: most elements per set"),
          int_param("a", 2, 0, 1 << 16, "domain=sized: |A|"),
          int_param("b", 3, 0, 1 << 16, "domain=sized: |B|")};
}

SdDomain make_sd_domain(const Params& p, const DomainOptions& o) {
  SdDomain d;
  d.n = static_cast<unsigned>(p.u("n"));
  d.kmax = p.u("kmax");
  d.a = p.u("a");
  d.b = p.u("b");
  d.seed = o.seed;
  const std::string& k = p.s("domain");
  d.kind = k == "subsets" ? SdDomain::Subsets : k == "orders" ? SdDomain::Orders : SdDomain::Sized;
  const std::uint64_t U = std::uint64_t(1) << d.n;
  if (d.kind == SdDomain::Sized && (d.a > U || d.b > U))
    throw InputError("a set cannot have more than 2^n elements", "-p a=" + p.s("a") + " -p b=" + p.s("b"));
  std::optional<std::uint64_t> c = d.kind == SdDomain::Subsets ? sd::count_subset_pairs(d.n)
                                   : d.kind == SdDomain::Orders ? sd::count_order_pairs(d.n, d.kmax)
                                                                : sd::count_sized_pairs(d.n, d.a, d.b);
  const std::uint64_t small = std::uint64_t(1) << kExhaustiveBitsDefault, big = std::uint64_t(1) << kExhaustiveBitsMax;
  if (o.force_exhaustive) {
    if (!c || *c > big) throw InputError("exhaustive SD domain is too large (limit 2^32 pairs)", "--exhaustive");
    d.exhaustive = true;
  } else if (o.samples) {
    d.exhaustive = false;
  } else {
    d.exhaustive = c && *c <= small;
  }
  d.count = d.exhaustive ? *c : (o.samples ? *o.samples : 20000);
  return d;
}

}  // namespace cz::sdc
