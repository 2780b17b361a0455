// Internal to src/tensor, included only by the ntt_lanes_<isa>.cpp files (which include <bit>),
// each after defining its vector type V (in an anonymous namespace, so every instruction set gets its own internal
// instantiation and no AVX-512 code can be picked by the linker for another CPU).
//
// Lane-batched NTT convolution: a d-channel signal is W channels per row (row i = u[i][j0, j0+W),
// the row-major input's own layout), and every butterfly works on whole rows, the W channels of
// one index pair at once, with the twiddle broadcast. So there is no transposition to channel
// buffers and back, no shuffles in the small stages, and one twiddle load per W butterflies.
//
// Cache: the transform is a depth-first recursion of radix-2^r passes (r ≤ 4, the rows of a pass
// in registers): the first pass streams the whole array, its 2^r sub-transforms are then done
// one after another, each in cache (at W = 16, L = 2^17: 2 MiB blocks after one radix-4 pass,
// 256 KiB after two; LaneConv::radix says why the first pass is not radix 8). The convolution
// fuses the forward transforms of u and h, the pointwise product at the leaves and the inverse
// transform into one recursion, so every level's data is touched twice while it is in cache
// instead of once per transform; the last pass (LaneConv::leaf) does its forward networks, the
// product and the inverse network in registers.
//
// The arithmetic is ntt_arith.h's, lane by lane (Harvey's lazy butterflies: forward values in
// [0, 2p), inverse in [0, 4p); Montgomery pointwise product), in the same stage order, so each
// lane equals the scalar transform of that channel (tests/tensor/test_ntt_lanes.cpp).
//
// V provides: R (a register of W uint32 lanes), W, load/store (unaligned), zero, set1, add, sub,
// minu, mullo, mulhi (high 32 bits of the 32×32 product per lane; b is always a broadcast, which
// the AVX-512 version relies on), mont (Montgomery product),
// from_i64 (W int64 → residues, |x| < p), to_i64 (residues in [0, p) → signed int64), and Acc
// with acc_init / acc_row / acc_out (per-lane min, max and Σ|x| of int64 rows).

// Butterflies on registers of W lanes.
template <class V>
struct LaneOps {
  using R = typename V::R;
  struct C {
    R p, p2;
  };
  static C consts(std::uint32_t p) { return {V::set1(p), V::set1(2 * p)}; }
  static R red(R x, R m) { return V::minu(x, V::sub(x, m)); }  // x < 2m → x mod m
  static R shoup(R a, R w, R wp, R p) { return V::sub(V::mullo(a, w), V::mullo(V::mulhi(a, wp), p)); }
  static void bf_fwd(R& x, R& y, R w, R wp, const C& c) {
    const R s = red(V::add(x, y), c.p2);
    y = shoup(V::add(V::sub(x, y), c.p2), w, wp, c.p);
    x = s;
  }
  static void bf_inv(R& x, R& y, R w, R wp, const C& c) {
    const R r = red(x, c.p2);
    const R t = shoup(y, w, wp, c.p);
    x = V::add(r, t);
    y = V::add(V::sub(r, t), c.p2);
  }

