#include "gpu/program_check.h"

#include <cstdint>

#include "gpu/program_launch.h"

namespace cz::gpu {
namespace {

class Twin : public BlockWorker {
 public:
  Twin(const ProgramJob& job, const std::vector<ProgInsn>& code) : job_(job), code_(code), s_(std::make_unique<ProgramScratch>()) {}
  void run(std::uint64_t k0, std::uint64_t count, BlockResult& r) override {
    FailTally f;  // one thread of stride 1: the kernel's own loop (prog_thread)
    prog_thread(job_, code_.data(), k0, count, 0, 1, *s_, f);
    if (!f.failed) return;
    BlockResult b;
    b.failed = f.failed;
    b.first = f.first;
    r.merge(b);
  }

 private:
  ProgramJob job_;
  std::vector<ProgInsn> code_;
  std::unique_ptr<ProgramScratch> s_;  // preallocated: the hot loop allocates nothing
};

class Cuda : public BlockWorker {
 public:
  Cuda(const ProgramJob& job, const std::vector<ProgInsn>& code) : launch_(job, code) {}
  void run(std::uint64_t k0, std::uint64_t count, BlockResult& r) override {
    std::uint64_t failed = 0, first = UINT64_MAX;
    launch_.run(k0, count, failed, first);
    if (!failed) return;
    BlockResult b;
    b.failed = failed;
    b.first = first;
    r.merge(b);
  }

 private:
  ProgramLaunch launch_;
};

class Program : public DeviceProgram {
 public:
  Program(ProgramJob job, std::vector<ProgInsn> code) : job_(job), code_(std::move(code)) {}
  std::string kind() const override { return "recurrent program bytecode, one instance per thread"; }
  std::unique_ptr<BlockWorker> twin() const override { return std::make_unique<Twin>(job_, code_); }
  std::unique_ptr<BlockWorker> cuda() const override { return std::make_unique<Cuda>(job_, code_); }
  std::uint64_t twin_block() const override { return 1024; }

 private:
  ProgramJob job_;
  std::vector<ProgInsn> code_;
};

}  // namespace

std::shared_ptr<const DeviceProgram> program_device(const ProgramCode& code, const SdShape& shape, bool exact_min_state) {
  if (code.info.n != shape.n) return nullptr;
  ProgramJob job;
  job.info = code.info;
  job.shape = shape;
  job.exact_min_state = exact_min_state;
  return std::make_shared<Program>(job, code.code);
}

}  // namespace cz::gpu
