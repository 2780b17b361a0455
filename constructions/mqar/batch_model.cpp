#include "constructions/mqar/batch_model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <stdexcept>

namespace cz::mqarc {

namespace {

using Ins = LaneProgram::Ins;
using Op = LaneProgram::Op;
constexpr std::uint32_t kZero = LaneProgram::kZero;
constexpr long double kSafe = 4611686018427387904.0L;   // 2^62
constexpr long double kNarrow = 1073741824.0L;          // 2^30

// Duplicate entries of a SparseMat add up (sparse_model.h); merged exactly, then checked to fit.
std::map<std::pair<std::size_t, std::size_t>, std::int64_t> merged(const SparseMat& s, bool& ok) {
  std::map<std::pair<std::size_t, std::size_t>, __int128> acc;
  for (const auto& [i, j, v] : s.nz) acc[{i, j}] += v;
  std::map<std::pair<std::size_t, std::size_t>, std::int64_t> out;
  for (const auto& [k, v] : acc) {
    if (v > INT64_MAX || v < INT64_MIN) ok = false;
    else if (v) out[k] = static_cast<std::int64_t>(v);
  }
  return out;
}

struct Compiler {
  std::vector<Ins>& code;
  std::vector<long double> bound;
  std::vector<std::uint32_t> free_list;
  bool ok = true;
  long double vmax = 0;  // largest |weight| emitted (for the int32 decision)

  std::uint32_t alloc() {
    if (!free_list.empty()) {
      std::uint32_t s = free_list.back();
      free_list.pop_back();
      bound[s] = 0;
      return s;
    }
    bound.push_back(0);
    return static_cast<std::uint32_t>(bound.size() - 1);
  }
  void release(std::uint32_t s) { free_list.push_back(s); }
  std::int64_t weight(__int128 v) {
    if (v > INT64_MAX || v < INT64_MIN) {
      ok = false;
      return 0;
    }
    vmax = std::max(vmax, std::fabs(static_cast<long double>(v)));
    return static_cast<std::int64_t>(v);
  }
  void emit(Op op, std::uint32_t dst, std::uint32_t a, std::uint32_t b, std::int64_t v) { code.push_back({op, dst, a, b, v}); }

