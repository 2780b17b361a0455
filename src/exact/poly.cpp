#include "exact/poly.h"

#include <flint/fmpq.h>
#include <flint/fmpq_mpoly.h>

#include <algorithm>
#include <cmath>

namespace cz {

struct PolyCtx {
  fmpq_mpoly_ctx_t ctx;
  explicit PolyCtx(std::size_t nvars) { fmpq_mpoly_ctx_init(ctx, static_cast<slong>(std::max<std::size_t>(nvars, 1)), ORD_LEX); }
  ~PolyCtx() { fmpq_mpoly_ctx_clear(ctx); }
  PolyCtx(const PolyCtx&) = delete;
  PolyCtx& operator=(const PolyCtx&) = delete;
};

struct PolyQ::Impl {
  fmpq_mpoly_t p;
  std::shared_ptr<PolyCtx> c;
  explicit Impl(std::shared_ptr<PolyCtx> ctx) : c(std::move(ctx)) { fmpq_mpoly_init(p, c->ctx); }
  ~Impl() { fmpq_mpoly_clear(p, c->ctx); }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
};

namespace {

using Impl = PolyQ::Impl;

void to_fmpq(fmpq_t r, const Rat& q) {
  fmpq_set_fmpz_frac(r, static_cast<const fmpz*>(q.num().raw()), static_cast<const fmpz*>(q.den().raw()));
}

Rat from_fmpq(const fmpq_t q) {
  Int n, d;
  fmpz_set(static_cast<fmpz*>(n.raw()), fmpq_numref(q));
  fmpz_set(static_cast<fmpz*>(d.raw()), fmpq_denref(q));
  return Rat(std::move(n), std::move(d));
}

struct Fmpq {
  fmpq_t v;
  Fmpq() { fmpq_init(v); }
  explicit Fmpq(const Rat& q) { fmpq_init(v); to_fmpq(v, q); }
  ~Fmpq() { fmpq_clear(v); }
};

// The zero polynomial is stored as nothing.
PolyQ wrap(Impl* p) {
  if (fmpq_mpoly_is_zero(p->p, p->c->ctx)) {
    delete p;
    return PolyQ();
  }
  return PolyQ(p);
}

bool constant(const Impl* p) { return fmpq_mpoly_is_fmpq(p->p, p->c->ctx); }

}  // namespace

PolyQ::PolyQ(const PolyQ& o) {
  if (o.p_) {
    p_ = new Impl(o.p_->c);
    fmpq_mpoly_set(p_->p, o.p_->p, p_->c->ctx);
  }
}

PolyQ& PolyQ::operator=(const PolyQ& o) {
  if (this != &o) {
    PolyQ t(o);
    std::swap(p_, t.p_);
  }
  return *this;
}

PolyQ& PolyQ::operator=(PolyQ&& o) noexcept {
  std::swap(p_, o.p_);
  return *this;
}

PolyQ::~PolyQ() { delete p_; }

std::size_t PolyQ::terms() const { return p_ ? static_cast<std::size_t>(fmpq_mpoly_length(p_->p, p_->c->ctx)) : 0; }

long PolyQ::degree() const { return p_ ? static_cast<long>(fmpq_mpoly_total_degree_si(p_->p, p_->c->ctx)) : -1; }

bool PolyQ::is_constant() const { return !p_ || constant(p_); }

std::string PolyQ::str() const {
  if (!p_) return "0";
  char* s = fmpq_mpoly_get_str_pretty(p_->p, nullptr, p_->c->ctx);
  std::string r(s);
  flint_free(s);
  return r;
}

Rat PolyQ::evaluate(const std::vector<Rat>& point) const {
  if (!p_) return Rat();
  const slong n = p_->c->ctx->zctx->minfo->nvars;
  if (point.size() < static_cast<std::size_t>(n)) throw std::invalid_argument("evaluate: the point has too few coordinates");
  std::vector<Fmpq> vals(static_cast<std::size_t>(n));
  std::vector<fmpq*> ptrs(static_cast<std::size_t>(n));
  for (slong i = 0; i < n; ++i) {
    to_fmpq(vals[i].v, point[i]);
    ptrs[i] = vals[i].v;
  }
  Fmpq r;
  if (!fmpq_mpoly_evaluate_all_fmpq(r.v, p_->p, ptrs.data(), p_->c->ctx)) throw std::runtime_error("evaluate: FLINT failed");
  return from_fmpq(r.v);
}

RingPolyQ::RingPolyQ(std::size_t nvars) : nvars_(nvars), ctx_(std::make_shared<PolyCtx>(nvars)) {}

std::size_t RingPolyQ::term_bytes(std::size_t nvars) {
  // Exponents packed at 8 bits per variable at least (FLINT's smallest field), one fmpz per coefficient.
  return 8 * ((std::max<std::size_t>(nvars, 1) * 8 + 63) / 64) + 8;
}

PolyQ RingPolyQ::var(std::size_t i) const {
  if (i >= nvars_) throw std::invalid_argument("var: index out of range");
  auto* p = new Impl(ctx_);
  fmpq_mpoly_gen(p->p, static_cast<slong>(i), ctx_->ctx);
  return PolyQ(p);
}

PolyQ RingPolyQ::from_rat(const Rat& q) const {
  if (q.is_zero()) return PolyQ();
  auto* p = new Impl(ctx_);
  Fmpq c(q);
  fmpq_mpoly_set_fmpq(p->p, c.v, ctx_->ctx);
  return PolyQ(p);
}

PolyQ RingPolyQ::add(const PolyQ& a, const PolyQ& b) const {
  if (a.is_zero()) return b;
  if (b.is_zero()) return a;
  auto* p = new Impl(ctx_);
  fmpq_mpoly_add(p->p, a.impl()->p, b.impl()->p, ctx_->ctx);
  return wrap(p);
}

PolyQ RingPolyQ::sub(const PolyQ& a, const PolyQ& b) const {
  if (b.is_zero()) return a;
  if (a.is_zero()) return neg(b);
  auto* p = new Impl(ctx_);
  fmpq_mpoly_sub(p->p, a.impl()->p, b.impl()->p, ctx_->ctx);
  return wrap(p);
}

PolyQ RingPolyQ::neg(const PolyQ& a) const {
  if (a.is_zero()) return a;
  auto* p = new Impl(ctx_);
  fmpq_mpoly_neg(p->p, a.impl()->p, ctx_->ctx);
  return PolyQ(p);
}

PolyQ RingPolyQ::mul(const PolyQ& a, const PolyQ& b) const {
  if (a.is_zero() || b.is_zero()) return PolyQ();
  auto* p = new Impl(ctx_);
  const Impl *x = a.impl(), *y = b.impl();
  if (constant(y)) std::swap(x, y);
  if (constant(x)) {
    Fmpq c;
    fmpq_mpoly_get_fmpq(c.v, x->p, ctx_->ctx);
    fmpq_mpoly_scalar_mul_fmpq(p->p, y->p, c.v, ctx_->ctx);
  } else {
    fmpq_mpoly_mul(p->p, x->p, y->p, ctx_->ctx);
  }
  return wrap(p);
}

void RingPolyQ::addmul(PolyQ& acc, const PolyQ& a, const PolyQ& b) const {
  if (a.is_zero() || b.is_zero()) return;
  PolyQ t = mul(a, b);
  if (acc.is_zero()) {
    acc = std::move(t);
    return;
  }
  if (t.is_zero()) return;
  fmpq_mpoly_add(acc.impl()->p, acc.impl()->p, t.impl()->p, ctx_->ctx);
  if (fmpq_mpoly_is_zero(acc.impl()->p, ctx_->ctx)) acc = PolyQ();
}

bool RingPolyQ::equal(const PolyQ& a, const PolyQ& b) const {
  if (a.is_zero() || b.is_zero()) return a.is_zero() && b.is_zero();
  return fmpq_mpoly_equal(a.impl()->p, b.impl()->p, ctx_->ctx);
}

Rat RingPolyQ::to_rat(const PolyQ& a) const {
  if (a.is_zero()) return Rat();
  if (!constant(a.impl())) throw std::domain_error("a non-constant polynomial has no rational value");
  Fmpq c;
  fmpq_mpoly_get_fmpq(c.v, a.impl()->p, ctx_->ctx);
  return from_fmpq(c.v);
}

// ---- RingBound ----

namespace {

// Monomials of total degree <= D in V variables: C(V + D, D), as a double.
double monomials(std::size_t V, long D) {
  double r = 1;
  for (long k = 1; k <= D; ++k) r = r * static_cast<double>(V + static_cast<std::size_t>(k)) / static_cast<double>(k);
  return r;
}

std::vector<std::uint64_t> unite(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  std::vector<std::uint64_t> r = a.size() >= b.size() ? a : b;
  const auto& s = a.size() >= b.size() ? b : a;
  for (std::size_t i = 0; i < s.size(); ++i) r[i] |= s[i];
  return r;
}

std::size_t count(const std::vector<std::uint64_t>& v) {
  std::size_t c = 0;
  for (auto w : v) c += static_cast<std::size_t>(__builtin_popcountll(w));
  return c;
}

}  // namespace

PolyBound RingBound::var(std::size_t i) const {
  PolyBound b{1, 1, std::vector<std::uint64_t>(i / 64 + 1, 0)};
  b.vars[i / 64] |= std::uint64_t{1} << (i % 64);
  return b;
}

PolyBound RingBound::add(const PolyBound& a, const PolyBound& b) const {
  if (a.deg < 0) return b;
  if (b.deg < 0) return a;
  PolyBound r{std::max(a.deg, b.deg), 0, unite(a.vars, b.vars)};
  r.terms = std::min(a.terms + b.terms, monomials(count(r.vars), r.deg));
  return r;
}

PolyBound RingBound::mul(const PolyBound& a, const PolyBound& b) const {
  if (a.deg < 0 || b.deg < 0) return {};
  PolyBound r{a.deg + b.deg, 0, unite(a.vars, b.vars)};
  r.terms = std::min(a.terms * b.terms, monomials(count(r.vars), r.deg));
  return r;
}

}  // namespace cz
