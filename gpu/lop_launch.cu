// The bit-sliced device path on the GPU (issue 12). Each thread checks whole 32-instance word
// groups (grid-stride), running the CZ_HD body of gpu/lop_kernel.h; only the failure count and
// the smallest failing index come back (the engine rebuilds that counterexample on the CPU).
// Slots: in shared memory when slots × blockDim words fit (stride blockDim: consecutive threads
// hit consecutive banks), else in a global scratch of slots × threads words (stride = threads, so
// a warp's loads and stores coalesce); the grid is then sized so that the scratch stays bounded.
#include <algorithm>
#include <cstdint>

#include "gpu/cuda_util.cuh"
#include "gpu/device.h"
#include "gpu/lop_launch.h"

namespace cz::gpu {

namespace {

// Global-slot scratch cap: a quarter of the device's memory, at most 8 GiB (2^31 words, so slot ×
// stride indices stay 32-bit).
constexpr std::uint64_t kScratchCap = std::uint64_t{8} << 30;

__global__ void lop_kernel(LopView p, LopTask t, std::uint64_t base0, std::uint64_t lo, std::uint64_t hi,
                           std::uint64_t groups, std::uint32_t* scratch, unsigned long long* failed,
                           unsigned long long* first) {
  extern __shared__ std::uint32_t smem[];
  const std::uint64_t tid = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::uint64_t threads = std::uint64_t{gridDim.x} * blockDim.x;
  std::uint32_t* w = scratch ? scratch + tid : smem + threadIdx.x;
  const std::uint32_t stride = scratch ? static_cast<std::uint32_t>(threads) : blockDim.x;
  unsigned long long bad_count = 0;
  for (std::uint64_t g = tid; g < groups; g += threads) {
    const std::uint64_t base = base0 + 32 * g;
    const std::uint32_t bad = lop_group(p, t, base, lop_lane_mask(base, lo, hi), w, stride);
    if (bad) {
      bad_count += static_cast<unsigned long long>(__popc(bad));
      atomicMin(first, static_cast<unsigned long long>(base + static_cast<std::uint64_t>(__ffs(static_cast<int>(bad)) - 1)));
    }
  }
  if (bad_count) atomicAdd(failed, bad_count);
}

}  // namespace

struct LopLauncher::Impl {
  LopView view;  // device pointers
  LopTask task;  // task.codes: device pointer
  std::uint32_t slots = 0;
  DeviceBuffer<LopOp> ops;
  DeviceBuffer<std::uint32_t> in_slot, out_slot, codes, scratch;
  DeviceBuffer<unsigned long long> result;  // failed, first
  int sms = 1;
  std::size_t smem_optin = 48 * 1024;
  bool global_slots = false;
  std::uint64_t scratch_bytes = 0;
};

LopLauncher::LopLauncher(const LopView& prog, std::uint32_t slots, const LopTask& task, bool global_slots)
    : impl_(new Impl) {
  const DeviceInfo& d = cuda_device();
  if (!d.present) throw std::runtime_error(d.why_not);
  Impl& m = *impl_;
  m.slots = std::max<std::uint32_t>(slots, 1);
  m.sms = std::max(d.sm_count, 1);
  m.global_slots = global_slots;
  m.scratch_bytes = std::min<std::uint64_t>(kScratchCap, d.global_bytes / 4);
  int optin = 0;
  CZ_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, d.index));
  m.smem_optin = static_cast<std::size_t>(std::max(optin, 48 * 1024));
  // Empty arrays still get one element, so every pointer the kernel holds is valid.
  m.ops.resize(std::max<std::uint32_t>(prog.n_ops, 1));
  if (prog.n_ops) m.ops.upload(prog.ops, prog.n_ops);
  m.in_slot.resize(std::max<std::uint32_t>(prog.n_in, 1));
  if (prog.n_in) m.in_slot.upload(prog.in_slot, prog.n_in);
  m.out_slot.resize(std::max<std::uint32_t>(prog.n_out, 1));
  if (prog.n_out) m.out_slot.upload(prog.out_slot, prog.n_out);
  m.view = LopView{m.ops.get(), prog.n_ops, m.in_slot.get(), prog.n_in, m.out_slot.get(), prog.n_out};
  m.task = task;
  const std::size_t n_codes = task.kind == LopTaskKind::Triples ? static_cast<std::size_t>(task.src.shape.c) * task.code_words : 0;
  m.codes.resize(std::max<std::size_t>(n_codes, 1));
  if (n_codes) m.codes.upload(task.codes, n_codes);
  m.task.codes = m.codes.get();
  m.result.resize(2);
}

LopLauncher::~LopLauncher() = default;

void LopLauncher::run(std::uint64_t k0, std::uint64_t count, std::uint64_t& failed, std::uint64_t& first) {
  Impl& m = *impl_;
  failed = 0;
  first = UINT64_MAX;
  if (count == 0) return;
  const std::uint64_t base0 = k0 & ~std::uint64_t{31}, hi = k0 + count;
  const std::uint64_t groups = (hi - base0 + 31) / 32;
  const unsigned long long init[2] = {0, ~0ull};
  m.result.upload(init, 2);
  // Shared slots: the largest block of 256, 128, 64 or 32 threads whose slots fit.
  unsigned block = 256;
  while (block > 32 && std::size_t{m.slots} * block * 4 > m.smem_optin) block /= 2;
  const std::size_t smem = std::size_t{m.slots} * block * 4;
  std::uint32_t* scratch = nullptr;
  std::uint64_t grid = std::min<std::uint64_t>((groups + block - 1) / block, static_cast<std::uint64_t>(m.sms) * 32);
  std::size_t dyn = smem;
  if (smem > m.smem_optin || m.global_slots) {  // global slots: bound the scratch, the grid strides over the rest
    block = 128;
    const std::uint64_t cap = std::max<std::uint64_t>(block, m.scratch_bytes / (std::uint64_t{m.slots} * 4) / block * block);
    grid = std::max<std::uint64_t>(1, std::min<std::uint64_t>((groups + block - 1) / block, cap / block));
    m.scratch.resize(static_cast<std::size_t>(grid * block) * m.slots);
    scratch = m.scratch.get();
    dyn = 0;
  } else if (smem > 48 * 1024) {
    CZ_CUDA_CHECK(cudaFuncSetAttribute(lop_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  }
  lop_kernel<<<static_cast<unsigned>(grid), block, dyn>>>(m.view, m.task, base0, k0, hi, groups, scratch, m.result.get(),
                                                          m.result.get() + 1);
  CZ_CUDA_CHECK(cudaGetLastError());
  unsigned long long out[2];
  m.result.download(out, 2);  // synchronizes (and reports a fault of the kernel)
  failed = out[0];
  first = out[1];
}

}  // namespace cz::gpu
