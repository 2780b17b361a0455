#include "app/engine/algebra/algebra_arch.h"

#include <algorithm>

#include "model/arch_layer.h"
#include "util/error.h"
#include "verify/symbolic_reference.h"

namespace cz {

AlgebraOutcome run_arch_algebra(const Model& m, const std::string& file, const AlgebraOptions& o) {
  if (m.arch.empty())
    throw InputError("the model records no architecture layer (hyena, h3, retnet, rwkv) to prove: --method algebra on a --model file "
                     "proves its architecture layers (--task arch)",
                     file);
  // Issue 46 item 3: a layer outside every architecture layer's expansion has no reference here,
  // so a verdict on the file would say more than was checked: refused, naming the first such layer.
  {
    std::size_t next = 0, others = 0, first_other = m.layers.size();
    for (const ArchOrigin& ao : m.arch) {
      if (ao.first > next) others += ao.first - next, first_other = std::min(first_other, next);
      next = std::max(next, ao.first + ao.count);
    }
    if (m.layers.size() > next) others += m.layers.size() - next, first_other = std::min(first_other, next);
    if (others)
      throw InputError("the model has " + std::to_string(others) + " BaseConv layer(s) outside its architecture layers' expansions (the first is "
                       "model layer " + std::to_string(first_other) + "): --method algebra on a --model file proves each architecture layer's "
                       "expansion against the architecture's own evaluation, and those layers have no reference to be proved against, so "
                       "the file's map would not be proved; give a file of architecture layers only (or verify the other layers another way)",
                       file + ".layers");
  }
  AlgebraOutcome all;
  nlohmann::json layers = nlohmann::json::array();
  double seconds = 0;
  std::size_t zero = 0;
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
    const nlohmann::json al = r.report.value("algebra", nlohmann::json(nullptr));
    zero += al.is_object() ? al.value("zero_outputs", std::size_t{0}) : 0;
    layers.push_back({{"layer", ao.first}, {"kind", arch_kind(*a)}, {"expansion_layers", ao.count}, {"verdict", r.verdict},
                      {"algebra", al}});
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
                                     ") (all N'×d' entries symbols): each architecture layer's expansion, recompiled from the file's "
                                     "weights when the file was read (model/zoo_compile.h), equals the architecture's own evaluation "
                                     "coefficient by coefficient: a check of the compiler at those weights";
  all.report["field"] = field;
  // Every layer's vacuous entries (issue 46 item 4), summed over the architecture layers.
  all.report["arch_zero_outputs"] = zero;
  all.seconds = seconds;
  return all;
}

}  // namespace cz
