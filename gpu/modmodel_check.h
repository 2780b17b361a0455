// The device path of MQAR model checks on triples domains (issue 12): instance k is unranked or
// drawn where it is checked (gpu/mqar_triples.h, gpu/mqar_sampled.h), encoded (gpu/modmodel_mqar.h), run through the
// model modulo a few NTT primes (gpu/modmodel_kernel.h) and its whole N×d output compared with the
// encoded reference answers (verify/mqar_check.h's rule), exactly: the certified bound of
// gpu/modmodel.h makes equality of residues equality of integers. twin() runs the bodies on the
// CPU; cuda() through gpu/modmodel_launch.h.
#pragma once
#include <memory>

#include "gpu/modmodel.h"
#include "gpu/modmodel_mqar.h"
#include "tasks/mqar.h"
#include "tasks/mqar_domain.h"
#include "verify/construction.h"

namespace cz::gpu {

ModCodec mod_codec(const mqar::Codec& c);

// The program for `model` (whose output is checked against the MQAR reference on `dom` in the
// encoding `codec`). Throws std::invalid_argument unless dom is a triples domain (exhaustive or
// triples_sampled) with
// N = 3n, the model's N×d matches it, and ModModel accepts the model (inputs are 0/1).
std::shared_ptr<const DeviceProgram> mqar_mod_program(const mqar::Domain& dom, const mqar::Codec& codec, const Model& model);

// Same, or nullptr where the model has no such device path (the construction then has none).
std::shared_ptr<const DeviceProgram> try_mqar_mod_program(const mqar::Domain& dom, const mqar::Codec& codec,
                                                          const Model& model);

}  // namespace cz::gpu
