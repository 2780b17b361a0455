// The bit-sliced device path of all-Bit circuit checks (issue 12): a circuits::Circuit compiled to
// LOP3 ops (gpu/lop_program.h) with a task saying how instances are generated and what a correct
// answer is (gpu/lop_kernel.h); the DeviceProgram is gpu::LopCheck (gpu/lop_device_program.h).
// The factories return null when the circuit's inputs or outputs do not have the task's shape
// (the check then simply has no device path).
#pragma once
#include <memory>
#include <vector>

#include "circuits/circuit.h"
#include "gpu/mqar_source.h"
#include "verify/construction.h"

namespace cz::gpu {

// circuit/compare of d-bit words (inputs x then y; outputs lt, eq, min[d], max[d]).
std::shared_ptr<const DeviceProgram> lop_compare_check(const circuits::Circuit& c, std::size_t d);
// circuit/sort of n d-bit keys with w-bit index payloads (n <= 64 = kMaxSortKeys of gpu/lop_kernel.h, d <= 64).
std::shared_ptr<const DeviceProgram> lop_sort_check(const circuits::Circuit& c, std::size_t n, std::size_t d, std::size_t w);
// mqar/dyadic on a triples domain, exhaustive or seeded (gpu/mqar_source.h: triples_source of the
// CPU domain): codes[t] = token t's d code columns; out_cols = d, + 1 with a found column.
std::shared_ptr<const DeviceProgram> lop_triples_check(const circuits::Circuit& c, const TriplesSource& src, std::size_t d,
                                                       std::size_t out_cols, bool found, const std::vector<std::vector<int>>& codes);
// No reference (every instance passes): evaluation throughput on 0/1 inputs (benchmarks).
std::shared_ptr<const DeviceProgram> lop_eval_only_check(const circuits::Circuit& c);

}  // namespace cz::gpu
