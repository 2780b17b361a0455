// Batched evaluation over Fp (p < 2^62 prime): many instances per pass. The live gates are
// compiled once into a straight-line program over a small working array (circuits/slots.h);
// instances run in blocks of kBlock lanes, so every gate is one tight loop over the lanes
// (cache-friendly: the working set is width_cut·kBlock words), and blocks are spread over
// threads. Multiplication uses FLINT's preinverted n_mulmod2_preinv (kept in the .cpp).
//   BatchFp ev(c, p);  auto out = ev.run(inputs, instances);   // row-major instances×inputs
#pragma once
#include <cstdint>
#include <vector>

#include "circuits/circuit.h"

namespace cz::circuits {

class BatchFp {
 public:
  static constexpr std::size_t kBlock = 64;
  // Throws std::invalid_argument unless p is a prime below 2^62, std::domain_error when a live
  // constant is not in Fp (p divides a denominator).
  BatchFp(const Circuit& c, std::uint64_t p);
  std::uint64_t prime() const { return p_; }
  std::size_t working_slots() const { return slots_; }
  std::size_t program_size() const { return code_.size(); }

  // inputs: instances × num_inputs (row-major, values in [0, p)); returns instances × outputs.
  std::vector<std::uint64_t> run(const std::vector<std::uint64_t>& inputs, std::size_t instances,
                                 unsigned threads = 1) const;
  // One block of up to kBlock instances, lane-major: in[i*kBlock + lane], out[o*kBlock + lane].
  void run_block(const std::uint64_t* in, std::uint64_t* out, std::vector<std::uint64_t>& work) const;

 private:
  enum class K : std::uint8_t { Input, Const, Add, Mul };
  struct Instr { K k; std::uint32_t dst, a, b; std::uint64_t c; };
  std::uint64_t p_, pinv_;
  std::vector<Instr> code_;
  std::vector<std::uint32_t> out_slot_;
  std::size_t slots_ = 0, n_inputs_ = 0;
};

}  // namespace cz::circuits

namespace cz::circuits {

// Batched checked int64 (the exact fast path for integral circuits, many instances per pass): the
// same slot-allocated program as BatchFp, kBlock lanes per block, wrapping arithmetic with an
// overflow flag per lane. A lane whose flag is set has meaningless outputs and must be redone
// exactly (Evaluator<RingZ>); the other lanes are exact. A live constant outside int64 flags every
// lane. Throws std::domain_error when a live constant is not an integer (use Q for those).
class BatchI64 {
 public:
  static constexpr std::size_t kBlock = 256;
  explicit BatchI64(const Circuit& c);
  std::size_t working_slots() const { return slots_; }
  std::size_t program_size() const { return code_.size(); }
  std::size_t num_outputs() const { return out_slot_.size(); }
  // in[i*kBlock + lane], out[o*kBlock + lane], ovf[lane] != 0 where the lane overflowed.
  void run_block(const std::int64_t* in, std::int64_t* out, std::uint64_t* ovf, std::vector<std::int64_t>& work) const;

  enum class K : std::uint8_t { Input, Const, Big, Add, Mul, AddC, MulC };
  struct Instr { K k; std::uint32_t dst, a, b; std::int64_t c; };

 private:
  std::vector<Instr> code_;
  std::vector<std::uint32_t> out_slot_;
  std::size_t slots_ = 0, n_inputs_ = 0;
};

}  // namespace cz::circuits
