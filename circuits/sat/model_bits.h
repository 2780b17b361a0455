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
#include "circuits/sat/bitvec.h"
#include "model/model.h"
#include "tensor/matrix.h"

namespace cz::circuits::sat {

// Throws InputError when the model's ring or weights are not bit-blastable (with why).
void require_integral(const Model& m, const std::string& where);

// The model's N×d output as words, from its N×d input words (TooWide past the width cap).
Matrix<Word> model_words(WordBuilder& wb, const Model& m, const Matrix<Word>& u);

}  // namespace cz::circuits::sat
