// Architecture layers in model-json (issue 28; contract "Architecture layers"): "hyena", "h3",
// "retnet" and "rwkv" layers, read into their exact operators (model/hyena.h, h3.h, retnet.h,
// rwkv.h) and stored in the Model as the BaseConv layers of their simulations
// (model/zoo_compile.h, verified by sim/hyena, sim/h3, sim/retnet, sim/rwkv), zero-padded to the
// model's inner (N', d'). So every path that runs a model (eval, verify --model, Python, the lane
// program, circuits, devices) runs an architecture layer unchanged. The operator is kept beside its
// expansion (Model::arch, model/model.h) so that writing model-json gives the architecture layer
// back while its expansion is untouched (arch_origin_holds), and `verify --model F --task arch`
// checks each stored expansion against the operator's own evaluation (verify/arch_check.h).
// Semantics of one such layer on the N'×d' state x: with w the operator's width (d, or 2d for
// RWKV's [E | x] -> [num | den]), y[:, :w] = op(x[:, :w]) and y[:, w:] = 0. It needs N = N', the
// causal conv mode, and the simulation's inner width at most d'.
#pragma once
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/h3.h"
#include "model/hyena.h"
#include "model/model.h"
#include "model/retnet.h"
#include "model/rwkv.h"

namespace cz {

struct ArchLayer {
  std::variant<HyenaOperator, H3Operator, RetNetOperator, RwkvOperator> op;
};

bool is_arch_kind(const std::string& kind);
std::string arch_kind(const ArchLayer& a);   // "hyena" | "h3" | "retnet" | "rwkv"
std::size_t arch_width(const ArchLayer& a);  // columns read and written
std::size_t arch_sim_width(const ArchLayer& a);  // the simulation's inner width (at most d')

// Bits of the largest coefficient the layer's simulation holds (closed form, from the weights'
// bits and N: γ^t, λ^t and rotation powers up to t = N − 1), and the most a model file may give
// (issue 46 item 14: 2^20 bits, about 315,000 decimal digits).
double arch_coefficient_bits(const ArchLayer& a);
inline constexpr std::size_t kArchMaxCoefficientBits = std::size_t{1} << 20;

// The simulation's layers, zero-padded to (inner_N, inner_d); InputError(where) when N differs,
// the simulation is wider than inner_d, or its coefficients would pass kArchMaxCoefficientBits.
std::vector<BaseConvLayer> arch_expand(const ArchLayer& a, std::size_t inner_N, std::size_t inner_d, const std::string& where);

// Reads one architecture layer of a model with the given inner_N (InputError naming the field).
std::shared_ptr<const ArchLayer> arch_from_json(const nlohmann::json& L, std::size_t inner_N, const std::string& where);
nlohmann::json arch_to_json(const ArchLayer& a);

// Appends the expansion of `a` to m's layers and records where it came from (m.arch). Throws
// InputError(where) as arch_expand, on a non-causal model, and on a non-integral weight of the
// expansion in a Z model.
void append_arch(Model& m, std::shared_ptr<const ArchLayer> a, const std::string& where);
void append_arch(Model& m, const ArchLayer& a, const std::string& where);

// Whether writing o's architecture layer in place of m.layers[o.first, o.first + o.count) reads
// back to exactly those layers: they exist, are BaseConv layers without a K-matrix certificate,
// and equal the expansion of o.layer at m's current inner (N', d') in a causal model. False after
// any edit of those layers (stack, a changed weight, a reordering): writers then keep the layers.
bool arch_origin_holds(const Model& m, const ArchOrigin& o);

// The architecture's own exact evaluation of the layer on the state x (N'×d'): op(x[:, :w]) in the
// first w columns, zeros elsewhere; no BaseConv code (the reference the expansion is checked against).
template <Ring R>
Matrix<typename R::Elem> arch_eval(const R& r, const ArchLayer& a, const Matrix<typename R::Elem>& x) {
  using E = typename R::Elem;
  const std::size_t w = arch_width(a);
  Matrix<E> in(x.rows(), w, r.zero());
  for (std::size_t i = 0; i < x.rows(); ++i)
    for (std::size_t j = 0; j < w && j < x.cols(); ++j) in(i, j) = x(i, j);
  const Matrix<E> out = std::visit(
      [&](const auto& op) -> Matrix<E> {
        using T = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<T, HyenaOperator>) return hyena_eval(r, op, in);
        else if constexpr (std::is_same_v<T, H3Operator>) return h3_eval(r, op, in);
        else if constexpr (std::is_same_v<T, RetNetOperator>) return retnet_eval(r, op, in);
        else return rwkv_eval(r, op, in);
      },
      a.op);
  Matrix<E> y(x.rows(), x.cols(), r.zero());
  for (std::size_t i = 0; i < x.rows(); ++i)
    for (std::size_t j = 0; j < w && j < x.cols(); ++j) y(i, j) = out(i, j);
  return y;
}

}  // namespace cz
