// A model-json Model (model/model.h) bit-blasted exactly (issue 27): the N×d input as words, the
// layers as the model's definitions state them, the N×d output as words.
//   BaseConv  y = (u·W + b1) ⊙ (h * u + b2), the convolution by tensor/conv_naive.h (the
//             definitions of causal / cyclic / anticausal, conv_mode.h) over symbolic words;
//   MLP       y = relu(u·W1 + B1)·W2 + B2;
//   LinearAttention  z[i] = sum_{j<=i} <(u·Wq)[i], (u·Wk)[j]> (u·Wv)[j], as the recurrent state
//             S_i = sum_{j<=i} K[j]^T V[j] that model/eval.h evaluates.
// Rings: Z, and Q when every weight is an integer (then the values are the Z ones); Fp is refused
// (its arithmetic is mod p, not the integers these words hold). Refusals are InputError(why, where).
#pragma once
#include <optional>
#include <utility>
#include <vector>

#include "circuits/sat/bitvec.h"
#include "model/model.h"
#include "tensor/matrix.h"

namespace cz::circuits::sat {

// Throws InputError when the model's ring or weights are not bit-blastable (with why).
void require_integral(const Model& m, const std::string& where);

// Proved bounds on layer outputs: bounds[l](i, j), when set, holds every value entry (i, j) of
// the inner state after layer l takes on the domain (a shorter vector: no bounds past its end).
using EntryBound = std::optional<std::pair<Int, Int>>;
using LayerBounds = std::vector<Matrix<EntryBound>>;

// The model's N×d output as words, from its N×d input words (TooWide past the width cap); with
// bounds, each layer's outputs are narrowed to them (WordBuilder::narrow: the caller proved them).
Matrix<Word> model_words(WordBuilder& wb, const Model& m, const Matrix<Word>& u, const LayerBounds* bounds = nullptr);

// Layer l of the model on the inner state x (inner_N × inner_d words), not narrowed.
Matrix<Word> layer_words(WordBuilder& wb, const Model& m, std::size_t l, const Matrix<Word>& x);

// The inner state (inner_N × inner_d words) after the first `layers` layers, narrowed as above.
Matrix<Word> state_words(WordBuilder& wb, const Model& m, const Matrix<Word>& u, std::size_t layers, const LayerBounds* bounds);

}  // namespace cz::circuits::sat
