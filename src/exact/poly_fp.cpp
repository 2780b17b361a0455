#include "exact/poly_fp.h"

#include <flint/nmod_mpoly.h>

#include <algorithm>
#include <stdexcept>

namespace cz {

struct PolyFpCtx {
  nmod_mpoly_ctx_t ctx;
  PolyFpCtx(std::size_t nvars, std::uint64_t p) {
    nmod_mpoly_ctx_init(ctx, static_cast<slong>(std::max<std::size_t>(nvars, 1)), ORD_LEX, static_cast<mp_limb_t>(p));
  }
  ~PolyFpCtx() { nmod_mpoly_ctx_clear(ctx); }
  PolyFpCtx(const PolyFpCtx&) = delete;
  PolyFpCtx& operator=(const PolyFpCtx&) = delete;
};

struct PolyFp::Impl {
  nmod_mpoly_t p;
  std::shared_ptr<PolyFpCtx> c;
  explicit Impl(std::shared_ptr<PolyFpCtx> ctx) : c(std::move(ctx)) { nmod_mpoly_init(p, c->ctx); }
  ~Impl() { nmod_mpoly_clear(p, c->ctx); }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
};

namespace {

using Impl = PolyFp::Impl;

PolyFp wrap(Impl* p) {  // the zero polynomial is stored as nothing
  if (nmod_mpoly_is_zero(p->p, p->c->ctx)) {
    delete p;
    return PolyFp();
  }
  return PolyFp(p);
}

bool is_const(const Impl* p) { return nmod_mpoly_is_ui(p->p, p->c->ctx); }

}  // namespace

PolyFp::PolyFp(const PolyFp& o) {
  if (o.p_) {
    p_ = new Impl(o.p_->c);
    nmod_mpoly_set(p_->p, o.p_->p, p_->c->ctx);
  }
}

PolyFp& PolyFp::operator=(const PolyFp& o) {
  if (this != &o) {
    PolyFp t(o);
    std::swap(p_, t.p_);
  }
  return *this;
}

PolyFp& PolyFp::operator=(PolyFp&& o) noexcept {
  std::swap(p_, o.p_);
  return *this;
}

PolyFp::~PolyFp() { delete p_; }

std::size_t PolyFp::terms() const { return p_ ? static_cast<std::size_t>(nmod_mpoly_length(p_->p, p_->c->ctx)) : 0; }

long PolyFp::degree() const { return p_ ? static_cast<long>(nmod_mpoly_total_degree_si(p_->p, p_->c->ctx)) : -1; }

bool PolyFp::is_constant() const { return !p_ || is_const(p_); }

std::string PolyFp::str() const {
  if (!p_) return "0";
  char* s = nmod_mpoly_get_str_pretty(p_->p, nullptr, p_->c->ctx);
  std::string r(s);
  flint_free(s);
  return r;
}

std::uint64_t PolyFp::evaluate(const std::vector<std::uint64_t>& point) const {
  if (!p_) return 0;
  const slong n = p_->c->ctx->minfo->nvars;
  if (point.size() < static_cast<std::size_t>(n)) throw std::invalid_argument("evaluate: the point has too few coordinates");
  std::vector<ulong> v(point.begin(), point.begin() + n);
  return nmod_mpoly_evaluate_all_ui(p_->p, v.data(), p_->c->ctx);
}

RingPolyFp::RingPolyFp(std::size_t nvars, std::uint64_t p) : nvars_(nvars), fp_(p), ctx_(std::make_shared<PolyFpCtx>(nvars, p)) {}

std::size_t RingPolyFp::bytes_per_term() const { return 8 * ((std::max<std::size_t>(nvars_, 1) * 8 + 63) / 64) + 8; }

PolyFp RingPolyFp::var(std::size_t i) const {
  if (i >= nvars_) throw std::invalid_argument("var: index out of range");
  auto* p = new Impl(ctx_);
  nmod_mpoly_gen(p->p, static_cast<slong>(i), ctx_->ctx);
  return PolyFp(p);
}

PolyFp RingPolyFp::constant(std::uint64_t c) const {
  if (c % prime() == 0) return PolyFp();
  auto* p = new Impl(ctx_);
  nmod_mpoly_set_ui(p->p, static_cast<ulong>(c % prime()), ctx_->ctx);
  return PolyFp(p);
}

PolyFp RingPolyFp::add(const PolyFp& a, const PolyFp& b) const {
  if (a.is_zero()) return b;
  if (b.is_zero()) return a;
  auto* p = new Impl(ctx_);
  nmod_mpoly_add(p->p, a.impl()->p, b.impl()->p, ctx_->ctx);
  return wrap(p);
}

PolyFp RingPolyFp::sub(const PolyFp& a, const PolyFp& b) const {
  if (b.is_zero()) return a;
  if (a.is_zero()) return neg(b);
  auto* p = new Impl(ctx_);
  nmod_mpoly_sub(p->p, a.impl()->p, b.impl()->p, ctx_->ctx);
  return wrap(p);
}

PolyFp RingPolyFp::neg(const PolyFp& a) const {
  if (a.is_zero()) return a;
  auto* p = new Impl(ctx_);
  nmod_mpoly_neg(p->p, a.impl()->p, ctx_->ctx);
  return PolyFp(p);
}

PolyFp RingPolyFp::mul(const PolyFp& a, const PolyFp& b) const {
  if (a.is_zero() || b.is_zero()) return PolyFp();
  auto* p = new Impl(ctx_);
  const Impl *x = a.impl(), *y = b.impl();
  if (is_const(y)) std::swap(x, y);
  if (is_const(x))
    nmod_mpoly_scalar_mul_ui(p->p, y->p, nmod_mpoly_get_ui(x->p, ctx_->ctx), ctx_->ctx);
  else
    nmod_mpoly_mul(p->p, x->p, y->p, ctx_->ctx);
  return wrap(p);
}

void RingPolyFp::addmul(PolyFp& acc, const PolyFp& a, const PolyFp& b) const {
  if (a.is_zero() || b.is_zero()) return;
  PolyFp t = mul(a, b);
  if (t.is_zero()) return;
  if (acc.is_zero()) {
    acc = std::move(t);
    return;
  }
  nmod_mpoly_add(acc.impl()->p, acc.impl()->p, t.impl()->p, ctx_->ctx);
  if (nmod_mpoly_is_zero(acc.impl()->p, ctx_->ctx)) acc = PolyFp();
}

bool RingPolyFp::equal(const PolyFp& a, const PolyFp& b) const {
  if (a.is_zero() || b.is_zero()) return a.is_zero() && b.is_zero();
  return nmod_mpoly_equal(a.impl()->p, b.impl()->p, ctx_->ctx);
}

Rat RingPolyFp::to_rat(const PolyFp& a) const {
  if (a.is_zero()) return Rat();
  if (!is_const(a.impl())) throw std::domain_error("a non-constant polynomial has no value in F_p");
  return Rat(Int(static_cast<std::int64_t>(nmod_mpoly_get_ui(a.impl()->p, ctx_->ctx))));
}

}  // namespace cz
