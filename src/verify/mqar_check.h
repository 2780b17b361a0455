// Verification of MQAR artifacts (generic over how the artifact is built and evaluated; used by
// mqar/attention, mqar/autocorrelation, and open to mqar/dyadic):
//  - mqar_check(): on a domain of instances, the artifact's WHOLE output matrix must equal the
//    encoded reference answers at the query rows and zero rows elsewhere, and the found column
//    where the output has one (mqar::expected_answer of mqar::reference_answers). Data-dependent artifacts build
//    themselves per instance inside `run`.
//  - the --from-npy path (contract.md): a construction registers an MqarSolverFactory; the batch
//    check then compares, at every labelled position, the artifact's decoded answer with the
//    label, and also the reference solver's answer with the label (a disagreement of the
//    reference with the labels is reported as a failure too, never hidden).
#pragma once
#include <functional>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "exact/integer.h"
#include "tasks/mqar.h"
#include "tasks/mqar_domain.h"
#include "verify/construction.h"

namespace cz {

struct MqarRun {
  Matrix<Int> output;               // the artifact's N×d output (N×(d+1) with MQAR's found column, tasks/mqar.h), exact
  nlohmann::json info = nullptr;    // what the artifact chose for this instance (e.g. its lags)
};

struct MqarSolver {
  mqar::Codec codec;                                   // how inputs are encoded, outputs decoded
  std::function<MqarRun(const mqar::Instance&)> run;   // thread-safe
  // Optional batched path for triples domains (Domain::triples_n > 0): a per-thread BlockWorker
  // that decides the same verdicts as the whole-output check below; `scalar` is that check for
  // one index (for instances the batch cannot decide exactly).
  std::function<std::unique_ptr<BlockWorker>(const mqar::Domain&, std::function<std::optional<Failure>(std::uint64_t)> scalar)>
      block;
};

// Whole-output check on a domain.
Check mqar_check(const mqar::Domain& dom, const MqarSolver& solver);

// --from-npy support.
using MqarSolverFactory = std::function<MqarSolver(const Params&, const Built&)>;
bool register_mqar_solver(const std::string& construction, MqarSolverFactory f);
const MqarSolverFactory* find_mqar_solver(const std::string& construction);

// `verify NAME --from-npy INPUTS LABELS` (run by app/engine/byo/verify_npy.h): builds the construction
// with `given` (layout=zoology and N = the file's row length are filled in when the construction
// has those parameters and they are not given; c defaults to 1 + the largest token or label), and
// returns the check of every example.
struct NpyCheck {
  Params params;
  Built built;
  Check check;
};
NpyCheck npy_check(const Construction& c, std::map<std::string, std::string> given, const std::string& inputs_path,
                   const std::string& labels_path);
// The same batch check for any MQAR solver (issue 49 item 13: a user's model against task mqar,
// `verify --model FILE --task mqar --from-npy`): `schema` is the parameters' (a construction's or
// the task's), `make_solver` gives the solver at the parameters the batch implies; the result's
// `built` holds only the batch metrics.
NpyCheck npy_batch_check(const std::vector<ParamSpec>& schema, std::map<std::string, std::string> given,
                         const std::string& inputs_path, const std::string& labels_path,
                         const std::function<MqarSolver(const Params&)>& make_solver);
// `given` filled from the batch as npy_batch_check fills it (layout=zoology, N, c, kv where the
// schema has them and `given` does not say).
std::map<std::string, std::string> npy_given(const std::vector<ParamSpec>& schema, std::map<std::string, std::string> given,
                                             const std::string& inputs_path, const std::string& labels_path);

}  // namespace cz
