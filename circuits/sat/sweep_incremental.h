// The incremental sweep (sweep.h says what it does and why it is sound); sat_sweep calls it.
#pragma once
#include "circuits/sat/sweep.h"

namespace cz::circuits::sat {

SweepResult sweep_incremental(const JointAig& j, const SolverSpec& s, const SweepOptions& o);

}  // namespace cz::circuits::sat
