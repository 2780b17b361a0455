#include "app/engine/byo/byo_arch.h"

#include "model/arch_layer.h"
#include "verify/arch_check.h"

namespace cz {

Report run_arch_check(const Model& m, const std::string& file, const DomainOptions& opts) {
  Check check = arch_expansion_check(m, opts, file);
  Construction pseudo;
  pseudo.name = file;
  pseudo.task = "arch";
  Built built;
  built.model = m;
  built.notes.push_back("task arch: each architecture layer's stored BaseConv expansion, run alone on the N'xd' state, against the "
                        "architecture's own exact evaluation (model/arch_layer.h arch_eval), over " + m.ring);
  for (const ArchOrigin& o : m.arch)
    built.notes.push_back(arch_kind(*o.layer) + " layer: model layers " + std::to_string(o.first) + " to " +
                          std::to_string(o.first + o.count - 1) + " (width " + std::to_string(arch_width(*o.layer)) + ")");
  return run_check(pseudo, Params::parse({}, {}), built, check, opts);
}

}  // namespace cz
