#include "app/engine/algebra_arch.h"

#include "model/arch_layer.h"
#include "util/error.h"
#include "verify/symbolic_reference.h"

namespace cz {

AlgebraOutcome run_arch_algebra(const Model& m, const std::string& file, const AlgebraOptions& o) {
  if (m.arch.empty())
    throw InputError("the model records no architecture layer (hyena, h3, retnet, rwkv) to prove: --method algebra on a --model file "
                     "proves its architecture layers (--task arch)",
                     file);
  AlgebraOutcome all;
  nlohmann::json layers = nlohmann::json::array();
  double seconds = 0;
  for (std::size_t i = 0; i < m.arch.size(); ++i) {
    const ArchOrigin& ao = m.arch[i];
    // The expansion alone on an N'×d' state: every column a symbol, so an expansion that reads or
    // writes outside its own columns is caught as well.
    Model sub;
    sub.ring = m.ring, sub.conv = m.conv;
    sub.N = sub.inner_N = m.inner_N;
    sub.d = sub.inner_d = m.inner_d;
    sub.layers.assign(m.layers.begin() + static_cast<std::ptrdiff_t>(ao.first),
                      m.layers.begin() + static_cast<std::ptrdiff_t>(ao.first + ao.count));
    const std::shared_ptr<const ArchLayer> a = ao.layer;
    const auto ref = make_symbolic_reference([a](const auto& r, const auto& u) { return arch_eval(r, *a, u); },
                                             "the " + arch_kind(*a) + " layer's own evaluation (model/arch_layer.h arch_eval)");
    const std::string where = file + ".layers[" + std::to_string(ao.first) + "]";
    nlohmann::json head = {{"model_file", file}, {"task", "arch"}, {"arch_layer", i}, {"kind", arch_kind(*a)}, {"first", ao.first},
                           {"count", ao.count}};
    AlgebraOutcome r = prove_model_identity(sub, *ref, o, head, where);
    seconds += r.seconds;
    layers.push_back({{"layer", ao.first}, {"kind", arch_kind(*a)}, {"expansion_layers", ao.count}, {"verdict", r.verdict},
                      {"algebra", r.report.value("algebra", nlohmann::json(nullptr))}});
    const bool first = i == 0;
    if (first || (all.verdict == "proved" && r.verdict != "proved")) {
      all = std::move(r);
      if (all.verdict != "proved") break;  // the first layer that is not proved decides
    }
  }
  all.report["arch_layers"] = layers;
  // Over Fp:<p> the identities are in F_p[x] (prove_model_identity), a statement mod p only.
  const std::string field = m.ring == "Z" || m.ring == "Q" ? "Q" : "F_" + m.ring.substr(3);
  if (field != "Q") all.report["instances"] = "all of " + field + "^(" + std::to_string(m.inner_N) + "×" + std::to_string(m.inner_d) + ")";
  all.report["domain_description"] = "every state x in " + field + "^(" + std::to_string(m.inner_N) + "×" + std::to_string(m.inner_d) +
                                     ") (all N'×d' entries symbols): each architecture layer's stored expansion equals its own "
                                     "evaluation coefficient by coefficient";
  all.seconds = seconds;
  return all;
}

}  // namespace cz
