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

// The exact expansion S·E·Sᵀ over Q.
RatMatrix kmatrix_dense(const KMatrix<Rat>& k);
// L.W_kmatrix when it is set, of size d'×d' and expands exactly to L.W; else nullptr.
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

// model-json's K-matrix form of a projection (docs/contract.md, "K-matrix projections"):
// {"kind": "kmatrix", "n", "e", "elements": [{"M1": [F_0, …], "M2": [F_0, …]}, …]} with
// F_j = {"d1", "d2", "d3", "d4"} (e·n/2 exact entries each; F_j = B_{2^(j+1)}^(en)).
// `n` must be `want_n`; entries must lie in the ring ("Z", "Q", "Fp:<p>"). Bad input is an
// InputError naming the JSON path.
KMatrix<Rat> kmatrix_from_json(const nlohmann::json& j, std::size_t want_n, const std::string& ring, const std::string& where);
nlohmann::json kmatrix_to_json(const KMatrix<Rat>& k);

}  // namespace cz
