// --method sat on a user's circuit file against a task (`verify --circuit F --task T --method
// sat`), dispatched by the task: compare and sort by their reference checkers (sat_words.cpp
// run_words_task_sat), the others by run_task_sat (sat_path.h). A task/kind/method the task does
// not list (Task::methods) is refused first.
#pragma once
#include <map>
#include <memory>
#include <string>

#include "app/engine/byo/byo.h"
#include "app/engine/sat/sat_path.h"

namespace cz {

SatOutcome run_circuit_task_sat(const Task& task, std::map<std::string, std::string> given, const ByoArtifact& a,
                                std::shared_ptr<const circuits::Circuit> circuit, const SatOptions& o);

}  // namespace cz
