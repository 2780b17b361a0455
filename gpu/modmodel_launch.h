// The CUDA side of the modular model (issue 12): a ModModel's arena uploaded once, then batches of
// instances × primes run through the bodies of gpu/modmodel_kernel.h (one thread per entry for
// projections and gates, per channel for the NTT convolution, per column for attention) and
// gpu/modmodel_mqar.h (one thread per output entry for the verdict; failures counted with
// atomicAdd, the smallest failing index with atomicMin). Defined in modmodel_launch.cu, or in
// modmodel_launch_nocuda.cpp (throws) when the build has no CUDA. Light header (nvcc includes it).
#pragma once
#include <cstdint>
#include <memory>

#include "gpu/modmodel_kernel.h"
#include "gpu/modmodel_mqar.h"
#include "gpu/mqar_sampled.h"

namespace cz::gpu {

class ModModelDevice {
 public:
  virtual ~ModModelDevice() = default;
  // Checks triples instances [k0, k0 + count): adds the failures to `failed` and lowers `first`
  // (UINT64_MAX: none yet) to the smallest failing index.
  virtual void mqar(const TriplesSource& source, const ModCodec& codec, std::uint64_t k0, std::uint64_t count,
                    std::uint64_t& failed, std::uint64_t& first) = 0;
  // Evaluates `count` inputs (entry (i, j) of instance t = mod_random_entry(seed, t, i, j, bound))
  // and, when out != nullptr, copies the residues back: out[((t·primes + q)·N' + i)·d' + j].
  virtual void eval_random(std::uint64_t count, std::uint64_t seed, std::int64_t bound, std::uint32_t* out) = 0;
  virtual std::uint64_t max_batch() const = 0;  // instances per launch (bounded by scratch memory)
};

// `view.arena` is the host copy (`words` long) to upload. Throws std::runtime_error when the build
// or the machine has no CUDA device, or the scratch does not fit.
std::unique_ptr<ModModelDevice> make_mod_device(const ModModelView& view, std::uint64_t words, std::uint64_t max_batch);

}  // namespace cz::gpu
