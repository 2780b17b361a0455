// model-json (contract.md): "circuitzoo.model/1". Entries are JSON integers when they fit in
// 53 bits, else decimal strings; rationals are "p/q" strings. Reading validates everything and
// throws InputError naming the JSON path of the first problem.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "model/model.h"

namespace cz {

nlohmann::json matrix_to_json(const RatMatrix& m);
// `where` names the field in errors (e.g. "model.layers[0].W").
RatMatrix matrix_from_json(const nlohmann::json& j, const std::string& where);
nlohmann::json rat_to_json(const Rat& x);
Rat rat_from_json(const nlohmann::json& j, const std::string& where);

// Parses JSON text from a file; a malformed file is an InputError("malformed JSON: ...",
// "<source>:<line>") with the bytes nlohmann quotes escaped (util/text.h).
nlohmann::json parse_json_input(const std::string& text, const std::string& source);
// A short printable rendering of a JSON value for messages: scalars as JSON (escaped, cut),
// arrays and objects by kind (dump() would recurse through a deeply nested value).
std::string json_brief(const nlohmann::json& j);

nlohmann::json model_to_json(const Model& m);
Model model_from_json(const nlohmann::json& j, const std::string& where);

void write_model_file(const Model& m, const std::string& path);
Model read_model_file(const std::string& path);

}  // namespace cz
