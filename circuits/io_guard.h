// Readers' guard against constant blow-up (issue 9, found by fuzzing): the Builder folds constant
// arithmetic, so a file of a few lines "c1 = c0·c0, c2 = c1·c1, ..." squares a constant on every
// line and would need 2^k bits after k lines. Readers call after_gate() on each gate they build;
// a newly folded constant above kMaxConstBits, or folded constants above the memory budget in
// total, is an InputError at that gate.
#pragma once
#include <cstdint>
#include <string>

#include "circuits/builder.h"
#include "util/error.h"
#include "util/memory_budget.h"

namespace cz::circuits {

class ConstGuard {
 public:
  static constexpr std::uint64_t kMaxConstBits = std::uint64_t(1) << 20;

  // `size_before` is b.size() before the gate was built (only new constants count).
  void after_gate(const Builder& b, std::size_t size_before, Wire w, const std::string& where) {
    if (b.size() == size_before) return;
    const Rat* v = b.const_value(w);
    if (!v) return;
    const std::uint64_t bits = v->num().bits() + v->den().bits();
    if (bits > kMaxConstBits)
      throw InputError("constant folding makes a constant of " + std::to_string(bits) + " bits here (at most 2^20 allowed)", where);
    total_bits_ += bits;
    require_memory(total_bits_ / 8 * 4, "the constants this circuit folds", where);
  }

 private:
  std::uint64_t total_bits_ = 0;
};

}  // namespace cz::circuits
