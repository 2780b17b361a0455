#include "tasks/npy.h"

#include <cstring>

#include "util/atomic_file.h"
#include "util/error.h"
#include "util/memory_budget.h"
#include "util/text.h"

namespace cz::npy {

namespace {
const char kMagic[] = "\x93NUMPY";

std::uint64_t read_le(const std::string& b, std::size_t at, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return v;
}
}  // namespace

Int64Array parse_int64(const std::string& b, const std::string& where) {
  auto fail = [&](const std::string& what) { throw InputError("not an int64 .npy file: " + what, where); };
  if (b.size() < 10 || b.compare(0, 6, kMagic, 6) != 0) fail("bad magic");
  const int major = static_cast<unsigned char>(b[6]);
  std::size_t hlen_bytes = major == 1 ? 2 : (major == 2 || major == 3) ? 4 : 0;
  if (!hlen_bytes) fail("unsupported format version " + std::to_string(major));
  if (b.size() < 8 + hlen_bytes) fail("truncated header");
  const std::uint64_t hlen = read_le(b, 8, hlen_bytes);
  const std::size_t start = 8 + hlen_bytes;
  if (b.size() < start + hlen) fail("truncated header");
  const std::string h = b.substr(start, hlen);
  // The header is a Python dict literal; find each key by hand (std::regex recurses per
  // character and overflows the stack on a long header).
  auto value_at = [&](const char* key) -> std::size_t {
    const std::size_t k = h.find(std::string("'") + key + "'");
    if (k == std::string::npos) fail(std::string("no '") + key + "'");
    std::size_t i = k + std::strlen(key) + 2;
    while (i < h.size() && (h[i] == ' ' || h[i] == '\t')) ++i;
    if (i >= h.size() || h[i] != ':') fail(std::string("no value for '") + key + "'");
    ++i;
    while (i < h.size() && (h[i] == ' ' || h[i] == '\t')) ++i;
    return i;
  };
  auto delimited = [&](std::size_t i, char open, char close, const char* key) -> std::string {
    if (i >= h.size() || h[i] != open) fail(std::string("bad value for '") + key + "'");
    const std::size_t e = h.find(close, i + 1);
    if (e == std::string::npos) fail(std::string("bad value for '") + key + "'");
    return h.substr(i + 1, e - i - 1);
  };
  const std::string descr = delimited(value_at("descr"), '\'', '\'', "descr");
  if (descr != "<i8") fail("dtype '" + printable(descr) + "' (want '<i8', int64 little endian)");
  {
    const std::size_t i = value_at("fortran_order");
    if (h.compare(i, 5, "False") == 0) {
    } else if (h.compare(i, 4, "True") == 0) {
      fail("Fortran order is not supported");
    } else {
      fail("no 'fortran_order'");
    }
  }
  Int64Array a;
  const std::string dims = delimited(value_at("shape"), '(', ')', "shape");
  std::size_t pos = 0;
  while (pos <= dims.size()) {
    std::size_t comma = dims.find(',', pos);
    std::string piece = dims.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    piece.erase(0, piece.find_first_not_of(" \t"));
    piece.erase(piece.find_last_not_of(" \t") + 1);
    if (!piece.empty()) {
      if (piece.size() > 12 || piece.find_first_not_of("0123456789") != std::string::npos) fail("bad shape '" + printable(dims) + "'");
      a.shape.push_back(static_cast<std::size_t>(std::stoull(piece)));
    } else if (comma != std::string::npos && a.shape.empty()) {
      fail("bad shape '" + printable(dims) + "'");
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  unsigned __int128 count = 1;
  for (std::size_t d : a.shape) {
    count *= d;
    if (count > (static_cast<unsigned __int128>(1) << 40)) fail("array too large");
  }
  const std::size_t n = static_cast<std::size_t>(count);
  if (b.size() != start + hlen + 8 * n)
    fail("data holds " + std::to_string(b.size() - start - hlen) + " bytes, shape needs " + std::to_string(8 * n));
  require_memory(sat_mul(n, 8), "an int64 array of " + std::to_string(n) + " entries", where);
  a.data.resize(n);
  for (std::size_t i = 0; i < n; ++i) a.data[i] = static_cast<std::int64_t>(read_le(b, start + hlen + 8 * i, 8));
  return a;
}

Int64Array read_int64(const std::string& path) { return parse_int64(read_file(path), path); }

std::string to_bytes(const Int64Array& a) {
  std::size_t n = 1;
  for (std::size_t d : a.shape) n *= d;
  if (n != a.data.size()) throw std::invalid_argument("npy: shape does not match the data size");
  // NumPy's repr of the shape tuple: "(a, b)", "(a,)" or "()".
  std::string shape = "(";
  for (std::size_t i = 0; i < a.shape.size(); ++i) shape += (i ? ", " : "") + std::to_string(a.shape[i]);
  if (a.shape.size() == 1) shape += ",";
  shape += ")";
  std::string dict = "{'descr': '<i8', 'fortran_order': False, 'shape': " + shape + ", }";
  std::size_t total = 10 + dict.size() + 1;  // magic+version+len, dict, '\n'
  std::size_t pad = (64 - total % 64) % 64;
  dict += std::string(pad, ' ') + "\n";
  std::string out(kMagic, 6);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>((dict.size() >> 8) & 0xff);
  out += dict;
  for (std::int64_t v : a.data) {
    auto u = static_cast<std::uint64_t>(v);
    for (int i = 0; i < 8; ++i) out += static_cast<char>((u >> (8 * i)) & 0xff);
  }
  return out;
}

void write_int64(const std::string& path, const Int64Array& a) { write_file_atomic(path, to_bytes(a)); }

}  // namespace cz::npy
