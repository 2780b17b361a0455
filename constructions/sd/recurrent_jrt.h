// sd/recurrent-jrt: the artifact (a recurrent program plus how it is prompted) and the
// per-instance run, shared by the registration, its metrics pass and the tests' mutants.
#pragma once
#include "constructions/sd/alg3.h"
#include "constructions/sd/domain.h"
#include "tasks/sd.h"

namespace cz::sdc {

struct RecurrentArtifact {
  RecurrentProgram program;
  Alg3Rules rules = alg3_rules(Alg3Threshold::Fixed);  // the steps alg3_program was made with (its unrolled circuit's)
  unsigned n = 0;
  std::size_t copies = 2;           // 2: JRT prompt (Def G.4); 1: plain prompt (contrast)
  bool exact_min_state = true;      // binding: the stored set holds exactly n·min(|A|,|B|) bits
};

struct RecurrentOutcome {
  Matrix<std::int64_t> prompt;
  FlagAnswer got;
  std::size_t set_bits = 0, state_bits = 0, register_bits = 0;
};
RecurrentOutcome run_on(const RecurrentArtifact& art, const sd::Instance& x);

// The bits the stored set must hold on x: n·min(|A|,|B|) on the JRT prompt, n·|A| on the plain one.
std::size_t expected_set_bits(const RecurrentArtifact& art, const sd::Instance& x);

// The check of one instance (what recurrent_check runs on each): the failure, or nullopt.
std::optional<Failure> recurrent_failure(const RecurrentArtifact& art, const sd::Instance& x);

// The check: answers (disjointness and the intersection) against the reference, and, when
// art.exact_min_state, the stored set's size on every instance.
Check recurrent_check(const RecurrentArtifact& art, const SdDomain& dom);

}  // namespace cz::sdc
