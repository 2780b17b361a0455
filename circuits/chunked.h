// ChunkedArray: an append-only array of trivially copyable records in fixed-size chunks, the
// storage of the circuit's per-gate tables (gates, BitDefs).
// Why chunks: appending never moves records and never over-allocates more than one chunk, so a
// 10^8-gate build has no vector-doubling peak (builder memory target, issue 10 item 5), and
// record i is one shift and one mask away. The first chunk grows by doubling up to the chunk
// size, so the many small circuits (per-instance builds, tests) do not each pay a full chunk.
// Full chunks are 2 MiB-aligned and advised as transparent huge pages: every new record is a
// first touch, and on a VM a 4 KiB page fault costs several microseconds (measured: 12% of a
// 10^7-gate build went to page faults).
#pragma once
#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "circuits/huge_alloc.h"

namespace cz::circuits {

template <class T, unsigned Shift = 16>
class ChunkedArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  static constexpr std::size_t kChunk = std::size_t{1} << Shift;
  static constexpr std::size_t kFirst = 64;  // capacity of a fresh first chunk

  std::size_t size() const { return size_; }
  const T& operator[](std::size_t i) const { return chunks_[i >> Shift].get()[i & (kChunk - 1)]; }
  T& operator[](std::size_t i) { return chunks_[i >> Shift].get()[i & (kChunk - 1)]; }

  std::size_t push_back(const T& x) {
    if (size_ == cap_) grow();
    (*this)[size_] = x;
    return size_++;
  }

  // Bytes allocated (the memory accounting counts capacity, not size).
  std::size_t capacity_bytes() const { return cap_ * sizeof(T) + chunks_.capacity() * sizeof(Chunk); }

 private:
  void grow() {
    if (cap_ < kChunk) {  // only chunk 0 is ever smaller than kChunk: double it in place
      const std::size_t cap = cap_ ? 2 * cap_ : kFirst;
      Chunk c(static_cast<T*>(huge_alloc(cap * sizeof(T), alignof(T))));  // uninitialised: written before read
      if (size_) std::memcpy(c.get(), chunks_[0].get(), size_ * sizeof(T));
      if (chunks_.empty()) chunks_.emplace_back(std::move(c));
      else chunks_[0] = std::move(c);
      cap_ = cap;
      return;
    }
    chunks_.emplace_back(static_cast<T*>(huge_alloc(kChunk * sizeof(T), alignof(T))));
    cap_ += kChunk;
  }

  struct Free {
    void operator()(T* p) const { huge_free(p); }
  };
  using Chunk = std::unique_ptr<T, Free>;
  std::vector<Chunk> chunks_;
  std::size_t size_ = 0, cap_ = 0;
};

}  // namespace cz::circuits
