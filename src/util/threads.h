// How many worker threads a run uses. Core, not engine: constructions size their memory estimates
// by it (constructions/memory_estimate.h) and the engine (app/engine) runs on it.
#pragma once

namespace cz {

// Worker threads: 0 means all cores; at most kMaxThreads (the CLI refuses more with exit 2, and
// the engine clamps to it). A fixed bound, not one per machine, so a command line that works on
// one machine works on every other.
inline constexpr unsigned kMaxThreads = 1024;
unsigned resolve_threads(unsigned requested);

}  // namespace cz
