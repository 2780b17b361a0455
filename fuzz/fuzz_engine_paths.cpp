// libFuzzer harness (issue 24, D1 guard): a user's model-json through every evaluator a verdict
// can come from, on the same inputs, which must agree entry for entry:
//   Z        model/eval.h IntegerEvaluator on Int inputs (the exact reference, PreparedModel<RingZ>)
//   i64      the same evaluator on int64 inputs (checked int64, redone in Z on overflow)
//   lanes    constructions/mqar/batch_model.h LaneProgram (the MQAR block path of `verify --model`)
//   twin     gpu/modmodel.h ModModel + mod_eval (the device path's kernel bodies, CRT-lifted)
// A fast path may refuse a model (lanes: not Z/Q, an MLP layer, a weight past int64, unsafe
// bound; twin: std::invalid_argument); one that accepts it must agree with Z on every input.
// Inputs: 64 matrices with entries in {-1, 0, 1} drawn from a hash of the file (the lane
// program is compiled for |input| <= 1). Under `anticausal` the lane program once read the
// filter as cyclic (D1): this harness finds that from the exported mqar/attention seed in seconds.
#include <nlohmann/json.hpp>

#include <functional>
#include <random>

#include "constructions/mqar/batch_model.h"
#include "constructions/mqar/sparse_model.h"
#include "fuzz/fuzz_common.h"
#include "gpu/modmodel.h"
#include "model/eval.h"
#include "model/model_json.h"

namespace {

using cz::Int;
using cz::Matrix;

Matrix<Int> twin_eval(const cz::gpu::ModModel& mm, const Matrix<std::int64_t>& u) {
  const cz::gpu::ModModelView v = mm.view();
  std::vector<std::uint32_t> scratch(v.scratch_words * static_cast<std::uint64_t>(v.primes));
  for (int q = 0; q < v.primes; ++q) {
    cz::gpu::ModScratch s = cz::gpu::mod_scratch(v, scratch.data() + q * v.scratch_words);
    for (int i = 0; i < v.Np; ++i)
      for (int j = 0; j < v.dp; ++j)
        s.x[std::uint64_t(i) * v.dp + j] = (i < v.N && j < v.d) ? cz::gpu::mod_of(u(i, j), v.p[q]) : 0;
    cz::gpu::mod_eval(v, q, s);
  }
  Matrix<Int> y(v.N, v.d);
  std::uint32_t r[cz::gpu::kModMaxPrimes];
  for (int i = 0; i < v.N; ++i)
    for (int j = 0; j < v.d; ++j) {
      for (int q = 0; q < v.primes; ++q) r[q] = scratch[q * v.scratch_words + std::uint64_t(i) * v.dp + j];
      y(i, j) = mm.lift(r);
    }
  return y;
}

void disagree(const char* path, std::size_t lane, std::size_t i, std::size_t j, const Int& want, const Int& got) {
  std::fprintf(stderr, "FINDING: %s disagrees with Z at input %zu, output[%zu][%zu]: %s vs %s\n", path, lane, i, j,
               got.str().c_str(), want.str().c_str());
  std::abort();
}

}  // namespace

void fuzz_one(const std::string& text) {
  cz::Model m = cz::model_from_json(cz::parse_json_input(text, "fuzz.json"), "fuzz.json");
  // Small models only: the point is the paths' semantics, not their speed.
  if (m.layers.size() > 6 || m.inner_N * m.inner_d > 1024 || cz::count_params(m).dense > 60000) return;
  for (const auto& l : m.layers)
    if (const auto* a = std::get_if<cz::LinearAttentionLayer>(&l); a && a->Wq.cols() > 32) return;
  std::optional<cz::IntegerEvaluator> ev;
  try {
    ev.emplace(m);
  } catch (const std::domain_error&) {
    return;  // a non-integer weight: tasks refuse such a model on every path (app/engine/byo/byo.h)
  }
  const constexpr std::size_t L = cz::mqarc::LaneProgram::kLanes;
  std::mt19937_64 g(std::hash<std::string>{}(text));
  std::uniform_int_distribution<int> entry(-1, 1);
  std::vector<Matrix<std::int64_t>> in(L, Matrix<std::int64_t>(m.N, m.d, 0));
  std::vector<Matrix<Int>> want(L);
  for (std::size_t t = 0; t < L; ++t) {
    for (auto& x : in[t].data()) x = entry(g);
    want[t] = (*ev)(cz::map_matrix(in[t], [](std::int64_t x) { return Int(x); }));
    const Matrix<Int> fast = (*ev)(in[t]);
    for (std::size_t i = 0; i < m.N; ++i)
      for (std::size_t j = 0; j < m.d; ++j)
        if (!(fast(i, j) == want[t](i, j))) disagree("i64", t, i, j, want[t](i, j), fast(i, j));
  }
  if (const auto sm = cz::mqarc::sparse_from_model(m)) {
    const cz::mqarc::LaneProgram P(*sm, 1);
    if (P.safe()) {
      cz::mqarc::LaneProgram::Scratch s;
      P.reserve(s);
      P.clear_inputs(s);
      for (std::size_t t = 0; t < L; ++t)
        for (std::size_t i = 0; i < m.N; ++i)
          for (std::size_t j = 0; j < m.d; ++j)
            if (P.in_slot(i, j) != cz::mqarc::LaneProgram::kZero) P.set_input(s, P.in_slot(i, j), t, in[t](i, j));
      P.run(s);
      for (std::size_t t = 0; t < L; ++t)
        for (std::size_t i = 0; i < m.N; ++i)
          for (std::size_t j = 0; j < m.d; ++j) {
            const Int got(P.output(s, P.out_slot(i, j), t));
            if (!(got == want[t](i, j))) disagree("lane program", t, i, j, want[t](i, j), got);
          }
    }
  }
  std::optional<cz::gpu::ModModel> mm;
  try {
    mm.emplace(m, 1);
  } catch (const std::invalid_argument&) {
    return;  // the device path refuses this model (and so does --device twin)
  }
  for (std::size_t t = 0; t < 8; ++t) {  // the twin is slower: a few inputs
    const Matrix<Int> got = twin_eval(*mm, in[t]);
    for (std::size_t i = 0; i < m.N; ++i)
      for (std::size_t j = 0; j < m.d; ++j)
        if (!(got(i, j) == want[t](i, j))) disagree("twin", t, i, j, want[t](i, j), got(i, j));
  }
}
