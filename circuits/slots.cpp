#include "circuits/slots.h"

namespace cz::circuits {

SlotPlan allocate_slots(const std::vector<std::array<std::uint32_t, 3>>& nodes, const std::vector<std::uint8_t>& pinned) {
  const std::size_t n = nodes.size();
  std::vector<std::uint32_t> last(n, 0);
  for (std::uint32_t k = 0; k < n; ++k) {
    last[k] = k;
    for (auto o : nodes[k])
      if (o != kNoSlot) last[o] = k;
  }
  SlotPlan p;
  p.slot.assign(n, kNoSlot);
  std::vector<std::uint32_t> free_list;
  for (std::uint32_t k = 0; k < n; ++k) {
    // Operands whose last reader is k give their slot back first, so k may reuse it in place
    // (every evaluator reads all operands of a lane before writing its result).
    for (std::size_t i = 0; i < 3; ++i) {
      std::uint32_t o = nodes[k][i];
      if (o == kNoSlot || last[o] != k || pinned[o]) continue;
      bool dup = false;
      for (std::size_t j = 0; j < i; ++j) dup = dup || nodes[k][j] == o;
      if (!dup) free_list.push_back(p.slot[o]);
    }
    if (!free_list.empty()) {
      p.slot[k] = free_list.back();
      free_list.pop_back();
    } else {
      p.slot[k] = p.slots++;
    }
    if (last[k] == k && !pinned[k]) free_list.push_back(p.slot[k]);  // never read: dead on arrival
  }
  return p;
}

}  // namespace cz::circuits
