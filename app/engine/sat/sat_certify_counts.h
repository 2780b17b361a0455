// What --certify checked (issue 38): the DRAT checks of UNSAT answers, counted where they ran.
// The recorder (sat_certificates.cpp) counts per process for the report and per thread, so that
// the scheduler (sat_schedule.cpp) can carry a task's counts from the rank that solved it to rank
// 0 in the task's result: rank 0's report then counts every rank's checks.
#pragma once
#include <cstddef>

#include <nlohmann/json.hpp>

namespace cz {

struct CertifyCounts {
  std::size_t certified = 0, lemmas = 0, core = 0, rat = 0;  // UNSAT answers checked; their lemmas
  double seconds = 0;                                         // checking time
  CertifyCounts& operator+=(const CertifyCounts& b);
  CertifyCounts operator-(const CertifyCounts& b) const;
  bool empty() const { return certified == 0 && lemmas == 0 && core == 0 && rat == 0 && seconds == 0; }
};

// {"certified", "lemmas", "core", "rat", "seconds"} and back (InputError naming `where`).
nlohmann::json certify_counts_json(const CertifyCounts& c);
CertifyCounts certify_counts_of(const nlohmann::json& j, const std::string& where);

// The calling thread's checks so far (the recorder adds to it in the solving thread).
CertifyCounts& thread_certify_counts();
// Rank 0: the checks other ranks reported with their task results, since the last take.
void add_remote_certify_counts(const CertifyCounts& c);
CertifyCounts take_remote_certify_counts();

}  // namespace cz
