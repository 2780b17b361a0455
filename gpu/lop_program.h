// An all-Bit circuit compiled for the bit-sliced device path (issue 12): a straight-line program of
// 3-input Boolean ops over 32-bit words (gpu/lop3.h), one lane per instance.
//   * NOTs, complement flags and constants are folded into the truth tables of the ops that read
//     them (a NOT costs an op only when an output needs the complemented value); an op whose
//     folded table depends on fewer variables is narrowed, and one that is constant or a plain
//     (complemented) copy becomes no op at all.
//   * Values live in working slots reused after their last reader (circuits/slots.h), so a word
//     group needs about the circuit's width of slots, not one per gate.
//   * Inputs are preloaded into their slots before the first op (input_slots; an input no output
//     depends on has none); every output ends in a slot (output_slots).
// Ops are kept in the circuit's topological order: each thread runs the whole program
// sequentially, so level order would only widen the live set; levels() reports the depth.
// Refuses circuits whose outputs are not all Bit wires exactly like circuits::BitSliced
// (std::invalid_argument): evaluating an integer circuit mod 2 is unsound.
#pragma once
#include <cstdint>
#include <vector>

#include "circuits/circuit.h"
#include "gpu/lop3.h"

namespace cz::gpu {

class LopProgram {
 public:
  explicit LopProgram(const circuits::Circuit& c);
  const std::vector<LopOp>& ops() const { return ops_; }
  std::uint32_t slots() const { return slots_; }
  std::uint32_t levels() const { return levels_; }
  std::size_t num_inputs() const { return in_slot_.size(); }
  std::size_t num_outputs() const { return out_slot_.size(); }
  const std::vector<std::uint32_t>& input_slots() const { return in_slot_; }
  const std::vector<std::uint32_t>& output_slots() const { return out_slot_; }
  LopView view() const;

 private:
  std::vector<LopOp> ops_;
  std::vector<std::uint32_t> in_slot_, out_slot_;
  std::uint32_t slots_ = 0, levels_ = 0;
};

}  // namespace cz::gpu
