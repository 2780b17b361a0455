#include "circuits/gate_table.h"

namespace cz::circuits {

void GateTable::add_windows(std::size_t windows) {
  // Windows are only appended (gate ids only grow), each as 24 empty buckets.
  for (; windows_ < windows; ++windows_)
    for (unsigned k = 0; k < kWindowBuckets; ++k) buckets_.push_back(Bucket{});  // zero: empty
}

GateId GateTable::find_overflow(Op op, GateId a, GateId b, Spot& spot) const {
  const auto& m = overflow_[op == Op::Mul];
  if (auto it = m.find(okey(a, b)); it != m.end()) return it->second;
  spot = Spot{kOverflow, 0};
  return kNoGate;
}

void GateTable::insert_overflow(Op op, GateId a, GateId b, GateId id) { overflow_[op == Op::Mul].emplace(okey(a, b), id); }

std::size_t GateTable::bytes() const {
  std::size_t n = buckets_.capacity_bytes();
  for (const auto& m : overflow_)  // a node (key, id, next pointer, cached hash) and a bucket pointer each
    n += m.size() * (sizeof(std::uint64_t) + sizeof(GateId) + 2 * sizeof(void*)) + m.bucket_count() * sizeof(void*);
  return n;
}

void GateTable::release() {
  buckets_ = ChunkedArray<Bucket, 15>();
  windows_ = 0;
  for (auto& m : overflow_) std::unordered_map<std::uint64_t, GateId>().swap(m);
}

}  // namespace cz::circuits
