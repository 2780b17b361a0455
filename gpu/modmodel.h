// A model prepared for modular evaluation on the device (issue 12): every weight reduced modulo a
// few NTT primes (tensor/ntt.h's table, p = c·2^22 + 1 in (2^29, 2^30)), each BaseConv filter
// transformed once per prime (NttTable conventions), and a CERTIFIED bound B on |every
// intermediate and output entry| over all inputs with |u| <= input_bound, by exact integer
// interval propagation through the layers. The number of primes k is the least with
// P = p_0···p_{k−1} > 2B, so an output's residues determine it (CRT lift to (−P/2, P/2)).
// Layers: BaseConv (JRT Def G.1) and causal linear attention (Def G.16): both are ring maps, so
// evaluation mod p commutes with reduction. MLP layers (ReLU is not) are refused.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "exact/integer.h"
#include "gpu/modmodel_kernel.h"
#include "model/model.h"

namespace cz::gpu {

class ModModel {
 public:
  // Throws std::invalid_argument when the model cannot be evaluated this way: an MLP layer, a
  // weight that is not an integer, a ring other than Z or Q, more than kModMaxLayers layers, a
  // transform longer than 2^22, or a bound needing more than max_primes primes.
  ModModel(const Model& m, std::int64_t input_bound, int max_primes = kModMaxPrimes);

  // The view with arena = this host copy (valid while *this lives and is not moved).
  ModModelView view() const;
  const std::vector<std::uint32_t>& arena() const { return arena_; }
  const Int& bound() const { return bound_; }      // certified max |entry| over every layer
  const Int& modulus() const { return modulus_; }  // P, > 2·bound
  int primes() const { return base_.primes; }
  std::int64_t input_bound() const { return input_bound_; }
  std::string kind() const;  // "modular BaseConv x2 + linear attention x1, k NTT primes, NTT conv, CRT lift ..."

  // The exact integer of one entry from its residues (one per prime, in prime order).
  Int lift(const std::uint32_t* residues) const;

 private:
  ModModelView base_;
  std::vector<std::uint32_t> arena_;
  Int bound_, modulus_;
  std::int64_t input_bound_;
};

// The certified bound alone (what the constructor uses): max over every intermediate and output
// entry of the evaluation on inputs with |u| <= input_bound. Throws std::invalid_argument for
// the layers and weights ModModel refuses.
Int mod_model_bound(const Model& m, std::int64_t input_bound);

}  // namespace cz::gpu
