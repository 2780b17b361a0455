#include "app/engine/methods.h"

#include "app/engine/algebra/algebra.h"
#include "app/engine/sat/sat_path.h"

namespace cz {

std::vector<std::string> methods_at_defaults(const Construction& c) {
  std::vector<std::string> out = {"enumerate"};
  const Params p = Params::parse(c.params, {});
  const Built bt = c.build(p);
  // The methods' own dispatch predicates, so the list cannot drift from what verify accepts.
  if (sat_covers(c, p, bt)) out.push_back("sat");
  if (algebra_reference(c, p, bt)) out.push_back("algebra");
  return out;
}

}  // namespace cz
