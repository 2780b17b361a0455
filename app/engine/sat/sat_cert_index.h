// The one reader of certificate directories (check-proof, sat_check_proof.cpp; issue 46 rows 8,
// 10-12; contract.md "check-proof"): the index at most 64 MiB of JSON read with the limits of every
// reader of the tool's own files (nesting, strings, values, a key twice), every field typed and
// named in messages; each certificate file a regular file of the directory itself, at most 4 GiB,
// one entry's only, its size compared with the index's before it is read; the proofs and models
// kept for the check within the memory budget.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/engine/sat/sat_equiv.h"
#include "circuits/sat/solve_hook.h"

namespace cz::sat_cert {

// One miter of an index, its files read (read_entry_files) and, after the re-run, its verdict.
struct Entry {
  std::string what, answer, cnf_file, cnf_sha, aux_file, aux_sha;
  std::uint64_t cnf_bytes = 0, aux_bytes = 0;
  std::string field;   // "miters[k]" of its index
  std::string status;  // "" until the re-run asks for it; "certified" or why not
  bool hash_ok = false;
  std::shared_ptr<const std::string> aux = std::make_shared<const std::string>();  // the proof or the model (shared: one file, one copy)
  bool used = false;
  std::shared_ptr<std::mutex> mu = std::make_shared<std::mutex>();  // one check per entry; entries checked in parallel
};

// DIR/index.json, every field check-proof goes by typed (InputError naming the field, exit 2).
nlohmann::json read_index(const std::string& dir);
// The index's "sweeps" (issue 48: each SAT sweep of the run, in call order, with the pairs its final
// round reduced by); nullopt when the index has none (written before sweeps ran under --proof DIR).
// The pairs' fit to the circuits is checked where they are used (sweep_round.h cand_of).
std::optional<std::vector<circuits::sat::SweepRecord>> read_sweeps(const nlohmann::json& idx, const std::string& ipath);
// run.equivalence of an equivalence run's index: the two files.
std::pair<EquivFile, EquivFile> equiv_files(const nlohmann::json& run, const std::string& ipath);
// The entries of one directory's index, every field checked, no file opened yet (several: the
// names in messages and the report are DIR/name, else the plain file name).
void index_entries(const std::string& dir, const nlohmann::json& idx, bool several, std::vector<Entry>& entries);
// The entries' files (spans[d]: directory d's entries): each opened once and refused unless a
// regular file of its directory, sizes compared with the index's before reading, hashes checked.
void read_entry_files(const std::vector<std::string>& dirs, const std::vector<std::pair<std::size_t, std::size_t>>& spans,
                      std::vector<Entry>& entries);

}  // namespace cz::sat_cert
