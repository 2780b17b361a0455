// Multivariate polynomials over Q as a Ring (exact/rings.h), for algebraic proofs (issue 37 item 1,
// contract.md "verify --method algebra"): every evaluator written over a Ring (the BaseConv model
// evaluator model/eval.h, the architecture references model/hyena.h, h3.h, retnet.h, rwkv.h, the
// primitive semantics) runs on symbols, and two polynomial outputs that are equal coefficient by
// coefficient agree on every input in Q^n. FLINT's fmpq_mpoly stays in poly.cpp (pimpl).
//   RingPolyQ  : Q[x_0, ..., x_{n-1}] (lex order), x_i = var(i); elements PolyQ.
//   RingBound  : an abstract twin for estimates before anything is allocated: each element is a
//                total degree, the set of variables it may contain and an upper bound on its
//                number of terms (sums: a + b, products: a·b, both capped by the number of
//                monomials of that degree in those variables). Cancellation is not seen, so the
//                counts are upper bounds.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "exact/rings.h"

namespace cz {

struct PolyCtx;  // FLINT context (poly.cpp)

// One polynomial; the zero polynomial holds nothing (is_zero() is O(1)).
class PolyQ {
 public:
  PolyQ() noexcept = default;
  PolyQ(const PolyQ& o);
  PolyQ(PolyQ&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  PolyQ& operator=(const PolyQ& o);
  PolyQ& operator=(PolyQ&& o) noexcept;
  ~PolyQ();

  bool is_zero() const { return p_ == nullptr; }
  std::size_t terms() const;
  long degree() const;  // total degree; -1 for the zero polynomial
  bool is_constant() const;
  std::string str() const;  // FLINT's text, variables named x0, x1, ...
  // Exact value at a point (one rational per variable).
  Rat evaluate(const std::vector<Rat>& point) const;

  struct Impl;
  explicit PolyQ(Impl* p) : p_(p) {}
  Impl* impl() const { return p_; }

 private:
  Impl* p_ = nullptr;
};

class RingPolyQ {
 public:
  using Elem = PolyQ;
  static constexpr bool ordered = false;  // no ReLU on symbols
  explicit RingPolyQ(std::size_t nvars);
  std::size_t nvars() const { return nvars_; }

  PolyQ var(std::size_t i) const;
  PolyQ zero() const { return PolyQ(); }
  PolyQ one() const { return from_rat(Rat(1)); }
  PolyQ from_int(std::int64_t v) const { return from_rat(Rat(v)); }
  PolyQ from_Int(const Int& z) const { return from_rat(Rat(z)); }
  PolyQ from_rat(const Rat& q) const;
  PolyQ add(const PolyQ& a, const PolyQ& b) const;
  PolyQ sub(const PolyQ& a, const PolyQ& b) const;
  PolyQ mul(const PolyQ& a, const PolyQ& b) const;
  PolyQ neg(const PolyQ& a) const;
  void addmul(PolyQ& acc, const PolyQ& a, const PolyQ& b) const;
  bool is_zero(const PolyQ& a) const { return a.is_zero(); }
  bool equal(const PolyQ& a, const PolyQ& b) const;
  Rat to_rat(const PolyQ& a) const;  // throws std::domain_error unless a is a constant
  std::string name() const { return "Q[x0..x" + std::to_string(nvars_ ? nvars_ - 1 : 0) + "]"; }
  // Bytes FLINT stores per term here (exponent words and the coefficient word), for estimates.
  std::size_t bytes_per_term() const { return term_bytes(nvars_); }
  // The same for nvars variables, without a context (closed-form estimates before anything is
  // built: issue 46 item 13).
  static std::size_t term_bytes(std::size_t nvars);

 private:
  std::size_t nvars_;
  std::shared_ptr<PolyCtx> ctx_;
};

// The abstract twin (see the top of this file).
struct PolyBound {
  long deg = -1;                     // -1: structurally zero
  double terms = 0;                  // upper bound
  std::vector<std::uint64_t> vars;   // bitset of the variables that may occur
};

class RingBound {
 public:
  using Elem = PolyBound;
  static constexpr bool ordered = false;
  explicit RingBound(std::size_t nvars) : nvars_(nvars) {}
  PolyBound var(std::size_t i) const;
  PolyBound zero() const { return {}; }
  PolyBound one() const { return {0, 1, {}}; }
  PolyBound from_int(std::int64_t v) const { return v ? one() : zero(); }
  PolyBound from_Int(const Int& z) const { return z.is_zero() ? zero() : one(); }
  PolyBound from_rat(const Rat& q) const { return q.is_zero() ? zero() : one(); }
  PolyBound add(const PolyBound& a, const PolyBound& b) const;
  PolyBound sub(const PolyBound& a, const PolyBound& b) const { return add(a, b); }
  PolyBound mul(const PolyBound& a, const PolyBound& b) const;
  PolyBound neg(const PolyBound& a) const { return a; }
  void addmul(PolyBound& acc, const PolyBound& a, const PolyBound& b) const { acc = add(acc, mul(a, b)); }
  bool is_zero(const PolyBound& a) const { return a.deg < 0; }
  bool equal(const PolyBound& a, const PolyBound& b) const { return a.deg == b.deg && a.terms == b.terms && a.vars == b.vars; }
  Rat to_rat(const PolyBound&) const { throw std::domain_error("a bound has no value"); }
  std::string name() const { return "bound"; }

 private:
  std::size_t nvars_;
};

static_assert(Ring<RingPolyQ> && Ring<RingBound>);

}  // namespace cz
