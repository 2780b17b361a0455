// Writing files so that nothing is ever half-written: write to PATH.tmp.<pid>, then rename.
#pragma once
#include <functional>
#include <ostream>
#include <string>

namespace cz {

// Throws InputError (where = path) when the file cannot be written.
void write_file_atomic(const std::string& path, const std::string& content);
// The same, with the content produced by `produce` writing into a stream (for large outputs that
// should not be held in memory twice). An exception from `produce` removes the temporary file and
// propagates.
void write_file_atomic_stream(const std::string& path, const std::function<void(std::ostream&)>& produce);
// Throws InputError (where = path) when the file cannot be read.
std::string read_file(const std::string& path);

}  // namespace cz
