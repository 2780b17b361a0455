#include "verify/construction.h"

#include <algorithm>

#include "util/error.h"

namespace cz {
namespace {
std::vector<Construction>& mutable_registry() {
  static std::vector<Construction> r;
  return r;
}
}  // namespace

bool register_construction(Construction c) {
  auto& r = mutable_registry();
  auto pos = std::lower_bound(r.begin(), r.end(), c.name, [](const Construction& a, const std::string& n) { return a.name < n; });
  r.insert(pos, std::move(c));
  return true;
}

const std::vector<Construction>& registry() { return mutable_registry(); }

const Construction& find_construction(const std::string& name) {
  for (const auto& c : registry())
    if (c.name == name) return c;
  throw InputError("unknown construction '" + name + "' (see `circuitzoo list`)", name);
}

}  // namespace cz
