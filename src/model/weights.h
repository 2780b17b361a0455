// A model's weights as named int64 tensors, for PyTorch users (issue 16): `export --format npz`
// and `export --format safetensors`, and the Python module's build().
//
// Tensor names follow zoology's BaseConv (zoology/mixers/base_conv.py; ../shared/notes/zoology-peer.md
// §2) where an equivalent exists. Layer i of the model (0-based), with N' = inner_N, d' = inner_d:
//
//   baseconv  y = (u·W + b1) ⊙ (h ∗ u + b2)          (contract.md model-json; NO residual)
//     layers.{i}.projection.weight  (d', d')  = Wᵀ      zoology: same name and shape (nn.Linear [out, in],
//                                                       so u·W = u @ weight.T)
//     layers.{i}.projection.bias    (N', d')  = b1      zoology: (d',) shared by all positions; ours may
//                                                       differ per position (broadcasts when rows agree)
//     layers.{i}.conv.filter        (d', N')  = hᵀ      zoology LongConvolution.filter (d, l_max):
//                                                       filter[c, k] = h[k][c], tap k of channel c
//     layers.{i}.conv.bias          (N', d')  = b2      zoology's long conv has no bias
//   mlp       y = relu(u·W1 + B1)·W2 + B2
//     layers.{i}.fc1.weight (h, d') = W1ᵀ, layers.{i}.fc1.bias (N', h) = B1,
//     layers.{i}.fc2.weight (d', h) = W2ᵀ, layers.{i}.fc2.bias (N', d') = B2
//   linear_attention  z[t] = Σ_{s≤t} <(u·Wq)[t], (u·Wk)[s]> (u·Wv)[s]
//     layers.{i}.q_proj.weight (f, d') = Wqᵀ, layers.{i}.k_proj.weight (f, d') = Wkᵀ,
//     layers.{i}.v_proj.weight (d', d') = Wvᵀ
//
// Differences from zoology's BaseConv, which computes conv(u) ⊙ (u Wᵀ + b) + u with
// conv(u) = h∗u + u for the long convolution: zoology adds the residual `+ u` and an identity
// filter tap; our layer has neither. To run our weights in zoology's module set
// filter[:, 0] -= 1 (cancels the identity tap) and subtract the layer input after it (or use a
// plain BaseConv without residual, as examples/torch_baseconv.py does). The input is embedded
// top-left into N'×d' (zeros elsewhere) and the output is read from the top-left N×d.
//
// The conv mode (causal, cyclic, anticausal), the ring and the shapes are in the metadata:
// safetensors `__metadata__` (string values) and, in .npz, an entry `__metadata__` holding the
// same JSON object as uint8 bytes (json.loads(bytes(z["__metadata__"]))).
//
// Every tensor is int64 ('<i8' / "I64"). A model with an entry that is not an integer or does
// not fit int64 is refused (InputError) — export model-json instead, which is exact.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/model.h"

namespace cz {

struct NamedTensor {
  std::string name;
  std::vector<std::size_t> shape;
  std::vector<std::int64_t> data;  // row-major
};

struct ModelTensors {
  std::vector<NamedTensor> tensors;
  std::map<std::string, std::string> metadata;  // format, ring, N, d, inner_N, inner_d, conv, layers, residual
};

// Throws InputError (where = `where` + the entry) for an entry that is not an int64 integer.
ModelTensors model_tensors(const Model& m, const std::string& where = "model");

// The bytes of a safetensors file: 8-byte little-endian header length, the JSON header (padded
// with spaces to a multiple of 8), then the raw little-endian arrays in order.
std::string to_safetensors(const ModelTensors& t);
// The bytes of a .npz file: a zip (stored, no compression) of one version-1.0 .npy per tensor
// (NAME.npy) plus __metadata__.npy (uint8 JSON); past 4 GiB or 65535 entries with zip64 records.
std::string to_npz(const ModelTensors& t);
// A zip of FILES (name, bytes), stored, byte-identical for the same input. An entry whose size or
// offset reaches zip64_from (at most 2^32 - 1), and then the archive's end, get zip64 records
// (APPNOTE 4.5.3), as does an archive of 65535 entries or more; a smaller zip64_from forces them
// (tests read such a file back with Python's zipfile and numpy).
std::string zip_stored(const std::vector<std::pair<std::string, std::string>>& files,
                       std::uint64_t zip64_from = 0xFFFFFFFFull);

// Helpers, exposed for tests: a version-1.0 .npy file of '<i8' or '|u1' data; CRC-32 (zip; zlib's crc32).
std::string npy_bytes_i64(const std::vector<std::size_t>& shape, const std::vector<std::int64_t>& data);
std::string npy_bytes_u8(const std::string& data);
std::uint32_t crc32(const std::string& bytes);

}  // namespace cz
