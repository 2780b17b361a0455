// The structural hash of an AIG (ABC's Abc_AigAnd): x∧0 = 0, x∧1 = x, x∧x = x, x∧¬x = 0, operands
// in canonical order (rhs0 >= rhs1), one node per distinct (rhs0, rhs1). Literals are 2·var +
// complement; var 0 is false, vars 1..I the inputs, then the ANDs in the order they were made
// (topological). Shared by to_aig (aig.cpp) and aig_match (aig_match.h), so two circuits lowered
// through it reach the same literal exactly when their AND structures agree.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cz::circuits {

class AigStrash {
 public:
  explicit AigStrash(std::uint32_t inputs) : inputs_(inputs) {}
  std::uint32_t and_(std::uint32_t a, std::uint32_t b) {
    if (a < b) std::swap(a, b);  // canonical: rhs0 >= rhs1 (AIGER's binary form wants it too)
    if (b == 0) return 0;
    if (b == 1) return a;
    if (a == b) return a;
    if ((a ^ b) == 1) return 0;
    const std::uint64_t key = std::uint64_t{a} << 32 | b;
    if (auto it = table_.find(key); it != table_.end()) return it->second;
    const std::uint32_t lit = 2 * (1 + inputs_ + static_cast<std::uint32_t>(ands_.size()));
    ands_.emplace_back(a, b);
    table_.emplace(key, lit);
    return lit;
  }
  std::uint32_t or_(std::uint32_t a, std::uint32_t b) { return and_(a ^ 1, b ^ 1) ^ 1; }
  std::uint32_t mux(std::uint32_t s, std::uint32_t a, std::uint32_t c) { return or_(and_(s, a), and_(s ^ 1, c)); }
  std::uint32_t xor_(std::uint32_t a, std::uint32_t b) { return or_(and_(a, b ^ 1), and_(a ^ 1, b)); }
  std::vector<std::pair<std::uint32_t, std::uint32_t>>& ands() { return ands_; }

 private:
  std::uint32_t inputs_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ands_;
  std::unordered_map<std::uint64_t, std::uint32_t> table_;
};

}  // namespace cz::circuits
