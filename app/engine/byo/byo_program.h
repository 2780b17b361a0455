// `verify --program FILE --task sd` (issue 15, item 4): a recurrent program file
// (model/program_json.h; `export sd/recurrent-jrt --format program` writes one) run on the SD
// task's domain (the same domains and counts as sd/recurrent-jrt) against sd::intersection, with
// its state measured in bits beside JRT Thm G.15's claims.
#pragma once
#include <map>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "app/engine/engine.h"
#include "model/program_json.h"
#include "tasks/sd.h"

namespace cz {

// The check of one instance (what the enumeration runs on each): the program on the instance's
// prompt against sd::intersection; the failure (wrong answer, or the program's error), or nullopt.
std::optional<Failure> program_failure(const ProgramFile& pf, const sd::Instance& x);
// Task sd's parameters for the file (n and prompt from the file; InputError when -p disagrees).
Params program_task_params(const ProgramFile& pf, const std::string& file, const std::string& task_name,
                           std::map<std::string, std::string> given);

// source: the file's JSON; when given, the check gets the device path of the file compiled to
// bytecode (constructions/sd/program_device.h) for `--device twin|cuda|auto`.
Report run_program_check(const ProgramFile& pf, const std::string& file, const std::string& task,
                         std::map<std::string, std::string> given, const DomainOptions& opts,
                         const nlohmann::json* source = nullptr);

}  // namespace cz
