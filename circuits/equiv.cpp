#include "circuits/equiv.h"

#include <flint/ulong_extras.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <atomic>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>

#include "circuits/bit_infer.h"
#include "circuits/eval.h"
#include "circuits/eval_batch.h"
#include "circuits/eval_bitslice.h"
#include "circuits/layout.h"
#include "exact/thread_caches.h"
#include "model/eval.h"
#include "util/progress.h"

namespace cz::circuits {

namespace {

unsigned pick_threads(unsigned t) {
  if (t) return t;
  unsigned h = std::thread::hardware_concurrency();
  return h ? h : 1;
}

// Runs fail(chunk_begin, chunk_end) -> smallest failing instance in the chunk (or UINT64_MAX)
// over [0, total) on threads; returns the smallest failing instance overall. Shows a progress bar
// on a terminal (an exhaustive check at its input cap runs for minutes).
std::uint64_t parallel_first(std::uint64_t total, std::uint64_t chunk, unsigned threads,
                             const std::function<std::uint64_t(std::uint64_t, std::uint64_t)>& fail) {
  std::atomic<std::uint64_t> next{0}, best{UINT64_MAX};
  Progress progress("equivalence", total);
  auto worker = [&] {
    for (;;) {
      std::uint64_t b = next.fetch_add(chunk);
      if (b >= total || b > best.load()) return;
      std::uint64_t f = fail(b, std::min(total, b + chunk));
      progress.advance(std::min(total, b + chunk) - b);
      std::uint64_t cur = best.load();
      while (f < cur && !best.compare_exchange_weak(cur, f)) {}
    }
  };
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>((total + chunk - 1) / chunk)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back([&] {
      worker();
      release_thread_caches();
    });
  worker();
  for (auto& th : pool) th.join();
  return best.load();
}

std::vector<int> bits_of(std::uint64_t m, std::size_t n) {
  std::vector<int> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<int>((m >> i) & 1);
  return x;
}

// Exact outputs of one circuit. Integral circuits run in checked int64 (evaluators built once,
// value buffers reused per thread) and are redone in Z on overflow; others run in Q.
class ExactEval {
 public:
  explicit ExactEval(const Circuit& c) : c_(c), integral_(c.integral_constants()) {
    if (integral_) {
      try {
        i64_ = std::make_unique<Evaluator<RingI64>>(RingI64{}, c);
      } catch (const Overflow&) {
        // a live constant outside int64: every instance goes to Z
      }
      z_ = std::make_unique<Evaluator<RingZ>>(RingZ{}, c);
    } else {
      q_ = std::make_unique<Evaluator<RingQ>>(RingQ{}, c);
    }
  }
  bool integral() const { return integral_; }
  // int64 outputs; false on overflow (then use exact()).
  bool fast(const std::vector<int>& bits, std::vector<std::int64_t>& out, std::vector<std::int64_t>& buf) const {
    if (!i64_) return false;
    std::vector<std::int64_t> x(bits.begin(), bits.end());
    try {
      i64_->eval_all(x, buf);
    } catch (const Overflow&) {
      return false;
    }
    out.clear();
    for (const auto& o : c_.outputs()) out.push_back(buf[o.gate]);
    return true;
  }
  std::vector<Rat> exact(const std::vector<int>& bits) const {
    std::vector<Rat> out;
    if (integral_) {
      std::vector<Int> x(bits.begin(), bits.end());
      for (const Int& v : (*z_)(x)) out.emplace_back(v);
    } else {
      std::vector<Rat> x(bits.begin(), bits.end());
      out = (*q_)(x);
    }
    return out;
  }
  std::vector<Rat> operator()(const std::vector<int>& bits) const { return exact(bits); }

