// Code written once for the CPU and the GPU (issue 12): nvcc compiles a CZ_HD function for both,
// g++ compiles the same text for the CPU twin that CI runs. Lives in util/ so that core headers
// (src/tensor/ntt_arith.h) can mark their arithmetic for the device without reaching up to gpu/.
// A CZ_HD body may not allocate, throw or call the standard library beyond <cstdint>.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define CZ_HD __host__ __device__ __forceinline__
#define CZ_DEVICE_CODE 1
#else
#define CZ_HD inline
#define CZ_DEVICE_CODE 0
#endif
