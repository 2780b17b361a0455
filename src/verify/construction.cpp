#include "verify/construction.h"

#include <map>

#include <algorithm>

#include "util/error.h"
#include "util/text.h"
#include "util/suggest.h"

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

std::function<std::unique_ptr<BlockWorker>()> scalar_blocks(std::function<std::optional<Failure>(std::uint64_t)> run) {
  struct Adapter : BlockWorker {
    std::function<std::optional<Failure>(std::uint64_t)> run_one;
    void run(std::uint64_t k0, std::uint64_t count, BlockResult& r) override {
      for (std::uint64_t k = k0; k < k0 + count; ++k)
        if (run_one(k)) r.fail(k);
    }
  };
  return [run = std::move(run)] {
    auto a = std::make_unique<Adapter>();
    a->run_one = run;
    return std::unique_ptr<BlockWorker>(std::move(a));
  };
}

namespace {
std::map<std::string, std::vector<std::string>>& mutable_routes() {
  static std::map<std::string, std::vector<std::string>> r;
  return r;
}
}  // namespace

bool register_routes(const std::string& construction, std::vector<std::string> routes) {
  auto& v = mutable_routes()[construction];
  v.insert(v.end(), routes.begin(), routes.end());
  return true;
}

const std::vector<std::string>& routes_of(const std::string& construction) {
  static const std::vector<std::string> none;
  auto it = mutable_routes().find(construction);
  return it == mutable_routes().end() ? none : it->second;
}

const Construction* construction_with_route(const std::string& route) {
  for (const auto& c : registry())
    for (const auto& r : routes_of(c.name))
      if (r == route) return &c;
  return nullptr;
}

const Construction& find_construction(const std::string& name) {
  for (const auto& c : registry())
    if (c.name == name) return c;
  std::vector<std::string> names;
  for (const auto& c : registry()) names.push_back(c.name);
  throw InputError("unknown construction '" + quoted_value(name) + "' (see `circuitzoo list`)" + did_you_mean(name, names), quoted_value(name));
}

}  // namespace cz