 private:
  const Circuit& c_;
  bool integral_;
  std::unique_ptr<Evaluator<RingI64>> i64_;
  std::unique_ptr<Evaluator<RingZ>> z_;
  std::unique_ptr<Evaluator<RingQ>> q_;
};

// Do a and b agree on this input? int64 when both are integral and nothing overflows, else exact.
bool agree(const ExactEval& a, const ExactEval& b, const std::vector<int>& bits) {
  if (a.integral() && b.integral()) {
    thread_local std::vector<std::int64_t> oa, ob, ba, bb;
    if (a.fast(bits, oa, ba) && b.fast(bits, ob, bb)) return oa == ob;
  }
  return a.exact(bits) == b.exact(bits);
}

void check_inputs(std::size_t n, unsigned max_inputs) {
  if (n > max_inputs)
    throw std::invalid_argument("exhaustive check over " + std::to_string(n) + " inputs exceeds the cap of " +
                                std::to_string(max_inputs));
}

}  // namespace

namespace {

void check_shapes(const Circuit& a, const Circuit& b) {
  if (a.num_inputs() != b.num_inputs() || a.outputs().size() != b.outputs().size())
    throw std::invalid_argument("circuits differ in shape: " + std::to_string(a.num_inputs()) + "→" +
                                std::to_string(a.outputs().size()) + " vs " + std::to_string(b.num_inputs()) + "→" +
                                std::to_string(b.outputs().size()));
}

// The counterexample at 0/1 instance `first` (values exact), with `index` as its number.
Counterexample counterexample_at(const Circuit& a, const Circuit& b, std::uint64_t index, const std::vector<int>& bits) {
  Counterexample cx;
  cx.instance = index;
  cx.inputs = bits;
  auto va = ExactEval(a)(cx.inputs), vb = ExactEval(b)(cx.inputs);
  for (std::size_t o = 0; o < va.size(); ++o)
    if (!(va[o] == vb[o])) {
      cx.output = a.outputs()[o].name;
      cx.want = va[o].str();
      cx.got = vb[o].str();
      break;
    }
  return cx;
}

void finish(EquivResult& r, const Circuit& a, const Circuit& b, std::uint64_t first) {
  if (first == UINT64_MAX) return;
  r.equivalent = false;
  r.counterexample = counterexample_at(a, b, first, bits_of(first, a.num_inputs()));
}

// 0/1 instances base .. base+kBlock-1 (base a multiple of kBlock), lane-major.
void exhaustive_i64(std::uint64_t base, std::size_t n, std::int64_t* in) {
  constexpr std::size_t B = BatchI64::kBlock;
  for (std::size_t i = 0; i < n; ++i) {
    std::int64_t* d = in + i * B;
    if ((std::uint64_t{1} << i) < B && i < 63) {
      for (std::size_t l = 0; l < B; ++l) d[l] = static_cast<std::int64_t>((l >> i) & 1);
    } else {
      const std::int64_t v = i < 64 ? static_cast<std::int64_t>((base >> i) & 1) : 0;
      for (std::size_t l = 0; l < B; ++l) d[l] = v;
    }
  }
}

// The smallest instance in [0, total) on which sa and sb differ (UINT64_MAX: none), blocks of
// BitSliced::kInstances filled by inputs(base, in) (base a multiple of kInstances), `chunk`
// instances a task. Shared by the exhaustive and the sampled all-Bit comparison.
template <class Inputs>
std::uint64_t first_difference(const BitSliced& sa, const BitSliced& sb, std::size_t n, std::size_t O, std::uint64_t total,
                               std::uint64_t chunk, unsigned threads, const Inputs& inputs) {
  constexpr std::uint64_t B = BitSliced::kInstances;
  constexpr std::size_t W = BitSliced::kWords;
  return parallel_first(total, chunk, threads, [&](std::uint64_t lo, std::uint64_t hi) {
    std::vector<std::uint64_t> in(std::max<std::size_t>(n, 1) * W), oa(O * W), ob(O * W), wa, wb;
    for (std::uint64_t base = lo; base < hi; base += B) {
      inputs(base, in.data());
      sa.run_block(in.data(), oa.data(), wa);
      sb.run_block(in.data(), ob.data(), wb);
      for (std::size_t w = 0; w < W; ++w) {
        std::uint64_t diff = 0;
        for (std::size_t o = 0; o < O; ++o) diff |= oa[o * W + w] ^ ob[o * W + w];
        const std::uint64_t start = base + 64 * w;
        if (start >= hi) break;
        if (hi - start < 64) diff &= (std::uint64_t{1} << (hi - start)) - 1;
        if (diff) return start + static_cast<std::uint64_t>(__builtin_ctzll(diff));
      }
    }
    return UINT64_MAX;
  });
}

std::uint64_t first_bit_sliced(const Circuit& a, const Circuit& b, std::uint64_t total, unsigned threads) {
  const std::size_t n = a.num_inputs();
  BitSliced sa(a), sb(b);
  return first_difference(sa, sb, n, a.outputs().size(), total, BitSliced::kInstances * 64, threads,
                          [n](std::uint64_t base, std::uint64_t* in) { BitSliced::exhaustive_inputs(base, n, in); });
}

std::uint64_t first_batched_i64(const Circuit& a, const Circuit& b, std::uint64_t total, unsigned threads) {
  const std::size_t n = a.num_inputs(), O = a.outputs().size();
  constexpr std::size_t B = BatchI64::kBlock;
  BatchI64 ba(a), bb(b);
  ExactEval ea(a), eb(b);  // lanes that overflow are redone in Z
  return parallel_first(total, B * 16, threads, [&](std::uint64_t lo, std::uint64_t hi) {
    std::vector<std::int64_t> in(std::max<std::size_t>(n, 1) * B), oa(O * B), ob(O * B), wa, wb;
    std::vector<std::uint64_t> fa(B), fb(B), bad(B);
    for (std::uint64_t base = lo; base < hi; base += B) {
      exhaustive_i64(base, n, in.data());
      ba.run_block(in.data(), oa.data(), fa.data(), wa);
      bb.run_block(in.data(), ob.data(), fb.data(), wb);
      for (std::size_t l = 0; l < B; ++l) bad[l] = 0;
      for (std::size_t o = 0; o < O; ++o)
        for (std::size_t l = 0; l < B; ++l) bad[l] |= static_cast<std::uint64_t>(oa[o * B + l] != ob[o * B + l]);
      const std::size_t lanes = static_cast<std::size_t>(std::min<std::uint64_t>(B, hi - base));
      for (std::size_t l = 0; l < lanes; ++l) {
        if (fa[l] | fb[l]) {
          const auto bits = bits_of(base + l, n);
          if (!(ea.exact(bits) == eb.exact(bits))) return base + l;
        } else if (bad[l]) {
          return base + l;
        }
      }
    }
    return UINT64_MAX;
  });
}

// Bit inference costs up to ~10^4 operations per gate when it fails; enumeration costs 2^n/256
// lane-blocks per gate, so inference is tried only where it cannot cost more than it may save.
constexpr std::size_t kInferFrom = 16;

// Infers Bit wires (bit_infer.h) on the sides that are not all-Bit; true when both end up all-Bit.
bool bits_inferred(const Circuit& a, const Circuit& b, std::optional<Circuit>& ia, std::optional<Circuit>& ib) {
  if (!a.all_outputs_bit()) {
    ia.emplace(infer_bits(a));
    if (!ia->all_outputs_bit()) return false;
  }
  if (!b.all_outputs_bit()) {
    ib.emplace(infer_bits(b));
    if (!ib->all_outputs_bit()) return false;
  }
  return true;
}

std::uint64_t first_scalar(const Circuit& a, const Circuit& b, std::uint64_t total, unsigned threads) {
  const std::size_t n = a.num_inputs();
  ExactEval ea(a), eb(b);
  return parallel_first(total, 256, threads, [&](std::uint64_t lo, std::uint64_t hi) {
    for (std::uint64_t m = lo; m < hi; ++m) {
      if (!agree(ea, eb, bits_of(m, n))) return m;
    }
    return UINT64_MAX;
  });
}

}  // namespace

EquivResult equivalent_on_01(const Circuit& a, const Circuit& b, unsigned threads, unsigned max_inputs) {
  check_shapes(a, b);
  check_inputs(a.num_inputs(), max_inputs);
  EquivResult r;
  r.instances = std::uint64_t{1} << a.num_inputs();
  threads = pick_threads(threads);
  std::uint64_t first;
  std::optional<Circuit> ia, ib;
  if (a.all_outputs_bit() && b.all_outputs_bit()) {
    r.method = "bit-sliced";
    first = first_bit_sliced(a, b, r.instances, threads);
  } else if (a.num_inputs() >= kInferFrom && bits_inferred(a, b, ia, ib)) {
    // Equal to a and b on every 0/1 input (bit_infer.h): the bit-sliced path applies.
    r.method = "bit-sliced (Bit wires inferred)";
    first = first_bit_sliced(ia ? *ia : a, ib ? *ib : b, r.instances, threads);
  } else if (a.integral_constants() && b.integral_constants()) {
    r.method = "batched-int64";
    first = first_batched_i64(a, b, r.instances, threads);
  } else {
    r.method = "exact";
    first = first_scalar(a, b, r.instances, threads);
  }
  finish(r, a, b, first);
  return r;
}

EquivResult equivalent_on_01_int64(const Circuit& a, const Circuit& b, unsigned threads, unsigned max_inputs) {
  check_shapes(a, b);
  check_inputs(a.num_inputs(), max_inputs);
  if (!a.integral_constants() || !b.integral_constants())
    throw std::invalid_argument("the batched int64 path needs integral constants");
  EquivResult r;
  r.instances = std::uint64_t{1} << a.num_inputs();
  r.method = "batched-int64";
  finish(r, a, b, first_batched_i64(a, b, r.instances, pick_threads(threads)));
  return r;
}

EquivResult equivalent_on_01_scalar(const Circuit& a, const Circuit& b, unsigned threads, unsigned max_inputs) {
  check_shapes(a, b);
  check_inputs(a.num_inputs(), max_inputs);
  EquivResult r;
  r.instances = std::uint64_t{1} << a.num_inputs();
  r.method = "exact";
  finish(r, a, b, first_scalar(a, b, r.instances, pick_threads(threads)));
  return r;
}

namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
// Random word for (seed, block/sample j, input i, word w): a pure function, so any thread order
// draws the same samples.
std::uint64_t draw(std::uint64_t seed, std::uint64_t j, std::uint64_t i, std::uint64_t w) {
  return mix(mix(mix(seed ^ 0x5eed5eed5eedULL) ^ j) ^ (i << 8 | w));
}

// Formal degree (inputs 1, constants 0, Add max, Mul sum; saturating) over the outputs.
std::uint64_t formal_degree(const Circuit& c) {
  std::vector<std::uint64_t> deg(c.size(), 0);
  for (GateId i = 0; i < c.size(); ++i) {
    const Gate& g = c.gate(i);
    switch (g.op) {
      case Op::Input: deg[i] = 1; break;
      case Op::Const: deg[i] = 0; break;
      case Op::Add: deg[i] = std::max(deg[g.a], deg[g.b]); break;
      case Op::Mul: deg[i] = deg[g.a] > UINT64_MAX - deg[g.b] ? UINT64_MAX : deg[g.a] + deg[g.b]; break;
    }
  }
  std::uint64_t d = 0;
  for (const auto& o : c.outputs()) d = std::max(d, deg[o.gate]);
  return d;
}

}  // namespace

