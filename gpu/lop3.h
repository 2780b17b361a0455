// One 3-input Boolean op on 32 lanes at once (issue 12): the instruction of the bit-sliced device
// path (gpu/lop_program.h). The truth table follows PTX lop3.b32's immLut convention: tt is
// f(0xF0, 0xCC, 0xAA), so bit a·4 + b·2 + c of tt is f(a, b, c). On the GPU this is one lop3.b32
// (its LUT must be an immediate, hence one template instance per table behind a switch; every
// thread of a warp runs the same op, so the switch never diverges). On the CPU it is an exact
// mux tree over the table's bits.
#pragma once
#include <cstdint>

#include "gpu/hd.h"

namespace cz::gpu {

// A program instruction: slot dst = f_tt(slot a, slot b, slot c).
struct LopOp {
  std::uint8_t tt;
  std::uint32_t dst, a, b, c;
};

inline constexpr std::uint32_t kNoLopSlot = 0xffffffffu;

// A program as the kernel body sees it (gpu/lop_program.h builds it; host or device pointers).
struct LopView {
  const LopOp* ops = nullptr;
  std::uint32_t n_ops = 0;
  const std::uint32_t* in_slot = nullptr;  // per circuit input; kNoLopSlot when unread
  std::uint32_t n_in = 0;
  const std::uint32_t* out_slot = nullptr;  // per circuit output
  std::uint32_t n_out = 0;
};

// Bit masks of the three variables in the immLut convention.
inline constexpr std::uint8_t kLopA = 0xF0, kLopB = 0xCC, kLopC = 0xAA;

// The CPU formula (also the device fallback's meaning): Shannon expansion on a, then b, then c.
CZ_HD std::uint32_t lop3_generic(std::uint8_t tt, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  auto m = [tt](int i) { return 0u - ((static_cast<std::uint32_t>(tt) >> i) & 1u); };  // bit i of tt, all lanes
  const std::uint32_t nc = ~c, nb = ~b;
  const std::uint32_t f00 = (m(0) & nc) | (m(1) & c);  // a = 0, b = 0
  const std::uint32_t f01 = (m(2) & nc) | (m(3) & c);  // a = 0, b = 1
  const std::uint32_t f10 = (m(4) & nc) | (m(5) & c);  // a = 1, b = 0
  const std::uint32_t f11 = (m(6) & nc) | (m(7) & c);  // a = 1, b = 1
  const std::uint32_t f0 = (f00 & nb) | (f01 & b), f1 = (f10 & nb) | (f11 & b);
  return (f0 & ~a) | (f1 & a);
}

#if CZ_DEVICE_CODE
namespace detail {
template <int TT>
__device__ __forceinline__ std::uint32_t lop3_imm(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::uint32_t d;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(c), "n"(TT));
  return d;
}
}  // namespace detail
#endif

CZ_HD std::uint32_t lop3(std::uint8_t tt, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
#if defined(__CUDA_ARCH__)
#define CZ_LOP_C1(n) \
  case (n): return detail::lop3_imm<(n)>(a, b, c);
#define CZ_LOP_C4(n) CZ_LOP_C1(n) CZ_LOP_C1(n + 1) CZ_LOP_C1(n + 2) CZ_LOP_C1(n + 3)
#define CZ_LOP_C16(n) CZ_LOP_C4(n) CZ_LOP_C4(n + 4) CZ_LOP_C4(n + 8) CZ_LOP_C4(n + 12)
#define CZ_LOP_C64(n) CZ_LOP_C16(n) CZ_LOP_C16(n + 16) CZ_LOP_C16(n + 32) CZ_LOP_C16(n + 48)
  switch (tt) {
    CZ_LOP_C64(0)
    CZ_LOP_C64(64)
    CZ_LOP_C64(128)
    CZ_LOP_C64(192)
  }
#undef CZ_LOP_C1
#undef CZ_LOP_C4
#undef CZ_LOP_C16
#undef CZ_LOP_C64
  return lop3_generic(tt, a, b, c);  // unreachable: every 8-bit table has its case
#else
  return lop3_generic(tt, a, b, c);
#endif
}

// Index of the lowest set bit of x != 0.
CZ_HD int lop_ctz(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __ffs(static_cast<int>(x)) - 1;
#else
  return __builtin_ctz(x);
#endif
}

}  // namespace cz::gpu
