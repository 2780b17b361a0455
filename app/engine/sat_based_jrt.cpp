#include "app/engine/sat_data.h"

#include "util/error.h"

namespace cz {

bool sat_based_covers(const Params&) { return false; }

SatOutcome run_based_sat(const Params&, const Built&, const SatOptions&, nlohmann::json) {
  throw InputError("sd/based-jrt is not provable by --method sat yet", "--method sat");
}

}  // namespace cz
