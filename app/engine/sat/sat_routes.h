// The special proof routes of --method sat (issue 47 item 2), by id. A construction registers the
// ids its artifact takes from its own file (verify/construction.h register_routes); the engine
// keeps here what each id proves and when it applies, and never compares a construction's name.
//   sat:model            one integer model for the whole domain, bit-blasted against its task's
//                        reference (mqar triples, an integer map): sat_model_path.h
//   sat:to-model         a circuit compiled into a model, against the map its `source` names
//   sat:dyadic-stages    an MQAR circuit proved stage by stage (dyadic intervals, then the
//                        parallel binary search call by call): sat_stages.h
//   sat:sort-stages      a sorting network proved comparator by comparator (0-1 principle)
//   sat:sd-program       a recurrent SD program unrolled per prompt length: sat_sd.h
//   sat:sd-via-gar       the same for SD through GAR's calls
//   sat:autocorrelation-circuit, sat:based-circuit
//                        instance -> data-dependent kernels -> model -> answer as one circuit: sat_data.h
//   sat:eq-via-mqar, sat:gar-via-sd
//                        reductions proved as compositions: sat_reductions.h
// Beside them, by artifact kind and task alone: an all-Bit circuit of task compare or sort against
// the task's reference checker (circuits/reference), one miter per output word.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "app/engine/sat/sat_path.h"

namespace cz {

struct SatRoute {
  std::string id;
  std::function<bool(const Construction&, const Params&, const Built&)> covers;
  std::function<SatOutcome(const Construction&, const Params&, const Built&, const SatOptions&)> run;
};

// nullptr for an id no route has.
const SatRoute* find_sat_route(const std::string& id);
// Every id (tests: each registered id is one of these).
std::vector<std::string> sat_route_ids();

}  // namespace cz
