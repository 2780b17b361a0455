// Shared pieces of the primitive registrations: the common parameters and the "tuple" claims
// (L, N', d') that every primitive states beside the paper's numbers.
#pragma once
#include <string>
#include <vector>

#include "model/model.h"
#include "util/error.h"
#include "verify/construction.h"
#include "verify/matrix_domain.h"
#include "verify/model_check.h"
#include "tasks/primitive_semantics.h"

namespace cz::prim {

// N, d (input shape) and range (entries of sampled matrices).
std::vector<ParamSpec> shape_params(std::int64_t N, std::int64_t d);
ParamSpec conv_param(std::string def, std::string help);

// Our binding claims: exactly `layers` layers at inner (N', d') as built (spec §5 [R] column).
std::vector<Claim> our_tuple(const Model& m, long long layers, long long inner_N, long long inner_d,
                             const std::string& source);

// Refuses (InputError with the estimate) building `name`, a model of `layers` layers at inner
// N×inner_d (N from -p N), when it would exceed the memory budget; called before building.
void require_build(const Params& p, const std::string& name, std::uint64_t layers, std::uint64_t inner_d);

// The domain of -p N, d, range; first refuses a check of b's model that would exceed the memory
// budget on the threads the check runs on.
MatrixDomain domain_for(const Params& p, const DomainOptions& o, const Built& b);

}  // namespace cz::prim
