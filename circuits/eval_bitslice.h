// Bit-sliced evaluation: 64 instances per machine word, kWords words per block (512 instances;
// the inner loop is compiled for AVX-512, AVX2 and plain x86-64 and picked at run time). Only
// circuits whose outputs are all Bit are accepted: their values on 0/1 inputs are determined by
// the certified BitDefs (circuit.h), so evaluating the Boolean skeleton is exact. Evaluating an
// arbitrary integer circuit mod 2 is NOT sound (x·y + x·y = 0 mod 2 but 2 over Z; 1/2 has no
// meaning), so the constructor refuses any other circuit with std::invalid_argument.
// Inputs are 0/1 (bit k of a word = instance k). exhaustive_inputs() fills a block with the
// instances base .. base+511 of the enumeration "input i = bit i of the instance number".
#pragma once
#include <cstdint>
#include <vector>

#include "circuits/circuit.h"

namespace cz::circuits {

class BitSliced {
 public:
  static constexpr std::size_t kWords = 8;
  static constexpr std::size_t kInstances = 64 * kWords;

  // fuse_not: a NOT read by AND/OR/XOR/XNOR/MUX becomes a complement flag on that operand
  // (AND-with-complement ops: an AIG costs one op per AND instead of ~1.85); a NOT left with no
  // other reader is dropped; and on AVX-512 CPUs single-reader nodes fold into 3-input tables
  // (an AIG's XOR or MUX, three ANDs, becomes one op). fuse_not = false keeps every NOT as its own
  // op and every gate as itself (the reference).
  explicit BitSliced(const Circuit& c, bool fuse_not = true);
  std::size_t num_inputs() const { return n_inputs_; }
  std::size_t num_outputs() const { return out_slot_.size(); }
  std::size_t program_size() const { return code_.size(); }
  std::size_t working_slots() const { return slots_; }

  // in[i*kWords + w]: input i, word w; out[o*kWords + w]. `work` is scratch (reused).
  void run_block(const std::uint64_t* in, std::uint64_t* out, std::vector<std::uint64_t>& work) const;
  // nb blocks in one pass over the program (the per-op dispatch is paid once): in and out are nb
  // consecutive single-block arrays (block j: in + j·num_inputs·kWords, out + j·num_outputs·kWords).
  void run_blocks(const std::uint64_t* in, std::uint64_t* out, std::size_t nb, std::vector<std::uint64_t>& work) const;

  static void exhaustive_inputs(std::uint64_t base, std::size_t n_inputs, std::uint64_t* in);

  // AndC: ((x ^ cx) & (y ^ cy)) ^ cr with the complement flags cx, cy, cr in bits 0, 1, 2 of z:
  // every AND/OR of complemented operands is this one op (an AIG runs branch-predictably).
  // Lut3: any function of x, y, z given by its 8-bit table t (vpternlogq's immediate): emitted only
  // on CPUs with AVX-512, where single-reader nodes are folded into their reader (lut3_map.h).
  enum class K : std::uint8_t { Input, Const0, Const1, Not, And, Or, Xor, Xnor, Mux, AndC, Lut3 };
  struct Instr { K k; std::uint8_t t; std::uint32_t dst, x, y, z; };
  std::size_t lut3_ops() const { return lut3_; }

 private:
  std::vector<Instr> code_;
  std::vector<std::uint32_t> out_slot_;
  std::size_t slots_ = 0, n_inputs_ = 0, lut3_ = 0;
};

}  // namespace cz::circuits
