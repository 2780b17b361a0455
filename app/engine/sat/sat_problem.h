// What a --method sat proof is about (shared by the circuit path, sat_path.cpp, and the integer
// model path, sat_model_path.cpp): the all-Bit artifact, the task's reference checker, the domain
// stated exactly, and how a SAT model (the checker's task input bits) is confirmed by the exact
// evaluator / the enumerating engine before anything is reported.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/engine/sat/sat_path.h"
#include "circuits/reference/checker.h"
#include "circuits/reference/mqar_ref.h"
#include "tasks/mqar.h"

namespace cz {

struct SatProblem {
  std::shared_ptr<const circuits::Circuit> artifact;
  circuits::reference::Checker checker;
  std::string domain_text;
  Int instances{0};
  // The engine's failure on the instance of these task input bits; nullopt: the engine finds the
  // instance correct (then the SAT answer was wrong: a bug of this path, exit 3).
  std::function<std::optional<Failure>(const std::vector<int>& bits)> confirm;
  std::vector<std::string> notes;
};

// Shared helpers (sat_problem.cpp): output names in order; b^e; the checker's task input names in
// its order; the artifact's inputs (matched by name) from those bits; the report's head.
std::vector<std::string> sat_output_names(const circuits::Circuit& c);
Int sat_power(Int b, std::size_t e);
// An instance count for the report: an integer, or a decimal string past 2^63 (contract.md).
nlohmann::json sat_count_json(const Int& x);
std::vector<std::string> sat_task_input_names(const circuits::reference::Checker& ch);
std::vector<std::int64_t> sat_artifact_inputs(const circuits::Circuit& a, const std::vector<std::string>& names,
                                              const std::vector<int>& bits);
nlohmann::json sat_head_of(const std::string& name, const Params& p, const Built& bt);
// A user's circuit for a task whose inputs are bits: Field-typed wires (arithmetic Bristol, a
// hand-written file) become certified Bits where provable (circuits/bit_infer.h: equal to the file
// on every 0/1 input, which is the task's whole domain); InputError(where) when an output stays Field.
std::shared_ptr<const circuits::Circuit> sat_bit_circuit(std::shared_ptr<const circuits::Circuit> c, const std::string& where);

// The circuit artifacts' problems (sat_mqar.cpp, sat_words.cpp).
SatProblem sat_dyadic_problem(const Params& p, const Built& bt);
SatProblem sat_compare_problem(const Construction& c, const Params& p, const Built& bt);
SatProblem sat_sort_problem(const Construction& c, const Params& p, const Built& bt);

// Builds and solves the miters, decodes and confirms SAT models, and writes the report into head.
SatOutcome solve_sat_problem(SatProblem& pr, const SatOptions& o, nlohmann::json head);

// The engine's check of one instance index k (the run/shrink path `verify` reports), or nullopt.
std::optional<Failure> sat_engine_failure(const Check& check, std::uint64_t k);

// MQAR triples, shared by both paths: the instance of a SAT model's u[r][j] bits (row-major,
// decoded by src/tasks), the reference checker's spec, the instance count P(c,n)·c^n·c^n and the
// domain's description.
mqar::Instance sat_mqar_instance(const mqar::Codec& codec, std::size_t n, const std::vector<int>& bits);
circuits::reference::MqarSpec sat_mqar_spec(const mqar::Codec& codec, std::size_t n);
Int sat_triples_instances(std::size_t n, std::size_t c);
std::string sat_triples_text(std::size_t n, std::size_t c, const mqar::Codec& codec, const Int& count);

}  // namespace cz