EquivResult sample_equivalent(const Circuit& a, const Circuit& b, std::uint64_t samples, std::uint64_t seed, unsigned threads,
                              unsigned max_inputs_01) {
  check_shapes(a, b);
  if (samples == 0) throw std::invalid_argument("sampling needs at least one sample");
  const std::size_t n = a.num_inputs(), O = a.outputs().size();
  threads = pick_threads(threads);
  EquivResult r;
  r.instances = r.samples = samples;
  r.seed = seed;
  if (a.all_outputs_bit() && b.all_outputs_bit()) {
    r.method = "sampled-bit-sliced";
    BitSliced sa(a), sb(b);
    constexpr std::uint64_t B = BitSliced::kInstances;
    const std::size_t W = BitSliced::kWords;
    auto inputs_of = [&](std::uint64_t base, std::uint64_t* in) {
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t w = 0; w < W; ++w) in[i * W + w] = draw(seed, base / B, i, w);
    };
    const std::uint64_t first = first_difference(sa, sb, n, O, samples, B * 16, threads, inputs_of);
    if (first != UINT64_MAX) {
      std::vector<std::uint64_t> in(std::max<std::size_t>(n, 1) * W);
      inputs_of(first / B * B, in.data());
      const std::size_t lane = static_cast<std::size_t>(first % B);
      std::vector<int> bits(n);
      for (std::size_t i = 0; i < n; ++i) bits[i] = static_cast<int>((in[i * W + lane / 64] >> (lane % 64)) & 1);
      r.equivalent = false;
      r.counterexample = counterexample_at(a, b, first, bits);
      r.note = "differ on the 0/1 input of sample " + std::to_string(first);
    } else {
      r.note = "agree on " + std::to_string(samples) + " random 0/1 inputs (no proof of equivalence)";
    }
    return r;
  }
  r.method = "sampled-Fp";
  // A random prime in [2^60, 2^61) from the seed; the next one if p divides a constant's denominator.
  std::uint64_t p = n_nextprime((std::uint64_t{1} << 60) + (draw(seed, ~0ULL, 0, 0) >> 4), 1);
  std::unique_ptr<BatchFp> fa, fb;
  for (;;) {
    try {
      fa = std::make_unique<BatchFp>(a, p);
      fb = std::make_unique<BatchFp>(b, p);
      break;
    } catch (const std::domain_error&) {
      p = n_nextprime(p, 1);
    }
  }
  r.prime = p;
  r.degree = std::max(formal_degree(a), formal_degree(b));
  r.error_per_sample = std::min(1.0, static_cast<double>(r.degree) / static_cast<double>(p));
  r.log10_error_bound = r.error_per_sample >= 1.0 ? 0.0 : static_cast<double>(samples) * std::log10(r.error_per_sample);
  constexpr std::uint64_t B = BatchFp::kBlock;
  const std::uint64_t lim = UINT64_MAX - UINT64_MAX % p;  // draws below lim are uniform mod p
  auto inputs_of = [&](std::uint64_t base, std::uint64_t* in) {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t l = 0; l < B; ++l) {
        std::uint64_t v = draw(seed, base + l, i, 0);
        for (std::uint64_t t = 1; v >= lim; ++t) v = draw(seed, base + l, i, t);  // rejection: uniform on Fp
        in[i * B + l] = v % p;
      }
  };
  const std::uint64_t first = parallel_first(samples, B * 64, threads, [&](std::uint64_t lo, std::uint64_t hi) {
    std::vector<std::uint64_t> in(std::max<std::size_t>(n, 1) * B), oa(O * B), ob(O * B), wa, wb;
    for (std::uint64_t base = lo; base < hi; base += B) {
      inputs_of(base, in.data());
      fa->run_block(in.data(), oa.data(), wa);
      fb->run_block(in.data(), ob.data(), wb);
      const std::size_t lanes = static_cast<std::size_t>(std::min<std::uint64_t>(B, hi - base));
      for (std::size_t l = 0; l < lanes; ++l)
        for (std::size_t o = 0; o < O; ++o)
          if (oa[o * B + l] != ob[o * B + l]) return base + l;
    }
    return UINT64_MAX;
  });
  if (first == UINT64_MAX) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f", r.log10_error_bound);
    r.note = "agree as polynomials on " + std::to_string(samples) + " random points of F_" + std::to_string(p) +
             " (if they differed as polynomials, the chance of this is at most (d/p)^K = 10^" + buf + ", d = " +
             std::to_string(r.degree) + ")";
    return r;
  }
  r.equivalent = false;
  Counterexample cx;
  cx.instance = first;
  std::vector<std::uint64_t> in(std::max<std::size_t>(n, 1) * B), oa(O * B), ob(O * B), wa, wb;
  inputs_of(first / B * B, in.data());
  fa->run_block(in.data(), oa.data(), wa);
  fb->run_block(in.data(), ob.data(), wb);
  const std::size_t lane = static_cast<std::size_t>(first % B);
  for (std::size_t i = 0; i < n; ++i) cx.field_inputs.push_back(in[i * B + lane]);
  for (std::size_t o = 0; o < O; ++o)
    if (oa[o * B + lane] != ob[o * B + lane]) {
      cx.output = a.outputs()[o].name;
      cx.want = std::to_string(oa[o * B + lane]);
      cx.got = std::to_string(ob[o * B + lane]);
      break;
    }
  r.counterexample = cx;
  std::string s = "differ as polynomials (output " + cx.output + " at the field point of sample " + std::to_string(first) +
                  ", values mod p)";
  if (n <= max_inputs_01) {
    EquivResult e = equivalent_on_01(a, b, threads, max_inputs_01);
    r.agree_on_01 = e.equivalent;
    r.counterexample_01 = e.counterexample;
    s += e.equivalent ? "; but they agree on all " + std::to_string(e.instances) + " 0/1 inputs (checked exhaustively)"
                      : "; and on 0/1 inputs too (smallest 0/1 counterexample: instance " +
                            std::to_string(e.counterexample->instance) + ")";
  } else {
    s += "; whether they differ on some 0/1 input is not decided (" + std::to_string(n) + " inputs > " +
         std::to_string(max_inputs_01) + ")";
  }
  r.note = s;
  return r;
}

