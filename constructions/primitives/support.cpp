#include "constructions/primitives/support.h"

#include "constructions/memory_estimate.h"

namespace cz::prim {

std::vector<ParamSpec> shape_params(std::int64_t N, std::int64_t d) {
  return {int_param("N", N, 1, 1 << 16, "sequence length (rows)"),
          int_param("d", d, 1, 1 << 10, "input width (channels)"),
          int_param("range", 3, 1, 1 << 20, "sampled domains: entries drawn from [-range, range]")};
}

ParamSpec conv_param(std::string def, std::string help) {
  return choice_param("conv", std::move(def), {"causal", "cyclic", "anticausal"}, std::move(help));
}

std::vector<Claim> our_tuple(const Model& m, long long layers, long long inner_N, long long inner_d,
                             const std::string& source) {
  return {our_claim("layers", layers, "exact", source, m.layers.size()),
          our_claim("inner_N", inner_N, "exact", source, m.inner_N),
          our_claim("inner_d", inner_d, "exact", source, m.inner_d)};
}

void require_build(const Params& p, const std::string& name, std::uint64_t layers, std::uint64_t inner_d) {
  // Built, and evaluated at least once (stats, export and verify all get that far): the weights as
  // Rat and as the evaluator's ring copy, and one thread's N×d' buffers.
  const std::uint64_t w = est::baseconv_weights(layers, p.u("N"), inner_d);
  const std::uint64_t bytes = sat_add(sat_mul(w, est::kBuildBytesPerWeight + est::kCheckBytesPerWeight),
                                      sat_mul(sat_mul(p.u("N"), inner_d), est::kCheckBytesPerCellPerThread));
  require_memory(bytes, name + " (a model of " + est::shape_text(layers, p.u("N"), inner_d) + ", " + std::to_string(w) + " weights)",
                 est::where_of(p, {"N", "d"}));
}

MatrixDomain domain_for(const Params& p, const DomainOptions& o, const Built& b) {
  if (b.model) {
    const std::uint64_t w = count_params(*b.model).dense;
    est::require_model_check("the model", w, b.model->inner_N, b.model->inner_d, o.threads,
                             sat_mul(w, est::kBuildBytesPerWeight / 2), est::where_of(p, {"N", "d"}));
  }
  return make_matrix_domain(p.u("N"), p.u("d"), o, p.i("range"));
}

}  // namespace cz::prim
