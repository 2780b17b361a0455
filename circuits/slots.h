// Slot allocation for the batched evaluators (Fp and bit-sliced): each value gets a slot in a
// small working array and a slot is reused once its value's last reader has run (linear scan
// over the topological order, the register-allocation view of ABC's frontier cut). The working
// set is then about `width_cut` values instead of one per gate, which keeps a block of many
// instances in cache.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace cz::circuits {

inline constexpr std::uint32_t kNoSlot = 0xffffffffu;

struct SlotPlan {
  std::vector<std::uint32_t> slot;  // per node
  std::uint32_t slots = 0;          // working-array size
};

// nodes[k] = operands of node k (node indices < k, kNoSlot for unused); pinned nodes (outputs)
// keep their slot to the end.
SlotPlan allocate_slots(const std::vector<std::array<std::uint32_t, 3>>& nodes, const std::vector<std::uint8_t>& pinned);

}  // namespace cz::circuits
