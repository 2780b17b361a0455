// Verification of the mqar/dyadic circuit on a domain of MQAR instances, bit-sliced: the circuit is
// built once; instances are evaluated 512 at a time (circuits/eval_bitslice.h; sound because every
// output is a certified Bit wire). The engine asks for instance k; the block holding k is evaluated
// once per thread and cached (chunks of the engine are contiguous, so each block is evaluated about
// once), and the verdict for k is read from it.
// Instance k passes when, for every query i, the circuit's value columns equal the encoded answer
// of the independent reference solver (mqar::reference_answers, Zoology Alg. 9) or the zero row
// when it is null, and (binary) the found column equals [answer is not null]. Every failure is
// re-evaluated exactly (eval_integer, int64 with Z fallback) for the report; a disagreement between
// the two evaluators would be reported too.
#pragma once
#include <memory>

#include "constructions/mqar/dyadic_circuit.h"
#include "tasks/mqar_domain.h"
#include "verify/construction.h"

namespace cz::mqarc {

Check dyadic_check(const mqar::Domain& dom, std::shared_ptr<const DyadicCircuit> dc, const mqar::Codec& codec);

}  // namespace cz::mqarc
