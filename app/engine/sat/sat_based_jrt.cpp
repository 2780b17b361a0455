// verify sd/based-jrt --method sat: the Based pipeline with its data-dependent pieces computed from
// the instance (constructions/sd/based_jrt_circuit.h), one circuit per prompt length N of the
// domain, against the SD reference checker (circuits/reference/sd_ref.h; the answer's flagged
// rows must hold exactly A ∩ B), one miter family per prompt length. A SAT model's block is
// decoded into an instance and confirmed by the construction's own check of it (based_failure:
// the pipeline's models built and evaluated exactly), shrunk as the enumeration shrinks.
#include "app/engine/sat/sat_data.h"

#include "app/engine/sat/sat_sd.h"
#include "circuits/gadgets_bits.h"
#include "circuits/stats.h"
#include "constructions/sd/based_jrt_circuit.h"
#include "util/error.h"

namespace cz {

namespace sat = circuits::sat;
namespace ref = circuits::reference;

namespace {

// Why these parameters have no circuit ("" when they have one).
std::string based_refusal(const Params& p) {
  if (p.s("kernel") == "exp")
    return "kernel=exp flags a row when a sum of e^(-2r·ham) exceeds 1/2, decided with certified real bounds: no integer "
           "circuit (kernel=dd and kernel=random are provable)";
  if (p.s("stage") == "g20" || p.s("stage") == "g21")
    return "stage=" + p.s("stage") + " checks an intermediate target of the pipeline, not the task's answer; --method sat proves "
           "the answer (stage=all, or stage=g18)";
  return "";
}

}  // namespace

bool sat_based_covers(const Params& p) { return based_refusal(p).empty(); }

SatProblem sat_based_problem(const Params& p, const sdc::BasedArtifact& art) {
  if (const std::string why = based_refusal(p); !why.empty())
    throw InputError("sd/based-jrt is not provable by --method sat here: " + why, "-p kernel=" + p.s("kernel") + " -p stage=" + p.s("stage"));
  SdSpec s = sd_spec(p, true, false, 1);
  const sdc::PipelineConfig& cfg = art.pipeline->config();
  circuits::Builder b;
  sat::WordBuilder wb(b);
  for (auto& blk : s.blocks) {
    const std::size_t N = blk.N, d = s.n + 1;
    Matrix<sat::Word> u(N, d);
    for (std::size_t r = 0; r < N; ++r)
      for (std::size_t j = 0; j < d; ++j)
        u(r, j) = wb.from_bit(b.input(blk.prefix + "u[" + std::to_string(r) + "][" + std::to_string(j) + "]", circuits::Type::Bit));
    const auto rows = sdc::based_answer_bits(wb, cfg, art.stage, u);
    for (std::size_t r = 0; r < N; ++r)
      for (std::size_t j = 0; j < d; ++j) b.output(blk.prefix + "y[" + std::to_string(r) + "][" + std::to_string(j) + "]", rows[r][j]);
  }
  auto circuit = std::make_shared<const circuits::Circuit>(std::move(b).finish());
  SatProblem pr;
  pr.artifact = circuit;
  pr.checker = ref::sd_checker(s.blocks);
  pr.instances = s.count;
  pr.domain_text = s.text + (art.stage == sdc::Stage::All ? "; the pipeline reads the JRT prompt [u; u] (2N rows)" : "; G.18 alone reads u") +
                   ", the answer = the window's rows with G.18's flags";
  pr.notes.push_back("one circuit per prompt length: " +
                     std::string(art.stage == sdc::Stage::All ? "G.20 → kernel → G.21 insert and shift → window → " : "") +
                     (cfg.kernel.kind == sdc::KernelKind::DataDependent ? "first set S → G.18's data-dependent MLP, attention, MLP"
                                                                         : "G.18's random-kernel model") +
                     " → flags, as exact words; " + std::to_string(circuit->size()) + " gates over " + std::to_string(s.blocks.size()) +
                     " prompt length(s); the answer is checked, not the intermediate targets or the attention state's allocation (the "
                     "enumerating check's extra conditions)");
  pr.confirm = confirm_by(s.blocks, [art](const sd::Instance& x) { return sdc::based_failure(art, x); });
  return pr;
}

SatOutcome run_based_sat(const Params& p, const Built& bt, const SatOptions& o, nlohmann::json head) {
  SatProblem pr = sat_based_problem(p, *std::static_pointer_cast<const sdc::BasedArtifact>(bt.state));
  head["circuit"] = circuits::to_json(circuits::compute_stats(*pr.artifact));
  for (const auto& n : bt.notes) pr.notes.push_back(n);
  return solve_sat_problem(pr, o, std::move(head));
}

}  // namespace cz
