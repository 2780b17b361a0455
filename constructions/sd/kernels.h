// The IP kernels of JRT Def G.17 / §G.3.2 (spec §10.2), defined directly (the MLP of the G.18
// model realises them; tests check the MLP's features against these definitions).
//   data-dependent (JRT eq 19): phi(x) = [e_pos(x) ; 0^n] for x in S, else [0^|S| ; bin(x)];
//       f = |S| + n and <phi(x), phi(y)> = [x = y] whenever x or y is in S (epsilon = 0 there).
//   random (JRT eq 20): r_x in {-1,1}^f, seeded; kept integral (no 1/sqrt(f)): <r_x, r_x> = f,
//       and a match is decided against f/2 instead of 1/2 (exact). epsilon = max_{x!=y} |<r_x,r_y>|/f.
//   exponential: k(x, y) = exp(<c_x, c_y> - r·n) with c_x = (2x - 1) repeated r times (a code in
//       {-1,1}^{rn}); k(x,x) = 1 and k(x,y) = e^{-2r·ham(x,y)}. Not a finite rational feature map,
//       so it is evaluated as a kernel sum with certified rational bounds on e (no floating point).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "exact/rational.h"

namespace cz::sdc {

std::vector<std::int64_t> dd_phi(const std::vector<std::uint32_t>& S, unsigned n, std::uint32_t x);

// Row x of the seeded random kernel: f entries in {-1, +1}; a prefix of a longer row (so
// f' < f uses the first f' coordinates).
std::vector<std::int64_t> random_phi(std::uint64_t seed, std::size_t f, std::uint32_t x);

// max over x != y in [0, 2^n) of |<r_x, r_y>| for the first f coordinates.
std::int64_t random_max_offdiag(std::uint64_t seed, std::size_t f, unsigned n);
// Smallest f with 3·s·max_offdiag(f) <= f, i.e. epsilon <= 1/(3s) (JRT Prop G.18's tolerance);
// nullopt when none up to fmax.
std::optional<std::size_t> random_f_for_eps(std::uint64_t seed, unsigned n, std::size_t s, std::size_t fmax);
// JRT's recipe f = 9 s^2 t^2 with t^2 = 2 ln(2 c^2) (Hoeffding + a union bound over c^2 pairs);
// a reported number only (floating point never enters a verdict).
double random_f_jrt(unsigned n, std::size_t s);

// Certified enclosure [lo, hi] of e^{-t} for an integer t >= 0 (Taylor bounds on e).
struct RatInterval { Rat lo, hi; };
RatInterval exp_neg(std::size_t t);
// Smallest r >= 1 whose certified upper bound of e^{-2r} is <= 1/(3s).
std::size_t exp_r_for_eps(std::size_t s);

}  // namespace cz::sdc

namespace cz::sdc {
// Smallest f <= fmax at which the random kernel decides every (S, b) pair right: sum_{a in S}
// <r_b, r_a> > f/2 exactly when b is in S (the G.18 decision at the kernel level); nullopt if none.
std::optional<std::size_t> random_f_min(std::uint64_t seed, unsigned n,
                                        const std::vector<std::pair<std::vector<std::uint32_t>, std::uint32_t>>& pairs,
                                        std::size_t fmax);
}  // namespace cz::sdc