  // k0 + sum v_i * slot_i
  struct Comb {
    std::int64_t k0 = 0;
    std::vector<std::pair<std::uint32_t, std::int64_t>> terms;
    bool zero() const { return k0 == 0 && terms.empty(); }
    bool trivial() const { return k0 == 0 && terms.size() == 1 && terms[0].second == 1; }
  };
  // f * comb into a fresh slot.
  std::uint32_t materialize(const Comb& c, __int128 f) {
    const std::uint32_t d = alloc();
    long double b = 0;
    std::size_t first = 0;
    if (c.k0 || c.terms.empty()) {
      emit(Op::Const, d, 0, 0, weight(f * c.k0));
      b = std::fabs(static_cast<long double>(f * c.k0));
    } else {
      const std::int64_t w = weight(f * c.terms[0].second);
      emit(Op::Scale, d, c.terms[0].first, 0, w);
      b = std::fabs(static_cast<long double>(w)) * bound[c.terms[0].first];
      first = 1;
    }
    for (std::size_t i = first; i < c.terms.size(); ++i) {
      const std::int64_t w = weight(f * c.terms[i].second);
      emit(Op::Axpy, d, c.terms[i].first, 0, w);
      b += std::fabs(static_cast<long double>(w)) * bound[c.terms[i].first];
    }
    bound[d] = b;
    return d;
  }
  // An operand slot for comb: the existing slot when comb is exactly one slot, else a fresh one.
  std::pair<std::uint32_t, bool> operand(const Comb& c) {
    if (c.trivial()) return {c.terms[0].first, false};
    return {materialize(c, 1), true};
  }
};

}  // namespace

LaneProgram::LaneProgram(const SparseModel& m, std::int64_t input_bound) : N_(m.N), d_(m.d) {
  const std::size_t NN = m.inner_N, D = m.inner_d;
  Compiler C{code_, {}, {}};
  std::vector<std::uint32_t> X(NN * D, kZero);
  in_.assign(N_ * d_, kZero);
  for (std::size_t p = 0; p < N_; ++p)
    for (std::size_t j = 0; j < d_; ++j) {
      const std::uint32_t s = C.alloc();
      C.bound[s] = std::fabs(static_cast<long double>(input_bound));
      X[p * D + j] = in_[p * d_ + j] = s;
    }
  for (const SparseLayer& L : m.layers) {
    std::vector<std::uint32_t> Y(NN * D, kZero);
    if (!L.attention) {
      const auto W = merged(L.W, C.ok), b1 = merged(L.b1, C.ok), h = merged(L.h, C.ok), b2 = merged(L.b2, C.ok);
      std::vector<std::vector<std::pair<std::size_t, std::int64_t>>> Wcol(D), hch(D);
      for (const auto& [ij, v] : W) Wcol[ij.second].emplace_back(ij.first, v);
      for (const auto& [sc, v] : h) hch[sc.second].emplace_back(sc.first, v);
      auto at = [](const auto& mp, std::size_t i, std::size_t j) {
        auto it = mp.find({i, j});
        return it == mp.end() ? std::int64_t{0} : it->second;
      };
      for (std::size_t p = 0; p < NN; ++p)
        for (std::size_t j = 0; j < D; ++j) {
          Compiler::Comb A, Cc;
          A.k0 = at(b1, p, j);
          for (const auto& [i, v] : Wcol[j])
            if (X[p * D + i] != kZero) A.terms.emplace_back(X[p * D + i], v);
          if (A.zero()) continue;
          Cc.k0 = at(b2, p, j);
          for (const auto& [s, v] : hch[j]) {
            // The three modes of tensor/conv_mode.h, written out as conv_naive does; a mode added
            // there and not here is refused rather than read as another (issue 24 D1: anticausal
            // was read as cyclic, and a broken model verified).
            std::size_t q;
            switch (m.conv) {
              case ConvMode::Causal:
                if (s > p) continue;
                q = p - s;
                break;
              case ConvMode::Cyclic:
                q = (p + NN - s % NN) % NN;
                break;
              case ConvMode::Anticausal:
                if (s >= NN - p) continue;
                q = p + s;
                break;
              default:
                throw std::logic_error("LaneProgram: unknown conv mode");
            }
            if (X[q * D + j] != kZero) Cc.terms.emplace_back(X[q * D + j], v);
          }
          if (Cc.zero()) continue;
          if (Cc.terms.empty()) {
            Y[p * D + j] = C.materialize(A, Cc.k0);
          } else if (A.terms.empty()) {
            Y[p * D + j] = C.materialize(Cc, A.k0);
          } else {
            auto [a, own_a] = C.operand(A);
            auto [c, own_c] = C.operand(Cc);
            const std::uint32_t y = own_a ? a : C.alloc();
            C.emit(Op::Mul, y, a, c, 0);
            C.bound[y] = C.bound[a] * C.bound[c];
            if (own_c) C.release(c);
            Y[p * D + j] = y;
          }
        }
    } else {
      const auto Wq = merged(L.Wq, C.ok), Wk = merged(L.Wk, C.ok), Wv = merged(L.Wv, C.ok);
      const std::size_t f = L.Wq.cols, dv = L.Wv.cols;
      std::vector<std::vector<std::pair<std::size_t, std::int64_t>>> qc(f), kc(f), vc(dv);
      for (const auto& [ij, v] : Wq) qc[ij.second].emplace_back(ij.first, v);
      for (const auto& [ij, v] : Wk) kc[ij.second].emplace_back(ij.first, v);
      for (const auto& [ij, v] : Wv) vc[ij.second].emplace_back(ij.first, v);
      auto comb = [&](const std::vector<std::pair<std::size_t, std::int64_t>>& col, std::size_t p) {
        Compiler::Comb c;
        for (const auto& [i, v] : col)
          if (X[p * D + i] != kZero) c.terms.emplace_back(X[p * D + i], v);
        return c;
      };
      std::vector<std::uint32_t> S(f * dv, kZero);
      for (std::size_t p = 0; p < NN; ++p) {
        // S_p = S_{p-1} + K[p]^T V[p], then z[p] = Q[p] S_p (the recurrent view of model/eval.h)
        std::vector<std::pair<std::uint32_t, bool>> K(f, {kZero, false}), V(dv, {kZero, false}), Q(f, {kZero, false});
        for (std::size_t a = 0; a < f; ++a)
          if (auto c = comb(kc[a], p); !c.zero()) K[a] = C.operand(c);
        for (std::size_t b = 0; b < dv; ++b)
          if (auto c = comb(vc[b], p); !c.zero()) V[b] = C.operand(c);
        for (std::size_t a = 0; a < f; ++a)
          for (std::size_t b = 0; b < dv && K[a].first != kZero; ++b) {
            if (V[b].first == kZero) continue;
            std::uint32_t& s = S[a * dv + b];
            if (s == kZero) {
              s = C.alloc();
              C.emit(Op::Mul, s, K[a].first, V[b].first, 0);
            } else {
              C.emit(Op::Fma, s, K[a].first, V[b].first, 0);
            }
            C.bound[s] += C.bound[K[a].first] * C.bound[V[b].first];
          }
        for (auto& k : K)
          if (k.second) C.release(k.first);
        for (auto& v : V)
          if (v.second) C.release(v.first);
        for (std::size_t a = 0; a < f; ++a)
          if (auto c = comb(qc[a], p); !c.zero()) Q[a] = C.operand(c);
        for (std::size_t b = 0; b < dv; ++b) {
          std::uint32_t z = kZero;
          for (std::size_t a = 0; a < f; ++a) {
            const std::uint32_t s = S[a * dv + b];
            if (Q[a].first == kZero || s == kZero) continue;
            if (z == kZero) {
              z = C.alloc();
              C.emit(Op::Mul, z, Q[a].first, s, 0);
            } else {
              C.emit(Op::Fma, z, Q[a].first, s, 0);
            }
            C.bound[z] += C.bound[Q[a].first] * C.bound[s];
          }
          Y[p * D + b] = z;
        }
        for (auto& q : Q)
          if (q.second) C.release(q.first);
      }
      for (std::uint32_t s : S)
        if (s != kZero) C.release(s);
    }
    for (std::uint32_t s : X)
      if (s != kZero) C.release(s);
    X = std::move(Y);
  }
  out_.assign(N_ * d_, kZero);
  for (std::size_t p = 0; p < N_; ++p)
    for (std::size_t j = 0; j < d_; ++j) out_[p * d_ + j] = X[p * D + j];
  slots_ = C.bound.size();
  long double top = 0;
  for (long double b : C.bound) top = std::max(top, b);
  safe_ = C.ok && top < kSafe;
  narrow_ = safe_ && top < kNarrow && C.vmax < kNarrow && input_bound < (std::int64_t{1} << 30);
}

namespace {
template <class T>
__attribute__((always_inline)) inline void interpret(const Ins* code, std::size_t n, T* w) {
  constexpr std::size_t L = LaneProgram::kLanes;
  for (std::size_t k = 0; k < n; ++k) {
    const Ins& I = code[k];
    T* d = w + std::size_t{I.dst} * L;
    const T* a = w + std::size_t{I.a} * L;
    const T* b = w + std::size_t{I.b} * L;
    const T v = static_cast<T>(I.v);
    switch (I.op) {
      case Op::Const:
        for (std::size_t t = 0; t < L; ++t) d[t] = v;
        break;
      case Op::Scale:
        for (std::size_t t = 0; t < L; ++t) d[t] = v * a[t];
        break;
      case Op::Axpy:
        for (std::size_t t = 0; t < L; ++t) d[t] += v * a[t];
        break;
      case Op::Mul:  // d may equal a (in place); lanes are independent, so this is safe
        for (std::size_t t = 0; t < L; ++t) d[t] = a[t] * b[t];
        break;
      case Op::Fma:
        for (std::size_t t = 0; t < L; ++t) d[t] += a[t] * b[t];
        break;
    }
  }
}
__attribute__((target_clones("avx512f", "avx2", "default"))) void run32(const Ins* code, std::size_t n, std::int32_t* w) {
  interpret(code, n, w);
}
__attribute__((target_clones("avx512f", "avx2", "default"))) void run64(const Ins* code, std::size_t n, std::int64_t* w) {
  interpret(code, n, w);
}
}  // namespace

void LaneProgram::reserve(Scratch& s) const {
  if (narrow_) s.w32.assign(std::max<std::size_t>(1, slots_) * kLanes, 0);
  else s.w64.assign(std::max<std::size_t>(1, slots_) * kLanes, 0);
}

void LaneProgram::clear_inputs(Scratch& s) const {
  for (std::uint32_t slot : in_) {
    if (narrow_) std::fill_n(s.w32.data() + std::size_t{slot} * kLanes, kLanes, 0);
    else std::fill_n(s.w64.data() + std::size_t{slot} * kLanes, kLanes, 0);
  }
}

void LaneProgram::run(Scratch& s) const {
  if (narrow_) run32(code_.data(), code_.size(), s.w32.data());
  else run64(code_.data(), code_.size(), s.w64.data());
}

}  // namespace cz::mqarc

