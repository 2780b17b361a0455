#include "tensor/kmatrix_route.h"

#include <stdexcept>
#include <string>

namespace cz::kroute {
namespace {

// A 0/1 butterfly factor of stride 2^j on size m whose pair with lower row a is a switch:
// straight (cross = false) or cross.
void set_switch(ButterflyFactor<int>& f, std::size_t a, bool cross) {
  const std::size_t p = f.pair_of(a);
  f.d1[p] = f.d4[p] = cross ? 0 : 1;
  f.d2[p] = f.d3[p] = cross ? 1 : 0;
}

std::vector<ButterflyFactor<int>> zero_factors(std::size_t m) {
  std::vector<ButterflyFactor<int>> fs;
  for (unsigned j = 0; j < log2_exact(m); ++j) fs.emplace_back(m, std::size_t{2} << j, 0);
  return fs;
}

void check_permutation(const std::vector<std::size_t>& pi) {
  log2_exact(pi.size());  // throws unless a power of two
  std::vector<char> seen(pi.size(), 0);
  for (std::size_t v : pi) {
    if (v >= pi.size() || seen[v]) throw std::invalid_argument("permutation: not a permutation of 0.." + std::to_string(pi.size() - 1));
    seen[v] = 1;
  }
}

// The looping algorithm on the sub-network at rows [o, o+sz): local output i reads local input
// p[i]. Input stage (stride sz/2, T-part) sends input x to the top (s[x] = 0) or bottom half;
// output stage (stride sz/2, B-part) takes output i from the half holding p[i]. The two inputs of
// an input switch go to different halves, and so do the sources of an output switch's two outputs:
// a 2-colouring of a union of two perfect matchings (even cycles), found by walking each cycle.
void route(std::size_t o, const std::vector<std::size_t>& p, std::vector<ButterflyFactor<int>>& in,
           std::vector<ButterflyFactor<int>>& out) {
  const std::size_t sz = p.size();
  if (sz == 1) return;
  const std::size_t h = sz / 2;
  const unsigned j = log2_exact(h);
  std::vector<std::size_t> inv(sz);
  for (std::size_t i = 0; i < sz; ++i) inv[p[i]] = i;
  std::vector<int> s(sz, -1);
  for (std::size_t x0 = 0; x0 < sz; ++x0) {
    if (s[x0] >= 0) continue;
    std::size_t x = x0;
    s[x] = 0;
    for (;;) {
      const std::size_t y = x ^ h;  // the other input of x's input switch
      if (s[y] >= 0) break;
      s[y] = 1 - s[x];
      const std::size_t z = p[inv[y] ^ h];  // the source of the other output of y's output switch
      if (s[z] >= 0) break;
      s[z] = 1 - s[y];
      x = z;
    }
  }
  std::vector<std::size_t> sub[2] = {std::vector<std::size_t>(h), std::vector<std::size_t>(h)};
  for (std::size_t t = 0; t < h; ++t) {
    set_switch(in[j], o + t, s[t] == 1);        // input t goes to the bottom half: cross
    set_switch(out[j], o + t, s[p[t]] == 1);    // output t reads the bottom half: cross
    for (std::size_t i : {t, t + h}) sub[s[p[i]]][t] = p[i] & (h - 1);
  }
  route(o, sub[0], in, out);
  route(o + h, sub[1], in, out);
}

ButterflyFactor<int> conjugate_by_reversal(const ButterflyFactor<int>& f, unsigned M) {
  const std::size_t m = f.n, h = f.stride();
  const std::size_t h2 = (m / 2) / h;  // stride 2^j ↦ 2^(M−1−j)
  ButterflyFactor<int> g(m, 2 * h2, 0);
  for (std::size_t p = 0; p < m / 2; ++p) {
    const std::size_t a = f.lower_of(p), a2 = bit_reverse(a, M);  // a2 has bit h2 clear
    const std::size_t q = g.pair_of(a2);
    g.d1[q] = f.d1[p], g.d2[q] = f.d2[p], g.d3[q] = f.d3[p], g.d4[q] = f.d4[p];
  }
  return g;
}

}  // namespace

std::size_t bit_reverse(std::size_t x, unsigned M) {
  std::size_t r = 0;
  for (unsigned b = 0; b < M; ++b) r |= ((x >> b) & 1) << (M - 1 - b);
  return r;
}

BBStar<int> permutation_bbstar(const std::vector<std::size_t>& pi) {
  check_permutation(pi);
  const std::size_t m = pi.size();
  auto in = zero_factors(m), out = zero_factors(m);
  route(0, pi, in, out);
  // Switches are symmetric, so the input stage of stride 2^j is also M2.f[j] = (its transpose).
  BBStar<int> el;
  el.M1.n = el.M2.n = m;
  el.M1.factors = std::move(out);
  el.M2.factors = std::move(in);
  return el;
}

std::pair<Butterfly<int>, Butterfly<int>> permutation_b_then_t(const std::vector<std::size_t>& pi) {
  check_permutation(pi);
  const std::size_t m = pi.size();
  const unsigned M = log2_exact(m);
  std::vector<std::size_t> conj(m);  // R·P·R reads rev(pi[rev(x)]) at x
  for (std::size_t x = 0; x < m; ++x) conj[x] = bit_reverse(pi[bit_reverse(x, M)], M);
  const BBStar<int> c = permutation_bbstar(conj);
  // P = (R·M1'·R)·(R·M2'ᵀ·R). R·M2'ᵀ·R acts first, stride 1 first: the butterfly B with
  // B.f[b] = conj(M2'.f[M−1−b])ᵀ. R·M1'·R acts after, stride m/2 first: Tᵀ with
  // T.f[b] = conj(M1'.f[M−1−b])ᵀ.
  Butterfly<int> B, T;
  B.n = T.n = m;
  for (unsigned b = 0; b < M; ++b) {
    B.factors.push_back(conjugate_by_reversal(c.M2.factors[M - 1 - b], M).transposed());
    T.factors.push_back(conjugate_by_reversal(c.M1.factors[M - 1 - b], M).transposed());
  }
  return {std::move(B), std::move(T)};
}

Butterfly<int> selection_network(const std::vector<std::size_t>& src) {
  const std::size_t m = src.size();
  const unsigned M = log2_exact(m);
  // read[b][v]: at the stage that processes bit b (stride 2^b), node v reads its partner v ^ 2^b
  // (1), itself (0, the default), or is unset (-1).
  std::vector<std::vector<int>> read(M, std::vector<int>(m, -1));
  for (std::size_t i = 0; i < m; ++i) {
    if (src[i] == npos) continue;
    if (src[i] >= m) throw std::invalid_argument("selection network: source out of range");
    const std::size_t j = src[i];
    for (unsigned lam = 1; lam <= M; ++lam) {  // stage λ processes bit b = M − λ
      const unsigned b = M - lam;
      const std::size_t low = (std::size_t{1} << b) - 1;  // after stage λ: top λ bits of i, low b bits of j
      const std::size_t v = (i & ~low) | (j & low);
      const int want = ((v >> b) & 1) != ((j >> b) & 1) ? 1 : 0;
      if (read[b][v] >= 0 && read[b][v] != want)
        throw std::logic_error("selection network: two paths need node " + std::to_string(v) + " at bit " + std::to_string(b));
      read[b][v] = want;
    }
  }
  // F_b on a vector: out[v] = in[v] or in[v ^ 2^b]. The butterfly returned is Gᵀ, f[b] = F_bᵀ.
  Butterfly<int> g;
  g.n = m;
  g.factors = zero_factors(m);
  for (unsigned b = 0; b < M; ++b) {
    ButterflyFactor<int>& f = g.factors[b];
    const std::size_t h = std::size_t{1} << b;
    for (std::size_t p = 0; p < m / 2; ++p) {
      const std::size_t a = f.lower_of(p), c = a + h;
      const bool a_partner = read[b][a] == 1, c_partner = read[b][c] == 1;
      // F_b: row a = (1 − a_partner, a_partner), row c = (c_partner, 1 − c_partner); store F_bᵀ.
      f.d1[p] = a_partner ? 0 : 1;
      f.d3[p] = a_partner ? 1 : 0;  // F_b[a][c]
      f.d2[p] = c_partner ? 1 : 0;  // F_b[c][a]
      f.d4[p] = c_partner ? 0 : 1;
    }
  }
  return g;
}

void scale_columns(Butterfly<int>& b, const std::vector<int>& codes) {
  if (codes.size() != b.n) throw std::invalid_argument("scale_columns: wrong length");
  if (b.factors.empty()) {
    if (codes[0] != 1) throw std::invalid_argument("scale_columns: a size-1 butterfly has no factor to scale");
    return;
  }
  ButterflyFactor<int>& f = b.factors[0];
  for (std::size_t p = 0; p < b.n / 2; ++p) {
    const std::size_t a = f.lower_of(p), c = a + 1;
    for (int* x : {&f.d1[p], &f.d2[p], &f.d3[p], &f.d4[p]})
      if (*x != 0 && *x != 1) throw std::invalid_argument("scale_columns: factor entries must be 0 or 1");
    // Column a of f[0] holds d1 (row a) and d3 (row c); column c holds d2 (row a) and d4 (row c).
    f.d1[p] *= codes[a], f.d3[p] *= codes[a];
    f.d2[p] *= codes[c], f.d4[p] *= codes[c];
  }
}

}  // namespace cz::kroute
