#include "circuits/equiv.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>

#include "circuits/eval.h"
#include "circuits/eval_bitslice.h"
#include "circuits/layout.h"
#include "exact/thread_caches.h"
#include "model/eval.h"
#include "report/progress.h"

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
      i64_ = std::make_unique<Evaluator<RingI64>>(RingI64{}, c);
      z_ = std::make_unique<Evaluator<RingZ>>(RingZ{}, c);
    } else {
      q_ = std::make_unique<Evaluator<RingQ>>(RingQ{}, c);
    }
  }
  bool integral() const { return integral_; }
  // int64 outputs; false on overflow (then use exact()).
  bool fast(const std::vector<int>& bits, std::vector<std::int64_t>& out, std::vector<std::int64_t>& buf) const {
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

EquivResult equivalent_on_01(const Circuit& a, const Circuit& b, unsigned threads, unsigned max_inputs) {
  if (a.num_inputs() != b.num_inputs() || a.outputs().size() != b.outputs().size())
    throw std::invalid_argument("circuits differ in shape: " + std::to_string(a.num_inputs()) + "→" +
                                std::to_string(a.outputs().size()) + " vs " + std::to_string(b.num_inputs()) + "→" +
                                std::to_string(b.outputs().size()));
  const std::size_t n = a.num_inputs();
  check_inputs(n, max_inputs);
  EquivResult r;
  r.instances = std::uint64_t{1} << n;
  threads = pick_threads(threads);
  std::uint64_t first;
  if (a.all_outputs_bit() && b.all_outputs_bit()) {
    r.method = "bit-sliced";
    BitSliced sa(a), sb(b);
    constexpr std::uint64_t B = BitSliced::kInstances;
    const std::size_t O = a.outputs().size(), W = BitSliced::kWords;
    first = parallel_first(r.instances, B * 64, threads, [&](std::uint64_t lo, std::uint64_t hi) {
      std::vector<std::uint64_t> in(std::max<std::size_t>(n, 1) * W), oa(O * W), ob(O * W), wa, wb;
      for (std::uint64_t base = lo; base < hi; base += B) {
        BitSliced::exhaustive_inputs(base, n, in.data());
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
  } else {
    r.method = "exact";
    ExactEval ea(a), eb(b);
    first = parallel_first(r.instances, 256, threads, [&](std::uint64_t lo, std::uint64_t hi) {
      for (std::uint64_t m = lo; m < hi; ++m) {
        if (!agree(ea, eb, bits_of(m, n))) return m;
      }
      return UINT64_MAX;
    });
  }
  if (first != UINT64_MAX) {
    r.equivalent = false;
    Counterexample cx;
    cx.instance = first;
    cx.inputs = bits_of(first, n);
    auto va = ExactEval(a)(cx.inputs), vb = ExactEval(b)(cx.inputs);
    for (std::size_t o = 0; o < va.size(); ++o)
      if (!(va[o] == vb[o])) {
        cx.output = a.outputs()[o].name;
        cx.want = va[o].str();
        cx.got = vb[o].str();
        break;
      }
    r.counterexample = cx;
  }
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
