// The CLI's commands run from Python for their JSON (issue 39): python/circuitzoo/__init__.py sends a
// command's options as a JSON object (Python's argument names), run_command fills the command's
// options struct (app/cli/commands.h), runs the command itself with a Capture (its checks, its
// work, no text printed) and returns the JSON it would write to --json. One code path, so the
// module's results are the CLI's.
#pragma once
#include <string>

namespace cz::py_module {

// command: verify, stats, prove, claims, export, circuit, merge, tasks, device, check-proof. Returns
// the JSON text (export: null). Throws what the command throws (InputError: ValueError in Python).
std::string run_command(const std::string& command, const std::string& options_json);

}  // namespace cz::py_module
