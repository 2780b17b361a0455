// GateTable: the builder's hash-consing index: which Add/Mul gate, if any, already computes
// (op, a, b), a <= b. It stores only 32-bit gate ids; the keys live in the gate array itself.
//   Buckets  : one 64-byte cache line holds 12 ids, their 8-bit hash fingerprints and a count.
//              A lookup touches the gate array only on a fingerprint match (1/256 of foreign
//              slots), so a probe costs one line, not one gate fetch per slot.
//   Windows  : the key's larger operand b picks its window (b / 4096): 384 buckets (24 KiB)
//              for the keys whose larger operand is one of those 4096 gate ids; the hash picks
//              the bucket inside. Why: a builder mostly combines wires it has just made, so most
//              lookups land in the last window or two, which stay in cache; a plain hash table
//              of 10^7 gates costs one DRAM miss a lookup (measured: 80% of the build time).
//              The table grows with the gate ids, a window at a time (ChunkedArray): no rehash,
//              no doubling peak, 6 bytes a gate id (384 x 64 / 4096) whatever the size.
//   Probing  : a full bucket sends the search to the next bucket (linear probing; past the
//              last window, a window is added), for at most 32 buckets. Windows are large so
//              that busy stretches of ids (a comparator's outputs are each the larger operand of
//              several later gates) average out with quiet ones.
//   Overflow : a key whose 32 buckets are all full (a wire combined with thousands of older
//              ones) goes to a small ordinary hash map; a search that finds its 32 buckets full
//              looks there (buckets never empty, so the same search stays full).
#pragma once
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "circuits/chunked.h"
#include "circuits/circuit.h"

namespace cz::circuits {

class GateTable {
 public:
  static constexpr unsigned kSlots = 12;
  static constexpr unsigned kWindowShift = 12;    // 4096 gate ids a window
  static constexpr unsigned kWindowBuckets = 384;  // 4608 slots: load <= 0.89 with a key an id
  static constexpr unsigned kMaxProbe = 32;
  struct alignas(64) Bucket {
    GateId id[kSlots];
    std::uint8_t fp[kSlots];
    std::uint32_t used;
  };
  static_assert(sizeof(Bucket) == 64);

  // Where a key that is not in the table goes (filled by find, consumed by insert).
  struct Spot {
    std::size_t bucket = 0;  // kOverflow: the overflow map
    std::uint8_t fp = 0;
  };
  static constexpr std::size_t kOverflow = ~std::size_t{0};

  static std::uint64_t hash(Op op, GateId a, GateId b) {
    std::uint64_t x = (std::uint64_t{a} << 32 | b) ^ (std::uint64_t(op) << 62);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
  }

  // The id of the Add/Mul gate (op, a, b), a <= b, in `gates`, or kNoGate with `spot` set for
  // insert.
  GateId find(const GateArray& gates, Op op, GateId a, GateId b, Spot& spot) {
    const std::size_t w = b >> kWindowShift;
    if (w >= windows_) add_windows(w + 1);
    const std::uint64_t h = hash(op, a, b);
    const std::uint8_t f = static_cast<std::uint8_t>(h);
    std::size_t k = w * kWindowBuckets + static_cast<std::size_t>(((h >> 32) * kWindowBuckets) >> 32);
    for (unsigned step = 0; step < kMaxProbe; ++step, ++k) {
      if (k == windows_ * kWindowBuckets) add_windows(windows_ + 1);  // spill past the last window
      const Bucket& bk = buckets_[k];
      for (unsigned s = 0; s < bk.used; ++s)
        if (bk.fp[s] == f) {
          const PackedGate& g = gates[bk.id[s]];
          if (g.a == a && g.b == b && g.op() == op) return bk.id[s];
        }
      if (bk.used < kSlots) {
        spot = Spot{k, f};
        return kNoGate;
      }
    }
    return find_overflow(op, a, b, spot);  // all kMaxProbe buckets are full
  }

  // Records gate `id` at the spot find returned for its key.
  void insert(const Spot& spot, Op op, GateId a, GateId b, GateId id) {
    if (spot.bucket == kOverflow) return insert_overflow(op, a, b, id);
    Bucket& bk = buckets_[spot.bucket];
    bk.id[bk.used] = id;
    bk.fp[bk.used] = spot.fp;
    ++bk.used;
  }

  // Bytes held: window buckets by capacity, the overflow map by its nodes and buckets.
  std::size_t bytes() const;
  std::size_t overflow_keys() const { return overflow_[0].size() + overflow_[1].size(); }
  void release();  // frees everything (the finished circuit does not need the index)

 private:
  void add_windows(std::size_t windows);
  GateId find_overflow(Op op, GateId a, GateId b, Spot& spot) const;
  void insert_overflow(Op op, GateId a, GateId b, GateId id);
  // (a, b) fills 64 bits, so the op picks one of two maps.
  static std::uint64_t okey(GateId a, GateId b) { return std::uint64_t{a} << 32 | b; }

  ChunkedArray<Bucket, 15> buckets_;  // window w = buckets [384w, 384w + 384); chunks of 2 MiB
  std::size_t windows_ = 0;
  std::unordered_map<std::uint64_t, GateId> overflow_[2];  // [0] Add, [1] Mul
};

}  // namespace cz::circuits
