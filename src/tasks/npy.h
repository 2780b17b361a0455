// A minimal .npy reader/writer for int64 arrays (NumPy format versions 1.0, 2.0 and 3.0; little
// endian '<i8', C order). It is the interchange with zoology's batches: two int64 arrays, inputs
// and labels of shape (examples, N), -100 where a position is not scored
// (../shared/notes/zoology-peer.md). Every malformed file is an InputError naming the path.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace cz::npy {

struct Int64Array {
  std::vector<std::size_t> shape;
  std::vector<std::int64_t> data;  // row-major
};

// Parses the bytes of a .npy file; `where` names it in errors.
Int64Array parse_int64(const std::string& bytes, const std::string& where);
Int64Array read_int64(const std::string& path);
// The bytes of a version-1.0 .npy file ('<i8', C order), header padded to a multiple of 64.
std::string to_bytes(const Int64Array& a);
// Writes atomically (util/atomic_file.h).
void write_int64(const std::string& path, const Int64Array& a);

}  // namespace cz::npy
