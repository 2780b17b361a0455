// The three convolution modes along the sequence axis (spec §1, §2.1; contract model-json):
//   causal     (h*u)[i] = sum_{k=0..i}      h[k] u[i-k]          (mod X^N)
//   cyclic     (h*u)[i] = sum_{k=0..N-1}    h[k] u[(i-k) mod N]  (mod X^N - 1)
//   anticausal (h*u)[i] = sum_{k=0..N-1-i}  h[k] u[i+k]          (the poly* reading)
// Every construction runs in an explicit mode (Errata E3): X^s is shift_down under causal but
// shift_up under anticausal, and no causal model can shift up.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace cz {

enum class ConvMode { Causal, Cyclic, Anticausal };

inline std::string to_string(ConvMode m) {
  switch (m) {
    case ConvMode::Causal: return "causal";
    case ConvMode::Cyclic: return "cyclic";
    case ConvMode::Anticausal: return "anticausal";
  }
  return "?";
}

inline std::optional<ConvMode> parse_conv_mode(std::string_view s) {
  if (s == "causal") return ConvMode::Causal;
  if (s == "cyclic") return ConvMode::Cyclic;
  if (s == "anticausal") return ConvMode::Anticausal;
  return std::nullopt;
}

}  // namespace cz
