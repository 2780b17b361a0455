#include "app/engine/methods.h"

#include "app/engine/sat_model_path.h"
#include "app/engine/sat_primitive_ref.h"
#include "verify/symbolic_reference.h"

namespace cz {

std::vector<std::string> methods_at_defaults(const Construction& c) {
  std::vector<std::string> out = {"enumerate"};
  const Params p = Params::parse(c.params, {});
  const Built bt = c.build(p);
  // sat: run_verify_sat's dispatch (app/engine/sat_path.cpp).
  if (sat_model_covers(c, p, bt) || c.name == "mqar/dyadic" || c.name == "circuit/compare" || c.name == "circuit/sort" ||
      c.name == "sd/recurrent-jrt")
    out.push_back("sat");
  // algebra: run_verify_algebra's dispatch (app/engine/algebra.cpp).
  if (bt.model && (symbolic_of(bt) || (c.name.rfind("primitive/", 0) == 0 && circuits::reference::is_integer_map(c.task))))
    out.push_back("algebra");
  return out;
}

}  // namespace cz