namespace cz::mqarc {

namespace {
class ModelTriplesWorker : public BlockWorker {
 public:
  ModelTriplesWorker(const mqar::Domain& dom, const mqar::Codec& codec, ProgramPicker pick,
                     std::function<std::optional<Failure>(std::uint64_t)> scalar)
      : un_(dom), d_(codec.d), onehot_(codec.enc == mqar::Encoding::OneHot), pick_(std::move(pick)), scalar_(std::move(scalar)) {
    blk_.reserve(dom.triples_n, 512);
    code_.assign(codec.c * codec.d, 0);
    for (std::size_t t = 0; t < codec.c; ++t) {
      const auto e = mqar::encode_token(codec, static_cast<std::int64_t>(t));
      for (std::size_t j = 0; j < codec.d; ++j) code_[t * codec.d + j] = static_cast<std::int8_t>(e[j]);
    }
  }

  void run(std::uint64_t k0, std::uint64_t count, BlockResult& r) override {
    for (std::uint64_t done = 0; done < count;) {
      const std::size_t m = static_cast<std::size_t>(std::min<std::uint64_t>(blk_.cap, count - done));
      un_.fill(k0 + done, m, blk_);
      for (std::size_t t = 0; t < m; ++t) {
        const std::uint64_t k = k0 + done + t;
        const LaneProgram* P = pick_(blk_, t);
        if (!P || !P->safe()) {
          if (scalar_(k)) r.fail(k);
          continue;
        }
        Batch& b = batch_for(P);
        add(b, t, k);
        if (b.used == LaneProgram::kLanes) flush(b, r);
      }
      done += m;
    }
    for (auto& [p, b] : batches_)
      if (b.used) flush(b, r);
  }

