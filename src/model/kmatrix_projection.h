// K-matrix projections (Zoology Def H.3: projections are K-matrices; Dao et al. 2020; spec §14.1).
// A BaseConv layer's W may carry a K-matrix form (BaseConvLayer::W_kmatrix); these helpers say
// whether the form still expands to W and count parameters both ways:
//   dense    : d'² + 3·N'·d' per BaseConv layer (every stored weight, as count_params)
//   kmatrix  : 3·N'·d' + 4·w·e·d'·log2(e·d') for a layer whose W has a valid K-matrix form, the
//              dense count for every other layer (spec §14.1 [R], per-layer count under Def H.3).
#pragma once
#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "model/model.h"

namespace cz {

// The exact expansion S·E·Sᵀ over Q; with `rows`, its top-left rows×rows corner.
// A d'×d' projection with d' not a power of two is the top-left corner of a K-matrix of size
// n = 2^⌈log2 d'⌉ [R, our convention: Dao et al. take sizes to be powers of two; padding with
// zero rows and columns is S = [I_d' 0] once more], so every d' has K-matrix forms.
RatMatrix kmatrix_dense(const KMatrix<Rat>& k);
RatMatrix kmatrix_dense(const KMatrix<Rat>& k, std::size_t rows);
// L.W_kmatrix when it is set, of size d'×d' (or d' padded up to a power of two) and its corner
// expands exactly to L.W; else nullptr.
const KMatrix<Rat>* kmatrix_form(const BaseConvLayer& L);

struct KMatrixProjection {
  std::size_t layer = 0, n = 0, e = 0, width = 0, params = 0, params_formula = 0, dense_params = 0;
};
struct KMatrixParamCount {
  std::size_t dense = 0;    // count_params(m).dense
  std::size_t kmatrix = 0;  // K-matrix forms counted by their factors, other weights densely
  std::vector<KMatrixProjection> projections;  // the layers whose W has a valid K-matrix form
};
KMatrixParamCount count_params_kmatrix(const Model& m);
// {"params_dense", "params_kmatrix", "kmatrix_projections": [{layer, n, e, w, params,
// params_formula, dense_params}]} for reports.
nlohmann::json kmatrix_params_json(const Model& m);

// A copy of m in which every BaseConv layer without a K-matrix form gets one where W is structured
// (tensor/kmatrix_forms.h: identity, monomial — permutations, shifts, masks, diagonals — or sparse
// when Thm 3's form is smaller than dense); each form is kept only when it expands exactly to W
// (kmatrix_form). Evaluation is unchanged: W stays the layer's weight.
Model with_kmatrix_forms(const Model& m);

// Every BaseConv W counted as a K-matrix (Zoology Def H.3 taken literally): its structured form's
// stored entries (tensor/kmatrix_forms.h) when it has one, else Thm 3's form by its formula
// 4·w·4n̂·log2(4n̂), w = 3⌈s/n̂⌉ + 1 (prove kmatrix/dao-thm3 checks that built forms store exactly
// that). Filters and biases (3·N'·d' per layer) and non-BaseConv layers counted densely. No
// expansion is checked here (the forms' tests do that), so it is cheap enough for sweeps.
struct AllKmatrixCount {
  std::size_t total = 0;               // the model's parameters with every W a K-matrix
  std::size_t largest_projection = 0;  // the largest single W's K-matrix count
  std::size_t structured = 0, thm3 = 0;  // W's with a structured form / counted by Thm 3
};
AllKmatrixCount count_params_all_kmatrix(const Model& m);

// model-json's K-matrix form of a projection (docs/contract.md, "K-matrix projections"):
// {"kind": "kmatrix", "n", "e", "elements": [{"M1": [F_0, …], "M2": [F_0, …]}, …]} with
// F_j = {"d1", "d2", "d3", "d4"} (e·n/2 exact entries each; F_j = B_{2^(j+1)}^(en)).
// `n` must be `want_n` or, when want_n is not a power of two, want_n rounded up to one; entries must lie in the ring ("Z", "Q", "Fp:<p>"). Bad input is an
// InputError naming the JSON path.
KMatrix<Rat> kmatrix_from_json(const nlohmann::json& j, std::size_t want_n, const std::string& ring, const std::string& where);
nlohmann::json kmatrix_to_json(const KMatrix<Rat>& k);

}  // namespace cz
