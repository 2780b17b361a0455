// Internal to src/tensor: the vector NTT kernels, one translation unit per instruction set
// (ntt_avx2.cpp, ntt_avx512.cpp), each function compiled with its own target attribute rather
// than file-wide -m flags, so no inline function of a shared header is ever emitted with AVX-512
// and picked by the linker for code that runs on a CPU without it. ntt.cpp dispatches to them.
//
// Every kernel performs exactly the butterflies of ntt_arith.h in the same arithmetic (two radix-2
// stages fused into one pass where the data leave cache otherwise), so its output equals the
// scalar code's bit for bit; tests/tensor/test_ntt.cpp checks that.
#pragma once
#include <cstddef>
#include <cstdint>

#include "tensor/ntt.h"

namespace cz::ntt_kernels {

// Entries per cache block: the stages below it run block by block. 2048 entries (8 KiB) plus the
// twiddles and companions of those stages (16 KiB) fit a 32 KiB L1; 4096 did not (measured 3-8%
// slower at N = 2^16 on the Zen 4 development machine).
inline constexpr std::size_t kBlock = 2048;

bool cpu_has_avx2();
bool cpu_has_avx512();  // F, BW, DQ, VL

// AVX2, 8 lanes: transforms need log_len ≥ 4. AVX-512, 16 lanes: log_len ≥ 5.
// forward: a[0, L) in [0, 2p) (or a[0, L/2) when half_zero: the upper half is zero and unread).
// inverse: a[0, L) in [0, 4p); a[0, n_out) in [0, p) out (see ntt_inverse_scalar for n_out ≤ L/2).
void forward_avx2(std::uint32_t* a, const NttTable& t, bool half_zero);
void inverse_avx2(std::uint32_t* a, const NttTable& t, std::size_t n_out);
void pointwise_avx2(std::uint32_t* a, const std::uint32_t* b, std::size_t len, std::uint32_t p, std::uint32_t pneg);
void mul_const_avx2(std::uint32_t* a, std::size_t len, std::uint32_t w, std::uint32_t wpre, std::uint32_t p);

void forward_avx512(std::uint32_t* a, const NttTable& t, bool half_zero);
void inverse_avx512(std::uint32_t* a, const NttTable& t, std::size_t n_out);
void pointwise_avx512(std::uint32_t* a, const std::uint32_t* b, std::size_t len, std::uint32_t p, std::uint32_t pneg);
void mul_const_avx512(std::uint32_t* a, std::size_t len, std::uint32_t w, std::uint32_t wpre, std::uint32_t p);

}  // namespace cz::ntt_kernels