  // Forward (DIF) stages h, h/2, ..., h/2^{Rd−1} over a region of 2h rows starting at A:
  // for each j < m = 2h/2^Rd, the rows j + k·m (k < 2^Rd) are one radix-2^Rd butterfly network.
  // The butterfly of stage hs pairing k and k + D (D = hs/m) sits at position j + (k mod 2D)·m of
  // its half-block, so its twiddle is w[hs + j + (k mod 2D)·m]. net<Rd, false> runs network j
  // on registers x; fwd_pass loads, runs and stores every network (uz: rows ≥ h are zero, unread).
  template <int Rd, bool kInv>
  static void net(R* x, std::size_t j, std::size_t m, std::size_t h, const std::uint32_t* w, const std::uint32_t* wp,
                  const C& c) {
    constexpr int K = 1 << Rd;
#pragma GCC unroll 4
    for (int t = 0; t < Rd; ++t) {
      const int s = kInv ? Rd - 1 - t : t;  // the inverse runs the stages backwards
      const int D = 1 << (Rd - 1 - s);
      const std::size_t hs = h >> s;
#pragma GCC unroll 16
      for (int k = 0; k < K; ++k) {
        if (k & D) continue;
        const std::size_t i = hs + j + static_cast<std::size_t>(k % (2 * D)) * m;
        if constexpr (kInv) bf_inv(x[k], x[k + D], V::set1(w[i]), V::set1(wp[i]), c);
        else bf_fwd(x[k], x[k + D], V::set1(w[i]), V::set1(wp[i]), c);
      }
    }
  }
  template <int Rd>
  static void fwd_pass(std::uint32_t* A, std::size_t h, const std::uint32_t* w, const std::uint32_t* wp, const C& c,
                       bool uz) {
    constexpr int K = 1 << Rd;
    const std::size_t m = (2 * h) >> Rd;
    for (std::size_t j = 0; j < m; ++j) {
      R x[K];
#pragma GCC unroll 16
      for (int k = 0; k < K; ++k) x[k] = (uz && k >= K / 2) ? V::zero() : V::load(A + (j + k * m) * V::W);
      net<Rd, false>(x, j, m, h, w, wp, c);
#pragma GCC unroll 16
      for (int k = 0; k < K; ++k) V::store(A + (j + k * m) * V::W, x[k]);
    }
  }

  // Inverse (DIT) stages h/2^{Rd−1}, ..., h/2, h over a region of 2h rows (the same networks
  // run backwards). low: only rows < h are wanted afterwards (stored, reduced to [0, p)).
  template <int Rd>
  static void inv_pass(std::uint32_t* A, std::size_t h, const std::uint32_t* w, const std::uint32_t* wp, const C& c,
                       bool low, bool final_reduce) {
    constexpr int K = 1 << Rd;
    const std::size_t m = (2 * h) >> Rd;
    for (std::size_t j = 0; j < m; ++j) {
      R x[K];
#pragma GCC unroll 16
      for (int k = 0; k < K; ++k) x[k] = V::load(A + (j + k * m) * V::W);
      net<Rd, true>(x, j, m, h, w, wp, c);
      const int kend = low ? K / 2 : K;
#pragma GCC unroll 16
      for (int k = 0; k < kend; ++k)
        V::store(A + (j + k * m) * V::W, final_reduce ? red(red(x[k], c.p2), c.p) : x[k]);
    }
  }
};

// The fused convolution (see the header comment).
template <class V>
struct LaneConv {
  using O = LaneOps<V>;
  using R = typename V::R;
  const LaneArgs& a;
  typename O::C c;
  R pneg;

  explicit LaneConv(const LaneArgs& args) : a(args), c(O::consts(args.p)), pneg(V::set1(args.pneg)) {}

  // Radix of the pass over a region of 2^lg rows: V::kRadix stages (AVX-512: 3, 8 registers of
  // data; with 16 the row addresses and twiddles spilled and the kernel ran 1.5x slower,
  // measured) while more than 2·kRadix remain, then the rest split in two.
  //
  // Above kL3Log the passes stream from memory, and what pays is reaching a region that fits the
  // L3 share (U and H together 4 MiB: 2^15 rows at W = 16) in as few such passes as possible,
  // whatever their radix: so the first pass takes the remainder, (lg − kL3Log − 1) mod kRadix + 1
  // stages, and the others kRadix. Measured at W = 16 (fill, transform, emit; min of 30): L = 2^16
  // 2.77 ms with a radix-2 first pass against 2.89 with radix 8; 2^17 6.21 (radix 4) against 6.57;
  // 2^18 14.0 with radix 8, the best there. (Below kL3Log, radix 8 down to L2 sizes is best.)
  static constexpr unsigned kL3Log = 21 - std::countr_zero(V::W * 4u);  // 2^21 bytes per array, rows of W words
  static int radix(unsigned lg) {
    constexpr unsigned R = V::kRadix;
    if (lg > kL3Log) return static_cast<int>((lg - kL3Log - 1) % R + 1);
    return lg <= R ? static_cast<int>(lg) : lg <= 2 * R ? static_cast<int>(lg - lg / 2) : static_cast<int>(R);
  }
  template <class F>
  static void with_radix(int r, F&& f) {
    switch (r) {
      case 1: return f(std::integral_constant<int, 1>{});
      case 2: return f(std::integral_constant<int, 2>{});
      case 3: return f(std::integral_constant<int, 3>{});
      default: return f(std::integral_constant<int, 4>{});
    }
  }

