// A user's model against an operator given by its weights in a file (issue 47 item 3; contract.md
// "verify --task KIND --operator FILE"):
//   verify --model mine.json --task hyena --operator op.json [--method algebra]
// The operator file is model-json whose one layer is an architecture layer (hyena, h3, retnet,
// rwkv; model/arch_layer.h, the kinds model-json already has); the task (verify/task.h
// operator_tasks) is that kind. The reference is the operator's own exact evaluation (arch_eval:
// hyena_eval, h3_eval, retnet_eval, rwkv_eval; no BaseConv code) on the operator's N×w input
// (w = d, or 2d for RWKV's [E | x] -> [num | den]: numerator and denominator, never the ratio).
//   --method algebra: the user's model's output polynomials against the reference's over all of
//     Q^(N×w) (prove_model_identity, the routes of app/engine/algebra/algebra.h): expansion; the
//     compositional route where the model has the wide Hyena layout (hyena: (N, k+2, d, N, (k+1)d);
//     h3 through Hyena of order 2: (N, 3, d, N, 3d)); weights as symbols where the model is the
//     project's compiler's output at the operator's weights (model/zoo_compile.h). A difference is
//     refuted at an input, confirmed by exact evaluation of both.
//   otherwise: the enumerating/sampled exact check, model and reference evaluated over Q on the
//     {-1,0,1} box where it is small, else seeded integer samples.
#pragma once
#include <map>
#include <memory>
#include <string>

#include "app/engine/algebra/algebra.h"
#include "app/engine/engine.h"
#include "model/arch_layer.h"
#include "model/model.h"

namespace cz {

// The operator of an --operator file read as a model (read_model_file): its layers must be exactly
// one architecture layer's expansion. InputError(file) otherwise, or when its kind is not `task`.
std::shared_ptr<const ArchLayer> operator_of(const Model& op_file, const std::string& file, const std::string& task);

// The operator's parameters as a task states them (N, d, order, m, form, heads, dk, dv); every
// -p KEY=VALUE given must equal the file's: InputError("-p KEY") otherwise.
std::map<std::string, std::string> operator_params(const ArchLayer& a);
void check_operator_params(const std::map<std::string, std::string>& given, const ArchLayer& a, const std::string& op_file);

// The operator's own exact evaluation as a SymbolicReference on its N×w input. `user` decides
// whether the compositional route applies (its shape is the wide Hyena layout).
std::shared_ptr<const SymbolicReference> operator_reference(const ArchLayer& a, const Model& user);

// --method algebra. Throws InputError (exit 2) on a shape that is not the operator's, over budget.
AlgebraOutcome run_operator_algebra(const Model& user, const std::string& user_file, const ArchLayer& a, const std::string& op_file,
                                    const AlgebraOptions& o);

// The enumerating/sampled exact check (default 1000 seeded samples where the box is too large).
inline constexpr std::uint64_t kOperatorSamplesDefault = 1000;
Report run_operator_check(const Model& user, const std::string& user_file, const ArchLayer& a, const std::string& op_file,
                          const DomainOptions& opts);

// `export NAME --format operator`: the operator of a built-in construction (sim/* at stack = 1,
// SymbolicReference::arch) as a model of that one architecture layer, written as model-json.
// InputError when the construction has none.
Model operator_model(const Construction& c, const Params& p);

}  // namespace cz
