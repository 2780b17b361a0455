// The program kernel on the GPU: thread t checks instance k0 + t with the CZ_HD bodies of
// gpu/program_kernel.h (the CPU twin runs the same text), its scratch in local memory.
#include "gpu/cuda_util.cuh"
#include "gpu/program_launch.h"

namespace cz::gpu {

namespace {
constexpr int kThreads = 128;

__global__ void program_kernel(ProgramJob job, const ProgInsn* code, std::uint64_t k0, std::uint64_t count,
                               unsigned long long* failed, unsigned long long* first) {
  const std::uint64_t t = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= count) return;
  ProgramScratch s;
  const std::uint64_t k = k0 + t;
  if (prog_instance_fails(job, code, k, s)) {
    atomicAdd(failed, 1ULL);
    atomicMin(first, static_cast<unsigned long long>(k));
  }
}
}  // namespace

struct ProgramLaunch::Impl {
  ProgramJob job;
  DeviceBuffer<ProgInsn> code;
  DeviceBuffer<unsigned long long> result;  // [failed, first]
};

ProgramLaunch::ProgramLaunch(const ProgramJob& job, const std::vector<ProgInsn>& code) : impl_(new Impl) {
  impl_->job = job;
  impl_->code.upload(code.data(), code.size());
  impl_->result.resize(2);
}

ProgramLaunch::~ProgramLaunch() = default;

void ProgramLaunch::run(std::uint64_t k0, std::uint64_t count, std::uint64_t& failed, std::uint64_t& first) {
  unsigned long long init[2] = {0ULL, ~0ULL};
  CZ_CUDA_CHECK(cudaMemcpy(impl_->result.get(), init, sizeof init, cudaMemcpyHostToDevice));
  const std::uint64_t blocks = (count + kThreads - 1) / kThreads;
  program_kernel<<<static_cast<unsigned>(blocks), kThreads>>>(impl_->job, impl_->code.get(), k0, count, impl_->result.get(),
                                                              impl_->result.get() + 1);
  CZ_CUDA_CHECK(cudaGetLastError());
  CZ_CUDA_CHECK(cudaDeviceSynchronize());
  unsigned long long out[2];
  impl_->result.download(out, 2);
  failed = out[0];
  first = out[1];
}

}  // namespace cz::gpu
