#include "model/weights.h"

#include <algorithm>
#include <array>
#include <variant>

#include <nlohmann/json.hpp>
#include <zlib.h>

#include "util/error.h"
#include "util/text.h"

namespace cz {
namespace {

void put_le(std::string& out, std::uint64_t v, int bytes) {
  for (int k = 0; k < bytes; ++k) out.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
}

// A (rows × cols) matrix, optionally transposed, as an int64 tensor.
NamedTensor tensor(const std::string& name, const RatMatrix& m, bool transpose, const std::string& where) {
  NamedTensor t{name, {}, {}};
  const std::size_t R = transpose ? m.cols() : m.rows(), C = transpose ? m.rows() : m.cols();
  t.shape = {R, C};
  t.data.reserve(R * C);
  for (std::size_t i = 0; i < R; ++i)
    for (std::size_t j = 0; j < C; ++j) {
      const Rat& x = transpose ? m(j, i) : m(i, j);
      const std::size_t r = transpose ? j : i, c = transpose ? i : j;
      if (!x.is_integer() || !x.num().fits_int64())
        throw InputError("entry [" + std::to_string(r) + "][" + std::to_string(c) + "] = " + quoted_value(x.str()) +
                             (x.is_integer() ? " does not fit int64" : " is not an integer") +
                             "; npz and safetensors hold int64 tensors only (export model-json instead: it is exact)",
                         where);
      t.data.push_back(x.num().to_int64());
    }
  return t;
}

std::string shape_tuple(const std::vector<std::size_t>& shape) {
  std::string s = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) s += (k ? ", " : "") + std::to_string(shape[k]);
  if (shape.size() == 1) s += ",";
  return s + ")";
}

std::string npy_header(const std::string& descr, const std::vector<std::size_t>& shape) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape_tuple(shape) + ", }";
  // magic(6) + version(2) + header length(2) + dict + padding + '\n', total a multiple of 64.
  std::size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict.push_back('\n');
  std::string out = "\x93NUMPY";
  out.push_back('\x01');
  out.push_back('\x00');
  put_le(out, dict.size(), 2);
  return out + dict;
}

std::string metadata_json(const ModelTensors& t) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : t.metadata) j[k] = v;
  return j.dump();
}

}  // namespace

ModelTensors model_tensors(const Model& m, const std::string& where) {
  ModelTensors out;
  std::string kinds;
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    const std::string p = "layers." + std::to_string(i) + ".";
    const std::string w = where + ".layers[" + std::to_string(i) + "].";
    auto add = [&](const std::string& name, const RatMatrix& x, bool tr, const std::string& field) {
      out.tensors.push_back(tensor(p + name, x, tr, w + field));
    };
    if (auto* b = std::get_if<BaseConvLayer>(&m.layers[i])) {
      kinds += std::string(kinds.empty() ? "" : ",") + "baseconv";
      add("projection.weight", b->W, true, "W");
      add("projection.bias", b->b1, false, "b1");
      add("conv.filter", b->h, true, "h");
      add("conv.bias", b->b2, false, "b2");
    } else if (auto* f = std::get_if<MlpLayer>(&m.layers[i])) {
      kinds += std::string(kinds.empty() ? "" : ",") + "mlp";
      add("fc1.weight", f->W1, true, "W1");
      add("fc1.bias", f->B1, false, "B1");
      add("fc2.weight", f->W2, true, "W2");
      add("fc2.bias", f->B2, false, "B2");
    } else if (auto* a = std::get_if<LinearAttentionLayer>(&m.layers[i])) {
      kinds += std::string(kinds.empty() ? "" : ",") + "linear_attention";
      add("q_proj.weight", a->Wq, true, "Wq");
      add("k_proj.weight", a->Wk, true, "Wk");
      add("v_proj.weight", a->Wv, true, "Wv");
    }
  }
  out.metadata = {{"format", "circuitzoo.weights/1"}, {"ring", m.ring},
                  {"N", std::to_string(m.N)}, {"d", std::to_string(m.d)},
                  {"inner_N", std::to_string(m.inner_N)}, {"inner_d", std::to_string(m.inner_d)},
                  {"conv", to_string(m.conv)}, {"layers", kinds}, {"residual", "none"}};
  return out;
}

std::string npy_bytes_i64(const std::vector<std::size_t>& shape, const std::vector<std::int64_t>& data) {
  std::string out = npy_header("<i8", shape);
  out.reserve(out.size() + 8 * data.size());
  for (std::int64_t v : data) put_le(out, static_cast<std::uint64_t>(v), 8);
  return out;
}

std::string npy_bytes_u8(const std::string& data) { return npy_header("|u1", {data.size()}) + data; }

// zlib's CRC-32 (the zip checksum, ISO 3309 polynomial), fed in chunks: its length is a uInt.
std::uint32_t crc32(const std::string& bytes) {
  uLong c = ::crc32(0L, Z_NULL, 0);
  constexpr std::size_t kChunk = 1u << 30;
  for (std::size_t at = 0; at < bytes.size(); at += kChunk) {
    const std::size_t n = std::min(kChunk, bytes.size() - at);
    c = ::crc32(c, reinterpret_cast<const Bytef*>(bytes.data() + at), static_cast<uInt>(n));
  }
  return static_cast<std::uint32_t>(c);
}