  void pointwise(std::uint32_t* U, const std::uint32_t* H, std::size_t rows) const {
    for (std::size_t i = 0; i < rows; ++i)
      V::store(U + i * V::W, V::mont(V::load(U + i * V::W), V::load(H + i * V::W), c.p, pneg));
  }

  // A region of 2^Rd rows, the last pass of the recursion (one network, m = 1): forward on U and
  // H, product, inverse, all in registers (the passes one by one stored and reloaded every row
  // three times). H's transform is not stored: nothing reads it afterwards.
  template <int Rd>
  void leaf(std::uint32_t* U, const std::uint32_t* H, std::size_t h) const {
    constexpr int K = 1 << Rd;
    R x[K], y[K];
#pragma GCC unroll 16
    for (int k = 0; k < K; ++k) y[k] = V::load(H + k * V::W);
    if (!a.h_prepared) O::template net<Rd, false>(y, 0, 1, h, a.w, a.wp, c);
#pragma GCC unroll 16
    for (int k = 0; k < K; ++k) x[k] = V::load(U + k * V::W);
    O::template net<Rd, false>(x, 0, 1, h, a.w, a.wp, c);
#pragma GCC unroll 16
    for (int k = 0; k < K; ++k) x[k] = V::mont(x[k], y[k], c.p, pneg);
    O::template net<Rd, true>(x, 0, 1, h, a.iw, a.iwp, c);
#pragma GCC unroll 16
    for (int k = 0; k < K; ++k) V::store(U + k * V::W, x[k]);
  }

  // Region of 2^lg rows: forward passes on U (and H unless prepared), recursion, inverse on U.
  void rec(std::uint32_t* U, std::uint32_t* H, unsigned lg, bool top) const {
    if (lg == 0) return pointwise(U, H, 1);
    const int r = radix(lg);
    const std::size_t h = std::size_t{1} << (lg - 1);
    const bool uz = top && a.half_zero;
    if (!top && static_cast<unsigned>(r) == lg) return with_radix(r, [&](auto Rd) { leaf<Rd>(U, H, h); });
    with_radix(r, [&](auto Rd) {
      O::template fwd_pass<Rd>(U, h, a.w, a.wp, c, uz);
      if (!a.h_prepared) O::template fwd_pass<Rd>(H, h, a.w, a.wp, c, uz);
    });
    const unsigned sub = lg - static_cast<unsigned>(r);
    const std::size_t rows = std::size_t{1} << sub;
    if (sub == 0) {
      pointwise(U, H, std::size_t{1} << lg);
    } else {
      for (std::size_t b = 0; b < (std::size_t{1} << r); ++b) rec(U + b * rows * V::W, H + b * rows * V::W, sub, false);
    }
    const bool low = top && 2 * a.n_out <= (std::size_t{1} << lg);
    with_radix(r, [&](auto Rd) { O::template inv_pass<Rd>(U, h, a.iw, a.iwp, c, low, top); });
  }

  // Forward transform only (a prepared filter), the same recursion without the product.
  void fwd(std::uint32_t* H, unsigned lg, bool top) const {
    if (lg == 0) return;
    const int r = radix(lg);
    const std::size_t h = std::size_t{1} << (lg - 1);
    with_radix(r, [&](auto Rd) { O::template fwd_pass<Rd>(H, h, a.w, a.wp, c, top && a.half_zero); });
    const unsigned sub = lg - static_cast<unsigned>(r);
    const std::size_t rows = std::size_t{1} << sub;
    if (sub)
      for (std::size_t b = 0; b < (std::size_t{1} << r); ++b) fwd(H + b * rows * V::W, sub, false);
  }
};

