#include "app/engine/run/read_back.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "model/model_json.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace cz {

const char* file_kind_text(unsigned mode) {
  const mode_t m = static_cast<mode_t>(mode);
  if (S_ISDIR(m)) return "is a directory";
  if (S_ISCHR(m)) return "is a character device";
  if (S_ISBLK(m)) return "is a block device";
  if (S_ISFIFO(m)) return "is a FIFO (named pipe)";
  if (S_ISSOCK(m)) return "is a socket";
  if (S_ISLNK(m)) return "is a symbolic link";
  return "is not a plain file";
}

namespace {

const nlohmann::json& field_of(const nlohmann::json& obj, const char* key, const std::string& field, const std::string& where) {
  if (!obj.is_object()) throw InputError("expected a JSON object holding " + field, where);
  auto it = obj.find(key);
  if (it == obj.end()) throw InputError("missing field " + field, where);
  return *it;
}
}  // namespace

std::string read_back_file(const std::string& file, std::uint64_t max_bytes, const std::string& what) {
  struct stat st {};
  if (file.empty()) throw InputError("empty path", "\"\"");
  if (::stat(file.c_str(), &st) != 0) throw InputError(std::string("cannot read file: ") + std::strerror(errno), file);
  if (!S_ISREG(st.st_mode)) throw InputError(std::string(file_kind_text(st.st_mode)) + ", not a regular file (" + what + ")", file);
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
    throw InputError("larger than " + std::to_string(max_bytes >> 20) + " MiB: not " + what, file);
  return read_file(file);
}

void refuse_non_regular(const std::string& path, const std::string& what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw InputError(std::string(file_kind_text(st.st_mode)) + ", not a regular file (" + what + ")", path);
}

std::uint64_t exact_uint(const nlohmann::json& obj, const char* key, const std::string& field, const std::string& where) {
  const nlohmann::json& v = field_of(obj, key, field, where);
  // A JSON reader keeps non-negative integers below 2^64 as unsigned, anything else as signed or float.
  if (!v.is_number_unsigned())
    throw InputError(field + " must be a whole number from 0 to 2^64-1, got " + json_brief(v), where);
  return v.get<std::uint64_t>();
}

std::optional<std::uint64_t> exact_uint_or_null(const nlohmann::json& obj, const char* key, const std::string& field,
                                                const std::string& where) {
  if (field_of(obj, key, field, where).is_null()) return std::nullopt;
  return exact_uint(obj, key, field, where);
}

std::string bounded_string(const nlohmann::json& obj, const char* key, const std::string& field, const std::string& where,
                           std::size_t max_bytes) {
  const nlohmann::json& v = field_of(obj, key, field, where);
  if (!v.is_string()) throw InputError(field + " must be a string, got " + json_brief(v), where);
  const std::string& s = v.get_ref<const std::string&>();
  if (s.size() > max_bytes)
    throw InputError(field + " is longer than " + std::to_string(max_bytes) + " bytes: " + json_brief(v), where);
  for (char ch : s)  // names reach terminals and reports as they are
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) throw InputError(field + " holds control bytes: " + json_brief(v), where);
  return s;
}

}  // namespace cz
