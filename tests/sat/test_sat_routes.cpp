// The proof routes (issue 47 item 2): every id a construction registers is one the engine has, and
// `list`'s methods come from the same predicates verify dispatches on (a construction whose route
// covers its defaults lists sat; one without a route or a generic method does not).
#include <doctest/doctest.h>

#include <algorithm>

#include "app/engine/methods.h"
#include "app/engine/sat/sat_routes.h"
#include "verify/construction.h"

using namespace cz;

TEST_CASE("sat routes: every registered id exists and names its construction back") {
  const std::vector<std::string> ids = sat_route_ids();
  std::size_t routed = 0;
  for (const Construction& c : registry()) {
    INFO(c.name);
    for (const std::string& id : routes_of(c.name)) {
      CHECK((id.rfind("sat:", 0) == 0 || id.rfind("algebra:", 0) == 0));  // the methods' vocabularies
      if (id.rfind("sat:", 0) != 0) continue;
      CHECK(std::find(ids.begin(), ids.end(), id) != ids.end());
      CHECK(find_sat_route(id) != nullptr);
      CHECK(construction_with_route(id) != nullptr);
      ++routed;
    }
  }
  CHECK(routed >= 10);
  CHECK(find_sat_route("sat:no-such-route") == nullptr);
  CHECK(routes_of("no/such-construction").empty());
}

TEST_CASE("sat routes: list's sat column is the routes' own coverage") {
  for (const Construction& c : registry()) {
    INFO(c.name);
    const auto ms = methods_at_defaults(c);
    const bool sat = std::find(ms.begin(), ms.end(), "sat") != ms.end();
    const Params p = Params::parse(c.params, {});
    const Built bt = c.build(p);
    bool covered = false, routed = false;
    for (const std::string& id : routes_of(c.name))
      if (id.rfind("sat:", 0) == 0) routed = true, covered = covered || find_sat_route(id)->covers(c, p, bt);
    if (routed) CHECK(sat == covered);
    else if (sat) CHECK(c.task == "compare");  // the one method by artifact kind and task alone
  }
}