EquivResult equivalent_on_01(const Circuit& c, const Model& m, unsigned threads, unsigned max_inputs) {
  const std::size_t N = m.N, d = m.d, n = c.num_inputs(), O = c.outputs().size();
  const Layout L = layout_for(c, N, d);
  check_inputs(n, max_inputs);
  std::vector<std::size_t> in_pos(n), out_pos(O);
  for (std::size_t k = 0; k < n; ++k) in_pos[k] = L.in_pos[k].first * d + L.in_pos[k].second;
  for (std::size_t k = 0; k < O; ++k) out_pos[k] = L.out_pos[k].first * d + L.out_pos[k].second;
  std::vector<std::string> out_names;
  for (const auto& o : c.outputs()) out_names.push_back(o.name);
  EquivResult r;
  r.method = "exact";
  r.instances = std::uint64_t{1} << n;
  ExactEval ec(c);
  if (m.ring != "Z" && m.ring != "Q") throw std::invalid_argument("circuit-vs-model checks need a Z or Q model, not " + m.ring);
  const PreparedModel<RingQ> pm = prepare(RingQ{}, m);
  auto model_out = [&](const std::vector<int>& bits) {
    Matrix<Rat> u(N, d);
    for (std::size_t k = 0; k < n; ++k) u.data()[in_pos[k]] = Rat(bits[k]);
    Matrix<Rat> y = eval(pm, u);
    std::vector<Rat> out(O);
    for (std::size_t k = 0; k < O; ++k) out[k] = y.data()[out_pos[k]];
    return out;
  };
  auto fails = [&](std::uint64_t mm) {
    auto x = bits_of(mm, n);
    return ec(x) != model_out(x);
  };
  std::uint64_t first = parallel_first(r.instances, 64, pick_threads(threads), [&](std::uint64_t lo, std::uint64_t hi) {
    for (std::uint64_t mm = lo; mm < hi; ++mm)
      if (fails(mm)) return mm;
    return UINT64_MAX;
  });
  if (first != UINT64_MAX) {
    r.equivalent = false;
    Counterexample cx;
    cx.instance = first;
    cx.inputs = bits_of(first, n);
    auto va = ec(cx.inputs), vb = model_out(cx.inputs);
    for (std::size_t o = 0; o < O; ++o)
      if (!(va[o] == vb[o])) {
        cx.output = out_names[o];
        cx.want = va[o].str();
        cx.got = vb[o].str();
        break;
      }
    r.counterexample = cx;
  }
  return r;
}

}  // namespace cz::circuits
