// JRT Prop G.18 as a causal Based block (spec §10.2): LinearAttention + MLP solve SD when the
// first set S comes first, with an IP kernel on the keys and queries.
//
//   [mask]  BaseConv, pipeline only: keep rows [lo, lo+N) (Thm G.22's "keep z[0:N-1]")
//   mark    BaseConv: flag column -> m = flag + 2·#earlier flags: 0 key row, 1 separator, 2 query
//   MLP1    data-dependent: the features K = phi(x)·[key], Q = phi(x)·[query] and V = [key] (ReLU
//           gates); random: role-gated one-hots of x, and the projections Wk, Wq map them to r_x.
//           Rows outside the window get a -1 bias, enough because masked rows are zero.
//   attn    z[i] = sum_{j<=i} <Q[i], K[j]> V[j]   (state S_i = sum_j K[j]^T V[j]: f x 1 nonzero)
//   MLP2    out[i][0] = relu(2 z[i] - tau): tau = 1 (data-dependent, z in {0,1}) or f (random,
//           match iff z > f/2: the threshold 1/2 of JRT's proof, scaled by f to stay integral)
// The paper's block is LinearAttention (+MLP); the mark layer is ours (it tells key rows from
// query rows with a causal cumulative sum, so the MLP needs no data-dependent row biases).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/eval.h"
#include "model/model.h"

namespace cz::sdc {

enum class KernelKind { DataDependent, Random, Exponential };

struct KernelSpec {
  KernelKind kind = KernelKind::DataDependent;
  std::uint64_t seed = 1;  // random
  std::size_t f = 0;       // random: feature dimension
  std::size_t r = 1;       // exponential: repetitions of the +-1 code
};

struct G18Model {
  Model pre;   // [mask], mark, MLP1 (exponential: [mask], mark): rows x D in and out
  Model post;  // attention, MLP2 (empty for the exponential kernel)
  std::size_t f = 0, D = 0, d = 0, rows = 0, lo = 0, N = 0, value_channel = 0;
  Matrix<std::int64_t> kproj;  // the key projection Wk (D x f), for the state measurement
  std::int64_t tau = 1;
  std::shared_ptr<const IntegerEvaluator> pre_eval, post_eval;  // prepared once
  // pre then post as one (rows, L, n+1, rows, D) model, for reports and export (built on demand:
  // the per-instance checks evaluate pre and post, and copying the layers cost a sixth of a build)
  Model full() const;
};

// A hook that edits a stage model right after it is built (tests use it for mutants).
using StageMutator = std::function<void(const std::string& stage, Model& m)>;

// S: the first set's elements (the data-dependent kernel is built from them; ignored otherwise).
// `mutate` (optional) sees "g18-pre" and "g18-post" before they are prepared.
G18Model build_g18(unsigned n, std::size_t rows, std::size_t lo, std::size_t N, const KernelSpec& k,
                   const std::vector<std::uint32_t>& S, const StageMutator& mutate = nullptr);

// The model's view of a run: per-row match flags in the window, and the attention state's
// largest |entry| and sign over all prefixes (for the state-bits check).
struct G18Run {
  std::vector<bool> flag;        // rows of the input
  std::int64_t state_max_abs = 0;
  bool state_negative = false;
  bool certified = true;         // exponential: every decision certified by the bounds on e
};
// u: rows x (n+1). Exponential kernel: evaluates the kernel sum with certified bounds.
G18Run run_g18(const G18Model& g, const KernelSpec& k, unsigned n, const Matrix<std::int64_t>& u);

// The IP kernel the built model computes (JRT Def G.17), read off the model itself: k(x, y) =
// <Q[query row], K[key row]> with K = X·Wk, Q = X·Wq and X = the pre layers' output on a probe
// whose window holds a key row x, the separator, and a query row y. Exact integers; the
// exponential kernel has no feature map (throws std::invalid_argument). Needs g.N >= 3.
std::int64_t g18_kernel(const G18Model& g, unsigned n, std::uint32_t x, std::uint32_t y);

// JRT Prop G.18's epsilon of the built kernel, measured exactly: max over keys x in S and every
// query y in {0,1}^n of |k(x, y) - [x = y]·k0| / k0, with k0 = 1 (data-dependent, eq 19) or f
// (random, unnormalised eq 20). Only keys of the first set S occur in the construction.
struct KernelEps {
  Rat eps;
  std::uint32_t x = 0, y = 0;  // a worst pair
};
KernelEps g18_kernel_eps(const G18Model& g, const KernelSpec& k, unsigned n, const std::vector<std::uint32_t>& S);

}  // namespace cz::sdc
