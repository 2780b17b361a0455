// Multivariate polynomials over F_p as a Ring (exact/rings.h), beside RingPolyQ (exact/poly.h), for
// algebraic proofs of models over Fp:<p> (issue 37 item 1; contract.md "verify --method algebra"):
// the model and its reference run on symbols in F_p[x_0..x_{n-1}], and equal polynomials agree on
// EVERY input in F_p^n (as polynomials, not only as functions: the converse needs degree < p in
// each variable, so a nonzero difference may still vanish on all of F_p^n; the engine then finds no
// point and says so). FLINT's nmod_mpoly stays in poly_fp.cpp (pimpl), p < 2^62 as RingFp.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "exact/rings.h"

namespace cz {

struct PolyFpCtx;  // FLINT context (poly_fp.cpp)

// One polynomial; the zero polynomial holds nothing (is_zero() is O(1)).
class PolyFp {
 public:
  PolyFp() noexcept = default;
  PolyFp(const PolyFp& o);
  PolyFp(PolyFp&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  PolyFp& operator=(const PolyFp& o);
  PolyFp& operator=(PolyFp&& o) noexcept;
  ~PolyFp();

  bool is_zero() const { return p_ == nullptr; }
  std::size_t terms() const;
  long degree() const;  // total degree; -1 for the zero polynomial
  bool is_constant() const;
  std::string str() const;
  // The value at a point of F_p^n (representatives in [0, p), one per variable).
  std::uint64_t evaluate(const std::vector<std::uint64_t>& point) const;

  struct Impl;
  explicit PolyFp(Impl* p) : p_(p) {}
  Impl* impl() const { return p_; }

 private:
  Impl* p_ = nullptr;
};

class RingPolyFp {
 public:
  using Elem = PolyFp;
  static constexpr bool ordered = false;
  // Throws std::invalid_argument unless p is a prime below 2^62 (as RingFp).
  RingPolyFp(std::size_t nvars, std::uint64_t p);
  std::size_t nvars() const { return nvars_; }
  std::uint64_t prime() const { return fp_.prime(); }
  const RingFp& field() const { return fp_; }

  PolyFp var(std::size_t i) const;
  PolyFp zero() const { return PolyFp(); }
  PolyFp one() const { return constant(1); }
  PolyFp from_int(std::int64_t v) const { return constant(fp_.from_int(v)); }
  PolyFp from_Int(const Int& z) const { return constant(fp_.from_Int(z)); }
  PolyFp from_rat(const Rat& q) const { return constant(fp_.from_rat(q)); }  // std::domain_error when p divides the denominator
  PolyFp constant(std::uint64_t c) const;
  PolyFp add(const PolyFp& a, const PolyFp& b) const;
  PolyFp sub(const PolyFp& a, const PolyFp& b) const;
  PolyFp mul(const PolyFp& a, const PolyFp& b) const;
  PolyFp neg(const PolyFp& a) const;
  void addmul(PolyFp& acc, const PolyFp& a, const PolyFp& b) const;
  bool is_zero(const PolyFp& a) const { return a.is_zero(); }
  bool equal(const PolyFp& a, const PolyFp& b) const;
  Rat to_rat(const PolyFp& a) const;  // the constant's representative in [0, p); std::domain_error otherwise
  std::string name() const { return "F" + std::to_string(prime()) + "[x0..x" + std::to_string(nvars_ ? nvars_ - 1 : 0) + "]"; }
  std::size_t bytes_per_term() const;  // exponent words and one coefficient word, for estimates

 private:
  std::size_t nvars_;
  RingFp fp_;
  std::shared_ptr<PolyFpCtx> ctx_;
};

static_assert(Ring<RingPolyFp>);

}  // namespace cz
