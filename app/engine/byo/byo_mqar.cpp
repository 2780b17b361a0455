#include "app/engine/byo/byo_mqar.h"

#include <memory>

#include "constructions/mqar/batch_model.h"
#include "constructions/mqar/sparse_model.h"
#include "gpu/modmodel_check.h"
#include "verify/mqar_task.h"

namespace cz {

void add_mqar_model_paths(const Params& p, const Model& m, const DomainOptions& o, Check& check) {
  const mqar::TaskShape s = mqar::task_shape(p);
  if (s.layout != mqar::Layout::Triples) return;  // zoology batches: the scalar path
  // The same domain the task's check runs (the workers unrank it; they keep a pointer to it).
  auto dom = std::make_shared<const mqar::Domain>(mqar::domain_for(s, o));
  const mqar::Codec codec = mqar::task_codec(p, s);
  std::optional<mqarc::SparseModel> sm = mqarc::sparse_from_model(m);
  if (!sm || dom->count != check.instances) return;
  if (codec.c * codec.d <= (std::size_t{1} << 22)) {  // model_triples_worker's code table
    auto prog = std::make_shared<const mqarc::LaneProgram>(*sm, 1);  // every code entry is 0 or 1
    check.block = [dom, codec, prog, scalar = check.run] {
      return mqarc::model_triples_worker(*dom, codec, [prog](const mqar::TriplesBlock&, std::size_t) { return prog.get(); },
                                         scalar);
    };
    check.block_size = 4096;
    check.block_kind = prog->safe() ? "lane program of your model (int64 under a static bound, 64 instances per run)"
                                    : "your model exceeds the lane program's int64 bound: every instance checked exactly";
  }
  check.device = gpu::try_mqar_mod_program(*dom, codec, m);
}

}  // namespace cz
