// Checks of one model-json layer object made before any of its weights is read (issue 36 items 1,
// 20, 21, 22): its keys are its kind's (an unknown or misspelt field is refused, never ignored),
// every matrix and vector is as long as the shape needs (a 10-million-entry `gamma` for two heads
// is refused by its length, before ten million rationals are made), an architecture layer sits in
// a model with N = inner_N, and in an Fp model every entry of an architecture layer lies in the
// ring (named by its field: the expansion's weights would only name BaseConv layers the file never
// had). The reader (model_json.cpp, arch_layer.cpp) still checks everything it builds; this only
// moves the refusals that cost memory or name the wrong thing to before the work.
#pragma once
#include <cstddef>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace cz {

struct LayerShape {
  std::size_t N = 0, d = 0, inner_N = 0, inner_d = 0;
  std::string ring;  // "Z", "Q" or "Fp:<p>" (already checked)
};

// kind: the layer's "kind" (a string; unknown kinds are left to the reader's message).
void check_layer_json(const nlohmann::json& L, const std::string& kind, const LayerShape& s, const std::string& where);

}  // namespace cz
