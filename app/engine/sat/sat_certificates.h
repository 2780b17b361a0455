// Certificates of --method sat verdicts (issue 38 items 1-2; contract.md "Certificates").
//   --proof DIR: every CaDiCaL answer of the run, stage miters included, is kept: per UNSAT miter
//     its CNF and DRAT proof, per SAT answer its CNF and model (the stage and layer-bound paths
//     act on SAT answers too, so check-proof needs them to retrace the run), and index.json (miter
//     -> what it proves, file names, sizes, SHA-256, solver and version). Written into DIR.tmp-<pid>
//     beside DIR and renamed into place only when the run proves; DIR must not exist (refused up
//     front, and the rename never replaces one). Any write error: InputError (exit 2), no verdict.
//   --certify: each UNSAT answer's DRAT proof is checked as it arrives by our checker
//     (circuits/sat/drat_check.h); one that does not check is a lying solver: InputError (exit 2),
//     never "proved". The report counts the certified miters (sat.certified).
//   check-proof DIR: the run is done again with every solver call answered from DIR: each CNF the
//     construction's encoding gives is hashed and looked up in the index (so the saved CNF is
//     checked against the circuit, not trusted), its file's hash checked, its DRAT proof checked
//     (a model: checked to satisfy it); a CNF without a certificate gets no answer. Certified when
//     that run proves and every index entry was used and checked.
//   Scheduled runs (sat_schedule.h): every cube is an entry and the index records the splits; a
//     shard's DIR_I says "shard": "I/K" and check-proof takes the K directories together; under
//     mpirun the other ranks' proofs reach rank 0 with their results and rank 0 writes DIR, and
//     --certify counts every rank's checks (sat_certificates_sched.h, sat_certify_counts.h).
// The hook that sees every solver call is circuits/sat/solve_hook.h.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/engine/sat/sat_certify_counts.h"
#include "app/engine/sat/sat_path.h"

namespace cz {

// run() with the recorder of --proof DIR / --certify (o.proof_dir, o.certify) installed. identity:
// what check-proof needs to do the run again ({"construction", "params"}); null when it cannot
// (a user's circuit): DIR is then refused. Adds sat.certified / sat.certificates to the report.
SatOutcome run_sat_with_certificates(const SatOptions& o, const nlohmann::json& identity, const std::function<SatOutcome()>& run);

// The report's sat.certify of these counts (a run's, or merge's sum over its parts).
nlohmann::json certify_report_json(const CertifyCounts& c);

// Refuses a --proof DIR that exists, or whose parent cannot take the temporary directory (InputError).
void check_certificate_dir(const std::string& dir);

struct CheckProofResult {
  nlohmann::json report;  // {"dir", "verdict": certified|rejected, "run_verdict", "miters": [...], ...}
  int exit_code = 0;      // 0 certified, 1 rejected
};
// check-proof DIR (InputError on a malformed index, a missing or unreadable file, a malformed CNF
// or DRAT file: exit 2).
// circuits: for the directory of `circuit A --equiv B --proof DIR` (issue 47), where the two files
// are now (empty: the paths the index records); each must have the recorded SHA-256 (InputError).
CheckProofResult check_proof_dir(const std::string& dir, unsigned threads, const std::vector<std::string>& circuits = {});
// check-proof DIR_0 ... DIR_{K-1}: the K shards of one run (`verify --shard I/K --proof DIR_I`,
// each index "shard": "I/K", the same "run"), their entries and splits taken together; a missing,
// repeated or foreign shard is InputError. One directory: as check_proof_dir.
CheckProofResult check_proof_dirs(const std::vector<std::string>& dirs, unsigned threads, const std::vector<std::string>& circuits = {});

}  // namespace cz
