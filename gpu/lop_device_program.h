// gpu::LopCheck, the DeviceProgram of the bit-sliced LOP3 path (gpu/lop_check.h makes them):
// twin() runs the kernel body (gpu/lop_kernel.h) on the CPU, 32 instances a word; cuda() launches
// it on the device (gpu/lop_launch.h). program() and task() are there for tests and benchmarks.
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
  LopCheck(const LopCheck&) = delete;  // task_.codes points into codes_
  LopCheck& operator=(const LopCheck&) = delete;
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

}  // namespace cz::gpu
