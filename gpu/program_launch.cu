// The program kernel on the GPU: a capped grid whose threads stride over instances k0 + t with the
// CZ_HD bodies of gpu/program_kernel.h (prog_thread; the CPU twin runs the same text), scratch in
// local memory.
#include "gpu/cuda_util.cuh"
#include "gpu/program_launch.h"
#include "gpu/warp_tally.cuh"

namespace cz::gpu {

namespace {
constexpr int kThreads = 128;
static_assert(kThreads % 32 == 0, "flush_tally needs whole warps");
// Grid cap (issue 29 item 7): 2^16 blocks × 128 threads = 8.4M threads, far more than an H200
// keeps resident (132 SMs × 2048); each thread strides over the rest, so any count is covered.
constexpr std::uint32_t kMaxBlocks = 1u << 16;

// 10 blocks of 128 per SM (40 of 64 warps): ptxas (sm_90) gives 48 registers and a 4-byte spill,
// against 79 registers (24 warps) unbounded with the stride loop and 44 for the old kernel; the
// 4112-byte ProgramScratch in local memory dwarfs the spill.
__global__ void __launch_bounds__(kThreads, 10)
    program_kernel(ProgramJob job, const ProgInsn* code, std::uint64_t k0, std::uint64_t count, unsigned long long* failed,
                   unsigned long long* first) {
  ProgramScratch s;
  FailTally f;
  prog_thread(job, code, k0, count, std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x, std::uint64_t(gridDim.x) * blockDim.x,
              s, f);
  flush_tally(f, failed, first);
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
  const GridShape g = grid_shape(count, kThreads, kMaxBlocks);
  if (g.blocks)
    program_kernel<<<g.blocks, g.threads>>>(impl_->job, impl_->code.get(), k0, count, impl_->result.get(), impl_->result.get() + 1);
  CZ_CUDA_CHECK(cudaGetLastError());
  CZ_CUDA_CHECK(cudaDeviceSynchronize());
  unsigned long long out[2];
  impl_->result.download(out, 2);
  failed = out[0];
  first = out[1];
}

}  // namespace cz::gpu
