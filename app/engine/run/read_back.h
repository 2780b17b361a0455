// Files the tool reads back from an earlier run (issue 25): merge parts and checkpoints. They
// travel between machines and jobs, get truncated and edited, so they are read as strictly as a
// model file: a bounded size, bounded strings and nesting (model/model_json.h JsonLimits), counts
// as exact unsigned integers, and messages that quote at most a few dozen bytes of any value.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace cz {

// Far above what the tool writes (a part holds a report, a checkpoint a run identity), far below
// what would cost a gigabyte to parse.
inline constexpr std::uint64_t kPartMaxBytes = std::uint64_t{64} << 20;
inline constexpr std::uint64_t kCheckpointMaxBytes = std::uint64_t{4} << 20;
inline constexpr std::size_t kReadBackMaxString = std::size_t{1} << 20;
// A name (construction, device) beyond this is not one the tool wrote.
inline constexpr std::size_t kReadBackMaxName = 256;

// The text of FILE, which must be a regular file (a FIFO would block a resume, a device is no
// run's file) of at most max_bytes; `what` names the kind in messages ("a shard report").
std::string read_back_file(const std::string& file, std::uint64_t max_bytes, const std::string& what);

// Refuses (InputError, where = path) an existing PATH that is not a regular file, for outputs that
// are replaced whole (a checkpoint, a --proof): a FIFO would block the run, a device is no run's
// file (issue 25; issue 36 item 6). `what` says why in the message. A missing path passes.
void refuse_non_regular(const std::string& path, const std::string& what);
// What a file that is not a regular one is, for messages ("is a FIFO (named pipe)"); mode: st_mode.
const char* file_kind_text(unsigned mode);

// j[key] as an exact unsigned 64-bit integer: 0.5, 1e3, -1 and 2^64 (which JSON readers give as
// a float) are refused, never rounded. where: the file; field: how the message names the key.
std::uint64_t exact_uint(const nlohmann::json& obj, const char* key, const std::string& field, const std::string& where);
// The same for a field that may be null (first_failure): nullopt for null.
std::optional<std::uint64_t> exact_uint_or_null(const nlohmann::json& obj, const char* key, const std::string& field,
                                                const std::string& where);
// j[key] as a string of at most max_bytes, without control bytes.
std::string bounded_string(const nlohmann::json& obj, const char* key, const std::string& field, const std::string& where,
                           std::size_t max_bytes = kReadBackMaxName);

}  // namespace cz
