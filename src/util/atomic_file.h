// Writing files so that nothing is ever half-written: write to PATH.tmp.<pid>, then rename.
#pragma once
#include <string>

namespace cz {

// Throws InputError (where = path) when the file cannot be written.
void write_file_atomic(const std::string& path, const std::string& content);
// Throws InputError (where = path) when the file cannot be read.
std::string read_file(const std::string& path);

}  // namespace cz
