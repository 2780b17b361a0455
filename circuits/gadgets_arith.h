// Arithmetic gadgets: sums and products as balanced trees (depth ⌈log2 n⌉), prefix sums and
// prefix products as a Sklansky parallel-prefix scan (depth ⌈log2 n⌉, size ≤ (n/2)·⌈log2 n⌉),
// and conversions between words and integers.
//   bits_to_int(bits)  = Σ_k 2^k · bits[k]  (a Field wire; exact in any ring)
//   int_to_bits(x, d)  = the d bits of x for 0 <= x < 2^d, by Lagrange interpolation on the points
//                        0..2^d−1 (indicator [x = v] = Π_{u≠v} (x−u)/(v−u); bit k = Σ_{v: bit k of v}
//                        [x = v]). Its constants are rationals, so the circuit lives over Q or Fp
//                        with p > 2^d (not Z); size O(2^d·d). The results are Field wires: a value
//                        outside [0, 2^d) gives non-bits, so they are not certified Bit.
#pragma once
#include <functional>
#include <vector>

#include "circuits/gadgets_bits.h"

namespace cz::circuits::gadgets {

using Combine = std::function<Wire(Builder&, Wire, Wire)>;  // associative; (earlier, later)

Wire sum(Builder& b, const std::vector<Wire>& xs);      // 0 for an empty list
Wire product(Builder& b, const std::vector<Wire>& xs);  // 1 for an empty list
Wire reduce(Builder& b, const std::vector<Wire>& xs, const Combine& op);  // precondition: non-empty

// out[i] = xs[0] op xs[1] op ... op xs[i]  (Sklansky scan).
std::vector<Wire> prefix_scan(Builder& b, std::vector<Wire> xs, const Combine& op);
std::vector<Wire> prefix_sums(Builder& b, const std::vector<Wire>& xs);
std::vector<Wire> prefix_products(Builder& b, const std::vector<Wire>& xs);

Wire bits_to_int(Builder& b, const Bits& bits);
std::vector<Wire> int_to_bits(Builder& b, Wire x, std::size_t d);  // d <= 16

}  // namespace cz::circuits::gadgets
