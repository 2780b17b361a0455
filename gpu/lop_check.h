// The bit-sliced device path of all-Bit circuit checks (issue 12): a circuits::Circuit compiled to
// LOP3 ops (gpu/lop_program.h) with a task saying how instances are generated and what a correct
// answer is (gpu/lop_kernel.h). twin() runs the kernel body on the CPU, 32 instances a word;
// cuda() launches it (gpu/lop_launch.h). The factories return null when the circuit's inputs or
// outputs do not have the task's shape (the check then simply has no device path).
#pragma once
#include <memory>
#include <vector>

#include "circuits/circuit.h"
#include "gpu/lop_kernel.h"
#include "gpu/lop_program.h"
#include "verify/construction.h"

namespace cz::gpu {

class LopCheck : public DeviceProgram {
 public:
  // codes: Triples' code table (task.codes is set to it here).
  LopCheck(const circuits::Circuit& c, const LopTask& task, std::vector<std::uint32_t> codes = {});
  std::string kind() const override { return "bit-sliced LOP3, 32-bit lanes"; }
  std::unique_ptr<BlockWorker> twin() const override;
  std::unique_ptr<BlockWorker> cuda() const override;
  std::uint64_t twin_block() const override { return 4096; }
  std::uint64_t cuda_block() const override { return std::uint64_t{1} << 26; }
  const LopProgram& program() const { return prog_; }
  const LopTask& task() const { return task_; }

 private:
  LopProgram prog_;
  std::vector<std::uint32_t> codes_;
  LopTask task_;
};

// circuit/compare of d-bit words (inputs x then y; outputs lt, eq, min[d], max[d]).
std::shared_ptr<const LopCheck> lop_compare_check(const circuits::Circuit& c, std::size_t d);
// circuit/sort of n d-bit keys with w-bit index payloads (n <= kMaxSortKeys, d <= 64).
std::shared_ptr<const LopCheck> lop_sort_check(const circuits::Circuit& c, std::size_t n, std::size_t d, std::size_t w);
// mqar/dyadic on the exhaustive triples domain (n triples over c tokens): codes[t] = token t's
// d code columns; out_cols = d, + 1 with a found column.
std::shared_ptr<const LopCheck> lop_triples_check(const circuits::Circuit& c, std::size_t n, std::size_t vocab, std::size_t d,
                                                  std::size_t out_cols, bool found, const std::vector<std::vector<int>>& codes);
// No reference (every instance passes): evaluation throughput on 0/1 inputs (benchmarks).
std::shared_ptr<const LopCheck> lop_eval_only_check(const circuits::Circuit& c);

}  // namespace cz::gpu
