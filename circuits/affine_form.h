// An affine form over "anchors" (a circuit's inputs and its non-scalar products), with exact
// rational coefficients: what a run of Add/scalar-Mul gates computes from the anchors it reads.
// Shared by the two circuit -> BaseConv compilers (circuit_to_model.cpp, causal;
// circuit_to_model_cyclic.cpp, Thm H.21 with d' = d), which fold linear gates into such forms
// before routing them.
#pragma once
#include <cstdint>
#include <map>

#include "exact/rational.h"

namespace cz::circuits {

struct AffineForm {
  std::map<std::uint32_t, Rat> t;  // anchor -> coefficient (no zero coefficients stored)
  Rat c;                           // the constant term
};

inline AffineForm plus(const AffineForm& x, const AffineForm& y) {
  AffineForm r = x;
  r.c += y.c;
  for (const auto& [a, q] : y.t) {
    Rat& v = r.t[a];
    v += q;
    if (v.is_zero()) r.t.erase(a);
  }
  return r;
}

inline AffineForm times(const Rat& s, const AffineForm& x) {
  AffineForm r;
  if (s.is_zero()) return r;
  r.c = s * x.c;
  for (const auto& [a, q] : x.t) r.t[a] = s * q;
  return r;
}

}  // namespace cz::circuits
