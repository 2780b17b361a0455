// The per-instance solvers of the MQAR constructions (what their checks, the --from-npy batch
// check and the mutant tests run): each builds the construction's model for one instance,
// evaluates it exactly on the one-hot input and returns the whole output.
#pragma once
#include "constructions/mqar/autocorrelation.h"
#include "constructions/mqar/common.h"
#include "constructions/mqar/lags.h"
#include "verify/mqar_check.h"

namespace cz::mqarc {

struct AutoConfig {
  TaskShape shape;
  bool paper = false;                        // variant=paper (row stacking) or fixed (channel stacking)
  LagRule rule = LagRule::QK;
  std::size_t t = 0;                         // 0: enough for the instance
  ConvMode conv = ConvMode::Causal;
  PaperOffset offset = PaperOffset::Printed;
  Mutant mutant = Mutant::None;
};
AutoConfig autocorr_config(const Params& p);
// The model for one instance (lags chosen from the instance, eq 19); `chosen` receives the lags.
SparseModel autocorr_model(const AutoConfig& cfg, const mqar::Instance& x, LagChoice* chosen = nullptr);
MqarSolver autocorr_solver(const AutoConfig& cfg);

enum class AttnMutant { None, SameTriple, NoQueryMask };
// Zoology H.7.2 attention baseline as an exact model; see attention.cpp.
SparseModel attention_model(const mqar::Instance& x, AttnMutant mutant = AttnMutant::None);
MqarSolver attention_solver(const TaskShape& s, AttnMutant mutant = AttnMutant::None);

}  // namespace cz::mqarc
