// model-json (contract.md): "circuitzoo.model/1". Entries are JSON integers when they fit in
// 53 bits, else decimal strings; rationals are "p/q" strings. Reading validates everything and
// throws InputError naming the JSON path of the first problem.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/model.h"

namespace cz {

nlohmann::json matrix_to_json(const RatMatrix& m);
// `where` names the field in errors (e.g. "model.layers[0].W").
RatMatrix matrix_from_json(const nlohmann::json& j, const std::string& where);
nlohmann::json rat_to_json(const Rat& x);
Rat rat_from_json(const nlohmann::json& j, const std::string& where);

// What a JSON reader accepts beyond the grammar (issue 25). nlohmann's dump, copy and compare
// recurse once per level, so a deeply nested file would overflow the stack long after parsing:
// nesting beyond max_depth is refused before the text is parsed (every reader gets the default).
// Files the tool reads back (merge parts, checkpoints) also bound each string (a 100 MB name would
// be copied into messages and reports), and may keep only the top-level keys they read: the rest
// is skipped while parsing and never stored, so a huge field costs no memory.
// Issue 36: a parsed value costs 20 to 80 bytes however short its text ("1/2" in a 10-million-entry
// array took 800 MB), so readers of user files also bound the number of values, counted in the
// same pass before anything is parsed, and the size of the text (util/atomic_file.h TextLimits).
inline constexpr std::size_t kJsonMaxDepth = 256;
struct JsonLimits {
  std::size_t max_depth = kJsonMaxDepth;
  std::size_t max_string = 0;          // bytes of one string or key as written (0: no bound)
  std::vector<std::string> keep_keys;  // non-empty: of a top-level object, keep only these keys
  std::size_t max_values = 0;          // array entries plus object members (0: no bound)
};
// Model-json files (and `eval --input` files, program files): at most 64 MiB of text and 4Mi
// values (about 350 MB parsed at the worst, strings; what eval needs of the weights comes on top).
inline constexpr std::uint64_t kModelMaxBytes = std::uint64_t{64} << 20;
inline constexpr std::size_t kModelMaxValues = std::size_t{1} << 22;
// `--config` files hold a few settings.
inline constexpr std::uint64_t kConfigMaxBytes = std::uint64_t{1} << 20;

// Parses JSON text from a file; a malformed file is an InputError("malformed JSON: ...",
// "<source>:<line>") with the bytes nlohmann quotes escaped (util/text.h); so is text beyond
// `limits` ("nested deeper than ...", "a string longer than ...", "more than N values ...",
// "<source>:<line>"), and blank text ("empty input"). Every reader refuses an object that holds a
// key twice (nlohmann would keep the last: issue 36 item 22), naming the key and the object.
nlohmann::json parse_json_input(const std::string& text, const std::string& source, const JsonLimits& limits = {});
// A JSON file (or "-") of at most `max_bytes` (util/atomic_file.h read_file with TextLimits),
// parsed with `limits`; `what` names the kind in messages ("a model-json file").
nlohmann::json read_json_file(const std::string& path, std::uint64_t max_bytes, const std::string& what, const JsonLimits& limits);
// A short printable rendering of a JSON value for messages: scalars as JSON (escaped, cut),
// arrays and objects by kind (dump() would recurse through a deeply nested value).
std::string json_brief(const nlohmann::json& j);

nlohmann::json model_to_json(const Model& m);
Model model_from_json(const nlohmann::json& j, const std::string& where);

void write_model_file(const Model& m, const std::string& path);
Model read_model_file(const std::string& path);

}  // namespace cz
