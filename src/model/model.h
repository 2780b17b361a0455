// The (N, L, d, N', d') model of Zoology Def H.2 / JRT Def G.2: L layers acting on N'×d', the
// N×d input embedded top-left (zeros elsewhere) and the N×d output read from the top-left.
// Weights are stored exactly as rationals; `ring` says which ring the model is meant for
// ("Z", "Q" or "Fp:<prime>"), and evaluation converts the weights once (model/prepare.h).
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "exact/rational.h"
#include "tensor/conv_mode.h"
#include "tensor/kmatrix.h"
#include "tensor/matrix.h"

namespace cz {

using RatMatrix = Matrix<Rat>;

// y = (u·W + b1) ⊙ (h * u + b2)   (JRT Def G.1; W is d'×d', b1, h, b2 are N'×d')
struct BaseConvLayer {
  RatMatrix W, b1, h, b2;
  // W given as a K-matrix (Dao et al. 2020, spec §14.1; model-json "kind": "kmatrix"), W being its
  // exact expansion. A certificate beside W, never instead of it: it is counted and written back
  // only while it still expands to W (model/kmatrix_projection.h), so code that edits W stays right.
  std::shared_ptr<const KMatrix<Rat>> W_kmatrix = nullptr;
};

// y = relu(u·W1 + B1)·W2 + B2   (JRT Def G.3, with sigma = ReLU as assumed in spec §2.3)
struct MlpLayer {
  RatMatrix W1, B1, W2, B2;
};

// z[i] = sum_{j<=i} <(u·Wq)[i], (u·Wk)[j]> (u·Wv)[j]   (JRT Def G.16, causal, unnormalised)
struct LinearAttentionLayer {
  RatMatrix Wq, Wk, Wv;  // d'×f, d'×f, d'×d'
};

using Layer = std::variant<BaseConvLayer, MlpLayer, LinearAttentionLayer>;

struct ArchLayer;  // model/arch_layer.h

// Where an architecture layer of model-json ("hyena", "h3", "retnet", "rwkv") sits in `layers`:
// layers[first, first + count) is its BaseConv expansion. A note beside the layers, never instead
// of them (every evaluator runs the layers): writers give the architecture layer back only while
// those layers are still exactly its expansion (model/arch_layer.h arch_origin_holds), so code
// that edits or reorders layers stays right without knowing about it.
struct ArchOrigin {
  std::size_t first = 0, count = 0;
  std::shared_ptr<const ArchLayer> layer;
};

struct Model {
  std::string ring = "Z";
  std::size_t N = 0, d = 0, inner_N = 0, inner_d = 0;
  ConvMode conv = ConvMode::Causal;
  std::vector<Layer> layers;
  std::vector<ArchOrigin> arch;  // sorted by first, not overlapping
};

// Shape and ring checks; throws InputError(what, where) naming the first bad field.
void validate(const Model& m, const std::string& where = "model");

struct ParamCount {
  std::size_t dense = 0;    // every stored weight
  std::size_t nonzero = 0;  // weights that are not 0
};
ParamCount count_params(const Model& m);

// Convenience for constructions: an all-zero BaseConv layer of the model's inner shape.
BaseConvLayer zero_baseconv(const Model& m);

// Stacks b after a (JRT "stacking BaseConv layers with the same internal dimension"):
// requires equal N, d, inner dims and conv mode. b's architecture origins are shifted after a's.
Model stack(const Model& a, const Model& b);

}  // namespace cz