std::string to_safetensors(const ModelTensors& t) {
  nlohmann::json h = nlohmann::json::object();
  nlohmann::json meta = nlohmann::json::object();
  for (const auto& [k, v] : t.metadata) meta[k] = v;
  h["__metadata__"] = meta;
  std::uint64_t off = 0;
  for (const auto& x : t.tensors) {
    const std::uint64_t n = 8 * static_cast<std::uint64_t>(x.data.size());
    h[x.name] = {{"dtype", "I64"}, {"shape", x.shape}, {"data_offsets", {off, off + n}}};
    off += n;
  }
  std::string header = h.dump();
  header.append((8 - header.size() % 8) % 8, ' ');
  std::string out;
  out.reserve(8 + header.size() + off);
  put_le(out, header.size(), 8);
  out += header;
  for (const auto& x : t.tensors)
    for (std::int64_t v : x.data) put_le(out, static_cast<std::uint64_t>(v), 8);
  return out;
}

// Entries are stored, not deflated, like numpy's own np.savez (np.savez_compressed deflates): the
// bytes of an export are the same with any zlib version (deflate's output is not fixed across
// versions, and our exports are byte-identical for the same command), a tool can read a tensor
// straight from the file at its offset, and int64 weights of small integers are what the models
// hold, so the file stays small enough either way (safetensors, the other weight format, never
// compresses). zlib gives the CRC-32 the zip entries need.
std::string zip_stored(const std::vector<std::pair<std::string, std::string>>& files, std::uint64_t zip64_from) {
  constexpr std::uint64_t k32 = 0xFFFFFFFFull, k16 = 0xFFFFull;
  const bool force = zip64_from < k32;  // tests: zip64 records on a small archive
  std::string out, central;
  bool any64 = false;
  for (const auto& file : files) {
    // Named references, not structured bindings: lambdas may not capture bindings before C++20's
    // P1091 (clang 14 refuses it; the fuzz build uses clang).
    const auto& name = file.first;
    const auto& data = file.second;
    const std::uint32_t crc = crc32(data);
    const std::uint64_t offset = out.size(), size = data.size();
    // zip64 (APPNOTE 4.5.3): the 32-bit fields hold 0xFFFFFFFF and an extra field (id 1) the sizes
    // (and, in the central directory, the offset) in 64 bits.
    const bool z64 = size >= std::min(zip64_from, k32) || offset >= std::min(zip64_from, k32);
    any64 |= z64;
    auto common = [&](std::string& s) {
      put_le(s, z64 ? 45 : 20, 2);  // version needed to extract (4.5: zip64; 2.0)
      put_le(s, 0, 2);              // flags
      put_le(s, 0, 2);              // method: stored
      put_le(s, 0, 2);              // mod time 00:00
      put_le(s, 0x21, 2);           // mod date 1980-01-01 (fixed: byte-identical output)
      put_le(s, crc, 4);
      put_le(s, z64 ? k32 : size, 4);  // compressed size
      put_le(s, z64 ? k32 : size, 4);  // uncompressed size
      put_le(s, name.size(), 2);
    };
    put_le(out, 0x04034b50, 4);
    common(out);
    put_le(out, z64 ? 20 : 0, 2);  // extra field length
    out += name;
    if (z64) {
      put_le(out, 0x0001, 2);
      put_le(out, 16, 2);
      put_le(out, size, 8);  // uncompressed, then compressed
      put_le(out, size, 8);
    }
    out += data;
    put_le(central, 0x02014b50, 4);
    put_le(central, z64 ? 45 : 20, 2);  // version made by
    common(central);
    put_le(central, z64 ? 28 : 0, 2);  // extra field length
    put_le(central, 0, 2);             // comment length
    put_le(central, 0, 2);             // disk number
    put_le(central, 0, 2);             // internal attributes
    put_le(central, 0, 4);             // external attributes
    put_le(central, z64 ? k32 : offset, 4);
    central += name;
    if (z64) {
      put_le(central, 0x0001, 2);
      put_le(central, 24, 2);
      put_le(central, size, 8);    // uncompressed
      put_le(central, size, 8);    // compressed
      put_le(central, offset, 8);  // local header offset
    }
  }
  const std::uint64_t cd_offset = out.size(), cd_size = central.size(), n = files.size();
  out += central;
  const bool end64 = any64 || force || n >= k16 || cd_offset >= k32 || cd_size >= k32;
  if (end64) {
    const std::uint64_t record = out.size();
    put_le(out, 0x06064b50, 4);  // zip64 end of central directory record
    put_le(out, 44, 8);          // its size after this field
    put_le(out, 45, 2);          // version made by
    put_le(out, 45, 2);          // version needed
    put_le(out, 0, 4);           // this disk
    put_le(out, 0, 4);           // disk of the central directory
    put_le(out, n, 8);
    put_le(out, n, 8);
    put_le(out, cd_size, 8);
    put_le(out, cd_offset, 8);
    put_le(out, 0x07064b50, 4);  // zip64 end of central directory locator
    put_le(out, 0, 4);
    put_le(out, record, 8);
    put_le(out, 1, 4);           // disks
  }
  put_le(out, 0x06054b50, 4);
  put_le(out, 0, 2);
  put_le(out, 0, 2);
  put_le(out, end64 ? k16 : n, 2);
  put_le(out, end64 ? k16 : n, 2);
  put_le(out, end64 ? k32 : cd_size, 4);
  put_le(out, end64 ? k32 : cd_offset, 4);
  put_le(out, 0, 2);
  return out;
}

std::string to_npz(const ModelTensors& t) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& x : t.tensors) files.emplace_back(x.name + ".npy", npy_bytes_i64(x.shape, x.data));
  files.emplace_back("__metadata__.npy", npy_bytes_u8(metadata_json(t)));
  return zip_stored(files);
}

}  // namespace cz
