// sd/based-jrt as the list of its stage models for one instance (`export sd/based-jrt --format
// models -p instance=k`, issue 15): JRT Lemma G.20 (kernel), Prop G.21 (insert, then the
// data-dependent shift whose filter is read off G.20's output), Prop G.18 (mask, mark, MLP,
// attention, MLP; for the data-dependent kernel built from the window's first set). Every model is
// the one the check runs for that instance (the same builders, run_pipeline's order).
#include "constructions/sd/based_jrt.h"
#include "constructions/sd/based_pipeline.h"
#include "constructions/sd/based_stages.h"
#include "constructions/sd/domain.h"
#include "constructions/sd/g18.h"
#include "model/eval.h"
#include "util/error.h"
#include "verify/model_check.h"
#include "verify/parts.h"

namespace cz::sdc {
namespace {

// How the answer is read off g18 (g18.cpp run_g18).
std::string flag_note(const KernelSpec& k) {
  if (k.kind == KernelKind::Exponential)
    return "kernel=exp: g18 holds mask and mark only; a row is flagged when its kernel sum sum_j e^(-2r·ham) over the "
           "key rows exceeds 1/2, decided with certified bounds on e (not a model output)";
  return "a row is flagged (its element is in A ∩ B) when column 0 of g18's output is nonzero there (Prop G.18)";
}

Parts based_parts(const Params& p, const Built& b, std::uint64_t k) {
  const auto& art = *std::static_pointer_cast<const BasedArtifact>(b.state);
  const PipelineConfig& cfg = art.pipeline->config();
  const SdDomain dom = make_sd_domain(p, DomainOptions{});
  if (k >= dom.count)
    throw InputError("instance " + std::to_string(k) + " is beyond the default domain (" + std::to_string(dom.count) + " instances: " +
                         dom.describe() + ")",
                     "-p instance");
  const sd::Instance x = dom.instance(k);
  const unsigned n = cfg.n;
  Parts out;
  out.instance = sd::to_json(x);
  out.instance["index"] = k;
  if (art.stage == Stage::G18) {  // G.18 alone on u (A first, no repetition)
    const Matrix<std::int64_t> u = sd::encode(x);
    const std::size_t N = u.rows();
    G18Model g = build_g18(n, N, 0, N, cfg.kernel, first_set(u, n));
    out.input = int_matrix_json(u);
    out.models.push_back({"g18", "u = encode(A, s, B) (Remark G.14)", cfg.kernel.kind == KernelKind::DataDependent, g.full()});
    out.notes.push_back(flag_note(cfg.kernel));
    return out;
  }
  const Matrix<std::int64_t> v = sd::repeat_prompt(sd::encode(x), 2);
  const std::size_t N = v.rows() / 2, lo = art.pipeline->window_lo(N);
  out.input = int_matrix_json(v);
  Model g20 = g20_model(N, n);
  const Matrix<Int> Y = IntegerEvaluator(g20)(v);
  const std::vector<std::int64_t> h = read_kernel(Y, N, n, cfg.layout);
  out.models.push_back({"g20", "v = [u; u], the JRT prompt (Def G.4)", false, g20});
  if (art.stage == Stage::G20) {
    out.notes.push_back("the kernel h_shift is read off column n of g20's output (based_stages.h read_kernel)");
    return out;
  }
  out.models.push_back({"g21-insert", "v", false, g21_insert_model(N, n)});
  out.models.push_back({"g21-shift", "the output of g21-insert", true, g21_shift_model(N, n, h, cfg.layout)});
  out.notes.push_back("g21-shift's filter (every channel) is the kernel read off column n of g20's output at rows " +
                      std::string(cfg.layout == Layout::Top ? "N-1+j (anticausal)" : "2N-1-j (causal)") +
                      "; it is a model of its own because its conv mode differs from g21-insert's (causal)");
  if (art.stage == Stage::G21) {
    out.notes.push_back("the rearranged copy (smaller set first) is rows [" + std::to_string(lo) + ", " + std::to_string(lo + N) +
                        ") of g21-shift's output (Prop G.21)");
    return out;
  }
  // Prop G.18 on z (the output of g21-shift), built from the first set of z's window.
  const Matrix<Int> w = IntegerEvaluator(out.models[1].model)(v);
  const Matrix<Int> z = IntegerEvaluator(out.models[2].model)(w);
  Matrix<std::int64_t> window(N, n + 1, 0);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j <= n; ++j) window(i, j) = z(lo + i, j).to_int64();
  G18Model g = build_g18(n, 2 * N, lo, N, cfg.kernel, first_set(window, n));
  out.models.push_back({"g18", "the output of g21-shift", cfg.kernel.kind == KernelKind::DataDependent, g.full()});
  out.notes.push_back("A and B intersect iff some row of the window [" + std::to_string(lo) + ", " + std::to_string(lo + N) +
                      ") of g18's input is flagged; " + flag_note(cfg.kernel));
  return out;
}

const bool registered = register_parts("sd/based-jrt", based_parts);

}  // namespace
}  // namespace cz::sdc