 private:
  struct Batch {
    const LaneProgram* P = nullptr;
    LaneProgram::Scratch s;
    std::size_t used = 0;
    std::vector<std::uint64_t> k;     // instance index per lane
    std::vector<std::int32_t> ans;    // [i * kLanes + lane]
    std::vector<std::int32_t> tok;    // [row * kLanes + lane]
  };
  Batch& batch_for(const LaneProgram* P) {
    if (P == last_p_) return *last_b_;  // consecutive instances mostly share a model
    last_p_ = P;
    last_b_ = &batch_slow(P);
    return *last_b_;
  }
  Batch& batch_slow(const LaneProgram* P) {
    auto it = batches_.find(P);
    if (it != batches_.end()) return it->second;
    Batch& b = batches_[P];
    b.P = P;
    P->reserve(b.s);
    b.k.assign(LaneProgram::kLanes, 0);
    b.ans.assign(blk_.n * LaneProgram::kLanes, -1);
    b.tok.assign(blk_.N * LaneProgram::kLanes, 0);
    return b;
  }
  void add(Batch& b, std::size_t t, std::uint64_t k) {
    const std::size_t lane = b.used++;
    b.k[lane] = k;
    for (std::size_t p = 0; p < blk_.N; ++p) b.tok[p * LaneProgram::kLanes + lane] = blk_.token(p, t);
    for (std::size_t i = 0; i < blk_.n; ++i) b.ans[i * LaneProgram::kLanes + lane] = blk_.ans[i * blk_.cap + t];
  }
  void flush(Batch& b, BlockResult& r) {
    const LaneProgram& P = *b.P;
    if (P.narrow()) encode(b, b.s.w32.data());
    else encode(b, b.s.w64.data());
    P.run(b.s);
    if (P.narrow()) compare(b, b.s.w32.data(), r);
    else compare(b, b.s.w64.data(), r);
    b.used = 0;
  }
  // Every input entry across all lanes at once (contiguous stores, no clearing); lanes past
  // `used` hold stale but valid tokens and are never read back.
  template <class T>
  void encode(Batch& b, T* w) {
    constexpr std::size_t L = LaneProgram::kLanes;
    const LaneProgram& P = *b.P;
    for (std::size_t p = 0; p < P.N(); ++p) {
      const std::int32_t* tok = b.tok.data() + p * L;
      for (std::size_t j = 0; j < d_; ++j) {
        T* y = w + std::size_t{P.in_slot(p, j)} * L;
        if (onehot_) {  // a compare instead of a table gather: vectorises
          const auto jj = static_cast<std::int32_t>(j);
          for (std::size_t t = 0; t < L; ++t) y[t] = tok[t] == jj;
        } else {
          const std::int8_t* col = code_.data() + j;
          for (std::size_t t = 0; t < L; ++t) y[t] = col[static_cast<std::size_t>(tok[t]) * d_];
        }
      }
    }
  }
  // Whole-output comparison, one output entry across all lanes at a time.
  template <class T>
  void compare(Batch& b, const T* w, BlockResult& r) {
    constexpr std::size_t L = LaneProgram::kLanes;
    const LaneProgram& P = *b.P;
    std::array<std::uint8_t, L> bad{};
    std::array<T, L> want;
    for (std::size_t p = 0; p < P.N(); ++p)
      for (std::size_t j = 0; j < d_; ++j) {
        const std::uint32_t slot = P.out_slot(p, j);
        if (p % 3 != 2) {  // not a query row: must be zero
          if (slot == LaneProgram::kZero) continue;
          const T* y = w + std::size_t{slot} * L;
          for (std::size_t t = 0; t < L; ++t) bad[t] |= y[t] != 0;
          continue;
        }
        // query row of triple p/3: the code of its answer, zero when null
        const std::int32_t* a = b.ans.data() + (p / 3) * L;
        if (onehot_) {
          const auto jj = static_cast<std::int32_t>(j);
          for (std::size_t t = 0; t < L; ++t) want[t] = a[t] == jj;
        } else {
          for (std::size_t t = 0; t < L; ++t) want[t] = a[t] >= 0 ? code_[static_cast<std::size_t>(a[t]) * d_ + j] : 0;
        }
        if (slot == LaneProgram::kZero) {
          for (std::size_t t = 0; t < L; ++t) bad[t] |= want[t] != 0;
        } else {
          const T* y = w + std::size_t{slot} * L;
          for (std::size_t t = 0; t < L; ++t) bad[t] |= y[t] != want[t];
        }
      }
    for (std::size_t lane = 0; lane < b.used; ++lane)
      if (bad[lane]) r.fail(b.k[lane]);
  }

  mqar::TriplesUnranker un_;
  mqar::TriplesBlock blk_;
  std::size_t d_;
  bool onehot_;  // one-hot: code(t)[j] = [t == j] (answers -1 = null give zero rows too)
  std::vector<std::int8_t> code_;
  const LaneProgram* last_p_ = nullptr;
  Batch* last_b_ = nullptr;
  ProgramPicker pick_;
  std::function<std::optional<Failure>(std::uint64_t)> scalar_;
  std::map<const LaneProgram*, Batch> batches_;
};
}  // namespace

std::unique_ptr<BlockWorker> model_triples_worker(const mqar::Domain& dom, const mqar::Codec& codec, ProgramPicker pick,
                                                  std::function<std::optional<Failure>(std::uint64_t)> scalar) {
  return std::make_unique<ModelTriplesWorker>(dom, codec, std::move(pick), std::move(scalar));
}

}  // namespace cz::mqarc