template <class V>
void lanes_conv(std::uint32_t* U, std::uint32_t* H, const LaneArgs& a) {
  if (a.log_len == 0) {  // L = 1: the product of two residues; Montgomery needs the 2^32 factor the filter carries
    LaneConv<V>(a).pointwise(U, H, 1);
    using O = LaneOps<V>;
    const auto c = O::consts(a.p);
    V::store(U, O::red(O::red(V::load(U), c.p2), c.p));
    return;
  }
  LaneConv<V>(a).rec(U, H, a.log_len, true);
}

template <class V>
void lanes_forward(std::uint32_t* H, const LaneArgs& a) {
  LaneConv<V>(a).fwd(H, a.log_len, true);
}

// Rows [0, n) of dst ← residues of src rows (reversed when rev), lanes [0, cnt) from src + 0
// (row stride `ld` int64), other lanes 0; then rows [n, pad_to) ← 0. |entries| < p required.
// scale: times (scale[0], scale[1]) (Shoup; result in [0, 2p)), for a filter. stats: the rows'
// per-lane min, max and Σ|x| in the same pass (V::Acc, registers where the ISA has 64-bit lanes).
template <class V, bool kStats>
void fill_rows(std::uint32_t* dst, const std::int64_t* src, std::size_t n, std::size_t ld, unsigned cnt, bool rev,
               std::uint32_t p, const std::uint32_t* scale, LaneStats* stats) {
  using O = LaneOps<V>;
  const typename V::R vp = V::set1(p);
  typename V::Acc acc = V::acc_init();
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t* row = src + (rev ? n - 1 - i : i) * ld;
    if constexpr (kStats) V::acc_row(acc, row, cnt);
    typename V::R x = V::from_i64(row, cnt, p);
    if (scale) x = O::shoup(x, V::set1(scale[0]), V::set1(scale[1]), vp);
    V::store(dst + i * V::W, x);
  }
  if constexpr (kStats) {
    std::int64_t mn[V::W], mx[V::W];
    std::uint64_t l1[V::W];
    V::acc_out(acc, mn, mx, l1);
    for (unsigned l = 0; l < cnt; ++l) {
      stats->mn[l] = mn[l] < stats->mn[l] ? mn[l] : stats->mn[l];
      stats->mx[l] = mx[l] > stats->mx[l] ? mx[l] : stats->mx[l];
      stats->l1[l] += l1[l];
    }
  }
}

template <class V>
void lanes_fill(std::uint32_t* dst, const std::int64_t* src, std::size_t n, std::size_t ld, unsigned cnt, bool rev,
                std::uint32_t p, std::size_t pad_to, const std::uint32_t* scale, LaneStats* stats) {
  if (stats) fill_rows<V, true>(dst, src, n, ld, cnt, rev, p, scale, stats);
  else fill_rows<V, false>(dst, src, n, ld, cnt, rev, p, scale, nullptr);
  for (std::size_t i = n; i < pad_to; ++i) V::store(dst + i * V::W, V::zero());
}

// Rows [0, n) of the output (row-major, stride ld) ← signed values of residue rows (reversed
// when rev), lanes [0, cnt), where residues are in [0, p) (one prime: the value itself, certified).
template <class V>
void lanes_emit(std::int64_t* dst, const std::uint32_t* src, std::size_t n, std::size_t ld, unsigned cnt, bool rev,
                std::uint32_t p) {
  for (std::size_t i = 0; i < n; ++i) V::to_i64(V::load(src + (rev ? n - 1 - i : i) * V::W), p, dst + i * ld, cnt);
}

// Cyclic wrap: rows i < n ← (row i + row i + n) mod p, residues in [0, p).
template <class V>
void lanes_fold(std::uint32_t* U, std::size_t n, std::uint32_t p) {
  const typename V::R vp = V::set1(p);
  for (std::size_t i = 0; i < n; ++i)
    V::store(U + i * V::W, LaneOps<V>::red(V::add(V::load(U + i * V::W), V::load(U + (i + n) * V::W)), vp));
}
