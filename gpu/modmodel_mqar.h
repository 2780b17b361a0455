// Kernel bodies of the MQAR whole-output check on the modular model (issue 12): the input matrix
// of a triples instance in the construction's encoding, and the verdict of one output entry.
// They replicate tasks/mqar.h (encode_token, expected_output) and verify/mqar_check.cpp's rule:
// the artifact's WHOLE N×d output equals the encoded reference answers at the query rows (3i+2;
// a null answer is the zero row) and zero elsewhere. CZ_HD; light header (.cu files include it).
#pragma once
#include <cstdint>

#include "gpu/hd.h"
#include "gpu/modmodel_kernel.h"

namespace cz::gpu {

enum : std::int32_t { kModOneHot = 0, kModBinary = 1, kModPHot = 2 };  // mqar::Encoding

struct ModCodec {
  std::int32_t enc = kModOneHot, c = 0, p = 1, base = 0, d = 0;  // mqar::Codec
};

// Column j of the encoding of token t (mqar::encode_token): one-hot e_t; binary bit j (LSB
// first); p-hot: column j = k·base + r holds [digit k of t (base `base`, least significant first) == r].
CZ_HD std::uint32_t mod_encode_entry(const ModCodec& k, std::int32_t t, std::int32_t j) {
  if (k.enc == kModOneHot) return t == j ? 1u : 0u;
  if (k.enc == kModBinary) return (static_cast<std::uint32_t>(t) >> j) & 1u;
  std::uint32_t r = static_cast<std::uint32_t>(t);
  for (std::int32_t i = 0; i < j / k.base; ++i) r /= static_cast<std::uint32_t>(k.base);
  return r % static_cast<std::uint32_t>(k.base) == static_cast<std::uint32_t>(j % k.base) ? 1u : 0u;
}

// Token of row r of a triples instance (rows 3i, 3i+1, 3i+2 = key, value, query of triple i).
CZ_HD std::int32_t mod_triples_token(const std::int32_t* keys, const std::int32_t* vals, const std::int32_t* qs, std::int32_t r) {
  const std::int32_t i = r / 3, m = r % 3;
  return m == 0 ? keys[i] : (m == 1 ? vals[i] : qs[i]);
}

// Entry (r, j) of the embedded input x (N'×d'): the encoding inside the top-left N×d, else 0.
CZ_HD std::uint32_t mod_input_entry(const ModModelView& v, const ModCodec& k, const std::int32_t* keys,
                                    const std::int32_t* vals, const std::int32_t* qs, std::int32_t r, std::int32_t j) {
  if (r >= v.N || j >= v.d) return 0;
  return mod_encode_entry(k, mod_triples_token(keys, vals, qs, r), j);  // 0/1: a residue for every prime
}

// Expected output entry (r, j) (mqar::expected_output): 0 or 1.
CZ_HD std::uint32_t mod_expected_entry(const ModCodec& k, const std::int32_t* ans, std::int32_t r, std::int32_t j) {
  if (r % 3 != 2 || ans[r / 3] < 0) return 0;
  return mod_encode_entry(k, ans[r / 3], j);
}

// Whether output entry (r, j) is right, from its residues x_q[r][j] (x_q = the scratch of prime q,
// `stride` words apart). The exact output y satisfies |y| <= B and the expected e is 0 or 1 <= B,
// so |y − e| <= 2B < P: y = e iff y ≡ e modulo every prime (CRT), and no lift is needed.
CZ_HD bool mod_entry_ok(const ModModelView& v, const std::uint32_t* x0, std::uint64_t stride, std::uint32_t want,
                        std::int32_t r, std::int32_t j) {
  for (std::int32_t q = 0; q < v.primes; ++q)
    if (x0[q * stride + std::uint64_t(r) * v.dp + j] != want) return false;
  return true;
}

}  // namespace cz::gpu
