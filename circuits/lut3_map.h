// Cut-based mapping of a Boolean skeleton into 3-input lookup tables (issue 10: bit-sliced
// evaluation of an ABC-written AIG ≥ 3x ABC's &sim). An AIG spells XOR and MUX as three ANDs, two
// of them read only by the third; folding such single-reader nodes into their reader while the
// cone has at most 3 leaves turns each into one op, which AVX-512 runs as one vpternlogq (its
// 8-bit immediate is the table). A node is folded only into its one reader, so nothing is computed
// twice and no value outlives its reader.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace cz::circuits {

// One node of the skeleton as the bit-sliced compiler sees it (after NOTs became complement flags).
struct Lut3Node {
  enum Op : std::uint8_t { Leaf, Not, And, Or, Xor, Xnor, Mux } op = Leaf;  // Leaf: input or constant
  std::array<std::uint32_t, 3> arg{};  // node indices (< this node's); Mux: s ? arg1 : arg2
  std::array<bool, 2> neg{};           // complement flags on arg0, arg1 (And, Or)
};

struct Lut3Map {
  std::vector<std::uint8_t> absorbed;                 // folded into its reader: emit nothing
  std::vector<std::uint8_t> mapped;                   // emit as a table over leaves
  std::vector<std::array<std::uint32_t, 3>> leaves;   // mapped: up to 3 operands (unused repeat leaves[0])
  std::vector<std::uint8_t> table;                    // mapped: vpternlogq table over (leaves[0], [1], [2])
};

// live[k]: node k is evaluated; pinned[k]: k is an output (never folded).
Lut3Map map_lut3(const std::vector<Lut3Node>& nodes, const std::vector<std::uint8_t>& live,
                 const std::vector<std::uint8_t>& pinned);

// The table applied bitwise to three 8-bit patterns (bit i of the result: table at index
// 4·A_i + 2·B_i + C_i, vpternlogq's convention); apply(t, 0xF0, 0xCC, 0xAA) == t.
std::uint8_t lut3_apply(std::uint8_t table, std::uint8_t a, std::uint8_t b, std::uint8_t c);

}  // namespace cz::circuits
