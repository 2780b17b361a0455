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

nlohmann::json model_to_json(const Model& m);
Model model_from_json(const nlohmann::json& j, const std::string& where);

void write_model_file(const Model& m, const std::string& path);
Model read_model_file(const std::string& path);

}  // namespace cz
