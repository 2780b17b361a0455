// For .cu files only: CUDA errors become std::runtime_error (the engine reports them as one
// `error:` line), and device memory is owned by RAII buffers.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#define CZ_CUDA_CHECK(expr)                                                                          \
  do {                                                                                               \
    cudaError_t cz_err_ = (expr);                                                                    \
    if (cz_err_ != cudaSuccess)                                                                      \
      throw std::runtime_error(std::string("CUDA: ") + cudaGetErrorString(cz_err_) + " (" #expr ")"); \
  } while (0)

namespace cz::gpu {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n) { resize(n); }
  ~DeviceBuffer() { if (p_) cudaFree(p_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void resize(std::size_t n) {
    if (n <= n_) return;
    if (p_) cudaFree(p_);
    p_ = nullptr;
    n_ = 0;
    CZ_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&p_), n * sizeof(T)));
    n_ = n;
  }
  void upload(const T* host, std::size_t n) {
    resize(n);
    CZ_CUDA_CHECK(cudaMemcpy(p_, host, n * sizeof(T), cudaMemcpyHostToDevice));
  }
  void download(T* host, std::size_t n) const { CZ_CUDA_CHECK(cudaMemcpy(host, p_, n * sizeof(T), cudaMemcpyDeviceToHost)); }
  T* get() const { return p_; }
  std::size_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace cz::gpu
