#include "constructions/primitives/support.h"

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

MatrixDomain domain_for(const Params& p, const DomainOptions& o) {
  return make_matrix_domain(p.u("N"), p.u("d"), o, p.i("range"));
}

}  // namespace cz::prim
