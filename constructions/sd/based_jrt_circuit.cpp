#include "constructions/sd/based_jrt_circuit.h"

#include <stdexcept>

#include "circuits/sat/model_bits.h"
#include "constructions/sd/based_stages.h"
#include "constructions/sd/g18.h"

namespace cz::sdc {

namespace sat = circuits::sat;
namespace g = circuits::gadgets;
using circuits::Wire;
using sat::Word;

namespace {

Wire nonzero(sat::WordBuilder& wb, const Word& w) { return g::not_(wb.builder(), wb.equal(w, wb.constant(Int(0)))); }

Word k(sat::WordBuilder& wb, std::int64_t v) { return wb.constant(Int(v)); }

// build_g18 with the data-dependent kernel, S read off the window rows [lo, lo+N) of z.
std::vector<Wire> g18_dd_flags(sat::WordBuilder& wb, unsigned n, const Matrix<Word>& z, std::size_t lo, std::size_t N) {
  circuits::Builder& b = wb.builder();
  const std::size_t rows = z.rows();
  const bool windowed = rows != N;
  auto inside = [&](std::size_t i) { return i >= lo && i < lo + N; };
  const Word zero = k(wb, 0);
  // mask (pipeline only), then mark: column n -> flag + 2·(earlier flags), causal.
  Matrix<Word> x(rows, n + 1, zero);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j <= n; ++j) x(i, j) = !windowed || inside(i) ? z(i, j) : zero;
  std::vector<Word> m(rows, zero);
  for (std::size_t i = 0; i < rows; ++i) {
    m[i] = x(i, n);
    for (std::size_t t = 1; t <= i; ++t) m[i] = wb.sum(m[i], wb.mul(k(wb, 2), x(i - t, n)));
  }
  // The first set S (first_set on the window): slot p holds S_p while every window row 0..p is unflagged.
  std::vector<Wire> active(N);
  std::vector<std::vector<Word>> wx(N, std::vector<Word>(n));  // 2·bit - 1 of S_p
  std::vector<Word> pc(N);                                      // popcount(S_p)
  Wire all_zero = b.one();
  for (std::size_t p = 0; p < N; ++p) {
    all_zero = g::and_(b, all_zero, wb.equal(z(lo + p, n), zero));
    active[p] = all_zero;
    pc[p] = zero;
    for (unsigned bb = 0; bb < n; ++bb) {
      const Word bit = wb.from_bit(nonzero(wb, z(lo + p, bb)));  // row_element: nonzero entries are 1 bits
      wx[p][bb] = wb.sub(wb.mul(k(wb, 2), bit), k(wb, 1));
      pc[p] = wb.sum(pc[p], bit);
    }
  }
  // MLP1: K_p = relu(sum_b wx x_b - m - pc + 1 - pen), Q_p = relu(sum_b wx x_b + m - pc - 1 - pen), V = relu(1 - m - pen);
  // a slot p >= |S| is no neuron: gated to 0. (Q's bin(x) features meet K features no neuron writes: 0.)
  std::vector<std::vector<Word>> K(rows, std::vector<Word>(N, zero)), Q(rows, std::vector<Word>(N, zero));
  std::vector<Word> V(rows, zero);
  for (std::size_t i = 0; i < rows; ++i) {
    const std::int64_t pen = windowed && !inside(i) ? 1 : 0;
    for (std::size_t p = 0; p < N; ++p) {
      Word dot = zero;
      for (unsigned bb = 0; bb < n; ++bb) dot = wb.sum(dot, wb.mul(wx[p][bb], x(i, bb)));
      const Word base = wb.sub(wb.add(dot, k(wb, 1 - pen)), pc[p]);
      const Word gate = wb.from_bit(active[p]);
      K[i][p] = wb.mul(gate, wb.relu(wb.sub(base, m[i])));
      Q[i][p] = wb.mul(gate, wb.relu(wb.sub(wb.add(base, m[i]), k(wb, 2))));
    }
    V[i] = wb.relu(wb.sub(k(wb, 1 - pen), m[i]));
  }
  // LinearAttention (the value in column 0), then MLP2: relu(2 z - tau), tau = 1; flag = output != 0.
  std::vector<Wire> flag(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    Word att = zero;
    for (std::size_t j = 0; j <= i; ++j) {
      Word ip = zero;
      for (std::size_t p = 0; p < N; ++p) ip = wb.sum(ip, wb.mul(Q[i][p], K[j][p]));
      att = wb.sum(att, wb.mul(ip, V[j]));
    }
    flag[i] = nonzero(wb, wb.relu(wb.sub(wb.mul(k(wb, 2), att), k(wb, 1))));
  }
  return flag;
}

// build_g18's data-independent model (kernel=random), bit-blasted.
std::vector<Wire> g18_model_flags(sat::WordBuilder& wb, const PipelineConfig& cfg, const Matrix<Word>& z, std::size_t lo,
                                  std::size_t N) {
  const G18Model gm = build_g18(cfg.n, z.rows(), lo, N, cfg.kernel, {}, cfg.mutate);
  Matrix<Word> x(z.rows(), gm.D, k(wb, 0));
  for (std::size_t i = 0; i < z.rows(); ++i)
    for (std::size_t j = 0; j < z.cols(); ++j) x(i, j) = z(i, j);
  const Matrix<Word> out = sat::model_words(wb, gm.post, sat::model_words(wb, gm.pre, x));
  std::vector<Wire> flag(z.rows());
  for (std::size_t i = 0; i < z.rows(); ++i) flag[i] = nonzero(wb, out(i, 0));
  return flag;
}

}  // namespace

