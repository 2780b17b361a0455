// verify mqar/autocorrelation --method sat: the lag choice, the kernels and the model as one
// circuit of exact words (constructions/mqar/autocorrelation_circuit.h) against the MQAR reference
// (circuits/reference/mqar_ref.h, each output word equal to the 0/1 expected bit); one miter per
// query (family). A SAT model is confirmed by the construction's own check (autocorr_solver: the
// lags chosen from that instance, the per-instance model evaluated exactly, mqar_check).
#include "app/engine/sat/sat_data.h"

#include "circuits/sat/int_miter.h"
#include "constructions/mqar/autocorrelation_circuit.h"
#include "util/error.h"
#include "verify/mqar_check.h"

namespace cz {

namespace sat = circuits::sat;

SatProblem sat_autocorr_problem(const mqarc::AutoConfig& cfg) {
  const auto& s = cfg.shape;
  if (s.layout != mqar::Layout::Triples)
    throw InputError("mqar/autocorrelation is not provable by --method sat: with layout=zoology its domain is sampled and its "
                     "masks come from each instance's labelled rows (use layout=triples)",
                     "--method sat");
  const std::size_t n = s.n, N = 3 * n;
  const mqar::Codec codec = mqar::make_codec(mqar::Encoding::OneHot, s.c);
  const sat::IntInputs in = sat::IntInputs::bits(N, codec.d, [](std::size_t, std::size_t) { return true; });
  sat::IntArtifact art;
  try {
    art = sat::artifact_circuit(
        in, [&cfg](sat::WordBuilder& wb, const Matrix<sat::Word>& u) { return mqarc::autocorr_words(wb, cfg, u); }, 1024);
  } catch (const sat::TooWide& e) {
    throw InputError(std::string("the model cannot be bit-blasted: ") + e.what(), "--method sat");
  }
  SatProblem pr;
  pr.checker = sat::mqar_words_checker(in, art, sat_mqar_spec(codec, n));
  pr.notes.push_back("one circuit: lags (" + std::string(cfg.rule == mqarc::LagRule::QK ? "qk" : "autocorr") +
                     " scores, ranks, t) → kernels → " + (cfg.paper ? "the row-stacked model for each possible t" : "the channel-stacked model") +
                     " → output words; " + std::to_string(art.circuit.size()) + " gates, widest word " + std::to_string(art.widest) +
                     " bits (each width from its certified interval: no overflow on the domain)");
  pr.artifact = std::make_shared<const circuits::Circuit>(std::move(art.circuit));
  pr.instances = sat_triples_instances(n, codec.c);
  pr.domain_text = sat_triples_text(n, codec.c, codec, pr.instances) + "; the whole N×c integer output compared";
  const MqarSolver sol = mqarc::autocorr_solver(cfg);
  pr.confirm = [codec, n, sol](const std::vector<int>& bits) {
    auto xs = std::make_shared<const std::vector<mqar::Instance>>(1, sat_mqar_instance(codec, n, bits));
    return sat_engine_failure(mqar_check(mqar::from_list(xs, "the SAT model's instance"), sol), 0);
  };
  return pr;
}

SatOutcome run_autocorr_sat(const Params& p, const Built& bt, const SatOptions& o, nlohmann::json head) {
  SatProblem pr = sat_autocorr_problem(mqarc::autocorr_config(p));
  for (const auto& n : bt.notes) pr.notes.push_back(n);
  head["circuit"] = nullptr;
  return solve_sat_problem(pr, o, std::move(head));
}

}  // namespace cz
