#include "proofs-checks/symbolic.h"

#include <flint/fmpq_mpoly.h>

#include <variant>

namespace cz::proofs {
namespace {

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void set_fmpq(fmpq_t r, const Rat& q) {
  fmpz_set_str(fmpq_numref(r), q.num().str().c_str(), 10);
  fmpz_set_str(fmpq_denref(r), q.den().str().c_str(), 10);
}

struct Ctx {
  fmpq_mpoly_ctx_t ctx;
  explicit Ctx(slong nvars) { fmpq_mpoly_ctx_init(ctx, nvars, ORD_DEGLEX); }
  ~Ctx() { fmpq_mpoly_ctx_clear(ctx); }
};

struct Poly {
  fmpq_mpoly_t p;
  const fmpq_mpoly_ctx_struct* ctx;
  explicit Poly(const Ctx& c) : ctx(c.ctx) { fmpq_mpoly_init(p, ctx); }
  Poly(const Poly& o) : ctx(o.ctx) {
    fmpq_mpoly_init(p, ctx);
    fmpq_mpoly_set(p, o.p, ctx);
  }
  Poly& operator=(const Poly& o) {
    fmpq_mpoly_set(p, o.p, ctx);
    return *this;
  }
  ~Poly() { fmpq_mpoly_clear(p, ctx); }
  slong len() const { return fmpq_mpoly_length(p, ctx); }
};

struct TooBig {};

}  // namespace

bool baseconv_only(const Model& m) {
  for (const auto& l : m.layers)
    if (!std::holds_alternative<BaseConvLayer>(l)) return false;
  return true;
}

Model random_baseconv(std::size_t N, std::size_t d, std::size_t inner_N, std::size_t inner_d, std::size_t L,
                      ConvMode mode, std::uint64_t seed, int range) {
  std::uint64_t s = seed * 0x100000001b3ULL + 0x51ed270b;
  auto draw = [&] { return Rat(static_cast<std::int64_t>(splitmix(s) % (2 * range + 1)) - range); };
  auto mat = [&](std::size_t r, std::size_t c) {
    RatMatrix m(r, c);
    for (auto& e : m.data()) e = draw();
    return m;
  };
  Model m;
  m.N = N;
  m.d = d;
  m.inner_N = inner_N;
  m.inner_d = inner_d;
  m.conv = mode;
  for (std::size_t l = 0; l < L; ++l)
    m.layers.emplace_back(BaseConvLayer{mat(inner_d, inner_d), mat(inner_N, inner_d), mat(inner_N, inner_d), mat(inner_N, inner_d)});
  return m;
}

std::optional<SymbolicOutput> symbolic_eval(const Model& m, std::string& why, std::size_t term_cap) {
  if (!baseconv_only(m)) {
    why = "not a BaseConv-only model (MLP or linear attention layers are not polynomial maps of this kind)";
    return std::nullopt;
  }
  const std::size_t N = m.N, d = m.d, Ni = m.inner_N, Di = m.inner_d;
  const slong nvars = static_cast<slong>(std::max<std::size_t>(N * d, 1));
  Ctx C(nvars);
  std::vector<Poly> x(Ni * Di, Poly(C));
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < d; ++j) fmpq_mpoly_gen(x[i * Di + j].p, static_cast<slong>(i * d + j), C.ctx);
  SymbolicOutput out;
  out.N = N;
  out.d = d;
  out.layers = m.layers.size();
  fmpq_t q;
  fmpq_init(q);
  auto note_len = [&](const Poly& p) {
    out.max_terms = std::max<std::size_t>(out.max_terms, static_cast<std::size_t>(p.len()));
    if (static_cast<std::size_t>(p.len()) > term_cap) throw TooBig{};
  };
  Poly tmp(C);
  auto addmul = [&](Poly& t, const Poly& a, const fmpq_t f, Poly& scratch) {
    fmpq_mpoly_scalar_mul_fmpq(scratch.p, a.p, f, C.ctx);
    fmpq_mpoly_add(t.p, t.p, scratch.p, C.ctx);
  };
  try {
    for (const auto& layer : m.layers) {
      const auto& L = std::get<BaseConvLayer>(layer);
      std::vector<Poly> a(Ni * Di, Poly(C)), c(Ni * Di, Poly(C));
      // a = x·W + b1
      for (std::size_t i = 0; i < Ni; ++i)
        for (std::size_t j = 0; j < Di; ++j) {
          Poly& t = a[i * Di + j];
          for (std::size_t k = 0; k < Di; ++k) {
            if (L.W(k, j).is_zero()) continue;
            set_fmpq(q, L.W(k, j));
            addmul(t, x[i * Di + k], q, tmp);
          }
          if (!L.b1(i, j).is_zero()) {
            set_fmpq(q, L.b1(i, j));
            fmpq_mpoly_add_fmpq(t.p, t.p, q, C.ctx);
          }
          note_len(t);
        }
      // c = h * x + b2, per channel along the sequence axis, in the model's mode (contract.md)
      for (std::size_t i = 0; i < Ni; ++i)
        for (std::size_t j = 0; j < Di; ++j) {
          Poly& t = c[i * Di + j];
          for (std::size_t k = 0; k < Ni; ++k) {
            if (L.h(k, j).is_zero()) continue;
            std::size_t src;
            if (m.conv == ConvMode::Causal) {
              if (k > i) continue;
              src = i - k;
            } else if (m.conv == ConvMode::Cyclic) {
              src = (i + Ni - k) % Ni;
            } else {
              if (i + k >= Ni) continue;
              src = i + k;
            }
            set_fmpq(q, L.h(k, j));
            addmul(t, x[src * Di + j], q, tmp);
          }
          if (!L.b2(i, j).is_zero()) {
            set_fmpq(q, L.b2(i, j));
            fmpq_mpoly_add_fmpq(t.p, t.p, q, C.ctx);
          }
          note_len(t);
        }
      for (std::size_t k = 0; k < Ni * Di; ++k) {
        if (static_cast<std::size_t>(a[k].len()) * static_cast<std::size_t>(c[k].len()) > 4 * term_cap &&
            a[k].len() > 0 && c[k].len() > 0)
          throw TooBig{};
        fmpq_mpoly_mul(x[k].p, a[k].p, c[k].p, C.ctx);
        note_len(x[k]);
      }
    }
  } catch (const TooBig&) {
    fmpq_clear(q);
    why = "a polynomial passed " + std::to_string(term_cap) + " terms";
    return std::nullopt;
  }
  fmpq_clear(q);
  std::vector<slong> degs(static_cast<std::size_t>(nvars));
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      const Poly& p = x[i * Di + j];
      long deg = fmpq_mpoly_is_zero(p.p, C.ctx) ? -1 : static_cast<long>(fmpq_mpoly_total_degree_si(p.p, C.ctx));
      long lo = -1, hi = -1;
      if (deg >= 0) {
        fmpq_mpoly_degrees_si(degs.data(), p.p, C.ctx);
        for (std::size_t v = 0; v < N * d; ++v)
          if (degs[v] > 0) {
            const long row = static_cast<long>(v / d);
            if (lo < 0) lo = row;
            hi = std::max(hi, row);
          }
      }
      out.degree.push_back(deg);
      out.max_row.push_back(hi);
      out.min_row.push_back(lo);
      out.max_degree = std::max(out.max_degree, deg);
    }
  return out;
}

}  // namespace cz::proofs