std::vector<g::Bits> based_answer_bits(sat::WordBuilder& wb, const PipelineConfig& cfg, Stage stage, const Matrix<Word>& u) {
  if (stage != Stage::All && stage != Stage::G18) throw std::invalid_argument("based_answer_bits: stage all or g18");
  if (cfg.kernel.kind == KernelKind::Exponential) throw std::invalid_argument("based_answer_bits: kernel=exp has no integer circuit");
  const unsigned n = cfg.n;
  const std::size_t N = u.rows(), d = n + 1;
  if (u.cols() != d) throw std::invalid_argument("based_answer_bits: u is not N×(n+1)");
  Matrix<Word> z;
  std::size_t lo = 0;
  if (stage == Stage::G18) {
    z = u;
  } else {
    const std::size_t R = 2 * N;
    Matrix<Word> v(R, d);
    for (std::size_t i = 0; i < R; ++i)
      for (std::size_t j = 0; j < d; ++j) v(i, j) = u(i % N, j);  // the JRT prompt [u; u]
    Model g20 = g20_model(N, n), ins = g21_insert_model(N, n);
    if (cfg.mutate) {
      cfg.mutate("g20", g20);
      cfg.mutate("g21-insert", ins);
    }
    const Matrix<Word> Y = sat::model_words(wb, g20, v);
    std::vector<Word> h(R, k(wb, 0));  // read_kernel
    for (std::size_t j = 0; j < R; ++j) {
      const std::size_t row = cfg.layout == Layout::Top ? N - 1 + j : 2 * N - 1 - j;
      if (row < R) h[j] = Y(row, n);
    }
    const Matrix<Word> w = sat::model_words(wb, ins, v);
    z = Matrix<Word>(R, d, k(wb, 0));  // g21_shift_model: (0 + 1) ⊙ (h * w)
    for (std::size_t i = 0; i < R; ++i)
      for (std::size_t j = 0; j < d; ++j)
        for (std::size_t t = 0; t < R; ++t) {
          if (cfg.layout == Layout::Top ? i + t >= R : t > i) continue;
          z(i, j) = wb.sum(z(i, j), wb.mul(h[t], w(cfg.layout == Layout::Top ? i + t : i - t, j)));
        }
    lo = cfg.layout == Layout::Top ? 0 : N;
  }
  const std::vector<Wire> flag =
      cfg.kernel.kind == KernelKind::DataDependent ? g18_dd_flags(wb, n, z, lo, N) : g18_model_flags(wb, cfg, z, lo, N);
  std::vector<g::Bits> rows(N);
  for (std::size_t p = 0; p < N; ++p) {
    for (unsigned bb = 0; bb < n; ++bb) rows[p].push_back(nonzero(wb, z(lo + p, bb)));
    rows[p].push_back(flag[lo + p]);
  }
  return rows;
}

}  // namespace cz::sdc
